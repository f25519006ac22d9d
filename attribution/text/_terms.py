"""Fast text utilities for source text: sentence spans, word tokens, numbers, names.

Source text can be large (a hundred scraped pages of a few thousand words), so these are plain
regular expressions rather than a spaCy pipeline; the answer, which is short and markdown, is
segmented by :mod:`attribution.segment`. Every span is a half-open code-point range into the
text it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation, localcontext
from functools import lru_cache
from typing import NamedTuple

__all__ = [
    "STOPWORDS",
    "SpelledNumber",
    "content_terms",
    "day_before_month",
    "decimal_comma",
    "ends_with_day",
    "entity_terms",
    "negated",
    "number_terms",
    "source_sentence_spans",
    "spelled_numbers",
    "stem",
    "word_tokens",
]

_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "cf",
        "al",
        "fig",
        "figs",
        "no",
        "nos",
        "vol",
        "vols",
        "p",
        "pp",
        "ed",
        "eds",
        "inc",
        "ltd",
        "co",
        "corp",
        "dept",
        "univ",
        "approx",
        "est",
        "gen",
        "gov",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "u.s",
        "u.k",
        "u.n",
        "e.u",
        "a.m",
        "p.m",
        "ph.d",
        "b.c",
        "a.d",
        "op",
        "ca",
        "mt",
        "ft",
    ]
)
# A sentence ends at . ! ? (or their CJK forms) followed by space and what can start a sentence,
# or at a line break that ends a line with such punctuation, or at a blank line.
_END_THEN_SPACE = (
    r"""(?<=[.!?。！？])(?P<tail>["'”’)\]]*(?:\[\d+\])*)\s+"""
    r"""(?=["'“‘(\[]?[A-Z0-9\u00C0-\u024F\u0400-\u04FF#*>-])"""
)
_LINE_ENDS = (
    r"""|\n[ \t]*\n\s*"""
    r"""|(?<=[.!?:;])[ \t]*\n\s*"""
    r"""|\n(?=[ \t]*(?:[-*+•]|\d+[.)]|\#{1,6}\s|\|))"""
)
_SENTENCE_END = re.compile(_END_THEN_SPACE + r"""|(?<=[。！？])""" + _LINE_ENDS)
_SENTENCE_END_NONEMPTY = re.compile(_END_THEN_SPACE + _LINE_ENDS)
"""``_SENTENCE_END`` without its one empty match (right after a CJK full stop)."""
_SENTENCE_END_AT = re.compile(r"[.!?。！？:;\n]")
"""Where a match of ``_SENTENCE_END`` can start: after one of these, or at a line break."""


def _sentence_ends(text: str) -> Iterator[re.Match[str]]:
    """``_SENTENCE_END.finditer(text)``, about four times faster: the pattern opens with
    look-behinds, so the regex engine tries it at every character; it is tried here only where
    it can match (after end punctuation, at a line break)."""
    at = 0  # where the next match may start
    tried = -1
    for hit in _SENTENCE_END_AT.finditer(text):
        p = hit.start() if hit.group() == "\n" else hit.end()
        if p < at or p == tried:
            continue
        tried = p
        m = _SENTENCE_END.match(text, p)
        if m is None:
            continue
        if m.end() == p:  # an empty match: finditer's next match at p must not be empty
            yield m
            m = _SENTENCE_END_NONEMPTY.match(text, p)
            if m is None:
                at = p
                continue
        yield m
        at = m.end()


_WORD = re.compile(r"\d+(?:[.,]\d+)*%?|[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)
_WORD_SPLIT = re.compile(f"({_WORD.pattern})", re.UNICODE)
_ASCII_WORD_SPLIT = re.compile(r"([0-9]+(?:[.,][0-9]+)*%?|[a-z]+(?:'[a-z]+)*)")
"""``_WORD_SPLIT`` for lower-cased ASCII text, where it splits the same way (``\\d`` is 0-9 and a
letter a-z there) about 40% faster."""
_NUMBER = re.compile(
    r"(?<![\w.])(?:\d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)*)"
    r"(?:\s?%)?"
)
"""A number in digits: ``1,820``, ``6.50``, ``12 %``, and thousands set apart by a no-break or
thin space as French and German typesetting write them (``7\u202f300``)."""
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:of|de|von|van|the|la|du)?\s*[A-Z][\w'’-]*)*")
_NEGATION = re.compile(
    r"\b(?:not|no|never|neither|nor|none|cannot|can't|won't|isn't|wasn't|"
    r"aren't|weren't|doesn't|didn't|don't|hasn't|haven't|hadn't|without)\b",
    re.IGNORECASE,
)
_SCALE = {
    "thousand": 1e3,
    "million": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "trillion": 1e12,
    "tn": 1e12,
    # German, French, Spanish, Italian, Dutch ("3,2 Mio. Euro", "1,5 milliard", "2 millones");
    # not "Billion" (a trillion in German and French, a billion in English)
    "tsd": 1e3,
    "tausend": 1e3,
    "mio": 1e6,
    "millionen": 1e6,
    "millions": 1e6,
    "millones": 1e6,
    "milioni": 1e6,
    "miljoen": 1e6,
    "mln": 1e6,
    "mrd": 1e9,
    "milliarde": 1e9,
    "milliarden": 1e9,
    "milliard": 1e9,
    "milliards": 1e9,
    "miliardi": 1e9,
    "miljard": 1e9,
    "mld": 1e9,
    "billionen": 1e12,
}
_SCALED = re.compile(
    r"(?<!\d)(?<!\d[.,])(\d+(?:[.,]\d+)*)\s*("
    + "|".join(sorted(_SCALE, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "may",
        "might",
        "must",
        "shall",
        "upon",
        "per",
        "via",
        "among",
        "within",
        "without",
        "across",
        "around",
        "however",
        "therefore",
        "thus",
        "although",
        "though",
        "yet",
        "whether",
        "either",
        "neither",
        "one",
        "ones",
        "many",
        "much",
        "several",
        "including",
        "include",
        "includes",
        "included",
        "known",
        "called",
        "based",
        "according",
        "used",
        "using",
        "use",
        "well",
        "like",
        "also",
        "often",
    ]
)


_DAY_DOT = re.compile(r"(?<![\d.,])(?:[1-9]|[012]\d|3[01])\.$")
"""A day of the month written with a dot, as German and the Nordic languages write it."""
_MONTH_AFTER = re.compile(
    r"(?:Januar|Jänner|Februar|März|Maerz|April|Mai|Juni|Juli|August|September|Oktober"
    r"|November|Dezember|januar|februar|mars|april|mai|juni|juli|august|september|oktober"
    r"|november|desember|december|Jan|Feb|Mär|Apr|Jun|Jul|Aug|Sept?|Okt|Nov|Dez)"
    r"(?=[.,;:]?\s|[.,;:]?$)"
)
"""A month's name in those languages, whole (not "May", an English word; not "Augenblick")."""


def ends_with_day(text: str, end: int | None = None) -> bool:
    """Whether ``text[:end]`` (blanks after it aside) ends with a day of the month written with
    a dot (``am 13.``): a sentence may go on with the month's name."""
    end = len(text) if end is None else end
    return _DAY_DOT.search(text[max(0, end - 8) : end].rstrip()) is not None


def day_before_month(text: str, before: int, after: int) -> bool:
    """Whether the full stop that ends ``text[:before]`` writes a day and ``text[after:]``
    opens with the month's name: "am 13. August 1961", "des 9. November", "den 1. mai", where
    no sentence ends (a name that has not ended yet is no month: a stream waits for it)."""
    return ends_with_day(text, before) and _MONTH_AFTER.match(text, after) is not None


def _ends_with_abbreviation(text: str, end: int) -> bool:
    """True when the '.' before ``end`` closes an abbreviation or an initial, not a sentence."""
    stop = text.rfind(".", 0, end)
    begin = stop
    while begin > 0 and (text[begin - 1].isalpha() or text[begin - 1] == "."):
        begin -= 1
    word = text[begin:stop].lower()
    if not word:
        return False
    if len(word) == 1 and text[begin].isupper():
        return True  # an initial: J. P. Gardner
    return word in _ABBREVIATIONS


def source_sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence spans of ``text``, whitespace trimmed, in order, never empty.

    Splits after ``.!?`` (and ``。！？``) followed by a capital or digit, at blank lines, at line
    breaks after end punctuation, and before list items, headings and table rows; never after
    an abbreviation (``Dr.``, ``e.g.``, ``U.S.``) or an initial, nor inside a decimal, nor
    between a day and its month (``am 13. August``).
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _sentence_ends(text):
        tail = m.group("tail")
        cut = m.start() + len(tail or "")
        if cut <= start:
            continue
        if (
            tail is not None
            and text[m.start() - 1] == "."
            and (
                _ends_with_abbreviation(text, m.start())
                or day_before_month(text, m.start(), m.end())
            )
        ):
            continue
        spans.append((start, cut))
        start = m.end()
    spans.append((start, len(text)))
    out: list[tuple[int, int]] = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stemmer: enough to match launched/launch, segments/segment, studies/study."""
    w = word.lower()
    if w.endswith(("'s", "’s")):
        w = w[:-2]
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "xes", "zes", "ches", "shes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    for suffix, min_base in (("ing", 3), ("edly", 3), ("ed", 3), ("ly", 4)):
        if w.endswith(suffix) and len(w) - len(suffix) >= min_base:
            base = w[: -len(suffix)]
            if suffix != "ly" and len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]  # stopped -> stop, but not called -> cal
            return base
    return w


def _unit_table(groups: dict[str, str]) -> dict[str, str]:
    return {form: canon for forms, canon in groups.items() for form in forms.split()}


_UNITS = _unit_table(
    {
        "m metre metres meter meters": "metre",
        "km kilometre kilometres kilometer kilometers": "kilometre",
        "cm centimetre centimetres centimeter centimeters": "centimetre",
        "mm millimetre millimetres millimeter millimeters": "millimetre",
        "kg kilogram kilograms kilogramme kilogrammes kgs": "kilogram",
        "lb lbs pound pounds": "pound",
        "ft foot feet": "foot",
        "mi mile miles": "mile",
        "percent pct": "%",
        "mn million": "million",
        "bn billion": "billion",
        "tn trillion": "trillion",
        "hr hrs hour hours": "hour",
        "min mins minute minutes": "minute",
        "sec secs second seconds": "second",
        "yr yrs year years": "year",
    }
)
"""Unit spellings after a number, each to one form: ``330 m`` and ``330 metres`` match."""
_UNIT_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen".split()
    )
}
_TENS_WORDS = {
    w: 10 * i
    for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)
}
_ORDINAL_WORDS = {
    w: i
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
        "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split(),
        start=1,
    )
}
_ORDINAL_WORDS.update(
    {w.replace("ty", "tieth"): v for w, v in _TENS_WORDS.items()}  # twentieth .. ninetieth
)
_MULTIPLIERS = {"hundred": 100, "dozen": 12}
_BIG_SCALES = {"thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_NOT_ALONE = frozenset({"one", "first", "second"})
"""Number words that are a number only inside a longer one: alone, ``one`` is as often a
pronoun ("one of the") and ``first`` or ``second`` an order or a unit as a count."""
_STARTS = frozenset({"a", *_UNIT_WORDS, *_TENS_WORDS, *_ORDINAL_WORDS})
_ORDINAL_SUFFIX = frozenset({"st", "nd", "rd", "th"})
_JOINER = re.compile(r"[ \t]*-?[ \t]*")


class _WordNumber(NamedTuple):
    """A number written in words: ``end``, the index after its last word among the text's word
    matches, its ``value``, and for ``three million`` the ``group`` (3) said before the one
    ``scale`` word (``million``)."""

    end: int
    value: int
    group: int | None = None
    scale: str | None = None


def _word_number(text: _Words, i: int) -> _WordNumber | None:
    """The number written in words from word ``i`` of ``text`` on, or None: ``twenty-one``,
    ``two hundred and five``, ``a thousand``, ``three million``, ``twenty-first``. It stops at
    any word or gap that cannot continue it ("two, three" are two numbers)."""
    total = current = 0
    state = "start"
    scales: list[str] = []
    last_scale = 10**13
    words = text.words
    j = i
    while j < len(words):
        word = words[j]
        if j > i and not _JOINER.fullmatch(text.gaps[j - 1]):
            break
        if word == "a" and state == "start":
            nxt = words[j + 1] if j + 1 < len(words) else ""
            if nxt not in _MULTIPLIERS and nxt not in _BIG_SCALES:
                return None
            current, state = 1, "a"
        elif word == "and" and state in ("hundred", "scale"):
            nxt = words[j + 1] if j + 1 < len(words) else ""
            if nxt not in _UNIT_WORDS and nxt not in _TENS_WORDS:
                break
            state = "and"
        elif word in _UNIT_WORDS or word in _ORDINAL_WORDS:
            value = _UNIT_WORDS.get(word, _ORDINAL_WORDS.get(word, 0))
            after_tens = state == "tens" and 1 <= value <= 9
            if state not in ("start", "hundred", "scale", "and") and not after_tens:
                break
            current += value
            state = "unit"
            if word in _ORDINAL_WORDS:
                j += 1
                break  # an ordinal ends the number
        elif word in _TENS_WORDS:
            if state not in ("start", "hundred", "scale", "and"):
                break
            current += _TENS_WORDS[word]
            state = "tens"
        elif word in _MULTIPLIERS:
            if state not in ("unit", "tens", "a") or current >= 100:
                break
            current *= _MULTIPLIERS[word]
            state = "hundred"
        elif word in _BIG_SCALES:
            scale = _BIG_SCALES[word]
            if state not in ("unit", "tens", "a", "hundred") or scale >= last_scale:
                break
            total += current * scale
            scales.append(word)
            last_scale, current, state = scale, 0, "scale"
        else:
            break
        j += 1
    if j > i and words[j - 1] == "and":
        j -= 1
    used = words[i:j]
    if not used or state in ("start", "a") or (len(used) == 1 and used[0] in _NOT_ALONE):
        return None
    value = total + current
    if len(scales) == 1 and current == 0:
        return _WordNumber(j, value, value // _BIG_SCALES[scales[0]], scales[0])
    return _WordNumber(j, value)


class _Words(NamedTuple):
    """A text's word tokens, lower-cased, and ``gaps[k]``, the text between words k and k+1."""

    words: list[str]
    gaps: list[str]

    @classmethod
    def of(cls, text: str) -> _Words:
        if text.isascii():  # gaps hold no letter, and lower() keeps every length
            parts = _ASCII_WORD_SPLIT.split(text.lower())  # [before, word, gap, ..., word, after]
            return cls(parts[1::2], parts[2::2])
        parts = _WORD_SPLIT.split(text)
        return cls([w.lower() for w in parts[1::2]], parts[2::2])


def _word_numbers(words: _Words, *, quick: bool = True) -> dict[int, _WordNumber]:
    """The numbers written in words among ``words``, by the index of their first word
    (``quick``: none looked for when no word can write one; False only to test that)."""
    found: dict[int, _WordNumber] = {}
    if quick and _WORD_NUMBER_CUES.isdisjoint(words.words):
        return found  # most texts: no word that can write a number
    end = 0  # a word inside a number found is not the start of another
    for i in [k for k, word in enumerate(words.words) if word in _STARTS]:
        if i < end:
            continue
        number = _word_number(words, i)
        if number is not None:
            found[i] = number
            end = number.end
    return found


class SpelledNumber(NamedTuple):
    """A number written in words in a text: its span, its ``value``, for ``three million`` the
    ``group`` (3) said before its one ``scale`` word (``million``), and whether it is an
    ``ordinal`` (``twenty-first``)."""

    start: int
    end: int
    value: int
    group: int | None
    scale: str | None
    ordinal: bool


def spelled_numbers(text: str) -> list[SpelledNumber]:
    """The numbers ``text`` writes in words (``eighteen``, ``twenty-five thousand``, ``a
    million``, ``third``), with their spans; ``one``, ``first`` and ``second`` alone are none
    (a pronoun, an order, a unit)."""
    lower = text.lower()
    if _WORD_NUMBER_CUES.isdisjoint(_ASCII_WORD.findall(lower)):
        return []
    spans = [m.span() for m in _WORD.finditer(text)]
    words = _Words(
        [text[a:b].lower() for a, b in spans],  # not lower[a:b]: "İ" lowers to two characters
        [text[spans[k][1] : spans[k + 1][0]] for k in range(len(spans) - 1)],
    )
    return [
        SpelledNumber(
            spans[i][0],
            spans[number.end - 1][1],
            number.value,
            number.group,
            number.scale,
            words.words[number.end - 1] in _ORDINAL_WORDS,
        )
        for i, number in _word_numbers(words, quick=False).items()
    ]


_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_ISO_DATE = re.compile(r"\b(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:\b|T(?=\d\d:\d\d))")
"""An ISO date, with the ``T`` before a time of day where one follows (``2024-03-05T14:00Z``)."""
_MONTH_NUMBERS = {
    **{month: k for k, month in enumerate(_MONTHS, 1)},
    **{month[:3]: k for k, month in enumerate(_MONTHS, 1)},
    "sept": 9,
}
_MONTH_BEFORE_NUMBER = re.compile(r"\b([A-Z][a-z]{2,8})\.?\s+\d{1,4}(?:st|nd|rd|th)?\b")
_NUMBER_BEFORE_MONTH = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Z][a-z]{2,8})\b")
_ASCII_WORD = re.compile(r"[a-z]+")
_ASCII_DIGITS = frozenset("0123456789")
_WORD_NUMBER_CUES = (_STARTS - _NOT_ALONE - {"a"}) | set(_MULTIPLIERS) | set(_BIG_SCALES)
"""Words without which a text writes no number in words."""
_CURRENCY_SCALED = re.compile(r"[$€£¥]\s?(\d+(?:[.,]\d+)*)\s?(k|m|mn|bn|b|tn)\b", re.IGNORECASE)
_LETTER_SCALED = re.compile(r"(?<![\w.])(?<!\d,)(\d+(?:[.,]\d+)*)([kK]|M|B)\b")
"""A number with a scale letter written on to it: ``1.2k stars``, ``10K run``, ``3M users``,
``a 7B model`` (not ``5km``, nor ``5m``, which is metres)."""
_LETTER_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9}
_CURRENCY_SCALE = {"k": 1e3, "m": 1e6, "mn": 1e6, "b": 1e9, "bn": 1e9, "tn": 1e12}


