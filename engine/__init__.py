"""A pure-Python autograd engine on numpy with PyTorch's semantics: `import engine as torch`."""
from . import autograd, dtypes, nn, optim  # noqa: F401
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
    clamp,
    clip,
    clone,
    concat,
    cos,
    detach,
    div,
    dot,
    equal,
    exp,
    flatten,
    is_tensor,
    log,
    log_softmax,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    mm,
    mul,
    neg,
    numel,
    permute,
    pow,
    reciprocal,
    relu,
    reshape,
    sigmoid,
    sin,
    softmax,
    sqrt,
    square,
    squeeze,
    stack,
    sub,
    sum,
    t,
    tanh,
    transpose,
    unsqueeze,
    where,
)
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from ._tensor import Size, Tensor  # noqa: F401

__version__ = "2.13.0"


def is_floating_point(input):
    return input.is_floating_point()


def inference_mode(mode=True):
    return no_grad() if mode else enable_grad()
