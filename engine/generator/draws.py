"""The distributions of PyTorch's CPU generator, value for value: aten/src/ATen/core/DistributionsHelper.h and
TransformationHelper.h (the transforms), aten/src/ATen/native/cpu/DistributionTemplates.h (the kernels),
aten/src/ATen/native/TensorFactories.cpp (randperm).

Each function returns a new numpy array shaped like `like`, the array the values go into. Element-wise kernels
(torch's cpu_serial_kernel over a TensorIterator) draw in the order of `like`'s memory, which for a view is not
its logical order; `normal_` takes a vectorised path only for contiguous float tensors of 16 or more elements.

CPU_CAPABILITY is the kernel build torch dispatches to: "AVX2" or "AVX512" (x86-64 machines: GCC fuses a * b + c,
and normal_ uses the Cephes log/sincos of avx_mathfun.h in both builds) or "DEFAULT" (ATEN_CPU_CAPABILITY=default:
no fusing but where the code calls std::fma; libm float functions in normal_).
"""
import math

import numpy as np

from .. import dtypes
from ..kernels.fma import fma32, fma64
from .floats import log256_ps, sincos256_ps

CPU_CAPABILITY = "AVX2"

LARGE_PERM = 0xFFFFFFFF // 20
F24 = np.uint64((1 << 24) - 1)
F53 = np.uint64((1 << 53) - 1)


def _fused():
    return CPU_CAPABILITY != "DEFAULT"


def _muladd(a, b, c, dtype, fused=None):
    """a * b + c as the kernel computes it: fused when GCC built it for AVX2/AVX512 (or the code calls fma)."""
    if _fused() if fused is None else fused:
        return fma64(a, b, c) if dtype == np.float64 else fma32(a, b, c)
    return (np.asarray(a, dtype) * dtype.type(b) + dtype.type(c)).astype(dtype)


def _in_memory_order(like, flat):
    """`flat` (the kernel's draws, in the order it visits elements) placed into an array shaped like `like`:
    TensorIterator visits the output's dimensions from the largest stride (outermost) to the smallest."""
    if like.ndim <= 1 or like.flags.c_contiguous:
        return flat.reshape(like.shape)
    perm = _order(like)
    out = np.empty(like.shape, dtype=flat.dtype)
    out.transpose(perm)[...] = flat.reshape([like.shape[d] for d in perm])
    return out


def _order(like):
    """The dimensions of `like` from the largest stride to the smallest: the order TensorIterator visits them."""
    if like.ndim <= 1 or like.flags.c_contiguous:
        return list(range(like.ndim))
    return sorted(range(like.ndim), key=lambda d: -abs(like.strides[d]))


def unit(gen, n, dtype):
    """uniform_real_distribution<T>(0, 1): 24 random bits of one word for float, 53 of two words for double."""
    if dtype == np.float64:
        return (gen.random64(n) & F53).astype(np.float64) * 2.0 ** -53
    return ((gen.random(n) & F24).astype(np.float64) * 2.0 ** -24).astype(np.float32)


def uniform(gen, like, low, high):
    """Tensor.uniform_(low, high): x * (high - low) + low in the tensor's float type; a value that rounds up to
    `high` becomes `low`."""
    dtype = like.dtype
    lo, hi = dtype.type(low), dtype.type(high)
    values = _muladd(unit(gen, like.size, dtype), hi - lo, lo, dtype)
    if dtypes.computing_reduced():  # a bfloat16 value that rounds to `high`
        values = dtypes.round_bfloat16(values)
    return _in_memory_order(like, np.where(values == hi, lo, values))


def normal(gen, like, mean, std):
    """Tensor.normal_(mean, std)."""
    dtype, n = like.dtype, like.size
    if n >= 16 and like.flags.c_contiguous:
        if dtypes.computing_reduced() and n % 16:
            # bfloat16 (held in float32): drawn as float32 for the next multiple of 16, the last 16 of those
            # becoming the last 16 (measured on torch 2.13: its generator advances as for that many floats)
            whole = _normal_fill(gen, n + 16 - n % 16, mean, std, dtype)
            return np.concatenate([whole[:n - 16], whole[-16:]]).reshape(like.shape)
        return _normal_fill(gen, n, mean, std, dtype).reshape(like.shape)
    return _in_memory_order(like, box_muller(gen, n, mean, std).astype(dtype))


def box_muller(gen, n, mean, std):
    """n draws of at::normal_distribution<double>: pairs from two 53-bit uniforms, the second of each pair kept in
    the generator for the next draw (also across calls), each scaled by std and shifted by mean in double."""
    if n == 0:
        return np.empty(0)
    out = []
    if gen._next_double_normal is not None:
        out.append(np.array([gen._next_double_normal]))
        gen._next_double_normal = None
        n -= 1
    pairs = (n + 1) // 2
    if pairs:
        u = unit(gen, 2 * pairs, np.float64)
        r = np.sqrt(-2.0 * libm(math.log1p, -u[1::2]))
        theta = 2.0 * math.pi * u[0::2]
        both = np.stack([r * libm(math.cos, theta), r * libm(math.sin, theta)], axis=1).reshape(-1)
        if n % 2:
            gen._next_double_normal = float(both[-1])
            both = both[:-1]
        out.append(both)
    return _muladd(np.concatenate(out), std, mean, np.dtype(np.float64))


