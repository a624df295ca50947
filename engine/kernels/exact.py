"""float32 matrix products that are the same on every machine: each element is Σ aᵢ·bᵢ rounded once.

torch's float32 matmul is a BLAS call whose summation order depends on the CPU (see blas.py), and so would
numpy's: a program printed different digits served and in Pyodide. Here the result is defined by the
mathematics, not by a BLAS: each element is the exact sum of its products, correctly rounded to float32.

How it is computed at BLAS speed: float32 products are exact in float64, so a float64 product C = A @ B is
within E = k·2⁻⁵¹·Σ|aᵢbᵢ| ≤ k·2⁻⁵¹·‖a‖·‖b‖ of the exact sums, whatever order the BLAS took. Where C − E and
C + E round to the same float32, that float32 is the answer. The few elements where they do not (about 1 in
1,000 for k = 512) are summed again from their products: in pairs in float64 (a bound of log₂ k roundings instead
of k), then what that cannot decide (or decides to be zero) in long double, and the rest exactly with `math.fsum`.
Cost: a float64 product where a float32 one would do, and about a third more for the casts and the bound
(`benchmarks/engine.py` prints the MLP against the same MLP on float64 products).
"""
import math

import numpy as np

_F32 = np.dtype(np.float32)
_SMALL = 4096  # m·k·n up to which the products are summed by numpy directly
_KEPT = 1 << 22  # bytes: a temporary up to this size is made in memory kept for the next product (18 MB at most)
_kept = []  # the memory of those temporaries, while no product is using it


def matmul(a, b):
    """a @ b with numpy's matmul broadcasting; float32 operands give the correctly rounded float32 result."""
    if a.dtype is not _F32 and a.dtype != _F32 or b.dtype is not _F32 and b.dtype != _F32:
        return np.matmul(a, b)
    vec_a, vec_b = a.ndim == 1, b.ndim == 1
    a2 = a[None, :] if vec_a else a
    b2 = b[:, None] if vec_b else b
    out = _rounded(a2, b2)
    if not out.flags.c_contiguous:  # numpy's where and sums follow the operands' order; BLAS writes row-major
        out = np.ascontiguousarray(out)
    if vec_a:
        out = out[..., 0, :]
    if vec_b:
        out = out[..., 0]
    return out


def _rounded(a, b):
    k = a.shape[-1]
    if k <= 1:
        return np.matmul(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
    if a.ndim == 2 and b.ndim == 2 and a.shape[0] * k * b.shape[1] <= _SMALL:  # no BLAS call: its set-up costs more
        A, B = a.astype(np.float64), b.astype(np.float64)
        out = _decided(A, B, k)
        if out is not None:
            return out
        products = A[:, :, None] * B[None, :, :]
        c = products.sum(1)
        bound = np.abs(products).sum(1)
        return _resolved(a, b, c, bound, k, {})
    kept = _kept.pop() if _kept else {}  # a product started meanwhile (another thread, a __del__) takes fresh memory
    try:
        A, B = _wide(kept, "a", a), _wide(kept, "b", b)
        c = np.matmul(A, B, out=_temporary(kept, "c", np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) +
                                           (a.shape[-2], b.shape[-1]), np.float64))
        # Σ|aᵢbᵢ| ≤ ‖a‖·‖b‖ (Cauchy–Schwarz): a looser bound than |A| @ |B|, for one product fewer
        bound = np.multiply(np.sqrt(np.einsum("...ik,...ik->...i", A, A))[..., :, None],
                            np.sqrt(np.einsum("...kj,...kj->...j", B, B))[..., None, :],
                            out=_temporary(kept, "bound", c.shape, np.float64))
        return _resolved(a, b, c, bound, k, kept)
    finally:
        if not _kept:
            _kept.append(kept)


def _temporary(kept, slot, shape, dtype):
    """An uninitialised array for one of a product's temporaries, in memory kept for the next product when it is
    small enough: fresh megabytes come from the system page by page each time, costing as much as
    the float64 product itself."""
    size = math.prod(shape) * np.dtype(dtype).itemsize
    if size > _KEPT:
        return np.empty(shape, dtype)
    held = kept.get(slot)
    if held is None or held.nbytes < size:
        held = kept[slot] = np.empty(max(size, 1), np.uint8)
    return held[:size].view(dtype).reshape(shape)


def _wide(kept, slot, x):
    """x as float64 in the same memory order (the BLAS call, and so where a nan comes out, is as for x.astype)."""
    if x.flags.c_contiguous:
        wide = _temporary(kept, slot, x.shape, np.float64)
    elif x.ndim == 2 and x.flags.f_contiguous:
        wide = _temporary(kept, slot, x.shape[::-1], np.float64).T
    else:
        return x.astype(np.float64)
    np.copyto(wide, x)
    return wide


