"""torch.optim.Adamax (Adam with the infinity norm): torch/optim/adamax.py's _single_tensor_adamax, the path torch
2.13 takes on the CPU."""
from .. import dtypes
from ..factories import tensor, zeros_like
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number, scalar


class Adamax(Optimizer):
    _rule = staticmethod(rules.adamax)

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
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
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("foreach", None), ("maximize", False), ("differentiable", False),
                             ("capturable", False)))

    def _new_state(self, p, group):
        return {"step": tensor(0.0, dtype=dtypes.float32), "exp_avg": zeros_like(p), "exp_inf": zeros_like(p)}

    @_one_step
    def step(self):
        return self._each_parameter(_single_tensor_adamax)


def _single_tensor_adamax(param, state, group):
    beta1, beta2 = group["betas"]
    lr, eps = scalar(group["lr"]), group["eps"]
    grad = param.grad if not group["maximize"] else -param.grad
    exp_avg, exp_inf, step_t = state["exp_avg"], state["exp_inf"], state["step"]
    step_t += 1
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    exp_avg.lerp_(grad, 1 - beta1)
    exp_inf.copy_(exp_inf.mul_(beta2).maximum(grad.abs().add_(eps)))
    clr = lr / (1 - beta1 ** step_t.item())
    param.addcdiv_(exp_avg, exp_inf, value=-clr)
