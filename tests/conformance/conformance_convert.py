"""Carrying torch's test-database arguments over to the engine under test, and its results back for comparing.

The engine under test is any module with torch's public API (`engine`, or `torch` itself for a self-check of
the harness). Tensors cross as their values (numpy), dtype and requires_grad; torch's dtypes, devices, memory
formats and functions cross by name; the test code's own lambdas are rebuilt with `torch` meaning the engine.
"""
from __future__ import annotations

import functools
import types

import numpy as np
import torch
from torch.testing._utils import wrapper_set_seed as _wrapper_set_seed

# The namespaces a torch callable is looked up in, first match wins, with the path the engine has it under.
NAMESPACES = (
    ("torch", ()),
    ("torch.Tensor", ("Tensor",)),
    ("torch.nn.functional", ("nn", "functional")),
    ("torch.linalg", ("linalg",)),
    ("torch.special", ("special",)),
    ("torch.fft", ("fft",)),
    ("torch.nn.init", ("nn", "init")),
    ("torch.autograd", ("autograd",)),
    ("torch.masked", ("masked",)),
    ("torch.signal.windows", ("signal", "windows")),
    ("torch.sparse", ("sparse",)),
    ("torch.functional", ()),
    ("torch.nn", ("nn",)),
    ("torch.optim", ("optim",)),
    ("torch.optim.lr_scheduler", ("optim", "lr_scheduler")),
)


class Missing(Exception):
    """The engine has no such name (the entry counts as missing, not as an error)."""


class Unsupported(Exception):
    """An argument the harness cannot carry over (a dtype the comparison does not cover, a generator…)."""


def _namespace_object(path):
    obj = torch
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _build_index():
    index = {}
    for path, engine_path in NAMESPACES:
        try:
            ns = _namespace_object(path)
        except AttributeError:
            continue
        for name in dir(ns):
            if name.startswith("__") and path != "torch.Tensor":
                continue
            try:
                obj = getattr(ns, name)
            except Exception:  # noqa: BLE001 - some attributes raise on access
                continue
            if isinstance(obj, (types.ModuleType, int, float, str, bool, torch.dtype)) or obj is None:
                continue
            index.setdefault(id(obj), (path, engine_path, name, obj))
    return index


_INDEX = None


def torch_path(obj):
    """(torch namespace, engine path, name) of a torch callable, or None."""
    global _INDEX
    if _INDEX is None:
        _INDEX = _build_index()
    hit = _INDEX.get(id(obj))
    if hit is None or hit[3] is not obj:
        return None
    return hit[:3]


def engine_attr(E, engine_path, name):
    obj = E
    for part in (*engine_path, name):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise Missing(".".join(("torch", *engine_path, name))) from None
    return obj


class Namespace:
    """A torch module seen through the engine: `torch.nn.functional` inside a test-database lambda."""

    def __init__(self, E, path):
        self._E, self._path = E, path

    def __getattr__(self, name):
        obj = engine_attr(self._E, self._path, name)
        if isinstance(obj, types.ModuleType):
            return Namespace(self._E, (*self._path, name))
        return obj


class Translator:
    """Maps torch objects (callables, modules, lambdas of the test code) to the engine's."""

    def __init__(self, E):
        self.E = E
        self._globals = {}

    def callable(self, fn):
        """The engine's counterpart of a torch callable; raises Missing when the engine has none."""
        if self.E is torch:
            return fn
        hit = torch_path(fn)
        if hit is not None:
            return engine_attr(self.E, hit[1], hit[2])
        if isinstance(fn, types.FunctionType) and fn.__module__ and fn.__module__.startswith("torch.testing"):
            return self.function(fn)
        if isinstance(fn, torch._ops.OpOverloadPacket):  # torch.ops.aten.<name>: the engine's torch.<name>
            name = fn._qualified_op_name.split("::")[-1]
            try:
                return engine_attr(self.E, (), name)
            except Missing:
                raise Missing(f"torch.ops.aten.{name}") from None
        if isinstance(fn, types.MethodType):
            return types.MethodType(self.callable(fn.__func__), fn.__self__)
        if isinstance(fn, functools.partial):
            return functools.partial(self.callable(fn.func), *fn.args, **fn.keywords)
        raise Missing(f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}")

    def function(self, fn):
        """A test-code function rebuilt so that `torch` (and torch's submodules) in it mean the engine."""
        key = id(fn.__globals__)
        g = self._globals.get(key)
        if g is None:
            g = dict(fn.__globals__)
            for name, value in fn.__globals__.items():
                if isinstance(value, types.ModuleType) and value.__name__.split(".")[0] == "torch":
                    parts = value.__name__.split(".")[1:]
                    g[name] = self.E if not parts else Namespace(self.E, tuple(parts))
                elif torch_path(value) is not None and callable(value):
                    hit = torch_path(value)
                    try:
                        g[name] = engine_attr(self.E, hit[1], hit[2])
                    except Missing:
                        g[name] = _missing_callable(".".join(("torch", *hit[1], hit[2])))
                elif value is _wrapper_set_seed:
                    g[name] = self._set_seed
            self._globals[key] = g
        closure = None
        if fn.__closure__:
            closure = tuple(types.CellType(self._cell(c)) for c in fn.__closure__)
        new = types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, closure)
        new.__kwdefaults__ = fn.__kwdefaults__
        return new

    def _set_seed(self, op, *args, **kwargs):
        """torch.testing's wrapper_set_seed (the random ops' OpInfos call through it), seeding the engine."""
        state = self.E.get_rng_state()
        self.E.manual_seed(42)
        try:
            return op(*args, **kwargs)
        finally:
            self.E.set_rng_state(state)

    def _cell(self, cell):
        try:
            value = cell.cell_contents
        except ValueError:
            return None
        if isinstance(value, types.ModuleType) and value.__name__.split(".")[0] == "torch":
            parts = value.__name__.split(".")[1:]
            return self.E if not parts else Namespace(self.E, tuple(parts))
        if callable(value) and not isinstance(value, type) and (
            torch_path(value) is not None
            or (isinstance(value, types.FunctionType) and (value.__module__ or "").startswith("torch.testing"))
        ):
            try:
                return self.callable(value)
            except Missing as e:
                return _missing_callable(str(e))
        return value


