"""torch.backends.mkldnn: oneDNN is in the CPU build (torch's float32 LSTM runs on it; see engine/nn/recurrent)."""
import sys

from .flags import flagged_module


def is_available():
    return True


flagged_module(sys.modules[__name__], "mkldnn")
