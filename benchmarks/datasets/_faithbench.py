"""FaithBench (Bao et al., NAACL 2025): LLM summaries with human-marked unfaithful spans.

Files: ``faithbench/data_for_release/batch_*.json``, each ``{"samples": [...]}``; a sample is a
source text, a summary, the annotators' spans of the summary (character offsets, each with
labels such as ``["Unwanted", "Unwanted.Intrinsic"]``) and, in ``metadata``, the summarizer
and the verdicts other detectors gave on the same pair.

Span label: the most severe of its labels, ``Unwanted`` (any ``Unwanted*``) > ``Questionable``
> ``Benign``; None for a span with no known label. A span's offsets are checked against the
summary: a span whose text is not at its offsets is moved to the nearest place the text occurs
(counted as repaired) or, when the text is nowhere in the summary, left out of ``spans``
(counted; its label still counts for the sample).

Sample label (the brief's convention): **consistent iff no annotator marked an Unwanted span**.
``Questionable`` (the annotator was unsure it is a hallucination) and ``Benign`` (not in the
source, but true and harmless) count as consistent. ``worst_label`` keeps the most severe label
(``Consistent`` when no span), so the authors' own binarisation (``scripts/binarize.py``:
worst label ``Questionable`` or ``Unwanted`` = hallucinated) is ``worst_label in
("Questionable", "Unwanted")``. ``partial_as`` does not apply.

Detector verdicts: every numeric ``metadata`` entry but ``raw_sample_id``. Binary detectors
(TrueTeacher, TRUE NLI, the GPT judges) write 1 for consistent and 0 for hallucinated; HHEM
writes its probability of consistency. Both normalise to ``hallucinated = value < 0.5``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import msgspec

from ._io import Examples, Tally
from ._types import DatasetLoad, Loaded, VerificationExample

__all__ = [
    "PATTERN",
    "DetectorVerdict",
    "FaithBenchSample",
    "FaithBenchSpan",
    "SampleLabel",
    "SpanLabel",
    "load_examples",
    "load_faithbench",
]

PATTERN = "faithbench/data_for_release/batch_*.json"

SpanLabel = Literal["Unwanted", "Questionable", "Benign"]
"""A span's label, most severe first."""

SampleLabel = Literal["Unwanted", "Questionable", "Benign", "Consistent"]
"""A sample's most severe span label, ``Consistent`` when it has no span."""

_SEVERITY: dict[SampleLabel, int] = {"Consistent": 0, "Benign": 1, "Questionable": 2, "Unwanted": 3}
_NOT_DETECTORS = frozenset({"summarizer", "raw_sample_id"})


class FaithBenchSpan(msgspec.Struct, frozen=True, kw_only=True):
    """An annotator's span of the summary; ``summary[start:end] == text`` always holds."""

    start: int
    """Offset into the summary (code points)."""
    end: int
    """End offset (exclusive)."""
    text: str
    """The marked text."""
    label: SpanLabel | None
    """The most severe of ``raw_labels``; None when none is known."""
    raw_labels: tuple[str, ...]
    """The labels as written (``Unwanted``, ``Unwanted.Intrinsic``, ``Questionable``, ...)."""
    annotator: str | None
    """The annotator's id."""
    source_start: int | None = None
    """Offset of the source span the annotator linked, when it indexes the source correctly."""
    source_end: int | None = None
    """End of that source span (exclusive)."""


class DetectorVerdict(msgspec.Struct, frozen=True, kw_only=True):
    """Another detector's verdict on a sample, from ``metadata``."""

    value: float
    """The value as written: 1/0 for binary detectors, a consistency probability for HHEM."""
    hallucinated: bool
    """Whether the detector predicts a hallucination: ``value < 0.5``."""


class FaithBenchSample(msgspec.Struct, frozen=True, kw_only=True):
    """A summary of a source text, its unfaithful spans and the sample-level verdicts."""

    example_id: str
    """Stable id: ``faithbench:<file stem>:<row>``."""
    sample_id: int
    """The sample's id within its batch file."""
    source: str
    """The text that was summarised."""
    summary: str
    """The LLM's summary."""
    summarizer: str | None
    """The LLM that wrote the summary."""
    spans: tuple[FaithBenchSpan, ...]
    """Every annotator's spans that index the summary (after repair), in the dataset's order."""
    unlocated_spans: int
    """Annotations whose text could not be found in the summary (their labels still count)."""
    worst_label: SampleLabel
    """The most severe label over all annotations; ``Consistent`` when there is none."""
    consistent: bool
    """True iff no annotation is ``Unwanted`` (see the module docstring)."""
    detectors: dict[str, DetectorVerdict]
    """Other detectors' verdicts by name (``hhem-2.1``, ``true_nli``, ``gpt_4o``, ...)."""


class _RawAnnotation(msgspec.Struct):
    label: list[str] = []
    summary_span: str | None = None
    summary_start: int | None = None
    summary_end: int | None = None
    source_span: str | None = None
    source_start: int | None = None
    source_end: int | None = None
    annotator_id: str | None = None
    annotator: str | None = None


