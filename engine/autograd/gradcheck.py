"""torch.autograd.gradcheck and gradgradcheck: a function's analytical Jacobians (from its backward) against
central finite differences, with PyTorch's defaults (eps 1e-6, atol 1e-5, rtol 1e-3), checks and texts.

The checks are those of PyTorch's slow mode (torch/autograd/gradcheck.py; fast_mode is run as the slow mode):
the inputs (a warning for inputs that are not float64, an error if none requires grad); the numerical Jacobian,
each input element moved by ±eps in its own dtype; the analytical Jacobian, one backward per output element,
computed twice (the backward must be reentrant); then that backward multiplies by grad_output (zero grads give
zero grads) and copes with undefined output grads. Its own forward and backward calls are not the program's:
the explorer does not record them.
"""
import itertools
import warnings

import numpy as np

from .. import dtypes, factories, grad_mode, graph, observe, printing
from ..tensor import Tensor
from .differentiate import grad as _grad


class GradcheckError(RuntimeError):
    """Error raised by gradcheck and gradgradcheck."""


_NONDET = (
    "\n\nNOTE: If your op relies on non-deterministic operations i.e., it is listed here:\n"
    "https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html\n"
    "this failure might be expected.\n\n"
    "If you are adding a new operator, please file an issue and then use one of the\n"
    "workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.\n"
    "If the test\n"
    "- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n"
    "  with `nondet_tol=<tol>` as a keyword argument.\n"
    "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n"
    "  to have `gradcheck_nondet_tol=<tol>`.\n"
    "- is a Module test (e.g., in common_nn.py), then modify the corresponding\n"
    "  module_test entry to have `gradcheck_nondet_tol=<tol>`\n"
)
_UNDEFINED_BC = (
    'Backwards compatibility: New undefined gradient support checking feature is enabled by default, but it may '
    'break existing callers of this function. If this is true for you, you can call this function with '
    '"check_undefined_grad=False" to disable the feature'
)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    if check_forward_ad or check_batched_grad or check_batched_forward_grad:
        raise NotImplementedError("the engine's gradcheck checks backward mode only (check_forward_ad and the "
                                  "batched checks are not available)")
    try:
        with observe.muted():
            return _check(func, _as_tuple(inputs), eps, atol, rtol, nondet_tol, check_undefined_grad,
                          check_grad_dtypes)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _differentiable(outputs):
    return tuple(o for o in _as_tuple(outputs) if o.requires_grad)


def _check(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes):
    _check_inputs(inputs)
    func_out = func(*inputs)
    outputs = _differentiable(func_out)
    diff_inputs = [x for x in inputs if isinstance(x, Tensor) and x.requires_grad]
    numerical = _numerical(func, inputs, _as_tuple(func_out), eps)  # [input][output] -> (numel in, numel out)
    if not outputs:
        if any(np.any(j != 0) for per_input in numerical for j in per_input):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    numerical = [[per_input[k] for per_input in numerical] for k, o in enumerate(_as_tuple(func_out))
                 if isinstance(o, Tensor) and o.dtype.is_floating_point and o.requires_grad]
    for i, out in enumerate(outputs):
        analytical = _analytical(out, diff_inputs, nondet_tol, check_grad_dtypes)
        for j, (a, n) in enumerate(zip(analytical, numerical[i])):
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(f"Jacobian mismatch for output {i:d} with respect to input {j:d},\n"
                                     f"numerical:{_show(n, out.dtype)}\nanalytical:{_show(a, diff_inputs[j].dtype)}\n")
    _check_multiplied_by_grad_output(outputs, diff_inputs)
    if check_undefined_grad:
        _check_undefined_grad(func, inputs, outputs, diff_inputs)
    return True


