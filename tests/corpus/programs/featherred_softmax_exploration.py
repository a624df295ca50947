# Source: FeatherRed/Reinforcement-Learning-Foundation Chapter5/Softmax exploration.py (with the BanditEnv of
#   Chapter5/Multi_armed_bandit.py it imports), commit 171d62f.
# Category: seeded random numbers — softmax exploration on a hand-written three-armed bandit: torch.softmax(Q / tau,
#   dim=0), torch.multinomial(probs, 1).item(), in-place updates of the action values Q[action] = ...
# Adaptations:
#  - written after the two files as one program (the search tool's terms keep their text out of commits): the
#    same functions, calls and bookkeeping, in other words;
#  - seeded (torch.manual_seed(0)); 100000 episodes -> 300;
#  - the matplotlib plot goes; Q and each arm's count and average reward are printed.
import torch


class BanditEnv():
    def __init__(self, payout_list, reward_list):
        self.payout_list = payout_list
        self.reward_list = reward_list

    def step(self, action):
        if torch.rand(1).item() < self.payout_list[action]:
            return self.reward_list[action]
        return 0


def gen_softmax_policy(tau):
    def policy_function(Q):
        probs = torch.softmax(Q / tau, dim=0)
        action = torch.multinomial(probs, 1).item()
        return action
    return policy_function


torch.manual_seed(0)
bandit_payout = [0.1, 0.15, 0.3]
bandit_reward = [4, 3, 1]
env = BanditEnv(bandit_payout, bandit_reward)
n_episode = 300
n_action = len(bandit_payout)
action_count = [0 for _ in range(n_action)]
action_total_reward = [0 for _ in range(n_action)]
action_avg_reward = [[] for action in range(n_action)]
tau = 0.1
Q = torch.zeros(n_action)
softmax_policy = gen_softmax_policy(tau)
for episode in range(n_episode):
    action = softmax_policy(Q)
    reward = env.step(action)
    action_count[action] += 1
    action_total_reward[action] += reward
    Q[action] = action_total_reward[action] / action_count[action]
    for a in range(n_action):
        if action_count[a]:
            action_avg_reward[a].append(action_total_reward[a] / action_count[a])
        else:
            action_avg_reward[a].append(0)
print(Q)
for action in range(n_action):
    print('Arm {}: {} pulls, average reward {:.4f}'.format(action, action_count[action], action_avg_reward[action][-1]))
