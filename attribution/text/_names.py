"""A name in the claim where the passage, in the same words around it, has another name.

A careful reader takes "Google acquired GitHub in 2018." as false against "Microsoft acquired
GitHub in 2018.", "Pierre Curie won the Nobel Prize in Chemistry in 1911." against "Marie
Curie won ...", and "moved its headquarters from Denver to Chicago" against "from Chicago to
Denver"; a small judge reads each pair as support (0.77-0.99): the words are the same, one
name is not. :func:`name_conflict` finds such a pair where it is plain:

- a run of capitalised words of the claim (a *name*, markdown emphasis and link marks aside,
  an all-capital word even where it is a stopword: "WHO", "US"; with the words that join its parts:
  "Food and Drug Administration", "Bank of England"; a capitalised common word alone, "the
  Company", is none; at a sentence's start a single word is one only when it is no plural, no
  adverb in -ly and no common opener: "Researchers", "Ultimately", "Annual" are none) faces,
  in a sentence of the passage, another name with the same words around it: three words at
  least, the two names' shared first or last words counted ("Curie won the Nobel", "into the
  ... Sea"), one of them a content word, read outwards from each name up to four words, to a
  comma, the sentence's edge or the first word that differs (not a number that differs:
  "spent £2,980,815" and "spent £1,580,575" are two facts); right before the two names the
  same word, or none that binds ("the", a comma, the sentence's start: not "superstar Stephen
  Curry" for "the Warriors", nor "four-time MVP" for "James");
- that sentence holds three quarters of the claim sentence's other content words (it says the
  claim's fact, not another one of the page's);
- the two names are not one name written two ways: titles aside ("Dr.", "President",
  "Speaker", "Mt."), neither holds the other ("Biden", "Joe Biden"), nor is what one has that
  the other lacks written with the other's initials ("US Senate", "United States Senate";
  "FDA", "Food and Drug Administration"; "J&J", "WWII"), a short form ("Fed", "Sept"), a
  plural, the same but for accents, dots, a number after it or a letter or two ("COVID-19",
  "Alemanía", "Mohammed"), a people's word against a country's name ("British", "UK"), or one
  of a few known other names (:data:`_ALIASES`: "Britain", a capital for its country, "Kiev",
  "Bill" for "William", "the Oscars"); a day of the week faces only another, a month only
  another ("on Monday" against "on June 5" is only less precise); and the passage's name is
  not a place in the claim's ("Honolulu, Hawaii", "Ulm, Germany", "Lahaina on Maui");
- nowhere in the passage does the claim's name stand in those words, the passage does not name
  it only in another sentence (then which is meant is not plain), and it is not in a list with
  it ("Google, Microsoft and Apple acquired ..."); where the passage's name is a name of the
  claim sentence too, the claim's name is in the passage's sentence (two names changing
  places, "France beat Argentina" against "Argentina beat France"), and the words between them
  hold no symmetric relation ("played", "met", "with", "and").

Known to fire still on names of one thing (docs/benchmarks.md): names no rule of writing
relates (a ticker, "BTC"; "SARS-CoV-2" for "Covid-19"; "Mao Tse-tung"; a first name for a
last; a team's city for its nickname, "Golden State" and "the Warriors"; a parent company,
"Alphabet" for "Google", "AWS" for "Amazon"), and names in other languages' words
("Bundestag", "Parlament", "La Albiceleste").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from attribution.text._terms import STOPWORDS, content_terms, month_number, source_sentence_spans

__all__ = ["NAME_COVERAGE", "clear_name_cache", "name_conflict"]

NAME_COVERAGE = 0.75
"""The least share of the claim sentence's content words (the name's own aside) the passage's
sentence must hold for another name there to count against the claim's."""

_PLACE_REACH = 5
"""How far after a passage's name the claim's may follow to place the one in the other."""

_PLACING = frozenset(
    """in on near of outside the a an capital city town state province county region district
    suburb suburbs part northern southern eastern western central north south east west
    northeast northwest southeast southwest""".split()
)
"""Words between a place and the larger place it lies in ("Honolulu, the capital of Hawaii")."""

_CONTEXT = 4
"""The most words either side of a name compared."""

_SLOT_WORDS = 3
"""The least words around two names (their shared first or last words included) that must be
the same for one to stand where the other does."""

