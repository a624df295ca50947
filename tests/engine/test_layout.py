"""Memory layout against torch: strides, storage offsets, contiguity in each memory format, the strides a view
gets (and where a view is refused), clone/contiguous in a memory format, and the layout of an accumulated .grad."""
import random

import numpy as np
import pytest
import torch

import engine

VIEWS = {
    "t": lambda T, a: a.t(),
    "unsqueeze1": lambda T, a: a.unsqueeze(1),
    "none": lambda T, a: a[:, None],
    "expand": lambda T, a: a[:1].expand(3, 4),
    "permute": lambda T, a: a.reshape(2, 2, 3).permute(2, 0, 1),
    "slice": lambda T, a: a[:, 1:3],
    "step": lambda T, a: a[:, ::2],
    "select": lambda T, a: a[:, 1],
    "narrow": lambda T, a: a.narrow(1, 1, 2),
    "diagonal": lambda T, a: a[:3, :3].diagonal(),
    "transpose12": lambda T, a: a.reshape(1, 3, 4).transpose(1, 2),
    "exp_of_t": lambda T, a: a.t().exp(),
    "clone_of_t": lambda T, a: a.t().clone(),
    "clone_of_expand": lambda T, a: a[:1].expand(3, 4).clone(),
    "contiguous_of_t": lambda T, a: a.t().contiguous(),
    "reshape_of_t": lambda T, a: a.t().reshape(2, 6),
    "sum_keepdim": lambda T, a: a.t().sum(0, keepdim=True),
    "mm": lambda T, a: a.t() @ a,
    "linear": lambda T, a: T.nn.functional.linear(a, a[:2]),
    "channels_last": lambda T, a: a.reshape(1, 3, 2, 2).contiguous(memory_format=T.channels_last),
    "clone_channels_last": lambda T, a: a.reshape(1, 3, 2, 2).clone(memory_format=T.channels_last),
    "clone_keeps_channels_last": lambda T, a: a.reshape(1, 3, 2, 2).contiguous(memory_format=T.channels_last).clone(),
    # elementwise results: TensorIterator's order, the first operand that tells two dims apart decides
    "t_plus_contiguous": lambda T, a: a.t() + a.t().contiguous(),
    "contiguous_plus_t": lambda T, a: a.t().contiguous() + a.t(),
    "t_times_row": lambda T, a: a.t() * a[0, :3],
    "t_slice_minus": lambda T, a: a.t()[:, :1] - a.t().contiguous(),
    "permuted_3d_plus": lambda T, a: a.reshape(2, 2, 3).permute(2, 0, 1) + a.reshape(3, 2, 2),
    "where_condition_first": lambda T, a: T.where(a.t().contiguous() > 0, a.t(), 0.0),
    "maximum_of_t": lambda T, a: T.maximum(a.t(), a.t().contiguous()),
    # expand keeps the stride of a dim it does not expand; a 0-d tensor expands with strides 0
    "expand_keeps_size1": lambda T, a: a[:, :1].expand(3, 1).expand(2, 3, 1),
    "expand_new_size1": lambda T, a: a[0].expand(1, 1, 4),
    "expand_scalar": lambda T, a: a[0, 0].expand(1, 1),
    # empty tensors: row-major strides, kept by their views
    "empty_exp": lambda T, a: a[:0].reshape(0, 1, 4).exp(),
    "empty_t": lambda T, a: T.zeros(3, 0).t(),
    "empty_sum_plus": lambda T, a: a[:0].sum(1, keepdim=True) + a[:0, :1],
}


def both(f):
    x = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    return f(torch, torch.tensor(x)), f(engine, engine.tensor(x))


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_strides_offsets_and_contiguity_are_torchs(name):
    t, e = both(VIEWS[name])
    assert e.stride() == t.stride()
    assert [e.stride(d) for d in range(-e.dim(), e.dim())] == [t.stride(d) for d in range(-t.dim(), t.dim())]
    assert e.storage_offset() == t.storage_offset()
    assert e.is_contiguous() == t.is_contiguous()
    for fmt in ("channels_last", "channels_last_3d", "preserve_format"):
        assert e.is_contiguous(memory_format=getattr(engine, fmt)) == t.is_contiguous(memory_format=getattr(torch, fmt))
    np.testing.assert_array_equal(e.detach().numpy(), t.detach().numpy())


