"""The op table: every differentiable op written once — forward on numpy, node name, and for each
input the derivative as a human formula and as a function of (node, grad) built from Tensor ops,
so that create_graph=True differentiates it again.

`saves[i]` lists what input i's derivative reads back: input names (`self`, `other`, …) or `result`;
a node keeps only what the inputs that require grad need, as PyTorch does.
"""
import numpy as np

# ops that make inf or nan from finite input; numpy would warn, PyTorch does not
_UNSAFE = {"div", "log", "pow", "pow_tensor", "rpow", "sqrt", "reciprocal", "exp", "softmax", "log_softmax",
           "addcdiv", "mean", "mean_dim"}


class Op:
    __slots__ = ("name", "node", "args", "forward", "grads", "saves", "view", "variadic", "quiet", "node_cls",
                 "saved_cache")

    def __init__(self, name, node, args, forward, grads, saves=None, view=False, variadic=False):
        self.quiet = name in _UNSAFE
        self.node_cls = None
        self.saved_cache = {}
        self.name = name
        self.node = node
        self.args = args
        self.forward = forward
        self.grads = grads
        self.saves = saves or {}
        self.view = view
        self.variadic = variadic

    def __repr__(self):
        return f"Op({self.name})"


OPS = {}


def op(name, node, args, forward, *grads, saves=None, view=False, variadic=False):
    OPS[name] = Op(name, node, args, forward, grads, saves, view, variadic)


def _fma(x, y, z):
    """x·y + z rounded once, as PyTorch's CPU kernels compute `a + alpha * b`, addcmul and lerp (fused)."""
    z = np.asarray(z)
    if z.dtype == np.float32:
        return (np.asarray(x, dtype=np.float64) * y + z).astype(np.float32)
    return x * y + z


def _exact(fn):
    """fn evaluated in float64 and rounded once: float32 results then match PyTorch's to the last bit far more
    often than numpy's own float32 kernels do."""
    def f(a, *args, **kwargs):
        if a.dtype == np.float32:
            args = [x.astype(np.float64) if isinstance(x, np.ndarray) and x.dtype == np.float32 else x for x in args]
            return fn(a.astype(np.float64), *args, **kwargs).astype(np.float32)
        return fn(a, *args, **kwargs)

    return f


_EXP = _exact(np.exp)
_LOG = _exact(np.log)


# --- arithmetic ---------------------------------------------------------------------------------
op("add", "AddBackward0", ("self", "other"), lambda a, b, alpha=1: a + b if alpha == 1 else _fma(_f32(alpha, a), b, a),
   ("grad", lambda n, g: g),
   ("alpha · grad", lambda n, g: g if n.attrs.get("alpha", 1) == 1 else g * n.attrs["alpha"]))
op("sub", "SubBackward0", ("self", "other"), lambda a, b, alpha=1: a - b if alpha == 1 else _fma(_f32(-alpha, a), b, a),
   ("grad", lambda n, g: g),
   ("−alpha · grad", lambda n, g: -g if n.attrs.get("alpha", 1) == 1 else g * -n.attrs["alpha"]))
op("rsub", "RsubBackward1", ("self",), lambda a, other: other - a,
   ("−grad", lambda n, g: -g))
op("mul", "MulBackward0", ("self", "other"), lambda a, b: a * b,
   ("other · grad", lambda n, g: g * n["other"]),
   ("self · grad", lambda n, g: g * n["self"]),
   saves={0: ("other",), 1: ("self",)})
op("div", "DivBackward0", ("self", "other"), lambda a, b: a / b,
   ("grad / other", lambda n, g: g / n["other"]),
   ("−grad · self / other²", lambda n, g: -g * n["self"] / (n["other"] * n["other"])),
   saves={0: ("other",), 1: ("self", "other")})
# Inside derivative formulas PyTorch multiplies by C++ Scalars: mul.Scalar is MulBackward1, and so on.
op("mul_scalar", "MulBackward1", ("self",), lambda a, other: a * other,
   ("other · grad", lambda n, g: g * n.attrs["other"]))
op("div_scalar", "DivBackward1", ("self",), lambda a, other: a / other,
   ("grad / other", lambda n, g: g / n.attrs["other"]))
op("add_scalar", "AddBackward1", ("self",), lambda a, other: a + other,
   ("grad", lambda n, g: g))
op("sub_scalar", "SubBackward1", ("self",), lambda a, other: a - other,
   ("grad", lambda n, g: g))
op("neg", "NegBackward0", ("self",), np.negative,
   ("−grad", lambda n, g: -g))
op("reciprocal", "ReciprocalBackward0", ("self",), lambda a: 1 / a,
   ("−grad · result²", lambda n, g: -g * n["result"] * n["result"]),
   saves={0: ("result",)})


def _pow_grad(n, g):
    e = n.attrs["exponent"]
    if e == 0:
        return g * 0
    return g * (n["self"] ** (e - 1) * e)