class _RawSample(msgspec.Struct):
    sample_id: int
    source: str
    summary: str
    annotations: list[_RawAnnotation] = []
    metadata: dict[str, Any] = {}


def span_label(raw_labels: tuple[str, ...] | list[str]) -> SpanLabel | None:
    """The most severe of a span's labels: ``Unwanted*`` > ``Questionable`` > ``Benign``."""
    if any(label.startswith("Unwanted") for label in raw_labels):
        return "Unwanted"
    if "Questionable" in raw_labels:
        return "Questionable"
    if "Benign" in raw_labels:
        return "Benign"
    return None


def _indexes(text: str, span: str | None, start: int | None, end: int | None) -> bool:
    return (
        span is not None
        and start is not None
        and end is not None
        and 0 <= start <= end <= len(text)
        and text[start:end] == span
    )


def _nearest(text: str, span: str, near: int) -> int | None:
    """The start of the occurrence of ``span`` in ``text`` closest to ``near``."""
    best: int | None = None
    at = text.find(span)
    while at >= 0:
        if best is None or abs(at - near) < abs(best - near):
            best = at
        at = text.find(span, at + 1)
    return best


def _span(summary: str, source: str, raw: _RawAnnotation, tally: Tally) -> FaithBenchSpan | None:
    text = raw.summary_span
    if not text:
        tally.warn("annotation without a summary span")
        return None
    start = raw.summary_start
    if start is None or not _indexes(summary, text, start, raw.summary_end):
        found = _nearest(summary, text, start or 0)
        if found is None:
            tally.warn("summary span not found in the summary")
            return None
        tally.warn("summary span offsets repaired")
        start = found
    in_source = _indexes(source, raw.source_span, raw.source_start, raw.source_end)
    if raw.source_span is not None and not in_source:
        tally.warn("source span does not index the source")
    return FaithBenchSpan(
        start=start,
        end=start + len(text),
        text=text,
        label=span_label(raw.label),
        raw_labels=tuple(raw.label),
        annotator=raw.annotator_id or raw.annotator,
        source_start=raw.source_start if in_source else None,
        source_end=raw.source_end if in_source else None,
    )


def _detectors(metadata: dict[str, Any], tally: Tally) -> dict[str, DetectorVerdict]:
    verdicts: dict[str, DetectorVerdict] = {}
    for name, value in metadata.items():
        if name in _NOT_DETECTORS:
            continue
        if not isinstance(value, int | float) or not 0 <= value <= 1:
            tally.warn(f"metadata entry {name!r} is not a verdict in [0, 1]")
            continue
        verdicts[name] = DetectorVerdict(value=float(value), hallucinated=value < 0.5)
    return verdicts


def _sample(raw: _RawSample, example_id: str, tally: Tally) -> FaithBenchSample:
    spans: list[FaithBenchSpan] = []
    worst: SampleLabel = "Consistent"
    for annotation in raw.annotations:
        label = span_label(annotation.label)
        if label is None:
            tally.warn("annotation without a known label")
        elif _SEVERITY[label] > _SEVERITY[worst]:
            worst = label
        span = _span(raw.summary, raw.source, annotation, tally)
        if span is not None:
            spans.append(span)
    summarizer = raw.metadata.get("summarizer")
    return FaithBenchSample(
        example_id=example_id,
        sample_id=raw.sample_id,
        source=raw.source,
        summary=raw.summary,
        summarizer=summarizer if isinstance(summarizer, str) else None,
        spans=tuple(spans),
        unlocated_spans=len(raw.annotations) - len(spans),
        worst_label=worst,
        consistent=worst != "Unwanted",
        detectors=_detectors(raw.metadata, tally),
    )


def _load(root: Path) -> tuple[Tally, list[FaithBenchSample]]:
    tally = Tally(dataset="faithbench", root=root, pattern=PATTERN)
    samples: list[FaithBenchSample] = []
    for path, row, item in tally.records("samples", _RawSample):
        if not item.summary.strip() or not item.source.strip():
            tally.skip(tally.rel(path), row, "empty summary or source")
        else:
            samples.append(_sample(item, f"faithbench:{path.stem}:{row}", tally))
    return tally, samples


def load_faithbench(root: Path) -> Loaded[FaithBenchSample]:
    """Load FaithBench's samples: source, summary, checked spans, labels, detector verdicts.

    Args:
        root: the data root (the folder holding ``faithbench/``).

    Returns:
        The samples in batch order; ``status="missing"`` when no batch file matches.
    """
    tally, samples = _load(root)
    return tally.loaded(samples)


def load_examples(root: Path, *, partial_as: bool | None = None) -> DatasetLoad:
    """FaithBench flattened: each summary against its source, label = ``consistent``.

    ``partial_as`` is accepted for a uniform call and unused (see the module docstring).
    """
    del partial_as
    tally, samples = _load(root)
    flat = Examples()
    for sample in samples:
        flat.add(
            VerificationExample(
                dataset="faithbench",
                example_id=sample.example_id,
                claim=sample.summary,
                evidence=(sample.source,),
                label=sample.consistent,
                raw_label=sample.worst_label,
                group=sample.summarizer or "unknown",
            )
        )
    return tally.dataset_load(flat)
