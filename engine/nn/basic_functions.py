"""The nn.functional functions that others are built from (softmax, log_softmax, linear, batch_norm, dropout),
apart so that the modules building on them (attention, norms, pools) need not import nn.functional itself."""
import functools

import numpy as np

from .. import dispatch, dtypes, generator, grad_mode
from ..generator import draws
from ..methods import _with_out as with_out
from ..ops import OPS
from ..ops.nn import implicit_dim
from ..ops.norms import bn_layout


def softmax(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002
    return input.softmax(implicit_dim("softmax", input, dim), dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002
    return input.log_softmax(implicit_dim("log_softmax", input, dim), dtype=dtype)


@functools.partial(with_out, name="linear")
def linear(input, weight, bias=None):  # noqa: A002
    if input.dim() == 2 and bias is not None:
        return bias.addmm(input, weight.t())
    if input.__dict__.get("_value") is not None:  # vmap's batched tensor (a tensor subclass to ATen): matmul, add
        out = input @ weight.t()
        return out if bias is None else out + bias
    if input.dim() == 1 and bias is not None:
        return bias.addmm(input.view(1, -1), weight.t()).view(weight.shape[0])
    if input.dim() > 2 and bias is not None and input.is_contiguous() and bias.dim() == 1:
        out = bias.addmm(input.view(-1, input.shape[-1]), weight.t())  # ATen's _flatten_nd_linear
        return out.view(*input.shape[:-1], weight.shape[0])
    out = input @ weight.t()
    return out if bias is None else out.add_(bias)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,  # noqa: A002
               eps=1e-05):
    """ATen's native_batch_norm: normalised by the batch's statistics when training (and the running ones moved
    toward them, the variance unbiased), else by the running statistics."""
    if input.numel() == 0:  # ATen's _batch_norm_impl_index: no statistics, a clone scaled and shifted by the first
        out = input.clone()
        out = out if weight is None else out * weight[0]
        return out if bias is None else out + bias[0]
    if training and input.numel() // input.shape[1] == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    if not training:
        for name, stat in (("running_mean", running_mean), ("running_var", running_var)):
            if stat is None:
                raise RuntimeError(f"{name} must be defined in evaluation mode")
    return native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)[0]


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,  # noqa: A002
                      node="batch_norm"):
    """(output, save_mean, save_invstd): torch.native_batch_norm; the statistics are the batch's when training
    (empty when not: the running ones are used). node: the op whose node records it (torch's
    _native_batch_norm_legit has nodes of its own)."""
    dims, shape = bn_layout(input.dim(), input.shape[1])
    channels = input.shape[1]
    if training:
        count = input.numel() // channels
        data = input._data.astype(np.float64)
        mean = data.mean(axis=dims)
        var = data.var(axis=dims)
        if running_mean is not None:
            with grad_mode.no_grad():
                if running_mean._data.flags.writeable:  # (a meta tensor's has no numbers to update)
                    running_mean._data[...] = (momentum * mean + (1 - momentum) * running_mean._data).astype(
                        running_mean._data.dtype)
                    running_var._data[...] = (momentum * var * count / (count - 1) + (1 - momentum)
                                              * running_var._data).astype(running_var._data.dtype)
                running_mean._bump()
                running_var._bump()
        save_mean = input._new(mean.astype(input.dtype.np), input.dtype)
        save_invstd = input._new((1 / np.sqrt(var + eps)).astype(input.dtype.np), input.dtype)
    else:  # torch saves empty statistics: the running ones are used
        save_mean = input._new(np.zeros(0, input.dtype.np), input.dtype)
        save_invstd = input._new(np.zeros(0, input.dtype.np), input.dtype)
    dtype = input.dtype
    weight = weight if weight is not None else input._new(np.ones(channels, dtype.np), dtype)
    bias = bias if bias is not None else input._new(np.zeros(channels, dtype.np), dtype)
    out = dispatch.apply(OPS[node], (input, weight, bias),
                         {"result1": save_mean, "result2": save_invstd, "training": bool(training), "eps": eps,
                          "running_mean": running_mean, "running_var": running_var})
    return out, save_mean, save_invstd


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zeroes each element with probability p and scales the rest by 1 / (1 - p), as ATen's _dropout on the CPU:
    noise = bernoulli_(1 - p) / (1 - p) drawn into a tensor laid out like the input (so a transposed input gets
    its mask in its memory order), then input * noise (MulBackward0)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    dtype = input.dtype
    if p == 1:
        noise = input._constant(0)
    else:
        keep = draws.bernoulli(generator.default_generator, np.empty_like(input._data), 1 - p)  # input's layout
        noise = input._new(keep / dtype.np.type(1 - p) if dtype.is_floating_point else keep, dtype)
    return input.mul_(noise) if inplace else input.mul(noise)


def native_dropout(input, p, train):  # noqa: A002 - ATen's argument names
    """ATen's native_dropout_cpu: (output, mask). Training (train True or None): mask = bernoulli_(1 − p) drawn into
    a tensor laid out like the input (as dropout's), output = input · mask · 1/(1 − p) (0 for p = 1); else the input's
    values and a mask of ones. Both ways one NativeDropoutBackward0."""
    if input.numel() == 0:
        return input, input._new(np.empty(input.shape, input.dtype.np), input.dtype)
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {input.dtype.type_name}")
    training = train is None or bool(train)
    if training:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={1 - p}")
        keep = draws.bernoulli(generator.default_generator, np.empty_like(input._data), 1 - p)  # its layout
        mask, scale = keep.astype(bool), 0.0 if p == 1 else 1.0 / (1.0 - p)
    else:
        mask, scale = np.ones(input.shape, bool), 1.0
    mask = input._new(mask, dtypes.bool)
    out = dispatch.apply(OPS["native_dropout"], (input,), {"result1": mask, "p": float(p), "train": train,
                                                           "scale": scale})
    return out, mask


def _feature_dropout(input, p, training, inplace):  # noqa: A002
    """ATen's feature dropout: one draw per (sample, channel), bernoulli_(1 - p) / (1 - p) into a tensor of shape
    (N, C, 1, …), multiplied in (MulBackward0)."""
    if p == 0 or not training or input.numel() == 0:
        return input
    dtype = input.dtype
    if p == 1:
        noise = input._constant(0)
    else:
        shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
        keep = draws.bernoulli(generator.default_generator, np.empty(shape, dtype.np), 1 - p)
        noise = input._new(keep / dtype.np.type(1 - p) if dtype.is_floating_point else keep, dtype)
    return input.mul_(noise) if inplace else input.mul(noise)


def _native_batch_norm_legit(input, weight, bias, *args):  # noqa: A002
    """torch._native_batch_norm_legit: native_batch_norm with the running statistics given (running_mean,
    running_var, training, momentum, eps: NativeBatchNormLegitBackward0) or not (training, momentum, eps:
    NativeBatchNormLegitBackward1)."""
    if len(args) == 3:
        return native_batch_norm(input, weight, bias, None, None, *args, node="batch_norm_legit_no_stats")
    return native_batch_norm(input, weight, bias, *args, node="batch_norm_legit")
