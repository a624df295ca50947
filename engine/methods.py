"""The Tensor methods and the torch.* / nn.functional functions of every op, derived from the op table
(engine/ops): nothing here names an op."""
from . import dispatch, dtypes
from .ops import COMPOSITES, OPS
from .ops.table import is_number
from .tensor import Tensor

INFIX = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "@": "matmul", "**": "pow"}
PREFIX = {"-": "__neg__", "abs": "__abs__"}

FUNCTIONS = {}  # torch.<name>
FUNCTIONAL = {}  # torch.nn.functional.<name>


def _apply(self, op, inputs, attrs=None, dtype=None):
    return dispatch.apply(op, inputs, attrs, dtype)


def _op(self, name, *others, **attrs):
    """An op of the table on self (and others), by name: how vjps call the ops users never call."""
    return dispatch.apply(OPS[name], (self, *others), attrs or None)


def _out_of_place(bind):
    def method(self, *args, **kwargs):
        op, inputs, attrs, dtype = bind(self, *args, **kwargs)
        return dispatch.apply(op, inputs, attrs, dtype)

    return method


def _binary(bind):
    def method(self, other):
        op, inputs, attrs, dtype = bind(self, other)
        return dispatch.apply(op, inputs, attrs, dtype)

    return method


def _in_place(bind):
    def method(self, *args, **kwargs):
        op, inputs, attrs, dtype = bind(self, *args, **kwargs)
        return dispatch.inplace(op, self, inputs[1:], attrs, dtype)

    return method


def _in_place_function(bind):
    def function(input, *args, **kwargs):  # noqa: A002 - PyTorch's argument name
        op, inputs, attrs, dtype = bind(input, *args, **kwargs)
        return dispatch.inplace(op, input, inputs[1:], attrs, dtype)

    return function


def _wrapped(x):
    """A Python number given where torch takes a tensor (torch.add(2, x)): a 0-d tensor."""
    kind = dtypes.bool if isinstance(x, bool) else dtypes.int64 if isinstance(x, int) else dtypes.float32
    return dispatch.as_tensor(x, kind)


def _function(bind, number_first):
    def function(*args, **kwargs):
        if number_first and args and is_number(args[0]):
            args = (_wrapped(args[0]),) + args[1:]
        op, inputs, attrs, dtype = bind(*args, **kwargs)
        return dispatch.apply(op, inputs, attrs, dtype)

    return function


def _dunders(spell):
    """The dunder methods an infix, reflected or prefix spelling gives: (name, kind) pairs."""
    out = []
    if spell.infix:
        out.append((f"__{INFIX[spell.infix]}__", "binary"))
        if spell.inplace:
            out.append((f"__i{INFIX[spell.infix]}__", "inplace"))
    if spell.rinfix:
        out.append((f"__r{INFIX[spell.rinfix]}__", "binary"))
    if spell.prefix:
        out.append((PREFIX[spell.prefix], "method"))
    return out


def _composites():
    methods, functions, functional = {}, {}, {}
    for fn, spell in COMPOSITES.values():
        methods.update((name, fn) for name in spell.method)
        methods.update((name, fn) for name, _ in _dunders(spell))
        functions.update((name, fn) for name in spell.function)
        functional.update((name, fn) for name in spell.functional)
    return methods, functions, functional


_MAKERS = {"method": _out_of_place, "inplace": _in_place, "binary": _binary}


def _derive():
    """{name: callable} for Tensor, torch and nn.functional. A name taken by a composite is the composite's; any
    other name spelled by two ops must come with one bind (sum and sum_dim share x.sum's)."""
    methods, functions, functional = _composites()
    taken = {"method": set(methods), "function": set(functions), "functional": set(functional)}
    claims = {}

    def claim(where, table, name, owner, make, *args):
        if name in taken[where]:
            return
        prev = claims.get((where, name))
        if prev is not None and prev != owner:
            raise TypeError(f"{where} {name!r} is spelled by two ops with different binds")
        claims[(where, name)] = owner
        table[name] = make(*args)

    for op in OPS.values():
        spell, bind = op.spelling, op.bind
        if spell is None or bind is None:
            continue
        for name in spell.method:
            claim("method", methods, name, bind, _out_of_place, bind)
        for name in spell.inplace:
            claim("method", methods, name, ("inplace", bind), _in_place, bind)
        for name, kind in _dunders(spell):
            claim("method", methods, name, (kind, bind), _MAKERS[kind], bind)
        for name in spell.function:
            claim("function", functions, name, bind, _function, bind, spell.number_first)
        for name in spell.functional:
            claim("functional", functional, name, bind, _function, bind, False)
        for name in spell.inplace_function:
            claim("function", functions, name, ("inplace", bind), _in_place_function, bind)
    return methods, functions, functional


def _install():
    methods, functions, functional = _derive()
    for name, fn in methods.items():
        setattr(Tensor, name, fn)
    Tensor._apply = _apply
    Tensor._op = _op
    Tensor.__pos__ = lambda self: self
    FUNCTIONS.update(functions)
    FUNCTIONAL.update(functional)


_install()
