"""torch.optim.Adadelta: torch/optim/adadelta.py's _single_tensor_adadelta, the path torch 2.13 takes on the CPU."""
from .. import dtypes
from ..factories import zeros, zeros_like
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number


class Adadelta(Optimizer):
    _rule = staticmethod(rules.adadelta)

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        check_number("lr", lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("foreach", None), ("maximize", False), ("differentiable", False),
                             ("capturable", False)))

    def _new_state(self, p, group):
        return {"step": zeros((), dtype=dtypes.float32), "square_avg": zeros_like(p), "acc_delta": zeros_like(p)}

    @_one_step
    def step(self):
        return self._each_parameter(_single_tensor_adadelta)


def _single_tensor_adadelta(param, state, group):
    lr, rho, eps = group["lr"], group["rho"], group["eps"]
    grad = param.grad if not group["maximize"] else -param.grad
    square_avg, acc_delta = state["square_avg"], state["acc_delta"]
    state["step"] += 1
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
    std = square_avg.add(eps).sqrt_()
    delta = acc_delta.add(eps).sqrt_()
    delta.div_(std).mul_(grad)
    acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
    param.add_(delta, alpha=-lr)
