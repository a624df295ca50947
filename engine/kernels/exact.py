"""float32 matrix products that are the same on every machine: each element is Σ aᵢ·bᵢ rounded once.

torch's float32 matmul is a BLAS call whose summation order depends on the CPU (see blas.py), and so would
numpy's: a program printed different digits served and in Pyodide. Here the result is defined by the
mathematics, not by a BLAS: each element is the exact sum of its products, correctly rounded to float32.

How it is computed at BLAS speed: float32 products are exact in float64, so a float64 product C = A @ B is
within E = k·2⁻⁵¹·Σ|aᵢbᵢ| ≤ k·2⁻⁵¹·‖a‖·‖b‖ of the exact sums, whatever order the BLAS took. Where C − E and
C + E round to the same float32, that float32 is the answer. The few elements where they do not (about 1 in
1,000 for k = 512) are summed again together in long double under the same kind of bound, and what that cannot
decide is summed exactly with `math.fsum`. Cost: a float64 product where a float32
one would do, and the casts (`benchmarks/engine.py` prints it).
"""
import math

import numpy as np

_F32 = np.dtype(np.float32)
_SMALL = 4096  # m·k·n up to which the products are summed by numpy directly


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
    A, B = a.astype(np.float64), b.astype(np.float64)
    if k <= 1:
        return np.matmul(A, B).astype(np.float32)
    if a.ndim == 2 and b.ndim == 2 and a.shape[0] * k * b.shape[1] <= _SMALL:
        out = _decided(A, B, k)
        if out is not None:
            return out
    if a.ndim == 2 and b.ndim == 2 and a.shape[0] * k * b.shape[1] <= _SMALL:  # no BLAS call: its set-up costs more
        products = A[:, :, None] * B[None, :, :]
        c = products.sum(1)
        bound = np.abs(products).sum(1)
    else:  # Σ|aᵢbᵢ| ≤ ‖a‖·‖b‖ (Cauchy–Schwarz): a looser bound than |A| @ |B|, for one product fewer
        c = np.matmul(A, B)
        bound = np.sqrt(np.einsum("...ik,...ik->...i", A, A))[..., :, None] * \
            np.sqrt(np.einsum("...kj,...kj->...j", B, B))[..., None, :]
    bound *= k * 2.0 ** -51
    lo = (c - bound).astype(np.float32)
    hi = (c + bound).astype(np.float32)
    out = lo
    unsure = lo != hi
    if unsure.any():
        finite = np.isfinite(c)
        out = np.where(finite, out, c.astype(np.float32))
        idx = np.argwhere(unsure & finite)
        if len(idx):
            a_rows = np.broadcast_to(A, c.shape[:-2] + A.shape[-2:])
            b_cols = np.swapaxes(np.broadcast_to(B, c.shape[:-2] + B.shape[-2:]), -1, -2)
            products = a_rows[tuple(idx[:, :-1].T)] * b_cols[tuple(np.concatenate([idx[:, :-2], idx[:, -1:]], 1).T)]
            for n, value in _wide_sums(products):
                out[tuple(idx[n])] = value
    return out


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


def _wide_sums(products):
    """(row, float32) for each row of exact products: summed in long double (64-bit significand where the
    platform has it) all at once, checked by the same bound; the rows it cannot decide are summed exactly."""
    wide = products.astype(np.longdouble)
    s = wide.sum(1)
    bound = np.abs(wide).sum(1) * np.longdouble(products.shape[1] * 2 * np.finfo(np.longdouble).eps)
    lo, hi = (s - bound).astype(np.float32), (s + bound).astype(np.float32)
    for n in range(len(products)):
        yield n, lo[n] if lo[n] == hi[n] else _sum32(products[n])


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
