# Source: FeatherRed/Reinforcement-Learning-Foundation Chapter2/Performing policy evaluation MDP.py, commit 171d62f.
# Category: tensors — iterative policy evaluation on a hand-written three-state MDP: a transition tensor
#   T[state, action], torch.dot with the value vector, in-place V_temp[state] += ..., torch.max(torch.abs(...)),
#   clone() per sweep, a history of value vectors
# Adaptations:
#  - written after the original file (the search tool's terms keep its text out of commits): the same functions,
#    tensors and print, in other words;
#  - the matplotlib plot of the history goes; its length and last entries are printed.
import torch


def policy_evaluation(policy, trans_matrix, rewards, gamma, threshold):
    n_state = policy.shape[0]
    V = torch.zeros(n_state)
    while True:
        V_temp = torch.zeros(n_state)
        for state, actions in enumerate(policy):
            for action, probs in enumerate(actions):
                V_temp[state] += probs * (rewards[state] + gamma * (torch.dot(trans_matrix[state, action], V)))
        delta_max = torch.max(torch.abs(V - V_temp))
        V = V_temp.clone()
        if delta_max <= threshold:
            break
    return V


def policy_evaluation_history(policy, trans_matrix, rewards, gamma, threshold):
    n_state = policy.shape[0]
    V = torch.zeros(n_state)
    V_his = [V]
    while True:
        V_temp = torch.zeros(n_state)
        for state, actions in enumerate(policy):
            for action, probs in enumerate(actions):
                V_temp[state] += probs * (rewards[state] + gamma * (torch.dot(trans_matrix[state, action], V)))
        delta_max = torch.max(torch.abs(V - V_temp))
        V = V_temp.clone()
        V_his.append(V)
        if delta_max <= threshold:
            break
    return V, V_his


T = torch.tensor([[[0.8, 0.1, 0.1], [0.1, 0.6, 0.3]],
                  [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1]],
                  [[0.6, 0.2, 0.2], [0.1, 0.4, 0.5]]])
R = torch.tensor([1., 0., -1.])
gamma = 0.5
threshold = 1e-4
policy_optimal = torch.tensor([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]])
print(policy_evaluation(policy_optimal, T, R, gamma, threshold))
V, V_his = policy_evaluation_history(policy_optimal, T, R, gamma, threshold)
print(len(V_his), V_his[1], V_his[-2])
print("The value function under the optimal policy is:\n{}".format(V))
