# Source: zergtant/pytorch-handbook chapter2/2.1.2-pytorch-basics-autograd.ipynb ("PyTorch 中文手册", zergtant,
#   CC BY-NC-SA 3.0), commit e9a1492.
# Category: autograd basics — backward of a sum and of a non-scalar with ones_like, no_grad, is_leaf, walking
#   grad_fn.next_functions to the AccumulateGrad node and its .variable, a custom Function multiplying by a constant
# Adaptations:
#  - the notebook's code cells, in order; a cell's last bare expression (which the notebook showed) is printed;
#  - `torch.__version__` and the three cells listing dir(z), dir(z.grad_fn) and dir(xg) go (the last one keeps
#    its assignment of xg); the cell printing id(x_leaf.variable) and id(x) goes (addresses differ from run to
#    run; the next cell's assert that they are equal stays); torch.manual_seed(0) added.
import torch

torch.manual_seed(0)

x = torch.rand(5, 5, requires_grad=True)
print(x)

y = torch.rand(5, 5, requires_grad=True)
print(y)

z=torch.sum(x+y)
print(z)

z.backward()
print(x.grad,y.grad)

x = torch.rand(5, 5, requires_grad=True)
y = torch.rand(5, 5, requires_grad=True)
z= x**2+y**3
print(z)

#我们的返回值不是一个标量，所以需要输入一个大小相同的张量作为参数，这里我们用ones_like函数根据x生成一个张量
z.backward(torch.ones_like(x))
print(x.grad)

with torch.no_grad():
    print((x +y*2).requires_grad)

print("x.is_leaf="+str(x.is_leaf))
print("z.is_leaf="+str(z.is_leaf))

print(z.grad_fn)

print(z.grad_fn.next_functions)

xg = z.grad_fn.next_functions[0][0]

x_leaf=xg.next_functions[0][0]
print(type(x_leaf))

print(x_leaf.variable)

assert(id(x_leaf.variable)==id(x))

# 引入Function便于扩展
from torch.autograd.function import Function

# 定义一个乘以常数的操作(输入参数是张量)
# 方法必须是静态方法，所以要加上@staticmethod 
class MulConstant(Function):
    @staticmethod 
    def forward(ctx, tensor, constant):
        # ctx 用来保存信息这里类似self，并且ctx的属性可以在backward中调用
        ctx.constant=constant
        return tensor *constant
    @staticmethod
    def backward(ctx, grad_output):
        # 返回的参数要与输入的参数一样.
        # 第一个输入为3x3的张量，第二个为一个常数
        # 常数的梯度必须是 None.
        return grad_output, None

a=torch.rand(3,3,requires_grad=True)
b=MulConstant.apply(a,5)
print("a:"+str(a))
print("b:"+str(b)) # b为a的元素乘以5

print(b.backward(torch.ones_like(a)))

print(a.grad)
