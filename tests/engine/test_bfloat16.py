"""bfloat16 (and complex32) against torch: made, converted, printed and promoted as torch does them; elementwise ops,
reductions and matrix products bit for bit torch's CPU kernels (computed in float32, rounded once); grads of
bfloat16 leaves; torch.autocast('cpu') casting as torch's CPU autocast policy, on a small model's forward and
backward."""
import warnings

import numpy as np
import pytest
from difftest import TRIGGERED, load_engine, torch

PRINTED = [
    "T.bfloat16", "T.finfo(T.bfloat16)", "T.finfo(T.bfloat16).eps", "T.finfo(T.bfloat16).max",
    "T.tensor([1.0, 2.5], dtype=T.bfloat16)", "T.tensor([1.0, 2.5, 3.14159, 1e-3, 1e10]).bfloat16()",
    "T.tensor([0.1, 1/3, 1e-40, 3.4e38, float('nan'), -float('inf')]).bfloat16()",
    "T.tensor([1.00390625, 1.01171875, -1.00390625]).bfloat16()",  # ties: to even
    "T.zeros(2, dtype=T.bfloat16, requires_grad=True)", "T.ones(2, 3, dtype=T.bfloat16) / 3",
    "T.arange(5, dtype=T.bfloat16) * 0.1", "T.full((2,), 1.1, dtype=T.bfloat16)", "T.eye(2, dtype=T.bfloat16)",
    "T.tensor(1.1).to(T.bfloat16)", "T.tensor(1.1).to(T.bfloat16).item()", "T.tensor([1.1]).bfloat16().tolist()",
    "T.ones(3).bfloat16().element_size(), T.bfloat16.itemsize, T.complex32.itemsize",
    "T.ones(2).bfloat16().type()", "T.ones(2).bfloat16().numpy()", "T.ones(2).chalf().numpy()",
    "T.ones(2).bfloat16().float().dtype", "T.tensor([1, 2]).bfloat16() + 1.5",
    "(T.tensor([1, 2]).bfloat16() + T.tensor(1.5)).dtype", "(T.ones(2).bfloat16() + T.ones(2).half()).dtype",
    "(T.ones(2).bfloat16() + T.ones(2)).dtype", "(T.ones(2).bfloat16() + T.ones(2, dtype=T.int64)).dtype",
    "T.promote_types(T.bfloat16, T.complex32)", "T.bfloat16.is_floating_point, T.bfloat16.is_signed",
    "T.tensor([1.0, 2.5, 1e5]).chalf()", "T.tensor([1+2j, 3.3-1j], dtype=T.complex32)",
    "T.tensor([1.5], dtype=T.float16) * T.tensor([1j], dtype=T.complex32)",
    "T.tensor([1+2j, 3-1j], dtype=T.chalf) * 2 - 1", "T.tensor([1+2j, 3-1j], dtype=T.chalf).exp()",
    "T.tensor([1+2j, 3-1j], dtype=T.chalf).sum()", "T.tensor([1+2j, 3-1j], dtype=T.chalf) / 2",
    "T.tensor([1+2j, 3-1j], dtype=T.chalf).abs()", "T.tensor([1+2j, 3-1j], dtype=T.chalf).angle()",
    "T.tensor([1+2j], dtype=T.chalf).floor()", "T.view_as_real(T.tensor([1+2j], dtype=T.chalf))",
    "T.ones(2, dtype=T.bfloat16).sum().dtype, T.ones(2, dtype=T.bfloat16).mean()",
    "T.ones(3, dtype=T.bfloat16).add_(0.001)", "T.tensor(1.1, dtype=T.bfloat16).mul(1.3).sqrt_()",
    "T.ones(3, dtype=T.bfloat16).mul_(T.tensor([1.1, 1.2, 1.3]))",
    "T.randn(4, dtype=T.bfloat16, generator=T.Generator().manual_seed(0))",
    "T.tensor([[1.5, 2.25], [3.125, -4.0625]], dtype=T.bfloat16).t().contiguous().stride()",
]


def _outcome(T, expr):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            text = repr(eval(expr, {"T": T}))  # noqa: S307 - the test's own expressions
        except Exception as e:  # noqa: BLE001 - the error is the outcome compared
            text = f"{type(e).__name__}: {e}"
    return text, [TRIGGERED.sub("", str(w.message)) for w in caught]


