"""The CTC loss (CtcLossBackward0): ATen's LossCTC.cpp on the CPU, the forward (alpha) and backward (beta)
recursions of Graves et al. in log space, in the input's float type, with its argument checks. Its backward has no
derivative in torch (NotImplemented)."""
import numpy as np

from ..kernels.libm import expf
from .table import Spelling, op


def _exp(x):
    """std::exp in the array's type: glibc's expf for float32."""
    return expf(x) if x.dtype == np.float32 else np.exp(x)


def _log(x):
    """std::log in the array's type: glibc's logf is correctly rounded."""
    return np.log(x.astype(np.float64)).astype(np.float32) if x.dtype == np.float32 else np.log(x)


def _primes(labels, lengths, blank):
    """target' of the paper, per batch element (padded with blanks to the longest): blanks between and around
    the labels."""
    primes = np.full((len(labels), 2 * max(lengths, default=0) + 1), blank, np.int64)
    for b, row in enumerate(labels):
        primes[b, 1:2 * len(row):2] = row
    return primes


def _logsumexp3(a, b, c):
    """ATen's log(exp(a − m) + exp(b − m) + exp(c − m)) + m, m the max (0 when all are −inf)."""
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == -np.inf, m.dtype.type(0), m)
    return _log(_exp(a - m) + _exp(b - m) + _exp(c - m)) + m


def _shifted(x, k):
    """x[..., s + k] (k > 0) or x[..., s − |k|] (k < 0) along the last dim, −inf where that is outside."""
    out = np.full_like(x, -np.inf)
    if k > 0:
        out[..., :x.shape[-1] - k] = x[..., k:]
    else:
        out[..., -k:] = x[..., :x.shape[-1] + k]
    return out


def ctc_forward(log_probs, labels, input_lengths, target_lengths, blank):
    """(neg_log_likelihood, log_alpha (B, T, S), target' (B, S)) of ATen's ctc_loss_cpu_template, all batch
    elements at once: each element's recursion runs only while t < its input length."""
    T, B, _ = log_probs.shape
    real = log_probs.dtype.type
    lp = np.swapaxes(log_probs, 0, 1)
    il, tl = np.array(input_lengths, np.int64), np.array(target_lengths, np.int64)
    primes = _primes(labels, target_lengths, blank)
    S = primes.shape[1]
    rows = np.arange(B)[:, None]
    emit = lp[rows, :, primes].transpose(0, 2, 1) if B else np.zeros((0, T, S), log_probs.dtype)  # (B, T, S)
    alpha = np.full((B, T, S), -np.inf, log_probs.dtype)
    if T:
        alpha[:, 0, 0] = emit[:, 0, 0]
        if S > 1:
            alpha[:, 0, 1] = np.where(tl > 0, emit[:, 0, 1], real(-np.inf))
    skip = np.zeros((B, S), bool)
    skip[:, 2:] = primes[:, :-2] != primes[:, 2:]
    for t in range(1, int(il.max(initial=0))):
        prev = alpha[:, t - 1]
        step = _logsumexp3(prev, _shifted(prev, -1), np.where(skip, _shifted(prev, -2), real(-np.inf))) + emit[:, t]
        alpha[:, t] = np.where((t < il)[:, None], step, alpha[:, t])
    nll = np.zeros(B, log_probs.dtype)
    for b in range(B):
        length, target_length = int(il[b]), int(tl[b])
        if length == 0:
            nll[b] = 0 if target_length == 0 else np.inf
        elif target_length == 0:
            nll[b] = -alpha[b, length - 1, 0]
        else:
            l1, l2 = alpha[b, length - 1, 2 * target_length], alpha[b, length - 1, 2 * target_length - 1]
            m = max(l1, l2)
            m = real(0) if m == -np.inf else m
            nll[b] = -(_log(_exp(l1 - m) + _exp(l2 - m)) + m)
    return nll, alpha, primes


def _ctc(log_probs, targets, labels, input_lengths, target_lengths, blank, zero_infinity):
    return ctc_forward(log_probs, labels, input_lengths, target_lengths, blank)[0]


