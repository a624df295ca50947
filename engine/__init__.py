"""A pure-Python autograd engine on numpy with PyTorch's semantics: `import engine as torch`."""
import numpy as _np

from . import autograd, dtypes, nn, optim  # noqa: F401
from ._tensor import Size, Tensor  # noqa: F401
from .dtypes import bool, double, dtype, float, float32, float64, int64, long  # noqa: A004, F401
from .factories import (  # noqa: F401
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    manual_seed,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    tensor,
    zeros,
    zeros_like,
)
from .functions import (  # noqa: F401
    abs,
    add,
    allclose,
    argmax,
    argmin,
    cat,
    ceil,
    clamp,
    clip,
    clone,
    concat,
    cos,
    cumsum,
    detach,
    div,
    dot,
    equal,
    exp,
    expm1,
    flatten,
    floor,
    is_tensor,
    isinf,
    isnan,
    log,
    log1p,
    log_softmax,
    logsumexp,
    masked_fill,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    mm,
    mul,
    neg,
    norm,
    numel,
    outer,
    permute,
    pow,
    reciprocal,
    relu,
    reshape,
    round,
    rsqrt,
    sigmoid,
    sin,
    softmax,
    sqrt,
    square,
    squeeze,
    stack,
    std,
    sub,
    sum,
    t,
    tan,
    tanh,
    transpose,
    unsqueeze,
    var,
    where,
)
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401

__version__ = "2.13.0"

# Like PyTorch, the engine makes inf and nan silently (1/0, inf - inf, 0 * inf): numpy's floating-point
# warnings would be noise no PyTorch user sees. This sets numpy's error state for the importing thread.
_np.seterr(all="ignore")


def is_floating_point(input):
    return input.is_floating_point()


def inference_mode(mode=True):
    return no_grad() if mode else enable_grad()
