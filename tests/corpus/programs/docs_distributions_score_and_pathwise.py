# Source: pytorch/pytorch torch/distributions/__init__.py module docstring, "Score function" and "Pathwise
#   derivative" (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: training loops — REINFORCE with Categorical.sample/log_prob, the reparameterised Normal.rsample
# Adaptations:
#  - the docstring's `policy_network`, `state` and `env` are not defined there: a small policy (nn.Linear), a
#    two-action environment whose reward is 1.0 for action 1 (score function) and a differentiable reward
#    -(action - 1)^2 (pathwise) are added, with torch.manual_seed(0), an SGD optimizer and a loop of 5 steps
#    around each snippet; the loss and the sampled action are printed at each step.
import torch
import torch.nn as nn
from torch.distributions import Categorical, Normal

torch.manual_seed(0)


class Env:
    def step(self, action):
        reward = (action == 1).float()
        return torch.randn(4), reward


class ContinuousEnv:
    def step(self, action):
        reward = -(action - 1.0) ** 2
        return torch.randn(4), reward


policy_network = nn.Sequential(nn.Linear(4, 2), nn.Softmax(dim=-1))
optimizer = torch.optim.SGD(policy_network.parameters(), lr=0.1)
env = Env()
state = torch.randn(4)
for step in range(5):
    probs = policy_network(state)
    # Note that this is equivalent to what used to be called multinomial
    m = Categorical(probs)
    action = m.sample()
    next_state, reward = env.step(action)
    loss = -m.log_prob(action) * reward
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    state = next_state
    print(step, action, loss)

mean_and_log_std = nn.Linear(4, 2)
policy_network = lambda s: (mean_and_log_std(s)[0], mean_and_log_std(s)[1].exp())
optimizer = torch.optim.SGD(mean_and_log_std.parameters(), lr=0.1)
env = ContinuousEnv()
for step in range(5):
    params = policy_network(state)
    m = Normal(*params)
    # Any distribution with .has_rsample == True could work based on the application
    action = m.rsample()
    next_state, reward = env.step(action)  # Assuming that reward is differentiable
    loss = -reward
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    state = next_state
    print(step, action, loss)
