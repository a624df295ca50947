"""torch.optim.Rprop (resilient backpropagation): torch/optim/rprop.py's _single_tensor_rprop, the path torch
2.13 takes on the CPU: per element, the step size grows where the grad keeps its sign and shrinks where it flips
(and that element then does not move)."""
from .. import dtypes
from ..factories import full_like, zeros, zeros_like
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number, scalar


class Rprop(Optimizer):
    _rule = staticmethod(rules.rprop)

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False,
                 foreach=None, maximize=False, differentiable=False):
        check_number("lr", lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("foreach", None), ("maximize", False), ("differentiable", False),
                             ("capturable", False)))

    def _new_state(self, p, group):
        return {"step": zeros((), dtype=dtypes.float32), "prev": zeros_like(p),
                "step_size": full_like(p.grad, scalar(group["lr"]))}

    @_one_step
    def step(self):
        return self._each_parameter(_single_tensor_rprop)


def _single_tensor_rprop(param, state, group):
    etaminus, etaplus = group["etas"]
    step_size_min, step_size_max = group["step_sizes"]
    grad = param.grad if not group["maximize"] else -param.grad
    prev, step_size = state["prev"], state["step_size"]
    state["step"] += 1
    sign = grad.mul(prev).sign()
    sign[sign.gt(0)] = etaplus
    sign[sign.lt(0)] = etaminus
    sign[sign.eq(0)] = 1
    step_size.mul_(sign).clamp_(step_size_min, step_size_max)
    grad = grad.clone()
    grad[sign.eq(etaminus)] = 0
    param.addcmul_(grad.sign(), step_size, value=-1)
    prev.copy_(grad)
