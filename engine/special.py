"""torch.special. The functions that are one op's spelling (erfcx, i1, xlog1py, …) are derived from the op table
(engine/methods.py); these are the ones torch does not differentiate (Bessel functions, orthogonal polynomials) and
the aliases of functions that live elsewhere."""
import numpy as np

from .kernels import bessel, polynomials
from .messages import invalid_arguments
from .methods import FUNCTIONS, SPECIAL, _written_out
from .ops.table import binary_signatures, result_dtype
from .tensor import Tensor

globals().update(SPECIAL)


def _undifferentiated(name, kernel, arity=1):
    """A torch.special function with no derivative: its result has no grad_fn, as torch's has none."""
    def function(*args, out=None, **kwargs):
        if "input" in kwargs:
            args = (kwargs.pop("input"), *args)
        tensors = [a for a in args if isinstance(a, Tensor)]
        if not tensors and arity == 2:
            raise invalid_arguments(f"special_{name}", binary_signatures("n", "out", "x"), args, kwargs)
        if not tensors:
            raise TypeError(f"special_{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(args[0]).__name__}")
        dtype = result_dtype(args, "float")
        arrays = [a._data if isinstance(a, Tensor) else a for a in args]
        shape = np.broadcast_shapes(*[np.shape(a) for a in arrays])
        with np.errstate(all="ignore"):
            value = np.asarray(kernel(*arrays), dtype=np.float64)
        result = Tensor._make(np.broadcast_to(value, shape).astype(dtype.np), dtype)
        return result if out is None else _written_out(f"special_{name}", result, out)

    function.__name__ = function.__qualname__ = "special_" + name
    return function


for _name in ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
              "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
              "spherical_bessel_j0"):
    globals()[_name] = _undifferentiated(_name, getattr(bessel, _name))
for _name in polynomials.POLYNOMIALS:
    globals()[_name] = _undifferentiated(_name, getattr(polynomials, _name), 2)

# aliases of torch.* functions that are not one op's spelling
expit = FUNCTIONS["sigmoid"]
softmax, log_softmax, logsumexp = FUNCTIONS["softmax"], FUNCTIONS["log_softmax"], FUNCTIONS["logsumexp"]
