"""sklearn.metrics' roc_curve, auc and roc_auc_score (binary targets), as scikit-learn 1.6.1 sorts, accumulates
and integrates them."""
from __future__ import annotations

import warnings

import numpy as np

from .columns import column_or_1d
from .indexing import check_consistent_length
from .metrics import type_of_target
from .scores import UndefinedMetricWarning


def _pos_label(pos_label, y_true):
    if pos_label is not None:
        return pos_label
    classes = np.unique(y_true)
    if classes.dtype.kind in "OUS" or not any(np.array_equal(classes, c) for c in ([0, 1], [-1, 1], [0], [-1], [1])):
        shown = ", ".join(repr(c) for c in classes.tolist())
        raise ValueError(f"y_true takes value in {{{shown}}} and pos_label is not specified: either make y_true take "
                         "value in {0, 1} or {-1, 1} or pass pos_label explicitly.")
    return 1


def _binary_curve(y_true, y_score, pos_label):
    """(false positives, true positives, thresholds) at each distinct score, highest first."""
    kind = type_of_target(y_true)
    if not (kind == "binary" or kind == "multiclass" and pos_label is not None):
        raise ValueError(f"{kind} format is not supported")
    check_consistent_length(y_true, y_score)
    y_true, y_score = column_or_1d(y_true), column_or_1d(y_score)
    if not (np.isfinite(y_score).all() if y_score.dtype.kind == "f" else True):
        raise ValueError("Input contains NaN.")
    y_true = y_true == _pos_label(pos_label, y_true)
    order = np.argsort(y_score, kind="mergesort")[::-1]
    y_score, y_true = y_score[order], y_true[order]
    ends = np.r_[np.where(np.diff(y_score))[0], y_true.size - 1]
    tps = np.cumsum(y_true * 1.0, dtype=np.float64)[ends]
    return 1 + ends - tps, tps, y_score[ends]


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    if sample_weight is not None:
        raise ValueError("sample_weight= is not available in the explorer's sklearn.metrics")
    fps, tps, thresholds = _binary_curve(y_true, y_score, pos_label)
    if drop_intermediate and len(fps) > 2:
        keep = np.where(np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True])[0]
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    tps, fps, thresholds = np.r_[0, tps], np.r_[0, fps], np.r_[np.inf, thresholds]
    rates = []
    for counts, what in ((fps, "negative samples in y_true, false"), (tps, "positive samples in y_true, true")):
        if counts[-1] <= 0:
            warnings.warn(f"No {what} positive value should be meaningless", UndefinedMetricWarning, stacklevel=3)
            rates.append(np.repeat(np.nan, counts.shape))
        else:
            rates.append(counts / counts[-1])
    return rates[0], rates[1], thresholds


def auc(x, y):
    check_consistent_length(x, y)
    x, y = column_or_1d(x), column_or_1d(y)
    if x.shape[0] < 2:
        raise ValueError(f"At least 2 points are needed to compute area under curve, but x.shape = {x.shape[0]}")
    direction = 1
    dx = np.diff(x)
    if np.any(dx < 0):
        if not np.all(dx <= 0):
            raise ValueError(f"x is neither increasing nor decreasing : {x}.")
        direction = -1
    return direction * np.trapezoid(y, x)


def roc_auc_score(y_true, y_score, *, average="macro", sample_weight=None, max_fpr=None, multi_class="raise",
                  labels=None):
    kind = type_of_target(y_true)
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, dtype=None)
    if kind == "multiclass" or kind == "binary" and y_score.ndim == 2 and y_score.shape[1] > 2:
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError("Partial AUC computation not available in multiclass setting, 'max_fpr' must be set to "
                             f"`None`, received `max_fpr={max_fpr}` instead")
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr')")
        raise ValueError("roc_auc_score of multiclass targets is not available in the explorer: score each class "
                         "against the rest with roc_auc_score(y_true == k, y_score[:, k])")
    if kind != "binary" or max_fpr not in (None, 1):
        raise ValueError("the explorer's roc_auc_score takes binary targets (and max_fpr=None)")
    if len(np.unique(y_true)) != 2:
        warnings.warn("Only one class is present in y_true. ROC AUC score is not defined in that case.",
                      UndefinedMetricWarning, stacklevel=2)
        return np.nan
    y_true = (y_true == np.unique(y_true)[1]).astype(int)
    fpr, tpr, _ = roc_curve(y_true, y_score, sample_weight=sample_weight)
    return auc(fpr, tpr)


RANKING = {"roc_curve": roc_curve, "auc": auc, "roc_auc_score": roc_auc_score}
