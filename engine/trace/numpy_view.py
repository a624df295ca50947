"""`import numpy as np` in a program: a small, sized view of numpy, made for each run.

What it holds: array creation from data and shapes, the math ufuncs, reductions and the shape functions
learners use next to PyTorch, random numbers from the run's own RandomState (seeded 0 at the start of every
run, so a program's numbers are the same every time and nothing of a run persists), dtypes (as dtype objects)
and constants. Every function sizes its result before numpy makes it and hands out arrays.ndarray; none reads
or writes files, takes object dtypes or reaches numpy's modules (no lib, ctypes, memmap, load, save, fromfile).
`np.empty` gives zeros: uninitialised memory could show what the process held before.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .arrays import as_array, broadcast_numel, charge, check_work, matmul_numel, no_object, operand, plain
from .classes import ClassName
from .module_views import SafeModule
from .numpy_more import MORE_SIZES, UFUNCS_MORE, get_printoptions, printoptions, set_printoptions, shape_numel

UFUNCS = """add subtract multiply divide true_divide floor_divide power float_power mod remainder fmod negative
    positive absolute fabs sign exp exp2 expm1 log log2 log10 log1p sqrt cbrt square reciprocal sin cos tan
    arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh hypot maximum minimum fmax fmin floor
    ceil trunc rint isnan isinf isfinite equal not_equal less less_equal greater greater_equal logical_and
    logical_or logical_not logical_xor matmul deg2rad rad2deg degrees radians signbit copysign""".split()
# Functions whose result is no bigger than their inputs (sized already, lists by `plain`).
NO_BIGGER = """sum mean std var min max amin amax prod argmax argmin cumsum cumprod all any sort argsort unique
    reshape transpose squeeze ravel flip count_nonzero nonzero median round around concatenate stack vstack
    hstack array_equal expand_dims trace diagonal array asarray copy ascontiguousarray abs shape ndim size
    average ptp triu tril append split array_split""".split()
# Functions that broadcast their array arguments together.
BROADCAST = "where clip isclose allclose".split()
DTYPES = "float16 float32 float64 int8 int16 int32 int64 uint8 bool_ bool".split()
CONSTANTS = {"pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan, "newaxis": None, "euler_gamma": np.euler_gamma}
ABSTRACT = {"ndarray": np.ndarray, "generic": np.generic, "number": np.number, "integer": np.integer,
            "floating": np.floating}


def _shape_arg(args, kwargs, position=0, name="shape"):
    shape = args[position] if len(args) > position else kwargs.get(name)
    return 1 if shape is None else shape_numel(shape)


def _arange(*args, **kwargs):
    start, stop, step = 0, None, 1
    values = list(args) + [kwargs[k] for k in ("start", "stop", "step") if k in kwargs]
    if len(values) == 1:
        stop = values[0]
    elif len(values) >= 2:
        start, stop, *rest = values[:3]
        step = rest[0] if rest else 1
    return max(0, math.ceil((stop - start) / step))


def _bincount(x, weights=None, minlength=0):
    """One count per value up to the largest: numpy refuses negative or non-integer input itself."""
    x = np.asarray(x)
    top = int(x.max()) + 1 if x.size and x.dtype.kind in "iub" else 0
    return max(top, operator.index(minlength))


def _eye(N, M=None, *_, **__):  # noqa: N803 - numpy's argument names
    return operator.index(N) * operator.index(N if M is None else M)


def _diag(v, k=0, **_):
    return (np.shape(v)[0] + abs(k)) ** 2 if np.ndim(v) == 1 else min(np.shape(v) or (1,))


def _tile(a, reps, **_):
    reps = (reps,) if np.ndim(reps) == 0 else tuple(reps)
    return np.size(a) * math.prod(operator.index(r) for r in reps)


def _outer(a, b, **_):
    return np.size(a) * np.size(b)


def _meshgrid(*xi, sparse=False, **_):
    """One array per input, each as big as all the inputs' sizes multiplied (sparse ones as their input)."""
    sizes = [np.size(x) for x in xi]
    return sum(sizes) if sparse else len(sizes) * math.prod(sizes)


