"""Decide: the verdicts, as small pure functions over frozen data.

- ``_claims``: :func:`decide_claim`, where a claim is judged (supported, partially supported,
  contradicted, unsupported) from its best support per source and its best passage pair.
- ``_markers``: :func:`claims_to_check`, which segments' markers are checked (a table cell of
  markers alone cites its row's claim), and :func:`check_marker`, where each number of a marker
  the answer wrote is judged (supported, wrong source with a suggestion, unknown number,
  unverifiable, unsupported).
- ``_answer_key``: :func:`answer_key`, the answer's own key to its numbers (a reference list
  or definitions naming the sources), through which its markers are read.
- ``_types``: what they read and write.
"""

from __future__ import annotations

from attribution.decide._answer_key import AnswerKey, KeyedSource, answer_key, read_links
from attribution.decide._claims import OUT_OF_REACH, best_support, decide_claim, support_rank
from attribution.decide._markers import (
    CITATION_LABELS,
    MarkerPart,
    check_marker,
    claims_to_check,
    marker_parts,
    parts_decision,
    unchecked_unknown,
)
from attribution.decide._types import (
    CheckedClaim,
    ClaimDecision,
    ClaimOutcome,
    Numbering,
    Support,
    Thresholds,
)

__all__ = [
    "CITATION_LABELS",
    "OUT_OF_REACH",
    "AnswerKey",
    "CheckedClaim",
    "ClaimDecision",
    "ClaimOutcome",
    "KeyedSource",
    "MarkerPart",
    "Numbering",
    "Support",
    "Thresholds",
    "answer_key",
    "best_support",
    "check_marker",
    "claims_to_check",
    "decide_claim",
    "marker_parts",
    "parts_decision",
    "read_links",
    "support_rank",
    "unchecked_unknown",
]
