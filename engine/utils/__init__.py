"""torch.utils: the data package (torch.utils.data)."""
from . import data

__all__ = ["data"]