op("pow", "PowBackward0", ("self",), _exact(lambda a, exponent: a ** exponent),
   ("exponent · self^(exponent−1) · grad", _pow_grad),
   saves={0: ("self",)})


op("pow_tensor", "PowBackward1", ("self", "exponent"), _exact(lambda a, b: a ** b),
   ("exponent · self^(exponent−1) · grad", lambda n, g: g * n["exponent"] * n["self"] ** (n["exponent"] - 1)),
   ("result · ln(self) · grad",
    lambda n, g: g * _where_zero(n["self"], n["exponent"], n["result"] * n["self"].log())),
   saves={0: ("self", "exponent"), 1: ("self", "exponent", "result")})


def _where_zero(base, exponent, value):
    """PyTorch's pow derivative w.r.t. the exponent is 0 where base == 0 and exponent >= 0."""
    from .functions import where

    mask = (base == 0) & (exponent >= 0)
    if not mask._data.any():
        return value
    return where(mask, value * 0, value)


op("rpow", "PowBackward2", ("self",), _exact(lambda e, base: base ** e),
   ("result · ln(base) · grad", lambda n, g: g * n["result"] * float(np.log(n.attrs["base"]))),
   saves={0: ("result",)})

def _f32(scalar, like):
    return np.asarray(scalar, dtype=like.dtype if like.dtype.kind == "f" else np.float32)


def _addc(a, t1, t2, value, div):
    v = np.asarray(value, dtype=a.dtype)
    return a + v * t1 / t2 if div else _fma(v * t1, t2, a)


op("addcdiv", "AddcdivBackward0", ("self", "tensor1", "tensor2"),
   lambda a, t1, t2, value=1: _addc(a, t1, t2, value, True),
   ("grad", lambda n, g: g),
   ("value · grad / tensor2", lambda n, g: g * n.attrs.get("value", 1) / n["tensor2"]),
   ("−value · grad · tensor1 / tensor2²",
    lambda n, g: -g * n.attrs.get("value", 1) * n["tensor1"] / (n["tensor2"] * n["tensor2"])),
   saves={1: ("tensor2",), 2: ("tensor1", "tensor2")})
op("addcmul", "AddcmulBackward0", ("self", "tensor1", "tensor2"),
   lambda a, t1, t2, value=1: _addc(a, t1, t2, value, False),
   ("grad", lambda n, g: g),
   ("value · grad · tensor2", lambda n, g: g * n["tensor2"] * n.attrs.get("value", 1)),
   ("value · grad · tensor1", lambda n, g: g * n["tensor1"] * n.attrs.get("value", 1)),
   saves={1: ("tensor2",), 2: ("tensor1",)})


def _lerp(a, b, weight):
    w = np.asarray(weight, dtype=a.dtype)
    return _fma(w, b - a, a) if abs(weight) < 0.5 else _fma(a - b, 1 - w, b)


op("lerp", "LerpBackward0", ("self", "end"), _lerp,
   ("(1 − weight) · grad", lambda n, g: g * (1 - n.attrs["weight"])),
   ("weight · grad", lambda n, g: g * n.attrs["weight"]))

# --- pointwise ----------------------------------------------------------------------------------
op("exp", "ExpBackward0", ("self",), _exact(np.exp),
   ("result · grad", lambda n, g: g * n["result"]), saves={0: ("result",)})
op("log", "LogBackward0", ("self",), _exact(np.log),
   ("grad / self", lambda n, g: g / n["self"]), saves={0: ("self",)})
op("sin", "SinBackward0", ("self",), _exact(np.sin),
   ("cos(self) · grad", lambda n, g: g * n["self"].cos()), saves={0: ("self",)})
op("cos", "CosBackward0", ("self",), _exact(np.cos),
   ("−sin(self) · grad", lambda n, g: g * -n["self"].sin()), saves={0: ("self",)})
op("tanh", "TanhBackward0", ("self",), _exact(np.tanh),
   ("(1 − result²) · grad", lambda n, g: g * (1 - n["result"] * n["result"])), saves={0: ("result",)})
op("sigmoid", "SigmoidBackward0", ("self",), lambda a: _sigmoid(a),
   ("result · (1 − result) · grad", lambda n, g: g * (n["result"] * (1 - n["result"]))),
   saves={0: ("result",)})
def _relu(a):
    out = np.maximum(a, np.zeros((), a.dtype))
    negative_zero = np.signbit(a) & (a == 0)  # PyTorch keeps relu(-0.) = -0.
    if negative_zero.any():
        out[negative_zero] = a[negative_zero]
    return out


op("relu", "ReluBackward0", ("self",), _relu,
   ("grad · (result > 0)", lambda n, g: _apply2("threshold_backward", g, n["result"])), saves={0: ("result",)})
