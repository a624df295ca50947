"""torch.backends.cuda on the CPU-only build."""


def is_built():
    return False
