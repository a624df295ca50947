"""torch.autograd.grad's options as programs pass them: only_inputs (deprecated: its FutureWarning), is_grads_batched
(a batch of grad_outputs, and torch's text for a mismatched one), and a WGAN-GP gradient penalty as written in the
GAN tutorials (create_graph, retain_graph, only_inputs), against torch."""
from difftest import assert_same

PRELUDE = "import torch\nimport torch.nn as nn\nimport torch.autograd as autograd\n"


def _same(source):
    assert_same(PRELUDE + source)


def test_only_inputs_and_batched_grad_outputs():
    _same("""
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True, retain_graph=True))
print(torch.autograd.grad(y.sum(), x, only_inputs=False, create_graph=True))
try:
    torch.autograd.grad(y, x, torch.ones(2, 4), is_grads_batched=True)
except RuntimeError as e:
    print(e)
""")


def test_gradient_penalty():
    _same("""
torch.manual_seed(0)
D = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
real = torch.randn(6, 2); fake = torch.randn(6, 2)
alpha = torch.rand(6, 1)
interpolates = (alpha * real + ((1 - alpha) * fake)).requires_grad_(True)
d_interpolates = D(interpolates)
fake_out = torch.ones(real.shape[0], 1, requires_grad=False)
gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake_out,
                          create_graph=True, retain_graph=True, only_inputs=True)[0]
gradients = gradients.view(gradients.size(0), -1)
gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean()
loss = -D(real).mean() + D(fake).mean() + 10 * gradient_penalty
loss.backward()
print(gradient_penalty, D[0].weight.grad)
""")
