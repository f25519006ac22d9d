"""Where a marker the answer wrote is judged: supported, wrong source, unknown number, ..."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import msgspec

from attribution._result import MarkerCheck, MarkerVerdict
from attribution.decide._types import CheckedClaim, ClaimDecision, Numbering, Support
from attribution.segment import Segment
from attribution.text import Marker, content_terms

__all__ = ["CITATION_LABELS", "check_marker", "claims_to_check", "unchecked_unknown"]

CITATION_LABELS = frozenset({"source", "see", "ref", "reference", "citation", "cite", "cf", "via"})
"""Words (as :func:`content_terms` gives them) that only introduce citations: "Sources: [1],
[2]", "See [3].", "Ref. [4]"."""


def _says_nothing(segment: Segment) -> bool:
    """Whether a segment holds nothing but its markers (and a word introducing them)."""
    return set(content_terms(segment.clean_text)) <= CITATION_LABELS


def claims_to_check(
    text: str,
    segments: Sequence[Segment],
    by_number: Mapping[int, int],
    *,
    foreign: Collection[tuple[int, int]] = (),
) -> list[CheckedClaim]:
    """The segments whose markers are checked, in order, with what their markers cite.

    Every claim, and every other segment that carries markers and says something (a heading,
    a sentence too short to be a claim: "Yes [1]."). A segment that says nothing but its markers
    is no claim of its own: in a table row, its markers cite the row's claim before it ("| The
    tower is 330 m tall | [1] |", a Source column; :attr:`CheckedClaim.lent_markers`; so do
    those of a cell in a column of sources, "| Wikipedia [1] |"), or, in a
    row without a claim, its last cell that says something ("| Height | 330 metres | [1] |"),
    which is then checked; the markers of a row's label ("| JWST [1] | 2021 |") are checked
    with the row's first claim cell after it and cite its later ones too (they get no marker
    added; the label alone is checked when the row has no claim); elsewhere ("Sources:
    [1], [2]" under the answer, "[1]" alone on a line, a trailing reference list's "[1] Title,
    https://...") they cite no one claim and are not checked (their unknown numbers are still
    reported: :func:`unchecked_unknown`).

    Args:
        text: the answer, or the part of it the segments' offsets index.
        segments: its segments, in order.
        by_number: the request's source index of each registered number.
        foreign: ``(marker start, number)`` of the numbers the answer's own key says cite a
            page outside the request (:func:`answer_key`): they cite none of its sources.
    """
    kept: list[int] = []
    lent: dict[int, list[Marker]] = {}
    row_claim: int | None = None  # the last claim cell of the table row being read
    row_said: int | None = None  # else its last cell that says something
    label: int | None = None  # the row's label cell with markers, until a claim cell takes them
    row_cites: tuple[Marker, ...] = ()  # the label's markers, once a claim cell took them
    also: dict[int, tuple[Marker, ...]] = {}  # later claim cells of that row: cited, not checked
    previous: Segment | None = None
    for k, s in enumerate(segments):
        same_row = (
            previous is not None
            and s.block == previous.block == "table_cell"
            and "\n" not in text[previous.end : s.start]
        )
        if not same_row:
            row_claim = row_said = None
            row_cites = ()
            if label is not None:
                kept.append(label)  # no claim in its row: the label is checked itself
                label = None
        previous = s
        if s.is_claim:
            kept.append(k)
            if s.block == "table_cell":
                row_claim = k
                if label is not None:
                    lent.setdefault(k, []).extend(segments[label].markers)
                    row_cites = segments[label].markers
                    label = None
                elif row_cites:
                    also[k] = row_cites
        elif s.markers and s.skip_reason == "table_label":
            label = k
        elif (
            s.markers
            and s.skip_reason not in ("reference_list", "table_citation")
            and not _says_nothing(s)
        ):
            kept.append(k)
        elif s.markers and s.skip_reason != "reference_list" and s.block == "table_cell":
            owner = row_claim if row_claim is not None else row_said
            if owner is not None:
                lent.setdefault(owner, []).extend(s.markers)
        elif s.block == "table_cell" and s.skip_reason != "table_header" and not _says_nothing(s):
            row_said = k
    if label is not None:
        kept.append(label)
    out: list[CheckedClaim] = []
    for k in sorted({*kept, *lent}):
        s = segments[k]
        markers = (*s.markers, *lent.get(k, ()))
        cited = (*markers, *also.get(k, ()))
        numbers = tuple(
            dict.fromkeys(n for m in cited for n in m.numbers if (m.start, n) not in foreign)
        )
        out.append(
            CheckedClaim(
                segment=s,
                cited_numbers=numbers,
                cited_sources=tuple(dict.fromkeys(by_number[n] for n in numbers if n in by_number)),
                lent_markers=tuple(lent.get(k, ())),
            )
        )
    return out


