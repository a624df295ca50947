"""einops.layers.torch's Rearrange and Reduce: engine modules whose forward is einops' rearrange / reduce (their
patterns checked when they are made, as einops checks them), printed as einops prints them."""
from __future__ import annotations

from ...nn.modules.module import Module
from .operations import reduce
from .parsing import EinopsError, Side
from .recipe import prepare


def _check(layer, operation):
    """einops prepares a layer's recipes for every number of dims it could take: the pattern's errors come now."""
    try:
        left = Side(layer.pattern.split("->")[0])
        dims = [len(left.composition) - 1 + n for n in range(8)] if left.has_ellipsis else [len(left.composition)]
        for ndim in dims:
            prepare(layer.pattern, operation, tuple(layer.axes_lengths), ndim)
    except EinopsError as e:
        raise EinopsError(f" Error while preparing {layer!r}\n {e}") from None


class Rearrange(Module):
    def __init__(self, pattern, **axes_lengths):
        super().__init__()
        self.pattern, self.axes_lengths = pattern, axes_lengths
        _check(self, "rearrange")

    def forward(self, input):  # noqa: A002 - torch's name
        return reduce(input, self.pattern, "rearrange", **self.axes_lengths)

    def __repr__(self):
        return f"{type(self).__name__}({self.pattern!r}{''.join(f', {k}={v}' for k, v in self.axes_lengths.items())})"


class Reduce(Module):
    def __init__(self, pattern, reduction, **axes_lengths):
        super().__init__()
        self.pattern, self.reduction, self.axes_lengths = pattern, reduction, axes_lengths
        _check(self, reduction)

    def forward(self, input):  # noqa: A002 - torch's name
        return reduce(input, self.pattern, self.reduction, **self.axes_lengths)

    def __repr__(self):
        extra = "".join(f", {k}={v}" for k, v in self.axes_lengths.items())
        return f"{type(self).__name__}({self.pattern!r}, {self.reduction!r}{extra})"
