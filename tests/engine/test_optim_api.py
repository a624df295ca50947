"""torch.optim's Optimizer API against torch 2.13, as programs print it: the printed optimizer (every option of
every param group), state_dict and load_state_dict, zero_grad, step(closure), add_param_group and named
parameters, and the errors and warnings for bad arguments (type and text). Values are printed at print
precision, or as .tolist() of SGD's exact arithmetic; test_optim.py compares the arithmetic bit by bit.

Also what a watcher (the explorer) hears of a step: one in-place update per updated parameter, nothing of the
arithmetic, and the closure's ops as the program's own.
"""
from __future__ import annotations

import pytest
from difftest import ENGINE_NAME, load_engine, run_both, run_source
from test_kernels import FMA_BUILD

PRELUDE = "import torch\n"
SETUP = ("torch.manual_seed(0)\nw = torch.randn(3, 2, requires_grad=True)\nb = torch.zeros(2, requires_grad=True)\n"
         "x = torch.randn(4, 2)\ndef loss_fn():\n    return ((w.sum(0) * x + b).pow(2) * x).mean()\n")
ALL = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD", "Rprop",
       "Adafactor"]
CLOSURE = ("def closure():\n    o.zero_grad()\n    loss = ((w.sum(0) * x + b - 1).pow(2)).mean()\n    loss.backward()\n"
           "    return loss\n")