def _normal_fill(gen, n, mean, std, dtype):
    """normal_fill: all n uniforms first, turned into normals 16 at a time (8 Box–Muller pairs, the cosines
    first); when n is not a multiple of 16 the last 16 are drawn again and redone."""
    data = unit(gen, n, dtype)
    full = n - n % 16
    blocks = data[:full]
    if n % 16:
        blocks = np.concatenate([blocks, unit(gen, 16, dtype)])  # the redrawn last 16, done with the rest
    done = _normal_16(blocks.reshape(-1, 16), mean, std, dtype).reshape(-1)
    data[:full] = done[:full]
    if n % 16:
        data[n - 16:] = done[full:]
    return data


def _normal_16(blocks, mean, std, dtype):
    u1, u2 = 1 - blocks[:, :8], blocks[:, 8:]
    if dtype == np.float32 and CPU_CAPABILITY != "DEFAULT":  # normal_fill_16_AVX2, in the AVX512 build too
        radius = np.sqrt(np.float32(-2) * log256_ps(u1))
        sin, cos = sincos256_ps(np.float32(2 * math.pi) * u2)
        first, second = radius * cos, radius * sin
    elif dtype == np.float32:  # NormalFill16<float>: float libm functions, theta rounded from double, std::fma
        radius = np.sqrt(np.float32(-2) * _float_fn(math.log, u1))
        theta = (2 * math.pi * u2.astype(np.float64)).astype(np.float32)
        first, second = radius * _float_fn(math.cos, theta), radius * _float_fn(math.sin, theta)
    else:
        radius = np.sqrt(-2 * libm(math.log, u1))
        theta = 2 * math.pi * u2
        first, second = radius * libm(math.cos, theta), radius * libm(math.sin, theta)
    return np.concatenate([_muladd(first, std, mean, dtype, True), _muladd(second, std, mean, dtype, True)], axis=1)


def libm(fn, x):
    """A float64 function of the C library, element by element: the `math` module calls the platform's libm, as
    torch's kernels do, where numpy may use its own vectorised versions whose last bit differs."""
    x = np.asarray(x, dtype=np.float64)
    return np.fromiter(map(fn, x.reshape(-1).tolist()), dtype=np.float64, count=x.size).reshape(x.shape)


def _float_fn(fn, x):
    """A float32 libm function (logf, cosf, sinf) as the float64 one rounded to float32: within an ulp of
    glibc's, which round correctly in all but rare cases."""
    return libm(fn, x).astype(np.float32)


def random_from_to(gen, like, span, base):
    """Tensor.random_(from, to): (bits % span) + base, with 64 random bits for spans of 2**28 or more;
    span None: the full 64-bit range."""
    dtype, n = like.dtype, like.size
    if span is None:
        values = gen.random64(n).view(np.int64)
    else:
        bits = gen.random64(n) if span >= 1 << 28 else gen.random(n)
        values = ((bits % np.uint64(span)) + np.uint64(base & 0xFFFFFFFFFFFFFFFF)).view(np.int64)
    return _in_memory_order(like, values.astype(dtype))


def random_bits(gen, like):
    """Tensor.random_(): [0, 2**mantissa] for float types, [0, max] for integer types, 0 or 1 for bool."""
    dtype, n = like.dtype, like.size
    if dtype == np.bool_:
        values = gen.random(n) & np.uint64(1)
    elif dtype in (np.float64, np.int64):
        modulus = (1 << 53) + 1 if dtype == np.float64 else 1 << 63
        values = gen.random64(n) % np.uint64(modulus)
    else:
        modulus = (1 << 24) + 1 if dtype == np.float32 else int(np.iinfo(dtype).max) + 1
        values = gen.random(n) % np.uint64(modulus)
    return _in_memory_order(like, values.astype(dtype))


def bernoulli(gen, like, p):
    """Tensor.bernoulli_(p): a 53-bit uniform below p (p a number), or below each p (an array broadcast to the
    tensor: 53 bits when p is float64, 24 bits compared in float32 otherwise)."""
    n = like.size
    if isinstance(p, np.ndarray):
        p_dtype = np.float64 if p.dtype == np.float64 else np.float32
        p = np.broadcast_to(p, like.shape)
        flat_p = p.transpose(_order(like)).reshape(-1).astype(p_dtype)
        hits = unit(gen, n, p_dtype) < flat_p
    else:
        hits = unit(gen, n, np.float64) < p
    return _in_memory_order(like, hits.astype(like.dtype))


def exponential(gen, like, lambd):
    """Tensor.exponential_(lambd): -1/lambd * log1p(-u) for a 53-bit uniform u, in double."""
    u = unit(gen, like.size, np.float64)
    values = (-1.0 / lambd) * libm(math.log1p, -u)
    return _in_memory_order(like, values.astype(like.dtype))


def randperm(gen, n, dtype):
    """torch.randperm(n): Fisher–Yates from the front with 32-bit draws (swap i with i + random() % (n - i));
    from n = 2**32 / 20 on, the inside-out variant with 64-bit draws (PyTorch PR 143875)."""
    perm = list(range(n))
    if n < LARGE_PERM:
        steps = gen.random(n - 1) % np.arange(n, 1, -1, dtype=np.uint64) if n > 1 else []
        for i, z in enumerate(np.asarray(steps).tolist()):
            j = i + z
            perm[i], perm[j] = perm[j], perm[i]
    else:
        steps = gen.random64(n) % np.arange(1, n + 1, dtype=np.uint64)
        for i, z in enumerate(steps.tolist()):
            perm[i] = perm[z]
            perm[z] = i
    return np.array(perm, dtype=dtype)