op("sqrt", "SqrtBackward0", ("self",), np.sqrt,
   ("grad / (2 · result)", lambda n, g: g / (n["result"] * 2)), saves={0: ("result",)})
op("abs", "AbsBackward0", ("self",), np.abs,
   ("sign(self) · grad", lambda n, g: g * n["self"].sgn()), saves={0: ("self",)})
op("sgn", "SgnBackward0", ("self",), np.sign,
   ("0", lambda n, g: g * 0))
op("sign", "SignBackward0", ("self",), lambda a: a.copy() if a.dtype == bool else np.nan_to_num(np.sign(a), nan=0.0),
   ("0", lambda n, g: g * 0))


def _clamp(a, min=None, max=None):
    if min is not None:
        lo = np.asarray(min, dtype=a.dtype)
        a = np.where(a < lo, lo, a)
    if max is not None:
        hi = np.asarray(max, dtype=a.dtype)
        a = np.where(a > hi, hi, a)
    return a


def _clamp_t(n, g, which):
    s, lo, hi = n["self"], n["min"], n["max"]
    inside = (s >= lo) & (s <= hi)
    if which == 0:
        return g * inside
    return g * ((s < lo) if which == 1 else (s > hi))


def _clamp_mask(n):
    s = n["self"]
    lo, hi = n.attrs.get("min"), n.attrs.get("max")
    mask = None
    if lo is not None:
        mask = s >= lo
    if hi is not None:
        mask = (s <= hi) if mask is None else mask & (s <= hi)
    return mask


op("clamp", "ClampBackward1", ("self",), _clamp,
   ("grad · (min ≤ self ≤ max)", lambda n, g: g * _clamp_mask(n)), saves={0: ("self",)})
op("clamp_tensor", "ClampBackward0", ("self", "min", "max"), _clamp,
   ("grad · (min ≤ self ≤ max)", lambda n, g: _clamp_t(n, g, 0)),
   ("grad · (self < min)", lambda n, g: _clamp_t(n, g, 1)),
   ("grad · (self > max)", lambda n, g: _clamp_t(n, g, 2)),
   saves={0: ("self", "min", "max"), 1: ("self", "min", "max"), 2: ("self", "min", "max")})


def _sigmoid(a):
    return 1 / (1 + _EXP(-a))


op("where", "WhereBackward0", ("self", "other"), lambda a, b, condition, condition_tensor: np.where(condition, a, b),
   ("grad where condition, else 0", lambda n, g: _where(n, g, True)),
   ("grad where not condition, else 0", lambda n, g: _where(n, g, False)))


def _where(n, g, first):
    from .functions import where

    c = n.attrs["condition_tensor"]
    z = g * 0
    return where(c, g, z) if first else where(c, z, g)


op("zero", "ZeroBackward0", ("self",), np.zeros_like,
   ("0", lambda n, g: g * 0))
op("fill", "FillBackward2", ("self",), lambda a, value: np.full_like(a, value),
   ("0", lambda n, g: g * 0))


def _pick(n, g, first):
    a, b = n["self"], n["other"]
    from .functions import where

    if n._op.name == "maximum":
        win = a > b if first else b > a
    else:
        win = a < b if first else b < a
    return where(a == b, g / 2, where(win, g, g * 0))


op("maximum", "MaximumBackward0", ("self", "other"), lambda a, b: np.where((a >= b) | np.isnan(a), a, b),
   ("grad where self wins (half on ties)", lambda n, g: _pick(n, g, True)),
   ("grad where other wins (half on ties)", lambda n, g: _pick(n, g, False)),
   saves={0: ("self", "other"), 1: ("self", "other")})
op("minimum", "MinimumBackward0", ("self", "other"), lambda a, b: np.where((a <= b) | np.isnan(a), a, b),
   ("grad where self wins (half on ties)", lambda n, g: _pick(n, g, True)),
   ("grad where other wins (half on ties)", lambda n, g: _pick(n, g, False)),
   saves={0: ("self", "other"), 1: ("self", "other")})

# --- reductions ---------------------------------------------------------------------------------
def _sum(a, dim=None, keepdim=False):
    return np.sum(a, axis=dim, keepdims=keepdim, dtype=a.dtype if a.dtype.kind == "f" else np.int64)


def _expand_back(n, g):
    shape = n._shapes[0]
    dim = n.attrs.get("dim")
    if dim is not None and not n.attrs.get("keepdim", False):
        for d in sorted(_dims(dim, len(shape))):
            g = g.unsqueeze(d)
    return g.expand(shape)


def _dims(dim, ndim):
    dims = dim if isinstance(dim, tuple) else (dim,)
    return tuple(d % ndim if ndim else 0 for d in dims)


def _count(n):
    shape = n._shapes[0]
    dim = n.attrs.get("dim")
    if dim is None:
        return int(np.prod(shape, dtype=np.int64))
    return int(np.prod([shape[d] for d in _dims(dim, len(shape))], dtype=np.int64))


