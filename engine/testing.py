"""torch.testing: assert_close (and the deprecated assert_allclose) as torch/testing/_comparison.py compares: None,
booleans, numbers, tensors and tensor-likes, in nested sequences and mappings, with its default tolerances per dtype
and its messages."""
import cmath
import collections.abc
import contextlib
import warnings

import numpy as np

from . import dtypes
from .factories import as_tensor
from .functions import promote_types
from .tensor import Tensor

_PRECISIONS = {dtypes.float16: (0.001, 1e-5), dtypes.float32: (1.3e-6, 1e-5), dtypes.float64: (1e-7, 1e-7)}
_NUMBER_DTYPES = {int: dtypes.int64, float: dtypes.float64}


class _Mismatch(Exception):
    def __init__(self, kind, msg, path=()):
        super().__init__(msg)
        self.kind, self.msg, self.path = kind, msg, path

    def error(self, msg=None):
        if not isinstance(msg, str):
            text = self.msg
            if self.path:
                text += f"\n\nThe failure occurred for item {''.join(str([item]) for item in self.path)}"
            msg = msg(text) if callable(msg) else text
        return self.kind(msg)


def default_tolerances(*inputs, dtype_precisions=None):
    found = []
    for x in inputs:
        if isinstance(x, Tensor):
            found.append(x.dtype)
        elif isinstance(x, dtypes.dtype):
            found.append(x)
        else:
            raise TypeError(f"Expected a torch.Tensor or a torch.dtype, but got {type(x)} instead.")
    precisions = dtype_precisions or _PRECISIONS
    rtols, atols = zip(*[precisions.get(d, (0.0, 0.0)) for d in found])
    return max(rtols), max(atols)


def _check_tolerances(rtol, atol, path):
    if (rtol is None) ^ (atol is None):
        raise _Mismatch(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                                    f"{'rtol' if rtol is None else 'atol'}.", path)


def _tolerances(*inputs, rtol, atol, path):
    _check_tolerances(rtol, atol, path)
    if rtol is not None:
        return rtol, atol
    return default_tolerances(*inputs)


