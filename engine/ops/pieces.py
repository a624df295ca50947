"""Ops with several outputs: unbind, split, chunk and their unsafe twins (one node, an output per piece)."""
import numpy as np

from .. import memory
from .table import OPS, Spelling, composite, op


def _bounds(size, split_size):
    return list(range(split_size, size, split_size)) if split_size > 0 else []


def _unbind(a, dim):
    return tuple(np.moveaxis(a, dim, 0))


def _split(a, dim, split_size):
    return tuple(np.split(a, _bounds(a.shape[dim], split_size), axis=dim)) if a.shape[dim] else (a[...],)


def _unsafe_split(a, dim, split_size):
    """split's pieces, each a copy of its own laid out as torch's: the strides of the input they were cut from."""
    return tuple(memory.strided_copy(p) for p in _split(a, dim, split_size))


def _split_with_sizes(a, dim, split_sizes):
    return tuple(np.split(a, np.cumsum(split_sizes)[:-1], axis=dim))


def _filled(n, grads):
    """The grads of every output, zeros where none arrived (as ATen's split_backward fills them); a node of one
    output gets its grad alone."""
    grads = grads if isinstance(grads, tuple) else (grads,)
    present = next(g for g in grads if g is not None)
    return [g if g is not None else present._new(np.zeros(shape, present.dtype.np), present.dtype)
            for g, shape in zip(grads, _piece_shapes(n))]


def _piece_shapes(n):
    shape = n._shapes[0]
    dim = n.attrs["dim"] % len(shape)
    if n._op.name.startswith("unbind"):
        return [shape[:dim] + shape[dim + 1:]] * shape[dim]
    sizes = n.attrs.get("split_sizes") or [min(n.attrs["split_size"], shape[dim] - s)
                                           for s in range(0, shape[dim], n.attrs["split_size"])] or [0]
    return [shape[:dim] + (k,) + shape[dim + 1:] for k in sizes]


def _stacked(n, grads):
    pieces = _filled(n, grads)
    return pieces[0]._op("stack", *pieces[1:], dim=n.attrs["dim"])


def _catted(n, grads):
    pieces = _filled(n, grads)
    return pieces[0]._op("cat", *pieces[1:], dim=n.attrs["dim"])


def _nr(attrs):
    """The output a label names: `x.unbind(0)[1]` (the tracer gives each output its own node)."""
    return f"[{attrs['output']}]" if "output" in attrs else ""


op("unbind", "UnbindBackward0", ("self",), _unbind, ("the grads stacked along dim", _stacked), view=True,
   several=True, saves={0: ("dim",)}, bind=False,
   spell=Spelling(name=lambda s, a: f"{s[0]}.unbind({a['dim']}){_nr(a)}"))
for _name, _node, _view, _fwd in (("split", "SplitBackward0", True, _split),
                                  ("unsafe_split", "UnsafeSplitBackward0", False, _unsafe_split)):
    op(_name, _node, ("self",), _fwd, ("the grads joined along dim", _catted), view=_view, several=True,
       saves={0: ("dim", "self_sym_sizes", "split_size")},
       spell=Spelling(name=lambda s, a, f=_name: f"{s[0]}.{f}({a['split_size']}, {a['dim']}){_nr(a)}"), bind=False)
op("split_with_sizes", "SplitWithSizesBackward0", ("self",), _split_with_sizes,
   ("the grads joined along dim", _catted), view=True, several=True,
   saves={0: ("dim", "self_sym_sizes", "split_sizes[]")},
   spell=Spelling(name=lambda s, a: f"{s[0]}.split({list(a['split_sizes'])}, {a['dim']}){_nr(a)}"), bind=False)


def _checked_dim(self, dim):
    """dim, checked; kept as given (torch's node keeps -1 as -1)."""
    if self.dim() == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    self._dim(dim)
    return dim


@composite(Spelling(method="unbind", function="unbind", out=False))
def unbind(self, dim=0):
    return self._apply(OPS["unbind"], (self,), {"dim": _checked_dim(self, dim)})


def _split_by(name, self, split_size, dim):
    dim = _checked_dim(self, dim)
    size = self.shape[dim]
    if isinstance(split_size, (list, tuple)):
        sizes = [int(k) for k in split_size]
        if sum(sizes) != size or any(k < 0 for k in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
                               f"at dimension {dim}), but got split_sizes={sizes}")
        return self._apply(OPS["split_with_sizes"], (self,), {"dim": dim, "split_sizes": sizes})
    if split_size < 0 or split_size == 0 and size != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
                           if split_size == 0 else
                           f"split expects split_size be non-negative, but got split_size={split_size}")
    return self._apply(OPS[name], (self,), {"dim": dim, "split_size": split_size})


@composite(Spelling(method="split", function="split", out=False))
def split(self, split_size_or_sections, dim=0):
    return _split_by("split", self, split_size_or_sections, dim)


@composite(Spelling(method="unsafe_split", function="unsafe_split", out=False))
def unsafe_split(self, split_size, dim=0):
    return _split_by("unsafe_split", self, split_size, dim)


def _chunk_size(self, chunks, dim):
    """ATen's chunk: pieces of ⌈size / chunks⌉ (an empty dim: `chunks` empty pieces, as split_with_sizes)."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    size = self.shape[_checked_dim(self, dim)]
    return -(-size // chunks) if size else [0] * chunks


@composite(Spelling(method="chunk", function="chunk", out=False))
def chunk(self, chunks, dim=0):
    return _split_by("split", self, _chunk_size(self, chunks, dim), dim)


@composite(Spelling(method="unsafe_chunk", function="unsafe_chunk", out=False))
def unsafe_chunk(self, chunks, dim=0):
    return _split_by("unsafe_split", self, _chunk_size(self, chunks, dim), dim)
