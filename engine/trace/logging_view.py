"""`import logging` as scripts log their training: the run's own loggers (nothing of the process's logging is
touched), printed to the console as Python's handlers print them to stderr: `logging.info(...)` after
`basicConfig(level=logging.INFO)` prints "INFO:root:...", a logger with no handler anywhere prints warnings and
worse as the bare message (Python's last resort). `basicConfig(filename=...)` and `FileHandler` write to the run's
in-memory files (files_view.py). Formats are '%'-style, their widths checked as a program's own `%` is."""
from __future__ import annotations

import logging

from .errors import FILENAME, program_line
from .files_view import open_
from .module_views import SafeModule
from .pure_views import traceback_of, traceback_text

LEVELS = {"CRITICAL": 50, "FATAL": 50, "ERROR": 40, "WARNING": 30, "WARN": 30, "INFO": 20, "DEBUG": 10, "NOTSET": 0}


def logging_views(runtime, package):
    def checked(fmt):
        if not isinstance(fmt, str):
            raise TypeError(f"a format must be a str, not {type(fmt).__name__}")
        runtime.check_printf(fmt)
        return fmt

    class Formatter(logging.Formatter):
        def __init__(self, fmt=None, datefmt=None, style="%"):
            if style != "%":
                runtime.refuse("logging formats are '%'-style here (style='%')")
            super().__init__(None if fmt is None else checked(fmt), datefmt, style)

        def formatException(self, ei):  # the program's own frames and lines, not the files of the process
            return traceback_of(ei[1]).rstrip("\n")

        def formatStack(self, stack_info):
            return ""

    class Handler:
        def __init__(self, level=0):
            self.level, self.formatter = _level(level), None

        def setLevel(self, level):
            self.level = _level(level)

        def setFormatter(self, formatter):
            if not isinstance(formatter, Formatter):
                raise TypeError("setFormatter takes a logging.Formatter")
            self.formatter = formatter

        def format(self, record):
            return (self.formatter or _DEFAULT).format(record)

        def handle(self, record):
            if record.levelno >= self.level:
                self.emit(record)

        def flush(self):
            pass

        def close(self):
            pass

    class StreamHandler(Handler):
        def __init__(self, stream=None):
            super().__init__()
            self.stream = stream

        def emit(self, record):
            text = self.format(record)
            if self.stream is None:
                runtime.print(text)
            else:
                self.stream.write(text + "\n")
                self.stream.flush()

    class FileHandler(StreamHandler):
        def __init__(self, filename, mode="a", encoding=None, delay=False):
            super().__init__(open_(filename, mode, encoding=encoding))

        def close(self):
            self.stream.close()

    class Logger:
        def __init__(self, name, level=0, parent=None):
            self.name, self.level, self.parent = name, level, parent
            self.handlers, self.propagate, self.disabled = [], True, False

        def __repr__(self):
            return f"<{type(self).__name__} {self.name} ({logging.getLevelName(self.getEffectiveLevel())})>"

        def setLevel(self, level):
            self.level = _level(level)

        def getEffectiveLevel(self):
            logger = self
            while logger is not None:
                if logger.level:
                    return logger.level
                logger = logger.parent
            return 0

        def isEnabledFor(self, level):
            return not self.disabled and level >= self.getEffectiveLevel()

        def addHandler(self, handler):
            if not isinstance(handler, Handler):
                raise TypeError("addHandler takes a logging handler")
            if handler not in self.handlers:
                self.handlers.append(handler)

        def removeHandler(self, handler):
            if handler in self.handlers:
                self.handlers.remove(handler)

        def hasHandlers(self):
            return any(logger.handlers for logger in self.chain())

        def chain(self):
            logger = self
            while logger is not None:
                yield logger
                logger = logger.parent if logger.propagate else None

        def log(self, level, msg, *args, exc_info=None, stacklevel=1, **ignored):
            if not isinstance(level, int):
                raise TypeError("level must be an integer")
            if not self.isEnabledFor(level):
                return
            if args:
                runtime.check_printf(str(msg))
                runtime.shown(args)
            record = logging.LogRecord(self.name, level, FILENAME, program_line() or 0, msg, args or None, None)
            record.module, record.filename = "__main__", FILENAME
            text_after = traceback_text(runtime) if exc_info is True else traceback_of(exc_info) if exc_info else ""
            handlers = [h for logger in self.chain() for h in logger.handlers]
            for handler in handlers:
                if exc_info:
                    record.exc_text = text_after.rstrip("\n")
                handler.handle(record)
            if not handlers and level >= logging.WARNING:
                runtime.print(record.getMessage() + ("\n" + text_after.rstrip("\n") if exc_info else ""))

        def debug(self, msg, *args, **kwargs):
            self.log(10, msg, *args, **kwargs)

        def info(self, msg, *args, **kwargs):
            self.log(20, msg, *args, **kwargs)

        def warning(self, msg, *args, **kwargs):
            self.log(30, msg, *args, **kwargs)

        warn = warning

        def error(self, msg, *args, **kwargs):
            self.log(40, msg, *args, **kwargs)

        def exception(self, msg, *args, exc_info=True, **kwargs):
            self.log(40, msg, *args, exc_info=exc_info, **kwargs)

        def critical(self, msg, *args, **kwargs):
            self.log(50, msg, *args, **kwargs)

        fatal = critical

    class RootLogger(Logger):
        pass

    root = RootLogger("root", logging.WARNING)
    loggers = {}

    def getLogger(name=None):
        if not name or name == "root":
            return root
        if name not in loggers:
            parent, head = root, name
            while "." in head:
                head = head.rpartition(".")[0]
                if head in loggers:
                    parent = loggers[head]
                    break
            loggers[name] = Logger(name, 0, parent)
        return loggers[name]

    def basicConfig(*, filename=None, filemode="a", format=None, datefmt=None, style="%", level=None, stream=None,
                    handlers=None, force=False, encoding=None, errors=None):
        if force:
            root.handlers.clear()
        if not root.handlers:
            made = list(handlers) if handlers else [FileHandler(filename, filemode) if filename else
                                                     StreamHandler(stream)]
            formatter = Formatter(format or logging.BASIC_FORMAT, datefmt, style)
            for handler in made:
                if handler.formatter is None:
                    handler.setFormatter(formatter)
                root.addHandler(handler)
        if level is not None:
            root.setLevel(level)

    def module_level(level):
        def log(msg, *args, **kwargs):
            if not root.handlers:
                basicConfig()
            root.log(level, msg, *args, **kwargs)

        log.__name__ = logging.getLevelName(level).lower()
        return log

    def exception(msg, *args, exc_info=True, **kwargs):
        if not root.handlers:
            basicConfig()
        root.log(40, msg, *args, exc_info=exc_info, **kwargs)

    def _level(level):
        if isinstance(level, str):
            if level not in LEVELS:
                raise ValueError(f"Unknown level: {level!r}")
            return LEVELS[level]
        if not isinstance(level, int):
            raise TypeError(f"Level not an integer or a valid string: {level!r}")
        return level

    for cls in (Formatter, Handler, StreamHandler, FileHandler, Logger, RootLogger):
        cls.__module__, cls.__qualname__ = "logging", cls.__name__
        runtime.classes.made[cls] = set()  # the run's own: a program sets `logger.propagate`, derives a Handler
    attrs = {**LEVELS, "Formatter": Formatter, "Handler": Handler, "StreamHandler": StreamHandler,
             "FileHandler": FileHandler, "Logger": Logger, "getLogger": getLogger, "basicConfig": basicConfig,
             "root": root, "BASIC_FORMAT": logging.BASIC_FORMAT, "getLevelName": logging.getLevelName,
             "exception": exception, "log": lambda level, msg, *args, **kw: module_level(level)(msg, *args, **kw),
             **{name: module_level(level) for name, level in
                (("debug", 10), ("info", 20), ("warning", 30), ("warn", 30), ("error", 40), ("critical", 50))}}
    return {"logging": SafeModule("logging", attrs)}


_DEFAULT = logging.Formatter()
