"""Reporting periods in their forms: quarters, halves and fiscal years.

Answers about companies name periods as filings do and as news does, and a small judge reads
the forms as different things: "In Q4 FY2025, revenue was $5.2 billion." against "In the fourth
quarter of fiscal 2025, revenue was $5.2 billion" was called contradicted (0.42), "Revenue in
FY24" against "Revenue for fiscal year 2024" too (0.27), while "Q2 2024" against "Third-quarter
2024" was called supported (0.81), as was "H2 2024" against "the first half of 2024". Here a
period is read in any of its forms (``Q4``, ``4Q``, ``fourth quarter``, ``fourth-quarter``,
``4th quarter``; ``H1``, ``first half``; ``FY24``, ``FY 2024``, ``fiscal 2024``, ``fiscal year
2024``; with a year after it, ``Q3 2024``, ``Q3'24``, ``Q3 of fiscal 2024``, or before it,
``2024 third quarter``), so that the judge reads the claim's period in the passage's form
(:func:`period_edits`). A rule that capped a claim whose quarter the passage names as
another one only was measured and not shipped (docs/benchmarks.md): passages name a quarter
by its months, its end date or "the prior quarter" as often as by its number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

__all__ = ["Period", "period_edits", "periods"]


class Period(NamedTuple):
    """A reporting period a text names."""

    start: int
    end: int
    kind: str
    """``quarter``, ``half`` or ``year`` (a fiscal year written as one: ``FY24``)."""
    number: int
    """Which quarter (1-4) or half (1-2); 0 for a year."""
    year: int | None
    """The year written with it (``Q3 2024``, ``FY24``: 2024); None where none is."""
    fiscal: bool
    """Written as a fiscal or financial year's (``Q4 FY25``, ``fiscal 2024``)."""
    bare_start: int
    bare_end: int
    """The period's words without its year (``fourth quarter`` of ``fourth quarter of fiscal
    2025``, ``third quarter`` of ``2024 third quarter``); a fiscal year's are all of it."""


_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
}  # fmt: skip
_ORDINAL = r"(?:first|second|third|fourth|1st|2nd|3rd|4th)"
_FISCAL_WORDS = r"(?:fiscal|financial)(?:[ \t-]+year)?"
_RANGE_START = r"(?:(?:19|20)?\d{2}[-–/])?"
"""The first year of a fiscal year written as two (``FY2023-24``, ``FY 2024/25``): the year is
the second."""
_YEAR_AFTER = (
    r"(?P<after>(?<=\d[QH])(?P<y4>(?:19|20)\d{2}|\d{2})\b"  # 3Q24, 1Q2024, 2H23
    r"|[ \t]*(?:'|’)(?P<y1>\d{2})\b"  # Q3'24
    r"|[ \t]*(?P<fy>FY)[ \t]*'?" + _RANGE_START + r"(?P<y2>(?:19|20)\d{2}|\d{2})\b"  # Q4 FY25
    r"|[ \t]+(?:of[ \t]+)?(?:(?:the[ \t]+)?(?P<fw>" + _FISCAL_WORDS + r")[ \t]+'?)?"
    r"(?P<y3>(?:19|20)\d{2})\b(?![.,]\d)"  # Q3 2024, third quarter of fiscal 2024
    r")?"
)
_PERIODS = re.compile(
    r"(?P<pre_fiscal>\b(?:fiscal|financial)[ \t]+)?(?:(?P<y0>\b(?:19|20)\d{2})[ \t]+)?"
    r"(?:\b[QH](?P<n1>[1-4])(?:\b|(?=FY))|\b(?P<n2>[1-4])(?P<code>[QH])(?=\b|\d)"
    r"|\b(?P<word>"
    + _ORDINAL
    + r")[ \t-]+(?P<unit>quarter|half)\b)"
    + _YEAR_AFTER
    + r"|\bFY[ \t]*'?"
    + _RANGE_START
    + r"(?P<fy_year>(?:19|20)\d{2}|\d{2})\b"
    r"|\b"
    + _FISCAL_WORDS
    + r"[ \t]+'?"
    + _RANGE_START
    + r"(?P<fiscal_year>(?:19|20)\d{2}|(?<=[-–/])\d{2})\b(?![.,]\d)",
    re.IGNORECASE | re.ASCII,  # "ſecond" is no "second": each word found is a table's key
)
"""A quarter, a half or a fiscal year, with the year written with it."""