def _histogram(a, bins=10, *_, **__):
    """The counts and the bin edges (one more than the counts)."""
    n = operator.index(bins) if np.ndim(bins) == 0 and not isinstance(bins, str) else np.size(bins)
    return 2 * n + 1


def _dot(a, b, *_, **__):
    if np.ndim(a) and np.ndim(b):
        numel, work = matmul_numel(a, b)
        check_work(work, np.result_type(np.asarray(a), np.asarray(b)))
        return numel if np.ndim(a) <= 2 and np.ndim(b) <= 2 else np.size(a) * np.size(b)
    return max(np.size(a), np.size(b))


SIZES = {
    **{name: (lambda *args, **kwargs: _shape_arg(args, kwargs)) for name in ("zeros", "ones", "empty", "full")},
    "zeros_like": lambda a, *_, **k: _shape_arg((k.get("shape", np.shape(a)),), {}),
    "ones_like": lambda a, *_, **k: _shape_arg((k.get("shape", np.shape(a)),), {}),
    "empty_like": lambda a, *_, **k: _shape_arg((k.get("shape", np.shape(a)),), {}),
    "full_like": lambda a, *_, **k: _shape_arg((k.get("shape", np.shape(a)),), {}),
    "arange": _arange,
    "linspace": lambda start, stop, num=50, *_, **__: operator.index(num),
    "eye": lambda *args, **kwargs: _eye(*args, **kwargs),
    "identity": lambda n, *_, **__: operator.index(n) ** 2,
    "diag": _diag, "tile": _tile, "outer": _outer, "dot": _dot, "bincount": _bincount,
    "meshgrid": _meshgrid, "histogram": _histogram,
    "repeat": lambda a, repeats, axis=None: np.size(a) * int(np.max(repeats)) if np.size(repeats) else 0,
    **{name: (lambda *args, **kwargs: broadcast_numel([a for a in args if np.ndim(a)])) for name in BROADCAST},
    **{name: (lambda *args, **kwargs: 0) for name in NO_BIGGER},
}
_SAME = {"empty": np.zeros, "empty_like": np.zeros_like}  # never uninitialised memory


def _piece_numel(piece):
    """How many numbers one piece of np.r_[...] / np.c_[...] adds: a slice's length (a complex step is a count, as
    in linspace), a directive string none, anything else its size."""
    if isinstance(piece, slice):
        start = 0 if piece.start is None else piece.start
        step = 1 if piece.step is None else piece.step
        if isinstance(step, complex):
            return int(abs(step))
        return 0 if piece.stop is None else max(0, math.ceil((piece.stop - start) / step))
    return 0 if isinstance(piece, str) else np.size(plain(piece))


class IndexConcatenator:
    """np.r_ and np.c_: each piece sized (and its numbers charged) before numpy joins them."""

    __slots__ = ("_join",)

    def __init__(self, join):
        object.__setattr__(self, "_join", join)

    def __getitem__(self, key):
        pieces = key if isinstance(key, tuple) else (key,)
        charge(sum(_piece_numel(piece) for piece in pieces))
        pieces = tuple(piece if isinstance(piece, (slice, str)) else plain(piece) for piece in pieces)
        return as_array(self._join[pieces if isinstance(key, tuple) else pieces[0]])

    def __len__(self):
        return 0


def _type_info(name):
    """np.finfo / np.iinfo: a dtype's limits (eps, max, tiny...), as numpy's own info objects."""
    fn = getattr(np, name)

    def function(dtype):
        return fn(no_object(np.dtype(plain(dtype))))

    function.__name__ = function.__qualname__ = name
    return function


