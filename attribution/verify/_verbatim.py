"""The verbatim rule: a claim written word for word in a passage is supported without a model.

Words are compared case-folded, with punctuation, quotes, dashes and spacing ignored (not a
currency's or per cent sign), so
"The tower is 330 m tall." is found in "…the tower is 330 m tall, and…"; so are a claim's
quantities and dates written as the passage writes them ("The flight takes 2.5 hours." in
"…the flight takes 150 minutes…": :func:`attribution.text.as_written_in`). Nothing else is
forgiven: a changed number, a dropped "not" or another word order is not verbatim, and goes to
the verifier like any other claim.
"""

from __future__ import annotations

import re
import unicodedata

from attribution.text import as_written_in

__all__ = ["VERBATIM_MIN_WORDS", "verbatim_as_written", "verbatim_in", "word_key"]

VERBATIM_MIN_WORDS = 4
"""A claim needs at least this many words for the rule (shorter ones go to the verifier)."""

_WORD = re.compile(r"\w+|[$€£¥₹%]")
"""A word, or a sign that changes what a number says: "€5 billion" is not "$5 billion"."""


def word_key(text: str) -> str:
    """The text's words and currency and per cent signs, case-folded and NFKC-normalised,
    joined by single spaces."""
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


def verbatim_in(claim_key: str, passage_key: str) -> bool:
    """Whether the claim's words (``word_key``) occur, in order and together, in the passage's.

    Claims of fewer than :data:`VERBATIM_MIN_WORDS` words never count.
    """
    if claim_key.count(" ") + 1 < VERBATIM_MIN_WORDS:
        return False
    return f" {claim_key} " in f" {passage_key} "


def verbatim_as_written(claim: str, passage: str, passage_key: str) -> bool:
    """Whether the claim, its quantities and dates written as the passage writes them (and only
    then), is verbatim in the passage (``passage_key``: the passage's :func:`word_key`)."""
    written = as_written_in(claim, passage)
    return written != claim and verbatim_in(word_key(written), passage_key)
