"""torch.accelerator on a machine without one (the CPU build of torch 2.13)."""


def is_available():
    return False


def current_accelerator(check_available=False):
    return None


def device_count():
    return 0
