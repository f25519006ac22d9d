"""Hallucinated-span detection on FaithBench, per character and per summary, beside detectors.

Each summary is attributed with :meth:`Attributor.attribute` against one source, the article
it summarises. Predicted unsupported text: the character spans of the claims whose verdict is
``unsupported`` or ``contradicted``, and, in the main figures, ``partially_supported`` too (a
summary sentence only partly backed by its article is what annotators mark); the figures with
partial support counted as supported are reported beside them. Text that is no claim (a lead-in,
a question) is never predicted.

Gold: the union over annotators of the spans labelled ``Unwanted`` (main), and of those labelled
``Unwanted`` or ``Questionable`` (second view). Character F1 counts non-whitespace characters
only, so that where a span starts or ends around a space does not count: micro over every
character of every summary (tp, fp, fn summed), and the mean of per-summary F1 (a summary with
nothing gold and nothing predicted scores 1).

Sample level: a summary is hallucinated when it is not ``consistent`` (an annotator marked an
Unwanted span). The engine predicts it hallucinated when a claim is unsupported (as above), and
scores it ``1 - min(claim score)`` (0 when it has no claim). Every detector in the samples'
metadata is measured on the same samples: balanced accuracy of its ``hallucinated`` verdicts,
and ROC AUC of ``1 - value`` where its values are scores rather than 0/1. The baselines
(``embedding-threshold@t``, ``lexical-overlap``) score the engine's claim texts against the
engine's passages of the article: a summary is hallucinated when some claim's best chunk is
below the threshold, scored ``1 - min(claim score)``; their spans are those claims'.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attribution import CitationSource, ClaimResult
from benchmarks.datasets import FaithBenchSample, load_faithbench

from ._baselines import BASELINE_THRESHOLDS, Baselines
from ._context import HarnessContext, progress
from ._metrics import balanced_accuracy, f1, roc_auc

__all__ = ["DEFINITION_SAMPLES", "DEFINITION_SPANS", "run"]

UNSUPPORTED = frozenset({"unsupported", "contradicted"})
"""Verdicts that always mark a claim's text as unsupported."""

PARTIAL = "partially_supported"

GOLD_VIEWS: dict[str, frozenset[str]] = {
    "Unwanted": frozenset({"Unwanted"}),
    "Unwanted+Questionable": frozenset({"Unwanted", "Questionable"}),
}
"""Gold span labels per view; the first is the main one."""

PARTIAL_VIEWS = {"partial_as_unsupported": True, "partial_as_supported": False}
"""Whether partially supported claims count as unsupported; the first is the main view."""

DEFINITION_SPANS = (
    "FaithBench summaries attributed against their article (attribute). Predicted: characters "
    "of claims judged unsupported/contradicted (main: partially_supported too). Gold: union of "
    "annotators' Unwanted spans (main) or Unwanted+Questionable spans. Non-whitespace "
    "characters only; micro P/R/F1 over all summaries' characters and mean per-summary F1 "
    "(nothing gold, nothing predicted = 1). Baselines: claims whose best chunk is below the "
    "baseline threshold (gold Unwanted)."
)
DEFINITION_SAMPLES = (
    "FaithBench sample hallucinated = not consistent (an Unwanted span). Engine: hallucinated "
    "if any claim is unsupported/contradicted (main: or partially_supported), score = 1 - min "
    "claim score. Detectors: their metadata verdicts on the same samples (hallucinated = value "
    "< 0.5; AUC of 1 - value only for non-binary detectors, else null). Baselines: hallucinated "
    "if some claim's best chunk scores below the threshold, score = 1 - min claim score."
)

Mask = NDArray[np.bool_]


@dataclass
class _SpanCounts:
    """Character counts summed over summaries, and each summary's F1."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    per_sample: list[float] = field(default_factory=list)

    def add(self, predicted: Mask, gold: Mask, countable: Mask) -> None:
        """Count one summary's characters (only those ``countable`` marks)."""
        tp = int(np.sum(predicted & gold & countable))
        fp = int(np.sum(predicted & ~gold & countable))
        fn = int(np.sum(~predicted & gold & countable))
        self.tp, self.fp, self.fn = self.tp + tp, self.fp + fp, self.fn + fn
        self.per_sample.append(f1(tp, fp, fn))

    def report(self) -> dict[str, Any]:
        """Micro precision, recall and F1, mean per-summary F1, and the raw counts."""
        return {
            "micro_precision": _ratio(self.tp, self.tp + self.fp),
            "micro_recall": _ratio(self.tp, self.tp + self.fn),
            "micro_f1": round(f1(self.tp, self.fp, self.fn), 4),
            "mean_f1": round(float(np.mean(self.per_sample)), 4) if self.per_sample else None,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
        }


