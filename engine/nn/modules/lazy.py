"""Lazy modules: built before their input's size is known, with uninitialized parameters and buffers. The first call
gives them their shapes in place (an optimizer made before it holds the same objects), initialises them as the
module they become, and turns the module into that class (LazyLinear becomes Linear), as torch's LazyModuleMixin."""
from ... import devices, factories, meta, observe
from ...torch_names import name_as_torch
from .. import init
from ..parameter import UninitializedBuffer, UninitializedParameter
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .factory_kwargs import drawing_nothing
from .layers import BatchNorm1d, BatchNorm2d, Linear
from .module import Module
from .norms import BatchNorm3d, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d


class LazyModuleMixin:
    cls_to_become = None

    def has_uninitialized_params(self):
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(isinstance(t, (UninitializedParameter, UninitializedBuffer)) for t in tensors)

    def _lazy_device(self, device):
        """A lazy module may be made on meta (its tensors get there when shaped); on another device, as any."""
        object.__setattr__(self, "_on_meta", meta.is_meta(device))
        if not self._on_meta:
            devices.check(device)

    def forward(self, *args, **kwargs):
        """The first call: shapes from the input (where load_state_dict gave them, LazyLinear still reads
        in_features from it, as torch's does), then the class the module becomes."""
        if self.has_uninitialized_params():
            with observe.muted():  # a watcher sees the initialised parameters, not how they were made
                if self.__dict__.get("_on_meta"):  # made on meta: shaped there, its initialisers drawing nothing
                    with drawing_nothing():
                        self.initialize_parameters(*args, **kwargs)
                    self._to_meta()
                else:
                    self.initialize_parameters(*args, **kwargs)
        elif isinstance(self, LazyLinear):
            self.in_features = args[0].shape[-1]
        if self.cls_to_become is not None:
            self.__class__ = self.cls_to_become
            for p in self.parameters():
                if observe._observers:
                    observe.emit("on_tensor", p)
        return self.forward(*args, **kwargs)


class LazyLinear(LazyModuleMixin, Linear):
    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self._lazy_device(device)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter(dtype=dtype)
        self.bias = UninitializedParameter(dtype=dtype) if bias else None

    def initialize_parameters(self, input):
        self.in_features = input.shape[-1]
        self.weight.materialize((self.out_features, self.in_features))
        if self.bias is not None:
            self.bias.materialize((self.out_features,))
        self.reset_parameters()


class _LazyNorm(LazyModuleMixin):
    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        Module.__init__(self)
        self._lazy_device(device)
        self.num_features, self.eps, self.momentum = 0, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        for name in ("weight", "bias"):
            self.register_parameter(name, UninitializedParameter(dtype=dtype) if affine else None)
        for name in ("running_mean", "running_var"):
            self.register_buffer(name, UninitializedBuffer(dtype=dtype) if track_running_stats else None)
        self.register_buffer("num_batches_tracked", factories.tensor(0) if track_running_stats else None)
        if self._on_meta and track_running_stats:
            meta.placed(self.num_batches_tracked)

    def initialize_parameters(self, input):
        self.num_features = input.shape[1]  # torch's: also for an instance norm's unbatched input
        for t in (self.weight, self.bias, self.running_mean, self.running_var):
            if t is not None:
                t.materialize((self.num_features,))
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            if not self._on_meta:  # on meta it has no number to reset
                self.num_batches_tracked.zero_()
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)


def _lazy_norm(norm):
    cls = type("Lazy" + norm.__name__, (_LazyNorm, norm), {"cls_to_become": norm, "__module__": __name__})
    cls.__qualname__ = cls.__name__
    return cls


LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d = (_lazy_norm(n) for n in (BatchNorm1d, BatchNorm2d, BatchNorm3d))
LazyInstanceNorm1d, LazyInstanceNorm2d, LazyInstanceNorm3d = (
    _lazy_norm(n) for n in (InstanceNorm1d, InstanceNorm2d, InstanceNorm3d))


class _LazyConv(LazyModuleMixin):
    def _lazy(self, out_channels, bias, dtype):
        self.out_channels = out_channels
        self.weight = UninitializedParameter(dtype=dtype)
        self.bias = UninitializedParameter(dtype=dtype) if bias else None

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels:
            super().reset_parameters()

    def initialize_parameters(self, input, *args):
        k = self._k
        if input.dim() not in (k + 1, k + 2):
            raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to {type(self).__name__}, "
                               f"but got input of size: {list(input.shape)}")
        self.in_channels = input.shape[1] if input.dim() == k + 2 else input.shape[0]
        if self.in_channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        shape = ((self.in_channels, self.out_channels // self.groups) if self._transposed
                 else (self.out_channels, self.in_channels // self.groups)) + self.kernel_size
        self.weight.materialize(shape)
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.reset_parameters()


def _lazy_conv(conv):
    class Lazy(_LazyConv, conv):
        cls_to_become = conv

        def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                     padding_mode="zeros", device=None, dtype=None):
            conv.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, device,
                          dtype)
            self._lazy_device(device)
            self._lazy(out_channels, bias, dtype)

    class LazyTransposed(_LazyConv, conv):
        cls_to_become = conv

        def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                     dilation=1, padding_mode="zeros", device=None, dtype=None):
            conv.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                          padding_mode, device, dtype)
            self._lazy_device(device)
            self._lazy(out_channels, bias, dtype)

    cls = LazyTransposed if conv._transposed else Lazy
    cls.__name__ = cls.__qualname__ = "Lazy" + conv.__name__
    name_as_torch(cls)
    return cls


LazyConv1d, LazyConv2d, LazyConv3d = (_lazy_conv(c) for c in (Conv1d, Conv2d, Conv3d))
LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d = (
    _lazy_conv(c) for c in (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d))
