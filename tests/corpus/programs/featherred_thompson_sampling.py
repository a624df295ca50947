# Source: FeatherRed/Reinforcement-Learning-Foundation Chapter5/Thompson sampling.py (with the BanditEnv of
#   Chapter5/Multi_armed_bandit.py it imports), commit 171d62f.
# Category: seeded random numbers — Thompson sampling on a hand-written Bernoulli bandit:
#   torch.distributions.beta.Beta(alpha, beta).sample() (Beta draws from torch's gamma sampler), torch.argmax,
#   in-place alpha[action] += 1
# Adaptations:
#  - written after the two files as one program (the search tool's terms keep their text out of commits): the
#    same functions, calls and bookkeeping, in other words;
#  - seeded (torch.manual_seed(0)); 100000 episodes -> 150;
#  - the matplotlib plot goes; alpha, beta and each arm's average reward are printed.
import torch


class BanditEnv():
    def __init__(self, payout_list, reward_list):
        self.payout_list = payout_list
        self.reward_list = reward_list

    def step(self, action):
        if torch.rand(1).item() < self.payout_list[action]:
            return self.reward_list[action]
        return 0


def gen_thompson_policy():
    def policy_function(alpha, beta):
        prior_values = torch.distributions.beta.Beta(alpha, beta).sample()
        return torch.argmax(prior_values).item()
    return policy_function


torch.manual_seed(0)
bandit_payout = [0.1, 0.15, 0.3]
bandit_reward = [1, 1, 1]
env = BanditEnv(bandit_payout, bandit_reward)
n_episode = 150
n_action = len(bandit_payout)
action_count = [0 for _ in range(n_action)]
action_total_reward = [0 for _ in range(n_action)]
action_avg_reward = [[] for action in range(n_action)]
thompson_policy = gen_thompson_policy()
alpha = torch.ones(n_action)
beta = torch.ones(n_action)
for episode in range(n_episode):
    action = thompson_policy(alpha, beta)
    reward = env.step(action)
    action_count[action] += 1
    action_total_reward[action] += reward
    if reward:
        alpha[action] += 1
    else:
        beta[action] += 1
    for a in range(n_action):
        if action_count[a]:
            action_avg_reward[a].append(action_total_reward[a] / action_count[a])
        else:
            action_avg_reward[a].append(0)
print(alpha, beta)
print([round(r[-1], 4) for r in action_avg_reward])
