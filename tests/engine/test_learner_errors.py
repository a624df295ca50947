"""The errors a learner meets first (shapes into nn.Linear and nn.Conv2d, a loss's target of the wrong dtype or
shape, backward twice, in-place on what backward needs, an embedding's float indices...), against torch: the same
exception types and texts, raised where torch raises them."""
import pytest
from difftest import run_both

FIRST_ERRORS = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
def t(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
lin = nn.Linear(3, 2)
t(lambda: lin(torch.ones(4, 5)))
t(lambda: nn.CrossEntropyLoss()(torch.randn(3, 4), torch.tensor([0.0, 1.0, 2.0])))
t(lambda: nn.CrossEntropyLoss()(torch.randn(3, 4), torch.tensor([0, 1, 5])))
t(lambda: nn.MSELoss()(torch.randn(3), torch.randn(4)))
t(lambda: F.nll_loss(torch.randn(3, 4), torch.tensor([[0], [1], [2]])))
t(lambda: lin(torch.ones(4, 3, dtype=torch.float64)))
t(lambda: lin(torch.ones(4, 3, dtype=torch.long)))
t(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
t(lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
t(lambda: torch.ones(2, 3).view(4))
t(lambda: torch.ones(2, 3).t().view(6))
t(lambda: nn.Conv2d(3, 8, 3)(torch.ones(1, 1, 8, 8)))
t(lambda: nn.Conv2d(3, 8, 3)(torch.ones(3, 8)))
t(lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)))
t(lambda: nn.LSTM(3, 4)(torch.ones(5, 2, 4)))
t(lambda: nn.Embedding(5, 2)(torch.tensor([5])))
t(lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
t(lambda: torch.ones(3, requires_grad=True).numpy())
t(lambda: torch.ones(3).backward())
x = torch.ones(3, requires_grad=True); y = (x * 2).sum(); y.backward()
t(lambda: y.backward())
a = torch.ones(3, requires_grad=True); b = a.sigmoid(); b.add_(1)
t(lambda: b.sum().backward())
t(lambda: torch.ones(3, requires_grad=True).add_(1))
t(lambda: nn.Sequential(nn.Linear(2, 2), nn.ReLU())(torch.ones(2, 3)))
t(lambda: F.softmax(torch.ones(3)))
t(lambda: torch.ones(2, 2)[2])
t(lambda: torch.ones(2, 2).item())
t(lambda: torch.tensor([1, 2]) / torch.tensor([0]) + torch.ones(3))
t(lambda: torch.optim.SGD([], lr=0.1))
t(lambda: torch.optim.Adam(nn.Linear(1,1).parameters(), lr=-1))
t(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
t(lambda: torch.ones(2).expand(3))
t(lambda: torch.randn(2, 3).reshape(4, -1))
t(lambda: nn.MaxPool2d(2)(torch.ones(1, 1, 1, 1)))
'''

LOSS_TARGETS = '''
import torch
import torch.nn.functional as F
import torch.nn as nn
def t(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
t(lambda: F.nll_loss(torch.randn(3, 4), torch.tensor([[0], [1], [2]])))
torch.manual_seed(0)
t(lambda: F.nll_loss(torch.randn(4), torch.tensor([1])))
t(lambda: F.nll_loss(torch.randn(4), torch.tensor(1)))
t(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([[0], [1], [2]])))
t(lambda: nn.CrossEntropyLoss()(torch.randn(1, 4), torch.tensor([[1]])))
t(lambda: F.nll_loss(torch.randn(2, 3, 4), torch.tensor([[0], [1]])))
t(lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
for d in [torch.bool, torch.uint8, torch.int16, torch.float64]:
    t(lambda: F.embedding(torch.tensor([1]).to(d), torch.ones(3, 2)))
'''


@pytest.mark.parametrize("source", [FIRST_ERRORS, LOSS_TARGETS], ids=["first_errors", "loss_targets"])
def test_a_learners_first_errors_read_as_torchs(source):
    want, got = run_both(source)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)
    assert want.stdout.count("Error") >= 8
