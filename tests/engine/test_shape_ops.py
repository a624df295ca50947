"""The reductions, scans, sorts, shape/view ops and index ops on what torch's OpInfo samples on purpose and the
gradcheck cases do not reach: 0-d and empty tensors, negative dims and keepdim, integer and bool dtypes (the result
dtypes), keyword forms, views that share memory and the version counter, and the error texts. Printed output,
warnings and the uncaught exception must equal PyTorch's."""

from __future__ import annotations

import pytest
from difftest import run_both

PRELUDE = """import torch
def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
def name(t):
    return type(t.grad_fn).__name__
"""

CASES = {
    "zero_dim_reductions": """
x = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
print(x.argmax(0, keepdim=True), x.argmin(0), x.max(0), x.min(0, keepdim=True), x.topk(1), x.sort(0))
print(x.cumsum(0), x.logsumexp(0), x.all(0), x.any(0, keepdim=True), x.sum(-1), x.mean(0, keepdim=True))
print(x.cummax(0), x.logcumsumexp(0), x.median(0), x.kthvalue(1), x.amax(0), x.nansum(0), x.aminmax(dim=0))
y = x.cumsum(0) + x.logsumexp(0) * 2 + x.max(0)[0] * 3 + x.sum(-1) + x.mean(0) + x.amax(0) + x.cummax(0)[0]
y.backward()
print(x.grad, name(x.cumsum(0)), name(x.max(0).values), name(x.amax(0)))
""",
    "zero_dim_index_ops": """
t = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
print(t.gather(0, torch.tensor([0, 0])), t.index_select(0, torch.tensor([0])), t.take(torch.tensor([0, 0])))
z = torch.zeros(())
print(z.scatter_add(0, torch.tensor([0]), torch.ones(1)), z.scatter(0, torch.tensor(0), 2.0))
print(t.index_add(0, torch.tensor([0]), torch.tensor(2.0, dtype=torch.float64)))
print(t.index_fill(0, torch.tensor([0]), 3.))
print(t.flip(0), t.roll(1), t.transpose(0, 0), t.squeeze((0,)), t.unsqueeze(0))
print(torch.atleast_2d(t), torch.atleast_3d(t))
print(t.masked_select(torch.tensor(True)), t.nonzero(), t.nonzero(as_tuple=True), t.argwhere(), t.count_nonzero())
y = t.gather(0, torch.tensor([0, 0])).sum() + t.take(torch.tensor([0])).sum() + t.index_select(0, torch.tensor([0]))
y.backward()
print(t.grad)
""",
    "empty_tensors": """
e = torch.zeros(0, 3)
print(e.sum(0), e.amax(1), e.cumsum(0), e.sort(1), e.argmax(1), e.flip(0), e.nonzero(), e.masked_select(e > 0))
print(torch.cat([torch.zeros(0), torch.ones(2, 2)], 1), e.unique(dim=0), e.tensor_split(2, 0))
print(torch.searchsorted(torch.zeros(0, 0), torch.zeros(0, 0)), e.logcumsumexp(0), e.cummin(1), e.diff(dim=1))
print(e.unfold(1, 2, 1).shape, torch.block_diag(e, torch.ones(1, 1)), e.count_nonzero(0), e.nansum())
err(lambda: e.amax(0))
err(lambda: e.argmax())
""",
    "dtypes": """
i = torch.tensor([[3, 1], [2, 2]])
b = torch.tensor([True, False, True])
print(i.sum(), i.sum(0, dtype=torch.int32), i.prod(dtype=torch.bool), i.cumsum(0), i.cumprod(1), b.cumsum(0))
print(i.logsumexp(1), i.nansum(), i.amax(), i.aminmax(), i.median(), i.mode(1), i.argsort(1), i.count_nonzero())
print(torch.bincount(torch.tensor([0, 2, 2])), torch.bincount(torch.tensor([0, 2]), torch.tensor([1.5, 2.0])))
print(torch.bincount(torch.tensor([1]), torch.tensor([3])), torch.histc(torch.tensor([1., 2., 1.]), 4, 0, 3))
print(torch.unique(i, return_inverse=True, return_counts=True), torch.unique_consecutive(b, return_counts=True))
print(b.cummax(0), i.diff(), b.diff(), torch.isin(i, torch.tensor([2, 5])), torch.isin(i, 3, invert=True))
err(lambda: i.mean())
err(lambda: i.float().mean(dtype=torch.int64))
err(lambda: i.nanmean())
""",
    "keywords_and_negative_dims": """
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
print(x.flip(dims=(0,)), torch.flip(x, dims=[-1]), x.sort(dim=-2, stable=True), x.cumsum(-1, dtype=torch.float64))
print(torch.var_mean(x, 1, correction=0, keepdim=True), torch.std_mean(x, dim=(0, 1)), x.amin((-1, 0), keepdim=True))
print(x.squeeze((0, -1)).shape, x[None, :, None].squeeze((0, -2)).shape)
print(torch.take_along_dim(x, torch.tensor([[-1]]), 1))
s = torch.tensor([1., 3., 5.])
print(torch.searchsorted(s, torch.tensor([3., 6.]), side="right"))
print(torch.bucketize(torch.tensor([3., 0.]), s, right=True))
print(torch.searchsorted(s, 3.0, out_int32=True), x.nonzero(as_tuple=True), torch.where(x > 2))
print(x.nonzero().is_contiguous(), x.argwhere().t().is_contiguous())
print(x.movedim(-1, 0).shape, x.roll(-1, -1), x.rot90(-1, [1, 0]), torch.diff(x, 2, -1, prepend=x[:, :1]))
print(name(x.flip(dims=(0,))), name(x.sort(stable=True).values), name(x.sort().values), name(x[None].squeeze((0,))))
""",
    "views_share_memory": """
x = torch.arange(12.).view(3, 4)
views = [x.unfold(1, 2, 1), x.diagonal(), x.mT, x.split(2, 1)[1], x.tensor_split(2, 1)[0],
         x.hsplit(2)[1],
         x.unbind()[2], x.squeeze((0,)), x.T, torch.broadcast_to(x[0], (2, 4)),
         torch.meshgrid(x[0], x[:, 0], indexing="ij")[0],
         torch.atleast_3d(x), x.ravel(), x.adjoint()]
copies = [torch.t_copy(x), torch.unfold_copy(x, 1, 2, 1), torch.diagonal_copy(x), x.narrow_copy(1, 0, 2), x.rot90(),
          x.roll(1), torch.tile(x, (1,)), x.fliplr()]
x[0, 0] = 100.
x[2, 3] = -1.
print([v._base is x for v in views], [v._version for v in views])
print([v.flatten()[:3].tolist() for v in views])
print([c._base is None for c in copies], [c.flatten()[:2].tolist() for c in copies])
print([v.is_contiguous() for v in views], [c.is_contiguous() for c in copies])
""",
    "errors_arranging": """
x = torch.zeros(2, 3)
err(lambda: torch.zeros(3).fliplr())
err(lambda: torch.zeros(()).flipud())
err(lambda: x.rot90(1, [0, 0]))
err(lambda: torch.zeros(3).rot90())
err(lambda: x.roll((1, 2), (0,)))
err(lambda: x.roll(()))
err(lambda: x.unfold(1, 5, 1))
err(lambda: x.unfold(1, 2, 0))
err(lambda: torch.diag(torch.zeros(2, 2, 2)))
err(lambda: torch.block_diag(torch.zeros(1, 1, 1)))
err(lambda: torch.combinations(x))
err(lambda: torch.hsplit(x, 2))
err(lambda: torch.vsplit(torch.zeros(3), 3))
err(lambda: torch.tensor_split(x, 0))
err(lambda: torch.tensor_split(x, torch.tensor([1.0])))
err(lambda: torch.tril_indices(3, 3, dtype=torch.float32))
err(lambda: x.H[None].H)
err(lambda: torch.zeros(3).mT)
err(lambda: torch.cat([]))
err(lambda: torch.zeros(0).view(0, -1))
err(lambda: x.sum_to_size(3, 3))
err(lambda: x.narrow(1, 4, 1))
err(lambda: x.narrow(1, 1, 3))
err(lambda: torch.zeros(()).narrow(0, 0, 1))
err(lambda: torch.broadcast_shapes((2, 3), (4,)))
print(torch.broadcast_shapes((2, 1), (3,)), torch.tril_indices(3, 4, 1), torch.triu_indices(3, 3, -1))
""",
    "errors_indexing_and_sorting": """
x = torch.zeros(2, 3)
err(lambda: x.take(torch.tensor([6])))
err(lambda: x.put(torch.tensor([0, 1]), torch.ones(3)))
err(lambda: x.masked_scatter(torch.ones(2, 3, dtype=torch.bool), torch.ones(2)))
err(lambda: x.masked_scatter(torch.ones(2, 3), torch.ones(6)))
err(lambda: x.masked_select(torch.ones(2, 3)))
err(lambda: x.masked_fill(x > 0, torch.ones(3)))
err(lambda: x.kthvalue(4, 1))
err(lambda: x.amax(()) if x.numel() == 0 else torch.zeros(2, 0).amax(1))
err(lambda: torch.take_along_dim(x, torch.tensor([[0]], dtype=torch.int32), 1))
err(lambda: x.scatter(0, torch.zeros(1, 1, dtype=torch.long), torch.zeros(1, 1, 1)))
err(lambda: x.gather(0, torch.zeros(1, 3)))
err(lambda: x.index_reduce(0, torch.tensor([0]), torch.ones(1, 3), "sum"))
err(lambda: torch.bincount(torch.tensor([-1, 2])))
err(lambda: torch.histc(torch.tensor([1, 2])))
err(lambda: x.movedim((0, 0), (0, 1)))
err(lambda: torch.searchsorted(torch.zeros(2, 3), torch.zeros(3, 1)))
err(lambda: torch.diff(torch.tensor(1.)))
print(torch.zeros(3).gather(0, torch.zeros(0, dtype=torch.uint8)))
print(x.gather(1, torch.tensor([[2], [0]], dtype=torch.int32)))
""",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_shape_op_matches_torch(case):
    want, got = run_both(CASES[case], PRELUDE)
    assert want.exc is None, f"case {case} is broken on torch: {want.exc}"
    assert got.exc == want.exc
    assert got.warnings == want.warnings
    assert got.stdout == want.stdout
