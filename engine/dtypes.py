"""PyTorch's dtypes and its type-promotion rules, on numpy."""
import numpy as np

from .torch_names import TorchClass


class dtype(metaclass=TorchClass):
    """name: torch's (float32); type_name: of its tensor type (FloatTensor); c_name: of its C++ type (float),
    as PyTorch's messages say them."""

    _torch_name = "torch.dtype"
    __slots__ = ("name", "np", "is_floating_point", "is_complex", "_grads", "_rank", "type_name", "c_name", "itemsize",
                 "fit")

    def __init__(self, name, np_dtype, is_floating_point, rank, type_name, c_name, is_complex=False, fit=None,
                 itemsize=None):
        self.name = name
        self.np = np.dtype(np_dtype)  # the numpy dtype of its arrays (float32 for bfloat16, which numpy has not)
        self.fit = fit  # None, or for a dtype numpy has not: the array's values rounded to the dtype's
        self.itemsize = itemsize or self.np.itemsize
        self.is_floating_point = is_floating_point
        self.is_complex = is_complex
        self._grads = is_floating_point or is_complex  # a dtype that can require grad
        self._rank = rank
        self.type_name = type_name
        self.c_name = c_name

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))

    @property
    def is_signed(self):
        return self.name not in ("bool", "uint8")


def round_bfloat16(a):
    """float32 values rounded to bfloat16's (nearest, ties to even, as c10::BFloat16 rounds), kept as float32; a nan
    becomes bfloat16's quiet nan."""
    a = np.asarray(a, np.float32)
    bits = a.view(np.uint32)
    rounded = ((bits + (np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1)))) & np.uint32(0xFFFF0000)).view(np.float32)
    if a.ndim == 0:  # (numpy's ufuncs give a 0-d array's result as a scalar)
        return np.full((), np.nan, np.float32) if np.isnan(a) else np.array(rounded, np.float32)
    nan = np.isnan(a)
    if nan.any():
        rounded[nan] = np.nan
    return rounded


def _to_complex32(a):
    """complex64 values whose parts are rounded to float16's, kept as complex64."""
    a = np.asarray(a, np.complex64)
    out = np.empty_like(a)
    out.real = a.real.astype(np.float16)
    out.imag = a.imag.astype(np.float16)
    return out


bool = dtype("bool", np.bool_, False, 0, "Bool", "bool")  # noqa: A001 - torch.bool
uint8 = dtype("uint8", np.uint8, False, 1, "Byte", "unsigned char")  # what torch.get_rng_state() returns
int8 = dtype("int8", np.int8, False, 1, "Char", "signed char")
int16 = dtype("int16", np.int16, False, 2, "Short", "short int")
int32 = dtype("int32", np.int32, False, 3, "Int", "int")
int64 = dtype("int64", np.int64, False, 4, "Long", "long int")
float16 = dtype("float16", np.float16, True, 5, "Half", "c10::Half")
float32 = dtype("float32", np.float32, True, 6, "Float", "float")
float64 = dtype("float64", np.float64, True, 7, "Double", "double")
bfloat16 = dtype("bfloat16", np.float32, True, 5, "BFloat16", "c10::BFloat16", fit=round_bfloat16, itemsize=2)
complex32 = dtype("complex32", np.complex64, False, 8, "ComplexHalf", "c10::complex<c10::Half>", True,
                  fit=_to_complex32, itemsize=4)
complex64 = dtype("complex64", np.complex64, False, 8, "ComplexFloat", "c10::complex<float>", True)
complex128 = dtype("complex128", np.complex128, False, 9, "ComplexDouble", "c10::complex<double>", True)
chalf = complex32
cfloat = complex64
cdouble = complex128
long = int64
int = int32  # noqa: A001 - torch.int
short = int16
half = float16
float = float32  # noqa: A001 - torch.float
double = float64

_ALL = {d.name: d for d in (bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex32,
                             complex64, complex128)}
_BY_NP = {d.np: d for d in _ALL.values() if d.fit is None}


