"""Fit the feature verifier's weights on the development data and write them to models/.

Run: ``.venv/bin/python -m benchmarks.fit_feature_verifier [--data-root DIR] [--out FILE]
[--split validation|train|all]`` (``make fit-verifier``). It reads nothing but the labelled data
under ``--data-root`` (the development half of the attribution datasets) and writes
``attribution/models/feature-verifier/weights.json``.

Only the examples of one part of the committed split (``benchmarks/splits``) are read:
``validation`` by default, since the threshold and the combination of signals are fitted on the
validation part (the cross-encoder trains on ``train``); records the split does not know count
as validation.

How:

1. every labelled (claim, evidence) example of ExpertQA, AttributionBench (without its ExpertQA
   and LFQA rows, which repeat the other two datasets), WiCE and LFQA-Verification is turned
   into what the pipeline sees: the evidence texts become sources,
   cut into passages, and the matcher picks the claim's candidate passages (and the best pair);
2. the features of every candidate are computed (:mod:`attribution.verify._features`);
3. a logistic model is fitted with L2 regularisation, each dataset weighing the same and the two
   classes balanced within it. The pipeline scores a claim by its best candidate, so the fit is
   multiple-instance: it starts from the most relevant candidate of each example and, for a few
   rounds, refits on the candidate the current model scores highest;
4. the threshold maximises the mean over datasets of the balanced accuracy of that best score;
5. figures are reported two ways, both written into the weights file: leave-one-dataset-out
   (fit on the other datasets, test on this one: the honest number for data not fitted on) and
   in-sample, next to the embedding cosine alone as a baseline.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import msgspec
import numpy as np
from numpy.typing import NDArray

from attribution import (
    AttributionConfig,
    CitationSource,
    ModelConfig,
    ModelLoadError,
    VerifyConfig,
    normalize_markers,
)
from attribution.match import Candidate, Matcher, MatchResult, make_passages
from attribution.runtime import OnnxCrossEncoder, load_embedder, models_dir
from attribution.verify import (
    FEATURE_NAMES,
    NLI_FEATURE_NAMES,
    FeatureWeights,
    judge_pairs,
    judged,
    pair_features,
)
from benchmarks._logs import quiet_logs
from benchmarks.datasets import (
    SPLIT_NAMES,
    SplitFilter,
    SplitName,
    filter_split,
    load_verification,
)
from benchmarks.datasets._types import DatasetName, VerificationExample

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "attribution"
DEFAULT_OUT = REPO / "attribution" / "models" / "feature-verifier" / "weights.json"
DATASETS = ("expertqa", "attributionbench", "wice", "lfqa")
CANDIDATES_PER_CLAIM = 5
"""Candidates of each example the combination learns from (the matcher's best, then the best
two joined). Not ``VerifyConfig.passages_per_claim``: the engine's judge reads two by default,
but the shipped weights were fitted on five (more weak candidates to learn "unsupported" from),
and a runtime setting should not change what a refit learns (docs/benchmarks.md, "two
candidates a claim")."""
# AttributionBench repeats ExpertQA and LFQA rows (with other labels for some); fitting on them
# twice would also make the leave-one-dataset-out figures for those two not held out.
SKIP_GROUPS = {"attributionbench": frozenset({"ExpertQA", "LFQA"})}

Matrix = NDArray[np.float64]


class Example(msgspec.Struct):
    dataset: str
    group: str
    label: bool
    candidates: Matrix  # one feature row per candidate (single passages, then the pair)
    relevance: NDArray[np.float64]  # fused relevance of each candidate (the pair: its mean)


def _sigmoid(x: Matrix) -> Matrix:
    out: Matrix = 1.0 / (1.0 + np.exp(-np.clip(x, -40, 40)))
    return out


SIGNS: dict[str, int] = {
    "numbers_missing": -1,
    "entities_missing": -1,
    "negation_mismatch": -1,
    "nli_support": 1,
    "nli_contradiction": -1,
}
"""Sign constraints of the fit (issue 11): a number, name or negation the passage does not
share, or the cross-encoder's contradiction, may only lower the support score, and the
cross-encoder's support may only raise it. Unconstrained, the fit gave contradiction a
positive weight (it also measures relevance), which is how "does not open on Mondays" came to
be called supported by "open every day, Mondays included"."""


CONSTRAINED = "signs constrained"
"""What the notes of weights fitted with ``--constrain`` say (the harness refits them alike)."""


def signs_for(names: Sequence[str]) -> tuple[int, ...]:
    """The sign constraint of each feature column (:data:`SIGNS`; 0: free)."""
    return tuple(SIGNS.get(name, 0) for name in names)


def signs_of(weights: FeatureWeights) -> tuple[int, ...] | None:
    """The constraints fitted weights were fitted under: :func:`signs_for` their features when
    their notes say :data:`CONSTRAINED`, else None (free)."""
    return signs_for(weights.feature_names) if CONSTRAINED in (weights.notes or "") else None


def gated_of(weights: FeatureWeights) -> bool:
    """Whether fitted weights carry the judge's gates (refits then fit them too)."""
    return weights.nli_floor is not None or weights.nli_veto is not None


def fit_logistic(
    x: Matrix,
    y: NDArray[np.float64],
    w: NDArray[np.float64],
    l2: float = 1e-2,
    iters: int = 50,
    signs: Sequence[int] | None = None,
) -> tuple[NDArray[np.float64], float]:
    """Weighted L2 logistic regression by Newton's method; returns (weights, bias).

    ``signs`` (one per column: +1, -1 or 0 for free) constrains the weights: a column whose
    weight comes out on the wrong side is pinned to 0 and the rest refitted, until none is
    (an active set; the problem is convex, so this ends in at most one pass per column).
    """
    if signs is None or not any(signs):
        return _newton(x, y, w, l2, iters)
    free = list(range(x.shape[1]))
    while True:
        weights, bias = _newton(x[:, free], y, w, l2, iters)
        wrong = [c for c, v in zip(free, weights, strict=True) if signs[c] * v < 0]
        if not wrong:
            full = np.zeros(x.shape[1])
            full[free] = weights
            return full, bias
        worst = max(wrong, key=lambda c: abs(weights[free.index(c)]))
        free.remove(worst)


def _newton(
    x: Matrix, y: NDArray[np.float64], w: NDArray[np.float64], l2: float, iters: int
) -> tuple[NDArray[np.float64], float]:
    xb = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(xb.shape[1])
    reg = np.full(xb.shape[1], l2)
    reg[-1] = 0.0  # no penalty on the bias
    for _ in range(iters):
        p = _sigmoid(xb @ beta)
        grad = xb.T @ (w * (p - y)) + reg * beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + np.diag(reg) + 1e-9 * np.eye(len(beta))
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return beta[:-1], float(beta[-1])


def sample_weights(examples: Sequence[Example]) -> NDArray[np.float64]:
    """Each dataset weighs the same in total, and within it each class weighs half."""
    counts: dict[tuple[str, bool], int] = {}
    for e in examples:
        counts[(e.dataset, e.label)] = counts.get((e.dataset, e.label), 0) + 1
    n_datasets = len({e.dataset for e in examples})
    return np.array(
        [1.0 / (n_datasets * 2 * counts[(e.dataset, e.label)]) for e in examples]
    ) * len(examples)


Gates = tuple[float | None, float | None]
"""(nli_floor, nli_veto) of :class:`FeatureWeights`: the judge's "no" and "contradicts"."""

NO_GATES: Gates = (None, None)
FLOORS = (None, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3)
VETOES = (0.5, 0.6, 0.7, 0.8, 0.9)
"""The grid :func:`fit_gates` chooses from. The veto is never off: the judge's confident
contradiction (P(contradiction) of 0.9 at the weakest, above its P(entailment)) must not be
outvoted by the cheap signals (issue 11: "support and contradiction from the model"); the
floor may be."""


def best_scores(
    examples: Sequence[Example],
    weights: NDArray[np.float64],
    bias: float,
    gates: Gates = NO_GATES,
) -> NDArray[np.float64]:
    """Each example's best candidate score (with the judge's gates when the candidates carry the
    cross-encoder's two columns, the last two)."""
    floor, veto = gates
    out = []
    for e in examples:
        scores = _sigmoid(e.candidates @ weights + bias)
        if floor is not None or veto is not None:
            scores = judged(scores, e.candidates[:, -2], e.candidates[:, -1], floor, veto)
        out.append(float(np.max(scores)))
    return np.array(out)


def fit_gates(
    examples: Sequence[Example], weights: NDArray[np.float64], bias: float
) -> tuple[Gates, float]:
    """The judge's floor and veto (from :data:`FLOORS` x :data:`VETOES`) and the threshold
    that maximise the mean over datasets of balanced accuracy, for fitted weights; the grid
    includes no gate at all, so gating is kept only where it pays on the data."""
    labels = np.array([e.label for e in examples])
    masks = [
        np.array([e.dataset == d for e in examples]) for d in sorted({e.dataset for e in examples})
    ]
    best: tuple[float, Gates, float] = (-1.0, NO_GATES, 0.5)
    ungated = -1.0
    for floor in FLOORS:
        for veto in (None, *sorted(VETOES, reverse=True)):  # ties: the weakest veto
            scores = best_scores(examples, weights, bias, (floor, veto))
            threshold = choose_threshold(examples, scores)
            value = float(
                np.mean([balanced_accuracy(scores[m] >= threshold, labels[m]) for m in masks])
            )
            if veto is None:  # measured, to say what the veto costs, never chosen
                if value > ungated:
                    ungated = value
            elif value > best[0] + 1e-9:
                best = (value, (floor, veto), threshold)
    print(
        f"gates {best[1]}: mean balanced accuracy {best[0]:.4f} (in sample); the best without "
        f"a veto {ungated:.4f}",
        file=sys.stderr,
    )
    return best[1], best[2]


def fit_all(
    examples: Sequence[Example], signs: Sequence[int] | None = None, *, gated: bool = False
) -> tuple[NDArray[np.float64], float, float, Gates]:
    """Weights, bias, threshold and (with ``gated``) the judge's gates, fitted as ``make
    fit-verifier`` fits them."""
    weights, bias = fit_mil(examples, signs=signs)
    if gated:
        gates, threshold = fit_gates(examples, weights, bias)
        return weights, bias, threshold, gates
    return weights, bias, choose_threshold(examples, best_scores(examples, weights, bias)), NO_GATES


def fit_mil(
    examples: Sequence[Example], rounds: int = 4, signs: Sequence[int] | None = None
) -> tuple[NDArray[np.float64], float]:
    """Multiple-instance fit: start from the most relevant candidate, then the best-scored one.

    ``signs``: the sign constraints of :func:`fit_logistic` (None: free)."""
    y = np.array([1.0 if e.label else 0.0 for e in examples])
    sw = sample_weights(examples)
    chosen = [int(np.argmax(e.relevance)) for e in examples]
    weights, bias = np.zeros(examples[0].candidates.shape[1]), 0.0
    for _ in range(rounds):
        x = np.stack([e.candidates[k] for e, k in zip(examples, chosen, strict=True)])
        weights, bias = fit_logistic(x, y, sw, signs=signs)
        chosen = [int(np.argmax(e.candidates @ weights + bias)) for e in examples]
    return weights, bias


def roc_auc(scores: NDArray[np.float64], labels: NDArray[np.bool_]) -> float:
    """Area under the ROC curve (ties count half); nan when one class is absent."""
    pos, neg = scores[labels], scores[~labels]
    if not len(pos) or not len(neg):
        return math.nan
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    allv = np.concatenate([pos, neg])[order]
    i = 0
    while i < len(order):  # average ranks over ties
        j = i
        while j + 1 < len(order) and allv[j + 1] == allv[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def balanced_accuracy(pred: NDArray[np.bool_], labels: NDArray[np.bool_]) -> float:
    tpr = float(np.mean(pred[labels])) if labels.any() else math.nan
    tnr = float(np.mean(~pred[~labels])) if (~labels).any() else math.nan
    return (tpr + tnr) / 2


def choose_threshold(examples: Sequence[Example], scores: NDArray[np.float64]) -> float:
    """The threshold maximising the mean over datasets of balanced accuracy."""
    labels = np.array([e.label for e in examples])
    datasets = sorted({e.dataset for e in examples})
    masks = [np.array([e.dataset == d for e in examples]) for d in datasets]
    best_t, best_v = 0.5, -1.0
    for t in np.unique(np.round(scores, 4)):
        v = float(np.mean([balanced_accuracy(scores[m] >= t, labels[m]) for m in masks]))
        if v > best_v:
            best_t, best_v = float(t), v
    return best_t


def labelled_rows(
    data_root: Path, dataset: str, limit: int | None, *, split: SplitName = "validation"
) -> list[VerificationExample]:
    """The labelled examples with evidence that one dataset contributes to the fit: those of
    ``split``, without :data:`SKIP_GROUPS`, the first ``limit`` of them."""
    loaded = load_verification(data_root, cast("DatasetName", dataset))
    skip = SKIP_GROUPS.get(dataset, frozenset())
    rows = [
        e for e in loaded.examples if e.label is not None and e.evidence and e.group not in skip
    ]
    rows = filter_split(rows, split, data_root=data_root)
    return rows[:limit] if limit else rows


def _add_judge(
    model: OnnxCrossEncoder, claim: str, texts: Sequence[str], rows: Sequence[list[float]]
) -> None:
    """Append the judge's P(support) and P(contradiction) of each text to its feature row, as
    the engine reads them (:func:`attribution.verify.judge_pairs`)."""
    probs = judge_pairs(model, [(text, claim) for text in texts])
    contra = model.contradiction_index
    for row, p in zip(rows, probs, strict=True):
        row.append(float(p[model.support_index]))
        row.append(float(p[contra]) if contra is not None else 0.0)


def _joinable(
    cands: Sequence[Candidate],
    rows: Sequence[Sequence[float]],
    match: MatchResult,
    verify: VerifyConfig,
) -> bool:
    """Whether the engine would join the claim's best two candidates (``Attributor._verify``):
    pairs are joined at all, the judge does not say either one alone contradicts the claim
    (``joined_veto``; its P(contradiction) against its P(support), where the engine compares
    with the gated score, which the judge's veto holds below it), and two passages of two
    sources each hold a word of the claim (:meth:`MatchResult.may_join`, the engine's own rule)."""
    if not verify.pair_passages:
        return False
    a, b = cands[0].passage, cands[1].passage
    for row in rows[:2]:
        if len(row) == len(FEATURE_NAMES) + len(NLI_FEATURE_NAMES):
            support, contra = row[-2], row[-1]
            if contra >= verify.joined_veto and contra > support:
                return False
    return match.may_join(0, a, b)


def _judge_refuses(
    model: OnnxCrossEncoder | None, row: Sequence[float], verify: VerifyConfig
) -> bool:
    """Whether a joined pair does not count because the judge's own P(support) of it is below
    the judge's calibrated threshold (``VerifyConfig.joined_needs_judge``)."""
    if model is None or not verify.joined_needs_judge:
        return False
    return row[-2] < model.support_threshold


def build_examples(
    data_root: Path,
    limit: int | None,
    *,
    matcher: Matcher | None = None,
    datasets: Sequence[str] = DATASETS,
    cross_encoder: OnnxCrossEncoder | None = None,
    split: SplitName = "validation",
    engine_join: bool = False,
) -> list[Example]:
    """Feature rows for every labelled example (see the module docstring).

    Args:
        data_root: the labelled data.
        limit: at most this many examples per dataset.
        matcher: the matcher to embed with (its cache is reused); a new one when None.
        datasets: which of :data:`DATASETS` to read.
        cross_encoder: when given, its P(entailment) and P(contradiction) of each candidate
            are two more columns (:data:`NLI_FEATURE_NAMES`), as the combined verifier has.
        split: the part of the committed split to read (records it does not know count as
            validation).
        engine_join: the best two candidates joined are a candidate only where the engine
            would count them (the rules of the default ``VerifyConfig``: :func:`_joinable`,
            :func:`_judge_refuses`). Off by default: the fit learns from every joined pair, a
            combination fitted under the engine's rules is worse held out on every dataset
            (docs/benchmarks.md, "the fit under the engine's join rules").
    """
    config = AttributionConfig()
    verify = config.verify
    if matcher is None:
        matcher = Matcher(load_embedder(config.model), config.match)
    examples: list[Example] = []
    for dataset in (d for d in DATASETS if d in datasets):
        rows = labelled_rows(data_root, dataset, limit, split=split)
        t0 = time.perf_counter()
        print(
            f"{dataset}: {len(rows)} labelled examples with evidence ({split} split)",
            file=sys.stderr,
        )
        for n, row in enumerate(rows, 1):
            claim = normalize_markers(row.claim, known=(), drop_unknown=True).text.strip()
            sources = [
                CitationSource(id=f"e{k}", type="api", full_content=text)
                for k, text in enumerate(row.evidence)
                if text.strip()
            ]
            passages = make_passages(sources, config.match)
            if not claim or not passages:
                continue
            match = matcher.match([claim], passages)
            cands = (
                match.candidates[0][:CANDIDATES_PER_CLAIM]
                or [c for p in range(len(passages)) if (c := match.candidate(0, p)) is not None][:1]
            )
            if not cands:
                continue
            texts = [passages[c.passage].text for c in cands]
            feats = [
                pair_features(claim, text, c.cosine, match.lexical)
                for c, text in zip(cands, texts, strict=True)
            ]
            rel = [c.relevance for c in cands]
            if cross_encoder is not None:
                _add_judge(cross_encoder, claim, texts, feats)
            if len(cands) >= 2 and (not engine_join or _joinable(cands, feats, match, verify)):
                a, b = cands[0].passage, cands[1].passage
                vec = match.passage_vectors[a] + match.passage_vectors[b]
                cos = float(np.dot(match.claim_vectors[0], vec) / (np.linalg.norm(vec) or 1.0))
                # the pipeline joins the two in source order (Attributor._verify)
                first, second = sorted((a, b), key=lambda p: (passages[p].source_index, p))
                joined = passages[first].text + "\n" + passages[second].text
                pair_row = pair_features(claim, joined, cos, match.lexical)
                if cross_encoder is not None:
                    _add_judge(cross_encoder, claim, [joined], [pair_row])
                if not (engine_join and _judge_refuses(cross_encoder, pair_row, verify)):
                    feats.append(pair_row)
                    rel.append((cands[0].relevance + cands[1].relevance) / 2)
            examples.append(
                Example(
                    dataset=dataset,
                    group=row.group,
                    label=bool(row.label),
                    candidates=np.asarray(feats, dtype=np.float64),
                    relevance=np.asarray(rel, dtype=np.float64),
                )
            )
            if n % 200 == 0:
                rate = n / (time.perf_counter() - t0)
                print(f"  {n}/{len(rows)} ({rate:.1f}/s)", file=sys.stderr)
    return examples


def evaluate(
    train: Sequence[Example],
    test: Sequence[Example],
    signs: Sequence[int] | None = None,
    *,
    gated: bool = False,
) -> tuple[float, float, float]:
    """(AUC, balanced accuracy at the train-chosen threshold, cosine-only AUC) on ``test``;
    with ``gated``, the judge's gates are fitted on ``train`` too."""
    weights, bias, threshold, gates = fit_all(train, signs, gated=gated)
    scores = best_scores(test, weights, bias, gates)
    labels = np.array([e.label for e in test])
    cosine = np.array([float(np.max(e.candidates[:, 0])) for e in test])
    return (
        roc_auc(scores, labels),
        balanced_accuracy(scores >= threshold, labels),
        roc_auc(cosine, labels),
    )


def _fit_threshold(
    examples: Sequence[Example], model: str, manifest: Path, split: str, started: float
) -> int:
    """Calibrate a cross-encoder alone: the threshold on its best candidate's P(support) that
    maximises the mean over datasets of balanced accuracy, written into its manifest entry;
    each dataset's figures also with the threshold chosen on the other datasets."""
    support = len(FEATURE_NAMES)  # the first of the NLI columns
    scores = np.array([float(np.max(e.candidates[:, support])) for e in examples])
    labels = np.array([e.label for e in examples])
    threshold = choose_threshold(examples, scores)
    metrics: dict[str, float] = {"threshold": round(threshold, 6)}
    print("\n| dataset | n | AUC | bal. acc | held-out threshold, bal. acc |", file=sys.stderr)
    print("| --- | ---: | ---: | ---: | ---: |", file=sys.stderr)
    for d in sorted({e.dataset for e in examples}):
        mask = np.array([e.dataset == d for e in examples])
        others = [e for e in examples if e.dataset != d]
        held = choose_threshold(others, scores[~mask])
        figures = {
            "auc": roc_auc(scores[mask], labels[mask]),
            "balanced_accuracy": balanced_accuracy(scores[mask] >= threshold, labels[mask]),
            "heldout_balanced_accuracy": balanced_accuracy(scores[mask] >= held, labels[mask]),
        }
        metrics.update({f"{d}.{k}": round(v, 4) for k, v in figures.items()})
        print(
            f"| {d} | {int(mask.sum())} | {figures['auc']:.3f} | "
            f"{figures['balanced_accuracy']:.3f} | {held:.3f}, "
            f"{figures['heldout_balanced_accuracy']:.3f} |",
            file=sys.stderr,
        )
    data = json.loads(manifest.read_text(encoding="utf-8"))
    entries = [m for m in data["models"] if m.get("name") == model]
    if not entries:
        raise SystemExit(f"{manifest} has no model named {model!r}")
    entries[0]["threshold"] = round(threshold, 6)
    entries[0]["threshold_fitted_on"] = (
        f"the {split} part of the attribution datasets (benchmarks/fit_feature_verifier.py "
        "--threshold-only): the best candidate's P(support), mean balanced accuracy over "
        f"{len({e.dataset for e in examples})} datasets"
    )
    manifest.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"threshold {threshold:.3f} written to {model!r} in {manifest}", file=sys.stderr)
    print(f"done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    json.dump(metrics, sys.stdout, indent=2)
    print()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-root", type=Path, default=DEFAULT_DATA, help="attribution data")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="weights file to write")
    parser.add_argument("--limit", type=int, help="at most this many examples per dataset")
    parser.add_argument(
        "--split",
        choices=SPLIT_NAMES,
        default="validation",
        help="part of the committed split (benchmarks/splits) to fit on: validation (default; "
        "records the split does not know count as validation), train or all",
    )
    parser.add_argument(
        "--constrain",
        action="store_true",
        help="sign constraints: mismatch signals and the cross-encoder's contradiction may only "
        "lower the score, its support only raise it (SIGNS)",
    )
    parser.add_argument(
        "--cross-encoder",
        metavar="NAME",
        help="combine this cross-encoder (a manifest name) as two more features",
    )
    parser.add_argument(
        "--gate",
        action="store_true",
        help="with --cross-encoder: also fit the judge's floor and veto (nli_floor, nli_veto: "
        "the model's 'no' and 'contradicts' cap a pair's score at its P(support))",
    )
    parser.add_argument(
        "--embedder",
        metavar="NAME",
        default=ModelConfig().embedder,
        help="the matcher's embedder (a manifest name) whose candidates and cosines the weights "
        "are fitted with (default: the engine's default, %(default)s); recorded in the file",
    )
    parser.add_argument(
        "--engine-join",
        action="store_true",
        help="a claim's best two candidates joined are a candidate only where the engine would "
        "count them (its join veto, cross-source rule and judge gate); off: every joined pair "
        "is learnt from, which fits better held out (docs/benchmarks.md)",
    )
    parser.add_argument(
        "--threshold-only",
        action="store_true",
        help="with --cross-encoder: fit no weights, only that model's own support threshold "
        "(on its best candidate's P(support), as the pipeline scores a claim with the model "
        "alone) and write it into the model's entry of --manifest",
    )
    parser.add_argument(
        "--manifest",
        type=Path,
        default=None,
        help="the manifest --threshold-only writes into: that of the models folder the model "
        "is read from ($ATTRIBUTION_MODELS_DIR, else attribution/models/manifest.json)",
    )
    args = parser.parse_args(argv)
    quiet_logs()
    if not args.data_root.is_dir():
        parser.error(f"--data-root {args.data_root} is not a directory")
    if args.threshold_only and not args.cross_encoder:
        parser.error("--threshold-only needs --cross-encoder NAME (the model to calibrate)")
    if args.gate and not args.cross_encoder:
        parser.error("--gate needs --cross-encoder NAME (the judge whose word it gates)")
    gated = bool(args.gate)

    started = time.perf_counter()
    cross_encoder = None
    if args.cross_encoder:
        try:
            cross_encoder = OnnxCrossEncoder.from_config(None, args.cross_encoder)
        except ModelLoadError as exc:
            parser.error(f"--cross-encoder: {exc}")
    names = FEATURE_NAMES + (NLI_FEATURE_NAMES if cross_encoder is not None else ())
    signs = signs_for(names) if args.constrain else None
    if os.environ.get("ATTRIBUTION_EMBEDDER"):
        parser.error("unset $ATTRIBUTION_EMBEDDER: it would override --embedder")
    model_config = ModelConfig(embedder=args.embedder)
    try:
        matcher = Matcher(load_embedder(model_config), AttributionConfig().match)
    except ModelLoadError as exc:
        parser.error(f"--embedder: {exc}")
    examples = build_examples(
        args.data_root,
        args.limit,
        matcher=matcher,
        cross_encoder=cross_encoder,
        split=args.split,
        engine_join=args.engine_join,
    )
    if args.split != "all":
        split_filter = SplitFilter(args.split, args.data_root)
        for dataset in DATASETS:
            split_filter.train_ids(dataset)
        for note in split_filter.notes:
            print(f"note: {note}", file=sys.stderr)
    datasets = sorted({e.dataset for e in examples})
    if len(datasets) < 2:
        parser.error(f"need labelled examples from two datasets at least, found {datasets}")

    if args.threshold_only:
        # the entry of the model just scored: a copy of the models folder
        # (ATTRIBUTION_MODELS_DIR) gets the threshold, not the committed manifest
        manifest = args.manifest or models_dir() / "manifest.json"
        return _fit_threshold(examples, args.cross_encoder, manifest, args.split, started)

    metrics: dict[str, float] = {}
    print("\n| dataset | n | held-out AUC | held-out bal. acc | cosine-only AUC |", file=sys.stderr)
    print("| --- | ---: | ---: | ---: | ---: |", file=sys.stderr)
    for d in datasets:
        train = [e for e in examples if e.dataset != d]
        test = [e for e in examples if e.dataset == d]
        auc, bacc, cos_auc = evaluate(train, test, signs, gated=gated)
        metrics[f"{d}.heldout_auc"] = round(auc, 4)
        metrics[f"{d}.heldout_balanced_accuracy"] = round(bacc, 4)
        metrics[f"{d}.cosine_auc"] = round(cos_auc, 4)
        print(f"| {d} | {len(test)} | {auc:.3f} | {bacc:.3f} | {cos_auc:.3f} |", file=sys.stderr)

    weights, bias, threshold, gates = fit_all(examples, signs, gated=gated)
    scores = best_scores(examples, weights, bias, gates)
    labels = np.array([e.label for e in examples])
    for d in datasets:
        mask = np.array([e.dataset == d for e in examples])
        metrics[f"{d}.insample_auc"] = round(roc_auc(scores[mask], labels[mask]), 4)
        metrics[f"{d}.insample_balanced_accuracy"] = round(
            balanced_accuracy(scores[mask] >= threshold, labels[mask]), 4
        )
    fitted = FeatureWeights(
        cross_encoder=args.cross_encoder,
        features=names,
        weights=tuple(round(float(w), 6) for w in weights),
        bias=round(bias, 6),
        threshold=round(threshold, 6),
        nli_floor=gates[0],
        nli_veto=gates[1],
        embedder=args.embedder,
        fitted_on={d: sum(e.dataset == d for e in examples) for d in datasets},
        # a figure without a value (one class only, as with --limit) is left out: JSON has no NaN
        metrics={k: v for k, v in metrics.items() if math.isfinite(v)},
        notes=(
            "Logistic model over support features, fitted by benchmarks/fit_feature_verifier.py "
            f"on the {args.split} part (benchmarks/splits) of the development half of the "
            "attribution datasets (multiple-instance, datasets weighted equally, classes "
            "balanced"
            + (f"; {CONSTRAINED}: " + json.dumps(SIGNS) if args.constrain else "")
            + "). 'heldout' figures: fitted without that dataset."
        ),
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(msgspec.json.format(msgspec.json.encode(fitted), indent=2) + b"\n")
    print(f"\nweights: {dict(zip(names, np.round(weights, 3), strict=True))}", file=sys.stderr)
    print(f"bias {bias:.3f}, threshold {threshold:.3f}, gates {gates}", file=sys.stderr)
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    json.dump(metrics, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
