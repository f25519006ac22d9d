"""ExpertQA (Malaviya et al., NAACL 2024): expert-judged support of cited claims in long answers.

Files: ``expertqa/data/lfqa/*.jsonl``, one question a line with the answers of several systems.
Each answer is a text with inline ``[n]`` markers, split into claims; each claim carries the
evidence it cites (``"[n] url\\n\\npassage"``, or ``"[n] url"`` alone for ``bing_chat`` and
``gpt4``) and an expert ``support`` label. Label mapping (``raw_label`` keeps the original):

- ``Complete`` -> True (supported)
- ``Incomplete``, ``Missing`` -> False (``Missing`` claims cite nothing: the uncited claims)
- ``Partial`` -> ``partial_as`` (None by default: excluded)
- ``N/A``, a null label and anything else -> None (excluded); ``raw_label`` is ``null`` for null

Flattened examples pair a claim with the passages of its evidence; a claim whose evidence is
missing or only URLs has nothing to be judged against and is dropped (counted by reason).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import msgspec

from ._io import Examples, Tally
from ._labels import map_label
from ._types import DatasetLoad, Loaded, VerificationExample

__all__ = [
    "PATTERN",
    "ExpertQAAnswer",
    "ExpertQAClaim",
    "ExpertQAEvidence",
    "OffsetMatch",
    "load_examples",
    "load_expertqa",
    "locate",
]

PATTERN = "expertqa/data/lfqa/*.jsonl"

SUPPORTED = ("Complete",)
NOT_SUPPORTED = ("Incomplete", "Missing")
PARTIAL = ("Partial",)

OffsetMatch = Literal["exact", "stripped", "whitespace"]
"""How a claim was found in its answer: verbatim, without its outer whitespace, or with every
run of whitespace allowed to differ (claims in which ``\\n\\n`` became two spaces)."""


class ExpertQAEvidence(msgspec.Struct, frozen=True, kw_only=True):
    """One evidence entry a claim cites."""

    marker: int | None
    """The ``[n]`` it is cited under; None when the entry has no ``[n]`` header."""
    url: str | None
    """The cited page."""
    passage: str | None
    """The quoted passage; None for URL-only evidence (``bing_chat``, ``gpt4``)."""


class ExpertQAClaim(msgspec.Struct, frozen=True, kw_only=True):
    """A claim of an answer, where it stands in the answer, what it cites, and its label."""

    example_id: str
    """Stable id: the answer's id and the claim's index."""
    index: int
    """0-based position among the answer's claims."""
    text: str
    """The claim as the dataset writes it (markers included)."""
    start: int | None
    """Offset of the claim in the answer text (code points), None when it cannot be found."""
    end: int | None
    """End offset (exclusive); ``answer_text[start:end]`` is the claim as ``match`` says."""
    match: OffsetMatch | None
    """How the claim was found: ``exact`` means ``answer_text[start:end] == text``."""
    markers: tuple[int, ...]
    """The ``[n]`` numbers the claim carries, in order of first appearance."""
    evidence: tuple[ExpertQAEvidence, ...]
    """The cited evidence, duplicates removed, in the dataset's order."""
    support: str | None
    """The expert's label as written (``Complete``, ``Partial``, ...), None when absent."""
    label: bool | None
    """The mapped label (see the module docstring)."""
    raw_label: str
    """``support``, or ``null`` when absent."""

    def evidence_for(self, marker: int) -> tuple[ExpertQAEvidence, ...]:
        """The evidence entries cited under ``[marker]``."""
        return tuple(ev for ev in self.evidence if ev.marker == marker)

    @property
    def evidence_by_marker(self) -> dict[int, tuple[ExpertQAEvidence, ...]]:
        """The evidence keyed by marker number (entries without a marker left out)."""
        keyed: dict[int, list[ExpertQAEvidence]] = {}
        for ev in self.evidence:
            if ev.marker is not None:
                keyed.setdefault(ev.marker, []).append(ev)
        return {marker: tuple(evs) for marker, evs in sorted(keyed.items())}


class ExpertQAAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """One system's answer to a question, with its claims."""

    example_id: str
    """Stable id: ``expertqa:<file stem>:<row>:<system>``."""
    question: str
    """The expert's question."""
    system: str
    """The system that wrote the answer (``rr_gs_gpt4``, ``post_hoc_sphere_gpt4``, ...)."""
    answer_text: str
    """The answer with its inline ``[n]`` markers."""
    sources: dict[int, str]
    """The answer's reference list: marker number -> URL."""
    claims: tuple[ExpertQAClaim, ...]
    """The claims in answer order."""


class _RawClaim(msgspec.Struct):
    claim_string: str
    evidence: list[str] = []
    support: str | None = None


class _RawAnswer(msgspec.Struct):
    answer_string: str
    claims: list[_RawClaim] = []
    attribution: list[str] = []


class _RawRow(msgspec.Struct):
    question: str
    answers: dict[str, msgspec.Raw]


_MARKER = re.compile(r"\[(\d+)\]")
_EVIDENCE = re.compile(r"\s*\[(\d+)\][ \t]*(https?://\S+|www\.\S+)?(.*)", re.DOTALL)
_SOURCE = re.compile(r"\s*\[(\d+)\]\s*(\S+)\s*")


