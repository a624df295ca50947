"""torch.nn.utils.weight_norm and remove_weight_norm (torch/nn/utils/weight_norm.py): the weight becomes
g · v / ‖v‖ (parameters `<name>_g` and `<name>_v`), recomputed by a forward pre-hook before every call. Over dim 0
or the last dim this is ATen's fused _weight_norm_interface (WeightNormInterfaceBackward0); over another dim, or
dim=None (the whole tensor), the plain ops v * (g / norm_except_dim(v, 2, dim))."""
import warnings

from ... import dispatch, grad_mode
from ...ops import OPS
from ..parameter import Parameter


def norm_except_dim(v, pow=2, dim=0):  # noqa: A002 - torch's argument names
    """torch.norm_except_dim: the norm over every dim but `dim` (dim=-1: over all), keeping v's number of dims."""
    if dim == -1:
        return _norm(v, pow)
    if dim == 0:
        return _norm(v.contiguous().view(v.size(0), -1), pow, 1).view([v.size(0)] + [1] * (v.dim() - 1))
    if dim == v.dim() - 1:
        return _norm(v.contiguous().view(-1, v.size(-1)), pow, 0).view([1] * (v.dim() - 1) + [v.size(-1)])
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _norm(x, p, *dim):
    """at::norm, which names itself where it refuses a dtype (Tensor.norm is linalg.vector_norm's)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got {x.dtype.type_name} "
                           "instead.")
    return x.norm(p, *dim)


def _weight_norm(v, g, dim=0):
    """torch._weight_norm."""
    v, g = v.contiguous(), g.contiguous()
    if dim == 0 or dim == v.dim() - 1:
        with grad_mode.no_grad():
            norms = norm_except_dim(v.detach(), 2, dim)
        return dispatch.apply(OPS["weight_norm_interface"], (v, g), {"dim": dim, "result1": norms})
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim
        self.handle = None

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        if any(isinstance(hook, WeightNorm) and hook.name == name for hook in _pre_hooks(module)):
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        fn.handle = module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        with grad_mode.no_grad():
            weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def _pre_hooks(module):
    hooks = module.__dict__.get("_forward_pre_hooks", ())
    hooks = list(hooks.values()) if isinstance(hooks, dict) else list(hooks)
    return [getattr(hook, "fn", hook) for hook in hooks]  # a module keeps each as a _Hook around the function


def weight_norm(module, name="weight", dim=0):
    WeightNorm.apply(module, name, dim)
    return module


def remove_hook(module, kind, name, what):
    """Undoes the forward pre-hook of class `kind` that recomputes parameter `name` (weight_norm, spectral_norm)."""
    for hook in _pre_hooks(module):
        if isinstance(hook, kind) and hook.name == name:
            hook.remove(module)
            hook.handle.remove()
            return module
    raise ValueError(f"{what} of '{name}' not found in {module}")


def remove_weight_norm(module, name="weight"):
    return remove_hook(module, WeightNorm, name, "weight_norm")
