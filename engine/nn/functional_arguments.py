"""torch.nn.functional given what is not a tensor where a tensor goes (a model fed a numpy array, a loss a list):
torch's argument parser's TypeError, or the error of the attribute torch's Python code calls first (list.size()),
at each position functional_argument_table.py names."""
import functools

from ..messages import CHECK_FRAMES, not_a_tensor
from ..tensor import Tensor
from .functional_argument_table import TABLE


def _checked(fn, checks):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        for i, what in checks:
            if i >= len(args):
                break
            x = args[i]
            if isinstance(x, Tensor) or what[0] == "parser" and x is None and not what[4]:
                continue
            if what[0] == "parser":
                raise not_a_tensor(what[1], what[2], what[3], x)
            getattr(x, what[1])()
        return fn(*args, **kwargs)

    CHECK_FRAMES.add(call.__code__)
    return call


def checked(namespace):
    """The functions of `namespace` the table names, each checking its arguments first."""
    return {name: _checked(namespace[name], checks) for name, checks in TABLE.items() if name in namespace}
