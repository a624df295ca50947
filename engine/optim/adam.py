"""torch.optim.Adam and AdamW (Adam with decoupled weight decay): torch/optim/adam.py's _single_tensor_adam, the
path torch 2.13 takes on the CPU. The step count is a float32 tensor in the state, as in torch."""
from .. import dtypes
from ..factories import tensor, zeros_like
from ..tensor import Tensor
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number


class Adam(Optimizer):
    _rule = staticmethod(rules.adam)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
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
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            if isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor):
                check_number("betas", betas[0])
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("amsgrad", False), ("maximize", False), ("foreach", None), ("capturable", False),
                             ("differentiable", False), ("decoupled_weight_decay", False), ("fused", None)))

    def _new_state(self, p, group):
        state = {"step": tensor(0.0, dtype=dtypes.float32), "exp_avg": zeros_like(p), "exp_avg_sq": zeros_like(p)}
        if group["amsgrad"]:
            state["max_exp_avg_sq"] = zeros_like(p)
        return state

    @_one_step
    def step(self):
        return self._each_parameter(_single_tensor_adam)


def _single_tensor_adam(param, state, group):
    beta1, beta2 = group["betas"]
    lr, weight_decay, eps = group["lr"], group["weight_decay"], group["eps"]
    grad = param.grad if not group["maximize"] else -param.grad
    exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], state["step"]
    step_t += 1
    if weight_decay != 0:
        if group["decoupled_weight_decay"]:
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    step = step_t.item()
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    step_size = lr / bias_correction1
    bias_correction2_sqrt = bias_correction2**0.5
    if group["amsgrad"]:
        max_exp_avg_sq = state["max_exp_avg_sq"]
        max_exp_avg_sq.copy_(max_exp_avg_sq.maximum(exp_avg_sq))
        denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    else:
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-step_size)


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
