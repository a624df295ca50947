"""The engine's classes as a program sees them printed: `type(x)` of a tensor is <class 'torch.Tensor'>, as in torch.

A class with this metaclass names itself by its `_torch_name`; its subclasses without one (a program's own) print as
any class does."""


class TorchClass(type):
    def __repr__(cls):
        name = cls.__dict__.get("_torch_name")
        return f"<class '{name}'>" if name else super().__repr__()
