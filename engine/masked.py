"""torch.masked's reductions and normalizations (torch/masked/_ops.py of torch 2.13, BSD-3-Clause, the PyTorch
contributors) for strided tensors: the masked-out elements are replaced by the operation's identity (0 for sum,
-inf for amax, …) with torch.where, and the plain op runs on the result; mean, var and std divide by the count of
masked-in elements. Not here: the sparse layouts, MaskedTensor, and complex dtypes."""
import builtins

from . import dtypes, factories, functions, limits, linalg, logic
from .methods import FUNCTIONS
from .nn import functional as F

_where, _broadcast_to = functions.where, FUNCTIONS["broadcast_to"]


def _reduction_identity(op_name, input, *args):  # noqa: A002
    """The value that leaves the reduction `op_name` unchanged, as a 0-d tensor of input's dtype, or None where
    there is none (mean, var, std)."""
    dtype = input.dtype
    op_name = op_name.rsplit(".", 1)[-1]
    if op_name in {"sum", "cumsum"}:
        return factories.tensor(0, dtype=dtype)
    if op_name in {"prod", "cumprod"}:
        return factories.tensor(1, dtype=dtype)
    if op_name in {"amax", "argmax", "logaddexp", "logsumexp"}:
        if input.is_floating_point():
            return factories.tensor(-float("inf"), dtype=dtype)
        if input.is_signed() or dtype == dtypes.uint8:
            return factories.tensor(limits.iinfo(dtype).min, dtype=dtype)
    elif op_name in {"amin", "argmin"}:
        if input.is_floating_point():
            return factories.tensor(float("inf"), dtype=dtype)
        if input.is_signed() or dtype == dtypes.uint8:
            return factories.tensor(limits.iinfo(dtype).max, dtype=dtype)
    elif op_name in {"mean", "var", "std"}:
        return None
    elif op_name == "norm":
        ord = args[0] if args else 2  # noqa: A001
        if ord == float("-inf"):
            if not input.is_floating_point():
                raise AssertionError(f"input must be floating point, got {input.dtype}")
            return factories.tensor(float("inf"), dtype=dtype)
        return factories.tensor(0, dtype=dtype)
    elif op_name == "median":
        dtype = input.dtype if input.is_floating_point() else dtypes.float32
        return factories.tensor(float("nan"), dtype=dtype)
    raise NotImplementedError(f"identity of {op_name} on {dtype} input")


def _canonical_dim(dim, ndim):
    """The dim argument as a tuple of sorted dims (None or (): all of them)."""
    dims = []
    if dim == ():
        dim = None
    if dim is None:
        return tuple(range(ndim))
    ndim = builtins.max(ndim, 1)
    dim_ = (dim,) if isinstance(dim, int) else dim
    for d in dim_:
        if d in dims:
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= ndim or d < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {d})")
        dims.append(d % ndim)
    return tuple(sorted(dims))


def _input_mask(input, *args, **kwargs):  # noqa: A002
    """The mask as a bool tensor of input's shape (broadcast if smaller)."""
    mask = kwargs.get("mask")
    if mask is None:
        raise ValueError("_input_mask requires explicit mask")
    if mask.shape != input.shape:
        if mask.ndim > input.ndim:
            raise IndexError("_input_mask expected broadcastable mask (got mask dimensionality higher than of the "
                             "input)")
        mask = _broadcast_to(mask.clone(), input.shape).to(dtype=dtypes.bool)
    return mask.to(dtype=dtypes.bool)


def _combine_input_and_mask(op, input, mask, *args):  # noqa: A002
    if mask is None:
        return input
    canonical_mask = _input_mask(input, mask=mask)
    fill_value = _reduction_identity(op.__name__, input, *args)
    return _where(canonical_mask, input, fill_value)


