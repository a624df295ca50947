"""Walking torch's ModuleInfo (`common_modules.module_db`) and OptimInfo (`common_optimizers.optim_db`) databases
against the engine."""
from __future__ import annotations

import copy
import time

import numpy as np
import torch
from conformance_compare import (
    Finding,
    Timeout,
    compare_raised,
    compare_results,
    compare_tensor,
    grad_pattern,
    time_limit,
)
from conformance_convert import Missing, Translator, Unsupported, engine_array, flat_tensors, to_engine, torch_array
from conformance_ops import EntryResult, _describe, _is_missing, settle, to_np_dtype
from conformance_reference import upcast, zipped

MODULE_DTYPES = (torch.float64, torch.float32)


def load_module_db():
    from torch.testing._internal.common_modules import module_db

    return module_db


def load_optim_db():
    from torch.testing._internal.common_optimizers import optim_db

    return optim_db


def module_key(info):
    return f"{info.name}.{info.variant_test_name}" if getattr(info, "variant_test_name", "") else info.name


def _finish(res, start):
    res.seconds = time.perf_counter() - start
    return settle(res)


def _to_dtype(module, E, dtype):
    if dtype == torch.float64:
        return module.double()
    return module.float()


# --- modules ----------------------------------------------------------------------------------------------------
def run_module(info, E, *, max_samples=0, timeout=10.0, dtypes=MODULE_DTYPES):
    start = time.perf_counter()
    res = EntryResult(module_key(info), "modules")
    tr = Translator(E)
    cls = info.module_cls
    try:
        ecls = tr.callable(cls) if E is torch else _engine_module(E, cls)
    except Missing as e:
        res.missing = str(e)
        return _finish(res, start)
    for dtype in dtypes:
        if dtype not in info.dtypes:
            continue
        trainings = (True, False) if info.train_and_eval_differ else (True,)
        for training in trainings:
            try:
                inputs = info.module_inputs_func(info, device="cpu", dtype=dtype, requires_grad=True,
                                                 training=training)
            except Exception:  # noqa: BLE001 - the database cannot make inputs here
                res.skipped += 1
                continue
            for i, mi in enumerate(inputs):
                if max_samples and i >= max_samples:
                    break
                tag = f"{str(dtype).split('.')[-1]}{'' if training else '/eval'}#{i + 1}"
                try:
                    _module_sample(info, cls, ecls, mi, E, tr, dtype, training, timeout, res, tag)
                except Missing as e:
                    if not res.samples_passed and not res.findings and not res.errors:
                        res.missing = str(e)
                        return _finish(res, start)
                    res.errors.append(f"{tag} missing {e}")
                except Exception as e:  # noqa: BLE001 - the harness's own failure, shown, never fatal
                    res.errors.append(f"{tag} harness: {_describe(e)}")
    return _finish(res, start)


def _engine_module(E, cls):
    name = cls.__name__
    ecls = getattr(E.nn, name, None)
    if ecls is None:
        raise Missing(f"torch.nn.{name}")
    return ecls


