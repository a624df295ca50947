"""torch.autograd.forward_ad: dual tensors (a primal and its tangent) inside dual_level().

Each op's tangent is worked out from its one declared derivative (a vjp), by the double-vjp trick, when the op
runs: the op is run again on fresh leaves, its vjp is taken with a cotangent u (create_graph), and that vjp, linear
in u, is differentiated by u in the direction of the inputs' tangents, giving J·t. None of this is recorded (torch's
forward AD records no graph): the learner sees the ops of the program, each result printed with its tangent.
In-place ops on dual tensors and custom autograd.Functions' jvp are not supported (they raise, saying so).
"""
import collections

from .. import dispatch, factories, grad_mode, observe
from ..grad_mode import TANGENTS
from ..tensor import Tensor
from .differentiate import grad as _grad

UnpackedDualTensor = collections.namedtuple("UnpackedDualTensor", ["primal", "tangent"])
LEVELS = []  # the dual levels entered (torch allows one)
_JOINS = ("stack", "cat")


class _Tangents:
    """The observer that gives each op's result its tangent while a dual level is entered."""

    def on_op(self, out, op, inputs, attrs):
        if not any(isinstance(x, Tensor) and id(x) in TANGENTS for x in inputs):
            return
        if not out.dtype.is_floating_point:
            return
        tangent = _jvp(op, inputs, attrs)
        if tangent is not None:
            TANGENTS[id(out)] = (out, tangent)

    def on_inplace(self, tensor, op, inputs, attrs):
        if any(isinstance(x, Tensor) and id(x) in TANGENTS for x in (tensor, *inputs)):
            raise NotImplementedError(f"the engine's forward-mode AD does not follow in-place ops ({op.name}_ on a "
                                      "dual tensor): write it out of place")

    def on_function(self, outputs, cls, args, node):
        if any(isinstance(x, Tensor) and id(x) in TANGENTS for x in args):
            raise NotImplementedError("the engine's forward-mode AD does not run custom autograd.Function jvp "
                                      f"({cls.__name__})")


OBSERVER = _Tangents()


def _jvp(op, inputs, attrs):
    output = attrs.get("output")
    if output is not None:  # an op with several outputs: this is its output number `output`
        attrs = {k: v for k, v in attrs.items() if k != "output"}
    if (op.view and not op.several) or op.name in _JOINS:  # linear: the op of the tangents (torch's auto_linear),
        with observe.muted(), grad_mode.no_grad():  # which keeps each zero's sign
            tangents = [TANGENTS[id(x)][1] if id(x) in TANGENTS else factories.zeros_like(x) for x in inputs]
            return dispatch.apply(op, tangents, attrs)
    with observe.muted(), grad_mode.enable_grad():
        fresh = [x.detach().requires_grad_(x.dtype.is_floating_point) if isinstance(x, Tensor) else x
                 for x in inputs]
        out = dispatch.apply(op, fresh, attrs)
        if isinstance(out, tuple):
            out = out[output or 0]
        if not out.requires_grad:
            return None
        pairs = [(x, TANGENTS[id(orig)][1]) for orig, x in zip(inputs, fresh)
                 if isinstance(orig, Tensor) and id(orig) in TANGENTS and x.requires_grad]
        u = factories.zeros_like(out).requires_grad_(True)
        vjps = _grad([out], [x for x, _ in pairs], [u], create_graph=True, allow_unused=True)
        used = [(v, t) for v, (_, t) in zip(vjps, pairs) if v is not None and v.requires_grad]
        if not used:
            return factories.zeros_like(out)
        (tangent,) = _grad([v for v, _ in used], [u], [t for _, t in used], allow_unused=True)
    return factories.zeros_like(out) if tangent is None else tangent.detach()


class dual_level:  # noqa: N801 - torch's name
    """`with dual_level():` the dual tensors made inside keep their tangents until it exits."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


def enter_dual_level():
    if LEVELS:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    LEVELS.append(0)
    observe.add(OBSERVER)
    return 0


def exit_dual_level(*, level=None):
    observe.remove(OBSERVER)
    LEVELS.clear()
    TANGENTS.clear()


def make_dual(tensor, tangent, *, level=None):
    if not LEVELS:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if not (tensor.dtype.is_floating_point and tangent.dtype.is_floating_point):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if tuple(tensor.shape) != tuple(tangent.shape):
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
                           f"forward gradient is of size {list(tangent.shape)}.")
    dual = tensor.view_as(tensor)
    TANGENTS[id(dual)] = (dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    entry = TANGENTS.get(id(tensor)) if LEVELS else None
    if entry is None:
        return UnpackedDualTensor(tensor, None)
    with observe.muted():  # the primal: the same values as a view without the tangent, as torch's _unpack_dual
        primal = tensor.view_as(tensor)
    return UnpackedDualTensor(primal, entry[1])
