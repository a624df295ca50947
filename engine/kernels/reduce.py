"""torch.sum / mean / mse_loss on CPU, in the order ATen adds (aten/src/ATen/native/cpu/SumKernel.cpp).

ATen sums floats with a "cascade sum", not numpy's pairwise sum, so the two round differently on the same
inputs. The pieces, as in SumKernel.cpp:

- `multi_row_sum`: rows are added in chunks of 2^p rows (p = max(4, ceil(log2(n)) // 4)) into accumulator
  level 0; each full chunk is carried into level 1, every 2^p chunks level 1 into level 2, and so on for 4
  levels; at the end the leftover rows go into level 0 and the levels are added up (0 + 1, + 2, + 3).
- `row_sum`: the row viewed as (-1, 4) — four interleaved partial sums (instruction-level parallelism),
  each a multi_row_sum; the leftover < 4 elements go into the first; then ((p0 + p1) + p2) + p3.
- contiguous inner reduction (`vectorized_inner_sum`), when the reduced dim has unit stride and at least
  `lanes` elements: the row viewed as vectors of `lanes` elements, row_sum'd lane-wise; then a scalar total
  starts at 0, adds the < `lanes` leftover elements, then each lane in order.
- contiguous outer reduction (`vectorized_outer_sum`, a reduced dim over rows of a unit-stride dim of at
  least `lanes` columns): columns in groups of 4·lanes get a multi_row_sum down the column, the rest a row_sum.
- otherwise scalar loops: row_sum per output (`scalar_inner_sum`), or groups of 4 columns by multi_row_sum and
  the rest by row_sum (`scalar_outer_sum`).
Which loop runs depends on the strides, so this module replays TensorIterator: dimensions sorted with the
reduced ones first (by input stride), neighbours coalesced, 2-d loops over the first two dimensions with the
output accumulated (`out += partial`) in iteration order.

`lanes` is Vectorized<T>::size() of the kernel torch runs: 32 bytes (8 float32, 4 float64) on x86 — the
AVX2 kernel, which AVX-512 machines run too, since sum_stub is registered with REGISTER_DISPATCH (no AVX-512
build) — and on the scalar DEFAULT build; ARM builds use their own width (NEON: 16 bytes).
`threads`: above 32768 elements a full reduction is split across at::get_num_threads() threads (each sums
its slice, the slices' sums are summed); the default 1 is the only setting that is the same on every
machine (and the one the tests' oracle uses). Exact for every size and layout with one thread (the tests
check up to 10⁶ elements); with more threads exact for full reductions whose dims coalesce to one.
"""

import numpy as np

GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE
LANES_BYTES = 32    # Vectorized<T> width of torch's x86 sum kernel


def _fold(x):
    """Sequential left-to-right sum over axis 0 (numpy's own reductions and accumulate are pairwise or slow)."""
    if x.shape[0] == 0:
        return np.zeros(x.shape[1:], x.dtype)
    acc = x[0]
    for row in x[1:]:
        acc = acc + row
    return acc