def month_number(name: str) -> int | None:
    """The number of a month named in full or cut short (``January``, ``Jan``, ``Sept``)."""
    return _MONTH_NUMBERS.get(name.lower())


def spell_iso_dates(text: str) -> str:
    """``2015-03-10`` → ``10 March 2015``, the way prose writes a date; a time of day after it
    set apart (``2024-03-05T14:00:00Z`` → ``5 March 2024 14:00:00Z``)."""
    if "-" not in text:
        return text
    return _ISO_DATE.sub(
        lambda m: (
            f"{int(m.group(3))} {_MONTHS[int(m.group(2)) - 1].capitalize()} {m.group(1)}"
            + (" " if m.group().endswith("T") else "")
        ),
        text,
    )


def _month_numbers(text: str) -> set[str]:
    """The number of each month named next to a day or a year (``10 March 2015``, ``March
    2015``), so a date matches its numeric forms (``10/03/2015``). A bare month names no
    number; the name must be capitalised (``May``, not the verb)."""
    names = [m.group(1) for m in _MONTH_BEFORE_NUMBER.finditer(text)]
    names += [m.group(1) for m in _NUMBER_BEFORE_MONTH.finditer(text)]
    found = {_MONTH_NUMBERS.get(name.lower()) for name in names}
    return {str(k) for k in found if k is not None}


