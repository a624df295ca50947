"""nn.Module: parameters, buffers and submodules by name, state_dict, train/eval, hooks, and its repr."""
import inspect
import warnings
from collections import OrderedDict, namedtuple

import numpy as np

from ... import devices, dtypes, grad_mode, meta, observe
from ...tensor import Tensor
from ...torch_names import TorchABCClass, name_as_torch
from ..parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from .backward_hooks import GLOBAL_BACKWARD_HOOKS, BackwardHook, wants_backward_hooks
from .factory_kwargs import factory_device
from .hook_table import HookTable, _add_hook, _add_hook_fn


def register_module_full_backward_hook(hook):
    return _add_hook_fn(GLOBAL_BACKWARD_HOOKS["backward"], hook)


def register_module_full_backward_pre_hook(hook):
    return _add_hook_fn(GLOBAL_BACKWARD_HOOKS["backward_pre"], hook)


# torch.nn.modules.module.register_module_forward_pre_hook / _forward_hook: hooks of every module, run first.
GLOBAL_HOOKS = {"forward_pre": HookTable(), "forward": HookTable()}


def register_module_forward_pre_hook(hook):
    return _add_hook(GLOBAL_HOOKS["forward_pre"], hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    return _add_hook(GLOBAL_HOOKS["forward"], hook, False, with_kwargs, always_call)


class Module(metaclass=TorchABCClass):
    training = True
    _torch_name = "torch.nn.modules.module.Module"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name_as_torch(cls)
        init = cls.__dict__.get("__init__")
        if init is not None and cls.__module__.split(".")[0] == __name__.split(".")[0] and \
                "device" in inspect.signature(init).parameters and not hasattr(cls, "cls_to_become"):
            cls.__init__ = factory_device(init)  # the engine's layers (not a program's own, nor lazy ones)

    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_forward_hooks", HookTable())
        object.__setattr__(self, "_forward_pre_hooks", HookTable())
        object.__setattr__(self, "_backward_hooks", [])
        object.__setattr__(self, "_backward_pre_hooks", [])
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(value, Parameter):
            if "_parameters" not in d:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep="_parameters")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if "_modules" not in d:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep="_modules")
            self._modules[name] = value
        elif name in d.get("_parameters", {}):
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' (torch.nn.Parameter or "
                                "None expected)")
            self._parameters[name] = None
        elif name in d.get("_modules", {}):
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' (torch.nn.Module or "
                                "None expected)")
            self._modules[name] = None
        elif isinstance(value, Buffer) or name in d.get("_buffers", {}):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' (torch.nn.Buffer, "
                                "torch.Tensor or None expected)")
            persistent = value.persistent if isinstance(value, Buffer) else name not in self._non_persistent_buffers_set
            self.register_buffer(name, value, persistent)
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name, keep):
        """Removes `name` from the attributes and the tables but `keep` (where it stays in its place)."""
        self.__dict__.pop(name, None)
        for table in {"_parameters", "_buffers", "_modules"} - {keep}:
            self.__dict__[table].pop(name, None)

    def __getattr__(self, name):
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if name in d.get(table, {}):
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for table in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(table, {}):
                del self.__dict__[table][name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def _check_name(self, kind, name, table):
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in self.__dict__[table]:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name, param):
        self._check_name("parameter", name, "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' (torch.nn.Parameter "
                            "or None required)")
        if param is not None and param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                             f"created explicitly. To express '{name}' as a function of another Tensor, compute "
                             "the value in the forward() method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        self._check_name("buffer", name, "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' (torch Tensor or None "
                            "required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        self._check_name("module", name, "_modules")
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target):
        module = self
        for item in target.split(".") if target else ():
            if not hasattr(module, item):
                raise AttributeError(f"{type(module).__name__} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def __call__(self, *args, **kwargs):
        d = self.__dict__
        own_pre = d.get("_forward_pre_hooks")
        if not (own_pre or d.get("_forward_hooks") or GLOBAL_HOOKS["forward_pre"] or GLOBAL_HOOKS["forward"]) \
                and not wants_backward_hooks(self):
            if observe.active():
                observe.emit("on_module", self, True)
                try:
                    return self.forward(*args, **kwargs)
                finally:
                    observe.emit("on_module", self, False)
            return self.forward(*args, **kwargs)
        pre = GLOBAL_HOOKS["forward_pre"].calls() + own_pre.calls() if own_pre else GLOBAL_HOOKS["forward_pre"].calls()
        for fn, with_kwargs, _ in pre:
            if with_kwargs:
                result = fn(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {result}.")
                    args, kwargs = result
            else:
                result = fn(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        own = d.get("_forward_hooks")
        hooks = GLOBAL_HOOKS["forward"].calls() + own.calls() if own else GLOBAL_HOOKS["forward"].calls()
        called = set()
        backward_hook = BackwardHook(self) if wants_backward_hooks(self) else None
        if backward_hook is not None:
            args = backward_hook.setup_input_hook(args)
        try:
            if observe.active():
                observe.emit("on_module", self, True)
                try:
                    out = self.forward(*args, **kwargs)
                finally:
                    observe.emit("on_module", self, False)
            else:
                out = self.forward(*args, **kwargs)
            for i, (fn, with_kwargs, _) in enumerate(hooks):
                called.add(i)
                result = fn(self, args, kwargs, out) if with_kwargs else fn(self, args, out)
                if result is not None:
                    out = result
            if backward_hook is not None:
                out = backward_hook.setup_output_hook(out)
        except Exception:
            for i, (fn, with_kwargs, always_call) in enumerate(hooks):
                if always_call and i not in called:
                    try:
                        fn(self, args, kwargs, None) if with_kwargs else fn(self, args, None)
                    except Exception as e:  # noqa: BLE001 - torch warns and raises the forward's error
                        warnings.warn("global module forward hook with ``always_call=True`` raised an exception "
                                      f"that was silenced as another error was raised in forward: {e}",
                                      stacklevel=2)
            raise
        return out

    def _hook(self, table, hook, prepend, with_kwargs=False, always_call=False):
        return _add_hook(self.__dict__[table], hook, prepend, with_kwargs, always_call)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """hook(module, args, output), or hook(module, args, kwargs, output) with_kwargs, after each forward (a
        result it returns replaces the output); always_call: also when forward raises (with output None)."""
        return self._hook("_forward_hooks", hook, prepend, with_kwargs, always_call)

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) once the grads of the module's input are computed (a result it
        returns replaces grad_input)."""
        return _add_hook_fn(self.__dict__["_backward_hooks"], hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) when the grads of the module's output arrive (a result replaces them)."""
        return _add_hook_fn(self.__dict__["_backward_pre_hooks"], hook, prepend)

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args) before each forward (a result replaces the arguments); with_kwargs:
        hook(module, args, kwargs), returning None or (args, kwargs)."""
        return self._hook("_forward_pre_hooks", hook, prepend, with_kwargs)

    def forward(self, *args):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def _named_members(self, table, prefix, recurse, remove_duplicate=True):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for name, v in module.__dict__[table].items():
                if v is None or (remove_duplicate and id(v) in seen):
                    continue
                seen.add(id(v))
                yield (module_prefix + ("." if module_prefix else "") + name), v

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_children(self):
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.detach_() if p.grad.grad_fn is not None else p.grad.requires_grad_(False)
                    p.grad.zero_()

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        object.__setattr__(self, "training", mode)
        for m in self.children():
            m.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def _apply_to_tensors(self, fn):
        with grad_mode.no_grad():
            for m in self.modules():
                for table in ("_parameters", "_buffers"):
                    for t in m.__dict__[table].values():
                        if t is not None:
                            t._data, t.dtype = fn(t)
                            if t.grad is not None:
                                t.grad._data, t.grad.dtype = fn(t.grad)
        return self

    def to(self, *args, **kwargs):
        dtype = next((a for a in (*args, kwargs.get("dtype")) if isinstance(a, dtypes.dtype)), None)
        for a in (*args, kwargs.get("device")):
            if devices.is_device(a) and meta.is_meta(a):
                self._to_meta()
            elif devices.is_device(a):
                devices.check(a)
        if dtype is None:
            return self
        if not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")
        return self._apply_to_tensors(lambda t: (dtypes.stored(dtype, t._data.astype(dtype.np)), dtype)
                                      if t.dtype.is_floating_point else (t._data, t.dtype))

    def to_empty(self, *, device, recurse=True):
        """Each parameter and buffer replaced in place by an uninitialised one (zeros here) on `device`: a model
        built on meta made real, to be initialised or loaded."""
        place = meta.is_meta(device)
        if not place:
            devices.check(device)
        for m in self.modules() if recurse else (self,):
            for table in ("_parameters", "_buffers"):
                for t in m.__dict__[table].values():
                    if t is None:
                        continue
                    if place:
                        meta.placed(t)
                        continue
                    t._data = np.zeros(t._data.shape, dtype=t.dtype.np)
                    if isinstance(t, meta.MetaTensor):
                        t.__class__ = meta.off_meta_class(type(t))
        return self

    def _to_meta(self):
        """Every parameter and buffer (and grad) moved onto the meta device in place, as torch swaps in a meta
        tensor of each: the module keeps its shapes and no data."""
        for m in self.modules():
            for table in ("_parameters", "_buffers"):
                for t in m.__dict__[table].values():
                    if t is not None:
                        meta.placed(t)
                        if t.grad is not None:
                            meta.placed(t.grad)

    def cpu(self):
        return self

    def double(self):
        return self.to(dtypes.float64)

    def float(self):
        return self.to(dtypes.float32)

    def half(self):
        return self.to(dtypes.float16)

    def bfloat16(self):
        return self.to(dtypes.bfloat16)

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        out = OrderedDict() if destination is None else destination
        for name, p in self._parameters.items():
            if p is not None:
                out[prefix + name] = p if keep_vars or _uninitialized(p) else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                out[prefix + name] = b if keep_vars or _uninitialized(b) else b.detach()
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(destination=out, prefix=prefix + name + ".", keep_vars=keep_vars)
        return out

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                              f"object from checkpoint but received {type(value)}")
            elif _uninitialized(target) and not _uninitialized(value):
                # a lazy module's tensor takes the checkpoint's shape, as torch's LazyModuleMixin's load hook does
                with grad_mode.no_grad():
                    target.materialize(tuple(value.shape))
                    target.copy_(value)
            elif tuple(value.shape) != tuple(target.shape):
                errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
                              f"the shape in current model is {target.shape}.")
            else:
                with grad_mode.no_grad():
                    target.copy_(value)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected)
                              + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        lines = [f"({name}): " + _indent(repr(m)) for name, m in self._modules.items()]
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        if not lines and len(extra_lines) <= 1:
            return f"{self._get_name()}({extra})"
        body = extra_lines + lines
        return self._get_name() + "(\n  " + "\n  ".join(body) + "\n)"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _typename(obj):
    """torch.typename: a tensor's type ('torch.FloatTensor'), else module.qualname."""
    if isinstance(obj, Tensor):
        return obj.type()
    return f"{type(obj).__module__}.{type(obj).__qualname__}".removeprefix("builtins.")


def _indent(text):
    return text.replace("\n", "\n  ")


def _uninitialized(t):
    """A lazy module's tensor without a shape yet: the state_dict holds it as it is, as torch's does."""
    return isinstance(t, (UninitializedParameter, UninitializedBuffer))
