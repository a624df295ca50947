"""torch.save and torch.load, in the engine's own format (not torch's zip of pickles: a file saved here loads
here, not in torch, and the other way round).

What it stores is what torch's weights-only loading admits and learners save: tensors (their values, dtype and
requires_grad; a Parameter stays a Parameter; the same tensor saved twice loads as one object), numbers, strings,
bytes, None, dtypes, devices, torch.Size, and dicts (OrderedDict too: a state_dict), lists and tuples of them,
so a state_dict, an optimizer's state_dict or a checkpoint dict round-trips exactly. A whole nn.Module (the
engine's layers and a program's own modules) is stored as its class and its attributes: torch.load gives it back
with weights_only=False, within the same run (its class is found by reference, as pickle finds a class by name),
and refuses it otherwise with torch's words. Other objects (a program's own classes) are refused when saved,
saying so: torch would pickle them. The format is a magic line, a JSON description of the object and the tensors'
bytes after it.
"""
import collections
import json
import math
import os
import pickle
import struct
import weakref

import numpy as np

from . import devices, dtypes, observe
from .nn.modules.hook_table import HookTable
from .nn.modules.module import Module
from .nn.parameter import Parameter
from .tensor import Size, Tensor

MAGIC = b"autograd-explorer torch.save 1\n"
_LENGTH = struct.Struct("<Q")
_MODULE_CLASSES = weakref.WeakValueDictionary()  # id(class) -> class, of the modules saved whole in this process
_WEIGHTS_ONLY = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those steps "
    "only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default value of "
    "the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` "
    "set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please check the "
    "recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL "
    "{0} was not an allowed global by default. Please use `torch.serialization.add_safe_globals([{0}])` or the "
    "`torch.serialization.safe_globals([{0}])` context manager to allowlist this global if you trust this "
    "class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    writer = _Writer()
    header = json.dumps({"object": writer.encode(obj), "globals": writer.globals}, allow_nan=False).encode()
    data = MAGIC + _LENGTH.pack(len(header)) + header + b"".join(writer.blobs)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as out:
            out.write(data)
        return
    if not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    f.write(memoryview(data))


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    if weights_only is not False and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    _check_location(map_location)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as source:
            data = source.read()
    else:
        if not hasattr(f, "seek"):
            raise AttributeError(f"'{type(f).__name__}' object has no attribute 'seek'. You can only torch.load from "
                                 "a file that is seekable. Please pre-load the data into a buffer like io.BytesIO and "
                                 "try to load from it instead.")
        data = f.read()
    if isinstance(data, str):
        raise TypeError("a bytes-like object is required, not 'str'")
    if not data:
        raise EOFError("Ran out of input" if weights_only is False else "")  # an empty buffer, or one read before
    if not data.startswith(MAGIC):
        raise RuntimeError("Invalid magic number; corrupt file? (the engine loads only what its own torch.save "
                           "wrote)")
    start = len(MAGIC) + _LENGTH.size
    (length,) = _LENGTH.unpack(data[len(MAGIC):start])
    header = json.loads(data[start:start + length].decode())
    if header["globals"] and weights_only is not False:
        raise pickle.UnpicklingError(_WEIGHTS_ONLY.format(header["globals"][0]))
    return _Reader(memoryview(data)[start + length:]).decode(header["object"])


def _check_location(where):
    if where is None or callable(where) or isinstance(where, dict):
        return
    d = devices.device(where)
    if d.type == "cuda":
        raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                           "False. If you are running on a CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the CPU.")
    devices.check(d)