@pytest.mark.parametrize("expr", PRINTED)
def test_made_and_printed_as_torch(expr):
    T = load_engine()
    assert _outcome(T, expr)[0] == _outcome(torch, expr)[0]


def test_written_values_are_rounded_as_torch():
    T = load_engine()
    outs = []
    for M in (T, torch):
        x = M.zeros(4, dtype=M.bfloat16)
        x[1:3] = M.tensor([1.001, 2.003])
        y = M.empty(2, dtype=M.bfloat16)
        M.add(M.tensor([1.0, 2.0]), 0.0011, out=y)
        z = M.ones(2, dtype=M.bfloat16)
        z.copy_(M.tensor([3.0001, 0.3]))
        outs.append(repr((x, y, z)))
    assert outs[0] == outs[1]


def _bits(t):
    return t.detach().float().numpy().view(np.uint32)


def _pair(T, rng, *shape, positive=False):
    values = rng.standard_normal(shape).astype(np.float32)
    values = np.abs(values) + 0.1 if positive else values
    return torch.tensor(values).bfloat16(), T.tensor(values).bfloat16()


UNARY = ["exp", "log", "sqrt", "tanh", "sigmoid", "sin", "cos", "abs", "neg", "reciprocal", "relu", "erf",
         "log1p", "expm1", "square", "floor", "round", "atan", "sinh"]
BINARY = ["add", "sub", "mul", "div", "maximum", "pow", "atan2", "remainder"]
FUNCTIONAL = ["gelu", "silu", "softplus", "leaky_relu", "elu", "hardswish", "mish"]


def test_elementwise_ops_bit_for_bit():
    T = load_engine()
    rng = np.random.default_rng(0)
    a, ea = _pair(T, rng, 40, 30)
    p, ep = _pair(T, rng, 40, 30, positive=True)
    b, eb = _pair(T, rng, 40, 30)
    for name in UNARY:
        x, ex = (p, ep) if name in ("log", "sqrt", "reciprocal", "log1p") else (a, ea)
        got, want = getattr(ex, name)(), getattr(x, name)()
        assert got.dtype is T.bfloat16 and (_bits(got) == _bits(want)).all(), name
    for name in BINARY:
        x, ex = (p, ep) if name == "pow" else (a, ea)
        got, want = getattr(T, name)(ex, eb), getattr(torch, name)(x, b)
        assert (_bits(got) == _bits(want)).all(), name
    for name in FUNCTIONAL:
        got, want = getattr(T.nn.functional, name)(ea), getattr(torch.nn.functional, name)(a)
        assert (_bits(got) == _bits(want)).all(), name
    for expr in ("x * 0.1", "x + 1", "x / 3", "2 ** x", "x ** 2", "x.clamp(-0.5, 0.5)", "x.lerp(y, 0.3)",
                 "x.addcmul(y, y, value=0.5)", "x.where(x > 0, y)"):
        got, want = eval(expr, {"x": ea, "y": eb}), eval(expr, {"x": a, "y": b})  # noqa: S307
        assert (_bits(got) == _bits(want)).all(), expr


REDUCED = [
    "x.sum()", "x.sum(0)", "x.sum(1)", "x.mean()", "x.mean(1)", "x.var(1)", "x.std()", "x.norm()", "x.cumsum(1)",
    "x.max(1).values", "x.amin(0)", "x.softmax(1)", "F.layer_norm(x, (70,))", "x @ w", "T.mm(x, w)",
    "T.addmm(c, x, w)", "F.linear(x, w.t(), c[0])", "T.bmm(x.reshape(5, 10, 70), w[:, :6].expand(5, 70, 6))",
    "F.conv2d(x.reshape(2, 5, 5, 70)[..., :8], w.reshape(-1)[:360].reshape(4, 5, 3, 6))",
    "x.log_softmax(1)", "x.log_softmax(0)", "x.logsumexp(1)", "x[:, :9].prod(1)", "x.prod(0)",
    "F.group_norm(x.reshape(5, 10, 70), 5, c[0, :10], c[1, :10])",
    "F.cross_entropy(x, T.arange(50) % 70)", "F.cross_entropy(x[:20], T.arange(20) % 9, reduction='sum')",
    "F.scaled_dot_product_attention(x.reshape(2, 5, 5, 70), x.reshape(2, 5, 5, 70).flip(2), x.reshape(2, 5, 5, 70))",
    "F.scaled_dot_product_attention(x.reshape(5, 2, 5, 70), x.reshape(5, 2, 5, 70).flip(3), x.reshape(5, 2, 5, 70), "
    "is_causal=True)",
]


