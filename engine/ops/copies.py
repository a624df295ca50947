"""The view ops' copying twins (`torch.expand_copy`, `torch.t_copy`, …, `torch.narrow_copy`): the view's result as
a new contiguous tensor, with the view's derivative; PyTorch names their nodes after the view's (`TBackward0_copy`).
"""
import re

import numpy as np

from ..messages import argument_error
from . import arranging, pieces, views  # noqa: F401 - the views, declared before their twins
from .table import OPS, Spelling, composite, op


def _copied(forward, several):
    if several:
        return lambda *a, **k: tuple(np.array(p, copy=True, order="C") for p in forward(*a, **k))
    return lambda *a, **k: np.array(forward(*a, **k), copy=True, order="C")


def _twin(view, node=None):
    """The copying twin of a view op, under the same name + `_copy`."""
    v = OPS[view]
    return op(view + "_copy", node or v.node + "_copy", v.args, _copied(v.forward, v.several), *v.grads,
              saves=v.saves, several=v.several, bind=False, numel=v.numel)


_MISSING = re.compile(r"\w+\(\) missing \d+ required positional argument")


def _through(view_name, user_name, bind):
    """x.<name>_copy(…): the view's bind, then its twin."""
    def call(self, *args, **kwargs):
        try:
            op_, inputs, attrs, dtype = bind(self, *args, **kwargs)
        except TypeError as e:
            if not _MISSING.match(str(e)):  # not the bind's own arguments
                raise
            raise argument_error(user_name + "_copy", False, e) from None
        return self._apply(OPS[op_.name + "_copy"], inputs, attrs, dtype)

    call.__name__ = call.__qualname__ = user_name + "_copy"
    composite(Spelling(function=user_name + "_copy"))(call)


for _view in ("view", "expand", "diagonal", "permute", "t", "squeeze", "squeeze_dim", "unsqueeze", "transpose",
              "select", "unfold", "alias", "unbind", "split_with_sizes"):
    _twin(_view)


def _bind_narrow_copy(self, dim, start, length):
    """ATen's narrow_copy_dense_cpu_out: narrow's checks in other words (a dim too large, a negative length)."""
    if self.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if hasattr(start, "_data"):
        return _bind_narrow_copy(self, dim, views.narrow_start(self, dim, start, length), length)
    if dim >= self.dim():
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an enhancement request to "
                           "PyTorch.)")
    dim = self._dim(dim)
    size = self.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start = start + size if start < 0 else start
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return OPS["narrow_copy"], (self,), {"dim": dim, "start": start, "length": length}, None


op("narrow_copy", "NarrowCopyBackward0", ("self",),
   lambda a, dim, start, length: a[(slice(None),) * dim + (slice(start, start + length),)].copy(),
   ("grad placed in the slice of zeros",
    lambda n, g: g._op("slice_backward", shape=n._shapes[0], dim=n.attrs["dim"], start=n.attrs["start"],
                       end=n.attrs["start"] + n.attrs["length"], step=1)),
   saves={0: ("dim", "length", "self_sym_sizes", "start")},
   spell=Spelling(method="narrow_copy", function="narrow_copy"), bind=_bind_narrow_copy)

for _view, _user in (("view", "view"), ("expand", "expand"), ("diagonal", "diagonal"), ("permute", "permute"),
                     ("t", "t"), ("squeeze", "squeeze"), ("unsqueeze", "unsqueeze"), ("transpose", "transpose"),
                     ("select", "select"), ("unfold", "unfold")):
    _through(_view, _user, OPS[_view].bind)


@composite(Spelling(function="alias_copy"))
def alias_copy(self):
    return self._apply(OPS["alias_copy"], (self,))


@composite(Spelling(function="unbind_copy"))
def unbind_copy(self, dim=0):
    return self._apply(OPS["unbind_copy"], (self,), {"dim": pieces._checked_dim(self, dim)})


@composite(Spelling(function="split_with_sizes_copy"))
def split_with_sizes_copy(self, split_sizes, dim=0):
    sizes = [int(k) for k in split_sizes]
    dim = pieces._checked_dim(self, dim)
    if sum(sizes) != self.shape[dim] or any(k < 0 for k in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {self.shape[dim]} (input tensor's "
                           f"size at dimension {dim}), but got split_sizes={sizes}")
    return self._apply(OPS["split_with_sizes_copy"], (self,), {"dim": dim, "split_sizes": sizes})
