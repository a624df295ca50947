"""The Tensor methods and the torch.* / nn.functional functions of every op, derived from the op table
(engine/ops): nothing here names an op.

Each derived callable takes the user's arguments to the op's bind, which checks them and says which op to run,
on what, with which attrs and result dtype; the callable then runs it, out of place or in place. numpy numbers
and arrays given as operands are taken as PyTorch takes them (a number, a tensor), and a call with the wrong
arguments fails with PyTorch's TypeError naming the function the user called.
"""
import functools
import inspect
import warnings

import numpy as np

from . import dispatch, dtypes, grad_mode, memory
from .messages import argument_error, check_signatures, not_a_tensor
from .ops import COMPOSITES, OPS
from .ops.statistics import returned
from .ops.table import TensorArgumentError, is_number, number_dtype
from .tensor import Tensor

INFIX = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "@": "matmul", "**": "pow", "%": "mod", "//": "floordiv",
         "&": "and", "|": "or", "^": "xor", "<<": "lshift", ">>": "rshift"}
PREFIX = {"-": "__neg__", "abs": "__abs__"}

FUNCTIONS = {}  # torch.<name>
FUNCTIONAL = {}  # torch.nn.functional.<name>
SPECIAL = {}  # torch.special.<name>
LINALG = {}  # torch.linalg.<name>

_NUMPY = (np.generic, np.ndarray)


def _apply(self, op, inputs, attrs=None, dtype=None):
    return dispatch.apply(op, inputs, attrs, dtype)


def _op(self, name, *others, **attrs):
    """An op of the table on self (and others), by name: how vjps call the ops users never call."""
    return dispatch.apply(OPS[name], (self, *others), attrs or None)


def _inplace_view(self, op, attrs):
    return dispatch.inplace_view(op, self, attrs)


def _operand(x):
    """A numpy number is a Python number to PyTorch, a numpy array a tensor."""
    if isinstance(x, np.ndarray):
        return Tensor._make(np.array(x), dtypes.from_numpy(x.dtype))
    return x.item()


def _operands(args):
    return tuple(_operand(a) if isinstance(a, _NUMPY) else a for a in args)


# The parameters torch's argument parser takes only tensors for (numbers too, where a signature says so).
_TENSOR_PARAMS = frozenset("""self input other exponent tensor1 tensor2 mat1 mat2 mat vec vec1 vec2 end target
    mask index src source""".split())


def _tensor_params(bind):
    """The names of the bind's positional parameters, those that take tensors, or () if it has others first."""
    try:
        params = list(inspect.signature(bind).parameters.values())
    except (TypeError, ValueError):
        return ()
    names = []
    for p in params:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.name not in _TENSOR_PARAMS:
            break
        names.append(p.name)
    return tuple(names)


def _no_arrays(name, params, args):
    """torch's TypeError for a numpy array, list or None where a tensor goes (a model fed numpy data); a number
    (numpy's too) stays: the binds take numbers where torch's signatures do."""
    for i, (param, x) in enumerate(zip(params, args)):
        if x is None or isinstance(x, (np.ndarray, list, tuple)):
            raise not_a_tensor(name, "input" if param == "self" else param, i + 1, x)


def _binding_failed(error):
    """Whether a TypeError came from calling the bind itself (its arguments), not from inside it."""
    return error.__traceback__.tb_next is None


_ALIASES = {"axis": "dim", "keepdims": "keepdim"}  # numpy's spellings, which torch's argument parser accepts


def aliased(kwargs):
    if kwargs and not _ALIASES.keys().isdisjoint(kwargs):
        return {_ALIASES.get(k, k): v for k, v in kwargs.items()}
    return kwargs