PRODUCTS = {"x @ w", "T.mm(x, w)", "T.addmm(c, x, w)", "F.linear(x, w.t(), c[0])",
            "T.bmm(x.reshape(5, 10, 70), w[:, :6].expand(5, 70, 6))"}


@pytest.mark.parametrize("expr", REDUCED)
def test_reductions_and_products_bit_for_bit(expr):
    """ATen's CPU kernels accumulate bfloat16 in float32 and round once, as the engine does."""
    T = load_engine()
    rng = np.random.default_rng(1)
    values = [rng.standard_normal(s).astype(np.float32) for s in ((50, 70), (70, 24), (50, 24))]
    got, want = (eval(expr, {"T": M, "F": M.nn.functional, **{k: M.tensor(v).bfloat16() for k, v in  # noqa: S307
                                                              zip("xwc", values)}})
                 for M in (T, torch))
    assert got.dtype is T.bfloat16 and got.shape == want.shape
    off = _bits(got).astype(np.int64) - _bits(want).astype(np.int64)
    if expr in PRODUCTS:  # BLAS's order of float32 sums may put a result on the other side of a rounding boundary
        assert (np.abs(off) <= 1 << 16).all() and (off != 0).mean() <= 0.01
    else:
        assert (off == 0).all()


def test_grads_of_bfloat16_leaves():
    T = load_engine()
    results = []
    for M in (T, torch):
        x = M.tensor([1.1, -2.2, 3.3, 0.5], dtype=M.bfloat16, requires_grad=True)
        w = M.tensor([[0.3, -0.7], [1.5, 0.25], [-1.0, 2.0], [0.1, 0.9]], requires_grad=True)
        y = ((x * x.exp()).sum() + (x @ w.bfloat16()).tanh().sum())
        y.backward()
        results.append((repr(y), repr(x.grad), repr(w.grad), x.grad.dtype, w.grad.dtype, y.grad_fn.name()))
    assert str(results[0]) == str(results[1])


AUTOCAST = [
    "x @ w", "T.mm(x, w)", "T.mv(x, w[:, 0])", "T.addmm(c, x, w)", "T.bmm(x[None], w[None])", "F.linear(x, w.t())",
    "T.einsum('ij,jk->ik', x, w)", "T.einsum('ij->ji', x)", "F.conv1d(x[None], w.t()[:, :3, None])",
    "F.scaled_dot_product_attention(x[None], x[None], x[None])", "F.softmax(x, -1)", "F.layer_norm(x, (5,))",
    "F.cross_entropy(x, T.tensor([0, 1, 2]))", "F.mse_loss(x, x * 2)", "x.prod()", "x.sum()", "T.cdist(x, x)",
    "F.pad(x[None], (1, 1), mode='reflect')", "F.pad(x[None], (1, 1))", "T.cat([x, x.double()])", "F.gelu(x)",
    "T.linalg.inv(x[:, :3] + 3 * T.eye(3))", "x.bfloat16() @ w.double()", "T.dot(x[0], x[1])",
]


@pytest.mark.parametrize("expr", AUTOCAST)
def test_autocast_casts_as_torch(expr):
    T = load_engine()
    rng = np.random.default_rng(2)
    values = [rng.standard_normal(s).astype(np.float32) for s in ((3, 5), (5, 4), (3, 4))]
    outcomes = []
    for M in (T, torch):
        env = {"T": M, "F": M.nn.functional, **{k: M.tensor(v) for k, v in zip("xwc", values)}}
        try:
            with M.autocast("cpu", dtype=M.bfloat16):
                got = eval(expr, env)  # noqa: S307 - the test's own expressions
        except RuntimeError as e:
            outcomes.append((str(e), None))
            continue
        outcomes.append((str(got.dtype), got.detach().float().numpy()))
    assert outcomes[0][0] == outcomes[1][0]
    if outcomes[0][0] == "torch.bfloat16":
        assert (outcomes[0][1].view(np.uint32) == outcomes[1][1].view(np.uint32)).all()
    elif outcomes[0][1] is not None:
        np.testing.assert_allclose(outcomes[0][1], outcomes[1][1], rtol=1e-5, atol=1e-6)


