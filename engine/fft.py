"""torch.fft: the transforms (fft, ifft, rfft, irfft, hfft, ihfft and their 2-d and n-d forms) as ATen composes
them of its three transforms (engine/ops/spectral.py), the inputs cut (SliceBackward0) or padded
(ConstantPadNdBackward0) to the sizes asked for first; fftfreq, rfftfreq, fftshift, ifftshift."""
from . import dtypes, factories
from .methods import _with_out
from .ops.padding import pad as _pad
from .ops.spectral import c2c, c2r, r2c

_NORMS = {None: (0, 2), "backward": (0, 2), "forward": (2, 0), "ortho": (1, 1)}


def _normalization(norm, forward):
    if norm not in _NORMS:
        raise RuntimeError(f"Invalid normalization mode: \"{norm}\"")
    return _NORMS[norm][0 if forward else 1]


def _promoted(x, require_complex=False):
    """ATen's promote_tensor_fft: integers to the default dtype; float16 is refused on the CPU."""
    if x.dtype is dtypes.float16:
        raise RuntimeError("Unsupported dtype Half")
    if not x.dtype._grads:
        x = x.to(dtypes.get_default_dtype())
    if require_complex and not x.dtype.is_complex:
        x = x.to(dtypes.to_complex(x.dtype))
    return x


def _points(n):
    if n is not None and n != -1 and n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _resized(x, dims, sizes):
    """ATen's resize_fft_input: each dim cut to its size (-1 or None: kept), then one zero padding for the rest."""
    amounts = [0] * (2 * x.dim())
    padded = False
    for d, n in zip(dims, sizes):
        if n is None or n == -1:
            continue
        have = x.shape[d]
        if have < n:
            padded = True
            amounts[len(amounts) - 2 * d - 1] = n - have
        elif have > n:
            x = x.narrow(d, 0, n)
    return _pad(x, tuple(amounts)) if padded else x


def _one(name, x, n, dim, complex_input=None):
    _points(n)
    if complex_input is not None and x.dtype.is_complex != complex_input:
        raise RuntimeError(f"{name} expects a real input tensor, but got {x.dtype.type_name}")
    return x._dim(dim)


def fft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _c2c_or_r2c(input, [n], [dim], norm, True)


def ifft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _c2c_or_r2c(input, [n], [dim], norm, False)


def _wrapped(x, dims):
    """ATen's maybe_wrap_dim without wrapping a scalar: a 0-dim tensor has no dim to transform."""
    if not x.dim():
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    return [x._dim(d) for d in dims]


def _c2c_or_r2c(input, sizes, dims, norm, forward):  # noqa: A002
    x = _promoted(input)
    for n in sizes:
        _points(n)
    dims = _wrapped(x, dims)
    x = _resized(x, dims, sizes)
    if x.dtype.is_complex:
        return c2c(x, dims, _normalization(norm, forward), forward)
    out = r2c(x, dims, _normalization(norm, forward), False)
    return out if forward else out.conj()


def rfft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _rfftn("rfft", input, [n], [dim], norm, True)


def ihfft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _rfftn("ihfft", input, [n], [dim], norm, False)


def _rfftn(name, input, sizes, dims, norm, forward):  # noqa: A002
    if input.dtype.is_complex:
        raise RuntimeError(f"{name} expects a real input tensor, but got {input.dtype.type_name}")
    x = _promoted(input)
    for n in sizes:
        _points(n)
    dims = _wrapped(x, dims)
    out = r2c(_resized(x, dims, sizes), dims, _normalization(norm, forward), True)
    return out if forward else out.conj()


def irfft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _irfftn(input, [n], [dim], norm, False)


def hfft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _irfftn(input, [n], [dim], norm, True)


