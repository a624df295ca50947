"""select_scatter, slice_scatter, diagonal_scatter: self with a region replaced by src, with ATen's nodes and
derivatives."""

import numpy as np

from .diagonals import _diagonal_view
from .table import OPS, Spelling, op, result_dtype


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
