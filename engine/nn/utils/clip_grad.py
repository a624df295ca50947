"""torch.nn.utils.clip_grad_norm_, clip_grad_value_, get_total_norm and clip_grads_with_norm_, as torch 2.13's
torch/nn/utils/clip_grad.py computes them on the CPU: each gradient's vector norm, the norm of those norms, then
every gradient multiplied in place by min(max_norm / (total + 1e-6), 1). The foreach path (torch's default on the
CPU) does the same arithmetic as the loop, so `foreach` changes nothing but the error torch raises for it."""
import functools
import math
import types
import warnings

from ... import dtypes, grad_mode
from ...factories import tensor
from ...functions import is_tensor
from ...methods import FUNCTIONS


def _no_grad(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        with grad_mode.no_grad():
            return fn(*args, **kwargs)
    return inner


def vector_norm(x, ord):  # noqa: A002 - torch's name
    """torch.linalg.vector_norm(x, ord) of the whole tensor, for the orders clip_grad_norm_ takes."""
    if ord == 2:
        return x.norm()
    if ord == math.inf:
        return x.abs().max()
    if ord == -math.inf:
        return x.abs().min()
    if ord == 0:
        return (x != 0).sum().to(x.dtype)
    if ord == 1:
        return x.abs().sum()
    return x.abs().pow(ord).sum().pow(1.0 / ord)


def _check_foreach(foreach, tensors):
    """torch's foreach path takes CPU tensors of float types; a Parameter of another type refuses foreach=True."""
    if foreach and any(not t.dtype.is_floating_point for t in tensors):
        raise RuntimeError("foreach=True was passed, but can't use the foreach API on cpu tensors")


@_no_grad
def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    tensors = [tensors] if is_tensor(tensors) else list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return tensor(0.0)
    _check_foreach(foreach, tensors)
    norms = [vector_norm(g, norm_type) for g in tensors]
    if len({n.dtype for n in norms}) > 1:
        norms = [n.to(dtypes.promote([(m.dtype, 1) for m in norms])) for n in norms]
    total_norm = vector_norm(FUNCTIONS["stack"](norms), norm_type)
    if error_if_nonfinite and bool(total_norm.isnan() | total_norm.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`")
    return total_norm


@_no_grad
def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    parameters = [parameters] if is_tensor(parameters) else parameters
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    _check_foreach(foreach, grads)
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = clip_coef.clamp(max=1.0)
    for g in grads:
        g.mul_(clip_coef_clamped)


@_no_grad
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    if is_tensor(parameters):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(parameters, clip_value, foreach=None):
    parameters = [parameters] if is_tensor(parameters) else parameters
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    _check_foreach(foreach, grads)
    for grad in grads:
        grad.clamp_(min=-clip_value, max=clip_value)
