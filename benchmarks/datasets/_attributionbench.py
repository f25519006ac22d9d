"""AttributionBench (Li et al. 2024): (claim, references) pairs judged attributable or not.

Files: ``attributionbench/data/*.jsonl``, one pair a line, drawn from several source datasets
(``src_dataset``: ExpertQA, Stanford-GenSearch, AttributedQA, LFQA, ...; the group of an
example). Label mapping: ``attributable`` -> True, ``not attributable`` -> False, anything else
-> None (excluded). References are kept as written: ExpertQA rows start with ``[n] url``, LFQA
rows with ``Title: ...``. A row without a non-empty reference is dropped.

AttributionBench binarised its sources itself: its ExpertQA rows are ExpertQA claims with
``Partial``, ``N/A`` and null labels as well as ``Incomplete`` all counted ``not attributable``,
where the ExpertQA loader excludes the first three; the two views disagree on those claims.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from ._io import Examples, Tally
from ._labels import map_label
from ._types import DatasetLoad, VerificationExample

__all__ = ["PATTERN", "load_examples"]

PATTERN = "attributionbench/data/*.jsonl"

SUPPORTED = ("attributable",)
NOT_SUPPORTED = ("not attributable",)


class _RawRow(msgspec.Struct):
    claim: str
    references: list[str]
    attribution_label: str
    src_dataset: str
    question: str | None = None


def load_examples(root: Path, *, partial_as: bool | None = None) -> DatasetLoad:
    """AttributionBench flattened to verification examples (see the module docstring).

    Args:
        root: the data root (the folder holding ``attributionbench/``).
        partial_as: unused (AttributionBench labels are binary); accepted for a uniform call.

    Returns:
        The examples in file order with their counts; ``status="missing"`` without files.
    """
    del partial_as
    tally = Tally(dataset="attributionbench", root=root, pattern=PATTERN)
    flat = Examples()
    for path, row, item in tally.records("jsonl", _RawRow):
        references = tuple(ref for ref in item.references if ref.strip())
        if not item.claim.strip():
            tally.skip(tally.rel(path), row, "empty claim")
        elif not references:
            flat.drop("no references")
        else:
            flat.add(
                VerificationExample(
                    dataset="attributionbench",
                    example_id=f"attributionbench:{path.stem}:{row}",
                    claim=item.claim,
                    evidence=references,
                    label=map_label(
                        item.attribution_label, supported=SUPPORTED, not_supported=NOT_SUPPORTED
                    ),
                    raw_label=item.attribution_label,
                    group=item.src_dataset,
                    context=item.question,
                )
            )
    return tally.dataset_load(flat)