def _check_inputs(inputs):
    any_requires_grad = False
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x.requires_grad:
            if x.dtype.name != "float64":
                warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ", UserWarning, stacklevel=4)
            if any(st == 0 and sz > 1 for st, sz in zip(x._data.strides, x._data.shape)):
                raise RuntimeError(f"The {i}th input has a dimension with stride 0. gradcheck only supports inputs "
                                   "that are non-overlapping to be able to compute the numerical gradients "
                                   "correctly. You should call .contiguous on the input before passing it to "
                                   "gradcheck.")
            any_requires_grad = True
    if not any_requires_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")


def _numerical(func, inputs, func_out, eps):
    """Per input requiring grad, per float output: the Jacobian (input numel × output numel) by central
    differences, each element of the input moved by ±eps in the input's dtype."""
    outs = [o for o in func_out if isinstance(o, Tensor) and o.dtype.is_floating_point]
    result = []
    for x in inputs:
        if not (isinstance(x, Tensor) and x.requires_grad):
            continue
        arr = x._data
        jac = [np.zeros((arr.size, o.numel()), dtype=o.dtype.np) for o in outs]
        for d, idx in enumerate(itertools.product(*[range(n) for n in arr.shape])):
            orig = arr[idx].copy()
            arr[idx] = orig - arr.dtype.type(eps)
            a = _outputs(func, inputs)
            arr[idx] = orig + arr.dtype.type(eps)
            b = _outputs(func, inputs)
            arr[idx] = orig
            for k, (oa, ob) in enumerate(zip(a, b)):
                _same_dtype_and_shape(oa, ob, eps, idx)
                jac[k][d] = ((ob._data - oa._data) / ob._data.dtype.type(2 * eps)).reshape(-1)
        result.append(jac)
    return result


def _outputs(func, inputs):
    return [o.clone() for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor) and o.dtype.is_floating_point]


def _same_dtype_and_shape(a, b, eps, idx):
    on = f"on index {idx} "
    if a.shape != b.shape:
        raise AssertionError(f"Expected `func` to return outputs with the same shape when inputs are perturbed {on}by "
                             f"{eps}, but got: shapes {a.shape} and {b.shape}.")
    if a.dtype is not b.dtype:
        raise AssertionError(f"Expected `func` to return outputs with the same dtype when inputs are perturbed {on}by "
                             f"{eps}, but got: dtypes {a.dtype} and {b.dtype}.")


def _analytical(out, diff_inputs, nondet_tol, check_grad_dtypes):
    """Per input, the Jacobian (input numel × output numel) from one backward per output element, computed twice."""
    first, sizes_ok, types_ok = _jacobian_rows(out, diff_inputs)
    second, _, _ = _jacobian_rows(out, diff_inputs)
    reentrant = all(a.size == 0 or np.max(np.abs(a - b)) <= nondet_tol for a, b in zip(first, second))
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError("Backward is not reentrant, i.e., running backward with same input and grad_output "
                             "multiple times gives different values, although analytical gradient matches "
                             f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}." + _NONDET)
    return first


def _jacobian_rows(out, diff_inputs):
    jac = [np.zeros((x.numel(), out.numel()), dtype=x.dtype.np) for x in diff_inputs]
    sizes_ok = types_ok = True
    seed = np.zeros(out.shape, dtype=out.dtype.np)
    for j in range(out.numel()):
        seed.reshape(-1)[:] = 0
        seed.reshape(-1)[j] = 1
        grads = _grad(out, diff_inputs, Tensor._make(seed.copy(), out.dtype), retain_graph=True, allow_unused=True)
        for k, (g, x) in enumerate(zip(grads, diff_inputs)):
            if g is None:
                continue
            if g.shape != x.shape:
                sizes_ok = False
            elif g.dtype is not x.dtype:
                types_ok = False
            if g.numel() != x.numel():
                raise AssertionError(f"Expected out_jacobian column to have {g.numel()} elements, but got "
                                     f"{x.numel()}")
            jac[k][:, j] = g._data.reshape(-1)
    return jac, sizes_ok, types_ok


def _allclose(a, n, rtol, atol):
    dtype = np.promote_types(a.dtype, n.dtype)
    a, n = a.astype(dtype), n.astype(dtype)
    with np.errstate(all="ignore"):
        return bool(np.all(np.abs(a - n) <= atol + rtol * np.abs(n)))


