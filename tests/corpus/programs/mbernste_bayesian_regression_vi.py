# Source: mbernste/mbernste.github.io _posts/2022-11-05-reparameterization_vi.md (Matthew N. Bernstein,
#   "Blackbox variational inference via the reparameterization gradient", Appendix), commit 06e291a.
# Category: training loops — Bayesian linear regression by blackbox VI: Monte Carlo draws of the coefficients
#   from a mean-field Gaussian (q_mean + exp(q_logstd) * eps), torch.distributions.normal.Normal log_prob for
#   the likelihood, the prior and the variational density, repeat/T for broadcasting, sum(axis=1), Adam on the
#   variational and model parameters
# Adaptations:
#  - written after the post's appendix function (the search tool's terms keep its text out of commits): the
#    same function, calls and bookkeeping, in other words;
#  - the post's five-point toy data set is drawn here (y = 2x - 1 plus noise, with a column of ones), float32;
#    seeded (torch.manual_seed(0), np.random.seed(0)); 2000 iterations -> 30, 1000 Monte Carlo samples -> 50;
#  - the plots and the Stan comparison go; the losses and the fitted posterior are printed.
import torch
import torch.optim as optim
import numpy as np

torch.manual_seed(0)
np.random.seed(0)


def bayesian_linear_regression_blackbox_vi(X, y, prior_mean, prior_std, n_iters=2000, lr=0.1, n_monte_carlo=1000):
    n_dims = X[0].shape[0]
    X = torch.tensor(X)
    y = torch.tensor(y)
    q_mean = torch.tensor([0., 0.], requires_grad=True)
    q_logstd = torch.ones_like(X[0], requires_grad=True)
    logsigma = torch.tensor(1.0, requires_grad=True)
    losses, q_means, q_logstds = [], [], []
    optimizer = optim.Adam([q_mean, q_logstd, logsigma], lr=lr)
    for iter in range(n_iters):
        eps_beta = torch.randn(size=(n_monte_carlo, n_dims))
        beta = q_mean + torch.exp(q_logstd) * eps_beta
        y_means = torch.matmul(beta, X.T)
        y_dist = torch.distributions.normal.Normal(y_means, torch.exp(logsigma.repeat(y_means.shape[1], 1).T))
        y_probs = y_dist.log_prob(y.repeat(y_means.shape[0], 1))
        y_prob_per_l = torch.sum(y_probs, axis=1)
        prior_beta_mean = torch.zeros_like(beta[0]).repeat(y_prob_per_l.shape[0], 1) + torch.tensor(prior_mean)
        prior_beta_std = (torch.ones_like(beta[1]) * prior_std).repeat(y_prob_per_l.shape[0], 1)
        prior_beta_dist = torch.distributions.normal.Normal(prior_beta_mean, prior_beta_std)
        prior_beta_probs = prior_beta_dist.log_prob(beta)
        prior_beta_per_l = X.shape[0] * torch.sum(prior_beta_probs, axis=1)
        y_beta_prob_per_l = y_prob_per_l + prior_beta_per_l
        beta_dist = torch.distributions.normal.Normal(q_mean, torch.exp(q_logstd))
        q_beta_probs = beta_dist.log_prob(beta)
        q_beta_prob_per_l = torch.sum(q_beta_probs, axis=1)
        elbo_per_l = y_beta_prob_per_l - q_beta_prob_per_l
        loss = -1 * torch.mean(elbo_per_l)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss.detach().numpy()))
        q_means.append(np.array(q_mean.detach().numpy()))
        q_logstds.append(np.array(q_logstd.detach().numpy()))
    return q_mean, q_logstd, q_means, q_logstds, losses


x = np.random.uniform(-2, 2, size=5).astype(np.float32)
X = np.stack([x, np.ones_like(x)], 1)
Y = (2 * x - 1 + np.random.normal(scale=0.5, size=5)).astype(np.float32)
q_mean, q_logstd, q_means, q_logstds, losses = bayesian_linear_regression_blackbox_vi(
    X, Y, prior_mean=[0., 0.], prior_std=10., n_iters=30, n_monte_carlo=50)
print('losses:', [round(l, 3) for l in losses[::6]])
print('posterior mean (slope, intercept):', q_mean)
print('posterior std:', torch.exp(q_logstd))
print(q_means[-1], q_logstds[-1])
