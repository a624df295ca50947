"""softmax, log_softmax, nll_loss and cross_entropy as torch computes them on CPU (float32, one thread).

aten/src/ATen/native/cpu/SoftMaxKernel.cpp:
- softmax/log_softmax over the last dim (`_vec_softmax_lastdim`, `_vec_log_softmax_lastdim`): per row, the
  max and the sum of exps are vec::reduce_all / map_reduce_all — lane-wise over vectors of 8, the leftover
  elements blended into the first lanes, then the 8 lanes combined as ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7))
  (VecReduceAllSIMD's shuffles); rows shorter than 8 are folded lane by lane. exp and log are SLEEF's.
  softmax = exp(x - max) · (1 / sum); log_softmax = (x - max) - log(sum).
- over another dim (`_vec_softmax`, `_vec_logsoftmax`), with the tensor viewed as (outer, dim, inner): the
  inner columns go 8 at a time down the dim (max, then a sum of SLEEF exps from 0); the last inner % 8
  columns take the scalar loop, whose exp is the C library's (glibc, libm.py). softmax = exp / sum.
aten/src/ATen/native/LossNLL.cpp `nll_loss_out_frame`: -input[b, target[b]] (× weight) summed over the
batch in an 8-level cascade whose levels flush after every element b with b % 16^(j+1) == 0 (16 = 2^p,
p = max(4, ceil(log2 batch) / 8)), then divided by the count (or the summed weights) for 'mean'.
F.cross_entropy with class-index targets is nll_loss(log_softmax(input, 1)).
In the source read, softmax's stubs use REGISTER_DISPATCH, so AVX-512 machines would run this same AVX2
kernel; a build registering an AVX-512 variant would use 16 lanes (not measured: no such machine here, so
the tests gate on an ulp per step off AVX2). Exact here for every shape tried (tests: up to 400 × 20).
"""

import numpy as np

from ..dtypes import round_bfloat16
from . import libm, sleef
from .reduce import _ceil_log2, _fold, _fold_chunks

F = np.float32
LANES = 8


def _maximum(a, b):
    return np.where((a > b) | np.isnan(a), a, b)   # vec::maximum propagates nan


def _combine_lanes(v, op):
    w = op(v[..., :4], v[..., 4:])
    return op(op(w[..., 0], w[..., 2]), op(w[..., 1], w[..., 3]))


def _map_reduce_all(x, fn, op):
    """vec::map_reduce_all over the last axis of x (rows independent); fn is elementwise, so it is applied
    to the whole row at once."""
    n = x.shape[-1]
    v = fn(x)
    if n < LANES:
        acc = v[..., 0]
        for i in range(1, n):
            acc = op(acc, v[..., i])
        return acc
    full = n // LANES
    acc = v[..., :LANES]
    for k in range(1, full):
        acc = op(acc, v[..., k * LANES:(k + 1) * LANES])
    rest = n - full * LANES
    if rest:
        acc = acc.copy()
        acc[..., :rest] = op(acc[..., :rest], v[..., full * LANES:])
    return _combine_lanes(acc, op)


def _identity(v):
    return v


def _lastdim(x, log, reduced=False):
    with np.errstate(all="ignore"):
        m = _map_reduce_all(x, _identity, _maximum)[..., None]
        if log:
            s = _map_reduce_all(x, lambda v: sleef.expf(v - m), np.add)
            if reduced:
                return (x - m) - round_bfloat16(sleef.logf(round_bfloat16(s)))[..., None]
            return (x - m) - sleef.logf(s)[..., None]
        e = sleef.expf(x - m)
        r = F(1) / _map_reduce_all(e, _identity, np.add)
        return e * r[..., None]


def _otherdim(x, dim, log):
    """x viewed as (outer, dim, inner): vector columns down the dim, the inner % 8 last ones scalar."""
    shape = x.shape
    outer = int(np.prod(shape[:dim], dtype=np.int64))
    inner = int(np.prod(shape[dim + 1:], dtype=np.int64))
    v = x.reshape(outer, shape[dim], inner)
    cut = inner - inner % LANES
    with np.errstate(all="ignore"):
        m = v[:, 0]
        for d in range(1, v.shape[1]):
            m = _maximum(m, v[:, d])
        shifted = v - m[:, None]
        e = np.concatenate([sleef.expf(shifted[..., :cut]), libm.expf(shifted[..., cut:])], axis=-1)
        s = _fold(np.concatenate([np.zeros((1, outer, inner), F), np.moveaxis(e, 1, 0)]))
        if log:
            out = shifted - sleef.logf(s)[:, None]
        else:
            out = e / s[:, None]
    return out.reshape(shape)


