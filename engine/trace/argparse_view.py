"""`argparse` as the scripts of pytorch/examples use it: a parser whose `parse_args()` reads the command line of a
script run with no arguments (the defaults; a list given, `parse_args(["--lr", "0.1"])`, is parsed as argparse
parses it). What would leave the process (an error, `--help`, `--version`) ends the run with argparse's words
instead; help goes to the console. Nothing reads files (`fromfile_prefix_chars`, `FileType` are not there).
"""
from __future__ import annotations

import argparse

PROG = "program.py"  # the script's name in usage lines (argparse takes sys.argv[0])


def argparse_names(runtime):
    class Namespace(argparse.Namespace):
        """The run's own, so that a program may set its attributes (`args.cuda = ...`), as scripts do."""

    runtime.classes.made[Namespace] = set()

    class ArgumentParser(argparse.ArgumentParser):
        def __init__(self, prog=None, *args, fromfile_prefix_chars=None, **kwargs):
            if fromfile_prefix_chars is not None:
                runtime.refuse("ArgumentParser(fromfile_prefix_chars=) reads files: not in the explorer")
            super().__init__(prog if prog is not None else PROG, *args, **kwargs)

        def parse_known_args(self, args=None, namespace=None):
            return super().parse_known_args([] if args is None else list(args),
                                            Namespace() if namespace is None else namespace)

        def _get_formatter(self):  # as argparse formats help away from a terminal: 80 columns, less 2
            return self.formatter_class(prog=self.prog, width=78)

        def _print_message(self, message, file=None):
            if message:
                runtime.print(message, end="")

        def exit(self, status=0, message=None):
            if message:
                self._print_message(message)
            runtime.refuse(f"the program exited (argparse, status {status}): a script stops here")

        def error(self, message):
            self.print_usage()
            runtime.refuse(f"{self.prog}: error: {message}")

    return {"ArgumentParser": ArgumentParser, "Namespace": Namespace}