def _module_sample(info, cls, ecls, mi, E, tr, dtype, training, timeout, res, tag):
    c_args, c_kwargs = mi.constructor_input.args, mi.constructor_input.kwargs
    f_args, f_kwargs = mi.forward_input.args, mi.forward_input.kwargs
    try:
        ec_args, ec_kwargs = to_engine((c_args, c_kwargs), E, tr, {}, grad=False)
        memo = {}
        ef_args, ef_kwargs = to_engine((f_args, f_kwargs), E, tr, memo)
    except Unsupported:
        res.skipped += 1
        return
    res.samples += 1
    findings = []
    torch.manual_seed(0)
    try:
        tm = _to_dtype(cls(*c_args, **c_kwargs), torch, dtype)
    except Exception:  # noqa: BLE001 - torch refuses this construction here
        res.samples -= 1
        res.skipped += 1
        return
    E.manual_seed(0)
    try:
        with time_limit(timeout):
            em = _to_dtype(ecls(*ec_args, **ec_kwargs), E, dtype)
    except Exception as e:  # noqa: BLE001
        if _is_missing(e):
            raise Missing(_describe(e)) from None
        res.errors.append(f"{tag} constructing: {_describe(e)}")
        return
    if repr(tm) != repr(em):
        findings.append(Finding("repr", "print", f"{repr(em)[:100]!r} != {repr(tm)[:100]!r}"))
    t_sd = tm.state_dict()
    try:
        e_sd = em.state_dict()
    except Exception as e:  # noqa: BLE001
        res.errors.append(f"{tag} state_dict: {_describe(e)}")
        return
    lazy = any(torch.nn.parameter.is_lazy(v) for v in t_sd.values())
    if list(t_sd) != list(e_sd):
        findings.append(Finding("module", "structure", f"state_dict keys {list(e_sd)} != {list(t_sd)}"))
    elif not lazy:  # a lazy module's parameters are made (from the seed) by its first forward
        n = len(findings)
        for k, v in t_sd.items():
            compare_tensor(v, e_sd[k], E, f"init {k}", findings, layout=False, grad_fn=False, requires_grad=False)
        _relabel(findings, n, "module")
        try:
            em.load_state_dict({k: to_engine(v, E, tr, {}, grad=False) for k, v in t_sd.items()})
        except Exception as e:  # noqa: BLE001
            res.errors.append(f"{tag} load_state_dict: {_describe(e)}")
            return
    tm.train(training)
    em.train(training)
    torch.manual_seed(1)
    try:
        t_out = tm(*f_args, **f_kwargs)
        t_exc = None
    except Exception as e:  # noqa: BLE001
        t_exc = e
    E.manual_seed(1)
    try:
        with time_limit(timeout):
            e_out = em(*ef_args, **ef_kwargs)
        e_exc = None
    except Exception as e:  # noqa: BLE001
        if _is_missing(e):
            raise Missing(_describe(e)) from None
        e_exc = e
    if t_exc is not None:
        if e_exc is None:
            findings.append(Finding("module", "no-raise", f"torch raised {_describe(t_exc)}"))
        else:
            compare_raised(t_exc, e_exc, "module", findings)
        _record(res, tag, findings)
        return
    if e_exc is not None:
        res.errors.append(f"{tag} forward: {_describe(e_exc)}")
        return
    n = len(findings)
    compare_results(t_out, e_out, E, "output", findings, printed=True)
    if len(findings) == n:
        _module_grads(tm, em, t_out, e_out, memo, E, timeout, findings)
    if dtype == torch.float32 and any(f.kind == "value" for f in findings[n:]):
        reference = _reference(tm, f_args, f_kwargs)
        if reference is not None:
            del findings[n:]
            compare_results(t_out, e_out, E, "output", findings, printed=True, references=zipped(
                flat_tensors(t_out, torch), flat_tensors(reference[0], torch)))
            if len(findings) == n:
                _module_grads(tm, em, t_out, e_out, memo, E, timeout, findings, reference)
    _record(res, tag, findings)


def _reference(tm, f_args, f_kwargs):
    """(output, module, {id(input): its float64 leaf}): the float32 module and sample run again in float64 (see
    conformance_reference.py), or None where torch cannot."""
    memo = {}
    try:
        rm = copy.deepcopy(tm).double()
        args, kwargs = upcast((f_args, f_kwargs), memo)
        torch.manual_seed(1)
        return rm(*args, **kwargs), rm, memo
    except Exception:  # noqa: BLE001
        return None


