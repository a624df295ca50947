"""What an op declaration holds, and the table of all of them.

An op is declared once (`op(...)` in the modules of this package, by kind) with everything known about it:

- its numpy forward, PyTorch's node name, its tensor arguments, and per argument the derivative as a formula in
  words and as a vjp written with Tensor methods (so `create_graph=True` differentiates it again);
- what its node saves for backward (`saves`), and whether its result is a view;
- how a user writes it (`Spelling`: Tensor methods, torch functions, nn.functional functions, an infix operator,
  an in-place twin) and `bind`, which turns those arguments into (op, inputs, attrs, dtype).

Tensor methods, torch.* and nn.functional functions, the tracer's labels and captions, and the formulas' symbols
are derived from it (engine/methods.py, engine/trace/labels.py, engine/trace/formulas.py); nothing lists ops again.

The binds, vjps and composites here run on Tensors without importing the tensor layer above: they use the
Tensor's own methods, and `x._apply(op, …)` / `x._op(name, …)` (added by engine/methods.py) to run an op.
"""
import sys

from .. import dtypes


class Spelling:
    """How a user writes an op. `infix` is the symbol of `a ⊕ b` (and `a ⊕= b` when there is an in-place twin);
    `rinfix` the symbol of `b ⊕ a` where the op's self is the right operand; `name` overrides how the tracer
    names the result: a format string over the input names ({0}, {1}) and the attrs. `out` says whether the torch
    function takes out= (most do; torch.einsum, torch.reshape, torch.split … do not; "direct": its kernel writes into
    an empty out itself, which takes the result's layout, as ATen's cholesky_inverse); `functional_out` whether
    the nn.functional one does (those that are ATen's own functions: F.gelu, F.softplus, …)."""

    __slots__ = ("method", "function", "functional", "special", "linalg", "inplace", "inplace_function", "infix",
                 "rinfix", "prefix", "name", "number_first", "out", "signatures",
                 "inplace_sizes", "functional_out", "out_dtype", "out_overlap", "inplace_resize", "returns")

    def __init__(self, method=(), function=(), functional=(), inplace=(), inplace_function=(), infix=None,
                 rinfix=None, prefix=None, name=None, number_first=False, out=True, special=(), linalg=(),
                 signatures=(), inplace_sizes=False, functional_out=False, out_dtype=None, out_overlap=False,
                 inplace_resize=None, returns=()):
        self.method = _names(method)
        self.returns = returns  # several outputs: the fields of the torch.return_types named tuple they come in
        self.function = _names(function)
        self.functional = _names(functional)
        self.special = _names(special)  # torch.special.<name>
        self.linalg = _names(linalg)  # torch.linalg.<name>
        self.inplace = _names(inplace)
        self.inplace_function = _names(inplace_function)  # torch.sin_(x)
        self.infix = infix
        self.rinfix = rinfix
        self.prefix = prefix  # `-x`, `abs(x)`: a unary operator
        self.name = name
        # torch.add(2, x): the torch function takes a number as its input and makes it a tensor (True), or its
        # bind takes the number itself ("bind": torch.pow(2, x) is PowBackward2); else a number there is refused
        self.number_first = number_first
        self.out = out
        self.functional_out = functional_out
        # torch's signatures of the function as its argument parser prints them, where it has several: a call none
        # of them takes (a number as input where only the Tensor overloads take one) fails with torch's listing
        self.signatures = signatures
        # the in-place twin refuses a self of another size than the result's: True as ATen's structured kernels
        # ("Bad in-place call"), or a function (self, inputs, attrs) -> the error's text
        self.inplace_sizes = inplace_sizes
        # the op's own rule for the dtype of out= (and of self in its in-place twin), checked before any size:
        # (input dtype, result dtype, out dtype) -> torch's error text, or None where it is accepted. Without
        # one, TensorIterator's: a result that c10::canCast to out's dtype, else "result type X can't be cast ..."
        self.out_dtype = out_dtype
        # out= may not share memory with any input, not even be one of them (ATen's assert_no_overlap: cat)
        self.out_overlap = out_overlap
        # the in-place twin resizes self to the result's shape (addbmm_): (self's array, shape) -> the self the op
        # then reads, as ATen's expand-and-copy into the resized storage leaves it
        self.inplace_resize = inplace_resize

    @property
    def shown(self):
        """The word a learner knows the op by (`sum` for sum and sum_dim)."""
        for names in (self.method, self.function, self.functional, self.special, self.linalg):
            if names:
                return names[0]
        return None


