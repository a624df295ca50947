"""nn.utils.parametrizations.orthogonal against torch: every map (matrix_exp, cayley, householder), tall, wide
and square weights, with and without the base of the trivialization: the weight torch gives, that it is
orthogonal, the grad of the original and the errors."""
from difftest import assert_same

PROGRAM = """
import torch
import torch.nn as nn
from torch.nn.utils import parametrizations as P
torch.manual_seed(0)
for shape, kind, triv in (((3, 3), None, True), ((4, 2), None, True), ((2, 4), "cayley", True),
                          ((3, 3), "householder", False), ((5, 3), "matrix_exp", True)):
    m = P.orthogonal(nn.Linear(shape[1], shape[0]), orthogonal_map=kind, use_trivialization=triv)
    W = m.weight
    eye = torch.eye(min(shape))
    print(shape, kind, (W.T @ W if shape[0] >= shape[1] else W @ W.T).sub(eye).abs().max() < 1e-5)
    print(W)
    loss = (m(torch.ones(2, shape[1])) ** 2).sum()
    loss.backward()
    print(m.parametrizations.weight.original.grad)
print(m)
try:
    P.orthogonal(nn.Linear(3, 3), orthogonal_map="exp")
except ValueError as e:
    print(e)
"""


def test_orthogonal_parametrization_as_torch():
    assert_same(PROGRAM)
