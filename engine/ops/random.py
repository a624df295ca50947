"""Ops that draw from PyTorch's CPU generator (engine/generator) when they run: the random in-place methods
(uniform_, normal_, bernoulli_, random_, exponential_) and torch.normal / torch.bernoulli of tensors. Their nodes
pass zeros back, as PyTorch's derivatives for them do (bernoulli with a number p has none: its node is named
NotImplemented and fails in backward). The draw happens in the forward, after the in-place checks, into the
array the values go to, so that views are filled in their memory order as torch fills them."""
import warnings

import numpy as np

from .. import dtypes, generator
from .. import generator as generator_module
from ..generator import draws
from .table import OPS, Spelling, op

ZERO = ("0", lambda n, g: g * 0)


def _gen(g):
    return generator.default_generator if g is None else g


def check_generator(g, fname):
    if g is not None and not isinstance(g, generator.Generator):
        raise TypeError(f"{fname}(): argument 'generator' must be torch.Generator, not {type(g).__name__}")


def _num(x):
    """A number as C++ streams print a double (%g)."""
    return f"{x:g}"


def _float_only(self, kernel):
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{self.dtype.type_name}\'')


def _limits(dtype):
    info = np.finfo(dtype.np) if dtype.is_floating_point else None
    if info is not None:
        return float(info.min), float(info.max)
    if dtype is dtypes.bool:
        return 0, 1
    info = np.iinfo(dtype.np)
    return int(info.min), int(info.max)


def _positional(fname, args, kwargs, names, defaults):
    """torch's parsing of f(a, b, *, generator): positional or keyword (`from` can only be one by **kwargs)."""
    if len(args) > len(names):
        raise TypeError(f"{fname}() takes from 0 to {len(names)} positional arguments but {len(args)} were given")
    values = dict(zip(names, defaults))
    values.update(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise TypeError(f"{fname}() got an unexpected keyword argument '{k}'")
        values[k] = v
    return [values[n] for n in names]


# --- the TypeError of a call that matches none of a function's signatures ----------------------------------------
_KW = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
       "bool requires_grad = False")
_OUT = "Tensor out = None, " + _KW
_LIKE = "torch.memory_format memory_format = None, " + _KW


def _twice(heads, options):
    """Each signature as torch lists it: with a generator (required), then without."""
    return [f"({head}, *, {gen}{options})" for head in heads for gen in ("torch.Generator generator, ", "")]


SIGNATURES = {
    "rand": _twice(["tuple of ints size"], _OUT),
    "randn": _twice(["tuple of ints size"], _OUT),
    "randperm": _twice(["int n"], _OUT),
    "randint": _twice(["int high, tuple of ints size", "int low, int high, tuple of ints size"], _OUT),
    "rand_like": _twice(["Tensor input"], _LIKE),
    "randn_like": _twice(["Tensor input"], _LIKE),
    "randint_like": _twice(["Tensor input, int low, int high", "Tensor input, Tensor high", "Tensor input, int high"],
                           _LIKE),
    "bernoulli": ["(Tensor input, *, torch.Generator generator = None, Tensor out = None)",
                  "(Tensor input, float p, *, torch.Generator generator = None)"],
    "normal": ["(Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)",
               "(Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)",
               "(float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)",
               f"(float mean, float std, tuple of ints size, *, torch.Generator generator = None, {_OUT})"],
}


def invalid_arguments(name, args, kwargs):
    """torch's TypeError for a call that matches none of a function's signatures."""
    got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     + "".join(f" * {s}\n" for s in SIGNATURES[name]))


# --- uniform_ -------------------------------------------------------------------------------------------------
def _bind_uniform(self, *args, generator=None, **kwargs):
    low, high = _positional("uniform_", args, kwargs, ("from", "to"), (0, 1))
    check_generator(generator, "uniform_")
    _float_only(self, "check_uniform_bounds")
    lo, hi = _limits(self.dtype)
    for name, v in (("from", low), ("to", high)):
        if not lo <= v <= hi:
            raise RuntimeError(f"{name} is out of bounds for {self.dtype.c_name}")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={_num(low)} > "
                           f"to={_num(high)}")
    if high - low > hi:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{self.dtype.type_name}>::max(), but "
                           f"found to={_num(high)} and from={_num(low)} which result in to-from to exceed the limit")
    return OPS["uniform"], (self,), {"low": low, "high": high, "generator": generator}, self.dtype


op("uniform", "UniformBackward0", ("self",),
   lambda a, low, high, generator: draws.uniform(_gen(generator), a, low, high), ZERO,
   spell=Spelling(inplace="uniform_"), bind=_bind_uniform)


# --- normal_ --------------------------------------------------------------------------------------------------
def _check_std(std):
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_num(std)}")


def _bind_normal(self, mean=0.0, std=1.0, *, generator=None):
    check_generator(generator, "normal_")
    _check_std(std)
    _float_only(self, "normal_kernel_cpu")
    return OPS["normal"], (self,), {"mean": mean, "std": std, "generator": generator}, self.dtype