def _module_grads(tm, em, t_out, e_out, memo, E, timeout, findings, reference=None):
    t_flat = [t for t in flat_tensors(t_out, torch)]
    e_flat = flat_tensors(e_out, E)
    pairs = [(t, e) for t, e in zip(t_flat, e_flat) if t.requires_grad and t.dtype.is_floating_point]
    t_params = dict(tm.named_parameters())
    e_params = dict(em.named_parameters())
    if list(t_params) != list(e_params):
        findings.append(Finding("module", "structure", f"parameters {list(e_params)} != {list(t_params)}"))
        return
    leaves = [(t, e) for t, e in memo.values() if isinstance(t, torch.Tensor) and t.requires_grad]
    leaves += [(t_params[k], e_params[k]) for k in t_params if t_params[k].requires_grad]
    names = [f"input {i}" for i in range(len(leaves) - len(t_params))] + [k for k in t_params]
    if not pairs or not leaves:
        return
    gos = [grad_pattern(tuple(t.shape), to_np_dtype(t.dtype)) for t, _ in pairs]
    try:
        t_grads = torch.autograd.grad([t for t, _ in pairs], [t for t, _ in leaves],
                                      [torch_array(g) for g in gos], allow_unused=True)
    except Exception:  # noqa: BLE001
        return
    try:
        with time_limit(timeout):
            e_grads = E.autograd.grad([e for _, e in pairs], [e for _, e in leaves],
                                      [engine_array(E, g, str(t.dtype).split(".")[-1]) for g, (t, _) in
                                       zip(gos, pairs)], allow_unused=True)
    except Exception as e:  # noqa: BLE001
        findings.append(Finding("grad", "raised", _describe(e)))
        return
    refs = None
    if reference is not None:
        r_out, rm, r_memo = reference
        r_params = dict(rm.named_parameters())
        r_flat = flat_tensors(r_out, torch)
        try:
            r_leaves = [r_memo[id(t)] for t, _ in leaves[:len(leaves) - len(t_params)]] + \
                       [r_params[k] for k in t_params if t_params[k].requires_grad]
            r_grads = torch.autograd.grad([r_flat[i] for i, t in enumerate(t_flat) if t.requires_grad and
                                           t.dtype.is_floating_point], r_leaves,
                                          [torch_array(g.astype(np.float64)) for g in gos], allow_unused=True)
            refs = zipped(t_grads, r_grads)
        except Exception:  # noqa: BLE001 - no float64 grads here: torch's float32 is the measure
            refs = None
    for name, tg, eg in zip(names, t_grads, e_grads):
        if tg is None or eg is None:
            if (tg is None) != (eg is None):
                findings.append(Finding("grad", "structure", f"{name}: one of torch and the engine gives None"))
            continue
        n = len(findings)
        compare_tensor(tg, eg, E, "grad", findings, grad_fn=False, requires_grad=False, references=refs)
        for f in findings[n:]:
            f.text = f"{name}: {f.text}"


def _relabel(findings, start, area):
    """Findings from `start` on are of `area`; the place they came from goes into their text."""
    for f in findings[start:]:
        if f.area != area:
            f.text = f"{f.area}: {f.text}"
            f.area = area


def _record(res, tag, findings):
    for f in findings:
        f.text = f"{tag} {f.text}"
    res.findings.extend(findings)
    if not findings:
        res.samples_passed += 1


def run_modules(E, only=(), *, verbose=False, timeout=10.0, max_samples=0):
    out = []
    for info in load_module_db():
        key = module_key(info)
        if only and key not in only and info.module_cls.__name__ not in only:
            continue
        r = run_module(info, E, timeout=timeout, max_samples=max_samples)
        out.append(r)
        if verbose:
            print(f"  {r.status:8} {r.key:45} {r.samples_passed}/{r.samples} {r.seconds:6.2f}s  "
                  f"{r.first_reason[:150]}", flush=True)
    return out


# --- optimizers -------------------------------------------------------------------------------------------------
STEPS = 5
_X = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
_Y = np.array([[0.5, -0.25, 1.0, 0.0], [-1.0, 0.75, 0.25, 0.5]])


def _params(M, dtype, two_d_only=False):
    w = (np.arange(12).reshape(4, 3) % 5 - 2.0) / 3.0
    b = np.array([0.1, -0.2, 0.3, -0.4])
    arrays = [("weight", w)] + ([] if two_d_only else [("bias", b)])
    ps = []
    for _, a in arrays:
        if M is torch:
            ps.append(torch.nn.Parameter(torch.tensor(a, dtype=dtype)))
        else:
            ps.append(M.nn.Parameter(M.tensor(a, dtype=getattr(M, str(dtype).split(".")[-1]))))
    return ps


def _closure(M, opt, ps, dtype):
    name = str(dtype).split(".")[-1]

    def closure():
        opt.zero_grad()
        x = M.tensor(_X, dtype=getattr(M, name))
        y = M.tensor(_Y, dtype=getattr(M, name))
        out = x @ ps[0].t()
        if len(ps) > 1:
            out = out + ps[1]
        loss = ((out - y) ** 2).sum() + (ps[0] ** 4).sum() * 0.1
        loss.backward()
        return loss

    return closure


