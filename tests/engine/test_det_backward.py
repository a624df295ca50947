"""linalg.det's backward as ATen runs it: a solve with the LU in a plain backward, so an exactly singular matrix
gets a zero gradient (the singular-value formula, which gives its cofactors, runs under create_graph only).
Compared as values: the signs of the zeros come from LAPACK's order of operations, which the engine does not copy."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
import engine  # noqa: E402

CASES = {
    "zero_row": [[1.0, 2, 3], [0, 0, 0], [4, 1, 5]],
    "dependent_rows": [[1.0, 2], [2, 4]],
    "invertible": [[2.0, 1, 0], [1, 3, 1], [0, 1, 4]],
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("create_graph", [False, True])
def test_det_grad_is_torchs(name, create_graph):
    grads = []
    for T in (torch, engine):
        A = T.tensor(CASES[name], dtype=T.float64, requires_grad=True)
        g, = T.autograd.grad(T.linalg.det(A), A, create_graph=create_graph)
        grads.append(g.detach().numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-12, atol=1e-12)
