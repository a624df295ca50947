"""ATen's three discrete Fourier transforms, which torch.fft's functions (engine/fft.py) are made of: complex to
complex, real to complex (onesided: the last dim's non-redundant half) and complex to real. normalization is ATen's:
0 none, 1 by 1/√n, 2 by 1/n, whichever the direction."""
import math

import numpy as np

from .. import dtypes
from .table import OPS, Spelling, op

# numpy's norm= giving ATen's normalization, for a forward and for an inverse transform
_NORM = {True: ("backward", "ortho", "forward"), False: ("forward", "ortho", "backward")}


def _laid_out(out, strides, dim, exclude_last):
    """ATen's layout of a transform's result: the dims not transformed outermost (by the input's strides, largest
    first), then the transformed ones, by the input's strides too (a onesided transform's last dim stays last)."""
    if out.ndim < 2:
        return out
    batch = sorted((d for d in range(out.ndim) if d not in dim), key=lambda d: -strides[d])
    moved = list(dim[:-1] if exclude_last else dim)
    order = batch + sorted(moved, key=lambda d: -strides[d]) + ([dim[-1]] if exclude_last else [])
    if order == list(range(out.ndim)):
        return np.ascontiguousarray(out)
    laid = np.empty([out.shape[d] for d in order], out.dtype)
    laid[...] = out.transpose(order)
    return laid.transpose(np.argsort(order))


def _c2c(a, dim, normalization, forward):
    fn = np.fft.fftn if forward else np.fft.ifftn
    return _laid_out(fn(a, axes=dim, norm=_NORM[forward][normalization]).astype(a.dtype, copy=False), a.strides, dim,
                     False)


def _r2c(a, dim, normalization, onesided):
    out = np.complex128 if a.dtype == np.float64 else np.complex64
    half = np.fft.rfftn(a, axes=dim, norm=_NORM[True][normalization]).astype(out, copy=False)
    return _laid_out(half if onesided else _conjugate_filled(half, dim, a.shape[dim[-1]]), a.strides, dim, True)


def _conjugate_filled(half, dim, n):
    """ATen's _fft_fill_with_conjugate_symmetry_: the full transform of real data from its onesided half, each left
    out entry the conjugate of its mirror image (index −k mod size along every transformed dim)."""
    last = dim[-1]
    shape = list(half.shape)
    shape[last] = n
    full = np.empty(shape, half.dtype)
    kept = half.shape[last]
    full[(slice(None),) * last + (slice(0, kept),)] = half
    mirrored = half
    for d in dim[:-1]:
        mirrored = np.roll(np.flip(mirrored, d), 1, d)
    for k in range(kept, n):
        full[(slice(None),) * last + (k,)] = np.conj(mirrored[(slice(None),) * last + (n - k,)])
    return full


def _c2r(a, dim, normalization, last_dim_size):
    sizes = [a.shape[d] for d in dim[:-1]] + [last_dim_size]
    out = np.float64 if a.dtype == np.complex128 else np.float32
    return _laid_out(np.fft.irfftn(a, s=sizes, axes=dim, norm=_NORM[False][normalization]).astype(out, copy=False),
                     a.strides, dim, True)


def _sized(sizes_of):
    def numel(arrays, attrs):
        return math.prod(sizes_of(arrays[0].shape, attrs))

    return numel


def _r2c_shape(shape, attrs):
    shape = list(shape)
    if attrs["onesided"]:
        shape[attrs["dim"][-1]] = shape[attrs["dim"][-1]] // 2 + 1
    return shape


def _c2r_shape(shape, attrs):
    shape = list(shape)
    shape[attrs["dim"][-1]] = attrs["last_dim_size"]
    return shape


def c2c(t, dim, normalization, forward):
    return t._apply(OPS["fft_c2c"], (t,), {"dim": dim, "normalization": normalization, "forward": forward}, t.dtype)


def r2c(t, dim, normalization, onesided):
    return t._apply(OPS["fft_r2c"], (t,), {"dim": dim, "normalization": normalization, "onesided": onesided},
                    dtypes.to_complex(t.dtype))


def c2r(t, dim, normalization, last_dim_size):
    return t._apply(OPS["fft_c2r"], (t,), {"dim": dim, "normalization": normalization, "last_dim_size": last_dim_size},
                    dtypes.to_real(t.dtype))


def _r2c_grad(n, g):
    """ATen's fft_r2c_backward: the inverse C2C transform's real part, of grad filled out with zeros where the
    onesided transform left out the redundant half."""
    a = n.attrs
    dim = a["dim"]
    if a["onesided"]:
        last = dim[-1]
        full = n._shapes[0][last]
        if full > g.shape[last]:
            shape = list(g.shape)
            shape[last] = full
            filled = g.new_zeros(shape)
            filled.narrow(last, 0, g.shape[last]).copy_(g)
            g = filled
    return c2c(g, dim, a["normalization"], False).real


def _c2r_grad(n, g):
    """ATen's fft_c2r_backward: the onesided R2C transform of grad, the entries whose mirror image fell outside the
    onesided half doubled."""
    a = n.attrs
    dim = a["dim"]
    gi = r2c(g, dim, a["normalization"], True)
    double = g.shape[dim[-1]] - gi.shape[dim[-1]]
    if double > 0:
        gi.narrow(dim[-1], 1, double).mul_(2)
    return gi


op("fft_c2c", "FftC2CBackward0", ("self",), _c2c,
   ("the opposite transform of grad", lambda n, g: c2c(g, n.attrs["dim"], n.attrs["normalization"],
                                                       not n.attrs["forward"])),
   saves={0: ("dim[]", "forward", "normalization")}, bind=False,
   spell=Spelling(name="torch._fft_c2c({0}, {dim}, {normalization}, {forward})"))
op("fft_r2c", "FftR2CBackward0", ("self",), _r2c, ("real part of the inverse transform of grad", _r2c_grad),
   saves={0: ("dim[]", "normalization", "onesided", "self")}, bind=False, numel=_sized(_r2c_shape),
   spell=Spelling(name="torch._fft_r2c({0}, {dim}, {normalization}, {onesided})"))
op("fft_c2r", "FftC2RBackward0", ("self",), _c2r,
   ("onesided transform of grad, the mirrored entries doubled", _c2r_grad),
   saves={0: ("dim[]", "normalization")}, bind=False, numel=_sized(_c2r_shape),
   spell=Spelling(name="torch._fft_c2r({0}, {dim}, {normalization}, {last_dim_size})"))
