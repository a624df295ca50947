"""Shapes and views: view/reshape, flatten, (un)squeeze, transpose/permute, movedim, expand, diagonal,
select/slice/index.

Views share their input's memory and version counter (op(..., view=True)); PyTorch names their nodes after the
view op, and regenerates them as AsStridedBackward0 when the base is written in place (engine/graph.py).
"""
import warnings

import numpy as np

from .. import dtypes, memory, messages
from .index_layout import indexed
from .table import OPS, Spelling, composite, method, op, shape_args


def _infer_shape(t, shape):
    shape = list(shape_args(shape))
    n = t.numel()
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if known == 0 and n == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {shape} because the unspecified "
                               "dimension size -1 can be any value and is ambiguous")
        if known == 0 or n % known:
            raise RuntimeError(f"shape '{list(shape_args(shape))}' is invalid for input of size {n}")
        shape[shape.index(-1)] = n // known
    if int(np.prod(shape, dtype=np.int64)) != n:
        raise RuntimeError(f"shape '{shape}' is invalid for input of size {n}")
    return tuple(shape)


def _viewable(t, shape):
    if t.__dict__.get("_value") is not None:  # vmap's batched tensor: its batch is viewed (and checked) by its rule
        return True
    a = t._data
    return a.flags.c_contiguous or memory.view_strides(a.shape, memory.strides(a), shape) is not None


def _bind_view(self, *shape):
    if not shape:
        raise TypeError("view() received an invalid combination of arguments - got (), but expected one of:\n"
                        " * (torch.dtype dtype)\n * (tuple of ints size)\n")
    if len(shape) == 1 and isinstance(shape[0], dtypes.dtype):
        raise RuntimeError("view(dtype) is not supported")
    shape = _infer_shape(self, shape)
    if not _viewable(self, shape):
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension "
            "spans across two contiguous subspaces). Use .reshape(...) instead.")
    return OPS["view"], (self,), {"shape": shape}, None


op("view", "ViewBackward0", ("self",), memory.view,
   ("grad reshaped to self's shape", lambda n, g: g.reshape(n._shapes[0])), view=True,
   saves={0: ("self_sym_sizes",)}, spell=Spelling(method="view"), bind=_bind_view)
op("unsafe_view", "UnsafeViewBackward0", ("self",), lambda a, shape: a.reshape(shape).copy(),
   ("grad reshaped to self's shape", lambda n, g: g.reshape(n._shapes[0])),
   saves={0: ("self_sym_sizes",)}, spell=Spelling(method="reshape", name="{0}.reshape{shape}"), bind=False)


op("reshape_alias", "ReshapeAliasBackward0", ("self",), memory.view,
   ("grad reshaped to self's shape", lambda n, g: g.reshape(n._shapes[0])), view=True,
   saves={0: ("self_sym_sizes",)}, spell=Spelling(method="reshape", name="{0}.reshape{shape}"), bind=False)


@composite(Spelling(method="reshape", function="reshape", out=False))
def reshape(self, *shape, **keyword):
    """ATen's reshape: a view of a contiguous tensor, an alias with new strides where they exist, else a copy."""
    unknown = sorted(keyword.keys() - {"shape"})
    if unknown:
        raise TypeError(f"reshape() got an unexpected keyword argument '{unknown[0]}'")
    if not shape and "shape" not in keyword:
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    shape = _infer_shape(self, shape or (keyword.pop("shape"),))
    if self.__dict__.get("_value") is not None or self._data.flags.c_contiguous:  # vmap's batched tensor: a view
        return self._apply(OPS["view"], (self,), {"shape": shape})
    if _viewable(self, shape):
        return self._apply(OPS["reshape_alias"], (self,), {"shape": shape})
    return self._apply(OPS["unsafe_view"], (self.clone(memory_format=memory.contiguous_format),), {"shape": shape})


@composite(Spelling(method="view_as"))
def view_as(self, other):
    return self.view(other.shape)


@composite(Spelling(method="reshape_as"))
def reshape_as(self, other):
    return self.reshape(other.shape)


@composite(Spelling(method="flatten", function="flatten", out=False))
def flatten(self, start_dim=0, end_dim=-1):
    if self.dim() == 0:
        return self.reshape(1)
    s, e = self._dim(start_dim), self._dim(end_dim)
    if s == e:
        return self
    shape = self.shape
    return self.reshape(shape[:s] + (-1,) + shape[e + 1:])


