"""Matrix products: mm, mv, dot, bmm, addmm, and matmul/outer built from them."""
import numpy as np

from ..kernels import exact
from .table import OPS, Spelling, composite, method, op, result_dtype


def _same_dtype(a, b, style):
    if a.dtype is not b.dtype:
        if style == "mm":
            raise RuntimeError(
                f"expected m1 and m2 to have the same dtype, but got: {a.dtype.c_name} != {b.dtype.c_name}")
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {a.dtype.type_name} and {b.dtype.type_name}")


def _check_mm(a, b):
    if a.dim() != 2:
        raise RuntimeError("self must be a matrix")
    if b.dim() != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")


def _bind_mm(a, b):
    _check_mm(a, b)
    _same_dtype(a, b, "mm")
    return OPS["mm"], (a, b), None, None


def _self_like_mat2(self, mat2):
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {self.dtype.type_name} and "
                           f"{mat2.dtype.type_name}")


def _bind_addmm(bias, a, b, *, beta=1, alpha=1):
    _check_mm(a, b)
    _self_like_mat2(bias, b)
    _same_dtype(a, b, "addmm")
    return OPS["addmm"], (bias, a, b), None if beta == 1 and alpha == 1 else {"beta": beta, "alpha": alpha}, None


def _addmm(b, m1, m2, beta=1, alpha=1):
    product = exact.matmul(m1, m2)
    if beta == 1 and alpha == 1:
        return b + product
    product = product if alpha == 1 else product * m1.dtype.type(alpha)
    return product + (0 if beta == 0 else b if beta == 1 else b * b.dtype.type(beta))


def _bind_bmm(a, b):
    if a.dim() != 3 or b.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if a.dim() != 3 else "batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, {a.shape[2]}] "
            f"but got: [{b.shape[0]}, {b.shape[1]}].")
    _same_dtype(a, b, "mm")
    return OPS["bmm"], (a, b), None, None


def _bind_mv(a, v):
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), vec ({v.shape[0]})")
    _same_dtype(a, v, "mm")
    return OPS["mv"], (a, v), None, None


def dot_check(a, b):
    """ATen's dot_check, shared by dot and vdot: dims, then dtypes, then sizes."""
    if a.dim() != 1 or b.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.dim()}D and {b.dim()}D tensors")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {a.dtype.type_name} and "
                           f"{b.dtype.type_name}")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to have the "
            f"same number of elements, but got {a.shape[0]} and {b.shape[0]} elements respectively")


def _bind_dot(a, b):
    dot_check(a, b)
    return OPS["dot"], (a, b), None, None


def _column_major(n, name):
    """Whether input `name` of the node was a column-major matrix (its strides kept as `<name>_sym_strides`)."""
    sizes, strides = n._shapes[n._op.args.index(name)], (n._meta or {}).get(name + "_sym_strides", ())
    return len(strides) == 2 and strides[0] == 1 and strides[1] == sizes[0]


def _mat1_grad(n, g, mat1, mat2):
    """ATen's mm_mat1_backward: grad @ mat2ᵀ, made column-major, (mat2 @ gradᵀ)ᵀ, when mat1 was."""
    if _column_major(n, mat1):
        return n[mat2].mm(g.t()).t()
    return g.mm(n[mat2].t())


def _mat2_grad(n, g, mat1, mat2):
    """ATen's mm_mat2_backward: mat1ᵀ @ grad, made column-major, (gradᵀ @ mat1)ᵀ, when mat2 was (a weight.t(), as
    nn.Linear passes it, so that the weight's grad is contiguous)."""
    if _column_major(n, mat2):
        return g.t().mm(n[mat1]).t()
    return n[mat1].t().mm(g)


op("mm", "MmBackward0", ("self", "mat2"), exact.matmul,
   ("grad @ mat2ᵀ", lambda n, g: _mat1_grad(n, g, "self", "mat2")),
   ("selfᵀ @ grad", lambda n, g: _mat2_grad(n, g, "self", "mat2")),
   saves={0: ("mat2", "self_sym_sizes", "self_sym_strides"), 1: ("self", "mat2_sym_sizes", "mat2_sym_strides")},
   spell=Spelling(method="mm", function="mm", infix="@"), bind=_bind_mm)
