"""torch.autograd.Function: an op whose forward and backward the user writes, and the node it leaves in the graph.

As in PyTorch, the node is the ctx: `y.grad_fn` is the object forward's `ctx` was, of a class made for each
Function (`MyReLU` -> `MyReLUBackward`), holding what forward stored on it. `Function.apply` follows
torch/csrc/autograd/python_function.cpp (THPFunction_apply, process_outputs) and custom_function.cpp
(_process_backward_mode_ad): forward runs without grad, then the outputs are wired to the node (marked dirty,
non-differentiable, returned inputs made views), then the tensors to save are saved. The backward pass runs
the node like any other (engine/backward.py); its `_apply` checks what the user's backward returns as
PyTorch's engine does (PyNode::apply, validate_outputs).
"""
import functools
import inspect
import warnings

import numpy as np

from .. import dispatch, grad_mode, graph, messages, observe
from ..tensor import Tensor

_MODE = grad_mode._state

_INPUT_RETURNED_AS_IS = (
    "An input that has been returned as-is as output is being saved for backward. This is not supported if you "
    "override setup_context. You should return and save a view of the input instead, e.g. with x.view_as(x) or "
    "setup ctx inside the forward function itself."
)
_DIRTY_VIEW_MULTI = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot return "
    "more than one Tensor. This is not supported by the current autograd engine. You should either make sure the "
    "input is not a view (using .clone() for example) or make your Function only return one Tensor (potentially "
    "splitting it into two Functions: one doing the inplace that returns a single Tensor and a second one that "
    "does the other operations). You can ask on the forum https://discuss.pytorch.org/ if you need help to do "
    "this change."
)
_DIRTY_NOT_INPUT = (
    "Only input Tensors should be given to ctx.mark_dirty(). If a Tensor is not an input, there is no need to "
    "pass it to mark_dirty()."
)
_DIRTY_NOT_RETURNED = (
    "Some elements marked as dirty during the forward method were not returned as output. The inputs that are "
    "modified inplace must all be outputs of the Function."
)


class FunctionCtx:
    """What forward (or setup_context) calls on ctx to prepare the backward."""

    def save_for_backward(self, *tensors):
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        for t in tensors:
            if not (isinstance(t, Tensor) or t is None):
                raise AssertionError("save_for_forward expects all arguments to be tensors; you should save "
                                     "non-tensors as attributes on ctx.")
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def mark_shared_storage(self, *pairs):
        warnings.warn("`mark_shared_storage` is deprecated. Tensors with shared storages are automatically tracked. "
                      "Note that calls to `set_()` are not tracked", FutureWarning, stacklevel=2)

    def set_materialize_grads(self, value):
        if not isinstance(value, bool):
            raise TypeError("set_materialize_grads received an invalid combination of arguments - got (), but "
                            "expected (bool)")
        self.materialize_grads = value