def word_tokens(text: str) -> list[str]:
    """Lower-cased word and number tokens (numbers keep their decimal point).

    Written the same way whatever the form: a unit after a number has one spelling (``330 m``,
    ``330 metres`` → ``330 metre``; ``2.5bn`` → ``2.5 billion``), ``5%``, ``5 percent`` and
    ``5 per cent`` are ``5 %``, numbers in words are digits (``thirty-five`` → ``35``, ``two
    hundred`` → ``200``, ``three million`` → ``3 million``, ``third`` and ``3rd`` → ``3``), and
    an ISO date is spelled as prose writes it.
    """
    words = _Words.of(spell_iso_dates(text))
    numbers = _word_numbers(words)
    raw = [w.replace("’", "'") for w in words.words] if "’" in text else words.words
    # Only a number, a word number and the two words after either can be rewritten (a unit, an
    # ordinal suffix, "per cent"); every other word is copied as it is, a run at a time. In
    # ASCII a word holds a digit only if it is a number, and a number starts with one.
    digits = (
        [i for i, w in enumerate(raw) if w[0] in _ASCII_DIGITS]
        if text.isascii()
        else [i for i, w in enumerate(raw) if w[:1].isdigit() or w[-1:].isdigit()]
    )
    special = sorted(
        {k for i in digits for k in (i, i + 1, i + 2)}
        | {k for i, number in numbers.items() for k in (i, number.end, number.end + 1)}
    )
    out: list[str] = []
    i = 0
    at = 0  # the first special index not behind i
    while i < len(raw):
        while at < len(special) and special[at] < i:
            at += 1
        nxt = special[at] if at < len(special) else len(raw)
        if nxt > i:
            out.extend(raw[i:nxt])
            i = nxt
            continue
        token = raw[i]
        after_number = bool(out) and out[-1][:1].isdigit()
        number = numbers.get(i) if numbers else None
        if number is not None:
            if number.scale is not None:
                out.extend((str(number.group), number.scale))
            else:
                out.append(str(number.value))
            i = number.end
            continue
        if token[:1].isdigit() and token.endswith("%"):
            out.extend((token[:-1], "%"))
        elif (
            token in _ORDINAL_SUFFIX
            and i > 0
            and raw[i - 1][-1:].isdigit()
            and not words.gaps[i - 1]
        ):
            pass  # 3rd, 10th: the number alone
        elif after_number and token == "per" and raw[i + 1 : i + 2] == ["cent"]:
            out.append("%")
            i += 1
        elif after_number and token in _UNITS:
            out.append(_UNITS[token])
        else:
            out.append(token)
        i += 1
    return out


