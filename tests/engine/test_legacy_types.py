"""Old tutorials' spellings against torch: the typed tensor types are classes (printed, isinstance by dtype, used as
a cast's target and as the default type), Variable's volatile flag, and torch.version."""
from difftest import run_both

PROGRAM = """
import torch
import numpy as np
print(torch.FloatTensor, torch.LongTensor, torch.DoubleTensor.__name__)
a = torch.from_numpy(np.arange(6).reshape(2, 3)).float()
print(isinstance(a, torch.FloatTensor), isinstance(a, torch.DoubleTensor), isinstance(a.long(), torch.LongTensor))
print(isinstance(a, (torch.IntTensor, torch.FloatTensor)), isinstance(3, torch.FloatTensor))
print(a.type(torch.IntTensor), a.type('torch.LongTensor').type())
print(torch.LongTensor(3).zero_(), torch.FloatTensor([[1, 2]]).size(), type(torch.FloatTensor([1])))
torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.Tensor(2).zero_().dtype, torch.tensor([1.5]).dtype)
torch.set_default_tensor_type('torch.FloatTensor')
print(torch.tensor([1.5]).dtype)
print(torch.version.cuda, torch.version.hip, torch.version.debug, torch.version.__version__ == torch.__version__)
"""


def test_legacy_types_as_torch():
    want, got = run_both(PROGRAM)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)
    assert "True False True" in want.stdout
