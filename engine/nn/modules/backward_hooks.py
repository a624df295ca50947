"""nn.Module's full backward hooks, as torch's BackwardHook (torch/utils/hooks.py) sets them up: the module's tensor
input that requires grad and its tensor output each pass through a BackwardHookFunctionBackward node; the output's
node hears the grads of the output (backward pre-hooks may replace them), the input's node then calls the backward
hooks with (grad_input, grad_output) (what a hook returns replaces grad_input). With no input that requires grad the
hooks are called at the output's node with grad_input (None,), and torch's warning.

The engine wraps one tensor input and one tensor output (torch's one node holds all of them): a module called with
several tensors that require grad, or giving several, with a full backward hook is refused, saying so."""
import sys
import warnings

from ... import dispatch, grad_mode, graph
from ...ops import OPS
from ...tensor import Tensor

NO_INPUT_WARNING = ("Full backward hook is firing when gradients are computed with respect to module outputs since no "
                    "inputs require gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                    "#torch.nn.Module.register_full_backward_hook for more details.")
GLOBAL_BACKWARD_HOOKS = {"backward_pre": [], "backward": []}


def wants_backward_hooks(module):
    d = module.__dict__
    return grad_mode.is_grad_enabled() and bool(d.get("_backward_hooks") or d.get("_backward_pre_hooks")
                                                or GLOBAL_BACKWARD_HOOKS["backward"]
                                                or GLOBAL_BACKWARD_HOOKS["backward_pre"])


class BackwardHook:
    def __init__(self, module):
        self.module = module
        self.grad_output = None
        self.n_inputs = 0
        self.input_wrapped = False

    def _hooks(self, kind):
        return (*GLOBAL_BACKWARD_HOOKS[kind], *self.module.__dict__.get(f"_{kind}_hooks", ()))

    def setup_input_hook(self, args):
        tensors = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        self.n_inputs = len(tensors)
        needing = [i for i in tensors if args[i].requires_grad]
        if len(needing) > 1:
            raise NotImplementedError(f"the engine runs full backward hooks on modules called with one tensor that "
                                      f"requires grad; {type(self.module).__name__} got {len(needing)}")
        if not needing:
            return args
        i = needing[0]
        wrapped = dispatch.apply(OPS["backward_hook"], (args[i],))
        graph.CUSTOM_VIEWS[id(wrapped)] = wrapped  # made by torch's BackwardHookFunction, a custom Function
        wrapped.grad_fn.register_hook(self._input_hook)
        self.input_wrapped = True
        return (*args[:i], wrapped, *args[i + 1:])

    def setup_output_hook(self, out):
        if not isinstance(out, Tensor):
            if isinstance(out, tuple) and any(isinstance(o, Tensor) and o.requires_grad for o in out):
                raise NotImplementedError("the engine runs full backward hooks on modules that give one tensor; "
                                          f"{type(self.module).__name__} gave a tuple")
            return out
        if not out.requires_grad:
            return out
        wrapped = dispatch.apply(OPS["backward_hook"], (out,))
        graph.CUSTOM_VIEWS[id(wrapped)] = wrapped
        wrapped.grad_fn.register_prehook(self._output_hook)
        return wrapped

    def _output_hook(self, grads):
        for hook in self._hooks("backward_pre"):
            result = hook(self.module, grads)
            if result is not None:
                grads = result if isinstance(result, tuple) else (result,)
        self.grad_output = grads
        if not self.input_wrapped:
            hooks = self._hooks("backward")
            if hooks:
                warnings.warn(NO_INPUT_WARNING, UserWarning, stacklevel=_program_level())
            for hook in hooks:
                hook(self.module, (None,) * max(self.n_inputs, 1), grads)
        return grads

    def _input_hook(self, grad_inputs, grad_outputs):
        replaced = None
        for hook in self._hooks("backward"):
            result = hook(self.module, grad_inputs if replaced is None else replaced, self.grad_output)
            if result is not None:
                replaced = result if isinstance(result, tuple) else (result,)
        return replaced


def _program_level():
    """The stacklevel of the program's line that started this backward pass (the first frame outside the engine)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("engine."):
        frame, level = frame.f_back, level + 1
    return level
