"""Every expression of docs/torch-facts.md (b): the engine's grad_fn names and next_functions (recursively,
with node sharing and AccumulateGrad identity) equal torch's; values and repr too where deterministic.

The expressions and setup come from tests/oracle/collect_facts.py, so the doc and this test cannot drift.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from difftest import GraphMap, load_engine, to_numpy, torch, with_known_gaps

from tests.oracle.collect_facts import B_EXPRS, B_MODULE_EXPRS, B_SETUP

# Tensor methods PyTorch has that are outside the engine's documented API: skipped if the engine lacks them.
NON_API = ("prod", "amax", "unbind", "torch.mv", "torch.mm", "F.linear", "mT", "true_divide", ".type(", "argmax",
           "x.to(")

# Known disagreements of the engine with torch (strict xfails: drop an entry once the engine is fixed).
GAPS = {}
MODULE_GAPS = {}


def _env(lib):
    env = {"torch": lib, "F": lib.nn.functional, "nn": lib.nn}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(B_SETUP, env)
    return env


def _leaf_pairs(tenv, eenv):
    return [(t, eenv[k]) for k, t in tenv.items() if isinstance(t, torch.Tensor)]


def _as_tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


@pytest.mark.parametrize("expr", with_known_gaps(B_EXPRS, GAPS))
def test_expression_graph_matches_torch(expr):
    engine = load_engine()
    tenv, eenv = _env(torch), _env(engine)
    try:
        tv = eval(expr, tenv)
    except Exception:  # noqa: BLE001 - not valid torch (recorded in the doc as such)
        pytest.skip("torch rejects this expression")
    try:
        ev = eval(expr, eenv)
    except AttributeError:
        if any(n in expr for n in NON_API):
            pytest.skip("outside the engine's API")
        raise
    touts, eouts = _as_tuple(tv), _as_tuple(ev)
    assert len(eouts) == len(touts)
    gm = GraphMap(_leaf_pairs(tenv, eenv))
    for i, (t, e) in enumerate(zip(touts, eouts)):
        if not isinstance(t, torch.Tensor):
            assert e == t
            continue
        gm.match(t.grad_fn, e.grad_fn, f"{expr}[{i}].grad_fn")
        assert e.requires_grad == t.requires_grad
        assert str(e.dtype) == str(t.dtype)
        tn, en = to_numpy(t), to_numpy(e)
        np.testing.assert_allclose(en, tn, rtol=1e-6, atol=1e-7)
        if np.array_equal(en, tn) and np.array_equal(np.signbit(en), np.signbit(tn)):
            assert repr(e) == repr(t)


@pytest.mark.parametrize("title, code",
                         with_known_gaps(B_MODULE_EXPRS, MODULE_GAPS, ids=[t for t, _ in B_MODULE_EXPRS]))
def test_module_and_inplace_graph_matches_torch(title, code):
    engine = load_engine()
    tenv = {"torch": torch, "F": torch.nn.functional, "nn": torch.nn}
    eenv = {"torch": engine, "F": engine.nn.functional, "nn": engine.nn}
    exec(code, tenv)
    exec(code, eenv)
    pairs = []
    for k, t in tenv.items():
        if isinstance(t, torch.Tensor):
            pairs.append((t, eenv[k]))
        elif isinstance(t, torch.nn.Module):
            pairs.extend(zip(t.parameters(), eenv[k].parameters()))
    gm = GraphMap(pairs)
    # module weights are random: only structure is compared (leaves made inside the snippet are unnamed,
    # so AccumulateGrad identity is checked only for named ones)
    gm.leaf_of = {id(t): e for t, e in pairs}
    t, e = tenv["out"], eenv["out"]
    try:
        gm.match(t.grad_fn, e.grad_fn, "out.grad_fn")
    except AssertionError as err:
        if "AccumulateGrad of a different tensor" not in str(err):
            raise
    assert e.requires_grad == t.requires_grad
    assert e.is_leaf == t.is_leaf
    assert tuple(e.shape) == tuple(t.shape)
