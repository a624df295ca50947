"""Walking torch's OpInfo database (`common_methods_invocations.op_db`) against the engine, sample by sample."""
from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from conformance_compare import (
    BITS,
    CLOSER,
    TOLERANCES,
    Finding,
    Timeout,
    compare_raised,
    compare_results,
    compare_tensor,
    dtype_name,
    grad_pattern,
    time_limit,
)
from conformance_convert import (
    Missing,
    Translator,
    Unsupported,
    engine_array,
    flat_tensors,
    to_engine,
    torch_array,
)
from conformance_gauge import GAUGED, gauge_fixed
from conformance_reference import Reference

DTYPES = (torch.float64, torch.float32, torch.int64, torch.bool)
COMPLEX_DTYPES = (torch.complex128, torch.complex64)  # walked apart: an entry's complex samples are its `complex:` key
BFLOAT16_DTYPES = (torch.bfloat16,)  # walked apart too (benchmarks/conformance.py --bfloat16): `bfloat16:` keys
PREFIXES = ("nn.functional", "linalg", "special", "fft")
NAMESPACE_ORDER = ("torch", "Tensor", "nn.functional", "linalg", "special", "fft", "other", "modules", "optimizers",
                   "complex", "bfloat16")
# Entries whose values are unspecified (uninitialized memory): only shape, dtype and layout are compared.
UNSPECIFIED_VALUES = {"empty", "empty_like", "empty_permuted", "empty_strided", "new_empty", "new_empty_strided",
                      "resize_", "resize_as_"}
MAX_NUMEL = 200_000  # samples with more elements in their inputs are skipped (none of the CPU samples come close)


def load_op_db():
    from torch.testing._internal import common_utils

    # Each sample_inputs() looks for the unittest method calling it through inspect.stack(), which reads every
    # frame's source: seconds per hundred calls under pytest. There is no such method here.
    common_utils.extract_test_fn = lambda: None
    from torch.testing._internal.common_methods_invocations import op_db

    return op_db


def entry_key(name, variant):
    return f"{name}.{variant}" if variant else name


def namespace_of(name):
    for prefix in PREFIXES:
        if name.startswith(prefix + "."):
            return prefix
    if "." in name:
        return "other"
    if hasattr(torch, name):
        return "torch"
    if hasattr(torch.Tensor, name):
        return "Tensor"
    return "other"


@dataclass
class EntryResult:
    key: str
    namespace: str
    status: str = "pass"  # pass, differ, missing, error, n/a
    samples: int = 0
    samples_passed: int = 0
    skipped: int = 0
    findings: list = field(default_factory=list)  # Finding, with the sample's dtype/index in its text
    errors: list = field(default_factory=list)  # texts: the engine raised where torch did not
    missing: str = ""
    seconds: float = 0.0

    @property
    def core_pass(self):
        return self.status not in ("missing", "n/a") and not self.errors and not any(f.core for f in self.findings)

    @property
    def first_reason(self):
        if self.missing:
            return f"missing {self.missing}"
        if self.errors:
            return self.errors[0]
        if self.findings:
            return str(self.ordered()[0])
        return ""

    def ordered(self):
        """Findings, the core ones first, then all but layout, then layout (strides, contiguity)."""
        return sorted(self.findings, key=lambda f: (not f.core, f.kind in ("stride", "contiguous")))

    def worst(self):
        ratios = [f for f in self.findings if f.kind == "value"]
        return max(ratios, key=lambda f: f.ratio) if ratios else None

    def as_json(self):
        return {"key": self.key, "namespace": self.namespace, "status": self.status, "core_pass": self.core_pass,
                "samples": self.samples, "samples_passed": self.samples_passed, "skipped": self.skipped,
                "missing": self.missing, "errors": self.errors[:20], "seconds": round(self.seconds, 3),
                "findings": [str(f) for f in self.ordered()[:40]],
                "kinds": sorted({f"{f.area.split('[')[0]} {f.kind}" for f in self.findings})}


