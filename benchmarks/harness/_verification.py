"""Task 1: claim verification on every dataset, with baselines and held-out figures.

Each labelled (claim, evidence) example becomes what the engine sees in use: the evidence texts
are the sources, the claim is checked whole (:meth:`Attributor.check_claims`), and its score is
its best passage's (or best pair's) support. FaithBench summaries are attributed like answers:
segmented into claims, and the summary's score is its weakest claim's.

Figures per dataset (and per sub-source): balanced accuracy at the engine's own threshold and
ROC AUC of the support score, for the engine and each baseline on the same examples.

Because the feature verifier was fitted on the development data of four of these datasets, the
engine's figures on them are in-sample; ``leave_one_dataset_out`` gives the honest figures:
weights fitted on the other datasets, scored on this one (see ``fit_feature_verifier.py``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, cast

from attribution import CitationSource, FeatureVerifier
from benchmarks.datasets import load_faithbench, load_verification
from benchmarks.datasets._types import DatasetName

from ._baselines import BASELINE_THRESHOLDS, Baselines
from ._context import HarnessContext, progress
from ._metrics import summarise

__all__ = ["LABEL_MAPPINGS", "run"]

LABEL_MAPPINGS = {
    "expertqa": "Complete = supported; Missing, Incomplete = not supported; Partial and N/A "
    "excluded. Only systems with evidence passages (rr_*, post_hoc_*) can be checked; claims "
    "that cite nothing or only URLs are dropped.",
    "attributionbench": "attributable = supported, not attributable = not supported; all "
    "sub-sources (its ExpertQA and LFQA rows repeat those datasets, with Partial/N/A counted "
    "as not attributable).",
    "wice": "supported = supported, not_supported = not supported; partially_supported "
    "excluded. Evidence: the whole cited article.",
    "lfqa": "majority of 3 annotators: supported = supported, not_supported = not supported; "
    "partially supported and three-way ties excluded. Evidence: the question's documents.",
    "faithbench": "summary consistent (no Unwanted span) = supported; any Unwanted span = not "
    "supported (Questionable and Benign count as consistent). Evidence: the source article.",
}


def _sources(texts: Sequence[str]) -> list[CitationSource]:
    return [
        CitationSource(id=f"e{i + 1}", type="web", full_content=t)
        for i, t in enumerate(texts)
        if t.strip()
    ]


def _faithbench_rows(ctx: HarnessContext) -> list[tuple[str, list[str], bool, str]]:
    loaded = load_faithbench(ctx.data_root)
    if loaded.status == "missing":
        return []
    return [
        (s.summary, [s.source], bool(s.consistent), s.summarizer or "unknown")
        for s in ctx.take(list(loaded.records))
    ]


def _rows(ctx: HarnessContext, dataset: str) -> list[tuple[str, list[str], bool, str]] | None:
    """(claim, evidence, label, group) per labelled example; None when the dataset is missing."""
    if dataset == "faithbench":
        rows = _faithbench_rows(ctx)
        return rows or None
    loaded = load_verification(ctx.data_root, cast("DatasetName", dataset))
    if loaded.status == "missing":
        return None
    examples = [e for e in loaded.examples if e.label is not None and e.evidence]
    return [(e.claim, list(e.evidence), bool(e.label), e.group) for e in ctx.take(examples)]


def _engine_scores(
    ctx: HarnessContext, dataset: str, rows: list[tuple[str, list[str], bool, str]]
) -> tuple[list[float], float]:
    attributor = ctx.attributor
    scores: list[float] = []
    threshold = attributor.config.verify.support_threshold or attributor.verifier.threshold
    for claim, evidence, _, _ in progress(rows, f"{dataset}: engine"):
        sources = _sources(evidence)
        if dataset == "faithbench":
            result = attributor.attribute(claim, sources)
            scores.append(min((c.score for c in result.claims), default=1.0))
        else:
            (checked,) = attributor.check_claims([claim], sources)
            scores.append(checked.score)
    return scores, threshold


def _baseline_scores(
    ctx: HarnessContext, dataset: str, rows: list[tuple[str, list[str], bool, str]]
) -> dict[str, list[float]]:
    baselines = Baselines(ctx.baseline_matcher, ctx.attributor.config.match)
    out: dict[str, list[float]] = {name: [] for name in BASELINE_THRESHOLDS}
    for claim, evidence, _, _ in progress(rows, f"{dataset}: baselines"):
        sources = _sources(evidence)
        if dataset == "faithbench":
            # Sentence by sentence, as RAG stacks inject: the summary's weakest sentence counts.
            sentences = [c.text for c in ctx.attributor.segmenter.claims(claim)] or [claim]
            per = baselines.score_claims(sentences, sources)
            for name in out:
                out[name].append(min(b.score(name) for b in per))
        else:
            (scored,) = baselines.score_claims([claim], sources)
            for name in out:
                out[name].append(scored.score(name))
    return out


def _leave_one_dataset_out(ctx: HarnessContext) -> dict[str, dict[str, float]]:
    """Held-out figures of the feature verifier: refit without each dataset, score it."""
    from benchmarks.fit_feature_verifier import (
        DATASETS,
        build_examples,
        evaluate,
        gated_of,
        signs_of,
    )

    chosen = [d for d in DATASETS if d in ctx.datasets]
    if len(chosen) < 2:
        return {}
    verifier = ctx.attributor.verifier
    examples = build_examples(
        ctx.data_root,
        ctx.limit,
        matcher=ctx.attributor.matcher,
        datasets=chosen,
        cross_encoder=verifier.cross_encoder if isinstance(verifier, FeatureVerifier) else None,
        split=ctx.split,
    )
    out: dict[str, dict[str, float]] = {}
    for d in sorted({e.dataset for e in examples}):
        train = [e for e in examples if e.dataset != d]
        test = [e for e in examples if e.dataset == d]
        if len({e.dataset for e in train}) < 1 or len({e.label for e in test}) < 2:
            continue
        weights = verifier.weights if isinstance(verifier, FeatureVerifier) else None
        signs = signs_of(weights) if weights is not None else None
        gated = gated_of(weights) if weights is not None else False
        auc, bacc, _ = evaluate(train, test, signs, gated=gated)
        out[d] = {
            "n": len(test),
            "roc_auc": round(auc, 4),
            "balanced_accuracy": round(bacc, 4),
        }
    return out


def run(ctx: HarnessContext) -> dict[str, dict[str, Any]]:
    """Claim verification figures per dataset (the shape of ``accuracy.json``'s datasets)."""
    results: dict[str, dict[str, Any]] = {}
    for dataset in ctx.datasets:
        rows = _rows(ctx, dataset)
        if rows is None:
            ctx.notes.append(f"{dataset}: not found under {ctx.data_root}; skipped")
            continue
        if not rows:
            ctx.notes.append(f"{dataset}: no labelled examples; skipped")
            continue
        started = time.perf_counter()
        scores, threshold = _engine_scores(ctx, dataset, rows)
        engine_s = time.perf_counter() - started
        baseline = _baseline_scores(ctx, dataset, rows)
        labels = [r[2] for r in rows]
        entry: dict[str, Any] = summarise(scores, labels, threshold)
        entry["supported_share"] = round(sum(labels) / len(labels), 4)
        entry["label_mapping"] = LABEL_MAPPINGS[dataset]
        entry["engine_seconds"] = round(engine_s, 2)
        entry["baselines"] = {
            name: summarise(values, labels, BASELINE_THRESHOLDS[name])
            for name, values in baseline.items()
        }
        groups: dict[str, list[int]] = {}
        for i, row in enumerate(rows):
            groups.setdefault(row[3], []).append(i)
        if len(groups) > 1:
            entry["per_group"] = {
                g: {
                    **summarise([scores[i] for i in idx], [labels[i] for i in idx], threshold),
                    "baselines": {
                        name: summarise(
                            [values[i] for i in idx],
                            [labels[i] for i in idx],
                            BASELINE_THRESHOLDS[name],
                        )
                        for name, values in baseline.items()
                    },
                }
                for g, idx in sorted(groups.items())
            }
        results[dataset] = entry
    if isinstance(ctx.attributor.verifier, FeatureVerifier):
        fitted_on = ctx.attributor.verifier.weights.fitted_on
        held_out = _leave_one_dataset_out(ctx)
        for dataset, figures in held_out.items():
            if dataset in results:
                results[dataset]["leave_one_dataset_out"] = figures
        for dataset in results:
            results[dataset]["fitted_on_this_dataset"] = dataset in fitted_on
    return results