_TOKEN = re.compile(
    r"[$€£¥]?\d(?:[\d,.:]*\d)?%?"  # a number, an amount, a time: one token
    r"|['’]s\b"  # a possessive
    r"|\w+(?:[-&]\w+|['’](?!s\b)\w+|\.\w+)*\.?"  # a word ("co-author", "O'Brien", "U.S.")
    r"|[^\w\s]"
)

_TITLES = frozenset(
    """mr mrs ms miss mx dr prof professor sir dame lord lady president vice senator sen rep
    representative governor gov mayor minister prime premier chancellor secretary speaker
    ambassador commissioner general gen king queen prince princess duke duchess baron baroness
    emperor empress sultan emir sheikh pope saint st rev reverend rabbi imam bishop cardinal
    father chief ceo cfo cto judge justice captain capt lt col sgt maj adm coach chairman
    chairwoman chair director founder jr sr mt mount ft fort lake river""".split()
)
"""Words before or after a name that are no part of which it is ("Speaker Pelosi", "Mt.
Everest")."""

_BINDING = frozenset(
    """the a an and but or nor while whereas where when after before as that which who whom
    whose then so because although though since if until""".split()
)
"""Words before a name that leave it the subject or object it is (others bind it: "of",
"superstar")."""

_OPENERS = frozenset(
    """research evidence data analysis experts officials scientists researchers doctors
    analysts critics people users customers studies study reports sources authorities police
    investigators students teachers patients parents children workers employees residents
    voters members fans readers viewers early initial global worldwide annual yearly total
    overall everyone everybody nobody someone somebody today yesterday tomorrow tonight
    meanwhile however moreover furthermore additionally nevertheless nonetheless instead
    despite according several numerous many most some both each every other another new old
    first last later earlier next final average net gross full half recent current
    former future modern ancient local national international regional federal public private
    domestic foreign official""".split()
)
"""Capitalised at a sentence's start, a common word, not a name (as is a word in -ly)."""

_CONNECTORS = frozenset({"and", "&", "of", "for", "the", "de", "du", "von", "van", "der", "la"})
"""Words inside a name ("Food and Drug Administration", "Johnson & Johnson", "Bank of
England"), between two of its capitalised words."""

_DEMONYMS = frozenset(
    """american british english scottish welsh irish french german italian spanish portuguese
    dutch belgian swiss austrian swedish norwegian danish finnish icelandic polish czech
    slovak hungarian romanian bulgarian serbian croatian russian ukrainian belarusian greek
    turkish chinese japanese korean taiwanese indian pakistani bangladeshi afghan iranian
    iraqi syrian lebanese israeli palestinian saudi emirati qatari egyptian moroccan
    algerian tunisian libyan ethiopian kenyan nigerian ghanaian african canadian mexican
    cuban brazilian argentine argentinian chilean peruvian colombian venezuelan australian
    european asian arab thai vietnamese indonesian malaysian singaporean filipino""".split()
)
"""A people's word: "the British government" may be "the UK government" (one side such a
word and the other not: one name; "British" and "French": two)."""

_ALIASES: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "uk britain greatbritain unitedkingdom london",
        "us usa america unitedstates unitedstatesofamerica washington whitehouse",
        "netherlands holland",
        "czechia czechrepublic",
        "eu europeanunion europeancommission brussels",
        "oscar oscars academyaward academyawards",
        "fed federalreserve fomc",
        "caltech californiainstitutetechnology",
        "un unitednations",
        "china beijing prc",
        "russia kremlin moscow",
        "france paris elysee",
        "germany berlin",
        "japan tokyo",
        "india newdelhi delhi",
        "ukraine kyiv kiev",
        "turkey turkiye ankara",
        "myanmar burma",
        "kyiv kiev",
        "mumbai bombay",
        "beijing peking",
        "kolkata calcutta",
        "chennai madras",
        "munich munchen",
        "cologne koln",
        "facebook meta",
        "william bill billy will",
        "robert bob bobby rob",
        "richard dick rick",
        "james jim jimmy",
        "michael mike",
        "joseph joe",
        "thomas tom",
        "edward ted ed eddie",
        "charles chuck charlie",
        "elizabeth liz beth betty",
        "katherine catherine kate katie",
        "anthony tony",
        "stephen steven steve",
        "david dave",
        "jeffrey jeff",
        "margaret maggie peggy",
        "john jack johnny",
        "alexander alex",
        "daniel dan danny",
        "benjamin ben",
        "christopher chris",
        "nicholas nick",
        "samuel sam",
        "patrick pat",
        "jennifer jen jenny",
        "rebecca becky",
    )
)
"""One country, city or body in words that share nothing: other names, its capital or seat
("Beijing imposed tariffs" for China), a name from before; a first name and its familiar form
("Bill Clinton", "William Clinton")."""