def _mismatch_msg(identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def line(kind, diff, idx, tol):
        text = (f"{kind.title()} difference: {diff}" if idx is None
                else f"Greatest {kind} difference: {diff} at index {idx}")
        return text + ("" if equality else f" (up to {tol} allowed)") + "\n"

    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += line("absolute", abs_diff, abs_idx, atol) + line("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _compare_numbers(actual, expected, path, rtol=None, atol=None, equal_nan=False, check_dtype=False, **_):
    actual, expected = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
    rtol, atol = _tolerances(*(_NUMBER_DTYPES[type(x)] for x in (actual, expected)), rtol=rtol, atol=atol, path=path)
    if check_dtype and type(actual) is not type(expected):
        raise _Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.", path)
    if actual == expected or equal_nan and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _scalar_mismatch(actual, expected, atol, rtol, path)


def _scalar_mismatch(actual, expected, atol, rtol, path):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _Mismatch(AssertionError, _mismatch_msg("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None,
                                                   atol, rel_diff, None, rtol), path)


def _compare_tensors(actual, expected, path, rtol=None, atol=None, equal_nan=False, check_device=True,
                     check_dtype=True, check_layout=True, check_stride=False, **_):
    actual, expected = (x if isinstance(x, Tensor) else as_tensor(x) for x in (actual, expected))
    rtol, atol = _tolerances(actual, expected, rtol=rtol, atol=atol, path=path)

    def differ(name, a, b):
        raise _Mismatch(AssertionError, f"The values for attribute '{name}' do not match: {a} != {b}.", path)

    if actual.shape != expected.shape:
        differ("shape", actual.shape, expected.shape)
    if check_stride and actual.stride() != expected.stride():
        differ("stride()", actual.stride(), expected.stride())
    if check_device and actual.device != expected.device:
        differ("device", actual.device, expected.device)
    if check_dtype and actual.dtype != expected.dtype:
        differ("dtype", actual.dtype, expected.dtype)
    if "meta" in (actual.device.type, expected.device.type):
        return
    if actual.dtype != expected.dtype:
        common = promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    matches = actual.detach().isclose(expected.detach(), rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(matches.all()):
        return
    if actual.dim() == 0:
        raise _scalar_mismatch(actual.item(), expected.item(), atol, rtol, path)
    raise _Mismatch(AssertionError, _tensor_mismatch_msg(actual.detach(), expected.detach(), matches, rtol, atol),
                    path)


def _tensor_mismatch_msg(actual, expected, matches, rtol, atol):
    total = matches.numel()
    mismatches = total - int(matches.sum())
    extra = f"Mismatched elements: {mismatches} / {total} ({mismatches / total:.1%})"
    a, e, hit = actual.flatten(), expected.flatten(), matches.flatten()
    if not actual.dtype.is_floating_point:
        a, e = a.to(dtypes.int64), e.to(dtypes.int64)
    abs_diff = (a - e).abs()
    abs_diff[hit] = 0
    max_abs, abs_at = abs_diff.max(0)
    rel_diff = abs_diff / e.abs()
    rel_diff[hit] = 0
    max_rel, rel_at = rel_diff.max(0)
    return _mismatch_msg("Tensor-likes", extra, max_abs.item(), _unravel(int(abs_at), matches.shape), atol,
                         max_rel.item(), _unravel(int(rel_at), matches.shape), rtol)


def _unravel(flat, shape):
    index = []
    for size in reversed(tuple(shape)):
        flat, mod = divmod(flat, size)
        index.append(mod)
    return tuple(reversed(index))


def _pairs(actual, expected, path, options):
    """The mismatch of the first pair of leaves that differ (the sequences and mappings walked as torch walks them)."""
    sequence = collections.abc.Sequence
    if isinstance(actual, sequence) and not isinstance(actual, str) and isinstance(expected, sequence) \
            and not isinstance(expected, str):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                            path)
        for i in range(len(actual)):
            yield from _pairs(actual[i], expected[i], (*path, i), options)
        return
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        keys, wanted = set(actual.keys()), set(expected.keys())
        if keys != wanted:
            raise _Mismatch(AssertionError, "The keys of the mappings do not match:\n"
                                            f"Missing keys in the actual mapping: {sorted(wanted - keys)}\n"
                                            f"Additional keys in the actual mapping: {sorted(keys - wanted)}", path)
        with contextlib.suppress(Exception):
            keys = sorted(keys)
        for key in keys:
            yield from _pairs(actual[key], expected[key], (*path, key), options)
        return
    yield _leaf(actual, expected, path, options)


def _leaf(actual, expected, path, options):
    """The comparison of two leaves, as the first of torch's pair types that takes them."""
    if actual is None or expected is None:
        def none():
            if not (actual is None and expected is None):
                raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}", path)
        return none
    if all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
        def booleans():
            a, e = (bool(x) for x in (actual, expected))
            if a is not e:
                raise _Mismatch(AssertionError, f"Booleans mismatch: {a} is not {e}", path)
        return booleans
    if all(type(x) in (int, float) or isinstance(x, np.number) for x in (actual, expected)):
        _check_tolerances(options["rtol"], options["atol"], path)
        return lambda: _compare_numbers(actual, expected, path, **options)
    related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
    if related and not (not options["allow_subclasses"] and type(actual) is not type(expected)):
        try:
            for x in (actual, expected):
                if not isinstance(x, Tensor):
                    as_tensor(x)
        except Exception:  # noqa: BLE001 - torch's UnsupportedInputs: the next pair type is tried
            pass
        else:
            _check_tolerances(options["rtol"], options["atol"], path)
            return lambda: _compare_tensors(actual, expected, path, **options)
    raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of type {_class(actual)} and "
                               f"{_class(expected)}.", path)


def _class(x):
    """The class as torch prints it: the engine's Tensor is torch.Tensor."""
    return "<class 'torch.Tensor'>" if type(x) is Tensor else str(type(x)).replace("'engine.", "'torch.")


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False, check_device=True,
                 check_dtype=True, check_layout=True, check_stride=False, msg=None):
    options = {"allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol, "equal_nan": equal_nan,
               "check_device": check_device, "check_dtype": check_dtype, "check_layout": check_layout,
               "check_stride": check_stride}
    try:
        comparisons = list(_pairs(actual, expected, (), options))
        for compare in comparisons:
            compare()
    except _Mismatch as mismatch:
        raise mismatch.error(msg) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. "
                  "Please use `torch.testing.assert_close()` instead. You can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning, stacklevel=2)
    if not isinstance(actual, Tensor):
        actual = as_tensor(actual)
    if not isinstance(expected, Tensor):
        expected = as_tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = default_tolerances(actual, expected, dtype_precisions={
            dtypes.float16: (1e-3, 1e-3), dtypes.float32: (1e-4, 1e-5), dtypes.float64: (1e-5, 1e-8)})
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True, check_dtype=False,
                 check_stride=False, msg=msg or None)
