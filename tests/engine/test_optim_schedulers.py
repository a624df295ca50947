"""torch.optim.lr_scheduler against torch 2.13, as programs print it: every scheduler's learning rates epoch by
epoch (get_last_lr(), the param groups' lr and momentum/betas, last_epoch) printed at full precision (the
arithmetic is Python floats, so they must be equal), chaining schedulers on one optimizer as the docs do,
SequentialLR and ChainedScheduler, step(epoch), state_dict / load_state_dict, and the warnings and errors.
"""
from __future__ import annotations

import pytest
from difftest import run_both, run_fresh, run_source

PRELUDE = "import math\nimport torch\nfrom torch.optim import lr_scheduler as S\n"
SETUP = ("w = torch.zeros(2, requires_grad=True)\nv = torch.zeros(1, requires_grad=True)\n"
         "def sgd(**kw):\n    return torch.optim.SGD([{'params': [w]}, {'params': [v], 'lr': 0.2}], lr=0.05, **kw)\n"
         "def show(opt, sched, epochs, metric=None):\n"
         "    for epoch in range(epochs):\n"
         "        opt.step()\n"
         "        if metric is None:\n"
         "            sched.step()\n"
         "        else:\n"
         "            sched.step(metric(epoch))\n"
         "        g = opt.param_groups[0]\n"
         "        print(epoch, sched.get_last_lr(), [p['lr'] for p in opt.param_groups], sched.last_epoch,\n"
         "              g.get('momentum'), g.get('betas'))\n")

SCHEDULES = {
    "StepLR": "S.StepLR(o, step_size=3, gamma=0.5)",
    "MultiStepLR": "S.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3)",
    "ConstantLR": "S.ConstantLR(o, factor=0.25, total_iters=4)",
    "ConstantLR_default": "S.ConstantLR(o)",
    "LinearLR": "S.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=7)",
    "LinearLR_default": "S.LinearLR(o)",
    "ExponentialLR": "S.ExponentialLR(o, gamma=0.9)",
    "PolynomialLR": "S.PolynomialLR(o, total_iters=8, power=2.0)",
    "CosineAnnealingLR": "S.CosineAnnealingLR(o, T_max=5, eta_min=0.001)",
    "CosineAnnealingWarmRestarts": "S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)",
    "LambdaLR": "S.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1))",
    "LambdaLR_per_group": "S.LambdaLR(o, lr_lambda=[lambda e: e // 3, lambda e: 0.9 ** e])",
    "MultiplicativeLR": "S.MultiplicativeLR(o, lr_lambda=lambda e: 0.95)",
    "CyclicLR": "S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3)",
    "CyclicLR_triangular2": "S.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=2, step_size_down=3, "
                            "mode='triangular2')",
    "CyclicLR_exp_range": "S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode='exp_range', gamma=0.9, "
                          "base_momentum=0.7, max_momentum=0.95)",
    "CyclicLR_scale_fn": "S.CyclicLR(o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 1 / x, "
                         "scale_mode='iterations', cycle_momentum=False)",
    "OneCycleLR": "S.OneCycleLR(o, max_lr=0.1, total_steps=12)",
    "OneCycleLR_epochs": "S.OneCycleLR(o, max_lr=[0.1, 0.3], epochs=3, steps_per_epoch=4, pct_start=0.25, "
                         "anneal_strategy='linear', div_factor=10.0)",
    "OneCycleLR_three_phase": "S.OneCycleLR(o, max_lr=0.1, total_steps=12, three_phase=True)",
    "SequentialLR": "S.SequentialLR(o, [S.ConstantLR(o, factor=0.1, total_iters=2), S.ExponentialLR(o, 0.9)], "
                    "milestones=[3])",
    "SequentialLR_three": "S.SequentialLR(o, [S.LinearLR(o, 0.5, total_iters=3), S.StepLR(o, 2), "
                          "S.CosineAnnealingLR(o, 4)], milestones=[3, 7])",
    "ChainedScheduler": "S.ChainedScheduler([S.ConstantLR(o, factor=0.1, total_iters=2), S.ExponentialLR(o, 0.9)])",
}
ADAM = {"CyclicLR_adam": "S.CyclicLR(o, 0.001, 0.01, step_size_up=2)",
        "OneCycleLR_adam": "S.OneCycleLR(o, max_lr=0.01, total_steps=11)"}