class BackwardCFunction(graph.Node, FunctionCtx):
    """The node of one application of a Function, and its ctx. One subclass per Function, named after it."""

    _forward_cls = None

    def __init__(self):
        graph.Node.__init__(self, None, (), {}, (), None, None)
        self.to_save = None
        self.non_differentiable = None
        self.dirty_tensors = None
        self.materialize_grads = True
        self.needs_input_grad = None
        self._is_variable_input = ()
        self._output_info = ()

    def _get_user_fn(self):
        cls = self._forward_cls
        if cls.backward is not Function.backward and cls.vjp is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You "
                               "should only implement one of them.")
        return cls.vjp if cls.vjp is not Function.vjp else cls.backward

    def apply(self, *grads):
        """The user's backward, called with this ctx (what the backward pass calls)."""
        return self._get_user_fn()(self, *grads)

    @property
    def saved_tensors(self):
        saved_for_forward = self.__dict__.get("saved_for_forward")
        if saved_for_forward is not None:
            return saved_for_forward
        if self._freed:
            raise RuntimeError(messages.BACKWARD_TWICE)
        return tuple(s.unpack() for s in self._saved.values())

    @property
    def saved_variables(self):
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2)
        return self.saved_tensors

    @property
    def _raw_saved_tensors(self):
        if self._freed:
            raise RuntimeError(messages.BACKWARD_TWICE)
        return tuple(self._saved.values())

    def _apply(self, grad):
        grads = (grad,) if self._n_outputs == 1 else grad
        if self.materialize_grads:
            grads = tuple(_zeros(info) if g is None and info is not None else g
                          for g, info in zip(grads, self._output_info))
        formula, _MODE["formula"] = _MODE["formula"], False  # the user's code is Python: numbers are tensors
        try:
            result = self.apply(*grads)
        finally:
            _MODE["formula"] = formula
        return self._checked(result)

    def _checked(self, result):
        """The grads for next_functions from what the user's backward returned, checked as PyTorch does."""
        name = type(self).__name__
        if not isinstance(result, tuple):
            result = (result,)
        expected = len(self._is_variable_input)
        if len(result) > expected and all(r is None for r in result[expected:]):
            result = result[:expected]
        if len(result) != expected:
            raise RuntimeError(f"function {name} returned an incorrect number of gradients (expected {expected}, "
                               f"got {len(result)})")
        grads = []
        for i, (r, is_tensor) in enumerate(zip(result, self._is_variable_input)):
            if not is_tensor:
                if r is not None:
                    raise RuntimeError(f"function {name} returned a gradient different than None at position "
                                       f"{i + 1}, but the corresponding forward input was not a Variable")
                continue
            if r is not None and not isinstance(r, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(r).__name__})")
            grads.append(r)
        for i, ((fn, _), g) in enumerate(zip(self.next_functions, grads)):
            if g is None or fn is None:  # a grad for an input that leads nowhere is kept for post hooks, as torch's
                continue
            shape, dtype = self._shapes[i], self._dtypes[i]
            if g.shape != shape:
                if not graph.expandable(shape, g.shape):
                    raise RuntimeError(f"Function {name} returned an invalid gradient at index {i} - got "
                                       f"{list(g.shape)} but expected shape compatible with {list(shape)}")
                g = g.sum_to_size(shape)
            if g.dtype is not dtype:
                g = g.to(dtype)
            grads[i] = g
        return tuple(grads)

    def formula(self):
        return tuple("the Function's backward" for _ in self.next_functions)

    def release(self):
        if not self._freed:
            had = tuple(self._saved)
            self._freed = had or True
            self._saved = {}
            if had and observe._observers:
                observe.emit("on_free", self)

    def __repr__(self):
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"


def _zeros(info):
    shape, dtype = info
    return Tensor._make(np.zeros(shape, dtype=dtype.np), dtype)


class Function(FunctionCtx):
    """Base class of custom autograd Functions: subclass it with static forward and backward, call `apply`."""

    generate_vmap_rule = False
    clear_saved_tensors_on_access = False
    boxed_grads_call = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._backward_cls = type(cls.__name__ + "Backward", (BackwardCFunction,), {
            "_forward_cls": cls, "_torch_name": f"torch.autograd.function.{cls.__name__}Backward"})

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all static, so you "
            "should invoke them on the class itself. Instantiating an autograd function will raise an error in a "
            "future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                  "with forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        setup = cls.setup_context is not Function.setup_context
        if setup:
            args, kwargs = _bind_defaults(cls.forward, args, kwargs)
        args = _positional(cls, args, kwargs, has_ctx=not setup)
        return _apply(cls, args, setup)


Function._backward_cls = type("FunctionBackward", (BackwardCFunction,), {
    "_forward_cls": Function, "_torch_name": "torch.autograd.function.FunctionBackward"})


