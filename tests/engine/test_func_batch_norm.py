"""torch.func.replace_all_batch_norm_modules_ against torch: the batch norms of a model, nested ones too, keep no
running statistics afterwards (their buffers None), normalise by the batch's statistics in eval mode too, and vmap
runs the model over stacked parameters (the model ensembling tutorial's way; the engine has no batching rule for
batch_norm, so vmap runs it once per model and stacks: the result's grad_fn is not torch's, its values are)."""
from difftest import run_both

PROGRAM = """
import torch
from torch import nn
from torch.func import replace_all_batch_norm_modules_, functional_call, stack_module_state, vmap
torch.manual_seed(0)
def make():
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Sequential(nn.ReLU(), nn.BatchNorm1d(4, affine=False)))
model = make()
print(replace_all_batch_norm_modules_(model) is model)
print([(n, b) for n, b in model.named_buffers()])
bn = model[1]
print(bn.running_mean, bn.running_var, bn.num_batches_tracked, bn.track_running_stats, bn)
x = torch.randn(5, 3)
model.eval()
print(model(x))
models = [replace_all_batch_norm_modules_(make()) for _ in range(2)]
params, buffers = stack_module_state(models)
def call(p, b, x):
    return functional_call(models[0], (p, b), (x,))
out = vmap(call, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, out.detach())
"""


def test_replace_all_batch_norm_modules_as_torch():
    want, got = run_both(PROGRAM)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)
    assert "None None None False" in want.stdout
