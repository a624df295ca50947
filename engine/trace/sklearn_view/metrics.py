"""sklearn.metrics' accuracy_score, confusion_matrix, mean_squared_error, mean_absolute_error and r2_score, as
scikit-learn 1.6.1 computes them (Python floats for the scores), with its target checks."""
from __future__ import annotations

import numpy as np

from ..arrays import plain
from .indexing import check_consistent_length


def type_of_target(y):
    """sklearn.utils.multiclass.type_of_target for numeric and string labels."""
    y = np.asarray(plain(y))
    if y.ndim > 2 or y.ndim == 2 and y.shape[1] == 0 or y.ndim == 0:
        return "unknown"
    if y.ndim == 2 and y.shape[1] > 1 and y.dtype.kind in "biuf" and np.unique(y).size <= 2 \
            and np.all(np.isin(y, (0, 1))):
        return "multilabel-indicator"
    suffix = "-multioutput" if y.ndim == 2 and y.shape[1] > 1 else ""
    if y.dtype.kind == "f" and np.any(y != y.astype(int)):
        return "continuous" + suffix
    if np.unique(y).size > 2 or y.ndim == 2 and y.shape[1] > 1:
        return "multiclass" + suffix
    return "binary"


def classes_of(y_true, y_pred):
    """sklearn's _check_targets: both label columns, of one kind."""
    check_consistent_length(y_true, y_pred)
    kinds = type_of_target(y_true), type_of_target(y_pred)
    kind = set(kinds)
    if kind == {"binary", "multiclass"}:
        kind = {"multiclass"}
    if len(kind) > 1:
        raise ValueError(f"Classification metrics can't handle a mix of {kinds[0]} and {kinds[1]} targets")
    kind = kind.pop()
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{kind} is not supported")
    y_true, y_pred = np.asarray(plain(y_true)), np.asarray(plain(y_pred))
    if kind != "multilabel-indicator":
        y_true, y_pred = y_true.ravel(), y_pred.ravel()
    return kind, y_true, y_pred


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    kind, y_true, y_pred = classes_of(y_true, y_pred)
    score = (y_true == y_pred).all(axis=1) if kind == "multilabel-indicator" else y_true == y_pred
    if normalize:
        return float(np.average(score, weights=sample_weight))
    return float(np.dot(score, sample_weight)) if sample_weight is not None else float(np.sum(score))


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    kind, y_true, y_pred = classes_of(y_true, y_pred)
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"{kind} is not supported")
    labels = np.unique(np.concatenate([y_true, y_pred])) if labels is None else np.asarray(plain(labels))
    if labels.size == 0:
        raise ValueError("'labels' should contains at least one label.")
    if y_true.size == 0:
        return np.zeros((labels.size, labels.size), dtype=int)
    if not np.isin(labels, y_true).any():
        raise ValueError("At least one label specified must be in y_true")
    weights = np.ones(y_true.shape[0], dtype=np.int64) if sample_weight is None else np.asarray(plain(sample_weight))
    index = {label: i for i, label in enumerate(labels.tolist())}
    matrix = np.zeros((labels.size, labels.size), dtype=np.int64 if weights.dtype.kind in "iub" else np.float64)
    for truth, guess, weight in zip(y_true.tolist(), y_pred.tolist(), weights.tolist()):
        if truth in index and guess in index:
            matrix[index[truth], index[guess]] += weight
    if normalize is not None:
        with np.errstate(all="ignore"):
            axis = {"true": (1, True), "pred": (0, True), "all": (None, False)}
            if normalize not in axis:
                raise ValueError("normalize must be one of {'true', 'pred', 'all', None}")
            matrix = matrix / matrix.sum(axis=axis[normalize][0], keepdims=axis[normalize][1])
            matrix = np.nan_to_num(matrix)
    return matrix


def _columns(y_true, y_pred):
    """sklearn's _check_reg_targets: both as 2-D columns of numbers."""
    check_consistent_length(y_true, y_pred)
    y_true, y_pred = np.asarray(plain(y_true)), np.asarray(plain(y_pred))
    y_true = y_true.reshape((-1, 1)) if y_true.ndim == 1 else y_true
    y_pred = y_pred.reshape((-1, 1)) if y_pred.ndim == 1 else y_pred
    if y_true.shape[1] != y_pred.shape[1]:
        raise ValueError(f"y_true and y_pred have different number of output ({y_true.shape[1]}!={y_pred.shape[1]})")
    return y_true, y_pred


def mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    y_true, y_pred = _columns(y_true, y_pred)
    errors = np.average((y_true - y_pred) ** 2, axis=0, weights=sample_weight)
    return errors if multioutput == "raw_values" else float(np.average(errors))


def mean_absolute_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    y_true, y_pred = _columns(y_true, y_pred)
    errors = np.average(np.abs(y_pred - y_true), weights=sample_weight, axis=0)
    return errors if multioutput == "raw_values" else float(np.average(errors))


def r2_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average", force_finite=True):
    y_true, y_pred = _columns(y_true, y_pred)
    if y_pred.shape[0] < 2:
        return float("nan")
    weight = 1.0 if sample_weight is None else np.asarray(plain(sample_weight))[:, None]
    numerator = np.sum(weight * (y_true - y_pred) ** 2, axis=0, dtype=np.float64)
    mean = np.average(y_true, axis=0, weights=sample_weight)
    denominator = np.sum(weight * (y_true - mean) ** 2, axis=0, dtype=np.float64)
    nonzero_num, nonzero_den = numerator != 0, denominator != 0
    scores = np.ones(y_true.shape[1])
    if force_finite:
        valid = nonzero_num & nonzero_den
        scores[valid] = 1 - numerator[valid] / denominator[valid]
        scores[nonzero_num & ~nonzero_den] = 0.0
    else:
        with np.errstate(all="ignore"):
            scores = 1 - numerator / denominator
    return scores if multioutput == "raw_values" else float(np.average(scores))


METRICS = {"accuracy_score": accuracy_score, "confusion_matrix": confusion_matrix,
           "mean_squared_error": mean_squared_error, "mean_absolute_error": mean_absolute_error,
           "r2_score": r2_score}