op("sum", "SumBackward0", ("self",), _sum,
   ("grad expanded to self's shape", _expand_back))
op("sum_dim", "SumBackward1", ("self",), _sum,
   ("grad expanded along dim", _expand_back))
def _mean(a, dim=None, keepdim=False):
    n = a.size if dim is None else int(np.prod([a.shape[d] for d in (dim if isinstance(dim, tuple) else (dim,))]))
    if n == 0:
        return np.full(np.sum(a, axis=dim, keepdims=keepdim).shape, np.nan, dtype=a.dtype)
    return np.mean(a, axis=dim, keepdims=keepdim)


op("mean", "MeanBackward0", ("self",), _mean,
   ("grad / numel, expanded", lambda n, g: _expand_back(n, g) / _count(n)))
op("mean_dim", "MeanBackward1", ("self",), _mean,
   ("grad / size(dim), expanded", lambda n, g: _expand_back(n, g) / _count(n)))


def _evenly(n, g):
    s, r = n["self"], n["result"]
    mask = s == r
    return mask * (g / mask.sum())


op("max", "MaxBackward1", ("self",), lambda a: np.max(a),
   ("grad shared evenly by the maxima", _evenly), saves={0: ("self", "result")})
op("min", "MinBackward1", ("self",), lambda a: np.min(a),
   ("grad shared evenly by the minima", _evenly), saves={0: ("self", "result")})


def _select_reduce(n, g):
    from .functions import _scatter_dim

    return _scatter_dim(g, n.attrs["indices"], n.attrs["dim"], n.attrs["keepdim"], n._shapes[0])


op("max_dim", "MaxBackward0", ("self",),
   lambda a, dim, keepdim, indices: np.take_along_axis(a, np.expand_dims(indices, dim) if not keepdim
                                                        else indices, dim).reshape(indices.shape),
   ("grad to the arg-max of each row", _select_reduce))
op("min_dim", "MinBackward0", ("self",),
   lambda a, dim, keepdim, indices: np.take_along_axis(a, np.expand_dims(indices, dim) if not keepdim
                                                        else indices, dim).reshape(indices.shape),
   ("grad to the arg-min of each row", _select_reduce))

# --- linear algebra -----------------------------------------------------------------------------
op("mm", "MmBackward0", ("self", "mat2"), np.matmul,
   ("grad @ mat2ᵀ", lambda n, g: g.mm(n["mat2"].t())),
   ("selfᵀ @ grad", lambda n, g: n["self"].t().mm(g)),
   saves={0: ("mat2",), 1: ("self",)})
op("mv", "MvBackward0", ("self", "vec"), np.matmul,
   ("grad ⊗ vec", lambda n, g: g.unsqueeze(1) * n["vec"].unsqueeze(0)),
   ("selfᵀ @ grad", lambda n, g: n["self"].t().mv(g)),
   saves={0: ("vec",), 1: ("self",)})
op("dot", "DotBackward0", ("self", "tensor"), lambda a, b: np.dot(a, b) + 0,  # BLAS sums from +0
   ("tensor · grad", lambda n, g: g * n["tensor"]),
   ("self · grad", lambda n, g: g * n["self"]),
   saves={0: ("tensor",), 1: ("self",)})
op("bmm", "BmmBackward0", ("self", "mat2"), np.matmul,
   ("grad @ mat2ᵀ", lambda n, g: g.bmm(n["mat2"].transpose(1, 2))),
   ("selfᵀ @ grad", lambda n, g: n["self"].transpose(1, 2).bmm(g)),
   saves={0: ("mat2",), 1: ("self",)})
op("addmm", "AddmmBackward0", ("self", "mat1", "mat2"), lambda b, m1, m2: b + m1 @ m2,
   ("grad", lambda n, g: g),
   ("grad @ mat2ᵀ", lambda n, g: g.mm(n["mat2"].t())),
   ("mat1ᵀ @ grad", lambda n, g: n["mat1"].t().mm(g)),
   saves={1: ("mat2",), 2: ("mat1",)})

# --- views --------------------------------------------------------------------------------------
op("view", "ViewBackward0", ("self",), lambda a, shape: a.reshape(shape),
   ("grad reshaped to self's shape", lambda n, g: g.reshape(n._shapes[0])), view=True)
op("unsafe_view", "UnsafeViewBackward0", ("self",), lambda a, shape: a.reshape(shape).copy(),
   ("grad reshaped to self's shape", lambda n, g: g.reshape(n._shapes[0])))
op("unsqueeze", "UnsqueezeBackward0", ("self",), lambda a, dim: np.expand_dims(a, dim),
   ("grad squeezed at dim", lambda n, g: g.squeeze(n.attrs["dim"])), view=True)
