"""torch.autograd.functional: vjp, jvp, jacobian, hessian, vhp and hvp of a function of tensors.

Each is built from autograd.grad the way PyTorch builds it (torch/autograd/functional.py), so values, the
tuple-or-tensor shape of results, the grad_fns of results made with create_graph=True and the error texts are
PyTorch's: inputs are re-entered as `x.view_as(x)` (create_graph, input requiring grad) or as a detached copy
requiring grad; jvp uses the double-backward trick; a jacobian row per output element is stacked and viewed.
`vectorize=True` and the forward-mode strategy give the same values here, computed one row at a time.
"""
from .. import factories, grad_mode, methods
from ..tensor import Tensor
from .differentiate import grad as _grad

_STACK = methods.FUNCTIONS["stack"]

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _as_tuple(x, what, fn):
    """(whether x was a tuple, x as a tuple), checking it holds only tensors."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"the value at index {i} has type" if is_tuple else f"the given {what} has type"
            raise TypeError(f"The {what} given to {fn} must be either a Tensor or a tuple of Tensors but {where} "
                            f"{_type_repr(el)}.")
    return is_tuple, items


def _type_repr(x):
    t = type(x)
    return f"<class '{t.__name__}'>" if t.__module__ == "builtins" else f"<class '{t.__module__}.{t.__qualname__}'>"


def _unpack(res, is_tuple):
    """Results as the caller gave them: per (outputs, inputs) flags, drop the tuple levels they did not have."""
    if isinstance(is_tuple, tuple):
        outer, inner = is_tuple
        if not inner:
            res = tuple(el[0] for el in res)
        return res if outer else res[0]
    return res if is_tuple else res[0]


def _enter(inputs, create_graph, need_graph):
    """Inputs as the function sees them: a view of themselves (to differentiate through them, with
    create_graph) or a detached copy."""
    out = []
    for x in inputs:
        if create_graph and x.requires_grad:
            out.append(x.view_as(x))
        else:
            out.append(x.detach().requires_grad_(need_graph))
    return tuple(out)


def _leave(values, create_graph):
    if isinstance(values[0], Tensor):
        return values if create_graph else tuple(v.detach() for v in values)
    return tuple(_leave(v, create_graph) for v in values)


def _check_v(v, other, is_tuple):
    if len(other) != len(v):
        if is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, other)):
        if a.size() != b.size():
            where = f"Entry {i} in " if is_tuple else ""
            raise RuntimeError(f"{where}v has invalid size: should be {b.size()} but got {a.size()}.")


_INDEPENDENT = {
    "hessian": "The hessian of the user-provided function with respect to input {i} is independent of the input. "
               "This is not allowed in strict mode. You should ensure that your function is thrice differentiable "
               "and that the hessian depends on the inputs.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect "
                "to input {i} is independent of the input. This is not allowed in strict mode. You should ensure "
                "that your function is twice differentiable and that the jacobian depends on the inputs (this "
                "would be violated by a linear function for example).",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the user-provided "
                   "function. This is not allowed in strict mode.",
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs must be computed "
               "in a differentiable manner from the input when running in strict mode.",
}


def _check_requires_grad(values, kind, strict):
    if not strict:
        return
    for i, v in enumerate(values):
        if v is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode.")
        if not v.requires_grad:
            raise RuntimeError(_INDEPENDENT[kind].format(i=i))


def _grads(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """autograd.grad of the outputs that require grad (None for every input if none does)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return _grad([o for o, _ in kept], inputs, [g for _, g in kept], allow_unused=True, create_graph=create_graph,
                 retain_graph=retain_graph)


_ZERO_FILL = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict "
            "mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when using "
                  "the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed in "
                   "strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_FILL[stage].format(i=i))
            g = factories.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode when create_graph=True.")
        out.append(g)
    return tuple(out)


