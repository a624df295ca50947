"""engine.trace.run keeps its contract: it always returns a Timeline whose JSON encodes; a program too long
is refused before it is parsed; the recorder's budgets (events, the timeline's size) end a program with a
clear message and keep what was recorded; and the engine holds no state a program could leave behind for
the next one but what the runner puts back (runner.ENGINE_STATE)."""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
import types
import typing

import numpy as np

import engine
from engine import generator, grad_mode, printing
from engine.trace import program as program_module
from engine.trace import recorder, run, runner
from engine.trace.errors import FILENAME
from engine.trace.timeline import Timeline

# Module-level state of the engine that no program can change (or that only the runner's machinery uses),
# with why. Everything else a program might change must be in runner.ENGINE_STATE.
TABLES = {
    ("engine.autograd.functional", "_ZERO_FILL"): "a table of how functional fills missing grads",
    ("engine.backward", "_task_ids"): "a counter naming backward passes; its values are never shown",
    ("engine.graph", "_handle_ids"): "a counter naming hook handles, started again at 0 by every run",
    ("engine.dtypes", "_ALL"): "dtypes by name, made at import",
    ("engine.dtypes", "_BY_NP"): "dtypes by numpy dtype, made at import",
    ("engine.graph", "_node_classes"): "node classes by name, made once per name",
    ("engine.graph", "_sequence"): "a counter that orders nodes; its values are never shown",
    ("engine.logic", "DECLARED"): "the table of comparisons",
    ("engine.observe", "_muted"): "the engine's own bookkeeping (the optimizer's arithmetic)",
    ("engine.observe", "_observers"): "the runner's recorder and budget, removed after each run",
    ("engine.observe", "_handlers"): "the observers' methods by event, rebuilt with _observers",
    ("engine.ops.arithmetic", "_MODE"): "grad_mode._state itself (in ENGINE_STATE)",
    ("engine.ops.reductions", "_return_types"): "named-tuple classes by name, made once per name",
    ("engine.printing", "_NUMPY_DTYPES"): "a table of dtype names",
    ("engine.ops.random", "SIGNATURES"): "the random functions' signatures",
    ("engine.generator.floats", "LOG_P"): "a polynomial's coefficients",
    ("engine.devices", "CPU"): "torch.device('cpu'), which cannot be changed",
    ("engine.backends.cuda", "matmul"): "a view of backends.flags.FLAGS (in ENGINE_STATE), without state of its own",
    ("engine.autograd.forward_ad", "OBSERVER"): "an observer without state (its tangents: grad_mode.TANGENTS), "
                                                "removed after each run",
    ("engine.optim.optimizer", "required"): "a marker without state (torch.optim.optimizer.required)",
    ("engine.distributions", "biject_to"): "its _registry is in ENGINE_STATE",
    ("engine.distributions", "transform_to"): "its _registry is in ENGINE_STATE",
    ("engine.distributions.constraint_registry", "biject_to"): "its _registry is in ENGINE_STATE",
    ("engine.distributions.constraint_registry", "transform_to"): "its _registry is in ENGINE_STATE",
    ("engine.distributions._torch", "special"): "a namespace without state",
    ("engine.torch_types", "Device"): "an alias without state (torch.types.Device: its slots cannot be set)",
    ("engine.kernels.exact", "_kept"): "scratch memory the exact products reuse; every product writes all of it reads",
}
# Tables by name pattern: the op registry and the functions derived from it, Spelling declarations and constants
# (UPPER_CASE: kernels' coefficients, lookup tables).
TABLE_NAMES = re.compile(r"OPS|COMPOSITES|FUNCTIONS|FUNCTIONAL|INFIX|PREFIX|_?[A-Z][A-Z0-9_]*")
IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), frozenset, re.Pattern, np.dtype, np.ufunc, np.generic,
             types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType, engine.dtype,
             engine.memory_format, engine.layout,
             type(annotations), types.UnionType, types.GenericAlias, typing.TypeVar, type(typing.Final),
             # torch.distributions' constraint and transform singletons (constraints.real, identity_transform):
             # stateless, and shared objects a program cannot set attributes of
             engine.distributions.constraints.Constraint, engine.distributions.transforms.Transform)


def _engine_modules():
    yield engine
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if not info.name.startswith("engine.trace"):
            yield importlib.import_module(info.name)


def test_the_runner_restores_every_state_of_the_engine_a_program_can_change():
    restored = {(getattr(module, "__name__", None), name) for module, name in runner.ENGINE_STATE}
    restored_objects = {id(getattr(module, name)) for module, name in runner.ENGINE_STATE}  # and their aliases
    unknown = []
    for module in _engine_modules():
        for name, value in vars(module).items():
            if name.startswith("__") or isinstance(value, IMMUTABLE):
                continue
            if isinstance(value, tuple) and all(isinstance(v, IMMUTABLE) for v in value):
                continue
            key = (module.__name__, name)
            if (key in restored or id(value) in restored_objects or key in TABLES
                    or TABLE_NAMES.fullmatch(name) and not name.startswith("_state")):
                continue
            unknown.append(key)
    assert not unknown, f"engine state neither restored by the runner nor listed as a table: {unknown}"