op("squeeze", "SqueezeBackward0", ("self",), lambda a: np.squeeze(a),
   ("grad reshaped to self's shape", lambda n, g: g.reshape(n._shapes[0])), view=True)
op("squeeze_dim", "SqueezeBackward1", ("self",),
   lambda a, dim: np.squeeze(a, dim) if a.ndim and a.shape[dim] == 1 else a[...],
   ("grad unsqueezed at dim", lambda n, g: g.reshape(n._shapes[0])), view=True)
op("squeeze_", "SqueezeBackward4", ("self",), lambda a, dim: np.squeeze(a, dim),
   ("grad unsqueezed at dim", lambda n, g: g.unsqueeze(n.attrs["dim"])))
op("unbind", "UnbindBackward0", ("self",), lambda a, dim, index: a[(slice(None),) * dim + (index, Ellipsis)],
   ("grad placed at [index] in zeros", lambda n, g: _embed(n, g)), view=True)
op("transpose", "TransposeBackward0", ("self",), lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1),
   ("grad transposed back", lambda n, g: g.transpose(n.attrs["dim0"], n.attrs["dim1"])), view=True)
op("t", "TBackward0", ("self",), lambda a: a.T,
   ("gradᵀ", lambda n, g: g.t()), view=True)
op("permute", "PermuteBackward0", ("self",), lambda a, dims: np.transpose(a, dims),
   ("grad permuted back", lambda n, g: g.permute(tuple(np.argsort(n.attrs["dims"]).tolist()))), view=True)
op("expand", "ExpandBackward0", ("self",), lambda a, shape: np.broadcast_to(a, shape),
   ("grad summed over the expanded dims", lambda n, g: g.sum_to_size(n._shapes[0])), view=True)
op("select", "SelectBackward0", ("self",), lambda a, dim, index: a[(slice(None),) * dim + (index, Ellipsis)],
   ("grad placed at [index] in zeros", lambda n, g: _embed(n, g)), view=True)
op("slice", "SliceBackward0", ("self",),
   lambda a, dim, start, stop, step: a[(slice(None),) * dim + (slice(start, stop, step),)],
   ("grad placed in the slice of zeros", lambda n, g: _embed(n, g)), view=True)
op("alias", "AliasBackward0", ("self",), lambda a: a[...],
   ("grad", lambda n, g: g), view=True)
op("index", "IndexBackward0", ("self",), lambda a, key: a[key],
   ("grad added at the indices of zeros", lambda n, g: _embed(n, g)))
op("clone", "CloneBackward0", ("self",), lambda a: a.copy(),
   ("grad", lambda n, g: g))
op("to_copy", "ToCopyBackward0", ("self",), lambda a, dtype, src_dtype: a.astype(dtype),
   ("grad cast back", lambda n, g: g.to(n.attrs["src_dtype"])))


def _key(n):
    a = n.attrs
    if "key" in a:
        return a["key"]
    if "index" in a:
        return (slice(None),) * a["dim"] + (a["index"],)
    return (slice(None),) * a["dim"] + (slice(a["start"], a["stop"], a["step"]),)


def _embed(n, g):
    from .dispatch import apply

    return apply(OPS["embed"], (g,), {"shape": n._shapes[0], "key": _key(n)})


def _embed_fwd(g, shape, key):
    out = np.zeros(shape, dtype=g.dtype)
    np.add.at(out, key, g)
    return out


op("embed", "IndexPutBackward0", ("grad",), _embed_fwd,
   ("grad taken at the indices", lambda n, g: _take(g, n.attrs["key"])))


def _take(g, key):
    from .dispatch import apply

    return apply(OPS["index"], (g,), {"key": key})


# --- joins --------------------------------------------------------------------------------------
def _split_back(n, g, i):
    dim = n.attrs["dim"]
    if n._op.name == "stack":
        return g.select(dim, i)
    start = sum(s[dim] for s in n._shapes[:i])
    return g.narrow(dim, start, n._shapes[i][dim])


op("stack", "StackBackward0", ("tensors",), lambda *a, dim: np.stack(a, axis=dim),
   ("grad[i] along dim", _split_back), variadic=True)
op("cat", "CatBackward0", ("tensors",), lambda *a, dim: np.concatenate(a, axis=dim),
   ("grad's slice of input i along dim", _split_back), variadic=True)

# --- in-place writes into a region (index assignment, in-place ops on views) ---------------------
def _apply(name, g, **attrs):
    from .dispatch import apply

    return apply(OPS[name], (g,), attrs)


def region_grad(node, grad):
    """CopySlices: the written region's grad goes through the inner op, the rest to the old base."""
    region = node._region
    inner = node._inner.apply(_apply("take_region", grad, region=region))
    base = None
    if node._need[0]:
        base = _apply("zero_region", grad, region=region)
        if inner[0] is not None:
            base = base + _apply("put_region", inner[0], region=region, shape=node._shapes[0])
    return (base,) + inner[1:]