def settle(res, inapplicable=False):
    """The entry's status from what was found. An entry none of whose samples could be compared does not pass: it is
    `n/a` when torch gives it no CPU sample in the dtypes walked (complex-only entries, CUDA-only variants; not
    counted in the table), else an error of the harness (it could not carry the samples' arguments over)."""
    if inapplicable:
        res.status = "n/a"
    elif res.missing:
        res.status = "missing"
    elif res.errors:
        res.status = "error"
    elif res.findings:
        res.status = "differ"
    elif not res.samples:
        if not res.skipped:
            res.status = "n/a"
        else:
            res.status = "error"
            res.errors.append(f"harness: none of the {res.skipped} samples could be carried over to the engine")
    return res


def _numel(obj):
    if isinstance(obj, torch.Tensor):
        return obj.numel()
    if isinstance(obj, (list, tuple)):
        return sum(_numel(x) for x in obj)
    if isinstance(obj, dict):
        return sum(_numel(x) for x in obj.values())
    return 0


def _detached(obj):
    if isinstance(obj, torch.Tensor):
        return obj.detach().clone()
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(_detached(x) for x in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(_detached(x) for x in obj)
    if isinstance(obj, dict):
        return {k: _detached(v) for k, v in obj.items()}
    return obj


def _layout_dependent(obj):
    """Tensors that alias each other or are not plain contiguous blocks of their own."""
    tensors = []

    def walk(x):
        if isinstance(x, torch.Tensor):
            tensors.append(x)
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for y in x.values():
                walk(y)

    walk(obj)
    storages = set()
    for t in tensors:
        if t.layout != torch.strided:
            return True
        if not t.is_contiguous() or t.storage_offset() or t.untyped_storage().nbytes() != t.numel() * t.element_size():
            return True
        ptr = t.untyped_storage().data_ptr()
        if ptr and ptr in storages:
            return True
        storages.add(ptr)
    return False


def _is_missing(exc):
    return isinstance(exc, Missing) or (isinstance(exc, AttributeError) and "has no attribute" in str(exc))


def _describe(exc):
    text = str(exc).split("\n")[0]
    return f"{type(exc).__name__}: {text[:160]}"


class OpRunner:
    def __init__(self, E, *, max_samples=0, timeout=10.0, dtypes=DTYPES, grads=True, variants=True,
                 error_inputs=True):
        self.E = E
        self.tr = Translator(E)
        self.max_samples = max_samples
        self.timeout = timeout
        self.dtypes = dtypes
        self.grads = grads
        self.variants = variants
        self.error_inputs = error_inputs

    def run(self, op):
        start = time.perf_counter()
        res = EntryResult(entry_key(op.name, op.variant_test_name), namespace_of(op.name))
        try:
            self._run(op, res)
        except Missing as e:
            res.missing = str(e)
        except Exception as e:  # noqa: BLE001 - the walk goes on; the harness's failure is shown with the entry
            res.errors.append(f"harness: {_describe(e)}")
        res.seconds = time.perf_counter() - start
        return settle(res, not set(self.dtypes) & set(op.supported_dtypes("cpu")))

    def _run(self, op, res):
        fn = self.tr.callable(op.op)
        self.tolerances = op_tolerances(op)
        supported = op.supported_dtypes("cpu")
        backward = op.supported_backward_dtypes("cpu") if op.supports_autograd else set()
        for dtype in self.dtypes:
            if dtype not in supported:
                continue
            grad = self.grads and dtype in backward and (dtype.is_floating_point or dtype.is_complex)
            try:
                samples = iter(op.sample_inputs("cpu", dtype, requires_grad=grad))
            except Exception:  # noqa: BLE001 - the database cannot make samples here: not the engine's doing
                res.skipped += 1
                continue
            for count in itertools.count(1):
                if self.max_samples and count > self.max_samples:
                    break
                try:
                    sample = next(samples)
                except StopIteration:
                    break
                except Exception:  # noqa: BLE001 - as above
                    res.skipped += 1
                    break
                try:
                    self._sample(op, fn, sample, dtype, grad, res, count)
                except (Missing, KeyboardInterrupt):
                    raise
                except Exception as e:  # noqa: BLE001 - a failure of the harness itself is shown, never fatal
                    res.errors.append(f"{dtype_name(dtype)}#{count} harness: {_describe(e)}")
        if self.error_inputs and res.samples:
            self._error_inputs(op, fn, res)

    # --- one sample ---------------------------------------------------------------------------------------------
    def _sample(self, op, fn, sample, dtype, grad, res, index):
        E = self.E
        if _numel((sample.input, sample.args, sample.kwargs)) > MAX_NUMEL:
            res.skipped += 1
            return
        memo = {}
        try:
            e_in = to_engine(sample.input, E, self.tr, memo)
            e_args = to_engine(sample.args, E, self.tr, memo)
            e_kwargs = to_engine(sample.kwargs, E, self.tr, memo)
        except Unsupported:
            res.skipped += 1
            return
        res.samples += 1
        tag = f"{dtype_name(dtype)}#{index}"
        bits = dict(BITS)
        findings = self._compare_sample(op, fn, sample, grad, res, tag, e_in, e_args, e_kwargs, memo, None)
        if findings and dtype == torch.float32 and any(f.kind == "value" for f in findings):
            try:
                reference = Reference(op, sample)
            except Exception:  # noqa: BLE001 - torch cannot run the sample in float64: torch's float32 is the measure
                reference = None
            if reference is not None:
                BITS.update(bits)
                before = len(findings)
                findings = self._compare_sample(op, fn, sample, grad, res, tag, e_in, e_args, e_kwargs, memo,
                                                reference)
                if findings is not None and len(findings) < before:
                    CLOSER["entries"].add(res.key)
        if findings is not None:
            self._record(res, tag, findings)

    def _compare_sample(self, op, fn, sample, grad, res, tag, e_in, e_args, e_kwargs, memo, reference):
        """The sample's findings (None when the engine raised where torch did not: an error of the entry)."""
        E = self.E
        findings = []
        try:
            torch.manual_seed(0)
            t_out = op.op(sample.input, *sample.args, **sample.kwargs)
            t_exc = None
        except Exception as e:  # noqa: BLE001
            t_out, t_exc = None, e
        try:
            with time_limit(self.timeout):
                E.manual_seed(0)
                e_out = fn(e_in, *e_args, **e_kwargs)
            e_exc = None
        except Exception as e:  # noqa: BLE001
            if _is_missing(e):
                if not res.samples_passed and not res.findings and not res.errors:
                    raise Missing(str(e) if isinstance(e, Missing) else _describe(e)) from None
            e_out, e_exc = None, e
        if t_exc is not None:
            if e_exc is None:
                findings.append(Finding("output", "no-raise", f"torch raised {_describe(t_exc)}"))
            else:
                compare_raised(t_exc, e_exc, "output", findings)
            return findings
        if e_exc is not None:
            res.errors.append(f"{tag} {_describe(e_exc)}")
            return None
        values = op.name not in UNSPECIFIED_VALUES
        refs = reference.of_output(t_out) if reference is not None else None
        self._compare_output(op, t_out, e_out, "output", findings, printed=values, values=values,
                             tolerances=self.tolerances, references=refs)
        if grad and not any(f.core for f in findings):
            try:
                self._grads(op, sample, t_out, e_out, memo, findings, reference)
            except Timeout as e:
                findings.append(Finding("grad", "raised", str(e)))
        if self.variants:
            self._method(op, sample, e_in, e_args, e_kwargs, t_out, findings, refs)
            self._inplace(op, sample, findings)
            self._out(op, fn, sample, t_out, findings, refs)
        return findings

    def _compare_output(self, op, t_out, e_out, area, findings, **kw):
        """compare_results, but where the op's vectors are defined only up to sign (conformance_gauge.py), their
        values and printed text are compared once the signs are fixed on both sides."""
        kind = GAUGED.get(op.name)
        if kind is None or not isinstance(t_out, tuple):
            compare_results(t_out, e_out, self.E, area, findings, **kw)
            return
        n = len(findings)
        compare_results(t_out, e_out, self.E, area, findings, **{**kw, "values": False, "printed": False})
        if any(f.core for f in findings[n:]):
            return
        compare_results(gauge_fixed(kind, t_out, torch), gauge_fixed(kind, e_out, self.E), self.E, area, findings,
                        **{**kw, "layout": False, "grad_fn": False, "requires_grad": False})

    def _record(self, res, tag, findings):
        for f in findings:
            f.text = f"{tag} {f.text}"
        res.findings.extend(findings)
        if not findings:
            res.samples_passed += 1

    # --- gradients ----------------------------------------------------------------------------------------------
    def _grads(self, op, sample, t_out, e_out, memo, findings, reference=None):
        E = self.E
        process = sample.output_process_fn_grad
        t_res = process(t_out)
        try:
            e_res = self.tr.callable(process)(e_out) if self.E is not torch else process(e_out)
        except Missing:
            return
        t_flat = flat_tensors(t_res, torch)
        e_flat = flat_tensors(e_res, E)
        if len(t_flat) != len(e_flat):
            findings.append(Finding("grad", "structure", f"{len(e_flat)} output tensors != {len(t_flat)}"))
            return
        pairs = [(t, e) for t, e in zip(t_flat, e_flat)
                 if t.requires_grad and (t.dtype.is_floating_point or t.dtype.is_complex)]
        leaves = [(t, e) for t, e in memo.values() if isinstance(t, torch.Tensor) and t.requires_grad]
        if not pairs or not leaves:
            return
        for _, e in pairs:
            if not e.requires_grad:
                findings.append(Finding("grad", "requires_grad", "an output does not require grad"))
                return
        gradgrad = op.supports_gradgrad
        gos = [grad_pattern(tuple(t.shape), to_np_dtype(t.dtype)) for t, _ in pairs]
        try:
            t_grads = torch.autograd.grad([t for t, _ in pairs], [t for t, _ in leaves],
                                          [torch_array(g) for g in gos], allow_unused=True,
                                          create_graph=gradgrad)
        except Exception:  # noqa: BLE001 - torch cannot differentiate this sample: nothing to compare
            return
        try:
            with time_limit(self.timeout):
                e_grads = E.autograd.grad([e for _, e in pairs], [e for _, e in leaves],
                                          [engine_array(E, g, dtype_name(t.dtype)) for g, (t, _) in zip(gos, pairs)],
                                          allow_unused=True, create_graph=gradgrad)
        except Exception as e:  # noqa: BLE001
            findings.append(Finding("grad", "raised", _describe(e)))
            return
        refs = None
        if reference is not None:
            try:
                indices = [i for i, t in enumerate(t_flat)
                           if t.requires_grad and (t.dtype.is_floating_point or t.dtype.is_complex)]
                refs = reference.of_grads(process, indices, [t for t, _ in leaves], gos, t_grads, gradgrad)
            except Exception:  # noqa: BLE001 - no float64 grads for this sample: torch's float32 is the measure
                reference = None
        ok = True
        for i, (tg, eg) in enumerate(zip(t_grads, e_grads)):
            if tg is None or eg is None:
                if (tg is None) != (eg is None):
                    findings.append(Finding("grad", "structure", f"input {i}: engine gives "
                                                                 f"{'None' if eg is None else 'a grad'}, torch "
                                                                 f"{'None' if tg is None else 'a grad'}"))
                    ok = False
                continue
            n = len(findings)
            compare_tensor(tg, eg, E, "grad", findings, grad_fn=gradgrad, requires_grad=gradgrad,
                           tolerances=self.tolerances, references=refs)
            ok = ok and len(findings) == n
        if not (gradgrad and ok):
            return
        g_indices = [i for i, tg in enumerate(t_grads) if tg is not None and tg.requires_grad]
        g_pairs = [(t_grads[i], e_grads[i]) for i in g_indices]
        if not g_pairs:
            return
        vs = [grad_pattern(tuple(t.shape), to_np_dtype(t.dtype))[..., ] * 0.5 for t, _ in g_pairs]
        try:
            t_gg = torch.autograd.grad([t for t, _ in g_pairs], [t for t, _ in leaves],
                                       [torch_array(v) for v in vs], allow_unused=True)
        except Exception:  # noqa: BLE001
            return
        try:
            with time_limit(self.timeout):
                e_gg = E.autograd.grad([e for _, e in g_pairs], [e for _, e in leaves],
                                       [engine_array(E, v, dtype_name(t.dtype)) for v, (t, _) in zip(vs, g_pairs)],
                                       allow_unused=True)
        except Exception as e:  # noqa: BLE001
            findings.append(Finding("gradgrad", "raised", _describe(e)))
            return
        refs = None
        if reference is not None:
            try:
                refs = reference.of_gradgrads(g_indices, vs, t_gg)
            except Exception:  # noqa: BLE001 - as above
                refs = None
        for tg, eg in zip(t_gg, e_gg):
            if tg is None or eg is None:
                # torch gives None or zeros for an input the first grads do not depend on; both are fine
                continue
            compare_tensor(tg, eg, E, "gradgrad", findings, grad_fn=False, requires_grad=False,
                           tolerances=self.tolerances, references=refs)

    # --- variants -----------------------------------------------------------------------------------------------
    def _method(self, op, sample, e_in, e_args, e_kwargs, t_out, findings, refs=None):
        if op.method_variant is None or op.method_variant is op.op:
            return
        try:
            method = self.tr.callable(op.method_variant)
        except Missing as e:
            findings.append(Finding("method", "missing", str(e)))
            return
        try:
            with time_limit(self.timeout):
                self.E.manual_seed(0)
                e_out = method(e_in, *e_args, **e_kwargs)
        except Exception as e:  # noqa: BLE001
            findings.append(Finding("method", "raised", _describe(e)))
            return
        values = op.name not in UNSPECIFIED_VALUES
        self._compare_output(op, t_out, e_out, "method", findings, layout=False, values=values,
                             tolerances=self.tolerances, references=refs)

    def _inplace(self, op, sample, findings):
        if op.inplace_variant is None:
            return
        try:
            inplace = self.tr.callable(op.inplace_variant)
        except Missing as e:
            findings.append(Finding("inplace", "missing", str(e)))
            return
        t_in, t_args, t_kwargs = _detached((sample.input, sample.args, sample.kwargs))
        if not isinstance(t_in, torch.Tensor):
            return
        try:
            memo = {}
            e_in, e_args, e_kwargs = to_engine((t_in, t_args, t_kwargs), self.E, self.tr, memo, grad=False)
        except (Unsupported, Missing):
            return
        try:
            torch.manual_seed(0)
            t_res = op.inplace_variant(t_in, *t_args, **t_kwargs)
            t_exc = None
        except Exception as e:  # noqa: BLE001
            t_exc = e
        try:
            with time_limit(self.timeout):
                self.E.manual_seed(0)
                e_res = inplace(e_in, *e_args, **e_kwargs)
            e_exc = None
        except Exception as e:  # noqa: BLE001
            e_exc = e
        if t_exc is not None:
            if e_exc is None:
                findings.append(Finding("inplace", "no-raise", f"torch raised {_describe(t_exc)}"))
            else:
                compare_raised(t_exc, e_exc, "inplace", findings)
            return
        if e_exc is not None:
            findings.append(Finding("inplace", "raised", _describe(e_exc)))
            return
        compare_tensor(t_in, e_in, self.E, "inplace", findings, grad_fn=False, requires_grad=False,
                       values=op.name not in UNSPECIFIED_VALUES)
        if (t_res is t_in) != (e_res is e_in):
            findings.append(Finding("inplace", "identity", "the result is not self"))

    def _out(self, op, fn, sample, t_out, findings, refs=None):
        if not op.supports_out or not isinstance(t_out, torch.Tensor):
            return
        t_in, t_args, t_kwargs = _detached((sample.input, sample.args, sample.kwargs))
        t_buf = torch.empty(t_out.shape, dtype=t_out.dtype)
        try:
            e_in, e_args, e_kwargs = to_engine((t_in, t_args, t_kwargs), self.E, self.tr, {}, grad=False)
            e_buf = self.E.empty(tuple(t_out.shape), dtype=to_engine(t_out.dtype, self.E, self.tr, {}))
        except (Unsupported, Missing):
            return
        try:
            torch.manual_seed(0)
            t_res = op.op(t_in, *t_args, out=t_buf, **t_kwargs)
        except Exception:  # noqa: BLE001 - torch refuses out= on this sample
            return
        try:
            with time_limit(self.timeout):
                self.E.manual_seed(0)
                e_res = fn(e_in, *e_args, out=e_buf, **e_kwargs)
        except Exception as e:  # noqa: BLE001
            findings.append(Finding("out", "raised", _describe(e)))
            return
        refs = {id(t_buf): refs[id(t_out)]} if refs and id(t_out) in refs else None
        compare_tensor(t_buf, e_buf, self.E, "out", findings, grad_fn=False, requires_grad=False,
                       values=op.name not in UNSPECIFIED_VALUES, tolerances=self.tolerances, references=refs)
        if (t_res is t_buf) != (e_res is e_buf):
            findings.append(Finding("out", "identity", "the result is not out"))

    # --- error inputs -------------------------------------------------------------------------------------------
    def _error_inputs(self, op, fn, res):
        try:
            errors = list(op.error_inputs("cpu"))
        except Exception:  # noqa: BLE001 - the database has none, or cannot make them here
            return
        for i, ei in enumerate(errors):
            s = ei.sample_input
            if _layout_dependent((s.input, s.args, s.kwargs)):
                continue  # the error is about memory (overlap, strides) the copies carried over do not keep
            try:
                e_in, e_args, e_kwargs = to_engine((s.input, s.args, s.kwargs), self.E, self.tr, {}, grad=True)
            except (Unsupported, Missing, ValueError):  # ValueError: numpy's 64 dims (torch's error input has more)
                continue
            try:
                op.op(s.input, *s.args, **s.kwargs)
                continue  # torch does not raise here (the entry's error is for another device)
            except Exception as e:  # noqa: BLE001
                t_exc = e
            findings = []
            try:
                with time_limit(self.timeout):
                    fn(e_in, *e_args, **e_kwargs)
                findings.append(Finding("error_inputs", "no-raise", f"torch raised {_describe(t_exc)}"))
            except Exception as e:  # noqa: BLE001
                compare_raised(t_exc, e, "error_inputs", findings)
            for f in findings:
                f.text = f"#{i} {f.text}"
            res.findings.extend(findings)


def op_tolerances(op):
    """The loosest tolerance the OpInfo's own toleranceOverride decorators give each dtype (for any of its tests),
    as {dtype name: (rtol, atol)}, never tighter than the default."""
    from torch.testing._internal.common_device_type import toleranceOverride  # loaded with op_db

    out = {}
    for info in op.decorators or ():
        for dec in getattr(info, "decorators", None) or (info,):
            if isinstance(dec, toleranceOverride):
                for dtype, t in dec.d.items():
                    name = dtype_name(dtype)
                    rtol, atol = out.get(name, TOLERANCES.get(name, (0.0, 0.0)))
                    out[name] = (max(rtol, t.rtol), max(atol, t.atol))
    return out


def to_np_dtype(d):
    return {torch.float64: np.float64, torch.float32: np.float32, torch.float16: np.float16,
            torch.complex64: np.complex64, torch.complex128: np.complex128}.get(d, np.float64)


def summary_ratio(results):
    worst = []
    for r in results:
        w = r.worst()
        if w is not None and w.ratio > 1 and math.isfinite(w.ratio):
            worst.append((w.ratio, r.key, str(w)))
    worst.sort(reverse=True)
    return worst
