"""fractional_max_pool2d/3d (FractionalMaxPool2DBackward0, …3D…): max pooling over windows whose starts are
pseudo-random intervals, one sample in [0, 1) per plane and dim (ATen's FractionalMaxPool2d.cpp / 3d.cpp), with
the adaptive max pools' backward: grad to each window's max, and its grad taken back at those maxima."""
import itertools
import math

import numpy as np

from .conv import zeros_for
from .table import Spelling, op


def intervals(sample, size, out, pool, real):
    """ATen's generate_intervals in the input's own float type: window starts ⌊(i + u) α⌋ − ⌊u α⌋ with
    α = (size − pool) / (out − 1), the last one at size − pool."""
    seq = np.zeros(out, np.int64)
    if out > 1:
        alpha = real(size - pool) / real(out - 1)
        u = real(sample)
        base = int(u * alpha)
        for i in range(out - 1):
            seq[i] = int((real(i) + u) * alpha) - base
    if out > 0:
        seq[out - 1] = size - pool
    return seq


def fractional_indices(x, kernel_size, output_size, samples):
    """The flat index into its plane of each window's max (the first max, or the last NaN, as ATen's
    `val > max || isnan(val)` keeps it). x is (N, C, *spatial), samples (N, C, k), in the order ATen reads them:
    2-d (W, H), 3-d (T, H, W)."""
    k = len(kernel_size)
    spatial = x.shape[2:]
    real = x.dtype.type
    order = (1, 0) if k == 2 else (0, 1, 2)
    out = np.zeros(x.shape[:2] + tuple(output_size), np.int64)
    strides = [int(np.prod(spatial[d + 1:], dtype=np.int64)) for d in range(k)]
    for b, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        plane = x[b, c]
        starts = [intervals(samples[b, c, order[d]], spatial[d], output_size[d], kernel_size[d], real)
                  for d in range(k)]
        for cell in itertools.product(*(range(o) for o in output_size)):
            lo = [starts[d][cell[d]] for d in range(k)]
            window = plane[tuple(slice(s, s + kk) for s, kk in zip(lo, kernel_size))].reshape(-1)
            pick = int(np.argmax(window))
            if x.dtype.kind == "f" and np.isnan(window).any():
                pick = len(window) - 1 - int(np.argmax(np.isnan(window[::-1])))
            local = np.unravel_index(pick, kernel_size)
            out[(b, c) + cell] = sum((s + int(loc)) * st for s, loc, st in zip(lo, local, strides))
    return out


def _flat(a, k):
    """a with its last k dims as one (an empty batch too)."""
    return a.reshape(a.shape[:-k] + (math.prod(a.shape[-k:]),))


def _values(x, result1, kernel_size, output_size):
    k = len(kernel_size)
    idx = result1._data
    return np.take_along_axis(_flat(x, k), _flat(idx, k), axis=-1).reshape(idx.shape)


def _spread(g, x, indices, k):
    """grad added at each window's max (its flat index into the last k dims)."""
    out = np.zeros(_flat(x, k).shape, g.dtype)
    flat_idx = _flat(indices, k)
    lead = np.indices(flat_idx.shape[:-1], sparse=True)
    np.add.at(out, (*(i[..., None] for i in lead), flat_idx), _flat(g, k))
    return out.reshape(x.shape)


def _take(n, g):
    idx, k = n.attrs["indices"], n.attrs["k"]
    flat_idx = _flat(idx, k)
    planes = g.reshape(*g.shape[:-k], math.prod(g.shape[-k:]))
    lead = np.indices(flat_idx.shape[:-1], sparse=True)
    return planes._op("index", key=(*(i[..., None] for i in lead), flat_idx)).reshape(*idx.shape)


for _k in (2, 3):
    op(f"fractional_max_pool{_k}d", f"FractionalMaxPool{_k}DBackward0", ("self",), _values,
       ("grad to each window's max", lambda n, g, k=_k: g._op(f"fractional_max_pool{k}d_backward", n["self"],
                                                             indices=n.attrs["result1"]._data, k=k)),
       saves={0: ("self", "kernel_size", "output_size", "result1")}, bind=False,
       spell=Spelling(name=lambda s, a, k=_k: f"torch.nn.functional.fractional_max_pool{k}d({s[0]}, "
                      f"{tuple(a['kernel_size'])}, output_size={tuple(a['output_size'])}, _random_samples=…)"))
    op(f"fractional_max_pool{_k}d_backward", f"FractionalMaxPool{_k}DBackwardBackward0", ("grad_output", "self"),
       _spread, ("grad at each window's max", _take),
       ("0", lambda n, v: zeros_for(n, 1, v)))
