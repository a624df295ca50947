"""torch.backends: which backends this build has (the CPU's only)."""
from . import cuda, mps  # noqa: F401