def test_every_restored_state_is_put_back():
    state, opts = grad_mode._state, dict(vars(printing.PRINT_OPTS))
    before = dict(state)
    bits = generator.default_generator.state_bytes().tobytes()
    timeline = run("import torch\ntorch.set_grad_enabled(False)\ntorch.manual_seed(5)\nx = torch.rand(2)\n"
                   "y = torch.rand(2)\n")
    assert timeline.error is None
    assert grad_mode._state is state and state == before and state["enabled"]
    assert vars(printing.PRINT_OPTS) == opts
    assert generator.default_generator.state_bytes().tobytes() == bits


def test_run_always_returns_a_timeline(monkeypatch):
    def broken(self):
        raise RuntimeError("the recorder broke")

    monkeypatch.setattr(recorder.Recorder, "finish", broken)
    timeline = run("import torch\nx = torch.ones(2) * 2\nprint(x)\n")
    assert isinstance(timeline, Timeline)
    assert timeline.output == "tensor([2., 2.])\n"
    assert timeline.error["type"] == "RuntimeError" and timeline.error["line"] == 3
    assert timeline.error["message"] == "the recorder broke (after its last line had run, while what it left was named)"
    assert [e["kind"] for e in timeline.events][:2] == ["leaf", "op"]
    monkeypatch.undo()

    def exploding(source):
        raise MemoryError("no memory to parse")

    monkeypatch.setattr(runner.guard, "load", exploding)
    timeline = run("x = 1\n")
    assert isinstance(timeline, Timeline) and timeline.error["type"] == "MemoryError"


def test_lone_surrogates_do_not_break_the_json():
    timeline = run("print(chr(0xdc80), 'a' + chr(0xd800))\nraise ValueError('bad ' + chr(0xdfff))\n")
    text = timeline.to_json()
    data = text.encode()  # would raise UnicodeEncodeError with a lone surrogate
    back = json.loads(data)
    assert back["output"] == "\ufffd a\ufffd\n"
    again = Timeline.from_json(text)
    assert again.output == back["output"]
    assert again.events[-1]["message"] == "bad \ufffd"


def test_a_program_too_long_is_refused_before_it_is_parsed(monkeypatch):
    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(ast, "parse", no_parsing)
    program_module.load.cache_clear()
    source = "x = 1\n" * 200_000  # 1.2 MB
    timeline = run(source)
    assert timeline.error["type"] == "GuardError"
    assert timeline.error["message"] == "the program is longer than 100,000 characters"
    assert len(timeline.events) == 1


def test_the_event_budget_ends_a_program_and_keeps_what_was_recorded():
    timeline = run("import torch\nx = torch.ones(2)\nwhile True:\n    x = x + 1\n", max_events=500, max_seconds=10)
    error = timeline.error
    assert (error["type"], error["line"]) == ("BudgetExceeded", 4)
    assert error["message"].startswith("the program made more than 500 events")
    assert len(timeline.events) == 501 and all(e["kind"] in ("leaf", "op") for e in timeline.events[:-1])


def test_the_timeline_size_budget_ends_a_program_and_keeps_what_was_recorded():
    timeline = run("import torch\nx = torch.rand(8, 8)\nwhile True:\n    x = x * 1.5\n", max_timeline_mb=0.25,
                   max_seconds=10)
    error = timeline.error
    assert (error["type"], error["line"]) == ("BudgetExceeded", 4)
    assert error["message"].startswith("the program's timeline grew past 0.25 MB")
    assert len(timeline.events) > 100
    assert len(timeline.to_json().encode()) < 0.25 * 2**20  # the estimate is an upper bound


def test_what_a_program_leaves_is_freed_before_run_returns():
    """A suspended generator whose `finally` loops forever, in a reference cycle: freed (and its `finally` stopped
    by the closed budget) inside run(), not later inside whatever Python does when the collector runs (it once
    broke the next program's compile: "AST constructor recursion depth mismatch")."""
    import gc

    source = ("def g():\n    try:\n        yield 1\n    finally:\n        while True:\n            pass\n"
              "class Box:\n    pass\nbox = Box()\nbox.me = box\nbox.it = g()\nnext(box.it)\n")
    gc.collect()
    timeline = run(source, max_seconds=1)
    assert timeline.error is None
    left = [o for o in gc.get_objects() if isinstance(o, types.GeneratorType) and o.gi_code.co_filename == FILENAME
            and o.gi_code.co_name == "g"]
    assert left == []
    assert run("print(sum(i for i in range(3)))").output == "3\n"