_GENERIC = frozenset(
    """company corporation firm group board committee government court agreement plan fund
    trust bank state city county department ministry agency council university college
    school hospital party union commission parliament congress senate house assembly article
    section chapter act bill report program programme project service team club league
    association society institute center centre foundation museum library church army navy
    police region province district republic kingdom empire east west north south""".split()
)
"""A capitalised common word alone ("the Company", "the House") is no name to compare."""


_POSSESSIVE = frozenset({"'s", "’s"})

_JOINERS = frozenset({"and", "or", "&", "nor", "plus"})
_SYMMETRIC = frozenset(
    """and or with vs versus v against met meets meet faced faces face played plays play drew
    draw tied tie married marry between merged merge""".split()
)
"""Words between two names that say the same with the names the other way round."""


_MARKUP = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)|(?:\*\*|__|\*|`)(?=\S)|(?<=\S)(?:\*\*|__|\*|`)")
"""A markdown link (its text kept) or emphasis mark around words: "**Microsoft**",
"[Microsoft](https://...)" are "Microsoft"."""


def _all_caps(word: str) -> bool:
    """An all-capital word of two letters or more ("WHO", "US"): a name even where its lower
    case is a stopword."""
    letters = word.rstrip(".")
    return len(letters) > 1 and letters.isalpha() and letters.isupper()


_WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri sat"
    " sun".split()
)


def _kind(words: tuple[str, ...]) -> str:
    """A day's name, a month's, or any other name: only names of one kind face each other
    ("on Monday" against "on June 5": the claim is only less precise)."""
    if words and all(w in _WEEKDAYS for w in words):
        return "weekday"
    if words and month_number(words[0]) is not None:
        return "month"
    return "name"


class _Token(NamedTuple):
    text: str
    norm: str
    """Lower-cased, accents and dots removed."""
    name: bool
    """A word of a name: capitalised, no stopword, no number."""


