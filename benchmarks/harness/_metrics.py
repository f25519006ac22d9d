"""Metrics shared by the benchmark tasks (plain NumPy, no scikit-learn)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["balanced_accuracy", "best_threshold", "confusion", "f1", "roc_auc", "summarise"]


def roc_auc(
    scores: Sequence[float] | NDArray[np.float64], labels: Sequence[bool] | NDArray[np.bool_]
) -> float:
    """Area under the ROC curve, ties counted half; nan when a class is absent."""
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=bool)
    pos, neg = s[y], s[~y]
    if not len(pos) or not len(neg):
        return math.nan
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s))
    sorted_s = s[order]
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and sorted_s[j + 1] == sorted_s[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[y].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def balanced_accuracy(
    predicted: Sequence[bool] | NDArray[np.bool_], labels: Sequence[bool] | NDArray[np.bool_]
) -> float:
    """Mean of the recall of each class; nan when a class is absent."""
    p = np.asarray(predicted, dtype=bool)
    y = np.asarray(labels, dtype=bool)
    if not y.any() or y.all():
        return math.nan
    return float((np.mean(p[y]) + np.mean(~p[~y])) / 2)


def confusion(predicted: Sequence[str], actual: Sequence[str]) -> dict[str, dict[str, int]]:
    """Counts as {actual: {predicted: n}}."""
    table: dict[str, dict[str, int]] = {}
    for p, a in zip(predicted, actual, strict=True):
        row = table.setdefault(a, {})
        row[p] = row.get(p, 0) + 1
    return table


def f1(tp: float, fp: float, fn: float) -> float:
    """F1 from counts; 0 when there is nothing to find and nothing found is not the case."""
    if tp == 0:
        return 0.0 if (fp or fn) else 1.0
    return 2 * tp / (2 * tp + fp + fn)


def best_threshold(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """The threshold maximising balanced accuracy (for baselines tuned on the same data)."""
    s = np.asarray(scores, dtype=np.float64)
    best_t, best_v = 0.5, -1.0
    for t in np.unique(np.round(s, 4)):
        v = balanced_accuracy(s >= t, labels)
        if not math.isnan(v) and v > best_v:
            best_t, best_v = float(t), v
    return best_t


def summarise(
    scores: Sequence[float], labels: Sequence[bool], threshold: float
) -> dict[str, float]:
    """n, balanced accuracy at ``threshold``, ROC AUC, and the positive rate."""
    s = np.asarray(scores, dtype=np.float64)
    return {
        "n": len(s),
        "balanced_accuracy": _round(balanced_accuracy(s >= threshold, labels)),
        "roc_auc": _round(roc_auc(s, labels)),
        "threshold": round(threshold, 4),
        "predicted_supported_rate": _round(float(np.mean(s >= threshold)) if len(s) else math.nan),
    }


def _round(value: float) -> float:
    return value if math.isnan(value) else round(value, 4)
