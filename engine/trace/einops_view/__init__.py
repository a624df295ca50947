"""`import einops` / `from einops.layers.torch import Rearrange`: einops 0.8's rearrange, reduce, repeat and
einsum (operations.py), pack and unpack (packing.py) on the engine's tensors, lowered to the engine ops einops
makes on torch (recipe.py, backends.py), and on numpy arrays; einops' layers as engine modules (layers.py); its
errors (EinopsError)."""
from __future__ import annotations

from ..module_views import SafeModule
from .layers import Rearrange, Reduce
from .operations import einsum, parse_shape, rearrange, reduce, repeat
from .packing import pack, unpack
from .parsing import EinopsError

VERSION = "0.8.1"


def einops_views(runtime, package):
    """The einops modules (they hold no state: the same for every run)."""
    layers_torch = SafeModule("einops.layers.torch", {"Rearrange": Rearrange, "Reduce": Reduce},
                              hint="the explorer has Rearrange and Reduce of einops.layers.torch")
    layers = SafeModule("einops.layers", {"torch": layers_torch})
    top = SafeModule("einops", {"rearrange": rearrange, "reduce": reduce, "repeat": repeat, "einsum": einsum,
                                "pack": pack, "unpack": unpack, "parse_shape": parse_shape,
                                "EinopsError": EinopsError, "layers": layers, "__version__": VERSION},
                     hint="the explorer has einops' rearrange, reduce, repeat, einsum, pack, unpack, parse_shape, "
                          "EinopsError and layers.torch")
    return {"einops": top, "einops.layers": layers, "einops.layers.torch": layers_torch}