op("normal", "NormalBackward0", ("self",),
   lambda a, mean, std, generator: draws.normal(_gen(generator), a, mean, std), ZERO,
   spell=Spelling(inplace="normal_"), bind=_bind_normal)


# --- bernoulli_ -------------------------------------------------------------------------------------------------
def check_probabilities(p):
    """p of bernoulli with a tensor of probabilities: a float tensor of values in [0, 1]."""
    if not p.dtype.is_floating_point:
        raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for \'{p.dtype.type_name}\'')
    if p._data.size and not ((p._data >= 0) & (p._data <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
                           "be improved?  If so, please report an enhancement request to PyTorch.)")


def check_probability(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_num(p)}")


def _bind_bernoulli_(self, p=0.5, *, generator=None):
    check_generator(generator, "bernoulli_")
    if hasattr(p, "_data"):
        check_probabilities(p)
        shape, target = p.shape, self.shape
        lead = len(target) - len(shape)
        for i, s in enumerate(shape):
            if lead < 0 or (s != 1 and s != target[lead + i]):
                raise RuntimeError(
                    f"The expanded size of the tensor ({target[lead + i] if lead >= 0 else len(target)}) must match "
                    f"the existing size ({s}) at non-singleton dimension {i}.  Target sizes: {list(target)}.  "
                    f"Tensor sizes: {list(shape)}")
        return OPS["bernoulli_tensor_"], (self, p), {"generator": generator}, self.dtype
    check_probability(p)
    return OPS["bernoulli_"], (self,), {"p": p, "generator": generator}, self.dtype


op("bernoulli_", "BernoulliBackward2", ("self",),
   lambda a, p, generator: draws.bernoulli(_gen(generator), a, p), ZERO,
   spell=Spelling(inplace="bernoulli_"), bind=_bind_bernoulli_)
op("bernoulli_tensor_", "BernoulliBackward1", ("self", "p"),
   lambda a, p, generator: draws.bernoulli(_gen(generator), a, p), ZERO, ZERO,
   spell=Spelling(inplace="bernoulli_"), bind=_bind_bernoulli_)


# --- random_ ----------------------------------------------------------------------------------------------------
RANDOM_OVERLOADS = ("random_() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                    " * (*, torch.Generator generator = None)\n"
                    " * (int from, int to, *, torch.Generator generator = None)\n"
                    " * (int to, *, torch.Generator generator = None)\n")


def _bind_random(self, *args, generator=None, **kwargs):
    values = list(args) + list(kwargs.values())
    if len(args) > 2 or any(not (v is None or isinstance(v, (int, np.integer))) for v in values) \
            or set(kwargs) - {"from", "to"} or (args and kwargs):
        got = ", ".join([type(v).__name__ for v in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(RANDOM_OVERLOADS.format(got=got))
    check_generator(generator, "random_")
    if not args and not kwargs:
        return OPS["random_bits"], (self,), {"generator": generator}, self.dtype
    if len(args) == 1 or list(kwargs) == ["to"]:
        low, high, name = 0, (args or [kwargs.get("to")])[0], "random_to"
    else:
        low, high = (args if args else (kwargs.get("from", 0), kwargs.get("to")))
        name = "random_from"
    span, base = random_span(self.dtype, int(low), None if high is None else int(high))
    return OPS[name], (self,), {"span": span, "base": base, "generator": generator}, self.dtype


def random_span(dtype, low, high):
    """(span, base) of random_(low, high) (high None: up to the largest value of the dtype), with PyTorch's checks
    and its shifts of bounds a float type cannot hold (aten/src/ATen/native/DistributionTemplates.h)."""
    float_type = dtype.is_floating_point
    digits = np.finfo(dtype.np).nmant + 1 if float_type else 0
    if high is not None:
        if not low < high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        if float_type:
            low, high = _update_from(low, dtype, digits), _update_to(high, dtype, digits)
            if not low < high:
                raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but "
                                   f"got from={low} >= to={high}")
        _check_in_range(low, high - 1, dtype, digits)
        return high - low, low
    if low == -(1 << 63):
        return None, low
    if float_type:
        to_inc = 1 << digits
        low = _update_from(low, dtype, digits)
        if not low < to_inc:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted "
                               f"to dtype, but got from={low} > to_inc={to_inc}")
    else:
        to_inc = _limits(dtype)[1]
    _check_in_range(low, to_inc, dtype, digits)
    return to_inc - low + 1, low


def _update_from(low, dtype, digits):
    plus_1 = int(dtype.np.type(low + 1))
    if plus_1 < low:
        low = plus_1 + (1 << (abs(low + 1).bit_length() - 1 - digits + 1))
    return low


def _update_to(high, dtype, digits):
    minus_1 = int(dtype.np.type(high - 1))
    if minus_1 >= high:
        high = minus_1 - (1 << (abs(high - 1).bit_length() - 1 - digits + 1))
    return high


def _check_in_range(low, to_inc, dtype, digits):
    lo, hi = _limits(dtype)
    for name, v in (("from", low), ("to - 1", to_inc)):
        if not lo <= v <= hi:
            raise RuntimeError(f"{name} is out of bounds for {dtype.c_name}")
    if dtype.is_floating_point:
        for name, v in (("from", low), ("to - 1", to_inc)):
            if v < -(1 << digits) or v > (1 << digits):
                warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                              f"{dtype.c_name} can support discrete uniform distribution only within this range. "
                              "This warning will become an error in version 1.7 release, please fix the code in "
                              "advance", UserWarning, stacklevel=5)


