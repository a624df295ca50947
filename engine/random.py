"""torch's random functions: the generator (torch.Generator, default_generator, manual_seed, seed, initial_seed,
get_rng_state / set_rng_state) and the factories that draw from it (rand, randn, randint, randperm, normal, the
*_like ones). This module is also `torch.random`. The in-place methods (x.uniform_(), x.normal_(), …) and
torch.bernoulli are ops (engine/ops/random.py); the draws themselves are engine/generator."""
import math

import numpy as np

from . import devices, dispatch, dtypes, messages, meta
from .factories import _alloc, _check_layout, _finish, _made, zeros
from .generator import Generator, default_generator, draws
from .ops import OPS
from .ops.random import check_generator, check_std_tensor, invalid_arguments, random_span
from .size_arguments import checked_sizes
from .tensor import Size, Tensor

__all__ = ["Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state"]


def _get_state(self):
    """The generator's state as torch.get_rng_state() gives it: 5056 bytes (a torch.ByteTensor)."""
    return _finish(self.state_bytes(), dtypes.uint8, False)


def _set_state(self, new_state):
    if not isinstance(new_state, Tensor):
        raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
    if new_state.dtype is not dtypes.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    self.load_state_bytes(new_state._data)
    return self


Generator.get_state = _get_state
Generator.set_state = _set_state


def manual_seed(seed):
    """Seeds the default generator (any integer below 2**64; negative ones wrap) and returns it."""
    return default_generator.manual_seed(int(seed))


def seed():
    """Seeds the default generator from the OS, as a fresh process does, and returns the seed."""
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


# --- factories ----------------------------------------------------------------------------------------------
class fork_rng:  # noqa: N801 - torch.random.fork_rng, a context manager
    """The CPU generator's state, restored on leaving (the engine has no other device's generator)."""

    def __init__(self, devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type=None):
        self.enabled = enabled and device_type != "meta"
        self.state = None

    def __enter__(self):
        if self.enabled:
            self.state = get_rng_state()

    def __exit__(self, *exc):
        if self.enabled:
            set_rng_state(self.state)


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _shape(name, sizes, size, options):
    """The size of rand(2, 3), rand((2, 3)), rand([2, 3]), rand(torch.Size(…)) or rand(size=(2, 3))."""
    if size is not None:
        if sizes:
            raise invalid_arguments(name, sizes, {"size": size, **options})
        sizes = (size,)
    if not sizes:
        raise invalid_arguments(name, sizes, options)
    if not all(_is_int(s) for s in (tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list))
                                    else sizes)):
        if size is not None:
            checked_sizes(name, (), size)
        checked_sizes(name, sizes)
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, Size)):
        sizes = tuple(sizes[0])
    if not all(_is_int(s) for s in sizes):
        raise invalid_arguments(name, sizes, options)
    return _alloc(tuple(int(s) for s in sizes))


def _float_tensor(like, dtype, requires_grad, kernel, draw):
    """A float tensor drawn by draw(array, scale) into an array made by like(dtype); a complex one is drawn as its
    real view (real and imaginary parts in turn), a normal's spread scaled by 1/√2 as ATen's normal_ scales it."""
    dtype = dtype or dtypes.DEFAULT[0]
    if dtype.is_complex:
        out = like(dtype)
        parts = out[..., None].view(dtypes.to_real(dtype).np)
        parts[...] = draw(parts, 1 / math.sqrt(2))
        return _finish(out, dtype, requires_grad)
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dtype.type_name}\'')
    dtypes.COMPUTING[0] = dtype  # (a bfloat16 normal_ draws as ATen's does for it)
    return _finish(draw(like(dtype), 1), dtype, requires_grad)


def _empty(shape):
    return lambda dtype: np.empty(shape, dtype=dtype.np)


def _generator(name, generator, args=None):
    """The generator to draw from; a wrong one is refused as torch refuses it (for functions with several
    signatures: none matches)."""
    if args is not None and generator is not None and not isinstance(generator, Generator):
        raise invalid_arguments(name, args, {"generator": generator})
    check_generator(generator, name)
    return default_generator if generator is None else generator


def rand(*sizes, size=None, generator=None, dtype=None, requires_grad=False, device=None):
    if meta.is_meta(device):  # nothing drawn
        return meta.placed(zeros(*sizes, size=size, dtype=dtype, requires_grad=requires_grad))
    dtypes.given(dtype, "rand")
    devices.check(device)
    shape = _shape("rand", sizes, size, {})
    gen = _generator("rand", generator, sizes)
    return _float_tensor(_empty(shape), dtype, requires_grad, "check_uniform_bounds",
                         lambda a, _: draws.uniform(gen, a, 0, 1))


