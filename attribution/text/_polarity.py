"""A state and the negation of its opposite: "is disabled" and "is not enabled".

A careful reader takes "Telemetry is disabled by default." and "Telemetry is not enabled by
default." for one statement, and "The bridge was never closed to traffic." for what "The bridge
remained open to traffic" says. A small judge reads a negation it does not find in the claim as
a contradiction (the first pair: supported 0.02). Here a claim's state is written as the
passage writes it (:func:`polarity_edits`), as :func:`attribution.text.as_written_in` writes a
quantity: "is disabled" as "is not enabled" where the passage says "not enabled", "was never
closed" as "was open" where the passage says it "remained open".

Only a word of a known pair of opposites after a form of *be* (or *remain*, *stay*) is read,
on both sides, and only where the passage writes the other form and never the claim's own word:
"a disabled user", "The firm closed its office", "was closed by the bank", "is known as", "is
open source" are no states, and a passage that says "closed" anywhere leaves the claim as it
is. The passage's state counts only from a sentence that states it plainly (no other negation,
condition, denial or hearsay: "If telemetry is not enabled, ..."), of the claim's subject (or a
pronoun), bounded as the claim's is ("not enabled for free users" is no "disabled."). Two
opposites of which one or the other always holds (:data:`COMPLEMENTS`: enabled, disabled) are
read both ways; of two that both may fail (:data:`CONTRARIES`: safe, unsafe), "not safe" is
read as "unsafe" only where the passage says "unsafe" ("unsafe" says "not safe"; "not unsafe"
does not say "safe"). "Never" is "not" only beside a state the passage says lasted ("remained
open"; "was open until 2019" is no "never closed"); "no longer", an adverb after "isn't" and a
negation before the form of *be* ("has not been available") leave the claim as it is.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from attribution.text._terms import STOPWORDS, source_sentence_spans

__all__ = [
    "COMPLEMENTS",
    "CONTRARIES",
    "NEGATION_MIN_WORDS",
    "denial_edits",
    "negation_conflict",
    "polarity_edits",
    "state_conflict",
]

COMPLEMENTS: tuple[tuple[str, str], ...] = (
    ("disabled", "enabled"),
    ("unavailable", "available"),
    ("inactive", "active"),
    ("closed", "open"),
    ("impossible", "possible"),
    ("unable", "able"),
    ("unsupported", "supported"),
    ("excluded", "included"),
    ("optional", "required"),
    ("optional", "mandatory"),
    ("illegal", "legal"),
    ("invalid", "valid"),
    ("absent", "present"),
    ("false", "true"),
    ("incorrect", "correct"),
    ("incomplete", "complete"),
    ("unknown", "known"),
    ("unchanged", "changed"),
    ("inaccessible", "accessible"),
    ("ineligible", "eligible"),
    ("offline", "online"),
    ("dead", "alive"),
)
"""Opposite states one of which holds: "not enabled" says "disabled", and "not disabled"
says "enabled"."""
CONTRARIES: tuple[tuple[str, str], ...] = (
    ("unlikely", "likely"),
    ("unsafe", "safe"),
    ("unsuccessful", "successful"),
    ("insufficient", "sufficient"),
    ("unnecessary", "necessary"),
    ("uncommon", "common"),
    ("unaffected", "affected"),
    ("hidden", "visible"),
    ("private", "public"),
)
"""Opposite states both of which may fail: "unsafe" says "not safe", but "not unsafe" does
not say "safe" (nor "not public yet" "private")."""

_OTHERS: dict[str, tuple[str, ...]] = {}
for _a, _b in (*COMPLEMENTS, *CONTRARIES):
    _OTHERS[_a] = (*_OTHERS.get(_a, ()), _b)
    _OTHERS[_b] = (*_OTHERS.get(_b, ()), _a)
_CONTRARY = frozenset(frozenset(pair) for pair in CONTRARIES)

_BE = r"(?:is|are|was|were|be|been|being|am|remains?|remained|stays?|stayed|'re|’re)"
_PLAIN_BE = frozenset("is are was were am 're ’re".split())
"""Forms of *be* a "not" may follow in a rewritten claim ("is not open"; not "will be not
open", "has been not open", "remained not open")."""
_LASTING = re.compile(r"(?i:remain|stay)")
_ADVERB = (
    r"(?:(?i:currently|temporarily|permanently|still|now|also|officially|generally|usually"
    r"|normally|typically)[ \t]+)?"
)
"""An adverb that leaves a state as it is ("is still closed" is "is still not open"); not
one that grades it ("not fully supported" is not "unsupported")."""
_WORDS = "|".join(sorted(_OTHERS, key=len, reverse=True))
_STATE = re.compile(
    rf"(?i:\b(?P<be>{_BE})|(?P<nt>(?:is|are|was|were)n[’']t))[ \t]+(?P<adverb>{_ADVERB})"
    rf"(?P<neg>(?i:not|never|no[ \t]+longer)[ \t]+)?"
    rf"(?P<word>(?i:{_WORDS}))\b(?![-’'])",
    re.ASCII,  # "ſ" is no "s" here: every word found is a key of the tables
)
"""A state after a form of *be*: ``is disabled``, ``was never closed``, ``isn't available``,
``is still not open``; not a word joined by a hyphen (``open-source``)."""
_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z]+)")
_AFTER_STATE = frozenset(
    """for to in on at until till during before after except from with without between by
    since within throughout across over under through and or but while because unless if
    when whenever today tonight now yet again anymore already too either still here there
    this that these those each every""".split()
)
"""Words that may follow a state (a preposition, a conjunction, an adverb of time); another
word makes it no state but a word of a name or an attribute ("is open source", "is common
knowledge", "was closed down", "is known as", "was closed by the bank")."""
_NOT_AFTER_STATE = frozenset({"down", "up", "off", "out", "as", "enough"})
_BY_AGENT = re.compile(r"[ \t]+by[ \t]+(?!default\b)", re.ASCII)
"""A passive's agent ("closed by the bank"): a verb, no state; "by default" is a state's."""
_BEFORE_TO = frozenset({"required", "optional", "changed", "unchanged", "known", "unknown"})
"""Words that before "to" are a verb or a sense of their own ("required to register", "changed
to 5%", "known to cause"); others keep their sense ("open to traffic", "available to all")."""
_LIMITS = frozenset({"until", "till", "during", "for", "before", "since", "when", "after"})
"""Words right after a state that bound it in time ("remained open until 2019", "not open for
a week"): "never closed", or "closed", says more."""
_BOUNDS = _LIMITS - {"for"}
"""Words anywhere in a passage's sentence that bound its state in time ("Before 2020, the
border was not open"): the claim's state is that one only where the claim has them too."""
_NEGATED_BE = re.compile(r"(?i:\b(?:not|never|no[ \t]+longer|cannot)|n[’']t)[ \t]+(?:\w+[ \t]+)?$")
"""A negation before the form of *be* ("has not been available", "hasn't been open", "cannot
be closed")."""
_WORD_CUE = re.compile(rf"\b(?i:{_WORDS})\b", re.ASCII)
_OTHER_NEGATION = re.compile(
    r"(?i:\b(?:not|never|no|none|nobody|nothing|neither|nor|without|hardly|barely|cannot)\b"
    r"|n[’']t\b)"
)
"""A negation besides a state's own: "None of the stores are closed" is read as written (not
as "None of the stores are not open"); a passage's "Nobody said the pool is not open" says no
state."""
_HEARSAY = re.compile(
    r"(?i:\b(?:if|unless|whether|when|whenever|until|deny|denies|denied|claim|claims|claimed"
    r"|rumou?rs?|reports?[ \t]+that|allegedly|false|untrue|should|would|could|might)\b)"
    r"|\b(?:may|May(?![ \t]+\d))\b"  # the modal, not the month ("Since May 2021")
)
"""Words that make a passage's sentence no statement of its state ("If telemetry is not
enabled, ...", "Officials denied reports that the vaccine is not available")."""


