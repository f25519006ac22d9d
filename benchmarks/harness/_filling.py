"""Task 3: citation filling, the engine adds citations to answers stripped of theirs.

ExpertQA (``rr_*`` and ``post_hoc_*`` systems: one source per quoted evidence passage of the
answer) and LFQA-Verification (the question's document set) answers lose every marker, the
engine attributes them with ``fill_missing`` on, and the citations it adds are scored the way
ALCE (Gao et al. 2023) scores citations, per claim (ExpertQA) or sentence (LFQA). ALCE judges
with an NLI model; there is no independent judge here, so:

- **Recall side, human labels.** Supported claims should get a citation, unsupported ones
  none. ExpertQA labels judge a claim's *original* evidence, so a supported (``Complete``)
  claim counts as recalled when the engine cites at least one of the passages the experts
  judged (``expert_evidence_recall``); ``cited_rate_supported`` counts any citation.
  ``abstain_rate_not_supported`` is the share of ``Incomplete``/``Missing`` claims that get no
  citation (another passage of the answer may in truth support such a claim: a lower bound).
  LFQA labels judge a sentence against the whole document set: ``citation_recall`` is the
  share of ``supported`` sentences that got a citation, ``abstain_rate_not_supported`` the
  share of ``not_supported`` sentences that got none.
- **Precision side, the engine's own verifier.** ALCE's precision: a citation is precise
  when the claim's cited sources together support it and the citation is not redundant, a
  redundant one failing alone while the others still support the claim without it. "Support"
  is ``Attributor.check_claims`` on the claim with just those sources (supported = at or above
  the verifier's threshold). ``precision`` = precise citations / all citations;
  ``judged_recall`` (ALCE's citation recall under the same judge) = share of cited claims
  whose cited set supports them. The judge is the engine's own verifier, not independent: the
  engine only adds citations its verifier accepts inside the whole source set. Its scores also
  depend on the set it is given (IDF-weighted lexical features, relevance gates), so a claim
  judged against a subset of the sources scores lower than inside the whole set: the engine's
  ``judged_recall`` below 1 measures that drift, and precision is a lower bound throughout.

Engine citations reach a labelled claim through offsets: the markers are removed with an
offset map, and an engine claim's added citations count for every labelled claim it overlaps
by at least half the shorter of the two spans. Baselines cite, per labelled claim text, every
source with a chunk at or above their threshold; their precision uses the same judge.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from attribution import AttributionError, Attributor, CitationSource, find_markers
from benchmarks.datasets import ExpertQAAnswer, LFQAAnswer, load_expertqa, load_lfqa

from ._baselines import BASELINE_THRESHOLDS, Baselines
from ._context import HarnessContext, progress
from ._markers_task import expertqa_sources, is_checked_system, strip_markers

__all__ = ["LabelledSpan", "StrippedText", "run", "score_filling", "strip_with_map"]

_PRECISION_DEFINITION = (
    "precision (ALCE): precise citations / all citations; a citation is precise when the "
    "claim's cited set together supports it and it is not redundant (redundant: it fails "
    "alone while the other citations still support the claim). judged_recall: share of "
    "cited claims whose cited set supports them. Judge for both: the engine's own verifier "
    "via check_claims on the claim with only those sources (not independent; the engine only "
    "adds citations it accepts). The judge depends on the source set it is given (IDF-weighted "
    "lexical features and relevance gates are computed over those sources), so a claim judged "
    "against a subset scores lower than inside the whole set: the engine's judged_recall "
    "below 1 measures that drift, and precision is a lower bound for every system. "
)
EXPERTQA_DEFINITION = (
    "ExpertQA rr_*/post_hoc_* answers with their markers removed; sources = every quoted "
    "evidence passage of the answer; one example per expert-labelled claim (supported = "
    "Complete; not supported = Incomplete or Missing; Partial, N/A, unlabelled excluded). "
    "expert_evidence_recall: among supported claims that cite a quoted passage, the share "
    "where the citations include at least one passage the experts judged (human judge, "
    "evidence overlap). cited_rate_supported: share of supported claims with any citation. "
    "abstain_rate_not_supported: share of not-supported claims with no citation (human judge; "
    "a lower bound, since another passage may support the claim). "
    + _PRECISION_DEFINITION
    + "Baselines cite every source with a chunk at/above their "
    "threshold for the claim text; same metrics, same judge."
)
LFQA_DEFINITION = (
    "LFQA-Verification answers (sentences joined, markers removed); sources = the question's "
    "document set; one example per sentence with a majority label (supported vs not_supported; "
    "partially and ties excluded). citation_recall: share of supported sentences with at least "
    "one citation (human judge: annotators judged the sentence against the whole document "
    "set). abstain_rate_not_supported: share of not_supported sentences with no citation. "
    "balanced_accuracy: their mean. "
    + _PRECISION_DEFINITION
    + "Baselines cite every document with a chunk at/above their threshold for "
    "the sentence; same metrics, same judge."
)


@dataclass(frozen=True)
class StrippedText:
    """A text with its markers removed, and the way back from old offsets to new ones."""

    text: str
    """The text without markers."""
    removed: tuple[tuple[int, int], ...]
    """The ``[start, end)`` spans of the original that were removed, in order."""

    def map(self, offset: int) -> int:
        """The offset in ``text`` of an offset into the original (inside a removal: its start)."""
        shift = 0
        for start, end in self.removed:
            if end <= offset:
                shift += end - start
            elif start < offset:
                shift += offset - start
            else:
                break
        return offset - shift


def strip_with_map(text: str) -> StrippedText:
    """Remove every marker of ``text`` with the blanks before it, keeping an offset map.

    The same edit as ``normalize_markers(text, known=(), drop_unknown=True)``, which gives no
    offset map; the labelled claims' offsets must follow the text.
    """
    removed: list[tuple[int, int]] = []
    pieces: list[str] = []
    cursor = 0
    for marker in find_markers(text):
        start = marker.start
        while start > cursor and text[start - 1] in " \t":
            start -= 1
        pieces.append(text[cursor:start])
        removed.append((start, marker.end))
        cursor = marker.end
    pieces.append(text[cursor:])
    return StrippedText(text="".join(pieces), removed=tuple(removed))


@dataclass(frozen=True)
class LabelledSpan:
    """One labelled claim or sentence of a stripped answer."""

    start: int
    """Start offset in the stripped answer."""
    end: int
    """End offset in the stripped answer."""
    text: str
    """The claim without markers (what baselines and the precision judge read)."""
    label: bool
    """Human label: supported or not."""
    raw_label: str
    """The label as the dataset writes it."""
    original: frozenset[int] = frozenset()
    """Source indices the claim originally cited (ExpertQA), empty otherwise."""


@dataclass
class _Citations:
    """What one system (engine or baseline) cited for each labelled span."""

    cited: list[frozenset[int]] = field(default_factory=list)
    """The source indices cited, per labelled span."""
    total: int = 0
    """All citations."""
    precise: int = 0
    """Citations ALCE's precision counts as precise (engine's verifier as the judge)."""
    judged_supported: int = 0
    """Spans with citations whose cited set supports them (the same judge)."""


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two spans share at least half of the shorter one."""
    shared = min(a[1], b[1]) - max(a[0], b[0])
    shorter = min(a[1] - a[0], b[1] - b[0])
    return shorter > 0 and 2 * shared >= shorter


