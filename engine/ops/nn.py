"""nn.functional's ops: softmax and log_softmax, and the losses with nodes of their own (nll, mse, bce)."""
import warnings

import numpy as np

from .. import kernels
from .rounding import EXP, LOG
from .table import OPS, Spelling, op


def _softmax(a, dim):
    if a.dtype == np.float32:
        return kernels.softmax(a, dim)
    e = EXP(a - np.max(a, axis=dim, keepdims=True))
    return e * (1 / np.sum(e, axis=dim, keepdims=True))


def _log_softmax(a, dim):
    if a.dtype == np.float32:
        return kernels.log_softmax(a, dim)
    s = a - np.max(a, axis=dim, keepdims=True)
    return s - LOG(np.sum(EXP(s), axis=dim, keepdims=True))


def _softmax_bind(name):
    def bind(input, dim, dtype=None):  # noqa: A002
        x = input if dtype is None else input.to(dtype)
        return OPS[name], (x,), {"dim": x._dim(dim)}, None

    return bind


def implicit_dim(name, input, dim):  # noqa: A002
    """F.softmax(x) without dim: PyTorch's deprecated guess, with its warning (at the caller's caller)."""
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                      "dim=X as an argument.", UserWarning, stacklevel=3)
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return dim


op("softmax", "SoftmaxBackward0", ("self",), _softmax,
   ("result · (grad − Σ grad·result)",
    lambda n, g: n["result"] * (g - (g * n["result"]).sum(n.attrs["dim"], keepdim=True))),
   saves={0: ("result",)},
   spell=Spelling(method="softmax", function="softmax"), bind=_softmax_bind("softmax"))
op("log_softmax", "LogSoftmaxBackward0", ("self",), _log_softmax,
   ("grad − exp(result) · Σ grad",
    lambda n, g: g - n["result"].exp() * g.sum(n.attrs["dim"], keepdim=True)),
   saves={0: ("result",)},
   spell=Spelling(method="log_softmax", function="log_softmax"), bind=_softmax_bind("log_softmax"))


# --- nll_loss ------------------------------------------------------------------------------------------
def _nll(a, target, reduction, weight_sum):
    if a.dtype == np.float32:
        return kernels.nll_loss(a, target, reduction=reduction)
    picked = -a[np.arange(a.shape[0]), target] if a.ndim == 2 else -a[target]
    if reduction == "none":
        return picked
    if reduction == "sum":
        return np.sum(picked)
    return np.sum(picked) / np.asarray(weight_sum, dtype=a.dtype)


def _nll_back(n, g):
    a = n.attrs
    scale = g if a["reduction"] != "mean" else g / a["weight_sum"]
    return (-scale)._op("nll_embed", shape=n._shapes[0], target=a["target"])


def _nll_embed_fwd(g, shape, target):
    out = np.zeros(shape, dtype=g.dtype)
    if len(shape) == 2:
        out[np.arange(shape[0]), target] = g
    else:
        out[target] = g
    return out


def _nll_take(n, g):
    t = n.attrs["target"]
    key = (np.arange(len(t)), t) if len(n.attrs["shape"]) == 2 else (t,)
    return g._op("index", key=key)


def _bind_nll(input, target, reduction="mean"):  # noqa: A002
    if not hasattr(target, "_data") or target.dtype.is_floating_point:
        got = target.dtype.type_name if hasattr(target, "_data") else type(target).__name__
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {got}")
    t = target._data
    n_classes = input.shape[-1] if input.dim() else 0
    if t.size and (t.min() < 0 or t.max() >= n_classes):
        raise IndexError(f"Target {int(t.max() if t.max() >= n_classes else t.min())} is out of bounds.")
    if input.dim() == 2 and t.shape[0] != input.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({t.shape[0]}).")
    weight_sum = t.shape[0] if input.dim() == 2 else 1
    return OPS["nll_loss"], (input,), {"target": t, "reduction": reduction, "weight_sum": weight_sum}, None


op("nll_loss", "NllLossBackward0", ("self",), _nll, ("−grad / N at each target", _nll_back),
   spell=Spelling(functional="nll_loss"), bind=_bind_nll)
op("nll_embed", "NllLossBackwardBackward0", ("grad",), _nll_embed_fwd, ("grad at each target", _nll_take))


# --- mse_loss, binary_cross_entropy -------------------------------------------------------------------
def _mse(a, b, reduction):
    return kernels.mse_loss(a, b, reduction)


def _mse_back(n, g, sign):
    d = n["self"] - n["target"]
    if n.attrs["reduction"] == "mean":
        g = g / d.numel()
    return d * g * (2 * sign)


def _bind_mse(input, target, reduction="mean"):  # noqa: A002
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
            "same size.", UserWarning, stacklevel=3)
        try:
            np.broadcast_shapes(input.shape, target.shape)
        except ValueError:
            raise RuntimeError(
                f"The size of tensor a ({input.shape[-1]}) must match the size of tensor b "
                f"({target.shape[-1]}) at non-singleton dimension {input.dim() - 1}") from None
    return OPS["mse_loss"], (input, target), {"reduction": reduction}, None


op("mse_loss", "MseLossBackward0", ("self", "target"), _mse,
   ("2 · (self − target) · grad / N", lambda n, g: _mse_back(n, g, 1)),
   ("−2 · (self − target) · grad / N", lambda n, g: _mse_back(n, g, -1)),
   saves={0: ("self", "target"), 1: ("self", "target")}, spell=Spelling(functional="mse_loss"), bind=_bind_mse)


def _bce(x, t, reduction):
    log_x = np.maximum(LOG(x), -100)
    log_1mx = np.maximum(LOG(1 - x), -100)
    loss = -(t * log_x + (1 - t) * log_1mx)
    if reduction == "none":
        return loss
    return np.sum(loss) if reduction == "sum" else np.mean(loss)


def _bce_grad(n, g):
    x, t = n["self"], n["target"]
    if n.attrs["reduction"] == "mean":
        g = g / x.numel()
    return g * (x - t) / ((x * (1 - x)).clamp(min=1e-12))


def _bce_target_grad(n, g):
    x = n["self"]
    if n.attrs["reduction"] == "mean":
        g = g / x.numel()
    return g * ((1 - x).log() - x.log())


def _bind_bce(input, target, reduction="mean"):  # noqa: A002
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
            "deprecated. Please ensure they have the same size.")
    return OPS["binary_cross_entropy"], (input, target), {"reduction": reduction}, None


op("binary_cross_entropy", "BinaryCrossEntropyBackward0", ("self", "target"), _bce,
   ("(self − target) / (self · (1 − self)) · grad / N", _bce_grad),
   ("−log(self / (1 − self)) · grad / N", _bce_target_grad),
   saves={0: ("self", "target"), 1: ("self",)},
   spell=Spelling(functional="binary_cross_entropy"), bind=_bind_bce)