def _out_dtype(dtype, out):
    """A factory's dtype with out=: out's, and no other."""
    if out is None:
        return dtype
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"dtype {dtype.type_name} does not match dtype of out parameter ({out.dtype.type_name})")
    return out.dtype


def randn(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, requires_grad=False, device=None):
    if meta.is_meta(device):  # nothing drawn
        return meta.placed(zeros(*sizes, size=size, dtype=dtype, layout=layout, requires_grad=requires_grad))
    dtypes.given(dtype, "randn")
    devices.check(device)
    _check_layout(layout)
    shape = _shape("randn", sizes, size, {})
    gen = _generator("randn", generator, sizes)
    return _made("randn", _float_tensor(_empty(shape), _out_dtype(dtype, out), requires_grad, "normal_kernel_cpu",
                                        lambda a, scale: draws.normal(gen, a, 0, scale)), out)


def _random_tensor(like, dtype, low, high, generator, requires_grad):
    span, base = random_span(dtype, low, high)
    return _finish(draws.random_from_to(generator, like, span, base), dtype, requires_grad)


def randint(*args, size=None, low=None, high=None, generator=None, dtype=None, requires_grad=False, device=None):
    """randint(high, size) or randint(low, high, size): integers in [low, high), as random_(low, high) draws them."""
    dtypes.given(dtype, "randint")
    devices.check(device)
    given = {k: v for k, v in (("low", low), ("high", high), ("size", size)) if v is not None}
    args = list(args)
    if size is None and args and isinstance(args[-1], (tuple, list, Size)):
        size = args.pop()
    bounds = args + [v for k, v in given.items() if k != "size"]
    if size is None or not 1 <= len(bounds) <= 2:
        if len(args) == 2 and _is_int(args[1]):
            raise TypeError(f"randint(): argument 'size' (position 2) must be tuple of ints, not "
                            f"{type(args[1]).__name__}")
        raise invalid_arguments("randint", args, given)
    for i, b in enumerate(bounds):
        if not _is_int(b):
            which = ("high",) if len(bounds) == 1 else ("low", "high")
            raise TypeError(f"randint(): argument '{which[i]}' (position {i + 1}) must be int, not {type(b).__name__}")
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    shape = _shape("randint", (size,), None, {})
    gen = _generator("randint", generator, args + ([size] if size is not None else []))
    dtype = dtype or dtypes.int64
    return _random_tensor(np.empty(shape, dtype=dtype.np), dtype, int(low), int(high), gen, requires_grad)


def randperm(n, *, generator=None, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "randperm")
    devices.check(device)
    if not _is_int(n):
        raise invalid_arguments("randperm", (n,), {})
    _alloc((int(n),))
    gen = _generator("randperm", generator, (n,))
    dtype = dtype or dtypes.int64
    if dtype.is_floating_point and n > (1 << (np.finfo(dtype.np).nmant + 1)) + 1:
        raise RuntimeError(f"n cannot be greater than 2^{np.finfo(dtype.np).nmant + 1}+1 for "
                           f"{dtype.type_name} type.")
    return _finish(draws.randperm(gen, int(n), dtype.np), dtype, requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, requires_grad=False,
           device=None):
    """torch.normal(mean, std, size) of numbers is a factory; with a tensor mean or std it is an op whose node
    (NormalBackward1/2/3) passes zeros back."""
    dtypes.given(dtype, "normal")
    devices.check(device)
    _check_layout(layout)
    return _made("normal", _normal(mean, std, size, generator, _out_dtype(dtype, out), requires_grad), out)


def _normal(mean, std, size, generator, dtype, requires_grad):
    gen = _generator("normal", generator, (mean, std) if size is None else (mean, std, size))
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mean_t and not std_t:
        if size is None:
            raise invalid_arguments("normal", (mean, std), {})
        if not std >= 0.0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        shape = _shape("normal", (size,), None, {})
        return _float_tensor(_empty(shape), dtype, requires_grad, "normal_kernel_cpu",
                             lambda a, scale: draws.normal(gen, a, mean, std * scale))
    attrs = {"generator": generator}
    if mean_t and not std_t:
        if not std >= 0.0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        _float_input(mean)
        return dispatch.apply(OPS["normal_tensor_float"], (mean,), {"std": std, **attrs}, mean.dtype)
    check_std_tensor(std)
    if not mean_t:
        _float_input(std)
        return dispatch.apply(OPS["normal_float_tensor"], (std,), {"mean": mean, **attrs}, std.dtype)
    _broadcast_check(mean.shape, std.shape)
    _float_input(mean)
    return dispatch.apply(OPS["normal_tensor_tensor"], (mean, std), attrs, mean.dtype)


