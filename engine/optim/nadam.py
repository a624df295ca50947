"""torch.optim.NAdam (Adam with Nesterov momentum): torch/optim/nadam.py's _single_tensor_nadam, the path torch
2.13 takes on the CPU. The product of the momentum coefficients is a float32 tensor in the state, as in torch."""
from .. import dtypes
from ..factories import tensor, zeros_like
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number, scalar


class NAdam(Optimizer):
    _rule = staticmethod(rules.nadam)
    _capturable_tensors = "params, mu_products and state_steps"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
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
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("maximize", False), ("foreach", None), ("capturable", False),
                             ("differentiable", False), ("decoupled_weight_decay", False)))
        for s in self.state.values():
            if "mu_product" in s and not hasattr(s["mu_product"], "_data"):
                s["mu_product"] = tensor(s["mu_product"], dtype=dtypes.float32)

    def _new_state(self, p, group):
        return {"step": tensor(0.0, dtype=dtypes.float32), "mu_product": tensor(1.0, dtype=dtypes.float32),
                "exp_avg": zeros_like(p), "exp_avg_sq": zeros_like(p)}

    @_one_step
    def step(self):
        return self._each_parameter(_single_tensor_nadam)


def _single_tensor_nadam(param, state, group):
    beta1, beta2 = group["betas"]
    lr, weight_decay, eps, momentum_decay = scalar(group["lr"]), group["weight_decay"], group["eps"], \
        group["momentum_decay"]
    grad = param.grad if not group["maximize"] else -param.grad
    exp_avg, exp_avg_sq, mu_product, step_t = state["exp_avg"], state["exp_avg_sq"], state["mu_product"], \
        state["step"]
    step_t += 1
    step = step_t.item()
    bias_correction2 = 1 - beta2**step
    if weight_decay != 0:
        if group["decoupled_weight_decay"]:
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
    mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
    mu_product *= mu
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    denom = exp_avg_sq.div(bias_correction2).sqrt()
    mu_product_next = mu_product.item() * mu_next
    denom.add_(eps)
    param.addcdiv_(grad, denom, value=(-lr * (1.0 - mu) / (1.0 - mu_product.item())))
    param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