op("mv", "MvBackward0", ("self", "vec"), exact.matmul,
   ("grad ⊗ vec", lambda n, g: g.reshape(g.shape[0], 1) * n["vec"]),  # ATen's ger: self.reshape(-1, 1) * vec2
   ("selfᵀ @ grad", lambda n, g: n["self"].t().mv(g)),
   saves={0: ("vec",), 1: ("self",)}, spell=Spelling(method="mv", function="mv", infix="@"), bind=_bind_mv)
op("dot", "DotBackward0", ("self", "tensor"), lambda a, b: exact.matmul(a, b) + 0,  # BLAS sums from +0
   ("tensor · grad", lambda n, g: g * n["tensor"]),
   ("self · grad", lambda n, g: g * n["self"]),
   saves={0: ("tensor",), 1: ("self",)}, spell=method("dot"), bind=_bind_dot)
op("bmm", "BmmBackward0", ("self", "mat2"), exact.matmul,
   ("grad @ mat2ᵀ", lambda n, g: g.bmm(n["mat2"].transpose(1, 2))),
   ("selfᵀ @ grad", lambda n, g: n["self"].transpose(1, 2).bmm(g)),
   saves={0: ("mat2",), 1: ("self",)}, spell=Spelling(method="bmm", function="bmm", infix="@"), bind=_bind_bmm)
op("addmm", "AddmmBackward0", ("self", "mat1", "mat2"), _addmm,
   ("β · grad", lambda n, g: _summed_to(_times(g, n.attrs.get("beta", 1)), n._shapes[0])),
   ("α · grad @ mat2ᵀ", lambda n, g: _times(_mat1_grad(n, g, "mat1", "mat2"), n.attrs.get("alpha", 1))),
   ("α · mat1ᵀ @ grad", lambda n, g: _times(_mat2_grad(n, g, "mat1", "mat2"), n.attrs.get("alpha", 1))),
   saves={0: ("alpha", "beta"), 1: ("mat2", "mat1_sym_sizes", "mat1_sym_strides"),
          2: ("mat1", "mat2_sym_sizes", "mat2_sym_strides")},
   spell=method("addmm", inplace=True, inplace_sizes=True), bind=_bind_addmm)


def _bind_baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    target = (batch1.shape[0] if batch1.dim() else 1, batch1.shape[1] if batch1.dim() > 1 else 1,
              batch2.shape[2] if batch2.dim() > 2 else 1)
    self.expand(target)  # torch expands self to the product's size first (and its error says why not)
    if not self.dtype is batch1.dtype is batch2.dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input {self.dtype.c_name}, batch1: "
                           f"{batch1.dtype.c_name}, batch2: {batch2.dtype.c_name}")
    _bind_bmm(batch1, batch2)
    inputs = (self, batch1, batch2)
    return OPS["baddbmm"], inputs, {"beta": beta, "alpha": alpha}, result_dtype(inputs)


def _times(x, k):
    return x if k == 1 else x * k


def _summed_to(t, shape):
    return t if tuple(t.shape) == tuple(shape) else t.sum_to_size(shape)


def _baddbmm(c, a, b, beta=1, alpha=1):
    product = exact.matmul(a, b)
    product = product if alpha == 1 else product * a.dtype.type(alpha)
    if beta == 0:
        return product
    return (c if beta == 1 else c * c.dtype.type(beta)) + product


op("baddbmm", "BaddbmmBackward0", ("self", "batch1", "batch2"), _baddbmm,
   ("β · grad", lambda n, g: _times(g, n.attrs["beta"])),
   ("α · grad @ batch2ᵀ", lambda n, g: _times(g.bmm(n["batch2"].transpose(1, 2)), n.attrs["alpha"])),
   ("α · batch1ᵀ @ grad", lambda n, g: _times(n["batch1"].transpose(1, 2).bmm(g), n.attrs["alpha"])),
   saves={0: ("beta",), 1: ("batch2", "alpha"), 2: ("batch1", "alpha")},
   spell=method("baddbmm", inplace=True, inplace_sizes=True),
   bind=_bind_baddbmm)