@pytest.mark.parametrize("name", sorted(SCHEDULES) + sorted(ADAM))
def test_learning_rates_epoch_by_epoch(name):
    if name in ADAM:
        make, schedule = "o = torch.optim.Adam([w, v], lr=0.001)\n", ADAM[name]
    else:
        momentum = "momentum=0.9" if name.startswith(("CyclicLR", "OneCycleLR")) else ""
        make, schedule = f"o = sgd({momentum})\n", SCHEDULES[name]
    epochs = 11 if "OneCycle" in name else 14
    src = SETUP + make + f"s = {schedule}\nprint(s.get_last_lr(), s.last_epoch)\nshow(o, s, {epochs})\n"
    want, got = run_both(src, PRELUDE)
    assert got.exc == want.exc and got.warnings == want.warnings
    assert got.stdout == want.stdout


@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
                                  "PolynomialLR", "CosineAnnealingLR", "LambdaLR", "CosineAnnealingWarmRestarts",
                                  "CyclicLR", "SequentialLR", "OneCycleLR"])
def test_state_dict_and_load_state_dict(name):
    src = SETUP + (f"o = sgd(momentum=0.9)\ns = {SCHEDULES[name]}\nshow(o, s, 3)\nsd = s.state_dict()\n"
                   "print({k: v for k, v in sorted(sd.items()) if k != '_schedulers'})\n"
                   f"o2 = sgd(momentum=0.9)\ns2 = {SCHEDULES[name]}\ns2.load_state_dict(sd)\nshow(o2, s2, 3)\n")
    want, got = run_both(src, PRELUDE)
    assert (got.exc, got.warnings, got.stdout) == (want.exc, want.warnings, want.stdout)


PROGRAMS = {
    "docs_chaining": "o = sgd()\ns1 = S.ExponentialLR(o, gamma=0.9)\ns2 = S.MultiStepLR(o, milestones=[3, 6], "
                     "gamma=0.1)\nfor epoch in range(9):\n    o.step()\n    s1.step()\n    s2.step()\n"
                     "    print(s1.get_last_lr(), s2.get_last_lr())",
    "plateau_min": "o = sgd()\ns = S.ReduceLROnPlateau(o, 'min', patience=2, factor=0.5, cooldown=1)\n"
                   "show(o, s, 14, metric=lambda e: 1.0 if e > 3 else 2.0 - e)\nprint(s.best, s.num_bad_epochs, "
                   "s.cooldown_counter, s.in_cooldown)",
    "plateau_max_abs_min_lr": "o = sgd()\ns = S.ReduceLROnPlateau(o, mode='max', threshold=0.1, threshold_mode='abs',"
                              " patience=0, min_lr=[0.01, 0.05], eps=1e-3)\n"
                              "show(o, s, 8, metric=lambda e: torch.tensor(0.5))\nprint(s.state_dict())",
    "plateau_new_group": "o = sgd()\ns = S.ReduceLROnPlateau(o, patience=0, min_lr=[0, 0])\n"
                         "o.add_param_group({'params': [torch.zeros(1, requires_grad=True)]})\n"
                         "s.step(1.0)\ns.step(2.0)",
    "plateau_new_group_default_min_lr": "o = sgd()\ns = S.ReduceLROnPlateau(o, patience=0)\n"
                                        "o.add_param_group({'params': [torch.zeros(1, requires_grad=True)]})\n"
                                        "s.step(1.0)\ns.step(2.0)\nprint(s.get_last_lr(), s.min_lrs)",
    "closed_form_epoch": "o = sgd()\ns = S.StepLR(o, 2)\nfor e in (3, 5, 1):\n    o.step()\n    s.step(e)\n"
                         "    print(s.get_last_lr())",
    "closed_form_epoch_lambda": "o = sgd()\ns = S.LambdaLR(o, lambda e: e + 1)\no.step()\ns.step(4)\n"
                                "print(s.get_last_lr())",
    "warm_restarts_float_epochs": "o = sgd()\ns = S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2)\n"
                                  "for e in [0.5, 1.0, 2.5, 7.0, 13.25]:\n    o.step()\n    s.step(e)\n"
                                  "    print(s.get_last_lr(), s.T_i, s.T_cur, s.last_epoch)",
    "resume_last_epoch": "o = sgd()\ns = S.StepLR(o, 2)\nshow(o, s, 3)\nt = S.StepLR(o, 2, last_epoch=2)\n"
                         "show(o, t, 3)",
    "resume_without_initial_lr": "S.ExponentialLR(sgd(), 0.9, last_epoch=3)",
    "step_before_optimizer": "o = sgd()\ns = S.StepLR(o, 1)\ns.step()\ns.step()\nprint(s.get_last_lr())",
    "step_overridden": "o = sgd()\ns = S.StepLR(o, 1)\no.step = lambda: None\no.step()\ns.step()",
    "get_lr_directly": "o = sgd()\ns = S.StepLR(o, 1)\nprint(s.get_lr())",
    "two_schedulers_one_wrap": "o = sgd()\ns1 = S.StepLR(o, 1)\ns2 = S.ExponentialLR(o, 0.5)\no.step()\ns1.step()\n"
                               "s2.step()\nprint(o.param_groups[0]['lr'], o._opt_called)",
    "not_an_optimizer": "S.StepLR(object(), 1)",
    "constant_factor": "S.ConstantLR(sgd(), factor=2)",
    "linear_start": "S.LinearLR(sgd(), start_factor=0)",
    "linear_end": "S.LinearLR(sgd(), end_factor=1.5)",
    "lambda_count": "S.LambdaLR(sgd(), [lambda e: 1])",
    "multiplicative_not_callable": "S.MultiplicativeLR(sgd(), [1, 2])",
    "plateau_factor": "S.ReduceLROnPlateau(sgd(), factor=1.0)",
    "plateau_mode": "S.ReduceLROnPlateau(sgd(), mode='lowest')",
    "plateau_threshold_mode": "S.ReduceLROnPlateau(sgd(), threshold_mode='both')",
    "plateau_min_lrs": "S.ReduceLROnPlateau(sgd(), min_lr=[0.1])",
    "sequential_milestones": "o = sgd()\nS.SequentialLR(o, [S.StepLR(o, 1), S.StepLR(o, 2)], milestones=[1, 2])",
    "sequential_empty": "S.SequentialLR(sgd(), [], milestones=[])",
    "sequential_plateau": "o = sgd()\nS.SequentialLR(o, [S.StepLR(o, 1), S.ReduceLROnPlateau(o)], milestones=[1])",
    "chained_other_optimizer": "o = sgd()\nS.ChainedScheduler([S.StepLR(o, 1), S.StepLR(sgd(), 1)])",
    "cyclic_no_momentum": "S.CyclicLR(torch.optim.Adagrad([w]), 0.01, 0.1)",
    "cyclic_mode": "S.CyclicLR(sgd(momentum=0.9), 0.01, 0.1, mode='sawtooth')",
    "cyclic_max_lr_count": "S.CyclicLR(sgd(momentum=0.9), 0.01, [0.1, 0.2, 0.3])",
    "onecycle_no_steps": "S.OneCycleLR(sgd(momentum=0.9), 0.1)",
    "onecycle_total_steps": "S.OneCycleLR(sgd(momentum=0.9), 0.1, total_steps=0)",
    "onecycle_pct_start": "S.OneCycleLR(sgd(momentum=0.9), 0.1, total_steps=5, pct_start=1)",
    "onecycle_anneal": "S.OneCycleLR(sgd(momentum=0.9), 0.1, total_steps=5, anneal_strategy='step')",
    "onecycle_too_many_steps": "o = sgd(momentum=0.9)\ns = S.OneCycleLR(o, 0.1, total_steps=3)\nshow(o, s, 4)",
    "warm_restarts_T_0": "S.CosineAnnealingWarmRestarts(sgd(), T_0=0)",
    "warm_restarts_T_mult": "S.CosineAnnealingWarmRestarts(sgd(), T_0=2, T_mult=1.5)",
    "warm_restarts_negative_epoch": "o = sgd()\nS.CosineAnnealingWarmRestarts(o, T_0=2).step(-1)",
    "optimizer_load_after_scheduler": "o = sgd()\ns = S.StepLR(o, 1)\nshow(o, s, 2)\nsd = o.state_dict()\n"
                                      "print(sd['param_groups'])\no2 = sgd()\no2.load_state_dict(sd)\nprint(o2)",
}


