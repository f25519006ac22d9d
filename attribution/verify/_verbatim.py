"""The verbatim rule: a claim written word for word in a passage is supported without a model.

Words are compared case-folded, with punctuation, quotes, dashes and spacing ignored (not a
currency's or per cent sign, nor a minus sign), so "The tower is 330 m tall." is found in "…the
tower is 330 m tall, and…"; so are a claim's quantities and dates written as the passage writes
them ("The flight takes 2.5 hours." in "…the flight takes 150 minutes…":
:func:`attribution.text.as_written_in`). Nothing else is forgiven: a changed number, a dropped
"not", another word order, or a number the passage goes on with ("2 hours" of "2 hours 10
minutes") is not verbatim, and goes to the verifier like any other claim.
"""

from __future__ import annotations

import re
import unicodedata

from attribution.text import as_written_in, polarity_edits

__all__ = ["VERBATIM_MIN_WORDS", "verbatim_as_written", "verbatim_in", "word_key"]

VERBATIM_MIN_WORDS = 4
"""A claim needs at least this many words for the rule (shorter ones go to the verifier)."""

_WORD = re.compile(r"\w+|[$€£¥₹%]|(?<!\w)[-−](?=\d)")
"""A word, or a sign that changes what a number says: "€5 billion" is not "$5 billion", "-5 °C"
is not "5 °C"."""


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
    tokens = claim_key.split(" ")
    ends_in_number = any(t[:1].isdigit() for t in tokens[-2:])  # "2 hours", "330 m", "1889"
    opens_with_number = tokens[0][:1].isdigit()
    claim_key, passage_key = f" {claim_key} ", f" {passage_key} "
    at = passage_key.find(claim_key)
    while at >= 0:
        # a number the passage goes on with, or a minus sign or number before, is part of what
        # it says ("2 hours" of "2 hours 10 minutes", "5 °C" of "-5 °C")
        after = passage_key[at + len(claim_key) :].split(" ", 1)[0]
        before = passage_key[:at].rsplit(" ", 1)[-1]
        goes_on = ends_in_number and after[:1].isdigit()
        led = opens_with_number and (before[:1].isdigit() or before in ("-", "−"))
        if not (goes_on or led):
            return True
        at = passage_key.find(claim_key, at + 1)
    return False


def verbatim_as_written(claim: str, passage: str, passage_key: str) -> bool:
    """Whether the claim, its quantities, dates and states written as the passage writes them
    (and only then), is verbatim in the passage (``passage_key``: the passage's
    :func:`word_key`), and, where it ends with a quantity or a state was rewritten, the
    passage's sentence ends there too ("The hike took 2 hours" is not what "... took 2 hours
    and a half" says, nor "The dose is 1,000 mg" what "... 1,000 mg/m2" says, nor "The API is
    disabled" what "The API is not enabled for free users" says)."""
    written = as_written_in(claim, passage)
    if written == claim or not verbatim_in(word_key(written), passage_key):
        return False
    core = written.rstrip(_TRAILING)
    tail = core[-_TAIL_CHARS:]
    stated = bool(polarity_edits(claim, passage))  # "is unavailable" as "is not available"
    if not stated and not any(c.isdigit() for c in core[-_TAIL_CHARS // 2 :]):
        return True  # words after its last number: the verbatim rule saw them
    # "is not available" of "... is not available in the free plan" is no "is unavailable"
    return re.search(re.escape(tail) + _ENDS_THERE, passage) is not None


_TRAILING = " \t.!?;:,)]\"'”’"
_TAIL_CHARS = 24
_ENDS_THERE = r"[ \t]*(?:[.!?;:,)\]\"'”’]|$)"
