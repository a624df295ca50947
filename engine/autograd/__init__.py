"""torch.autograd: backward and grad, custom Functions, the functional API, graph nodes and their hooks,
gradcheck, inference mode and anomaly detection."""
from .. import grad_mode  # noqa: F401
from ..grad_mode import (  # noqa: F401 - torch.autograd.no_grad, torch.autograd.grad_mode
    enable_grad,
    inference_mode,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from . import anomaly_mode, forward_ad, function, functional, graph, module_hooks  # noqa: F401
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from .differentiate import backward, grad  # noqa: F401
from .function import Function, InplaceFunction, once_differentiable  # noqa: F401
from .gradcheck import gradcheck, gradgradcheck  # noqa: F401
from .variable import Variable  # noqa: F401