def _norm(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace(".", "")


class _Sentence(NamedTuple):
    text: str
    tokens: tuple[_Token, ...]
    runs: tuple[tuple[int, int], ...]
    """Its names (:func:`_runs`)."""


@lru_cache(maxsize=4096)
def _sentences(text: str) -> tuple[_Sentence, ...]:
    """Each sentence of ``text``, its tokens and its names."""
    out = []
    for start, end in source_sentence_spans(text):
        sentence = text[start:end]
        words = _TOKEN.findall(_MARKUP.sub(r"\1", sentence))
        tokens = []
        for k, word in enumerate(words):
            norm = _norm(word)
            name = bool(norm) and word[:1].isupper() and (norm not in STOPWORDS or _all_caps(word))
            if name and k == 0 and not _initial_name(words):
                name = False
            tokens.append(_Token(word, norm, name))
        runs = tuple(
            (i, j)
            for i, j in _runs(tuple(tokens))
            if not all(t.norm in _GENERIC or t.norm in _TITLES for t in tokens[i:j])
        )
        out.append(_Sentence(sentence, tuple(tokens), runs))
    return tuple(out)


def _initial_name(words: list[str]) -> bool:
    """Whether a sentence's capitalised first word is a name: it is when the next word is
    capitalised too ("Pierre Curie"), or when it is no plural, no common word and no adverb
    ("Google acquired"; not "Researchers found", "Evidence shows", "Ultimately the")."""
    if len(words) > 1 and words[1][:1].isupper():
        return True
    if len(words) > 2 and words[1].lower() in _CONNECTORS and words[2][:1].isupper():
        return True  # "Marks & Spencer", "Bank of England"
    first = _norm(words[0])
    if first in _OPENERS or first.endswith("ly"):
        return False
    plural = (
        first.endswith("s")
        and not first.endswith("ss")
        and not any(c.isupper() for c in words[0][1:])
    )
    return not plural


def _runs(tokens: tuple[_Token, ...]) -> list[tuple[int, int]]:
    """The maximal runs of name words, as (first, past the last), with the words that join a
    name's parts (:data:`_CONNECTORS`) inside."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if tokens[i].name:
            j = i + 1
            while j < len(tokens):
                if tokens[j].name:
                    j += 1
                elif (
                    tokens[j].norm in _CONNECTORS
                    and j + 1 < len(tokens)
                    and tokens[j + 1].name
                    and (tokens[j].text[:1].islower() or tokens[j].text == "&")
                ):
                    j += 2  # "Food and Drug", "Johnson & Johnson", "Bank of England"
                else:
                    break
            runs.append((i, j))
            i = j
        else:
            i += 1
    return runs


def _core(words: tuple[str, ...] | list[str]) -> list[str]:
    """A name's words but its titles and the words joining its parts."""
    return [w for w in words if w not in _TITLES and w not in _CONNECTORS]


_NUMBERED = re.compile(r"-?\d+$")
"""A number after a name's word ("COVID-19", "WW2"): the name without it is the same."""


def _alike(a: str, b: str) -> bool:
    """One word written two ways: a plural, a number after it ("COVID-19"), a short form of
    three letters or more ("Fed", "Sept"), one letter more, less or other (five letters or
    more), two (seven or more: "Muhammad", "Mohammed")."""
    a, b = _NUMBERED.sub("", a) or a, _NUMBERED.sub("", b) or b
    if a == b or a.rstrip("s") == b.rstrip("s"):
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 3 and long.startswith(short):
        return True
    if len(short) < 5 or len(long) - len(short) > 2:
        return False
    return _distance(short, long) <= (2 if len(short) >= 7 else 1)


def _distance(a: str, b: str) -> int:
    """Levenshtein distance of two short words."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def _initials(words: list[str]) -> tuple[str, str]:
    """A name's initials, its hyphenated words read as one and as their parts ("Hewlett-Packard":
    "h" and "hp")."""
    whole = "".join(w[0] for w in words if w)
    parts = "".join(p[0] for w in words for p in w.split("-") if p)
    return whole, parts


def _aliases(a: str, b: str) -> bool:
    """Whether two words (or names joined into one) name one thing (:data:`_ALIASES`)."""
    return a != b and any(a in names and b in names for names in _ALIASES)


_ORDINAL = re.compile(r"(?:\d+|[ivx]+)$")
"""A number after a name ("World War II", "World War 2"), written whole in its short form
("WWII", "WW2")."""


def _acronym(word: str, words: list[str]) -> bool:
    """Whether ``word`` is written with initials of ``words`` in order, their joining words
    read or not ("FDA": "U.S. Food and Drug Administration"; "DoJ": "Department of Justice";
    "J&J": "Johnson & Johnson"; "CDC": "Centers for Disease Control and Prevention"; "WWII":
    "World War II"), or with one letter more ("NYC": "New York")."""
    letters = word.replace("&", "").replace("-", "")
    if len(letters) < 2:
        return False
    kept = [w for w in words if w not in _TITLES]
    readings = {*_initials(_core(words)), *_initials(kept)}
    if words and _ORDINAL.fullmatch(words[-1]) and letters.endswith(words[-1]):
        head = letters[: -len(words[-1])]
        return bool(head) and any(head == initials for initials in _initials(_core(words[:-1])))
    letters = letters.rstrip("0123456789")  # "WW2" against "World War" (the 2 after it)
    if len(letters) < 2 or not letters.isalpha():
        return False
    return any(
        letters in initials
        or (
            len(initials) > 1 and letters.startswith(initials) and len(letters) == len(initials) + 1
        )
        for initials in readings
    )


@lru_cache(maxsize=16_384)
def _one_name(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two names may be one: titles aside, one holds the other (a word written two ways
    counting as one), or what one has that the other lacks is written with the other's
    initials ("US Senate", "United States Senate"; "FDA", "Food and Drug Administration"), or
    is a people's word where the other is none ("UK", "British"), or one country's other name
    ("UK", "Britain")."""
    mine, theirs = _core(a), _core(b)
    if not mine or not theirs:
        return True  # a title alone
    if (len(mine) == 1 and _acronym(mine[0], list(b))) or (
        len(theirs) == 1 and _acronym(theirs[0], list(a))
    ):
        return True
    x = [w for w in mine if not any(_alike(w, y) or _aliases(w, y) for y in theirs)]
    y = [w for w in theirs if not any(_alike(w, v) or _aliases(w, v) for v in mine)]
    x = [w for w in x if len(w) > 1] if len(mine) > 1 else x  # a middle initial ("J.")
    y = [w for w in y if len(w) > 1] if len(theirs) > 1 else y
    if not x or not y:
        return True
    if (len(x) == 1 and x[0] in _DEMONYMS) != (len(y) == 1 and y[0] in _DEMONYMS):
        return True  # "UK" and "British", "US" and "American": which country's, maybe one
    joined_x, joined_y = "".join(x), "".join(y)
    if _aliases(joined_x, joined_y):
        return True
    return _acronym(joined_x, y) or _acronym(joined_y, x)


