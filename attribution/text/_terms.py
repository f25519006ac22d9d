"""Fast text utilities for source text: sentence spans, word tokens, numbers, names.

Source text can be large (a hundred scraped pages of a few thousand words), so these are plain
regular expressions rather than a spaCy pipeline; the answer, which is short and markdown, is
segmented by :mod:`attribution.segment`. Every span is a half-open code-point range into the
text it came from.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "STOPWORDS",
    "content_terms",
    "entity_terms",
    "negated",
    "number_terms",
    "source_sentence_spans",
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
_SENTENCE_END = re.compile(
    r"""(?<=[.!?。！？])(?P<tail>["'”’)\]]*(?:\[\d+\])*)\s+"""
    r"""(?=["'“‘(\[]?[A-Z0-9\u00C0-\u024F\u0400-\u04FF#*>-])"""
    r"""|(?<=[。！？])"""
    r"""|\n[ \t]*\n\s*"""
    r"""|(?<=[.!?:;])[ \t]*\n\s*"""
    r"""|\n(?=[ \t]*(?:[-*+•]|\d+[.)]|\#{1,6}\s|\|))"""
)
_WORD = re.compile(r"\d+(?:[.,]\d+)*%?|[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s?%)?")
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:of|de|von|van|the|la|du)?\s*[A-Z][\w'’-]*)*")
_NEGATION = re.compile(
    r"\b(?:not|no|never|neither|nor|none|cannot|can't|won't|isn't|wasn't|"
    r"aren't|weren't|doesn't|didn't|don't|hasn't|haven't|hadn't|without)\b",
    re.IGNORECASE,
)
_WORD_OR_NUMBER = re.compile(r"[a-z]+")
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_SCALED = re.compile(r"(\d+(?:[.,]\d+)*)\s*(thousand|million|billion|trillion)\b", re.IGNORECASE)

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
    an abbreviation (``Dr.``, ``e.g.``, ``U.S.``) or an initial, nor inside a decimal.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        tail = m.group("tail")
        cut = m.start() + len(tail or "")
        if cut <= start:
            continue
        if (
            tail is not None
            and text[m.start() - 1] == "."
            and _ends_with_abbreviation(text, m.start())
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
        "hr hrs hour hours": "hour",
        "min mins minute minutes": "minute",
        "sec secs second seconds": "second",
        "yr yrs year years": "year",
    }
)
"""Unit spellings after a number, each to one form: ``330 m`` and ``330 metres`` match."""
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
    if i >= 2  # "one" is as often a pronoun ("one of the") as a count
}
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_ISO_DATE = re.compile(r"\b(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b")


def _spell_iso_dates(text: str) -> str:
    """``2015-03-10`` → ``10 march 2015``, the way prose writes a date."""
    if "-" not in text:
        return text
    return _ISO_DATE.sub(
        lambda m: f"{int(m.group(3))} {_MONTHS[int(m.group(2)) - 1]} {m.group(1)}", text
    )


def word_tokens(text: str) -> list[str]:
    """Lower-cased word and number tokens (numbers keep their decimal point).

    Written the same way whatever the form: a unit after a number has one spelling (``330 m``,
    ``330 metres`` → ``330 metre``), ``5%``, ``5 percent`` and ``5 per cent`` are ``5 %``,
    ``two`` to ``twenty`` are digits, and an ISO date is spelled as prose writes it.
    """
    raw = [m.group().lower().replace("’", "'") for m in _WORD.finditer(_spell_iso_dates(text))]
    out: list[str] = []
    skip = False
    for i, token in enumerate(raw):
        if skip:
            skip = False
            continue
        after_number = bool(out) and out[-1][:1].isdigit()
        if token[:1].isdigit() and token.endswith("%"):
            out.extend((token[:-1], "%"))
        elif token in _NUMBER_WORDS:
            out.append(_NUMBER_WORDS[token])
        elif after_number and token == "per" and raw[i + 1 : i + 2] == ["cent"]:
            out.append("%")
            skip = True
        elif after_number and token in _UNITS:
            out.append(_UNITS[token])
        else:
            out.append(token)
    return out


def content_terms(text: str) -> list[str]:
    """Stemmed tokens without stopwords: the terms lexical scores compare."""
    return [stem(t) for t in word_tokens(text) if t not in STOPWORDS]


def _canonical_number(raw: str) -> str:
    value = raw.replace(" ", "").rstrip("%")
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", value):
        value = value.replace(",", "")  # 1,500,000
    value = value.replace(",", ".")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return value.lstrip("0") or "0"


def number_terms(text: str) -> set[str]:
    """The numbers in ``text`` in a canonical form, scaled words expanded.

    ``1.5 million`` gives ``{"1.5", "1500000"}``; ``1,500,000`` gives ``{"1500000"}``; ``6.50``
    gives ``{"6.5"}``. A year is a number like any other.
    """
    text = _spell_iso_dates(text)
    found = {_canonical_number(m.group()) for m in _NUMBER.finditer(text)}
    found.update(
        _NUMBER_WORDS[w] for w in _WORD_OR_NUMBER.findall(text.lower()) if w in _NUMBER_WORDS
    )
    for m in _SCALED.finditer(text):
        try:
            base = float(_canonical_number(m.group(1)))
        except ValueError:
            continue
        scaled = base * _SCALE[m.group(2).lower()]
        found.add(_canonical_number(f"{scaled:.0f}" if scaled == int(scaled) else f"{scaled}"))
    return found


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
