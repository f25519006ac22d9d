"""The types every loader shares: the flattened example and the load reports."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

import msgspec

__all__ = [
    "DATASETS",
    "DatasetLoad",
    "DatasetName",
    "LoadReport",
    "LoadStatus",
    "Loaded",
    "SkippedRow",
    "VerificationExample",
]

DatasetName = Literal["expertqa", "attributionbench", "wice", "lfqa", "faithbench"]
"""The five human-labelled attribution datasets."""

DATASETS: tuple[DatasetName, ...] = ("expertqa", "attributionbench", "wice", "lfqa", "faithbench")
"""Every dataset name, in the order reports list them."""

LoadStatus = Literal["ok", "missing"]
"""``ok``: at least one file matched the dataset's pattern; ``missing``: none did."""

RecordT = TypeVar("RecordT")


class VerificationExample(msgspec.Struct, frozen=True, kw_only=True):
    """One claim and the evidence a human judged it against: the unit a verifier is fitted on."""

    dataset: DatasetName
    """Which dataset the example comes from."""
    example_id: str
    """Stable id: dataset, file stem, row in the file and, where a row holds several, the index."""
    claim: str
    """The claim (sentence, summary) whose support is judged."""
    evidence: tuple[str, ...]
    """The passages, sentences or document texts the claim was judged against, never empty."""
    label: bool | None
    """True = supported (attributable), False = not, None = excluded or unknown."""
    raw_label: str
    """The original label string(s) the mapping started from."""
    group: str
    """Sub-source for per-group metrics (ExpertQA system, AttributionBench ``src_dataset``, ...)."""
    context: str | None = None
    """The question or surrounding text where the dataset has one."""


class SkippedRow(msgspec.Struct, frozen=True, kw_only=True):
    """A malformed row (or a whole unreadable file) that a loader passed over."""

    file: str
    """The file, relative to the data root, in POSIX form."""
    row: int | None
    """0-based row (JSONL line, list entry); None when the whole file could not be read."""
    reason: str
    """Why: the decoder's message, naming the field at fault."""


class LoadReport(msgspec.Struct, frozen=True, kw_only=True):
    """What a loader looked at and what it could not use."""

    dataset: DatasetName
    """The dataset loaded."""
    status: LoadStatus
    """``missing`` when no file matched the pattern under the root."""
    path: str
    """The glob pattern looked for (root joined with the dataset's documented pattern)."""
    files: tuple[str, ...] = ()
    """The files read, relative to the root, in the order they were read."""
    rows_read: int = 0
    """Rows met in the files, malformed ones included."""
    skipped: tuple[SkippedRow, ...] = ()
    """Malformed rows, each with its reason."""
    warnings: dict[str, int] = msgspec.field(default_factory=dict)
    """Oddities that did not cost a row (a span repaired, a duplicate evidence entry), counted."""

    @property
    def skipped_reasons(self) -> dict[str, int]:
        """The skipped rows counted by reason, reasons sorted."""
        counts: dict[str, int] = {}
        for skip in self.skipped:
            counts[skip.reason] = counts.get(skip.reason, 0) + 1
        return dict(sorted(counts.items()))


class DatasetLoad(LoadReport, frozen=True, kw_only=True):
    """A dataset flattened to claim-versus-evidence examples, with its counts."""

    examples: tuple[VerificationExample, ...] = ()
    """Every example, labelled or not, in file order."""
    excluded: dict[str, int] = msgspec.field(default_factory=dict)
    """Examples whose label maps to None, counted by the original label (``Partial``, ``tie``)."""
    dropped: dict[str, int] = msgspec.field(default_factory=dict)
    """Well-formed claims that yield no example (no evidence to judge against), by reason."""

    @property
    def labelled(self) -> tuple[VerificationExample, ...]:
        """The examples whose label is True or False."""
        return tuple(ex for ex in self.examples if ex.label is not None)

    @property
    def label_counts(self) -> dict[str, int]:
        """How many examples are ``supported``, ``not_supported`` and ``excluded``."""
        supported = sum(1 for ex in self.examples if ex.label is True)
        not_supported = sum(1 for ex in self.examples if ex.label is False)
        return {
            "supported": supported,
            "not_supported": not_supported,
            "excluded": len(self.examples) - supported - not_supported,
        }


class Loaded(LoadReport, Generic[RecordT], frozen=True, kw_only=True):
    """A dataset loaded as its own, richer records (answers, claims, samples)."""

    records: tuple[RecordT, ...] = ()
    """The records, in file order."""
