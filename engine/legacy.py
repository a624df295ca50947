"""torch's deprecated and removed spellings a learner's older notebook still calls: torch.range (with its warning),
set_default_tensor_type, typename, set_warn_always, nuclear_norm and frobenius_norm (with theirs), and
torch.solve/lstsq/symeig/eig/matrix_rank, which torch 2.13 keeps only to say what replaced them (their texts are
torch's, from torch/_linalg_utils.py)."""
import math
import warnings

import numpy as np

from . import devices, dtypes, factories, linalg, messages
from .tensor import Tensor

RANGE_DEPRECATED = ("torch.range is deprecated and will be removed in a future release because its behavior is "
                    "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                    "[start, end).")
DEFAULT_TENSOR_TYPE_DEPRECATED = ("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                                  "torch.set_default_dtype() and torch.set_default_device() as alternatives.")
_REMOVED = "This function was deprecated since version 1.9 and is now removed."


class TensorType(type):
    """The class of torch's typed tensor types (torch.FloatTensor, …): calling one makes a tensor of its dtype,
    and a tensor is an instance of the one of its dtype."""

    def __call__(cls, *args, device=None):
        return cls.make(*args, device=device)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,  # noqa: A001
          requires_grad=False):
    """torch.range: [start, end] with both ends, of the default float dtype unless dtype= says otherwise."""
    warnings.warn(RANGE_DEPRECATED, UserWarning, stacklevel=2)
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    devices.check(device)
    dtype = dtypes.DEFAULT[0] if dtype is None else dtype
    floating = dtype.is_floating_point
    first, last, by = (float(v) for v in (start, end, step)) if floating else (int(v) for v in (start, end, step))
    if by == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(first) and math.isfinite(last)):
        raise RuntimeError(f"unsupported range: {first:g} -> {last:g}")
    if not ((by > 0 and last >= first) or (by < 0 and last <= first)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int((last - first) / by + 1) if floating else (last - first) // by + 1
    data = first + np.arange(n, dtype=np.float64 if floating else np.int64) * by
    result = Tensor._make(data.astype(dtype.np), dtype, requires_grad)
    return result if out is None else out.copy_(result)


def typename(obj, /):
    """torch.typename: a tensor's type() ('torch.FloatTensor'), else module.qualname ('int' for builtins), the
    engine's modules under torch's names."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module, qualname = obj.__class__.__module__ or "", obj.__class__.__qualname__
    module = "torch" + module[len("engine"):] if module == "engine" or module.startswith("engine.") else module
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def set_default_tensor_type(t, /):
    """The default float dtype, named by its tensor type (torch.DoubleTensor or 'torch.DoubleTensor')."""
    if isinstance(t, str):
        name = t.rsplit(".", 1)[-1]
    elif callable(t) and t.__name__.endswith("Tensor"):
        name = t.__name__
    else:
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    messages.warn_once(DEFAULT_TENSOR_TYPE_DEPRECATED)
    found = [d for d in (dtypes.float16, dtypes.float32, dtypes.float64) if d.type_name + "Tensor" == name]
    if not found:
        raise TypeError("only floating-point types are supported as the default type")
    dtypes.set_default_dtype(found[0])


def set_warn_always(b, /):
    """torch's once-per-process warnings given every time (True) or once again (False)."""
    messages.WARN_ALWAYS[0] = bool(b)


def is_warn_always_enabled():
    return messages.WARN_ALWAYS[0]


def matrix_rank(input, tol=None, symmetric=False, *, out=None):  # noqa: A002 - torch's argument names
    raise RuntimeError(f"{_REMOVED}\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter "
                       "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input, A, *, out=None):  # noqa: A002
    raise RuntimeError(
        f"{_REMOVED} `torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its "
        "arguments reversed and does not return the LU factorization.\n\nTo get the LU factorization see "
        "`torch.lu`, which can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution "
        "should be replaced with:\nX = torch.linalg.solve(A, B)")


def lstsq(input, A, *, out=None):  # noqa: A002
    raise RuntimeError(
        f"{_REMOVED} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has "
        "reversed arguments and does not return the QR decomposition in the returned tuple (although it returns "
        "other information about the problem).\n\nTo get the QR decomposition consider using `torch.linalg.qr`."
        "\n\nThe returned solution in `torch.lstsq` stored the residuals of the solution in the last m - n columns "
        "of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field 'residuals' "
        "of the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution"
        "[:A.size(1)]\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution")


def symeig(input, eigenvectors=False, upper=True, *, out=None):  # noqa: A002
    raise RuntimeError(
        f"{_REMOVED} The default behavior has changed from using the upper triangular portion of the matrix by "
        "default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be replaced "
        "with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, "
        "eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


def eig(self, eigenvectors=False, *, e=None, v=None):
    raise RuntimeError(
        f"{_REMOVED} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real "
        "tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = "
        "torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
        "L_complex, V_complex = torch.linalg.eig(A)")


Tensor.solve = lambda self, other: solve(self, other)
Tensor.lstsq = lambda self, other: lstsq(self, other)
Tensor.symeig = lambda self, eigenvectors=False: symeig(self, eigenvectors)
Tensor.eig = lambda self, eigenvectors=False: eig(self, eigenvectors)


def _jit_only(name, instead):
    messages.warn_once(f"at::{name} is deprecated and it is just left for JIT compatibility. It will be removed in a "
                       f"future PyTorch release. Please use `{instead}` instead", stacklevel=3)


def nuclear_norm(input, dim=None, keepdim=False, *, out=None):  # noqa: A002
    """torch.nuclear_norm(input, keepdim=False) or (input, dim, keepdim=False): linalg.matrix_norm(input, 'nuc')."""
    if isinstance(dim, bool):
        dim, keepdim = None, dim
    _jit_only("nuclear_norm", "linalg.matrix_norm(A, 'nuc', dim, keepdim)")
    result = linalg.matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim)
    return result if out is None else out.copy_(result)


def frobenius_norm(input, dim, keepdim=False, *, out=None):  # noqa: A002
    """torch.frobenius_norm: ATen's norm(input, 2, dim, keepdim) (NormBackward1)."""
    _jit_only("frobenius_norm", "linalg.vector_norm(A, 2., dim, keepdim)")
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    result = input._op("norm_p", p=2.0, dim=dims, keepdim=bool(keepdim))
    return result if out is None else out.copy_(result)


def _legacy(fixed, name):
    """torch.Tensor(...) and the typed constructors (torch.FloatTensor, …): from data, or uninitialised from
    sizes (zeros here; torch leaves whatever was in memory). fixed None: torch.Tensor, of the default dtype."""

    def make(*args, device=None):
        devices.check(device)
        dtype = fixed or dtypes.DEFAULT[0]
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype is not dtype:
                raise TypeError(f"expected {dtype.type_name} (got {args[0].dtype.type_name})")
            return args[0]
        if args and all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
            return factories._filled(0, args, dtype, False)
        if len(args) == 1 and not isinstance(args[0], (int, float, bool)):
            return factories._from_data(args[0], dtype, False, stacklevel=4)
        if not args:
            return factories._finish(np.zeros((0,), dtype.np), dtype, False)
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")

    if fixed is None:
        make.__name__ = make.__qualname__ = name
        return make
    return TensorType(name, (), {"make": staticmethod(make), "dtype": fixed, "__module__": __name__})


_legacy_tensor = _legacy(None, "Tensor")
Tensor.__new__ = staticmethod(lambda cls, *args, **kwargs: _legacy_tensor(*args, **kwargs) if cls is Tensor
                              else object.__new__(cls))
FloatTensor = _legacy(dtypes.float32, "FloatTensor")
DoubleTensor = _legacy(dtypes.float64, "DoubleTensor")
LongTensor = _legacy(dtypes.int64, "LongTensor")
IntTensor = _legacy(dtypes.int32, "IntTensor")
BoolTensor = _legacy(dtypes.bool, "BoolTensor")
ByteTensor = _legacy(dtypes.uint8, "ByteTensor")
CharTensor = _legacy(dtypes.int8, "CharTensor")
ShortTensor = _legacy(dtypes.int16, "ShortTensor")
HalfTensor = _legacy(dtypes.float16, "HalfTensor")
