"""Quantities written in different forms: a scale (``1.2 million``, ``1.2M``, ``$5bn``), another
metric unit (``1.82 km``, ``1,820 metres``) or the other system (``4,700 miles``, ``7,600 km``).

A careful reader takes "1.2 million users" and "1,200,000 users", or "1.82 km" and "1,820
metres", for the same number. The cheap signals compare numbers by value
(:func:`quantity_values`); the cross-encoder reads words, and a small one reads "1.2 million"
against "1,200,000" as a contradiction, so :func:`as_written_in` writes a claim's quantity as
the passage writes the same quantity before the model reads the pair.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from attribution.text._terms import (
    canonical_number,
    number_spans,
    scaled_matches,
    scaled_value,
    spell_iso_dates,
)

__all__ = ["Quantity", "as_written_in", "quantities", "quantity_values", "same_quantity"]

_UNITS: dict[str, tuple[str, float, str]] = {}
"""Unit spelling → (dimension, factor to the base unit, system)."""
for _forms, _dimension, _factor, _system in (
    ("km kilometre kilometres kilometer kilometers", "length", 1e3, "metric"),
    ("m metre metres meter meters", "length", 1.0, "metric"),
    ("cm centimetre centimetres centimeter centimeters", "length", 1e-2, "metric"),
    ("mm millimetre millimetres millimeter millimeters", "length", 1e-3, "metric"),
    ("mi mile miles", "length", 1609.344, "imperial"),
    ("yd yard yards", "length", 0.9144, "imperial"),
    ("ft foot feet", "length", 0.3048, "imperial"),
    ("inch inches", "length", 0.0254, "imperial"),  # not "in": "5 in 10 people"
    ("t tonne tonnes", "mass", 1e6, "metric"),
    ("kg kilogram kilograms kilogramme kilogrammes kgs", "mass", 1e3, "metric"),
    ("g gram grams gramme grammes", "mass", 1.0, "metric"),
    ("mg milligram milligrams", "mass", 1e-3, "metric"),
    ("lb lbs pound pounds", "mass", 453.59237, "imperial"),
    ("oz ounce ounces", "mass", 28.349523125, "imperial"),
    ("l litre litres liter liters", "volume", 1.0, "metric"),
    ("ml millilitre millilitres milliliter milliliters", "volume", 1e-3, "metric"),
):
    for _form in _forms.split():
        _UNITS[_form] = (_dimension, _factor, _system)

_SYMBOLS = sorted((f for f in _UNITS if len(f) <= 3), key=len, reverse=True)
_WORDS = sorted((f for f in _UNITS if f not in _SYMBOLS), key=len, reverse=True)
_MEASURE = re.compile(
    r"(?<![\w.$€£¥])(?<!\d[.,\u00a0\u202f\u2009])"
    r"(\d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)*)[ \u00a0\u202f]?"
    rf"((?i:{'|'.join(_WORDS)})|{'|'.join(_SYMBOLS)})\b(?![.,]?\d)"
)
"""A number and a unit after it. Symbols are lower case only (``5 G`` and ``3 M`` are no
units), words in any case."""
_ENDS_RANGE = re.compile(r"\d\s*(?:-|–|—|to|and|bis|à)\s*$", re.IGNORECASE)
"""What stands before the second end of a range ("5-", "10 to ", "between 5 and ")."""


def _ends_range(text: str, at: int) -> bool:
    """Whether the number at ``at`` is the second end of a range (a window before it: linear)."""
    return _ENDS_RANGE.search(text, max(0, at - 12), at) is not None


class Quantity(NamedTuple):
    """A number written with a scale or a metric unit, or a plain number, in a text."""

    start: int
    end: int
    value: str
    """The value in the base unit (metres, grams, litres; a count for scales), canonical as
    :func:`attribution.text.number_terms` writes numbers."""
    dimension: str
    """``length``, ``mass``, ``volume``; ``count`` for a scaled or plain number."""
    written: str
    """The number as written (canonical), before its scale or unit."""
    plain: bool
    """A number with neither scale nor unit (``1,200,000``)."""
    system: str = ""
    """``metric`` or ``imperial`` for a measure; empty for a count."""
    low: float = 0.0
    high: float = 0.0
    """What the number as written may stand for, in the base unit: half a unit of its last
    place either side ("4,700 miles" is 4,650 to 4,750 miles), for a measure only."""


def same_quantity(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities are the same: the same value in the same dimension, or, between
    metric and imperial units, values within :data:`CONVERSION_TOLERANCE` of each other and
    within each other's rounding ("4,700 miles" and "7,600 km"; "1,083 feet" and "330 metres";
    not "1 mile" and "1 km", nor "130 metres" and "400 feet")."""
    if a.dimension != b.dimension:
        return False
    if a.value == b.value:
        return True
    if not (a.system and b.system and a.system != b.system):
        return False
    x, y = float(a.value), float(b.value)
    close = abs(x - y) <= CONVERSION_TOLERANCE * max(abs(x), abs(y))
    return close and a.low <= b.high and b.low <= a.high


CONVERSION_TOLERANCE = 0.02
"""The largest relative difference between a metric and an imperial figure of one quantity
(rounded conversions: 4,700 miles is 7,564 km, written 7,600 km)."""


def _unit(word: str) -> tuple[str, float, str] | None:
    return _UNITS.get(word) if word in _SYMBOLS else _UNITS.get(word.lower())


def _half_place(written: str) -> float:
    """Half a unit of the last place ``written`` (canonical) gives: ``4700`` ±50, ``7.6`` ±0.05."""
    if "." in written:
        return 0.5 * 10.0 ** -len(written.split(".", 1)[1])
    zeros = len(written) - len(written.rstrip("0"))
    return 0.5 * 10.0 ** min(zeros, len(written) - 1)


def quantities(text: str, *, plain: bool = True) -> list[Quantity]:
    """The scaled numbers, metric measures and (with ``plain``) plain numbers of ``text``, by
    position; a plain number is one no scale or unit follows. Spans are into ``text``."""
    if not any(c.isdigit() for c in text):
        return []
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, raw: str, unit: tuple[str, float, str]) -> None:
        dimension, factor, system = unit
        written = canonical_number(raw)
        value = scaled_value(written, factor)
        if value is None or any(start < b and a < end for a, b in taken):
            return
        taken.append((start, end))
        spread = _half_place(written) * factor if system else 0.0
        low, high = float(value) - spread, float(value) + spread
        found.append(Quantity(start, end, value, dimension, written, False, system, low, high))

    for start, end, raw, factor in scaled_matches(text):
        add(start, end, raw, ("count", factor, ""))
    for m in _MEASURE.finditer(text):
        unit = _unit(m.group(2))
        if unit is not None:
            add(m.start(), m.end(), m.group(1), unit)
    for start, end in number_spans(text) if plain else ():
        raw = text[start:end]
        if raw.endswith("%") or any(start < b and a < end for a, b in taken):
            continue
        written = canonical_number(raw)
        value = scaled_value(written, 1.0)
        if value is not None:
            found.append(Quantity(start, end, value, "count", written, True))
    return sorted(found)


def quantity_values(text: str) -> tuple[Quantity, ...]:
    """The scaled numbers and measures of ``text`` (no plain number): ``1.82 km`` has the
    value ``1820`` (metres), ``1.2 million`` ``1200000``; compare them with
    :func:`same_quantity`."""
    return tuple(quantities(spell_iso_dates(text), plain=False))


@lru_cache(maxsize=4096)
def _passage_quantities(passage: str) -> tuple[Quantity, ...]:
    """A passage's quantities, once per passage (it is read against every claim it may back)."""
    return tuple(quantities(passage))


def as_written_in(claim: str, passage: str) -> str:
    """``claim`` with each quantity the passage states in another form written as the passage
    writes it: "It had 1.2 million users." against "... 1,200,000 users ..." reads "It had
    1,200,000 users."; "It is 1.82 km long." against "... 1,820 metres ..." reads "It is 1,820
    metres long.". Only a scaled number or a measure, on either side, is rewritten, and only
    to the same quantity (:func:`same_quantity`); everything else is left as it is (the claim
    itself when nothing changes)."""
    if not any(c.isdigit() for c in claim) or not any(c.isdigit() for c in passage):
        return claim
    mine = quantities(claim)
    if not mine:
        return claim
    theirs = _passage_quantities(passage)
    pieces: list[str] = []
    cursor = 0
    for q in mine:
        if _ends_range(claim, q.start) or claim[q.start : q.end] in passage:
            continue  # "5-10 km": one end alone is no quantity; the passage's own form stays
        match = next(
            (
                t
                for t in theirs
                if not (q.plain and t.plain)
                and same_quantity(q, t)
                and not _ends_range(passage, t.start)
            ),
            None,
        )
        if match is None:
            continue
        written = passage[match.start : match.end]
        if written == claim[q.start : q.end]:
            continue
        pieces += [claim[cursor : q.start], written]
        cursor = q.end
    if not pieces:
        return claim
    return "".join([*pieces, claim[cursor:]])
