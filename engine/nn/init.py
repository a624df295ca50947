"""torch.nn.init, as torch/nn/init.py of PyTorch 2.13 does it: the same draws from the same generator in the same
order (under no_grad, through the tensor's own in-place methods), so that seeded initialisations match."""
import math
import warnings

import numpy as np

from .. import factories, random
from ..factories import empty_like, from_numpy
from ..functions import where
from ..grad_mode import no_grad

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_", "eye_",
           "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_",
           "sparse_", "uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal",
           "kaiming_uniform", "kaiming_normal", "orthogonal", "sparse"]

LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d")


def calculate_gain(nonlinearity, param=None):
    if nonlinearity in LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, int) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _norm_cdf(x):
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Normal draws outside [a, b] drawn again (rejection sampling from a uniform proposal when [a, b] holds
    little of the normal's mass), as PyTorch 2.13 does it."""
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    with no_grad():
        p = _norm_cdf((b - mean) / std) - _norm_cdf((a - mean) / std)
        if p > 0.3:
            lo = float(np.asarray(a, dtype=tensor.dtype.np))  # tensor.new_tensor(a).item()
            hi = float(np.asarray(b, dtype=tensor.dtype.np))
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                result = where(mask, empty_like(result).normal_(mean, std, generator=generator), result)
            if tensor is not result:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2
        candidates = empty_like(tensor)
        accept_buf = empty_like(tensor)
        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
        pending = accept_buf.uniform_(generator=generator).log_().gt(candidates)
        if pending.any():
            result = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                result = where(pending, candidates, result)
                candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                pending = where(pending, accept_buf.uniform_(generator=generator).log_().gt(candidates), pending)
                if not pending.any():
                    break
            tensor.copy_(result)
        return tensor


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    with no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor):
    with no_grad():
        return tensor.zero_()


def eye_(tensor):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        tensor.copy_(factories.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def dirac_(tensor, groups=1):
    dimensions = tensor.dim()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min_dim):
                tensor[(g * out_chans_per_grp + d, d) + tuple(s // 2 for s in sizes[2:])] = 1
    return tensor


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return tensor.size(1) * receptive_field_size, tensor.size(0) * receptive_field_size


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    bound = math.sqrt(3.0) * (gain / math.sqrt(fan))
    with no_grad():
        return tensor.uniform_(-bound, bound, generator=generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    with no_grad():
        return tensor.normal_(0, gain / math.sqrt(fan), generator=generator)


def orthogonal_(tensor, gain=1, generator=None):
    """Q of the QR decomposition of a normal draw, its columns' signs fixed by R's diagonal. torch runs LAPACK in
    the tensor's precision; numpy's QR runs in float64, so float32 results agree to a few float32 ulps."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = factories.empty(rows, cols, dtype=tensor.dtype).normal_(0, 1, generator=generator)._data
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened.astype(np.float64))
    q = q.astype(flattened.dtype) * np.sign(np.diag(r)).astype(flattened.dtype)
    if rows < cols:
        q = q.T
    with no_grad():
        tensor.view(q.shape).copy_(from_numpy(np.ascontiguousarray(q)))
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col_idx in range(cols):
            row_indices = random.randperm(rows)  # PyTorch draws these from the default generator
            tensor[row_indices[:num_zeros], col_idx] = 0
    return tensor


def _make_deprecate(meth):
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning,
                      stacklevel=2)
        return meth(*args, **kwargs)

    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