def _sd_compare(t_sd, e_sd, E, findings, where):
    if set(t_sd) != set(e_sd):
        findings.append(Finding("optim", "structure", f"{where} keys {sorted(e_sd)} != {sorted(t_sd)}"))
        return
    t_state, e_state = t_sd["state"], e_sd["state"]
    if sorted(t_state) != sorted(e_state, key=str):
        findings.append(Finding("optim", "structure", f"{where} state keys {list(e_state)} != {list(t_state)}"))
        return
    for k, ts in t_state.items():
        es = e_state[k]
        if sorted(ts) != sorted(es):
            findings.append(Finding("optim", "structure", f"{where} state[{k}] {sorted(es)} != {sorted(ts)}"))
            continue
        for name, v in ts.items():
            compare_results(v, es[name], E, f"{where} state[{k}].{name}", findings, layout=False, grad_fn=False,
                            requires_grad=False)
    for i, (tg, eg) in enumerate(zip(t_sd["param_groups"], e_sd["param_groups"])):
        if sorted(tg) != sorted(eg):
            findings.append(Finding("optim", "structure", f"{where} param_groups[{i}] keys {sorted(eg)} != "
                                                          f"{sorted(tg)}"))
            continue
        for name, v in tg.items():
            if isinstance(v, torch.Tensor) or isinstance(eg[name], E.Tensor):
                continue
            if v != eg[name] and not (isinstance(v, float) and abs(v - eg[name]) <= 1e-12 * max(1, abs(v))):
                findings.append(Finding("optim", "value", f"{where} param_groups[{i}].{name} {eg[name]!r} != {v!r}"))


def run_optimizer(info, E, *, timeout=30.0, dtypes=(torch.float64,)):
    start = time.perf_counter()
    res = EntryResult(info.optim_cls.__name__, "optimizers")
    tr = Translator(E)
    try:
        ecls = info.optim_cls if E is torch else getattr(E.optim, info.optim_cls.__name__)
    except AttributeError:
        res.missing = f"torch.optim.{info.optim_cls.__name__}"
        return _finish(res, start)
    for dtype in dtypes:
        configs = info.optim_inputs_func(device="cpu", dtype=dtype)
        for i, oi in enumerate(configs):
            tag = f"{str(dtype).split('.')[-1]}#{i + 1} {oi.desc}"
            try:
                _optim_config(info, ecls, oi.kwargs, E, tr, dtype, timeout, res, tag, schedulers=())
            except Exception as e:  # noqa: BLE001
                res.errors.append(f"{tag} harness: {_describe(e)}")
        for j, makers in enumerate(info.scheduler_inputs or ()):
            tag = f"{str(dtype).split('.')[-1]} schedulers#{j + 1}"
            try:
                _optim_config(info, ecls, configs[0].kwargs, E, tr, dtype, timeout, res, tag, schedulers=makers)
            except Exception as e:  # noqa: BLE001
                res.errors.append(f"{tag} harness: {_describe(e)}")
    return _finish(res, start)


