"""The switches of torch.backends a CPU-only build keeps (none changes the engine's math: there is no cuDNN, no
TF32 and one CPU kernel per op), checked as torch checks them. FLAGS is the runner's to save and put back."""
import types

FLAGS = {
    "cudnn.enabled": True, "cudnn.benchmark": False, "cudnn.deterministic": False, "cudnn.allow_tf32": True,
    "cudnn.benchmark_limit": None, "mkldnn.enabled": True, "mkldnn.deterministic": False,
    "matmul.allow_tf32": False, "matmul.allow_fp16_reduced_precision_reduction": True,
    "matmul.allow_bf16_reduced_precision_reduction": True,
}
_SETTERS = {"cudnn.enabled": "set_enabled_cudnn", "cudnn.benchmark": "set_benchmark_cudnn",
            "cudnn.deterministic": "set_deterministic_cudnn", "cudnn.allow_tf32": "set_allow_tf32_cublas",
            "mkldnn.enabled": "set_enabled_mkldnn", "mkldnn.deterministic": "set_deterministic_mkldnn",
            "matmul.allow_tf32": "set_allow_tf32_cublas"}


def _check(key, value):
    name = key.partition(".")[2]
    if key in _SETTERS and type(value) is not bool:
        raise RuntimeError(f"{_SETTERS[key]} expects a bool, but got {type(value).__name__}")
    if "reduced_precision" in key and not (type(value) is bool or isinstance(value, (tuple, list))):
        raise TypeError(f"{name} expects a bool or a tuple/list of bools, but got {type(value)}")


def flag(key):
    """A property of a module class (or of an object) that reads and writes FLAGS[key]."""

    def write(self, value):
        _check(key, value)
        FLAGS[key] = value

    return property(lambda self: FLAGS[key], write)


def flagged_module(module, prefix):
    """Turns a module of torch.backends into one whose flags are FLAGS' (as torch's modules are PropModules)."""
    names = {key.partition(".")[2]: flag(key) for key in FLAGS if key.startswith(prefix + ".")}
    module.__class__ = type(type(module).__name__, (types.ModuleType,), names)
