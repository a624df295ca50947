"""torch.backends.mps on a build without Apple's Metal."""


def is_available():
    return False


def is_built():
    return False
