"""A program using names the engine gained for unseen teaching programs (window functions, arctan, vander,
torch.kl_div with an integer reduction, torch.dropout, memory facts, asarray, torch.range, apply_) runs through the
runner as under torch."""
import warnings

from engine.trace import run
from tests.trace.torch_side import run_torch

PROGRAM = """
import torch
import torch.nn.functional as F
x = torch.linspace(-1, 1, 8, requires_grad=True)
w = torch.hann_window(8, periodic=False)
y = torch.arctan(x) * w
v = torch.vander(torch.tensor([1.0, 2.0]), N=3)
loss = torch.kl_div(F.log_softmax(y, 0), torch.softmax(w, 0), 2) + torch.dropout(y, 0.2, False).sum()
loss.backward()
print(loss, x.grad.shape, v, x.element_size(), x.nbytes, x.is_cpu, x.get_device())
print(torch.asarray([1.0, 2.0]), torch.result_type(x, 2), torch.can_cast(torch.float32, torch.int64))
print(x.swapdims(0, 0).shape, x.detach().untyped_storage().nbytes(), torch.range(0, 2).tolist())
a = x.detach().clone()
a.multiply_(2).subtract_(1).apply_(lambda v: v * 0)
print(a.sum().item(), torch.typename(a), x.data_ptr() != 0, x.new(2).shape)
"""


def test_inventory_names_run_in_the_runner():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.range warns (the runner records the engine's)
        want, exc, _ = run_torch(PROGRAM)
    timeline = run(PROGRAM)
    assert exc is None and timeline.error is None, timeline.error
    assert timeline.output == want
