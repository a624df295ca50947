"""rrelu and prelu: leaky relus whose negative slope is drawn at random (rrelu) or learned (prelu), with their
backward ops as ATen declares them (see activations.py)."""
import numpy as np

from .activations import _leaky_backward, _t, _zeros
from .table import Spelling, op


# --- rrelu, prelu -------------------------------------------------------------------------------------------
def _rrelu(a, noise, lower, upper, training):
    if training:
        return a * noise._data
    return np.where(a > 0, a, a * _t(a, (lower + upper) / 2))


def _rrelu_backward(g, s, noise, lower, upper, training):
    if training and upper - lower > 1e-6:
        return g * noise._data
    return _leaky_backward(g, s, (lower + upper) / 2)


def _rrelu_grad(n, g):
    a = n.attrs
    saved = n["result"] if "result" in n._op.saves[0] else n["self"]
    return g._op("rrelu_backward", saved, noise=a["noise"], lower=a["lower"], upper=a["upper"], training=a["training"])


_RRELU_ATTRS = ("noise", "lower", "upper", "training")
op("rrelu_backward", "RreluWithNoiseBackwardBackward0", ("grad_output", "self"), _rrelu_backward,
   ("grad · (1 if self > 0 else the slope drawn)",
    lambda n, g: g._op("rrelu_backward", n["self"], **{k: n.attrs[k] for k in _RRELU_ATTRS})),
   ("0", _zeros), saves={0: ("self", *_RRELU_ATTRS)})
_RRELU = Spelling(functional="rrelu", name=lambda s, a: f"rrelu({s[0]}, {a['lower']!r}, {a['upper']!r}"
                  + (", training=True)" if a["training"] else ")"))
op("rrelu", "RreluWithNoiseBackward0", ("self",), _rrelu, ("grad · (1 if self > 0 else the slope drawn)", _rrelu_grad),
   saves={0: ("self", *_RRELU_ATTRS)}, bind=False, spell=_RRELU)
op("rrelu_", "RreluWithNoiseBackward1", ("self",), _rrelu,
   ("grad · (1 if result > 0 else the slope drawn)", _rrelu_grad),
   saves={0: ("result", *_RRELU_ATTRS)}, bind=False, spell=_RRELU)


def _prelu_grads(n, g, i):
    """Output i of ATen's _prelu_kernel_backward: one op giving both grads (the weight's in self's shape; the
    engine sums it back to the weight's)."""
    return g._op("prelu_backward", n["self"], n["weight"])[i]


def _prelu_backward(g, x, w):
    positive = x > 0
    return np.where(positive, g, w * g), np.where(positive, x.dtype.type(0), x * g)


def _negative(n, t):
    """t where self < 0 (or NaN), else 0: ATen's at::where(self >= 0, zeros, t)."""
    return t.where((n["self"] >= 0).logical_not(), 0.0)


def _prelu_double_grad_output(n, grads):
    g0, g1 = grads
    x, w = n["self"], n["weight"]
    if g0 is None:
        return _negative(n, g1 * x)
    return g0.where(x >= 0, g0 * w + g1 * x if g1 is not None else g0 * w)


def _prelu_double(n, grads, i):
    other = grads[1 - i]
    if other is None:
        return n["self"] * 0
    return _negative(n, n["grad_output"] * other)


op("prelu_backward", "PreluKernelBackwardBackward0", ("grad_output", "self", "weight"), _prelu_backward,
   ("grad₀ (· weight where self < 0) + grad₁ · self where self < 0", _prelu_double_grad_output),
   ("grad_output · grad₁ where self < 0", lambda n, grads: _prelu_double(n, grads, 0)),
   ("grad_output · grad₀ where self < 0", lambda n, grads: _prelu_double(n, grads, 1)),
   saves={0: ("self", "weight"), 1: ("grad_output", "self"), 2: ("grad_output", "self")}, several=True)


op("prelu", "PreluKernelBackward0", ("self", "weight"), lambda x, w: np.where(x > 0, x, w * x),
   ("grad · (1 if self > 0 else weight)", lambda n, g: _prelu_grads(n, g, 0)),
   ("Σ grad · self where self ≤ 0", lambda n, g: _prelu_grads(n, g, 1)),
   saves={0: ("self", "weight"), 1: ("self", "weight")}, bind=False,
   spell=Spelling(functional="prelu", name=lambda s, a: f"prelu({s[0]}, {s[1]}.flatten())"))
