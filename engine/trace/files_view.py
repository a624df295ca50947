"""`os`, `os.path`, `glob`, `open()` and torch.save/load to a path, over the run's own in-memory file system: a program
that makes a directory, writes a checkpoint or a CSV and reads it back runs as in Python, and nothing touches the
disk. The file system starts with the empty working directory CWD, is made when the run first uses it and dies with
the run (it is kept per budget); reading a file the program did not write is Python's FileNotFoundError at its line.
What a program writes is charged to its budget (io_view's buffers). `os.environ` is the run's own mapping (empty:
`os.environ['CUDA_VISIBLE_DEVICES'] = '0'` sets it for the run); nothing of the real `os` is reachable."""
from __future__ import annotations

import errno
import fnmatch
import io
import os
import posixpath
import weakref
from collections.abc import MutableMapping

from .budget import budget_now
from .errors import GuardError, program_line
from .io_view import BytesIO, StringIO
from .module_views import SafeModule

CWD = "/workspace"
FILE_REFUSAL = ("torch.{0}() given a bytes path: '{0}' to or from the machine's files is not allowed, the explorer "
                "reads and writes no files; give the path as text (the run's own in-memory files) or an io.BytesIO()")
_RUNS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _oserror(cls, code, path):
    return cls(code, os.strerror(code), path)