@composite(Spelling(method="unflatten", function="unflatten", out=False))
def unflatten(self, dim, sizes):
    d = self._dim(dim)
    shape = self.shape
    return self.view(*shape[:d], *sizes, *shape[d + 1:])


def _bind_unsqueeze(self, dim):
    self._dim(dim, self.dim() + 1)
    return OPS["unsqueeze"], (self,), {"dim": dim}, None  # as given, as torch keeps it


op("unsqueeze", "UnsqueezeBackward0", ("self",), lambda a, dim: np.expand_dims(a, dim),
   ("grad squeezed at dim", lambda n, g: g.squeeze(n.attrs["dim"])), view=True, saves={0: ("dim",)},
   spell=method("unsqueeze", out=False),
   bind=_bind_unsqueeze)


def _bind_squeeze(self, dim=None):
    if dim is None:
        return OPS["squeeze"], (self,), None, None
    if isinstance(dim, (tuple, list)):
        return OPS["squeeze_dims"], (self,), {"dim": self._reduce_dims(tuple(dim))}, None
    return OPS["squeeze_dim"], (self,), {"dim": self._reduce_dims(dim)}, None


def _unsqueeze_to(g, shape, dims=None):
    """ATen's unsqueeze_to: grad unsqueezed at each dim (of dims, if given) where self had size 1."""
    for d in range(len(shape)):
        if shape[d] == 1 and (dims is None or d in dims):
            g = g.unsqueeze(d)
    return g


def _wrapped(dims, shape):
    return {d % len(shape) for d in (dims if isinstance(dims, (tuple, list)) else (dims,))} if shape else set()


op("squeeze", "SqueezeBackward0", ("self",), lambda a: np.squeeze(a),
   ("grad reshaped to self's shape", lambda n, g: _unsqueeze_to(g, n._shapes[0])), view=True,
   saves={0: ("self_sym_sizes",)}, spell=method("squeeze", out=False), bind=_bind_squeeze)
op("squeeze_dim", "SqueezeBackward1", ("self",),
   lambda a, dim: np.squeeze(a, dim) if a.ndim and a.shape[dim] == 1 else a[...],
   ("grad unsqueezed at dim", lambda n, g: _unsqueeze_to(g, n._shapes[0], _wrapped(n.attrs["dim"], n._shapes[0]))),
   view=True, saves={0: ("dim", "self_sym_sizes")}, spell=method("squeeze", out=False), bind=_bind_squeeze)
op("squeeze_dims", "SqueezeBackward2", ("self",),
   lambda a, dim: np.squeeze(a, tuple(d % a.ndim for d in dim if a.shape[d] == 1)) if a.ndim else a[...],
   ("grad unsqueezed at the dims",
    lambda n, g: _unsqueeze_to(g, n._shapes[0], _wrapped(n.attrs["dim"], n._shapes[0]))), view=True,
   saves={0: ("dim[]", "self_sym_sizes")}, spell=method("squeeze", out=False), bind=_bind_squeeze)
op("squeeze_", "SqueezeBackward4", ("self",),  # matmul's 1-d @ 2-d, and x.squeeze_(dim)
   lambda a, dim: np.squeeze(a, dim) if a.ndim and a.shape[dim] == 1 else a[...],
   ("grad unsqueezed at dim", lambda n, g: g.unsqueeze(n.attrs["dim"])), saves={0: ("dim", "self_sym_sizes")},
   spell=Spelling(method="squeeze", name="{0}.squeeze({dim})"), bind=False)


def _bind_transpose(self, dim0, dim1):
    self._dim(dim0), self._dim(dim1)
    return OPS["transpose"], (self,), {"dim0": dim0, "dim1": dim1}, None  # as given, as torch keeps them


op("transpose", "TransposeBackward0", ("self",), lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1) if a.ndim else a[...],
   ("grad transposed back", lambda n, g: g.transpose(n.attrs["dim0"], n.attrs["dim1"])), view=True,
   saves={0: ("dim0", "dim1")},
   spell=Spelling(method=("transpose", "swapaxes", "swapdims"), function=("transpose", "swapaxes", "swapdims"),
                  out=False),
   bind=_bind_transpose)
op("transpose_", "TransposeBackward1", ("self",),
   lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1) if a.ndim else a[...],
   ("grad transposed back", lambda n, g: g.transpose(n.attrs["dim0"], n.attrs["dim1"])),
   saves={0: ("dim0", "dim1")}, bind=False,  # ATen's in-place transpose_ of a result it made (an RNN's output)
   spell=Spelling(name=lambda s, a: f"{s[0]}.transpose_({a['dim0']}, {a['dim1']})"))


