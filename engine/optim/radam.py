"""torch.optim.RAdam (rectified Adam): torch/optim/radam.py's _single_tensor_radam, the path torch 2.13 takes on
the CPU: plain momentum steps until the variance's rectification term is defined (rho_t > 5)."""
from .. import dtypes
from ..factories import tensor, zeros_like
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number, scalar


class RAdam(Optimizer):
    _rule = staticmethod(rules.radam)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        check_number("lr", lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("foreach", None), ("maximize", False), ("differentiable", False),
                             ("capturable", False), ("decoupled_weight_decay", False)))

    def _new_state(self, p, group):
        return {"step": tensor(0.0, dtype=dtypes.float32), "exp_avg": zeros_like(p), "exp_avg_sq": zeros_like(p)}

    @_one_step
    def step(self):
        return self._each_parameter(_single_tensor_radam)


def _single_tensor_radam(param, state, group):
    beta1, beta2 = group["betas"]
    lr, weight_decay, eps = scalar(group["lr"]), group["weight_decay"], group["eps"]
    grad = param.grad if not group["maximize"] else -param.grad
    exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], state["step"]
    step_t += 1
    step = step_t.item()
    if weight_decay != 0:
        if group["decoupled_weight_decay"]:
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    bias_corrected_exp_avg = exp_avg / bias_correction1
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
    if rho_t > 5.0:
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
        adaptive_lr = (bias_correction2**0.5) / exp_avg_sq.sqrt().add_(eps)
        param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
    else:
        param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