def _zero_region_fwd(g, region):
    out = g.copy()
    region(out)[...] = 0
    return out


def _put_region_fwd(g, region, shape):
    out = np.zeros(shape, dtype=g.dtype)
    region(out)[...] = g
    return out


op("copy", "CopyBackwards", ("self", "src"), lambda a, src: np.broadcast_to(src, a.shape),
   ("0", lambda n, g: g * 0),
   ("grad of the written region", lambda n, g: g))
op("index_put", "IndexPutBackward0", ("self", "values"), None,
   ("grad with the indexed entries zeroed", lambda n, g: _apply("zero_region", g, region=n.attrs["region"])),
   ("grad at the indices", lambda n, g: _apply("take_region", g, region=n.attrs["region"])))
op("as_strided", "AsStridedBackward0", ("base",), None,
   ("grad placed in the view's region of zeros",
    lambda n, g: _apply("put_region", g, region=n.attrs["region"], shape=n._shapes[0])))
op("zero_region", "CopySlicesBackward0", ("grad",), _zero_region_fwd,
   ("grad with the region zeroed", lambda n, g: _apply("zero_region", g, region=n.attrs["region"])))
op("take_region", "AsStridedBackward1", ("grad",), lambda g, region: np.array(region(g)),
   ("grad placed in the region of zeros",
    lambda n, g: _apply("put_region", g, region=n.attrs["region"], shape=n._shapes[0])))
op("put_region", "AsStridedScatterBackward0", ("grad",), _put_region_fwd,
   ("grad taken from the region", lambda n, g: _apply("take_region", g, region=n.attrs["region"])))

# --- nn.functional --------------------------------------------------------------------------------


def _softmax(a, dim):
    e = _EXP(a - np.max(a, axis=dim, keepdims=True))
    return e * (1 / np.sum(e, axis=dim, keepdims=True))


def _log_softmax(a, dim):
    s = a - np.max(a, axis=dim, keepdims=True)
    return s - _LOG(np.sum(_EXP(s), axis=dim, keepdims=True))


op("softmax", "SoftmaxBackward0", ("self",), _softmax,
   ("result · (grad − Σ grad·result)",
    lambda n, g: n["result"] * (g - (g * n["result"]).sum(n.attrs["dim"], keepdim=True))),
   saves={0: ("result",)})
op("log_softmax", "LogSoftmaxBackward0", ("self",), _log_softmax,
   ("grad − exp(result) · Σ grad",
    lambda n, g: g - n["result"].exp() * g.sum(n.attrs["dim"], keepdim=True)),
   saves={0: ("result",)})


def _nll(a, target, reduction, weight_sum):
    picked = -a[np.arange(a.shape[0]), target] if a.ndim == 2 else -a[target]
    if reduction == "none":
        return picked
    if reduction == "sum":
        return np.sum(picked)
    return np.sum(picked) / np.asarray(weight_sum, dtype=a.dtype)


def _nll_back(n, g):
    from .dispatch import apply

    a = n.attrs
    scale = g if a["reduction"] != "mean" else g / a["weight_sum"]
    return apply(OPS["nll_embed"], (-scale,), {"shape": n._shapes[0], "target": a["target"]})


def _nll_embed_fwd(g, shape, target):
    out = np.zeros(shape, dtype=g.dtype)
    if len(shape) == 2:
        out[np.arange(shape[0]), target] = g
    else:
        out[target] = g
    return out


op("nll_loss", "NllLossBackward0", ("self",), _nll,
   ("−grad / N at each target", _nll_back))
op("nll_embed", "NllLossBackwardBackward0", ("grad",), _nll_embed_fwd,
   ("grad at each target", lambda n, g: _nll_take(n, g)))


def _nll_take(n, g):
    from .dispatch import apply

    t = n.attrs["target"]
    key = (np.arange(len(t)), t) if len(n.attrs["shape"]) == 2 else (t,)
    return apply(OPS["index"], (g,), {"key": key})


def _mse(a, b, reduction):
    d = (a - b) ** 2
    if reduction == "none":
        return d
    return np.sum(d) if reduction == "sum" else np.mean(d)


def _mse_back(n, g, sign):
    d = n["self"] - n["target"]
    if n.attrs["reduction"] == "mean":
        g = g / d.numel()
    return d * g * (2 * sign)


op("mse_loss", "MseLossBackward0", ("self", "target"), _mse,
   ("2 · (self − target) · grad / N", lambda n, g: _mse_back(n, g, 1)),
   ("−2 · (self − target) · grad / N", lambda n, g: _mse_back(n, g, -1)),
   saves={0: ("self", "target"), 1: ("self", "target")})

def _apply2(name, a, b, **attrs):
    from .dispatch import apply

    return apply(OPS[name], (a, b), attrs)


