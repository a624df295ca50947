"""torch.device, and what a CPU-only build of torch says when a program asks for another device."""
from .torch_names import TorchClass

TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
         "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
CUDA_NOT_COMPILED = "Torch not compiled with CUDA enabled"


class device(metaclass=TorchClass):  # noqa: N801 - torch's name
    __slots__ = ("type", "index")
    _torch_name = "torch.device"

    def __init__(self, type, index=None):  # noqa: A002 - torch's argument names
        if isinstance(type, device):
            type, index = type.type, type.index
        if isinstance(type, int):
            type, index = "cuda", type
        text = str(type)
        name, _, number = text.partition(":")
        if name not in TYPES:
            raise RuntimeError(f"Expected one of {', '.join(TYPES)} device type at start of device string: {text}")
        if number:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: "
                                   f"{text}")
            if not number.isdigit():
                raise RuntimeError(f"Invalid device string: '{text}'")
            index = int(number)
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        object.__setattr__(self, "type", name)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self):
        index = f", index={self.index}" if self.index is not None else ""
        return f"device(type='{self.type}'{index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return device, (self.type, self.index)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


CPU = device("cpu")
DEFAULT = {"device": None}  # torch.set_default_device's: where factories make tensors when not told


def set_default_device(where):
    DEFAULT["device"] = None if where is None else device(where)


def get_default_device():
    return DEFAULT["device"] or CPU


MOVES = {}  # device type -> how a tensor moves there (x.to(device)), for the devices that are not the CPU: meta


def check(where):
    """The device a tensor may be made on or moved to: the CPU. Another device fails as torch's CPU build does
    (an AssertionError for CUDA, as torch.cuda's lazy init raises it)."""
    if where is None:
        where = DEFAULT["device"]
    if where is None:
        return CPU
    d = where if isinstance(where, device) else device(where)
    if d.type == "cpu":
        return CPU
    if d.type == "cuda":
        raise AssertionError(CUDA_NOT_COMPILED)
    raise RuntimeError(f"Could not run 'aten::empty.memory_format' with arguments from the '{d.type.upper()}' "
                       "backend. This could be because the operator doesn't exist for this backend, or was omitted "
                       "during the selective/custom build process (if using custom build).")


def is_device(value):
    return isinstance(value, (device, str)) and not isinstance(value, bool)
