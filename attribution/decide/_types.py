"""The frozen data the decisions read and write."""

from __future__ import annotations

import msgspec

from attribution._result import ClaimVerdict, EvidenceQuote
from attribution.segment import Segment
from attribution.text import Marker

__all__ = ["CheckedClaim", "ClaimDecision", "ClaimOutcome", "Numbering", "Support", "Thresholds"]


class CheckedClaim(msgspec.Struct, frozen=True):
    """A segment the pipeline checks, with what its markers cite."""

    segment: Segment
    cited_numbers: tuple[int, ...]
    """Every number the claim's markers name, in order (unknown numbers included; a table
    cell's, those of its row's label too)."""
    cited_sources: tuple[int, ...]
    """Indices (into the request's sources) of the cited numbers that name a source."""
    lent_markers: tuple[Marker, ...] = ()
    """Markers written in a cell of the claim's table row that says nothing else ("| The
    tower is 330 m tall | [1] |": a Source column): they cite this claim, and are checked with
    its own (``segment.markers``); their numbers are in ``cited_numbers``."""


class Support(msgspec.Struct, frozen=True):
    """The best support found for a claim in one source, or in a pair of passages."""

    score: float
    """P(support) from the verifier."""
    passages: tuple[int, ...]
    """The passage (one) or the two passages joined that gave it."""
    sources: tuple[int, ...]
    """The sources those passages belong to, in passage order, without repeats."""
    contradiction: float | None = None
    """P(contradiction), when the verifier can tell."""
    shortcut: str | None = None
    """The rule that gave the score without a model pass (``verbatim``, ``out_of_reach``);
    None: the verifier."""


class Thresholds(msgspec.Struct, frozen=True):
    """Where the verdicts change."""

    support: float
    """At or above: supported."""
    partial: float
    """At or above (and below ``support``): partially supported."""
    contradiction: float = 0.5
    """At or above, and above the support score: contradicted."""


class Numbering(msgspec.Struct, frozen=True):
    """How the request's sources are numbered in the conversation."""

    numbers: tuple[int, ...]
    """The number of each source, by source index."""
    source_ids: tuple[str, ...]
    """The id of each source, by source index."""
    known: frozenset[int]
    """Every number the conversation's registry has given (it may hold more sources)."""
    textless: frozenset[int] = frozenset()
    """Source indices whose source came without any text (no ``fullContent``, no snippet):
    nothing of them can be checked."""

    def index_of(self, number: int) -> int | None:
        """The source index of ``number`` in this request, if the request has that source."""
        for index in range(len(self.numbers) - 1, -1, -1):
            if self.numbers[index] == number:
                return index
        return None


class ClaimDecision(msgspec.Struct, frozen=True):
    """The verdict on a claim and why."""

    verdict: ClaimVerdict
    score: float
    """The support score the verdict rests on."""
    supporting: tuple[int, ...]
    """Source indices that support the claim (one, or the two of a joined pair)."""
    contradiction: float | None = None
    reason: str | None = None
    shortcut: str | None = None
    """The rule that decided without a model pass (``verbatim``, ``no_candidates``,
    ``out_of_reach``)."""
    contradicting: tuple[int, ...] = ()
    """Source indices whose passage contradicts the claim (a contradicted claim)."""


class ClaimOutcome(msgspec.Struct, frozen=True):
    """Everything decided about one claim, ready to be written out."""

    claim: CheckedClaim
    decision: ClaimDecision
    shown: tuple[int, ...]
    """Source indices the answer cites for the claim after the edits (kept and added)."""
    added: tuple[int, ...]
    """Numbers of the markers added to the claim."""
    evidence: tuple[EvidenceQuote, ...]
    nearest: tuple[EvidenceQuote, ...] = ()
    """Of an unsupported claim: quotes from the source that came closest."""
