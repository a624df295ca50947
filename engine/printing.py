"""Tensor text rendering that matches PyTorch's ``repr(tensor)`` byte for byte.

The logic follows ``torch/_tensor_str.py`` of PyTorch 2.13 (BSD-3-Clause, Copyright (c) Facebook, Inc.
and its affiliates), reimplemented here on plain numpy: the ``_Formatter`` that picks integer / fixed /
scientific style and the common element width, summarisation with ``...`` above ``threshold`` elements,
the row wrapping at ``linewidth``, the nesting indentation and the suffix (``dtype=``, ``grad_fn=``, ...)
wrapping.

Public helpers:

* ``format_tensor(data, dtype, suffixes=(), *, parameter=False)`` -> the text of ``repr(t)`` / ``str(t)``
* ``format_size(shape)`` -> ``"torch.Size([2, 3])"``
* ``format_dtype(dtype)`` -> ``"torch.float32"``
* ``set_printoptions`` / ``get_printoptions`` / ``printoptions`` mirroring ``torch``'s.

Formatting of every number goes through Python's own ``format`` on Python floats / ints (what torch does
via ``Tensor.item()`` / ``tolist()``), so rounding is identical. No torch import: numpy + stdlib only.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from . import dtypes

__all__ = [
    "PRINT_OPTS",
    "format_dtype",
    "format_size",
    "format_tensor",
    "get_printoptions",
    "printoptions",
    "set_printoptions",
]


@dataclasses.dataclass
class _PrinterOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrinterOptions()

# with torch.get_default_dtype() these never get a ``dtype=`` suffix on non-empty tensors.
_DTYPES_WITHOUT_SUFFIX = ("int64", "bool")


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None) -> None:
    """Same semantics as ``torch.set_printoptions`` (note: ``sci_mode`` is always reset to the argument)."""
    if profile is not None:
        if profile == "default":
            PRINT_OPTS.precision = 4
            PRINT_OPTS.threshold = 1000
            PRINT_OPTS.edgeitems = 3
            PRINT_OPTS.linewidth = 80
        elif profile == "short":
            PRINT_OPTS.precision = 2
            PRINT_OPTS.threshold = 1000
            PRINT_OPTS.edgeitems = 2
            PRINT_OPTS.linewidth = 80
        elif profile == "full":
            PRINT_OPTS.precision = 4
            PRINT_OPTS.threshold = math.inf
            PRINT_OPTS.edgeitems = 3
            PRINT_OPTS.linewidth = 80
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


def format_dtype(dtype: str) -> str:
    """``"float64"`` -> ``"torch.float64"`` (what ``str(torch.float64)`` prints)."""
    return "torch." + str(dtype)


def format_size(shape: Iterable[int]) -> str:
    """``(2, 3)`` -> ``"torch.Size([2, 3])"``; ``()`` -> ``"torch.Size([])"``."""
    return "torch.Size([" + ", ".join(str(int(s)) for s in shape) + "])"


def _shape_tuple_str(shape: Sequence[int]) -> str:
    return str(tuple(int(s) for s in shape))


class _Formatter:
    """Port of ``torch._tensor_str._Formatter``: decides the style and the common width."""

    def __init__(self, arr: np.ndarray):
        self.floating_dtype = arr.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        flat = arr.reshape(-1)
        if not self.floating_dtype:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            # no valid number, do nothing (sci_mode stays False even if forced by the options)
            return

        abs_vals = np.abs(nonzero_finite).astype(np.float64)
        nz_min = float(abs_vals.min())
        nz_max = float(abs_vals.max())

        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))

        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = nz_max / nz_min > 1000.0 or nz_max > 1.0e8 or nz_min < 1.0e-4
        else:
            self.sci_mode = bool(PRINT_OPTS.sci_mode)

        prec = PRINT_OPTS.precision
        values = nonzero_finite.tolist()
        if self.sci_mode:
            width = max(len(f"{v:.{prec}e}") for v in values)
        elif self.int_mode:
            # integral floats print as "3." so the width gets one more for the dot
            width = max(len(f"{v:.0f}") for v in values) + 1
        else:
            width = max(len(f"{v:.{prec}f}") for v in values)
        self.max_width = max(self.max_width, width)

    def width(self) -> int:
        return self.max_width

    def format(self, value) -> str:
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{PRINT_OPTS.precision}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{PRINT_OPTS.precision}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


class _ComplexFormatter:
    """torch's pair of formatters for a complex tensor: one for the real parts, one for the imaginary parts."""

    def __init__(self, real: _Formatter, imag: _Formatter):
        self.real = real
        self.imag = imag

    def width(self) -> int:
        return self.real.width() + self.imag.width() + 1  # and the "j"

    def format(self, value) -> str:
        real_str = self.real.format(value.real)
        imag_str = (self.imag.format(value.imag) + "j").lstrip()
        if imag_str[0] == "+" or imag_str[0] == "-":
            return real_str + imag_str
        return real_str + "+" + imag_str