class InplaceFunction(Function):
    """Kept for backward compatibility, as in PyTorch."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


def _bind_defaults(forward, args, kwargs):
    """With setup_context, apply's arguments are bound to forward's signature, defaults filled in (as PyTorch does)."""
    bound = inspect.signature(forward).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args, bound.kwargs


def _positional(cls, args, kwargs, has_ctx):
    """Keyword arguments of apply moved to their positions in forward's signature (resolve_kwargs_to_positional)."""
    if not kwargs:
        return args
    code = cls.forward.__code__
    offset = 1 if has_ctx else 0
    names = code.co_varnames[offset:code.co_argcount]
    slots = list(args)
    last = len(args) - 1
    for key in kwargs:
        if key not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{key}'")
        i = names.index(key)
        if i < len(args):
            raise TypeError(f"forward() got multiple values for argument '{key}'")
        last = max(last, i)
    if last + 1 > len(names):
        raise TypeError(f"forward() takes {len(names)} positional arguments but {last + 1} were given")
    missing = object()
    slots += [missing] * (last + 1 - len(slots))
    for key, value in kwargs.items():
        slots[names.index(key)] = value
    for i, v in enumerate(slots):
        if v is missing:
            raise TypeError(f"forward() missing required argument: '{names[i]}' (position {i})")
    return tuple(slots)


def _apply(cls, args, setup):
    ctx = cls._backward_cls()  # its sequence number is taken before forward runs, as in PyTorch
    tensors = [a for a in args if isinstance(a, Tensor)]
    ctx._is_variable_input = tuple(isinstance(a, Tensor) for a in args)
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
    executable = _MODE["enabled"] and any(ctx.needs_input_grad)
    if executable:
        ctx.next_functions = tuple(graph.edge(t) for t in tensors)
        ctx._need = tuple(fn is not None for fn, _ in ctx.next_functions)
        ctx._shapes = tuple(t.shape for t in tensors)
        ctx._dtypes = tuple(t.dtype for t in tensors)
    prev = grad_mode.is_grad_enabled()
    grad_mode._set(False)
    try:
        with observe.muted():  # the explorer shows the Function as one op, not the ops of its forward
            if setup:
                output = cls.forward(*args)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args)
    finally:
        grad_mode._set(prev)
    outputs = _wrap_outputs(ctx, tensors, output, executable, setup)
    if observe._observers:
        observe.emit("on_function", outputs, cls, args, ctx if executable else None)
    return outputs[0] if not isinstance(output, tuple) else outputs


def _wrap_outputs(ctx, tensors, output, executable, setup):
    """The outputs, wired to the node (custom_function.cpp, _process_backward_mode_ad), then the saved tensors."""
    raw = output if isinstance(output, tuple) else (output,)
    to_save = _to_save(ctx, executable)
    saved_ids = {id(t) for t in to_save if t is not None} if setup else set()
    non_diff = {id(t) for t in _tensors_of(ctx, "non_differentiable", "mark_non_differentiable only accepts "
                                           "variable arguments, but got {type}")}
    dirty = _tensors_of(ctx, "dirty_tensors", "mark_dirty can only accept variables, but argument {i} is of type "
                                              "{type}")
    for t in dirty:
        t._bump()
    dirty_ids = {id(t) for t in dirty}
    input_ids = {id(t) for t in tensors}
    outputs, info = [], []
    for i, var in enumerate(raw):
        if not isinstance(var, Tensor):
            outputs.append(var)
            info.append(None)
            continue
        is_input, is_modified = id(var) in input_ids, id(var) in dirty_ids
        differentiable = executable and id(var) not in non_diff and var.dtype.is_floating_point
        if not differentiable:
            if not var.requires_grad:
                if is_input and not is_modified:
                    if id(var) in saved_ids:
                        raise RuntimeError(_INPUT_RETURNED_AS_IS)
                    var = _view_as_self(var)
            elif is_input:
                var = var.detach()
            elif var._base is None:
                var.detach_()
        elif is_modified:
            if var.grad_fn is None and var.requires_grad:
                raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
            if not is_input:
                warnings.warn(_DIRTY_NOT_INPUT, UserWarning, stacklevel=3)
            if var._base is not None and len(raw) > 1:
                raise RuntimeError(_DIRTY_VIEW_MULTI)
            _rebase(var, ctx, i, tensors)
        else:
            if is_input:
                if id(var) in saved_ids:
                    raise RuntimeError(_INPUT_RETURNED_AS_IS)
                var = _view_as_self(var)
            var.grad_fn = ctx
            var._output_nr = i
            if var._base is not None:
                graph.CUSTOM_VIEWS[id(var)] = var
        outputs.append(var)
        info.append((var.shape, var.dtype))
    out_ids = {id(o) for o in outputs}
    if any(i not in out_ids for i in dirty_ids):
        raise RuntimeError(_DIRTY_NOT_RETURNED)
    if executable:
        ctx._n_outputs = len(raw)
        ctx._output_info = tuple(info)
        ctx._saved = {f"saved_tensors[{i}]": graph.SavedTensor(t, ctx if t.grad_fn is ctx else None)
                      if t is not None else graph.SavedTensor(None, None) for i, t in enumerate(to_save)}
    return tuple(outputs)


