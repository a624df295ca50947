"""torch.amp and torch.cuda.amp as torch 2.13's CPU-only build runs them: `autocast('cuda')` and `GradScaler()` (whose
device is 'cuda') warn that CUDA is not available and disable themselves, so a mixed-precision training loop runs in
float32 as written (`scaler.scale(loss)` is the loss, `scaler.step(opt)` is `opt.step()`); torch.cuda.amp's
constructors warn first that they are deprecated. `autocast('cpu')` casts as torch's CPU autocast does (bfloat16 or
float16 matmuls and convolutions, float32 losses: engine/autocasting.py). A CPU GradScaler, which computes otherwise,
is not in the explorer: it raises saying so."""
import functools

from . import autocasting, dtypes, fft, linalg, nn
from .messages import warn_at_caller
from .tensor import Tensor

NO_CUDA_AUTOCAST = "CUDA is not available or torch_xla is imported. Disabling autocast."
NO_CUDA_SCALER = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."


def _deprecated(name):
    warn_at_caller(f"`torch.cuda.amp.{name}(args...)` is deprecated. Please use `torch.amp.{name}('cuda', args...)` "
                   "instead.", FutureWarning)


NO_CPU_DTYPE = ("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.")
CPU_DTYPE = [dtypes.bfloat16]  # torch.get_autocast_dtype('cpu')


class autocast:
    """`with torch.autocast('cpu'):` casts as torch's CPU autocast; `torch.autocast('cuda')` on a machine without
    CUDA: disabled, with torch's warning."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = CPU_DTYPE[0] if dtype is None and device_type == "cpu" else dtype
        if enabled and device_type == "cuda":
            warn_at_caller(NO_CUDA_AUTOCAST)
            enabled = False
        elif enabled and device_type == "cpu":
            if self.fast_dtype not in (dtypes.bfloat16, dtypes.float16):
                warn_at_caller(NO_CPU_DTYPE)
                enabled = False
        elif enabled:
            raise NotImplementedError(f"autocast on {device_type!r} computes on a device the explorer has not: use "
                                      "autocast('cpu') or drop the autocast")
        self._enabled = enabled
        self._cache_enabled = True if cache_enabled is None else bool(cache_enabled)
        self._saved = []

    def __enter__(self):
        if self.device == "cpu":
            self._saved.append((autocasting.STATE[0], autocasting.CACHE_ENABLED[0]))
            autocasting.STATE[0] = self.fast_dtype if self._enabled else None
            autocasting.CACHE_ENABLED[0] = self._cache_enabled
            autocasting.NESTING[0] += 1
        return self

    def __exit__(self, *exc):
        if self.device == "cpu":
            autocasting.STATE[0], autocasting.CACHE_ENABLED[0] = self._saved.pop()
            autocasting.NESTING[0] -= 1
            if not autocasting.NESTING[0]:  # leaving the outermost region: its cached weight casts are dropped
                autocasting.CACHE.clear()
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorated


def is_autocast_enabled(device_type=None):
    """torch.is_autocast_enabled(): with no device, CUDA's (never, here); 'cpu': whether CPU autocast is on."""
    return device_type == "cpu" and autocasting.STATE[0] is not None


def get_autocast_dtype(device_type):
    return CPU_DTYPE[0] if device_type == "cpu" else dtypes.float16


def install(torch_module):
    """Wrap the functions torch's CPU autocast casts (engine/autocasting.POLICY) where a program finds them."""
    spaces = {"torch": torch_module, "Tensor": Tensor, "nn.functional": nn.functional, "linalg": linalg, "fft": fft}
    for where, names, policy in autocasting.POLICY:
        autocasting.police(spaces[where], names, policy)


class GradScaler:
    """`torch.amp.GradScaler()` without CUDA: disabled, with torch's warning; its methods pass through."""

    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        if enabled and device == "cuda":
            warn_at_caller(NO_CUDA_SCALER)
            enabled = False
        elif enabled:
            raise NotImplementedError(f"a GradScaler on {device!r} scales the loss and unscales the gradients, which "
                                      "the explorer does not do: drop it (or enabled=False), float32 needs no scaling")
        self._enabled = enabled

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        return None

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        return None

    def get_scale(self):
        return 1.0

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        return None


def cuda_autocast(enabled=True, dtype=None, cache_enabled=True):
    """torch.cuda.amp.autocast."""
    _deprecated("autocast")
    return autocast("cuda", dtype, enabled, cache_enabled)


def cuda_grad_scaler(init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                     enabled=True):
    """torch.cuda.amp.GradScaler."""
    _deprecated("GradScaler")
    return GradScaler("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


def is_autocast_available(device_type):
    return device_type in ("cpu", "cuda")


__all__ = ["autocast", "GradScaler", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype"]
