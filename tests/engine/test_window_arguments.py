"""Window functions' float parameters (kaiser_window's beta, hamming_window's alpha and beta) given without periodic,
which torch's signatures refuse, and torch.native_channel_shuffle (no derivative) beside channel_shuffle, against
torch: values, grad_fn names and error texts."""
from difftest import assert_same

PROGRAM = """
import torch


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


attempt(lambda: torch.kaiser_window(5))
attempt(lambda: torch.kaiser_window(5, beta=8.0))
attempt(lambda: torch.kaiser_window(5, False, 8.0))
attempt(lambda: torch.kaiser_window(5, periodic=False, beta=8.0))
attempt(lambda: torch.hamming_window(5, alpha=0.5))
attempt(lambda: torch.hamming_window(5, False, 0.5, 0.4))
attempt(lambda: torch.hamming_window(5, periodic=False, alpha=0.5))
attempt(lambda: torch.hamming_window(5, beta=0.4))
attempt(lambda: torch.hamming_window(5, False, alpha=0.5, beta=0.4))
c = torch.arange(16.0).reshape(1, 4, 2, 2)
attempt(lambda: torch.native_channel_shuffle(c, 2))
attempt(lambda: torch.native_channel_shuffle(c, 3))
attempt(lambda: torch.native_channel_shuffle(c, 0))
attempt(lambda: torch.native_channel_shuffle(torch.arange(4.0), 2))
attempt(lambda: torch.channel_shuffle(torch.arange(4.0), 2))
y = torch.native_channel_shuffle(c.requires_grad_(), 2)
print(y.grad_fn.name(), torch.channel_shuffle(c, 2).grad_fn)
attempt(lambda: y.sum().backward())
"""


def test_window_parameters_and_native_channel_shuffle_as_torch():
    assert_same(PROGRAM)
