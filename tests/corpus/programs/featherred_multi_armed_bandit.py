# Source: FeatherRed/Reinforcement-Learning-Foundation Chapter5/Multi_armed_bandit.py.
# Category: seeded random numbers — a hand-written three-armed bandit environment driven by torch.rand, a
#   random policy drawing arms with torch.multinomial(torch.ones(n), 1).item(), running average rewards per arm
# Adaptations:
#  - written after the original file (the search tool's terms keep its text out of commits): the same class,
#    calls and bookkeeping, in other words;
#  - seeded (torch.manual_seed(0)); 100000 episodes -> 300;
#  - the matplotlib plot goes; each arm's count and final average reward are printed.
import torch


class BanditEnv():
    def __init__(self, payout_list, reward_list):
        self.payout_list = payout_list
        self.reward_list = reward_list

    def step(self, action):
        if torch.rand(1).item() < self.payout_list[action]:
            return self.reward_list[action]
        return 0


def random_policy(n_action):
    action = torch.multinomial(torch.ones(n_action), 1).item()
    return action


if __name__ == "__main__":
    torch.manual_seed(0)
    bandit_payout = [0.1, 0.15, 0.3]
    bandit_reward = [4, 3, 1]
    bandit_env = BanditEnv(bandit_payout, bandit_reward)
    n_episode = 300
    n_action = len(bandit_payout)
    action_count = [0 for _ in range(n_action)]
    action_total_reward = [0 for _ in range(n_action)]
    action_avg_reward = [[] for action in range(n_action)]
    for episode in range(n_episode):
        action = random_policy(n_action)
        reward = bandit_env.step(action)
        action_count[action] += 1
        action_total_reward[action] += reward
        for a in range(n_action):
            if action_count[a]:
                action_avg_reward[a].append(action_total_reward[a] / action_count[a])
            else:
                action_avg_reward[a].append(0)
    for action in range(n_action):
        print('Arm {}: pulled {} times, average reward {:.4f}'.format(
            action, action_count[action], action_avg_reward[action][-1]))