def _function(name, fn, size):
    def function(*args, **kwargs):
        args = tuple(plain(a) for a in args)
        kwargs = {key: plain(value) for key, value in kwargs.items()}
        charge(size(*args, **kwargs))
        return as_array(fn(*args, **kwargs))

    function.__name__ = function.__qualname__ = name
    return function


def _ufunc(ufunc):
    def function(*args, **kwargs):
        inputs, out = args[:ufunc.nin], args[ufunc.nin:] or kwargs.pop("out", None)
        inputs = tuple(operand(x) for x in inputs)
        if out is not None:
            kwargs["out"] = tuple(operand(x) for x in (out if isinstance(out, tuple) else (out,)))
        for key in ("dtype", "signature"):
            no_object(kwargs.get(key))
        if ufunc is np.matmul and len(inputs) == 2:
            numel, work = matmul_numel(*inputs)
            charge(numel)
            check_work(work, np.result_type(*inputs))
        else:
            charge(broadcast_numel(inputs))
        return as_array(ufunc(*inputs, **kwargs))

    function.__name__ = function.__qualname__ = ufunc.__name__
    return function


def _size_numel(size):
    return 1 if size is None else shape_numel(size)


def _random_functions(state):
    """The random functions of numpy.random, drawing from `state` (the run's own), each sized first."""
    def sized(name, position, fn=None):
        fn = fn or getattr(state, name)

        def function(*args, **kwargs):
            args = tuple(plain(a) for a in args)
            kwargs = {key: plain(value) for key, value in kwargs.items()}
            size = args[position] if position is not None and len(args) > position else kwargs.get("size")
            params = [a for a in (*args[:position], *kwargs.values()) if np.ndim(a)] if position else []
            charge(max(_size_numel(size), broadcast_numel(params) if params else 1))
            return as_array(fn(*args, **kwargs))

        function.__name__ = function.__qualname__ = name
        return function

    def dims(name):
        fn = getattr(state, name)

        def function(*dims):
            charge(math.prod(operator.index(d) for d in dims))
            return as_array(fn(*dims))

        function.__name__ = function.__qualname__ = name
        return function

    def permutation(x):
        charge(operator.index(x) if isinstance(x, (int, np.integer)) else np.size(plain(x)))
        return as_array(state.permutation(plain(x)))

    def shuffle(x):
        state.shuffle(plain(x))

    def seed(seed=None):
        state.seed(0 if seed is None else seed)

    found = {"rand": dims("rand"), "randn": dims("randn"), "permutation": permutation, "shuffle": shuffle,
             "seed": seed}
    for name, position in (("random", 0), ("random_sample", 0), ("standard_normal", 0), ("randint", 2),
                           ("uniform", 2), ("normal", 2), ("choice", 1), ("binomial", 2), ("poisson", 1),
                           ("exponential", 1)):
        found[name] = sized(name, position)
    return found


class Generator:
    """What `np.random.default_rng(seed)` gives a program: a numpy Generator's common methods, sized."""

    __slots__ = ("_methods",)

    def __init__(self, seed):
        rng = np.random.default_rng(seed)
        object.__setattr__(self, "_methods", _generator_methods(rng))

    def __getattr__(self, name):
        try:
            return self._methods[name]
        except KeyError:
            raise AttributeError(f"'Generator' object has no attribute {name!r}") from None

    def __repr__(self):
        return "Generator(PCG64)"


class RandomState:
    """What `np.random.RandomState(seed)` gives a program: numpy's legacy generator of its own (the functions of
    np.random as its methods), sized."""

    __slots__ = ("_methods", "_state")

    def __init__(self, seed):
        state = np.random.RandomState(seed)
        object.__setattr__(self, "_methods", _random_functions(state))
        object.__setattr__(self, "_state", state)  # what scikit-learn's random_state= draws from (sklearn_view)

    def __getattr__(self, name):
        try:
            return self._methods[name]
        except KeyError:
            raise AttributeError(f"'RandomState' object has no attribute {name!r}") from None

    def __repr__(self):
        return "RandomState(MT19937)"


