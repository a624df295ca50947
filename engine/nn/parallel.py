"""torch.nn.parallel: DataParallel as torch's CPU build runs it (no GPUs: it calls its module), and
DistributedDataParallel, which needs a process group and so raises torch's ValueError when made (the explorer's
torch.distributed never has one: distributed.py)."""
from .. import distributed
from .modules.distance import DataParallel
from .modules.module import Module

__all__ = ["DataParallel", "DistributedDataParallel"]


class DistributedDataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True, process_group=None,
                 bucket_cap_mb=None, find_unused_parameters=False, **kwargs):
        raise ValueError(distributed.NOT_INITIALIZED)