def _optim_config(info, ecls, kwargs, E, tr, dtype, timeout, res, tag, schedulers):
    findings = []
    try:
        ekwargs = to_engine(kwargs, E, tr, {}, grad=False)
    except (Unsupported, Missing) as e:
        res.skipped += 1
        res.errors.append(f"{tag} kwargs: {e}") if isinstance(e, Missing) else None
        return
    two_d = False
    tps = _params(torch, dtype)
    try:
        topt = info.optim_cls(tps, **kwargs)
    except Exception:  # noqa: BLE001 - Muon takes matrices only
        two_d = True
        tps = _params(torch, dtype, two_d_only=True)
        try:
            topt = info.optim_cls(tps, **kwargs)
        except Exception:  # noqa: BLE001
            res.skipped += 1
            return
    res.samples += 1
    eps = _params(E, dtype, two_d_only=two_d)
    try:
        eopt = ecls(eps, **ekwargs)
        tscheds = [make(topt) for make in schedulers]
        escheds = [tr.callable(make)(eopt) for make in schedulers]
    except Exception as e:  # noqa: BLE001
        if _is_missing(e):
            res.errors.append(f"{tag} missing {_describe(e)}")
        else:
            res.errors.append(f"{tag} constructing: {_describe(e)}")
        return
    t_closure, e_closure = _closure(torch, topt, tps, dtype), _closure(E, eopt, eps, dtype)
    t_exc = None
    for step in range(STEPS):
        try:
            t_loss = topt.step(t_closure)
            t_exc = None
        except Exception as e:  # noqa: BLE001
            t_exc = e
        try:
            with time_limit(timeout):
                e_loss = eopt.step(e_closure)
            e_exc = None
        except Exception as e:  # noqa: BLE001
            e_exc = e
        if t_exc is not None:
            if e_exc is None:
                findings.append(Finding("optim", "no-raise", f"step {step}: torch raised {_describe(t_exc)}"))
            else:
                compare_raised(t_exc, e_exc, "optim", findings)
            break
        if e_exc is not None:
            res.errors.append(f"{tag} step {step}: {_describe(e_exc)}")
            return
        n = len(findings)
        compare_results(t_loss, e_loss, E, f"optim step {step} loss", findings, layout=False, grad_fn=False,
                        requires_grad=False)
        for k, (tp, ep) in enumerate(zip(tps, eps)):
            compare_tensor(tp.detach(), ep.detach(), E, f"optim step {step} param {k}", findings, layout=False,
                           grad_fn=False, requires_grad=False)
        if schedulers:
            try:
                for ts, es in zip(tscheds, escheds):
                    if type(ts).__name__ == "ReduceLROnPlateau":
                        ts.step(float(t_loss.detach()))
                        es.step(float(e_loss.detach()))
                    else:
                        ts.step()
                        es.step()
            except Exception as e:  # noqa: BLE001
                findings.append(Finding("optim", "raised", f"scheduler step: {_describe(e)}"))
                break
            t_lrs = [g["lr"] for g in topt.param_groups]
            e_lrs = [g["lr"] for g in eopt.param_groups]
            compare_results(t_lrs, e_lrs, E, f"optim step {step} lr", findings, layout=False, grad_fn=False)
        if len(findings) > n:
            break
    _relabel(findings, 0, "optim")
    if not findings and t_exc is None:  # after a step torch refuses, there is no state to carry over
        try:
            _round_trip(info, ecls, ekwargs, kwargs, topt, eopt, tps, eps, E, dtype, two_d, findings)
        except Timeout:
            raise
        except Exception as e:  # noqa: BLE001
            findings.append(Finding("optim", "raised", f"state_dict round trip: {_describe(e)}"))
    _record(res, tag, findings)


def _round_trip(info, ecls, ekwargs, kwargs, topt, eopt, tps, eps, E, dtype, two_d, findings):
    t_sd = topt.state_dict()
    e_sd = eopt.state_dict()
    _sd_compare(t_sd, e_sd, E, findings, "state_dict")
    if findings:
        return
    eps2 = _params(E, dtype, two_d_only=two_d)
    with E.no_grad():
        for p2, p in zip(eps2, eps):
            p2.copy_(p)
    eopt2 = ecls(eps2, **ekwargs)
    eopt2.load_state_dict(e_sd)
    topt.step(_closure(torch, topt, tps, dtype))
    eopt2.step(_closure(E, eopt2, eps2, dtype))
    for k, (tp, ep) in enumerate(zip(tps, eps2)):
        compare_tensor(tp.detach(), ep.detach(), E, f"optim after load_state_dict param {k}", findings, layout=False,
                       grad_fn=False, requires_grad=False)


def run_optimizers(E, only=(), *, verbose=False, timeout=30.0):
    out = []
    for info in load_optim_db():
        name = info.optim_cls.__name__
        if only and name not in only:
            continue
        r = run_optimizer(info, E, timeout=timeout)
        out.append(r)
        if verbose:
            print(f"  {r.status:8} {r.key:45} {r.samples_passed}/{r.samples} {r.seconds:6.2f}s  "
                  f"{r.first_reason[:150]}", flush=True)
    return out
