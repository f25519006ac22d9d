"""What every benchmark task receives: the engine, the data, the split, the limits, a progress
bar."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator, Sized
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from attribution import Attributor
from attribution.match import Matcher
from attribution.runtime import Embedder, OnnxEmbedder
from benchmarks.datasets import SplitFilter, SplitName

__all__ = ["BASELINE_EMBEDDER", "DATASET_NAMES", "HarnessContext", "baseline_embedder", "progress"]

BASELINE_EMBEDDER = "all-minilm-l6-v2-int8"
"""The embedding baselines embed with the MiniLM transformer, whatever the engine's matcher
uses: their thresholds (cosine >= 0.5 / 0.6 / 0.7) were set for it, and the seed-004 baseline
(embed every sentence, cite where cosine >= 0.60) is defined with it."""

DATASET_NAMES = ("expertqa", "attributionbench", "wice", "lfqa", "faithbench")
T = TypeVar("T")


class _Record(Protocol):
    @property
    def example_id(self) -> str: ...


R = TypeVar("R", bound=_Record)


def progress(items: Iterable[T], desc: str, total: int | None = None) -> Iterator[T]:
    """Yield ``items`` while drawing a progress bar on stderr (a line per 10% when not a TTY)."""
    if total is None and isinstance(items, Sized):
        total = len(items)
    tty = sys.stderr.isatty()
    started = time.perf_counter()
    last_tenth = -1
    n = 0
    for n, item in enumerate(items, 1):
        yield item
        elapsed = time.perf_counter() - started
        rate = n / elapsed if elapsed > 0 else 0.0
        if total:
            eta = (total - n) / rate if rate else 0.0
            line = f"{desc}: {n}/{total} ({rate:.1f}/s, {eta:.0f} s left)"
            tenth = n * 10 // total
        else:
            line, tenth = f"{desc}: {n} ({rate:.1f}/s)", n // 100
        if tty:
            width = 24
            filled = int(width * n / total) if total else 0
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {line}   ")
            sys.stderr.flush()
        elif tenth != last_tenth:
            last_tenth = tenth
            print(line, file=sys.stderr)
    if tty and n:
        sys.stderr.write("\n")


def baseline_embedder(attributor: Attributor) -> Embedder:
    """The MiniLM transformer (:data:`BASELINE_EMBEDDER`): the engine's own embedder when it
    is that model, else loaded with the engine's model settings. Named explicitly, so that
    ``$ATTRIBUTION_EMBEDDER``, which chooses the engine's embedder, leaves the baselines'
    alone (their figures stay comparable across runs)."""
    engine = attributor.embedder
    if getattr(getattr(engine, "spec", None), "name", None) == BASELINE_EMBEDDER:
        return engine
    return OnnxEmbedder.from_config(attributor.config.model, BASELINE_EMBEDDER)


@dataclass
class HarnessContext:
    """Everything a task needs; tasks add notes for the report instead of printing."""

    attributor: Attributor
    """The engine under test (its models are shared with the baselines)."""
    data_root: Path
    """Root of the labelled datasets (either half, same layout)."""
    datasets: tuple[str, ...] = DATASET_NAMES
    """The datasets to run on."""
    limit: int | None = None
    """At most this many examples per dataset (None: all)."""
    notes: list[str] = field(default_factory=list)
    """Lines for the report: missing datasets, label mappings, caveats."""
    split: SplitName = "validation"
    """The part of the committed split (``benchmarks/splits``) the tasks see: ``validation``
    (the default: every reported figure), ``train`` or ``all``. Records the split does not know,
    such as the whole held-out half of the data, count as validation."""
    _split_filter: SplitFilter | None = field(default=None, init=False, repr=False)
    _baseline_matcher: Matcher | None = field(default=None, init=False, repr=False)

    @property
    def baseline_matcher(self) -> Matcher:
        """The embedding baselines' matcher (:func:`baseline_embedder`, one cache for every
        task)."""
        if self._baseline_matcher is None:
            config = self.attributor.config.match
            self._baseline_matcher = Matcher(baseline_embedder(self.attributor), config)
        return self._baseline_matcher

    def in_split(self, items: list[R]) -> list[R]:
        """The items (records with an ``example_id``) of this context's split, in order."""
        if self._split_filter is None:
            self._split_filter = SplitFilter(self.split, self.data_root)
        kept = self._split_filter.filter(items)
        self.notes.extend(n for n in self._split_filter.notes if n not in self.notes)
        return kept

    def take(self, items: list[R]) -> list[R]:
        """The items of this context's split (:meth:`in_split`), then ``limit`` of them spread
        evenly (all without a limit); deterministic.

        Evenly spaced rather than the first ones: data files are often sorted by label or
        sub-source, and a smoke run should still see both classes.
        """
        items = self.in_split(items)
        if self.limit is None or len(items) <= self.limit:
            return items
        step = len(items) / self.limit
        return [items[int(i * step)] for i in range(self.limit)]