def may_begin_number(word: str) -> bool:
    """Whether ``word`` (a run of non-space characters) can begin a number the words after it
    go on or qualify: digits (``330`` before ``m``, ``5`` before ``per cent``) or a word that
    can write a number (``two`` before ``hundred``)."""
    core = word.strip(_EDGE_PUNCTUATION).lower()
    return core[:1].isdigit() or core in _STARTS or core in _WORD_NUMBER_CUES


_EDGE_PUNCTUATION = "\"'“”‘’()[]{}<>,.;:!?$€£¥"


def content_terms(text: str) -> list[str]:
    """Stemmed tokens without stopwords: the terms lexical scores compare."""
    return [stem(t) for t in word_tokens(text) if t not in STOPWORDS]


_SPACE = re.compile(r"\s")


_COMMA_GROUPS = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")
_DOT_GROUPS = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+(?:,\d+)?")
_ONE_GROUP = re.compile(r"(?<![\w.,])[1-9]\d{0,2}[.,]\d{3}(?![.,]?\d)")
"""A number that reads two ways: ``1.500`` is 1.5 in English and 1500 in German (``0.125`` is
never a thousand and a quarter)."""
_COMMA_LANGUAGE_WORDS = frozenset(
    """
    ist und nicht mit wurde wurden eine einer einen eines einem sich auf für dem sind wird
    werden bei zum zur auch als hat haben sie er wir ein im vom nach über unter rund etwa gibt
    gab liegt lag beträgt betrug zählt leben lebt insgesamt sowie durch ohne oder aber dass noch
    les est une dans pour qui sur avec sont été par au aux ont cette ces il elle pas compte
    mesure atteint
    el los las fue por una que es en tiene hay más entre
    gli della delle che è sono nel nella sul alla anche questo misura
    tem uma não são foi em ao pela pelo mais
    het een zijn werd niet voor ook wordt heeft naar bij
    """.split()
)
"""Frequent words, as written in lower case, of the languages that write a decimal comma
(German, French, Spanish, Italian, Portuguese, Dutch) and not of English; not the particles of
names ("de", "la", "le", "du", "des", "del", "von", "van", "der", "den", "di", "da", "das",
"y": "Rio de Janeiro", "Wernher von Braun"), nor "et" ("et al."), nor words English writes
("hat", "con", "per", "com", "as", "is", "die", "son")."""
_LETTERS = re.compile(r"[^\W\d_]+")
_ENGLISH_WORDS = frozenset(
    """
    the and is was of with that are were which has have had from by this its for on as at it
    he she they to be been an or not but in a his her their
    """.split()
)