def _float_input(t):
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{t.dtype.type_name}\'')


def _broadcast_check(a, b):
    error = messages.broadcast_error(a, b)
    if error is not None:
        raise error


def _like(t):
    """empty_like(t): the same layout, so that a view's draws land in its memory order as in torch."""
    _alloc(t.shape)
    return lambda dtype: np.empty_like(t._data, dtype=dtype.np)


def rand_like(input, *, dtype=None, requires_grad=False, device=None, generator=None):  # noqa: A002
    dtypes.given(dtype, "rand_like")
    devices.check(device)
    gen = _generator("rand_like", generator, (input,))
    return _float_tensor(_like(input), dtype or input.dtype, requires_grad, "check_uniform_bounds",
                         lambda a, _: draws.uniform(gen, a, 0, 1))


def randn_like(input, *, dtype=None, requires_grad=False, device=None, generator=None):  # noqa: A002
    dtypes.given(dtype, "randn_like")
    devices.check(device)
    gen = _generator("randn_like", generator, (input,))
    return _float_tensor(_like(input), dtype or input.dtype, requires_grad, "normal_kernel_cpu",
                         lambda a, scale: draws.normal(gen, a, 0, scale))


def randint_like(input, low=0, high=None, *, dtype=None, requires_grad=False, device=None, generator=None):  # noqa: A002
    dtypes.given(dtype, "randint_like")
    devices.check(device)
    if high is None:
        low, high = 0, low
    dtype = dtype or input.dtype
    like = _like(input)(dtype)
    gen = _generator("randint_like", generator, (input, low, high) if low else (input, high))
    return _random_tensor(like, dtype, int(low), int(high), gen, requires_grad)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):  # noqa: A002
    if out is not None and isinstance(out, Tensor) and out.dtype is not dtypes.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {out.dtype.type_name}")
    return _made("multinomial", _multinomial(input, num_samples, replacement, generator), out)


def _multinomial(input, num_samples, replacement, generator):  # noqa: A002
    """Indices drawn from the rows of `input` (weights): without replacement, or for one sample, the largest
    p / q for q ~ Exp(1) (argmax, or topk for several); with replacement a 53-bit uniform per sample looked up in
    the row's cumulative sums (float, summed in order, divided by the total), as ATen's CPU kernels do it."""
    gen = _generator("multinomial", generator)
    if not 1 <= input.dim() <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {input.dtype.type_name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    p = input._data
    if not replacement and num_samples > p.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if p.shape[-1] > 2**24:  # ATen keeps the categories' indices as floats
        raise RuntimeError("number of categories cannot exceed 2^24")
    shape = (num_samples,) if p.ndim == 1 else (p.shape[0], num_samples)
    _alloc(shape)
    rows = p.reshape(-1, p.shape[-1])
    if not replacement or num_samples == 1:
        if not (np.all(p < np.inf) and np.all(p >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(rows.sum(axis=1, dtype=p.dtype) == 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = (p / draws.exponential(gen, np.empty_like(p), 1.0)).reshape(rows.shape)
        idx = np.ascontiguousarray(np.argsort(-q, axis=1, kind="stable")[:, :num_samples])
    else:
        idx = np.empty((rows.shape[0], num_samples), dtype=np.int64)
        for i, row in enumerate(rows):
            bad = np.flatnonzero(~(row >= 0) | ~np.isfinite(row))  # ATen checks each entry in turn: >= 0, finite
            if bad.size:
                raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)"
                                   if not row[bad[0]] >= 0 else
                                   "invalid multinomial distribution (encountering probability entry = infinity or "
                                   "NaN)")
            cum = np.cumsum(row, dtype=row.dtype)  # in order, in the row's float type
            if not cum[-1] > 0:
                raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
            cum = cum / cum[-1]
            cum[-1] = 1
            idx[i] = np.searchsorted(cum.astype(np.float64), draws.unit(gen, num_samples, np.float64), side="left")
    return _finish(idx.reshape(shape), dtypes.int64, False)


Tensor.multinomial = multinomial
