# Source: georgeyiasemis/Policy-Gradient-Reinforcement-Learning-on-a-Grid-World (George Yiasemis, 2021):
#   environment.py, agent.py, pg.py, utils.py and main.py, commit 654e048.
# Category: training loops — REINFORCE on a hand-written 10x10 grid world (numpy states, an obstacle, a reward of
#   (1 - distance to the goal)): a Linear-Dropout-ReLU-Linear policy, nn.Softmax(-1), distributions.Categorical
#   sample/log_prob, normalised discounted returns, Adam; greedy evaluation under no_grad with argmax
# Adaptations:
#  - written after the repository's five files as one program (the search tool's terms keep their text out of
#    commits): the same classes, calls and printed line, in other words;
#  - the cv2 drawing (plot_grid, plot_Q(s), plot_trace, draw) and the matplotlib plot go;
#  - seeded (torch.manual_seed(0)); hidden size 256 -> 32, 200 episodes -> 5.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import torch.distributions as distributions

torch.manual_seed(0)


class Environment:
    def __init__(self, id=0):
        self.init_state = np.array([0.05, 0.05], dtype=np.float32)
        self.goal_state = np.array([0.95, 0.95], dtype=np.float32)
        self.obstacle_space = np.array([[0.3, 0.5], [0.3, 0.6]], dtype=np.float32)
        self.obstacles = np.array([[0.35, 0.35], [0.35, 0.45], [0.35, 0.55],
                                   [0.45, 0.35], [0.45, 0.45], [0.45, 0.55]], dtype=np.float32)
        grid = np.meshgrid(np.linspace(0.05, 0.95, 10).round(2), np.linspace(0.05, 0.95, 10).round(2))
        self.pos = np.stack((grid[0], grid[1])).astype('float32')
        blocked = np.concatenate((self.obstacles, self.goal_state.reshape(1, -1)), 0)
        self.states = torch.tensor([self.pos[:, i, j] for i in range(10) for j in range(10)
                                    if not (np.abs(self.pos[:, i, j] - blocked) < 0.0001).all(1).any()]).float()
        self.num_states = self.states.shape[0]
        self.num_actions = 4
        self.id = id

    def reset(self):
        return self.init_state

    def step(self, state, action):
        next_state = state + action
        if next_state[0] < 0.0 or next_state[0] > 1.0 or next_state[1] < 0.0 or next_state[1] > 1.0:
            next_state = state
        if (self.obstacle_space[0, 0] <= next_state[0] < self.obstacle_space[0, 1]
                and self.obstacle_space[1, 0] <= next_state[1] < self.obstacle_space[1, 1]):
            next_state = state
        distance_to_goal = np.linalg.norm(next_state - self.goal_state)
        return next_state.round(2), distance_to_goal


def reward_fun_a(a=1):
    return lambda dist: np.power(1 - dist, a)


class Agent():
    def __init__(self, environment, gamma=0.9, reward_fun=None):
        self.environment = environment
        self.gamma = gamma
        self.state = None
        self.reward_fun = reward_fun_a(a=1) if reward_fun is None else reward_fun
        self.total_reward = None
        self.reset()

    def reset(self):
        self.state = self.environment.reset()
        self.total_reward = 0.0

    def step(self, discrete_action):
        assert discrete_action in range(self.environment.num_actions)
        continuous_action = self._discrete_action_to_continuous(discrete_action)
        next_state, self.distance_to_goal = self.environment.step(self.state, continuous_action)
        reward = self.reward_fun(self.distance_to_goal)
        transition = (self.state, discrete_action, reward, next_state)
        self.state = next_state
        self.total_reward += reward
        has_reached_goal = np.all(self.state.round(2) == self.environment.goal_state.round(2))
        return transition, has_reached_goal

    def _discrete_action_to_continuous(self, discrete_action):
        actions = {0: np.array([0.1, 0]), 1: np.array([0, 0.1]), 2: np.array([-0.1, 0]), 3: np.array([0, -0.1])}
        return actions[discrete_action].astype('float32')


class PolicyNet(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, dropout=0.6):
        super(PolicyNet, self).__init__()
        self.fc1 = nn.Linear(input_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, output_dim)
        self.dropout = nn.Dropout(dropout)
        self.relu = nn.ReLU()
        self.net = nn.Sequential(self.fc1, self.dropout, self.relu, self.fc2)

    def forward(self, x):
        return self.net(x)


def calculate_returns(rewards, discount_factor, normalise=True):
    returns = []
    R = 0
    for r in reversed(rewards):
        R = r + R * discount_factor
        returns.insert(0, R)
    returns = torch.tensor(returns)
    if normalise:
        returns = (returns - returns.mean()) / returns.std()
    return returns


def update_policy(returns, action_log_probs, optimiser):
    returns = returns.detach()
    loss = - (returns * action_log_probs).sum()
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    return loss.item()


def train(agent, policy, optimiser, gamma, num_episode_steps):
    policy.train()
    action_log_probs, rewards = [], []
    episode_reward = 0
    agent.reset()
    state = agent.state
    trace = [state]
    for i in range(num_episode_steps):
        state = torch.tensor(state).float()
        pred = policy(state)
        action_probs = nn.Softmax(-1)(pred)
        p = distributions.Categorical(probs=action_probs)
        action = p.sample()
        action_log_prob = p.log_prob(action)
        (_, _, reward, state), end_episode = agent.step(action.item())
        action_log_probs.append(action_log_prob)
        rewards.append(reward)
        trace.append(state)
        episode_reward += reward
        if end_episode:
            break
    action_log_probs = torch.stack(action_log_probs)
    R = calculate_returns(rewards, gamma)
    loss = update_policy(R, action_log_probs, optimiser)
    return loss, episode_reward, trace


def evaluate(agent, policy, num_episode_steps):
    policy.eval()
    episode_reward = 0
    agent.reset()
    state = agent.state
    trace = [state]
    for i in range(num_episode_steps):
        state = torch.tensor(state).float()
        with torch.no_grad():
            pred = policy(state)
            action_prob = nn.Softmax(-1)(pred)
            action = action_prob.argmax(-1)
        (_, _, reward, state), reached_goal = agent.step(action.item())
        trace.append(state)
        episode_reward += reward
        if reached_goal:
            break
    return episode_reward, trace


gamma = 0.8
train_agent = Agent(Environment(id=' Train'), gamma=gamma)
test_agent = Agent(Environment(id=' Test'), gamma=gamma)
print('states without obstacles and goal:', train_agent.environment.num_states)
policy = PolicyNet(2, 32, train_agent.environment.num_actions)
num_episodes = 5
num_episode_steps = 20
optimiser = optim.Adam(policy.parameters(), lr=0.002)
lookback = 5
train_rewards, test_rewards = [], []
for episode in range(1, num_episodes + 1):
    loss, train_reward, train_trace = train(train_agent, policy, optimiser, gamma, num_episode_steps)
    test_reward, test_trace = evaluate(test_agent, policy, num_episode_steps)
    train_rewards.append(train_reward)
    test_rewards.append(test_reward)
    mean_train_rewards = np.mean(train_rewards[-lookback:])
    mean_test_rewards = np.mean(test_rewards[-lookback:])
    print(f'| Episode: {episode:3} | Mean Train Rewards: {mean_train_rewards:5.1f} | '
          f'Mean Test Rewards: {mean_test_rewards:5.1f} | loss {loss:.4f}')
print('last train trace:', [tuple(float(v) for v in s) for s in train_trace[-3:]])