def _show(jacobian, dtype):
    return printing.format_tensor(jacobian, dtype.name)


def _check_multiplied_by_grad_output(outputs, diff_inputs):
    grads = _grad(outputs, diff_inputs, [factories.zeros_like(o) for o in outputs], allow_unused=True)
    for g, x in zip(grads, diff_inputs):
        if g is None:
            continue
        if np.any(g._data != 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype is not x.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.shape != x.shape:
            raise GradcheckError("grad is incorrect size")


class _UndefinedGrad(graph.Node):
    """torch._C._functions.UndefinedGrad: passes its input through, and sends back no grad (an undefined one)."""

    def __init__(self, t):
        graph.Node.__init__(self, None, (graph.edge(t),), {}, (t.shape,), t.shape, t.dtype)

    def _apply(self, grad):
        return (None,)


_UndefinedGrad.__name__ = _UndefinedGrad.__qualname__ = "UndefinedGradBackward"


def _undefined(o):
    out = o.detach()
    out.grad_fn = _UndefinedGrad(o)
    return out


def _check_undefined_grad(func, inputs, outputs, diff_inputs):
    def supported(outs):
        try:
            grads = _grad(outs, diff_inputs, [factories.zeros_like(o) for o in outs], allow_unused=True)
        except RuntimeError as e:
            warnings.warn(_UNDEFINED_BC, UserWarning, stacklevel=5)
            raise GradcheckError('Expected backward function to handle undefined output grads. Please look at '
                                 '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"') from e
        for g in grads:
            if g is not None and np.any(g._data != 0):
                warnings.warn(_UNDEFINED_BC, UserWarning, stacklevel=5)
                raise GradcheckError('Expected all input grads to be undefined or zero when all output grads are '
                                     'undefined or zero. Please look at "Notes about undefined output gradients" in '
                                     '"tools/autograd/derivatives.yaml"')
        return True

    checks = [[_undefined(o) for o in _differentiable(func(*inputs))]]
    if len(checks[0]) > 1:
        for k in range(len(outputs)):
            outs = _differentiable(func(*inputs))
            checks.append([_undefined(o) if i == k else o for i, o in enumerate(outs)])
    return all(supported(outs) for outs in checks)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0, check_undefined_grad=True,
                  check_grad_dtypes=False, check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True,
                  fast_mode=False, masked=False):
    """gradcheck of the function that maps (inputs, grad_outputs) to the grads of func's outputs, made with
    create_graph=True: checks func's second derivatives. Without grad_outputs, they are drawn uniformly from
    [-1, 1) with the global generator, as torch.testing.make_tensor draws them."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        with observe.muted():
            outputs = _differentiable(func(*inputs))
            grad_outputs = tuple(_uniform_like(o) for o in outputs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n = len(grad_outputs)
    diff_inputs = {i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad}
    diff_grad_outputs = {i for i, x in enumerate(grad_outputs) if x.requires_grad}

    def first_grads(*args):
        xs = tuple(x.requires_grad_() if i in diff_inputs else x for i, x in enumerate(args[:-n]))
        outs = _differentiable(func(*xs))
        gos = tuple(g.requires_grad_() if i in diff_grad_outputs else g for i, g in enumerate(args[-n:]))
        wrt = tuple(x for i, x in enumerate(xs) if i in diff_inputs)
        grads = _grad(outs, wrt, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_grads, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol, check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)


def _uniform_like(x):
    """torch.testing.make_tensor(x.shape, low=-1, high=1, requires_grad=True) for a float x (float64 for another):
    empty(...).uniform_(-1, 1) with the global generator."""
    with grad_mode.no_grad():
        u = factories.empty(tuple(x.shape), dtype=x.dtype if x.dtype.is_floating_point else dtypes.float64)
        u.uniform_(-1, 1)
    u.requires_grad = True
    return u
