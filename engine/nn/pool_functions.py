"""nn.functional's pools beyond max/avg_pool1d/2d and adaptive_avg_pool2d: the 3-d pools, the adaptive max pools
and adaptive_avg_pool1d/3d, and the power-average pools (lp_pool), as ATen and torch.nn.functional build them."""
from .. import dispatch, dtypes
from ..methods import FUNCTIONAL
from ..ops import OPS
from ..ops.pooling3d import adaptive_max_indices, max_pool_indices


def _triple(value):
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(int(v) for v in value)
    return value * 3 if len(value) == 1 else value


def _stride(stride):
    return () if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _triple(stride)


def _check_5d(name, input):  # noqa: A002
    if input.dim() not in (4, 5):
        raise RuntimeError(f"{name}: Expected 4D or 5D tensor for input, but got: {list(input.shape)}"
                           if name != "max_pool3d" else
                           "non-empty 4D or 5D (batch mode) tensor expected for input")


def _batched(input):  # noqa: A002
    return input if input.dim() == 5 else input.unsqueeze(0)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,  # noqa: A002
               return_indices=False):
    _check_5d("max_pool3d", input)
    kernel_size, stride, padding, dilation = _triple(kernel_size), _stride(stride), _triple(padding), _triple(dilation)
    data = input._data if input.dim() == 5 else input._data[None]
    idx = max_pool_indices(data, kernel_size, stride or kernel_size, padding, dilation, bool(ceil_mode))
    indices = input._new(idx if input.dim() == 5 else idx[0], dtypes.int64)
    attrs = {"kernel_size": kernel_size, "stride": stride, "padding": padding, "dilation": dilation,
             "ceil_mode": bool(ceil_mode), "result1": indices}
    values = dispatch.apply(OPS["max_pool3d"], (input,), attrs)
    return (values, indices) if return_indices else values


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,  # noqa: A002
               divisor_override=None):
    _check_5d("avg_pool3d", input)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    attrs = {"kernel_size": _triple(kernel_size), "stride": _stride(stride), "padding": _triple(padding),
             "ceil_mode": bool(ceil_mode), "count_include_pad": bool(count_include_pad),
             "divisor_override": divisor_override}
    return dispatch.apply(OPS["avg_pool3d"], (input,), attrs)


def _output_size(input, output_size, k):  # noqa: A002
    size = (output_size,) * k if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(size) != k:
        raise ValueError(f"Input dimension should be at least {k + 1}")
    return tuple(input.shape[input.dim() - k + i] if s is None else int(s) for i, s in enumerate(size))


def adaptive_avg_pool3d(input, output_size):  # noqa: A002
    size = _output_size(input, output_size, 3)
    if size == (1, 1, 1):
        return input.mean((-1, -2, -3), keepdim=True)
    _check_5d("adaptive_avg_pool3d", input)
    return dispatch.apply(OPS["adaptive_avg_pool3d"], (input,), {"output_size": size})


def adaptive_avg_pool1d(input, output_size):  # noqa: A002
    if input.dim() not in (2, 3):
        raise RuntimeError(f"adaptive_avg_pool1d() argument 'input' (position 1) must be 2D or 3D, but got "
                           f"{input.dim()}D")
    size = output_size if isinstance(output_size, int) else output_size[0]
    return FUNCTIONAL["adaptive_avg_pool2d"](input.unsqueeze(-2), (1, size)).squeeze(-2)


def _adaptive_max(input, output_size, k, return_indices):  # noqa: A002
    size = _output_size(input, output_size, k)
    if input.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"adaptive_max_pool{k}d(): Expected {k + 1}D or {k + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    indices = input._new(adaptive_max_indices(input._data, size), dtypes.int64)
    values = dispatch.apply(OPS[f"adaptive_max_pool{k}d"], (input,), {"output_size": size, "result1": indices})
    return (values, indices) if return_indices else values


def adaptive_max_pool2d(input, output_size, return_indices=False):  # noqa: A002
    return _adaptive_max(input, output_size, 2, return_indices)


def adaptive_max_pool3d(input, output_size, return_indices=False):  # noqa: A002
    return _adaptive_max(input, output_size, 3, return_indices)


def adaptive_max_pool1d(input, output_size, return_indices=False):  # noqa: A002
    if input.dim() not in (2, 3):
        raise RuntimeError(f"adaptive_max_pool1d() argument 'input' (position 1) must be 2D or 3D, but got "
                           f"{input.dim()}D")
    size = output_size if isinstance(output_size, int) else output_size[0]
    values, indices = _adaptive_max(input.unsqueeze(-2), (1, size), 2, True)
    values, indices = values.squeeze(-2), indices.squeeze(-2)
    return (values, indices) if return_indices else values


def _lp_finish(out, norm_type, count):
    return (out.sign() * out.abs().relu()).mul(count).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):  # noqa: A002
    if stride is not None:
        out = FUNCTIONAL["avg_pool1d"](input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = FUNCTIONAL["avg_pool1d"](input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_finish(out, norm_type, kernel_size if isinstance(kernel_size, int) else kernel_size[0])


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):  # noqa: A002
    kw, kh = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    if stride is not None:
        out = FUNCTIONAL["avg_pool2d"](input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = FUNCTIONAL["avg_pool2d"](input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_finish(out, norm_type, kw * kh)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):  # noqa: A002
    kd, kw, kh = _triple(kernel_size)
    if stride is not None:
        out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool3d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_finish(out, norm_type, kd * kw * kh)
