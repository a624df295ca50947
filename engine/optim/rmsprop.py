"""torch.optim.RMSprop: torch/optim/rmsprop.py's _single_tensor_rmsprop, the path torch 2.13 takes on the CPU."""
from .. import dtypes
from ..factories import zeros, zeros_like
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number


class RMSprop(Optimizer):
    _rule = staticmethod(rules.rmsprop)

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        check_number("lr", lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("momentum", 0), ("centered", False), ("foreach", None), ("maximize", False),
                             ("differentiable", False), ("capturable", False)))

    def _new_state(self, p, group):
        state = {"step": zeros((), dtype=dtypes.float32), "square_avg": zeros_like(p)}
        if group["momentum"] > 0:
            state["momentum_buffer"] = zeros_like(p)
        if group["centered"]:
            state["grad_avg"] = zeros_like(p)
        return state

    @_one_step
    def step(self):
        return self._each_parameter(_single_tensor_rmsprop)


def _single_tensor_rmsprop(param, state, group):
    lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
    grad = param.grad if not group["maximize"] else -param.grad
    square_avg = state["square_avg"]
    state["step"] += 1
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
    if group["centered"]:
        grad_avg = state["grad_avg"]
        grad_avg.lerp_(grad, 1 - alpha)
        avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
    else:
        avg = square_avg.sqrt()
    avg = avg.add_(eps)
    if momentum > 0:
        buf = state["momentum_buffer"]
        buf.mul_(momentum).addcdiv_(grad, avg)
        param.add_(buf, alpha=-lr)
    else:
        param.addcdiv_(grad, avg, value=-lr)