def _irfftn(input, sizes, dims, norm, forward):  # noqa: A002
    x = _promoted(input, require_complex=True)
    dims = _wrapped(x, dims)
    last = sizes[-1] if sizes[-1] not in (None, -1) else 2 * (x.shape[dims[-1]] - 1)
    _points(last)
    x = _resized(x, dims, list(sizes[:-1]) + [last // 2 + 1])
    if forward:
        x = x.conj()
    return c2r(x, dims, _normalization(norm, forward), last)


def _shape_and_dims(x, s, dim):
    """ATen's canonicalize_fft_shape_and_dim_args: the dims (all, or the last len(s)) and a size for each."""
    if dim is not None:
        dims = [x._dim(d) for d in ([dim] if isinstance(dim, int) else dim)]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        s = list(s)
        if dim is None:
            if len(s) > x.dim():
                raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {x.dim()} dimensions.")
            dims = list(range(x.dim() - len(s), x.dim()))
        elif len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        return s, dims
    if dim is None:
        dims = list(range(x.dim()))
    return [None] * len(dims), dims


def fftn(input, s=None, dim=None, norm=None):  # noqa: A002
    sizes, dims = _shape_and_dims(input, s, dim)
    return _c2c_or_r2c(_promoted(input, require_complex=True), sizes, dims, norm, True)


def ifftn(input, s=None, dim=None, norm=None):  # noqa: A002
    sizes, dims = _shape_and_dims(input, s, dim)
    return _c2c_or_r2c(_promoted(input, require_complex=True), sizes, dims, norm, False)


def fft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return fftn(input, s, dim, norm)


def ifft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return ifftn(input, s, dim, norm)


def rfftn(input, s=None, dim=None, norm=None):  # noqa: A002
    sizes, dims = _shape_and_dims(input, s, dim)
    return _rfftn("rfftn", input, sizes, dims, norm, True)


def rfft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return rfftn(input, s, dim, norm)


def irfftn(input, s=None, dim=None, norm=None):  # noqa: A002
    sizes, dims = _shape_and_dims(input, s, dim)
    return _irfftn(input, sizes, dims, norm, False)


def irfft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return irfftn(input, s, dim, norm)


def hfftn(input, s=None, dim=None, norm=None):  # noqa: A002
    """ATen's fft_hfftn_impl: C2C over all dims but the last, then C2R of the conjugate over the last."""
    sizes, dims = _shape_and_dims(input, s, dim)
    if not dims:
        raise RuntimeError("hfftn must transform at least one axis")
    x = _promoted(input, require_complex=True)
    dims = _wrapped(x, dims)
    last = sizes[-1] if sizes[-1] not in (None, -1) else 2 * (x.shape[dims[-1]] - 1)
    _points(last)
    x = _resized(x, dims, list(sizes[:-1]) + [last // 2 + 1])
    normalization = _normalization(norm, True)
    if len(dims) > 1:
        x = c2c(x, dims[:-1], normalization, True)
    return c2r(x.conj(), dims[-1:], normalization, last)


def hfft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return hfftn(input, s, dim, norm)


def ihfftn(input, s=None, dim=None, norm=None):  # noqa: A002
    """ATen's fft_ihfftn_impl: onesided R2C over the last dim, then C2C over the others of its conjugate."""
    sizes, dims = _shape_and_dims(input, s, dim)
    if not dims:
        raise RuntimeError("ihfftn must transform at least one axis")
    x = _promoted(input)
    dims = _wrapped(x, dims)
    for n in sizes:
        _points(n)
    x = _resized(x, dims, sizes)
    if x.dtype.is_complex:  # _fft_r2c's check
        raise RuntimeError(f"Only supports floating-point dtypes, but found: {x.dtype.type_name}")
    normalization = _normalization(norm, False)
    out = r2c(x, dims[-1:], normalization, True)
    if len(dims) == 1:
        return out.conj()
    return c2c(out.conj_physical(), dims[:-1], normalization, False)


def ihfft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return ihfftn(input, s, dim, norm)


def _frequencies(name, count, n, d, dtype, requires_grad):
    dtype = dtype or dtypes.get_default_dtype()
    if not dtype._grads:
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    k = factories.arange(count, dtype=dtypes.to_real(dtype)) if not dtype.is_complex else \
        factories.arange(count, dtype=dtypes.to_real(dtype)).to(dtype)
    if name == "fftfreq" and n > 1:
        k._data[(n + 1) // 2:] -= n
    scale = factories.tensor(1.0 / (n * d), dtype=dtype)
    return (k * scale).requires_grad_(requires_grad) if requires_grad else k * scale


def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _frequencies("fftfreq", n, n, d, dtype, requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _frequencies("rfftfreq", n // 2 + 1, n, d, dtype, requires_grad)


def _shifted(input, dim, back):  # noqa: A002
    dims = list(range(input.dim())) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    shifts = [(input.shape[d] + back) // 2 for d in dims]
    return input.roll(shifts, dims)


def fftshift(input, dim=None):  # noqa: A002
    return _shifted(input, dim, 0)


def ifftshift(input, dim=None):  # noqa: A002
    return _shifted(input, dim, 1)


for _name in ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
              "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn"):
    globals()[_name] = _with_out(globals()[_name], _name)

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