LINALG = {  # LAPACK's results: each matrix by columns
    "inv": lambda T, A, B: T.linalg.inv(A),
    "solve": lambda T, A, B: T.linalg.solve(A, B),
    "solve_right": lambda T, A, B: T.linalg.solve(A, B.mT, left=False),
    "solve_triangular": lambda T, A, B: T.linalg.solve_triangular(A, B, upper=True),
    "cholesky": lambda T, A, B: T.linalg.cholesky(A),
    "cholesky_upper": lambda T, A, B: T.linalg.cholesky(A, upper=True),
    "eigh": lambda T, A, B: T.linalg.eigh(A),
    "qr": lambda T, A, B: T.linalg.qr(B),
    "det_grad": lambda T, A, B: T.autograd.grad(T.linalg.det(A).sum(), A)[0],
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg_results_are_column_major_as_torchs(name):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 4, 4))
    a = a @ a.transpose(0, 2, 1) + 4 * np.eye(4)
    b = rng.standard_normal((2, 4, 3))
    t = LINALG[name](torch, torch.tensor(a, requires_grad=True), torch.tensor(b))
    e = LINALG[name](engine, engine.tensor(a, requires_grad=True), engine.tensor(b))
    t, e = (t, e) if isinstance(t, tuple) else ((t,), (e,))
    assert [x.stride() for x in e] == [x.stride() for x in t]


def test_views_get_torchs_strides_and_are_refused_where_torchs_are():
    rng = random.Random(0)
    for _ in range(400):
        shape = [rng.choice([1, 1, 2, 3, 4]) for _ in range(rng.randint(1, 4))]
        x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
        perm = list(range(len(shape)))
        rng.shuffle(perm)
        t, e = torch.tensor(x).permute(*perm), engine.tensor(x).permute(*perm)
        d = rng.randrange(len(shape))
        if t.shape[d] > 1 and rng.random() < 0.5:
            t, e = t.narrow(d, 1, t.shape[d] - 1), e.narrow(d, 1, e.shape[d] - 1)
        factors, m = [], t.numel()
        while m > 1:
            f = rng.choice([p for p in range(2, m + 1) if m % p == 0])
            factors.append(f)
            m //= f
        for _ in range(rng.randint(0, 2)):
            factors.insert(rng.randint(0, len(factors)), 1)
        new = factors or [1]
        try:
            want = ("view", t.view(new).stride())
        except RuntimeError as err:
            want = ("refused", str(err))
        try:
            got = ("view", e.view(new).stride())
        except RuntimeError as err:
            got = ("refused", str(err))
        assert got == want, (list(t.shape), t.stride(), new)
        assert e.reshape(new).stride() == t.reshape(new).stride()
        assert e.reshape(new).is_contiguous() == t.reshape(new).is_contiguous()


def test_a_grad_takes_its_params_layout():
    grads = {}
    for T in (torch, engine):
        T.manual_seed(0)
        lin = T.nn.Linear(4, 3)
        x = T.randn(5, 4)
        lin(x).sum().backward()
        w = T.randn(3, 4).t().requires_grad_()  # a transposed leaf keeps its layout
        (x @ w).sum().backward()
        e = T.randn(3, 1, requires_grad=True)
        (e.expand(3, 4) * 2).sum().backward()
        grads[T] = [(p.grad.stride(), p.grad.is_contiguous()) for p in (lin.weight, lin.bias, w, e)]
    assert grads[engine] == grads[torch]
    lin.weight.grad.view(-1)  # the ubiquitous flatten of a weight's grad


@pytest.mark.parametrize("call, error", [
    (lambda T, x: x.contiguous(memory_format=1), TypeError),
    (lambda T, x: x.is_contiguous(memory_format="channels_last"), TypeError),
    (lambda T, x: x.contiguous(memory_format=T.channels_last), RuntimeError),
    (lambda T, x: x.clone(memory_format=T.channels_last_3d), RuntimeError),
    (lambda T, x: x.t().contiguous(memory_format=T.preserve_format), RuntimeError),
    (lambda T, x: x.t().view(-1), RuntimeError),
])
def test_layout_errors_are_torchs(call, error):
    texts = []
    for T in (torch, engine):
        with pytest.raises(error) as info:
            call(T, T.zeros(2, 3))
        texts.append(str(info.value))
    assert texts[1] == texts[0]


def test_memory_formats_print_as_torchs():
    for name in ("contiguous_format", "channels_last", "channels_last_3d", "preserve_format"):
        assert repr(getattr(engine, name)) == repr(getattr(torch, name))
        assert isinstance(getattr(engine, name), engine.memory_format)
