"""A small fake engine for the guard's tests (so that they do not depend on the real one), and helpers that
run a program through the guard, or under plain Python with `import torch` bound to the same modules."""

from __future__ import annotations

import builtins
import math
import sys
import types

from engine.trace import guard
from engine.trace.guard import Limits

FAKE_TORCH = '''
import os, sys                      # modules the guard must never hand out
from pathlib import Path            # a class from elsewhere: not exported
import numpy as np
from engine.trace.guard import charge_elements

loader = open                       # a builtin: not exported
registry = {}                       # shared mutable state: not exported
pi = 3.14
float32 = np.dtype("float32")

def _t(x):
    return x if isinstance(x, Tensor) else Tensor(float(x))

class Tensor:
    """A scalar with just enough autograd for the tests."""

    def __init__(self, value, requires_grad=False, parents=()):
        self.value, self.requires_grad, self.grad, self.parents = value, requires_grad, None, parents

    def __repr__(self):
        return f"tensor({self.value})"

    def __add__(self, other):
        other = _t(other)
        return Tensor(self.value + other.value, self.requires_grad or other.requires_grad,
                      ((self, 1.0), (other, 1.0)))

    __radd__ = __add__

    def __sub__(self, other):
        return self + _t(other) * -1.0

    def __mul__(self, other):
        other = _t(other)
        return Tensor(self.value * other.value, self.requires_grad or other.requires_grad,
                      ((self, other.value), (other, self.value)))

    __rmul__ = __mul__

    def __pow__(self, k):
        return Tensor(self.value ** k, self.requires_grad, ((self, k * self.value ** (k - 1)),))

    def backward(self, seed=1.0):
        if not self.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
        if not self.parents:
            self.grad = (self.grad or 0.0) + seed
        for parent, local in self.parents:
            if parent.requires_grad:
                parent.backward(seed * local)

    def item(self):
        return self.value

    def sum(self):
        return self

    def numpy(self):
        return np.array(self.value)

    _version = 0                    # the private attributes the guard admits on the engine's objects
    _base = None

    def _is_view(self):
        return False

def tensor(value, requires_grad=False):
    return Tensor(float(value[0] if isinstance(value, list) else value), requires_grad)

def ones(*shape):
    n = 1
    for size in shape:
        n *= size
    charge_elements(n)              # what the real engine does through its on_alloc observers
    return Tensor(float(n))

def save(obj, path):                # writes files: never exported
    with open(path, "w") as f:
        f.write(repr(obj))

class no_grad:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
'''

FAKE_NN = '''
from faketorch import Tensor

class Module:                       # a stand-in base for a program's modules
    _call_count = 0                 # internals like the engine's: a class attribute, a method and dicts

    def __init__(self):
        self.training = True
        self._parameters, self._buffers, self._modules = {}, {}, {}
        self._backward_hooks = []

    def __call__(self, *args):
        return self.forward(*args)

    def _apply(self, fn):
        return self

class Linear:
    def __init__(self, n_in, n_out):
        self.weight, self.bias = Tensor(0.5, requires_grad=True), Tensor(0.0, requires_grad=True)

    def __call__(self, x):
        return self.weight * x + self.bias

    def parameters(self):
        return [self.weight, self.bias]
'''

FAKE_FUNCTIONAL = '''
from faketorch import Tensor

def relu(x):
    return Tensor(max(x.value, 0.0), x.requires_grad, ((x, float(x.value > 0)),))
'''

FAKE_OPTIM = '''
class SGD:
    def __init__(self, params, lr):
        self.params, self.lr = list(params), lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        for p in self.params:
            p.value -= self.lr * p.grad
'''

FAKE_AUTOGRAD = '''
from faketorch import no_grad

class FunctionCtx:
    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

class Function:                     # a stand-in for torch.autograd.Function: apply runs forward only
    @classmethod
    def apply(cls, *args):
        return cls.forward(FunctionCtx(), *args)
'''


def _fake_modules():
    modules = {}
    for name, source in [("faketorch", FAKE_TORCH), ("faketorch.nn", FAKE_NN),
                         ("faketorch.nn.functional", FAKE_FUNCTIONAL), ("faketorch.optim", FAKE_OPTIM),
                         ("faketorch.autograd", FAKE_AUTOGRAD)]:
        module = types.ModuleType(name)
        sys.modules[name] = module  # so that the fakes can import each other
        exec(compile(source, f"<{name}>", "exec"), module.__dict__)
        modules[name] = module
    for name, module in modules.items():
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(modules[parent], child, module)
    return {name.replace("faketorch", "torch"): m for name, m in modules.items()} | {"math": math}


FAKE = _fake_modules()
QUICK = Limits(max_seconds=0.15)  # for programs that must be stopped: an endless one ends soon
ROOMY = Limits(max_seconds=5)  # for programs that must finish: a loaded machine or a collection cannot stop them


class Output:
    def __init__(self):
        self.parts = []

    def __call__(self, text, end="\n"):
        self.parts.append(text + end)

    @property
    def text(self):
        return "".join(self.parts)


def run(source, limits=ROOMY, modules=FAKE):
    out = Output()
    guard.run(source, print_fn=out, limits=limits, modules=modules)
    return out.text


def run_plain(source, modules):
    """The program under plain Python (no guard), `import torch` bound to the same modules."""
    def import_(name, globals=None, locals=None, fromlist=(), level=0):
        if name.partition(".")[0] not in modules:  # the standard library's own
            return builtins.__import__(name, globals, locals, fromlist, level)
        return modules[name] if fromlist else modules[name.partition(".")[0]]

    out = Output()
    names = dict(vars(builtins), __import__=import_,
                 print=lambda *args, sep=" ", end="\n": out(sep.join(map(str, args)), end=end))
    exec(compile(source, "<plain>", "exec"), {"__builtins__": names, "__name__": "__main__"})
    return out.text


def outcome(fn, *args):
    try:
        return fn(*args), None
    except Exception as e:
        return None, f"{type(e).__name__}: {e}"


def real_engine():
    """The engine's modules under their torch names, or None where the engine cannot be imported."""
    try:
        modules = guard.default_modules()
    except Exception:
        return None
    return modules if callable(getattr(modules.get("torch"), "tensor", None)) else None