op("threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"),
   lambda g, s: g * (s > 0) + np.zeros((), g.dtype),  # + 0 turns the -0 of a masked negative grad into 0
   ("grad where self > 0", lambda n, g: _apply2("threshold_backward", g, n["self"])),
   ("0", lambda n, g: g * 0),
   saves={0: ("self",)})


# --- more pointwise -------------------------------------------------------------------------------
op("tan", "TanBackward0", ("self",), _exact(np.tan),
   ("(1 + result²) · grad", lambda n, g: g * (1 + n["result"] * n["result"])), saves={0: ("result",)})
op("sinh", "SinhBackward0", ("self",), _exact(np.sinh),
   ("cosh(self) · grad", lambda n, g: g * n["self"].cosh()), saves={0: ("self",)})
op("cosh", "CoshBackward0", ("self",), _exact(np.cosh),
   ("sinh(self) · grad", lambda n, g: g * n["self"].sinh()), saves={0: ("self",)})
op("atan", "AtanBackward0", ("self",), _exact(np.arctan),
   ("grad / (1 + self²)", lambda n, g: g / (n["self"] * n["self"] + 1)), saves={0: ("self",)})
op("rsqrt", "RsqrtBackward0", ("self",), _exact(lambda a: 1 / np.sqrt(a)),
   ("−½ · result³ · grad", lambda n, g: g * (n["result"] ** 3 * -0.5)), saves={0: ("result",)})
op("log1p", "Log1PBackward0", ("self",), _exact(np.log1p),
   ("grad / (1 + self)", lambda n, g: g / (n["self"] + 1)), saves={0: ("self",)})
op("expm1", "Expm1Backward0", ("self",), _exact(np.expm1),
   ("(result + 1) · grad", lambda n, g: g * (n["result"] + 1)), saves={0: ("result",)})
op("log2", "Log2Backward0", ("self",), _exact(np.log2),
   ("grad / (self · ln 2)", lambda n, g: g / (n["self"] * 0.6931471805599453)), saves={0: ("self",)})
op("log10", "Log10Backward0", ("self",), _exact(np.log10),
   ("grad / (self · ln 10)", lambda n, g: g / (n["self"] * 2.302585092994046)), saves={0: ("self",)})
for _name, _fn in (("floor", np.floor), ("ceil", np.ceil), ("round", np.round), ("trunc", np.trunc)):
    op(_name, _name.capitalize() + "Backward0", ("self",), _fn, ("0", lambda n, g: g * 0))
for _name in ("tan", "sinh", "cosh", "rsqrt", "log1p", "expm1", "log2", "log10"):
    OPS[_name].quiet = True
op("leaky_relu", "LeakyReluBackward0", ("self",),
   lambda a, negative_slope: np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype)),
   ("grad · (1 if self > 0 else negative_slope)",
    lambda n, g: g * ((n["self"] > 0) + (n["self"] <= 0) * n.attrs["negative_slope"])),
   saves={0: ("self",)})


def _softplus(a, beta, threshold):
    b = np.asarray(beta, a.dtype)
    return np.where(a * b > threshold, a, _exact(np.log1p)(_EXP(a * b)) / b)


op("softplus", "SoftplusBackward0", ("self",), _softplus,
   ("σ(beta · self) · grad", lambda n, g: _softplus_grad(n, g)), saves={0: ("self",)})


def _softplus_grad(n, g):
    from .functions import where

    s, beta, threshold = n["self"], n.attrs["beta"], n.attrs["threshold"]
    return where(s * beta > threshold, g, g * (s * beta).sigmoid())


op("masked_fill", "MaskedFillBackward0", ("self",), lambda a, mask, value, mask_tensor: np.where(mask, value, a),
   ("grad where not mask, else 0", lambda n, g: _masked(n, g)))


def _masked(n, g):
    from .functions import where

    return where(n.attrs["mask_tensor"], g * 0, g)


# --- more reductions --------------------------------------------------------------------------------
def _var(a, dim=None, correction=1, keepdim=False, exact=False):
    x = a.astype(np.float64)
    n = a.size if dim is None else int(np.prod([a.shape[d] for d in (dim if isinstance(dim, tuple) else (dim,))]))
    with np.errstate(all="ignore"):
        mean = np.sum(x, axis=dim, keepdims=True) / n
        out = np.sum((x - mean) ** 2, axis=dim, keepdims=keepdim) / np.float64(n - correction)
    return out if exact else out.astype(a.dtype)


def _centered(n):
    s = n["self"]
    dim = n.attrs.get("dim")
    return s - (s.mean() if dim is None else s.mean(dim, keepdim=True))


def _dof(n):
    return _count(n) - n.attrs.get("correction", 1)


def _var_grad(n, g):
    return _expand_back(n, g) * _centered(n) * (2 / _dof(n))