def _missing_callable(name):
    def missing(*args, **kwargs):
        raise Missing(name)

    return missing


def dtype_to(E, d):
    name = str(d).split(".")[-1]
    out = getattr(E, name, None)
    if out is None or not hasattr(out, "is_floating_point"):
        raise Unsupported(f"dtype {d}")
    return out


def to_engine(obj, E, tr, memo, *, grad=True):
    """torch argument → engine argument. Tensors keep values, dtype and (with grad) requires_grad; a tensor
    met twice maps to the same engine tensor."""
    if E is torch:
        return _to_torch_copy(obj, memo, grad)
    if isinstance(obj, torch.Tensor):
        hit = memo.get(id(obj))
        if hit is not None:
            return hit[1]
        if obj.layout != torch.strided or obj.dtype not in _CARRIED:
            raise Unsupported(f"tensor of {obj.dtype} / {obj.layout}")
        if obj.device.type != "cpu":  # a meta tensor (an error input's other device) has no values to carry over
            raise Unsupported(f"tensor on {obj.device}")
        if obj.dim() > 32:  # numpy's limit (64 since numpy 2, 32 before)
            raise Unsupported(f"tensor of {obj.dim()} dims")
        laid_out = _laid_out_like(obj, E) if not isinstance(obj, torch.nn.Parameter) else None
        if laid_out is not None:
            t = laid_out.requires_grad_(bool(grad and obj.requires_grad))
        else:
            # numpy() would mark the storage of torch's own tensor as not resizable (the in-place ops that resize self,
            # addbmm_, resize_, out= buffers, would then fail on torch's side): it reads a copy
            arr = _numpy_of(obj.detach().resolve_neg().resolve_conj().clone(memory_format=torch.contiguous_format))
            t = E.tensor(arr, dtype=dtype_to(E, obj.dtype), requires_grad=bool(grad and obj.requires_grad))
        if isinstance(obj, torch.nn.Parameter):
            t = E.nn.Parameter(t, requires_grad=bool(grad and obj.requires_grad))
        memo[id(obj)] = (obj, t)
        return t
    if isinstance(obj, torch.dtype):
        return dtype_to(E, obj)
    if isinstance(obj, torch.device):
        return E.device(str(obj)) if hasattr(E, "device") else str(obj)
    if isinstance(obj, torch.Size):
        return tuple(obj)
    if isinstance(obj, torch.memory_format):
        name = str(obj).split(".")[-1]
        if not hasattr(E, name):
            raise Missing(f"torch.{name}")
        return getattr(E, name)
    if isinstance(obj, torch.layout):
        name = str(obj).split(".")[-1]
        if not hasattr(E, name):
            raise Missing(f"torch.{name}")
        return getattr(E, name)
    if isinstance(obj, torch.Generator):
        raise Unsupported("torch.Generator argument")
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(to_engine(x, E, tr, memo, grad=grad) for x in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_engine(x, E, tr, memo, grad=grad) for x in obj)
    if isinstance(obj, dict):
        return {k: to_engine(v, E, tr, memo, grad=grad) for k, v in obj.items()}
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        return tr.callable(obj)
    if isinstance(obj, torch.nn.Module):
        return _module_to_engine(obj, E, tr, memo)
    return obj


_MODULE_BASE = frozenset(vars(torch.nn.Module()))  # torch's own bookkeeping of every module (hooks, tables)


