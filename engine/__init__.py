"""A pure-Python autograd engine on numpy with PyTorch's semantics: `import engine as torch`.

Layers import one way, bottom up (tests/engine/test_layers.py keeps it so):
dtypes, devices, limits, messages, observe, grad_mode, printing, kernels, generator → ops → graph, backward →
tensor, dispatch, methods, logic → factories, functions, indexing, random, nn, optim, utils, cuda, accelerator,
backends → autograd → distributions → trace.
The torch.* functions that are an op's spelling come from the op table (engine/methods.py).
"""
import sys as _sys
from math import e, inf, nan, pi  # noqa: F401 - torch.e, torch.inf, torch.nan, torch.pi

import numpy as _np

from . import (  # noqa: F401
    accelerator,
    amp,
    autograd,
    backends,
    cuda,
    distributions,
    dtypes,
    fft,
    func,
    indexing,
    linalg,
    logic,
    masked,
    methods,
    nn,
    optim,
    random,
    resizing,
    signal,
    special,
    storage,
    testing,
    utils,
    version,
)
from .amp import autocast  # noqa: F401
from .devices import device, get_default_device, set_default_device  # noqa: F401
from .dtypes import (  # noqa: A004, F401
    bfloat16,
    bool,
    cdouble,
    cfloat,
    chalf,
    complex32,
    complex64,
    complex128,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    layout,
    long,
    set_default_dtype,
    short,
    strided,
    uint8,
)
from .factories import (  # noqa: F401
    arange,
    as_tensor,
    empty,
    empty_like,
    empty_permuted,
    empty_strided,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    scalar_tensor,
    tensor,
    zeros,
    zeros_like,
)
from .func import vmap  # noqa: F401
from .functions import (  # noqa: F401
    broadcast_shapes,
    can_cast,
    detach,
    detach_,
    get_device,
    is_complex,
    is_conj,
    is_floating_point,
    is_inference,
    is_neg,
    is_nonzero,
    is_same_size,
    is_signed,
    is_tensor,
    numel,
    promote_types,
    result_type,
    square_,
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
from .legacy import (  # noqa: F401
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    eig,
    frobenius_norm,
    is_warn_always_enabled,
    lstsq,
    matrix_rank,
    nuclear_norm,
    range,
    set_default_tensor_type,
    set_warn_always,
    solve,
    symeig,
    typename,
)
from .limits import finfo, iinfo  # noqa: F401
from .lowrank import pca_lowrank, svd_lowrank  # noqa: F401
from .memory import channels_last, channels_last_3d, contiguous_format, memory_format, preserve_format  # noqa: F401
from .nn.aten_functions import (  # noqa: F401 - ATen's signatures of nn functions, as torch.* spells them
    adaptive_max_pool1d,
    alpha_dropout,
    alpha_dropout_,
    batch_norm,
    binary_cross_entropy_with_logits,
    convolution,
    cosine_embedding_loss,
    ctc_loss,
    dropout,
    dropout_,
    embedding_bag,
    feature_alpha_dropout,
    feature_alpha_dropout_,
    feature_dropout,
    feature_dropout_,
    group_norm,
    gru,
    gru_cell,
    hinge_embedding_loss,
    instance_norm,
    kl_div,
    layer_norm,
    lstm,
    lstm_cell,
    margin_ranking_loss,
    max_pool1d_with_indices,
    poisson_nll_loss,
    rnn_relu,
    rnn_relu_cell,
    rnn_tanh,
    rnn_tanh_cell,
    triplet_margin_loss,
)
from .nn.basic_functions import _native_batch_norm_legit, native_batch_norm, native_dropout  # noqa: F401
from .nn.functional import (  # noqa: F401 - torch.* spellings of nn.functional's functions
    adaptive_avg_pool1d,
    bilinear,
    celu,
    celu_,
    cosine_similarity,
    max_pool3d,
    native_group_norm,
    native_layer_norm,
    pairwise_distance,
    prelu,
    rms_norm,
    rrelu,
    rrelu_,
    selu,
    selu_,
    threshold,
    threshold_,
)
from .nn.utils.weight_norm import _weight_norm, norm_except_dim  # noqa: F401
from .printing import set_printoptions  # noqa: F401

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
from .resizing import as_strided_, resize_as_  # noqa: F401
from .serialization import load, save  # noqa: F401
from .settings import (  # noqa: F401
    are_deterministic_algorithms_enabled,
    compile,
    get_deterministic_debug_mode,
    get_float32_matmul_precision,
    get_num_interop_threads,
    get_num_threads,
    is_deterministic_algorithms_warn_only_enabled,
    set_deterministic_debug_mode,
    set_float32_matmul_precision,
    set_flush_denormal,
    set_num_interop_threads,
    set_num_threads,
    use_deterministic_algorithms,
)
from .storage import asarray, frombuffer  # noqa: F401
from .tensor import Size, Tensor  # noqa: F401
from .utils import checkpoint as _checkpoint  # noqa: F401 - torch.utils.checkpoint, as `import torch` gives it
from .windows import bartlett_window, blackman_window, hamming_window, hann_window, kaiser_window, vander  # noqa: F401

globals().update(methods.FUNCTIONS)
newaxis = None
globals().update(logic.FUNCTIONS)
amp.install(_sys.modules[__name__])
from .amp import get_autocast_dtype, is_autocast_enabled  # noqa: E402, F401

__version__ = version.__version__

# Like PyTorch, the engine makes inf and nan silently (1/0, inf - inf, 0 * inf): numpy's floating-point
# warnings would be noise no PyTorch user sees. numpy keeps this state per thread (a context variable): engine code
# run in another thread should run inside `numpy.errstate(all="ignore")`, as backward passes and traced programs do.
_np.seterr(all="ignore")
