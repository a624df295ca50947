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


def asgd(group, p, state):
    terms = _common(group, p, "lambd", "alpha", "t0")
    terms.update(eta=state["eta"].item(), mu=state["mu"].item(), ax=state["ax"])
    return (f"param · (1 − lambd · eta₋₁) − eta₋₁ · {_grad(group)}  (eta₋₁: before this step; ax averages the "
            "params from step t0 on)", terms)


def adamax(group, p, state):
    beta1, beta2 = group["betas"]
    terms = _common(group, p, "eps")
    terms.update(beta1=beta1, beta2=beta2, step=state["step"].item(), exp_avg=state["exp_avg"],
                 exp_inf=state["exp_inf"])
    return "param − lr / (1 − beta1^step) · exp_avg / exp_inf", terms


def nadam(group, p, state):
    beta1, beta2 = group["betas"]
    terms = _common(group, p, "eps", "momentum_decay")
    terms.update(beta1=beta1, beta2=beta2, step=state["step"].item(), mu_product=state["mu_product"].item(),
                 exp_avg=state["exp_avg"], exp_avg_sq=state["exp_avg_sq"])
    step = ("lr · ((1 − μ) · grad / (1 − mu_product) + μ′ · exp_avg / (1 − mu_product · μ′)) / "
            "(√(exp_avg_sq / (1 − beta2^step)) + eps),  μ = beta1 · (1 − ½ · 0.96^(step · momentum_decay))")
    if group["decoupled_weight_decay"] and group["weight_decay"]:
        return f"param · (1 − lr · weight_decay) − {step}", terms
    return f"param − {step}", terms


def radam(group, p, state):
    beta1, beta2 = group["betas"]
    terms = _common(group, p, "eps")
    terms.update(beta1=beta1, beta2=beta2, step=state["step"].item(), exp_avg=state["exp_avg"],
                 exp_avg_sq=state["exp_avg_sq"])
    return ("param − lr · exp_avg / (1 − beta1^step) · [r · √(1 − beta2^step) / (√exp_avg_sq + eps) where the "
            "rectification r is defined (ρ > 5), else 1]", terms)


def rprop(group, p, state):
    terms = {"grad": p.grad, "etas": group["etas"], "step_sizes": group["step_sizes"],
             "step_size": state["step_size"], "prev": state["prev"]}
    return ("param − sign(grad) · step_size  (step_size · etaplus where grad kept its sign, · etaminus where it "
            "flipped, and there no move)", terms)


def adafactor(group, p, state):
    terms = _common(group, p, "beta2_decay", "d")
    terms.update(step=state["step"].item(), **{k: state[k] for k in ("row_var", "col_var", "variance") if k in state})
    return "param − α · grad / √v̂ (rescaled to RMS ≤ d),  α = max(eps2, RMS(param)) · min(lr, 1/√step)", terms


def muon(group, p, state):
    terms = _common(group, p, "momentum", "ns_steps")
    terms["momentum_buffer"] = state["momentum_buffer"]
    return ("param · (1 − lr · weight_decay) − lr′ · NewtonSchulz(grad.lerp(momentum_buffer, momentum)) "
            "(bfloat16)", terms)


def lbfgs(group, p, state):
    return "param + t · d  (d: the L-BFGS direction from the last history_size steps; t: the step length)", \
        {"lr": group["lr"], "grad": p.grad}


def sparse_adam(group, p, state):
    return adam({**group, "amsgrad": False, "decoupled_weight_decay": False, "weight_decay": 0}, p, state)
