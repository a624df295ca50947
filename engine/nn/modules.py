"""nn.Module and the layers a small program needs."""
import math

from .. import dtypes, factories, observe
from . import functional as F
from . import init
from .parameter import Parameter


class Module:
    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            if "_parameters" not in self.__dict__:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self.__dict__.pop(name, None)
            self._modules.pop(name, None)
            self._parameters[name] = value
        elif isinstance(value, Module):
            if "_modules" not in self.__dict__:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self.__dict__.pop(name, None)
            self._parameters.pop(name, None)
            self._modules[name] = value
        else:
            self.__dict__.get("_parameters", {}).pop(name, None)
            self.__dict__.get("_modules", {}).pop(name, None)
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        if name in d.get("_parameters", {}):
            return d["_parameters"][name]
        if name in d.get("_modules", {}):
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def named_parameters(self, prefix="", recurse=True):
        seen = set()
        for name, p in self._parameters.items():
            if p is not None and id(p) not in seen:
                seen.add(id(p))
                yield prefix + name, p
        if recurse:
            for mname, m in self._modules.items():
                for name, p in m.named_parameters(prefix + mname + ".", True):
                    if id(p) not in seen:
                        seen.add(id(p))
                        yield name, p

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def children(self):
        yield from self._modules.values()

    def named_children(self):
        yield from self._modules.items()

    def modules(self):
        yield self
        for m in self._modules.values():
            yield from m.modules()

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.zero_()

    def train(self, mode=True):
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def to(self, dtype):
        for p in self.parameters():
            p._data = p._data.astype(dtype.np)
            p.dtype = dtype
        return self

    def double(self):
        return self.to(dtypes.float64)

    def float(self):
        return self.to(dtypes.float32)

    def state_dict(self):
        return {name: p.detach() for name, p in self.named_parameters()}

    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = [f"({name}): " + _indent(repr(m)) for name, m in self._modules.items()]
        extra = self.extra_repr()
        if not lines:
            return f"{type(self).__name__}({extra})"
        body = ([extra] if extra else []) + lines
        return type(self).__name__ + "(\n  " + "\n  ".join(body) + "\n)"


def _indent(text):
    return text.replace("\n", "\n  ")


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        with observe.muted():  # a watcher sees the initialised parameters, not how they were made
            self.weight = Parameter(factories.empty(out_features, in_features, dtype=dtype))
            init.kaiming_uniform_(self.weight, a=math.sqrt(5))
            if not bias:
                self.bias = None
            else:
                self.bias = Parameter(factories.empty(out_features, dtype=dtype))
                bound = 1 / math.sqrt(in_features) if in_features > 0 else 0
                init.uniform_(self.bias, -bound, bound)
        for p in (self.weight, self.bias):
            if p is not None and observe._observers:
                observe.emit("on_tensor", p)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input

    def __getitem__(self, i):
        return list(self._modules.values())[i]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())


class ReLU(Module):
    def forward(self, input):
        return F.relu(input)


class Tanh(Module):
    def forward(self, input):
        return F.tanh(input)


class Sigmoid(Module):
    def forward(self, input):
        return F.sigmoid(input)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}"


class L1Loss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class BCELoss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, reduction=self.reduction)


class Dropout(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Identity(Module):
    def forward(self, input):
        return input


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class MSELoss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return F.cross_entropy(input, target, reduction=self.reduction)
