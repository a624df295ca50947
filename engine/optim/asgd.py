"""torch.optim.ASGD (averaged SGD): torch/optim/asgd.py's _single_tensor_asgd, the path torch 2.13 takes on the
CPU, and its _multi_tensor_asgd for foreach=True, which orders the update apart. eta and mu are float32 tensors in
the state, as in torch, recomputed after every step (eta in float64, or in float32 with foreach=True)."""
from .. import dtypes
from ..factories import ones, tensor, zeros, zeros_like
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number, scalar


class ASGD(Optimizer):
    _rule = staticmethod(rules.asgd)
    _capturable_tensors = "params, mus, etas, and state_steps"

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        check_number("lr", lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._restore_groups((("foreach", None), ("maximize", False), ("differentiable", False),
                             ("capturable", False)))
        for s in self.state.values():
            for key in ("eta", "mu"):
                if key in s and not hasattr(s[key], "_data"):
                    s[key] = tensor(s[key], dtype=dtypes.float32)

    def _new_state(self, p, group):
        return {"step": zeros((), dtype=dtypes.float32), "eta": tensor(scalar(group["lr"]), dtype=dtypes.float32),
                "mu": ones((), dtype=dtypes.float32), "ax": zeros_like(p)}

    @_one_step
    def step(self):
        return self._each_parameter(_single_tensor_asgd)


def _single_tensor_asgd(param, state, group):
    lambd, lr, t0, alpha = group["lambd"], scalar(group["lr"]), group["t0"], group["alpha"]
    grad = param.grad if not group["maximize"] else -param.grad
    mu, ax, eta, step_t = state["mu"], state["ax"], state["eta"], state["step"]
    step_t += 1
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    if group["foreach"]:  # torch's _multi_tensor_asgd: param − eta · (grad + lambd · param), ax always averaged
        param.addcmul_(grad.add(param, alpha=lambd), eta, value=-1)
        ax.addcmul_(param.sub(ax), mu)
    else:
        eta_value = eta.item()
        param.mul_(1 - lambd * eta_value)
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
    step = step_t.item()
    if group["foreach"]:  # from the float32 step tensor, in float32
        eta.copy_(lr / ((1 + lambd * lr * step_t) ** alpha))
    else:
        eta.copy_(tensor(lr / ((1 + lambd * lr * step) ** alpha), dtype=dtypes.float64))
    mu.copy_(tensor(1 / max(1, step - t0), dtype=dtypes.float64))
