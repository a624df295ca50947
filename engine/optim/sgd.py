"""torch.optim.SGD: torch/optim/sgd.py's _single_tensor_sgd, the path torch 2.13 takes on the CPU (foreach=True
rounds the same way; it differs only in adding Nesterov's momentum into .grad itself)."""
from . import rules
from .optimizer import Optimizer, _one_step, check_implementation, check_number, scalar


class SGD(Optimizer):
    _rule = staticmethod(rules.sgd)

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        check_number("lr", lr, tensor_ok=True)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
                    "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        check_implementation(defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("nesterov", False), ("maximize", False), ("foreach", None),
                                 ("differentiable", False), ("fused", False)):
                group.setdefault(key, default)

    @_one_step
    def step(self):
        updated = []
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            buffers = [self.state[p].get("momentum_buffer") for p in params] if group["momentum"] != 0 else []
            _single_tensor_sgd(params, buffers, group)
            if group["momentum"] != 0:
                for p, buf in zip(params, buffers):
                    self.state[p]["momentum_buffer"] = buf
            updated += params
        return updated


def _single_tensor_sgd(params, momentum_buffers, group):
    weight_decay, momentum, lr = group["weight_decay"], group["momentum"], group["lr"]
    dampening, nesterov, maximize = group["dampening"], group["nesterov"], group["maximize"]
    for i, param in enumerate(params):
        grad = param.grad if not maximize else -param.grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = momentum_buffers[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffers[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            if nesterov and group["foreach"] and grad is param.grad:
                grad.add_(buf, alpha=momentum)  # torch's foreach path adds into the parameter's .grad itself
            elif nesterov:
                grad = grad.add(buf, alpha=momentum)
            else:
                grad = buf
        param.add_(grad, alpha=-scalar(lr))