def _resolved(a, b, c, bound, k, kept):
    """The float32 answer from C = A @ B in float64 and the bound of its error: C ± E where they round alike, the
    rest summed again."""
    bound *= k * 2.0 ** -51
    out = np.subtract(c, bound, out=np.empty(c.shape, np.float32))  # float64 difference, rounded to float32
    hi = np.add(c, bound, out=_temporary(kept, "hi", c.shape, np.float32))
    unsure = np.flatnonzero(_differ(out, hi))
    if len(unsure):
        idx = np.unravel_index(unsure, c.shape)
        values = c[idx]
        finite = np.isfinite(values)
        if not finite.all():
            nonfinite = tuple(i[~finite] for i in idx)
            out[nonfinite] = values[~finite].astype(np.float32)
            idx = tuple(i[finite] for i in idx)
        if len(idx[0]):
            a_rows = np.broadcast_to(a, c.shape[:-2] + a.shape[-2:])
            b_cols = np.swapaxes(np.broadcast_to(b, c.shape[:-2] + b.shape[-2:]), -1, -2)
            products = np.multiply(a_rows[idx[:-1]], b_cols[idx[:-2] + idx[-1:]], dtype=np.float64,
                                   out=np.empty((len(idx[0]), k)))
            lo, hi = _pairwise(products)
            sure = (lo == hi) & (lo != 0)  # a zero is left to the wide sums, which give its sign
            out[tuple(i[sure] for i in idx)] = lo[sure]
            rest = ~sure
            if rest.any():
                out[tuple(i[rest] for i in idx)] = _wide_sums(products[rest])
    return out


def _differ(lo, hi):
    """Where two float32 arrays are not the same float: by value (so nan too), and −0 against +0 (a sum that cancels
    to zero with a bound below the least float32 has C − E at −0: its sign is decided by summing again)."""
    return (lo != hi) | (lo.view(np.int32) != hi.view(np.int32))


def _decided(A, B, k):
    """The small product in one step, or None: C = A @ B in float64 (any summation order) is within
    E = k·2⁻⁵¹·(|A| @ |B|) of the exact sums; where every C − E and C + E round to the same float32 (same bits),
    that is the correctly rounded result. It is not taken where some element's products are all zero (the sign
    of a zero sum depends on the order it is summed in) or a bound is nan; an infinite bound makes C − E and
    C + E differ."""
    c = A.dot(B)
    if not c.size:
        return None
    bound = np.abs(A).dot(np.abs(B))
    bound *= k * 2.0 ** -51
    lo = (c - bound).astype(np.float32)
    if lo.tobytes() != (c + bound).astype(np.float32).tobytes() or not np.minimum.reduce(bound, None) > 0:
        return None
    return lo


def _pairwise(products):
    """The float32 below and above each row's exact sum, from its float64 sum in pairs (in a tree of depth
    d = ⌈log₂ k⌉, which errs by less than d·2⁻⁵³·Σ|aᵢbᵢ|; the bound takes d + 2 for the rounding of that sum
    and of the sum ± bound)."""
    k = products.shape[1]
    depth = (k - 1).bit_length()
    s = products
    if k < 1 << depth:
        s = np.zeros((len(products), 1 << depth))
        s[:, :k] = products
    while s.shape[1] > 1:
        half = s.shape[1] // 2
        s = s[:, :half] + s[:, half:]
    s = s[:, 0]
    bound = np.abs(products).sum(1)
    bound *= (depth + 2) * 2.0 ** -52
    return (s - bound).astype(np.float32), (s + bound).astype(np.float32)


def _wide_sums(products):
    """The float32 of each row of exact products: summed in long double (64-bit significand where the platform
    has it) all at once, checked by the same bound; the rows it cannot decide are summed exactly."""
    wide = products.astype(np.longdouble)
    s = wide.sum(1)
    bound = np.abs(wide).sum(1) * np.longdouble(products.shape[1] * 2 * np.finfo(np.longdouble).eps)
    lo, hi = (s - bound).astype(np.float32), (s + bound).astype(np.float32)
    for n in np.flatnonzero(_differ(lo, hi)):
        lo[n] = _sum32(products[n])
    return lo


def _sum32(products):
    """The exact sum of float64 numbers, rounded once to float32."""
    terms = products.tolist()
    r = math.fsum(terms)
    f = np.float32(r)
    if not math.isfinite(r) or float(f) == r:
        return f
    below, above = (f, np.nextafter(f, np.float32(np.inf))) if float(f) < r else \
        (np.nextafter(f, np.float32(-np.inf)), f)
    mid = (float(below) + float(above)) / 2  # exact in float64
    if r != mid:
        return f
    rest = math.fsum(terms + [-r])  # the sign of what rounding r to float64 dropped decides the tie
    if rest > 0:
        return above
    if rest < 0:
        return below
    return f