def _judge(
    attributor: Attributor, text: str, cited: frozenset[int], sources: Sequence[CitationSource]
) -> tuple[bool, int]:
    """ALCE's judgement of one claim's citations, with the engine's verifier as the judge.

    Returns:
        Whether the cited sources together support ``text``, and how many citations are
        precise: none when the set does not support the claim; else each one except those
        that fail alone while the others still support the claim without them.
    """
    if not cited:
        return False, 0

    def supports(indices: Sequence[int]) -> bool:
        checked = attributor.check_claims([text], [sources[i] for i in indices])[0]
        return checked.verdict == "supported"

    order = sorted(cited)
    if not supports(order):
        return False, 0
    if len(order) == 1:
        return True, 1
    precise = sum(supports([s]) or not supports([r for r in order if r != s]) for s in order)
    return True, precise


def score_filling(
    attributor: Attributor,
    baselines: Baselines,
    answer: str,
    spans: Sequence[LabelledSpan],
    sources: Sequence[CitationSource],
    systems: dict[str, _Citations],
) -> int:
    """Attribute one stripped answer; record each system's citations for every labelled span.

    Returns:
        How many labelled spans no engine claim overlaps (the engine did not treat them as
        claims, so it cited nothing for them).
    """
    result = attributor.attribute(answer, list(sources))
    scored = baselines.score_claims([s.text for s in spans], sources)
    # Sources are numbered 1..n in the order given (no registry), so number n is index n - 1.
    engine_cited: list[set[int]] = [set() for _ in spans]
    covered = [False] * len(spans)
    for claim in result.claims:
        for k, span in enumerate(spans):
            if _overlap((claim.start, claim.end), (span.start, span.end)):
                covered[k] = True
                engine_cited[k].update(n - 1 for n in claim.added)
    for k, span in enumerate(spans):
        for name, tally in systems.items():
            cited = (
                frozenset(engine_cited[k]) if name == "engine" else frozenset(scored[k].cited(name))
            )
            tally.cited.append(cited)
            tally.total += len(cited)
            supported, precise = _judge(attributor, span.text, cited, sources)
            tally.judged_supported += supported
            tally.precise += precise
    return covered.count(False)


