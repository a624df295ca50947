# Source: machinelearningmastery.com "Calculating Derivatives in PyTorch" (Muhammad Asad Iqbal Khan, Deep Learning
#   with PyTorch series, 2022; https://machinelearningmastery.com/calculating-derivatives-in-pytorch/), its code
#   listings in order.
# Category: autograd basics — y = 3x² and its derivative at 3, the data/grad/grad_fn/is_leaf/requires_grad of a leaf
#   and of a result (reading .grad of a non-leaf warns), derivatives over a linspace of x² and of relu plotted,
#   partial derivatives of u³ + v² + 4uv
# Adaptations: none.
import matplotlib.pyplot as plt
import torch

x = torch.tensor(3.0, requires_grad = True)
print("creating a tensor x: ", x)

y = 3 * x ** 2
print("Result of the equation is: ", y)
y.backward()
print("Dervative of the equation at x = 3 is: ", x.grad)

print('data attribute of the tensor:',x.data)
print('grad attribute of the tensor::',x.grad)
print('grad_fn attribute of the tensor::',x.grad_fn)
print("is_leaf attribute of the tensor::",x.is_leaf)
print("requires_grad attribute of the tensor::",x.requires_grad)

print('data attribute of the tensor:',y.data)
print('grad attribute of the tensor:',y.grad)
print('grad_fn attribute of the tensor:',y.grad_fn)
print("is_leaf attribute of the tensor:",y.is_leaf)
print("requires_grad attribute of the tensor:",y.requires_grad)

u = torch.tensor(3., requires_grad=True)
v = torch.tensor(4., requires_grad=True)

f = u**3 + v**2 + 4*u*v

print(u)
print(v)
print(f)

f.backward()
print("Partial derivative with respect to u: ", u.grad)
print("Partial derivative with respect to v: ", v.grad)

# compute the derivative of the function with multiple values
x = torch.linspace(-20, 20, 20, requires_grad = True)
Y = x ** 2
y = torch.sum(Y)
y.backward()

# ploting the function and derivative
function_line, = plt.plot(x.detach().numpy(), Y.detach().numpy(), label = 'Function')
function_line.set_color("red")
derivative_line, = plt.plot(x.detach().numpy(), x.grad.detach().numpy(), label = 'Derivative')
derivative_line.set_color("green")
plt.xlabel('x')
plt.legend()
plt.show()

# compute the derivative of the function with multiple values
x = torch.linspace(-3, 3, 100, requires_grad = True)
Y = torch.relu(x)
y = Y.sum()
y.backward()

# ploting the function and derivative
function_line, = plt.plot(x.detach().numpy(), Y.detach().numpy(), label = 'Function')
function_line.set_color("red")
derivative_line, = plt.plot(x.detach().numpy(), x.grad.detach().numpy(), label = 'Derivative')
derivative_line.set_color("green")
plt.xlabel('x')
plt.legend()
plt.show()
