"""torch.multiprocessing as a script that imports it at its top meets it in the explorer: importable, its start
methods named as torch 2.13 on Linux names them; what would start another process (spawn, Process, Pool) raises at
its call saying why the explorer does not."""
from . import settings

START_METHODS = ("fork", "spawn", "forkserver")
ONE_PROCESS = ("the explorer runs a program as one process and starts no others (there are none in the browser): "
               "call the function itself, once per rank if it takes one")


def get_all_start_methods():
    return list(START_METHODS)


def get_start_method(allow_none=False):
    """(Asked without allow_none, it fixes the default, "fork", as Python's does: set_start_method then needs force.)"""
    if settings.STATE["start_method"] is None and not allow_none:
        settings.STATE["start_method"] = "fork"
    return settings.STATE["start_method"]


def set_start_method(method, force=False):
    if settings.STATE["start_method"] is not None and not force:
        raise RuntimeError("context has already been set")
    if method is not None and method not in START_METHODS:
        raise ValueError(f"cannot find context for {method!r}")
    settings.STATE["start_method"] = method


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    raise NotImplementedError(f"torch.multiprocessing.spawn: {ONE_PROCESS}")


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    raise NotImplementedError(f"torch.multiprocessing.start_processes: {ONE_PROCESS}")


def Process(*args, **kwargs):  # noqa: N802 - torch's name
    raise NotImplementedError(f"torch.multiprocessing.Process: {ONE_PROCESS}")


def Pool(*args, **kwargs):  # noqa: N802
    raise NotImplementedError(f"torch.multiprocessing.Pool: {ONE_PROCESS}")
