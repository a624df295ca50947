"""nn.functional's normalisations built from others, as ATen and torch.nn.functional build them: instance_norm
(batch_norm over the (1, N·C, …) view), rms_norm, local_response_norm."""
import numpy as np

from .. import grad_mode
from ..methods import FUNCTIONAL
from .basic_functions import batch_norm
from .pool_functions import avg_pool3d


def _verify_spatial_size(size):
    prod = size[0]
    for s in size[2:]:
        prod *= s
    if prod == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")


def _repeat(t, b):
    return None if t is None else t.repeat(b)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,  # noqa: A002
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    if use_input_stats:
        _verify_spatial_size(input.shape)
    elif running_mean is None or running_var is None:
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    b, c = input.shape[0], input.shape[1]
    mean_, var_ = _repeat(running_mean, b), _repeat(running_var, b)
    out = batch_norm(input.contiguous().view(1, b * c, *input.shape[2:]), mean_, var_, _repeat(weight, b),
                       _repeat(bias, b), use_input_stats, momentum, eps)
    with grad_mode.no_grad():
        if running_mean is not None:
            running_mean.copy_(mean_.view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(var_.view(b, c).mean(0))
    return out.view(*input.shape)


def rms_norm(input, normalized_shape, weight=None, eps=None):  # noqa: A002
    """ATen's rms_norm: input · rsqrt(mean(input², the last dims) + eps), times weight."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    if k == 0:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{list(weight.shape)} and normalized_shape = {list(shape)}")
    if input.dim() < k or tuple(input.shape[input.dim() - k:]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    if eps is None:
        eps = float(np.finfo(input.dtype.np).eps)
    dims = tuple(range(input.dim() - k, input.dim()))
    rsqrt = input.pow(2).mean(dims, keepdim=True)._op("add_scalar", other=eps).rsqrt()
    result = input.mul(rsqrt)
    return (result if weight is None else result.mul(weight)).contiguous()  # ATen's last step


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):  # noqa: A002
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = FUNCTIONAL["pad"](div, (0, 0, size // 2, (size - 1) // 2))
        div = FUNCTIONAL["avg_pool2d"](div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = FUNCTIONAL["pad"](div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(*sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div
