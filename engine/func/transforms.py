"""torch.func's autodiff transforms: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian.

Each runs the function on the engine and differentiates the graph it records with autograd.grad (with
create_graph=True, as functorch does), so the learner steps through the same forward ops and backward nodes.
Inputs are entered as `x.view_as(x)` when they require grad and as a detached leaf otherwise. Results stay
differentiable where torch's do: inside another transform, or when they depend on a tensor from outside that
requires grad (an input that does, a parameter the function closes over); otherwise they leave detached. jvp and
jacfwd use the double-vjp trick (the vjp is linear in its cotangent u; differentiating it by u in the direction
of the tangent gives J·t), so every op needs only its one declared derivative.
"""
import contextlib
import functools

from .. import factories, grad_mode, methods, observe
from ..autograd import forward_ad
from ..autograd.differentiate import grad as _autograd_grad
from ..tensor import Tensor
from . import batching
from .trees import describe, flatten, map_leaves, unflatten

_STACK = methods.FUNCTIONS["stack"]
DEPTH = [0]  # how many autodiff transforms are running: inside one, results stay differentiable


def _argnums(argnums, args):
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    for n in nums:
        if not isinstance(n, int):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
        if not -len(args) <= n < len(args):
            raise RuntimeError(f"Got argnum={n}, but only {len(args)} positional inputs")
    return tuple(n % len(args) for n in nums)


class Scope:
    """Where a transform's results may keep their graph: inside another transform (nested), or where they reach a
    leaf that is not one the transform made (a tensor from outside that requires grad)."""

    def __init__(self):
        self.nested = DEPTH[0] > 0
        self.tracking = grad_mode.is_grad_enabled()
        self.inside = set()

    def enter(self, tree):
        def one(x):
            if not isinstance(x, Tensor):
                return x
            if not x.dtype.is_floating_point:
                raise RuntimeError("only Tensors of floating point dtype can require gradients")
            tangent = forward_ad.TANGENTS.get(id(x))
            if tangent is not None:  # a dual tensor of jacfwd's forward mode: its tangent goes in with it
                entered = self._enter_plain(x)
                forward_ad.TANGENTS[id(entered)] = (entered, tangent[1])
                return entered
            if batching.LEVELS:
                return self._enter_batched(x)
            return self._enter_plain(x)

        return map_leaves(one, tree)

    def _enter_plain(self, x):
        if x.requires_grad and self.tracking:
            return x.view_as(x)
        leaf = x.detach().requires_grad_(True)
        self.inside.add(id(leaf))
        return leaf

    def _enter_batched(self, x):
        """Inside vmap: each sample's input its own (batched at every vmap level: its grad is per sample); one
        that requires grad from outside is differentiated as it is, as torch does."""
        if type(x) is not batching.BatchedTensor and x.requires_grad and self.tracking and not self.nested:
            return x  # a tensor from outside, the same for every sample: differentiated as it is (no op recorded)
        if type(x) is not batching.BatchedTensor or x.requires_grad and self.tracking:
            return self._enter_plain(x)  # an input the same for every sample (its grad is per sample all the same),
            # or an outer grad's input (or what it made of it): differentiated through
        base, levels = batching.physical(x)
        full = batching.physical(batching.full_batch(x))[0]
        if not (base.requires_grad and self.tracking):
            full = full.detach()
        leaf = batching.rewrap(full)
        leaf._requires_grad = True  # a leaf of grad's graph of the samples
        self.inside.add(id(leaf))
        return leaf

    def leave(self, tree):
        def one(x):
            if not isinstance(x, Tensor) or self.nested:
                return x
            if type(x) is batching.BatchedTensor:  # out of grad's graph of the samples
                x = x.untracked()
            if self.tracking and self._reaches_outside(batching.physical(x)[0]):
                return x
            tangent = forward_ad.TANGENTS.get(id(x))
            out = x.detach()
            if tangent is not None:  # under jacfwd's forward mode the result keeps its tangent
                forward_ad.TANGENTS[id(out)] = (out, tangent[1])
            return out

        return map_leaves(one, tree)

    def _reaches_outside(self, x):
        if not x.requires_grad:
            return False
        todo, seen = [x.grad_fn], set()
        if x.grad_fn is None:
            return id(x) not in self.inside
        while todo:
            node = todo.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            variable = getattr(node, "variable", None)
            if variable is not None and id(variable) not in self.inside:
                return True
            todo.extend(fn for fn, _ in node.next_functions)
        return False