def can_cast(src, dst):
    """c10::canCast: no float into an integer type, nothing but bool into bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    return src is dst or dst.name != "bool"


def same_dtype_out(source, result, out):
    """out= of ops that take no other dtype than the input's (gather, aminmax, max(dim), sort …)."""
    if out is not source:
        return f"Expected out tensor to have dtype {source.c_name}, but got {out.c_name} instead"
    return None


def binary_signatures(other="other", number_self=None, first="input"):
    """torch's signatures of a binary function with a Tensor and a Number overload for its second argument, and
    with number_self ("out": with out=, "plain": without) one for a Number first argument too (torch.pow(2, x))."""
    out = ", *, Tensor out = None"
    self_first = "self" if first == "input" else first
    middle = {None: (), "out": (f"(Number {self_first}, Tensor {other}{out})",),
              "plain": (f"(Number {self_first}, Tensor {other})",)}[number_self]
    return (f"(Tensor {first}, Tensor {other}{out})", *middle, f"(Tensor {first}, Number {other}{out})")


def _names(x):
    return (x,) if isinstance(x, str) else tuple(x)


def method(name, inplace=False, function=True, out=True, inplace_sizes=False):
    """The common spelling: `x.name()`, `torch.name(x)`, and `x.name_()` when there is an in-place twin."""
    return Spelling(method=name, function=name if function else (), inplace=name + "_" if inplace else (), out=out,
                    inplace_sizes=inplace_sizes)


def unary(name, inplace=True, functional=(), out=True, special=()):
    """A unary function's spelling: `x.name()`, `torch.name(x)`, `x.name_()`, `torch.name_(x)`."""
    twin = name + "_" if inplace else ()
    return Spelling(method=name, function=name, inplace=twin, inplace_function=twin, functional=functional, out=out,
                    special=special)


class Op:
    __slots__ = ("name", "node", "args", "forward", "grads", "saves", "view", "variadic", "spelling", "bind",
                 "node_cls", "saved_cache", "several", "numel", "pointwise")

    def __init__(self, name, node, args, forward, grads, saves, view, variadic, spelling, bind, several=False,
                 numel=None):
        self.name = name
        self.node = node
        self.args = args
        self.forward = forward
        self.grads = grads
        self.saves = saves or {}
        self.view = view
        self.variadic = variadic
        self.spelling = spelling
        self.bind = bind
        self.node_cls = None  # the Node subclass named `node`, made on first use (engine/graph.py)
        self.saved_cache = {}
        self.several = several  # the forward returns a tuple of arrays: one node, several outputs (split, unbind)
        self.numel = numel  # (arrays, attrs) -> the result's size, where it is not the inputs' broadcast size
        self.pointwise = False  # elementwise (declared in a POINTWISE module): its result takes the inputs' layout

    def __repr__(self):
        return f"Op({self.name})"


OPS = {}
# the modules declaring elementwise ops, whose results torch lays out as TensorIterator does (engine/memory.py)
POINTWISE = {"activations", "arithmetic", "bitwise", "compare", "division", "pointwise", "rounding", "special"}


def op(name, node, args, forward, *grads, saves=None, view=False, variadic=False, spell=None, bind=None,
       dtype=None, several=False, numel=None):
    """Declares an op. grads: one (formula, vjp(node, grad)) per argument (one for all when variadic).
    saves: per argument, what its vjp reads back: inputs and `result` (saved tensors, kept only when that
    argument needs grad; the result always), and what PyTorch's node keeps besides (see `kept`).
    bind(*args, **kwargs) -> (op, inputs, attrs, dtype): how a user call becomes this op; by default the
    user passes the tensor arguments positionally and the result dtype follows `dtype` (see result_dtype).
    bind=False: users reach the op through a composite (`max` returns values and indices), or never.
    several: the forward returns a tuple of arrays, the op a tuple of tensors sharing one node (its vjp gets a
    tuple of grads, None where none arrived). numel(arrays, attrs): the result's size, known before the forward
    runs (a budget refuses by it), for an op whose result is not sized as its inputs' broadcast."""
    entry = Op(name, node, args, forward, grads, saves, view, variadic, spell, None, several, numel)
    entry.pointwise = sys._getframe(1).f_globals["__name__"].rpartition(".")[2] in POINTWISE
    if bind is None:
        bind = _positional(entry, dtype)
    entry.bind = bind or None  # False: no bind of its own
    OPS[name] = entry
    return entry