class _State(NamedTuple):
    start: int
    """Where the negation, else the word, starts."""
    end: int
    word: str
    """In lower case."""
    negated: bool
    editable: bool
    """Whether a claim's may be written in another form (not after "no longer", an adverb
    after "isn't", or a negation before the form of *be*)."""
    never: bool
    be: str
    """The form of *be* before it, in lower case (``is``, ``remained``; ``is`` for "isn't")."""
    after: str
    """The word after it, in lower case ("by" of "by default"); empty at a clause's end."""
    subject: str
    """The word before the form of *be*, in lower case ("camera" of "The camera is
    disabled")."""


_WORD_BEFORE = re.compile(r"([A-Za-z]+)[ \t]+$")


def _states(text: str) -> list[_State]:
    """The states ``text`` writes."""
    found = []
    for m in _STATE.finditer(text):
        word = m.group("word").lower()
        if word not in _OTHERS:
            continue
        following = _NEXT_WORD.match(text, m.end())
        after = following.group(1).lower() if following else ""
        if after in _NOT_AFTER_STATE or _BY_AGENT.match(text, m.end()):
            continue
        if after and after not in _AFTER_STATE and not after.endswith("ly"):
            continue  # "is open source", "is common knowledge": a name's or a thing's word
        if word in _BEFORE_TO and after == "to":
            continue
        neg = " ".join((m.group("neg") or "").lower().split())
        be = (m.group("be") or "is").lower()
        before = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
        subject = before.group(1).lower() if before else ""
        if m.group("nt") is not None:  # "isn't available": the "n't" goes
            plain = not (neg or m.group("adverb"))  # not "isn't generally", "isn't not"
            state = _State(
                m.end("nt") - 3, m.end("word"), word, True, plain, False, be, after, subject
            )
        elif neg:
            editable = neg != "no longer"  # "no longer available" says it was
            never = neg == "never"
            state = _State(
                m.start("neg"), m.end("word"), word, True, editable, never, be, after, subject
            )
        elif _NEGATED_BE.search(text, max(0, m.start() - 24), m.start()) is not None:
            state = _State(
                m.start("word"), m.end("word"), word, True, False, False, be, after, subject
            )
        else:
            state = _State(
                m.start("word"), m.end("word"), word, False, True, False, be, after, subject
            )
        found.append(state)
    return found


