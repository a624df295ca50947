# Source: karpathy/micrograd micrograd/engine.py (commit 028a09c) and test/test_engine.py (commit 2e696df)
#   (https://github.com/karpathy/micrograd, by Andrej Karpathy, MIT licence).
# Category: autograd basics — a scalar autograd engine (private _backward/_prev/_op attributes, closures,
#   reflected operators) checked against PyTorch's float64 tensors
# Adaptations:
#  - engine.py's Value class and test_engine.py's first two tests in one file (the test imported Value from
#    the package); `import math` added first (engine.py uses math.log without importing it).
#  - test_unary_tensor_fns is dropped: it calls Value.tanh and Value.exp, which this engine.py does not have.
#  - the tests are called at the end (pytest collected them), and each prints the values its asserts compare;
#    test_more_ops prints them to 10 digits: micrograd keeps a node's children in a set, so the order its
#    gradients are summed in (and their last bits) follows object addresses, which differ from run to run.
import math
import torch


class Value:
    """ stores a single scalar value and its gradient """

    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0
        # internal variables used for autograd graph construction
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op # the op that produced this node, for graphviz / debugging / etc

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward

        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out

    def __pow__(self, other):
        if isinstance(other, (int, float)):
            out = Value(self.data**other, (self,), f'**{other}')

            def _backward():
                self.grad += (other * self.data**(other-1)) * out.grad
            out._backward = _backward
        else:
            out = Value(self.data**other.data, (self, other), f'**{other}')

            def _backward():
                self.grad += (other.data * self.data**(other.data-1)) * out.grad
                other.grad += (self.data**other.data) * math.log(self.data) * out.grad
            out._backward = _backward
        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')

        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward

        return out

    def backward(self):

        # topological order all of the children in the graph
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        # go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self): # -self
        return self * -1

    def __radd__(self, other): # other + self
        return self + other

    def __sub__(self, other): # self - other
        return self + (-other)

    def __rsub__(self, other): # other - self
        return other + (-self)

    def __rmul__(self, other): # other * self
        return self * other

    def __truediv__(self, other): # self / other
        return self * other**-1

    def __rtruediv__(self, other): # other / self
        return other * self**-1

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"


def test_sanity_check():

    x = Value(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xmg, ymg = x, y

    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xpt, ypt = x, y

    # forward pass went well
    print(ymg.data, ypt.data.item(), ymg.data == ypt.data.item())
    # backward pass went well
    print(xmg.grad, xpt.grad.item(), xmg.grad == xpt.grad.item())

def test_more_ops():

    a = Value(-4.0)
    b = Value(2.0)
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    g.backward()
    amg, bmg, gmg = a, b, g

    a = torch.Tensor([-4.0]).double()
    b = torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    apt, bpt, gpt = a, b, g

    tol = 1e-6
    # forward pass went well
    print(f"{gmg.data:.10g} {gpt.data.item():.10g}", abs(gmg.data - gpt.data.item()) < tol)
    # backward pass went well
    print(f"{amg.grad:.10g} {apt.grad.item():.10g}", abs(amg.grad - apt.grad.item()) < tol)
    print(f"{bmg.grad:.10g} {bpt.grad.item():.10g}", abs(bmg.grad - bpt.grad.item()) < tol)
    print(gmg, len(gmg._prev), gmg._op)


test_sanity_check()
test_more_ops()
