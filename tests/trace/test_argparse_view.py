"""`import argparse` in a program (engine/trace/argparse_view.py): a script's parser reads the command line of a
run with no arguments, as real argparse does for `python program.py`; help, usage and errors read as argparse's,
and what would exit the process ends the run with argparse's words."""
from __future__ import annotations

import contextlib
import io
import sys

import pytest

from engine.trace import run as trace

MNIST = """import argparse
parser = argparse.ArgumentParser(description="PyTorch MNIST Example")
parser.add_argument("--batch-size", type=int, default=64, metavar="N",
                    help="input batch size for training (default: 64)")
parser.add_argument("--epochs", type=int, default=14, metavar="N", help="number of epochs to train (default: 14)")
parser.add_argument("--lr", type=float, default=1.0, metavar="LR", help="learning rate (default: 1.0)")
parser.add_argument("--no-cuda", action="store_true", default=False, help="disables CUDA training")
parser.add_argument("--dry-run", action="store_true", default=False, help="quickly check a single pass")
parser.add_argument("--log-interval", type=int, default=10, metavar="N",
                    help="how many batches to wait before logging training status")
"""
PROGRAMS = {
    "defaults": MNIST + "args = parser.parse_args()\nargs.cuda = not args.no_cuda\nprint(args, args.lr * 2)\n",
    "given": MNIST + "print(parser.parse_args(['--lr', '0.5', '--dry-run', '--epochs=3']))\n",
    "help": MNIST + "parser.print_help()\nparser.print_usage()\nprint(parser.format_usage())\n",
    "known_and_subcommands": """import argparse
p = argparse.ArgumentParser(prog="tool", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
p.add_argument("--seed", type=int, default=1, help="random seed")
p.add_argument("--flag", action=argparse.BooleanOptionalAction, default=True)
sub = p.add_subparsers(dest="cmd")
train = sub.add_parser("train")
train.add_argument("--steps", type=int, default=3, choices=[1, 2, 3])
print(p.parse_known_args(["train", "--extra", "1"]))
print(p.parse_args(["--no-flag", "train", "--steps", "2"]))
print(argparse.Namespace(a=1) == argparse.Namespace(a=1), argparse.SUPPRESS)
p.print_help()
""",
    "bad_value": MNIST + "parser.parse_args(['--lr', 'fast'])\n",
    "required": "import argparse\np = argparse.ArgumentParser()\np.add_argument('data')\np.parse_args()\n",
    "choices": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--opt', choices=['sgd', 'adam'])\n"
               "p.parse_args(['--opt', 'rmsprop'])\n",
}


def _real(source):
    """stdout, stderr and the exit status of `python program.py` running source with no arguments."""
    out, err, status = io.StringIO(), io.StringIO(), None
    argv, sys.argv = sys.argv, ["program.py"]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            exec(source, {"__name__": "__main__"})
    except SystemExit as e:
        status = e.code
    finally:
        sys.argv = argv
    return out.getvalue(), err.getvalue(), status


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_script_parses_its_arguments_as_argparse_does(name, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    out, err, status = _real(PROGRAMS[name])
    timeline = trace(PROGRAMS[name])
    if status is None:
        assert timeline.error is None, timeline.error
        assert timeline.output == out
    else:  # argparse wrote the usage and its error to stderr and exited with 2: the console shows both
        usage, _, last = err.rstrip("\n").rpartition("\n")
        assert status == 2 and timeline.error["message"] == last
        assert timeline.output == out + usage + "\n"
        assert timeline.error["line"] == PROGRAMS[name].count("\n")


def test_what_would_leave_the_process_ends_the_run():
    timeline = trace("import argparse\np = argparse.ArgumentParser()\np.parse_args(['--help'])\nprint('after')\n")
    assert timeline.output.startswith("usage: program.py [-h]") and "after" not in timeline.output
    assert timeline.error["line"] == 3 and "exited" in timeline.error["message"]


def test_nothing_reads_files():
    refused = trace("import argparse\np = argparse.ArgumentParser(fromfile_prefix_chars='@')\n")
    assert refused.error["type"] == "GuardError" and "reads files" in refused.error["message"]
    missing = trace("import argparse\nargparse.FileType('r')\n")
    assert missing.error["message"] == "module 'argparse' has no attribute 'FileType'"
