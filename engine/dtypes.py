"""PyTorch's dtypes and its type-promotion rules, on numpy."""
import numpy as np


class dtype:
    """name: torch's (float32); type_name: of its tensor type (FloatTensor); c_name: of its C++ type (float),
    as PyTorch's messages say them."""

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


bool = dtype("bool", np.bool_, False, 0, "Bool", "bool")  # noqa: A001 - torch.bool
uint8 = dtype("uint8", np.uint8, False, 1, "Byte", "unsigned char")  # what torch.get_rng_state() returns
int32 = dtype("int32", np.int32, False, 2, "Int", "int")
int64 = dtype("int64", np.int64, False, 3, "Long", "long int")
float32 = dtype("float32", np.float32, True, 4, "Float", "float")
float64 = dtype("float64", np.float64, True, 5, "Double", "double")
long = int64
int = int32  # noqa: A001 - torch.int
float = float32  # noqa: A001 - torch.float
double = float64

_ALL = {d.name: d for d in (bool, uint8, int32, int64, float32, float64)}
_BY_NP = {d.np: d for d in (bool, uint8, int32, int64, float32, float64)}


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
    (bool < int < float); a Python float then brings the default float32.
    """
    best = None
    for d, weight in operands:
        if best is None:
            best = (d, weight)
            continue
        bd, bw = best
        if _category(d) > _category(bd):
            best = (d if weight else (float32 if d.is_floating_point else d), weight)
        elif _category(d) == _category(bd):
            if weight > bw:
                best = (d, weight)
            elif weight == bw and d._rank > bd._rank:
                best = (d, weight)
    d, weight = best
    if weight == 0 and d.is_floating_point:
        return float32
    return d
