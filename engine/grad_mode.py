"""Grad modes: no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode; anomaly detection."""
import contextlib
import functools

# grad: the grad mode a program sets; inference: inside inference_mode; enabled: whether ops record a graph
# (grad mode on and not in inference mode); formula: running a node's derivative with create_graph;
# anomaly, anomaly_nan: torch.autograd.set_detect_anomaly(mode, check_nan).
TANGENTS = {}  # inside torch.autograd.forward_ad.dual_level(): id(tensor) -> (tensor, its tangent)
_state = {"enabled": True, "grad": True, "inference": False, "formula": False, "anomaly": False, "anomaly_nan": True}


def is_grad_enabled():
    return _state["grad"]


def is_inference_mode_enabled():
    return _state["inference"]


def _set(mode):
    _state["grad"] = bool(mode)
    _state["enabled"] = bool(mode) and not _state["inference"]


class _GradMode:
    """Context manager and decorator that switches grad recording to `self._mode` and back."""

    _mode = True

    def __enter__(self):
        self._prev = _state["grad"]
        _set(self._mode)

    def __exit__(self, *exc):
        _set(self._prev)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)

        return wrapper

    def __repr__(self):
        return f"<torch.autograd.grad_mode.{type(self).__name__} object at {id(self):#x}>"


class no_grad(_GradMode):
    _mode = False


class enable_grad(_GradMode):
    _mode = True


class set_grad_enabled(_GradMode):
    def __init__(self, mode):
        self._mode = bool(mode)
        self._prev = _state["grad"]
        _set(mode)

    def __enter__(self):
        pass

    def __call__(self, fn):
        _set(self._prev)
        mode = self._mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)

        return wrapper

    def __repr__(self):
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self._mode})"


class inference_mode(_GradMode):
    """No graph is recorded, whatever the grad mode; tensors made inside are inference tensors (no version
    counter, not to be saved for backward or changed in place outside)."""

    def __new__(cls, mode=True):
        if callable(mode) and not isinstance(mode, bool):  # @torch.inference_mode without parentheses
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        self._mode = bool(mode)

    def __enter__(self):
        self._prev = (_state["grad"], _state["inference"])
        _state["inference"] = self._mode
        _set(not self._mode)

    def __exit__(self, *exc):
        grad, _state["inference"] = self._prev
        _set(grad)
        return False

    def __call__(self, fn):
        mode = self._mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)

        return wrapper


def is_anomaly_enabled():
    return _state["anomaly"]


def is_anomaly_check_nan_enabled():
    return _state["anomaly_nan"]


def set_anomaly_enabled(enabled, check_nan=True):
    _state["anomaly"] = bool(enabled)
    _state["anomaly_nan"] = bool(check_nan)


@contextlib.contextmanager
def aten_scalars():
    """Code that replays an ATen composite (written in C++, where `x * 0.5` is the Scalar overload mul.Scalar):
    numbers in arithmetic make MulBackward1 / DivBackward1 nodes, as in derivative formulas."""
    before = _state["formula"]
    _state["formula"] = True
    try:
        yield
    finally:
        _state["formula"] = before
