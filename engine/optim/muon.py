"""torch.optim.Muon: torch/optim/_muon.py's _single_tensor_muon. The update is the momentum-averaged grad
orthogonalised by a quintic Newton–Schulz iteration, which torch runs in bfloat16: here each bfloat16 op is
computed in float64 from bfloat16 values and rounded to bfloat16 (nearest, ties to even) once, as torch's CPU
kernels accumulate in float32 and round the result. torch's matmul accumulation order is not replayed, so a result
that lands near a rounding boundary can differ by one bfloat16 step."""
import math

import numpy as np

from ..factories import from_numpy, zeros_like
from . import rules
from .optimizer import Optimizer, _one_step, check_number, scalar

EPS = 1e-7
DEFAULT_A, DEFAULT_B, DEFAULT_C = 3.4445, -4.7750, 2.0315
DEFAULT_NS_STEPS = 5


def bfloat16(a):
    """float values rounded to bfloat16 (kept as float32), nearest, ties to even; nan stays nan."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    bits = a.view(np.uint32)
    rounded = ((bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000))
    return np.where(np.isnan(a), a, rounded.view(np.float32))


def _zeropower_via_newtonschulz(grad, ns_coefficients, ns_steps, eps):
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if grad.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    x = bfloat16(grad).astype(np.float64)
    tall = grad.shape[0] > grad.shape[1]
    if tall:
        x = x.T
    norm = bfloat16(np.sqrt(np.sum(x * x)))
    norm = np.maximum(norm, bfloat16(np.float32(eps)))
    x = bfloat16(x / norm).astype(np.float64)
    for _ in range(ns_steps):
        gram = bfloat16(x @ x.T).astype(np.float64)
        gram_update = bfloat16(b * gram + c * (gram @ gram)).astype(np.float64)
        x = bfloat16(a * x + gram_update @ x).astype(np.float64)
    return (x.T if tall else x).astype(np.float32)


def _adjust_lr(lr, adjust_lr_fn, param_shape):
    rows, cols = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        adjusted_ratio = math.sqrt(max(1, rows / cols))
    elif adjust_lr_fn == "match_rms_adamw":
        adjusted_ratio = 0.2 * math.sqrt(max(rows, cols))
    else:
        adjusted_ratio = 1.0
    return lr * adjusted_ratio


class Muon(Optimizer):
    _rule = staticmethod(rules.muon)

    def __init__(self, params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                 ns_coefficients=(DEFAULT_A, DEFAULT_B, DEFAULT_C), eps=EPS, ns_steps=DEFAULT_NS_STEPS,
                 adjust_lr_fn=None):
        check_number("lr", lr, tensor_ok=True)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ["original", "match_rms_adamw"]:
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum, "nesterov": nesterov,
                    "ns_coefficients": ns_coefficients, "eps": eps, "ns_steps": ns_steps,
                    "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a parameter with size: "
                                     f"{p.size()}")

    @_one_step
    def step(self):
        updated = []
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = zeros_like(p.grad)
                _single_tensor_muon(p, state["momentum_buffer"], group)
                updated.append(p)
        return updated


def _single_tensor_muon(param, buf, group):
    lr, weight_decay, momentum = group["lr"], group["weight_decay"], group["momentum"]
    grad = param.grad
    if grad.ndim != 2:
        raise ValueError("Param gradient must be a 2D matrix")
    buf.lerp_(grad, 1 - momentum)
    update = grad.lerp(buf, momentum) if group["nesterov"] else buf
    ortho = _zeropower_via_newtonschulz(update.numpy(), group["ns_coefficients"], group["ns_steps"], group["eps"])
    adjusted_lr = _adjust_lr(lr, group["adjust_lr_fn"], param.shape)
    param.mul_(scalar(1 - lr * weight_decay))
    param.add_(from_numpy(ortho).to(param.dtype), alpha=-scalar(adjusted_lr))
