"""nn.Module's full backward hooks, as torch's BackwardHook (torch/utils/hooks.py) sets them up: the module's tensor
inputs, when one requires grad, pass through one BackwardHookFunction (a custom Function that returns them), and so
do its tensor outputs. The outputs' node hears the grads of the outputs (backward pre-hooks may replace them); the
inputs' node then calls the backward hooks with (grad_input, grad_output), None where an argument is not a tensor
(what a hook returns replaces grad_input). With no input that requires grad, the hooks are called at the outputs'
node, with torch's warning.

The Function is a custom autograd.Function, a layer above nn: engine.autograd puts its apply in FUNCTION."""

from ... import grad_mode, messages
from ...tensor import Tensor

NO_INPUT_WARNING = ("Full backward hook is firing when gradients are computed with respect to module outputs since no "
                    "inputs require gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                    "#torch.nn.Module.register_full_backward_hook for more details.")
GLOBAL_BACKWARD_HOOKS = {"backward_pre": [], "backward": []}
FUNCTION = {}  # "apply": BackwardHookFunction.apply, set by engine.autograd.module_hooks


def wants_backward_hooks(module):
    d = module.__dict__
    return grad_mode.is_grad_enabled() and bool(d.get("_backward_hooks") or d.get("_backward_pre_hooks")
                                                or GLOBAL_BACKWARD_HOOKS["backward"]
                                                or GLOBAL_BACKWARD_HOOKS["backward_pre"])


class BackwardHook:
    def __init__(self, module):
        self.module = module
        self.grad_outputs = None
        self.n_outputs = self.n_inputs = -1
        self.output_tensors_index = self.input_tensors_index = None

    def _hooks(self, kind):
        return (*GLOBAL_BACKWARD_HOOKS[kind], *self.module.__dict__.get(f"_{kind}_hooks", ()))

    def setup_input_hook(self, args):
        res, self.input_tensors_index = self._apply_on_tensors(self._input_hook, args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, out):
        if not isinstance(out, Tensor | tuple):
            messages.warn_at_caller("For backward hooks to be called, module output should be a Tensor or a tuple "
                                    f"of Tensors but received {type(out)}")
        is_tuple = isinstance(out, tuple)
        args = out if is_tuple else (out,)
        res, self.output_tensors_index = self._apply_on_tensors(self._output_hook, args)
        self.n_outputs = len(args)
        return res if is_tuple else res[0]

    def _apply_on_tensors(self, hook, args):
        index = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not (any(args[i].requires_grad for i in index) and grad_mode.is_grad_enabled()):
            return args, None
        wrapped = FUNCTION["apply"](*(args[i] for i in index))
        grad_fn = next(t.grad_fn for t in wrapped if t.grad_fn is not None
                       and type(t.grad_fn).__name__ == "BackwardHookFunctionBackward")
        grad_fn.register_hook(hook)
        replaced = list(args)
        for i, t in zip(index, wrapped, strict=True):
            replaced[i] = t
        return (tuple(replaced) if type(args) is tuple else type(args)(*replaced)), index

    def _output_hook(self, _, grad_output):
        self.grad_outputs = _pack(self.output_tensors_index, grad_output, self.n_outputs)
        pre_hooks = self._hooks("backward_pre")
        if pre_hooks:
            expected = len(self.grad_outputs)
            for hook in pre_hooks:
                result = hook(self.module, self.grad_outputs)
                if result is None:
                    continue
                if len(result) != expected:
                    raise RuntimeError("Backward pre hook returned an invalid number of grad_output, got "
                                       f"{len(result)}, but expected {expected}")
                self.grad_outputs = result
        grad_outputs = self.grad_outputs
        if self.input_tensors_index is None:
            messages.warn_at_caller(NO_INPUT_WARNING)
            grad_inputs = (None,) * self.n_inputs
            for hook in self._hooks("backward"):
                result = hook(self.module, grad_inputs, self.grad_outputs)
                if result is not None and not (isinstance(result, tuple) and all(r is None for r in result)):
                    raise RuntimeError("Backward hook for Modules where no input requires gradient should always "
                                       "return None or None for all gradients.")
            self.grad_outputs = None
        if grad_outputs is not None:
            return tuple(grad_outputs[i] for i in self.output_tensors_index)
        return None

    def _input_hook(self, grad_input, _):
        if self.grad_outputs is None:  # the grad reached the inputs without passing the outputs (double backward)
            return None
        res = _pack(self.input_tensors_index, grad_input, self.n_inputs)
        for hook in self._hooks("backward"):
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError(f"Backward hook returned an invalid number of grad_input, got {len(out)}, but "
                                   f"expected {len(res)}")
            res = out
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_tensors_index)


def _pack(index, values, size):
    packed = [None] * size
    for i, v in zip(index, values):
        packed[i] = v
    return tuple(packed)

