"""torch.optim.Adagrad: torch/optim/adagrad.py's _single_tensor_adagrad, the path torch 2.13 takes on the CPU.
The state (step and sum) is made for every parameter when the optimizer is made, as in torch."""
from .. import dtypes, observe
from ..factories import full_like, tensor
from ..grad_mode import no_grad
from ..tensor import Tensor
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number, scalar


class Adagrad(Optimizer):
    _rule = staticmethod(rules.adagrad)

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        check_number("lr", lr, tensor_ok=True)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        check_implementation(defaults)
        with no_grad(), observe.muted():
            for group in self.param_groups:
                for p in group["params"]:
                    self._init_state(p, initial_accumulator_value)

    def _init_state(self, p, initial_accumulator_value):
        state = self.state[p]
        state["step"] = tensor(0.0, dtype=dtypes.float32)
        state["sum"] = full_like(p, initial_accumulator_value)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("foreach", None), ("maximize", False), ("differentiable", False),
                                 ("fused", None)):
                group.setdefault(key, default)
        for s in self.state.values():
            if not isinstance(s["step"], Tensor):
                s["step"] = tensor(float(s["step"]), dtype=dtypes.float32)

    @_one_step
    def step(self):
        updated = []
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            for p in params:
                if len(self.state[p]) == 0:  # a parameter whose state load_state_dict did not give
                    self._init_state(p, self.defaults["initial_accumulator_value"])
                _single_tensor_adagrad(p, self.state[p], group)
            updated += params
        return updated


def _single_tensor_adagrad(param, state, group):
    lr, lr_decay, eps = group["lr"], group["lr_decay"], group["eps"]
    state_sum, step_t = state["sum"], state["step"]
    step_t += 1
    step = step_t.item()
    grad = param.grad if not group["maximize"] else -param.grad
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    clr = lr / (1 + (step - 1) * lr_decay)
    state_sum.addcmul_(grad, grad, value=1)
    std = state_sum.sqrt().add_(eps)
    param.addcdiv_(grad, std, value=-scalar(clr))  # a Tensor lr: clr in its float32
