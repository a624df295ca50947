"""torch's float32 (and float64) CPU arithmetic as pure numpy functions, so the engine rounds as torch does.

Each function names the ATen kernel it replays and the sizes for which it is bit-exact; the defaults
match torch 2.13's x86 build on an AVX2 machine with one thread (the tests' oracle). What would differ
elsewhere is said where it matters (vector width, FMA, threads, MKL). Modules, bottom up:

fma         correctly rounded fused multiply-add for float32/float64 (numpy has none)
reduce      sum, mean, mse_loss: ATen's cascade sum through TensorIterator's dim order (exact)
ranges      linspace, arange: the factories' fma-based fills (exact)
arith       add/sub with alpha, addcmul, addcdiv, lerp: the fused roundings of the optimizers' updates (exact)
sleef       SLEEF's u10 float32 functions (exp, log, sinh, cosh, tanh, expm1, log1p), AVX2 variant (exact)
libm        glibc's expf, expm1f, sinhf, coshf, logf: torch's scalar loops (exact vs glibc 2.36)
elementwise unary ops with torch's vector/scalar split; MKL VML ops as correctly rounded (within 1 ulp)
logits      softmax, log_softmax, nll_loss, cross_entropy (exact)
blas        dot, mv, mm, addmm, matmul in a fixed order (MKL's own order is not reproducible; ≤ a few ulps)
exact       float32 matrix products correctly rounded: the same on every machine and BLAS

Imports numpy only; runs in Pyodide.
"""

from .arith import add, addcdiv, addcmul, lerp, sub
from .blas import addmm, dot, matmul, mm, mv
from .elementwise import (
                          acos,
                          asin,
                          atan,
                          cos,
                          cosh,
                          erf,
                          erfc,
                          exp,
                          expm1,
                          log,
                          log1p,
                          log2,
                          log10,
                          rsqrt,
                          sigmoid,
                          silu,
                          sin,
                          sinh,
                          sqrt,
                          tan,
                          tanh,
                          vec_exp,
)
from .fma import fma, fma32, fma64
from .logits import cross_entropy, log_softmax, nll_loss, softmax
from .ranges import arange, linspace, logspace
from .reduce import mean, mse_loss, sum

__all__ = ["acos", "add", "addcdiv", "addcmul", "addmm", "arange", "asin", "atan", "cos", "cosh", "cross_entropy",
           "dot", "erf", "erfc", "exp", "expm1", "fma", "fma32", "fma64", "lerp", "linspace", "log", "log10",
           "log1p", "log2", "log_softmax", "logspace", "matmul", "mean", "mm", "mse_loss", "mv", "nll_loss", "rsqrt",
           "sigmoid", "silu", "sin", "sinh", "softmax", "sqrt", "sub", "sum", "tan", "tanh", "vec_exp"]