def _bind_t(self):
    if self.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.dim()}D")
    return OPS["t"], (self,), None, None


op("t", "TBackward0", ("self",), lambda a: a.T, ("gradᵀ", lambda n, g: g.t()), view=True,
   spell=method("t", out=False), bind=_bind_t)


# --- in-place shape changes: the tensor itself takes the view's shape and strides (dispatch.inplace_view)
def _inplace_name(word):
    return lambda s, a: f"{s[0]}.{word}({', '.join(str(v) for v in a.values())})"


op("unsqueeze_", "UnsqueezeBackward1", ("self",), lambda a, dim: np.expand_dims(a, dim),
   ("grad squeezed at dim", lambda n, g: g.squeeze(n.attrs["dim"])), saves={0: ("dim",)},
   spell=Spelling(name=_inplace_name("unsqueeze_")), bind=False)
op("squeeze_all_", "SqueezeBackward3", ("self",), lambda a: np.squeeze(a),
   ("grad reshaped to self's shape", lambda n, g: _unsqueeze_to(g, n._shapes[0])),
   saves={0: ("self_sym_sizes",)}, spell=Spelling(name="{0}.squeeze_()"), bind=False)
op("squeeze_dims_", "SqueezeBackward5", ("self",),
   lambda a, dim: np.squeeze(a, tuple(d % a.ndim for d in dim if a.shape[d] == 1)) if a.ndim else a[...],
   ("grad unsqueezed at the dims",
    lambda n, g: _unsqueeze_to(g, n._shapes[0], _wrapped(n.attrs["dim"], n._shapes[0]))),
   saves={0: ("dim[]", "self_sym_sizes")}, spell=Spelling(name=_inplace_name("squeeze_")), bind=False)
op("t_", "TBackward1", ("self",), lambda a: a.T, ("gradᵀ", lambda n, g: g.t()), spell=Spelling(name="{0}.t_()"),
   bind=False)


@composite(Spelling(method="unsqueeze_"))
def unsqueeze_(self, dim):
    _, _, attrs, _ = _bind_unsqueeze(self, dim)
    return self._inplace_view(OPS["unsqueeze_"], attrs)


@composite(Spelling(method="squeeze_"))
def squeeze_(self, dim=None):
    op, _, attrs, _ = _bind_squeeze(self, dim)
    name = {"squeeze": "squeeze_all_", "squeeze_dim": "squeeze_", "squeeze_dims": "squeeze_dims_"}[op.name]
    return self._inplace_view(OPS[name], attrs or {})


@composite(Spelling(method=("transpose_", "swapdims_", "swapaxes_")))
def transpose_(self, dim0, dim1):
    _bind_transpose(self, dim0, dim1)
    return self._inplace_view(OPS["transpose_"], {"dim0": dim0, "dim1": dim1})  # as given, as torch keeps them


@composite(Spelling(method="t_"))
def t_(self):
    if self._data.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
    return self._inplace_view(OPS["t_"], {})


def transposed(self):
    """Tensor.T: all dims reversed (PyTorch warns unless the tensor is 2-d)."""
    if self._data.ndim != 2:
        warnings.warn(messages.T_NOT_2D, UserWarning, stacklevel=3)  # transposed, Tensor.T, the caller
    if self._data.ndim < 2:
        return self
    return self.permute(tuple(range(self._data.ndim - 1, -1, -1)))


def matrix_transposed(self, name):
    """Tensor.mT, .mH, .H and .adjoint(): the last two dims swapped, conjugated but for mT (real tensors: no
    conjugate). H takes a matrix
    only; on a 0-d tensor each is the identity, with PyTorch's deprecation warning."""
    n = self._data.ndim
    if n == 0:
        hint = "This function is the identity in these cases." if name == "mT" else "Consider using x.conj()."
        warnings.warn(f"Tensor.{name} is deprecated on 0-D tensors. {hint}", UserWarning, stacklevel=3)
        return self.conj() if name != "mT" and self.dtype.is_complex else self
    if name == "H" and n != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D tensor." +
                           (" For batches of matrices, consider using tensor.mH" if n > 2 else ""))
    if n < 2:
        what = "adjoint()" if name == "adjoint" else name
        raise RuntimeError(f"tensor.{what} is only supported on matrices or batches of matrices. Got {n}-D tensor.")
    swapped = self.transpose(-2, -1)
    return swapped.conj() if name != "mT" and self.dtype.is_complex else swapped


