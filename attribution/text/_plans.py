"""A plan, a forecast or a hedge read as a fact: the claim's words, the passage's "may".

"The city council passed a ban on single-use plastic bags." is not what "The city council has
proposed a ban on single-use plastic bags." says; nor is "The compound reduces inflammation in
mice." what "the compound may reduce inflammation in mice" says, nor "The new stadium opened in
August 2027." what "The new stadium is expected to open in August 2027." says. A small judge
reads each pair as support (0.80-0.99). :func:`plan_conflict` finds such a pair where the words
make it plain:

- the claim sentence is the passage's words but for a few in the middle (at most
  :data:`PLAN_GAP` each side, the words the two middles share at either end, and asides
  between commas, set apart: "The blaze, possibly arson, destroyed"), with the claim's
  opening words (one content word at least: "Apple launched" against "Apple plans to
  launch") and its closing ones (two words at least, one a content word) as the passage
  writes them;
- the passage's middle holds a hedge (:data:`PLAN_WORDS`: "may", "possibly", "likely" but not
  "less likely"), or, against a claim whose middle says something happened ("passed", "has
  dropped", "already"; not "are deleted", "is required"), a plan or forecast verb
  (:data:`PLAN_VERBS`, before "to" or after *be* or *have*: "plans to launch", "has
  proposed", "is expected"; not "the Pro plan", "the expected payload") or a time to come
  (:data:`FUTURE_WORDS`, "is due to", "is set to"): "You receive an email" is what "You will
  receive an email" says, and "The law takes effect on 1 January" what "is scheduled to take
  effect" says;
- no negation there, no relative clause ("policies that aim to reduce deficits" says their
  purpose), and a capitalised such word inside a sentence is a name's ("Theresa May", "Will
  Smith");
- the claim's middle holds a content word and no word of its own of permission, duty, plan or
  hedge ("can cancel" is what "may cancel" says, "is required to pay" what "shall pay" says,
  "forecast revenue" what "expects revenue" says), and the claim sentence none of the
  passage's kind ("The council has proposed banning ..." is no conflict).

Only a claim that opens as the passage's clause does is read ("In 2021, the council passed
..." against "The council has proposed ..." is the judge's); a first version that read a plan
word anywhere near the claim's words fired on 18 supported pairs of the development data, and
this one's first form on about 30 of 58 supported pairs a review wrote (docs/benchmarks.md).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from attribution.text._terms import STOPWORDS, source_sentence_spans

__all__ = [
    "FUTURE_WORDS",
    "PLAN_GAP",
    "PLAN_VERBS",
    "PLAN_WORDS",
    "clear_plan_cache",
    "plan_conflict",
]

PLAN_GAP = 7
"""The most words either middle may hold."""

PLAN_WORDS = frozenset("""may might possibly potentially likely reportedly allegedly""".split())
"""Words of a hedge: what follows may not hold ("may reduce", "possibly")."""

PLAN_VERBS = frozenset(
    """plan plans planned planning propose proposes proposed proposing intend intends intended
    intending aim aims aiming hope hopes hoping expect expects expected consider considers
    considering seek seeks""".split()
)
"""Words of a plan or a forecast, read only as verbs: before "to" or after a form of *be* or
*have* ("plans to launch", "has proposed", "is expected"; not "the Pro plan", "the expected
payload", "as expected")."""

FUTURE_WORDS = frozenset({"will", "would", "'ll"})
"""Words of a time to come: against a claim that says it happened only ("has dropped" against
"will drop"; "Expired tokens are rejected" is what "Expired tokens will be rejected" says)."""

_AFTER_BE = frozenset({"due", "set", "scheduled", "slated", "poised", "about"})
"""Words that do so after a form of *be* only ("is due to open", "is set to launch"; not "due
to rain", "set a record")."""

_BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "'s", "'re", "am"})
_HAVE = frozenset({"has", "have", "had", "'ve"})
_NEGATION = frozenset({"not", "no", "never", "n't", "cannot", "neither", "nor"})
_COMPARED = frozenset({"more", "less", "most", "least", "as"})
"""Words before "likely" that make it a comparison, no hedge ("less likely to be
hospitalized": were hospitalized less often)."""
_MODAL_CLAIM = frozenset(
    """can could must need needs able allowed permitted required obliged entitled appears
    appear seems seem probably forecast forecasts projected projects estimates estimated
    predicts predicted suggests suggest anticipates anticipated targets guided""".split()
)
"""Words of the claim's own middle that say permission, duty, a forecast or a hedge: "can
cancel" is what "may cancel" says, "is required to pay" what "shall pay" says."""
_RELATIVE = frozenset({"that", "which", "who", "whose"})
_TOKEN = re.compile(r"n['’]t\b|[\w.'’-]*\w|[^\w\s]")
_ENDS = frozenset({".", "!", "?", ";", ":"})
_MIN_SIDE = 2
"""The fewest words after the middles."""
_MIN_OPENING = 1
"""The fewest words before them (a name: "Apple launched")."""
_MOST_WORDS = 80
"""Longer sentences are not read (a run of text without full stops)."""


class _Word(NamedTuple):
    low: str
    name: bool
    """Capitalised inside its sentence ("Theresa May", "Will Smith", "Bob Hope")."""


@lru_cache(maxsize=4096)
def _sentences(text: str) -> tuple[tuple[_Word, ...], ...]:
    """Each sentence's words, lower-cased, its closing punctuation dropped."""
    out = []
    for start, end in source_sentence_spans(text):
        found = _TOKEN.findall(text[start:end])
        words = [
            _Word(w.lower().replace("’", "'"), k > 0 and w[:1].isupper())
            for k, w in enumerate(found)
        ]
        while words and words[-1].low in _ENDS:
            words.pop()
        if len(words) <= _MOST_WORDS:
            out.append(tuple(words))
    return tuple(out)


