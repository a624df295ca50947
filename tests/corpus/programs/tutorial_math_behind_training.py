# Source: pytorch/tutorials beginner_source/math_behind_training_tutorial.py
#   ("Visualizing the Mathematics Behind Neural Network Training", by Aditya Mehra;
#   https://github.com/pytorch/tutorials, BSD-3-Clause), commit be646f4.
# Category: training loops — nn.Linear vs matmul, graph walk, SGD (seeded)
# Adaptations:
#  - none but the prose docstring and comment blocks dropped; the seeds are the tutorial's own.
import torch
import torch.nn as nn

torch.manual_seed(42)

# A linear layer: 3 input features -> 2 output features
layer = nn.Linear(in_features=3, out_features=2)

# Input: a single sample with 3 features
x = torch.tensor([[1.0, 2.0, 3.0]])

# Forward pass through the layer
y_layer = layer(x)

# Manual computation: y = x @ W^T + b
y_manual = x @ layer.weight.T + layer.bias

print(f"Layer output:  {y_layer.data}")
print(f"Manual output: {y_manual.data}")
print(f"Match: {torch.allclose(y_layer, y_manual)}")

print(f"Weight matrix W shape: {list(layer.weight.shape)}")
print(layer.weight.data)
print(f"\nBias vector b shape:   {list(layer.bias.shape)}")
print(layer.bias.data)
print(f"\nTotal parameters:      {sum(p.numel() for p in layer.parameters())}")

layer1 = nn.Linear(3, 4, bias=False)
layer2 = nn.Linear(4, 2, bias=False)

y_stacked = layer2(layer1(x))
y_collapsed = x @ (layer2.weight @ layer1.weight).T

print(f"\nTwo layers:    {y_stacked.data}")
print(f"Collapsed:     {y_collapsed.data}")
print(f"Match: {torch.allclose(y_stacked, y_collapsed)}")

x_range = torch.linspace(-3, 3, steps=7)

relu_output = torch.relu(x_range)
print("Input:       ", x_range.tolist())
print("ReLU output: ", relu_output.tolist())

# Simulate a layer's output for 100 samples
torch.manual_seed(0)
layer_output = torch.randn(100, 8) - 1.0  # shifted negative
after_relu = torch.relu(layer_output)

dead = (after_relu == 0).all(dim=0)
print(f"\nDead neurons: {dead.sum().item()} out of {after_relu.shape[1]}")
print(f"Dead neuron mask: {dead.tolist()}")

# A simple computation: z = 3x^2 + 1
x = torch.tensor([2.0], requires_grad=True)
y = x ** 2
z = 3 * y + 1

# autograd computes dz/dx
z.backward()
print(f"x = {x.item()}")
print(f"z = 3x² + 1 = {z.item()}")
print(f"Autograd:  dz/dx = {x.grad.item()}")
print(f"Manual:    dz/dx = 6x = {6 * x.item()}")

x = torch.tensor([[2.0, 1.0]])
W = torch.tensor([[0.5, -0.3],
                   [0.8,  0.2]], requires_grad=True)
b = torch.tensor([0.1, -0.1], requires_grad=True)

# Forward: y = x @ W^T + b (same as nn.Linear)
y = x @ W.T + b
loss = y.sum()  # backward() needs a scalar; sum is the simplest way

loss.backward()

print(f"\nForward pass:")
print(f"  x    = {x.data}")
print(f"  y    = {y.data}")
print(f"  loss = {loss.item()}")

print(f"\nAutograd gradients:")
print(f"  dL/dW = {W.grad}")
print(f"  dL/db = {b.grad}")

manual_grad_W = torch.ones(2, 1) @ x  # shape: (2, 1) @ (1, 2) -> (2, 2)
manual_grad_b = torch.ones(2)

print(f"\nManual verification:")
print(f"  dL/dW = {manual_grad_W}")
print(f"  dL/db = {manual_grad_b}")
print(f"  W match: {torch.allclose(W.grad, manual_grad_W)}")
print(f"  b match: {torch.allclose(b.grad, manual_grad_b)}")

x = torch.tensor([2.0], requires_grad=True)
y = x ** 2
z = 3 * y + 1

