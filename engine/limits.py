"""torch.finfo and torch.iinfo: the limits of the engine's float and integer dtypes, printed as torch prints
them (numbers to 6 significant digits; `dtype` is the dtype's name, a str, as in torch)."""
import numpy as np

from . import dtypes


def _text(x):
    return format(x, ".6g")


def _dtype_argument(name, given):
    if not isinstance(given, dtypes.dtype):
        raise TypeError(f"{name}(): argument 'type' (position 1) must be torch.dtype, not {type(given).__name__}")
    return given


class finfo:  # noqa: N801 - torch.finfo
    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, type=None):  # noqa: A002 - torch's argument name
        d = dtypes.float32 if type is None else _dtype_argument("finfo", type)
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        if d is dtypes.bfloat16:  # numpy has no bfloat16: float32's range with 8 bits of precision
            self.bits, self.eps, self.max = 16, 2.0 ** -7, (2 - 2.0 ** -7) * 2.0 ** 127
            self.tiny = self.smallest_normal = 2.0 ** -126
            self.resolution = 0.01
        else:
            info = np.finfo(d.np)
            self.bits = info.bits
            self.eps, self.max = info.eps.item(), info.max.item()
            self.tiny = self.smallest_normal = info.tiny.item()
            self.resolution = 10.0 ** -int(info.precision)
        self.min = -self.max
        self.dtype = d.name

    def __eq__(self, other):
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={_text(self.resolution)}, min={_text(self.min)}, max={_text(self.max)}, "
                f"eps={_text(self.eps)}, smallest_normal={_text(self.smallest_normal)}, tiny={_text(self.tiny)}, "
                f"dtype={self.dtype})")


class iinfo:  # noqa: N801 - torch.iinfo
    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, type):  # noqa: A002 - torch's argument name
        d = _dtype_argument("iinfo", type)
        if d is dtypes.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(d.np)
        self.bits, self.min, self.max, self.dtype = info.bits, int(info.min), int(info.max), d.name

    def __eq__(self, other):
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={_text(self.min)}, max={_text(self.max)}, dtype={self.dtype})"
