"""Task 2: marker checking on ExpertQA, the engine's marker verdicts against the experts'.

Every answer of a system whose claims quote their evidence (``rr_*``, ``post_hoc_*``; the
``bing_chat`` and ``gpt4`` answers cite bare URLs, nothing to check against) is attributed as a
whole, the way the engine runs in real use: one :class:`CitationSource` per marker number that
has a quoted passage, registered under that very number, so ``[n]`` in the answer resolves to
the passage the experts saw under ``[n]``. Each marker the engine checked that falls inside an
expert-labelled claim (the marker's start within the claim's ``[start, end)``) is one example;
it inherits its claim's label, since experts judged a claim's evidence as a whole.

- Expert supported: ``Complete``. Expert not supported: ``Incomplete`` and ``Missing``.
  ``Partial``, ``N/A`` and unlabelled claims are excluded (counted under ``excluded``).
- Engine supported: ``supported``. Engine not supported: ``unsupported`` and ``wrong_source``.
  A marker whose number has no quoted passage comes back ``unknown_number`` (the number is not
  registered): it is skipped and counted, never scored.
- Baselines: a marker is supported when the cited source has a chunk at or above the
  baseline's threshold for the claim's text (markers removed).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from attribution import (
    AttributionError,
    CitationRegistry,
    CitationSource,
    RegistryEntry,
    SourceDisplay,
    normalize_markers,
)
from benchmarks.datasets import ExpertQAAnswer, load_expertqa

from ._baselines import BASELINE_THRESHOLDS, Baselines
from ._context import HarnessContext, progress
from ._metrics import balanced_accuracy, confusion

__all__ = [
    "CHECKED_SYSTEMS",
    "NumberedSources",
    "expertqa_sources",
    "is_checked_system",
    "run",
    "strip_markers",
]

CHECKED_SYSTEMS = ("rr_", "post_hoc_")
"""System name prefixes whose claims quote the evidence they cite."""

SUPPORTED_LABELS = ("Complete",)
NOT_SUPPORTED_LABELS = ("Incomplete", "Missing")
ENGINE_NOT_SUPPORTED = ("unsupported", "wrong_source")

DEFINITION = (
    "One example per citation marker the answer carries inside an expert-labelled claim "
    "(ExpertQA rr_* and post_hoc_* systems; sources: one per marker number, its quoted evidence "
    "passage, registered under that number). The marker takes its claim's expert label: "
    "supported = Complete; not supported = Incomplete or Missing; Partial, N/A and unlabelled "
    "claims are excluded. Engine: supported = verdict 'supported' (the cited source supports "
    "the claim, alone or with another cited source); not supported = 'unsupported' or "
    "'wrong_source'; markers whose number has no quoted passage (unknown_number) and markers "
    "in text no expert claim covers (experts labelled only part of some answers) are skipped. "
    "Baselines: supported when the cited source has a chunk at or above the baseline's "
    "threshold for the claim text (markers removed). accuracy and balanced_accuracy compare "
    "supported/not supported; confusion is {expert label: {verdict: n}} and sums to n."
)


@dataclass(frozen=True)
class NumberedSources:
    """An answer's quoted evidence as sources, by the marker number they are cited under."""

    numbers: tuple[int, ...]
    """Marker numbers with a passage, increasing."""
    sources: tuple[CitationSource, ...]
    """The source of each number (same order)."""

    def registry(self) -> CitationRegistry:
        """A registry in which ``[n]`` is the source quoted under ``[n]`` (gaps stay gaps)."""
        return CitationRegistry(
            [
                RegistryEntry(
                    number=n,
                    source_key=s.id,
                    source_type=s.type,
                    locator=(s.id,),
                    display=SourceDisplay(title=s.title),
                )
                for n, s in zip(self.numbers, self.sources, strict=True)
            ]
        )


def expertqa_sources(answer: ExpertQAAnswer) -> NumberedSources:
    """One source per marker number of the answer that has a quoted passage.

    The URL goes in the title, not ``uri``: web sources are keyed by their URL, and some answers
    quote two passages of one page under two numbers, which must stay two sources.
    """
    passages: dict[int, str] = {}
    for claim in answer.claims:
        for ev in claim.evidence:
            if ev.marker is not None and ev.passage and ev.marker not in passages:
                passages[ev.marker] = ev.passage
    numbers = tuple(sorted(passages))
    sources = tuple(
        CitationSource(
            id=f"{answer.example_id}:[{n}]",
            type="web",
            title=answer.sources.get(n),
            full_content=passages[n],
        )
        for n in numbers
    )
    return NumberedSources(numbers=numbers, sources=sources)


