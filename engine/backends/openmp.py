"""torch.backends.openmp: the CPU build has OpenMP."""


def is_available():
    return True
