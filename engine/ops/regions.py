"""Writes into a region of a tensor: copy_, index assignment, and in-place ops on views.

PyTorch records them as CopySlices on the base (engine/graph.py): outside the written region the grad goes to
the base's old grad_fn, inside it through the inner op's node; a view of a base written in place becomes an
AsStridedBackward0 of the base. `region` is a function from the base's array to the view's array.
"""
import numpy as np

from .. import memory
from .table import OPS, Spelling, op


def region_grad(node, grad):
    """CopySlices: the written region's grad goes through the inner op, the rest to the old base."""
    region = node._region
    inner = node._inner._apply(grad._op("take_region", region=region))
    base = None
    if node._need[0]:
        base = grad._op("zero_region", region=region)
        if inner[0] is not None:
            base = base + inner[0]._op("put_region", region=region, shape=node._shapes[0])
    return (base,) + inner[1:]


class ConjugatedRegion:
    """The region of a view whose chain holds conjugate views (an odd number of them): it reads the base's values
    conjugated; `geometry` is the numpy view of the base's memory it covers, where writes go (conjugated)."""
    __slots__ = ("geometry",)

    def __init__(self, geometry):
        self.geometry = geometry

    def __call__(self, a):
        return np.conjugate(self.geometry(a))


def view_region(parent, forward=None, attrs=None, conj=False):
    """The region of a view made by forward(attrs) (or by conj) of a view whose region is parent (None: the base)."""
    geometry = parent.geometry if isinstance(parent, ConjugatedRegion) else parent
    if conj:
        step = geometry if geometry is not None else (lambda a: a)
    elif geometry is None:
        step = (lambda a: forward(a, **attrs)) if attrs else forward
    else:
        step = lambda a: forward(geometry(a), **(attrs or {}))  # noqa: E731
    return ConjugatedRegion(step) if isinstance(parent, ConjugatedRegion) != conj else step


def _written(region, out, values):
    if isinstance(region, ConjugatedRegion):
        region.geometry(out)[...] = np.conjugate(values)
    else:
        region(out)[...] = values


def _zero_region_fwd(g, region):
    out = g.copy()
    _written(region, out, 0)
    return out


def _put_region_fwd(g, region, shape):
    out = np.zeros(shape, dtype=g.dtype)
    _written(region, out, g)
    return out


op("copy", "CopyBackwards", ("self", "src"), lambda a, src: np.broadcast_to(src, a.shape),
   ("0", lambda n, g: g * 0),
   ("grad of the written region", lambda n, g: g), spell=Spelling(inplace="copy_"),
   bind=lambda self, src: (OPS["copy"], (self, src), None, self.dtype))  # copy_ casts to self's dtype
op("index_put", "IndexPutBackward0", ("self", "values"), None,
   ("grad with the indexed entries zeroed", lambda n, g: g._op("zero_region", region=n.attrs["region"])),
   ("grad at the indices", lambda n, g: g._op("take_region", region=n.attrs["region"])),
   saves={0: ("indices", "accumulate"), 1: ("indices", "accumulate")})
op("as_strided", "AsStridedBackward0", ("base",), None,
   ("grad placed in the view's region of zeros",
    lambda n, g: g._op("put_region", region=n.attrs["region"], shape=n._shapes[0])),
   saves={0: ("size[]", "stride[]", "storage_offset")})
op("zero_region", "CopySlicesBackward0", ("grad",), _zero_region_fwd,
   ("grad with the region zeroed", lambda n, g: g._op("zero_region", region=n.attrs["region"])))
op("take_region", "AsStridedBackward1", ("grad",), lambda g, region: np.array(region(g)),
   ("grad placed in the region of zeros",
    lambda n, g: g._op("put_region", region=n.attrs["region"], shape=n._shapes[0])))
op("put_region", "AsStridedScatterBackward0", ("grad",), _put_region_fwd,
   ("grad taken from the region", lambda n, g: g._op("take_region", region=n.attrs["region"])))


# --- as_strided: a view of the input's storage with the sizes, strides and offset given ---------------------------
def _storage_index(size, stride, offset):
    """The storage positions of a geometry's elements, in its shape."""
    index = np.full(tuple(size), offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        index = index + (np.arange(n, dtype=np.int64) * s).reshape(shape)
    return index


def _as_strided_fwd(a, size, stride, storage_offset, start):
    """The view of a's storage (a begins at storage position `start`)."""
    delta, item = (start if storage_offset is None else storage_offset) - start, a.itemsize
    origin = np.lib.stride_tricks.as_strided(a, (abs(delta) + 1,), (item if delta >= 0 else -item,))[abs(delta):]
    return np.lib.stride_tricks.as_strided(origin, tuple(size), tuple(s * item for s in stride))


def _as_strided_backward_fwd(g, size, stride, storage_offset, into, storage):
    """The grad summed into the storage at the view's positions, read back at the input's geometry `into`."""
    buf = np.zeros(storage, dtype=g.dtype)
    np.add.at(buf, _storage_index(size, stride, storage_offset).ravel(), g.ravel())
    return buf[_storage_index(*into)]


def _as_strided_grad(n, g):
    a = n.attrs
    offset = a["start"] if a["storage_offset"] is None else a["storage_offset"]
    return g._op("as_strided_backward", size=a["size"], stride=a["stride"], storage_offset=offset,
                 into=a["into"], storage=a["storage"])


op("as_strided_backward", "AsStridedBackward0", ("grad",), _as_strided_backward_fwd,
   ("grad summed into the view's storage positions, read at self's",
    lambda n, g: g._op("as_strided_backward", size=n.attrs["into"][0], stride=n.attrs["into"][1],
                       storage_offset=n.attrs["into"][2], storage=n.attrs["storage"],
                       into=(n.attrs["size"], n.attrs["stride"], n.attrs["storage_offset"]))), bind=False,
   numel=lambda arrays, a: a["storage"] + int(np.prod(a["into"][0])))


def _check_geometry(size, stride, offset, storage, item):
    """as_strided's checks of a geometry against a storage of `storage` elements, with torch's texts."""
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    need = 0 if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if need > storage:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {item} requiring a storage size of {need * item} are out of bounds for storage "
                           f"of size {storage * item}")


