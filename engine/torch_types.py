"""torch.types: the aliases annotations use (Number, Device) and the classes it names (Tensor, Size)."""
from .devices import device
from .tensor import Size, Tensor

__all__ = ["Device", "Number", "Size", "Tensor"]

Number = int | float | bool


class _Union:
    """A union of the engine's classes with builtins, printed as torch's (a `X | Y` of them would print the
    engine's module names) and used in isinstance as torch's."""

    __slots__ = ("_text", "_classes")

    def __init__(self, text, classes):
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_classes", classes)

    def __setattr__(self, name, value):
        raise AttributeError("torch.types' aliases are read-only")

    def __instancecheck__(self, obj):
        return isinstance(obj, self._classes)

    def __repr__(self):
        return self._text


Device = _Union("torch.device | str | int | None", (device, str, int, type(None)))
