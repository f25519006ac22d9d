"""A source's title read with its passage where the passage's "today" is the title's date.

A news item or a release note dates itself in its title and says "today" in its text: "Release
notes: 12 March 2024" over "Version 3 was released today.". A claim that gives the date
("Version 3 was released on 12 March 2024.") was called unsupported (0.01) by the text alone.
Where the passage says "today" (or "tonight", "this week", ...) and gives no date or year of
its own, and the claim's numbers it lacks are those of the claim's dates, each of which the
title gives whole, the judge reads the title as the passage's first line
(:func:`titled_passage`); otherwise the passage alone. A title is no evidence of anything else:
read beside any passage, a number in it passed for the claim's ("Top 10 hiking trails" for
"has 10 waterfalls", "iPhone 15 review" for "lasts 15 hours", "Annual report 2023" over a
passage about 2022).
"""

from __future__ import annotations

import re

from attribution.text import number_terms

__all__ = ["TITLE_CHARS", "titled_passage"]


_NOW = re.compile(
    r"(?i:\b(?:today|tonight|this[ \t]+(?:morning|afternoon|evening|week|month|year))\b)"
)
"""A time the text leaves to its page's date."""
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE = re.compile(
    rf"(?i:\b\d{{1,2}}(?:st|nd|rd|th)?[ \t]+{_MONTH}[ \t,]+\d{{4}}\b"
    rf"|\b{_MONTH}[ \t]+\d{{1,2}}(?:st|nd|rd|th)?,?[ \t]+\d{{4}}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b(?:19|20)\d\d\b)"
)
"""A date (``12 March 2024``, ``March 12, 2024``, ``2024-03-12``) or a year."""
TITLE_CHARS = 300
"""A longer title is read as no title (a page's text given as its title)."""


def titled_passage(claim: str, passage: str, title: str | None) -> str:
    """``passage``, with ``title`` as its first line where the passage says "today" (or
    "this week", ...) and gives no date or year, the claim's numbers the passage lacks are
    those of its dates, and the title gives each of the claim's dates whole ("14 March 2024"
    is not read with a title of "12 March 2024")."""
    if not title or len(title) > TITLE_CHARS or _NOW.search(passage) is None:
        return passage
    if _DATE.search(passage) is not None:
        return passage  # a passage with a date of its own keeps it
    dates = [set(number_terms(m.group())) for m in _DATE.finditer(claim)]
    missing = set(number_terms(claim)) - set(number_terms(passage))
    if not dates or not missing or not missing <= set().union(*dates):
        return passage  # a number the claim's dates do not give ("Top 10", "iPhone 15")
    given = set(number_terms(" ".join(m.group() for m in _DATE.finditer(title))))
    if not all(date <= given for date in dates):
        return passage
    return f"{' '.join(title.split())}\n{passage}"
