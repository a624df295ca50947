"""torch.utils.checkpoint: a function's activations are not kept by the forward pass but recomputed in the backward
pass. use_reentrant=True (the default, with torch's warning) runs it inside a custom Function, CheckpointFunction,
whose backward recomputes the function with grad and runs a nested backward through it; use_reentrant=False keeps
a placeholder for each tensor the function's nodes save and recomputes the function once per backward pass, the
first time one of them is unpacked, taking the recomputed ones in the order they were saved.

Left out: context_fn, debug and determinism checks beyond the count of saved tensors, and device RNG states (the
engine has the CPU only)."""
import warnings

from .. import backward as _backward
from .. import grad_mode
from ..autograd.differentiate import backward
from ..autograd.function import Function
from ..autograd.graph import saved_tensors_hooks
from ..random import fork_rng, get_rng_state, set_rng_state
from ..tensor import Tensor


class CheckpointError(RuntimeError):
    pass


def detach_variable(inputs):
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    out = []
    for inp in inputs:
        if isinstance(inp, Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


def _is_checkpoint_valid():
    """False inside a backward pass started by autograd.grad() or by backward(inputs=...)."""
    tasks = _backward._tasks
    return not tasks or tasks[-1][2] is None


class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = get_rng_state()
        ctx.inputs, ctx.tensor_indices, tensor_inputs = [], [], []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        if not _is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing an `inputs` "
                "parameter to .backward(). To resolve this error, you can either set use_reentrant=False, or call "
                ".backward() without passing the `inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with fork_rng(enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                set_rng_state(ctx.fwd_cpu_state)
            detached = detach_variable(tuple(inputs))
            with grad_mode.enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        with_grad = [(o, a) for o, a in zip(outputs, args) if isinstance(o, Tensor) and o.requires_grad]
        if not with_grad:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        backward([o for o, _ in with_grad], [a for _, a in with_grad])
        return (None, None, *(inp.grad if isinstance(inp, Tensor) else None for inp in detached))


_REENTRANT_WARNING = (
    "{name}: the use_reentrant parameter should be passed explicitly. {start} use_reentrant=False is recommended, "
    "but if you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for "
    "more details on the differences between the two variants.")


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default", debug=False,
               early_stop=True, **kwargs):
    if use_reentrant is None:
        warnings.warn(_REENTRANT_WARNING.format(
            name="torch.utils.checkpoint",
            start="Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception."),
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if context_fn is not None or debug:
        raise NotImplementedError("the engine's checkpoint takes no context_fn or debug")
    if determinism_check not in ("default", "none"):
        raise ValueError(f"determinism_check should be one of ['default', 'none'], but got {determinism_check}")
    if not grad_mode.is_grad_enabled():
        return function(*args, **kwargs)
    frame = _Frame(function, args, kwargs, preserve)
    with saved_tensors_hooks(frame.pack, frame.unpack):
        out = function(*args, **kwargs)
    frame.forward_completed = True
    return out


class _Frame:
    """One non-reentrant checkpoint: the placeholders of its saved tensors, numbered in the order the forward saved
    them, and per backward pass the tensors its recomputation saved in that order."""

    def __init__(self, function, args, kwargs, preserve):
        self.function, self.args, self.kwargs, self.preserve = function, args, kwargs, preserve
        self.rng_state = get_rng_state() if preserve else None
        self.count = 0
        self.recomputed = {}  # graph task id -> the recomputed saved tensors, in order
        self.forward_completed = False

    def pack(self, _):
        self.count += 1
        return self.count - 1

    def unpack(self, index):
        task = _backward.current_graph_task_id()
        if task == -1:  # grad_fn._saved_* read outside a backward pass: recomputed for this read
            return self._recompute()[index]
        if task not in self.recomputed:
            self.recomputed[task] = self._recompute()
        return self.recomputed[task][index]

    def _recompute(self):
        saved = []

        def keep(x):
            if len(saved) >= self.count:
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation than during the "
                    "original forward pass.")
            saved.append(x.detach() if x.requires_grad else x)
            return x

        with fork_rng(enabled=self.preserve):
            if self.preserve:
                set_rng_state(self.rng_state)
            with saved_tensors_hooks(keep, lambda x: x), grad_mode.enable_grad():
                self.function(*self.args, **self.kwargs)
        if len(saved) < self.count:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original forward and "
                f"recomputation.\nNumber of tensors saved during forward: {self.count}\nNumber of tensors saved "
                f"during recomputation: {len(saved)}.")
        return saved




def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):  # noqa: A002
    if use_reentrant is None:
        warnings.warn(_REENTRANT_WARNING.format(
            name="torch.utils.checkpoint.checkpoint_sequential",
            start="In version 2.9 we will raise an exception if use_reentrant is not passed."), stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):  # noqa: A002
            for j in range(start, end + 1):
                input = functions[j](input)
            return input

        return forward

    if hasattr(functions, "children") and callable(functions.children):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant,  # noqa: A001
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)

