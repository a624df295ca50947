"""torch.backends: which backends this build has (the CPU's only), and the flags programs set on them."""
from . import cuda, cudnn, mkldnn, mps, openmp  # noqa: F401
