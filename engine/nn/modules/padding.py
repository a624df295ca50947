"""The padding layers (torch.nn.modules.padding): Zero/Constant/Reflection/Replication/CircularPad 1d-3d, each
F.pad with its mode."""
from .. import functional as F
from .module import Module


def _ntuple(padding, n):
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * n


class _Pad(Module):
    _mode = "constant"
    _dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._dims)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPad(_Pad):
    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class _ZeroPad(_ConstantPad):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class _CircularPad(_Pad):
    _mode = "circular"

    def forward(self, input):
        want = self._dims + 1
        if input.dim() not in (want, want + 1):
            raise ValueError(f"expected {want}D or {want + 1}D input (got {input.dim()}D input)")
        return F.pad(input, self.padding, "circular")


def _family(base, name, mode=None):
    classes = []
    for k in (1, 2, 3):
        attrs = {"_dims": k, "__module__": __name__}
        if mode:
            attrs["_mode"] = mode
        classes.append(type(f"{name}{k}d", (base,), attrs))
    return classes


ConstantPad1d, ConstantPad2d, ConstantPad3d = _family(_ConstantPad, "ConstantPad")
ZeroPad1d, ZeroPad2d, ZeroPad3d = _family(_ZeroPad, "ZeroPad")
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = _family(_Pad, "ReflectionPad", "reflect")
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = _family(_Pad, "ReplicationPad", "replicate")
CircularPad1d, CircularPad2d, CircularPad3d = _family(_CircularPad, "CircularPad")
