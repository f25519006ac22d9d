"""Hard cases made from labelled evidence: what a careful reader catches and a word-overlap
score does not.

Each generator takes FEVER claims with their gold evidence (a claim the evidence SUPPORTS) and
changes one thing, so that the pair differs from a supported one only in what matters:

- :func:`modality`: the evidence is hedged or only planned ("is" → "is planned to be",
  "may be"): the claim's plain statement is no longer supported (neutral).
- :func:`negation`: the claim is negated ("is" → "is not"): the evidence contradicts it.
- :func:`unit_forms`: a number or unit in the claim written another way ("330 metres" →
  "330 m", "5 percent" → "5%", "3" → "three", "10 March 2015" → "March 10, 2015"): still
  supported.
- :func:`unit_swaps`: a unit or month changed ("metres" → "feet", "March" → "May"):
  contradicted.
- :func:`entity_swaps`: a name in the claim replaced by a name from another claim about the
  same subject: not supported (binary: the evidence may or may not say otherwise).
- :func:`role_swaps`: two names of the claim that the evidence both mentions change places
  ("Argentina beat France" → "France beat Argentina"): the same words, not supported. A
  word-overlap score cannot tell the two apart, and a small NLI model reads them alike.
- :func:`name_changes`: one name of the claim, its subject included and one word long or more,
  replaced by another claim's name the evidence never mentions ("Microsoft acquired GitHub"
  → "Google acquired GitHub"): not supported.
- :func:`two_passages`: evidence that needs two sentences, each set in its own window of
  same-subject text and the two windows joined as the pipeline joins a passage pair: supported;
  one window alone: not supported.

(Changed numbers and dates, and partial support by joining two claims, are in ``data.py``.)
Every generator is deterministic for a given ``random.Random`` and returns at most ``n`` pairs.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from ._io import NOT_ENTAILED, Example

__all__ = [
    "HARD_CASE_BUILDERS",
    "OPTIONAL_HARD_CASES",
    "Evidence",
    "entity_swaps",
    "modality",
    "name_changes",
    "negation",
    "role_swaps",
    "two_passages",
    "unit_forms",
    "unit_swaps",
]


class Evidence(Protocol):
    """A claim, its label and its gold evidence sentences (``data._FeverRow``)."""

    claim: str
    label: str
    evidence: list[str]
    subject: str


_WORD = re.compile(r"\w+")
_STOP = frozenset(
    "a an the of in on at to for from by with and or is are was were be been has have had it its "
    "this that as which who".split()
)

_HEDGES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"\bis\b"), ("is planned to be", "may be", "is expected to be", "could be")),
    (re.compile(r"\bruns\b"), ("is planned to run", "may run", "will run")),
    (re.compile(r"\bare\b"), ("are planned to be", "may be", "are expected to be")),
    (re.compile(r"\bwas\b"), ("may have been", "was reportedly going to be", "was planned to be")),
    (re.compile(r"\bwere\b"), ("may have been", "were planned to be")),
    (re.compile(r"\bhas\b"), ("may have", "plans to have", "is expected to have")),
    (re.compile(r"\bhave\b"), ("may have", "plan to have")),
)
_NEGATIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bis\b(?! not\b)"), "is not"),
    (re.compile(r"\bare\b(?! not\b)"), "are not"),
    (re.compile(r"\bwas\b(?! not\b)"), "was not"),
    (re.compile(r"\bwere\b(?! not\b)"), "were not"),
    (re.compile(r"\bhas\b(?! not\b)"), "has not"),
    (re.compile(r"\bcan\b(?! not\b)"), "cannot"),
    (re.compile(r"\bwill\b(?! not\b)"), "will not"),
)
_UNIT_FORMS: dict[str, tuple[str, ...]] = {
    "metres": ("m", "meters"),
    "meters": ("m", "metres"),
    "kilometres": ("km", "kilometers"),
    "kilometers": ("km", "kilometres"),
    "centimetres": ("cm",),
    "kilograms": ("kg",),
    "percent": ("%", "per cent"),
    "per cent": ("%", "percent"),
    "miles": ("mi",),
    "feet": ("ft",),
}
_UNIT_SWAPS: dict[str, tuple[str, ...]] = {
    "metres": ("feet", "kilometres"),
    "meters": ("feet", "kilometers"),
    "kilometres": ("miles", "metres"),
    "kilometers": ("miles", "meters"),
    "miles": ("kilometres",),
    "feet": ("metres",),
    "kilograms": ("pounds", "tonnes"),
    "million": ("billion", "thousand"),
    "billion": ("million", "trillion"),
    "thousand": ("million",),
    "percent": ("percentage points",),
}
_MONTHS = (
    "January February March April May June July August September October November December"
).split()
_SMALL = "zero one two three four five six seven eight nine ten eleven twelve".split()
_UNIT_NUMBER = re.compile(
    r"\b(?P<number>\d[\d,]*(?:\.\d+)?)\s(?P<unit>"
    + "|".join(sorted({*_UNIT_FORMS, *_UNIT_SWAPS}, key=len, reverse=True))
    + r")\b"
)
_DAY_MONTH_YEAR = re.compile(
    r"\b(?P<day>\d{1,2}) (?P<month>" + "|".join(_MONTHS) + r") (?P<year>\d{4})\b"
)
_MONTH_DAY_YEAR = re.compile(
    r"\b(?P<month>" + "|".join(_MONTHS) + r") (?P<day>\d{1,2}), (?P<year>\d{4})\b"
)
_MONTH = re.compile(r"\b(" + "|".join(_MONTHS) + r")\b")
# a count before a lowercase word ("8 counties"), not a title's or a date's number
_SMALL_NUMBER = re.compile(r"(?<![\d.,$£€])\b([2-9]|1[0-2])(?= [a-z])")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")
# a name of one capitalised word or more ("Google", "Marie Curie", "GitHub", "Coster-Waldau")
_ANY_NAME = re.compile(
    r"\b[A-Z][\w-]*[a-z][\w-]*(?:\s+(?:(?:of|de|von|van|la|du|the)\s+)?[A-Z][\w-]*)*"
)
# adjectives of a place or people ("an American film"): no names
_ADJECTIVES = frozenset(
    "American British English French German Italian Spanish Portuguese Canadian Australian "
    "Indian Chinese Japanese Korean Russian Irish Scottish Welsh Dutch Greek Swedish Danish "
    "Norwegian Finnish Polish Czech Turkish Mexican Brazilian Argentine Egyptian Israeli "
    "Iranian Iraqi Pakistani African European Asian Swiss Austrian Belgian Hungarian Roman "
    "Jewish Christian Muslim Catholic Latin Arab Arabic".split()
)
# capitalised only because a sentence starts with them
_OPENERS = frozenset(
    "There Here One Only Despite After Before During Since While When Although Some Many Most "
    "All Both Each Every No None This That These Those Several Few Its Their His Her".split()
)
# a symmetric relation: its two names read the same either way round
_SYMMETRIC = re.compile(r"\b(?:married|between|with|alongside|and|or|&|vs\.?|versus)\b|[,;/]")


def _supported(rows: Sequence[Evidence], rng: random.Random) -> list[Evidence]:
    out = [r for r in rows if r.label == "SUPPORTS" and r.evidence]
    rng.shuffle(out)
    return out


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP}


def _best_sentence(row: Evidence) -> str:
    target = _words(row.claim)
    return max(dict.fromkeys(row.evidence), key=lambda s: len(target & _words(s)))


def modality(rows: Sequence[Evidence], n: int, rng: random.Random) -> list[Example]:
    """The claim itself stated as a plan or a possibility ("was filmed" → "was planned to be
    filmed", "is" → "may be"), among other sentences about the subject, without the evidence
    that supports it: the plain claim is not supported (neutral)."""
    by_subject: dict[str, list[str]] = {}
    for row in rows:
        by_subject.setdefault(row.subject, []).extend(row.evidence)
    out: list[Example] = []
    for row in _supported(rows, rng):
        if len(out) >= n:
            break
        for pattern, choices in _HEDGES:
            if pattern.search(row.claim):
                hedged = pattern.sub(rng.choice(choices), row.claim, count=1)
                break
        else:
            continue
        gold = set(row.evidence)
        target = _words(row.claim)
        filler = [
            s
            for s in dict.fromkeys(by_subject.get(row.subject, ()))
            if s not in gold and len(target & _words(s)) < 0.5 * len(target)
        ]
        rng.shuffle(filler)
        sentences = [hedged, *filler[:2]]
        rng.shuffle(sentences)
        out.append(Example(" ".join(sentences), row.claim, 1, "modality"))
    return out


def negation(rows: Sequence[Evidence], n: int, rng: random.Random) -> list[Example]:
    """The claim negated against the evidence that supports it: contradiction."""
    out: list[Example] = []
    for row in _supported(rows, rng):
        if len(out) >= n:
            break
        if re.search(r"\b(not|never|no)\b|n't", row.claim):
            continue
        for pattern, negated in _NEGATIONS:
            if pattern.search(row.claim):
                claim = pattern.sub(negated, row.claim, count=1)
                out.append(Example(" ".join(dict.fromkeys(row.evidence)), claim, 2, "negation"))
                break
    return out


def _rewrite_units(claim: str, rng: random.Random, table: dict[str, tuple[str, ...]]) -> str | None:
    matches = [m for m in _UNIT_NUMBER.finditer(claim) if m["unit"] in table]
    if not matches:
        return None
    m = rng.choice(matches)
    unit = rng.choice(table[m["unit"]])
    glue = "" if unit == "%" else " "
    return claim[: m.start()] + m["number"] + glue + unit + claim[m.end() :]


def _rewrite_date(claim: str) -> str | None:
    if m := _DAY_MONTH_YEAR.search(claim):
        return claim[: m.start()] + f"{m['month']} {m['day']}, {m['year']}" + claim[m.end() :]
    if m := _MONTH_DAY_YEAR.search(claim):
        return claim[: m.start()] + f"{m['day']} {m['month']} {m['year']}" + claim[m.end() :]
    return None


def _spell_small_number(claim: str) -> str | None:
    m = _SMALL_NUMBER.search(claim)
    if m is None:
        return None
    return claim[: m.start()] + _SMALL[int(m.group(1))] + claim[m.end() :]


def unit_forms(rows: Sequence[Evidence], n: int, rng: random.Random) -> list[Example]:
    """A number, unit or date of a supported claim written another way: still supported.

    The claim is first made to carry the evidence's own number and unit when only the evidence
    has them ("It is 330 metres tall." claims are rare in FEVER, so the supporting sentence's
    number phrase is also used as the claim's own: ``<subject> ... 330 m``).
    """
    out: list[Example] = []
    for row in _supported(rows, rng):
        if len(out) >= n:
            break
        evidence = " ".join(dict.fromkeys(row.evidence))
        for rewrite in (
            lambda c: _rewrite_units(c, rng, _UNIT_FORMS),
            _rewrite_date,
            _spell_small_number,
        ):
            claim = rewrite(row.claim)
            if claim and claim != row.claim:
                out.append(Example(evidence, claim, 0, "unit_forms"))
                break
        else:
            # the evidence's own unit phrase, restated in another form, as the claim
            sentence = _best_sentence(row)
            m = next((m for m in _UNIT_NUMBER.finditer(sentence) if m["unit"] in _UNIT_FORMS), None)
            if m is None:
                continue
            unit = rng.choice(_UNIT_FORMS[m["unit"]])
            glue = "" if unit == "%" else " "
            stated = sentence[: m.start()] + m["number"] + glue + unit + sentence[m.end() :]
            out.append(Example(evidence, stated, 0, "unit_forms"))
    return out


def unit_swaps(rows: Sequence[Evidence], n: int, rng: random.Random) -> list[Example]:
    """A unit, scale or month of a supported statement changed: contradicted."""
    out: list[Example] = []
    for row in _supported(rows, rng):
        if len(out) >= n:
            break
        evidence = " ".join(dict.fromkeys(row.evidence))
        for text in (row.claim, _best_sentence(row)):
            changed = _rewrite_units(text, rng, _UNIT_SWAPS)
            if changed is None and (m := _MONTH.search(text)):
                month = rng.choice([x for x in _MONTHS if x != m.group(1)])
                changed = text[: m.start()] + month + text[m.end() :]
            if changed and changed != text:
                out.append(Example(evidence, changed, 2, "unit_swaps"))
                break
    return out


def _replace_a_name(
    rows: Sequence[Evidence],
    n: int,
    rng: random.Random,
    pool: Sequence[str],
    names_of: Callable[[str], list[tuple[int, int, str]]],
    fits: Callable[[str, str, Evidence, str], bool],
    source: str,
) -> list[Example]:
    """Supported claims with one of their names (``names_of``: (start, end, name)) replaced
    by a name of ``pool`` that ``fits`` (other, name, row, evidence), five draws at most: not
    supported."""
    out: list[Example] = []
    if not pool:
        return out
    for row in _supported(rows, rng):
        if len(out) >= n:
            break
        names = names_of(row.claim)
        if not names:
            continue
        start, end, name = rng.choice(names)
        evidence = " ".join(dict.fromkeys(row.evidence))
        for _ in range(5):
            other = rng.choice(pool)
            if fits(other, name, row, evidence):
                claim = row.claim[:start] + other + row.claim[end:]
                out.append(Example(evidence, claim, NOT_ENTAILED, source))
                break
    return out


def entity_swaps(rows: Sequence[Evidence], n: int, rng: random.Random) -> list[Example]:
    """A multi-word name in the claim (not its subject) swapped for another claim's name."""
    names: list[str] = []
    for row in rows[:50000]:
        names.extend(m.group(0) for m in _NAME.finditer(row.claim))
    return _replace_a_name(
        rows,
        n,
        rng,
        sorted(set(names)),
        lambda claim: [
            (m.start(), m.end(), m.group(0)) for m in _NAME.finditer(claim) if m.start() > 0
        ],
        # a name the evidence does not mention
        lambda other, name, _row, evidence: other.lower() not in evidence.lower() and other != name,
        "entity_swaps",
    )


def _names(claim: str) -> list[tuple[int, int, str]]:
    """The claim's names: runs of capitalised words, a leading function word ("The", "In")
    dropped, as (start, end, name)."""
    out = []
    for m in _ANY_NAME.finditer(claim):
        start, name = m.start(), m.group(0)
        first = name.split()[0]
        if (
            first in _OPENERS
            or (first.lower() in _STOP and first != "The")
            or first
            in (
                "He",
                "She",
                "They",
                "It",
            )
        ):
            rest = name[len(first) :].lstrip()
            if not rest:
                continue
            start, name = m.end() - len(rest), rest
        if name in _MONTHS or name in _ADJECTIVES or name == "The":
            continue
        out.append((start, start + len(name), name))
    return out


def _mentions(text: str, name: str) -> bool:
    pattern = r"(?<!\w)" + re.escape(name) + r"(?!\w)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def role_swaps(rows: Sequence[Evidence], n: int, rng: random.Random) -> list[Example]:
    """Two names of a supported claim that the evidence both mentions exchanged: not supported
    (the same words in another order; "Argentina beat France" against "France beat ...")."""
    out: list[Example] = []
    for row in _supported(rows, rng):
        if len(out) >= n:
            break
        evidence = " ".join(dict.fromkeys(row.evidence))
        names = [
            found
            for found in _names(row.claim)
            if _mentions(evidence, found[2]) or _mentions(row.subject, found[2])
        ]
        pairs = [
            (a, b)
            for i, a in enumerate(names)
            for b in names[i + 1 :]
            if a[2].lower() not in b[2].lower()
            and b[2].lower() not in a[2].lower()
            # "Rhea and Cronus", "married Brad Pitt": the same claim either way round
            and not _SYMMETRIC.search(row.claim[min(a[1], b[1]) : max(a[0], b[0])])
            and not _SYMMETRIC.search(row.claim)
        ]
        if not pairs:
            continue
        (s1, e1, n1), (s2, e2, n2) = rng.choice(pairs)
        claim = row.claim[:s1] + n2 + row.claim[e1:s2] + n1 + row.claim[e2:]
        out.append(Example(evidence, claim, NOT_ENTAILED, "role_swaps"))
    return out


def name_changes(rows: Sequence[Evidence], n: int, rng: random.Random) -> list[Example]:
    """A name of a supported claim (its subject too, and one-word names) replaced by another
    claim's name that the evidence does not mention: not supported."""
    return _replace_a_name(
        rows,
        n,
        rng,
        sorted({found[2] for row in rows[:50000] for found in _names(row.claim)}),
        _names,
        # a name none of whose words the evidence, the page's title or the name replaced has
        lambda other, name, row, evidence: (
            not (_words(other) & _words(f"{evidence} {row.subject} {name}"))
        ),
        "name_changes",
    )


def two_passages(rows: Sequence[Evidence], n: int, rng: random.Random) -> list[Example]:
    """Evidence that needs two sentences: both windows joined (supported), or one (not)."""
    by_subject: dict[str, list[str]] = {}
    for row in rows:
        by_subject.setdefault(row.subject, []).extend(row.evidence)
    out: list[Example] = []
    for row in _supported(rows, rng):
        if len(out) >= n:
            break
        sentences = list(dict.fromkeys(row.evidence))
        if len(sentences) != 2:
            continue
        target = _words(row.claim)
        first, second = (target & _words(s) for s in sentences)
        if not (first - second) or not (second - first) or (target - first - second):
            continue  # each sentence must hold a part of the claim the other lacks
        filler = [s for s in dict.fromkeys(by_subject.get(row.subject, ())) if s not in sentences]
        rng.shuffle(filler)
        windows = []
        for k, sentence in enumerate(sentences):
            around = filler[2 * k : 2 * k + 2]
            window = [*around[:1], sentence, *around[1:]]
            windows.append(" ".join(window))
        out.append(Example("\n".join(windows), row.claim, 0, "two_passages"))
        alone = windows[rng.randrange(2)]
        out.append(Example(alone, row.claim, NOT_ENTAILED, "two_passages"))
    return out[:n]


HARD_CASE_BUILDERS: dict[str, Callable[[Sequence[Evidence], int, random.Random], list[Example]]] = {
    "modality": modality,
    "negation": negation,
    "unit_forms": unit_forms,
    "unit_swaps": unit_swaps,
    "entity_swaps": entity_swaps,
    "two_passages": two_passages,
    "role_swaps": role_swaps,
    "name_changes": name_changes,
}
"""Name → generator; the names are the ``Example.source`` of what they make."""

OPTIONAL_HARD_CASES: tuple[str, ...] = ("role_swaps", "name_changes")
"""Generators the attribution stage leaves out unless asked (``train --with-hard-cases``): one
CPU round with them did not teach the judge what they show and was not shipped
(docs/benchmarks.md, "names that change places"); the committed rounds were made without them."""
