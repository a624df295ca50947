"""torch.autocast on the CPU: the functions whose arguments torch's CPU autocast casts (ATen's AutocastCPU kernels in
autocast_mode.cpp), and the wrapper that casts them. Lower precision: the matrix products and convolutions, their
floating tensors (not float64) cast to autocast's dtype; fp32: the losses, 3-d pools, linear algebra and transforms
torch keeps in float32, their bfloat16/float16 tensors cast to float32. Inside a wrapped call autocast is off (ATen
redispatches below its autocast key), so a function made of others casts once. A float32 leaf that requires grad (a
weight) is cast once per autocast region, as ATen caches it."""
import functools

from . import dtypes, grad_mode
from .messages import CHECK_FRAMES
from .tensor import Tensor

STATE = [None]  # the dtype autocast casts to; None while autocast is off, and while a wrapped call runs
CACHE = {}  # id(weight) -> (weight, its cast), for the outermost autocast region
NESTING = [0]

_MATMULS = "matmul mm bmm baddbmm addmm addbmm".split()
_CONVS = "conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d prelu".split()
_LOSSES = """binary_cross_entropy mse_loss cosine_embedding_loss nll_loss hinge_embedding_loss poisson_nll_loss
    smooth_l1_loss cross_entropy l1_loss huber_loss margin_ranking_loss soft_margin_loss triplet_margin_loss
    multi_margin_loss ctc_loss kl_div multilabel_margin_loss binary_cross_entropy_with_logits""".split()
_FP32_TORCH = """prod trace quantile nanquantile inverse pinverse cholesky cholesky_inverse cholesky_solve lu_solve
    orgqr ormqr stft cdist polar view_as_complex grid_sampler grid_sampler_2d grid_sampler_3d qr svd
    triangular_solve geqrf""".split()
_FP32_POOLS = """avg_pool3d max_pool3d adaptive_avg_pool3d adaptive_max_pool3d fractional_max_pool2d
    fractional_max_pool3d max_unpool2d max_unpool3d grid_sample""".split()
_FP32_LINALG = """cond matrix_rank solve cholesky svdvals eigvals eigvalsh inv householder_product tensorinv
    tensorsolve qr cholesky_ex svd eig eigh lstsq inv_ex""".split()

# (namespace, names, policy): namespace "torch", "Tensor", "nn.functional", "linalg" or "fft" (every function)
POLICY = [
    ("Tensor", _MATMULS + ["__matmul__", "__rmatmul__"], "lower"),
    ("torch", _MATMULS + _CONVS + ["conv_tbc", "convolution", "einsum", "tensordot", "chain_matmul"], "lower"),
    ("nn.functional", _CONVS + ["linear", "scaled_dot_product_attention"], "lower"),
    ("linalg", ["vecdot", "multi_dot", "matmul"], "lower"),
    ("Tensor", _FP32_TORCH, "fp32"),
    ("torch", _FP32_TORCH + _LOSSES, "fp32"),
    ("nn.functional", _LOSSES + _FP32_POOLS + ["pad"], "fp32"),
    ("linalg", _FP32_LINALG, "fp32"),
    ("fft", None, "fp32"),
]


def _applies(name, policy, args, kwargs):
    """Whether this call is one autocast casts: F.pad only in its reflect and replicate modes (reflection_pad,
    replication_pad), einsum only with operands it multiplies (its bmm)."""
    if name == "pad":
        mode = kwargs.get("mode", args[2] if len(args) > 2 else "constant")
        return mode in ("reflect", "replicate")
    if name == "einsum":
        operands = args[1:]
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = operands[0]
        return len(operands) > 1
    return True


def _cast(x, dtype, cache):
    if isinstance(x, Tensor):
        d = x.dtype
        if not d.is_floating_point or d is dtype or d is dtypes.float64:
            return x
        if not cache or d is not dtypes.float32 or x._grad_fn is not None or not x._requires_grad \
                or x._base is not None or not grad_mode._state["enabled"]:
            return x.to(dtype)
        hit = CACHE.get(id(x))
        if hit is None or hit[0] is not x:
            hit = CACHE[id(x)] = (x, x.to(dtype))
        return hit[1]
    if type(x) in (list, tuple):
        return type(x)(_cast(y, dtype, cache) for y in x)
    return x


def policed(fn, name, policy):
    """fn, casting its floating tensors as autocast's policy says while autocast is on."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        target = STATE[0]
        if target is None or not _applies(name, policy, args, kwargs):
            return fn(*args, **kwargs)
        dtype = target if policy == "lower" else dtypes.float32
        STATE[0] = None
        try:
            cache = policy == "lower" and CACHE_ENABLED[0]
            args = tuple(_cast(a, dtype, cache) for a in args)
            kwargs = {k: _cast(v, dtype, cache) for k, v in kwargs.items()}
            return fn(*args, **kwargs)
        finally:
            STATE[0] = target

    call._autocast_policy = policy
    CHECK_FRAMES.add(call.__code__)
    return call


CACHE_ENABLED = [True]


def police(namespace, names, policy):
    """Wrap namespace's functions named (all its public functions when names is None) in autocast's policy."""
    if names is None:
        names = [n for n in vars(namespace) if not n.startswith("_") and callable(getattr(namespace, n))]
    for name in names:
        fn = getattr(namespace, name, None)
        if fn is not None and getattr(fn, "_autocast_policy", None) is None:
            setattr(namespace, name, policed(fn, name, policy))
