"""The pooling layers beyond MaxPool1d/2d, AvgPool1d/2d and AdaptiveAvgPool2d (conv.py): MaxPool3d, AvgPool3d,
AdaptiveAvgPool1d/3d, AdaptiveMaxPool1d/2d/3d, LPPool1d/2d/3d, MaxUnpool1d/2d/3d."""
from .. import functional as F
from .conv import _MaxPoolNd
from .module import Module


class MaxPool3d(_MaxPoolNd):
    def forward(self, input):  # noqa: A002
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool3d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input):  # noqa: A002
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class _AdaptiveAvgPool(Module):
    _fn = None

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):  # noqa: A002
        return type(self)._fn(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPool):
    _fn = F.adaptive_avg_pool1d


class AdaptiveAvgPool3d(_AdaptiveAvgPool):
    _fn = F.adaptive_avg_pool3d


class _AdaptiveMaxPool(Module):
    _fn = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):  # noqa: A002
        return type(self)._fn(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPool):
    _fn = F.adaptive_max_pool1d


class AdaptiveMaxPool2d(_AdaptiveMaxPool):
    _fn = F.adaptive_max_pool2d


class AdaptiveMaxPool3d(_AdaptiveMaxPool):
    _fn = F.adaptive_max_pool3d


class _LPPool(Module):
    _fn = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")

    def forward(self, input):  # noqa: A002
        return type(self)._fn(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool1d(_LPPool):
    _fn = F.lp_pool1d


class LPPool2d(_LPPool):
    _fn = F.lp_pool2d


class LPPool3d(_LPPool):
    _fn = F.lp_pool3d


class _MaxUnpoolNd(Module):
    _k = 1
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        k = self._k
        self.kernel_size = _ntuple(kernel_size, k)
        self.stride = _ntuple(stride if stride is not None else kernel_size, k)
        self.padding = _ntuple(padding, k)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input, indices, output_size=None):  # noqa: A002
        return type(self)._fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)


def _ntuple(value, k):
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * k


class MaxUnpool1d(_MaxUnpoolNd):
    _k, _fn = 1, F.max_unpool1d


class MaxUnpool2d(_MaxUnpoolNd):
    _k, _fn = 2, F.max_unpool2d


class MaxUnpool3d(_MaxUnpoolNd):
    _k, _fn = 3, F.max_unpool3d


class _FractionalMaxPool(Module):
    """torch's FractionalMaxPool2d/3d: kernel and output size (or ratio) as tuples, fixed samples as a buffer."""
    _k = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        k = self._k
        name = type(self).__name__
        if k == 3 and ((isinstance(kernel_size, int) and kernel_size <= 0)
                       or (isinstance(kernel_size, (tuple, list)) and not all(v > 0 for v in kernel_size))):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        self.kernel_size = _repeated(kernel_size, k)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _repeated(output_size, k) if output_size is not None else None
        self.output_ratio = _repeated(output_ratio, k) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):  # noqa: A002
        fn = F.fractional_max_pool2d if self._k == 2 else F.fractional_max_pool3d
        return fn(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                  _random_samples=self._random_samples)


def _repeated(value, k):
    try:
        return tuple(value)
    except TypeError:
        return (value,) * k


class FractionalMaxPool2d(_FractionalMaxPool):
    _k = 2


class FractionalMaxPool3d(_FractionalMaxPool):
    _k = 3
