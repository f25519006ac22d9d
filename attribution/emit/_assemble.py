"""The result: the edited answer, claim and marker verdicts with offsets, citations, summary."""

from __future__ import annotations

from collections.abc import Sequence

from attribution._result import (
    AttributionResult,
    AttributionSummary,
    ClaimResult,
    MarkerCheck,
    NumberedSource,
)
from attribution._wire import CitationReference, CitationSource, StoredCitationData
from attribution.decide import ClaimOutcome, Numbering
from attribution.emit._edits import Edit, apply_edits

__all__ = ["assemble_result", "summarize"]


def assemble_result(
    answer: str,
    edits: Sequence[Edit],
    outcomes: Sequence[ClaimOutcome],
    marker_checks: Sequence[MarkerCheck],
    *,
    sources: Sequence[CitationSource],
    numbering: Numbering,
    threshold: float,
    verifier: str,
    appendix: Edit | None = None,
) -> AttributionResult:
    """Apply the edits and write every claim, reference and marker verdict against them.

    A reference (``StoredCitationData.references``) is written for each supported or
    partially supported claim that cites a source after the edits; its offsets are into the
    edited answer. ``appendix``: the edit of ``edits`` that appends footnote definitions under
    the answer, which no claim's span takes in (the last claim ended at the text's end).
    """
    edited = apply_edits(answer, edits)
    claims: list[ClaimResult] = []
    references: list[CitationReference] = []
    for i, outcome in enumerate(outcomes):
        seg = outcome.claim.segment
        decision = outcome.decision
        out_start = edited.map(seg.start, after_insertions=False)
        out_end = edited.map(seg.end, after_insertions=True)
        if appendix is not None and seg.end == appendix.start == appendix.end:
            out_end -= len(appendix.replacement)  # the definitions come after its marker
        # a claim that began with a marker that went begins at its first word, not the blank
        # before it ("1889. [9] notes that ..." -> "1889. notes that ...")
        while out_start < out_end and edited.text[out_start] in " \t":
            out_start += 1
        if outcome.shown and decision.verdict in ("supported", "partially_supported"):
            references.append(
                CitationReference(
                    index=len(references),
                    start_index=out_start,
                    end_index=out_end,
                    cited_text=edited.text[out_start:out_end],
                    source_ids=tuple(sources[s].id for s in outcome.shown),
                )
            )
        claims.append(
            ClaimResult(
                index=i,
                start=seg.start,
                end=seg.end,
                text=seg.text,
                output_start=out_start,
                output_end=out_end,
                verdict=decision.verdict,
                score=round(float(decision.score), 6),
                threshold=threshold,
                source_ids=tuple(sources[s].id for s in decision.supporting),
                numbers=tuple(numbering.numbers[s] for s in decision.supporting),
                cited=outcome.claim.cited_numbers,
                added=outcome.added,
                evidence=outcome.evidence,
                nearest=outcome.nearest,
                contradiction=decision.contradiction,
                contradicting_ids=tuple(sources[s].id for s in decision.contradicting),
                contradicting_numbers=tuple(numbering.numbers[s] for s in decision.contradicting),
                reason=decision.reason,
                shortcut=decision.shortcut,
            )
        )
    return AttributionResult(
        answer=edited.text,
        citations=StoredCitationData(sources=tuple(sources), references=tuple(references)),
        claims=tuple(claims),
        markers=tuple(marker_checks),
        summary=summarize(claims, marker_checks),
        numbering=tuple(
            NumberedSource(number=n, source_id=s.id, title=s.title)
            for n, s in zip(numbering.numbers, sources, strict=True)
        ),
        verifier=verifier,
    )


def summarize(
    claims: Sequence[ClaimResult], marker_checks: Sequence[MarkerCheck]
) -> AttributionSummary:
    """The counts of every verdict."""
    return AttributionSummary(
        claims=len(claims),
        supported=sum(c.verdict == "supported" for c in claims),
        partially_supported=sum(c.verdict == "partially_supported" for c in claims),
        unsupported=sum(c.verdict == "unsupported" for c in claims),
        contradicted=sum(c.verdict == "contradicted" for c in claims),
        markers_checked=len(marker_checks),
        markers_supported=sum(m.verdict == "supported" for m in marker_checks),
        markers_unsupported=sum(m.verdict == "unsupported" for m in marker_checks),
        markers_wrong=sum(m.verdict == "wrong_source" for m in marker_checks),
        markers_unknown=sum(m.verdict == "unknown_number" for m in marker_checks),
        markers_unverifiable=sum(m.verdict == "unverifiable" for m in marker_checks),
        markers_added=sum(1 for c in claims if c.added),
    )