@composite(Spelling(method="adjoint", function="adjoint", out=False))
def adjoint(self):
    return matrix_transposed(self, "adjoint")


op("permute", "PermuteBackward0", ("self",), lambda a, dims: np.transpose(a, dims),
   ("grad permuted back", lambda n, g: g.permute(tuple(np.argsort(n.attrs["dims"]).tolist()))), view=True,
   saves={0: ("dims[]",)},
   spell=method("permute", out=False),
   bind=lambda self, *dims: (OPS["permute"], (self,), {"dims": tuple(self._dim(d) for d in shape_args(dims))},
                             None) if dims else _missing("permute", "dims"))


def _missing(name, argument):
    raise TypeError(f'{name}() missing 1 required positional arguments: "{argument}"')


def _bind_expand(self, *sizes):
    if not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    sizes = shape_args(sizes)
    have = self.shape  # a batched tensor's too (vmap: its sample's)
    lead = len(sizes) - len(have)
    shape = tuple(have[i - lead] if s == -1 else s for i, s in enumerate(sizes))
    for i, s in reversed(list(enumerate(have))):  # ATen's infer_size checks the last dim first
        if s != 1 and s != shape[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({shape[lead + i]}) must match the existing size ({s}) "
                f"at non-singleton dimension {lead + i}.  Target sizes: {list(sizes)}.  "
                f"Tensor sizes: {list(have)}")
    return OPS["expand"], (self,), {"shape": shape}, None


op("expand", "ExpandBackward0", ("self",), lambda a, shape: memory.expand(a, shape),
   ("grad summed over the expanded dims", lambda n, g: g.sum_to_size(n._shapes[0])), view=True,
   saves={0: ("self_sym_sizes",)},
   spell=Spelling(method="expand"), bind=_bind_expand)


@composite(Spelling(method=("movedim", "moveaxis"), function=("movedim", "moveaxis"), out=False))
def movedim(self, source, destination):
    """ATen's movedim: a permute that puts each source dim at its destination, the others in order."""
    n = self._data.ndim
    src = [self._dim(d) for d in (source if isinstance(source, (tuple, list)) else (source,))]
    dst = [self._dim(d) for d in (destination if isinstance(destination, (tuple, list)) else (destination,))]
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(source)} dims) should "
                           f"contain the same number of dims as destination ({list(destination)} dims)")
    for name, ds, given in (("source", src, source), ("destination", dst, destination)):
        given = given if isinstance(given, (tuple, list)) else (given,)
        if len(set(ds)) != len(ds):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(given)})")
    order = [-1] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(i for i in range(n) if i not in src)
    return self.permute(tuple(o if o != -1 else next(rest) for o in order))


def _diagonal(a, offset, dim1, dim2):
    """A writable strided view of the diagonal (numpy's own is read-only), its dim last, as torch places it."""
    dim1, dim2 = dim1 % a.ndim, dim2 % a.ndim
    start = [slice(None)] * a.ndim
    start[dim2 if offset >= 0 else dim1] = slice(abs(offset), None)
    b = a[tuple(start)]
    length = max(min(b.shape[dim1], b.shape[dim2]), 0)
    keep = [d for d in range(a.ndim) if d not in (dim1, dim2)]
    return np.lib.stride_tricks.as_strided(b, tuple(b.shape[d] for d in keep) + (length,),
                                           tuple(b.strides[d] for d in keep) + (b.strides[dim1] + b.strides[dim2],))


def _diagonal_backward(g, shape, offset, dim1, dim2):
    out = np.zeros(shape, dtype=g.dtype)
    _diagonal(out, offset, dim1, dim2)[...] = g
    return out


def _bind_diagonal(self, offset=0, dim1=0, dim2=1):
    if self._dim(dim1) == self._dim(dim2):
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    attrs = {"offset": offset, "dim1": dim1, "dim2": dim2}  # the dims as given, as torch keeps them
    return OPS["diagonal"], (self,), attrs, None


op("diagonal_backward", "DiagonalBackwardBackward0", ("grad",), _diagonal_backward,
   ("grad's diagonal", lambda n, g: g.diagonal(n.attrs["offset"], n.attrs["dim1"], n.attrs["dim2"])),
   saves={0: ("offset", "dim1", "dim2")}, bind=False)
