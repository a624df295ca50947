"""`shutil` and `tempfile` over the run's own in-memory files (files_view.py): copy, move and remove files and trees,
and temporary directories and files, none of which touches the disk. The temporary names draw from the run's own
generator (seeded 0: the same names every run); `/tmp` is made when a program first asks for it. What is copied is
charged to the budget, as a write is."""
from __future__ import annotations

import errno
import posixpath
import random

from .budget import budget_now
from .files_view import _oserror, files_now, open_
from .module_views import SafeModule

TMP = "/tmp"
_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"


def _under(files, full):
    """The files and directories below `full`, itself excluded."""
    prefix = full.rstrip("/") + "/"
    return ([p for p in files.files if p.startswith(prefix)], [d for d in files.dirs if d.startswith(prefix)])


def shutil_views(runtime, package):
    return {package: SafeModule(package, _shutil(files_now()))}


def _shutil(files):

    def copyfile(src, dst, *, follow_symlinks=True):
        data = files.read(src)
        budget_now().on_alloc(len(data))
        files.write(dst, data)
        return dst

    def into(src, dst):
        return posixpath.join(str(dst), posixpath.basename(str(src))) if files.isdir(dst) else dst

    def copy(src, dst, *, follow_symlinks=True):
        return copyfile(src, into(src, dst))

    def copytree(src, dst, symlinks=False, ignore=None, copy_function=None, ignore_dangling_symlinks=False,
                 dirs_exist_ok=False):
        full, target = files.path(src), files.path(dst)
        if not files.isdir(src):
            raise _oserror(FileNotFoundError, errno.ENOENT, src)
        if files.exists(dst) and not dirs_exist_ok:
            raise _oserror(FileExistsError, errno.EEXIST, dst)
        inner_files, inner_dirs = _under(files, full)
        files.makedirs(target, exist_ok=True)
        for d in sorted(inner_dirs):
            files.makedirs(target + d[len(full):], exist_ok=True)
        for f in inner_files:
            copyfile(f, target + f[len(full):])
        return dst

    def rmtree(path, ignore_errors=False, onerror=None, *, onexc=None, dir_fd=None):
        full = files.path(path)
        if not files.isdir(path):
            if ignore_errors:
                return
            raise _oserror(NotADirectoryError if files.isfile(path) else FileNotFoundError,
                           errno.ENOTDIR if files.isfile(path) else errno.ENOENT, path)
        inner_files, inner_dirs = _under(files, full)
        for f in inner_files:
            del files.files[f]
        files.dirs.difference_update(inner_dirs)
        files.dirs.discard(full)

    def move(src, dst, copy_function=None):
        target = into(src, dst)
        if files.isdir(src):
            copytree(src, target)
            rmtree(src)
        else:
            files.rename(src, target)
        return target

    return {"copyfile": copyfile, "copy": copy, "copy2": copy, "copytree": copytree, "rmtree": rmtree, "move": move}


def tempfile_views(runtime, package):
    files = files_now()
    rng = random.Random(0)
    rmtree = _shutil(files)["rmtree"]

    def name(prefix, suffix, dir):
        if dir is None:
            files.makedirs(TMP, exist_ok=True)
        while True:
            path = posixpath.join(dir or TMP, f"{prefix}{''.join(rng.choices(_LETTERS, k=8))}{suffix}")
            if not files.exists(path):
                return path

    def mkdtemp(suffix=None, prefix=None, dir=None):
        path = name("tmp" if prefix is None else prefix, suffix or "", dir)
        files.mkdir(path)
        return files.path(path)

    class TemporaryDirectory:
        """`with tempfile.TemporaryDirectory() as d:` a directory of the run's files, removed at the block's end."""

        def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False, *, delete=True):
            self.name, self.delete = mkdtemp(suffix, prefix, dir), delete

        def __repr__(self):
            return f"<TemporaryDirectory {self.name!r}>"

        def __enter__(self):
            return self.name

        def __exit__(self, *exc):
            if self.delete:
                self.cleanup()

        def cleanup(self):
            if files.isdir(self.name):
                rmtree(self.name)

    def NamedTemporaryFile(mode="w+b", buffering=-1, encoding=None, newline=None, suffix=None, prefix=None,  # noqa: N802
                           dir=None, delete=True, **kwargs):
        """A file of the run's files under a fresh name (left in place: the run's files die with it)."""
        return open_(name("tmp" if prefix is None else prefix, suffix or "", dir), mode, encoding=encoding,
                     newline=newline)

    return {package: SafeModule(package, {"gettempdir": lambda: TMP, "mkdtemp": mkdtemp,
                                          "TemporaryDirectory": TemporaryDirectory,
                                          "NamedTemporaryFile": NamedTemporaryFile})}
