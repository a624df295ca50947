"""nn.functional's pools beyond max/avg_pool1d/2d and adaptive_avg_pool2d: the 3-d pools, the adaptive max pools
and adaptive_avg_pool1d/3d, and the power-average pools (lp_pool), as ATen and torch.nn.functional build them."""
import functools

from .. import dispatch, dtypes
from ..methods import FUNCTIONAL
from ..methods import _with_out as with_out
from ..ops import OPS
from ..ops.pooling import adaptive_size, checked_pool_shape, list_with_default
from ..ops.pooling3d import adaptive_max_indices, max_pool_indices


def _triple(value):
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(int(v) for v in value)
    return value * 3 if len(value) == 1 else value


def _stride(stride):
    return () if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _triple(stride)


def _pool3d_check(name, input, kernel_size, stride, padding, dilation, ceil_mode):  # noqa: A002
    """ATen's max_pool3d / avg_pool3d checks: the dims, each dim's output size, then pool3d_shape_check."""
    if input.dim() not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    out = [checked_pool_shape(n, k, s, p, d, ceil_mode)
           for n, k, s, p, d in zip(input.shape[-3:], kernel_size, stride, padding, dilation)]
    if min(kernel_size) <= 0:
        raise RuntimeError("kernel size should be greater than zero, but got kT: {} kH: {} kW: {}".format(*kernel_size))
    if min(stride) <= 0:
        raise RuntimeError("stride should be greater than zero, but got dT: {} dH: {} dW: {}".format(*stride))
    if min(dilation) <= 0:
        raise RuntimeError("dilation should be greater than zero, but got dilationT: {} dilationH: {} dilationW: "
                           "{}".format(*dilation))
    where = "avg_pool3d()" if name == "avg_pool3d" else "max_pool3d_with_indices_out_cpu_template()"
    shape = list(input.shape)
    for i, n in enumerate(shape):
        if n <= 0 and not (len(shape) == 5 and i == 0):
            raise RuntimeError(f"{where}: Expected input's non-batch dimensions to have positive length, but input "
                               f"has a shape of {shape} and non-batch dimension {n} has length zero!")
    c, t, h, w = shape[-4:]
    if name == "avg_pool3d" and (t < kernel_size[0] or h < kernel_size[1] or w < kernel_size[2]):
        raise RuntimeError(f"input image (T: {t} H: {h} W: {w}) smaller than kernel size (kT: {kernel_size[0]} kH: "
                           f"{kernel_size[1]} kW: {kernel_size[2]})")
    if min(out) < 1:
        raise RuntimeError(f"Given input size: ({c}x{t}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}x"
                           f"{out[2]}). Output size is too small")


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,  # noqa: A002
               return_indices=False):
    kernel_size, stride, padding, dilation = _triple(kernel_size), _stride(stride), _triple(padding), _triple(dilation)
    _pool3d_check("max_pool3d", input, kernel_size, stride or kernel_size, padding, dilation, ceil_mode)
    data = input._data if input.dim() == 5 else input._data[None]
    idx = max_pool_indices(data, kernel_size, stride or kernel_size, padding, dilation, bool(ceil_mode))
    indices = input._new(idx if input.dim() == 5 else idx[0], dtypes.int64)
    attrs = {"kernel_size": kernel_size, "stride": stride, "padding": padding, "dilation": dilation,
             "ceil_mode": bool(ceil_mode), "result1": indices}
    values = dispatch.apply(OPS["max_pool3d"], (input,), attrs)
    return (values, indices) if return_indices else values