def accepting_aliases(fn):
    """fn, also called with numpy's keyword names (x.sum(axis=0, keepdims=True))."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **aliased(kwargs))
        except TypeError as e:
            if _binding_failed(e) and " missing " in str(e):  # the call's own arguments: torch's parser's words
                raise argument_error(fn.__name__, False, e) from None
            raise

    return call


def _can_cast(src, dst):
    """c10::canCast: no float to an integer type, nothing but bool to bool."""
    if src._grads and not dst._grads or src.is_complex and not dst.is_complex:
        return False
    return dst is not dtypes.bool or src is dtypes.bool


def _written_out(name, result, out, spell=None, inputs=()):
    """torch.f(..., out=t): the result written into t (resized, with torch's warning, if its shape differs; cast
    to its dtype where torch may), which is returned. A function of several results takes a tuple of outs."""
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
        if len(out) != len(result):
            raise TypeError(f"expected tuple of {len(result)} elements but got {len(out)}")
        written = [_written_one(name, r, o, spell, inputs) for r, o in zip(result, out)]
        return returned(f"{name}_out", result._fields)(*written) if hasattr(result, "_fields") else tuple(written)
    return _written_one(name, result, out, spell, inputs)


def _written_one(name, result, out, spell, inputs):
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if grad_mode.is_grad_enabled() and (result.requires_grad or out.requires_grad):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    rule = spell.out_dtype if spell is not None else None
    if rule is not None:
        source = next((x.dtype for x in inputs if isinstance(x, Tensor)), result.dtype)
        text = rule(source, result.dtype, out.dtype)
        if text:
            raise RuntimeError(text)
    elif result.dtype is not out.dtype and not _can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"result type {result.dtype.type_name} can't be cast to the desired output type "
                           f"{out.dtype.type_name}")
    if spell is not None and spell.out_overlap and any(_overlap(out, x) for x in inputs):
        raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor refer "
                           "to a single memory location. Please clone() the tensor before performing the operation.")
    if out.shape != result.shape and out.numel():
        warnings.warn(f"An output with one or more elements was resized since it had shape {list(out.shape)}, which "
                      f"does not match the required output shape {list(result.shape)}. This behavior is deprecated, "
                      "and in a future PyTorch release outputs will not be resized unless they have zero elements. "
                      "You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
                      "t.resize_(0).", UserWarning, stacklevel=4)
    direct = spell is not None and spell.out == "direct"
    if out.shape == result.shape and (out.numel() or not direct):
        out._data[...] = dtypes.stored(out.dtype, result._data)
    elif direct:
        out._data = memory.with_strides(dtypes.stored(out.dtype, result._data.astype(out.dtype.np)),
                                        memory.strides(result._data))
    else:
        out._data = dtypes.stored(out.dtype, result._data.astype(out.dtype.np, copy=True))
    out._bump()
    return out


def _overlap(out, x):
    """ATen's get_overlap_status is Full or Partial: the same tensor (even of no elements), or two non-overlapping
    and dense tensors whose byte ranges meet (of any other layout ATen says "too hard" and lets it be)."""
    if isinstance(x, (list, tuple)):
        return any(_overlap(out, y) for y in x)
    return isinstance(x, Tensor) and (x is out or bool(out.numel() and x.numel()) and _dense(out._data)
                                      and _dense(x._data) and np.may_share_memory(out._data, x._data))


def _dense(a):
    """Tensor.is_non_overlapping_and_dense: its elements fill a block of memory, in some order of its dims."""
    expected = a.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(a.strides, a.shape) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def _with_out(fn, name, spell=None):
    """A torch function that also takes out= (and its first argument as input=)."""
    @functools.wraps(fn)
    def call(*args, out=None, **kwargs):
        if "input" in kwargs:
            args = (kwargs.pop("input"), *args)
        result = fn(*args, **kwargs)
        return result if out is None else _written_out(name, result, out, spell, args)

    return call


def _named(fn, name, method):
    fn.__name__ = name
    fn.__qualname__ = f"Tensor.{name}" if method else name
    return fn


def _method_position(error):
    """A bind's "argument 'other' (position 2)" as the method words it: self is not counted."""
    return TypeError(error.method_text) if isinstance(error, TensorArgumentError) else error


