"""PyTorch's dtypes and its type-promotion rules, on numpy."""
import numpy as np

from .torch_names import TorchClass


class dtype(metaclass=TorchClass):
    """name: torch's (float32); type_name: of its tensor type (FloatTensor); c_name: of its C++ type (float),
    as PyTorch's messages say them."""

    _torch_name = "torch.dtype"
    __slots__ = ("name", "np", "is_floating_point", "_rank", "type_name", "c_name")

    def __init__(self, name, np_dtype, is_floating_point, rank, type_name, c_name):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = is_floating_point
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

    @property
    def is_complex(self):
        return False


bool = dtype("bool", np.bool_, False, 0, "Bool", "bool")  # noqa: A001 - torch.bool
uint8 = dtype("uint8", np.uint8, False, 1, "Byte", "unsigned char")  # what torch.get_rng_state() returns
int8 = dtype("int8", np.int8, False, 1, "Char", "signed char")
int16 = dtype("int16", np.int16, False, 2, "Short", "short int")
int32 = dtype("int32", np.int32, False, 3, "Int", "int")
int64 = dtype("int64", np.int64, False, 4, "Long", "long int")
float16 = dtype("float16", np.float16, True, 5, "Half", "c10::Half")
float32 = dtype("float32", np.float32, True, 6, "Float", "float")
float64 = dtype("float64", np.float64, True, 7, "Double", "double")
long = int64
int = int32  # noqa: A001 - torch.int
short = int16
half = float16
float = float32  # noqa: A001 - torch.float
double = float64

_ALL = {d.name: d for d in (bool, uint8, int8, int16, int32, int64, float16, float32, float64)}
_BY_NP = {d.np: d for d in _ALL.values()}


DEFAULT = [float32]  # torch.set_default_dtype's: the dtype of Python floats, float factories and int division


def get_default_dtype():
    return DEFAULT[0]


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
    raise TypeError(f"can't convert np.ndarray of type numpy.{np_dtype.name}.")


def _category(d):
    return 2 if d.is_floating_point else (0 if d is bool else 1)


def promote(operands):
    """Result dtype of an op, as PyTorch decides it.

    operands: (dtype, weight) pairs; weight 2 for a tensor with dimensions, 1 for a 0-dim tensor and
    0 for a Python number. A lighter operand only raises the dtype if it is of a higher category
    (bool < int < float); a Python float then brings the default dtype (float32 unless set).
    """
    best = None
    for d, weight in operands:
        if best is None:
            best = (d, weight)
            continue
        bd, bw = best
        if _category(d) > _category(bd):
            best = (d if weight else (DEFAULT[0] if d.is_floating_point else d), weight)
        elif _category(d) == _category(bd):
            if weight > bw:
                best = (d, weight)
            elif weight == bw and {d, bd} == {uint8, int8}:
                best = (int16, weight)  # neither holds the other's values
            elif weight == bw and d._rank > bd._rank:
                best = (d, weight)
    d, weight = best
    if weight == 0 and d.is_floating_point:
        return DEFAULT[0]
    return d


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