def check_marker(
    marker: Marker,
    number: int,
    *,
    claim_index: int,
    per_source: Mapping[int, Support],
    decision: ClaimDecision,
    threshold: float,
    numbering: Numbering,
    foreign: bool = False,
) -> MarkerCheck:
    """The verdict on one number of a marker attached to a claim.

    - **unknown_number**: the conversation has no source with that number, or the answer's
      own key says it cites a page that is none of the request's sources (``foreign``);
    - **unverifiable**: it has one, but the request did not bring its text (or brought the
      source without any);
    - **supported**: the cited source's best passage reaches the threshold, or the source is
      one of a pair that supports the claim together (with another source, or two of its own
      passages joined);
    - **wrong_source**: another source supports the claim (its number is suggested);
    - **unsupported**: no source supports it.
    """
    check = _check(marker, number, claim_index, "unsupported")
    if foreign or number not in numbering.known:
        return msgspec.structs.replace(check, verdict="unknown_number")
    source = numbering.index_of(number)
    if source is None or source in numbering.textless:
        return msgspec.structs.replace(check, verdict="unverifiable")
    own = per_source.get(source)
    supporting = decision.supporting
    score = own.score if own else 0.0
    if source in supporting:  # one of a pair that supports the claim together: the pair's
        score = max(score, decision.score)
    check = msgspec.structs.replace(
        check, score=round(score, 6), source_id=numbering.source_ids[source]
    )
    if (own is not None and own.score >= threshold) or source in supporting:
        return msgspec.structs.replace(check, verdict="supported")
    other = next((s for s in supporting if s != source), None)
    if other is not None:
        return msgspec.structs.replace(
            check,
            verdict="wrong_source",
            suggested=numbering.numbers[other],
            suggested_source_id=numbering.source_ids[other],
        )
    return check


def _check(
    marker: Marker, number: int, claim_index: int | None, verdict: MarkerVerdict
) -> MarkerCheck:
    return MarkerCheck(
        start=marker.start,
        end=marker.end,
        marker=marker.text,
        number=number,
        claim_index=claim_index,
        verdict=verdict,
    )


def unchecked_unknown(
    markers: Sequence[Marker],
    claims: Sequence[CheckedClaim],
    known: frozenset[int],
    *,
    foreign: Collection[tuple[int, int]] = (),
) -> list[MarkerCheck]:
    """The unknown numbers of the markers no claim checks ("Sources: [1], [9]", the Source
    cell of a row without a claim): reported (``unknown_number``, no claim) since they are
    dropped from the answer like any unknown number (``foreign`` ones too: see
    :func:`claims_to_check`)."""
    checked = {(m.start, m.end) for c in claims for m in (*c.segment.markers, *c.lent_markers)}
    return [
        _check(m, n, None, "unknown_number")
        for m in markers
        if (m.start, m.end) not in checked
        for n in m.numbers
        if n not in known or (m.start, n) in foreign
    ]
