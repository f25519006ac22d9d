"""Finding a dataset's files under a root and reading their rows without ever raising on data.

Every loader reads through a :class:`Tally`: it lists the files that match the dataset's glob
pattern, splits each into raw rows (JSONL lines, entries of a JSON list) and decodes each row on
its own into a typed schema, so one malformed row costs that row only, with its reason recorded.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar

import msgspec
import structlog

from ._types import (
    DatasetLoad,
    DatasetName,
    Loaded,
    LoadReport,
    SkippedRow,
    VerificationExample,
)

__all__ = ["Examples", "RowLayout", "Tally", "find_files", "natural_key"]

log = structlog.get_logger(__name__)

T = TypeVar("T")

RowLayout = Literal["jsonl", "list", "samples"]
"""How a file holds its rows: one JSON value a line, a JSON list, or ``{"samples": [...]}``."""


class _Samples(msgspec.Struct):
    samples: list[msgspec.Raw]


_DIGITS = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders ``batch_2`` before ``batch_10``."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in _DIGITS.split(name) if part
    )


def find_files(root: Path, pattern: str) -> list[Path]:
    """The regular files under ``root`` that match ``pattern``, in natural order of their path."""
    found = [p for p in root.glob(pattern) if p.is_file()]
    return sorted(found, key=lambda p: natural_key(p.relative_to(root).as_posix()))


def _error_text(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


@dataclass
class Tally:
    """Mutable book-keeping for one load: files read, rows met, rows skipped, oddities counted."""

    dataset: DatasetName
    root: Path
    pattern: str
    files: list[str] = field(default_factory=list)
    rows_read: int = 0
    skipped: list[SkippedRow] = field(default_factory=list)
    warnings: Counter[str] = field(default_factory=Counter)

    def rel(self, path: Path) -> str:
        """``path`` relative to the root, in POSIX form (absolute when outside the root)."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def skip(self, file: str, row: int | None, reason: str) -> None:
        """Record a malformed row (or, with ``row=None``, an unreadable file)."""
        self.skipped.append(SkippedRow(file=file, row=row, reason=reason))

    def warn(self, what: str, count: int = 1) -> None:
        """Count an oddity that did not cost a row."""
        self.warnings[what] += count

    def files_matching(self) -> list[Path]:
        """The dataset's files under the root (empty when the dataset is missing)."""
        return find_files(self.root, self.pattern)

    def rows(self, path: Path, layout: RowLayout) -> Iterator[tuple[int, msgspec.Raw]]:
        """Yield ``(row, raw JSON)`` for each row of ``path``; an unreadable file is skipped."""
        rel = self.rel(path)
        self.files.append(rel)
        try:
            data = path.read_bytes()
        except OSError as exc:
            self.skip(rel, None, f"cannot read the file: {_error_text(exc)}")
            return
        if layout == "jsonl":
            for row, line in enumerate(data.split(b"\n")):
                if line.strip():
                    self.rows_read += 1
                    yield row, msgspec.Raw(line)
            return
        try:
            items = (
                msgspec.json.decode(data, type=list[msgspec.Raw])
                if layout == "list"
                else msgspec.json.decode(data, type=_Samples).samples
            )
        except msgspec.DecodeError as exc:
            self.skip(rel, None, f"not a JSON {layout} file: {_error_text(exc)}")
            return
        self.rows_read += len(items)
        yield from enumerate(items)

    def records(self, layout: RowLayout, type_: type[T]) -> Iterator[tuple[Path, int, T]]:
        """Yield ``(file, row, record)`` for every well-formed row of every matching file."""
        for path in self.files_matching():
            rel = self.rel(path)
            for row, raw in self.rows(path, layout):
                record = self.decode(raw, type_, rel, row)
                if record is not None:
                    yield path, row, record

    def decode(
        self, raw: msgspec.Raw, type_: type[T], file: str, row: int, what: str = ""
    ) -> T | None:
        """Decode one row into ``type_``; on failure record the row as skipped and return None."""
        try:
            return msgspec.json.decode(raw, type=type_)
        except msgspec.DecodeError as exc:
            prefix = f"{what}: " if what else ""
            self.skip(file, row, prefix + _error_text(exc))
            return None

    def report(self) -> LoadReport:
        """What this load looked at and could not use, so far."""
        if self.skipped:
            log.warning("dataset_rows_skipped", dataset=self.dataset, skipped=len(self.skipped))
        return LoadReport(
            dataset=self.dataset,
            status="ok" if self.files else "missing",
            path=(self.root / self.pattern).as_posix(),
            files=tuple(self.files),
            rows_read=self.rows_read,
            skipped=tuple(self.skipped),
            warnings=dict(sorted(self.warnings.items())),
        )

    def loaded(self, records: list[T]) -> Loaded[T]:
        """The richer-record result of this load."""
        return Loaded(**msgspec.structs.asdict(self.report()), records=tuple(records))

    def dataset_load(self, flat: Examples) -> DatasetLoad:
        """The flattened result of this load."""
        return DatasetLoad(
            **msgspec.structs.asdict(self.report()),
            examples=tuple(flat.examples),
            excluded=dict(sorted(flat.excluded.items())),
            dropped=dict(sorted(flat.dropped.items())),
        )


@dataclass
class Examples:
    """Mutable book-keeping while flattening: the examples, and what was excluded or dropped."""

    examples: list[VerificationExample] = field(default_factory=list)
    excluded: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)

    def add(self, example: VerificationExample, *, excluded_as: str | None = None) -> None:
        """Keep ``example``; one labelled None is counted as ``excluded_as`` (or its raw label)."""
        if example.label is None:
            self.excluded[excluded_as or example.raw_label] += 1
        self.examples.append(example)

    def drop(self, reason: str) -> None:
        """Count a well-formed claim that yields no example."""
        self.dropped[reason] += 1