def _generator_methods(rng):
    def sized(name, position):
        fn = getattr(rng, name)

        def method(*args, **kwargs):
            args = tuple(plain(a) for a in args)
            kwargs = {key: plain(value) for key, value in kwargs.items()}
            size = args[position] if len(args) > position else kwargs.get("size")
            params = [a for a in (*args[:position], *kwargs.values()) if np.ndim(a)]
            charge(max(_size_numel(size), broadcast_numel(params) if params else 1))
            return as_array(fn(*args, **kwargs))

        method.__name__ = method.__qualname__ = name
        return method

    def permutation(x):
        charge(operator.index(x) if isinstance(x, (int, np.integer)) else np.size(plain(x)))
        return as_array(rng.permutation(plain(x)))

    def shuffle(x):
        rng.shuffle(plain(x))

    found = {"permutation": permutation, "shuffle": shuffle}
    for name, position in (("random", 0), ("standard_normal", 0), ("integers", 2), ("uniform", 2),
                           ("normal", 2), ("choice", 1), ("binomial", 2), ("poisson", 1), ("exponential", 1)):
        found[name] = sized(name, position)
    return found


def _matrices(a):
    """Elements of the square matrices a factorisation of `a` gives (its last two dims m, n: m·m + n·n each)."""
    shape = np.shape(a)
    if len(shape) < 2:
        return np.size(a)
    return math.prod(shape[:-2]) * (shape[-2] ** 2 + shape[-1] ** 2)


LINALG = {
    **{name: (lambda a, *_, **__: 0) for name in "norm det slogdet matrix_rank cond eigvals eigvalsh".split()},
    **{name: (lambda a, *_, **__: np.size(a)) for name in "inv pinv cholesky qr eig eigh".split()},
    "svd": lambda a, *_, **__: _matrices(a),
    "solve": lambda a, b, *_, **__: np.size(b),
    "lstsq": lambda a, b, *_, **__: np.size(b) + np.size(a),
    "matrix_power": lambda a, n, *_, **__: np.size(a),
}


def _fft_size(a, n=None, axis=-1, *_, **__):
    shape = np.shape(a)
    if n is None or not shape:
        return np.size(a)
    return np.size(a) // max(shape[axis], 1) * operator.index(n)


def _fftn_size(a, s=None, axes=None, *_, **__):
    shape = np.shape(a)
    if s is None or not shape:
        return np.size(a)
    axes = range(len(shape) - len(s), len(shape)) if axes is None else axes
    return np.size(a) // max(math.prod(shape[d] for d in axes), 1) * math.prod(operator.index(k) for k in s)


FFT = {
    **{name: _fft_size for name in "fft ifft rfft irfft hfft ihfft".split()},
    **{name: _fftn_size for name in "fft2 ifft2 fftn ifftn rfft2 irfft2 rfftn irfftn".split()},
    "fftfreq": lambda n, *_, **__: operator.index(n), "rfftfreq": lambda n, *_, **__: operator.index(n) // 2 + 1,
    "fftshift": lambda a, *_, **__: 0, "ifftshift": lambda a, *_, **__: 0,
}
TESTING = """assert_allclose assert_array_equal assert_array_almost_equal assert_almost_equal assert_equal
    assert_array_less""".split()


def _testing(name):
    fn = getattr(np.testing, name)

    def function(*args, **kwargs):
        fn(*(plain(a) for a in args), **{key: plain(value) for key, value in kwargs.items()})

    function.__name__ = function.__qualname__ = name
    return function


class ScalarType:
    """np.float32 and the like as a program holds them: called, numpy's scalar type (`np.float32(state)`: the value
    converted, charged by its size, an array of ours); given as a dtype (dtype=, astype, ==), numpy reads the dtype
    it carries; printed as numpy's class."""

    __slots__ = ("dtype", "_convert")

    def __init__(self, name):
        self.dtype = np.dtype(name.rstrip("_"))
        self._convert = getattr(np, name)

    def __call__(self, *args):
        values = tuple(plain(a) for a in args)
        charge(sum(math.prod(np.shape(v)) for v in values))
        return as_array(self._convert(*values))

    def __eq__(self, other):
        return self.dtype == (other.dtype if isinstance(other, ScalarType) else other)

    def __hash__(self):
        return hash(self.dtype)

    def __repr__(self):
        return f"<class 'numpy.{self.dtype.name}'>"


