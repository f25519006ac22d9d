"""Where a marker the answer wrote is judged: supported, wrong source, unknown number, ..."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from attribution._result import MarkerCheck
from attribution.decide._types import ClaimDecision, Numbering, Support
from attribution.text import Marker

__all__ = ["check_marker"]


def check_marker(
    marker: Marker,
    number: int,
    *,
    claim_index: int,
    per_source: Mapping[int, Support],
    decision: ClaimDecision,
    threshold: float,
    numbering: Numbering,
) -> MarkerCheck:
    """The verdict on one number of a marker attached to a claim.

    - **unknown_number**: the conversation has no source with that number;
    - **unverifiable**: it has one, but the request did not bring its text (or brought the
      source without any);
    - **supported**: the cited source's best passage reaches the threshold, or the source is
      one of a pair that supports the claim together;
    - **wrong_source**: another source supports the claim (its number is suggested);
    - **unsupported**: no source supports it.
    """
    check = MarkerCheck(
        start=marker.start,
        end=marker.end,
        marker=marker.text,
        number=number,
        claim_index=claim_index,
        verdict="unsupported",
    )
    if number not in numbering.known:
        return msgspec.structs.replace(check, verdict="unknown_number")
    source = numbering.index_of(number)
    if source is None or source in numbering.textless:
        return msgspec.structs.replace(check, verdict="unverifiable")
    own = per_source.get(source)
    check = msgspec.structs.replace(
        check,
        score=round(own.score if own else 0.0, 6),
        source_id=numbering.source_ids[source],
    )
    supporting = decision.supporting
    if (own is not None and own.score >= threshold) or (
        source in supporting and len(supporting) > 1  # supports it together with another
    ):
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