def _side(mine: tuple[_Token, ...], theirs: tuple[_Token, ...]) -> tuple[int, int] | None:
    """How many of the claim's words on one side of its name (``mine``, outwards, up to
    :data:`_CONTEXT`, to a comma or the sentence's edge) the passage's (``theirs``, outwards)
    repeat before the first that differs, and how many of those are content words; None where
    the first that differs is a number ("spent £2,980,815" and "spent £1,580,575": the
    passage's name goes with another fact)."""
    same = content = 0
    for k, token in enumerate(mine[:_CONTEXT]):
        number = _NUMBER.match(token.text) is not None
        if not token.text[:1].isalnum() and token.norm not in _POSSESSIVE and not number:
            break
        if k >= len(theirs) or theirs[k].norm != token.norm:
            if number:
                return None
            break
        same += 1
        content += not number and token.norm not in STOPWORDS
    return same, content


_NUMBER = re.compile(r"[$€£¥]?\d")


def _binding(token: _Token | None) -> bool:
    """Whether the word before a name binds it (no sentence start, punctuation, article or
    conjunction)."""
    return token is not None and token.text[:1].isalnum() and token.norm not in _BINDING


def _slot(
    claim: tuple[_Token, ...], ci: int, cj: int, passage: tuple[_Token, ...], pi: int, pj: int
) -> bool:
    """Whether the passage's name at ``pi:pj`` stands in the claim's name's words."""
    a = [t.norm for t in claim[ci:cj]]
    b = [t.norm for t in passage[pi:pj]]
    pre = 0
    while pre < min(len(a), len(b)) and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < min(len(a), len(b)) - pre and a[-1 - suf] == b[-1 - suf]:
        suf += 1
    before_mine = claim[ci - 1] if ci else None
    before_theirs = passage[pi - 1] if pi else None
    if (_binding(before_mine) or _binding(before_theirs)) and (
        before_mine is None or before_theirs is None or before_mine.norm != before_theirs.norm
    ):
        return False  # "the Warriors" and "superstar Stephen Curry"
    left = _side(tuple(reversed(claim[:ci])), tuple(reversed(passage[:pi])))
    right = _side(claim[cj:], passage[pj:])
    if left is None or right is None or not left[0] + right[0]:
        return False
    shared = a[:pre] + (a[len(a) - suf :] if suf else [])
    content = left[1] + right[1] + sum(w not in STOPWORDS for w in shared)
    return left[0] + right[0] + len(shared) >= _SLOT_WORDS and content > 0


def _listed(tokens: tuple[_Token, ...], pi: int, pj: int, name: set[str]) -> bool:
    """Whether the passage's name at ``pi:pj`` is an item of a list that holds ``name``: only
    names, commas and a joining word between them ("Google, Microsoft and Apple")."""

    def joined(between: tuple[_Token, ...]) -> bool:
        return any(t.norm in _JOINERS for t in between) and all(
            t.norm in _JOINERS or t.text == "," or t.name for t in between
        )

    for k in range(pi - 1, max(-1, pi - 13), -1):
        if tokens[k].norm in name:
            return joined(tokens[k + 1 : pi])
    for k in range(pj, min(len(tokens), pj + 12)):
        if tokens[k].norm in name:
            return joined(tokens[pj:k])
    return False


