"""torch.amp and torch.cuda.amp as torch 2.13's CPU-only build runs them: `autocast('cuda')` and `GradScaler()` (whose
device is 'cuda') warn that CUDA is not available and disable themselves, so a mixed-precision training loop runs in
float32 as written (`scaler.scale(loss)` is the loss, `scaler.step(opt)` is `opt.step()`); torch.cuda.amp's
constructors warn first that they are deprecated. Autocast on the CPU (bfloat16 matmuls) and a CPU GradScaler, which
compute otherwise, are not in the explorer: they raise saying so."""
from .messages import warn_at_caller

NO_CUDA_AUTOCAST = "CUDA is not available or torch_xla is imported. Disabling autocast."
NO_CUDA_SCALER = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."


def _deprecated(name):
    warn_at_caller(f"`torch.cuda.amp.{name}(args...)` is deprecated. Please use `torch.amp.{name}('cuda', args...)` "
                   "instead.", FutureWarning)


class autocast:
    """`with torch.autocast('cuda'):` on a machine without CUDA: disabled, with torch's warning."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = dtype
        if enabled and device_type == "cuda":
            warn_at_caller(NO_CUDA_AUTOCAST)
            enabled = False
        elif enabled:
            raise NotImplementedError(f"autocast on {device_type!r} computes matmuls and convolutions in lower "
                                      "precision, which the explorer does not: run in float32 (enabled=False) or "
                                      "drop the autocast")
        self._enabled = enabled

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


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


__all__ = ["autocast", "GradScaler", "is_autocast_available"]
