"""`import functorch` (tutorials before PyTorch 2.0): its transforms are torch.func's, and each call warns as torch
2.13's functorch does (FutureWarning: use torch.func)."""
from __future__ import annotations

import warnings

from .. import func
from .module_views import SafeModule

_APIS = {"vmap": "torch.vmap", "grad": None, "grad_and_value": None, "vjp": None, "jvp": None, "jacrev": None,
         "jacfwd": None, "hessian": None}


def _warning(api, new_api):
    return (f"We've integrated functorch into PyTorch. As the final step of the integration, `functorch.{api}` is "
            f"deprecated as of PyTorch 2.0 and will be deleted in a future version of PyTorch >= 2.3. Please use "
            f"`{new_api or 'torch.func.' + api}` instead; see the PyTorch 2.0 release notes and/or the `torch.func` "
            "migration guide for more details https://pytorch.org/docs/main/func.migrating.html")


def _deprecated(api, new_api):
    transform = getattr(func, api)

    def call(*args, **kwargs):
        warnings.warn(_warning(api, new_api), FutureWarning, stacklevel=2)
        return transform(*args, **kwargs)

    call.__name__ = call.__qualname__ = api
    call.__module__ = "functorch"
    return call


_VIEW = {api: _deprecated(api, new_api) for api, new_api in _APIS.items()}


def functorch_views(runtime, package):
    return {"functorch": SafeModule("functorch", _VIEW)}
