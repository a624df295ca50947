"""device='meta' in the constructors of the layers that take factory kwargs (device=, dtype=)."""
import contextlib
import functools
import inspect

from ... import devices, observe, random


def factory_device(init):
    """A constructor taking factory kwargs, given device='meta': the module built on the CPU with the generator's
    state kept (torch's initialisers draw nothing on meta), then its parameters and buffers moved to meta."""
    params = list(inspect.signature(init).parameters)
    at = params.index("device") - 1  # among the positional arguments after self

    @functools.wraps(init)
    def wrapper(self, *args, **kwargs):
        where = kwargs.get("device") if len(args) <= at else args[at]
        if where is None or not devices.is_device(where) or devices.device(where).type != "meta":
            return init(self, *args, **kwargs)
        if len(args) > at:
            args = (*args[:at], None, *args[at + 1:])
        else:
            kwargs = {**kwargs, "device": None}
        with drawing_nothing():
            init(self, *args, **kwargs)
        with observe.muted():
            self.to(devices.device("meta"))

    return wrapper


@contextlib.contextmanager
def drawing_nothing():
    """The generator's state as it was before (what torch's initialisers draw on meta: nothing)."""
    state = random.get_rng_state()
    try:
        yield
    finally:
        random.set_rng_state(state)
