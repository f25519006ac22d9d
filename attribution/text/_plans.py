"""A plan, a forecast or a hedge read as a fact: the claim's words, the passage's "may".

"The city council passed a ban on single-use plastic bags." is not what "The city council has
proposed a ban on single-use plastic bags." says; nor is "The compound reduces inflammation in
mice." what "the compound may reduce inflammation in mice" says, nor "The new stadium opened in
August 2027." what "The new stadium is expected to open in August 2027." says. A small judge
reads each pair as support (0.80-0.99). :func:`plan_conflict` finds such a pair where the words
make it plain: the claim sentence is the passage's words but for a few in the middle (at most
:data:`PLAN_GAP` on each side), the claim's opening words (two at least, one a content word)
and its closing ones (likewise) as the passage writes them; the passage's middle words hold a
word of plan, forecast or hedge (:data:`PLAN_WORDS`: "proposed", "plans", "may", "is
expected to"; "will" (:data:`FUTURE_WORDS`) only where the claim's middle says it happened:
"has dropped" against "will drop", not "You receive an email" against "You will receive an
email") and no negation, and open no relative clause ("policies that aim to reduce
deficits" says their purpose); the claim's middle holds a content word and none of those
(its own "will", "plans", "might" or "not" says as much as the passage: "The council has
proposed banning ..." is no conflict).

Only a claim that opens as the passage's clause does is read ("In 2021, the council passed
..." against "The council has proposed ..." is the judge's); a first version that read a plan
word anywhere near the claim's words fired on 18 supported pairs of the development data
(docs/benchmarks.md).
"""

from __future__ import annotations

import re
from functools import lru_cache

from attribution.text._terms import STOPWORDS, source_sentence_spans

__all__ = ["FUTURE_WORDS", "PLAN_GAP", "PLAN_WORDS", "plan_conflict"]

PLAN_GAP = 7
"""The most words either middle may hold."""

PLAN_WORDS = frozenset(
    """may might could possibly potentially likely reportedly allegedly plan plans planned
    planning propose proposes proposed proposing intend intends intended intending aim aims
    aiming hope hopes hoping expect expects expected considering consider considers seek
    seeks""".split()
)
"""Words that make what follows a plan, a forecast or a hedge."""

FUTURE_WORDS = frozenset({"will", "would", "shall", "'ll"})
"""Words of a time to come: against a claim that says it happened only ("has dropped" against
"will drop"; "You receive an email" is what "You will receive an email" says)."""

_AFTER_BE = frozenset({"due", "set", "scheduled", "slated", "poised", "about"})
"""Words that do so after a form of *be* only ("is due to open", "is set to launch"; not "due
to rain", "set a record")."""

_BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "'s", "'re"})
_NEGATION = frozenset({"not", "no", "never", "n't", "cannot", "neither", "nor"})
_TOKEN = re.compile(r"n['’]t\b|[\w.'’-]*\w|[^\w\s]")
_RELATIVE = frozenset({"that", "which", "who", "whose"})
_ENDS = frozenset({".", "!", "?", ";", ":"})
_MIN_SIDE = 2


@lru_cache(maxsize=4096)
def _sentences(text: str) -> tuple[tuple[str, ...], ...]:
    """Each sentence's words, lower-cased, its closing punctuation dropped."""
    out = []
    for start, end in source_sentence_spans(text):
        words = [w.lower().replace("’", "'") for w in _TOKEN.findall(text[start:end])]
        while words and words[-1] in _ENDS:
            words.pop()
        out.append(tuple(words))
    return tuple(out)


def _says_plan(words: tuple[str, ...], *, future: bool = True) -> bool:
    """Whether the words hold a word of plan, forecast or hedge (or, with ``future``, of a
    time to come)."""
    return any(
        w in PLAN_WORDS
        or (future and w in FUTURE_WORDS)
        or (w in _AFTER_BE and k > 0 and words[k - 1] in _BE)
        for k, w in enumerate(words)
    )


_PAST = frozenset(
    """already was were had has have did made took went came began became won lost sold bought
    built paid left led met ran rose fell grew drew gave got held kept put set shut cut hit
    let told said spent sent brought caught fought thought taught found saw wrote broke chose
    spoke stole""".split()
)


def _happened(words: tuple[str, ...]) -> bool:
    """Whether the words say that something happened: "already", a past form ("passed",
    "has dropped", "won")."""
    return any(w in _PAST or (len(w) > 3 and w.endswith("ed")) for w in words)


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
        if len(words) < 2 * _MIN_SIDE + 1 or _says_plan(words) or _NEGATION & set(words):
            continue
        for theirs in given:
            if _against(words, theirs):
                return True
    return False


def _against(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Whether ``theirs`` is ``mine`` with its middle words replaced by ones of a plan."""
    n = len(mine)
    for s0, word in enumerate(theirs):
        if word != mine[0]:
            continue
        i = 0
        while i < n and s0 + i < len(theirs) and mine[i] == theirs[s0 + i]:
            i += 1
        if i < _MIN_SIDE or i == n or not _content(mine[:i]):
            continue
        for j in range(i + 1, min(n - _MIN_SIDE, i + PLAN_GAP) + 1):
            tail = mine[j:]
            if not _content(tail) or not _content(mine[i:j]):
                continue
            for gap in range(PLAN_GAP + 1):
                at = s0 + i + gap
                if theirs[at : at + len(tail)] != tail:
                    continue
                middle = theirs[s0 + i : at]
                if middle and middle[0] in _RELATIVE:
                    continue  # "policies that aim to reduce ...": a purpose, not a plan
                if _NEGATION & set(middle):
                    continue
                if _says_plan(middle, future=_happened(mine[i:j])):
                    return True
    return False