def _module_to_engine(obj, E, tr, memo):
    """A module passed as an argument (a distance function, the layer a TransformerEncoder clones), rebuilt as the
    engine's class of the same name from its attributes: its submodules, parameters and buffers converted, its
    settings copied; no constructor is called, as torch's signature cannot be recovered from an instance."""
    name = type(obj).__name__
    cls = getattr(E.nn, name, None)
    if cls is None or type(obj).__module__.split(".")[:2] != ["torch", "nn"]:
        raise Missing(f"torch.nn.{name}") if cls is None else Unsupported(f"module argument of class {name}")
    em = cls.__new__(cls)
    E.nn.Module.__init__(em)
    em.train(obj.training)
    for key, value in vars(obj).items():
        if key not in _MODULE_BASE:
            setattr(em, key, to_engine(value, E, tr, memo, grad=False))
    for key, sub in obj._modules.items():
        setattr(em, key, None if sub is None else _module_to_engine(sub, E, tr, memo))
    for key, p in obj._parameters.items():
        setattr(em, key, None if p is None else E.nn.Parameter(to_engine(p.detach(), E, tr, {}, grad=False),
                                                               requires_grad=p.requires_grad))
    for key, b in obj._buffers.items():
        em.register_buffer(key, None if b is None else to_engine(b, E, tr, {}, grad=False),
                           persistent=key not in obj._non_persistent_buffers_set)
    return em


def _laid_out_like(obj, E):
    """A leaf engine tensor with torch's strides and storage offset for a tensor that is not plain row-major
    (OpInfo samples transposed, channels_last, sliced and expanded inputs on purpose): a copy of torch's storage,
    viewed as torch views it (numpy keeps the strides, and the engine reads its layout from them)."""
    if obj.is_contiguous() and obj.storage_offset() == 0 or obj.numel() == 0:
        return None
    if obj.is_neg() or obj.is_conj() or not hasattr(E, "from_numpy"):
        return None
    if obj.dtype == torch.bfloat16:  # numpy has no bfloat16: laid out in float32, then cast keeping the layout
        wide = _laid_out_like(obj.detach().float(), E)
        if wide is None or wide.storage_offset() or tuple(wide.stride()) != tuple(obj.stride()):
            return None
        t = wide.to(E.bfloat16)
        return t if tuple(t.stride()) == tuple(obj.stride()) else None
    d = obj.detach()
    n = d.untyped_storage().nbytes() // d.element_size()
    storage = torch.empty(0, dtype=d.dtype).set_(d.untyped_storage().clone(), 0, (n,), (1,)).numpy()
    item = storage.itemsize
    span = d.storage_offset() + 1 + sum((k - 1) * s for k, s in zip(d.shape, d.stride()))
    if d.storage_offset() or span < n:
        # a partial view (the sample's input is a slice of a bigger storage): the engine's is a view of the whole
        # storage too, which as_strided(storage_offset=…) reaches beyond the slice, as torch's does
        with E.no_grad():
            t = E.from_numpy(storage).as_strided(tuple(d.shape), tuple(d.stride()), d.storage_offset())
    else:
        t = E.from_numpy(np.lib.stride_tricks.as_strided(storage, tuple(d.shape), tuple(s * item for s in d.stride())))
    if tuple(t.stride()) != tuple(d.stride()) or t.storage_offset() != d.storage_offset():
        return None
    return t


_CARRIED = {torch.float64, torch.float32, torch.int64, torch.int32, torch.bool, torch.uint8, torch.int16, torch.int8,
            torch.float16, torch.bfloat16, torch.complex64, torch.complex128}


def _to_torch_copy(obj, memo, grad):
    """The self-check's conversion (engine = torch): fresh leaf tensors as the engine would get."""
    if isinstance(obj, torch.Tensor):
        hit = memo.get(id(obj))
        if hit is not None:
            return hit[1]
        t = obj.detach().clone().contiguous().requires_grad_(bool(grad and obj.requires_grad))
        memo[id(obj)] = (obj, t)
        return t
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(_to_torch_copy(x, memo, grad) for x in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_torch_copy(x, memo, grad) for x in obj)
    if isinstance(obj, dict):
        return {k: _to_torch_copy(v, memo, grad) for k, v in obj.items()}
    return obj


def is_tensor(E, x):
    return isinstance(x, E.Tensor)


def _numpy_of(t):
    """A tensor's values as numpy: bfloat16 as float32 and complex32 as complex64 (numpy has neither; the values are
    the same)."""
    name = str(t.dtype)
    if name == "torch.bfloat16":
        t = t.float()
    elif name == "torch.complex32":
        t = t.cfloat()
    return t.numpy(force=True) if isinstance(t, torch.Tensor) else np.asarray(t.numpy())


def to_numpy(E, t):
    return _numpy_of(t.detach())


def engine_array(E, arr, dtype_name, requires_grad=False):
    """An engine tensor of a numpy array (for grad_outputs and out= buffers)."""
    return E.tensor(np.array(arr), dtype=getattr(E, dtype_name), requires_grad=requires_grad)


def torch_array(arr):
    """A torch tensor of a numpy array (grad_outputs), laid out as torch lays out a new tensor: from_numpy would
    keep the strides 0 numpy gives an empty array."""
    t = torch.from_numpy(arr)
    return t if arr.size else t.clone(memory_format=torch.contiguous_format)


def flat_tensors(obj, E):
    """Tensors in a nested result, in order (tuples, lists, namedtuples, dicts)."""
    if is_tensor(E, obj):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for x in obj for t in flat_tensors(x, E)]
    if isinstance(obj, dict):
        return [t for x in obj.values() for t in flat_tensors(x, E)]
    return []
