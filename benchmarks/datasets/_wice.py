"""WiCE (Kamoi et al., EMNLP 2023): Wikipedia claims against the web article they cite.

Files: ``wice/data/entailment_retrieval/claim/*.jsonl``, one claim a line with the cited article
split into sentences (``evidence``), the gold sets of supporting sentence indices and a
label. Label mapping: ``supported`` -> True, ``not_supported`` -> False,
``partially_supported`` -> ``partial_as`` (None by default: excluded), anything else -> None.

The evidence of an example is the whole article, every sentence as it stands (empty sentences
included, so that the gold indices keep pointing at the right sentence); it can be long.
A row whose gold index falls outside its sentences is malformed and skipped.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from ._io import Examples, Tally
from ._labels import map_label
from ._types import DatasetLoad, Loaded, VerificationExample

__all__ = ["PATTERN", "WiCEClaim", "load_examples", "load_wice"]

PATTERN = "wice/data/entailment_retrieval/claim/*.jsonl"

SUPPORTED = ("supported",)
NOT_SUPPORTED = ("not_supported",)
PARTIAL = ("partially_supported",)


class WiCEClaim(msgspec.Struct, frozen=True, kw_only=True):
    """A Wikipedia claim, the sentences of the article it cites, and the annotators' verdict."""

    example_id: str
    """Stable id: ``wice:<file stem>:<row>``."""
    wice_id: str | None
    """WiCE's own id (``meta.id``, e.g. ``dev02986``)."""
    claim: str
    """The claim sentence from Wikipedia."""
    evidence: tuple[str, ...]
    """The cited article, one sentence an entry, as the dataset splits it."""
    supporting_sentences: tuple[tuple[int, ...], ...]
    """Gold index sets into ``evidence``: each an alternative group of sentences that together
    support the claim (as far as it is supported); a row may list one or many (up to 120)."""
    raw_label: str
    """``supported``, ``partially_supported`` or ``not_supported``."""
    label: bool | None
    """The mapped label (see the module docstring)."""
    title: str | None = None
    """The Wikipedia article the claim is from."""
    context: str | None = None
    """The Wikipedia text around the claim."""


class _RawMeta(msgspec.Struct):
    id: str | None = None
    claim_title: str | None = None
    claim_context: str | None = None


class _RawRow(msgspec.Struct):
    claim: str
    evidence: list[str]
    label: str
    supporting_sentences: list[list[int]] = []
    meta: _RawMeta | None = None


def _load(root: Path, partial_as: bool | None) -> tuple[Tally, list[WiCEClaim]]:
    tally = Tally(dataset="wice", root=root, pattern=PATTERN)
    claims: list[WiCEClaim] = []
    for path, row, item in tally.records("jsonl", _RawRow):
        n = len(item.evidence)
        bad = [i for group in item.supporting_sentences for i in group if not 0 <= i < n]
        if bad:
            reason = f"supporting sentence index {bad[0]} outside {n} sentences"
            tally.skip(tally.rel(path), row, reason)
            continue
        if not item.claim.strip():
            tally.skip(tally.rel(path), row, "empty claim")
            continue
        meta = item.meta or _RawMeta()
        claims.append(
            WiCEClaim(
                example_id=f"wice:{path.stem}:{row}",
                wice_id=meta.id,
                claim=item.claim,
                evidence=tuple(item.evidence),
                supporting_sentences=tuple(tuple(g) for g in item.supporting_sentences),
                raw_label=item.label,
                label=map_label(
                    item.label,
                    supported=SUPPORTED,
                    not_supported=NOT_SUPPORTED,
                    partial=PARTIAL,
                    partial_as=partial_as,
                ),
                title=meta.claim_title,
                context=meta.claim_context,
            )
        )
    return tally, claims


def load_wice(root: Path, *, partial_as: bool | None = None) -> Loaded[WiCEClaim]:
    """Load WiCE's claims with their article sentences, gold sentence sets and labels.

    Args:
        root: the data root (the folder holding ``wice/``).
        partial_as: the label ``partially_supported`` claims take (None: excluded).

    Returns:
        The claims in file order; ``status="missing"`` when no file matches the pattern.
    """
    tally, claims = _load(root, partial_as)
    return tally.loaded(claims)


def load_examples(root: Path, *, partial_as: bool | None = None) -> DatasetLoad:
    """WiCE flattened to verification examples: claim against the whole article."""
    tally, claims = _load(root, partial_as)
    flat = Examples()
    for claim in claims:
        if not any(sentence.strip() for sentence in claim.evidence):
            flat.drop("no evidence sentences")
            continue
        flat.add(
            VerificationExample(
                dataset="wice",
                example_id=claim.example_id,
                claim=claim.claim,
                evidence=claim.evidence,
                label=claim.label,
                raw_label=claim.raw_label,
                group="wice",
                context=claim.context,
            )
        )
    return tally.dataset_load(flat)