def _vector_str(arr: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    # length includes spaces and comma between elements
    element_length = formatter.width() + 2
    elements_per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    edge = PRINT_OPTS.edgeitems

    if summarize and not edge:
        data = ["..."]
    elif summarize and arr.shape[0] > 2 * edge:
        data = (
            [formatter.format(v) for v in arr[:edge].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in arr[-edge:].tolist()]
        )
    else:
        data = [formatter.format(v) for v in arr.tolist()]

    lines = [", ".join(data[i : i + elements_per_line]) for i in range(0, len(data), elements_per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(arr: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    dim = arr.ndim
    if dim == 0:
        return formatter.format(arr.item())
    if dim == 1:
        return _vector_str(arr, indent, summarize, formatter)

    n = arr.shape[0]
    edge = PRINT_OPTS.edgeitems
    if summarize and n > 2 * edge:
        slices = (
            [_tensor_str_with_formatter(arr[i], indent + 1, summarize, formatter) for i in range(edge)]
            + ["..."]
            + [
                _tensor_str_with_formatter(arr[i], indent + 1, summarize, formatter)
                for i in range(n - edge, n)
            ]
        )
    else:
        slices = [_tensor_str_with_formatter(arr[i], indent + 1, summarize, formatter) for i in range(n)]

    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized_data(arr: np.ndarray) -> np.ndarray:
    """Port of ``get_summarized_data``: only the elements that will be shown (used for the widths)."""
    dim = arr.ndim
    edge = PRINT_OPTS.edgeitems
    if dim == 0:
        return arr
    if dim == 1:
        if arr.shape[0] > 2 * edge:
            # note: with edgeitems == 0 this is arr[:0] + arr[-0:] == the whole row, as in torch
            return np.concatenate((arr[:edge], arr[-edge:]))
        return arr
    if not edge:
        return np.empty([0] * dim, dtype=arr.dtype)
    n = arr.shape[0]
    if n > 2 * edge:
        rows = list(range(edge)) + list(range(n - edge, n))
    else:
        rows = list(range(n))
    return np.stack([_summarized_data(arr[i]) for i in rows])


def _tensor_str(arr: np.ndarray, indent: int) -> str:
    if arr.size == 0:
        return "[]"
    summarize = arr.size > PRINT_OPTS.threshold
    with np.errstate(all="ignore"):
        shown = _summarized_data(arr) if summarize else arr
        if arr.dtype.kind == "c":
            formatter = _ComplexFormatter(_Formatter(shown.real), _Formatter(shown.imag))
        else:
            formatter = _Formatter(shown)
    return _tensor_str_with_formatter(arr, indent, summarize, formatter)


def _add_suffixes(tensor_str: str, suffixes: Sequence[str], indent: int, force_newline: bool) -> str:
    parts = [tensor_str]
    # (sic: torch's own arithmetic, +2 more than the real last-line length when there is no newline)
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        suffix_len = len(suffix)
        if force_newline or last_line_len + suffix_len + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + suffix_len
            force_newline = False
        else:
            parts.append(", " + suffix)
            last_line_len += suffix_len + 2
    parts.append(")")
    return "".join(parts)


_NUMPY_DTYPES = {
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "bool": np.bool_,
    "complex64": np.complex64,
    "complex128": np.complex128,
}


def format_tensor(
    data: np.ndarray,
    dtype: str,
    suffixes: Sequence[str] = (),
    *,
    parameter: bool = False,
) -> str:
    """The exact text of ``repr(t)`` (== ``str(t)``) for a CPU tensor holding ``data``.

    ``dtype`` is the engine dtype name (``"float32"``, ``"float64"``, ``"int64"``, ``"bool"``, ...).
    ``suffixes`` come after the size/dtype suffixes torch adds itself, e.g. ``["requires_grad=True"]`` or
    ``["grad_fn=<MulBackward0>"]``. ``parameter=True`` gives ``nn.Parameter``'s repr
    (``"Parameter containing:\\n" + ...``); pass ``"requires_grad=True"`` in ``suffixes`` for it as torch
    shows it for a parameter that requires grad.
    """
    dtype = str(dtype)
    if dtype.startswith("torch."):
        dtype = dtype[len("torch."):]
    arr = np.asarray(data)
    want = _NUMPY_DTYPES.get(dtype)
    if want is not None and arr.dtype != want:
        arr = arr.astype(want)

    prefix = "tensor("
    indent = len(prefix)
    all_suffixes: list[str] = []

    if arr.size == 0:
        # Explicitly print the shape if it is not (0,), to match NumPy behaviour
        if arr.ndim != 1:
            all_suffixes.append("size=" + _shape_tuple_str(arr.shape))
        # nothing to infer an int64 dtype from, so anything but the default dtype is shown
        if dtype != dtypes.DEFAULT[0].name:
            all_suffixes.append("dtype=" + format_dtype(dtype))
        tensor_str = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            all_suffixes.append("size=" + _shape_tuple_str(arr.shape))
        if dtype not in _DTYPES_WITHOUT_SUFFIX and dtype not in (dtypes.DEFAULT[0].name, dtypes.default_complex().name):
            all_suffixes.append("dtype=" + format_dtype(dtype))
        tensor_str = _tensor_str(arr, indent)

    all_suffixes.extend(suffixes)
    text = _add_suffixes(prefix + tensor_str, all_suffixes, indent, force_newline=False)
    if parameter:
        text = "Parameter containing:\n" + text
    return text
