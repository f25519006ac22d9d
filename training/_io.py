"""What every part of the training mix shares: the example type, the labels, reading a file."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LABELS", "NOT_ENTAILED", "Example", "open_text"]

LABELS = ("entailment", "neutral", "contradiction")
NOT_ENTAILED = 3
"""The label of binary sets' negatives: neutral or contradiction, the set does not say which."""


@dataclass(frozen=True)
class Example:
    passage: str
    claim: str
    label: int
    source: str


def open_text(path: Path) -> Iterator[str]:
    """The lines of a text file, gzip-compressed (``.gz``) or not."""
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open() as f:
        yield from f
