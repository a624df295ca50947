"""torch.func: function transforms (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap) and functional calls of
modules, run on the engine so that what they record is the learner's to step through."""
from .modules import functional_call, replace_all_batch_norm_modules_, stack_module_state  # noqa: F401
from .transforms import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, linearize, vjp  # noqa: F401
from .vmap import vmap  # noqa: F401
