"""torch's float32 elementwise math on CPU (aten/src/ATen/native/cpu/UnaryOpsKernel.cpp and vml.h).

Which code computes an element depends on the op — measured by calling the candidates in torch's own
library (libtorch_cpu exports the MKL and SLEEF symbols):

1. MKL VML (vmsSin, vmsLn, ... in VML_HA mode, through at::vml) for sin, cos, tan, exp, log, log2, log10,
   sqrt, tanh, atan, asin, acos, erf, erfc on x86 builds with MKL: 100% of torch's bits on this machine.
   VML is closed and picks its code by CPU (an Intel machine gave the correctly rounded sqrt where this
   AMD EPYC's VML does not), so it cannot be replayed from numpy. These functions return the correctly
   rounded result (`correctly_rounded`: float64, then one rounding), which is what VML's "high
   accuracy" mode approximates to < 1 ulp: so within 1 ulp of torch everywhere, and bit-equal far
   more often than numpy's own float32 loops (benchmarks/kernels.py prints the rates). float64 inputs
   go through the same VML in double.
2. at::vml ops that MKL does not take (expm1, log1p: commented out of vml.h's MKL list) run SLEEF on every
   element (vec::map loads the last, partial vector): exact.
3. `cpu_kernel_vec` ops (sigmoid, silu, sinh, cosh, rsqrt): a contiguous run of n elements is
   done in blocks of 2 vectors (16 float32) by torch's Vectorized<float> — SLEEF for the transcendental
   part — and the last n % 16 by the scalar lambda, i.e. the C library (glibc). `vectorised_split`
   reproduces that split; the SLEEF part is exact (sleef.py), the glibc part is exact for expf,
   sinhf, coshf (libm.py), so sigmoid, silu, sinh and cosh are exact.
Only float32 is modelled; float64 inputs get the correctly rounded float64 result (VML's double, SLEEF's
*d4 functions and glibc's double functions are all within an ulp of it).
"""

import math

import numpy as np

from . import libm, sleef

F = np.float32
BLOCK = 16  # 2 × Vectorized<float>::size() on AVX2: vectorized_loop's step


def vectorised_split(a, vector, scalar, block=BLOCK):
    """Apply `vector` where torch's vectorized_loop runs Vectorized ops and `scalar` on its scalar tail.

    A C-contiguous array is one run (TensorIterator coalesces it), so its last size % block elements are
    scalar; an array whose last dim alone is unit-stride is one run per row; any other layout takes the
    scalar path everywhere (basic_loop)."""
    a = np.asarray(a)
    if a.ndim == 0:
        return scalar(a.reshape(1)).reshape(())
    if a.flags.c_contiguous:
        rows = a.reshape(1, -1)
    elif a.strides[-1] == a.itemsize:
        rows = a.reshape(-1, a.shape[-1])
    else:
        return scalar(a.reshape(-1)).reshape(a.shape)
    n = rows.shape[1]
    cut = n - n % block
    out = np.empty(rows.shape, a.dtype)
    if cut:
        out[:, :cut] = vector(rows[:, :cut])
    if cut < n:
        out[:, cut:] = scalar(rows[:, cut:])
    return out.reshape(a.shape)


def correctly_rounded(f64_fn, a):
    """f64_fn evaluated in float64 and rounded once to the input's dtype (float64 inputs: f64_fn itself)."""
    a = np.asarray(a)
    with np.errstate(all="ignore"):
        if a.dtype == np.float32:
            return f64_fn(a.astype(np.float64)).astype(F)
        return f64_fn(a)


def _f32_only(vector, scalar, f64_fn):
    def op(a):
        a = np.asarray(a)
        if a.dtype == bool:  # numpy would compute in float16
            a = a.astype(F)
        if a.dtype != np.float32:
            return correctly_rounded(f64_fn, a)
        with np.errstate(all="ignore"):
            return vectorised_split(a, vector, scalar)
    return op


def _sigmoid_vec(a):
    return F(1) / (sleef.expf(F(0) - a) + F(1))


def _sigmoid_scalar(a):
    return F(1) / (F(1) + libm.expf(-a))


def _sigmoid64(a):
    return 1.0 / (1.0 + np.exp(-a))


sigmoid = _f32_only(_sigmoid_vec, _sigmoid_scalar, _sigmoid64)
sigmoid.__doc__ = """torch.sigmoid: 1 / (1 + exp(-x)) with SLEEF's exp on vector blocks, glibc's on the tail."""
sinh = _f32_only(sleef.sinhf, libm.sinhf, np.sinh)
sinh.__doc__ = """torch.sinh: SLEEF sinhf_u10 on vector blocks, glibc sinhf on the tail."""
cosh = _f32_only(sleef.coshf, libm.coshf, np.cosh)
cosh.__doc__ = """torch.cosh: SLEEF coshf_u10 on vector blocks, glibc coshf on the tail."""
silu = _f32_only(lambda a: a / (F(1) + sleef.expf(-a)), lambda a: a / (F(1) + libm.expf(-a)),
                 lambda a: a / (1.0 + np.exp(-a)))
silu.__doc__ = """F.silu: x / (1 + exp(-x)) (ATen's SiLUKernel), SLEEF's exp on vector blocks, glibc's on the tail."""
vec_exp = _f32_only(sleef.expf, libm.expf, np.exp)
vec_exp.__doc__ = """exp inside a `cpu_kernel_vec` body (elu_backward's exp(x·input_scale)): Vectorized<float>::exp is
SLEEF's expf_u10 on vector blocks, the scalar lambda's std::exp glibc's on the tail (torch.exp itself is VML)."""
expm1 = _f32_only(sleef.expm1f, sleef.expm1f, np.expm1)
expm1.__doc__ = """torch.expm1: SLEEF expm1f_u10 on every element (at::vml's vec::map, partial last vector)."""
log1p = _f32_only(sleef.log1pf, sleef.log1pf, np.log1p)
log1p.__doc__ = """torch.log1p: SLEEF log1pf_u10 on every element (at::vml's vec::map, partial last vector)."""


def rsqrt(a):
    """torch.rsqrt: 1 / sqrt(x) with two roundings (Vectorized rsqrt is _mm256_div_ps(1, _mm256_sqrt_ps),
    the scalar lambda 1 / std::sqrt) — exact on every CPU."""
    a = np.asarray(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        return a.dtype.type(1) / np.sqrt(a)


def _vml(f64_fn, name):
    def op(a):
        return correctly_rounded(f64_fn, a)
    op.__name__ = name
    op.__doc__ = (f"torch.{name}: MKL VML (closed, per-CPU) in torch; here the correctly rounded result, "
                  "within 1 ulp of torch's.")
    return op


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x) if np.size(x) else np.asarray(x, np.float64)


def _erfc(x):
    return np.vectorize(math.erfc, otypes=[np.float64])(x) if np.size(x) else np.asarray(x, np.float64)


sin, cos, tan = _vml(np.sin, "sin"), _vml(np.cos, "cos"), _vml(np.tan, "tan")
exp, log = _vml(np.exp, "exp"), _vml(np.log, "log")
log2, log10, sqrt = _vml(np.log2, "log2"), _vml(np.log10, "log10"), _vml(np.sqrt, "sqrt")
tanh, atan = _vml(np.tanh, "tanh"), _vml(np.arctan, "atan")
asin, acos = _vml(np.arcsin, "asin"), _vml(np.arccos, "acos")
erf, erfc = _vml(_erf, "erf"), _vml(_erfc, "erfc")