@lru_cache(maxsize=4096)
def decimal_comma(text: str) -> bool:
    """Whether ``text`` writes its numbers with a decimal comma and a dot between thousands
    (German, French, Spanish, Italian, Portuguese, Dutch: ``1.500`` is 1500 and ``1,5`` 1.5),
    judged by its frequent words as written in lower case, of either kind (a capitalised word is
    a name or opens a sentence: "MIT researchers", "Le Monde", "In Berlin"); asked only where a
    number reads two ways (``1.500``, ``1,500``). A short text without such words reads the
    English way ("Het meer is 1.500 meter diep.": "is" is English too)."""
    if _ONE_GROUP.search(text) is None:
        return False
    words = _LETTERS.findall(text)
    theirs = sum(1 for w in words if w in _COMMA_LANGUAGE_WORDS)
    ours = sum(1 for w in words if w in _ENGLISH_WORDS)
    return theirs > ours


def canonical_number(raw: str, comma_decimal: bool = False) -> str:
    """``raw`` (a number as a text writes it) in one form: no group marks, a decimal point, no
    trailing zeros after it. ``1,500,000`` and ``1.500.000`` are ``1500000``, ``1.500,5``
    ``1500.5``, ``6.50`` ``6.5``; a number that reads two ways (``1.500``, ``1,500``) is read
    the English way unless ``comma_decimal`` (:func:`decimal_comma` of its text)."""
    value = _SPACE.sub("", raw).rstrip("%")  # "12 %" and "12\u202f%" (a no-break space)
    if _COMMA_GROUPS.fullmatch(value) and (
        not comma_decimal or value.count(",") > 1 or "." in value
    ):
        value = value.replace(",", "")  # 1,500,000
    elif _DOT_GROUPS.fullmatch(value) and (comma_decimal or value.count(".") > 1 or "," in value):
        value = value.replace(".", "")  # 1.500.000, 1.500,5; 1.500 in a German text
    value = value.replace(",", ".")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return value.lstrip("0") or "0"