class _Stated(NamedTuple):
    """A state a passage states: in a sentence with no other negation and no condition,
    denial or hearsay."""

    after: str
    lasting: bool
    """Said to last ("remained open"); its bounds in time are :attr:`bounds`."""
    terms: frozenset[str]
    """The sentence's words, in lower case."""
    pronoun: bool
    """Its subject is a pronoun ("It is unavailable"): of whatever the claim names."""
    bounds: frozenset[str]
    """The words of its sentence that bound it in time ("until", "before", "during", ...)."""
    content: frozenset[str]
    """Its sentence's words that are no stopwords, in lower case."""
    tense: str | None
    """``now`` or ``then`` by its form of *be* ("is", "was"); None for another."""


_TERM = re.compile(r"[A-Za-z]+")
_PRONOUNS = frozenset("it they this these that those he she we".split())


@lru_cache(maxsize=4096)
def _passage_states(
    passage: str,
) -> tuple[frozenset[tuple[str, bool]], dict[tuple[str, bool], list[_Stated]]]:
    """Every state the passage writes (word, negated), and those it states plainly."""
    written: set[tuple[str, bool]] = set()
    stated: dict[tuple[str, bool], list[_Stated]] = {}
    for a, b in source_sentence_spans(passage):
        sentence = passage[a:b]
        states = _states(sentence)
        if not states:
            continue
        terms = frozenset(t.lower() for t in _TERM.findall(sentence))
        hearsay = _HEARSAY.search(sentence) is not None
        for s in states:
            written.add((s.word, s.negated))
            rest = sentence[: s.start] + " " + sentence[s.end :]
            if hearsay or _OTHER_NEGATION.search(rest) is not None:
                continue
            bounds = (terms & _BOUNDS) | ({s.after} & _LIMITS)
            lasting = not s.negated and _LASTING.match(s.be) is not None
            pronoun = s.subject in _PRONOUNS
            content = frozenset(t for t in terms if t not in STOPWORDS)
            stated.setdefault((s.word, s.negated), []).append(
                _Stated(s.after, lasting, terms, pronoun, bounds, content, _TENSE.get(s.be))
            )
    return frozenset(written), stated


def _cased(like: str, word: str) -> str:
    """``word`` in the case of ``like`` (``DISABLED``: ``NOT ENABLED``)."""
    if like.isupper() and len(like) > 1:
        return word.upper()
    return word.capitalize() if like[:1].isupper() else word


_PREPOSITIONS = _AFTER_STATE - {
    "and",
    "or",
    "but",
    "today",
    "tonight",
    "now",
    "yet",
    "again",
    "anymore",
    "already",
    "too",
    "either",
    "still",
    "here",
    "there",
}