@pytest.mark.parametrize("case", sorted(PROGRAMS))
def test_program_prints_raises_and_warns_as_torch(case):
    want, got = run_both(SETUP + PROGRAMS[case], PRELUDE)
    assert got.exc == want.exc
    assert got.warnings == want.warnings
    assert got.stdout == want.stdout


def test_cases_test_something_on_torch():
    for case, src in PROGRAMS.items():
        o = run_source(SETUP + src, "torch", PRELUDE)
        assert o.stdout or o.exc or o.warnings, case


def test_warnings_point_at_the_programs_line():
    """As torch's (stacklevel=2): the line that called scheduler.step(), so that Python's default filter shows
    each once per line."""
    src = SETUP + "o = sgd()\ns = S.StepLR(o, 1)\ns.step()\ns.step(3)\nprint(s.get_lr())\n"
    (want,), (got,) = run_fresh((PRELUDE + src,), "torch"), run_fresh((PRELUDE + src,), "engine")
    assert got.warnings == want.warnings
    want, got = run_both(src, PRELUDE, python_filters=True)
    assert [w[:2] for w in got.warnings] == [w[:2] for w in want.warnings]
    mine = [w[3] if w[2] == "<program>" else "library" for w in want.warnings]  # get_lr()'s points into torch
    assert [w[3] if w[2] == "<program>" else "library" for w in got.warnings] == mine