def _vjp(outputs, inputs, cotangents, keep=True):
    """Grads of outputs (with cotangents; None: ones) by each input, zeros where an input was not used. Inside
    vmap, on the batches of them (each sample's grads: the samples do not mix)."""
    if batching.LEVELS:
        everywhere = list(range(1, len(batching.LEVELS) + 1))
        if any(type(t) is batching.BatchedTensor and batching.physical(t)[1] != everywhere
               for t in (*outputs, *inputs)):
            raise batching.DataRead  # a graph recorded outside this vmap: differentiated per sample
    return _vjp_plain(outputs, inputs, cotangents, keep)


def _like(x, fill):
    """ones_like / zeros_like, of a batched tensor too (the batch of them)."""
    if type(x) is batching.BatchedTensor:
        return batching.rewrap(_like(batching.physical(x)[0], fill))
    return factories.ones_like(x) if fill else factories.zeros_like(x)


def _vjp_plain(outputs, inputs, cotangents, keep):
    cotangents = [_like(o, 1) if c is None else c for o, c in zip(outputs, cotangents)]
    pairs = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    if not pairs:
        return [_like(x, 0) for x in inputs]
    batched = any(type(o) is batching.BatchedTensor for o, _ in pairs)
    with grad_mode.enable_grad(), observe.backward_unheard() if batched else contextlib.nullcontext():
        grads = _autograd_grad([o for o, _ in pairs], list(inputs), [c for _, c in pairs], retain_graph=True,
                               create_graph=keep, allow_unused=True)
    return [_like(x, 0) if g is None else g for g, x in zip(grads, inputs)]


class _Level:
    """A transform running: DEPTH counts it, and the graph it records is kept alive for its grads."""

    def __enter__(self):
        DEPTH[0] += 1
        return self

    def __exit__(self, *exc):
        DEPTH[0] -= 1


def grad_and_value(func, argnums=0, has_aux=False):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        nums = _argnums(argnums, args)
        scope = Scope()
        entered = {n: scope.enter(args[n]) for n in nums}
        args = [entered.get(i, a) for i, a in enumerate(args)]
        with _Level(), grad_mode.enable_grad():
            result = func(*args, **kwargs)
        aux = None
        if has_aux:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise RuntimeError("grad_and_value(f)(*args): output of function f should be a tuple: (output, aux) "
                                   "if has_aux is True")
            result, aux = result
        if not isinstance(result, Tensor):
            raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(result)}")
        if result.dim() != 0:
            raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                               f"with {result.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
        leaves = [(n, flatten(entered[n])) for n in nums]
        flat = [x for _, (xs, _) in leaves for x in xs if isinstance(x, Tensor)]
        with _Level():
            grads = iter(_vjp([result], flat, [None]))
        per_arg = [unflatten(spec, [next(grads) if isinstance(x, Tensor) else x for x in xs]) for _, (xs, spec) in
                   leaves]
        g = scope.leave(tuple(per_arg) if isinstance(argnums, tuple) else per_arg[0])
        value = scope.leave(result)
        if has_aux:
            return g, (value, scope.leave(aux))
        return g, value

    return wrapper


def grad(func, argnums=0, has_aux=False):
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapper


def vjp(func, *primals, has_aux=False):
    scope = Scope()
    entered = scope.enter(primals)
    with _Level(), grad_mode.enable_grad():
        result = func(*entered)
    aux = None
    if has_aux:
        if not (isinstance(result, tuple) and len(result) == 2):
            raise RuntimeError("vjp(f, *primals): output of function f should be a tuple: (output, aux) if has_aux "
                               "is True")
        result, aux = result
    out_leaves, out_spec = flatten(result)
    for o in out_leaves:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"vjp(f, *primals): Expected f(*primals) to return only tensors, got unsupported type "
                               f"{type(o)}")
    in_leaves, in_spec = flatten(entered)

    def vjp_fn(*cotangents):
        cts = cotangents[0] if len(cotangents) == 1 and out_spec is None else cotangents
        ct_leaves = flatten(cts)[0] if out_spec is not None or not isinstance(cts, Tensor) else [cts]
        if len(ct_leaves) != len(out_leaves):
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               "outputs to the function")
        for o, c in zip(out_leaves, ct_leaves):
            if tuple(o.shape) != tuple(c.shape):
                raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of {c.shape} and output[0] has a "
                                   f"shape of {o.shape}.")
        with _Level():
            grads = _vjp(out_leaves, in_leaves, ct_leaves)
        return scope.leave(unflatten(in_spec, grads))

    out = scope.leave(result)
    return (out, vjp_fn, scope.leave(aux)) if has_aux else (out, vjp_fn)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    if not isinstance(primals, (tuple, list)):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    if not isinstance(tangents, (tuple, list)) or len(tangents) != len(primals):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           "structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
                           f"primals with structure {flatten(tuple(primals))[1]} and tangents with structure "
                           f"{flatten(tuple(tangents))[1] if isinstance(tangents, (tuple, list)) else None}")
    scope = Scope()
    entered = scope.enter(tuple(primals))
    with _Level(), grad_mode.enable_grad():
        result = func(*entered)
        aux = None
        if has_aux:
            result, aux = result
        out_leaves, out_spec = flatten(result)
        in_leaves = flatten(entered)[0]
        t_leaves = flatten(tuple(tangents))[0]
        us = [factories.zeros_like(o).requires_grad_(True) for o in out_leaves]
        scope.inside.update(id(u) for u in us)
        vjps = _vjp(out_leaves, in_leaves, us)  # J^T u, linear in u
        pairs = [(v, t) for v, t in zip(vjps, t_leaves) if v.requires_grad]
        if pairs:
            jvps = _autograd_grad([v for v, _ in pairs], us, [t for _, t in pairs], retain_graph=True,
                                  create_graph=True, allow_unused=True)
        else:
            jvps = [None] * len(us)
    jvps = [factories.zeros_like(o) if j is None else j for j, o in zip(jvps, out_leaves)]
    out = (scope.leave(result), scope.leave(unflatten(out_spec, jvps)))
    return (*out, scope.leave(aux)) if has_aux else out


def _jacobian(func, argnums, has_aux, columns, name):
    @functools.wraps(func)
    def wrapper(*args):
        nums = _argnums(argnums, args)
        scope = Scope()
        entered = {n: scope.enter(args[n]) for n in nums}
        call_args = [entered.get(i, a) for i, a in enumerate(args)]
        if columns is _columns:
            jac = _forward_columns(func, call_args, nums, has_aux, scope)
            if jac is not None:
                return jac
        with _Level(), grad_mode.enable_grad():
            result = func(*call_args)
            aux = None
            if has_aux:
                result, aux = result
            out_leaves, out_spec = flatten(result)
            in_leaves = [x for n in nums for x in flatten(entered[n])[0]]
            blocks = [[columns(o, x) for x in in_leaves] for o in out_leaves]
        per_out = []
        for row in blocks:
            per_arg, k = [], 0
            for n in nums:
                xs, spec = flatten(entered[n])
                per_arg.append(unflatten(spec, row[k:k + len(xs)]))
                k += len(xs)
            per_out.append(tuple(per_arg) if isinstance(argnums, tuple) else per_arg[0])
        jac = scope.leave(unflatten(out_spec, per_out))
        return (jac, scope.leave(aux)) if has_aux else jac

    wrapper.__name__ = getattr(func, "__name__", name)
    return wrapper