def _ratio(a: int, b: int) -> float | None:
    """``a / b`` rounded; None when ``b`` is 0."""
    return round(a / b, 4) if b else None


def _metric(value: float) -> float | None:
    """A metric rounded for the report; None where it is undefined (nan)."""
    return None if np.isnan(value) else round(value, 4)


def _mask(length: int, spans: Iterable[tuple[int, int]]) -> Mask:
    """A boolean mask of ``length`` characters, True inside any of ``spans``."""
    mask = np.zeros(length, dtype=bool)
    for start, end in spans:
        mask[max(0, start) : max(0, min(end, length))] = True
    return mask


def _is_unsupported(claim: ClaimResult, partial: bool) -> bool:
    """Whether the claim's text is predicted unsupported (``partial``: partial support too)."""
    return claim.verdict in UNSUPPORTED or (partial and claim.verdict == PARTIAL)


def _sample_report(
    predicted: Sequence[bool], scores: Sequence[float] | None, gold: Sequence[bool]
) -> dict[str, Any]:
    """n, balanced accuracy, ROC AUC (None without scores) and the predicted-positive rate."""
    return {
        "n": len(gold),
        "balanced_accuracy": _metric(balanced_accuracy(predicted, gold)),
        "roc_auc": _metric(roc_auc(scores, gold)) if scores is not None else None,
        "predicted_hallucinated_rate": _ratio(sum(predicted), len(predicted)),
    }


@dataclass(frozen=True)
class _Scored:
    """What one summary yields: its claims, their baseline scores, and the gold."""

    sample: FaithBenchSample
    claims: tuple[ClaimResult, ...]
    baseline_scores: dict[str, list[float]]


def _score(ctx: HarnessContext, baselines: Baselines, sample: FaithBenchSample) -> _Scored:
    """Attribute one summary and score its claims the baselines' way."""
    source = CitationSource(id="article", type="web", full_content=sample.source)
    result = ctx.attributor.attribute(sample.summary, [source])
    claims = tuple(result.claims)
    per_claim = baselines.score_claims([c.text for c in claims], [source]) if claims else []
    return _Scored(
        sample=sample,
        claims=claims,
        baseline_scores={name: [s.score(name) for s in per_claim] for name in BASELINE_THRESHOLDS},
    )


def _span_detection(scored: Sequence[_Scored]) -> dict[str, Any]:
    """Character-level figures for every gold and partial-support view, and the baselines."""
    views: dict[str, dict[str, _SpanCounts]] = {
        g: {p: _SpanCounts() for p in PARTIAL_VIEWS} for g in GOLD_VIEWS
    }
    baseline_counts = {name: _SpanCounts() for name in BASELINE_THRESHOLDS}
    main_gold = next(iter(GOLD_VIEWS))
    for item in scored:
        summary = item.sample.summary
        countable = ~np.array([ch.isspace() for ch in summary], dtype=bool)
        golds = {
            g: _mask(
                len(summary), ((s.start, s.end) for s in item.sample.spans if s.label in labels)
            )
            for g, labels in GOLD_VIEWS.items()
        }
        for p, partial in PARTIAL_VIEWS.items():
            predicted = _mask(
                len(summary),
                ((c.start, c.end) for c in item.claims if _is_unsupported(c, partial)),
            )
            for g, gold in golds.items():
                views[g][p].add(predicted, gold, countable)
        for name, threshold in BASELINE_THRESHOLDS.items():
            below = (
                (c.start, c.end)
                for c, s in zip(item.claims, item.baseline_scores[name], strict=True)
                if s < threshold
            )
            baseline_counts[name].add(_mask(len(summary), below), golds[main_gold], countable)
    reports = {f"gold={g}": {p: c.report() for p, c in v.items()} for g, v in views.items()}
    main = reports[f"gold={main_gold}"][next(iter(PARTIAL_VIEWS))]
    return {
        "n": len(scored),
        "main": {"gold": main_gold, "partial": next(iter(PARTIAL_VIEWS)), **main},
        "views": reports,
        "baselines": {name: c.report() for name, c in baseline_counts.items()},
        "definition": DEFINITION_SPANS,
    }