PROGRAMS = {
    # --- printing ------------------------------------------------------------------------------------------
    **{f"repr_{name}": f"print(torch.optim.{name}([w, b]))" for name in ALL},
    "repr_groups": "o = torch.optim.SGD([{'params': [w], 'lr': 0.5, 'nesterov': True, 'momentum': 0.9}, "
                   "{'params': b}], lr=0.1, weight_decay=1e-4)\nprint(o)\nprint(o.param_groups[1])",
    "repr_options": "print(torch.optim.Adam([w], lr=0.01, betas=[0.8, 0.99], amsgrad=True, foreach=False, "
                    "maximize=True, capturable=True))\nprint(torch.optim.RMSprop([w], centered=True, momentum=0.1))",
    "repr_named": "o = torch.optim.AdamW([('w', w), ('b', b)])\nprint(o)\nprint(o.state_dict()['param_groups'])",
    "repr_after_scheduler": "o = torch.optim.SGD([w], lr=0.1)\ns = torch.optim.lr_scheduler.StepLR(o, 2)\nprint(o)",
    "defaults": "o = torch.optim.Adagrad([w], lr_decay=0.5)\nprint(o.defaults)\nprint(o.state[w])",
    # --- state_dict ----------------------------------------------------------------------------------------
    **{f"state_dict_{name}": f"o = torch.optim.{name}([w, b], lr=0.1)\nfor _ in range(2):\n    o.zero_grad()\n"
                             "    loss_fn().backward()\n    o.step()\nprint(o.state_dict())"
       for name in ALL},
    "state_dict_amsgrad_momentum": "o = torch.optim.Adam([w], amsgrad=True)\np = torch.optim.SGD([b], momentum=0.9)\n"
                                   "loss_fn().backward()\no.step()\np.step()\nprint(o.state_dict())\n"
                                   "print(p.state_dict())",
    "state_dict_skips_params_without_grad": "o = torch.optim.Adam([w, b])\nw.grad = torch.ones(3, 2)\no.step()\n"
                                            "print(o.state_dict())\nprint(len(o.state))",
    "load_state_dict_continues": "o = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)\nloss_fn().backward()\n"
                                 "o.step()\nsd = o.state_dict()\nw2 = w.detach().clone().requires_grad_()\n"
                                 "b2 = b.detach().clone().requires_grad_()\n"
                                 "o2 = torch.optim.SGD([w2, b2], lr=0.5)\no2.load_state_dict(sd)\nprint(o2)\n"
                                 "print(o2.state[w2]['momentum_buffer'] is sd['state'][0]['momentum_buffer'])\n"
                                 "w2.grad, b2.grad = w.grad.clone(), b.grad.clone()\no.step()\no2.step()\n"
                                 "print(w.tolist() == w2.tolist(), b.tolist() == b2.tolist())",
    "load_state_dict_adam_step": "o = torch.optim.Adam([w])\nloss_fn().backward()\no.step()\no.step()\n"
                                 "o2 = torch.optim.Adam([w], lr=0.5)\no2.load_state_dict(o.state_dict())\n"
                                 "print(o2.state[w]['step'], o2.param_groups[0]['lr'])",
    "load_state_dict_groups": "o = torch.optim.SGD([w, b])\no.load_state_dict(torch.optim.SGD([{'params': [w]}, "
                              "{'params': [b]}]).state_dict())",
    "load_state_dict_sizes": "o = torch.optim.SGD([w, b])\no.load_state_dict(torch.optim.SGD([w]).state_dict())",
    # --- zero_grad, step ---------------------------------------------------------------------------------------
    "zero_grad_to_none": "o = torch.optim.SGD([w, b])\nloss_fn().backward()\no.zero_grad()\nprint(w.grad, b.grad)",
    "zero_grad_to_zero": "o = torch.optim.SGD([w, b])\nloss_fn().backward()\ng = w.grad\n"
                         "o.zero_grad(set_to_none=False)\nprint(w.grad, b.grad, g is w.grad, w.grad.requires_grad)",
    "zero_grad_detaches_a_grad_with_history": "o = torch.optim.SGD([w])\n"
                                              "w.grad = torch.ones(3, 2, requires_grad=True) * 2\n"
                                              "o.zero_grad(False)\nprint(w.grad, w.grad.grad_fn)",
    "step_closure": "o = torch.optim.SGD([w, b], lr=0.1)\ncalls = []\ndef closure():\n    calls.append(1)\n"
                    "    o.zero_grad()\n    loss = loss_fn()\n    loss.backward()\n    return loss\n"
                    "for _ in range(3):\n    print(o.step(closure))\nprint(len(calls), w)",
    "step_closure_under_no_grad": "o = torch.optim.Adam([w])\ndef closure():\n    o.zero_grad()\n"
                                  "    loss = loss_fn()\n    print(torch.is_grad_enabled(), loss.requires_grad)\n"
                                  "    loss.backward()\n    return loss.item()\nwith torch.no_grad():\n"
                                  "    print(o.step(closure))\nprint(torch.is_grad_enabled(), o.step())",
    "step_bumps_versions": "o = torch.optim.SGD([w, b], lr=0.1)\nv = (w._version, b._version)\n"
                           "w.grad = torch.ones(3, 2)\no.step()\nprint(w._version - v[0], b._version - v[1])",
    "step_result_not_in_graph": "o = torch.optim.Adam([w])\nloss_fn().backward()\no.step()\n"
                                "print(w.grad_fn, w.requires_grad, w.is_leaf, o.state[w]['exp_avg'].requires_grad)",
    "sgd_tolist_exact": "o = torch.optim.SGD([w, b], lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)\n"
                        "for _ in range(4):\n    o.zero_grad()\n    loss_fn().backward()\n    o.step()\n"
                        "print(w.tolist(), b.tolist())",
    # --- param groups ------------------------------------------------------------------------------------------
    "add_param_group": "o = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n"
                       "o.add_param_group({'params': b, 'lr': 0.01})\nprint(o)\n"
                       "print(len(o.param_groups[1]['params']))",
    "add_param_group_not_dict": "o = torch.optim.SGD([w])\no.add_param_group([b])",
    "add_param_group_overlap": "o = torch.optim.SGD([w])\no.add_param_group({'params': [w]})",
    "add_param_group_names_mixed": "o = torch.optim.SGD([('w', w)])\no.add_param_group({'params': [b]})",
    "params_mutates_the_users_dict": "g = {'params': (w, b)}\no = torch.optim.SGD([g], lr=0.2)\n"
                                     "print(sorted(g), g['params'] is o.param_groups[0]['params'], g['lr'])",
    "duplicate_params_warn": "torch.optim.SGD([w, w], lr=0.1)",
    "group_missing_required": "from torch.optim.optimizer import required\no = torch.optim.SGD([w])\n"
                              "o.defaults['lr'] = required\n"
                             "o.add_param_group({'params': [b]})",
    # --- bad arguments ----------------------------------------------------------------------------------------
    "params_a_tensor": "torch.optim.SGD(w)",
    "params_empty": "torch.optim.Adam([])",
    "params_a_set": "o = torch.optim.SGD([w])\no.add_param_group({'params': {b}})",
    "params_not_tensors": "torch.optim.SGD([w, 3])",
    "params_nonleaf": "torch.optim.RMSprop([w * 2])",
    "params_nonleaf_retains_grad_ok": "y = w * 2\ny.retain_grad()\nprint(torch.optim.SGD([y]).param_groups[0]['lr'])",
    "params_names_missing": "torch.optim.SGD([('w', w), b])",
    "sgd_lr": "torch.optim.SGD([w], lr=-0.1)",
    "sgd_momentum": "torch.optim.SGD([w], momentum=-0.1)",
    "sgd_weight_decay": "torch.optim.SGD([w], weight_decay=-1)",
    "sgd_nesterov": "torch.optim.SGD([w], nesterov=True)",
    "sgd_nesterov_dampening": "torch.optim.SGD([w], momentum=0.9, dampening=0.1, nesterov=True)",
    "adam_lr": "torch.optim.Adam([w], lr=-1)",
    "adam_eps": "torch.optim.Adam([w], eps=-1)",
    "adam_beta0": "torch.optim.Adam([w], betas=(1.0, 0.999))",
    "adam_beta1": "torch.optim.Adam([w], betas=(0.9, -0.1))",
    "adam_weight_decay": "torch.optim.AdamW([w], weight_decay=-0.1)",
    "adam_int_betas": "torch.optim.Adam([w], betas=(0, 0.999))",
    "adam_capturable_on_cpu": "o = torch.optim.Adam([w], capturable=True)\nw.grad = torch.ones(3, 2)\no.step()",
    "rmsprop_alpha": "torch.optim.RMSprop([w], alpha=-0.5)",
    "adadelta_rho": "torch.optim.Adadelta([w], rho=1.5)",
    "rmsprop_momentum": "torch.optim.RMSprop([w], momentum=-0.5)",
    "rmsprop_eps": "torch.optim.RMSprop([w], eps=-0.5)",
    "adagrad_lr_decay": "torch.optim.Adagrad([w], lr_decay=-0.5)",
    "adagrad_initial_accumulator": "torch.optim.Adagrad([w], initial_accumulator_value=-0.5)",
    "adagrad_weight_decay": "torch.optim.Adagrad([w], weight_decay=-0.5)",
    "fused_and_foreach": "torch.optim.SGD([w], fused=True, foreach=True)",
    "fused_and_differentiable": "torch.optim.Adam([w], fused=True, differentiable=True)",
    # --- the optimizers of other shapes: 2-d parameters only, a closure with a line search, sparse grads only --
    "muon": "o = torch.optim.Muon([w], lr=0.02)\nprint(o)\nfor _ in range(2):\n    o.zero_grad()\n"
            "    loss_fn().backward()\n    o.step()\nprint(o.state_dict())",
    "muon_not_2d": "torch.optim.Muon([w, b])",
    "lbfgs": "o = torch.optim.LBFGS([w, b], lr=0.5, max_iter=4)\nprint(o)\n" + CLOSURE
             + "for _ in range(2):\n    print(o.step(closure))\n"
             "print(w, o.state[w]['func_evals'], o.state[w]['n_iter'])",
    "lbfgs_strong_wolfe": "o = torch.optim.LBFGS([w, b], line_search_fn='strong_wolfe')\n" + CLOSURE
                          + "print(o.step(closure))\nprint(w, sorted(o.state_dict()['state'][0]))",
    "lbfgs_groups": "torch.optim.LBFGS([{'params': [w]}, {'params': [b]}])",
    "lbfgs_line_search_name": "o = torch.optim.LBFGS([w], line_search_fn='wolfe')\n" + CLOSURE + "o.step(closure)",
    "sparse_adam_dense_grad": "o = torch.optim.SparseAdam([w, b])\nprint(o)\nloss_fn().backward()\no.step()",
    "sparse_adam_lr": "torch.optim.SparseAdam([w], lr=0.0)",
    "tensor_lr": "o = torch.optim.SGD([w], lr=torch.tensor(0.01))\np = torch.optim.Adagrad([b], lr=torch.tensor(0.1))\n"
                 "loss_fn().backward()\no.step()\np.step()\nprint(w.tolist(), b.tolist())",
    "tensor_lr_two_elements": "torch.optim.SGD([w], lr=torch.tensor([0.1, 0.2]))",
    "rprop_etas": "torch.optim.Rprop([w], etas=(1.5, 1.2))",
    "nadam_momentum_decay": "torch.optim.NAdam([w], momentum_decay=-1)",
    "adafactor_d": "torch.optim.Adafactor([w], d=0.5)",
    "asgd_capturable_on_cpu": "o = torch.optim.ASGD([w], capturable=True)\nw.grad = torch.ones(3, 2)\no.step()",
    "step_keyword_not_callable": "torch.optim.SGD([w]).step(3)",
    "base_step": "torch.optim.Optimizer([w], {}).step()",
}