def _rows(out, x):
    """d out / d x by reverse mode: one vjp per element of out, stacked, as out.shape + x.shape."""
    flat = out.reshape(-1)
    rows = []
    for i in range(flat.shape[0]):
        one_hot = factories.zeros_like(flat)
        one_hot._data[i] = 1
        rows.append(_vjp([flat], [x], [one_hot])[0])
    if not rows:
        return factories.zeros(*out.shape, *x.shape, dtype=x.dtype)
    return _STACK(rows).reshape(*out.shape, *x.shape)


def _columns(out, x):
    """d out / d x by forward mode (the double-vjp jvp): one jvp per element of x, as out.shape + x.shape."""
    u = factories.zeros_like(out).requires_grad_(True)
    vjp = _vjp([out], [x], [u])[0].reshape(-1)
    cols = []
    for j in range(vjp.shape[0]):
        tangent = factories.zeros_like(vjp)
        tangent._data[j] = 1
        if vjp.requires_grad:
            (col,) = _autograd_grad([vjp], [u], [tangent], retain_graph=True, create_graph=True, allow_unused=True)
        else:
            col = None
        cols.append(factories.zeros_like(out) if col is None else col)
    if not cols:
        return factories.zeros(*out.shape, *x.shape, dtype=x.dtype)
    return _STACK(cols, dim=-1).reshape(*out.shape, *x.shape)


def _forward_columns(func, call_args, nums, has_aux, scope):
    """jacfwd by forward mode, as torch's (a vmap of jvp over the basis): each op's tangent by its own derivative
    (engine/autograd/forward_ad.py), one basis tangent at a time, so that each zero keeps the sign torch's formulas
    give it. None where forward mode cannot run here (inside vmap, inside another forward mode, a function whose
    result keeps a graph, inputs or outputs other than single tensors)."""
    if batching.LEVELS or forward_ad.LEVELS or scope.nested or has_aux or len(nums) != 1:
        return None
    x = call_args[nums[0]]
    if not isinstance(x, Tensor) or x.requires_grad and id(x) not in scope.inside:
        return None
    cols = []
    flat = x.reshape(-1)
    for j in range(flat.shape[0]):
        basis = factories.zeros_like(flat)
        basis._data[j] = 1
        with forward_ad.dual_level():
            args = list(call_args)
            args[nums[0]] = forward_ad.make_dual(x.detach(), basis.reshape(x.shape))
            out = func(*args)
            if not isinstance(out, Tensor):
                return None
            tangent = forward_ad.unpack_dual(out).tangent
        cols.append(factories.zeros_like(out) if tangent is None else tangent)
    if not cols:
        return None
    return _STACK(cols, dim=-1).reshape(*cols[0].shape, *x.shape)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    return _jacobian(func, argnums, has_aux, _rows, "jacrev")


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    return _jacobian(func, argnums, has_aux, _columns, "jacfwd")


def hessian(func, argnums=0):
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func, *primals):
    """func's output at primals, and a function giving its jvp there for any tangents of the primals' structure."""
    output = func(*primals)
    flat_primals, primals_spec = flatten(primals)

    def jvp_fn(*tangents):
        flat_tangents, tangents_spec = flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {describe(tangents_spec)} to have the same argspec as the "
                               f"primals {describe(primals_spec)}")
        for i, (t, p) in enumerate(zip(flat_tangents, flat_primals)):
            for what, have, want in (("shape", t.shape, p.shape), ("device", t.device, p.device),
                                     ("dtype", t.dtype, p.dtype)):
                if have != want:
                    raise RuntimeError(f"tangent:{i} with {what} {have} in flattened pytree doesn't match the {what} "
                                       f"{want} of the corresponding primal.")
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn
