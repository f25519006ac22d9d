"""Quantities written in different forms: a scale (``1.2 million``, ``1.2M``, ``$5bn``), another
metric unit (``1.82 km``, ``1,820 metres``) or the other system (``4,700 miles``, ``7,600 km``),
another unit of time (``2.5 hours``, ``150 minutes``) or of temperature (``212 °F``, ``100 °C``),
a dozen, cents (``25 cents``, ``$0.25``), a share in words (``three quarters of``, ``75%``),
a number in words with a scale, a unit or "per cent" (``twenty-five thousand``, ``25,000``;
``eighteen minutes``, ``18 minutes``), and a date in another form (``21/01/1793``, ``January
21, 1793``, ``21 January 1793``, ``1793/01/21``, ``1793-01-21T12:00Z``).

A careful reader takes "1.2 million users" and "1,200,000 users", or "1.82 km" and "1,820
metres", for the same number. The cheap signals compare numbers by value
(:func:`quantity_values`); the cross-encoder reads words, and a small one reads "1.2 million"
against "1,200,000" as a contradiction, so :func:`as_written_in` writes a claim's quantity as
the passage writes the same quantity before the model reads the pair.
"""

from __future__ import annotations

import bisect
import datetime
import itertools
import math
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation, localcontext
from functools import lru_cache
from typing import NamedTuple

from attribution.text._periods import period_edits
from attribution.text._polarity import polarity_edits
from attribution.text._terms import (
    STOPWORDS,
    canonical_number,
    content_terms,
    decimal_comma,
    entity_terms,
    month_number,
    number_spans,
    scaled_matches,
    scaled_value,
    source_sentence_spans,
    spell_iso_dates,
    spelled_numbers,
    stem,
)

__all__ = [
    "BOUND_REACH",
    "FOLLOW_COVERAGE",
    "FOLLOW_LIST",
    "FRACTION_SLACK",
    "LEAD_REACH",
    "ROUGHLY_BOTH",
    "ROUND_CLOSE",
    "ROUND_SHARE",
    "VALUE_COVERAGE",
    "VALUE_WORDS",
    "Quantity",
    "as_written_in",
    "clear_quantity_cache",
    "currency_conflict",
    "date_conflict",
    "money_amounts",
    "quantities",
    "quantity_values",
    "range_conflict",
    "same_quantity",
    "value_conflict",
]

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
    ("l L litre litres liter liters", "volume", 1.0, "metric"),
    ("ml mL millilitre millilitres milliliter milliliters", "volume", 1e-3, "metric"),
    # speeds, in metres a second
    (
        "km/h kmh kph kmph kilometres_per_hour kilometers_per_hour kilometre_per_hour"
        " kilometer_per_hour km_per_hour",
        "speed",
        1 / 3.6,
        "metric",
    ),
    ("mph miles_per_hour mile_per_hour", "speed", 0.44704, "imperial"),
    ("m/s metres_per_second meters_per_second", "speed", 1.0, "metric"),
    # one system (the same value only): "s" is no unit here ("1990s")
    # and as German, French, Spanish and Dutch write them ("2 Stunden 10 Minuten", "2 heures")
    (
        "sec secs Sek second seconds sekunde sekunden seconde secondes segundo segundos seconden",
        "duration",
        1.0,
        "",
    ),
    ("min mins Min minute minutes minuten minuut minuto minutos", "duration", 60.0, ""),
    (
        "h hr hrs hour hours Std stunde stunden heure heures hora horas uur uren",
        "duration",
        3600.0,
        "",
    ),
    ("day days Tag tage tagen jour jours día días dias dag dagen", "duration", 86400.0, ""),
    ("week weeks woche wochen semaine semaines semana semanas weken", "duration", 604800.0, ""),
    # pressure, in pascals (compared within one unit only: a unit changed, "12 percent" for
    # "12 mmHg", is what it is read for)
    ("mmHg mmhg", "pressure", 133.322387415, ""),
    ("kPa kpa", "pressure", 1e3, ""),
    ("hPa hpa", "pressure", 1e2, ""),
    ("psi", "pressure", 6894.757293168, ""),
    # kelvins from zero Celsius (_ZERO_CELSIUS is added to the product, _FAHRENHEIT_ZERO
    # taken from a Fahrenheit number first)
    ("°C ºC degrees_celsius degrees_centigrade", "temperature", 1.0, "metric"),
    ("°F ºF degrees_fahrenheit", "temperature", 5.0 / 9.0, "imperial"),
):
    for _form in _forms.split():
        _UNITS[_form.replace("_", " ")] = (_dimension, _factor, _system)

_DECIMAL_COMMA_UNITS = frozenset(
    """sekunde sekunden seconde secondes segundo segundos seconden minuten minuut minuto minutos
    std stunde stunden heure heures hora horas uur uren tag tage tagen jour jours día días dias
    dag dagen woche wochen semaine semaines semana semanas weken""".split()
)
"""Units of time in the words of languages that write a decimal comma."""
_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")
_ZERO_CELSIUS = Decimal("273.15")
_FAHRENHEIT_ZERO = Decimal(32)
_SYMBOLS = sorted((f for f in _UNITS if len(f) <= 3), key=len, reverse=True)
"""Units of three letters or fewer, in their one case ("km", "Tag", "Std", "dag", "uur", "día":
not "5 G", "2 std" (deviations), "DAG", "3/4 dia")."""
_WORDS = sorted((f for f in _UNITS if f not in _SYMBOLS), key=len, reverse=True)
_WORD_UNITS = "|".join(w.replace(" ", r"\s+") for w in _WORDS)
_MEASURE = re.compile(
    r"(?<![\w.:$€£¥])(?<!\d[.,\u00a0\u202f\u2009])"
    r"(\d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)*)[ \u00a0\u202f]?"
    rf"((?i:{_WORD_UNITS})|{'|'.join(_SYMBOLS)})\b(?![.,]?\d)"
)
"""A number and a unit after it. Symbols are lower case only (``5 G`` and ``3 M`` are no
units), words in any case."""
_ENDS_RANGE = re.compile(
    r"\d(?:[ ]?(?:%|°[ ]?[CF]|[a-zA-Z]{1,12}))?\s*(?:-|–|—|to|and|bis|à)\s*[$€£¥]?$",
    re.IGNORECASE,
)
"""What stands before the second end of a range ("5-", "10 to ", "between 50% and ", "5 km
and ")."""


def _ends_range(text: str, at: int) -> bool:
    """Whether the number at ``at`` is the second end of a range (a window before it: linear)."""
    return _ENDS_RANGE.search(text, max(0, at - 24), at) is not None


_STARTS_RANGE = re.compile(r"\s*(?:-|–|—|to|and)\s*[$€£¥]?\d")


def _starts_range(text: str, end: int) -> bool:
    """Whether the quantity ending at ``end`` is the first end of a range ("50% to 60%")."""
    return _STARTS_RANGE.match(text, end) is not None


_OF = re.compile(r"\s+of\b")


def _share_of(text: str, q: Quantity) -> bool:
    """Whether a share is a share of something ("75% of voters"; not "rose 75%"): a share in
    words always is."""
    return q.system == "fraction" or _OF.match(text, q.end) is not None


class Quantity(NamedTuple):
    """A number written with a scale or a metric unit, or a plain number, in a text."""

    start: int
    end: int
    value: str
    """The value in the base unit (metres, grams, litres; a count for scales), canonical as
    :func:`attribution.text.number_terms` writes numbers."""
    dimension: str
    """``length``, ``mass``, ``volume``, ``duration`` (in seconds), ``temperature`` (in
    kelvins), ``share`` (in per cent), ``speed`` (in metres a second); ``count`` for a scaled or
    plain number or a dozen."""
    written: str
    """The number as written (canonical), before its scale or unit."""
    plain: bool
    """A number with neither scale nor unit (``1,200,000``)."""
    system: str = ""
    """``metric`` or ``imperial`` for a measure with another system; ``fraction`` for a share
    in words (``a third of``: ``low`` to ``high`` per cent); ``dozen`` for a dozen in words;
    ``cent`` for an amount in cents (its value in dollars); empty otherwise."""
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
    if "fraction" in (a.system, b.system):  # "a third of" and 33%
        share, other = (a, b) if a.system == "fraction" else (b, a)
        return other.system != "fraction" and share.low <= float(other.value) <= share.high
    if not (a.system and b.system and a.system != b.system):
        return False
    x, y = float(a.value), float(b.value)
    if a.dimension == "temperature":  # rounded to a whole degree (or the place written) only
        return a.low <= b.high and b.low <= a.high
    close = abs(x - y) <= CONVERSION_TOLERANCE * max(abs(x), abs(y))
    return close and a.low <= b.high and b.low <= a.high


_OVEN = re.compile(
    r"(?i:\b(?:oven|ovens|bake|baked|bakes|baking|roast|roasted|roasting|roasts|preheat"
    r"|preheated|broil|broiled|gas[ ]+mark|fan)\b)"
)
"""A word that makes a temperature an oven's (within a sentence's reach of it)."""
OVEN_SPREAD = 4.5
"""How far either side of an oven's degrees Celsius in whole tens a conversion may fall (400 °F
is 204.4 °C, "200 °C"; 365 °F, 185 °C, is neither 180 nor 190)."""
OVEN_CELSIUS = (150.0, 300.0)
"""Degrees Celsius an oven's recipes convert to whole tens (not a capacitor's rated 110 °C,
105 °C to within a degree, nor a kiln's 1,000 °C)."""

CONVERSION_TOLERANCE = 0.02
"""The largest relative difference between a metric and an imperial figure of one quantity
(rounded conversions: 4,700 miles is 7,564 km, written 7,600 km)."""


def _unit(word: str) -> tuple[str, float, str] | None:
    return _UNITS.get(word) if word in _SYMBOLS else _UNITS.get(" ".join(word.lower().split()))


def _half_place(written: str) -> float:
    """Half a unit of the last place ``written`` (canonical) gives: ``4700`` ±50, ``7.6`` ±0.05."""
    if "." in written:
        return 0.5 * 10.0 ** -len(written.split(".", 1)[1])
    zeros = len(written) - len(written.rstrip("0"))
    return 0.5 * 10.0 ** min(zeros, len(written) - 1, 300)  # no float past 1e308


def _kelvins(text: str, start: int, written: str, factor: float) -> tuple[int, str | None]:
    """A temperature's start (a minus sign before it included) and its value in kelvins (None
    for a number that is none: ``1.200,5``)."""
    try:
        number = Decimal(written)
    except InvalidOperation:
        return start, None
    if start > 0 and text[start - 1] in "-−–" and (start == 1 or text[start - 2] in " \t\n(["):
        start, number = start - 1, -number  # not "10°–15°C"
    elif (minus := _MINUS_WORD.search(text, max(0, start - 8), start)) is not None:
        start, number = minus.start(), -number  # "minus 5 degrees Celsius"
    with localcontext() as context:
        context.prec = 80  # a long number a text writes ("10000000000000000000000 °C")
        try:
            if factor != 1.0:  # Fahrenheit
                number = (number - _FAHRENHEIT_ZERO) * 5 / 9
            kelvins = (number + _ZERO_CELSIUS).quantize(Decimal("1e-6"))
        except InvalidOperation:
            return start, None  # longer still: no temperature
    return start, canonical_number(format(kelvins, "f"))


_MINUS_WORD = re.compile(r"(?<!\d )(?<!°C )(?<!°F )(?<!\b[Oo]r )(?<!/)\b(?:[Mm]inus|MINUS)[ ]+$")
"""A minus in words before a temperature (not a subtraction, "5 minus 3 °C", "20 °C minus 2
°C"; not a tolerance, "plus or minus 0.5 °C", "plus/minus")."""
_BELOW_ZERO = re.compile(r"[ ]+below[ ]+zero\b", re.IGNORECASE)
_CHANGE_AFTER = re.compile(
    r"[ ]+(?:above|below|warmer|cooler|colder|hotter|higher|lower|more|less|over|under)\b",
    re.IGNORECASE,
)
_CHANGE_BEFORE = re.compile(
    r"\b(?:by|within|dropp(?:ed|ing)|drops?|f[ae]ll(?:s|ing)?|ros(?:e|es)|rising|climb(?:ed|s)?"
    r"|(?:in|de)creas(?:ed|es|ing)|warm(?:ed|s|ing)|cool(?:ed|s|ing)|plunged|plummeted|soared"
    r"|jumped|gained|lost|up|down|swings?|varies|vary)[ ]+(?:by[ ]+)?"
    r"(?:(?:about|around|nearly|almost|some|roughly|over|more[ ]+than|less[ ]+than)[ ]+)?"
    r"(?:±[ ]?)?[-−–]?$",
    re.IGNORECASE,
)
"""Words that make a temperature a change of one ("warmed by 1 °C", "dropped 5 °C", "1.5 °C
above pre-industrial levels", "5 °F below freezing") or a tolerance ("within 0.5 °C"): no
temperature to convert (a change of 1 °C is one of 1.8 °F, not of 33.8 °F). "Fell to -5 °C"
is a temperature."""


def _spread(
    written: str, factor: float, dimension: str, raw: str, value: float, oven: bool
) -> float:
    """What a measure as written may stand for either side, in the base unit: half a unit of
    its last place; a temperature's whole degrees are degrees ("100 °C" is 99.5 to 100.5), but
    an oven's degrees Celsius (:data:`OVEN_CELSIUS`, beside a word of baking or roasting:
    ``oven``) in whole tens are rounded to tens, as recipes convert them ("180 °C" is 175.5 to
    184.5: 350 °F, 176.7 °C, is written so; 400 °F, 204.4 °C, as "200 °C"); not one written
    with a decimal ("180.0 °C"), nor a melting or ignition point. Fahrenheit figures are the
    ones converted from, and stay whole."""
    if dimension == "temperature":
        decimals = len(written.split(".", 1)[1]) if "." in written else 0
        low, high = OVEN_CELSIUS
        whole = raw.isdigit() and written.endswith("0")  # "180", not "180.0"
        celsius = value - float(_ZERO_CELSIUS)  # "-200 °C" is no oven's
        if factor == 1.0 and whole and oven and low <= celsius <= high:
            return OVEN_SPREAD
        return 0.5 * 10.0**-decimals * factor
    return _half_place(written) * factor


class _Taken:
    """The spans already read as quantities, sorted (none overlap): a new one is checked
    against its two neighbours, not against all (a passage may hold thousands)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        k = bisect.bisect_right(self.starts, start)
        return (k > 0 and self.ends[k - 1] > start) or (
            k < len(self.starts) and self.starts[k] < end
        )

    def add(self, start: int, end: int) -> None:
        k = bisect.bisect_right(self.starts, start)
        self.starts.insert(k, start)
        self.ends.insert(k, end)


_CENTS = re.compile(r"(?<![\w.,$])(\d+(?:\.\d+)?)[ \u00a0]?(?:cents?\b|¢)")
"""An amount in cents (``25 cents``, ``25¢``): a hundredth of the dollars a ``$`` before a number
counts (``$0.25``)."""
_DOZENS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "half a": 0.5}
_DOZEN = re.compile(
    r"\b(a|one|two|three|four|five|half\s+a)[ -]dozen\b",
    re.IGNORECASE | re.ASCII,  # "fıve" (a dotless i) is no "five": each word is a key
)
"""A dozen in words (``a dozen``, ``two dozen``): 12, 24."""
_PERCENT = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)[ \u00a0\u202f]?(?:%|per\s?cent\b|pct\b)")
"""A share in per cent: ``75%``, ``75 percent``, ``75 per cent``."""
_FRACTIONS: dict[str, tuple[float, float]] = {
    "half": (50.0, 50.0),
    "a half": (50.0, 50.0),
    "one half": (50.0, 50.0),
    "a third": (33.0, 34.0),
    "one third": (33.0, 34.0),
    "two thirds": (66.0, 67.0),
    "a quarter": (25.0, 25.0),
    "one quarter": (25.0, 25.0),
    "three quarters": (75.0, 75.0),
    "a fifth": (20.0, 20.0),
    "one fifth": (20.0, 20.0),
    "two fifths": (40.0, 40.0),
    "three fifths": (60.0, 60.0),
    "four fifths": (80.0, 80.0),
    "a tenth": (10.0, 10.0),
    "one tenth": (10.0, 10.0),
}
"""A share in words and what it stands for in per cent (a third: 33% to 34%, as rounded)."""
_FRACTION = re.compile(
    r"\b((?:a|one|two|three|four)[ -](?:half|third|thirds|quarter|quarters|fifth|fifths|tenth)"
    r"|half)(?=\s+of\b)(?!\s+of\s+(?:an?|one)\b)",
    re.IGNORECASE,
)
"""A share in words before ``of`` (``three quarters of voters``, ``half of the staff``); not a
part of a time or a measure (``the second half of 2020``, ``a quarter of a century``)."""
_ONE_IN = re.compile(
    r"(?i:\b(?:one|1)[ ]+in[ ]+(?:every[ ]+)?(two|three|four|five|six|seven|eight|nine|ten"
    r"|twenty|[2-9]|[1-9]\d{1,2})\b)"
)
"""A share as one in so many ("one in five adults", "1 in 10")."""
_ONE_IN_WORDS = {
    w: k for k, w in enumerate("two three four five six seven eight nine ten".split(), start=2)
} | {"twenty": 20}
_NOT_BEFORE_SHARE = re.compile(
    r"\b(?:first|second|third|fourth|last|other|the|this|that|next)\s$", re.IGNORECASE
)
"""A word before "half" that makes it a part of a time ("the second half of 2020")."""


_FRACTION_WORDS = ("half", "third", "thirds", "quarter", "quarters", "fifth", "fifths", "tenth")
_WORD_CUES = re.compile(r"dozen|half|third|quarter|fifth|tenth|\bone in ", re.IGNORECASE)


_DIGIT = re.compile(r"\d")


_SPELLED_UNIT = re.compile(
    rf"[ \u00a0]+((?i:{'|'.join(_WORDS)})|{'|'.join(f for f in _SYMBOLS if len(f) >= 2)})"
    r"\b(?![.,]?\d)"
)
"""A unit after a number written in words ("eighteen minutes", "five km"; a symbol in its own
case only: "five HR managers" is no time)."""
_SPELLED_SHARE = re.compile(r"(?i:[ \u00a0]+(?:per[ ]?cent|pct)\b)")
_NUMBER_WORDS = frozenset(
    """a one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
    hundred thousand million billion trillion""".split()
)
"""The words a number written in words can end with."""
_AFTER_NUMBER_WORDS = frozenset(
    {form.split()[0].lower() for form in _WORDS}
    | {form.lower() for form in _SYMBOLS if len(form) >= 2 and form.isalpha()}
    | {"thousand", "million", "billion", "trillion", "per", "percent", "pct"}
)
"""The first words of what may follow it to make it a quantity (a unit, a scale, "per cent")."""
_ASCII_LETTERS = re.compile(r"[a-z]+")


def _spelled_cue(text: str) -> bool:
    """Whether a number written in words may stand before a unit, a scale or "per cent" in
    ``text`` ("eighteen minutes", "twenty-five thousand", "a million"): a cheap test, in one
    pass over the words, before they are read."""
    words = _ASCII_LETTERS.findall(text.lower())
    if _AFTER_NUMBER_WORDS.isdisjoint(words):
        return False
    return any(
        words[k] in _AFTER_NUMBER_WORDS and words[k - 1] in _NUMBER_WORDS
        for k in range(1, len(words))
    )


_SPELLED_TIME_AFTER = re.compile(
    r"(?i:[ ,]*(?:and[ ]+)?[a-z]+(?:-[a-z]+)?[ ]+"
    r"(?:hrs?|hours?|mins?|minutes?|secs?|seconds?|days?|weeks?)\b)"
)
_SPELLED_TIME_BEFORE = re.compile(
    r"(?i:\b(?:hrs?|hours?|mins?|minutes?|days?|weeks?)[ ,]*(?:and[ ]+)?$)"
)
"""A time in parts written in words ("two hours and ten minutes"): neither part is the time."""


def _may_hold_quantity(text: str) -> bool:
    """Whether ``text`` has a digit, a word that writes a dozen or a share ("one in five"), or
    a number in words with a scale or a unit."""
    return (
        _DIGIT.search(text) is not None or _WORD_CUES.search(text) is not None or _spelled_cue(text)
    )


_PART_OF = re.compile(r"(?i:\b(?:half|quarters?|thirds?|fifths?|tenths?)[ -]+(?:of[ ]+)?$)")
"""A part before a number in words ("half a million"): the number is not the value."""
_SPELLED_DIGITS = "one two three four five six seven eight nine ten eleven twelve".split()
"""The numbers a half is written after in words ("two and a half hours")."""


def _spelled_quantities(text: str) -> list[tuple[int, int, str, tuple[str, float, str]]]:
    """(start, end, the number, its unit) for each number written in words with a scale
    ("twenty-five thousand", "a million": a count), a unit ("eighteen minutes") or "per cent";
    no ordinal ("the third hour"), no part of a time in parts ("two hours and ten minutes"),
    and a number of two scales ("one million two hundred thousand") as a count (not one a year
    may be: "two thousand nineteen")."""
    found = _halves(text)
    if not _spelled_cue(text):
        return found
    for n in spelled_numbers(text):
        if n.ordinal:
            continue
        if n.group is not None:
            if _PART_OF.search(text, max(0, n.start - 24), n.start):
                continue  # "half a million", "three-quarters of a million": a part of it
            found.append((n.start, n.end, str(n.group), ("count", n.value / n.group, "")))
            continue
        if (share := _SPELLED_SHARE.match(text, n.end)) is not None:
            found.append((n.start, share.end(), str(n.value), ("share", 1.0, "")))
            continue
        m = _SPELLED_UNIT.match(text, n.end)
        unit = _unit(m.group(1)) if m is not None else None
        if m is None or unit is None:
            if n.value > 2100:  # not a year ("two thousand nineteen")
                found.append((n.start, n.end, str(n.value), ("count", 1.0, "")))
            continue
        half = _AND_A_HALF.match(text, m.end())
        if half is not None:  # "two hours and a half"
            found.append((n.start, half.end(), f"{n.value}.5", unit))
            continue
        if unit[0] == "duration" and (
            _SPELLED_TIME_AFTER.match(text, m.end())
            or _MORE_TIME.match(text, m.end())
            or _SPELLED_TIME_BEFORE.search(text, max(0, n.start - 16), n.start)
        ):
            continue
        found.append((n.start, m.end(), str(n.value), unit))
    return sorted(found)


_AND_A_HALF = re.compile(r"(?i:[ ]+and[ ]+a[ ]+half\b)")
_HALF_UNITS = "hours?|minutes?|days?|weeks?|miles?|kilometres?|kilometers?|litres?|liters?"
_HALVES = re.compile(
    rf"(?i:\b(?:(?P<number>{'|'.join(_SPELLED_DIGITS)})[ ]+and[ ]+a[ ]+half"
    rf"[ ]+(?P<u1>{_HALF_UNITS})"
    rf"|(?:an?|one)[ ]+(?P<u2>{_HALF_UNITS})[ ]+and[ ]+a[ ]+half"
    rf"|half[ ]+an?[ ]+(?P<u3>{_HALF_UNITS})"
    rf"|(?P<quarters>a|one|three)[ ]+quarters?[ ]+of[ ]+an?[ ]+(?P<u4>{_HALF_UNITS}))\b)"
)
"""A time or a length in halves and quarters written in words: "two and a half hours", "an
hour and a half", "half an hour", "three quarters of an hour", "half a mile"."""


def _halves(text: str) -> list[tuple[int, int, str, tuple[str, float, str]]]:
    """(start, end, the number, its unit) for each time or length in halves or quarters written
    in words (:data:`_HALVES`)."""
    lower = text.lower()
    if "half" not in lower and "quarter" not in lower:
        return []
    found: list[tuple[int, int, str, tuple[str, float, str]]] = []
    for m in _HALVES.finditer(text):
        word = m.group("u1") or m.group("u2") or m.group("u3") or m.group("u4")
        unit = _unit(word if word.lower().endswith("s") else word + "s")
        if unit is None:
            continue
        if m.group("number"):
            number = f"{_SPELLED_DIGITS.index(m.group('number').lower()) + 1}.5"
        elif m.group("quarters"):
            number = "0.75" if m.group("quarters").lower() == "three" else "0.25"
        elif text[m.start() : m.start() + 4].lower() == "half":
            number = "0.5"
        else:
            number = "1.5"
        found.append((m.start(), m.end(), number, unit))
    return found


_JOINS_TIMES = re.compile(r"[ ,]*(?:(?:and|und|et|y|en)[ ]+)?")


_MORE_TIME = re.compile(
    r"[ ,]*(?:and[ ]+)?(?:\d+(?:[.,]\d+)?[ ]?(?:h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?)\b"
    r"|an?[ ]+(?:half|quarter)\b|half[ ]+an?\b)"
    r"|[ ]+(?:et|y)[ ]+(?:demie|quart|media|cuarto)\b",
    re.IGNORECASE,
)
"""What goes on with a time in parts: "2h 30m", "1 min 30 s", "2 hours and a half", "2 heures
et demie", "2 horas y media"."""
_TIME_BEFORE = re.compile(
    r"\d[ ]?(?:h|hrs?|hours?|m|mins?|minutes?|d|days?)[ ,]*(?:and[ ]+)?$", re.IGNORECASE
)


def _compound(text: str, measures: Sequence[tuple[re.Match[str], object]], k: int) -> bool:
    """Whether duration ``k`` is one part of a time written in parts ("2 hours 10 minutes",
    "2 h 1 min 9 s", "1 hour and 5 minutes", "2h 30m", "2 hours and a half")."""
    m = measures[k][0]
    if _MORE_TIME.match(text, m.end()) or _TIME_BEFORE.search(
        text, max(0, m.start() - 16), m.start()
    ):
        return True
    for j in (k - 1, k + 1):
        if 0 <= j < len(measures):
            other, unit = measures[j]
            a, b = (other.end(), m.start()) if j < k else (m.end(), other.start())
            duration = isinstance(unit, tuple) and unit[0] == "duration"
            first = other if j < k else m
            short = len(first.group(2)) <= 3  # "2 Std. 30 Min.": an abbreviation's point
            joined = _JOINS_TIMES.fullmatch(text, a, b) or (
                short and _ABBREVIATED.fullmatch(text, a, b)
            )
            if duration and joined:
                return True
    return False


def quantities(text: str, *, plain: bool = True) -> list[Quantity]:
    """The scaled numbers, metric measures and (with ``plain``) plain numbers of ``text``, by
    position; a plain number is one no scale or unit follows. Spans are into ``text``."""
    if not _may_hold_quantity(text):
        return []
    found: list[Quantity] = []
    taken = _Taken()
    comma = decimal_comma(text)

    def add(
        start: int, end: int, raw: str, unit: tuple[str, float, str], *, decimal: bool = False
    ) -> None:
        dimension, factor, system = unit
        written = canonical_number(raw, comma or decimal)
        if dimension == "temperature":
            start, value = _kelvins(text, start, written, factor)
        else:
            value = scaled_value(written, factor)
        if value is None or taken.overlaps(start, end):
            return
        taken.add(start, end)
        oven = dimension == "temperature" and _OVEN.search(text, max(0, start - 80), end + 80)
        spread = (
            _spread(written, factor, dimension, raw, float(value), oven is not None)
            if system
            else 0.0
        )
        low, high = float(value) - spread, float(value) + spread
        found.append(Quantity(start, end, value, dimension, written, False, system, low, high))

    for start, end, raw, factor in scaled_matches(text):
        add(start, end, raw, ("count", factor, ""))
    measures = [(m, _unit(m.group(2))) for m in _MEASURE.finditer(text)]
    for k, (m, unit) in enumerate(measures):
        if unit is None or (unit[0] == "duration" and _compound(text, measures, k)):
            continue  # "2 hours 10 minutes": neither part alone is the time
        if unit[0] == "temperature":
            below = _BELOW_ZERO.match(text, m.end())
            if below is not None:  # "5 °C below zero" is -5 °C
                add(m.start(), below.end(), f"-{m.group(1)}", unit)
                continue
            if _CHANGE_AFTER.match(text, m.end()) or _CHANGE_BEFORE.search(
                text, max(0, m.start() - 40), m.start()
            ):
                continue  # "warmed by 1 °C", "1.5 °C above pre-industrial": a change, no degree
        # "1.500 Minuten": a German (French, Spanish, Dutch) unit's number writes its thousands
        # with dots, whatever the text's other words say
        thousands = m.group(2).lower() in _DECIMAL_COMMA_UNITS and bool(
            _DOT_THOUSANDS.fullmatch(m.group(1))
        )
        add(m.start(), m.end(), m.group(1), unit, decimal=thousands)
    for start, end, number, unit in _spelled_quantities(text):
        add(start, end, number, unit)
    lower = text.lower()  # words the patterns need, looked for first (a long passage's cost)
    for m in _CENTS.finditer(text) if " cent" in lower or "¢" in text else ():
        add(m.start(), m.end(), m.group(1), ("count", 0.01, "cent"))
    for m in _DOZEN.finditer(text) if "dozen" in lower else ():
        many = _DOZENS[" ".join(m.group(1).lower().split())]
        add(m.start(), m.end(), str(many * 12), ("count", 1.0, "dozen"))
    shares = "%" in text or "percent" in lower or "per cent" in lower or "pct" in lower
    for m in _PERCENT.finditer(text) if shares else ():
        add(m.start(), m.end(), m.group(1), ("share", 1.0, ""))
    fractions = any(f"{word} of" in lower for word in _FRACTION_WORDS)
    for m in _FRACTION.finditer(text) if fractions else ():
        share = _FRACTIONS.get(" ".join(m.group(1).lower().replace("-", " ").split()))
        if _NOT_BEFORE_SHARE.search(text, max(0, m.start() - 8), m.start()):
            continue
        if share is not None and not taken.overlaps(*m.span(1)):
            low, high = share
            taken.add(*m.span(1))
            middle = canonical_number(f"{(low + high) / 2:.1f}")
            share_of = Quantity(*m.span(1), middle, "share", middle, False, "fraction", low, high)
            found.append(share_of)
    for m in _ONE_IN.finditer(text) if " in " in lower else ():
        if taken.overlaps(m.start(), m.end()):
            continue
        many = _ONE_IN_WORDS.get(m.group(1).lower()) or int(m.group(1))
        part = 100.0 / many
        middle = canonical_number(f"{part:.1f}")
        taken.add(m.start(), m.end())
        found.append(
            Quantity(
                m.start(),
                m.end(),
                middle,
                "share",
                middle,
                False,
                "fraction",
                part - 0.5,
                part + 0.5,
            )
        )
    for start, end in number_spans(text) if plain else ():
        raw = text[start:end]
        if raw.endswith("%") or taken.overlaps(start, end):
            continue
        written = canonical_number(raw, comma)
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
def _quantities_once(text: str) -> tuple[Quantity, ...]:
    """A text's quantities, once per text: a passage is read against every claim it may back,
    a claim against every passage."""
    return tuple(quantities(text))


@lru_cache(maxsize=8192)
def as_written_in(claim: str, passage: str) -> str:
    """``claim`` with each quantity the passage states in another form written as the passage
    writes it: "It had 1.2 million users." against "... 1,200,000 users ..." reads "It had
    1,200,000 users."; "It is 1.82 km long." against "... 1,820 metres ..." reads "It is 1,820
    metres long."; "It took 2.5 hours." against "... 150 minutes ..." reads "It took 150
    minutes."; a full date likewise ("on 21/01/1793" against "on 21 January 1793"), and a
    quarter, half or fiscal year ("Q4 FY2025" against "the fourth quarter of fiscal 2025":
    :func:`attribution.text.period_edits`), and a state written as the negation of its
    opposite ("is disabled" against "... is not enabled ...", "found no" against "did not
    find any": :func:`attribution.text.polarity_edits`). Only a scaled number, a measure, a
    share, a dozen, a date, a reporting period or such a state, on either side, is rewritten,
    and only to the same quantity (:func:`same_quantity`), day, period or state; everything
    else is left as it is (the claim itself when nothing changes). Cached: the verbatim rule
    and the judge read the same pair."""
    edits = [
        (start, end, _cased(claim, start, written))
        for start, end, written in period_edits(claim, passage)
    ]
    edits += [
        e
        for e in polarity_edits(claim, passage)
        if not any(e[0] < b and a < e[1] for a, b, _ in edits)
    ]
    if not _may_hold_quantity(claim) or not _may_hold_quantity(passage):
        if _SPELLED_ANY.search(claim) or _SPELLED_ANY.search(passage):  # "eighteen members"
            mine, theirs = _quantities_once(claim), _quantities_once(passage)
            edits += _count_edits(claim, mine, passage, theirs, edits)
        return _edited(claim, edits)
    taken = list(edits)  # no date is read inside a period ("Q3 2024")
    edits += [
        e
        for e in _date_edits(claim, passage)
        if not any(e[0] < b and a < e[1] for a, b, _ in taken)
    ]
    edits += [
        e
        for e in _decade_edits(claim, passage) + _clock_edits(claim, passage)
        if not any(e[0] < b and a < e[1] for a, b, _ in edits)
    ]
    mine = _quantities_once(claim)
    theirs = _quantities_once(passage) if mine else ()
    edits += _range_edits(claim, mine, passage, theirs, edits)
    for q in mine:
        if _ends_range(claim, q.start) or claim[q.start : q.end] in passage:
            continue  # "5-10 km": one end alone is no quantity; the passage's own form stays
        if any(q.start < end and start < q.end for start, end, _ in edits):
            continue  # a number of a date
        dollars = q.plain and claim[q.start - 1 : q.start] == "$"
        match = next(
            (
                t
                for t in theirs
                if not (q.plain and (t.plain or t.system == "dozen"))  # "12 May": no dozen
                and same_quantity(q, t)
                and not _ends_range(passage, t.start)
                and not _starts_range(passage, t.end)  # "50% to 60%" is no 50%
                and (  # "a third of" is "33% of", not "hit 33%"
                    "fraction" not in (q.system, t.system)
                    or (_share_of(claim, q) and _share_of(passage, t))
                )
                and not _ONE_IN.match(claim, q.start)  # "one in five adults": not "20% adults"
                and not _ONE_IN.match(passage, t.start)
                and (t.system != "cent" or dollars)  # "$0.25" is 25 cents; "0.25" alone is not
                and (q.system != "cent" or passage[t.start - 1 : t.start] == "$")
                and not (q.plain and _glued(claim, q))  # "24/7", "01/06/2021"
                and not (t.plain and _glued(passage, t))
                and (
                    not (_COMMON & {q.dimension, q.system, t.dimension, t.system})
                    or _same_context(claim, q, passage, t)
                )
            ),
            None,
        )
        if match is None:
            continue
        written = passage[match.start : match.end]
        if written[:1].isalpha() and q.start and claim[q.start - 1] in _SIGNS:
            continue  # "$450 million" is not "$four hundred and fifty million"
        start = q.start - 1 if match.system == "cent" else q.start  # "$0.25": the sign goes too
        if q.system == "cent":
            written = "$" + written  # "25 cents" as "$0.25"
        written = _cased(claim, start, written)  # "Two-thirds of" inside the claim
        if written != claim[start : q.end]:
            edits.append((start, q.end, written))
    edits += _time_edits(claim, mine, passage, edits)
    edits += _round_edits(claim, mine, passage, theirs, edits)
    edits += _count_edits(claim, mine, passage, theirs, edits)
    return _edited(claim, edits)


def _same_next(claim: str, q: Quantity, passage: str, t: Quantity) -> bool:
    """Whether the first content word after the claim's value, if any, is the first after the
    passage's ("45 languages" and "110 million copies" are not)."""
    after = _terms_after(claim, q.end)
    return not after or _terms_after(passage, t.end)[:1] == after[:1]


_STANDALONE_BEFORE = re.compile(r"(?:^|[\s(\"“‘])$")
_NEXT_WORD = re.compile(r"[ ]+([^\W\d_]+)")


def _next_word(text: str, q: Quantity) -> str | None:
    """The word right after a count that stands alone (a blank or an opening mark before it, a
    blank and a word after it), stemmed, or None: "12 publishers" gives "publish"; "[3]",
    "2Pac", "5–4", "4. Turn", "top ten of", "Maroon 5", "3 Musketeers" give None."""
    if not _STANDALONE_BEFORE.search(text[max(0, q.start - 1) : q.start]):
        return None
    m = _NEXT_WORD.match(text, q.end)
    if m is None or m.group(1).lower() in STOPWORDS or m.group(1)[:1].isupper():
        return None  # "3 Musketeers", "10 Downing Street": a name
    named = _NAME_BEFORE.search(text, max(0, q.start - 40), q.start)
    if named is not None and not _opens_sentence(text, named.start()):
        return None  # "the Apollo 11 crew"
    if text[q.start].isupper() and not _opens_sentence(text, q.start):
        return None  # "Maroon Five": a number in words with a capital inside a sentence
    return stem(m.group(1).lower())


_NAME_BEFORE = re.compile(r"[A-Z][\w'’-]*[ ]+$")


def _opens_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` opens its sentence (nothing but a mark of the sentence's end,
    a quote or a blank before it)."""
    before = text[max(0, at - 3) : at].rstrip(' "“‘(')
    return not before or before.endswith((".", "!", "?", ":", "\n"))


def _count_edits(
    claim: str,
    mine: Sequence[Quantity],
    passage: str,
    theirs: Sequence[Quantity],
    taken: Sequence[tuple[int, int, str]],
) -> list[tuple[int, int, str]]:
    """(start, end, the passage's form) for each plain count of the claim the passage writes,
    before the same word (:func:`_next_word`), the other way, in words or in digits: "turned
    down by 12 publishers" against "rejected by twelve publishers" reads "turned down by twelve
    publishers" (a small judge read the two as a contradiction, 0.91), and "twelve" against
    "12" likewise. Two or more only (not "one"), no year, no part of a date, a name, a marker,
    a range or a measure."""

    def counts(text: str, found: Sequence[Quantity]) -> list[Quantity]:
        spelled = [
            Quantity(n.start, n.end, str(n.value), "count", str(n.value), True)
            for n in spelled_numbers(text)
            if not n.ordinal and n.group is None and n.value >= 2
        ]
        measured = _Taken()
        for q in found:
            if not q.plain and not measured.overlaps(q.start, q.end):
                measured.add(q.start, q.end)
        return [q for q in spelled if not measured.overlaps(q.start, q.end)]

    if not _SPELLED_ANY.search(claim) and not _SPELLED_ANY.search(passage):
        return []
    words_mine, words_theirs = counts(claim, mine), counts(passage, theirs)
    if not words_mine and not words_theirs:
        return []
    digits_mine = [q for q in mine if q.plain and not _glued(claim, q)]
    digits_theirs = [t for t in theirs if t.plain and not _glued(passage, t)]
    edits: list[tuple[int, int, str]] = []
    for side_mine, side_theirs in ((words_mine, digits_theirs), (digits_mine, words_theirs)):
        for q in side_mine:
            if any(q.start < b and a < q.end for a, b, _ in taken) or _YEAR.fullmatch(
                claim, q.start, q.end
            ):
                continue
            word = _next_word(claim, q)
            if word is None:
                continue
            same = [t for t in side_theirs if t.value == q.value and _next_word(passage, t) == word]
            if len(same) == 1:
                written = _cased(claim, q.start, passage[same[0].start : same[0].end])
                edits.append((q.start, q.end, written))
    return edits


_SPELLED_ANY = re.compile(
    r"(?i:\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|\w+ty"
    r"|hundred|thousand)\b)"
)
"""A word that may write a count ("twelve", "forty"): a cheap test before the words are read."""


ROUND_SHARE = 0.05
"""How far a value may lie from a claim's round figure ("about 1.6 km", "nearly half") for the
claim to be read with it, as a share of the figure (or the figure's own rounding, if more, up
to twice that share; five points for a share in words)."""
_STRICT = re.compile(r"(?i:more|over|greater|longer|excess|north|under|less|fewer|below)")
"""A bound's words that leave its own value out ("more than 30" is not 30)."""


def _within(bound: str, strict: bool, x: float, y: float, slack: float) -> bool:
    """Whether the value ``y`` is what a claim's ``x`` bounded as ``bound`` says."""
    if bound == "roughly":
        return abs(y - x) <= slack
    if bound == "nearly":
        return y <= x and x - y <= slack
    if bound == "at least":  # "more than 45 languages" is not 110 million of them
        return (y > x or (y == x and not strict)) and y <= BOUND_REACH * x
    return (y < x or (y == x and not strict)) and y * BOUND_REACH >= x  # "up to"


BOUND_REACH = 2.0
"""How far past a claim's bound ("more than 30", "up to 18 minutes") the passage's value may
lie for the claim to be read with it: at most twice a lower bound, half an upper one."""


def _round_edits(
    claim: str,
    mine: Sequence[Quantity],
    passage: str,
    theirs: Sequence[Quantity],
    taken: Sequence[tuple[int, int, str]],
) -> list[tuple[int, int, str]]:
    """(start, end, the passage's value) for each round figure or bound of the claim ("about
    1.6 km", "nearly half", "at least 30", "more than £40k", "under 10 seconds") where the
    passage gives one exact value it holds for the claim's fact (:func:`_rounded_by`): the
    claim is read with that value, its bound words gone. "The bridge is about 1.6 km long."
    against "The bridge is 1,596 metres long." reads "The bridge is 1,596 metres long."; "At
    least 30 people were hurt." against "34 people were hurt" reads "34 people were hurt." (a
    small judge read such claims as contradicted, 0.2-0.3). None where the passage gives the
    claim's own value anywhere, or the bound names a group ("children under 12", "companies
    with over 50 employees": :data:`_BOUND_AFTER`)."""
    edits: list[tuple[int, int, str]] = []
    if len(mine) * len(theirs) > _MOST_PAIRS:
        return edits  # a table of values: the judge's to read
    for q in mine:
        bound, start = _bound(claim, q)
        if bound is None or any(start < b and a < q.end for a, b, _ in taken):
            continue
        if q.plain and _YEAR.fullmatch(claim, q.start, q.end):
            continue  # "around 2019", "after 2019": a year
        if bound in ("at least", "up to") and not _states_bound(claim, start):
            continue  # "children under 12": a group, not a figure
        if any(same_quantity(q, t) for t in theirs):
            continue  # "At least 20 were killed; 35 were hurt": the passage's own 20
        near = [t for t in theirs if _rounded_by(claim, q, bound, start, passage, t, theirs)]
        if len(near) != 1:
            near = _sole_near(claim, q, bound, start, passage, theirs)
        if len(near) != 1:
            continue
        t = near[0]
        written = passage[t.start : t.end]
        if _bound(passage, t)[0] is not None:  # "roughly 500 km" for "about 495 km": the
            # claim's hedge stays ("roughly 495 km"), the passage's value in it
            start = q.start - 1 if q.start and claim[q.start - 1] in _SIGNS else q.start
        sign = claim[q.start - 1 : q.start] if q.start else ""
        theirs_sign = passage[t.start - 1 : t.start] if t.start else ""
        if sign in _SIGNS or theirs_sign in _SIGNS:
            if sign in _SIGNS and theirs_sign in _SIGNS and sign != theirs_sign:
                continue  # "more than £40k" is no "$42,300"
            written = (theirs_sign if theirs_sign in _SIGNS else sign) + written
        edits.append((start, q.end, _cased(claim, start, written)))
    return edits


def _rounded_by(
    claim: str,
    q: Quantity,
    bound: str | None,
    start: int,
    passage: str,
    t: Quantity,
    theirs: Sequence[Quantity],
) -> bool:
    """Whether the passage's exact value ``t`` is what the claim's round figure or bound
    ``q`` (its words from ``start``) says: of the claim's kind, not a year, no bound of its
    own ("6 years and older"), within the figure (:data:`ROUND_SHARE` of it, or its own
    rounding up to twice that; "nearly" from below; a bound as :func:`_within` says), before
    the same word (:func:`_same_context`, :func:`_same_next`), the only value of its kind in
    a clause that says the claim's fact."""
    if _bound(passage, t)[0] is not None or not _may_round_to(claim, q, bound, start, passage, t):
        return False
    if not _same_context(claim, q._replace(start=start), passage, t):
        return False
    if not _same_next(claim, q, passage, t):
        return False
    a, b = _fact_clause(passage, t.start)
    if sum(u.dimension == t.dimension and a <= u.start < b for u in theirs) > 1:
        return False  # "1,000 homes in Leeds and 980 in York": which one is not plain
    return _says_fact(passage, t.start, _fact_terms(claim, start, q.end))


ROUND_CLOSE = 0.01
"""How far a value may lie from a claim's round figure, as a share of the figure, for the
figure to be read as it where the words around differ, if the figure's own rounding allows
less ("about 225 g" is 226 g)."""


def _may_round_to(
    claim: str,
    q: Quantity,
    bound: str | None,
    start: int,
    passage: str,
    t: Quantity,
    *,
    own: bool = False,
) -> bool:
    """Whether the passage's value ``t`` may be what the claim's round figure or bound ``q``
    (its words from ``start``) says, by kind and value alone: of the claim's kind, not a year,
    within the figure (:data:`ROUND_SHARE` of it, or its own rounding up to twice that; with
    ``own``, its own rounding or :data:`ROUND_CLOSE` of it only, up to twice that share:
    "approximately 17.9 million" is no 17.5 million, "about 100" no 145; "nearly" from
    below; a bound as :func:`_within` says)."""
    if t.dimension != q.dimension or not (t.plain == q.plain or q.dimension == "count"):
        return False
    if t.system not in ("", "metric", "imperial"):
        return False
    if t.plain and (_YEAR.fullmatch(passage, t.start, t.end) or _glued(passage, t)):
        return False
    x, y = float(q.value), float(t.value)
    if not (math.isfinite(x) and math.isfinite(y)):
        return False
    if q.system == "fraction":
        slack = 5.0
    else:
        size = _size(q)  # "about 20 °C": a share of 20 degrees, not of 293 kelvins
        rounding = _half_place(q.written) * _scale(q)
        most = min(rounding, 2 * ROUND_SHARE * size)  # "about 100" is no 145
        slack = max(ROUND_CLOSE * size, most) if own else max(ROUND_SHARE * size, most)
    strict = _STRICT.search(claim, start, q.start) is not None
    return _within(bound or "roughly", strict, x, y, slack)


def _sole_near(
    claim: str,
    q: Quantity,
    bound: str | None,
    start: int,
    passage: str,
    theirs: Sequence[Quantity],
) -> list[Quantity]:
    """The passage's one value the claim's round figure or bound may be, within the figure's
    own rounding (:func:`_may_round_to`: "roughly 485,000" is 484,507, not 494,989), where the
    words around differ ("Greater Manchester had nearly 2.9 million people" and "the population
    of Greater Manchester was 2,867,800"): in a clause of the claim's frame that holds half the
    claim's words (:data:`FOLLOW_COVERAGE`). A round figure of the passage ("about 495 km")
    stands for a claim's ("roughly 500 km"); its bounds do not. A bound ("more than 53,000")
    only for a value a place of its figure past it (twice :data:`ROUND_SHARE` at most), the
    only one of its kind in its clause."""

    def fits(t: Quantity) -> bool:
        their_bound = _bound(passage, t)[0]
        if their_bound is not None and (their_bound, bound) != ("roughly", "roughly"):
            return False
        return _may_round_to(claim, q, bound, start, passage, t, own=True)

    near = [t for t in theirs if fits(t)]
    if len(near) != 1:
        return []
    t = near[0]
    before = _lead(claim, start)
    trail = _trail(claim, q.end)
    for u in theirs:
        if u is t or u.dimension != q.dimension:
            continue
        if before is not None and _leads_alike(
            claim, start, before, passage, _bound(passage, u)[1]
        ):
            return []  # "The company employs about 5,000": "The company employs 12,000 ... 4,970"
        if trail is not None and _words_following(passage, u.end, len(trail)) == trail:
            return []  # "Nearly 200 were hurt": "killed 196 people, and 310 people were hurt"
    mine_next, their_next = _next_terms(claim, q.end)[:1], _next_terms(passage, t.end)[:2]
    counted = claim[start : q.start].rstrip()[-1:] not in _SIGNS  # money: what it buys, no kind
    if counted and mine_next and their_next and mine_next[0] not in their_next:
        return []  # "about 120,000 residents": not "118,400 registered voters"
    words = set(content_terms(_sentence_of(claim, start)))
    own = set(_next_terms(passage, t.end))
    first, last = _sentence_span(passage, t.start)
    if any(
        u is not t
        and u.dimension == q.dimension
        and first <= u.start < last
        and (set(_next_terms(passage, u.end)) & words) - own
        for u in theirs
    ):
        return []  # "about $300 million worldwide": "$296 million in North America and $410
        # million worldwide"; "nearly 500 flights on Monday": "480 on Sunday and 1,100 on Monday"
    if not _years_after(passage, t) <= set(_YEAR.findall(_sentence_of(claim, start))):
        return []  # "about 20,000 residents": "had 19,700 residents in 1990; today 31,000"
    a, b = _fact_clause(passage, t.start)
    reach = min(_last_place(q), 2 * ROUND_SHARE * _size(q))
    if bound in ("at least", "up to") and (  # "more than 100 died": not 150 hurt and 80 died
        abs(float(t.value) - float(q.value)) > reach
        or any(u is not t and u.dimension == t.dimension and a <= u.start < b for u in theirs)
    ):
        return []
    terms = _fact_terms(claim, start, q.end)
    held = set(content_terms(passage[a:b]))
    if not terms or sum(w in held for w in terms) < FOLLOW_COVERAGE * len(terms):
        return []
    return [] if _other_frame(claim, q.start, q.end, passage, t.start) else [t]


_BOUND_AFTER = frozenset(
    """is are was were be been being has have had take takes took taken last lasts cost costs
    run runs ran sell sells sold raise raises reach reaches hit hits grow grows grew rise
    rises rose fall falls fell drew draws draw earn earns earned make makes made spend spends
    spent weigh weighs weighed measure measures in for by of at to from""".split()
)
"""Words after which a bound states a figure ("lasted more than 3 hours", "in under 10
seconds", "a salary of more than £40k"), as a word in -ed does; after any other ("children
under 12", "companies with over 50 employees") it may name a group."""


def _states_bound(claim: str, start: int) -> bool:
    """Whether the bound at ``start`` states a figure: it opens the sentence, or follows a word
    of :data:`_BOUND_AFTER` or one in -ed."""
    before = _words_before(claim, start, 1)
    return not before or before[0] in _BOUND_AFTER or before[0].endswith("ed")


_SIGNS = frozenset("$€£¥")


def _cased(claim: str, start: int, written: str) -> str:
    """A passage's words for a claim's value at ``start``: with a capital where they open the
    claim's sentence, else without ("Third-quarter 2024" inside "In Q3 2024, ...")."""
    first = written.split(" ", 1)[0]
    if not written[:1].isalpha() or (len(first) > 1 and first.isupper()):  # "$5", "FY2025", "Q4"
        return written
    before = claim[:start].rstrip()
    opens = not before.strip(_OPENERS) or before.endswith((".", "!", "?", ":"))
    return (str.upper if opens else str.lower)(written[0]) + written[1:]


def _edited(claim: str, edits: Sequence[tuple[int, int, str]]) -> str:
    """``claim`` with the disjoint ``edits`` (start, end, replacement) made."""
    if not edits:
        return claim
    pieces: list[str] = []
    cursor = 0
    for start, end, written in sorted(edits):
        pieces += [claim[cursor:start], written]
        cursor = end
    return "".join([*pieces, claim[cursor:]])


_OPENERS = " \"“‘'(*_-•>"
"""What may stand before a sentence's first word: quotes, brackets, emphasis, a list's mark."""
_COMMON = frozenset({"duration", "temperature", "share", "dozen", "cent", "fraction"})
"""Kinds of quantity with values that recur in one text (50%, half, 2 weeks, 12): one of them
is read in the passage's form only where the words around it are the claim's too."""
_CONTEXT_CHARS = 60
_CONTEXT_WORDS = 2


def _same_context(claim: str, q: Quantity, passage: str, t: Quantity) -> bool:
    """Whether the claim's quantity and the passage's are of the same thing: the first content
    word after the claim's is among the first two after the passage's, up to the next number or
    the sentence's end; where nothing follows the claim's, the last word before the claim's is
    among the last two before the passage's, which gives no other value after its own. "Three
    quarters of voters" and "75 percent of registered voters", "The flight takes 2.5 hours."
    and "The flight takes 150 minutes."; not "The vaccine was 50% effective." and "Half of the
    participants ...", nor "reached 104 °F in Phoenix" and "40 °C in Dallas and 45 °C in
    Phoenix". Else, :func:`_same_clause`."""
    return _same_neighbours(claim, q, passage, t) or _same_clause(claim, q, passage, t)


def _same_neighbours(claim: str, q: Quantity, passage: str, t: Quantity) -> bool:
    after = _terms_after(claim, q.end)
    theirs = _terms_after(passage, t.end)
    if after:
        return after[0] in theirs[:_CONTEXT_WORDS]
    before = _terms_before(claim, q.start)
    if not before:
        return True  # "It was -40 °F.": nothing to compare
    if theirs and _NUMBER_AHEAD.match(passage, t.end):
        return False  # "semi-final lasted 4 hours." and "lasted 240 minutes and his semi-final 3"
    if _COMPARED.match(passage, t.end):
        return False  # "takes 2.5 hours." and "takes 150 minutes longer than the flight"
    return before[-1] in _terms_before(passage, t.start)[-_CONTEXT_WORDS:]


def _same_clause(claim: str, q: Quantity, passage: str, t: Quantity) -> bool:
    """Whether the passage's value is the only number of its clause, which holds two content
    words of the claim's clause and compares nothing: "Earnings were 87 cents per share." and
    "GAAP earnings per share were $0.87." (the words in another order)."""
    if _COMPARED.match(passage, t.end):
        return False
    a, b = _clause(passage, t.start, t.end)
    if _DIGIT.search(passage, a, t.start) or _DIGIT.search(passage, t.end, b):
        return False  # another value in the clause: which one the words go with is not sure
    c, d = _clause(claim, q.start, q.end)
    mine = {w for w in content_terms(claim[c : q.start] + " " + claim[q.end : d]) if w.isalpha()}
    theirs = set(content_terms(passage[a : t.start] + " " + passage[t.end : b]))
    return len(mine & theirs) >= _CLAUSE_WORDS


_CLAUSE_WORDS = 2
_CLAUSE_END = re.compile(r"[.;!?](?:\s|$)|\n")


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause (up to a full stop, a semicolon or a line's end) around ``text[start:end]``."""
    before = text[max(0, start - 300) : start]
    stops = list(_CLAUSE_END.finditer(before))
    a = max(0, start - 300) + stops[-1].end() if stops else max(0, start - 300)
    stop = _CLAUSE_END.search(text, end, end + 300)
    return a, stop.start() if stop else min(len(text), end + 300)


_UP_TO_NUMBER = re.compile(r"\d|[.;!?](?:\s|$)")
_COMPARED = re.compile(
    r"[ \t]*(?:longer|shorter|more|less|fewer|earlier|later|than|above|below|over|under|after"
    r"|before|higher|lower|faster|slower|extra|ago)\b",
    re.IGNORECASE,
)
"""A word after a quantity that makes it a difference: "150 minutes longer than the flight"."""
_NUMBER_AHEAD = re.compile(r"[^\d.;!?]{1,60}\d")
"""Words and then another number in the same sentence: the passage lists values of things."""
_FROM_NUMBER = re.compile(r".*(?:\d|[.;!?]\s)", re.DOTALL)


def _terms_after(text: str, end: int) -> list[str]:
    """The content words after ``end`` up to the next number or the sentence's end."""
    after = text[end : end + _CONTEXT_CHARS]
    stop = _UP_TO_NUMBER.search(after)
    return content_terms(after[: stop.start()] if stop else after)


def _terms_before(text: str, start: int) -> list[str]:
    """The content words before ``start`` back to the number or the sentence's end before."""
    before = text[max(0, start - _CONTEXT_CHARS) : start]
    cut = _FROM_NUMBER.match(before)
    return content_terms(before[cut.end() :] if cut else before)


_GLUED = re.compile(r"\d[/:.-]$|^[/:.-]\d|^-[^\W\d_]")
"""A number glued to another by a slash, colon, dot or dash ("01/06/2021", "24/7", "2:30"), or
to a word by a dash ("12-year-old"): a part of a date, a ratio, a time or a word, no count."""


def _glued(text: str, q: Quantity) -> bool:
    return bool(_GLUED.search(text[max(0, q.start - 2) : q.start])) or bool(
        _GLUED.search(text[q.end : q.end + 2])
    )


_RANGE_JOIN = re.compile(r"[ \t]*(?:-|–|—|to|and|through)[ \t]*[$€£¥]?", re.IGNORECASE)
_RANGE_LEAD = re.compile(r"(?:between|from)[ \t]+[$€£¥]?$|[$€£¥]$", re.IGNORECASE)


class _Range(NamedTuple):
    start: int
    end: int
    low: float
    high: float
    dimension: str


def _ranges(text: str, found: Sequence[Quantity]) -> list[_Range]:
    """The ranges of ``text``: two quantities joined by a dash, "to" or "and", the first end
    taking the second's scale or unit where it has none ("$4.9–5.0 billion", "5-10 km"); the
    span takes "between" or "from" and a currency sign before it."""
    out: list[_Range] = []
    for a, b in itertools.pairwise(found):
        if b.plain or not _RANGE_JOIN.fullmatch(text, a.end, b.start):
            continue
        if not a.plain and a.dimension != b.dimension:
            continue
        try:
            scale = float(b.value) / float(b.written) if b.dimension != "temperature" else 1.0
            low = float(a.value) if not a.plain else float(a.written) * scale
            high = float(b.value)
        except (ValueError, ZeroDivisionError):
            continue
        if b.dimension == "temperature" and a.plain:
            continue  # "10–15 °C": the first end's kelvins are not its number times a scale
        lead = _RANGE_LEAD.search(text, max(0, a.start - 10), a.start)
        start = lead.start() if lead is not None else a.start
        if low < high:
            out.append(_Range(start, b.end, low, high, b.dimension))
    return out


def _range_edits(
    claim: str,
    mine: Sequence[Quantity],
    passage: str,
    theirs: Sequence[Quantity],
    taken: Sequence[tuple[int, int, str]],
) -> list[tuple[int, int, str]]:
    """(start, end, the passage's form) for each range of the claim the passage gives in
    another form: "guided revenue of $4.9–5.0 billion" against "between $4.90 billion and
    $5.00 billion" reads "guided revenue of between $4.90 billion and $5.00 billion"."""
    if len(mine) < 2 or len(theirs) < 2:
        return []
    edits: list[tuple[int, int, str]] = []
    ranges = _ranges(passage, theirs)
    for r in _ranges(claim, mine):
        if any(r.start < b and a < r.end for a, b, _ in taken):
            continue
        same = next(
            (
                t
                for t in ranges
                if t.dimension == r.dimension and _close(t.low, r.low) and _close(t.high, r.high)
            ),
            None,
        )
        written = passage[same.start : same.end] if same is not None else None
        if written is not None and written != claim[r.start : r.end]:
            edits.append((r.start, r.end, written))
    return edits


def range_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states a range the passage gives with one end the same and the other
    not: "$5.1 billion to $5.5 billion" against "between $5.1 billion and $5.3 billion" (a small
    judge reads the two as one, 0.97); or another range, neither inside the other, after the
    same words (:func:`_lead`) in a clause that says the claim's fact: "The battery lasts 12 to
    14 hours." against "The battery lasts 10-12 hours." (0.65)."""
    mine = _quantities_once(claim)
    claimed = _ranges(claim, mine) if len(mine) > 1 else []
    if not claimed:
        return False
    given = _ranges(passage, _quantities_once(passage))
    if len(claimed) * len(given) > _MOST_PAIRS:
        return False  # a table of ranges: the judge's to read
    for r in claimed:
        alike = [t for t in given if t.dimension == r.dimension]
        if any(_close(t.low, r.low) and _close(t.high, r.high) for t in alike):
            continue
        if any(_close(t.low, r.low) != _close(t.high, r.high) for t in alike):
            return True
        before = _lead(claim, r.start)
        if before is None:
            continue
        rest = _fact_terms(claim, r.start, r.end)
        after = _words_after(claim, r.end)[:2]  # "of moderate exercise", "of vigorous exercise"
        for t in alike:
            if not all(w in _words_after(passage, t.end)[:4] for w in after):
                continue
            nested = (t.low <= r.low and r.high <= t.high) or (r.low <= t.low and t.high <= r.high)
            if nested or not _leads_alike(claim, r.start, before, passage, t.start):
                continue
            if _says_fact(passage, t.start, rest) and not _other_frame(
                claim, r.start, r.end, passage, t.start
            ):
                return True
    return False


def sign_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states a temperature the passage gives with the other sign only:
    "Lows reached 5 °C." against "Lows reached -5 °C." (a small judge reads a minus sign past).
    A passage that also gives the claim's temperature, in any unit, is no conflict."""
    mine = [q for q in _quantities_once(claim) if q.dimension == "temperature"]
    if not mine:
        return False
    theirs = [t for t in _quantities_once(passage) if t.dimension == "temperature"]
    for q in mine:
        degrees = _degrees(q)
        if degrees == 0 or any(same_quantity(q, t) for t in theirs):
            continue
        if any(t.system == q.system and math.isclose(_degrees(t), -degrees) for t in theirs):
            return True
    return False


_JOINS_PARTS = re.compile(r"[ ]*(?:(?:and|und|et|y|en)[ ]+)?")
"""What joins two parts of one time: a blank or "and" ("2 hours 10 minutes", "1 hour and 5
minutes"); a comma lists times ("2 hours, 3 hours for the second leg")."""
_HALF_MORE = re.compile(
    r"[ ]+(?:(?:and[ ]+)?(?:an?[ ]+(?:half|quarter)|half[ ]+an?)|(?:et|y)[ ]+(?:demie|quart"
    r"|media|cuarto))\b",
    re.I,
)
"""A half or a quarter more: "2 hours and a half", "2 heures et demie", "2 horas y media"."""
_ABBREVIATED = re.compile(r"\.[ ]*(?:(?:and|und|et|y|en)[ ]+)?")
"""What joins two parts where the first is abbreviated: "2 Std. 30 Min.", "2 hrs. 30 mins"."""
_MOST_PART = {60.0: 60.0, 3600.0: 60.0, 86400.0: 24.0, 604800.0: 7.0}
"""The unit a part follows (seconds) and the most of the smaller unit it may hold: 59 minutes
after hours, 23 hours after days."""


class _TimeInParts(NamedTuple):
    first: str
    """The first part's value in seconds (canonical)."""
    total: float
    """The whole time in seconds."""
    start: int
    end: int


def _times_in_parts(text: str) -> list[_TimeInParts]:
    """The times ``text`` writes in parts ("2 hours 10 minutes", "1 h and 30 min", "2 hours and
    a half"): each with its first part's value, the whole time in seconds and its span. A part
    is a smaller unit than the one before it, of less than one of that (not "3 hours, 800 m",
    "10 minutes and 6 minutes")."""
    measures = [(m, _unit(m.group(2))) for m in _MEASURE.finditer(text)]
    found: list[_TimeInParts] = []
    k = 0
    while k < len(measures):
        m, unit = measures[k]
        first = scaled_value(canonical_number(m.group(1)), unit[1]) if unit else None
        if unit is None or unit[0] != "duration" or first is None:
            k += 1
            continue
        j, total, last = k, float(first), unit[1]
        while j + 1 < len(measures):
            (here, size), (nxt, after) = measures[j], measures[j + 1]
            if nxt.group(2) == "m" and size is not None and size[1] == 3600.0:
                after = _UNITS["min"]  # "2h 30m": minutes after hours, not metres
            if not (isinstance(after, tuple) and after[0] == "duration" and size is not None):
                break
            short = len(here.group(2)) <= 3  # "Std.", "hrs.": an abbreviation's point
            joined = _JOINS_PARTS.fullmatch(text, here.end(), nxt.start()) or (
                short and _ABBREVIATED.fullmatch(text, here.end(), nxt.start())
            )
            if not joined:
                break
            most = _MOST_PART.get(size[1])
            amount = scaled_value(canonical_number(nxt.group(1)), 1.0)
            if most is None or after[1] >= size[1] or amount is None or float(amount) >= most:
                break
            total += float(amount) * after[1]
            last = after[1]
            j += 1
        end = measures[j][0].end()
        half = _HALF_MORE.match(text, end)
        if half is not None:
            total += last * (
                0.25 if "quar" in half.group().lower() or "cuarto" in half.group() else 0.5
            )
            end = half.end()
        if total > float(first):
            found.append(_TimeInParts(first, total, m.start(), end))
        k = j + 1
    return found


def _time_edits(
    claim: str, mine: Sequence[Quantity], passage: str, taken: Sequence[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """Edits that write a claim's time as the passage writes the same time in parts, or the
    other way: "260 minutes" as "4 hours 20 minutes", "1 hour 25 minutes" as "85 minutes" (the
    judge read each against the other as a contradiction)."""
    theirs = _times_in_parts(passage) if _may_hold_quantity(passage) else []
    edits: list[tuple[int, int, str]] = []
    free = [q for q in mine if not any(q.start < b and a < q.end for a, b, _ in taken)]
    for q in free:
        if (
            q.dimension != "duration"
            or _ends_range(claim, q.start)
            or claim[q.start : q.end] in passage
        ):
            continue  # the passage's own form of it stays ("lunch is 90 minutes")
        same = next(
            (
                t
                for t in theirs
                if math.isclose(t.total, float(q.value))
                and _same_time(claim, q, passage, _as_quantity(t))
            ),
            None,
        )  # of the same thing: not "The flight takes 90 minutes" and "the layover is 1 hour 30"
        if same is not None:
            edits.append((q.start, q.end, passage[same.start : same.end]))
    own = _times_in_parts(claim)
    if own:
        alone = [t for t in _quantities_once(passage) if t.dimension == "duration"]
        for part in own:
            if any(part.start < b and a < part.end for a, b, _ in [*taken, *edits]):
                continue
            if claim[part.start : part.end] in passage:
                continue
            same_alone = next(
                (
                    t
                    for t in alone
                    if math.isclose(float(t.value), part.total)
                    and _same_time(claim, _as_quantity(part), passage, t)
                ),
                None,
            )
            if same_alone is not None:
                edits.append((part.start, part.end, passage[same_alone.start : same_alone.end]))
    return edits


def _same_time(claim: str, q: Quantity, passage: str, t: Quantity) -> bool:
    """Whether two times are of one thing: the same words around them, and the word before the
    claim's (its verb or subject: "takes", "lasts") among the three before the passage's (not
    "Boarding begins 90 minutes before departure" and "Check-in closes 1 hour 30 minutes before
    departure")."""
    before = _terms_before(claim, q.start)[-1:]
    return set(before) <= set(_terms_before(passage, t.start)[-3:]) and _same_context(
        claim, q, passage, t
    )


def _as_quantity(part: _TimeInParts) -> Quantity:
    """A time in parts as one quantity of its whole (for :func:`_same_context`)."""
    value = canonical_number(f"{part.total:.6f}")
    return Quantity(part.start, part.end, value, "duration", value, False)


_AT_LEAST = re.compile(
    r"(?i:\b(?:more[ ]+than|longer[ ]+than|greater[ ]+than|over|at[ ]+least|upwards?[ ]+of"
    r"|in[ ]+excess[ ]+of|north[ ]+of|(?:at|a)[ ]+minimum(?:[ ]+of)?|mehr[ ]+als|über"
    r"|mindestens|gut|plus[ ]+de|au[ ]+moins|más[ ]+de|al[ ]+menos|meer[ ]+dan|ruim)[ ]+$)"
)
"""A value as a lower bound ("more than 2 hours"): a longer time says it too."""
_OR_MORE = re.compile(
    r"(?i:[ ]+(?:or[ ]+(?:more|longer)|plus|(?:and|or)[ ]+(?:older|over|above|up))\b|\+)"
)
"""A lower bound after a value ("2 hours or more", "2 hours plus", "2+ hours", "6 years and
older")."""
_OR_LESS = re.compile(r"(?i:[ ]+(?:(?:or|and)[ ]+(?:less|fewer|under|below|younger|shorter))\b)")
"""An upper bound after a value ("12 or younger", "5 kg or less")."""
_ROUGHLY = re.compile(
    r"(?i:\b(?:about|around|roughly|approximately|some|etwa|ungefähr|rund|ca\.|circa|environ"
    r"|aproximadamente|unos|unas|ongeveer|zo'n)[ ]+$)"
)
"""A claim's time as a round figure ("about 2 hours"): a longer one by a quarter or less says
it too ("2 hours 10 minutes"; not "1 hour 25 minutes" for "about 1 hour")."""
ROUGHLY_SHARE = 0.25
"""How far from a round figure ("about 2 hours") a value may be, as a share of the larger."""


def time_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states a time the passage gives only as the first part of a longer
    one: "The film runs 2 hours." against "The film runs 2 hours 10 minutes." (a small judge
    reads the two as one, 0.996). A passage that also gives the claim's time alone is no
    conflict, nor is a claim's lower bound ("more than 2 hours"), nor a round figure within a
    quarter ("about 2 hours"); an upper bound is ("under 2 hours", "nearly 2 hours")."""
    mine = [
        q
        for q in _quantities_once(claim)
        if q.dimension == "duration"
        and not _AT_LEAST.search(claim, max(0, q.start - 24), q.start)
        and not _OR_MORE.match(claim, q.end)
    ]
    if not mine or not _may_hold_quantity(passage):
        return False
    parts = _times_in_parts(passage)
    if not parts:
        return False
    alone = {t.value for t in _quantities_once(passage) if t.dimension == "duration"}
    for q in mine:
        if q.value in alone:
            continue
        rough = _ROUGHLY.search(claim, max(0, q.start - 24), q.start) is not None
        for first, total, _, _ in parts:
            if first != q.value:
                continue
            if not rough or total > float(first) * (1 + ROUGHLY_SHARE):
                return True
    return False


_UP_TO = re.compile(
    r"(?i:\b(?:up[ ]+to|under|less[ ]+than|fewer[ ]+than|below|nearly|almost|within"
    r"|as[ ]+(?:much|many|long|high|little)[ ]+as|bis[ ]+zu|jusqu'à|hasta)[ ]+$)"
)
"""A quantity as an upper bound ("up to 18 minutes", "nearly 300 metres")."""
_MEASURED = frozenset({"length", "mass", "volume", "duration", "temperature", "share", "speed"})
"""The dimensions :func:`value_conflict` compares (a count's words say less of what it is)."""
VALUE_WORDS = 4
"""How many words before a claim's measure the passage's must repeat for its other value to
count against it (two at least, one of them a content word)."""
_MOST_PAIRS = 2_000
"""The most pairs of measures :func:`value_conflict` compares (a table of them is left alone)."""
VALUE_COVERAGE = 0.75
"""The least share of the claim sentence's content words (no numbers) the passage's sentence
must hold for its other value to count against the claim's."""


def _words_before(text: str, start: int, count: int) -> list[str]:
    """The last ``count`` words before ``start`` in its sentence, lower-cased, without the
    punctuation around them."""
    line = text[max(0, start - _LOOK_BACK) : start]  # a sentence's words, not the text's
    cut = max(line.rfind(". "), line.rfind("\n"), line.rfind("; "), line.rfind("? "))
    words = (w.strip(".,;:()[]\"'“”‘’*_").lower() for w in line[cut + 1 :].split())
    return [w for w in words if w][-count:]


_LOOK_BACK = 400
"""How far back the words before a value are looked for (in characters): far enough for any
sentence's words before it, and each look costs the same on a long text."""


def _words_after(text: str, end: int) -> list[str]:
    """The content words (numbers too) after ``end`` in its sentence, lower-cased."""
    line = text[end : end + 120]
    stop = re.search(r"[.;!?](?:\s|$)|\n", line)
    kept = line[: stop.start()] if stop else line
    words = (w.strip(".,;:()[]\"'“”‘’*_").lower() for w in kept.split())
    return [w for w in words if w and w not in STOPWORDS]


def _scale(q: Quantity) -> float:
    """What one of a value's written units is in its dimension's unit: 1,000 for "1.2 km" (in
    metres), a million for "1.2 million"; one kelvin for a degree Celsius, 5/9 for a degree
    Fahrenheit (a temperature's value counts from absolute zero: its ratio to the written
    number is no unit)."""
    if q.dimension == "temperature":
        return 5.0 / 9.0 if q.system == "imperial" else 1.0
    written = float(q.written)
    return abs(float(q.value) / written) if written else 1.0


def _size(q: Quantity) -> float:
    """How large a value is, for a share of it: its value, or a temperature's reading on its
    own scale times :func:`_scale` (20 °C is 20 kelvins' worth, not 293)."""
    if q.dimension == "temperature":
        return abs(float(q.written)) * _scale(q)
    return abs(float(q.value))


def _rounds_to(q: Quantity, t: Quantity) -> bool:
    """Whether the passage's value is one the claim's may stand for by its last place: rounded
    (up to half a unit either side: "5%" for 4.6% or 5.2%), cut where the claim gives two
    figures or more (up to a unit above: "8,848 m" for 8,848.86 m, "2.4 million" for
    2,467,000), within :data:`ROUND_CLOSE` of it ("745 m" for 744.4 m), or, for a figure that
    ends in zeros, within :data:`ROUND_FIGURE_SHARE` of it and half its last figure ("2,000"
    for 1,960, "60%" for 59.4%; not "300 m" for 330 m, "820" for 802); not "13 km" for 12
    km, "2 km" for 1.2 km or 2.7 km, nor "$5 billion" for $4.2 billion."""
    try:
        decimals = q.written.partition(".")[2]
        unit: float = 10.0 ** -len(decimals) * _scale(q)
        x, y = float(q.value), float(t.value)
        size = _size(q)
    except (ValueError, OverflowError):
        return False
    off = abs(y - x) / (1 + 1e-9)  # a value's float error is no place off
    if off <= ROUND_CLOSE * size:
        return True
    whole = q.written.lstrip("-").partition(".")[0].replace(",", "")
    if not decimals and len(whole) > 1 and whole.endswith("0") and q.dimension != "temperature":
        # a round figure, rounded at its last figure and near: "2,000" for 1,960, "1,300 m"
        # for 1,280 m; not "820" for 802, "150 mph" for 155 mph
        return off <= ROUND_FIGURE_SHARE * size and off < _last_place(q) / 2 * (1 - 1e-9)
    if off <= unit / 2:
        return True  # rounded
    figures = len((whole + decimals).lstrip("0"))
    return figures > 1 and 0 < y - x < unit * (1 - 1e-9)  # cut: "8,848 m" for 8,848.86 m


ROUND_FIGURE_SHARE = 0.05
"""How far a value may lie from a claim's figure that ends in zeros ("2,000", "60%", "10
million"), as a share of it, and be that figure rounded: "2,000" for 1,960, "60,000" for
58,500; not "300 m" for 330 m (a reader takes it for another height)."""


def _sentence_of(text: str, at: int) -> str:
    return next((text[a:b] for a, b in source_sentence_spans(text) if a <= at < b), text)


def _lead(text: str, start: int) -> list[str] | None:
    """The :data:`VALUE_WORDS` words before a value that a passage must repeat; None where
    they are fewer than two or hold no content word (too little to say which fact it is)."""
    before = _words_before(text, start, VALUE_WORDS)
    if len(before) < 2 or not any(w.isalpha() and w not in STOPWORDS for w in before):
        return None
    return before


_ARTICLES = frozenset({"the", "a", "an"})


def _words_following(text: str, end: int, count: int) -> list[str]:
    """The first ``count`` words after ``end`` in its sentence, lower-cased, without the
    punctuation around them and without articles ("of the students" and "of students")."""
    line = text[end : end + 160]
    stop = re.search(r"[.;!?](?:\s|$)|\n", line)
    words = (
        w.strip(".,;:()[]\"'“”‘’*_").lower() for w in line[: stop.start() if stop else None].split()
    )
    return [w for w in words if w and w not in _ARTICLES][:count]


def _trail(text: str, end: int) -> list[str] | None:
    """The :data:`VALUE_WORDS` words after a value that opens its sentence, for :func:`_lead`
    to compare where there are too few words before it; None where they are fewer than two or
    hold no content word."""
    after = _words_following(text, end, VALUE_WORDS)
    if len(after) < 2 or not any(w.isalpha() and w not in STOPWORDS for w in after):
        return None
    return after


_NEARLY = re.compile(r"(?i:\b(?:nearly|almost|just[ ]+under|close[ ]+to)[ ]+$)")
"""A value as a round figure just above the true one ("nearly 90%")."""


def _measured(q: Quantity) -> bool:
    """Whether :func:`value_conflict` compares a value: a measure of :data:`_MEASURED`, or a
    number with a scale ("€450m", "1.2 billion", "twenty-five thousand")."""
    if q.plain:
        return False
    return q.dimension in _MEASURED or (q.dimension == "count" and not q.system)


def _bound(text: str, q: Quantity) -> tuple[str | None, int]:
    """How a value is bounded or rounded, and where its words start: "roughly" ("about 2 km"),
    "nearly" ("almost 2 km"), "at least" ("more than 2 km", "2 km or more"), "up to" ("up to 2
    km", "under 2 km"), or None (the value itself, its sign before it: "$3.93")."""
    at = q.start - 1 if q.start and text[q.start - 1] in _SIGNS else q.start
    lead = max(0, at - 24)
    for kind, pattern in (
        ("roughly", _ROUGHLY),
        ("nearly", _NEARLY),
        ("at least", _AT_LEAST),
        ("up to", _UP_TO),
    ):
        m = pattern.search(text, lead, at)
        if m is not None:
            return kind, m.start()
    if _OR_MORE.match(text, q.end):
        return "at least", q.start
    if _OR_LESS.match(text, q.end):
        return "up to", q.start
    return None, at


def _apart(q: Quantity, bound: str | None, t: Quantity, their_bound: str | None) -> bool:
    """Whether the passage's value ``t`` (bounded as ``their_bound`` says) is not what the
    claim's ``q`` (bounded as ``bound`` says) may be: the same value, or one the other rounds
    or cuts, is never apart; a bound of the passage's is apart from nothing; a claim's lower
    bound is apart from a value below it ("more than 300 km" and 270 km), its upper bound from
    one above it ("up to 18 minutes" and 25 minutes), "nearly" from one above it or a quarter
    or more below; a round figure ("about", either side) from one a quarter or more off
    (:data:`ROUGHLY_SHARE`); a share in words from a share more than :data:`FRACTION_SLACK`
    points off ("half" and 30%, not 48%)."""
    if same_quantity(q, t):
        return False
    x, y = float(q.value), float(t.value)
    if their_bound in (None, "roughly") and (
        (bound == "at least" and y < x) or (bound in ("up to", "nearly") and y > x)
    ):
        return True  # "more than 5 million" and 4.8 million: a bound rounds no way but its own
    if _rounds_to(q, t) or _rounds_to(t, q):
        return False
    if their_bound is not None and their_bound == bound:  # the same bound of another value
        if bound == "at least":  # "more than 8" and "more than 6"; "more than 60" says "40"
            return y < x
        if bound == "up to":  # "under $3.50" and "under $4"; "less than 1.3 kg" says "1.5"
            return y > x
        # "approximately 12 months" and "approximately 14 months": two round figures
        return _last_place(q) == _last_place(t) or abs(x - y) > ROUGHLY_BOTH * max(
            _size(q), _size(t)
        )
    if their_bound in ("at least", "up to", "nearly"):
        return False
    if bound == "at least":
        return y < x
    if bound == "up to":
        return y > x
    if bound == "nearly":
        return y > x or x - y > ROUGHLY_SHARE * _size(q)
    if "roughly" in (bound, their_bound) and abs(x - y) <= ROUGHLY_SHARE * max(_size(q), _size(t)):
        return False
    return _far(q, t)


ROUGHLY_BOTH = 0.2
"""How far apart two round figures ("about 40 minutes", "about 45 minutes") may lie, as a
share of the larger, and be one where they are rounded to other places (two of one place,
"approximately 12 months" and "approximately 14 months", are two)."""


def _last_place(q: Quantity) -> float:
    """The value of a number's last written place that is not a zero ("10.4 billion": 0.1
    billion; "500": 100; "12": 1)."""
    digits = q.written.lstrip("-")
    try:
        scale = _scale(q)
    except ValueError:
        return math.nan  # no place: no two figures are of one
    whole, _, decimals = digits.partition(".")
    try:
        if decimals.strip("0"):
            return 10.0 ** -len(decimals.rstrip("0")) * abs(scale)
        return 10.0 ** (len(whole) - len(whole.rstrip("0"))) * abs(scale)
    except OverflowError:  # "about 1" and 309 zeros
        return math.inf


FRACTION_SLACK = 10.0
"""How far (in points) a share may lie from a share in words ("half", "a third") and still be
the round figure it gives."""


def _far(q: Quantity, t: Quantity) -> bool:
    """Whether two values of a kind differ by more than a share in words rounds (either is one:
    "half" and 30% do, "half" and 48% do not); any two others do."""
    if "fraction" not in (q.system, t.system):
        return True
    share, other = (q, t) if q.system == "fraction" else (t, q)
    if other.system == "fraction":
        return share.high < other.low or other.high < share.low
    value = float(other.value)
    return not share.low - FRACTION_SLACK <= value <= share.high + FRACTION_SLACK


def _fact_terms(claim: str, start: int, end: int) -> list[str]:
    """The content words of the claim's sentence around ``claim[start:end]``, without its own
    ("June" of a date, "percent" of a share) and without numbers."""
    own = set(content_terms(claim[start:end]))
    terms = content_terms(_sentence_of(claim, start))
    return [w for w in terms if not w[:1].isdigit() and w not in own]


def _says_fact(passage: str, at: int, terms: Sequence[str]) -> bool:
    """Whether the clause of ``passage[at]`` (:func:`_fact_clause`) holds
    :data:`VALUE_COVERAGE` of ``terms``."""
    a, b = _fact_clause(passage, at)
    held = set(content_terms(passage[a:b]))
    return bool(terms) and sum(w in held for w in terms) >= VALUE_COVERAGE * len(terms)


_RATE = re.compile(
    r"(?i:\b(?:a|an|per|each|every)[ ]+(second|minute|hour|day|night|week|month|year|season"
    r"|game|match)\b)"
)
"""A rate after a value ("1.5 million visitors a year")."""

_RATE_WORD = re.compile(
    r"(?i:\b(hourly|daily|nightly|weekly|monthly|yearly|annually|annual|per[ ]+annum)\b)"
)
"""A rate in one word ("three tablets daily", "$1,200 monthly")."""

_RATE_UNIT = {
    "hourly": "hour",
    "daily": "day",
    "nightly": "night",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
    "annually": "year",
    "annual": "year",
}


def _rates(text: str) -> set[str]:
    """The rates a text gives, by their unit ("a day", "per day", "daily": "day")."""
    found = {r.lower() for r in _RATE.findall(text)}
    for word in _RATE_WORD.findall(text):
        word = word.lower()
        found.add("year" if word.startswith("per") else _RATE_UNIT[word])
    return found


_MAXIMUM = re.compile(r"(?i:up[ ]+to|as[ ]+(?:many|much)[ ]+as)\b")
"""A bound's words that give the most a thing reaches ("seats up to 230", "as many as 40
trains"), not a bound it stays under ("less than 1.5 kg")."""


_RATE_AFTER = re.compile(r"[ ]+(?:a|an|per|each|every)[ ]+[a-z]+\b", re.IGNORECASE)
"""A rate right after a value ("$33.29 a month", "15 per day")."""


_CLAUSE_WORD = re.compile(r"[\w'’-]+")
"""A word as :func:`attribution.text.entity_terms` cuts a name ("O'Brien", "Ariane-5")."""


def _other_frame(claim: str, start: int, end: int, passage: str, at: int) -> bool:
    """Whether the passage's clause at ``at`` is of another frame than the claim's sentence
    around ``claim[start:end]``: a year the claim names that the clause lacks ("1.8 million
    cars in 2023" against "1.3 million cars in 2022"), a name ("on YouTube" against "on
    TikTok", "in March" against "in February"), or another rate ("a year" against "a day"):
    then the passage's value is of another fact, not another value of the claim's."""
    first, last = next(
        ((a, b) for a, b in source_sentence_spans(claim) if a <= start < b), (0, len(claim))
    )
    sentence = claim[first:start] + " " + claim[end:last]  # the claim's words but its value's
    a, b = _fact_clause(passage, at)
    clause = passage[a:b]
    if not set(_YEAR.findall(sentence)) <= set(_YEAR.findall(clause)):
        return True
    words = set(_CLAUSE_WORD.findall(clause.lower()))
    if any(name not in words for name in entity_terms(sentence)):
        return True
    rates = _rates(sentence)  # "a day" is what "daily" says
    return bool(rates) and rates != _rates(clause)


@lru_cache(maxsize=4096)
def value_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states a measure (a length, mass, volume, time, temperature or share),
    a number with a scale ("€450m") or a plain number of a kind (:func:`_kind`: "£22", "10,000
    IU", "36 of 68 field goals", "18W") the passage gives as another value, or a measure as its
    number in a unit of another kind ("12 percent" for "12 mmHg"), after the same words:
    "The battery charges to 80% in 8 minutes." against "The battery charges to 80% in 18
    minutes." (a small judge reads the two as one, 0.87). The passage's clause must say the
    claim's fact (three quarters of its content words) and give no other value of that kind
    ("15 minutes to prepare and 30 to cook" may add up to the claim's); neither value a part of
    a measure in two ("7 lb 11 oz"); a bound or round figure ("more than", "about", "up to",
    "nearly") or a share in words ("a third") only against a value it cannot be
    (:func:`_apart`: "about a third" against 13%, "half" against 30%, not against 48%; "more
    than 8" against "more than 6"); no value the claim's rounds or cuts ("5%" for 5.2%, "8,848
    m" for 8,848.86 m) or the passage gives elsewhere. The same words are the words before the
    value (:func:`_leads_alike`), or, where it opens its sentence, those after it
    (:func:`_trail`); or the words that follow a value of its kind (:func:`_follow`: "150 g of
    melted butter" against "75 g melted butter, 150 g sugar"), where no other value of the
    passage is followed by them; or a change the other way ("grew 1%" against "a decrease of
    1%", :func:`_direction_conflict`)."""
    found_mine = _values(claim)
    mine = [q for q in found_mine if _measured(q) or _counted(claim, q)]
    if not mine or not _may_hold_quantity(passage):
        return False
    found = _values(passage)
    theirs = [t for t in found if _measured(t) or _counted(passage, t)]
    if len(mine) * len(theirs) > _MOST_PAIRS:
        return False  # a table of measures: the judge's to read
    if _unit_changed(claim, [q for q in mine if _measured(q)], passage, found):
        return True
    kinds = [_kind(passage, t) for t in theirs]
    given = {t.value for t in found if t.plain and _counted(passage, t)}
    for q in mine:
        if _in_two(found_mine, q, claim):
            continue
        if q.plain and q.value in given:
            continue  # "30 beds in intensive care": "450 beds, 30 of them in intensive care"
        kind = _kind(claim, q)
        alike = [
            t
            for t, k in zip(theirs, kinds, strict=True)
            if k == kind and not _in_two(found, t, passage)
        ]
        if not alike:
            continue
        bound, start = _bound(claim, q)
        if _lead_conflict(claim, q, bound, start, passage, alike, theirs):
            return True
        if _follow_conflict(claim, q, bound, start, passage, alike):
            return True
    return _direction_conflict(claim, mine, passage, theirs)


_UP_WORDS = frozenset(
    """up grew grown grow grows rose risen rise rises increased increase increases climbed
    climb climbs jumped jump jumps gained gain gains soared soar surged surge higher
    growth""".split()
)
_DOWN_WORDS = frozenset(
    """down fell fallen fall falls dropped drop drops decreased decrease decreases declined
    decline declines slipped slip slips plunged plunge lost loss losses shrank shrunk shrink
    lower cut cuts""".split()
)
_DIRECTION_BEFORE = re.compile(r"(?i:\b([a-z]+)(?:[ ]+(by|of))?[ ]+[$€£¥]?$)")
_CHANGE_NOUNS = frozenset({"loss", "losses", "growth"})
"""Words of a change only before "of" ("a loss of 5%"; "weight loss by 15%" is none)."""
_DIRECTION_AFTER = re.compile(
    r"(?i:[ ]+(?:(?:year[- ]on[- ]year|year[- ]over[- ]year|yoy)[ ]+)?([a-z]+)\b)"
)


def _direction(text: str, q: Quantity) -> tuple[int, int]:
    """Which way a value says a change went, and where its words start: +1 ("up 7%", "grew
    1%", "an increase of 7%", "a 7% rise"), -1 ("down 1%", "a decrease of 1%", "1% lower"), 0
    (none: "rose to 7%" gives a level, not a change)."""
    before = _DIRECTION_BEFORE.search(text, max(0, q.start - 24), q.start)
    if before is not None:
        word = before.group(1).lower()
        if word in _CHANGE_NOUNS and (before.group(2) or "").lower() != "of":
            return 0, q.start
        if word in _UP_WORDS or word in _DOWN_WORDS:
            return (1 if word in _UP_WORDS else -1), before.start(1)
    after = _DIRECTION_AFTER.match(text, q.end)
    if after is not None:
        word = after.group(1).lower()
        if word in _UP_WORDS or word in _DOWN_WORDS:
            return (1 if word in _UP_WORDS else -1), q.start
    return 0, q.start


def _direction_conflict(
    claim: str, mine: Sequence[Quantity], passage: str, theirs: Sequence[Quantity]
) -> bool:
    """Whether the claim states a change ("grew 1%") the passage gives as the same amount the
    other way ("a decrease of 1%"), in a clause that says the claim's fact and is of its frame,
    and nowhere the claim's way: "Net income grew 1% to $72.4 billion." against "Net income was
    $72.4 billion, a decrease of 1%." (a small judge reads it as support, 0.73)."""
    for q in mine:
        way, start = _direction(claim, q)
        if not way:
            continue
        same = [t for t in theirs if same_quantity(q, t)]
        ways = [_direction(passage, t) for t in same]
        if not any(w == -way for w, _ in ways) or any(w == way for w, _ in ways):
            continue
        rest = _fact_terms(claim, start, q.end)
        subject = content_terms(_sentence_of(claim, start))[:1]  # "net" of "Net income grew"
        years = set(_YEAR.findall(_sentence_of(claim, start)))
        for t, (w, _) in zip(same, ways, strict=True):
            if w != -way or not _says_fact(passage, t.start, rest):
                continue
            a, _b = _fact_clause(passage, t.start)
            if subject and subject[0] not in content_terms(passage[a : t.start]):
                continue  # "The dollar rose 2% against the euro" says nothing of the euro's way
            if (
                not _other_frame(claim, start, q.end, passage, t.start)
                and _years_after(passage, t) <= years
            ):
                return True
    return False


_PART_END = re.compile(r"[,;:()]")


def _years_after(passage: str, t: Quantity) -> set[str]:
    """The years written after a value, up to a comma, a bracket or a colon: "a decline of 4%
    in 2024" is of 2024 (not "grew 4% in 2023"), "down 4% from 2022" of none (a base year)."""
    stop = _PART_END.search(passage, t.end, t.end + 120)
    part = passage[t.end : stop.start() if stop else t.end + 120]
    return {m.group(1) for m in _YEAR.finditer(part)} - {
        m.group(1) for m in _BASE_YEAR.finditer(part)
    }


_BASE_YEAR = re.compile(
    r"(?i:\b(?:from|since|on|over|than|versus|vs\.?|compared[ ]+with|against)[ ]+"
    r"(?:the[ ]+)?(?:year[ ]+)?(1[0-9]\d\d|20\d\d)\b)"
)
"""A year a change is measured from ("down 4% from 2022", "an increase of 5.6% on 2011")."""


@lru_cache(maxsize=4096)
def _values(text: str) -> tuple[Quantity, ...]:
    """A text's quantities with each time written in parts as one ("3 hours and 17 minutes":
    11,220 seconds, not the counts 3 and 17)."""
    found = _quantities_once(text)
    parts = _times_in_parts(text) if any(q.plain for q in found) else []
    if not parts:
        return found
    kept = [q for q in found if not any(p.start <= q.start < p.end for p in parts)]
    return tuple(sorted(kept + [_as_quantity(p) for p in parts]))


def _lead_conflict(
    claim: str,
    q: Quantity,
    bound: str | None,
    start: int,
    passage: str,
    alike: Sequence[Quantity],
    theirs: Sequence[Quantity],
) -> bool:
    """:func:`value_conflict` by the words before the claim's value (or after it, where it
    opens its sentence)."""
    end = _glued_end(claim, q)
    rest = _fact_terms(claim, q.start, end)
    most = bound == "up to" and _MAXIMUM.match(claim, start) is not None

    def apart(t: Quantity) -> bool:
        their_bound, their_start = _bound(passage, t)
        if most and their_bound == "up to" and _MAXIMUM.match(passage, their_start):
            # "seats up to 230" and "seats up to 210": two maxima, not two bounds
            return not (same_quantity(q, t) or _rounds_to(q, t) or _rounds_to(t, q))
        return _apart(q, bound, t, their_bound)

    if any(
        not apart(t)
        # a bound's value is any it allows: only one of a clause of the claim's fact counts
        # ("diesel averaged under $3.50" against "gasoline was $3.12 ... diesel averaged $3.93")
        and (bound in (None, "roughly") or _says_fact(passage, t.start, rest))
        for t in alike
    ):
        return False  # "3.14%" for 3.1%: the passage rounds; "more than 2 km": 2.5 km
    before = _lead(claim, start)
    trail = _trail(claim, q.end) if before is None else None  # "Half of respondents said"
    if before is None and trail is None:
        return False
    after = _words_after(claim, end)
    kind = _kind(claim, q)
    for t in alike:
        their_start = _bound(passage, t)[1]
        if not apart(t):
            continue  # "half" and 48%; "about 2 km" and 2.2 km; "up to 3 km" and 2 km
        if before is not None and not _leads_alike(claim, start, before, passage, their_start):
            continue
        if trail is not None and _words_following(passage, t.end, len(trail)) != trail:
            continue
        if after and after[0] not in _words_after(passage, _glued_end(passage, t))[:3]:
            continue  # "in 15 minutes with the V4 charger", "in 30 minutes on a V2 charger"
        if _RATE_AFTER.match(passage, _glued_end(passage, t)) and not _RATE_AFTER.match(claim, end):
            continue  # "The phone costs $799": "costs $33.29 a month for 24 months"
        a, b = _fact_clause(passage, t.start)
        if sum(a <= u.start < b and _kind(passage, u) == kind for u in theirs) > 1:
            continue  # several values of the kind: the claim's may add them up
        if _says_fact(passage, t.start, rest) and not _other_frame(
            claim, q.start, end, passage, t.start
        ):
            return True
    return False


def _follow_conflict(
    claim: str,
    q: Quantity,
    bound: str | None,
    start: int,
    passage: str,
    alike: Sequence[Quantity],
) -> bool:
    """:func:`value_conflict` by the words that follow a value of its kind: "150 g of melted
    butter" against "75 g melted butter, 150 g sugar", "up to 18 hours of wireless web" against
    "up to 18 hours movie playback; up to 15 hours wireless web". The passage's one value
    followed by the claim's words (:func:`_follow`) is another, in a clause of the claim's
    frame that holds half its words."""
    follow = _follow(claim, q)
    if follow is None:
        return False
    same = [t for t in alike if _follow(passage, t) == follow]
    if len(same) != 1:
        return False  # none, or several: which one is not plain
    t = same[0]
    if not _apart(q, bound, t, _bound(passage, t)[0]):
        return False
    equal = [  # the claim's value, or one it rounds (a bound of the passage's is none)
        u
        for u in alike
        if _bound(passage, u)[0] in (None, "roughly")
        and not _apart(q, bound, u, _bound(passage, u)[0])
    ]
    before = _lead(claim, start)
    for u in equal:
        words = _follow(passage, u, words=2)
        if words is not None and follow[0] in words:
            return False  # "200 g plain flour": the claim's value before its word
        if before is not None and _leads_alike(
            claim, start, before, passage, _bound(passage, u)[1]
        ):
            return False  # "the Pixel 8 has 8GB.": the claim's value after its words
    first, last = _sentence_span(passage, t.start)
    if equal and sum(first <= u.start < last for u in _values(passage)) < FOLLOW_LIST:
        return False  # the claim's value too, in no list: "lasts 18 hours on a charge, while
        # ... offers 15 hours of battery life" says "offers 18 hours of battery life"
    end = _glued_end(claim, q)
    terms = _fact_terms(claim, start, end)
    a, b = _fact_clause(passage, t.start)
    held = set(content_terms(passage[a:b]))
    if sum(w in held for w in terms) < FOLLOW_COVERAGE * len(terms):
        return False
    return not _other_frame(claim, q.start, end, passage, t.start)


def _glued_end(text: str, q: Quantity) -> int:
    """Where a value ends with the unit glued to a plain number ("18W", "120p")."""
    m = _UNIT_GLUED.match(text, q.end) if q.plain else None
    return m.end() if m is not None else q.end


FOLLOW_LIST = 3
"""The fewest values a passage's sentence must hold for the words after one of them to say
which fact it is where the passage gives the claim's value too, before other words (a list:
"3 bananas, 75 g melted butter, 150 g sugar")."""
FOLLOW_COVERAGE = 0.5
"""The least share of the claim sentence's content words the passage's clause must hold for a
value followed by the claim's words to count against the claim's (a list of ingredients or of
a product's figures names little else of the claim's sentence)."""


_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b", re.IGNORECASE)
_UNIT_GLUED = re.compile(r"([^\W\d_]+)(?![\w.,-]\d)")
_UNIT_WORD = re.compile(r"[ \u00a0]+([^\W\d_][\w'’]*)")


def _counted(text: str, q: Quantity) -> bool:
    """Whether :func:`value_conflict` compares a plain number: not a year, an ordinal ("2nd"), a
    marker ("[3]", "#5"), a part of a date, time, ratio or range ("24/7", "5-10"), or a
    number glued to another ("4x4")."""
    if not q.plain or _YEAR.fullmatch(text, q.start, q.end) or _glued(text, q):
        return False
    if _ORDINAL.match(text, q.end) or text[q.start - 1 : q.start] in ("[", "#", "№"):
        return False
    if text[q.end : q.end + 1].isalpha() and _UNIT_GLUED.match(text, q.end) is None:
        return False  # "4x4", "3D2"
    return not (_ends_range(text, q.start) or _starts_range(text, q.end))


def _kind(text: str, q: Quantity) -> str:
    """What a value counts, for :func:`value_conflict` to compare it with a value of its kind
    only: a measure's dimension; a plain number's sign before it and the letters glued after
    it or the word after it, stemmed ("£ ", " w" of "18W", " shot" of "580 shots"; a
    stopword is none: " " of "36 of 68")."""
    if not q.plain:
        return q.dimension
    sign = text[q.start - 1 : q.start] if text[q.start - 1 : q.start] in _SIGNS else ""
    m = _UNIT_GLUED.match(text, q.end) or _UNIT_WORD.match(text, q.end)
    word = m.group(1).lower() if m else ""
    word = _UNIT_ALIASES.get(word, word)
    return f"{sign} {'' if word in STOPWORDS else stem(word)}"


_UNIT_ALIASES = {"tbsp": "tablespoon", "tbs": "tablespoon", "tsp": "teaspoon"}
"""A kitchen unit written short, as :func:`_kind` reads it ("1 tbsp", "2 tablespoons")."""


_FOLLOW_STOP = re.compile(r"[,;:()\[\]]|[.!?](?:\s|$)|\n")


def _next_terms(text: str, end: int) -> list[str]:
    """The content words after ``end`` up to a comma, a bracket, a number or the sentence's
    end: what the value before them counts or is of ("118,400 registered voters and ...",
    "480 flights on Sunday and 1,100 on Monday")."""
    line = text[end : end + 120]
    stop = _FOLLOW_STOP.search(line)
    line = line[: stop.start() if stop else None]
    digit = _DIGIT.search(line)
    return content_terms(line[: digit.start() if digit else None])


def _follow(text: str, q: Quantity, *, words: int | None = None) -> tuple[str, ...] | None:
    """The first content word after a value with a unit (a measure's, or a plain number's
    word, :func:`_kind`), or the first two after a bare number, up to a comma, a bracket, a
    number or the sentence's end, stemmed; None where there are fewer: "75 g melted butter, 150
    g sugar" gives ("melt",) for 75 g; "50 g of parmesan at the end" ("parmesan",)."""
    end = q.end
    unit = not q.plain
    if q.plain:
        m = _UNIT_GLUED.match(text, end) or _UNIT_WORD.match(text, end)
        if m is not None and m.group(1).lower() not in STOPWORDS:
            end, unit = m.end(), True
    line = text[end : end + 120]
    stop = _FOLLOW_STOP.search(line)
    found: list[str] = []
    for raw in line[: stop.start() if stop else None].split():
        word = raw.strip("\"'“”‘’*_").lower()
        if any(ch.isdigit() for ch in word):
            break
        if word.isalpha() and word not in STOPWORDS:
            found.append(stem(word))
        if len(found) == 2:
            break
    if len(found) < (1 if unit else 2):
        return None
    return tuple(found[: words or (1 if unit else 2)])


def _leads_alike(claim: str, start: int, before: Sequence[str], passage: str, at: int) -> bool:
    """Whether the words before the passage's value at ``at`` are the claim's ``before`` (its
    words before ``start``, :func:`_lead`): the same words, stemmed ("walk an average of" and
    "walking an average of"); or the same last word with each content word of the claim's
    last :data:`LEAD_REACH` among the passage's last :data:`LEAD_REACH` + 2 ("Python 3.11 had
    been released on" and "Python 3.11, was released on")."""
    theirs = _words_before(passage, at, len(before))
    if [stem(w) for w in theirs] == [stem(w) for w in before]:
        return True
    if not theirs or theirs[-1] != before[-1]:
        return False
    wanted = {stem(w) for w in _words_before(claim, start, LEAD_REACH) if w not in STOPWORDS}
    if len(wanted) < 2:
        return False
    held = {stem(w) for w in _words_before(passage, at, LEAD_REACH + 2)}
    return wanted <= held


LEAD_REACH = 6
"""How many words before a value :func:`_leads_alike` reads when the words next to it differ."""


def _unit_changed(
    claim: str, mine: Sequence[Quantity], passage: str, found: Sequence[Quantity]
) -> bool:
    """Whether the passage gives one of the claim's measures with its number but a unit of
    another kind, after the same words, in a clause that says the claim's fact: "lowered blood
    pressure by an average of 12 percent" against "... by an average of 12 mmHg"."""
    if len(mine) * len(found) > _MOST_PAIRS:
        return False
    for q in mine:
        before = _lead(claim, q.start)
        if before is None:
            continue
        rest = _fact_terms(claim, q.start, q.end)  # "percent": the unit's, not the fact's
        for t in found:
            if t.plain or t.written != q.written or t.dimension == q.dimension:
                continue
            if _words_before(passage, t.start, len(before)) != before:
                continue
            if any(u.dimension == q.dimension for u in found):
                continue  # "12 mmHg (a 9% fall)": the passage gives the claim's kind too
            if _says_fact(passage, t.start, rest):
                return True
    return False


def _in_two(found: Sequence[Quantity], q: Quantity, text: str) -> bool:
    """Whether a measure is a part of one written in two ("7 lb 11 oz", "5 feet 10 inches"):
    the measure next to it (``found`` in text order) is of its kind, with nothing but a blank,
    a comma or "and" between."""
    k = bisect.bisect_left([f.start for f in found], q.start)
    for other in found[max(0, k - 1) : k + 2]:
        if other is q or other.dimension != q.dimension:
            continue
        between = text[q.end : other.start] if other.start >= q.end else text[other.end : q.start]
        if not between.strip(" ,") or between.strip() == "and":
            return True
    return False


_CLAUSE_JOIN = re.compile(r"[.;!?](?:\s|$)|\n|,[ ]+(?:and|but|while|whereas)\b")
"""Where a clause of facts ends: a sentence's end, or a comma and a conjunction ("The House
passed it on 5 March, and the Senate passed it two days later")."""


def _fact_clause(text: str, at: int) -> tuple[int, int]:
    """The clause of facts around ``text[at]``."""
    return _span_around(text, at, _CLAUSE_JOIN)


def _span_around(text: str, at: int, ends: re.Pattern[str]) -> tuple[int, int]:
    """The span around ``text[at]`` between two matches of ``ends``, read in a window of
    :data:`_CLAUSE_REACH` either side."""
    start = max(0, at - _CLAUSE_REACH)
    for m in ends.finditer(text, start, at):
        start = m.end()
    end = ends.search(text, at, at + _CLAUSE_REACH)
    return start, end.start() if end else min(len(text), at + _CLAUSE_REACH)


_CLAUSE_REACH = 2000
"""The most characters a clause of facts reaches either side of a value (a line of text
without a sentence's end is read no further, and each look costs the same on a long text)."""


_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")


def _sentence_span(text: str, at: int) -> tuple[int, int]:
    """The sentence around ``text[at]`` (read in a window, as :func:`_fact_clause`)."""
    return _span_around(text, at, _SENTENCE_END)


def _degrees(q: Quantity) -> float:
    """A temperature in the degrees of its own scale (Celsius or Fahrenheit), rounded to the
    places a text writes."""
    celsius = float(q.value) - float(_ZERO_CELSIUS)
    return round(celsius * 9 / 5 + 32 if q.system == "imperial" else celsius, 3)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9)


_MONTH_NAME = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)"
)
_DATES = re.compile(
    rf"\b(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?P<m1>{_MONTH_NAME})\.?,?[ \t]+"
    r"(?P<y1>\d{4})\b"
    rf"|\b(?P<m2>{_MONTH_NAME})\.?[ \t]+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?[ \t]+(?P<y2>\d{{4}})\b"
    r"|\b(?P<y3>\d{4})-(?P<m3>\d{2})-(?P<d3>\d{2})(?:\b|(?=T\d\d:\d\d))"
    r"|(?<![\d/.])(?P<a>\d{1,2})(?P<sep>[/.])(?P<b>\d{1,2})(?P=sep)(?P<y4>\d{4})\b(?![/.]\d)"
    r"|(?<![\d/.vV])(?P<y5>\d{4})(?P<sep5>/|\.(?=\d\d\.\d\d\b))(?P<m5>\d{1,2})(?P=sep5)"
    r"(?P<d5>\d{1,2})\b(?![/.]\d)"
)
"""A date with a day, a month and a year: ``21 January 1793``, ``21st of January 1793``,
``January 21, 1793``, ``Jan. 21, 1793``, ``1793-01-21`` (a time of day after it or not:
``2024-03-05T14:00Z``), ``21/01/1793``, ``01/21/1793``, ``21.01.1793`` (dots: the day first),
``1793/01/21``, ``1793.01.21``."""


def _days(m: re.Match[str], *, loose: bool = False) -> frozenset[tuple[int, int, int]]:
    """The days (year, month, day) a date match is: one, or none for a date either way round
    (``03/04/2020``) or no date at all (``31/31/2020``). ``loose``: every day it may be, to
    tell it from another: a dotted or slashed one either way round ("04.01.2024" is written
    day first, but not always; "5/3/2024" is 5 March or 3 May, and no 3 June), an ISO one
    with a time of day the day before and after too (another time zone's day)."""
    read: list[tuple[str, int | str, str]]
    if m.group("y1"):
        read = [(m.group("y1"), month_number(m.group("m1")) or 0, m.group("d1"))]
    elif m.group("y2"):
        read = [(m.group("y2"), month_number(m.group("m2")) or 0, m.group("d2"))]
    elif m.group("y3"):
        read = [(m.group("y3"), m.group("m3"), m.group("d3"))]
    elif m.group("y5"):  # year first: the month is next
        read = [(m.group("y5"), m.group("m5"), m.group("d5"))]
    else:  # day first or month first, where only one reading is a date ("21/01/1793")
        a, b, year = m.group("a"), m.group("b"), m.group("y4")
        if m.group("sep") == "." and not (loose and int(a) <= 12 and int(b) <= 12):
            read = [(year, b, a)]  # "05.03.2024": dots write the day first
        elif m.group("sep") == ".":
            read = [(year, b, a), (year, a, b)]
        elif a != b and int(a) <= 12 and int(b) <= 12 and not loose:
            return frozenset()  # "9/11/2001", "03/04/2020": either day, so neither
        else:
            read = [(year, b, a), (year, a, b)]
    days = {(int(y), int(mo), int(d)) for y, mo, d in read}
    days = {day for day in days if 1 <= day[1] <= 12 and 1 <= day[2] <= 31}
    if loose and m.group("y3") and _TIME_OF_DAY.match(m.string, m.end()):
        days |= {near for day in days for near in _either_side(day)}
    return frozenset(days)


def _either_side(day: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    """The days before and after a day (none where it is no day: "2024-02-31")."""
    one = datetime.timedelta(days=1)
    try:
        at = datetime.date(*day)
        near = (at - one, at + one)
    except (ValueError, OverflowError):  # "2024-02-31"; "0001-01-01", "9999-12-31": no day
        return ()
    return tuple((d.year, d.month, d.day) for d in near)


def _date_edits(claim: str, passage: str) -> list[tuple[int, int, str]]:
    """(start, end, the passage's form) for each date of the claim the passage writes another
    way; a claim's date the passage also writes as the claim does stays."""
    if _DIGIT.search(claim) is None:
        return []
    mine = [m for m in _DATES.finditer(claim) if m.group() not in passage]
    if not mine:
        return []  # most claims: the passage's dates are not needed
    theirs = _passage_dates(passage)
    edits: list[tuple[int, int, str]] = []
    for m in mine:
        days = _days(m)
        written = next((w for w, their in theirs if days & their), None)
        if written is None:
            continue
        start, end = m.start(), m.end()
        if not _ORDINAL_DAY.match(written):
            start = _date_start(claim, m)  # "on the 5th of March 2024": "on 2024-03-05"
        if _TIME_OF_DAY.match(claim, end):
            end, written = end + 1, written + " "  # "2024-03-05T14:00Z": "5 March 2024 14:00Z"
        edits.append((start, end, written))
    return edits


_ORDINAL_DAY = re.compile(r"\d{1,2}(?:st|nd|rd|th)\b")
_THE = re.compile(r"(?i:\bthe[ \t]+)$")
_TIME_OF_DAY = re.compile(r"T\d\d:\d\d")
_ISO_CLOCK = re.compile(r"T\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?")
"""An ISO date's time of day, with its zone ("T14:00:00Z", "T01:00+09:00")."""


def _date_start(text: str, m: re.Match[str]) -> int:
    """Where a date starts, "the" before a day written as an ordinal included ("the 5th of
    March 2024")."""
    if m.group("d1") and _ORDINAL_DAY.match(m.group()):
        the = _THE.search(text, max(0, m.start() - 8), m.start())
        if the is not None:
            return the.start()
    return m.start()


_CLOCK = re.compile(
    r"(?i:\b(?P<h>1[0-2]|0?[1-9])(?::(?P<m>[0-5]\d))?[ ]?(?P<half>[ap]\.m\.|[ap]m\b)"
    r"|(?<![\d:.,])(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)(?![\d:])(?![ ]?[ap]\.?m\b))"
)
"""A time of day: "3pm", "3:30 p.m.", "11am", "15:00", "9:05"."""
_CLOCK_BEFORE = re.compile(
    r"(?i:\b(?:at|from|until|till|to|by|before|after|around|since|between|and|open|opens"
    r"|close|closes)[ ]+$|[-–—][ ]*$)"
)
_CLOCK_AFTER = re.compile(
    r"(?i:[ ]*(?:(?:[-–—]|to|until|till)[ ]*\d{1,2}(?::\d\d|[ ]?[ap]\.?m\b)"
    r"|(?:UTC|GMT|[A-Z]{2,4}T|local|Uhr|h|hrs|o'clock)\b))"
)


def _clocks(text: str) -> list[tuple[int, int, int]]:
    """(start, end, minutes after midnight) of each time of day ``text`` writes: with "am" or
    "pm", or on a 24-hour clock with a leading zero ("07:00") or where a word of time stands
    before it ("at 15:00", "from", "opens"), a dash or "to" and a time or a zone after it
    ("11:00–22:00", "07:00 to 22:00", "15:00 UTC"; not "won 2:30", a score or a time
    taken)."""
    if ":" not in text and "m" not in text.lower():
        return []
    found: list[tuple[int, int, int]] = []
    for m in _CLOCK.finditer(text):
        if m.group("h"):
            hour = int(m.group("h")) % 12 + (12 if m.group("half")[0].lower() == "p" else 0)
            minutes = hour * 60 + int(m.group("m") or 0)
        else:
            before = _CLOCK_BEFORE.search(text, max(0, m.start() - 10), m.start())
            zero = m.group("h24").startswith("0")  # "07:00": a clock's way to write it
            if before is None and not zero and not _CLOCK_AFTER.match(text, m.end()):
                continue
            minutes = int(m.group("h24")) * 60 + int(m.group("m24"))
        found.append((m.start(), m.end(), minutes))
    return found


def _clock_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states a time of day (:func:`_clocks`) the passage gives as another
    after the same words (:func:`_leads_alike`), in a clause that says the claim's fact and is
    of its frame: "The pharmacy closes at 18:00 on weekdays." against "The pharmacy closes at
    19:00 on weekdays."; "leaves at 6:45" against "leaves at 6:15". None where the passage
    gives the claim's time anywhere, in any form ("Sat 10am-4pm" holds "opens at 10:00")."""
    mine = _clocks(claim)
    if not mine:
        return False
    theirs = _clocks(passage)
    if not theirs or len(mine) * len(theirs) > _MOST_PAIRS:
        return False
    given = {minutes for _, _, minutes in theirs}
    starts = [a for a, _, _ in theirs]
    return any(
        minutes not in given and _said_otherwise(claim, start, end, passage, starts)
        for start, end, minutes in mine
    )


def _clock_edits(claim: str, passage: str) -> list[tuple[int, int, str]]:
    """(start, end, the passage's form) for each time of day of the claim the passage writes
    another way: "kicks off at 3pm" against "Kick-off is at 15:00" reads "kicks off at 15:00";
    "from 11am to 10pm" against "11:00–22:00" reads "from 11:00 to 22:00"."""
    mine = _clocks(claim)
    if not mine:
        return []
    theirs = _clocks(passage)
    edits: list[tuple[int, int, str]] = []
    for start, end, minutes in mine:
        written = claim[start:end]
        if any(passage[a:b] == written for a, b, _ in theirs):
            continue
        same = next((passage[a:b] for a, b, m in theirs if m == minutes), None)
        if same is None:
            continue
        rest = claim[end:].lstrip()
        if written.endswith(".") and (not rest or rest[:1].isupper()) and not same.endswith("."):
            same += "."  # "at 3 p.m." ends the sentence too
        if same.endswith(".") and claim[end : end + 1] == ".":
            same = same[:-1]  # "at 15:00." for "3 p.m.": the sentence's own point stays
        edits.append((start, end, same))
    return edits


_DECADE = re.compile(r"(?i:\b(?:the[ ]+)?(?:(early|mid|late)[- ]?)?(1[0-9]\d|20\d)0s\b)")
"""A decade ("the 1990s", "the early 2000s", "the mid-1980s")."""
_DECADE_PART = {None: (0, 9), "early": (0, 4), "mid": (3, 7), "late": (6, 9)}
"""The years of a decade each qualifier covers."""
_YEAR = re.compile(r"(?<![\d.,/:-])(1[0-9]\d\d|20\d\d)(?![\d/:]|[.,-]\d|s\b)")
"""A year ("1994"; not a decade, "1990s")."""


def _decade_edits(claim: str, passage: str) -> list[tuple[int, int, str]]:
    """(start, end, a year) for each decade of the claim a sentence of the passage that says
    the claim's fact gives as one year of it: "was founded in Seattle in the 1990s." against
    "was founded in 1994 in Seattle" reads "... in 1994." (a claim less precise than its
    source). The sentence must hold three quarters of the claim sentence's content words and
    no year but that one."""
    found = list(_DECADE.finditer(claim))
    if not found:
        return []
    edits: list[tuple[int, int, str]] = []
    for m in found:
        if _RELATIVE.search(claim, max(0, m.start() - 12), m.start()):
            continue  # "before the 1950s" is no year of them
        low, high = _decade_years(m)
        own = set(content_terms(m.group()))
        rest = [w for w in content_terms(_sentence_of(claim, m.start())) if w not in own]
        rest = [w for w in rest if not w[:1].isdigit()]
        for a, b in source_sentence_spans(passage):
            years = {int(y) for y in _YEAR.findall(passage, a, b)}
            if len(years) != 1 or not low <= min(years) <= high:
                continue
            held = set(content_terms(passage[a:b]))
            if rest and sum(w in held for w in rest) >= VALUE_COVERAGE * len(rest):
                edits.append((m.start(), m.end(), str(min(years))))
                break
    return edits


@lru_cache(maxsize=4096)
def _passage_dates(passage: str) -> tuple[tuple[str, frozenset[tuple[int, int, int]]], ...]:
    """A passage's dates as written, with the days each may be (once per passage)."""
    return tuple((m.group(), _days(m)) for m in _DATES.finditer(passage))


@lru_cache(maxsize=4096)
def date_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states a full date, a month of a year, a time of day, a century or a
    decade the passage gives as another after the same words, in a clause that says the
    claim's fact (:func:`_day_conflict`, :func:`_month_conflict`, :func:`_clock_conflict`,
    :func:`_period_conflict`)."""
    return (
        _day_conflict(claim, passage)
        or _month_conflict(claim, passage)
        or _clock_conflict(claim, passage)
        or _period_conflict(claim, passage)
    )


def _day_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states a full date the passage gives as another day after the same
    words (:data:`VALUE_WORDS`, two at least, one a content word), in a sentence holding three
    quarters of the claim's words: "Release 2.4.0 was published on 18 June 2023." against
    "Release 2.4.0 was published on 2023-07-18 ..." (a small judge reads it as support, 0.52).
    A date the passage also gives in any form is none, nor a day and month it names anywhere
    ("(02:56 UTC on 21 July)"), nor one either way round ("03/04/2020") that either reading
    of the other meets (:func:`_days`, ``loose``), nor any against a passage of two calendars
    ("Old Style"); the words must be of the date's clause ("The House passed it on 5 March,
    and the Senate ... two days later" says nothing of the Senate's day)."""
    if _DIGIT.search(claim) is None:
        return False
    theirs = [(m, _days(m, loose=True)) for m in _DATES.finditer(passage)]
    if not theirs or len(theirs) > _MOST_PAIRS:
        return False  # no date, or a table of them: the judge's to read
    if _OLD_STYLE.search(passage):
        return False  # "20 March 1726/27 (Old Style)": two calendars
    for m in _DATES.finditer(claim):
        days = _days(m, loose=True)
        if not days or any(days & their for _, their in theirs):
            continue
        if any(_names_day(passage, month, day) for _, month, day in days):
            continue  # "(02:56 UTC on 21 July)": the passage gives the claim's day too
        before = _lead(claim, _date_start(claim, m))
        if before is None:
            continue
        time = _ISO_CLOCK.match(claim, m.end())  # "T14:00:00Z": the date's too
        end = time.end() if time else m.end()
        rest = _fact_terms(claim, m.start(), end)  # "June": the date's, not the fact's
        for t, their in theirs:
            if not their or not _leads_alike(
                claim, _date_start(claim, m), before, passage, _date_start(passage, t)
            ):
                continue
            if _says_fact(passage, t.start(), rest) and not _other_frame(
                claim, m.start(), end, passage, t.start()
            ):
                return True
    return False


_MONTH_YEAR = re.compile(
    r"(?<!\d[ ])(?<!\d\.[ ])(?<!\d(?:st|nd|rd|th)[ ])(?<!\d[ ]of[ ])"
    r"(?<!\d(?:st|nd|rd|th)[ ]of[ ])"
    rf"\b(?P<m>{_MONTH_NAME})\.?,?[ \t]+(?:of[ \t]+)?"
    r"(?P<y>1[0-9]\d\d|20\d\d)\b(?![\d/:]|[.,-]\d)"
)
"""A month of a year with no day ("April 2023", "Sept. 2021", "March of 2020"; not "5 April
2023", "April 5, 2023")."""


def _month_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states a month of a year ("in April 2022") the passage gives as
    another month or year after the same words (:func:`_leads_alike`), in a clause that says
    the claim's fact and is of its frame: "India overtook China as the most populous country in
    April 2022." against "... in April 2023." (a small judge reads it as support, 0.95). None
    where the passage names the claim's month and year anywhere, with a day or without; a
    passage of more than 100,000 characters is left to the judge."""
    if _DIGIT.search(claim) is None or len(passage) > _CLAUSE_REACH * 50:
        return False
    theirs = [
        (t.start(), t.end(), month_number(t.group("m")), int(t.group("y")))
        for t in _MONTH_YEAR.finditer(passage)
    ]
    named = {(month, year) for _, _, month, year in theirs}
    for t in _DATES.finditer(passage):
        days = _days(t, loose=True)
        named |= {(month, year) for year, month, _ in days}
        if len(days) == 1:  # "on 15 November 2022": a day of November 2022
            theirs += [(_date_start(passage, t), t.end(), month, year) for year, month, _ in days]
    if not theirs or len(theirs) > _MOST_PAIRS:
        return False
    for m in _MONTH_YEAR.finditer(claim):
        month, year = month_number(m.group("m")), int(m.group("y"))
        if month is None or (month, year) in named:
            continue
        before = _lead(claim, m.start())
        if before is None:
            continue
        rest = _fact_terms(claim, m.start(), m.end())
        on = [*before[:-1], "on"] if before[-1] == "in" else None  # "in October" / "on 9 November"
        for at, end, their_month, their_year in theirs:
            if (their_month, their_year) == (month, year) or _names_month(passage, at, end, month):
                continue
            if not _leads_alike(claim, m.start(), before, passage, at) and not (
                on is not None and _words_before(passage, at, len(on)) == on
            ):
                continue
            if _says_fact(passage, at, rest) and not _other_frame(
                claim, m.start(), m.end(), passage, at
            ):
                return True
    return False


_MONTH_WORD = re.compile(rf"\b{_MONTH_NAME}\b")


def _names_month(text: str, at: int, end: int, month: int) -> bool:
    """Whether the sentence around ``text[at:end]``, outside it, names ``month`` ("The tour
    began in June and ended in August 2023": June of 2023)."""
    a, b = _sentence_span(text, at)
    return any(
        month_number(m.group()) == month and not at <= m.start() < end
        for m in _MONTH_WORD.finditer(text, a, b)
    )


_CENTURY_WORDS = {
    word: k
    for k, word in enumerate(
        """first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
        thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth
        twenty-first twenty-second""".split(),
        start=1,
    )
}
_CENTURY = re.compile(
    r"(?i:\b(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<w>twenty[- ](?:first|second)|[a-z]+th|first"
    r"|second|third))[ -]centur(?:y|ies)\b(?P<era>[ ]*(?:BCE?|B\.C\.(?:E\.)?))?)"
)
"""A century ("the 19th century", "the eighteenth century", "the 5th century BC")."""


def _century(m: re.Match[str]) -> tuple[int, int] | None:
    """The years of a century match (before Christ negative), or None where its word is no
    number."""
    if m.group("n"):
        number: int | None = int(m.group("n"))
    else:
        number = _CENTURY_WORDS.get(m.group("w").lower().replace(" ", "-"))
    if number is None or number < 1:
        return None
    if m.group("era") is not None:
        return -100 * number, -100 * (number - 1) - 1
    return 100 * (number - 1) + 1, 100 * number


def _periods(text: str, *, years: bool) -> list[tuple[int, int, tuple[int, int]]]:
    """A text's centuries and decades (and with ``years`` its other years), each as (start,
    end, (its first year, its last)): "the 19th century" is 1801 to 1900, "the early 1970s"
    1970 to 1974."""
    found: list[tuple[int, int, tuple[int, int]]] = []
    if "entur" in text:
        for m in _CENTURY.finditer(text):
            if (c := _century(m)) is not None:
                the = _THE.search(text, max(0, m.start() - 8), m.start())
                found.append((the.start() if the else m.start(), m.end(), c))  # "the 19th"
    for m in _DECADE.finditer(text) if "0s" in text else ():
        found.append((m.start(), m.end(), _decade_years(m)))
    if years:
        taken = _Taken()
        for start, end, _ in found:
            if not taken.overlaps(start, end):
                taken.add(start, end)
        found += [
            (m.start(), m.end(), (int(m.group(1)), int(m.group(1))))
            for m in _YEAR.finditer(text)
            if not taken.overlaps(m.start(), m.end())
        ]
    return found


_RELATIVE = re.compile(r"(?i:\b(?:before|after|since|until|till|by|from)[ ]+$)")
"""A word that puts a time before or after a period ("before the 1950s")."""
_HUNDREDS_PART = {None: (0, 99), "early": (0, 33), "mid": (33, 66), "late": (66, 99)}
"""The years of a hundred ("the 1800s") each qualifier covers."""


def _decade_years(m: re.Match[str]) -> tuple[int, int]:
    """The first and last year a decade match covers: "the 1990s" 1990 to 1999, "the early
    2000s" 2000 to 2004; a round hundred is read as its hundred years ("the 1800s" 1800 to
    1899, "the early 1900s" 1900 to 1933; "the 2000s" 2000 to 2099, as either)."""
    part = m.group(1) and m.group(1).lower()
    decade = int(m.group(2)) * 10
    if decade % 100 == 0:
        first, last = _HUNDREDS_PART[part]
    else:
        first, last = _DECADE_PART[part]
    return decade + first, decade + last


def _period_conflict(claim: str, passage: str) -> bool:
    """Whether the claim names a century or a decade the passage, after the same words, gives
    as another period or a year outside it, in a clause that says the claim's fact: "The
    castle was built in the eighteenth century." against "... in the 19th century." (a small
    judge reads it as support, 0.49); "became popular in the 1970s" against "in the 1960s". A
    period or year the passage names anywhere that meets the claim's is none ("the 1970s" and
    "the early 1970s", "in 1975")."""
    mine = _periods(claim, years=False)
    if not mine:
        return False
    theirs = _periods(passage, years=True)
    if len(mine) * len(theirs) > _MOST_PAIRS:
        return False  # a table of years: the judge's to read
    starts = [at for at, _, _ in theirs]
    return any(
        not any(a <= high and low <= b for _, _, (a, b) in theirs)
        and _said_otherwise(claim, start, end, passage, starts)
        for start, end, (low, high) in mine
    )


def _said_otherwise(claim: str, start: int, end: int, passage: str, starts: Sequence[int]) -> bool:
    """Whether one of the passage's values at ``starts`` stands after the words before
    ``claim[start:end]`` (:func:`_lead`, :func:`_leads_alike`) in a clause that says the
    claim's fact and is of its frame: the claim's value, which the passage does not give,
    said otherwise."""
    before = _lead(claim, start)
    if before is None:
        return False
    rest = _fact_terms(claim, start, end)
    return any(
        _leads_alike(claim, start, before, passage, at)
        and _says_fact(passage, at, rest)
        and not _other_frame(claim, start, end, passage, at)
        for at in starts
    )


_OLD_STYLE = re.compile(r"\b(?:O\.S\.|N\.S\.|Old Style|New Style|Julian|Gregorian)\b")
_DAY_AND_MONTH = re.compile(
    rf"\b(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?P<m1>{_MONTH_NAME})\b"
    rf"|\b(?P<m2>{_MONTH_NAME})\.?[ \t]+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b"
)
"""A day of a month with or without its year ("21 July", "July 21st", "Jul. 21")."""


_A_YEAR_AFTER = re.compile(r"\.?,?[ \t]+\d{4}\b")


def _names_day(text: str, month: int, day: int) -> bool:
    """Whether ``text`` names a day of a month in words without a year ("on 21 July"; not "on
    21 July 1968", another day)."""
    return any(
        month_number(m.group("m1") or m.group("m2")) == month
        and int(m.group("d1") or m.group("d2")) == day
        and not _A_YEAR_AFTER.match(text, m.end())
        for m in _DAY_AND_MONTH.finditer(text)
    )


_CURRENCY_FAMILY = {
    "$": "dollar", "us$": "dollar", "a$": "dollar", "c$": "dollar", "nz$": "dollar",
    "hk$": "dollar", "s$": "dollar", "usd": "dollar", "cad": "dollar", "aud": "dollar",
    "dollar": "dollar", "dollars": "dollar",
    "€": "euro", "eur": "euro", "euro": "euro", "euros": "euro",
    "£": "pound", "gbp": "pound", "sterling": "pound",
    "¥": "yen", "jpy": "yen", "yen": "yen",
    "₹": "rupee", "inr": "rupee", "rupee": "rupee", "rupees": "rupee",
    "chf": "franc", "francs": "franc",
}  # fmt: skip
"""A currency's sign, code or name → its family: a sign a dollar of any country may use
(``$``) is read with every dollar."""
_AMOUNT_NUMBER = (
    r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?)(?![.,]?\d)"
    r"(?:[ \u00a0]?((?i:thousand|million|billion|trillion|mn|bn|tn|k|m|b|t"
    r"|tsd|mio|mrd|millionen|milliarden?|millions|milliards?|millones))\b\.?)?"
)
_AMOUNT = re.compile(
    rf"(?<![\w$€£¥₹])(US\$|A\$|C\$|NZ\$|HK\$|S\$|\$|€|£|¥|₹|USD|EUR|GBP|JPY|INR|CHF|CAD|AUD)"
    rf"[ \u00a0]?{_AMOUNT_NUMBER}"
    rf"|(?<![\w.,])(?<!\d[.,]){_AMOUNT_NUMBER}[ \u00a0]?"
    r"(USD|EUR|GBP|JPY|INR|CHF|CAD|AUD|€|(?i:(?:U\.?S\.?[ \u00a0]+|US[ \u00a0]+)?dollars?|euros?"
    r"|yen|rupees?|francs|sterling))(?!\w)",
)
"""An amount of money: a sign or code before the number (``$5``, ``€5 billion``, ``US$5m``,
``EUR 5``) or a code or name after it (``5 euros``, ``5 billion yen``); "pounds" after a number
is as often a weight, so only ``£`` and ``GBP`` read as pounds."""
_AMOUNT_SCALE = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6,
    "billion": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12, "tn": 1e12, "t": 1e12,
    "tsd": 1e3, "mio": 1e6, "millionen": 1e6, "millions": 1e6, "millones": 1e6,
    "mrd": 1e9, "milliarde": 1e9, "milliarden": 1e9, "milliard": 1e9, "milliards": 1e9,
}  # fmt: skip


@lru_cache(maxsize=4096)
def money_amounts(text: str) -> tuple[tuple[str, str], ...]:
    """The amounts of money ``text`` states, as (value, currency family): ``€5 billion`` is
    ``("5000000000", "euro")``, ``US$1.2m`` ``("1200000", "dollar")``, ``40 yen`` ``("40",
    "yen")``."""
    if _DIGIT.search(text) is None:
        return ()
    found: list[tuple[str, str]] = []
    comma = decimal_comma(text)
    for m in _AMOUNT.finditer(text):
        if m.group(1) is not None:
            sign, number, scale = m.group(1), m.group(2), m.group(3)
        else:
            number, scale, sign = m.group(4), m.group(5), m.group(6)
        name = sign.strip().lower()
        family = _CURRENCY_FAMILY.get(
            name, "dollar" if name.endswith(("dollar", "dollars")) else None
        )
        factor = _AMOUNT_SCALE.get((scale or "").lower(), 1.0)
        value = scaled_value(canonical_number(number, comma), factor)
        if family is not None and value is not None:
            found.append((value, family))
    return tuple(found)


def currency_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states an amount the passage gives only in another currency: "It cost
    €5 billion." against "It cost $5 billion." (a small judge reads the two as one). An amount
    the passage also gives in the claim's currency, or not at all, or a passage that names the
    claim's currency anywhere, is no conflict."""
    mine = money_amounts(claim)
    if not mine:
        return False
    theirs = money_amounts(passage)
    for value, family in mine:
        others = {f for v, f in theirs if v == value}
        if others and _MENTIONS[family].search(passage) is None:
            return True  # not "five dollars a month, or 5 euros": the passage names dollars
    return False


_MENTIONS = {
    "dollar": re.compile(r"\$|\b(?:USD|CAD|AUD|dollars?)\b", re.IGNORECASE),
    "euro": re.compile(r"€|\b(?:EUR|euros?)\b", re.IGNORECASE),
    "pound": re.compile(r"£|\b(?:GBP|sterling|pounds)\b", re.IGNORECASE),
    "yen": re.compile(r"¥|\b(?:JPY|yen)\b", re.IGNORECASE),
    "rupee": re.compile(r"₹|\b(?:INR|rupees?)\b", re.IGNORECASE),
    "franc": re.compile(r"\b(?:CHF|francs?)\b", re.IGNORECASE),
}
"""Where a text names a currency in any way (a sign, a code, a word): then it may give the
claim's amount in words ("five million dollars") the amounts are not read from."""


def clear_quantity_cache() -> None:
    """Forget every text's cached quantities, dates and amounts (as if no text was seen)."""
    for cached in (
        as_written_in,
        _quantities_once,
        _passage_dates,
        money_amounts,
        value_conflict,
        date_conflict,
    ):
        cached.cache_clear()
    decimal_comma.cache_clear()
