"""A pure-Python autograd engine on numpy with PyTorch's semantics: `import engine as torch`.

Layers import one way, bottom up (tests/engine/test_layers.py keeps it so):
dtypes, devices, limits, messages, observe, grad_mode, printing, kernels, generator → ops → graph, backward →
tensor, dispatch, methods, logic → factories, functions, indexing, random, nn, optim, utils, cuda, accelerator,
backends → autograd → trace.
The torch.* functions that are an op's spelling come from the op table (engine/methods.py).
"""
import numpy as _np

from . import (  # noqa: F401
    accelerator,
    autograd,
    backends,
    cuda,
    dtypes,
    indexing,
    logic,
    methods,
    nn,
    optim,
    random,
    special,
    utils,
)
from .devices import device, get_default_device, set_default_device  # noqa: F401
from .dtypes import bool, double, dtype, float, float32, float64, int, int32, int64, long, uint8  # noqa: A004, F401
from .factories import (  # noqa: F401
    BoolTensor,
    DoubleTensor,
    FloatTensor,
    IntTensor,
    LongTensor,
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from .functions import (  # noqa: F401
    broadcast_shapes,
    detach,
    is_floating_point,
    is_tensor,
    numel,
    tril_indices,
    triu_indices,
    where,
)
from .grad_mode import (  # noqa: F401
    enable_grad,
    inference_mode,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_anomaly_enabled,
    set_grad_enabled,
)
from .layout import channels_last, channels_last_3d, contiguous_format, memory_format, preserve_format  # noqa: F401
from .limits import finfo, iinfo  # noqa: F401

# --- random numbers: PyTorch's CPU generator (engine/generator, engine/random.py) --------------------------------
from .random import (  # noqa: F401
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    multinomial,
    normal,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
from .tensor import Size, Tensor  # noqa: F401

globals().update(methods.FUNCTIONS)
globals().update(logic.FUNCTIONS)

__version__ = "2.13.0"

# Like PyTorch, the engine makes inf and nan silently (1/0, inf - inf, 0 * inf): numpy's floating-point
# warnings would be noise no PyTorch user sees. numpy keeps this state per thread (a context variable): engine code
# run in another thread should run inside `numpy.errstate(all="ignore")`, as backward passes and traced programs do.
_np.seterr(all="ignore")