@functools.partial(with_out, name="avg_pool3d")
def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,  # noqa: A002
               divisor_override=None):
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    kernel_size, stride, padding = _triple(kernel_size), _stride(stride), _triple(padding)
    _pool3d_check("avg_pool3d", input, kernel_size, stride or kernel_size, padding, (1, 1, 1), ceil_mode)
    attrs = {"kernel_size": kernel_size, "stride": stride, "padding": padding,
             "ceil_mode": bool(ceil_mode), "count_include_pad": bool(count_include_pad),
             "divisor_override": divisor_override}
    return dispatch.apply(OPS["avg_pool3d"], (input,), attrs)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):  # noqa: A002
    """torch.nn.functional._unpool_output_size."""
    k = len(kernel_size)
    default = [(input.shape[input.dim() - k + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(k)]
    if output_size is None:
        return default
    output_size = list(output_size)
    if len(output_size) == k + 2:
        output_size = output_size[2:]
    if len(output_size) != k:
        raise ValueError(f"output_size should be a sequence containing {k} or {k + 2} elements, but it has a length of "
                         f"'{len(output_size)}'")
    for d in range(k):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
    return output_size


def _unpool(input, indices, kernel_size, stride, padding, output_size, k):  # noqa: A002
    kernel_size = _ntuple(kernel_size, k)
    stride = _ntuple(stride, k) if stride is not None else kernel_size
    padding = _ntuple(padding, k)
    return _unpool_output_size(input, kernel_size, stride, padding, output_size), stride, padding


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):  # noqa: A002
    size, _, _ = _unpool(input, indices, kernel_size, stride, padding, output_size, 1)
    return dispatch.apply(*OPS["max_unpool2d"].bind(input.unsqueeze(-1), indices.unsqueeze(-1), [*size, 1])).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):  # noqa: A002
    size, _, _ = _unpool(input, indices, kernel_size, stride, padding, output_size, 2)
    return dispatch.apply(*OPS["max_unpool2d"].bind(input, indices, size))


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):  # noqa: A002
    size, stride, padding = _unpool(input, indices, kernel_size, stride, padding, output_size, 3)
    return dispatch.apply(*OPS["max_unpool3d"].bind(input, indices, size, stride, padding))


def _ntuple(value, k):
    if isinstance(value, int):
        return (value,) * k
    value = tuple(value)
    return value * k if len(value) == 1 else value


def _one_int(name, output_size):
    """The binding's int[1] argument: an int, or a sequence of one."""
    if isinstance(output_size, int):
        return output_size
    if len(output_size) != 1:
        raise RuntimeError(f"{name}() argument 'output_size' should contain one int (got {len(output_size)})")
    return int(output_size[0])


def adaptive_avg_pool3d(input, output_size):  # noqa: A002
    size = adaptive_size("adaptive_avg_pool3d", list_with_default(output_size, tuple(input.shape)), 3)
    if size == (1, 1, 1):
        return input.mean((-1, -2, -3), keepdim=True)
    if input.dim() not in (4, 5):
        raise RuntimeError(f"adaptive_avg_pool3d: Expected 4D or 5D tensor for input, but got: {list(input.shape)}")
    return dispatch.apply(OPS["adaptive_avg_pool3d"], (input,), {"output_size": size})


def adaptive_avg_pool1d(input, output_size):  # noqa: A002
    if input.dim() not in (2, 3):
        raise RuntimeError(f"adaptive_avg_pool1d() argument 'input' (position 1) must be 2D or 3D, but got "
                           f"{input.dim()}D")
    size = _one_int("adaptive_avg_pool1d", output_size)
    return FUNCTIONAL["adaptive_avg_pool2d"](input.unsqueeze(-2), (1, size)).squeeze(-2)


def _adaptive_max(input, output_size, k, return_indices):  # noqa: A002
    size = list_with_default(output_size, tuple(input.shape))
    if input.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"adaptive_max_pool{k}d(): Expected {k + 1}D or {k + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    size = (size,) * k if isinstance(size, int) else size
    if len(size) != k:
        raise RuntimeError(f"adaptive_max_pool{k}d(): internal error: output_size.size() must be {k}")
    if any(s < 0 for s in size):
        shape = [*input.shape[:-k], *size]
        raise RuntimeError(f"Trying to create tensor with negative dimension {next(s for s in size if s < 0)}: {shape}")
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
    size = _one_int("adaptive_max_pool1d", output_size)
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


def _with_indices(pool):
    def with_indices(input, *args, **kwargs):  # noqa: A002
        kwargs["return_indices"] = True
        return pool(input, *args, **kwargs)

    with_indices.__name__ = with_indices.__qualname__ = pool.__name__ + "_with_indices"
    return with_indices


max_pool1d_with_indices = _with_indices(FUNCTIONAL["max_pool1d"])
max_pool2d_with_indices = _with_indices(FUNCTIONAL["max_pool2d"])
max_pool3d_with_indices = _with_indices(max_pool3d)
adaptive_max_pool1d_with_indices = _with_indices(adaptive_max_pool1d)
adaptive_max_pool2d_with_indices = _with_indices(adaptive_max_pool2d)
adaptive_max_pool3d_with_indices = _with_indices(adaptive_max_pool3d)
