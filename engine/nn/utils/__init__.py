"""torch.nn.utils: gradient clipping, parameters as one vector, padded and packed sequences (rnn), the hook-based
weight_norm and spectral_norm, parametrize and parametrizations.weight_norm / spectral_norm, and functional_call
(stateless), conv/linear + batch norm fusion, skip_init and
prune."""
from . import clip_grad, convert_parameters, parametrizations, parametrize, prune, rnn, stateless  # noqa: F401
from .clip_grad import (  # noqa: F401
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from .fusion import (  # noqa: F401
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from .init import skip_init  # noqa: F401
from .spectral_norm import remove_spectral_norm, spectral_norm  # noqa: F401
from .weight_norm import remove_weight_norm, weight_norm  # noqa: F401