def _fits(state: _State, stated: _Stated, claim_terms: frozenset[str]) -> bool:
    """Whether the passage's stated opposite speaks of the claim's state: of its subject (where
    the claim names one), bounded as the claim's is ("not enabled for free users" is no
    "disabled."; "not open on Mondays" is "closed on Mondays"), and, for "never", lasting."""
    if stated.after in _PREPOSITIONS and stated.after != state.after:
        return False
    named = state.subject and state.subject not in STOPWORDS
    if named and not stated.pronoun and state.subject not in stated.terms:
        return False  # "The camera is disabled" and "The microphone is not enabled"
    if not stated.bounds <= claim_terms:
        return False  # "remained open until 2019", "Before 2020, ... not open": bounded
    return not state.never or stated.lasting


def polarity_edits(claim: str, passage: str) -> list[tuple[int, int, str]]:
    """Edits (start, end, replacement) that write each of the claim's states as the passage
    writes it: the claim's "disabled" as "not enabled" where the passage states "not enabled"
    (and nowhere "disabled"), its "not enabled" (or "isn't enabled") as "disabled" where the
    passage states "disabled" (and nowhere "enabled"); and each denial (:func:`denial_edits`).
    Nothing else changes."""
    denials = denial_edits(claim, passage)
    if _WORD_CUE.search(claim) is None or _WORD_CUE.search(passage) is None:
        return denials
    written, stated = _passage_states(passage)
    claim_terms = frozenset(t.lower() for t in _TERM.findall(claim))
    edits: list[tuple[int, int, str]] = []
    for state in _states(claim):
        word, negated = state.word, state.negated
        if not state.editable or (word, False) in written or (word, True) in written:
            continue  # the passage writes the claim's own word, either way: the judge's to see
        if not negated and state.be not in _PLAIN_BE:
            continue  # "remained closed" is no "remained not open"
        rest = claim[: state.start] + " " + claim[state.end :]
        if _OTHER_NEGATION.search(rest) is not None:
            continue  # two negations: as written
        for other in _OTHERS[word]:
            if not negated and frozenset((word, other)) in _CONTRARY:
                continue  # "not unsafe" does not say "safe"
            theirs = stated.get((other, not negated), ())
            if not any(_fits(state, s, claim_terms) for s in theirs):
                continue
            cased = _cased(claim[state.end - len(word) : state.end], other)
            replacement = cased if negated else f"{_cased(cased, 'not')} {cased}"
            if negated and claim[state.start : state.start + 3] in ("n't", "n’t"):
                replacement = f" {cased}"  # "isn't available" as "is unavailable"
            edits.append((state.start, state.end, replacement))
            break
    return [*edits, *(d for d in denials if not any(d[0] < b and a < d[1] for a, b, _ in edits))]


_LEMMAS: dict[str, tuple[str, str]] = {}
"""A verb's form → (its base form, the auxiliary of its tense: did, does, do)."""
for _base, _third, _past in (
    ("find", "finds", "found"),
    ("have", "has", "had"),
    ("show", "shows", "showed"),
    ("report", "reports", "reported"),
    ("see", "sees", "saw"),
    ("receive", "receives", "received"),
    ("make", "makes", "made"),
    ("give", "gives", "gave"),
    ("take", "takes", "took"),
    ("pay", "pays", "paid"),
    ("record", "records", "recorded"),
    ("detect", "detects", "detected"),
    ("observe", "observes", "observed"),
    ("identify", "identifies", "identified"),
    ("offer", "offers", "offered"),
    ("provide", "provides", "provided"),
    ("require", "requires", "required"),
    ("cause", "causes", "caused"),
    ("win", "wins", "won"),
    ("hold", "holds", "held"),
):
    _LEMMAS[_base] = (_base, "do")
    _LEMMAS[_third] = (_base, "does")
    _LEMMAS[_past] = (_base, "did")
