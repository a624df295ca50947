"""torch.nn.attention: SDPBackend and sdpa_kernel, which choose the kernels scaled_dot_product_attention may run.
On the CPU torch has two: its flash kernel (4-d inputs without dropout) and the math path (attention.py); sdpa_kernel
enables only those it names, for the block it opens, and the choice is torch's: flash where it applies and is enabled,
else math if enabled, else torch's RuntimeError. ENABLED is the runner's to save and put back."""
import enum

ENABLED = {"math": True, "flash": True, "efficient": True, "cudnn": True, "overrideable": True}


class SDPBackend(enum.Enum):
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __str__(self):
        return f"SDPBackend.{self.name}"

    def __repr__(self):
        return f"<SDPBackend.{self.name}: {self.value}>"

    def __format__(self, spec):
        return format(str(self), spec)

    def __int__(self):
        return self.value


SDPBackend.__name__ = SDPBackend.__qualname__ = "_SDPBackend"
_KEYS = {SDPBackend.MATH: "math", SDPBackend.FLASH_ATTENTION: "flash", SDPBackend.EFFICIENT_ATTENTION: "efficient",
         SDPBackend.CUDNN_ATTENTION: "cudnn", SDPBackend.OVERRIDEABLE: "overrideable"}


class sdpa_kernel:  # noqa: N801 - torch's name
    """`with sdpa_kernel(SDPBackend.MATH):` the backends named, and no others, for the block; `as` gives {}."""

    def __init__(self, backends, set_priority=False):
        if not isinstance(backends, (list, SDPBackend)):
            raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend instances, got "
                                 f"{type(backends).__name__}")
        self.backends = {backends} if isinstance(backends, SDPBackend) else set(backends)
        self.previous = None

    def __enter__(self):
        self.previous = dict(ENABLED)
        ENABLED.update({key: backend in self.backends for backend, key in _KEYS.items()})
        return {}

    def __exit__(self, *exc):
        ENABLED.update(self.previous)
        return False


WARN_FOR_UNFUSED_KERNELS = False