def number_terms(text: str) -> set[str]:
    """The numbers in ``text`` in a canonical form, scaled words expanded.

    ``1.5 million`` gives ``{"1.5", "1500000"}``; ``1,500,000`` gives ``{"1500000"}``; ``6.50``
    gives ``{"6.5"}``; ``$2.5bn`` gives ``{"2.5", "2500000000"}``; numbers in words count
    (``thirty-five`` gives ``{"35"}``, ``three million`` ``{"3", "3000000"}``); a month next to
    a day or year gives its number (``10 March 2015`` gives ``{"10", "3", "2015"}``, as
    ``10/03/2015`` does), and ``1.2k`` gives ``{"1.2", "1200"}`` (``3M``, ``7B`` likewise). A
    year is a number like any other.
    """
    text = spell_iso_dates(text)
    comma = decimal_comma(text)
    found = {canonical_number(m.group(), comma) for m in _NUMBER.finditer(text)}
    words = set(_ASCII_WORD.findall(text.lower()))
    if not words.isdisjoint(_WORD_NUMBER_CUES):
        for number in _word_numbers(_Words.of(text)).values():
            found.add(str(number.value))
            if number.group is not None:
                found.add(str(number.group))
    if not words.isdisjoint(_MONTH_NUMBERS):
        found.update(_month_numbers(text))
    found.update(value for _, value in _scaled_numbers(text))
    return found


