"""Rearranging and assembling tensors: roll, rot90, flips by side, tile, atleast_nd, the stacks, tensor_split and
h/v/dsplit, broadcasting, meshgrid, cartesian_prod, combinations, block_diag, diag/diag_embed/diagflat, unfold,
the *_scatter ops (a region replaced), tril/triu_indices; built as ATen builds them (the same nodes)."""
import itertools
import math

import numpy as np

from .. import dtypes, messages
from .table import OPS, Spelling, composite, op, result_dtype, shape_args


def _list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _tensors(args):
    """A function's tensors, given as separate arguments or as one list/tuple."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


# --- roll ----------------------------------------------------------------------------------------------------
def _roll(a, shifts, dims):
    if not dims:
        return np.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
    return np.roll(a, shifts, dims)


def _bind_roll(self, shifts, dims=()):
    shifts, dims = tuple(_list(shifts)), tuple(_list(dims))
    if not shifts:
        raise RuntimeError("`shifts` required")
    if self.dim() == 0 and dims:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    if not dims and len(shifts) != 1 or dims and len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    for d in dims:
        self._dim(d)
    return OPS["roll"], (self,), {"shifts": shifts, "dims": dims}, None


op("roll", "RollBackward0", ("self",), _roll,
   ("grad rolled back", lambda n, g: g.roll(tuple(-s for s in n.attrs["shifts"]), n.attrs["dims"])),
   saves={0: ("dims[]", "shifts[]")}, spell=Spelling(method="roll", function="roll", out=False), bind=_bind_roll)


# --- rot90: flips and a transpose, as ATen turns it (a quarter turn is a non-contiguous transpose) ------------
def _rot90(a, k, dims):
    d0, d1 = (d % a.ndim for d in dims)
    k %= 4
    if k == 1:
        return np.swapaxes(np.flip(a, d1).copy(), d0, d1)
    if k == 2:
        return np.flip(a, (d0, d1)).copy()
    if k == 3:
        return np.swapaxes(np.flip(a, d0).copy(), d0, d1)
    return a.copy()


def _bind_rot90(self, k=1, dims=(0, 1)):
    dims = tuple(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if self.dim() < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {self.dim()}")
    if self._dim(dims[0]) == self._dim(dims[1]):
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
    return OPS["rot90"], (self,), {"k": k, "dims": dims}, None


op("rot90", "Rot90Backward0", ("self",), _rot90,
   ("grad turned back", lambda n, g: g.rot90(-n.attrs["k"], n.attrs["dims"])),
   saves={0: ("dims[]", "k")}, spell=Spelling(method="rot90", function="rot90", out=False), bind=_bind_rot90)


@composite(Spelling(method="fliplr", function="fliplr", out=False))
def fliplr(self):
    if self.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return self.flip(1)


@composite(Spelling(method="flipud", function="flipud", out=False))
def flipud(self):
    if self.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return self.flip(0)


@composite(Spelling(method="tile", function="tile", out=False))
def tile(self, *dims):
    dims = shape_args(dims)
    if len(dims) < self.dim():
        dims = (1,) * (self.dim() - len(dims)) + dims
    return self.repeat(dims)


# --- atleast_nd and the stacks ---------------------------------------------------------------------------------
def _atleast(fn):
    def call(*tensors):
        ts = _tensors(tensors)
        out = [fn(t) for t in ts]
        return out[0] if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)) else tuple(out)

    return call


def _1d(t):
    return t.reshape(1) if t.dim() == 0 else t


def _2d(t):
    return t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t


def _3d(t):
    n = t.dim()
    if n == 0:
        return t.reshape(1, 1, 1)
    if n == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if n == 2 else t


for _name, _fn in (("atleast_1d", _1d), ("atleast_2d", _2d), ("atleast_3d", _3d)):
    _call = _atleast(_fn)
    _call.__name__ = _call.__qualname__ = _name
    composite(Spelling(function=_name, out=False))(_call)


def _stacked(name, dim_of, shape):
    def call(tensors):
        ts = [shape(t) for t in _tensors((tensors,))]
        if not ts:
            raise RuntimeError(f"{name} expects a non-empty TensorList")
        op_, inputs, attrs, dtype = OPS["cat"].bind(ts, dim_of(ts))
        return ts[0]._apply(op_, inputs, attrs, dtype)

    call.__name__ = call.__qualname__ = name
    return call


for _name, _dim, _shape in (("hstack", lambda ts: 0 if ts[0].dim() == 1 else 1, _1d),
                            ("vstack", lambda ts: 0, _2d), ("row_stack", lambda ts: 0, _2d),
                            ("dstack", lambda ts: 2, _3d),
                            ("column_stack", lambda ts: 1, lambda t: t.reshape(t.numel(), 1) if t.dim() <= 1 else t)):
    composite(Spelling(function=_name))(_stacked(_name, _dim, _shape))


@composite(Spelling(method="ravel", function="ravel", out=False))
def ravel(self):
    return self.contiguous().view(-1)


# --- tensor_split, hsplit, vsplit, dsplit: narrow views --------------------------------------------------------
def _pieces(self, bounds, dim):
    size = self.shape[dim]
    out = []
    for start, end in zip(bounds[:-1], bounds[1:]):
        start, end = min(max(start, 0), size), min(max(end, 0), size)
        out.append(self._apply(OPS["slice"], (self,), {"dim": dim, "start": start, "end": max(end, start),
                                                        "step": 1}))
    return tuple(out)


@composite(Spelling(method="tensor_split", function="tensor_split", out=False))
def tensor_split(self, indices_or_sections, dim=0):
    if self.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = self._dim(dim)
    size = self.shape[d]
    if hasattr(indices_or_sections, "_data"):
        t = indices_or_sections
        if t.dtype is not dtypes.int64:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{t.dtype.type_name}")
        if t.dim() > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {t.dim()} dims")
        indices_or_sections = t.item() if t.dim() == 0 else t.tolist()
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        small, extra = divmod(size, n)
        bounds = [0]
        for i in range(n):
            bounds.append(bounds[-1] + small + (i < extra))
    else:
        indices = [int(i) for i in indices_or_sections]
        bounds = [0] + [i + size if i < 0 else i for i in indices] + [size]
    return _pieces(self, bounds, d)


def _split_sides(name, dim_of, least):
    def call(self, indices_or_sections):
        if self.dim() < least:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor "
                               f"with {self.dim()} dimensions!")
        dim = dim_of(self)
        if isinstance(indices_or_sections, int):
            size = self.shape[dim]
            if indices_or_sections == 0 or size % indices_or_sections:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                                   f"dimension {size} is not divisible by the split_size {indices_or_sections}!")
        return tensor_split(self, indices_or_sections, dim)

    call.__name__ = call.__qualname__ = name
    composite(Spelling(method=name, function=name, out=False))(call)


_split_sides("hsplit", lambda t: 1 if t.dim() > 1 else 0, 1)
_split_sides("vsplit", lambda t: 0, 2)
_split_sides("dsplit", lambda t: 2, 3)


@composite(Spelling(method="split_with_sizes", function="split_with_sizes", out=False))
def split_with_sizes(self, split_sizes, dim=0):
    return self.split(list(split_sizes), dim)


# --- broadcasting ----------------------------------------------------------------------------------------------
@composite(Spelling(method="broadcast_to", function="broadcast_to", out=False))
def broadcast_to(self, size):
    return self.expand(tuple(size))


@composite(Spelling(function="broadcast_tensors", out=False))
def broadcast_tensors(*tensors):
    ts = _tensors(tensors)
    shape = tuple(np.broadcast_shapes(*(tuple(t.shape) for t in ts)))
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in ts)


@composite(Spelling(function="meshgrid", out=False))
def meshgrid(*tensors, indexing=None):
    ts = _tensors(tensors)
    if indexing is None:
        messages.warn_once("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                           "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in ts:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: " + str(t))
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        out.append(t.view(*view).expand(shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


@composite(Spelling(function="cartesian_prod", out=False))
def cartesian_prod(*tensors):
    ts = _tensors(tensors)
    for t in ts:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(*ts, indexing="ij")
    return _stack([g.flatten() for g in grids], 1)


def _stack(ts, dim):
    op_, inputs, attrs, dtype = OPS["stack"].bind(ts, dim)
    return ts[0]._apply(op_, inputs, attrs, dtype)


@composite(Spelling(function="combinations", out=False))
def combinations(self, r=2, with_replacement=False):
    if self.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(self.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return self._new(np.zeros(0, self.dtype.np), self.dtype)
    n = self.numel()
    grids = meshgrid(*([self] * r), indexing="ij")
    idx = np.indices((n,) * r)
    mask = np.ones((n,) * r, bool)
    for a, b in itertools.pairwise(idx):
        mask &= (a <= b) if with_replacement else (a < b)
    mask_t = self._new(mask, dtypes.bool)
    return _stack([g.masked_select(mask_t) for g in grids], 1)


# --- block_diag ------------------------------------------------------------------------------------------------
def _as_2d(shape):
    return (1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else tuple(shape)


def _block_diag(*arrays):
    shapes = [_as_2d(a.shape) for a in arrays]
    out = np.zeros((sum(s[0] for s in shapes), sum(s[1] for s in shapes)),
                   dtype=np.result_type(*arrays) if arrays else np.float32)
    r = c = 0
    for a, (h, w) in zip(arrays, shapes):
        out[r:r + h, c:c + w] = a.reshape(h, w)
        r, c = r + h, c + w
    return out


def _block_grad(n, g, i):
    shapes = [_as_2d(s) for s in n._shapes]
    r = sum(s[0] for s in shapes[:i])
    c = sum(s[1] for s in shapes[:i])
    h, w = shapes[i]
    return g.narrow(0, r, h).narrow(1, c, w).reshape(n._shapes[i])


def _bind_block_diag(*tensors):
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    return OPS["block_diag"], tuple(tensors), None, result_dtype(tensors) if tensors else dtypes.float32


def _block_diag_numel(arrays, attrs):
    shapes = [(1, 1) if a.ndim == 0 else (1, a.shape[0]) if a.ndim == 1 else a.shape for a in arrays]
    return sum(s[0] for s in shapes) * sum(s[1] for s in shapes)


op("block_diag", "BlockDiagBackward0", ("tensors",), _block_diag, ("grad's block i", _block_grad), variadic=True,
   numel=_block_diag_numel,
   spell=Spelling(function="block_diag", out=False, name=lambda s, a: f"torch.block_diag({', '.join(s)})"),
   bind=_bind_block_diag)


# --- diag_embed, diag, diagflat ---------------------------------------------------------------------------------
def _diag_embed(a, offset, dim1, dim2):
    n = a.shape[-1] + abs(offset) if a.ndim else abs(offset) + 1
    nd = a.ndim + 1
    d1, d2 = dim1 % nd, dim2 % nd
    rest = list(a.shape[:-1])
    shape = []
    it = iter(rest)
    for d in range(nd):
        shape.append(n if d in (d1, d2) else next(it))
    out = np.zeros(shape, a.dtype)
    _diagonal_view(out, offset, d1, d2)[...] = a
    return out


def _diagonal_view(a, offset, dim1, dim2):
    return OPS["diagonal"].forward(a, offset, dim1, dim2)


def _bind_diag_embed(self, offset=0, dim1=-2, dim2=-1):
    nd = self.dim() + 1
    if self._dim(dim1, nd) == self._dim(dim2, nd):
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return OPS["diag_embed"], (self,), {"offset": offset, "dim1": dim1, "dim2": dim2}, None


op("diag_embed", "DiagEmbedBackward0", ("self",), _diag_embed,
   ("grad's diagonal", lambda n, g: g.diagonal(n.attrs["offset"], n.attrs["dim1"], n.attrs["dim2"])),
   saves={0: ("dim1", "dim2", "offset")}, spell=Spelling(method="diag_embed", function="diag_embed", out=False),
   bind=_bind_diag_embed,
   numel=lambda arrays, attrs: math.prod(arrays[0].shape[:-1]) * (arrays[0].shape[-1] + abs(attrs["offset"])) ** 2)


@composite(Spelling(method="diag", function="diag"))
def diag(self, diagonal=0):
    if self.dim() == 1:
        return self.diag_embed(diagonal)
    if self.dim() == 2:
        _, inputs, attrs, dtype = OPS["diagonal"].bind(self, diagonal)
        return self._apply(OPS["diagonal_copy"], inputs, attrs, dtype)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.dim()}D")


@composite(Spelling(method="diagflat", function="diagflat", out=False))
def diagflat(self, offset=0):
    return self.contiguous().view(-1).diag_embed(offset)


# --- unfold: a view of the windows along a dim ---------------------------------------------------------------
def _unfold(a, dimension, size, step):
    if a.ndim == 0:
        return a.reshape(1)
    d = dimension % a.ndim
    n = (a.shape[d] - size) // step + 1
    shape = a.shape[:d] + (n,) + a.shape[d + 1:] + (size,)
    strides = a.strides[:d] + (a.strides[d] * step,) + a.strides[d + 1:] + (a.strides[d],)
    return np.lib.stride_tricks.as_strided(a, shape, strides)


def _unfold_backward(g, shape, dim, size, step):
    """The grad of each window added back where the window came from."""
    if not shape:
        return g.reshape(())
    out = np.zeros(shape, g.dtype)
    d = dim % len(shape)
    for w in range(g.shape[d]):
        window = [slice(None)] * len(shape)
        window[d] = slice(w * step, w * step + size)
        out[tuple(window)] += np.moveaxis(np.take(g, w, axis=d), -1, d)
    return out


def _unfold_numel(shape, dimension, size, step):
    if not shape:
        return 1
    n = shape[dimension % len(shape)]
    return math.prod(shape) // max(n, 1) * ((n - size) // step + 1) * size


def _bind_unfold(self, dimension, size, step):
    d = self._dim(dimension)
    length = self.shape[d] if self.dim() else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return OPS["unfold"], (self,), {"dimension": dimension, "size": size, "step": step}, None


op("unfold_backward", "UnfoldBackwardBackward0", ("grad",), _unfold_backward,
   ("grad's windows", lambda n, g: g.unfold(n.attrs["dim"], n.attrs["size"], n.attrs["step"])),
   saves={0: ("dim", "size", "step")}, bind=False)
op("unfold", "UnfoldBackward0", ("self",), _unfold,
   ("grad of each window added back in place",
    lambda n, g: g._op("unfold_backward", shape=n._shapes[0], dim=n.attrs["dimension"], size=n.attrs["size"],
                       step=n.attrs["step"])), view=True,
   saves={0: ("dimension", "self_sym_sizes", "size", "step")}, spell=Spelling(method="unfold"), bind=_bind_unfold,
   numel=lambda arrays, attrs: _unfold_numel(arrays[0].shape, **attrs))


# --- select_scatter, slice_scatter, diagonal_scatter: self with a region replaced by src -------------------------
def _scatter_into(region):
    def forward(a, src, **attrs):
        out = a.copy()
        region(out, **attrs)[...] = src
        return out

    return forward


def _select_region(a, dim, index):
    return a[(slice(None),) * (dim % a.ndim) + (index, Ellipsis)]


def _slice_region(a, dim, start, end, step):
    return a[(slice(None),) * (dim % a.ndim) + (slice(start, end, step),)]


def _scatter_op(name, node, region, view_method, attrs_of, saves, shown):
    def self_grad(n, g):
        zeros = g._new(np.zeros(n._shapes[1], g.dtype.np), g.dtype)
        return getattr(g, name)(zeros, **n.attrs)

    def src_grad(n, g):
        return view_method(g, **n.attrs)

    def bind(self, src, *args, **kwargs):
        try:
            attrs = attrs_of(self, *args, **kwargs)
        except TypeError as e:  # worded as a call of the function itself
            raise TypeError(name + "()" + str(e).split("()", 1)[1]) from None
        expected = tuple(np.shape(region(np.empty(self.shape, np.int8), **attrs)))
        if tuple(src.shape) != expected:
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{list(src.shape)}, slice size = {list(expected)}")
        return OPS[name], (self, src), attrs, result_dtype((self,))

    op(name, node, ("self", "src"), _scatter_into(region),
       ("grad with the region zeroed", self_grad), ("grad's region", src_grad),
       saves={0: saves, 1: saves}, bind=bind,
       spell=Spelling(method=name, function=name, out=name == "slice_scatter",
                      name=lambda s, a: f"{s[0]}.{name}({s[1]}, {', '.join(repr(a[k]) for k in shown)})"))


def _select_attrs(self, dim, index):
    return {"dim": self._dim(dim), "index": index}


def _slice_attrs(self, dim=0, start=None, end=None, step=1):
    return {"dim": self._dim(dim), "start": start, "end": end, "step": step}


def _diagonal_attrs(self, offset=0, dim1=0, dim2=1):
    return {"offset": offset, "dim1": dim1, "dim2": dim2}


_scatter_op("select_scatter", "SelectScatterBackward0", _select_region, lambda g, dim, index: g.select(dim, index),
            _select_attrs, ("dim", "index"), ("dim", "index"))
_scatter_op("slice_scatter", "SliceScatterBackward0", _slice_region,
            lambda g, dim, start, end, step: g[(slice(None),) * dim + (slice(start, end, step),)],
            _slice_attrs, ("dim", "end", "start", "step"), ("dim", "start", "end", "step"))
_scatter_op("diagonal_scatter", "DiagonalScatterBackward0", _diagonal_view,
            lambda g, offset, dim1, dim2: g.diagonal(offset, dim1, dim2), _diagonal_attrs,
            ("dim1", "dim2", "offset"), ("offset", "dim1", "dim2"))
