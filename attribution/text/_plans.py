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
  launch") and its closing ones (two words at least, one a content word or a number: "rose
  4% in 2025" against "are expected to rise 4% in 2025") as the passage writes them;
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
- or the claim's own words with only a hedge or a plan put before its verb ("Vitamin D
  supplements reduce" against "might reduce", "Russia supplied" against "allegedly supplied",
  "The hospital cut" against "hopes to cut"; "would", but not of the past ("would release
  its debut album in 1994"), "in talks to", "seeking to"; "could" only where someone warns or
  says it, not an ability; never "will" alone: "You receive an email" is what "You will
  receive an email" says); or the claim's clause word for word after a frame of doubt
  ("speculated that", "could not establish that");
- the claim's middle holds a content word and no word of its own of permission, duty, plan or
  hedge ("can cancel" is what "may cancel" says, "is required to pay" what "shall pay" says,
  "forecast revenue" what "expects revenue" says), and the claim sentence none of the
  passage's kind ("The council has proposed banning ..." is no conflict).

And :func:`planned_name_conflict`: a name of the claim ("Orion runs in Sydney.") that the
passage names only in sentences of a plan, a hedge or "not yet" ("A fourth region, Sydney, is
planned but has no date yet."), where it states the claim's fact, in the claim's words right
before the name, of other names ("It runs in three regions: Frankfurt, Virginia and Tokyo.").

Only a claim that opens as the passage's clause does is read ("In 2021, the council passed
..." against "The council has proposed ..." is the judge's); a first version that read a plan
word anywhere near the claim's words fired on 18 supported pairs of the development data, and
this one's first form on about 30 of 58 supported pairs a review wrote (docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from attribution.text._names import NAME_COVERAGE
from attribution.text._terms import STOPWORDS, content_terms, source_sentence_spans

__all__ = [
    "FRAME_WORDS",
    "FUTURE_WORDS",
    "PLANNED_GAP",
    "PLANNED_LEAD",
    "PLAN_GAP",
    "PLAN_VERBS",
    "PLAN_WORDS",
    "clear_plan_cache",
    "plan_conflict",
    "planned_name_conflict",
]

PLAN_GAP = 7
"""The most words either middle may hold."""

PLAN_WORDS = frozenset("""may might possibly potentially likely reportedly allegedly""".split())
"""Words of a hedge: what follows may not hold ("may reduce", "possibly")."""

PLAN_VERBS = frozenset(
    """plan plans planned planning propose proposes proposed proposing intend intends intended
    intending aim aims aiming hope hopes hoping expect expects expected consider considers
    considering seek seeks seeking promise promises promised pledge pledges pledged vow vows
    vowed commit commits committed prepare prepares preparing""".split()
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
        if w == "talks" and before == "in" and after == "to":
            return True  # "is in talks to acquire"
    return False


_PAST = frozenset(
    """already was were had has have did made took went came began became won lost sold bought
    built paid left led met ran rose fell grew drew gave got held kept put shut cut hit let laid
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


def _closing(words: tuple[str, ...]) -> bool:
    """Whether closing words say which fact: a content word or a number ("4% in 2025")."""
    return _content(words) or any(w[:1].isdigit() for w in words)


_HEDGE_ONLY = PLAN_WORDS | {"would", "have", "be", "to", "is", "are"}
"""Words a passage may put before the claim's own verb to make it a hedge or a plan ("might
reduce", "allegedly supplied", "may have supplied", "is likely effective", "hopes to cut",
"would cost"): with one of them a hedge, a plan verb or "would", never "will"."""
_PAST_WOULD = frozenset(
    """later eventually every often usually sometimes always each once""".split()
)
"""Words beside "would" that make it a past one ("would later become president", "every
summer the family would visit"), no plan."""
_YEAR = re.compile(r"(?:1[0-9]|20)[0-9]{2}$")


_WARNED = frozenset(
    """warned warn warns warning fear fears feared said say says suggest suggests suggested
    cautioned predicted predict predicts argued argue argues believe believes believed""".split()
)
"""Words before a clause that make its "could" a possibility someone sees, not an ability
("Regulators warned that the merger could raise prices"; not "The ship could carry 2,000
passengers")."""


def _warned_could(
    mine: tuple[str, ...], theirs: tuple[_Word, ...], before: tuple[str, ...]
) -> bool:
    """Whether the passage's middle is "could" and a verb where the claim's says it happened,
    in a clause someone warns or says (``before``: the passage's words before the clause)."""
    low = [w.low for w in theirs]
    if "could" not in low or not _content(mine) or _MODAL_CLAIM & set(mine):
        return False
    return _happened(mine) and bool(_WARNED & set(before))


def _past_would(words: tuple[str, ...]) -> bool:
    """Whether a sentence's "would" may tell the past: a habit, a later event or a year ("The
    band would release its debut album in 1994")."""
    return bool(_PAST_WOULD & set(words)) or any(_YEAR.match(w) for w in words)


def _only_would(middle: tuple[_Word, ...]) -> bool:
    """Whether "would" is the only word of a plan or a hedge in the passage's middle."""
    if not any(w.low == "would" for w in middle):
        return False
    return not _says_plan(tuple(w for w in middle if w.low != "would"), future=True)


def _hedged(middle: tuple[_Word, ...]) -> bool:
    """Whether the passage's words before the claim's own verb are only a hedge or a plan."""
    words = [w.low for w in middle if w.low != ","]
    if not words or any(w.name for w in middle):
        return False  # "Theresa May"
    if not all(w in _HEDGE_ONLY or w in PLAN_VERBS for w in words):
        return False
    return any(w in PLAN_WORDS or w == "would" or w in PLAN_VERBS for w in words)


def _facts(claim: str) -> Iterator[tuple[tuple[_Word, ...], tuple[str, ...]]]:
    """The claim's sentences that state a fact (no plan, hedge or negation of their own), with
    their words lower-cased."""
    for words in _sentences(claim):
        low = tuple(w.low for w in words)
        if not (_says_plan(words, future=True) or _NEGATION & set(low)):
            yield words, low


@lru_cache(maxsize=4096)
def plan_conflict(claim: str, passage: str) -> bool:
    """Whether the passage states as a plan, a forecast or a hedge what the claim states as a
    fact, in the claim's words around it (see the module's text)."""
    given = _sentences(passage)
    if not given:
        return False
    for words, low in _facts(claim):
        short = len(words) < 2 * _MIN_SIDE + 1
        for theirs in given:
            if _framed(low, tuple(w.low for w in theirs)):
                return True
            if not short and _against(low, theirs):
                return True
    return False


FRAME_WORDS = 4
"""The fewest words of the claim's clause the passage must write after a frame of doubt."""

_DOUBT = frozenset(
    """whether speculated speculate speculation speculating rumoured rumored rumours rumors
    rumour rumor alleged allegedly alleges allege unclear unknown unproven""".split()
)
"""Words before a clause that leave it in doubt ("Fans have speculated that the singer is
engaged", "it is unclear whether", "it is alleged that")."""

_SHOWN = frozenset(
    """establish establishes established determine determined prove proved proven show
    showed shown confirm confirmed demonstrate demonstrated""".split()
)
"""Words of a finding that leave a clause in doubt after a negation ("could not establish
that microplastics cause heart attacks")."""


def _framed(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Whether the passage's sentence writes the claim's clause (the claim, or its words after
    "that" or "whether": "The study showed that social media causes depression") word for word
    after a frame of doubt: "speculated that", "it is unclear whether", "could not establish
    that", "did not show that"."""
    if _DOUBT & set(mine):
        return False  # the claim's own doubt ("There is debate as to whether ...")
    starts = [0] + [k + 1 for k, w in enumerate(mine) if w in {"that", "whether"}]
    for first in starts:
        clause = mine[first:]
        if len(clause) < FRAME_WORDS or not _closing(clause):
            continue
        n = len(clause)
        for at in range(1, len(theirs) - n + 1):
            if theirs[at : at + n] != clause:
                continue
            before = theirs[max(0, at - 4) : at]
            if _DOUBT & set(before):
                return True
            if _SHOWN & set(before) and _NEGATION & set(theirs[max(0, at - 6) : at]):
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
        tail = mine[i:]
        if len(tail) >= _MIN_SIDE and _closing(tail):
            # the claim's own words with a hedge before them: "supplements might reduce",
            # "Russia allegedly supplied", "The hospital hopes to cut"
            for gap in range(1, PLAN_GAP + 1):
                at = s0 + i + gap
                middle = passage[s0 + i : at]
                if (
                    theirs[at : at + len(tail)] == tail
                    and _hedged(middle)
                    and not (_only_would(middle) and _past_would(theirs))
                ):
                    return True
        for j in range(i + 1, min(n - _MIN_SIDE, i + PLAN_GAP) + 1):
            tail = mine[j:]
            if not _closing(tail):
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
                if _plan_for_fact(x, y) and not (_only_would(y) and _past_would(theirs)):
                    return True
                if _warned_could(x, y, theirs[:s0]):
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
    (a content word, none of permission, duty or hedge; or only *be* or *have*: "was
    completed" against "is scheduled to be completed", "is by Rembrandt" against "might be by
    Rembrandt", never against "will be" alone)."""
    if not mine or not theirs or _MODAL_CLAIM & set(mine):
        return False
    auxiliary = not _content(mine) and set(mine) <= _BE | _HAVE
    if not (_content(mine) or auxiliary):
        return False
    if theirs[0].low in _RELATIVE:
        return False  # "policies that aim to reduce ...": a purpose, not a plan
    low = {w.low for w in theirs}
    if _NEGATION & low:
        return False
    if auxiliary:
        if not low - FUTURE_WORDS - _BE - _HAVE - {"to"}:
            return False  # "is closed" against "will be closed": a procedure's time
        return _says_plan(theirs, future=bool(set(mine) & _DONE_AUXILIARIES))
    return _says_plan(theirs, future=_happened(mine))


_DONE_AUXILIARIES = frozenset({"was", "were", "had", "has", "have"})
"""A claim's *be* or *have* that says something happened or holds ("was completed", "has a
range of 600 km"): a plan or a forecast of it is no support."""


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
    planned_name_conflict.cache_clear()
    _terms.cache_clear()
    _stem.cache_clear()
    _sentences.cache_clear()


PLANNED_LEAD = 2
"""The claim's words right before its name that the passage must write before its other
names ("runs in Sydney": "runs in"); one of them a content word."""

PLANNED_GAP = 3
"""The most words between those words and the passage's first other name ("runs in three
regions: Frankfurt")."""

_NAMED = re.compile(r"[\w.'’-]*\w")
_CLOSES = frozenset({".", "!", "?", ";"})
_LISTING = frozenset({",", "and", "or", "&"})
_CLAUSE_ENDS = _LISTING | _CLOSES | {"but", "(", "-", "–", "—"}
_NOW = frozenset({"already", "still", "now", "currently", "today", "presently"})
"""Words that say when the claim's fact holds, not what it is: no part of its content."""
_ARTICLES = frozenset({"the", "a", "an"})
_STEM = 5
"""The first letters that make two words one ("approved", "approval")."""
_PRESENT_BE = frozenset({"is", "are", "'s", "'re", "am"})
_HEDGES = PLAN_WORDS | {"could", "should"}
_SUBJECT_WORDS = 4
"""The most words of the name's phrase before it ("Approval in", "A Denver", "Its")."""
_HEAD_WORDS = 2
"""The most words of the name's phrase after it ("Sydney region", "Linux support")."""
_APPOSITION = 8
"""The most words between two commas after the name ("Sydney, the fourth region, is")."""
_OPENS = frozenset({",", ";", ":", "(", "-", "–", "—"})
"""Marks after which a clause, and the name's phrase, may begin."""
_NOT_PHRASE = (
    _BE
    | _HAVE
    | FUTURE_WORDS
    | PLAN_WORDS
    | _NEGATION
    | {"and", "or", "but", "could", "should", "can", "there", "it", "they", "we"}
)
"""Words no part of a name's noun phrase ("Sydney is", "Sydney and", "it")."""
_PLANNED = (PLAN_VERBS | _AFTER_BE | {"anticipated", "targeted", "likely"}) - {"about", "set"}
"""Words of a plan after *be* ("is planned", "is slated"); "set" and "about" say too much
else ("is set up", "is about to")."""
_WHEN_LEADS = frozenset(
    """for in by from around until later next this early late soon sometime""".split()
)
_WHEN = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec spring summer autumn fall winter year
    years month months week weeks quarter half date release version update launch h1 h2 q1
    q2 q3 q4 later next soon early late""".split()
)
"""Words of a time (or a release) that a plan is for ("is planned for 2026", "for version
3", "is expected later this year")."""
_PENDING = (
    ("pending",),
    ("reviewing",),
    ("upcoming",),
    ("coming", "soon"),
    ("coming", "later"),
    ("coming", "next"),
    ("coming", "in"),
    ("on", "the", "roadmap"),
    ("in", "the", "works"),
    ("in", "development"),
    ("in", "talks"),
    ("under", "consideration"),
    ("under", "review"),
    ("under", "construction"),
    ("under", "negotiation"),
    ("under", "discussion"),
    ("under", "development"),
    ("being", "negotiated"),
    ("being", "considered"),
    ("being", "worked", "on"),
    ("being", "developed"),
    ("awaiting",),
    ("rumoured",),
    ("rumored",),
    ("pencilled", "in"),
    ("penciled", "in"),
)
"""Words after *be* that say a thing is not there yet ("Sydney is coming soon", "approval is
pending", "a property in Bali is under construction")."""
_READY_WORDS = """begin open launch arrive come debut added available supported approved
    released offered enabled""".split()
"""Words of a beginning or of being ready that a plan, "will" or "not yet" may be of ("are
scheduled to begin", "will be added", "is not yet supported"); not "start" ("is expected to
start on Saturday" is a player's), "join", "follow" or "return" (a tour's or a cast's
schedule: "Dublin will follow on 12 May")."""
_PLANNED_TO = [*_READY_WORDS, "follow"]
"""What a plan after *be* may be of ("Japan is expected to follow later this year")."""
_HEDGED_WORDS = _READY_WORDS + "follow return add enter expand join".split()
"""What a hedge may be of ("a Switch port could follow", "it may return to Bogotá")."""
_INTRANSITIVE = frozenset({"open", "launch", "begin", "debut"})
"""Verbs that say a beginning only without an object ("will open next spring", not "will open
the festival")."""
_DEFINITE = frozenset(
    {"the", "its", "their", "our", "his", "her", "this", "that", "these", "those", "my", "your"}
)
"""Words before a thing that say the page has it already ("Its Sydney region", "The Leeds
centre")."""
_SIDE_CLAUSE = frozenset({"where", "which", "who", "whose", "when", "was", "were", "had"})
"""Words of an aside that say something else of the name ("Japan, where it was approved")."""
_OBJECT_REACH = 6
"""The most words from a plan's verb to the name ("to open an office in Singapore")."""
_ADVERBS = frozenset({"also", "still", "now", "currently", "only", "tentatively", "provisionally"})
_PLAN_TO = frozenset(
    """plan plans planning intend intends intending hope hopes hoping aim aims aiming expect
    expects seek seeks seeking propose proposes want wants""".split()
)
"""Verbs of a plan before "to" and an act of the name ("it plans to open an office in
Singapore", "organisers hope to add")."""
_DONE = (_PAST - {"has", "have", "had", "was", "were", "did", "already"}) | {
    "shot",
    "flew",
    "flown",
    "begun",
    "done",
}
"""Past forms that say something happened (auxiliaries aside)."""
_NOT_DONE = frozenset({"not", "yet", "n't", "never", "been", "being", "if", "once", "unless"})
"""Words before a participle that leave it no past ("not yet supported", "has been delayed")."""


@lru_cache(maxsize=4096)
def planned_name_conflict(claim: str, passage: str) -> bool:
    """Whether the claim states of a name what the passage states of other names, in the
    claim's words, and gives that name only as a plan or a hedge: "Orion runs in Sydney."
    against "It runs in three regions: Frankfurt, Virginia and Tokyo. A fourth region, Sydney,
    is planned but has no date yet." (a small judge reads it as support, 0.77).

    - The claim sentence says no plan, hedge or negation of its own; its name (a run of
      capitalised words inside it, no possessive in it) ends the claim's clause (or stands in
      a list of names that does: "Tokyo and Sydney") and follows :data:`PLANNED_LEAD` words
      ("runs in"; "approved in" before "the UK"), one a content word.
    - A sentence of the passage without the name writes those words followed, within
      :data:`PLANNED_GAP` words, by another name (after the claim's list, by one of its other
      names).
    - Every mention of the claim's name in the passage is the subject of a plan, a hedge or
      "not yet" (its phrase alone before the verb: "A fourth region, Sydney, is planned",
      "Approval in the UK is expected next year", "Flights to Lisbon are scheduled to begin
      in June", "Linux support is planned for version 3", "Japanese will be added", "Kenya is
      not yet supported", "a property in Bali is under construction"), or the object of a
      plan or a hedge to begin there ("It plans to open an office in Singapore", "It may add
      Vietnam later"). A plan is one of a time to come, of a beginning or of being ready, or
      of the claim's fact (a word of its lead, by its first letters: "approval" for
      "approved"); "will" only of a beginning or of being ready: "Arcade Fire will headline on
      Saturday", "Octavia Spencer will also star", "The final will be played at Wembley" are
      schedules, not plans; "Sydney is live and more regions will be added", "a second Sydney
      zone is planned", "The Sydney region is scheduled for maintenance", "was planned for 2020
      but opened in 2021" say nothing of a plan for Sydney.
    - The passage holds three quarters of the claim sentence's other content words.

    The pair is capped as unsupported, not raised to contradicted: "is planned" does not say
    that it is not running yet (the judge's own reading of a contradiction stands)."""
    given = _sentences(passage)
    if not given:
        return False
    for words, low in _facts(claim):
        k = PLANNED_LEAD
        while k < len(words):
            if not words[k].name:
                k += 1
                continue
            end = k
            while end < len(words) and words[end].name:
                end += 1
            if _planned_only(low, tuple(w.name for w in words), k, end, given, passage):
                return True
            k = end
    return False


def _planned_only(
    low: tuple[str, ...],
    names: tuple[bool, ...],
    start: int,
    end: int,
    given: tuple[tuple[_Word, ...], ...],
    passage: str,
) -> bool:
    """Whether the claim's name ``low[start:end]``, after its lead words, is one the passage
    names only as a plan, and gives other names after the same words (``names``: which of the
    claim's words are capitalised inside it; after a list of names, the passage's first is
    one of them)."""
    if end < len(low) and low[end] not in _CLAUSE_ENDS:
        return False  # the name is not what the claim's words end on ("as Belle, Dan Stevens as")
    name = low[start:end]
    first = start  # a list of names in the claim ("Tokyo and Sydney"): the words before it
    while first > 1 and (low[first - 1] in _LISTING or names[first - 1]):
        first -= 1
    while first < start and low[first] in _LISTING:
        first += 1
    if first > 0 and low[first - 1] in _ARTICLES:
        first -= 1  # "approved in the UK": the words before "the"
    if any(w.endswith(("'s", "s'")) for w in low[first:end]):
        return False  # "Downton Abbey's Dan Stevens": a name with its own words, no list
    listed = set(low[first:start]) - _LISTING - _ARTICLES  # the other names of the claim's list
    lead = low[first - PLANNED_LEAD : first]
    if first < PLANNED_LEAD or not _content(lead) or any(w in _ENDS or w == "," for w in lead):
        return False
    rest = content_terms(" ".join(w for w in low[:start] + low[end:] if w not in _NOW))
    found = _terms(passage)
    if not rest or sum(t in found for t in rest) < NAME_COVERAGE * len(rest):
        return False
    holding = [s for s in given if _holds(tuple(w.low for w in s), name)]
    everywhere = sum(
        1 for m in _NAMED.finditer(passage.lower().replace("’", "'")) if m.group() == name[0]
    )
    if not holding or everywhere > sum(sum(1 for w in s if w.low == name[0]) for s in holding):
        return False  # a sentence too long to read names it too: which is meant is not plain
    stems = {_stem(w) for w in lead if _content((w,))}
    if not all(_planned_in(s, name, stems) for s in holding):
        return False
    led = tuple(_stem(w) for w in lead)  # "a store in" is what "stores in" says
    for theirs in given:
        if theirs in holding:
            continue
        words = tuple(w.low for w in theirs)
        for at in range(len(words) - PLANNED_LEAD + 1):
            if tuple(_stem(w) for w in words[at : at + PLANNED_LEAD]) != led:
                continue
            after = at + PLANNED_LEAD
            for k in range(after, min(after + PLANNED_GAP + 1, len(theirs))):
                if theirs[k].name:
                    # after a list, one of the claim's other names in the passage's
                    if not listed or listed.intersection(words[k:]):
                        return True
                    break
                if words[k] in _CLOSES:
                    break
    return False


def _holds(words: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """Whether ``words`` hold ``name``, word by word."""
    n = len(name)
    return any(words[i : i + n] == name for i in range(len(words) - n + 1))


def _planned_in(sentence: tuple[_Word, ...], name: tuple[str, ...], stems: set[str]) -> bool:
    """Whether every mention of ``name`` in ``sentence`` is the subject of a plan, a hedge or
    "not yet" of a beginning, of being ready or of the claim's fact (``stems``: its lead
    words' first letters), or the object of a plan to begin there (see
    :func:`planned_name_conflict`)."""
    low = tuple(w.low for w in sentence)
    n = len(name)
    mentions = [i for i in range(len(low) - n + 1) if low[i : i + n] == name]
    if not mentions:
        return False
    for i in mentions:
        e = i + n
        if e < len(low) and low[e] == "'s":
            return False  # "Sydney's latency": a thing of the name's, not the name
        before = _before(low, i)
        subject = before is not None and _subject_planned(sentence, low, e, stems, before)
        if not (subject or _object_planned(low, i, stems)):
            return False
    return True


def _before(low: tuple[str, ...], i: int) -> tuple[str, ...] | None:
    """The words of the name's phrase before it (back to the clause's start), or None where
    it is no phrase's ("Sydney and", a verb before it) or too long."""
    k = i
    while k > 0 and low[k - 1] not in _OPENS and i - k <= _SUBJECT_WORDS:
        k -= 1
    words = low[k:i]
    if k > 0 and low[k - 1] == "," and words[:1] in {("and",), ("but",), ("while",)}:
        words = words[1:]  # "Japanese was added in 2.0, and Korean will be added soon"
    if len(words) > _SUBJECT_WORDS or _NOT_PHRASE & set(words) or _done(words):
        return None  # "Scenes shot in Morocco have yet to be released": a verb before it
    if any(w in {"more", "another", "second", "additional", "extra", "new"} for w in words):
        return None  # "a second Sydney zone is planned": there is a first
    return words


def _subject_planned(
    sentence: tuple[_Word, ...],
    low: tuple[str, ...],
    e: int,
    stems: set[str],
    before: tuple[str, ...],
) -> bool:
    """Whether the words from ``e`` (right after the name) say, as the predicate of the
    name's phrase (``before``: its words before the name), that it is planned, hedged, pending
    or not yet so. Where the name qualifies a noun ("Sydney region", "a show in Oslo"), that
    noun is not one the page has already ("Its Sydney region", "The Leeds centre") and its
    plan no schedule of an event ("is scheduled for 9 June")."""
    k = e
    if k + 1 < len(low) and low[k] == "," and low[k + 1] in _PRESENT_BE | _HAVE | _HEDGES:
        k += 1  # the name is the apposition: "A fourth region, Sydney, is planned"
    elif k < len(low) and low[k] == ",":  # an apposition: "Sydney, the fourth region, is"
        close = next(
            (j for j in range(k + 1, min(len(low), k + _APPOSITION + 2)) if low[j] == ","), None
        )
        aside = low[k + 1 : close] if close is not None else ()
        if close is None or _done(aside) or _SIDE_CLAUSE & set(aside):
            return False  # "In Japan, where it was approved in 2022, ..."
        k = close + 1
    head = 0
    while k < len(low) and head < _HEAD_WORDS and _phrase_word(sentence[k], low[k]):
        k += 1
        head += 1
    if head and _DEFINITE & set(before):
        return False  # "Its Sydney region is scheduled for maintenance": it is there
    while k < len(low) and (low[k] in _ADVERBS or (low[k].endswith("ly") and len(low[k]) > 4)):
        k += 1
    if k >= len(low):
        return False
    verb = low[k]
    rest = low[k + 1 :]
    while rest and (rest[0] in _ADVERBS or (rest[0].endswith("ly") and len(rest[0]) > 4)):
        rest = rest[1:]
    if verb in _PRESENT_BE:
        return _be_planned(rest, stems, event=head > 0 or _content(before))
    if verb in {"remains", "remain"}:  # "remains on the roadmap", "remains under review"
        return _pending(rest)
    if verb in _HAVE:
        return rest[:2] == ("yet", "to") or (
            rest[:2] == ("not", "yet") and _of(rest[2:4], _READY_WORDS, stems)
        )
    if verb in FUTURE_WORDS or verb in _HEDGES:
        words = _HEDGED_WORDS if verb in _HEDGES else _READY_WORDS
        if rest[:1] == ("be",):  # "will be added"; not "will be open" (its hours)
            return rest[1:2] != ("open",) and _of(rest[1:2], words, stems)
        return _of(rest[:1], words, set()) and _begins(rest)
    return False


def _be_planned(rest: tuple[str, ...], stems: set[str], *, event: bool = False) -> bool:
    """Whether the words after a present *be* say a plan of a time or a beginning ("planned
    for 2026", "scheduled to begin"), "not yet" or a pending state; for an ``event`` (the
    name qualifies a noun: "The Chicago show"), a time is no plan's but a schedule's."""
    if _pending(rest):
        return True
    if rest[:2] in {("yet", "to"), ("not", "yet")}:
        return True  # "is yet to open", "is not yet granted"
    if not rest or rest[0] not in _PLANNED:
        return False
    after = rest[1:]
    if not after or after[0] in _CLOSES or after[0] in {",", "but", "and"}:
        return True  # "Sydney is planned but has no date yet"
    if after[0] == "to":
        if after[1:2] == ("be",):  # "is expected to be added"
            return _of(after[2:3], _READY_WORDS, stems)
        return _of(after[1:2], _PLANNED_TO, stems) and not _has_object(after[1:])
    # a time to come: "is planned for 2026", "is expected later this year"; not "is
    # scheduled daily at 07:10"
    if event and rest[0] not in {"planned", "proposed", "expected"}:
        return False  # "The Las Vegas race is scheduled for 22 November"
    return after[0] in _WHEN_LEADS and _a_time(after[:4])


def _object_planned(low: tuple[str, ...], i: int, stems: set[str]) -> bool:
    """Whether the name is where a plan or a hedge of a beginning is to happen: "it plans to
    open an office in Singapore", "it intends to enter Poland", "it is expected to air on
    HBO", "it may add Vietnam", "the band may also play in Chicago" (a hedge of the claim's
    fact, ``stems``; not "will": "the final will be played at Wembley" is a schedule)."""
    k = i
    while k > 0 and i - k < _OBJECT_REACH and low[k - 1] not in _CLOSES and low[k - 1] != ",":
        k -= 1
        word = low[k]
        planned = (
            word == "to"
            and k > 1
            and (low[k - 1] in _PLAN_TO or (low[k - 1] in _PLANNED and low[k - 2] in _PRESENT_BE))
        )
        if not (planned or word in _HEDGES or word in FUTURE_WORDS):
            continue
        j = k + 1
        while j < i and low[j] in _ADVERBS | {"be"}:
            j += 1
        between = set(low[j + 1 : i])
        if j >= i or _NOT_PHRASE & between or (_DEFINITE - {"the"}) & between:
            return False  # not "expand its Berlin office", "its fleet in Bulgaria"
        verb = low[j]
        if word in FUTURE_WORDS:
            return verb in _READY_WORDS
        return verb in _HEDGED_WORDS or _stem(verb) in stems
    return False


def _phrase_word(word: _Word, low: str) -> bool:
    """Whether a word after a name may belong to its noun phrase ("region", "support")."""
    return (
        low.isalpha()
        and not word.name
        and low not in _NOT_PHRASE
        and low not in _PLANNED
        and low not in _ADVERBS
        and not low.endswith("ly")
        and low not in STOPWORDS
    )


def _has_object(words: tuple[str, ...]) -> bool:
    """Whether a verb of a beginning (``words[0]``) has an object ("open the festival")."""
    return (
        bool(words)
        and words[0] in _INTRANSITIVE
        and words[1:2]
        in {
            ("the",),
            ("a",),
            ("an",),
            ("its",),
            ("their",),
            ("his",),
            ("her",),
        }
    )


def _begins(words: tuple[str, ...]) -> bool:
    """Whether a verb (``words[0]``) after "will" says a beginning: one of being ready, or of
    beginning alone or before a time ("will open next spring", "will launch in 2026"; not
    "will debut songs", "will open for Swift", "will open at 9am")."""
    if words[0] not in _INTRANSITIVE:
        return True
    after = words[1:2]
    if not after or after[0] in _CLOSES or after[0] == ",":
        return True
    if after[0] in {"on", "in", "by"}:
        return _a_time(words[2:4])
    return after[0] in _WHEN_LEADS - {"for", "from", "in", "by", "until", "around"}


def _pending(words: tuple[str, ...]) -> bool:
    """Whether the words open with a pending state ("under review", "coming soon", "awaiting
    approval"; not "awaiting its second shipment", "coming in at number five")."""
    for phrase in _PENDING:
        n = len(phrase)
        if words[:n] != phrase:
            continue
        after = words[n : n + 1]
        if after and (after[0] in _DEFINITE | _ARTICLES or after[0] == "further"):
            return False
        return phrase != ("coming", "in") or _a_time(words[2:4])
    return False


def _a_time(words: tuple[str, ...]) -> bool:
    """Whether the words hold a time or a release ("2026", "spring", "next year")."""
    return any(w in _WHEN or w[:1].isdigit() for w in words)


def _of(words: tuple[str, ...], ready: list[str], stems: set[str]) -> bool:
    """Whether ``words`` hold one of ``ready`` or of the claim's lead (``stems``)."""
    return any(w in ready or _stem(w) in stems for w in words)


def _done(words: tuple[str, ...]) -> bool:
    """Whether the words say something happened ("opened", "began", "signed", "since"); not a
    participle after *be*, "not yet" or "if" ("may be shot", "if approved")."""
    for k, w in enumerate(words):
        if w == "since":
            return True
        before = words[k - 1] if k else ""
        if before in _BE | _NOT_DONE or w in PLAN_VERBS | _AFTER_BE:
            continue
        if w in _DONE or (len(w) > 4 and w.endswith("ed")):
            return True
    return False


@lru_cache(maxsize=1024)
def _terms(text: str) -> frozenset[str]:
    """A passage's content terms, read once for all the claims checked against it."""
    return frozenset(content_terms(text))


@lru_cache(maxsize=4096)
def _stem(word: str) -> str:
    """A word's first letters after stemming ("plays": "play")."""
    terms = content_terms(word)
    return (terms[0] if terms else word)[:_STEM]