def number_scales(text: str) -> set[tuple[str, str]]:
    """The numbers ``text`` writes with a scale, each as (the number as written, its value),
    canonical as :func:`number_terms` gives them: ``1.5 million`` gives ``("1.5", "1500000")``,
    ``$2.5bn`` ``("2.5", "2500000000")``, ``1.2k`` ``("1.2", "1200")``, ``3M`` ``("3",
    "3000000")``, and in words likewise (``twenty-five thousand`` gives ``("25", "25000")``).
    A claim that writes a number so is not missing it where a text gives the value in full
    (``1,500,000``)."""
    found = _scaled_numbers(spell_iso_dates(text))
    for number in spelled_numbers(text):
        if number.group is not None:
            found.add((str(number.group), str(number.value)))
    return found


def scaled_matches(text: str) -> list[tuple[int, int, str, float]]:
    """Each number written with a scale, as (start of the number, end of the scale, the number
    as written, the scale's factor): ``1.5 million``, ``$2.5bn`` (from the ``2``), ``1.2k``."""
    found: list[tuple[int, int, str, float]] = []
    tables: tuple[tuple[re.Pattern[str], dict[str, float], bool], ...] = (
        (_SCALED, _SCALE, True),
        (_CURRENCY_SCALED, _CURRENCY_SCALE, True),
        (_LETTER_SCALED, _LETTER_SCALE, False),
    )
    for pattern, table, fold in tables:
        for m in pattern.finditer(text):
            word = m.group(2).lower() if fold else m.group(2)
            factor = table.get(word)  # None: "bıllıon" (a dotless i) matched without case
            if factor is not None:
                found.append((m.start(1), m.end(), m.group(1), factor))
    return found