def _inside(tokens: tuple[_Token, ...], pj: int, name: set[str]) -> bool:
    """Whether the claim's name follows the passage's within a few words that only place the
    one in the other, names among them ("Honolulu, Hawaii", "Santa Clara, Calif.", "Honolulu,
    the capital of Hawaii", "Lahaina on Maui", "Europe's Spaceport in Kourou" for "Kourou"):
    the passage is the more precise."""
    for k in range(pj, min(len(tokens), pj + _PLACE_REACH)):
        if any(_alike(tokens[k].norm, w) for w in name):
            return all(
                t.text == "," or t.norm in _PLACING or t.norm in _POSSESSIVE or t.name
                for t in tokens[pj:k]
            )
    return False


def _symmetric(tokens: tuple[_Token, ...], pi: int, pj: int, name: set[str]) -> bool:
    """Whether the passage's name at ``pi:pj`` and the nearest word of ``name`` either side of
    it are joined by a symmetric word ("Argentina played France")."""
    before = next((k for k in range(pi - 1, -1, -1) if tokens[k].norm in name), None)
    after = next((k for k in range(pj, len(tokens)) if tokens[k].norm in name), None)
    between = [
        *(tokens[before + 1 : pi] if before is not None else ()),
        *(tokens[pj:after] if after is not None else ()),
    ]
    return any(t.norm in _SYMMETRIC for t in between)


@lru_cache(maxsize=4096)
def name_conflict(claim: str, passage: str) -> bool:
    """Whether the passage, in a sentence that says the claim's fact, puts another name where
    the claim has one, and nowhere the claim's (see the module's text for what counts)."""
    if not any(c.isupper() for c in claim):
        return False
    given = _sentences(passage)
    if not given:
        return False
    terms_of: dict[int, frozenset[str]] = {}
    for sentence, tokens, runs in _sentences(claim):
        names = [_words(tokens, i, j) for i, j in runs]
        terms: list[str] | None = None
        for (ci, cj), mine in zip(runs, names, strict=True):
            facing = [
                (k, pi, pj)
                for k, (_, theirs, their_runs) in enumerate(given)
                for pi, pj in their_runs
                if _slot(tokens, ci, cj, theirs, pi, pj)
            ]
            if not facing or not _core(mine):
                continue
            if any(_one_name(mine, _words(given[k][1], pi, pj)) for k, pi, pj in facing):
                continue  # the claim's name stands in its words somewhere
            if terms is None:
                terms = content_terms(sentence)
            own = set(content_terms(" ".join(t.text for t in tokens[ci:cj])))
            rest = [t for t in terms if t not in own]
            others = [n for n in names if n != mine]
            if rest and _against(tokens, mine, rest, others, facing, given, terms_of):
                return True
    return False


def _words(tokens: tuple[_Token, ...], i: int, j: int) -> tuple[str, ...]:
    return tuple(t.norm for t in tokens[i:j])


def _against(
    claim: tuple[_Token, ...],
    mine: tuple[str, ...],
    rest: list[str],
    others: list[tuple[str, ...]],
    facing: list[tuple[int, int, int]],
    given: tuple[_Sentence, ...],
    terms_of: dict[int, frozenset[str]],
) -> bool:
    """Whether a passage's name ``facing`` the claim's (sentence, first, past the last) puts
    another name in the claim's name's words, in a sentence that says the claim's fact."""
    core = set(_core(mine))
    named = {
        k
        for k, (_, tokens, runs) in enumerate(given)
        if any(t.norm in core for t in tokens)
        or any(_one_name(mine, _words(tokens, i, j)) for i, j in runs)
    }
    for k, pi, pj in facing:
        sentence, tokens, _ = given[k]
        if named and k not in named:
            continue  # the passage names it in another sentence: which is meant is not plain
        if k not in terms_of:
            terms_of[k] = frozenset(content_terms(sentence))
        if sum(t in terms_of[k] for t in rest) < NAME_COVERAGE * len(rest):
            continue  # another fact of the page
        if _listed(tokens, pi, pj, core):
            continue
        theirs = _words(tokens, pi, pj)
        if _kind(mine) != _kind(theirs) or _inside(tokens, pj, core):
            continue
        # the passage's name is one of the claim's too: a swap, if the claim's is in this
        # sentence and the words between are no symmetric relation
        swapped = any(_one_name(theirs, other) for other in others)
        if swapped and (k not in named or _symmetric(tokens, pi, pj, core)):
            continue
        return True
    return False


def clear_name_cache() -> None:
    """Forget every text's cached names and every pair's answer."""
    for cached in (name_conflict, _sentences, _one_name):
        cached.cache_clear()