def _year(written: str | None) -> int | None:
    if not written:
        return None
    year = int(written)
    if len(written) == 2:
        return 2000 + year if year < 70 else 1900 + year
    return year


@lru_cache(maxsize=8192)
def periods(text: str) -> tuple[Period, ...]:
    """The quarters, halves and fiscal years ``text`` names, in order."""
    if not _MAY_HOLD.search(text):
        return ()
    found: list[Period] = []
    for m in _PERIODS.finditer(text):
        if m["fy_year"] or m["fiscal_year"]:
            year = _year(m["fy_year"] or m["fiscal_year"])
            found.append(Period(m.start(), m.end(), "year", 0, year, True, m.start(), m.end()))
            continue
        year = _year(m["y1"] or m["y2"] or m["y3"] or m["y4"]) or _year(m["y0"])
        if m["n1"]:
            code = text[m.start("n1") - 1]
            if not code.isupper():
                continue  # "q3" in lower case, or an "h1" heading tag
            kind, number = ("quarter" if code == "Q" else "half"), int(m["n1"])
            bare_start = m.start("n1") - 1
        elif m["n2"]:
            kind = "quarter" if m["code"] in "Qq" else "half"
            number, bare_start = int(m["n2"]), m.start("n2")
            if not m["code"].isupper():
                continue
        else:
            kind, number = m["unit"].lower(), _ORDINALS[m["word"].lower()]
            bare_start = m.start("word")
            if kind == "quarter" and _NOT_PERIOD.match(text, m.end("unit")):
                continue  # "the first quarter-final", "the first quarter of a mile"
        if kind == "half" and number > 2:
            continue
        if kind == "half" and (m["n1"] or m["n2"]) and year is None:
            continue  # "H1" alone is as often a heading, a receptor or a tag as a half year
        fiscal = bool(m["fy"] or m["fw"] or m["pre_fiscal"])
        bare_end = m.start("after") if m["after"] else m.end()
        found.append(Period(m.start(), m.end(), kind, number, year, fiscal, bare_start, bare_end))
    return tuple(found)


_MAY_HOLD = re.compile(r"[QqHh][1-4]|\d[Qq]|quarter|half|FY|fiscal|financial", re.IGNORECASE)
_NOT_PERIOD = re.compile(r"[ \t]*(?:-[ \t]*finals?\b|of[ \t]+an?\b)")
"""What follows "quarter" where it is no period: a round of a contest ("the first
quarter-final"), a share of a thing ("the first quarter of a mile")."""


def _same(a: Period, b: Period) -> bool:
    """The same period: the same kind and number, and, where both write a year, the same year
    of the same calendar (a fiscal year's quarter is not the calendar year's)."""
    if a.kind != b.kind or a.number != b.number:
        return False
    return a.year is None or b.year is None or (a.year == b.year and a.fiscal == b.fiscal)


def _index(found: Sequence[Period]) -> dict[tuple[str, int], list[Period]]:
    """Periods by kind and number (each claim period is then compared with few)."""
    index: dict[tuple[str, int], list[Period]] = {}
    for t in found:
        bucket = index.setdefault((t.kind, t.number), [])
        if len(bucket) < _BUCKET:
            bucket.append(t)
    return index


_BUCKET = 16
"""The periods of one kind and number read of a passage (more only repeat them)."""


def period_edits(claim: str, passage: str) -> list[tuple[int, int, str]]:
    """(start, end, the passage's form) for each period of the claim the passage names in
    another form: "Q4 FY2025" against "the fourth quarter of fiscal 2025" reads "fourth quarter
    of fiscal 2025"; "Q4" (no year) against it reads "fourth quarter". A claim's period the
    passage also writes as the claim does stays, as does one the passage names in two forms
    that differ (which one is meant is not told)."""
    mine = periods(claim)
    if not mine:
        return []
    index = _index(periods(passage))
    edits: list[tuple[int, int, str]] = []
    for p in mine:
        written = claim[p.start : p.end]
        if written in passage:
            continue
        forms = set()
        for t in index.get((p.kind, p.number), ()):
            if not _same(p, t) or (p.year is not None and t.year is None):
                continue
            # a claim without a year reads the passage's period without its year
            forms.add(
                passage[t.bare_start : t.bare_end] if p.year is None else passage[t.start : t.end]
            )
        if len(forms) == 1:
            (form,) = forms
            if form != written:
                edits.append((p.start, p.end, form))
    return edits
