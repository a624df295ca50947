"""torch.* functions of ATen's own against torch: the native norms with their statistics (native_layer_norm,
native_batch_norm, _native_batch_norm_legit, native_group_norm), _softmax_backward_data, nonzero_static, _chunk_cat,
histogram and histogramdd, _unsafe_masked_index(_put_accumulate), _segment_reduce, as_strided_copy and
as_strided_scatter, ormqr, svd_lowrank and pca_lowrank. Each program prints values (float64), grads, grad_fn names and
error texts, and must print what torch prints; test_gradcheck's NATIVE_CASES check the grads by finite differences."""
from __future__ import annotations

import pytest
from difftest import ENGINE_NAME, run_both

pytestmark = pytest.mark.skipif(ENGINE_NAME != "engine", reason="compares the engine with torch")

PRELUDE = """import torch
torch.manual_seed(0)
def grad_fns(ts):
    return [type(t.grad_fn).__name__ if t.grad_fn is not None else None for t in ts]
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
"""

PROGRAMS = {
    "native_layer_norm": """
x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, dtype=torch.float64, requires_grad=True)
out, mean, rstd = torch.native_layer_norm(x, [4], w, None, 1e-5)
print(out, mean, rstd, grad_fns((out, mean, rstd)), mean.requires_grad)
out.sum().backward()
print(x.grad, w.grad)
attempt(lambda: torch.native_layer_norm(x, [], None, None, 1e-5))
attempt(lambda: torch.native_layer_norm(x, [3, 4], torch.ones(4, dtype=torch.float64), None, 1e-5))
attempt(lambda: torch.nn.functional.layer_norm(x, [3, 4], None, torch.ones(2, dtype=torch.float64)))
""",
    "native_batch_norm": """
x = torch.randn(4, 3, 2, dtype=torch.float64, requires_grad=True)
rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
for training in (True, False):
    out, mean, invstd = torch.native_batch_norm(x, None, None, rm, rv, training, 0.3, 1e-5)
    print(out, mean, invstd, grad_fns((out, mean, invstd)), rm, rv)
out, mean, invstd = torch._native_batch_norm_legit(x, None, None, rm, rv, True, 0.5, 1e-5)
print(out, mean, invstd, grad_fns((out, mean, invstd)), rm)
out, mean, invstd = torch._native_batch_norm_legit(x, None, None, True, 0.5, 1e-5)
print(out, mean, invstd, grad_fns((out, mean, invstd)))
print(sorted(a for a in dir(out.grad_fn) if a.startswith("_saved_")))
(out * torch.arange(24.0, dtype=torch.float64).view(4, 3, 2)).sum().backward()
print(x.grad)
print(torch.native_batch_norm(torch.ones(1, 2, 1), None, None, None, None, True, 0.1, 1e-5))
""",
    "native_group_norm": """
x = torch.randn(2, 6, 5, dtype=torch.float64, requires_grad=True)
w = torch.randn(6, dtype=torch.float64, requires_grad=True)
b = torch.randn(6, dtype=torch.float64, requires_grad=True)
out, mean, rstd = torch.native_group_norm(x, w, b, 2, 6, 5, 3, 1e-5)
print(out, mean, rstd, grad_fns((out, mean, rstd)), out.grad_fn is mean.grad_fn)
gs = torch.autograd.grad([out, mean, rstd], [x, w, b],
                         [torch.ones_like(out), torch.full_like(mean, 2.0), torch.full_like(rstd, -3.0)],
                         create_graph=True)
print(gs, grad_fns(gs))
""",
    "_softmax_backward_data": """
y = torch.randn(3, 4, dtype=torch.float64).softmax(1)
g = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
r = torch._softmax_backward_data(g, y, 1, torch.float64)
print(r, grad_fns([r]))
attempt(lambda: torch._softmax_backward_data(g, y.float(), 1, torch.float32))
""",
    "nonzero_static": """
x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]])
print(torch.nonzero_static(x, size=5), x.nonzero_static(size=1, fill_value=7), x.nonzero_static(size=5).stride())
print(torch.nonzero_static(torch.tensor(3), size=2), torch.nonzero_static(torch.zeros(2, 0), size=2))
attempt(lambda: torch.nonzero_static(x, size=-1))
""",
    "_chunk_cat": """
a, b = torch.arange(15.0).view(3, 5), torch.arange(6.0).view(3, 2)
print(torch._chunk_cat([a, b], 1, 2), torch._chunk_cat([a], 0, 2), torch._chunk_cat([a, b.view(3, 1, 2)], 0, 3))
r = torch._chunk_cat([a.requires_grad_()], 0, 2)
print(grad_fns([r]))
attempt(lambda: r.sum().backward())
attempt(lambda: torch._chunk_cat([a, b.view(6)], -1, 2))
attempt(lambda: torch._chunk_cat([a, b.view(6)], 1, 2))
attempt(lambda: torch._chunk_cat([a, torch.zeros(2, 2)], 1, 2))
attempt(lambda: torch._chunk_cat([a], 0, 0))
attempt(lambda: torch._chunk_cat([], 0, 1))
attempt(lambda: torch._chunk_cat([a, torch.zeros(0)], 0, 1))
attempt(lambda: torch._chunk_cat([a, b.long()], 1, 1))
""",
    "histogram": """
x = torch.randn(4, 5, dtype=torch.float64)
w = torch.rand(4, 5, dtype=torch.float64)
print(torch.histogram(x, 4), x.histogram(torch.tensor([-1.0, 0.0, 0.5, 2.0], dtype=torch.float64), weight=w))
print(torch.histogram(x, 3, range=(-1.0, 1.0), density=True), torch.histogram(torch.tensor([]), 3))
print(torch.histogram(torch.tensor(2.0), 3, density=True))
h = torch.histogramdd(x[:, :2], [2, 3], weight=w[:, 0], density=True)
print(h, type(h.bin_edges).__name__)
print(torch.histogramdd(x[:, :3], bins=[torch.tensor([-3.0, 0.0, 3.0], dtype=torch.float64)] * 3))
attempt(lambda: torch.histogramdd(x, [1, 1, 1]))
attempt(lambda: torch.histogram(x.long(), 3))
""",
    "_unsafe_masked_index": """
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
v = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
i0, i1 = torch.tensor([0, 2, 5]).view(3, 1), torch.tensor([1, -3]).view(1, 2)
mask = (i0 < 3) & (i1 < 4)
r = torch._unsafe_masked_index(x, mask, [i0, i1], 0.5)
p = torch._unsafe_masked_index_put_accumulate(x, mask, [i0, i1], v)
print(r, p, grad_fns([r, p]), sorted(a for a in dir(r.grad_fn) if a.startswith("_saved_")))
print(torch.autograd.grad((r * torch.arange(6.0, dtype=torch.float64).view(3, 2)).sum() + (p * p).sum(), [x, v]))
""",
    "_segment_reduce": """
x = torch.tensor([[1.5, -2.0, 3.0, 0.0, 4.0, 4.0], [2.0, 1.0, -1.0, 5.0, 5.0, 0.5]], dtype=torch.float64,
                 requires_grad=True)
lengths = torch.tensor([[2, 0, 4], [1, 3, 2]])
offsets = torch.tensor([[0, 2, 2, 6], [0, 1, 4, 6]])
for reduce in ("max", "mean", "min", "sum", "prod"):
    for initial in (None, 2.0):
        a = torch._segment_reduce(x, reduce, lengths=lengths, axis=1, initial=initial)
        b = torch._segment_reduce(x.t(), reduce, offsets=offsets[0], initial=initial)
        print(reduce, initial, a, b, torch.autograd.grad((a * torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64)
                                                          ).sum() + b.sum(), x))
g, = torch.autograd.grad(torch._segment_reduce(x, "sum", lengths=lengths, axis=1).sum(), x, create_graph=True)
print(grad_fns([g]))
attempt(lambda: g.sum().backward())
attempt(lambda: torch._segment_reduce(x, "mean"))
attempt(lambda: torch._segment_reduce(x, "median", lengths=lengths))
""",
    "as_strided_copy_scatter": """
x = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
s = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
c = torch.as_strided_copy(x, (2, 2), (1, 2), 1)
r = torch.as_strided_scatter(x, s, (2, 2), (1, 2), 1)
print(c, c.stride(), r, grad_fns([c, r]), sorted(a for a in dir(r.grad_fn) if a.startswith("_saved_")))
go = torch.arange(9.0, dtype=torch.float64).view(3, 3)
print(torch.autograd.grad(r, [x, s], go), torch.autograd.grad(c, x, go[:2, :2]))
t = torch.randn(3, 3).t()
print(torch.as_strided_scatter(t, torch.ones(2, 2), (2, 2), (1, 2), 1))
print(x.detach().as_strided_scatter(s.detach().view(4), (4,), (2,)))
attempt(lambda: x.detach().as_strided_scatter(s, (4,), (2,)))
attempt(lambda: torch.as_strided_scatter(torch.zeros(4, 4), torch.ones(2, 2), [2, 2], [200, 200], storage_offset=0))
base = torch.arange(20.0)
v = base[5:15]
print(v.as_strided((2, 2), (1, 2)), v.as_strided((2, 2), (1, 2), storage_offset=10))
""",
    "ormqr": """
a = torch.randn(4, 3, dtype=torch.float64)
reflectors, tau = torch.geqrf(a)
reflectors.requires_grad_()
tau.requires_grad_()
for left in (True, False):
    for transpose in (False, True):
        c = torch.randn(4, 2, dtype=torch.float64, requires_grad=True) if left else \\
            torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
        y = torch.ormqr(reflectors, tau, c, left=left, transpose=transpose)
        print(y, y.stride(), grad_fns([y]))
        print(torch.autograd.grad((y * y).sum(), [reflectors, tau, c]))
attempt(lambda: torch.ormqr(torch.randn(()), torch.randn(()), torch.randn(())))
attempt(lambda: torch.ormqr(torch.full((5, 0), 1.0), torch.full((5,), 1.0), torch.full((5, 5), 1.0), True, True))
""",
    "lowrank": """
a = torch.randn(6, 3, dtype=torch.float64) @ torch.randn(3, 5, dtype=torch.float64)
for f in (lambda: torch.svd_lowrank(a, q=3), lambda: torch.svd_lowrank(a.t(), q=3, M=torch.ones(5, 6)),
          lambda: torch.pca_lowrank(a, q=3), lambda: torch.pca_lowrank(a, center=False)):
    U, S, V = f()
    print(S, U.shape, V.shape, U @ torch.diag(S) @ V.t())
print(torch.randn(2))
attempt(lambda: torch.pca_lowrank(a, q=7))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_prints_what_torch_prints(name):
    want, got = run_both(PROGRAMS[name], prelude=PRELUDE)
    assert got.exc == want.exc
    assert got.stdout == want.stdout


def test_native_functions_run_through_the_runner():
    from engine.trace import run

    program = """import torch
x = torch.arange(24.0).view(2, 4, 3).sin().requires_grad_()
out, mean, rstd = torch.native_group_norm(x, None, None, 2, 4, 3, 2, 1e-5)
y, _, _ = torch.native_layer_norm(out, [3], None, None, 1e-5)
h = torch.histogram(y.detach(), 3)
z = y.reshape(-1).as_strided_scatter(torch.ones(2), (2,), (3,), 1)
(z.sum() + mean.sum()).backward()
print(h.hist, z, x.grad.shape, torch.nonzero_static(x[0, 0] > 0, size=2))
"""
    timeline = run(program)
    want, _ = run_both(program)
    assert timeline.error is None
    assert timeline.output == want.stdout
