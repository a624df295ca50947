"""torch.distributed as a program that imports it at its top meets it in the explorer: one process, never part of a
process group. The questions answer as torch 2.13's CPU build answers them before init_process_group (is_available
True, is_initialized False, get_rank and the collectives raise torch's ValueError); init_process_group itself, which
would join other processes, raises saying why the explorer does not."""
import enum

NOT_INITIALIZED = "Default process group has not been initialized, please make sure to call init_process_group."
ONE_PROCESS = ("the explorer runs a program as one process, which joins no process group: run the model without "
               "torch.distributed (DistributedSampler takes num_replicas= and rank= to show one replica's share)")


def is_available():
    return True


def is_initialized():
    return False


def is_nccl_available():
    return False


def is_gloo_available():
    return True


def is_mpi_available():
    return False


def is_torchelastic_launched():
    return False


def init_process_group(*args, **kwargs):
    raise NotImplementedError(f"init_process_group: {ONE_PROCESS}")


def get_rank(group=None):
    raise ValueError(NOT_INITIALIZED)


def get_world_size(group=None):
    raise ValueError(NOT_INITIALIZED)


def get_backend(group=None):
    raise ValueError(NOT_INITIALIZED)


def barrier(group=None, async_op=False, device_ids=None):
    raise ValueError(NOT_INITIALIZED)


def all_reduce(tensor, op=None, group=None, async_op=False):
    raise ValueError(NOT_INITIALIZED)


def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    raise ValueError(NOT_INITIALIZED)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    raise ValueError(NOT_INITIALIZED)


def reduce(tensor, dst=None, op=None, group=None, async_op=False, group_dst=None):
    raise ValueError(NOT_INITIALIZED)


def destroy_process_group(group=None):
    raise AssertionError("Process group cannot be None")


class ReduceOp(enum.Enum):
    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4


ReduceOp.__name__ = ReduceOp.__qualname__ = "RedOpType"