@pytest.mark.parametrize("case", sorted(PROGRAMS))
def test_program_prints_raises_and_warns_as_torch(case):
    if case == "sgd_tolist_exact" and not FMA_BUILD:
        pytest.skip("SGD's updates round once (fused) on FMA builds of torch only")
    want, got = run_both(SETUP + PROGRAMS[case], PRELUDE)
    assert got.exc == want.exc
    assert got.warnings == want.warnings
    assert got.stdout == want.stdout


def test_cases_test_something_on_torch():
    """A case that neither prints nor raises nor warns on torch tests nothing."""
    for case, src in PROGRAMS.items():
        o = run_source(SETUP + src, "torch", PRELUDE)
        assert o.stdout or o.exc or o.warnings, case


# --- what the engine refuses, and why ---------------------------------------------------------------------------
@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the engine's own refusals")
@pytest.mark.parametrize("call", ["SGD([w], fused=True)", "Adam([w], fused=True)", "SGD([w], differentiable=True)",
                                  "Adam([w], lr=torch.tensor(0.01))", "Adam([w], betas=(torch.tensor(0.9), "
                                  "torch.tensor(0.99)))"])
def test_other_code_paths_are_refused_clearly(call):
    """torch's fused kernels, differentiable steps and Tensor hyperparameters are other code paths than the
    for-loop the engine replays: refused with a NotImplementedError that says so (torch accepts them)."""
    E = load_engine()
    w = E.zeros(2, requires_grad=True)
    with pytest.raises(NotImplementedError, match="engine"):
        eval(f"E.optim.{call}", {"E": E, "w": w, "torch": E})  # noqa: S307 - the test's own expressions


