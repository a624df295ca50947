"""torch's argument parser on a factory's sizes (`zeros(2, 3)`, `zeros((2, 3))`, `zeros([2, 3])`, `size=`): the
TypeError it gives where one is not an int (a float, a bool, a tensor of several elements), each in its own words."""
import numpy as np

from .tensor import Tensor


def _int_like(x):
    if isinstance(x, Tensor):
        return x.dim() == 0 and not x.dtype.is_floating_point and x.dtype.name != "bool"
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _type_name(x):
    return "Tensor" if isinstance(x, Tensor) else type(x).__name__


def _unpack_error(name, pos, x):
    return TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {pos} with error \"type must be "
                     f"tuple of ints,but got {_type_name(x)}\"")


def checked_sizes(name, shape, size=None):
    if size is not None:
        if isinstance(size, (tuple, list)):
            bad = next((i for i, s in enumerate(size) if not _int_like(s)), None)
            if bad is not None:
                raise _unpack_error(name, bad + 1, size[bad])
        elif not _int_like(size):
            raise TypeError(f"{name}(): argument 'size' must be tuple of ints, not {_type_name(size)}")
        return
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        sequence = shape[0]
        bad = next((i for i, s in enumerate(sequence) if not _int_like(s)), None)
        if bad is not None:
            if isinstance(sequence, list):
                raise _unpack_error(name, bad + 1, sequence[bad])
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, but found element of type "
                            f"{_type_name(sequence[bad])} at pos {bad}")
        return
    if shape and not _int_like(shape[0]):
        if len(shape) > 1:
            raise TypeError(f"{name}() takes 1 positional argument but {len(shape)} were given")
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not {_type_name(shape[0])}")
    bad = next((i for i, s in enumerate(shape) if not _int_like(s)), None)
    if bad is not None:
        raise _unpack_error(name, bad + 1, shape[bad])