def _positional(entry, rule):
    """The default bind: the op's tensor arguments, positionally (the wrappers of engine/methods.py turn a wrong
    count into PyTorch's TypeError)."""
    def result(inputs):
        return entry, inputs, None, None if rule is None else result_dtype(inputs, rule)

    if entry.variadic:
        return lambda *tensors: result(tensors)
    return {1: lambda self: result((self,)),
            2: lambda self, other: result((self, other)),
            3: lambda self, a, b: result((self, a, b))}[len(entry.args)]


def is_tensor(x):
    return hasattr(type(x), "_data")  # the class: a batched tensor of vmap has no numbers to read


class TensorArgumentError(TypeError):
    """A number (or anything else) where the function takes only a tensor. Its position counts the input, as
    torch.f words it; a method's wrapper takes one off (x.f(…) does not count self)."""

    def __init__(self, function, name, value, position):
        super().__init__(f"{function}(): argument '{name}' (position {position}) must be Tensor, not "
                         f"{type(value).__name__}")
        self.method_text = (f"{function}(): argument '{name}' (position {position - 1}) must be Tensor, not "
                            f"{type(value).__name__}")


def tensor_argument(function, name, value, position=2):
    if not is_tensor(value):
        raise TensorArgumentError(function, name, value, position)


def is_number(x):
    return type(x) in (int, float)


def number_dtype(x):
    """The dtype of a Python number standing for a tensor: bool, int64, or the default float dtype."""
    if isinstance(x, bool):
        return dtypes.bool
    if isinstance(x, int):
        return dtypes.int64
    return dtypes.DEFAULT[0]


def result_dtype(inputs, rule=None):
    """The dtype of an op's result. rule None: PyTorch's type promotion of the inputs (tensors and numbers);
    "float": the same, but integers and bools give float32 (exp, sqrt, division)."""
    first = inputs[0]
    if len(inputs) == 1 and is_tensor(first):  # the common case, decided fast
        d = first.dtype
        return d if d.is_floating_point or rule is None else dtypes.DEFAULT[0]
    d = dtypes.promote([(x.dtype, 2 if x.dim() else 1) if is_tensor(x) else (number_dtype(x), 0)
                        for x in inputs])
    if rule == "float" and not d.is_floating_point:
        return dtypes.DEFAULT[0]
    return d


def floats_only(kernel, t):
    """ATen's CPU kernels that take floating types only: NotImplementedError naming the kernel and the dtype."""
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{t.dtype.type_name}'")


def shape_args(shape):
    """A shape given as sizes or as one tuple/list (`ones(2, 3)`, `ones((2, 3))`) as a tuple of ints."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def dims(dim, ndim):
    """A reduction's dims as a tuple of non-negative ints."""
    ds = dim if isinstance(dim, tuple) else (dim,)
    return tuple(d % ndim if ndim else 0 for d in ds)



META = ("_sym_sizes", "_sym_numel", "_sym_strides", "_sym_argsize_0", "_sym_argsize_minus_1", "_sym_argsize_minus_2")


def kept(op):
    """What op's node keeps, read from its `saves` declaration (cached): name -> "tensor" (an input or the
    result), "meta" (`self_sym_sizes`, `_sym_numel`, `_sym_strides`, `_sym_argsize_0`: an input's sizes, element
    count, strides or first size), "list" (an attribute PyTorch keeps as a list of ints, declared as `dim[]`)
    or "attr" (an attribute, from the node's attrs or the forward's default). They are grad_fn._saved_<name>, as
    PyTorch names them."""
    kinds = op.saved_cache.get("kept")
    if kinds is None:
        kinds = {}
        for group in op.saves.values():
            for decl in group:
                name = decl[:-2] if decl.endswith("[]") else decl
                if name in op.args or name == "result":
                    kinds[name] = "tensor"
                elif name.endswith(META):
                    kinds[name] = "meta"
                else:
                    kinds[name] = "list" if decl.endswith("[]") else "attr"
        op.saved_cache["kept"] = kinds
    return kinds


COMPOSITES = {}


def composite(spell):
    """Declares a user-facing function built from other ops with Tensor methods (it has no node of its own):
    `x.square()` is a pow, `2 / x` is a reciprocal times 2. A composite may take over a name that an op also
    spells (matmul's `@` over mm's): the op's spelling then only names its results in the tracer."""
    def register(fn):
        COMPOSITES[fn.__name__] = (fn, spell)
        return fn

    return register