def locate(text: str, claim: str, cursor: int = 0) -> tuple[int, int, OffsetMatch] | None:
    """Find ``claim`` in ``text``, preferring a match at or after ``cursor``.

    Tries, first from ``cursor`` and then from the start: the claim verbatim, the claim without
    its outer whitespace, and the claim's words with any whitespace between them.

    Returns:
        ``(start, end, how)`` with ``text[start:end]`` the matched text, or None.
    """
    stripped = claim.strip()
    words = claim.split()
    spaced = re.compile(r"\s+".join(map(re.escape, words))) if words else None
    for origin in dict.fromkeys((cursor, 0)):
        if claim and (at := text.find(claim, origin)) >= 0:
            return at, at + len(claim), "exact"
        if stripped and stripped != claim and (at := text.find(stripped, origin)) >= 0:
            return at, at + len(stripped), "stripped"
        if spaced is not None and (found := spaced.search(text, origin)) is not None:
            return found.start(), found.end(), "whitespace"
    return None


def _evidence(entries: list[str], tally: Tally) -> tuple[ExpertQAEvidence, ...]:
    parsed: list[ExpertQAEvidence] = []
    for entry in entries:
        head = _EVIDENCE.fullmatch(entry)
        if head is None:
            tally.warn("evidence entry without an '[n]' header")
            item = ExpertQAEvidence(marker=None, url=None, passage=entry.strip() or None)
        else:
            item = ExpertQAEvidence(
                marker=int(head.group(1)),
                url=head.group(2),
                passage=head.group(3).strip() or None,
            )
        if item in parsed:
            tally.warn("duplicate evidence entry in a claim")
        else:
            parsed.append(item)
    return tuple(parsed)


def _sources(entries: list[str], tally: Tally) -> dict[int, str]:
    sources: dict[int, str] = {}
    for entry in entries:
        found = _SOURCE.fullmatch(entry)
        if found is None:
            tally.warn("reference list entry not '[n] url'")
        else:
            sources.setdefault(int(found.group(1)), found.group(2))
    return sources


def _answer(
    raw: _RawAnswer,
    *,
    answer_id: str,
    question: str,
    system: str,
    tally: Tally,
    partial_as: bool | None,
) -> ExpertQAAnswer:
    text = raw.answer_string
    sources = _sources(raw.attribution, tally)
    claims: list[ExpertQAClaim] = []
    cursor = 0
    for index, rc in enumerate(raw.claims):
        where = locate(text, rc.claim_string, cursor)
        if where is None:
            tally.warn("claim not found in its answer")
        else:
            cursor = where[1]
        markers = tuple(dict.fromkeys(int(m) for m in _MARKER.findall(rc.claim_string)))
        if any(marker not in sources for marker in markers):
            tally.warn("claim cites a number missing from the answer's reference list")
        claims.append(
            ExpertQAClaim(
                example_id=f"{answer_id}:{index}",
                index=index,
                text=rc.claim_string,
                start=None if where is None else where[0],
                end=None if where is None else where[1],
                match=None if where is None else where[2],
                markers=markers,
                evidence=_evidence(rc.evidence, tally),
                support=rc.support,
                label=map_label(
                    rc.support,
                    supported=SUPPORTED,
                    not_supported=NOT_SUPPORTED,
                    partial=PARTIAL,
                    partial_as=partial_as,
                ),
                raw_label="null" if rc.support is None else rc.support,
            )
        )
    return ExpertQAAnswer(
        example_id=answer_id,
        question=question,
        system=system,
        answer_text=text,
        sources=sources,
        claims=tuple(claims),
    )


def _load(root: Path, partial_as: bool | None) -> tuple[Tally, list[ExpertQAAnswer]]:
    tally = Tally(dataset="expertqa", root=root, pattern=PATTERN)
    answers: list[ExpertQAAnswer] = []
    for path, row, question in tally.records("jsonl", _RawRow):
        for system, raw_answer in question.answers.items():
            what = f"answer {system}"
            answer = tally.decode(raw_answer, _RawAnswer, tally.rel(path), row, what=what)
            if answer is not None:
                answers.append(
                    _answer(
                        answer,
                        answer_id=f"expertqa:{path.stem}:{row}:{system}",
                        question=question.question,
                        system=system,
                        tally=tally,
                        partial_as=partial_as,
                    )
                )
    return tally, answers


def load_expertqa(root: Path, *, partial_as: bool | None = None) -> Loaded[ExpertQAAnswer]:
    """Load ExpertQA's answers with their claims, offsets, markers, evidence and labels.

    Args:
        root: the data root (the folder holding ``expertqa/``).
        partial_as: the label ``Partial`` claims take (None: excluded).

    Returns:
        The answers in file order; ``status="missing"`` when no file matches the pattern.
    """
    tally, answers = _load(root, partial_as)
    return tally.loaded(answers)


def _examples(answers: list[ExpertQAAnswer]) -> Examples:
    """Flatten answers to claim-versus-passages examples."""
    flat = Examples()
    for answer in answers:
        for claim in answer.claims:
            passages = tuple(dict.fromkeys(ev.passage for ev in claim.evidence if ev.passage))
            if not claim.text.strip():
                flat.drop("empty claim")
            elif not claim.evidence:
                flat.drop("no evidence cited")
            elif not passages:
                flat.drop("evidence is URLs only")
            elif any(ev.passage is None for ev in claim.evidence):
                flat.drop("evidence partly URLs only")
            else:
                flat.add(
                    VerificationExample(
                        dataset="expertqa",
                        example_id=claim.example_id,
                        claim=claim.text,
                        evidence=passages,
                        label=claim.label,
                        raw_label=claim.raw_label,
                        group=answer.system,
                        context=answer.question,
                    )
                )
    return flat


def load_examples(root: Path, *, partial_as: bool | None = None) -> DatasetLoad:
    """ExpertQA flattened to verification examples (see the module docstring)."""
    tally, answers = _load(root, partial_as)
    return tally.dataset_load(_examples(answers))