def _out_of_place(bind, name):
    params = _tensor_params(bind)[1:]

    def method(self, *args, **kwargs):
        if kwargs:
            kwargs = aliased(kwargs)
        if args and params:
            _no_arrays(name, params, args)
        try:
            op, inputs, attrs, dtype = bind(self, *(_operands(args) if args else args), **kwargs)
        except TypeError as e:
            if _binding_failed(e):
                raise argument_error(name, True, e) from None
            raise _method_position(e) from None
        return dispatch.apply(op, inputs, attrs, dtype)

    return _named(method, name, True)


def _binary(bind, name):
    """An infix operator's method: one operand, and the fast path of the hottest calls (`a * b`)."""
    def method(self, other):
        if type(other) is not Tensor and isinstance(other, _NUMPY):
            other = _operand(other)
        op, inputs, attrs, dtype = bind(self, other)
        return dispatch.apply(op, inputs, attrs, dtype)

    return _named(method, name, True)


def _in_place(bind, name):
    params = _tensor_params(bind)[1:]

    def method(self, *args, **kwargs):
        kwargs = aliased(kwargs)
        if args and params:
            _no_arrays(name, params, args)
        try:
            op, inputs, attrs, dtype = bind(self, *_operands(args), **kwargs)
        except TypeError as e:
            if _binding_failed(e):
                raise argument_error(name, True, e) from None
            raise _method_position(e) from None
        return dispatch.inplace(op, self, inputs[1:], attrs, dtype)

    return _named(method, name, True)


def _wrapped(x):
    """A Python number given where torch takes a tensor (torch.add(2, x)): a 0-d tensor."""
    return dispatch.as_tensor(x, number_dtype(x))


def _function(bind, name, number_first=False, in_place=False, signatures=()):
    params = _tensor_params(bind)

    def function(*args, **kwargs):
        kwargs = aliased(kwargs)
        if "input" in kwargs:  # torch.exp(input=x)
            args = (kwargs.pop("input"), *args)
        if args and params:
            if isinstance(args[0], np.generic) and not number_first:
                raise not_a_tensor(name, "input", 1, args[0])
            try:
                _no_arrays(name, params, args)
            except TypeError:
                check_signatures(name, signatures, args, kwargs)
                raise
        if args and is_number(args[0]):
            check_signatures(name, signatures, args, kwargs)
            if not number_first:
                raise not_a_tensor(name, "input", 1, args[0])
            if number_first != "bind":
                args = (_wrapped(args[0]),) + args[1:]
        try:
            op, inputs, attrs, dtype = bind(*_operands(args), **kwargs)
        except (TypeError, ValueError) as e:
            check_signatures(name, signatures, args, kwargs)
            if isinstance(e, ValueError):
                raise
            if _binding_failed(e):
                raise argument_error(name, False, e) from None
            if isinstance(e, TensorArgumentError):  # torch's is a plain TypeError
                raise TypeError(str(e)) from None
            raise
        if in_place:
            return dispatch.inplace(op, args[0], inputs[1:], attrs, dtype)
        return dispatch.apply(op, inputs, attrs, dtype)

    return _named(function, name, False)


def _torch_function(bind, name, number_first, out, signatures=(), spell=None):
    function = _function(bind, name, number_first, signatures=signatures)
    return _with_out(function, name, spell) if out else function


def _dunders(spell):
    """The dunder methods an infix, reflected or prefix spelling gives: (name, kind) pairs."""
    out = []
    if spell.infix:
        out.append((f"__{INFIX[spell.infix]}__", "binary"))
        if spell.inplace:
            out.append((f"__i{INFIX[spell.infix]}__", "inplace"))
    if spell.rinfix:
        out.append((f"__r{INFIX[spell.rinfix]}__", "reflected"))
    if spell.prefix:
        out.append((PREFIX[spell.prefix], "method"))
    return out