@composite(Spelling(method="matmul", function="matmul", linalg="matmul", infix="@"))
def matmul(self, other):
    """PyTorch's matmul: dot, mv, mm or bmm by the inputs' dims, batch dims folded or broadcast."""
    a, b = self, other
    da, db = a.dim(), b.dim()
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return a.dot(b)
    if da == 2 and db == 1:
        return a.mv(b)
    if da == 1 and db == 2:
        return a.unsqueeze(0).mm(b)._op("squeeze_", dim=0)
    if da == 2 and db == 2:
        return a.mm(b)
    if da == 3 and db == 3 and a.shape[0] != b.shape[0] and 1 in (a.shape[0], b.shape[0]):
        # a batch of one against a batch of several: ATen drops the batch of one and folds
        return matmul(a.squeeze(0), b) if a.shape[0] == 1 else matmul(a, b.squeeze(0))
    if da <= 2 and a.requires_grad:
        # (n, k) @ (…, k, m) with a needing grad: ATen's should_fold folds the transposed batch of b into rows
        t1 = b.mT
        folded = t1.reshape(int(np.prod(t1.shape[:-1])), t1.shape[-1])
        if da == 1:
            return folded.mv(a)._op("unsafe_view", shape=t1.shape[:-1])
        out = folded.mm(a.t())._op("unsafe_view", shape=t1.shape[:-1] + (a.shape[0],))
        return out.mT.contiguous()
    if db <= 2:
        # (…, n, k) @ (k, m): fold the batch into rows, as PyTorch does
        folded = a.reshape(int(np.prod(a.shape[:-1])), a.shape[-1])
        out = folded.mv(b) if db == 1 else folded.mm(b)
        return out._op("unsafe_view", shape=a.shape[:-1] + ((b.shape[1],) if db == 2 else ()))
    # batched @ batched: broadcast the batch dims, then bmm
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    k = int(np.prod(batch))
    a3 = a2.expand(batch + a2.shape[-2:]).reshape(k, *a2.shape[-2:])
    b3 = b2.expand(batch + b2.shape[-2:]).reshape(k, *b2.shape[-2:])
    shape = batch + ((a2.shape[-2],) if da > 1 else ()) + ((b2.shape[-1],) if db > 1 else ())
    return a3.bmm(b3)._op("unsafe_view", shape=shape)


@composite(Spelling(rinfix="@"))
def rmatmul(self, other):
    return matmul(other, self)


@composite(Spelling(method=("outer", "ger"), function=("outer", "ger")))
def outer(self, vec2):
    for name, t in (("self", self), ("vec2", vec2)):
        if hasattr(t, "_data") and t.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.dim()}-D")
    return self.reshape(-1, 1) * vec2


# --- pairwise distances ----------------------------------------------------------------------------------
def _cdist(x1, x2, p):
    """‖x1ᵢ − x2ⱼ‖_p for every pair of rows (the batch dims broadcast), each sum over the columns in order."""
    diff = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 0:
        return (diff != 0).sum(-1).astype(x1.dtype)
    if p == float("inf"):
        return diff.max(-1, initial=0)
    t = x1.dtype.type
    powered = diff if p == 1 else diff * diff if p == 2 else diff ** t(p)
    total = np.cumsum(powered, axis=-1, dtype=x1.dtype)[..., -1] if powered.shape[-1] else powered.sum(-1)
    return np.ascontiguousarray(total) if p == 1 else np.sqrt(total) if p == 2 else total ** t(1 / p)


def _cdist_grad(g, x1, x2, dist, p):
    """ATen's _cdist_backward: Σⱼ grad · ∂‖x1ᵢ − x2ⱼ‖_p / ∂x1ᵢ (0 where the distance is 0)."""
    diff = x1[..., :, None, :] - x2[..., None, :, :]
    d = dist[..., None]
    with np.errstate(all="ignore"):
        if p == 0:
            term = np.zeros_like(diff)
        elif p == 1:
            term = np.sign(diff)
        elif p == float("inf"):
            term = np.sign(diff) * (np.abs(diff) == d)
        elif p < 2:
            term = np.sign(diff) * np.abs(diff) ** (p - 1) / d ** (p - 1)
        elif p == 2:
            term = diff / d
        else:
            term = diff * np.abs(diff) ** (p - 2) / d ** (p - 1)
    term = np.where(d == 0, 0, term).astype(diff.dtype)
    return (g[..., None] * term).sum(-2)


def _number(p):
    return "float('inf')" if p == float("inf") else repr(p)


def _no_second(n, g):
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


op("cdist_backward", "CdistBackwardBackward0", ("grad", "x1", "x2", "cdist"),
   lambda g, x1, x2, dist, p: _cdist_grad(g, x1, x2, dist, p),
   ("not implemented", _no_second), ("not implemented", _no_second), ("not implemented", _no_second),
   ("not implemented", _no_second), bind=False)