def _rate(hits: int, n: int) -> float:
    return round(hits / n, 4) if n else math.nan


def _expertqa_metrics(tally: _Citations, spans: Sequence[LabelledSpan]) -> dict[str, Any]:
    supported = [(s, c) for s, c in zip(spans, tally.cited, strict=True) if s.label]
    judged = [(s, c) for s, c in supported if s.original]
    negatives = [(s, c) for s, c in zip(spans, tally.cited, strict=True) if not s.label]
    by_raw: dict[str, float] = {}
    for raw in sorted({s.raw_label for s, _ in negatives}):
        rows = [c for s, c in negatives if s.raw_label == raw]
        by_raw[raw] = _rate(sum(not c for c in rows), len(rows))
    return {
        "n": len(spans),
        "expert_evidence_recall": _rate(sum(bool(c & s.original) for s, c in judged), len(judged)),
        "expert_evidence_recall_n": len(judged),
        "cited_rate_supported": _rate(sum(bool(c) for _, c in supported), len(supported)),
        "abstain_rate_not_supported": _rate(sum(not c for _, c in negatives), len(negatives)),
        "abstain_rate_by_label": by_raw,
        "precision": _rate(tally.precise, tally.total),
        "judged_recall": _rate(tally.judged_supported, sum(bool(c) for c in tally.cited)),
        "citations": tally.total,
        "citations_per_cited_claim": _rate(tally.total, sum(bool(c) for c in tally.cited)),
    }


def _lfqa_metrics(tally: _Citations, spans: Sequence[LabelledSpan]) -> dict[str, Any]:
    pos = [c for s, c in zip(spans, tally.cited, strict=True) if s.label]
    neg = [c for s, c in zip(spans, tally.cited, strict=True) if not s.label]
    recall = _rate(sum(bool(c) for c in pos), len(pos))
    abstain = _rate(sum(not c for c in neg), len(neg))
    return {
        "n": len(spans),
        "citation_recall": recall,
        "abstain_rate_not_supported": abstain,
        "balanced_accuracy": round((recall + abstain) / 2, 4),
        "precision": _rate(tally.precise, tally.total),
        "judged_recall": _rate(tally.judged_supported, sum(bool(c) for c in tally.cited)),
        "citations": tally.total,
        "citations_per_cited_sentence": _rate(tally.total, sum(bool(c) for c in tally.cited)),
    }


_Case = tuple[str, list[LabelledSpan], list[CitationSource]] | str
"""A prepared answer (stripped text, labelled spans, sources), or why it is skipped."""


def _expertqa_case(answer: ExpertQAAnswer) -> _Case:
    """The stripped answer, its labelled claims and sources; or why the answer is skipped."""
    numbered = expertqa_sources(answer)
    if not numbered.sources:
        return "answer without quoted evidence"
    index_of = {n: i for i, n in enumerate(numbered.numbers)}
    stripped = strip_with_map(answer.answer_text)
    spans = []
    for claim in answer.claims:
        if claim.label is None or claim.start is None or claim.end is None:
            continue
        start, end = stripped.map(claim.start), stripped.map(claim.end)
        text = strip_markers(claim.text).strip()
        if end <= start or not text:
            continue
        spans.append(
            LabelledSpan(
                start=start,
                end=end,
                text=text,
                label=claim.label,
                raw_label=claim.raw_label,
                original=frozenset(index_of[n] for n in claim.markers if n in index_of),
            )
        )
    if not spans:
        return "no labelled claim"
    return stripped.text, spans, list(numbered.sources)