class Files:
    """One run's file system: the contents of its files and its directories, by absolute path."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.dirs = {"/", CWD}

    def path(self, path):
        if isinstance(path, Path):
            path = str(path)
        if not isinstance(path, str):
            raise TypeError(f"expected str or os.PathLike object, not {type(path).__name__}")
        return posixpath.normpath(posixpath.join(CWD, path))

    def isfile(self, path):
        return self.path(path) in self.files

    def isdir(self, path):
        return self.path(path) in self.dirs

    def exists(self, path):
        return self.isfile(path) or self.isdir(path)

    def parent_ok(self, path, full):
        if posixpath.dirname(full) not in self.dirs:
            raise _oserror(FileNotFoundError, errno.ENOENT, path)

    def read(self, path):
        full = self.path(path)
        if full in self.dirs:
            raise _oserror(IsADirectoryError, errno.EISDIR, path)
        if full not in self.files:
            raise _oserror(FileNotFoundError, errno.ENOENT, path)
        return self.files[full]

    def write(self, path, data):
        full = self.path(path)
        if full in self.dirs:
            raise _oserror(IsADirectoryError, errno.EISDIR, path)
        self.parent_ok(path, full)
        self.files[full] = bytes(data)

    def mkdir(self, path, mode=0o777):
        full = self.path(path)
        if full in self.dirs or full in self.files:
            raise _oserror(FileExistsError, errno.EEXIST, path)
        self.parent_ok(path, full)
        budget_now().on_alloc(len(full))
        self.dirs.add(full)

    def makedirs(self, name, mode=0o777, exist_ok=False):
        full = self.path(name)
        if full in self.files or full in self.dirs and not exist_ok:
            raise _oserror(FileExistsError, errno.EEXIST, name)
        parts = full.split("/")
        for i in range(2, len(parts) + 1):
            step = "/".join(parts[:i])
            if step in self.files:
                raise _oserror(NotADirectoryError, errno.ENOTDIR, name)
            if step not in self.dirs:
                budget_now().on_alloc(len(step))
                self.dirs.add(step)

    def children(self, full):
        prefix = full.rstrip("/") + "/"
        return [p for p in (*self.dirs, *self.files) if p.startswith(prefix) and p != "/"
                and "/" not in p[len(prefix):]]

    def listdir(self, path="."):
        full = self.path(path)
        if full in self.files:
            raise _oserror(NotADirectoryError, errno.ENOTDIR, path)
        if full not in self.dirs:
            raise _oserror(FileNotFoundError, errno.ENOENT, path)
        return sorted(posixpath.basename(p) for p in self.children(full))

    def remove(self, path):
        full = self.path(path)
        if full in self.dirs:
            raise _oserror(IsADirectoryError, errno.EISDIR, path)
        if self.files.pop(full, None) is None:
            raise _oserror(FileNotFoundError, errno.ENOENT, path)

    def rmdir(self, path):
        full = self.path(path)
        if full not in self.dirs:
            raise _oserror(FileNotFoundError, errno.ENOENT, path)
        if self.children(full):
            raise _oserror(OSError, errno.ENOTEMPTY, path)
        self.dirs.discard(full)

    def rename(self, src, dst):
        data = self.read(src)
        self.write(dst, data)
        del self.files[self.path(src)]

    def getsize(self, path):
        full = self.path(path)
        if full in self.dirs:
            return 4096
        return len(self.read(path))

    def glob(self, pattern, recursive=False):
        full = self.path(pattern)
        found = [p for p in (*self.files, *self.dirs) if p != "/" and fnmatch.fnmatchcase(p, full)
                 and p.count("/") == full.count("/")]
        relative = not pattern.startswith("/")
        return sorted(posixpath.relpath(p, CWD) if relative else p for p in found)


def files_now() -> Files:
    """The file system of the run going on now (made when it is first used)."""
    budget = budget_now()
    files = _RUNS.get(budget)
    if files is None:
        files = _RUNS[budget] = Files()
    return files


class _File:
    """What open() returns: a buffer of the file's contents, written back to the run's files when flushed or
    closed (a `with open(...)` block closes it)."""

    def _setup(self, files, path, mode):
        self._files, self.name, self.mode = files, path, mode
        self._readable = "r" in mode or "+" in mode
        self._writable = "r" not in mode or "+" in mode

    def read(self, *args):
        if not self._readable:
            raise io.UnsupportedOperation("not readable")
        return super().read(*args)

    def readline(self, *args):
        if not self._readable:
            raise io.UnsupportedOperation("not readable")
        return super().readline(*args)

    def readlines(self, *args):
        if not self._readable:
            raise io.UnsupportedOperation("not readable")
        return super().readlines(*args)

    def write(self, data, /):
        if not self._writable:
            raise io.UnsupportedOperation("not writable")
        return super().write(data)

    def flush(self):
        super().flush()
        if self._writable and not self.closed:
            data = self.getvalue()
            self._files.write(self.name, data.encode() if isinstance(data, str) else data)

    def close(self):
        if not self.closed:
            self.flush()
        super().close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class TextIOWrapper(_File, StringIO):
    def __repr__(self):
        return f"<_io.TextIOWrapper name={self.name!r} mode={self.mode!r} encoding='UTF-8'>"


class BufferedReader(_File, BytesIO):
    def __repr__(self):
        return f"<_io.{type(self).__name__} name={self.name!r}>"


class BufferedWriter(BufferedReader):
    pass


for _cls in (TextIOWrapper, BufferedReader, BufferedWriter):
    _cls.__module__ = __name__


def open_(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None):
    """Python's open() on the run's files: text (UTF-8) and bytes, modes r, w, a, x with b and +."""
    if not isinstance(mode, str) or set(mode) - set("rwaxbt+") or sum(mode.count(c) for c in "rwax") != 1:
        raise ValueError(f"invalid mode: {mode!r}")
    if opener is not None:
        budget_now().stop(GuardError("open(opener=...) is not allowed", program_line()))
    files = files_now()
    kind = mode.strip("bt+")
    old = b""
    if kind in "ra":
        try:
            old = files.read(file)
        except FileNotFoundError:
            if kind == "r":
                raise
    elif kind == "x" and files.exists(file):
        raise _oserror(FileExistsError, errno.EEXIST, file)
    if kind != "r":
        files.write(file, old)  # (w and x make the file, or empty it, when it is opened)
    name = str(file)
    if "b" in mode:
        handle = (BufferedReader if kind == "r" and "+" not in mode else BufferedWriter)(old)
    else:
        handle = TextIOWrapper(old.decode(encoding or "utf-8", errors or "strict"), newline=newline)
    handle._setup(files, name, mode)
    if kind == "a":
        handle.seek(0, io.SEEK_END)
    return handle


open_.__name__ = open_.__qualname__ = "open"


class Environ(MutableMapping):
    """`os.environ` of one run: text keys and values, as Python's."""

    def __init__(self):
        self._data = {}

    def __getitem__(self, key):
        return self._data[key]

    def __setitem__(self, key, value):
        for what in (key, value):
            if not isinstance(what, str):
                raise TypeError(f"str expected, not {type(what).__name__}")
        self._data[key] = value

    def __delitem__(self, key):
        del self._data[key]

    def __iter__(self):
        return iter(list(self._data))

    def __len__(self):
        return len(self._data)

    def __repr__(self):
        return f"environ({self._data!r})"

    def copy(self):
        return dict(self._data)


_PURE_PATH = "join split splitext basename dirname normpath isabs commonprefix commonpath sep extsep".split()


