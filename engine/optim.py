"""torch.optim: SGD (with momentum) and Adam, step for step as PyTorch's single-tensor code."""
import functools

from . import observe
from .factories import zeros_like
from .grad_mode import no_grad
from .ops import OPS
from .tensor import Tensor


def _one_step(step):
    """An optimizer step is one in-place update per parameter for a watcher, not its arithmetic: the update's
    attrs name the optimizer, its rule in words over `param` (the value before) and the terms it used, and
    those terms (numbers, and tensors as they are after the step)."""

    @functools.wraps(step)
    def wrapper(self):
        with no_grad(), observe.muted():
            updated = step(self)
        for p, rule, terms in updated:
            if observe._observers:
                observe.emit("on_inplace", p, OPS["sub"], (p,), {"optimizer": type(self).__name__, "rule": rule,
                                                                 **terms})

    return wrapper


class Optimizer:
    def __init__(self, params, defaults):
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
                + params.type()
            )
        params = list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(params[0], dict):
            params = [{"params": params}]
        self.defaults = defaults
        self.param_groups = []
        for group in params:
            g = dict(defaults)
            g.update(group)
            g["params"] = list(g["params"])
            for p in g["params"]:
                if not p.is_leaf:
                    raise ValueError("can't optimize a non-leaf Tensor")
            self.param_groups.append(g)
        self.state = {}

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.zero_()

    def __repr__(self):
        lines = [type(self).__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params"):
                lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 maximize=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov, maximize=maximize))

    @_one_step
    def step(self):
        updated = []
        for group in self.param_groups:
            lr, momentum = group["lr"], group["momentum"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad if not group["maximize"] else -p.grad
                terms = {"lr": lr, "grad": p.grad}
                g = "grad" if not group["maximize"] else "(−grad)"
                if group["weight_decay"] != 0:
                    grad = grad.add(p, alpha=group["weight_decay"])
                    terms["weight_decay"] = group["weight_decay"]
                    g = f"({g} + weight_decay · param)"
                rule = f"param − lr · {g}"
                if momentum != 0:
                    state = self.state.setdefault(p, {})
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = grad.clone().detach()
                    else:
                        buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
                    grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
                    terms.update(momentum=momentum, momentum_buffer=buf)
                    rule = (f"param − lr · ({g} + momentum · momentum_buffer)" if group["nesterov"]
                            else "param − lr · momentum_buffer")
                p.add_(grad, alpha=-lr)
                updated.append((p, rule, terms))
        return updated


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
                 maximize=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))

    @_one_step
    def step(self):
        updated = []
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad if not group["maximize"] else -p.grad
                state = self.state.setdefault(p, {})
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = zeros_like(p)
                    state["exp_avg_sq"] = zeros_like(p)
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = zeros_like(p)
                state["step"] += 1
                step = state["step"]
                if group["weight_decay"] != 0:
                    grad = grad.add(p, alpha=group["weight_decay"])
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction1 = 1 - beta1**step
                bias_correction2 = 1 - beta2**step
                step_size = group["lr"] / bias_correction1
                bias_correction2_sqrt = bias_correction2**0.5
                if group["amsgrad"]:
                    m = state["max_exp_avg_sq"]
                    m.copy_(m.maximum(exp_avg_sq))
                    denom = (m.sqrt() / bias_correction2_sqrt).add_(group["eps"])
                else:
                    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(group["eps"])
                p.addcdiv_(exp_avg, denom, value=-step_size)
                second = "max_exp_avg_sq" if group["amsgrad"] else "exp_avg_sq"
                terms = {"lr": group["lr"], "grad": p.grad, "beta1": beta1, "beta2": beta2, "step": step,
                         "eps": group["eps"], "exp_avg": exp_avg, second: state[second]}
                rule = f"param − lr / (1 − beta1^step) · exp_avg / (√{second} / √(1 − beta2^step) + eps)"
                updated.append((p, rule, terms))
        return updated