print(f"x.grad_fn = {x.grad_fn}")       # None — leaf tensor
print(f"y.grad_fn = {y.grad_fn}")       # PowBackward0
print(f"z.grad_fn = {z.grad_fn}")       # AddBackward0


def trace_graph(tensor, indent=0):
    """Walk the computational graph from output to inputs."""
    if tensor.grad_fn is not None:
        print(" " * indent + str(tensor.grad_fn))
        for child, _ in tensor.grad_fn.next_functions:
            if child is not None:
                trace_graph_node(child, indent + 2)


def trace_graph_node(node, indent=0):
    """Recursively print graph nodes."""
    print(" " * indent + str(node))
    for child, _ in node.next_functions:
        if child is not None:
            trace_graph_node(child, indent + 2)


print(f"\nComputational graph for z = 3x² + 1:")
trace_graph(z)

# torch.no_grad() stops graph construction (saves memory at inference)
with torch.no_grad():
    y_no_graph = x ** 2
print(f"\nWith torch.no_grad():  grad_fn = {y_no_graph.grad_fn}")

# .detach() removes a tensor from the graph
y_detached = (x ** 2).detach()
print(f"With .detach():        grad_fn = {y_detached.grad_fn}")

torch.manual_seed(0)

model = nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

# Snapshot the weight before stepping
old_weight = model.weight.data.clone()
old_bias = model.bias.data.clone()

# One forward-backward pass
x = torch.tensor([[1.0]])
target = torch.tensor([[3.0]])
prediction = model(x)
loss = nn.functional.mse_loss(prediction, target)

optimizer.zero_grad()
loss.backward()

# The gradient that backward() computed
print(f"Weight gradient: {model.weight.grad.item():.4f}")
print(f"Bias gradient:   {model.bias.grad.item():.4f}")

optimizer.step()

# Verify: new = old - lr * grad
manual_weight = old_weight - 0.1 * model.weight.grad
manual_bias = old_bias - 0.1 * model.bias.grad

print(f"\nWeight after step:  {model.weight.data.item():.4f}")
print(f"Manual computation: {manual_weight.item():.4f}")
print(f"Match: {torch.allclose(model.weight.data, manual_weight)}")

torch.manual_seed(0)

# Training data: y = 3x + 1
X = torch.linspace(0, 1, 50).unsqueeze(1)
y_true = 3 * X + 1

# Fresh model and optimizer
model = nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

print(f"Before training:  W = {model.weight.item():.4f}, "
      f"b = {model.bias.item():.4f}")

for epoch in range(200):
    prediction = model(X)
    loss = nn.functional.mse_loss(prediction, y_true)

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

    if (epoch + 1) % 50 == 0:
        print(f"Epoch {epoch+1:3d}  |  Loss: {loss.item():.6f}  |  "
              f"W: {model.weight.item():.4f}  |  "
              f"b: {model.bias.item():.4f}")

print(f"Target:           W = 3.0000, b = 1.0000")

torch.manual_seed(42)

# Data
X = torch.randn(100, 3)
y = X @ torch.tensor([2.0, -1.0, 0.5]) + 0.3  # true relationship

# Model and optimizer
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(300):
    # STEP 1: Forward pass — LINEAR ALGEBRA
    # model(X) computes X @ W^T + b
    prediction = model(X).squeeze()

    # STEP 2: Compute loss — DISTANCE METRIC
    # MSE measures how far predictions are from truth
    loss = nn.functional.mse_loss(prediction, y)

    # STEP 3: Backward pass — CALCULUS (chain rule)
    # Traverses the computational graph in reverse,
    # computing dL/dW and dL/db at every node
    optimizer.zero_grad()
    loss.backward()

    # STEP 4: Update parameters — OPTIMIZATION (gradient descent)
    # W_new = W_old - lr * dL/dW
    optimizer.step()

print(f"Learned weights: {model.weight.data.squeeze().tolist()}")
print(f"True weights:    [2.0, -1.0, 0.5]")
print(f"Learned bias:    {model.bias.item():.4f}")
print(f"True bias:       0.3000")
