"""torch.nn.functional given a list, a numpy array or None where a tensor goes (a model fed numpy data), against
torch: the table the engine applies is torch's own (read again here), and every function of it raises what torch
raises, but for the few named below; modules fed numpy data raise as torch's do."""
import warnings

import numpy as np
import pytest
from difftest import run_both

import engine
from tests.engine import functional_arguments_source as source

# What the engine does not word as torch yet, and why.
NOT_YET = {
    "conv1d": "torch's parser lists both signatures and marks the arguments by a rule the engine does not follow",
    "conv2d": "as conv1d",
    "gaussian_nll_loss": "torch fails inside its arithmetic, on the operand it reaches first",
    "multilabel_soft_margin_loss": "as gaussian_nll_loss",
}


def outcomes(lib):
    warnings.simplefilter("ignore")
    found = {}
    for name, args in source.templates(lib).items():
        if name in NOT_YET:
            continue
        f = getattr(lib.nn.functional, name)
        for i, a in enumerate(args):
            if isinstance(a, lib.Tensor):
                for label, bad in (("list", a.tolist()), ("numpy", np.array(a.tolist(), dtype=np.float32)),
                                   ("None", None)):
                    found[f"{name}/{i}/{label}"] = source.outcome(f, (*args[:i], bad, *args[i + 1:]))
    return found


def test_the_table_is_torchs():
    from engine.nn.functional_argument_table import TABLE

    assert TABLE == source.read()


def test_functional_raises_what_torch_raises():
    import torch

    want, got = outcomes(torch), outcomes(engine)
    assert len(want) > 250
    assert {k: got[k] for k in want if got[k] != want[k]} == {}


MODULES_FED_NUMPY = """
import torch
import torch.nn as nn
import numpy as np
torch.manual_seed(0)
mods = [nn.Linear(2, 2), nn.RNN(2, 2), nn.LSTM(2, 2), nn.Embedding(3, 2), nn.BatchNorm1d(2), nn.LayerNorm(2),
        nn.ReLU(), nn.Sigmoid(), nn.Tanh(), nn.Softmax(dim=0), nn.Dropout(), nn.GELU(),
        nn.Sequential(nn.Linear(2, 2), nn.ReLU()), nn.MSELoss(), nn.CrossEntropyLoss(), nn.BCELoss()]
for m in mods:
    for x in ([1.0, 2.0], np.ones((1, 2), dtype=np.float32), None):
        try:
            m(x) if not isinstance(m, (nn.MSELoss, nn.CrossEntropyLoss, nn.BCELoss)) else m(x, torch.zeros(1, 2))
        except Exception as e:
            print(type(m).__name__, type(e).__name__, e)
print(torch.sigmoid(torch.ones(1)), torch.tanh(torch.zeros(2)))
for bad in (lambda: torch.tanh(np.ones(2)), lambda: torch.add(torch.ones(2), np.ones(2)),
            lambda: torch.ones(2).add(np.ones(2)), lambda: torch.sum([1, 2]), lambda: torch.exp(np.float32(1)),
            lambda: torch.mul(torch.ones(2), np.float32(2)), lambda: torch.ones(2) + np.ones(2)):
    try:
        print(bad())
    except TypeError as e:
        print(e)
"""


def test_modules_and_functions_fed_numpy_raise_as_torchs():
    want, got = run_both(MODULES_FED_NUMPY)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)
    assert want.stdout.count("must be Tensor, not numpy.ndarray") >= 8


@pytest.mark.parametrize("name", sorted(NOT_YET))
def test_what_is_not_yet_worded_as_torch_is_still_an_error(name):
    args = source.templates(engine)[name]
    with pytest.raises((TypeError, AttributeError)):
        getattr(engine.nn.functional, name)(None, *args[1:])