def _bind_as_strided(self, size, stride, storage_offset=None):
    size, stride = tuple(size), tuple(stride)
    offset = self.storage_offset() if storage_offset is None else storage_offset
    root = self._base if self._base is not None else self
    storage = root._data.size
    _check_geometry(size, stride, offset, storage, self._data.itemsize)
    into = (self._data.shape, self.stride(), self.storage_offset())
    attrs = {"size": size, "stride": stride, "storage_offset": storage_offset, "start": self.storage_offset(),
             "into": into, "storage": storage}
    return OPS["as_strided_view"], (self,), attrs, None


op("as_strided_view", "AsStridedBackward0", ("self",),
   lambda a, size, stride, storage_offset, start, into, storage: _as_strided_fwd(a, size, stride, storage_offset,
                                                                                 start),
   ("grad summed into self's storage at the view's positions", _as_strided_grad), view=True,
   numel=lambda arrays, a: int(np.prod(a["size"])),
   saves={0: ("size[]", "stride[]", "storage_offset")},
   spell=Spelling(method="as_strided", function="as_strided", out=False,
                  name=lambda s, a: f"{s[0]}.as_strided({list(a['size'])}, {list(a['stride'])}"
                                    + ("" if a["storage_offset"] is None else f", {a['storage_offset']}") + ")"),
   bind=_bind_as_strided)


# --- as_strided_copy, as_strided_scatter: as_strided's geometry copied out of, or written into, a copy ------------
def _bind_as_strided_copy(self, size, stride, storage_offset=None):
    _, inputs, attrs, dtype = _bind_as_strided(self, size, stride, storage_offset)
    return OPS["as_strided_copy"], inputs, attrs, dtype


op("as_strided_copy", "AsStridedBackward0_copy", ("self",),
   lambda a, size, stride, storage_offset, start, into, storage: np.ascontiguousarray(
       _as_strided_fwd(a, size, stride, storage_offset, start)),
   ("grad summed into self's storage at the view's positions", _as_strided_grad),
   numel=lambda arrays, a: int(np.prod(a["size"])),
   saves={0: ("size[]", "stride[]", "storage_offset")},
   spell=Spelling(function="as_strided_copy"), bind=_bind_as_strided_copy)


def _scatter_positions(size, stride, storage_offset):
    return _storage_index(size, stride, storage_offset or 0).ravel()


def _as_strided_scatter(a, src, size, stride, storage_offset):
    """A copy of a (its layout kept where dense, as clone keeps it) with src written at the geometry's positions
    of the copy's storage."""
    layout = memory.strides(a) if a.size and memory.is_dense(a) else memory.contiguous_strides(a.shape)
    storage = np.empty(a.size, a.dtype)
    out = np.lib.stride_tricks.as_strided(storage, a.shape, [s * a.itemsize for s in layout])
    out[...] = a
    storage[_scatter_positions(size, stride, storage_offset)] = np.broadcast_to(src, size).ravel()
    return out


def _bind_as_strided_scatter(self, src, size, stride, storage_offset=None):
    size, stride = tuple(size), tuple(stride)
    _check_geometry(size, stride, storage_offset or 0, self._data.size, self._data.itemsize)
    if tuple(src.shape) != size:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(size)}")
    attrs = {"size": size, "stride": stride, "storage_offset": storage_offset}
    return OPS["as_strided_scatter"], (self, src), attrs, self.dtype


def _scatter_self_grad(n, g):
    """ATen's as_strided_scatter_backward: zeros of self's size holding grad's values at the geometry's positions
    (torch's formula, though the written positions do not reach self; see its Note [as_strided_scatter backward
    support])."""
    a = n.attrs
    taken = g.contiguous().as_strided(a["size"], a["stride"], a["storage_offset"] or 0)
    zeros = g._new(np.zeros(g.shape, g.dtype.np), g.dtype)
    return zeros.as_strided_scatter(taken, a["size"], a["stride"], a["storage_offset"])


op("as_strided_scatter", "AsStridedScatterBackward0", ("self", "src"), _as_strided_scatter,
   ("zeros holding grad at the written positions (ATen's as_strided_scatter_backward)", _scatter_self_grad),
   ("grad at the written positions",
    lambda n, g: g.contiguous().as_strided(n.attrs["size"], n.attrs["stride"], n.attrs["storage_offset"] or 0)),
   saves={0: ("size[]", "stride[]", "storage_offset"), 1: ("size[]", "stride[]", "storage_offset")},
   spell=Spelling(method="as_strided_scatter", function="as_strided_scatter", out=False),
   bind=_bind_as_strided_scatter)
