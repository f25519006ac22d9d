"""The verbatim rule: a claim written word for word in a passage is supported without a model.

Words are compared case-folded, with punctuation, quotes, dashes and spacing ignored, so
"The tower is 330 m tall." is found in "…the tower is 330 m tall, and…". Nothing else is
forgiven: a changed number, a dropped "not" or another word order is not verbatim, and goes to
the verifier like any other claim.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["VERBATIM_MIN_WORDS", "verbatim_in", "word_key"]

VERBATIM_MIN_WORDS = 4
"""A claim needs at least this many words for the rule (shorter ones go to the verifier)."""

_WORD = re.compile(r"\w+")


def word_key(text: str) -> str:
    """The text's words, case-folded and NFKC-normalised, joined by single spaces."""
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


def verbatim_in(claim_key: str, passage_key: str) -> bool:
    """Whether the claim's words (``word_key``) occur, in order and together, in the passage's.

    Claims of fewer than :data:`VERBATIM_MIN_WORDS` words never count.
    """
    if claim_key.count(" ") + 1 < VERBATIM_MIN_WORDS:
        return False
    return f" {claim_key} " in f" {passage_key} "