def _sample_level(scored: Sequence[_Scored]) -> dict[str, Any]:
    """Summary-level figures: the engine, every detector and the baselines, same samples."""
    gold = [not item.sample.consistent for item in scored]
    engine_scores = [1.0 - min((c.score for c in item.claims), default=1.0) for item in scored]
    engine: dict[str, Any] = {}
    for p, partial in PARTIAL_VIEWS.items():
        predicted = [any(_is_unsupported(c, partial) for c in item.claims) for item in scored]
        engine[p] = _sample_report(predicted, engine_scores, gold)
    main_partial = PARTIAL_VIEWS[next(iter(PARTIAL_VIEWS))]
    engine_predicted = [any(_is_unsupported(c, main_partial) for c in i.claims) for i in scored]

    detectors: dict[str, Any] = {}
    names = sorted({name for item in scored for name in item.sample.detectors})
    for name in names:
        rows = [
            (item.sample.detectors[name], g, p)
            for item, g, p in zip(scored, gold, engine_predicted, strict=True)
            if name in item.sample.detectors
        ]
        verdicts = [v for v, _, _ in rows]
        labels = [g for _, g, _ in rows]
        # A 0/1 detector's AUC is its balanced accuracy again; only real scores rank samples.
        graded = any(v.value not in (0.0, 1.0) for v in verdicts)
        scores = [1.0 - v.value for v in verdicts] if graded else None
        report = _sample_report([v.hallucinated for v in verdicts], scores, labels)
        if len(rows) < len(scored):
            # Some samples lack this detector: give the engine's figure on the same subset.
            report["engine_balanced_accuracy_same_samples"] = _metric(
                balanced_accuracy([p for _, _, p in rows], labels)
            )
        detectors[name] = report

    baselines: dict[str, Any] = {}
    for name, threshold in BASELINE_THRESHOLDS.items():
        claim_scores = [item.baseline_scores[name] for item in scored]
        predicted = [any(s < threshold for s in scores) for scores in claim_scores]
        sample_scores = [1.0 - min(scores, default=1.0) for scores in claim_scores]
        baselines[name] = _sample_report(predicted, sample_scores, gold)

    return {
        "n": len(scored),
        "gold_hallucinated_rate": _ratio(sum(gold), len(gold)),
        "engine": {"main": next(iter(PARTIAL_VIEWS)), **engine},
        "detectors": detectors,
        "baselines": baselines,
        "definition": DEFINITION_SAMPLES,
    }


def run(ctx: HarnessContext) -> dict[str, dict[str, Any]]:
    """Character-level span F1 and sample-level detection on FaithBench, with comparisons."""
    if "faithbench" not in ctx.datasets:
        return {}
    loaded = load_faithbench(ctx.data_root)
    if loaded.status == "missing":
        ctx.notes.append(f"faithbench: missing (looked for {loaded.path}); span detection skipped")
        return {}
    baselines = Baselines(ctx.baseline_matcher, ctx.attributor.config.match)
    samples = ctx.take(list(loaded.records))
    skipped: dict[str, int] = {}
    scored: list[_Scored] = []
    for sample in progress(samples, "faithbench spans"):
        try:
            scored.append(_score(ctx, baselines, sample))
        except Exception as exc:  # one odd row must not end a long run
            reason = f"error: {type(exc).__name__}"
            skipped[reason] = skipped.get(reason, 0) + 1
    no_claims = sum(1 for item in scored if not item.claims)
    if no_claims:
        ctx.notes.append(f"faithbench: {no_claims} summaries gave no claim (scored as consistent)")
    spans = _span_detection(scored)
    spans["skipped"] = dict(sorted(skipped.items()))
    spans["no_claims"] = no_claims
    return {"faithbench": {"span_detection": spans, "sample_level": _sample_level(scored)}}