def _fold_chunks(x, step):
    """Sequential sums of consecutive chunks of `step` rows along axis 0 (x.shape[0] a multiple of step)."""
    g = x.reshape((x.shape[0] // step, step) + x.shape[1:])
    acc = g[:, 0]
    for j in range(1, step):
        acc = acc + g[:, j]
    return acc


def _ceil_log2(n):
    return 1 if n <= 2 else int(n - 1).bit_length()


def multi_row_sum(x):
    """SumKernel.cpp multi_row_sum over axis 0 of x, every other axis an independent lane."""
    n = x.shape[0]
    power = max(4, _ceil_log2(n) // 4)
    step = 1 << power
    full = n // step * step
    if full == 0:
        return _fold(x) + x.dtype.type(0)
    level = _fold_chunks(x[:full], step)   # one sum per full chunk (level 0, carried into level 1)
    partial = []                           # what stays in levels 1 and 2 at the end
    for _ in range(2):
        m = level.shape[0] // step * step
        partial.append(_fold(level[m:]))
        level = _fold_chunks(level[:m], step) if m else level[:0]
    top = _fold(level)                     # level 3 is never carried
    return ((_fold(x[full:]) + partial[0]) + partial[1]) + top


def row_sum(x):
    """SumKernel.cpp row_sum over axis 0: 4 interleaved multi_row_sums, then the leftovers, then combined."""
    n = x.shape[0]
    n4 = n // 4
    p = multi_row_sum(x[:n4 * 4].reshape((n4, 4) + x.shape[1:]))
    p0 = _fold(np.concatenate([p[:1], x[n4 * 4:]])) if n > n4 * 4 else p[0]
    return ((p0 + p[1]) + p[2]) + p[3]


def vectorized_inner_sum(x, lanes):
    """SumKernel.cpp vectorized_inner_sum over axis 0 (unit stride in torch, n >= lanes)."""
    n = x.shape[0]
    nv = n // lanes
    v = row_sum(x[:nv * lanes].reshape((nv, lanes) + x.shape[1:]))
    zero = np.zeros((1,) + x.shape[1:], x.dtype)
    return _fold(np.concatenate([zero, x[nv * lanes:], v]))


def _column_sums(x, kind, lanes):
    """Each column's sum over axis 0 as the 2-d loop `kind` does it; axis 1 is the loop's column axis."""
    if kind == "vec_inner":
        return vectorized_inner_sum(x, lanes)
    if kind == "scalar_inner":
        return row_sum(x)
    group = 4 * lanes if kind == "vec_outer" else 4   # columns summed by multi_row_sum, in groups
    cut = x.shape[1] // group * group
    if cut == x.shape[1]:
        return multi_row_sum(x)
    if cut == 0:
        return row_sum(x)
    return np.concatenate([multi_row_sum(x[:, :cut]), row_sum(x[:, cut:])])


def _loop_kind(size0, size1, in0, in1, itemsize, lanes):
    """Which loop cascade_sum's 2-d body picks (dim 0 reduced; strides in bytes)."""
    if in0 == itemsize and size0 >= lanes:
        return "vec_inner"
    if in1 == itemsize and size1 >= lanes:
        return "vec_outer"
    return "scalar_inner" if in0 < in1 else "scalar_outer"


def _iterator(shape, in_strides, out_strides):
    """TensorIterator's dims for a reduction: reordered (reduced first, then by stride; TensorIterator.cpp
    reorder_dimensions) and coalesced (coalesce_dimensions). Returns, fastest dim first, the shape, the input
    and output strides, and for each dim the tensor dims merged into it."""
    n = len(shape)
    perm = list(range(n - 1, -1, -1))

    def should_swap(d0, d1):
        for strides, is_out in ((out_strides, True), (in_strides, False)):
            s0, s1 = strides[d0], strides[d1]
            if is_out and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    for i in range(1, n):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    sh = [shape[p] for p in perm]
    st = [[in_strides[p] for p in perm], [out_strides[p] for p in perm]]
    groups = [[p] for p in perm]
    prev = 0
    for d in range(1, n):
        if sh[prev] == 1 or sh[d] == 1 or all(sh[prev] * s[prev] == s[d] for s in st):
            if sh[prev] == 1:
                for s in st:
                    s[prev] = s[d]
            sh[prev] *= sh[d]
            groups[prev] += groups[d]
        else:
            prev += 1
            if prev != d:
                for s in st:
                    s[prev] = s[d]
                sh[prev] = sh[d]
                groups[prev] = groups[d]
    k = prev + 1
    return sh[:k], st[0][:k], st[1][:k], groups[:k]


def _dims_of(dim, ndim):
    if dim is None:
        return tuple(range(ndim))
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    if len(dims) == 0:
        return tuple(range(ndim))
    return tuple(sorted({d % ndim for d in dims})) if ndim else ()


def _sum_1d(x, lanes):
    """A 1-d unit-stride sum (what TensorIterator makes of any dense full reduction), specialised for speed;
    the same arithmetic as vectorized_inner_sum / row_sum."""
    n = x.shape[0]
    zero = np.zeros(1, x.dtype)
    if n < lanes:  # scalar row_sum: ((p0 + leftovers) + p1) + p2) + p3, with p = x[0:4] when n >= 4
        order = [0, *range(4, n), 1, 2, 3] if n >= 4 else list(range(n))
        return _fold(np.concatenate([zero, x[order]]))
    nv = n // lanes
    n4 = nv // 4
    p = multi_row_sum(x[:n4 * 4 * lanes].reshape(n4, 4 * lanes)).reshape(4, lanes)
    p0 = p[0]
    for v in range(n4 * 4, nv):
        p0 = p0 + x[v * lanes:(v + 1) * lanes]
    v = ((p0 + p[1]) + p[2]) + p[3]
    return _fold(np.concatenate([zero, x[nv * lanes:], v]))


def _serial_sum(a, dims, lanes):
    """The reduction over `dims` of a (floating, non-negative strides), on one thread, keepdim shape."""
    out_shape = tuple(1 if d in dims else s for d, s in enumerate(a.shape))
    if a.size == 0:
        return np.zeros(out_shape, a.dtype)
    out_strides = [0 if d in dims else s for d, s in enumerate(np.empty(out_shape, a.dtype).strides)]
    sh, ins, outs, groups = _iterator(list(a.shape), list(a.strides), out_strides)
    nred = outs.count(0) if len(sh) > 1 or outs[0] == 0 else 0
    if nred == 0:  # nothing is really reduced (the reduced dims have size 1): out = 0 + x
        return (a + a.dtype.type(0)).reshape(out_shape)
    # numpy view with axis k = iterator dim k (fastest first): transpose slowest-first, merge, reverse
    slow = [d for g in reversed(groups) for d in reversed(g)]
    if len(sh) == 1 and ins[0] == a.itemsize:
        return _sum_1d(a.transpose(slow).reshape(-1), lanes).reshape(out_shape)
    x = a.transpose(slow).reshape(sh[::-1]).transpose(range(len(sh) - 1, -1, -1))
    if len(sh) == 1:
        x = x[:, None]
    size1, in1 = (sh[1], ins[1]) if len(sh) > 1 else (1, 0)
    kind = _loop_kind(sh[0], size1, ins[0], in1, a.itemsize, lanes)
    cols = _column_sums(x, kind, lanes)            # one partial per index of iterator dims 1, 2, ...
    if nred == 1:
        res = cols + a.dtype.type(0)
    else:                                          # dims 1 .. nred-1 reduced too: out += each, in order
        r = np.moveaxis(cols, list(range(nred - 1)), list(range(nred - 2, -1, -1)))
        flat = r.reshape((-1,) + tuple(sh[nred:]))
        res = _fold(np.concatenate([np.zeros((1,) + flat.shape[1:], a.dtype), flat]))
    kept = [d for g in reversed(groups[max(nred, 1):]) for d in reversed(g)]
    if len(sh) == 1:
        kept = []
    rest = [d for d in range(a.ndim) if d not in kept]
    out = np.empty(out_shape, a.dtype)
    view = out.transpose(kept + rest)
    view[...] = res.transpose(range(res.ndim - 1, -1, -1)).reshape(view.shape)
    return out


def sum(a, axis=None, keepdims=False, dtype=None, *, lanes=None, threads=1):
    """torch.sum(a, dim=axis, keepdim=keepdims, dtype=dtype) on CPU, bit for bit (see the module docstring).

    Integer and bool inputs sum exactly in int64 as torch does; float32/float64 follow ATen's cascade order."""
    a = np.asarray(a)
    if dtype is not None:
        a = a.astype(dtype, copy=False)
    elif a.dtype.kind in "biu":
        a = a.astype(np.int64)
    dims = _dims_of(axis, a.ndim)
    if a.dtype.kind not in "fc":
        return np.sum(a, axis=dims, keepdims=keepdims)
    if a.ndim == 0:
        return a + a.dtype.type(0)
    lanes = lanes or LANES_BYTES // a.itemsize
    if len(dims) == a.ndim and a.flags.c_contiguous and (threads == 1 or a.size < GRAIN_SIZE):
        out = _sum_1d(a.reshape(-1), lanes)
        return out.reshape((1,) * a.ndim) if keepdims else out.reshape(())
    if any(s < 0 for s in a.strides):
        a = np.ascontiguousarray(a)
    if threads > 1 and a.size >= GRAIN_SIZE and len(dims) == a.ndim and (a.ndim == 1 or a.flags.c_contiguous):
        out = _threaded_full_sum(a.reshape(-1), lanes, threads).reshape((1,) * a.ndim)
    else:
        out = _serial_sum(a, dims, lanes)
    return out if keepdims else out.reshape([s for d, s in enumerate(out.shape) if d not in dims])


def _threaded_full_sum(a, lanes, threads):
    """TensorIteratorReduce.cpp two_pass_reduction: OpenMP's static split, one partial per thread, summed."""
    n = a.shape[0]
    nt = min(threads, -(-n // GRAIN_SIZE))
    chunk = -(-n // nt)
    parts = np.zeros(threads, a.dtype)
    for t in range(nt):
        parts[t] = _serial_sum(a[t * chunk:(t + 1) * chunk], (0,), lanes)[0]
    return _serial_sum(parts, (0,), lanes)


def mean(a, axis=None, keepdims=False, dtype=None, *, lanes=None, threads=1):
    """torch.mean: ATen's CPU mean is sum(...) then an in-place divide by the count (ReduceOps.cpp mean_out),
    the count rounded to the dtype; an empty reduction gives nan."""
    a = np.asarray(a)
    s = sum(a, axis, keepdims, dtype, lanes=lanes, threads=threads)
    count = 1
    for d in _dims_of(axis, a.ndim):
        count *= a.shape[d]
    with np.errstate(invalid="ignore", divide="ignore"):
        return s / s.dtype.type(count)


def mse_loss(input, target, reduction="mean", *, lanes=None, threads=1):
    """F.mse_loss: (input - target)² elementwise in the dtype (two roundings), then mean or sum as above."""
    d = np.subtract(input, target)
    d = d * d
    if reduction == "none":
        return d
    return sum(d, lanes=lanes, threads=threads) if reduction == "sum" else mean(d, lanes=lanes, threads=threads)