def ctc_backward(grad_out, log_probs, targets, labels, input_lengths, target_lengths, blank, zero_infinity):
    """ATen's ctc_loss_backward_cpu_template: the betas, Σ_s alpha·beta per label (log-added in descending s, as
    there), then grad = (exp(lp) − exp(Σ + nll − lp)) · grad_out; zero past each input length."""
    nll, alpha, primes = ctc_forward(log_probs, labels, input_lengths, target_lengths, blank)
    real = log_probs.dtype.type
    T, B, C = log_probs.shape
    S = primes.shape[1]
    lp = np.swapaxes(log_probs, 0, 1)
    il, tl = np.array(input_lengths, np.int64), np.array(target_lengths, np.int64)
    rows = np.arange(B)[:, None]
    emit = lp[rows, :, primes].transpose(0, 2, 1) if B else np.zeros((0, T, S), log_probs.dtype)
    grad = np.full((B, T, C), -np.inf, log_probs.dtype)
    beta = np.full((B, T, S), -np.inf, log_probs.dtype)
    for b in range(B):
        length, n = int(il[b]), 2 * int(tl[b]) + 1
        if length > 0:
            beta[b, length - 1, n - 1] = lp[b, length - 1, blank]
            grad[b, length - 1, blank] = alpha[b, length - 1, n - 1] + beta[b, length - 1, n - 1]
            if n > 1:
                last = primes[b, n - 2]
                beta[b, length - 1, n - 2] = lp[b, length - 1, last]
                grad[b, length - 1, last] = alpha[b, length - 1, n - 2] + beta[b, length - 1, n - 2]
    s_idx = np.arange(S)[None, :]
    has2 = s_idx < 2 * tl[:, None]
    skip = np.zeros((B, S), bool)
    skip[:, :-2] = primes[:, 2:] != primes[:, :-2]
    skip &= s_idx < 2 * tl[:, None] - 1
    for t in range(int(il.max(initial=0)) - 2, -1, -1):
        nxt = beta[:, t + 1]
        lb2 = np.where(has2, _shifted(nxt, 1), real(-np.inf))
        lb3 = np.where(skip, _shifted(nxt, 2), real(-np.inf))
        step = _logsumexp3(nxt, lb2, lb3) + emit[:, t]
        beta[:, t] = np.where((t < il - 1)[:, None] & (s_idx < 2 * tl[:, None] + 1), step, beta[:, t])
    steps = np.arange(T)[None, :]
    inner = steps < (il - 1)[:, None]
    for s in range(S - 1, -1, -1):
        live = inner & (s < 2 * tl + 1)[:, None]
        if not live.any():
            continue
        lab = alpha[:, :, s] + beta[:, :, s]
        char = primes[:, s][:, None]
        cur = grad[rows, steps, char]
        m = np.maximum(cur, lab)
        added = _log(_exp(cur - m) + _exp(lab - m)) + m
        grad[rows, steps, char] = np.where(live, np.where(cur == -np.inf, lab, added), cur)
    valid = (steps < il[:, None])[..., None]
    done = (_exp(lp) - _exp(grad + nll[:, None, None] - lp)) * np.asarray(grad_out, log_probs.dtype)[:, None, None]
    grad = np.where(valid, done, real(0))
    if zero_infinity:
        grad = np.where((nll == np.inf)[:, None, None], real(0), grad)
    return np.ascontiguousarray(np.swapaxes(grad, 0, 1))


def _not_implemented(n, g):
    raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")


def _attrs(n):
    a = n.attrs
    return {k: a[k] for k in ("targets", "labels", "input_lengths", "target_lengths", "blank", "zero_infinity")}


op("ctc_loss", "CtcLossBackward0", ("log_probs",), _ctc,
   ("grad · (exp(log_probs) − Σ_s alpha·beta / (likelihood · probs)), from the forward–backward recursions",
    lambda n, g: g._op("ctc_loss_backward", n["log_probs"], **_attrs(n))),
   saves={0: ("log_probs", "targets", "input_lengths[]", "target_lengths[]", "blank", "zero_infinity")},
   bind=False, spell=Spelling(name="torch._ctc_loss({0}, …)[0]"))
op("ctc_loss_backward", "NotImplemented", ("grad", "log_probs"), ctc_backward,
   ("not implemented", _not_implemented), ("not implemented", _not_implemented))
