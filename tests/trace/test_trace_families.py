"""torch.distributions and torch.nn.utils in the runner: learner programs that use them print what torch prints
(seeded draws included) and record a timeline that steps; the runner's views hand out only their public names;
what a program can change of them (the KL registry, the validation default, the transform registries,
parametrize's cache) is put back after its run."""
from __future__ import annotations

import pytest

from engine import distributions
from engine.trace import run
from tests.engine.difftest import printed_alike
from tests.trace.checks import check_timeline

PROGRAMS = {
    "reinforce": '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.SGD(policy.parameters(), lr=1e-2)
for episode in range(3):
    log_probs, rewards = [], []
    state = torch.randn(4)
    for t in range(5):
        probs = F.softmax(policy(state), dim=-1)
        m = Categorical(probs)
        action = m.sample()
        log_probs.append(m.log_prob(action))
        rewards.append(1.0 if action.item() == 1 else 0.0)
        state = torch.randn(4)
    returns = torch.tensor(rewards)
    loss = -(torch.stack(log_probs) * (returns - returns.mean())).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(episode, action, m.entropy(), loss)
''',
    "vae_reparameterised": '''
import torch
from torch.distributions import Normal, kl_divergence

torch.manual_seed(1)
mu = torch.zeros(3, requires_grad=True)
log_sigma = torch.zeros(3, requires_grad=True)
q = Normal(mu, log_sigma.exp())
z = q.rsample()
p = Normal(torch.zeros(3), torch.ones(3))
loss = kl_divergence(q, p).sum() - p.log_prob(z).sum()
loss.backward()
print(z, loss, mu.grad, log_sigma.grad)
print(q, q.mean, q.stddev, q.entropy())
''',
    "gamma_beta_dirichlet": '''
import torch
import torch.distributions as D

torch.manual_seed(2)
g = D.Gamma(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 3.0]))
print(g.sample((2,)), g.rsample())
print(D.Beta(torch.tensor(2.0), torch.tensor(3.0)).sample((3,)))
print(D.Dirichlet(torch.tensor([1.0, 2.0, 3.0])).sample())
b = D.Bernoulli(logits=torch.tensor([0.3, -1.0]))
print(b.sample(), b.log_prob(torch.tensor([1.0, 0.0])), b.entropy())
try:
    D.Normal(torch.tensor(0.0), torch.tensor(-1.0))
except ValueError as e:
    print(e)
''',
    "parametrize_cached": '''
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


torch.manual_seed(0)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
with P.cached():
    print(layer.weight is layer.weight, type(layer).__name__)
layer(torch.ones(1, 3)).sum().backward()
print(layer.parametrizations.weight.original.grad)
P.remove_parametrizations(layer, "weight")
print(layer.weight)
''',
    "clip_and_pack": '''
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence

torch.manual_seed(3)
seqs = [torch.randn(3, 2), torch.randn(1, 2), torch.randn(2, 2)]
padded = pad_sequence(seqs, batch_first=True)
packed = pack_padded_sequence(padded, [3, 1, 2], batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices)
out, lengths = pad_packed_sequence(packed, batch_first=True)
print(out.shape, lengths)
model = nn.Linear(2, 1)
loss = model(out).pow(2).sum()
loss.backward()
print(clip_grad_norm_(model.parameters(), max_norm=0.5))
clip_grad_value_(model.parameters(), 0.1)
print(model.weight.grad, parameters_to_vector(model.parameters()))
''',
    "mvn_counts_spectral_bidirectional": '''
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal, Poisson, Binomial, kl_divergence
from torch.nn.utils import spectral_norm
from torch.nn.utils.parametrizations import spectral_norm as sn
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence

torch.manual_seed(4)
loc = torch.zeros(2, requires_grad=True)
cov = torch.tensor([[1.0, 0.3], [0.3, 2.0]])
m = MultivariateNormal(loc, covariance_matrix=cov)
x = m.rsample((3,))
print(x, m.log_prob(x), m.entropy())
m.log_prob(x).sum().backward()
print(loc.grad, kl_divergence(m, MultivariateNormal(torch.ones(2), scale_tril=torch.eye(2))))
print(Poisson(torch.tensor([2.0, 15.0])).sample((2,)), Binomial(20, torch.tensor([0.2, 0.7])).sample())
critic = spectral_norm(nn.Linear(3, 1))
gen = sn(nn.Linear(2, 3))
out = critic(gen(torch.randn(4, 2)))
out.mean().backward()
print(out, critic.weight_orig.grad)
gru = nn.GRU(2, 3, bidirectional=True)
packed = pack_sequence([torch.randn(3, 2), torch.randn(1, 2)])
y, h = gru(packed)
print(pad_packed_sequence(y)[0].shape, h)
''',
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_with_distributions_and_nn_utils_print_what_torch_prints(name):
    from tests.trace.torch_side import mask, run_torch

    source = PROGRAMS[name]
    timeline = run(source)
    want_out, want_exc, _ = run_torch(source)
    assert timeline.error is None and want_exc is None, (timeline.error, want_exc)
    assert printed_alike(mask(timeline.output), want_out), (timeline.output, want_out)
    check_timeline(timeline, every_k=False)


REFUSED = {
    "the ported files' torch namespace": ("import torch\nx = torch.distributions.normal.torch",
                                          "AttributeError", "has no attribute 'torch'"),
    "a private module": ("from torch.distributions import _torch", "GuardError", "'_torch'"),
    "a submodule not listed": ("import torch.nn.modules.activation", "GuardError", "torch.nn.modules.activation"),
    "the KL registry": ("import torch\ntorch.distributions.kl._KL_REGISTRY.clear()", "GuardError",
                        "starting with '_'"),
    "the validation default, directly": ("import torch\ntorch.distributions.Distribution._validate_args = False",
                                         "GuardError", "starting with '_'"),
    "a module nn.utils imports": ("import torch\nx = torch.nn.utils.clip_grad.functools", "AttributeError",
                                  "has no attribute 'functools'"),
    "a module the data submodules import": ("from torch.utils.data import sampler\nx = sampler.np", "AttributeError",
                                            "has no attribute 'np'"),
    "a distribution's class attribute": ("import torch\ntorch.distributions.Normal.has_rsample = False",
                                         "GuardError", ""),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_views_hand_out_only_public_names(name):
    source, kind, words = REFUSED[name]
    timeline = run(source)
    assert timeline.error is not None and timeline.error["type"] == kind, timeline.error
    assert words in timeline.error["message"], timeline.error


def test_what_a_program_changes_of_the_distributions_is_put_back():
    registry = dict(distributions.kl._KL_REGISTRY)
    bijection = "import torch\nprint(torch.distributions.biject_to(torch.distributions.constraints.positive))"
    before = run(bijection).output
    timeline = run('''
import torch
from torch.distributions import Normal, Distribution, kl_divergence, register_kl, biject_to, constraints
from torch.distributions.transforms import ExpTransform

@register_kl(Normal, Normal)
def mine(p, q):
    return torch.tensor(42.0)

Distribution.set_default_validate_args(False)
biject_to.register(constraints.positive, lambda c: ExpTransform())
print(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 1.0)), Normal(0.0, -1.0).scale)
''')
    assert timeline.error is None and timeline.output == "tensor(42.) tensor(-1.)\n", (timeline.error, timeline.output)
    assert distributions.kl._KL_REGISTRY == registry
    assert distributions.Distribution._validate_args is True
    p, q = distributions.Normal(0.0, 1.0), distributions.Normal(1.0, 1.0)
    assert str(distributions.kl_divergence(p, q)) == "tensor(0.5000)"
    with pytest.raises(ValueError, match="GreaterThan"):
        distributions.Normal(0.0, -1.0)
    assert run(bijection).output == before != "ExpTransform()\n"


def test_a_cache_left_open_is_closed_after_the_run():
    from engine.nn.utils import parametrize
    timeline = run("import torch\nimport torch.nn.utils.parametrize as P\ndef g():\n    with P.cached():\n"
                   "        yield 1\nit = g()\nnext(it)\n")
    assert timeline.error is None
    assert parametrize._cache_enabled == 0 and parametrize._cache == {}
