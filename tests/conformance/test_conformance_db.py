"""The engine against torch's own test databases (OpInfo, ModuleInfo, OptimInfo), on a fixed sample.

benchmarks/conformance.py walks the databases whole and writes the entries that pass into passing.txt
(`--write-baseline`). Here a fixed quarter of those entries (the ones whose crc32 of the key is 0 mod 4,
the same on every machine) is run again, float64, int64 and bool only (never float32: torch's float32 bits
depend on the CPU; the `complex:` entries on complex128), the first SAMPLES sample(s) of each dtype: an entry
in the baseline at level `pass` must still pass every check on them, at level `core` its forward and backward
values, dtypes, shapes and grads. The `bfloat16:` entries run on their bfloat16 samples.
"""
from __future__ import annotations

import importlib
import zlib

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("expecttest")  # torch's test databases import it

from conformance_baseline import read_baseline  # noqa: E402

SHARDS = 4
SAMPLES = 1
DTYPES = (torch.float64, torch.int64, torch.bool)


def sampled(baseline, kind):
    return {key.split(":", 1)[1]: level for key, level in baseline.items()
            if key.startswith(kind + ":") and zlib.crc32(key.encode()) % SHARDS == 0}


def regressions(results, wanted):
    out = []
    for r in results:
        level = wanted.get(r.key)
        if level == "pass" and r.status != "pass":
            out.append(f"{r.key}: {r.first_reason}")
        elif level == "core" and not r.core_pass:
            out.append(f"{r.key}: {r.first_reason}")
    return out


@pytest.fixture(scope="module")
def engine():
    return importlib.import_module("engine")


@pytest.fixture(scope="module")
def op_db():
    from conformance_ops import load_op_db

    return load_op_db()


def test_baseline_ops_still_pass(engine, op_db):
    from conformance_ops import OpRunner, entry_key

    wanted = sampled(read_baseline(), "op")
    runner = OpRunner(engine, max_samples=SAMPLES, dtypes=DTYPES)
    results = [runner.run(op) for op in op_db if entry_key(op.name, op.variant_test_name) in wanted]
    assert len(results) == len(wanted), sorted(set(wanted) - {r.key for r in results})
    assert regressions(results, wanted) == []


def test_baseline_complex_entries_still_pass(engine, op_db):
    """The entries whose complex samples pass (baseline `complex:<entry>`), on their complex128 samples."""
    from conformance_ops import OpRunner, entry_key

    wanted = sampled(read_baseline(), "complex")
    runner = OpRunner(engine, max_samples=SAMPLES, dtypes=(torch.complex128,))
    results = [runner.run(op) for op in op_db if entry_key(op.name, op.variant_test_name) in wanted]
    assert len(results) == len(wanted), sorted(set(wanted) - {r.key for r in results})
    assert regressions(results, wanted) == []


def test_baseline_bfloat16_entries_still_pass(engine, op_db):
    """The entries whose bfloat16 samples pass (baseline `bfloat16:<entry>`, benchmarks/conformance.py --bfloat16)."""
    from conformance_ops import OpRunner, entry_key

    wanted = sampled(read_baseline(), "bfloat16")
    runner = OpRunner(engine, max_samples=SAMPLES, dtypes=(torch.bfloat16,))
    results = [runner.run(op) for op in op_db if entry_key(op.name, op.variant_test_name) in wanted]
    assert len(results) == len(wanted), sorted(set(wanted) - {r.key for r in results})
    assert regressions(results, wanted) == []


def test_baseline_modules_and_optimizers_still_pass(engine):
    from conformance_modules import load_module_db, load_optim_db, module_key, run_module, run_optimizer

    baseline = read_baseline()
    modules, optims = sampled(baseline, "module"), sampled(baseline, "optim")
    results = [run_module(info, engine, max_samples=SAMPLES, dtypes=(torch.float64,))
               for info in load_module_db() if module_key(info) in modules]
    results += [run_optimizer(info, engine) for info in load_optim_db() if info.optim_cls.__name__ in optims]
    assert regressions(results, {**modules, **optims}) == []


SELF_CHECK = ("add", "sum", "max.reduction_with_dim", "nn.functional.relu", "float", "linalg.norm", "item", "where",
              "index_select", "cumsum")


def test_torch_against_itself_passes(op_db):
    """The harness invents no difference: torch compared with torch passes every check."""
    from conformance_ops import OpRunner, entry_key

    runner = OpRunner(torch, max_samples=2)
    results = [runner.run(op) for op in op_db if entry_key(op.name, op.variant_test_name) in SELF_CHECK]
    assert [(r.key, r.first_reason) for r in results if r.status != "pass"] == []


def test_a_wrong_engine_is_caught(engine, op_db, monkeypatch):
    """The harness sees a wrong value, a wrong grad and a missing name."""
    from conformance_ops import OpRunner

    by_name = {op.name: op for op in op_db if not op.variant_test_name}
    runner = OpRunner(engine, max_samples=1, dtypes=(torch.float64,), variants=False, error_inputs=False)
    monkeypatch.setattr(engine, "sin", engine.cos)
    r = runner.run(by_name["sin"])
    assert r.status == "differ" and r.findings[0].area == "output" and r.findings[0].kind == "value", r.first_reason

    exp = engine.exp

    def detached_exp(x):
        return exp(x.detach()).requires_grad_(x.requires_grad) * 1

    monkeypatch.setattr(engine, "exp", detached_exp)
    r = runner.run(by_name["exp"])
    assert not r.core_pass and any(f.area == "grad" for f in r.findings), r.first_reason
    monkeypatch.delattr(engine, "sinh")
    assert runner.run(by_name["sinh"]).status == "missing"


def test_float32_off_torch_passes_only_nearer_float64_answer():
    """A float32 value outside tolerance of torch's float32 passes only where it is at least as close to torch's
    float64 answer as torch's float32 is (conformance_reference.py)."""
    import numpy as np
    from conformance_compare import compare_values

    truth = np.array([1.0, 2.0, 3.0])
    theirs = np.float32([1.0, 2.0, 3.0 + 1e-4])  # torch's float32: its last element 1e-4 off the answer
    nearer = np.float32([1.0, 2.0, 3.0 + 2e-5])
    farther = np.float32([1.0, 2.0, 3.0 - 2e-4])
    assert compare_values(theirs, nearer, "float32") is not None
    assert compare_values(theirs, nearer, "float32", reference=truth) is None
    assert compare_values(theirs, farther, "float32", reference=truth) is not None
    other_draws = np.array([0.2, 5.0, 1.0])  # a reference that is not torch's computation: it rescues nothing
    assert compare_values(theirs, nearer, "float32", reference=other_draws) is not None
