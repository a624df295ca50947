"""torch's process-wide switches a learner's program sets: deterministic algorithms, thread counts, float32 matmul
precision, and torch.compile. None changes the engine's math (it has one CPU kernel per op, always deterministic);
they are kept and read back as torch keeps them. STATE is the runner's to save and put back."""
import functools
import os
import warnings

from . import memory
from .nn.modules.module import Module

STATE = {"deterministic": False, "warn_only": False, "threads": os.cpu_count() or 1,
         "interop_threads": None, "matmul_precision": "highest", "start_method": None}
MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


def set_flush_denormal(mode):
    """The CPU's flush-denormal mode (x86 with SSE3, as torch's build here): denormal numbers an op reads or makes,
    and those torch.tensor makes, become zeros of their sign. Returns True, as torch does on such a CPU."""
    if type(mode) is not bool:
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    memory.FLUSH_DENORMAL[0] = mode
    return True


def use_deterministic_algorithms(mode, *, warn_only=False):
    if type(mode) is not bool:
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    STATE["deterministic"], STATE["warn_only"] = mode, bool(warn_only)


def are_deterministic_algorithms_enabled():
    return STATE["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return STATE["warn_only"]


def set_deterministic_debug_mode(debug_mode):
    if not isinstance(debug_mode, (int, str)):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if isinstance(debug_mode, str):
        if debug_mode not in ("default", "warn", "error"):
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = ("default", "warn", "error").index(debug_mode)
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    STATE["deterministic"], STATE["warn_only"] = debug_mode > 0, debug_mode == 1


def get_deterministic_debug_mode():
    return (1 if STATE["warn_only"] else 2) if STATE["deterministic"] else 0


def set_num_threads(n):
    if type(n) is not int:
        raise RuntimeError(f"set_num_threads expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    STATE["threads"] = n


def get_num_threads():
    return STATE["threads"]


def set_num_interop_threads(n):
    if type(n) is not int:
        raise RuntimeError(f"set_num_interop_threads expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("Expected positive number of threads")
    STATE["interop_threads"] = n


def get_num_interop_threads():
    return STATE["interop_threads"] or STATE["threads"]


def set_float32_matmul_precision(precision):
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {type(precision).__name__}")
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    STATE["matmul_precision"] = precision


def get_float32_matmul_precision():
    return STATE["matmul_precision"]


class OptimizedModule(Module):
    """What torch.compile(module) returns: the module as `_orig_mod`, its attributes read through. The engine runs
    it eagerly, op by op, as torch.compile(backend="eager") would run it, minus Dynamo's rewriting of the graph."""

    def __init__(self, mod):
        super().__init__()
        self._orig_mod = mod
        self.training = mod.training

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self.__dict__["_modules"]["_orig_mod"], name)


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,  # noqa: A001
            name=None, disable=False, recompile_limit=None, isolate_recompiles=False, shapes_spec=None):
    """torch.compile: the same math, run eagerly (no graph capture, no fusion, no recompilation)."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if mode is not None and mode not in MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    if model is None:
        return functools.partial(compile, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                 options=options, disable=disable)
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if isinstance(model, Module):
        return OptimizedModule(model)
    if disable:
        return model

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)

    return compiled
