"""torch.backends.cudnn on the CPU-only build: no cuDNN, but the flags programs set (`deterministic = True`)."""
import sys

from .flags import flagged_module


def is_available():
    return False


def version():
    return None


def is_acceptable(tensor):
    return False


flagged_module(sys.modules[__name__], "cudnn")