MODEL = """
torch.set_num_threads(1)  # (ATen sums a bfloat16 layer norm's weight grads per thread)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.LayerNorm(16), torch.nn.Linear(16, 4))
x = torch.randn(5, 8)
with torch.autocast("cpu"):
    out = model(x)
    loss = torch.nn.functional.mse_loss(out, torch.ones(5, 4))
print(out, loss, torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
loss.backward()
for name, p in model.named_parameters():
    print(name, p.grad.dtype, p.grad.shape)
print(model[0].weight.grad, model[3].weight.grad, model[2].weight.grad, model[2].bias.grad)
print([type(f).__name__ for f, _ in out.grad_fn.next_functions])
w = torch.randn(3, 3, requires_grad=True)
with torch.autocast("cpu"):
    a, b = x[:3, :3] @ w, x[:3, :3] @ w
    with torch.autocast("cpu", enabled=False):
        print((x[:3, :3] @ w).dtype)
print(a.grad_fn.next_functions[1][0] is b.grad_fn.next_functions[1][0])
with torch.autocast("cpu", dtype=torch.float32):
    print((x @ x.t()).dtype)
"""


def test_autocast_model_forward_and_backward_as_torch(capsys):
    T = load_engine()
    texts = []
    for M in (T, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            exec(MODEL, {"torch": M})  # noqa: S102 - the test's own program
        texts.append((capsys.readouterr().out, [TRIGGERED.sub("", str(w.message)) for w in caught]))
    assert texts[0] == texts[1]


RANDOM = """
for n in (3, 16, 20, 37):
    torch.manual_seed(0)
    print(torch.randn(n, dtype=torch.bfloat16), torch.rand(n, dtype=torch.bfloat16))
    x = torch.empty(n, dtype=torch.bfloat16).normal_(2, 3)
    print(x, torch.randn_like(x), torch.normal(0.0, 1.0, (n,), dtype=torch.bfloat16))
    print(torch.empty(n, dtype=torch.bfloat16).uniform_(-1, 1), torch.randn(3, 7, dtype=torch.bfloat16).t())
"""


def test_random_draws_as_torch(capsys):
    T = load_engine()
    texts = []
    for M in (T, torch):
        exec(RANDOM, {"torch": M})  # noqa: S102 - the test's own program
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1]


MIXED_GRADS = """
x = torch.tensor([1.1, 2.2], dtype=torch.bfloat16, requires_grad=True)
w = torch.tensor([0.3, 0.7], requires_grad=True)
(x * w).sum().backward()
m = torch.tensor([0.5, 0.25], requires_grad=True)
(m.bfloat16() * 3).float().mul(x).sum().backward()  # x.grad accumulated: the sum rounded to bfloat16
print(x.grad, w.grad, m.grad)
f = torch.tensor([0.3, 5.0, -7.5], dtype=torch.bfloat16, requires_grad=True)
f.frexp().mantissa.sum().backward()
print(f.grad)
a = torch.tensor([[1.1, 2.3, -0.7]], dtype=torch.bfloat16)
print(torch.addr(a[0], a[0], a[0] * 3, beta=0.3, alpha=1.7), torch.linalg.cross(a, a.flip(1)))
"""


def test_mixed_grads_and_kernels_as_torch(capsys):
    T = load_engine()
    texts = []
    for M in (T, torch):
        exec(MIXED_GRADS, {"torch": M})  # noqa: S102 - the test's own program
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1]


TRAINING = """
torch.manual_seed(0)
print(torch.cuda.is_bf16_supported())
m = torch.nn.Linear(3, 2).bfloat16()
opt = torch.optim.AdamW(m.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    m(torch.ones(1, 3, dtype=torch.bfloat16)).pow(2).sum().backward()
    opt.step()
print(m.weight, m.weight.grad, opt.state[m.weight]["exp_avg_sq"], m.to(dtype=torch.float32).bias)
e = torch.nn.Embedding(5, 3).to(torch.bfloat16)
x = torch.tensor([1.1, 2.2], dtype=torch.bfloat16)
print(e(torch.tensor([1, 2])), torch.cat([x, torch.tensor([0.1])]), torch.where(x > 2, x, 0.1), x.topk(1))
print(torch.arange(0, 1, 0.1, dtype=torch.bfloat16), torch.linspace(-1, 1, 9, dtype=torch.bfloat16))
"""


def test_training_step_as_torch(capsys):
    T = load_engine()
    texts = []
    for M in (T, torch):
        exec(TRAINING, {"torch": M})  # noqa: S102 - the test's own program
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1]
