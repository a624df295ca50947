"""sklearn.metrics' precision, recall and F1 (precision_recall_fscore_support and its three scores) and
classification_report, as scikit-learn 1.6.1 counts, divides, averages and prints them (its warnings too)."""
from __future__ import annotations

import warnings

import numpy as np

from .checks import InvalidParameterError
from .metrics import classes_of


class UndefinedMetricWarning(UserWarning):
    """sklearn.exceptions.UndefinedMetricWarning."""


AVERAGES = (None, "micro", "macro", "weighted", "samples")


def _divide(numerator, denominator, metric, modifier, average, warn_for, zero_division):
    mask = denominator == 0.0
    denominator = denominator.copy()
    denominator[mask] = 1
    result = numerator / denominator
    if not np.any(mask):
        return result
    result[mask] = np.float64(0.0) if zero_division == "warn" else (
        np.float64(zero_division) if zero_division in (0, 1) else np.nan)
    if zero_division == "warn" and metric in warn_for:
        where = "due to" if len(result) == 1 else "in labels with"
        warnings.warn(f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} no {modifier} samples. "
                      "Use `zero_division` parameter to control this behavior.", UndefinedMetricWarning, stacklevel=4)
    return result


def _labels_for(kind, y_true, y_pred, average, labels, pos_label):
    if average not in AVERAGES and average != "binary":
        raise ValueError("average has to be one of " + str(AVERAGES))
    present = np.unique(np.concatenate([y_true, y_pred])).tolist()
    if average != "binary":
        return labels
    if kind == "binary":
        if pos_label not in present and len(present) >= 2:
            raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of {present}")
        return [pos_label]
    options = [a for a in AVERAGES if a != "samples" or kind != "multiclass"]
    raise ValueError(f"Target is {kind} but average='binary'. Please choose another average setting, one of "
                     f"{options!r}.")


def _nanaverage(a, weights=None):
    if a.shape[0] == 0 or np.all(np.isnan(a)):
        return np.nan
    if weights is None:
        return np.nanmean(a)
    keep = ~np.isnan(a)
    try:
        return np.average(a[keep], weights=np.asarray(weights)[keep])
    except ZeroDivisionError:
        return np.average(a[keep])


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1, average=None,
                                    warn_for=("precision", "recall", "f-score"), sample_weight=None,
                                    zero_division="warn"):
    if sample_weight is not None:
        raise ValueError("sample_weight= is not available in the explorer's sklearn.metrics")
    kind, y_true, y_pred = classes_of(y_true, y_pred)
    if kind == "multilabel-indicator":
        raise ValueError("multilabel targets are not available in the explorer's sklearn.metrics")
    labels = _labels_for(kind, y_true, y_pred, average, labels, pos_label)
    labels = np.unique(np.concatenate([y_true, y_pred])) if labels is None else np.asarray(labels)
    tp_sum = np.array([np.sum((y_true == label) & (y_pred == label)) for label in labels], dtype=np.int64)
    pred_sum = np.array([np.sum(y_pred == label) for label in labels], dtype=np.int64)
    true_sum = np.array([np.sum(y_true == label) for label in labels], dtype=np.int64)
    if average == "micro":
        tp_sum, pred_sum, true_sum = (np.reshape(np.sum(s), (1,)) for s in (tp_sum, pred_sum, true_sum))
    beta2 = beta**2
    precision = _divide(tp_sum, pred_sum, "precision", "predicted", average, warn_for, zero_division)
    recall = _divide(tp_sum, true_sum, "recall", "true", average, warn_for, zero_division)
    if np.isposinf(beta):
        f_score = recall
    elif beta == 0:
        f_score = precision
    else:
        f_score = _divide((1 + beta2) * tp_sum, beta2 * true_sum + pred_sum, "f-score", "true nor predicted",
                          average, warn_for, zero_division)
    if average is None:
        return precision, recall, f_score, true_sum
    weights = true_sum if average == "weighted" else None
    return (float(_nanaverage(precision, weights)), float(_nanaverage(recall, weights)),
            float(_nanaverage(f_score, weights)), None)


def _score(index, metric, name):
    def score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
              zero_division="warn"):
        if average is not None and average not in AVERAGES + ("binary",):
            allowed = set(filter(None, AVERAGES + ("binary",)))
            raise InvalidParameterError(f"The 'average' parameter of {score.__name__} must be a str among {allowed} "
                                        f"or None. Got {average!r} instead.")
        return precision_recall_fscore_support(y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                                               warn_for=(metric,), sample_weight=sample_weight,
                                               zero_division=zero_division)[index]

    score.__name__ = score.__qualname__ = name
    return score


precision_score = _score(0, "precision", "precision_score")
recall_score = _score(1, "recall", "recall_score")
f1_score = _score(2, "f-score", "f1_score")


def classification_report(y_true, y_pred, *, labels=None, target_names=None, sample_weight=None, digits=2,
                          output_dict=False, zero_division="warn"):
    kind, y_true_, y_pred_ = classes_of(y_true, y_pred)
    present = np.unique(np.concatenate([y_true_, y_pred_]))
    given = labels is not None
    labels = np.asarray(labels) if given else present
    micro_is_accuracy = kind in ("multiclass", "binary") and (not given or set(labels) >= set(present))
    if target_names is not None and len(labels) != len(target_names):
        if given:
            warnings.warn(f"labels size, {len(labels)}, does not match size of target_names, {len(target_names)}",
                          stacklevel=2)
        else:
            raise ValueError(f"Number of classes, {len(labels)}, does not match size of target_names, "
                             f"{len(target_names)}. Try specifying the labels parameter")
    if target_names is None:
        target_names = [f"{label}" for label in labels]
    headers = ["precision", "recall", "f1-score", "support"]
    p, r, f1, s = precision_recall_fscore_support(y_true, y_pred, labels=labels, average=None,
                                                  sample_weight=sample_weight, zero_division=zero_division)
    rows = list(zip(target_names, p, r, f1, s))
    width = max(max(len(name) for name in target_names), len("weighted avg"), digits)
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    if output_dict:
        report = {row[0]: dict(zip(headers, [float(i) for i in row[1:]])) for row in rows}
    else:
        text = ("{:>{width}s} " + " {:>9}" * len(headers)).format("", *headers, width=width) + "\n\n"
        text += "".join(row_fmt.format(*row, width=width, digits=digits) for row in rows) + "\n"
    for average in ("micro", "macro", "weighted"):
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        avg_p, avg_r, avg_f1, _ = precision_recall_fscore_support(y_true, y_pred, labels=labels, average=average,
                                                                  sample_weight=sample_weight,
                                                                  zero_division=zero_division)
        values = [avg_p, avg_r, avg_f1, np.sum(s)]
        if output_dict:
            report[heading] = dict(zip(headers, [float(i) for i in values]))
        elif heading == "accuracy":
            text += ("{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n").format(
                heading, "", "", *values[2:], width=width, digits=digits)
        else:
            text += row_fmt.format(heading, *values, width=width, digits=digits)
    if output_dict:
        if "accuracy" in report:
            report["accuracy"] = report["accuracy"]["precision"]
        return report
    return text


SCORES = {"precision_recall_fscore_support": precision_recall_fscore_support, "precision_score": precision_score,
          "recall_score": recall_score, "f1_score": f1_score, "classification_report": classification_report}
