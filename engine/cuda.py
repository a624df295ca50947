"""torch.cuda in torch's CPU-only build: nothing is available, seeding is a no-op (torch seeds lazily), and
what needs a GPU fails with the build's AssertionError."""
from . import devices


def is_available():
    return False


def is_bf16_supported(including_emulation=True):
    return False  # (no CUDA device: torch's CPU build says so too)


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    return None


manual_seed_all = manual_seed


def _not_compiled(*args, **kwargs):
    raise AssertionError(devices.CUDA_NOT_COMPILED)


current_device = synchronize = get_device_name = set_device = empty_cache = memory_allocated = _not_compiled
