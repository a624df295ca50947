"""torch.version: what the CPU-only wheel the engine stands in for says of its build."""
__version__ = "2.13.0+cpu"
git_version = "cf30153c4c131c8164ee7798e5022d810682e2cb"
debug = False
cuda = None
hip = None
rocm = None
xpu = None
