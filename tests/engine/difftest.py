"""Shared helpers for the differential tests: run the same code on real torch and on the engine.

The module under test is `engine`; set ENGINE_UNDER_TEST=torch to run the suite torch-vs-torch (a
self-check of the harness: every comparison must then pass).
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import os
import re
import sys
import warnings
from dataclasses import dataclass, field

import numpy as np
import pytest

if sys.platform == "emscripten":  # in the browser there is no PyTorch: tests/engine/conftest.py skips what needs it
    torch = None
else:
    import torch

ENGINE_NAME = os.environ.get("ENGINE_UNDER_TEST", "engine")

TRIGGERED = re.compile(r" \(Triggered internally at [^\n]*\)\s*$")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def load_engine():
    """The module under test (`engine`, or `torch` itself when checking the harness)."""
    return importlib.import_module(ENGINE_NAME)


def with_known_gaps(values, gaps: dict, ids=None, cpu_dependent=frozenset()) -> list:
    """pytest params for `values`; those listed in `gaps` (value -> what the engine does differently from torch)
    are strict xfails, so a fix in the engine shows as XPASS (then drop the entry), but for those in
    `cpu_dependent`, where torch's own result depends on the CPU it runs on. Not applied when the suite runs
    torch against itself."""
    values = list(values)
    ids = list(ids) if ids is not None else [None] * len(values)
    out = []
    for v, i in zip(values, ids):
        key = v[0] if isinstance(v, tuple) else v
        marks = []
        if key in gaps and ENGINE_NAME != "torch":
            marks = [pytest.mark.xfail(reason=gaps[key], strict=key not in cpu_dependent)]
        out.append(pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=marks, id=i))
    return out


_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def printed_alike(got: str, want: str, ulps: int = 4) -> bool:
    """Whether two printed outputs are the same text, but for numbers printed with 6 or more significant digits
    (`loss.item()`, f"{loss:f}") that could be values within `ulps` float32 ulps of each other: torch's own last
    bits depend on the CPU it runs on, so a number printed that finely may round either way across machines.
    Numbers printed more coarsely (torch's tensors, at 4 decimals) must be identical."""
    if got == want:
        return True
    got_parts, want_parts = _NUMBER.split(got), _NUMBER.split(want)
    if got_parts != want_parts:
        return False
    for a, b in zip(_NUMBER.findall(got), _NUMBER.findall(want)):
        if a == b:
            continue
        if min(_digits(a), _digits(b)) < 6:
            return False  # a number at print precision: must be identical
        x, y = float(a), float(b)
        printed = max(_last_place(a), _last_place(b))  # each value lies within half of this of what it printed
        if abs(x - y) - printed > ulps * float(np.spacing(np.float32(max(abs(x), abs(y))))):
            return False
    return True


def _digits(number: str) -> int:
    return len(number.lstrip("-").split("e")[0].replace(".", "").lstrip("0"))


def _last_place(number: str) -> float:
    mantissa, _, exponent = number.partition("e")
    return 10.0 ** (int(exponent or 0) - len(mantissa.split(".")[1]))


def strip_triggered(msg: str) -> str:
    return TRIGGERED.sub("", msg)


def _make_import(target: str):
    real = builtins.__import__

    def imp(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            name = target + name[len("torch"):]
        return real(name, globals, locals, fromlist, level)

    return imp


@dataclass
class Outcome:
    stdout: str
    warnings: list = field(default_factory=list)
    exc: tuple | None = None

    def masked(self) -> Outcome:
        return Outcome(ADDRESS.sub("0x…", self.stdout), self.warnings, self.exc)


def _number_hooks_from_zero(lib: str) -> None:
    """Hook handles numbered from 0, as in the new process each program would run in (their ids are the keys a
    program sees in module._forward_pre_hooks)."""
    if lib == "torch":
        import torch.utils.hooks

        torch.utils.hooks.RemovableHandle.next_id = 0
    else:
        import itertools

        importlib.import_module(lib + ".graph")._handle_ids = itertools.count()


def run_source(source: str, lib: str, prelude: str = "", python_filters: bool = False) -> Outcome:
    """Exec `source` with `import torch` bound to `lib` ("torch" or the engine). Returns what it printed,
    the warnings it raised (category name, message without torch's "Triggered internally" tail) and the
    uncaught exception (type name, str(exc)).

    python_filters: apply the warning filter a plain `python program.py` run has for UserWarning
    ("default": shown once per source line), and record each warning's location as (file, line) too."""
    _number_hooks_from_zero(lib)
    b = dict(builtins.__dict__)
    b["__import__"] = _make_import(lib)
    g = {"__builtins__": b, "__name__": "__main__"}
    out = io.StringIO()
    exc = None
    with warnings.catch_warnings(record=True) as wl:
        warnings.simplefilter("default" if python_filters else "always")
        argv, sys.argv = sys.argv, ["program.py"]  # the command line of `python program.py` (argparse reads it)
        try:
            code = compile(prelude + source, "<program>", "exec")
            with contextlib.redirect_stdout(out):
                exec(code, g)
        except Exception as e:  # noqa: BLE001 - any exception is part of the observed behaviour
            exc = (type(e).__name__, str(e))
        finally:
            sys.argv = argv
    ws = [(w.category.__name__, strip_triggered(str(w.message))) for w in wl]
    if python_filters:
        ws = [w + (wr.filename, wr.lineno) for w, wr in zip(ws, wl)]
    return Outcome(out.getvalue(), ws, exc)


def run_both(source: str, prelude: str = "", python_filters: bool = False) -> tuple[Outcome, Outcome]:
    """(torch outcome, engine outcome), addresses masked. Skips when the engine cannot be imported."""
    load_engine()
    return (run_source(source, "torch", prelude, python_filters).masked(),
            run_source(source, ENGINE_NAME, prelude, python_filters).masked())



def assert_same(source: str, prelude: str = "") -> None:
    """The program raises, prints and warns on the engine exactly as on torch."""
    want, got = run_both(source, prelude)
    assert got.exc == want.exc
    assert got.stdout == want.stdout
    assert got.warnings == want.warnings

_FRESH_RUNNER = """
import json, sys
sys.path[:0] = [{root!r}, {here!r}]
from difftest import run_source
out = []
for src in json.loads(sys.stdin.read()):
    o = run_source(src, {lib!r})
    out.append([o.stdout, o.warnings, o.exc])
print(json.dumps(out))
"""


def run_fresh(sources: tuple[str, ...], lib: str) -> list[Outcome]:
    """run_source for each source, all in one new interpreter (for warnings torch emits only once per
    process: give sources whose once-warnings differ)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    code = _FRESH_RUNNER.format(root=str(here.parents[1]), here=str(here), lib=lib)
    res = subprocess.run([sys.executable, "-c", code], input=json.dumps(list(sources)), capture_output=True,
                         text=True, timeout=120, check=True)
    rows = json.loads(res.stdout.strip().splitlines()[-1])
    return [Outcome(o, [tuple(w) for w in ws], tuple(e) if e else None).masked() for o, ws, e in rows]


def to_numpy(t) -> np.ndarray:
    """Values of a torch or engine tensor as a numpy array (engine tensors: via tolist)."""
    if isinstance(t, torch.Tensor):
        return t.detach().cpu().resolve_conj().resolve_neg().numpy()
    data = t.detach().tolist()
    return np.asarray(data, dtype=_np_dtype(t)).reshape(tuple(t.shape))


def _np_dtype(t):
    name = str(t.dtype).removeprefix("torch.")
    return {"float32": np.float32, "float64": np.float64, "int64": np.int64, "int32": np.int32, "bool": np.bool_,
            "uint8": np.uint8, "complex64": np.complex64, "complex128": np.complex128}[name]


def node_name(fn) -> str | None:
    return None if fn is None else type(fn).__name__


class GraphMap:
    """Walks torch's and the engine's graphs in parallel, checking they have the same structure."""

    def __init__(self, leaf_pairs):
        self.t2e: dict[int, object] = {}
        self.e2t: dict[int, object] = {}
        self.t_nodes: list = []
        self.e_nodes: list = []
        self.leaf_of = {id(t): e for t, e in leaf_pairs}

    def match(self, tfn, efn, path: str) -> None:
        assert node_name(efn) == node_name(tfn), f"{path}: engine {node_name(efn)} != torch {node_name(tfn)}"
        if tfn is None:
            return
        if id(tfn) in self.t2e:
            assert self.t2e[id(tfn)] is efn, f"{path}: torch reuses node {node_name(tfn)}, the engine does not"
            return
        assert id(efn) not in self.e2t, f"{path}: engine reuses node {node_name(efn)}, torch does not"
        self.t2e[id(tfn)] = efn
        self.e2t[id(efn)] = tfn
        self.t_nodes.append(tfn)
        self.e_nodes.append(efn)
        if type(tfn).__name__ == "AccumulateGrad":
            want = self.leaf_of.get(id(tfn.variable))
            if want is None:  # a leaf made inside the code (a module's parameter): the engine's must be new too
                want = efn.variable
                assert all(e is not want for e in self.leaf_of.values()), f"{path}: AccumulateGrad of an input"
                assert tuple(want.shape) == tuple(tfn.variable.shape), f"{path}: AccumulateGrad of another shape"
            assert efn.variable is want, f"{path}: AccumulateGrad of a different tensor"
            return
        tn, en = tfn.next_functions, tuple(efn.next_functions)
        tnames = [(node_name(f), i) for f, i in tn]
        enames = [(node_name(f), i) for f, i in en]
        assert enames == tnames, f"{path}: next_functions engine {enames} != torch {tnames}"
        for j, ((tf, _), (ef, _)) in enumerate(zip(tn, en)):
            self.match(tf, ef, f"{path}.next_functions[{j}]")
