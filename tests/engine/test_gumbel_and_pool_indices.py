"""F.gumbel_softmax (its draws, soft and straight-through hard samples, grads, the deprecated eps warning) and the
*_with_indices pools, against torch."""
from difftest import assert_same

PRELUDE = "import torch\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"


def test_gumbel_softmax_and_pools_with_indices():
    assert_same(PRELUDE + """
logits = torch.randn(3, 5, requires_grad=True)
y = F.gumbel_softmax(logits, tau=0.5)
print(y)
h = F.gumbel_softmax(logits, tau=1.0, hard=True)
print(h)
(h * torch.arange(5.0)).sum().backward()
print(logits.grad)
print(F.gumbel_softmax(torch.zeros(2, 3, dtype=torch.float64), eps=1e-5, dim=0))
out, idx = F.max_pool2d_with_indices(torch.randn(1, 1, 4, 4), 2)
print(out, idx)
print(F.adaptive_max_pool2d_with_indices(torch.randn(1, 3, 3), 2))
print(F.max_pool1d_with_indices(torch.randn(1, 2, 6), 3, return_indices=False))
""")
