"""What :meth:`Attributor.attribute` returns: verdicts, evidence, citations, the new answer.

Offsets: ``ClaimResult.start/end`` and ``MarkerCheck.start/end`` point into the answer as given;
``ClaimResult.output_start/output_end`` and ``citations.references`` point into
``AttributionResult.answer`` (the answer with markers normalised and filled in);
``EvidenceQuote.start/end`` point into the source's text (``fullContent``, else ``snippet`` —
``field`` says which). All are code points, half-open.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from attribution._wire import StoredCitationData, WireStruct
from attribution.sources import ExtractionWarning

__all__ = [
    "AttributionResult",
    "AttributionSummary",
    "ClaimResult",
    "ClaimVerdict",
    "EvidenceQuote",
    "MarkerCheck",
    "MarkerVerdict",
    "NumberedSource",
]

ClaimVerdict = Literal["supported", "partially_supported", "unsupported", "contradicted"]
MarkerVerdict = Literal[
    "supported", "unsupported", "wrong_source", "unknown_number", "unverifiable"
]


class EvidenceQuote(WireStruct, frozen=True):
    """Sentences of a source that carry the support: ``text == source_text[start:end]``."""

    source_id: str
    """The source quoted."""
    number: int
    """Its citation number."""
    field: Literal["fullContent", "snippet"]
    """The source text the offsets point into."""
    start: int
    """Start offset in that text."""
    end: int
    """End offset in that text."""
    text: str
    """The quote."""
    score: float
    """Support score of the passage the quote comes from."""


class MarkerCheck(WireStruct, frozen=True):
    """The verdict on one number of one marker the answer carried."""

    start: int
    """Start offset of the marker in the input answer."""
    end: int
    """End offset of the marker in the input answer."""
    marker: str
    """The marker as written."""
    number: int
    """The number checked."""
    verdict: MarkerVerdict
    """supported: the cited source supports the claim; wrong_source: another source does
    (see ``suggested``); unsupported: no source does; unknown_number: the registry has no
    such number; unverifiable: the number is registered but its source's text was not given
    (the source is not in the request, or came without any text)."""
    claim_index: int | None = None
    """The claim the marker is attached to."""
    score: float | None = None
    """Support score of the cited source for the claim: of its best passage, or, where it
    supports the claim together with another source (or two of its passages joined), of the
    pair, the score the claim's verdict rests on (a supported marker never shows a score below
    the threshold)."""
    source_id: str | None = None
    """The cited source."""
    suggested: int | None = None
    """For wrong_source: the number of the source that supports the claim; it may be one the
    claim cites beside this marker ("[1][2]" where [1] alone supports it: [2] adds nothing)."""
    suggested_source_id: str | None = None
    """For wrong_source: that source's id."""


class ClaimResult(WireStruct, frozen=True):
    """One claim of the answer and where it comes from."""

    index: int
    """Position among the claims."""
    start: int
    """Start offset in the input answer."""
    end: int
    """End offset in the input answer."""
    text: str
    """The claim as written (``answer[start:end]``)."""
    output_start: int
    """Start offset in the output answer."""
    output_end: int
    """End offset in the output answer."""
    verdict: ClaimVerdict
    """How well the best source (or pair of sources) supports the claim."""
    score: float
    """Support score of the best source or pair."""
    threshold: float
    """Score at or above which the claim counts as supported."""
    source_ids: tuple[str, ...] = ()
    """Sources that support the claim (one, or two that only support it together)."""
    numbers: tuple[int, ...] = ()
    """Citation numbers of those sources."""
    cited: tuple[int, ...] = ()
    """Numbers the answer's markers cite for this claim."""
    added: tuple[int, ...] = ()
    """Numbers of the marker the engine added (empty when none was added)."""
    evidence: tuple[EvidenceQuote, ...] = ()
    """Quotes from the supporting sources (of a contradicted claim: from the passage that
    contradicts it, in the sources ``contradicting_ids`` names)."""
    nearest: tuple[EvidenceQuote, ...] = ()
    """Of an unsupported claim: the sentences of the passage that came closest (the best-scored
    one, or the best by its cheap signals when none was sent to the model), which do not
    support it; what a reader would check. Empty for every other verdict, when no passage was
    a candidate (``shortcut: "no_candidates"``), and with ``verify.nearest_evidence`` off."""
    contradiction: float | None = None
    """P(contradicted) by the best passage, when the verifier can tell (of a contradicted
    claim: by the passage that contradicts it)."""
    contradicting_ids: tuple[str, ...] = ()
    """Sources whose passage contradicts the claim (a contradicted claim only)."""
    contradicting_numbers: tuple[int, ...] = ()
    """Citation numbers of those sources."""
    reason: str | None = None
    """Why a claim is unsupported, in words (no relevant source, only partial support, ...)."""
    shortcut: str | None = None
    """The rule that decided the claim without a verifier pass: ``verbatim`` (the claim is
    written word for word in a source), ``no_candidates`` (no passage passed the matcher's
    relevance gates, and no marker named a source) or ``out_of_reach`` (no passage's cheap
    signals could have reached the partial threshold whatever the cross-encoder said, so none
    was sent to it); None: the verifier decided."""


class AttributionSummary(WireStruct, frozen=True, omit_defaults=False):
    """Counts over the result (every count written, zeros too)."""

    claims: int = 0
    supported: int = 0
    partially_supported: int = 0
    unsupported: int = 0
    contradicted: int = 0
    markers_checked: int = 0
    markers_supported: int = 0
    markers_unsupported: int = 0
    markers_wrong: int = 0
    markers_unknown: int = 0
    markers_unverifiable: int = 0
    markers_added: int = 0


class NumberedSource(WireStruct, frozen=True):
    """A source of the request and its citation number."""

    number: int
    source_id: str
    title: str | None = None


class AttributionResult(WireStruct, frozen=True):
    """The full result of attributing one answer."""

    answer: str
    """The answer with markers normalised and filled in, as configured."""
    citations: StoredCitationData
    """Sources and references (offsets into ``answer``), as frontends store them."""
    claims: tuple[ClaimResult, ...]
    """Every claim with its verdict and evidence."""
    markers: tuple[MarkerCheck, ...]
    """A verdict for every number of every marker the input answer carried."""
    summary: AttributionSummary
    """Counts."""
    numbering: tuple[NumberedSource, ...]
    """The citation number of each source of the request."""
    verifier: str
    """Name of the verifier that scored the pairs."""
    warnings: tuple[ExtractionWarning, ...] = ()
    """Problems met while extracting sources from tool outputs."""
    timings_ms: dict[str, float] = msgspec.field(default_factory=dict)
    """Wall time per stage."""