_VERBS = "|".join(sorted(_LEMMAS, key=len, reverse=True))
_VERB_NO = re.compile(
    r"(?<!\bhave )(?<!\bhas )(?<!\bhad )(?<!\bwill )(?<!\bwould )(?<!\bcan )(?<!\bcould )"
    r"(?<!\bmay )(?<!\bmight )(?<!\bmust )(?<!\bshould )(?<!\bto )(?<!\bdid )(?<!\bdoes )"
    rf"\b(?P<verb>(?i:{_VERBS}))[ \t]+(?P<no>no)[ \t]+"
    r"(?!(?i:more|less|fewer|longer|later|sooner|one|doubt)\b)(?=\w)",
    re.ASCII,  # "ſ" is no "s" here: every verb found is a key of the table
)
"""A verb and "no" before what it denies: "found no difference", "has no effect"; not after
an auxiliary ("have found no", "will have no": another tense), nor "no more than", "no
fewer than", "no one", "no doubt"."""
_DID_NOT = re.compile(
    rf"\b(?P<aux>(?i:did|does|do))(?:[ \t]+not|n[’']t)[ \t]+(?P<verb>(?i:{_VERBS}))"
    r"[ \t]+(?P<any>(?i:any|an?))[ \t]+"
    r"(?!(?i:lot|few|little|bit|great|good|big|majority|more|less|fewer|single)\b)(?=\w)",
    re.ASCII,
)
""""did not" and a verb before what it denies: "did not find a difference", "doesn't have
any effect"; not "did not find a lot of", "a few"."""


_NO = re.compile(r"(?i:\bno\b)")
_NEXT_NOUN = re.compile(
    r"[A-Za-z]+(?=[ \t]*(?:[.,;:!?)]|$|[ \t]+(?:of|in|on|at|for|to|from|with|between|among"
    r"|and|or|since|during|after|before)\b))"
)
"""The last word of the phrase after "no" (its noun, to tell a plural: "no parks in town")."""
_NOT = re.compile(r"(?i:\bnot\b|n[’']t\b)")


def _verb_base(m: re.Match[str]) -> str:
    return _LEMMAS[m.group("verb").lower()][0]


def denial_edits(claim: str, passage: str) -> list[tuple[int, int, str]]:
    """Edits that write the claim's denial as the passage writes it: "found no difference" as
    "did not find a difference" where the passage says "did not find a" (its article; "any"
    before a plural), and back ("does not have any effect" as "has no effect"); the verb the
    same, its tense the claim's."""
    if _NO.search(claim) is None and _NOT.search(claim) is None:
        return []
    edits: list[tuple[int, int, str]] = []
    theirs_did = {_verb_base(m): m.group("any").lower() for m in _DID_NOT.finditer(passage)}
    theirs_no = {_verb_base(m) for m in _VERB_NO.finditer(passage)}
    for m in _VERB_NO.finditer(claim):
        base, aux = _LEMMAS[m.group("verb").lower()]
        if base in theirs_did and base not in theirs_no:
            verb = m.group("verb")
            aux = aux.capitalize() if verb[:1].isupper() else aux
            # the passage's article, but "any" before a plural ("found no parks" is "did not
            # find any parks"): a small judge reads "did not find any difference" against "did
            # not find a difference" as a contradiction (0.99)
            noun = _NEXT_NOUN.search(claim, m.end(), m.end() + 60)
            plural = (
                noun is not None and noun.group().endswith("s") and not noun.group().endswith("ss")
            )
            article = "any" if plural else theirs_did[base]
            if article != "any":
                article = "an" if claim[m.end() : m.end() + 1].lower() in tuple("aeiou") else "a"
            edits.append((m.start(), m.end(), f"{aux} not {base} {article} "))
    for m in _DID_NOT.finditer(claim):
        base = _LEMMAS[m.group("verb").lower()][0]
        if base in theirs_no and base not in theirs_did:
            aux = m.group("aux").lower()
            form = next(f for f, (b, a) in _LEMMAS.items() if b == base and a == aux)
            form = form.capitalize() if m.group("aux")[:1].isupper() else form
            edits.append((m.start(), m.end(), f"{form} no "))
    return edits


_TOKEN = re.compile(r"\w+(?:['’]\w+)?|[$€£¥₹%]")
_CONTRACTED = {
    "can't": ("can", "not"),
    "cannot": ("can", "not"),
    "won't": ("will", "not"),
    "shan't": ("shall", "not"),
}
_NEGATIONS = frozenset({"not", "never"})
_DO = frozenset({"do", "does", "did"})
NEGATION_MIN_WORDS = 4
"""A claim needs at least this many words for :func:`negation_conflict`."""