op("diagonal", "DiagonalBackward0", ("self",), _diagonal,
   ("grad placed on the diagonal of zeros",
    lambda n, g: g._op("diagonal_backward", shape=n._shapes[0], **n.attrs)), view=True,
   saves={0: ("offset", "dim1", "dim2", "self_sym_sizes")}, spell=method("diagonal", out=False), bind=_bind_diagonal)


@composite(Spelling(method="expand_as"))
def expand_as(self, other):
    return self.expand(other.shape)


# --- picking parts: select, slice, index ------------------------------------------------------------
# The grad of a part is placed into zeros of the whole; PyTorch names that op after the part's backward
# (SelectBackwardBackward0, …), which is what a graph made with create_graph=True shows.
def _placed(fwd_op):
    def vjp(n, g):
        return g._op(fwd_op, shape=n._shapes[0], **{k: v for k, v in n.attrs.items() if k != "shape"})

    return vjp


def _place_fwd(g, shape, **part):
    out = np.zeros(shape, dtype=g.dtype)
    np.add.at(out, _key_of(part), g)
    return out


def _key_of(part):
    if "key" in part:
        return part["key"]
    if "index" in part:
        return (slice(None),) * part["dim"] + (part["index"],)
    return (slice(None),) * part["dim"] + (slice(part["start"], part["end"], part["step"]),)


op("select_backward", "SelectBackwardBackward0", ("grad",), _place_fwd,
   ("grad at [index]", lambda n, g: g._op("select", dim=n.attrs["dim"], index=n.attrs["index"])))
op("slice_backward", "SliceBackwardBackward0", ("grad",), _place_fwd,
   ("grad's slice", lambda n, g: g._op("slice", **{k: n.attrs[k] for k in ("dim", "start", "end", "step")})))
op("index_put_impl", "IndexPutImplBackward0", ("grad",), _place_fwd,
   ("grad taken at the indices", lambda n, g: g._op("index", key=n.attrs["key"])))


def _bind_select(self, dim, index):
    dim = self._dim(dim)
    size = self._data.shape[dim]
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {list(self.shape)} at dimension {dim}")
    return OPS["select"], (self,), {"dim": dim, "index": index}, None  # the index as given, as torch keeps it


def _select_name(names, attrs):
    return f"{names[0]}[{':, ' * attrs['dim']}{attrs['index']}]"


INT64_MAX = 2**63 - 1  # a slice's end when none is written (`x[1:]`), as ATen keeps it


def _slice_name(names, attrs):
    step = f":{attrs['step']}" if attrs["step"] != 1 else ""
    end = "" if attrs["end"] == INT64_MAX else attrs["end"]
    return f"{names[0]}[{':, ' * attrs['dim']}{attrs['start']}:{end}{step}]"


op("select", "SelectBackward0", ("self",), lambda a, dim, index: a[(slice(None),) * dim + (index, Ellipsis)],
   ("grad placed at [index] in zeros", _placed("select_backward")), view=True,
   saves={0: ("dim", "index", "self_sym_sizes")},
   spell=Spelling(method="select", function="select", out=False, name=_select_name), bind=_bind_select)


def narrow_start(self, dim, start, length):
    """narrow's checks, in ATen's order and words; the start as a non-negative int."""
    if self.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if hasattr(start, "_data"):
        if start.dim() or start.dtype.is_floating_point or start.dtype is dtypes.bool:
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = start.item()
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    size = self.shape[self._dim(dim)]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return start


def _bind_narrow(self, dim, start, length):
    start = narrow_start(self, dim, start, length)
    dim = self._dim(dim)
    return OPS["slice"], (self,), {"dim": dim, "start": start, "end": start + length, "step": 1}, None


op("slice", "SliceBackward0", ("self",),  # start and end as written (x[-2:] keeps -2 and INT64_MAX), as ATen keeps them
   lambda a, dim, start, end, step: a[(slice(None),) * dim + (slice(start, end, step),)],
   ("grad placed in the slice of zeros", _placed("slice_backward")), view=True,
   saves={0: ("dim", "start", "end", "step", "self_sym_sizes")},
   spell=Spelling(method="narrow", function="narrow", out=False, name=_slice_name), bind=_bind_narrow)
op("alias", "AliasBackward0", ("self",), lambda a: a[...], ("grad", lambda n, g: g), view=True,
   spell=Spelling(name="{0}[…]"), bind=False)
op("index", "IndexBackward0", ("self",), lambda a, key, indices=None: indexed(a, key),
   ("grad added at the indices of zeros", _placed("index_put_impl")), saves={0: ("indices", "self_sym_sizes")},
   spell=Spelling(name="{0}[…]"), bind=False)