def _softmax(x, dim, log, reduced=False):
    x = np.ascontiguousarray(x)
    if x.dtype != np.float32:
        raise TypeError("only float32 is modelled")
    if x.ndim == 0:
        return (x - x) if log else np.ones_like(x)
    dim = dim % x.ndim
    if dim == x.ndim - 1:
        return _lastdim(x, log, reduced)
    return _otherdim(x, dim, log)


def softmax(x, dim):
    """torch.softmax(x, dim) for float32."""
    return _softmax(np.asarray(x), dim, log=False)


def log_softmax(x, dim, reduced=False):
    """torch.log_softmax(x, dim) for float32; reduced: of bfloat16 values (held in float32), whose kernel over the
    last dim keeps each row's sum of exps, and its log, in bfloat16 (LogSoftmaxKernelImpl.h's scalar_t buffers)."""
    return _softmax(np.asarray(x), dim, log=True, reduced=reduced)


def _nll_cascade(values, index, batch):
    """LossNLL.cpp's 8-level cascade sum of `values` (taken at batch positions `index`, in order): level j
    is added into level j + 1 and emptied after each element b with b % step^(j+1) == 0."""
    step = 1 << max(4, _ceil_log2(batch) // 8)
    if len(index) == batch:       # nothing ignored: segments are the first element, then runs of `step`
        events, partials = values, []
        for _ in range(7):
            rest = events[1:]
            full = rest.shape[0] // step * step
            partials.append(_fold(rest[full:]))
            events = np.concatenate([events[:1], _fold_chunks(rest[:full], step)]) if full else events[:1]
        partials.append(_fold(events))
    else:
        events, partials, period = list(zip(index, values)), [], 1
        for _ in range(7):
            period *= step
            closed, acc = [], F(0)
            for b, v in events:
                acc = acc + v
                if b % period == 0:
                    closed.append((b, acc))
                    acc = F(0)
            partials.append(acc)
            events = closed
        partials.append(_fold(np.array([v for _, v in events], F)))
    total = F(0)
    for p in partials:
        total = total + p
    return total


def nll_loss(logp, target, weight=None, reduction="mean", ignore_index=-100, reduced=False):
    """F.nll_loss for (N, C) or (C,) float32 log-probabilities and int targets; reduced: of bfloat16 values, whose
    total and total weight are rounded to bfloat16 before the mean divides them."""
    logp = np.asarray(logp, F)
    target = np.asarray(target).reshape(-1)
    rows = logp.reshape(-1, logp.shape[-1])
    keep = target != ignore_index
    safe = np.where(keep, target, 0)
    picked = rows[np.arange(rows.shape[0]), safe]
    w = np.ones_like(picked) if weight is None else np.asarray(weight, F)[safe]
    if reduction == "none":
        out = np.where(keep, -(picked * w) if weight is not None else -picked, F(0))
        return out if logp.ndim == 2 else out[0]
    idx = np.flatnonzero(keep)
    if reduced:
        return _nll_reduced(picked, w if weight is not None else None, keep, reduction)
    losses = -picked[idx] if weight is None else -(picked[idx] * w[idx])
    total = _nll_cascade(losses, idx, rows.shape[0]) if idx.size else F(0)
    if reduction == "sum":
        return np.asarray(total, F)
    count = F(idx.size) if weight is None else (_nll_cascade(w[idx], idx, rows.shape[0]) if idx.size else F(0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(total / count, F)


def _nll_reduced(picked, w, keep, reduction):
    """nll_out_frame's cascade for bfloat16: its partial sums are bfloat16, each subtraction and addition rounded."""
    n = picked.shape[0]
    power = max(4, _ceil_log2(n) // 4)
    mask = (1 << power) - 1
    losses, weights = [F(0)] * 8, [F(0)] * 8
    for b in range(n):
        if not keep[b]:
            continue
        if w is None:
            losses[0] = round_bfloat16(losses[0] - picked[b])
        else:
            losses[0] = round_bfloat16(losses[0] - round_bfloat16(picked[b] * w[b]))
            weights[0] = round_bfloat16(weights[0] + w[b])
        for j in range(7):
            if b & (mask << (j * power)):
                break
            losses[j + 1] = round_bfloat16(losses[j + 1] + losses[j])
            weights[j + 1] = round_bfloat16(weights[j + 1] + weights[j])
            losses[j], weights[j] = F(0), F(0)
    total = F(0)
    for p in losses:
        total = round_bfloat16(total + p)
    if reduction == "sum":
        return np.asarray(total, F)
    count = round_bfloat16(F(np.count_nonzero(keep)))
    if w is not None:
        count = F(0)
        for p in weights:
            count = round_bfloat16(count + p)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(total / count, F)


def cross_entropy(x, target, weight=None, reduction="mean", ignore_index=-100):
    """F.cross_entropy with class-index targets: nll_loss(log_softmax(x, class dim))."""
    x = np.asarray(x, F)
    return nll_loss(log_softmax(x, 0 if x.ndim == 1 else 1), target, weight, reduction, ignore_index)
