"""Grad modes: no_grad, enable_grad, set_grad_enabled, is_grad_enabled."""
import functools

_state = {"enabled": True, "formula": False}  # formula: running a node's derivative with create_graph


def is_grad_enabled():
    return _state["enabled"]


def _set(mode):
    _state["enabled"] = bool(mode)


class _GradMode:
    """Context manager and decorator that switches grad recording to `self._mode` and back."""

    _mode = True

    def __enter__(self):
        self._prev = _state["enabled"]
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
        return f"<torch.autograd.grad_mode.{type(self).__name__} object>"


class no_grad(_GradMode):
    _mode = False


class enable_grad(_GradMode):
    _mode = True


class set_grad_enabled(_GradMode):
    def __init__(self, mode):
        self._mode = bool(mode)
        self._prev = _state["enabled"]
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