def _random_fwd(a, span, base, generator):
    return draws.random_from_to(_gen(generator), a, span, base)


op("random_from", "RandomBackward0", ("self",), _random_fwd, ZERO, spell=Spelling(inplace="random_"),
   bind=_bind_random)
op("random_to", "RandomBackward1", ("self",), _random_fwd, ZERO, spell=Spelling(inplace="random_"),
   bind=_bind_random)
op("random_bits", "RandomBackward2", ("self",), lambda a, generator: draws.random_bits(_gen(generator), a), ZERO,
   spell=Spelling(inplace="random_"), bind=_bind_random)


# --- exponential_ -----------------------------------------------------------------------------------------------
def _bind_exponential(self, lambd=1.0, *, generator=None):
    check_generator(generator, "exponential_")
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_num(lambd)}")
    if not self.dtype.is_floating_point:
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {self.dtype.type_name}")
    return OPS["exponential"], (self,), {"lambd": lambd, "generator": generator}, self.dtype


op("exponential", "ExponentialBackward0", ("self",),
   lambda a, lambd, generator: draws.exponential(_gen(generator), a, lambd), ZERO,
   spell=Spelling(inplace="exponential_"), bind=_bind_exponential)


# --- torch.normal with tensors (torch.normal of numbers is a factory: engine/random.py) -------------------------
def _noise(shape, dtype, std, generator):
    return draws.normal(_gen(generator), np.empty(shape, dtype=dtype), 0.0, std)


def _normal_tensor_float(mean, std, generator):
    return _noise(mean.shape, mean.dtype, std, generator) + mean  # normal_(0, std), then add_(mean)


def _mul_add(out, std, mean):
    """output.mul_(std).add_(mean): each step computed in the promoted type and stored in the output's."""
    out = np.multiply(out, std, dtype=np.result_type(out, std)).astype(out.dtype)
    return np.add(out, mean, dtype=np.result_type(out, mean)).astype(out.dtype)


def _normal_float_tensor(std, mean, generator):
    return _mul_add(_noise(std.shape, std.dtype, 1.0, generator), std, np.asarray(mean, dtype=std.dtype))


def _normal_tensor_tensor(mean, std, generator):
    return _mul_add(_noise(np.broadcast_shapes(mean.shape, std.shape), mean.dtype, 1.0, generator), std, mean)


op("normal_tensor_float", "NormalBackward1", ("mean",), _normal_tensor_float, ZERO,
   spell=Spelling(function="normal", name="normal({0}, {std})"), bind=False)
op("normal_float_tensor", "NormalBackward2", ("std",), _normal_float_tensor, ZERO,
   spell=Spelling(function="normal", name="normal({mean}, {0})"), bind=False)
op("normal_tensor_tensor", "NormalBackward3", ("mean", "std"), _normal_tensor_tensor, ZERO, ZERO,
   spell=Spelling(function="normal"), bind=False)


def check_std_tensor(std):
    if std._data.size and not (std._data >= 0).all():
        raise RuntimeError("normal expects all elements of std >= 0.0")


# --- torch.bernoulli, Tensor.bernoulli --------------------------------------------------------------------------
def _bind_bernoulli(self, p=None, *, generator=None):
    if generator is not None and not isinstance(generator, generator_module.Generator):
        raise invalid_arguments("bernoulli", (self,) if p is None else (self, p), {"generator": generator})
    if p is None:
        check_probabilities(self)
        return OPS["bernoulli"], (self,), {"generator": generator}, self.dtype
    check_probability(p)
    return OPS["bernoulli_p"], (self,), {"p": p, "generator": generator}, self.dtype


def _not_implemented(n, g):
    raise RuntimeError("derivative for aten::bernoulli is not implemented")


op("bernoulli", "BernoulliBackward0", ("self",),
   lambda a, generator: draws.bernoulli(_gen(generator), np.empty(a.shape, a.dtype), a), ZERO,
   spell=Spelling(method="bernoulli", function="bernoulli"), bind=_bind_bernoulli)
op("bernoulli_p", "NotImplemented", ("self",),
   lambda a, p, generator: draws.bernoulli(_gen(generator), np.empty(a.shape, a.dtype), p),
   ("not implemented", _not_implemented),
   spell=Spelling(method="bernoulli", function="bernoulli"), bind=_bind_bernoulli)