def _prepare(func, inputs, v, create_graph, strict, name, v_like_outputs):
    """Inputs entered, the function run (with grad), v checked: (inputs, outputs, v, tuple flags)."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", name)
    inputs = _enter(inputs, create_graph, need_graph=True)
    if not v_like_outputs:
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, name, "the input to the user-provided function is")
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", name)
    _check_requires_grad(outputs, "outputs", strict)
    if v_like_outputs:
        v = _prepare_v(v, outputs, is_outputs_tuple, create_graph, name, "the user-provided function returns")
    return inputs, outputs, v, is_inputs_tuple, is_outputs_tuple


def _prepare_v(v, like, is_tuple, create_graph, name, subject):
    if v is not None:
        _, v = _as_tuple(v, "v", name)
        v = _enter(v, create_graph, need_graph=False)
        _check_v(v, like, is_tuple)
    elif len(like) != 1 or like[0].nelement() != 1:
        raise RuntimeError(f"The vector v can only be None if {subject} a single Tensor with a single element.")
    return v


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    with grad_mode.enable_grad():
        inputs, outputs, v, in_tuple, out_tuple = _prepare(func, inputs, v, create_graph, strict, "vjp", True)
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        res = _fill_in_zeros(_grads(outputs, inputs, v, create_graph=create_graph), inputs, strict, create_graph,
                             "back")
    return _unpack(_leave(outputs, create_graph), out_tuple), _unpack(_leave(res, create_graph), in_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    with grad_mode.enable_grad():
        inputs, outputs, v, in_tuple, out_tuple = _prepare(func, inputs, v, create_graph, strict, "jvp", False)
        # the double-backward trick: J v is the grad, with respect to u, of the vjp u -> u^T J, dotted with v
        dummies = tuple(factories.zeros_like(o, requires_grad=True) for o in outputs)
        vjps = _grads(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(vjps, "grad_inputs", strict)
    with grad_mode.enable_grad() if create_graph else _same_mode():
        res = _fill_in_zeros(_grads(vjps, dummies, v, create_graph=create_graph), outputs, strict, create_graph,
                             "back_trick")
    return _unpack(_leave(outputs, create_graph), out_tuple), _unpack(_leave(res, create_graph), out_tuple)


class _same_mode:
    def __enter__(self):
        pass

    def __exit__(self, *exc):
        return False


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). Please either set '
                                      '`create_graph=False` or `strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are '
                               'not supported together (yet). Please either set `strict=False` or '
                               '`strategy="reverse-mode"`.')
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                      "only implemented for `vectorize=True`.")
    with grad_mode.enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _enter(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        out_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                               "supported together. Please either set `strict=False` or `vectorize=False`.")
        result = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            for j in range(out.nelement()):
                vj = _grads((out.reshape(-1)[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (row, g, x) in enumerate(zip(rows, vj, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of input "
                                               f"{k}. This is not allowed in strict mode.")
                        g = factories.zeros_like(x)
                    elif strict and create_graph and not g.requires_grad:
                        raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. "
                                           "This is not allowed in strict mode when create_graph=True.")
                    row.append(g)
            result.append(tuple(_STACK(row, dim=0).view(out.size() + x.size()) for row, x in zip(rows, inputs)))
        result = _leave(tuple(result), create_graph)
        if strategy == "forward-mode":  # PyTorch's forward-mode path builds lists where the other builds tuples
            result = [list(per_output) for per_output in result]
        return _unpack(result, (out_tuple, in_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*xs):
        out = func(*xs)
        out_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        if out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac(*xs):
        if outer_jacobian_strategy == "forward-mode":
            xs = tuple(x.requires_grad_(True) for x in xs)
        j = jacobian(single_output, xs, create_graph=True)
        _check_requires_grad(j, "jacobian", strict)
        return j

    res = jacobian(jac, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _unpack(res, (in_tuple, in_tuple))


def _single_output(outputs, out_tuple, name):
    if out_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should contain a single element")


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    with grad_mode.enable_grad():
        inputs, outputs, v, in_tuple, out_tuple = _prepare(func, inputs, v, create_graph, strict, "vhp", False)
        _single_output(outputs, out_tuple, "vhp")
        jac = _grads(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        res = _fill_in_zeros(_grads(jac, inputs, v, create_graph=create_graph), inputs, strict, create_graph,
                             "double_back")
    return _unpack(_leave(outputs, create_graph), out_tuple), _unpack(_leave(res, create_graph), in_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    with grad_mode.enable_grad():
        inputs, outputs, v, in_tuple, out_tuple = _prepare(func, inputs, v, create_graph, strict, "hvp", False)
        _single_output(outputs, out_tuple, "hvp")
        jac = _grads(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        dummies = tuple(factories.zeros_like(x, requires_grad=True) for x in inputs)
        double_back = _grads(jac, inputs, dummies, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        res = _fill_in_zeros(_grads(double_back, dummies, v, create_graph=create_graph), inputs, strict,
                             create_graph, "double_back_trick")
    return _unpack(_leave(outputs, create_graph), out_tuple), _unpack(_leave(res, create_graph), in_tuple)