# --- what a watcher hears ---------------------------------------------------------------------------------------
class Ear:
    def __init__(self):
        self.heard = []

    def on_op(self, out, op, inputs, attrs):
        self.heard.append(("op", op.name))

    def on_inplace(self, t, op, inputs, attrs):
        self.heard.append(("inplace", op.name, id(t), tuple(id(i) for i in inputs)))

    def on_tensor(self, t):
        self.heard.append(("tensor",))


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the engine's observers")
@pytest.mark.parametrize("name", ALL)
def test_a_step_is_heard_as_one_inplace_update_per_parameter(name):
    E = load_engine()
    from engine import observe

    w, b, unused = (E.ones(2, requires_grad=True) for _ in range(3))
    opt = getattr(E.optim, name)([w, b, unused])
    (w * b).sum().backward()
    ear = Ear()
    observe.add(ear)
    try:
        opt.step()
    finally:
        observe.remove(ear)
    assert ear.heard == [("inplace", "sub", id(p), (id(p),)) for p in (w, b)]


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the engine's observers")
def test_a_closure_is_heard_as_the_programs_code():
    E = load_engine()
    from engine import observe

    w = E.ones(2, requires_grad=True)
    opt = E.optim.SGD([w], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (w * 3).sum()
        loss.backward()
        return loss

    ear = Ear()
    observe.add(ear)
    try:
        loss = opt.step(closure)
    finally:
        observe.remove(ear)
    ops = [h[1] for h in ear.heard if h[0] == "op"]
    assert "mul" in ops and "sum" in ops
    assert ear.heard[-1] == ("inplace", "sub", id(w), (id(w),))
    assert loss.item() == 6.0
