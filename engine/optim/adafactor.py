"""torch.optim.Adafactor: torch/optim/_adafactor.py's _single_tensor_adafactor, the path torch 2.13 takes on the
CPU (and its _multi_tensor_adafactor for foreach=True, which rounds the last step apart). A matrix's second
moment is kept factored, as a row and a column mean of the squared grads."""
from .. import dtypes
from ..factories import tensor, zeros, zeros_like
from ..limits import finfo
from . import rules
from .optimizer import Optimizer, _one_step, check_number, scalar


class Adafactor(Optimizer):
    _rule = staticmethod(rules.adafactor)

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        check_number("lr", lr)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("foreach", None),))

    def _new_state(self, p, group):
        state = {"step": tensor(0.0, dtype=dtypes.float32)}
        grad = p.grad
        if grad.dim() > 1:
            state["row_var"] = zeros(grad.shape[:-1] + (1,), dtype=grad.dtype)
            state["col_var"] = zeros(grad.shape[:-2] + (1, grad.shape[-1]), dtype=grad.dtype)
        else:
            state["variance"] = zeros_like(grad)
        return state

    @_one_step
    def step(self):
        for group in self.param_groups:
            eps1 = group["eps"][0]
            for p in group["params"]:
                if p.grad is not None:
                    eps1 = eps1 if eps1 is not None else finfo(p.dtype).eps  # the group's first dtype, as torch
                    self._one(p, group, eps1)
        return [p for group in self.param_groups for p in group["params"] if p.grad is not None]

    def _one(self, param, group, eps1):
        state = self.state[param]
        if len(state) == 0:
            state.update(self._new_state(param, group))
        _single_tensor_adafactor(param, state, group, eps1)


def _single_tensor_adafactor(param, state, group, eps1):
    lr, beta2_decay, weight_decay, d = scalar(group["lr"]), group["beta2_decay"], group["weight_decay"], group["d"]
    eps2 = group["eps"][1]
    grad = param.grad if not group["maximize"] else -param.grad
    step_t = state["step"]
    step_t += 1
    step_float = step_t.item()
    one_minus_beta2_t = step_float**beta2_decay
    rho_t = min(lr, 1 / (step_float**0.5))
    alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
    if weight_decay != 0:
        param.mul_(1 - lr * weight_decay)
    if grad.dim() > 1:
        row_var, col_var = state["row_var"], state["col_var"]
        row_mean = grad.norm(dim=-1, keepdim=True).pow_(2).div_(grad.size(-1))
        row_var.lerp_(row_mean, one_minus_beta2_t)
        col_mean = grad.norm(dim=-2, keepdim=True).pow_(2).div_(grad.size(-2))
        col_var.lerp_(col_mean, one_minus_beta2_t)
        var_estimate = row_var @ col_var
        var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
    else:
        variance = state["variance"]
        variance.lerp_(grad * grad, one_minus_beta2_t)
        var_estimate = variance.clone()
    update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
    update.mul_(grad)
    denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
    if group["foreach"]:  # torch's _multi_tensor_adafactor scales the update first, then adds it
        param.add_(update.mul_(-alpha / denom))
    else:
        param.add_(update, alpha=-alpha / denom)