def _says_plan(words: tuple[_Word, ...], *, future: bool) -> bool:
    """Whether the words hold a word of hedge, or (with ``future``: against a claim that says
    something happened) of a plan, a forecast or a time to come; a capitalised one inside a
    sentence is a name's ("Theresa May"). "The museum reopens on 5 May" is what "is expected
    to reopen on 5 May" says; "The stadium opened" is not."""
    for k, word in enumerate(words):
        w = word.low
        if word.name:
            continue
        before = words[k - 1].low if k else ""
        after = words[k + 1].low if k + 1 < len(words) else ""
        if w in PLAN_WORDS and not (w == "likely" and before in _COMPARED):
            return True
        if not future:
            continue
        if w in FUTURE_WORDS or (w in _AFTER_BE and before in _BE):
            return True
        if w in PLAN_VERBS and (after == "to" or before in _BE | _HAVE):
            return True
    return False


_PAST = frozenset(
    """already was were had has have did made took went came began became won lost sold bought
    built paid left led met ran rose fell grew drew gave got held kept put shut cut hit let
    told said spent sent brought caught fought thought taught found saw wrote broke chose
    spoke stole""".split()
)


def _happened(words: tuple[str, ...]) -> bool:
    """Whether the words say that something happened: "already", a past form ("passed",
    "has dropped", "won"); not a participle after "is" or "are" ("are deleted", "is
    required")."""
    for k, w in enumerate(words):
        if w in _PAST:
            return True
        if len(w) > 3 and w.endswith("ed") and not (k and words[k - 1] in _BE):
            return True
    return False


def _content(words: tuple[str, ...]) -> bool:
    return any(w.isalpha() and w not in STOPWORDS for w in words)


@lru_cache(maxsize=4096)
def plan_conflict(claim: str, passage: str) -> bool:
    """Whether the passage states as a plan, a forecast or a hedge what the claim states as a
    fact, in the claim's words around it (see the module's text)."""
    given = _sentences(passage)
    if not given:
        return False
    for words in _sentences(claim):
        low = tuple(w.low for w in words)
        if len(words) < 2 * _MIN_SIDE + 1 or _says_plan(words, future=True):
            continue
        if _NEGATION & set(low):
            continue
        for theirs in given:
            if _against(low, theirs):
                return True
    return False


def _against(mine: tuple[str, ...], passage: tuple[_Word, ...]) -> bool:
    """Whether the passage's sentence is ``mine`` with its middle words replaced by ones of a
    plan."""
    theirs = tuple(w.low for w in passage)
    n = len(mine)
    for s0, word in enumerate(theirs):
        if word != mine[0]:
            continue
        i = 0
        while i < n and s0 + i < len(theirs) and mine[i] == theirs[s0 + i]:
            i += 1
        if i < _MIN_OPENING or i == n or not _content(mine[:i]):
            continue
        for j in range(i + 1, min(n - _MIN_SIDE, i + PLAN_GAP) + 1):
            tail = mine[j:]
            if not _content(tail):
                continue
            for gap in range(PLAN_GAP + 1):
                at = s0 + i + gap
                if theirs[at : at + len(tail)] != tail:
                    continue
                claimed = tuple(_Word(w, False) for w in mine[i:j])
                opened = mine[i - 1] == ","
                if opened and tail[0] == ",":
                    break  # the middles are asides ("The results, however surprising, were")
                x, y = _middles(
                    _without_asides(claimed, opened), _without_asides(passage[s0 + i : at], opened)
                )
                if _plan_for_fact(x, y):
                    return True
    return False


def _middles(
    claimed: tuple[_Word, ...], theirs: tuple[_Word, ...]
) -> tuple[tuple[str, ...], tuple[_Word, ...]]:
    """The two middles without the words they share at either end ("can cancel", "may
    cancel": "can", "may")."""
    mine = tuple(w.low for w in claimed)
    while mine and theirs and mine[-1] == theirs[-1].low:
        mine, theirs = mine[:-1], theirs[:-1]
    while mine and theirs and mine[0] == theirs[0].low:
        mine, theirs = mine[1:], theirs[1:]
    return mine, theirs


def _plan_for_fact(mine: tuple[str, ...], theirs: tuple[_Word, ...]) -> bool:
    """Whether the passage's middle says a plan, a forecast or a hedge and the claim's a fact
    (a content word, none of permission, duty or hedge)."""
    if not mine or not theirs or not _content(mine) or _MODAL_CLAIM & set(mine):
        return False
    if theirs[0].low in _RELATIVE:
        return False  # "policies that aim to reduce ...": a purpose, not a plan
    if _NEGATION & {w.low for w in theirs}:
        return False
    return _says_plan(theirs, future=_happened(mine))


def _without_asides(words: tuple[_Word, ...], opened: bool = False) -> tuple[_Word, ...]:
    """The words without what stands between two commas, and the commas ("Dewey, widely
    expected to win, lost"; "The blaze, possibly arson, destroyed"; "version 3.0, due next
    year, will drop": "will drop"); ``opened``: the words follow a comma of their own."""
    out: list[_Word] = []
    inside = opened
    for word in words:
        if word.low == ",":
            inside = not inside
            continue
        if not inside:
            out.append(word)
    return tuple(out) if not inside else tuple(w for w in words if w.low != ",")


def clear_plan_cache() -> None:
    """Forget every text's cached words and every pair's answer."""
    plan_conflict.cache_clear()
    _sentences.cache_clear()