def files_views(runtime, package):
    """`import os` (and os.path) or `import glob`: views over the run's files."""
    files = files_now()
    environ = Environ()

    def abspath(path):
        return files.path(path)

    def relpath(path, start=CWD):
        return posixpath.relpath(files.path(path), files.path(start))

    def expanduser(path):
        return path

    path = SafeModule("os.path", {**{name: getattr(posixpath, name) for name in _PURE_PATH},
                                  "abspath": abspath, "relpath": relpath, "expanduser": expanduser,
                                  "exists": files.exists, "isfile": files.isfile, "isdir": files.isdir,
                                  "getsize": files.getsize})

    def getenv(key, default=None):
        return environ.get(key, default)

    def glob(pathname, *, recursive=False):
        return files.glob(pathname, recursive)

    os_view = SafeModule("os", {"path": path, "environ": environ, "getenv": getenv, "sep": "/", "linesep": "\n",
                                "name": "posix", "curdir": ".", "pardir": "..", "getcwd": lambda: CWD,
                                "cpu_count": lambda: os.cpu_count(), "makedirs": files.makedirs, "mkdir": files.mkdir,
                                "listdir": files.listdir, "remove": files.remove, "unlink": files.remove,
                                "rmdir": files.rmdir, "rename": files.rename, "replace": files.rename})
    return {"os": os_view, "os.path": path, "glob": SafeModule("glob", {"glob": glob})}


class Path:
    """`pathlib.Path` on the run's files: the parts of a path, and what reads, writes and makes them."""

    __slots__ = ("_text",)

    def __init__(self, *parts):
        self._text = posixpath.normpath(posixpath.join(*(str(p) for p in parts))) if parts else "."

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"PosixPath({self._text!r})"

    def __fspath__(self):
        return self._text

    def __truediv__(self, other):
        return Path(self._text, other)

    def __eq__(self, other):
        return isinstance(other, Path) and other._text == self._text

    def __hash__(self):
        return hash(self._text)

    name = property(lambda self: posixpath.basename(self._text))
    suffix = property(lambda self: posixpath.splitext(self.name)[1])
    stem = property(lambda self: posixpath.splitext(self.name)[0])
    parent = property(lambda self: Path(posixpath.dirname(self._text) or "."))

    def exists(self):
        return files_now().exists(self)

    def is_file(self):
        return files_now().isfile(self)

    def is_dir(self):
        return files_now().isdir(self)

    def mkdir(self, mode=0o777, parents=False, exist_ok=False):
        files = files_now()
        if parents:
            files.makedirs(self, exist_ok=exist_ok)
        elif not (exist_ok and files.isdir(self)):
            files.mkdir(self)

    def open(self, mode="r", **options):
        return open_(self, mode, **options)

    def read_text(self, encoding=None):
        return files_now().read(self).decode(encoding or "utf-8")

    def write_text(self, data, encoding=None):
        budget_now().on_alloc(len(data))
        files_now().write(self, data.encode(encoding or "utf-8"))
        return len(data)

    def read_bytes(self):
        return files_now().read(self)

    def write_bytes(self, data):
        budget_now().on_alloc(len(data))
        files_now().write(self, data)
        return len(data)

    def iterdir(self):
        return [self / name for name in files_now().listdir(self)]

    def glob(self, pattern):
        return [Path(p) for p in files_now().glob(posixpath.join(self._text, pattern))]

    def unlink(self):
        files_now().remove(self)

    def resolve(self):
        return Path(files_now().path(self))

    @staticmethod
    def cwd():
        return Path(CWD)


Path.__module__ = __name__


def pathlib_views(runtime, package):
    return {"pathlib": SafeModule("pathlib", {"Path": Path, "PosixPath": Path, "PurePath": Path})}


def buffers_only(function, name, owner="torch"):
    """torch.save / torch.load (and torchvision.utils.save_image) as a program calls them: a path (a str or a
    pathlib view's Path) is a file of the run's own in-memory files (files_view.py); bytes or another os.PathLike
    stops at its line."""
    at = 0 if name == "load" else 1

    def call(*args, **kwargs):
        args = list(args)
        key = "fp" if name == "save_image" else "f"
        f = args[at] if len(args) > at else kwargs.get(key)
        if isinstance(f, (str, Path)):
            files = files_now()
            buffer = BytesIO(files.read(f)) if name == "load" else BytesIO()
            if len(args) > at:
                args[at] = buffer
            else:
                kwargs[key] = buffer
            out = function(*args, **kwargs)
            if name != "load":
                files.write(f, buffer.getvalue())
            return out
        if isinstance(f, (bytes, os.PathLike)):
            budget_now().stop(GuardError(FILE_REFUSAL.format(name).replace("torch.", f"{owner}.", 1),
                                         program_line()))
        return function(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__module__ = owner
    return call
