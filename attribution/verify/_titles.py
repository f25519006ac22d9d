"""A source's title read with its passage where the passage's "today" is the title's date.

A news item or a release note dates itself in its title and says "today" in its text: "Release
notes: 12 March 2024" over "Version 3 was released today.". A claim that gives the date
("Version 3 was released on 12 March 2024.") was called unsupported (0.01) by the text alone.
Where the passage says "today" (or "this year", for a claim's year) in the sentence that holds
the claim's other words, gives no date, year or other time of its own, the claim's numbers it
lacks are those of the claim's date, and the title gives one date, the claim's, the judge reads
the title as the passage's first line (:func:`titled_passage`); otherwise the passage alone. A
title is no evidence of anything else: read beside any passage, a number in it passed for the
claim's ("Top 10 hiking trails" for "has 10 waterfalls", "iPhone 15 review" for "lasts 15
hours", "Annual report 2023" over a passage about 2022), and a "today" beside "yesterday" or
"last month" for the day of another event.
"""

from __future__ import annotations

import re

from attribution.text import content_terms, number_terms, source_sentence_spans

__all__ = ["TITLE_CHARS", "titled_passage"]


_TODAY = re.compile(r"(?i:\b(?:today|tonight|this[ \t]+(?:morning|afternoon|evening))\b)")
"""A day the text leaves to its page's date."""
_TODAY_OR_THIS_YEAR = re.compile(
    r"(?i:\b(?:today|tonight|this[ \t]+(?:morning|afternoon|evening|year))\b)"
)
"""A day or a year the text leaves to its page's date ("this year": a claim's year, not its
day)."""
_OTHER_TIME = re.compile(
    r"(?i:\b(?:yesterday|tomorrow|ago|recently|nowadays|(?:last|next|past|coming)[ \t]+"
    r"(?:week|month|year|night|weekend|monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday)|earlier[ \t]+this|later[ \t]+this)\b)"
)
"""A time of the text's own beside its "today" ("resigned last month, spoke today"): its
"today" need not be the claim's day."""
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DAY_DATE = re.compile(
    rf"(?i:\b\d{{1,2}}(?:st|nd|rd|th)?[ \t]+{_MONTH}[ \t,]+\d{{4}}\b"
    rf"|\b{_MONTH}[ \t]+\d{{1,2}}(?:st|nd|rd|th)?,?[ \t]+\d{{4}}\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b)"
)
"""A day's date (``12 March 2024``, ``March 12, 2024``, ``2024-03-12``)."""
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
TITLE_CHARS = 300
"""A longer title is read as no title (a page's text given as its title)."""


def _dates(text: str) -> list[frozenset[str]]:
    """The numbers of each day's date of ``text``, else of each year."""
    days = [frozenset(number_terms(m.group())) for m in _DAY_DATE.finditer(text)]
    return days or [frozenset(number_terms(m.group())) for m in _YEAR.finditer(text)]


def titled_passage(claim: str, passage: str, title: str | None) -> str:
    """``passage``, with ``title`` as its first line where the passage leaves its time to its
    page's date and the claim gives that date: the passage says "today" (or "this year", for a
    claim's year) in the sentence that holds the claim's other words, gives no date, year or
    other time of its own ("yesterday", "last month"), its numbers the claim's lacks are those
    of the claim's date, and the title gives one date, the claim's ("14 March 2024" is not read
    with a title of "12 March 2024")."""
    if not title or len(title) > TITLE_CHARS or _OTHER_TIME.search(passage) is not None:
        return passage
    if _DAY_DATE.search(passage) is not None or _YEAR.search(passage) is not None:
        return passage  # a passage with a date of its own keeps it
    mine = _dates(claim)
    theirs = set(_dates(title))
    if len(mine) != 1 or len(theirs) != 1 or mine[0] not in theirs:
        return passage  # no date, or another, or several ("10 March 2024 - 12 March 2024")
    missing = set(number_terms(claim)) - set(number_terms(passage))
    if not missing or not missing <= mine[0]:
        return passage  # a number the claim's date does not give ("Top 10", "iPhone 15")
    now = _TODAY if _DAY_DATE.search(claim) else _TODAY_OR_THIS_YEAR
    words = set(content_terms(_YEAR.sub(" ", _DAY_DATE.sub(" ", claim)))) - set(mine[0])
    for start, end in source_sentence_spans(passage):
        sentence = passage[start:end]
        if now.search(sentence) and words <= set(content_terms(sentence)):
            return f"{' '.join(title.split())}\n{passage}"  # "Version 3 was released today."
    return passage