def _integer_sum_dtype(input, dtype):  # noqa: A002
    """sum's and prod's result dtype: int64 for the small integer types and bool, unless dtype says otherwise."""
    if dtype is None:
        dtype = input.dtype
        if input.dtype in {dtypes.uint8, dtypes.bool, dtypes.int8, dtypes.int16, dtypes.int32}:
            dtype = dtypes.int64
    return dtype


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A001, A002
    dtype = _integer_sum_dtype(input, dtype)
    dim_ = _canonical_dim(dim, input.ndim)
    mask_input = _combine_input_and_mask(sum, input, mask)
    return FUNCTIONS["sum"](mask_input, dim_, builtins.bool(keepdim), dtype=dtype)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    dtype = _integer_sum_dtype(input, dtype)
    dim_ = _canonical_dim(dim, input.ndim)
    mask_input = _combine_input_and_mask(prod, input, mask)
    result = mask_input.to(dtype=dtype)
    for d in reversed(dim_):
        result = result.prod(dim=d, keepdim=builtins.bool(keepdim))
    return result


def cumsum(input, dim, *, dtype=None, mask=None):  # noqa: A002
    if dtype is None:
        dtype = input.dtype
    dim_ = _canonical_dim(dim, input.ndim)[0]
    mask_input = _combine_input_and_mask(sum, input, mask)
    return FUNCTIONS["cumsum"](mask_input, dim_, dtype=dtype).to(dtype=dtype)


def cumprod(input, dim, *, dtype=None, mask=None):  # noqa: A002
    if dtype is None:
        dtype = input.dtype
    dim_ = _canonical_dim(dim, input.ndim)[0]
    mask_input = _combine_input_and_mask(prod, input, mask)
    return FUNCTIONS["cumprod"](mask_input, dim_, dtype=dtype).to(dtype=dtype)


def _extreme(function, identity_of, input, dim, keepdim, dtype, mask):  # noqa: A002
    """amax, amin, argmax, argmin: the masked-out elements replaced by identity_of's identity first."""
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask(identity_of, input, mask)
    if function in ("amax", "amin"):
        dim = _canonical_dim(dim, mask_input.ndim)
    return FUNCTIONS[function](mask_input, dim, builtins.bool(keepdim)).to(dtype=dtype)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    return _extreme("amax", amax, input, dim, keepdim, dtype, mask)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    return _extreme("amin", amin, input, dim, keepdim, dtype, mask)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    return _extreme("argmax", argmax, input, dim, keepdim, dtype, mask)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    return _extreme("argmin", argmin, input, dim, keepdim, dtype, mask)


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    dtype_source = "Optional"
    if dtype is None:
        dtype = input.dtype
        dtype_source = "Input"
    if not dtype.is_floating_point:
        raise ValueError(f"mean(): Could not infer output dtype. {dtype_source} dtype must be either "
                         f"a floating point or complex dtype. Got: {dtype}")
    if mask is None:
        count = sum(factories.ones(input.shape, dtype=dtypes.int64), dim, keepdim=keepdim)
        total = sum(input, dim, keepdim=keepdim, dtype=dtype)
    else:
        inmask = _input_mask(input, mask=mask)
        count = inmask.sum(dim=dim, keepdim=builtins.bool(keepdim))
        total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=inmask)
    return total / count


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    if dtype is None:
        dtype = input.dtype
    dim_ = _canonical_dim(dim, input.ndim)[0]
    is_float = input.is_floating_point()
    if not is_float:
        input = input.to(dtype=dtypes.float32)  # noqa: A001
    mask_input = _combine_input_and_mask(median, input, mask)
    output = FUNCTIONS["nanmedian"](mask_input, dim_, keepdim).values
    if is_float:
        return output
    if not logic.FUNCTIONS["isnan"](output).any():
        return output.to(dtype=dtype)
    raise ValueError("masked median expects no fully masked out rows if dtype is not floating point")


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    if dtype is None:
        dtype = input.dtype
    dim_ = _canonical_dim(dim, input.ndim)
    mask_input = _combine_input_and_mask(logsumexp, input, mask)
    return FUNCTIONS["logsumexp"](mask_input, dim_, keepdim=keepdim).to(dtype=dtype)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):  # noqa: A002
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask(logaddexp, input, input_mask)
    mask_other = _combine_input_and_mask(logaddexp, other, other_mask)
    return FUNCTIONS["logaddexp"](mask_input, mask_other).to(dtype=dtype)


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask(norm, input, mask, ord)
    dim_ = _canonical_dim(dim, input.ndim)
    return linalg.vector_norm(mask_input, ord, dim_, builtins.bool(keepdim), dtype=dtype)


