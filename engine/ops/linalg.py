"""Matrix products: mm, mv, dot, bmm, addmm, and matmul/outer built from them."""
import numpy as np

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


def _bind_addmm(bias, a, b):
    _check_mm(a, b)
    _same_dtype(a, b, "addmm")
    return OPS["addmm"], (bias, a, b), None, None


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


def _bind_dot(a, b):
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to have the "
            f"same number of elements, but got {a.shape[0]} and {b.shape[0]} elements respectively")
    return OPS["dot"], (a, b), None, None


op("mm", "MmBackward0", ("self", "mat2"), np.matmul,
   ("grad @ mat2ᵀ", lambda n, g: g.mm(n["mat2"].t())),
   ("selfᵀ @ grad", lambda n, g: n["self"].t().mm(g)),
   saves={0: ("mat2", "self_sym_sizes", "self_sym_strides"), 1: ("self", "mat2_sym_sizes", "mat2_sym_strides")},
   spell=Spelling(method="mm", function="mm", infix="@"), bind=_bind_mm)
op("mv", "MvBackward0", ("self", "vec"), np.matmul,
   ("grad ⊗ vec", lambda n, g: g.unsqueeze(1) * n["vec"].unsqueeze(0)),
   ("selfᵀ @ grad", lambda n, g: n["self"].t().mv(g)),
   saves={0: ("vec",), 1: ("self",)}, spell=Spelling(method="mv", function="mv", infix="@"), bind=_bind_mv)
op("dot", "DotBackward0", ("self", "tensor"), lambda a, b: np.dot(a, b) + 0,  # BLAS sums from +0
   ("tensor · grad", lambda n, g: g * n["tensor"]),
   ("self · grad", lambda n, g: g * n["self"]),
   saves={0: ("tensor",), 1: ("self",)}, spell=method("dot"), bind=_bind_dot)
op("bmm", "BmmBackward0", ("self", "mat2"), np.matmul,
   ("grad @ mat2ᵀ", lambda n, g: g.bmm(n["mat2"].transpose(1, 2))),
   ("selfᵀ @ grad", lambda n, g: n["self"].transpose(1, 2).bmm(g)),
   saves={0: ("mat2",), 1: ("self",)}, spell=Spelling(method="bmm", function="bmm", infix="@"), bind=_bind_bmm)
op("addmm", "AddmmBackward0", ("self", "mat1", "mat2"), lambda b, m1, m2, beta=1, alpha=1: b + m1 @ m2,
   ("grad", lambda n, g: g),
   ("grad @ mat2ᵀ", lambda n, g: g.mm(n["mat2"].t())),
   ("mat1ᵀ @ grad", lambda n, g: n["mat1"].t().mm(g)),
   saves={0: ("alpha", "beta"), 1: ("mat2", "mat1_sym_sizes", "mat1_sym_strides"),
          2: ("mat1", "mat2_sym_sizes", "mat2_sym_strides")}, spell=method("addmm"), bind=_bind_addmm)


def _bind_baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    target = (batch1.shape[0] if batch1.dim() else 1, batch1.shape[1] if batch1.dim() > 1 else 1,
              batch2.shape[2] if batch2.dim() > 2 else 1)
    self.expand(target)  # torch expands self to the product's size first (and its error says why not)
    _bind_bmm(batch1, batch2)
    inputs = (self, batch1, batch2)
    return OPS["baddbmm"], inputs, {"beta": beta, "alpha": alpha}, result_dtype(inputs)


def _times(x, k):
    return x if k == 1 else x * k


def _baddbmm(c, a, b, beta=1, alpha=1):
    product = np.matmul(a, b)
    product = product if alpha == 1 else product * a.dtype.type(alpha)
    if beta == 0:
        return product
    return (c if beta == 1 else c * c.dtype.type(beta)) + product


op("baddbmm", "BaddbmmBackward0", ("self", "batch1", "batch2"), _baddbmm,
   ("β · grad", lambda n, g: _times(g, n.attrs["beta"])),
   ("α · grad @ batch2ᵀ", lambda n, g: _times(g.bmm(n["batch2"].transpose(1, 2)), n.attrs["alpha"])),
   ("α · batch1ᵀ @ grad", lambda n, g: _times(n["batch1"].transpose(1, 2).bmm(g), n.attrs["alpha"])),
   saves={0: ("beta",), 1: ("batch2", "alpha"), 2: ("batch1", "alpha")}, spell=method("baddbmm"),
   bind=_bind_baddbmm)


@composite(Spelling(method="matmul", function="matmul", infix="@"))
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
    if db <= 2:
        # (…, n, k) @ (k, m): fold the batch into rows, as PyTorch does
        folded = a.reshape(-1, a.shape[-1])
        out = folded.mv(b) if db == 1 else folded.mm(b)
        return out._op("unsafe_view", shape=a.shape[:-1] + ((b.shape[1],) if db == 2 else ()))
    # batched @ batched: broadcast the batch dims, then bmm
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    a3 = a2.expand(batch + a2.shape[-2:]).reshape(-1, *a2.shape[-2:])
    b3 = b2.expand(batch + b2.shape[-2:]).reshape(-1, *b2.shape[-2:])
    shape = batch + ((a2.shape[-2],) if da > 1 else ()) + ((b2.shape[-1],) if db > 1 else ())
    return a3.bmm(b3)._op("unsafe_view", shape=shape)


@composite(Spelling(rinfix="@"))
def rmatmul(self, other):
    return matmul(other, self)


@composite(Spelling(method=("outer", "ger"), function=("outer", "ger")))
def outer(self, vec2):
    return self.reshape(-1, 1) * vec2
