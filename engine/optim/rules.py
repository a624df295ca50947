"""What a watcher is told of an optimizer's step for each parameter: the update rule in words over `param` (its
value before the step) and the terms the rule names — numbers, and tensors as they are after the step. The
arithmetic itself is in each optimizer's file; these words describe it, one function per optimizer."""


def _grad(group):
    g = "grad" if not group.get("maximize") else "(−grad)"
    return f"({g} + weight_decay · param)" if group.get("weight_decay") else g


def _common(group, p, *names):
    terms = {"lr": group["lr"], "grad": p.grad}
    if group.get("weight_decay"):
        terms["weight_decay"] = group["weight_decay"]
    terms.update((name, group[name]) for name in names)
    return terms


def sgd(group, p, state):
    g, terms = _grad(group), _common(group, p)
    if not group["momentum"]:
        return f"param − lr · {g}", terms
    terms.update(momentum=group["momentum"], momentum_buffer=state["momentum_buffer"])
    if group["nesterov"]:
        return f"param − lr · ({g} + momentum · momentum_buffer)", terms
    return "param − lr · momentum_buffer", terms


def adam(group, p, state):
    beta1, beta2 = group["betas"]
    second = "max_exp_avg_sq" if group["amsgrad"] else "exp_avg_sq"
    terms = _common(group, p, "eps")
    terms.update(beta1=beta1, beta2=beta2, step=state["step"].item(), exp_avg=state["exp_avg"],
                 **{second: state[second]})
    step = f"lr / (1 − beta1^step) · exp_avg / (√{second} / √(1 − beta2^step) + eps)"
    if group["decoupled_weight_decay"] and group["weight_decay"]:
        return f"param · (1 − lr · weight_decay) − {step}", terms
    return f"param − {step}", terms


def rmsprop(group, p, state):
    terms = _common(group, p, "alpha", "eps")
    terms["square_avg"] = state["square_avg"]
    avg = "√square_avg"
    if group["centered"]:
        terms["grad_avg"] = state["grad_avg"]
        avg = "√(square_avg − grad_avg²)"
    if group["momentum"] > 0:
        terms.update(momentum=group["momentum"], momentum_buffer=state["momentum_buffer"])
        return "param − lr · momentum_buffer", terms
    return f"param − lr · {_grad(group)} / ({avg} + eps)", terms


def adagrad(group, p, state):
    terms = _common(group, p, "lr_decay", "eps")
    terms.update(step=state["step"].item(), sum=state["sum"])
    return f"param − lr / (1 + (step − 1) · lr_decay) · {_grad(group)} / (√sum + eps)", terms


def adadelta(group, p, state):
    terms = _common(group, p, "rho", "eps")
    terms.update(square_avg=state["square_avg"], acc_delta=state["acc_delta"])
    return (f"param − lr · √(acc_delta₋₁ + eps) / √(square_avg + eps) · {_grad(group)}  (acc_delta₋₁: before "
            "this step)", terms)