def _std_var(input, dim, unbiased, *, correction_opt, keepdim, dtype, mask, take_sqrt):  # noqa: A002
    if unbiased is not None and correction_opt is not None:
        raise AssertionError("Only one of unbiased and correction may be given")
    correction = 1.0
    if unbiased is not None:
        correction = 1.0 if unbiased else 0.0
    if correction_opt is not None:
        correction = float(correction_opt)
    if dtype is None:
        dtype = input.dtype
        if not dtype.is_floating_point:
            dtype = dtypes.float32
    compute_dtype = dtype
    if not compute_dtype.is_floating_point:
        compute_dtype = dtypes.float32
    if mask is None:
        count = sum(factories.ones(input.shape, dtype=dtypes.int64), dim, keepdim=True)
        sample_total = sum(input, dim, keepdim=True, dtype=dtype)
    else:
        inmask = _input_mask(input, mask=mask)
        count = inmask.sum(dim=dim, keepdim=True)
        sample_total = sum(input, dim, keepdim=True, dtype=dtype, mask=inmask)
    sample_mean = FUNCTIONS["divide"](sample_total, count)
    x = FUNCTIONS["subtract"](input, sample_mean)
    if mask is None:
        total = sum(x * x, dim, keepdim=keepdim, dtype=compute_dtype)
    else:
        total = sum(x * x, dim, keepdim=keepdim, dtype=compute_dtype, mask=inmask)
    if not keepdim:
        count = count.reshape(total.shape)
    if correction != 0:
        count = count.to(compute_dtype)
        count = FUNCTIONS["subtract"](count, correction)
        count = FUNCTIONS["maximum"](count, count.new_zeros([]))
    output = FUNCTIONS["divide"](total, count).to(dtype=dtype)
    if take_sqrt:
        output = FUNCTIONS["sqrt"](output)
    return output


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):  # noqa: A002
    return _std_var(input=input, dim=dim, unbiased=unbiased, correction_opt=correction, keepdim=keepdim, dtype=dtype,
                    mask=mask, take_sqrt=False)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):  # noqa: A002
    return _std_var(input=input, dim=dim, unbiased=unbiased, correction_opt=correction, keepdim=keepdim, dtype=dtype,
                    mask=mask, take_sqrt=True)


def _normalization(function, identity_of, input, dim, dtype, mask):  # noqa: A002
    """softmax, log_softmax, softmin: the masked-out elements replaced by identity_of's identity first."""
    if dtype is None:
        dtype = input.dtype
    dim_ = _canonical_dim(dim, input.ndim)[0]
    mask_input = _combine_input_and_mask(identity_of, input, mask)
    return function(mask_input, dim_, dtype=dtype)


def softmax(input, dim, *, dtype=None, mask=None):  # noqa: A002
    return _normalization(F.softmax, amax, input, dim, dtype, mask)


def log_softmax(input, dim, *, dtype=None, mask=None):  # noqa: A002
    return _normalization(F.log_softmax, amax, input, dim, dtype, mask)


def softmin(input, dim, *, dtype=None, mask=None):  # noqa: A002
    return _normalization(F.softmin, amin, input, dim, dtype, mask)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):  # noqa: A002
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask(sum, input, mask)
    nrm_ = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    denom = FUNCTIONS["maximum"](nrm_, nrm_.new_full([], eps))
    return FUNCTIONS["divide"](mask_input, denom)


__all__ = ["amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp", "logsumexp", "mean",
           "median", "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var"]