def _lfqa_case(answer: LFQAAnswer) -> _Case:
    """The answer (sentences joined), its labelled sentences and documents; or why skipped."""
    sources = [
        CitationSource(
            id=f"{answer.example_id}:{d.doc_id or k}",
            type="web",
            title=d.title or None,
            full_content=d.text,
        )
        for k, d in enumerate(answer.documents)
        if d.text.strip()
    ]
    if not sources:
        return "no documents for the question"
    parts: list[str] = []
    spans: list[LabelledSpan] = []
    offset = 0
    for sentence in answer.sentences:
        text = strip_markers(sentence.text).strip()
        if not text:
            continue
        if parts:
            offset += 1
        if sentence.label is not None:
            spans.append(
                LabelledSpan(
                    start=offset,
                    end=offset + len(text),
                    text=text,
                    label=sentence.label,
                    raw_label=sentence.majority or "tie",
                )
            )
        parts.append(text)
        offset += len(text)
    if not spans:
        return "no labelled sentence"
    return " ".join(parts), spans, sources


def _systems() -> dict[str, _Citations]:
    return {"engine": _Citations(), **{name: _Citations() for name in BASELINE_THRESHOLDS}}


def run(ctx: HarnessContext) -> dict[str, dict[str, Any]]:
    """Strip ExpertQA's and LFQA's citations, let the engine fill them in, score them.

    Returns:
        ``{"expertqa": {"citation_filling": {...}}, "lfqa": {"citation_filling": {...}}}``,
        each dataset present only when it is among ``ctx.datasets`` and on disk.
    """
    attributor = ctx.attributor
    baselines = Baselines(ctx.baseline_matcher)
    judge = (
        f"recall/abstain: human labels; precision and judged_recall: the engine's own "
        f"verifier ({attributor.verifier.name}) via check_claims, not independent"
    )
    out: dict[str, dict[str, Any]] = {}
    loaders: dict[str, Callable[[HarnessContext], tuple[int, list[_Case]] | None]] = {
        "expertqa": _expertqa_cases,
        "lfqa": _lfqa_cases,
    }
    for dataset, load in loaders.items():
        if dataset not in ctx.datasets:
            continue
        cases = load(ctx)
        if cases is None:
            continue
        answers, prepared = cases
        systems = _systems()
        spans: list[LabelledSpan] = []
        skipped: Counter[str] = Counter()
        uncovered = 0
        for case in progress(prepared, f"{dataset} citation filling"):
            if isinstance(case, str):
                skipped[case] += 1
                continue
            text, case_spans, sources = case
            trial = _systems()
            try:
                uncovered += score_filling(attributor, baselines, text, case_spans, sources, trial)
            except (AttributionError, ValueError) as exc:
                skipped[f"error: {type(exc).__name__}"] += 1
                continue
            spans.extend(case_spans)
            for name, tally in trial.items():
                systems[name].cited.extend(tally.cited)
                systems[name].total += tally.total
                systems[name].precise += tally.precise
                systems[name].judged_supported += tally.judged_supported
        metrics = _expertqa_metrics if dataset == "expertqa" else _lfqa_metrics
        if not spans:
            ctx.notes.append(f"citation filling: no {dataset} claim could be scored")
        out[dataset] = {
            "citation_filling": {
                "definition": EXPERTQA_DEFINITION if dataset == "expertqa" else LFQA_DEFINITION,
                "judge": judge,
                "answers": answers,
                "n": len(spans),
                "label_counts": dict(sorted(Counter(s.raw_label for s in spans).items())),
                "not_segmented_as_claim": uncovered,
                "skipped": dict(sorted(skipped.items())),
                "engine": metrics(systems["engine"], spans),
                "baselines": {name: metrics(systems[name], spans) for name in BASELINE_THRESHOLDS},
            }
        }
    return out


def _expertqa_cases(ctx: HarnessContext) -> tuple[int, list[_Case]] | None:
    loaded = load_expertqa(ctx.data_root)
    if loaded.status == "missing":
        ctx.notes.append("citation filling: ExpertQA is missing; skipped")
        return None
    answers = ctx.take([a for a in loaded.records if is_checked_system(a.system)])
    return len(answers), [_expertqa_case(a) for a in answers]


def _lfqa_cases(ctx: HarnessContext) -> tuple[int, list[_Case]] | None:
    loaded = load_lfqa(ctx.data_root)
    if loaded.status == "missing":
        ctx.notes.append("citation filling: LFQA-Verification is missing; skipped")
        return None
    answers = ctx.take(list(loaded.records))
    return len(answers), [_lfqa_case(a) for a in answers]