def strip_markers(text: str) -> str:
    """``text`` without its citation markers (and the blank before each)."""
    return normalize_markers(text, known=(), drop_unknown=True).text


def is_checked_system(system: str) -> bool:
    """Whether the system's claims quote their evidence."""
    return system.startswith(CHECKED_SYSTEMS)


@dataclass
class _Tally:
    """One system's calls on the markers: supported or not, and the verdict as named."""

    predicted: list[bool]
    verdicts: list[str]


def _scores(tally: _Tally, labels: Sequence[bool], raw: Sequence[str]) -> dict[str, Any]:
    n = len(labels)
    correct = sum(p == y for p, y in zip(tally.predicted, labels, strict=True))
    return {
        "n": n,
        "accuracy": _round(correct / n if n else math.nan),
        "balanced_accuracy": _round(balanced_accuracy(tally.predicted, labels)),
        "predicted_supported_rate": _round(sum(tally.predicted) / n if n else math.nan),
        "confusion": {
            label: dict(sorted(row.items()))
            for label, row in sorted(confusion(tally.verdicts, list(raw)).items())
        },
    }


def _round(value: float) -> float:
    return value if math.isnan(value) else round(value, 4)


def run(ctx: HarnessContext) -> dict[str, dict[str, Any]]:
    """Check ExpertQA's citation markers with the engine and the baselines.

    Returns:
        ``{"expertqa": {"marker_checking": {...}}}``, or ``{}`` when ExpertQA is missing or
        not among ``ctx.datasets``.
    """
    if "expertqa" not in ctx.datasets:
        return {}
    loaded = load_expertqa(ctx.data_root)
    if loaded.status == "missing":
        ctx.notes.append("marker checking: ExpertQA is missing; skipped")
        return {}
    answers = ctx.take([a for a in loaded.records if is_checked_system(a.system)])
    baselines = Baselines(ctx.baseline_matcher)
    names = list(BASELINE_THRESHOLDS)

    labels: list[bool] = []
    raw_labels: list[str] = []
    engine = _Tally(predicted=[], verdicts=[])
    per_baseline = {name: _Tally(predicted=[], verdicts=[]) for name in names}
    skipped: Counter[str] = Counter()
    excluded: Counter[str] = Counter()

    for answer in progress(answers, "expertqa marker checking"):
        numbered = expertqa_sources(answer)
        if not numbered.sources:
            skipped["answer without quoted evidence"] += 1
            continue
        claims = [
            c
            for c in answer.claims
            if c.start is not None and c.end is not None and c.markers and c.text.strip()
        ]
        try:
            result = ctx.attributor.attribute(
                answer.answer_text, list(numbered.sources), numbered.registry()
            )
            scored = baselines.score_claims(
                [strip_markers(c.text) for c in claims], numbered.sources
            )
        except (AttributionError, ValueError) as exc:
            skipped[f"error: {type(exc).__name__}"] += 1
            continue
        index_of = {n: i for i, n in enumerate(numbered.numbers)}
        for check in result.markers:
            owner = next(
                (
                    k
                    for k, c in enumerate(claims)
                    if c.start is not None and c.end is not None and c.start <= check.start < c.end
                ),
                None,
            )
            if owner is None:
                skipped["marker in text no expert claim covers"] += 1
                continue
            claim = claims[owner]
            if claim.label is None:
                excluded[claim.raw_label] += 1
                continue
            if check.verdict not in ("supported", *ENGINE_NOT_SUPPORTED):
                skipped[f"engine verdict {check.verdict} (no quoted passage)"] += 1
                continue
            labels.append(claim.label)
            raw_labels.append(claim.raw_label)
            engine.predicted.append(check.verdict == "supported")
            engine.verdicts.append(check.verdict)
            source_index = index_of[check.number]
            for name in names:
                hit = source_index in scored[owner].cited(name)
                per_baseline[name].predicted.append(hit)
                per_baseline[name].verdicts.append("supported" if hit else "unsupported")

    if not labels:
        ctx.notes.append("marker checking: no ExpertQA marker could be scored")
    return {
        "expertqa": {
            "marker_checking": {
                "definition": DEFINITION,
                "answers": len(answers),
                "n": len(labels),
                "label_counts": dict(sorted(Counter(raw_labels).items())),
                "excluded": dict(sorted(excluded.items())),
                "skipped": dict(sorted(skipped.items())),
                "engine": _scores(engine, labels, raw_labels),
                "baselines": {
                    name: _scores(per_baseline[name], labels, raw_labels) for name in names
                },
            }
        }
    }
