"""torch.profiler and torch.autograd.profiler as the explorer has them: record_function marks a block (a context that
records nothing: the explorer's graph already shows every op the program runs, in order), ProfilerActivity names
the devices; profile, schedule and tensorboard_trace_handler raise at their call saying why the explorer does not
profile."""
import enum

NO_PROFILE = ("the explorer does not profile: its engine runs each op in numpy, so the times would say nothing of "
              "torch's kernels (and differ from run to run); the graph shows every op the program ran, in order, "
              "and time.perf_counter() times a block")


class record_function:  # noqa: N801 - torch's name
    def __init__(self, name, args=None):
        self.name, self.args = name, args

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class ProfilerActivity(enum.Enum):
    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5

    def __repr__(self):
        return f"<ProfilerActivity.{self.name}: {self.value}>"


def profile(*args, **kwargs):
    raise NotImplementedError(f"profile: {NO_PROFILE}")


def schedule(*args, **kwargs):
    raise NotImplementedError(f"schedule: {NO_PROFILE}")


def tensorboard_trace_handler(*args, **kwargs):
    raise NotImplementedError(f"tensorboard_trace_handler: {NO_PROFILE}")