def _cdist_x1_grad(n, g):
    return g.contiguous()._op("cdist_backward", n["x1"], n["x2"], n["result"], p=n.attrs["p"])


def _cdist_x2_grad(n, g):
    return g.mT.contiguous()._op("cdist_backward", n["x2"], n["x1"], n["result"].mT.contiguous(), p=n.attrs["p"])


op("cdist", "CdistBackward0", ("x1", "x2"), _cdist,
   ("Σⱼ grad · ∂‖x1ᵢ − x2ⱼ‖_p/∂x1ᵢ", _cdist_x1_grad), ("Σᵢ grad · ∂‖x2ⱼ − x1ᵢ‖_p/∂x2ⱼ", _cdist_x2_grad),
   saves={0: ("x1", "x2", "result", "p"), 1: ("x1", "x2", "result", "p")}, bind=False,
   spell=Spelling(function="cdist", out=False, name=lambda s, a: f"cdist({s[0]}, {s[1]}, p={_number(a['p'])})"))


def _euclidean_dist(x1, x2):
    """ATen's _euclidean_dist: [−2·x1, ‖x1‖², 1] @ [x2, 1, ‖x2‖²]ᵀ, clamped at 0, square-rooted."""
    n1, n2 = (x1 * x1).sum(-1, keepdims=True), (x2 * x2).sum(-1, keepdims=True)
    a = np.concatenate([x1 * x1.dtype.type(-2), n1, np.ones_like(n1)], -1)
    b = np.concatenate([x2, np.ones_like(n2), n2], -1)
    return np.sqrt(np.maximum(exact.matmul(a, np.swapaxes(b, -1, -2)), 0))


def _euclidean_ratio(n, g):
    res = n["result"]
    return (g / res).masked_fill(res == 0, 0.0)


op("euclidean_dist", "EuclideanDistBackward0", ("x1", "x2"), _euclidean_dist,
   ("x1 · Σⱼ r − r @ x2, r = grad / result",
    lambda n, g: n["x1"] * _euclidean_ratio(n, g).sum(-1, keepdim=True) - _euclidean_ratio(n, g).matmul(n["x2"])),
   ("x2 · Σᵢ r − rᵀ @ x1",
    lambda n, g: n["x2"] * _euclidean_ratio(n, g).sum(-2).unsqueeze(-1)
    - _euclidean_ratio(n, g).transpose(-1, -2).matmul(n["x1"])),
   saves={0: ("x1", "x2", "result"), 1: ("x1", "x2", "result")}, bind=False,
   spell=Spelling(name="torch._euclidean_dist({0}, {1})"))


@composite(Spelling(function="cdist", out=False))
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """torch.cdist: ATen's _cdist_forward (CdistBackward0), or for p = 2 with more than 25 rows on a side the
    matrix-product form (EuclideanDistBackward0), as at::cdist picks."""
    if x1.dim() < 2 or x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X{1 if x1.dim() < 2 else 2} got: "
                           f"{min(x1.dim(), x2.dim()) if x1.dim() < 2 else x2.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: "
                           f"{x2.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype.type_name} but found {x2.dtype.type_name}")
    modes = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
             "donot_use_mm_for_euclid_dist": 2}
    if compute_mode not in modes:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = modes[compute_mode]
    r1, r2 = x1.shape[-2], x2.shape[-2]
    if p == 2 and x1.numel() and x2.numel() and (mode == 1 or mode == 0 and (r1 > 25 or r2 > 25)):
        return _euclidean(x1, x2)
    return x1._apply(OPS["cdist"], (x1, x2), {"p": float(p)}, result_dtype((x1, x2)))


def _euclidean(x1, x2):
    """ATen's cdist_impl: the batch dims broadcast (expanded, made contiguous, folded into one), then
    _euclidean_dist, viewed back to the output's shape."""
    from_batch = tuple(np.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2])))
    out_shape = from_batch + (x1.shape[-2], x2.shape[-2])
    k = int(np.prod(from_batch)) if from_batch else 1
    if k != 1:
        x1 = x1.expand(*from_batch, *x1.shape[-2:]).contiguous().view(k, *x1.shape[-2:])
        x2 = x2.expand(*from_batch, *x2.shape[-2:]).contiguous().view(k, *x2.shape[-2:])
    return x1._apply(OPS["euclidean_dist"], (x1, x2), None, result_dtype((x1, x2))).view(*out_shape)
