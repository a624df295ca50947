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