class TypingName:
    """numpy.typing's aliases (NDArray, ArrayLike, DTypeLike) as annotations use them: subscripted and printed as
    numpy's. Not numpy's own objects: NDArray forwards calls and attributes to np.ndarray, which would make arrays
    unsized."""

    __slots__ = ("_alias",)

    def __init__(self, alias):
        object.__setattr__(self, "_alias", alias)

    def __setattr__(self, name, value):
        raise AttributeError("numpy.typing's names are read-only")

    def __getitem__(self, args):
        def real(arg):
            if isinstance(arg, ScalarType):
                return arg.dtype.type
            return arg._cls if isinstance(arg, ClassName) else arg._alias if isinstance(arg, TypingName) else arg
        return TypingName(self._alias[tuple(map(real, args)) if isinstance(args, tuple) else real(args)])

    def __repr__(self):
        return repr(self._alias)


def _typing_view():
    import numpy.typing as npt  # (when a program first imports it)

    return SafeModule("numpy.typing", {name: TypingName(getattr(npt, name)) for name in ("NDArray", "ArrayLike",
                                                                                           "DTypeLike")})
def numpy_views(state: np.random.RandomState) -> dict[str, SafeModule]:
    """{"numpy": ..., "numpy.random": ..., "numpy.linalg": ..., "numpy.fft": ..., "numpy.testing": ...} for one
    run, drawing from `state` (the run's own): linalg's results sized by their matrices, fft's by their lengths,
    testing's assertions on plain arrays."""
    random = _random_functions(state)
    random["default_rng"] = lambda seed=None: Generator(state.randint(2**32, dtype=np.int64) if seed is None
                                                        else plain(seed))
    random["RandomState"] = lambda seed=None: RandomState(state.randint(2**32, dtype=np.int64) if seed is None
                                                          else plain(seed))
    random_view = SafeModule("numpy.random", random)
    attrs = {name: _function(name, _SAME.get(name, getattr(np, name)), size)
             for name, size in {**SIZES, **MORE_SIZES}.items() if hasattr(np, name)}
    attrs.update({name: _ufunc(getattr(np, name)) for name in UFUNCS + UFUNCS_MORE})
    attrs.update({name: ScalarType(name) for name in DTYPES})
    attrs.update({name: ClassName(cls) for name, cls in ABSTRACT.items()})
    linalg = SafeModule("numpy.linalg", {name: _function(name, getattr(np.linalg, name), size)
                                         for name, size in LINALG.items()} | {"LinAlgError": np.linalg.LinAlgError})
    fft = SafeModule("numpy.fft", {name: _function(name, getattr(np.fft, name), size) for name, size in FFT.items()})
    testing = SafeModule("numpy.testing", {name: _testing(name) for name in TESTING})
    typing = _typing_view()
    attrs.update(set_printoptions=set_printoptions, get_printoptions=get_printoptions, printoptions=printoptions)
    attrs.update(finfo=_type_info("finfo"), iinfo=_type_info("iinfo"), r_=IndexConcatenator(np.r_),
                 c_=IndexConcatenator(np.c_))
    attrs.update(CONSTANTS, random=random_view, linalg=linalg, fft=fft, testing=testing, typing=typing,
                 dtype=lambda spec: no_object(np.dtype(plain(spec))), __version__=np.__version__)
    return {"numpy": SafeModule("numpy", attrs), "numpy.random": random_view, "numpy.linalg": linalg,
            "numpy.fft": fft, "numpy.testing": testing, "numpy.typing": typing}