class _Writer:
    def __init__(self):
        self.blobs = []
        self.offset = 0
        self.seen = {}  # id(tensor) -> its number: the same tensor saved twice loads as one
        self.modules = {}  # id(module) -> its number, likewise
        self.globals = []  # the modules' classes, by torch's name, as pickle meets them

    def encode(self, x):
        if x is None or type(x) in (bool, int, str):
            return x
        if type(x) is float:
            return {"float": repr(x)} if not math.isfinite(x) else {"float": x}
        if isinstance(x, Tensor):
            return self._tensor(x)
        if isinstance(x, dtypes.dtype):
            return {"dtype": x.name}
        if isinstance(x, devices.device):
            return {"device": str(x)}
        if isinstance(x, Size):
            return {"size": list(x)}
        if type(x) is bytes:
            return {"bytes": self._blob(x)}
        if type(x) in (dict, collections.OrderedDict, collections.defaultdict):
            kind = {dict: "dict", collections.OrderedDict: "odict", collections.defaultdict: "dict"}[type(x)]
            return {kind: [[self.encode(k), self.encode(v)] for k, v in x.items()]}
        if type(x) in (list, tuple):
            return {type(x).__name__: [self.encode(v) for v in x]}
        if type(x) in (set, frozenset):
            return {type(x).__name__: [self.encode(v) for v in x]}
        if isinstance(x, Module):
            return self._module(x)
        if type(x) is HookTable and not x:  # a module's forward (pre-)hooks, none registered
            return {"hooks": []}
        kind = f"{type(x).__module__}.{type(x).__qualname__}"
        raise TypeError(f"the engine's torch.save stores tensors, numbers, strings, dtypes, devices and dicts, lists "
                        f"and tuples of them (a state_dict, a checkpoint), not {kind} objects, which torch would "
                        "pickle: save their state_dict() instead")

    def _module(self, m):
        if id(m) in self.modules:
            return {"same_module": self.modules[id(m)]}
        self.modules[id(m)] = len(self.modules)
        cls = type(m)
        self.globals.append(cls.__dict__.get("_torch_name") or f"{cls.__module__}.{cls.__qualname__}")
        _MODULE_CLASSES[id(cls)] = cls
        return {"module": id(cls), "number": len(self.modules) - 1, "state": self.encode(dict(vars(m)))}

    def _blob(self, raw):
        self.blobs.append(raw)
        at, self.offset = self.offset, self.offset + len(raw)
        return [at, len(raw)]

    def _tensor(self, t):
        if id(t) in self.seen:
            return {"same": self.seen[id(t)]}
        self.seen[id(t)] = len(self.seen)
        data = np.asarray(t._data)
        return {"tensor": len(self.seen) - 1, "dtype": t.dtype.name, "shape": list(data.shape),
                "data": self._blob(data.astype(data.dtype.newbyteorder("<")).tobytes()),
                "requires_grad": t.requires_grad, "parameter": isinstance(t, Parameter)}


class _Reader:
    def __init__(self, blobs):
        self.blobs = blobs
        self.tensors = {}
        self.modules = {}

    def decode(self, x):
        if not isinstance(x, (dict, list)):
            return x
        (kind, value), *_ = x.items()
        if kind == "float":
            return float(value)
        if kind == "tensor":
            return self._tensor(x)
        if kind == "same":
            return self.tensors[value]
        if kind == "dtype":
            return dtypes._by_name(value)
        if kind == "device":
            return devices.device(value)
        if kind == "size":
            return Size(value)
        if kind == "bytes":
            return bytes(self._blob(value))
        if kind in ("dict", "odict"):
            made = dict if kind == "dict" else collections.OrderedDict
            return made((self.decode(k), self.decode(v)) for k, v in value)
        if kind in ("list", "tuple"):
            items = [self.decode(v) for v in value]
            return items if kind == "list" else tuple(items)
        if kind in ("set", "frozenset"):
            return (set if kind == "set" else frozenset)(self.decode(v) for v in value)
        if kind == "module":
            return self._module(x)
        if kind == "hooks":
            return HookTable()
        if kind == "same_module":
            return self.modules[value]
        raise RuntimeError(f"corrupt file: unknown entry {kind!r}")

    def _module(self, x):
        cls = _MODULE_CLASSES.get(x["module"])
        if cls is None:
            raise RuntimeError("the engine loads a whole nn.Module only in the run that saved it (its class is found "
                               "by reference)")
        m = self.modules[x["number"]] = cls.__new__(cls)
        vars(m).update(self.decode(x["state"]))
        return m

    def _blob(self, where):
        at, length = where
        return self.blobs[at:at + length]

    def _tensor(self, x):
        dtype = dtypes._by_name(x["dtype"])
        n = int(np.prod(x["shape"], dtype=np.int64))
        if observe._observers:
            observe.emit("on_alloc", n)
        raw = np.frombuffer(self._blob(x["data"]), dtype=dtype.np.newbyteorder("<"), count=n)
        array = raw.astype(dtype.np).reshape(x["shape"])
        t = Tensor._make(array, dtype, False)
        if x["parameter"]:
            t = Parameter(t, requires_grad=x["requires_grad"])
        elif x["requires_grad"]:
            t.requires_grad_(True)
        if observe._observers and not x["parameter"]:
            observe.emit("on_tensor", t)
        self.tensors[x["tensor"]] = t
        return t


__all__ = ["save", "load"]
