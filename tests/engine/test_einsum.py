"""torch.einsum against PyTorch: values (float64 and float32), grads, the graph node for node with what each node
saves (ATen's decomposition: diagonals, unsqueezes, permutes, sums, bmm or mul, views), the call forms (operands,
a list of them, sublists) and the error texts. Finite differences: test_gradcheck.CASES (einsum_*)."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import GraphMap, load_engine, run_both, to_numpy, torch

EQUATIONS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("i,i->", [(3,), (3,)]),
    ("i,j->ij", [(2,), (3,)]),
    ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("iij->j", [(3, 3, 2)]),
    ("iji->j", [(2, 3, 2)]),
    ("iijj->ij", [(2, 2, 3, 3)]),
    ("ii,i->i", [(3, 3), (3,)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("ij,kj->ik", [(2, 3), (4, 3)]),
    ("ij,jk->ki", [(2, 3), (3, 4)]),
    ("bij,bjk->bki", [(2, 2, 3), (2, 3, 4)]),
    ("ij,j->i", [(2, 3), (3,)]),
    ("bi,bi->b", [(2, 3), (2, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl->li", [(2, 3), (3, 4), (4, 5)]),
    ("i,i,i->", [(3,), (3,), (3,)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("i,j", [(2,), (3,)]),
    ("...", [(2, 3)]),
    ("...->", [(2, 3)]),
    ("i...->...", [(2, 3, 4)]),
    ("b...,b...->b", [(2, 3, 4), (2, 3, 4)]),
    ("...i,...i->...", [(2, 1, 3), (4, 3)]),
    ("ijk,ikl->", [(2, 1, 3), (2, 3, 4)]),
    ("ij,ik->jk", [(1, 3), (2, 4)]),
    ("Ab,bC->AC", [(2, 3), (3, 4)]),
    (" i j , j k -> i k ", [(2, 3), (3, 4)]),
    ("i,->i", [(3,), ()]),
    ("->", [()]),
    ("ij,kl->ijkl", [(2, 3), (2, 2)]),
    ("ij,jk->ik", [(1, 3), (3, 1)]),
    ("ijk,jl->ikl", [(2, 3, 4), (3, 5)]),
]


def _arrays(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


def _run(T, equation, arrays, dtype):
    ops = [T.tensor(a, dtype=getattr(T, dtype), requires_grad=True) for a in arrays]
    y = T.einsum(equation, *ops)
    w = T.tensor(np.cos(np.arange(max(y.numel(), 1))).reshape(tuple(y.shape)), dtype=getattr(T, dtype))
    (y * w).sum().backward(retain_graph=True)  # the graph kept, to read what its nodes saved
    return ops, y


@pytest.mark.parametrize("equation, shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_float64_values_grads_and_graph_as_torch(equation, shapes):
    arrays = _arrays(shapes)
    tops, ty = _run(torch, equation, arrays, "float64")
    eops, ey = _run(load_engine(), equation, arrays, "float64")
    assert tuple(ey.shape) == tuple(ty.shape)
    np.testing.assert_allclose(to_numpy(ey), to_numpy(ty), rtol=1e-12, atol=1e-12)
    for t, e in zip(tops, eops):
        np.testing.assert_allclose(to_numpy(e.grad), to_numpy(t.grad), rtol=1e-12, atol=1e-12)
    graph = GraphMap(list(zip(tops, eops)))
    graph.match(ty.grad_fn, ey.grad_fn, "y.grad_fn")
    for t, e in zip(graph.t_nodes, graph.e_nodes):  # what every node keeps: permute dims, view sizes, sum dims
        saved = sorted(k for k in dir(t) if k.startswith("_saved_") and not isinstance(getattr(t, k), torch.Tensor))
        for k in saved:
            assert tuple(np.atleast_1d(getattr(e, k))) == tuple(np.atleast_1d(getattr(t, k))), \
                f"{type(t).__name__}.{k}: engine {getattr(e, k)} != torch {getattr(t, k)}"


@pytest.mark.parametrize("equation, shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_float32_values_and_grads_as_torch(equation, shapes):
    arrays = _arrays(shapes, seed=1)
    tops, ty = _run(torch, equation, arrays, "float32")
    eops, ey = _run(load_engine(), equation, arrays, "float32")
    assert to_numpy(ey).dtype == np.float32
    # torch's bmm is MKL's, its order not reproducible (engine/kernels/blas.py): within 2 ulps of Σ|aᵢ·bᵢ|
    scale = torch.einsum(equation, *[torch.tensor(np.abs(a).astype(np.float32), dtype=torch.float64)
                                     for a in arrays]).numpy()
    error = np.abs(to_numpy(ey).astype(np.float64) - to_numpy(ty))
    assert np.all(error <= 2 * np.spacing(scale.astype(np.float32))), np.max(error / np.spacing(scale))
    for t, e in zip(tops, eops):
        np.testing.assert_allclose(to_numpy(e.grad), to_numpy(t.grad), rtol=1e-5, atol=1e-6)


CALL_FORMS = """
a = torch.arange(6.).reshape(2, 3).requires_grad_()
b = torch.arange(12.).reshape(3, 4)
v = torch.tensor([1., -2., 3.])
print(torch.einsum("ij,jk->ik", a, b))
print(torch.einsum("ij,jk->ik", [a, b]))
print(torch.einsum("ij,jk->ik", (a, b)))
print(torch.einsum(a, [0, 1], b, [1, 2], [0, 2]))
print(torch.einsum(a, [0, 1], b, [1, 2]))
print(torch.einsum(a, [..., 1], v, [1], [...]))
print(torch.einsum("ii", b[:, :3]), torch.einsum("i,i", v, v), torch.einsum("i->", v))
print(torch.einsum("ij,jk->ik", torch.ones(2, 3, dtype=torch.int64), torch.ones(3, 2, dtype=torch.int64)))
y = torch.einsum("ij,j->i", a, v)
print(y, y.grad_fn, y.grad_fn.next_functions[0][0].next_functions[0][0])
y.sum().backward()
print(a.grad)
print(torch.einsum("ii->i", torch.eye(3, requires_grad=True)))
"""


def test_einsum_call_forms_print_as_torch():
    want, got = run_both(CALL_FORMS)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.exc, got.warnings) == (want.exc, want.warnings)


ERRORS = {
    "size_mismatch": 'torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(4, 4))',
    "output_not_in_input": 'torch.einsum("ij->k", torch.ones(2, 3))',
    "output_twice": 'torch.einsum("ij->ii", torch.ones(2, 3))',
    "dot_not_ellipsis": 'torch.einsum("i.j", torch.ones(2, 3))',
    "fewer_operands": 'torch.einsum("i,j", torch.ones(2))',
    "more_operands": 'torch.einsum("i", torch.ones(2), torch.ones(2))',
    "subscripts_vs_dims": 'torch.einsum("ij", torch.ones(2))',
    "subscripts_more_than_dims": 'torch.einsum("...ij", torch.ones(2))',
    "repeated_sizes_differ": 'torch.einsum("ii", torch.ones(2, 3))',
    "invalid_subscript": 'torch.einsum("i1", torch.ones(2, 3))',
    "invalid_output_subscript": 'torch.einsum("ij->i_", torch.ones(2, 3))',
    "two_ellipses": 'torch.einsum("i...j...", torch.ones(2, 3))',
    "output_dot": 'torch.einsum("ij->.", torch.ones(2, 3))',
    "output_two_ellipses": 'torch.einsum("...->......", torch.ones(2, 3))',
    "ellipsis_broadcast": 'torch.einsum("...i,...i", torch.ones(2, 3), torch.ones(3, 3))',
    "no_operand": 'torch.einsum("ij")',
    "empty_list": 'torch.einsum("ij", [])',
    "nothing": "torch.einsum()",
    "sublist_range": "torch.einsum(torch.ones(2), [0], torch.ones(2), [60])",
    "equation_not_str": "torch.einsum(3, torch.ones(2))",
    "operand_not_tensor": 'torch.einsum("ij,jk", torch.ones(2, 2), 3)',
    "operand_a_list": 'torch.einsum("ij", [torch.ones(2, 2)], torch.ones(2, 2))',
    "mixed_dtypes": 'torch.einsum("ij,jk", torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64))',
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_einsum_error_texts_as_torch(name):
    want, got = run_both(ERRORS[name])
    assert want.exc is not None
    assert got.exc == want.exc
