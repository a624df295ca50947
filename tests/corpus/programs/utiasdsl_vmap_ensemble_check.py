# Source: utiasDSL/clare peft_lsy/tests/dev/test_torch_parallel.py (a check that vmap over stacked MLPs matches a
#   loop), commit c5519fe.
# Category: autograd.grad, higher-order, functional API — model ensembling with torch.func: stack_module_state
#   of five MLPs (Linear-GELU-Linear, one module used twice), functional_call of a prototype inside vmap over
#   params, buffers and the input's first dim, a torch.no_grad loop over the models as reference, torch.allclose
# Ends with: AssertionError ("Vectorized and loop outputs differ!"): the original maps the input's first dim
#   against the models while its reference runs every model on the whole input, over another list of models
# Adaptations:
#  - written after the original file (the search tool's terms keep its text out of commits): the same classes,
#    calls, prints and assertion, in other words;
#  - device "cuda" -> "cpu".
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(0)
device = "cpu"
B, T, D = 5, 3, 6
H = 2
O = 4
N = 5


class MLP(nn.Module):
    def __init__(self, id, d_in, d_hidden, d_out):
        super().__init__()
        self.id = id
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.GELU(), nn.Linear(d_hidden, d_out))

    def forward(self, x):
        return self.net(x)


mlps = [MLP(i, D, H, O).to(device) for i in range(N)]
ids = [0, 3, 2, 0, 2]
used_mlps = [mlps[id] for id in ids]
prototype = mlps[0]
params, buffers = stack_module_state(used_mlps)

x = torch.Tensor([[[v] * D for _ in range(T)] for v in (0, 1, 2, 0, 2)]).to(device)


def forward_one_model(params_i, buffers_i, x_i):
    return functional_call(prototype, (params_i, buffers_i), (x_i,))


adapter_result = vmap(forward_one_model)(params, buffers, x)
with torch.no_grad():
    ref_list = [m(x) for m in mlps]
    ref = torch.stack(ref_list, dim=0)

max_abs_diff = (adapter_result - ref).abs().max().item()
print(f"adapter_result shape: {adapter_result.shape}  (expected {(N, B, T, O)})")
print(f"Max |diff| vs. Python loop: {max_abs_diff:.3e}")
assert torch.allclose(adapter_result, ref, atol=1e-6, rtol=0), "Vectorized and loop outputs differ!"
print("Vectorized vmap forward matches loop over individual MLPs.")
