"""torch._weight_norm_interface (nn.utils.weight_norm over dim 0 or the last dim): w = v · (g / ‖v‖), the norm
taken over every dim but `dim`, as ATen's fused CPU kernel computes it; its node is WeightNormInterfaceBackward0
and keeps v, g, dim and the norms (result1, computed by the caller and passed in)."""
from .table import op


def _other_dims(n):
    dim, ndim = n.attrs["dim"], len(n._shapes[0])
    return tuple(d for d in range(ndim) if d != dim % ndim)


def _grad_v(n, g):
    v, gain, norms = n["v"], n["g"], n.attrs["result1"]
    grad_g = (g * v).sum(_other_dims(n), keepdim=True) / norms
    return (gain / norms) * (g - v * (grad_g / norms))


def _grad_g(n, g):
    return (g * n["v"]).sum(_other_dims(n), keepdim=True) / n.attrs["result1"]


op("weight_norm_interface", "WeightNormInterfaceBackward0", ("v", "g"),
   lambda v, g, dim, result1: v * (g / result1._data),
   ("g/‖v‖ · (grad − v · (Σ grad·v) / ‖v‖²)", _grad_v), ("(Σ grad·v) / ‖v‖", _grad_g),
   saves={0: ("v", "g", "dim", "result1"), 1: ("v", "g", "dim", "result1")}, bind=False)