def _kept(n, t):
    """A reduction's result with the reduced dims put back (size 1), to broadcast against the input."""
    dim = n.attrs.get("dim")
    if dim is not None and not n.attrs.get("keepdim", False):
        for d in sorted(_dims(dim, len(n._shapes[0]))):
            t = t.unsqueeze(d)
    return t


def _std_grad(n, g):
    from .functions import where

    r = _kept(n, n["result"])
    grad = _expand_back(n, g) * _centered(n) / (r * _dof(n))
    return where(r == 0, 0.0, grad)  # PyTorch: no grad where the std is 0


op("var", "VarBackward0", ("self",), _var,
   ("2 · (self − mean) · grad / (N − correction)", _var_grad), saves={0: ("self",)})
op("std", "StdBackward0", ("self",), lambda a, **k: np.sqrt(_var(a, exact=True, **k)).astype(a.dtype),
   ("(self − mean) · grad / ((N − correction) · result)", _std_grad), saves={0: ("self", "result")})


def _norm(a, dim=None, keepdim=False):
    return np.sqrt(np.sum(np.asarray(a, dtype=np.float64) ** 2, axis=dim, keepdims=keepdim)).astype(a.dtype)


def _norm_grad(n, g):
    from .functions import where

    r = _kept(n, n["result"])
    scale = where(r == 0, r * 0, _expand_back(n, g) / r)
    return n["self"] * scale


op("norm", "LinalgVectorNormBackward0", ("self",), _norm,
   ("self / result · grad", _norm_grad), saves={0: ("self", "result")})


def _logsumexp(a, dim, keepdim):
    m = np.max(a, axis=dim, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    out = _LOG(np.sum(_EXP(a - m), axis=dim, keepdims=True)) + m
    return out if keepdim else np.squeeze(out, axis=dim)


def _logsumexp_grad(n, g):
    r = n["result"]
    if not n.attrs["keepdim"]:
        for d in sorted(_dims(n.attrs["dim"], len(n._shapes[0]))):
            r = r.unsqueeze(d)
            g = g.unsqueeze(d)
    return g * (n["self"] - r).exp()


op("logsumexp", "LogsumexpBackward0", ("self",), _logsumexp,
   ("exp(self − result) · grad", _logsumexp_grad), saves={0: ("self", "result")})
def _cumsum(a, dim):
    if a.ndim == 0:
        return a.astype(np.int64 if a.dtype.kind in "bi" else a.dtype)
    if a.dtype.kind in "bi":
        return np.cumsum(a, axis=dim, dtype=np.int64)
    return (np.cumsum(a, axis=dim, dtype=np.float64) + 0).astype(a.dtype)


op("cumsum", "CumsumBackward0", ("self",), _cumsum,
   ("grad summed from the end along dim", lambda n, g: _apply("cumsum_rev", g, dim=n.attrs["dim"])))
op("cumsum_rev", "FlipBackward0", ("grad",),
   lambda g, dim: np.flip(np.cumsum(np.flip(g, dim), axis=dim, dtype=g.dtype), dim).copy(),
   ("grad summed from the start along dim", lambda n, g: _apply("cumsum", g, dim=n.attrs["dim"])))


def _repeat_grad(n, g):
    reps = n.attrs["repeats"]
    shape = n._shapes[0]
    lead = len(reps) - len(shape)
    full = (1,) * lead + tuple(shape)
    split = []
    for r, s in zip(reps, full):
        split += [r, s]
    out = g.reshape(split).sum(tuple(range(0, 2 * len(reps), 2)))
    return out.reshape(shape)


op("repeat", "RepeatBackward0", ("self",), lambda a, repeats: np.tile(a, repeats),
   ("grad summed over the copies", _repeat_grad))


# --- more losses ------------------------------------------------------------------------------------
def _bce(x, t, reduction):
    log_x = np.maximum(_LOG(x), -100)
    log_1mx = np.maximum(_LOG(1 - x), -100)
    loss = -(t * log_x + (1 - t) * log_1mx)
    if reduction == "none":
        return loss
    return np.sum(loss) if reduction == "sum" else np.mean(loss)


def _bce_grad(n, g):
    x, t = n["self"], n["target"]
    if n.attrs["reduction"] == "mean":
        g = g / x.numel()
    return g * (x - t) / ((x * (1 - x)).clamp(min=1e-12))


op("binary_cross_entropy", "BinaryCrossEntropyBackward0", ("self", "target"), _bce,
   ("(self − target) / (self · (1 − self)) · grad / N", _bce_grad),
   ("−log(self / (1 − self)) · grad / N", lambda n, g: _bce_target_grad(n, g)),
   saves={0: ("self", "target"), 1: ("self",)})


def _bce_target_grad(n, g):
    x = n["self"]
    if n.attrs["reduction"] == "mean":
        g = g / x.numel()
    return g * ((1 - x).log() - x.log())


for _name in ("var", "std", "norm", "logsumexp", "binary_cross_entropy", "softplus"):
    OPS[_name].quiet = True
