"""The convolution and pooling layers: Conv1d/2d/3d, ConvTranspose1d/2d/3d, MaxPool1d/2d, AvgPool1d/2d,
AdaptiveAvgPool2d and Dropout1d/2d (whole channels dropped), with torch's arguments, default init and printed form."""
import math

from ... import factories, observe
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

_MODES = {"zeros", "reflect", "replicate", "circular"}  # torch prints this set, in its hash order


def _ntuple(value, k):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * k


def _reversed_padding(padding, kernel_size, dilation):
    """What F.pad takes for a padding_mode other than zeros: (before, after) per dim, the last dim first; 'same'
    puts the odd one after."""
    if padding == "valid":
        return [0, 0] * len(kernel_size)
    if padding == "same":
        out = []
        for d, k in reversed(list(zip(dilation, kernel_size))):
            total = d * (k - 1)
            out += [total // 2, total - total // 2]
        return out
    return tuple(p for p in reversed(padding) for _ in range(2))


class _ConvNd(Module):
    _k = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None, output_padding=0):
        super().__init__()
        k = self._k
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in _ntuple(stride, k)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _MODES:
            raise ValueError(f"padding_mode must be one of {_MODES}, but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _ntuple(kernel_size, k)
        self.stride = _ntuple(stride, k)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, k)
        self.dilation = _ntuple(dilation, k)
        self.transposed = self._transposed
        self.output_padding = _ntuple(output_padding, k)
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = _reversed_padding(self.padding, self.kernel_size, self.dilation)
        shape = ((in_channels, out_channels // groups) if self._transposed
                 else (out_channels, in_channels // groups)) + self.kernel_size
        with observe.muted():  # a watcher sees the initialised parameters, not how they were made
            self.weight = Parameter(factories.empty(*shape, dtype=dtype))
            if bias:
                self.bias = Parameter(factories.empty(out_channels, dtype=dtype))
            else:
                self.register_parameter("bias", None)
            self.reset_parameters()
        for p in (self.weight, self.bias):
            if p is not None and observe._observers:
                observe.emit("on_tensor", p)

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        k = self._k
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * k:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * k:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * k:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s

    def forward(self, input):  # noqa: A002
        f = getattr(F, f"conv{self._k}d")
        if self.padding_mode != "zeros":
            input = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)  # noqa: A001
            return f(input, self.weight, self.bias, self.stride, (0,) * self._k, self.dilation, self.groups)
        return f(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(_ConvNd):
    _k = 1


class Conv2d(_ConvNd):
    _k = 2


class Conv3d(_ConvNd):
    _k = 3


class _ConvTransposeNd(_ConvNd):
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype, output_padding)

    def forward(self, input, output_size=None):  # noqa: A002
        f = getattr(F, f"conv_transpose{self._k}d")
        return f(input, self.weight, self.bias, self.stride, self.padding, self.output_padding, self.groups,
                 self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    _k = 1


class ConvTranspose2d(_ConvTransposeNd):
    _k = 2


class ConvTranspose3d(_ConvTransposeNd):
    _k = 3


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    def forward(self, input):  # noqa: A002
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    def forward(self, input):  # noqa: A002
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input):  # noqa: A002
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool2d(Module):
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
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_DropoutNd):
    def forward(self, input):  # noqa: A002
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    def forward(self, input):  # noqa: A002
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    def forward(self, input):  # noqa: A002
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    def forward(self, input):  # noqa: A002
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    def forward(self, input):  # noqa: A002
        return F.feature_alpha_dropout(input, self.p, self.training)


class _Shuffle(Module):
    _fn = None
    _name = "upscale_factor"

    def __init__(self, factor):
        super().__init__()
        setattr(self, self._name, factor)

    def forward(self, input):  # noqa: A002
        return type(self)._fn(input, getattr(self, self._name))

    def extra_repr(self):
        return f"{self._name}={getattr(self, self._name)}"


class PixelShuffle(_Shuffle):
    _fn = F.pixel_shuffle


class PixelUnshuffle(_Shuffle):
    _fn = F.pixel_unshuffle
    _name = "downscale_factor"


class ChannelShuffle(_Shuffle):
    _fn = F.channel_shuffle
    _name = "groups"

    def extra_repr(self):
        return f"groups={self.groups}"


class AdaptiveAvgPool2d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"
