"""torch.func.vmap: the function runs once on BatchedTensors (engine/func/batching.py: the batching rules), as
torch runs it, and the results are unbatched at out_dims. Where the function reads a batched tensor's numbers (a
bind that looks at values, .item(), a factory `*_like`), it runs once per sample and the results are stacked
(StackBackward0). The errors for what vmap refuses (sizes, in_dims, outputs, random draws in "error" mode, .item())
are torch's."""
import functools

from .. import dispatch, generator, messages, methods
from ..tensor import Tensor
from . import batching
from .trees import describe, flatten, unflatten

_STACK = methods.FUNCTIONS["stack"]
RANDOM_IN_VMAP = ("vmap: called random operation while in randomness error mode. Please either use the 'same' or "
                  "'different' randomness flags on vmap or perform the randomness operation out of vmap")
RANDOM_LOOPED = ("vmap(randomness='{0}'): the engine runs vmap as a loop over the samples and cannot draw torch's "
                 "batched random numbers: draw them outside vmap")
ITEM_IN_VMAP = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() "
                "on a Tensor, please try to rewrite what you're doing with other operations. If error is occurring "
                "somewhere inside PyTorch internals, please file a bug report.")


def _name(func):
    return getattr(func, "__name__", repr(func))


def _broadcast(dims, spec, what, label):
    """dims given per argument (an int/None, or a structure matching it) as one per leaf."""
    if isinstance(dims, int) or dims is None:
        return [dims] * _count(spec)
    kind, keys, children = spec or (None, None, ())
    if spec is None:
        pass
    elif isinstance(dims, (tuple, list)) and keys is None and len(dims) == len(children):
        return [d for sub, s in zip(dims, children) for d in _broadcast(sub, s, what, label)]
    elif isinstance(dims, dict) and keys is not None and list(dims) == keys:
        return [d for k, s in zip(keys, children) for d in _broadcast(dims[k], s, what, label)]
    raise ValueError(f"{label}: {what} is not compatible with the structure of `{_plural(what)}`. {what} has "
                     f"structure {describe(flatten(dims)[1])} but {_plural(what)} has structure {describe(spec)}.")


def _plural(what):
    return {"in_dims": "inputs", "out_dims": "outputs"}[what]


def _count(spec):
    return 1 if spec is None else sum(_count(s) for s in spec[2])


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        name = _name(func)
        label = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
        if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
                             f"(potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}.")
        if not args:
            raise ValueError(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
                             "trying to vmap over a function with no inputs. The latter is unsupported.")
        leaves, spec = flatten(tuple(args))
        dims = _broadcast(in_dims, spec, "in_dims", label)
        sizes = []
        for x, d in zip(leaves, dims):
            if d is None:
                continue
            if not isinstance(x, Tensor):
                raise ValueError(f"{label}: Got in_dim={d} for an input but the input is of type {type(x)}. We "
                                 "cannot vmap over non-Tensor arguments, please use None as the respective in_dim")
            if not -x.dim() <= d < x.dim():
                raise ValueError(f"{label}: Got in_dim={d} for some input, but that input is a Tensor of "
                                 f"dimensionality {x.dim()} so expected in_dim to satisfy -{x.dim()} <= in_dim < "
                                 f"{x.dim()}.")
            sizes.append(x.shape[d])
        if not sizes:
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): at least one input must be mapped "
                             "over (got in_dims=None for every input)")
        if len(set(sizes)) > 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sizes} for the mapped dimension")
        try:
            return _batched(func, args, kwargs, leaves, spec, dims, sizes[0], out_dims, randomness, name)
        except batching.DataRead:
            pass  # a value was read: run per sample
        if sizes[0] == 0:
            raise NotImplementedError("the engine's vmap calls the function once per sample where it cannot batch "
                                      "it: a mapped dimension of size 0 has no sample to call it with (torch calls "
                                      "it on the empty batch)")
        results = []
        for b in range(sizes[0]):
            sample = [x if d is None else x.select(d, b) for x, d in zip(leaves, dims)]
            with _refusing(randomness):
                results.append(func(*unflatten(spec, sample), **kwargs))
        return _stack(results, out_dims, name)

    return wrapper


class _refusing:
    """While the function runs: random draws and a program's .item() fail with torch's texts. Batched, a draw in
    randomness="same" mode is one draw for every sample, as torch's."""

    def __init__(self, randomness, batched=False):
        self.text = RANDOM_IN_VMAP if randomness == "error" else RANDOM_LOOPED.format(randomness)
        self.draws = batched and randomness == "same"

    def __enter__(self):
        generator.REFUSING.append(None if self.draws else self.text)
        messages.ITEM_REFUSED.append(ITEM_IN_VMAP)

    def __exit__(self, *exc):
        generator.REFUSING.pop()
        messages.ITEM_REFUSED.pop()


def _batched(func, args, kwargs, leaves, spec, dims, size, out_dims, randomness, name):
    """The function run once on BatchedTensors (batching.py), its results unbatched at out_dims."""
    depth = len(batching.LEVELS)
    batching.LEVELS.append(size)
    dispatch.HOOKS.append((batching.hook, batching.inplace_hook))
    level = depth + 1
    try:
        entered = [x if d is None else batching.BatchedTensor.wrap(x, level, d % x.dim()) for x, d in zip(leaves, dims)]
        with _refusing(randomness, batched=True):
            result = func(*unflatten(spec, entered), **kwargs)
        return _unbatch(result, out_dims, level, size, name)
    finally:
        dispatch.HOOKS.pop()
        batching.LEVELS.pop()


def _unbatch(result, out_dims, level, size, name):
    leaves, spec = flatten(result)
    dims = _broadcast(out_dims, spec, "out_dims", f"vmap({name}, ..., out_dims={out_dims})(<inputs>)")
    out = []
    for x, d in zip(leaves, dims):
        if d is None:
            if batching.unwrap(x, level) is not None:
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            out.append(x)
            continue
        if not isinstance(x, Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(x)}. "
                             "Did you mean to set out_dims= to None for output?")
        if batching.unwrap(x, level) is None:
            value, bdim = x.unsqueeze(0).expand(size, *x.shape), 0
        else:
            value, bdim = x._value, x._bdim
        d = d % value.dim() if -value.dim() <= d < value.dim() else d
        out.append(value if d == bdim else value.movedim(bdim, d))
    return unflatten(spec, out)


def _stack(results, out_dims, name):
    flat = [flatten(r) for r in results]
    spec = flat[0][1]
    label = f"vmap({name}, ..., out_dims={out_dims})(<inputs>)"
    dims = _broadcast(out_dims, spec, "out_dims", label)
    columns = list(zip(*[leaves for leaves, _ in flat]))
    out = []
    for column, d in zip(columns, dims):
        if d is None:
            out.append(column[0])
            continue
        if not isinstance(column[0], Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(column[0])}. "
                             "Did you mean to set out_dims= to None for output?")
        out.append(_STACK(list(column), dim=d))
    return unflatten(spec, out)