def number_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the numbers written in digits (``1,820``, ``6.50``, ``12 %``)."""
    return [m.span() for m in _NUMBER.finditer(text)]


def _scaled_numbers(text: str) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    comma = decimal_comma(text)
    for _, _, raw, factor in scaled_matches(text):
        written = canonical_number(raw, comma)
        value = scaled_value(written, factor)
        if value is not None:
            out.add((written, value))
    return out


def scaled_value(written: str, factor: float) -> str | None:
    """``written`` (canonical) times ``factor``, canonical, in decimal arithmetic: ``16.4`` times
    a billion is ``16400000000`` (in floats, 16399999999.999998, which no text writes)."""
    with localcontext() as context:
        context.prec = 80  # exact for any number a text writes (28 digits rounded a long one)
        try:
            value = Decimal(written) * Decimal(repr(factor))
        except InvalidOperation:
            return None
        return canonical_number(format(value, "f"))


_RANGE_NUMBER = r"(\d+(?:[.,]\d+)*)\s?(?:%|percent|per\s+cent)?"
_RANGES = re.compile(
    rf"\bbetween\s+{_RANGE_NUMBER}\s+and\s+{_RANGE_NUMBER}"
    rf"|\bfrom\s+{_RANGE_NUMBER}\s+(?:to|until|through)\s+{_RANGE_NUMBER}"
    rf"|(?<![\w.,-]){_RANGE_NUMBER}\s?(?:-|–|—|to)\s?{_RANGE_NUMBER}(?![\w.,-]*\d)",
    re.IGNORECASE,
)


def number_ranges(text: str) -> list[tuple[str, str]]:
    """The ranges ``text`` states, as the canonical forms of their two ends, low first:
    ``between 80% and 90%``, ``from 1990 to 1995``, ``80-90%``, ``2015–2016``, ``5 to 10``. A
    number inside a range is consistent with the range (:func:`in_range`), so a claim that "all
    were between 80% and 90%" is not missing its numbers against a text that gives 85% and 89.4%.
    ``2015-16`` (the second end shortened) is not read, and a scale after a range (``5 to 10
    million``) is not applied to its ends."""
    found: list[tuple[str, str]] = []
    text = spell_iso_dates(text)
    comma = decimal_comma(text)
    for m in _RANGES.finditer(text):
        ends = [g for g in m.groups() if g is not None]
        if len(ends) != 2:
            continue
        lo, hi = (canonical_number(e, comma) for e in ends)
        try:
            if float(lo) < float(hi):
                found.append((lo, hi))
        except ValueError:
            continue
    return found


def in_range(number: str, low: str, high: str) -> bool:
    """Whether the canonical ``number`` lies in ``[low, high]``."""
    try:
        return float(low) <= float(number) <= float(high)
    except ValueError:
        return False


def entity_terms(text: str) -> set[str]:
    """Lower-cased capitalised words that are not at a sentence start: likely names."""
    names: set[str] = set()
    for start, end in source_sentence_spans(text):
        sentence = text[start:end]
        for m in _CAPITALISED.finditer(sentence):
            if m.start() == 0 or sentence[: m.start()].rstrip().endswith((":", '"', "“")):
                words = m.group().split()[1:]  # the first word is capitalised anyway
            else:
                words = m.group().split()
            names.update(w.lower() for w in words if w[0].isupper() and w.lower() not in STOPWORDS)
    return names


def negated(text: str) -> bool:
    """True when ``text`` contains a negation word."""
    return _NEGATION.search(text) is not None