def _tokens(text: str) -> list[str]:
    """Words case-folded, "n't" a word of its own ("didn't": "did", "not")."""
    out: list[str] = []
    for token in _TOKEN.findall(text.casefold().replace("’", "'")):
        if token in _CONTRACTED:
            out.extend(_CONTRACTED[token])
        elif token.endswith("n't") and len(token) > 3:
            out.extend((token[:-3], "not"))
        else:
            out.append(token)
    return out


def _inflects(form: str, base: str) -> bool:
    """Whether ``form`` is ``base`` or a past or third-person form of it ("paid" of "pay",
    "closed" of "close", "opened" of "open", "applies" of "apply")."""
    if form == base:
        return True
    known = _LEMMAS.get(form)
    if known is not None:
        return known[0] == base
    stem = base[:-1] + "i" if base.endswith("y") and base[-2:-1] not in "aeiou" else base
    return form in (base + "s", base + "es", base + "d", base + "ed", stem + "ed", stem + "es")


def _without_negation(words: list[str]) -> list[tuple[list[str], int]]:
    """Each reading of ``words`` with one negation taken out ("did not pay" as "pay", "is not
    open" as "is open"): (the words, the position where the negation, or its "did", stood)."""
    readings: list[tuple[list[str], int]] = []
    for j, word in enumerate(words):
        if word not in _NEGATIONS or (j + 1 < len(words) and words[j + 1] == "only"):
            continue  # "not only ... but"
        if j > 0 and words[j - 1] in _DO and j + 1 < len(words):
            readings.append((words[: j - 1] + words[j + 1 :], j - 1))  # "did not pay": "pay"
        else:
            readings.append((words[:j] + words[j + 1 :], j))  # "is not open", "never played"
    return readings


def _found_at(claim: list[str], text: list[str], at: int) -> int:
    """Where ``claim`` ends in ``text`` standing over position ``at``, the word there in any
    inflected form of the claim's (the base form "did not" leaves); -1 where it does not."""
    n = len(claim)
    for start in range(max(0, at - n + 1), min(at, len(text) - n) + 1):
        window = text[start : start + n]
        k = at - start
        if all(a == b for i, (a, b) in enumerate(zip(claim, window, strict=True)) if i != k) and (
            claim[k] == window[k]
            or _inflects(claim[k], window[k])
            or _inflects(window[k], claim[k])
        ):
            return start + n
    return -1


def _has(words: list[str], part: list[str]) -> bool:
    """Whether ``part`` stands word for word in ``words``."""
    n = len(part)
    return any(words[i : i + n] == part for i in range(len(words) - n + 1))


_BOUNDING = _LIMITS | {"until", "except", "unless", "outside", "without"}
"""Words after the negated words that bound them ("did not pay a dividend until 2023", "is not
open to cyclists during rush hour"): the claim without them is not what the passage denies."""


_MISTAKEN = re.compile(
    r"(?i:\b(?:myths?|misconceptions?|wrongly|mistakenly|falsely|contrary[ \t]+to"
    r"|(?:often|commonly|widely)[ \t]+(?:said|believed|thought|claimed))\b)"
)
"""Words that say a sentence's statement is mistaken ("A common myth is that the museum is not
open on Mondays", "It is often said that ...")."""


