"""torch.utils: the data package (torch.utils.data); torch.utils.checkpoint sits a layer above (engine/__init__
imports it)."""
from . import data

__all__ = ["data"]
