"""Comparing a result of torch with the engine's: structure, shape, dtype, values, strides, contiguity, grad_fn,
printed text. Each difference is a Finding (area, kind, text); `core` kinds are what 'forward and backward agree'
needs, the others are layout, naming and printing."""
from __future__ import annotations

import math
import signal
from dataclasses import dataclass

import numpy as np
import torch
from conformance_convert import is_tensor, to_numpy

CORE_KINDS = {"structure", "shape", "dtype", "value", "requires_grad", "raised", "no-raise", "error-type"}
CORE_AREAS = {"output", "grad", "gradgrad", "module", "optim"}

# Float outputs (area "output") whose values are bit for bit torch's, and all compared: torch's float bits
# depend on the CPU, so this is a rate the benchmark reports, never a check.
BITS = {"same": 0, "compared": 0}
# Float32 elements outside tolerance of torch's float32 result yet at least as close to torch's float64 result (the
# sample computed again in float64) as torch's float32 is: the engine is not less accurate than torch there, as
# torch's own reference tests (test_ops) accept. Counted for the benchmark, and passed.
CLOSER = {"elements": 0, "values": 0, "entries": set()}

TOLERANCES = {"float64": (1e-7, 1e-7), "float32": (1.3e-6, 1e-5), "float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5)}


@dataclass
class Finding:
    area: str  # output, grad, gradgrad, method, inplace, out, error_inputs, module, optim …
    kind: str  # shape, dtype, value, stride, contiguous, grad_fn, print, raised, …
    text: str
    ratio: float = 0.0  # how many tolerances off (values only), for the table's worst differences

    @property
    def core(self):
        return self.area in CORE_AREAS and self.kind in CORE_KINDS

    def __str__(self):
        return f"{self.area} {self.kind}: {self.text}"


def dtype_name(d):
    return str(d).split(".")[-1]


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout("over the per-sample time limit")


class time_limit:
    """Raises Timeout in the running code after `seconds` (main thread only; a no-op elsewhere)."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        try:
            self.old = signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        except ValueError:
            self.old = None

    def __exit__(self, *exc):
        if self.old is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)
        return False


def compare_values(expected, actual, dtype, tolerance=None, reference=None):
    """None when the arrays agree within the dtype's tolerance (or `tolerance`, (rtol, atol)), else (text, ratio).
    `reference`: torch's result in float64 for a float32 `expected`; an element off torch's float32 passes where the
    engine's is at least as close to it as torch's float32 is (or within tolerance of it)."""
    if expected.shape != actual.shape:
        return f"shape {actual.shape} != {expected.shape}", math.inf
    if expected.dtype.kind in "biu" or dtype in ("bool", "int64", "int32", "uint8", "int16", "int8"):
        bad = expected != actual
        if not bad.any():
            return None
        i = tuple(int(x) for x in np.argwhere(bad)[0])
        return f"{int(bad.sum())} of {bad.size} differ, first at {i}: {actual[i].item()!r} != " \
               f"{expected[i].item()!r}", math.inf
    if expected.dtype.kind == "c":  # each element's real and imaginary parts, as two floats of the part's dtype
        dtype = {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)
        expected, actual = _parts(expected), _parts(actual)
        reference = None if reference is None or reference.dtype.kind != "c" else _parts(reference)
    rtol, atol = tolerance or TOLERANCES.get(dtype, (1e-7, 1e-7))
    e = expected.astype(np.float64)
    a = actual.astype(np.float64)
    nan_e, nan_a = np.isnan(e), np.isnan(a)
    if (nan_e != nan_a).any():
        i = tuple(int(x) for x in np.argwhere(nan_e != nan_a)[0])
        return f"nan at different places, first at {i}: {a[i].item()!r} != {e[i].item()!r}", math.inf
    same_inf = (e == a)
    diff = np.where(nan_e | same_inf, 0.0, np.abs(a - e))
    allowed = atol + rtol * np.abs(np.where(np.isfinite(e), e, 0.0))
    with np.errstate(invalid="ignore"):
        over = diff / allowed
    over = np.where(np.isnan(over), math.inf, over)
    if (over > 1).any() and reference is not None and reference.shape == e.shape and _tracks(e, reference, rtol, atol):
        r = reference.astype(np.float64)
        with np.errstate(invalid="ignore"):
            closer = np.abs(a - r) <= np.maximum(np.abs(e - r), atol + rtol * np.abs(r))
        closer &= (over > 1) & np.isfinite(r)
        CLOSER["elements"] += int(closer.sum())
        CLOSER["values"] += int(closer.any())
        over = np.where(closer, 0.0, over)
    if not (over > 1).any():
        return None
    i = tuple(int(x) for x in np.unravel_index(int(np.argmax(over)), over.shape))
    return (f"{int((over > 1).sum())} of {over.size} off, worst at {i}: {a[i].item()!r} vs {e[i].item()!r} "
            f"(abs {diff[i]:.3g}, {float(over[i]):.3g}x tolerance)"), float(over[i])


def _parts(a):
    a = np.asarray(a)
    return np.stack([a.real, a.imag], -1) if a.dtype.kind == "c" else np.stack([a, np.zeros_like(a)], -1)


def _tracks(e, reference, rtol, atol):
    """torch's float32 result is its float64 one up to float32's error (within 1000 tolerances everywhere): the
    same computation, not, say, other random draws."""
    r = reference.astype(np.float64)
    finite = np.isfinite(r) & np.isfinite(e)
    with np.errstate(invalid="ignore"):
        return bool((np.abs(e - r)[finite] <= 1e3 * (atol + rtol * np.abs(r[finite]))).all())


def compare_tensor(expected, actual, E, area, findings, *, layout=True, grad_fn=True, printed=False,
                   requires_grad=True, values=True, tolerances=None, references=None):
    """expected: a torch tensor; actual: the engine's. references: {id(expected): float64 array} (compare_values)."""
    if not is_tensor(E, actual):
        findings.append(Finding(area, "structure", f"engine gave {type(actual).__name__}, torch a Tensor"))
        return
    if tuple(actual.shape) != tuple(expected.shape):
        findings.append(Finding(area, "shape", f"{tuple(actual.shape)} != {tuple(expected.shape)}"))
        return
    dt = dtype_name(expected.dtype)
    arrays = None  # (torch's, the engine's) values, read once
    if dtype_name(actual.dtype) != dt:
        findings.append(Finding(area, "dtype", f"{dtype_name(actual.dtype)} != {dt}"))
    elif values:
        try:
            arrays = to_numpy(torch, expected), to_numpy(E, actual)
            reference = (references or {}).get(id(expected))
            diff = compare_values(*arrays, dt, (tolerances or {}).get(dt), reference)
        except Exception as e:  # noqa: BLE001 - an engine tensor that cannot give its values is a finding
            diff = (f"reading values raised {type(e).__name__}: {e}", math.inf)
        if diff is not None:
            findings.append(Finding(area, "value", diff[0], diff[1]))
        elif area == "output" and expected.dtype.is_floating_point:
            BITS["compared"] += 1
            BITS["same"] += _same_bits(*arrays)
    if requires_grad and bool(actual.requires_grad) != bool(expected.requires_grad):
        findings.append(Finding(area, "requires_grad", f"{actual.requires_grad} != {expected.requires_grad}"))
    if layout:
        if not hasattr(actual, "stride"):
            findings.append(Finding(area, "stride", "engine Tensor has no stride()"))
        else:
            try:
                st = tuple(actual.stride())
            except Exception as e:  # noqa: BLE001
                st = f"raised {type(e).__name__}"
            if st != tuple(expected.stride()):
                findings.append(Finding(area, "stride", f"{st} != {tuple(expected.stride())}"))
        try:
            c = actual.is_contiguous()
        except Exception as e:  # noqa: BLE001
            c = f"raised {type(e).__name__}"
        if c != expected.is_contiguous():
            findings.append(Finding(area, "contiguous", f"{c} != {expected.is_contiguous()}"))
    if grad_fn:
        tn = type(expected.grad_fn).__name__ if expected.grad_fn is not None else None
        an = type(actual.grad_fn).__name__ if actual.grad_fn is not None else None
        if tn != an:
            findings.append(Finding(area, "grad_fn", f"{an} != {tn}"))
    if printed:
        try:
            ta, te = repr(actual), repr(expected)
        except Exception as e:  # noqa: BLE001
            ta, te = f"repr raised {type(e).__name__}: {e}", repr(expected)
        if ta != te and values and not any(f.area == area and f.kind == "value" for f in findings):
            te = _repr_with_values_of(expected, *(arrays or (to_numpy(torch, expected), to_numpy(E, actual))))
        if ta != te:
            findings.append(Finding(area, "print", f"{_short(ta)} != {_short(te)}"))


def _same_bits(e, a):
    return e.shape == a.shape and e.dtype == a.dtype and e.tobytes() == a.tobytes()


def _repr_with_values_of(expected, e, a):
    """How torch prints `expected` (its grad_fn, dtype, suffixes) holding the engine's values, which agree with
    torch's within tolerance: printing is checked, not the last bits of torch's CPU-dependent float kernels."""
    if _same_bits(e, a):
        return repr(expected)
    values = torch.from_numpy(np.ascontiguousarray(a)).to(expected.dtype).reshape(expected.shape)
    ts = torch._tensor_str
    return ts._str(expected, tensor_contents=ts._tensor_str(values, len("tensor(")))


def _short(text, n=120):
    text = text.replace("\n", "⏎")
    return text if len(text) <= n else text[: n - 1] + "…"


def compare_results(expected, actual, E, area, findings, **kw):
    """Nested results: tensors, tuples/lists/namedtuples of them, Python numbers, torch.Size."""
    if isinstance(expected, torch.Tensor):
        compare_tensor(expected, actual, E, area, findings, **kw)
    elif isinstance(expected, (list, tuple)):
        if is_tensor(E, actual) or not isinstance(actual, (list, tuple)):
            findings.append(Finding(area, "structure", f"engine gave {type(actual).__name__}, torch a "
                                                       f"{type(expected).__name__}"))
            return
        if len(actual) != len(expected):
            findings.append(Finding(area, "structure", f"{len(actual)} items != {len(expected)}"))
            return
        for i, (e, a) in enumerate(zip(expected, actual)):
            compare_results(e, a, E, f"{area}[{i}]" if area != "output" else area, findings, **kw)
    elif isinstance(expected, (bool, int, float)) or expected is None:
        if is_tensor(E, actual) or type(actual) is not type(expected):
            findings.append(Finding(area, "structure", f"engine gave {type(actual).__name__} {_short(repr(actual))}"
                                                       f", torch {type(expected).__name__} {expected!r}"))
            return
        if isinstance(expected, float) and not (
            (math.isnan(expected) and math.isnan(actual)) or abs(actual - expected) <= 1e-7 + 1e-7 * abs(expected)
        ):
            findings.append(Finding(area, "value", f"{actual!r} != {expected!r}", math.inf))
        elif not isinstance(expected, float) and actual != expected:
            findings.append(Finding(area, "value", f"{actual!r} != {expected!r}", math.inf))
    else:
        if repr(actual) != repr(expected) and actual != expected:
            findings.append(Finding(area, "value", f"{_short(repr(actual))} != {_short(repr(expected))}"))


def compare_raised(texc, eexc, area, findings):
    """Both raised: same exception type and message."""
    if type(texc).__name__ != type(eexc).__name__:
        findings.append(Finding(area, "error-type", f"{type(eexc).__name__}({_short(str(eexc))}) != "
                                                    f"{type(texc).__name__}({_short(str(texc))})"))
    elif str(texc) != str(eexc):
        findings.append(Finding(area, "error-text", f"{_short(str(eexc))!r} != {_short(str(texc))!r}"))


def grad_pattern(shape, dtype):
    """A fixed grad_output of this shape: small varied values, neither ones nor random."""
    n = int(np.prod(shape, dtype=np.int64))
    values = ((np.arange(n) * 7 + 3) % 11 - 5) / 4.0
    values = np.where(values == 0, 0.625, values)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * values[::-1]
    return values.reshape(shape).astype(dtype)