def negation_conflict(claim: str, passage: str) -> bool:
    """Whether the passage says the claim with a negation: "The company paid a dividend in
    2023." against "The company did not pay a dividend in 2023" (a small judge read it as
    support, 0.58, with P(contradiction) 0.89), "The museum is open on Mondays." against "The
    museum is not open on Mondays.", and the other way ("The drug was not approved." against
    "The drug was approved."). Word for word but for the one negation (and "did" with the
    verb's form), inside one sentence of the passage that states it plainly (no question, no
    other negation, denial or hearsay), where the passage does not say the claim as it is."""
    mine = _tokens(claim)
    if len(mine) < NEGATION_MIN_WORDS or not _NEGATIONS & (set(_tokens(passage)) | set(mine)):
        return False
    negative = bool(_NEGATIONS & set(mine))
    sentences = [passage[a:b] for a, b in source_sentence_spans(passage)]
    said = [_tokens(sentence) for sentence in sentences]
    if any(_has(theirs, mine) for theirs in said):
        return False  # "Critics said it did not pay a dividend, but it paid a dividend"
    n = len(mine)
    for sentence, theirs in zip(sentences, said, strict=True):
        if len(theirs) < n - 2 or sentence.rstrip(" \t\"'”’)]").endswith("?"):
            continue
        if _HEARSAY.search(sentence) is not None or _MISTAKEN.search(sentence) is not None:
            continue  # "denied reports that", "Whether or not", "if it is not"
        negations = len(_OTHER_NEGATION.findall(sentence))
        if negative:  # the claim's negation taken out is what the passage says
            if negations == 0 and any(
                _found_at(words, theirs, at) >= 0
                for words, at in _without_negation(mine)
                if at < len(words)
            ):
                return True
            continue
        if negations != 1:
            continue  # "It is not true that the museum is not open"
        for j, word in enumerate(theirs):
            if word not in _NEGATIONS:
                continue
            lo = max(0, j - n - 1)  # only the words the claim can reach from the negation
            local = theirs[lo : j + n + 1]
            for words, at in _without_negation(local):
                if at + lo != j and at + lo != j - 1:
                    continue
                end = _found_at(mine, words, at)
                if end < 0:
                    continue
                after = end + len(local) - len(words) + lo
                if after < len(theirs) and theirs[after] in _BOUNDING:
                    continue  # "did not pay a dividend until 2023"
                return True
    return False


def state_conflict(claim: str, passage: str) -> bool:
    """Whether the passage states plainly the opposite of a state the claim states: "Automatic
    backups are enabled by default." against "Automatic backups are disabled by default." (a
    small judge read it as support, 0.89), or against "... are not enabled by default.";
    "closed" against "open" (one of two complements, or a contrary: "safe" against "unsafe").
    The passage's state counts as :func:`polarity_edits` counts it (a plain sentence, bounded as
    the claim is), of the subject the claim names ("Backups are ...": not "it is possible to
    ..."); "not safe" against "not unsafe" is none (both may hold), nor is a claim whose state
    stands under another negation."""
    if _WORD_CUE.search(claim) is None or _WORD_CUE.search(passage) is None:
        return False
    written, stated = _passage_states(passage)
    claim_terms = frozenset(t.lower() for t in _TERM.findall(claim))
    passage_words = frozenset(t.lower() for t in _TERM.findall(passage))
    for state in _states(claim):
        word, negated = state.word, state.negated
        if not state.editable or state.be not in _PLAIN_BE | {"be", "been", "being"}:
            continue
        said = word in passage_words  # "... and enabled on Enterprise": the claim's word too
        rest = claim[: state.start] + " " + claim[state.end :]
        if _OTHER_NEGATION.search(rest) is not None:
            continue  # two negations: the judge's to read
        opposites = [(word, not negated)]  # "is enabled" against "is not enabled"
        for other in _OTHERS[word]:
            contrary = frozenset((word, other)) in _CONTRARY
            if not negated or not contrary:  # "not safe" and "not unsafe" may both hold
                opposites.append((other, negated))  # "enabled" against "disabled"
        if not state.subject or state.subject in STOPWORDS or state.subject in _PRONOUNS:
            continue  # "it is not possible to ...": of what, the words after it say
        tense = _TENSE.get(state.be)
        for opposite in opposites:
            if opposite[0] != word and said:
                continue  # "disabled on Free and enabled on Enterprise": the judge's to read
            if opposite[0] == word and (word, negated) in written:
                continue  # "enabled" and "not enabled" both said
            for s in stated.get(opposite, ()):
                if not (_fits(state, s, claim_terms) and state.subject in s.terms):
                    continue
                if s.tense is not None and tense is not None and s.tense != tense:
                    continue  # "was disabled in 2019" is no "is enabled now"
                # its sentence says nothing the claim does not ("Local backups are disabled"
                # is of other backups than "Cloud backups are enabled")
                if s.content - _STATE_WORDS <= claim_terms:
                    return True
    return False


_TENSE = {"is": "now", "are": "now", "am": "now", "'re": "now", "’re": "now", "was": "then",
          "were": "then"}  # fmt: skip
_STATE_WORDS = frozenset(_OTHERS) | {
    "not", "never", "now", "still", "currently", "also", "today", "already", "again", "always",
}  # fmt: skip
"""Words a passage's sentence may say of a state beyond the claim's (its state, a time now)."""