def _checked(fn, signatures, name):
    """A composite's torch function, refusing a number as its input as torch's argument parser does."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        if args and not isinstance(args[0], Tensor):
            check_signatures(name, signatures, args, kwargs)
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            check_signatures(name, signatures, args, kwargs)
            raise

    return call


def _composites():
    methods, functions, functional, special, linalg = {}, {}, {}, {}, {}
    for fn, spell in COMPOSITES.values():
        fn = accepting_aliases(fn)
        methods.update((name, fn) for name in spell.method)
        methods.update((name, fn) for name, _ in _dunders(spell))
        function = _checked(fn, spell.signatures, spell.function[0]) if spell.signatures else fn
        functions.update((name, _with_out(function, name, spell) if spell.out else function)
                         for name in spell.function)
        functional.update((name, _with_out(fn, name) if spell.functional_out else fn) for name in spell.functional)
        special.update((name, _with_out(fn, name) if spell.out else fn) for name in spell.special)
        linalg.update((name, _with_out(fn, "linalg_" + name) if spell.out else fn) for name in spell.linalg)
    return methods, functions, functional, special, linalg


def _reflected(bind, name):
    """b ⊕ a's method: Tensor.__radd__(1, x) is refused as torch's descriptor refuses it."""
    binary = _binary(bind, name)

    def method(self, other):
        if not isinstance(self, Tensor):
            raise TypeError(f"descriptor '{name}' for 'torch._C.TensorBase' objects doesn't apply to a "
                            f"'{type(self).__name__}' object")
        return binary(self, other)

    return _named(method, name, True)


_MAKERS = {"method": _out_of_place, "inplace": _in_place, "binary": _binary, "reflected": _reflected}


def _derive():
    """{name: callable} for Tensor, torch, nn.functional, torch.special and torch.linalg. A name taken by a
    composite is the composite's; any other name spelled by two ops must come with one bind (sum and sum_dim
    share x.sum's)."""
    methods, functions, functional, special, linalg = _composites()
    taken = {"method": set(methods), "function": set(functions), "functional": set(functional),
             "special": set(special), "linalg": set(linalg)}
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
            claim("method", methods, name, bind, _out_of_place, bind, name)
        for name in spell.inplace:
            claim("method", methods, name, ("inplace", bind), _in_place, bind, name)
        for name, kind in _dunders(spell):
            claim("method", methods, name, (kind, bind), _MAKERS[kind], bind, name)
        for name in spell.function:
            claim("function", functions, name, bind, _torch_function, bind, name, spell.number_first, spell.out,
                  spell.signatures, spell)
        for name in spell.functional:
            claim("functional", functional, name, bind, _torch_function, bind, name, False, spell.functional_out)
        for name in spell.inplace_function:
            claim("function", functions, name, ("inplace", bind), _function, bind, name, False, True)
        for name in spell.special:
            claim("special", special, name, bind, _torch_function, bind, "special_" + name, spell.number_first,
                  spell.out, spell.signatures)
        for name in spell.linalg:
            claim("linalg", linalg, name, bind, _torch_function, bind, "linalg_" + name, False, spell.out)
        if spell.returns:
            for table, names, prefix in ((methods, spell.method, ""), (functions, spell.function, ""),
                                         (linalg, spell.linalg, "linalg_")):
                for name in names:
                    table[name] = _named_tuple(table[name], returned(prefix + name, spell.returns))
    return methods, functions, functional, special, linalg


def _named_tuple(fn, kind):
    """A several-output op's spelling, its outputs in torch's named tuple."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        return kind(*fn(*args, **kwargs))

    return call


def _install():
    methods, functions, functional, special, linalg = _derive()
    for name, fn in methods.items():
        setattr(Tensor, name, fn)
    Tensor._apply = _apply
    Tensor._op = _op
    Tensor._inplace_view = _inplace_view
    Tensor.__pos__ = methods["positive"]  # +x: x itself, refused for bool as torch.positive refuses it
    FUNCTIONS.update(functions)
    FUNCTIONAL.update(functional)
    SPECIAL.update(special)
    LINALG.update(linalg)


_install()