# the dtype of the result the running op computes: a kernel given float32 arrays reads it to round inside as ATen's
# bfloat16 kernels do (set by engine/dispatch.py before each forward)
COMPUTING = [None]


def computing_reduced():
    """Whether the running op computes a bfloat16 result (its arrays float32)."""
    return COMPUTING[0] is bfloat16


DEFAULT = [float32]  # torch.set_default_dtype's: the dtype of Python floats, float factories and int division


def get_default_dtype():
    return DEFAULT[0]


def default_complex():
    """The dtype of Python complex numbers: complex128 when the default dtype is float64, else complex64."""
    return complex128 if DEFAULT[0] is float64 else complex64


def to_complex(d):
    """The complex dtype holding d's values (float64 -> complex128, float16 -> complex32; other floats and integers
    -> complex64)."""
    return d if d.is_complex else (complex128 if d is float64 else complex32 if d is float16 else complex64)


def to_real(d):
    """The real dtype of a complex one's parts (complex64 -> float32); a real dtype is its own."""
    return (float64 if d is complex128 else float16 if d is complex32 else float32) if d.is_complex else d


def set_default_dtype(d):
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    DEFAULT[0] = d


def given(d, name):
    """A `dtype=` argument of torch function `name`, checked as torch checks it: None or a torch.dtype."""
    if d is None or d.__class__ is dtype:
        return d
    raise TypeError(f"{name}(): argument 'dtype' must be torch.dtype, not {type(d).__name__}")


def stored(d, a):
    """a as written into a tensor of dtype d: rounded to d's values where numpy has not d."""
    return a if d.fit is None else d.fit(a)


def _by_name(name):
    return _ALL[name]


def from_numpy(np_dtype):
    np_dtype = np.dtype(np_dtype)
    if np_dtype in _BY_NP:
        return _BY_NP[np_dtype]
    if np_dtype.kind == "f":
        return float64 if np_dtype.itemsize > 4 else float32
    if np_dtype.kind in "iu":
        return int64
    if np_dtype.kind == "b":
        return bool
    if np_dtype.kind == "c":
        return complex128 if np_dtype.itemsize > 8 else complex64
    raise TypeError(f"can't convert np.ndarray of type numpy.{np_dtype.name}.")


def _category(d):
    return 3 if d.is_complex else 2 if d.is_floating_point else (0 if d is bool else 1)


def promote_types(a, b):
    """torch.promote_types: the smallest dtype holding both's values."""
    if a is b or b is None:
        return a
    if a is None:
        return b
    if a.is_complex or b.is_complex:
        if a is complex128 or b is complex128 or a is float64 or b is float64:
            return complex128
        half = all(d is complex32 or d is float16 or not d._grads for d in (a, b))
        return complex32 if half else complex64
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    if a._rank == b._rank == float16._rank:  # float16 and bfloat16: neither holds the other's values
        return float32
    if {a, b} == {uint8, int8}:
        return int16  # neither holds the other's values
    return a if a._rank > b._rank else b


def _combine(higher, lower):
    """ATen's combine_categories: a lighter operand raises the dtype only when of a higher category."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_complex:
        return higher
    if lower.is_complex:
        return to_complex(higher) if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is bool or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def promote(operands):
    """Result dtype of an op, as PyTorch decides it (ATen's result_type).

    operands: (dtype, weight) pairs; weight 2 for a tensor with dimensions, 1 for a 0-dim tensor and
    0 for a Python number (a float brings the default dtype, a complex number the default complex dtype).
    """
    dims = zero = wrapped = None
    for d, weight in operands:
        if weight == 2:
            dims = promote_types(dims, d)
        elif weight == 1:
            zero = promote_types(zero, d)
        else:
            if d.is_complex:
                d = default_complex()
            elif d.is_floating_point:
                d = DEFAULT[0]
            wrapped = promote_types(wrapped, d)
    return _combine(dims, _combine(zero, wrapped))


class layout:
    """torch.strided: the only layout the engine's tensors have."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_layout_by_name, (self.name,))


strided = layout("strided")


def _layout_by_name(name):
    return strided
