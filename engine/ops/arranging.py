"""Rearranging tensors: roll, rot90, flips by side, tile, atleast_nd, the stacks, ravel, tensor_split, h/v/dsplit,
split_with_sizes, unfold (a view of the windows along a dim); built as ATen builds them (the same nodes)."""
import math

import numpy as np

from .. import dtypes
from .table import OPS, Spelling, composite, op, shape_args


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
    if not dims:
        raise TypeError('tile() missing 1 required positional arguments: "dims"')
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
        if hasattr(tensors, "_data"):
            raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
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
    composite(Spelling(method=name, function=name, out=False,
                       signatures=("(Tensor input, int sections)", "(Tensor input, tuple of ints indices)")))(call)


_split_sides("hsplit", lambda t: 1 if t.dim() > 1 else 0, 1)
_split_sides("vsplit", lambda t: 0, 2)
_split_sides("dsplit", lambda t: 2, 3)


@composite(Spelling(method="split_with_sizes", function="split_with_sizes", out=False))
def split_with_sizes(self, split_sizes, dim=0):
    return self.split(list(split_sizes), dim)


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