def _rebase(var, ctx, i, tensors):
    """An input the forward changed in place (mark_dirty) becomes output i of the node, as an in-place op's
    result does: its grad and hooks are dropped; a view's base gets a CopySlices over the view's region."""
    var._grad = None
    if var._base is None:
        var.grad_fn = ctx
        var._output_nr = i
        return
    if tensors[0] is not var:
        raise RuntimeError("the engine supports mark_dirty on a view only when the view is the Function's first "
                           "tensor input")
    dispatch.rewire_view(var, ctx)


def _to_save(ctx, executable):
    to_save = ctx.to_save
    ctx.to_save = None
    if to_save is None:
        return ()
    for i, t in enumerate(to_save):
        if t is not None and not isinstance(t, Tensor) and executable:
            raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                            f"{type(t).__name__}")
    return tuple(t if isinstance(t, Tensor) else None for t in to_save)


def _tensors_of(ctx, attr, message):
    values = getattr(ctx, attr) or ()
    setattr(ctx, attr, None)
    for i, t in enumerate(values):
        if not isinstance(t, Tensor):
            raise RuntimeError(message.format(i=i, type=type(t).__name__))
    return values


def _view_as_self(t):
    """An input returned as-is becomes a view of itself, made without grad (so a new grad_fn can be attached)."""
    prev = grad_mode.is_grad_enabled()
    grad_mode._set(False)
    try:
        with observe.muted():
            return t.view_as(t)
    finally:
        grad_mode._set(prev)


class _DelayedError(graph.Node):
    """The node that once_differentiable puts on a backward's outputs when a graph is being recorded: running it
    (differentiating that backward) raises."""

    def __init__(self, message, fakes):
        graph.Node.__init__(self, None, tuple(graph.edge(f) if f is not None else (None, 0) for f in fakes), {},
                      tuple(f.shape if f is not None else () for f in fakes), None, None)
        self._message = message
        self._n_outputs = len(fakes)

    def _apply(self, grad):
        raise RuntimeError(self._message)

    def formula(self):
        return tuple(self._message for _ in self.next_functions)


_DelayedError.__name__ = _DelayedError.__qualname__ = "Error"


def once_differentiable(fn):
    """A backward that may not be differentiated: run without grad; if a graph is being recorded, its outputs
    get a node that raises when the backward pass reaches it."""
    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        prev = grad_mode.is_grad_enabled()
        grad_mode._set(False)
        try:
            outputs = fn(ctx, *args, **kwargs)
        finally:
            grad_mode._set(prev)
        if not _MODE["enabled"]:
            return outputs
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        outs = outputs if isinstance(outputs, tuple) else (outputs,)
        fakes = [_fake_requires_grad(v) for v in outs]
        node = _DelayedError(messages.ONCE_DIFFERENTIABLE, fakes)
        wrapped = []
        for i, f in enumerate(fakes):
            if f is None:
                wrapped.append(None)
                continue
            w = f.detach()
            w.grad_fn = node
            w._output_nr = i
            wrapped.append(w)
        return wrapped[0] if len(wrapped) == 1 else tuple(wrapped)

    return wrapper


def _fake_requires_grad(v):
    if v is not None:
        v = v.detach()
        v.requires_grad = True
    return v
