"""dot / mv / mm / addmm with a fixed, documented summation order (torch's CPU matmuls are BLAS calls).

What torch 2.13 runs: at::mm/addmm/matmul/F.linear call cpublas::gemm, which for float32/float64 calls the
BLAS sgemm_/dgemm_ (aten/src/ATen/native/CPUBlas.cpp; its own gemm in BlasKernel.cpp only runs in builds
without BLAS); mv/addmv call sgemv_, dot calls sdot_. The x86 wheels link Intel MKL, whose kernels are closed
and chosen at run time by CPU, shape, transposition and data alignment. Measured on this machine (AMD EPYC,
AVX2, MKL 2024.2), per output element:
- at least 4 rows and 12 output columns: a sequential chain of fmas over k (`fused=True`), bias added after;
- fewer columns (≤ 9) with non-transposed operands: a sequential chain of products rounded then added
  (`fused=False`);
- transposed operands (F.linear's weight.t()) with ≤ 10 output columns and k ≥ 4: 4-lane SSE dot products
  whose leftover elements are peeled by data alignment — no fixed order reproduces them from numpy.
An Intel machine runs MKL's AVX-512 kernels instead. So these functions cannot be bit-exact in general:
they give one fixed order, the same on every machine and in Pyodide (where numpy has no BLAS), and the
tests hold them within one rounding per step of torch (k ulps of Σ|aᵢbᵢ| for a length-k dot).
benchmarks/kernels.py prints how often each order matches this machine's torch.
"""

import numpy as np

from .fma import fma64, round32


def _chain(a, b, fused, acc=None):
    """Σ_k a[:, k]·b[k, :] left to right from 0; a: (m, k), b: (k, n)."""
    m, k = a.shape
    n = b.shape[1]
    dt = np.result_type(a, b)
    out = np.zeros((m, n), dt) if acc is None else np.array(np.broadcast_to(acc, (m, n)), dt)
    if not fused:
        for p in range(k):
            out = out + a[:, p:p + 1] * b[p:p + 1, :]
        return out
    if dt == np.float32:   # products are exact in float64: one add and a checked rounding per step
        a64, b64, out = a.astype(np.float64), b.astype(np.float64), out.astype(np.float64)
        for p in range(k):
            out = round32(a64[:, p:p + 1] * b64[p:p + 1, :], out).astype(np.float64)
        return out.astype(np.float32)
    for p in range(k):
        out = fma64(a[:, p:p + 1], b[p:p + 1, :], out)
    return out


def mm(a, b, *, fused=True):
    """a @ b for 2-d float arrays: each element Σ_k a[i,k]·b[k,j] summed from 0 in order of k; one fma per
    step (`fused`) or the product rounded, then added."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind != "f":
        return a @ b
    return _chain(a, b, fused)


def addmm(bias, a, b, *, beta=1, alpha=1, fused=True):
    """torch.addmm(bias, a, b) = beta·bias + alpha·(a @ b), as BLAS gemm with C = bias: the product summed
    from 0 as in `mm`, then added to the bias (one rounding)."""
    a, b = np.asarray(a), np.asarray(b)
    prod = mm(a, b, fused=fused)
    if alpha != 1:
        prod = prod * prod.dtype.type(alpha)
    bias = np.asarray(bias, prod.dtype)
    if beta == 0:
        return prod
    if beta != 1:
        bias = bias * prod.dtype.type(beta)
    return prod + bias


def mv(a, v, *, fused=True):
    """a @ v (matrix · vector) in the order of `mm`."""
    return mm(a, np.asarray(v)[:, None], fused=fused)[:, 0]


def dot(x, y, *, fused=True):
    """x · y for 1-d arrays, Σ from 0 in order (BLAS sdot starts from +0)."""
    return mm(np.asarray(x)[None, :], np.asarray(y)[:, None], fused=fused)[0, 0]


def matmul(a, b, *, fused=True):
    """torch.matmul for float arrays of any rank ≥ 1: 1-d operands are promoted as torch does, batch dims
    broadcast, and every 2-d product is `mm`."""
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b, fused=fused)
    if a.ndim == 1:
        return matmul(a[None, :], b, fused=fused)[..., 0, :]
    if b.ndim == 1:
        return matmul(a, b[:, None], fused=fused)[..., 0]
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b, fused=fused)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:]).reshape((-1,) + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:]).reshape((-1,) + b.shape[-2:])
    out = np.stack([mm(x, y, fused=fused) for x, y in zip(a, b)])
    return out.reshape(batch + out.shape[-2:])
