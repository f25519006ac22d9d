"""Sentences inside one prose unit: the spaCy pipeline and the fixes made to its boundaries.

The pipeline is ``spacy.blank("en")`` with the rule-based ``sentencizer``: no trained model is
needed. Its tokenizer is taught to split the CJK full stops (``。！？``) off the text before them,
so that the sentencizer sees them. Boundaries it puts after an abbreviation (``Fig.``, ``et al.``,
``No.``) that spaCy's tokenizer does not know are removed again by :func:`sentence_spans`.

spaCy is imported only here, and only when a pipeline is built.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from attribution._errors import MissingDependencyError
from attribution.segment._spans import strip_span
from attribution.text import STOPWORDS, day_before_month, ends_with_day

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = [
    "ends_with_short_scale",
    "make_pipeline",
    "sentence_spans",
    "sentence_starts",
    "split_long",
]

# Sentence-final punctuation of Chinese and Japanese (full-width and half-width forms).
CJK_TERMINATORS = "。！？｡"


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# An abbreviation after which a sentence does not end, whatever follows: titles before a name,
# labels before a number, and Latin abbreviations used mid-sentence.
_ALWAYS_CONTINUES = _word_set(
    """
    mr mrs ms messrs dr prof rev fr st mt gen col maj capt cmdr lt sgt adm gov sen rep pres hon
    fig figs eq eqs sec ch chap vol vols art pp vs cf viz e.g i.e esp incl approx ca
    vgl bzw ggf evtl inkl sog z.b d.h z.t o.g u.ä zzgl ggü
    """
)
# An abbreviation that may end a sentence: it ends one unless the next word starts in lower case
# or with a digit (``et al. (2023)``, ``No. 5``, ``Apple Inc. is``, ``apples, pears, etc. and``;
# legal and German ones: ``(9th Cir. 1999)``, ``Rn. 12``; not English words such as "abs", "lit",
# "ref" or "env": "Engage your abs. 3 sets ..." ends).
_MAY_END = _word_set(
    """
    etc al inc ltd co corp llc plc jr sr bros dept univ assn est no nos nr ed eds trans p op ft lb
    lbs oz hr hrs min mins yr yrs mo mos wk wks jan feb mar apr jun jul aug sep sept oct nov dec
    mon tue tues wed thu thur thurs fri sat u.s u.k e.u u.n u.s.a a.m p.m ph.d b.c a.d m.d
    cir para paras rn ziff aufl hrsg ibid usw u.a avg jh ebd ex hab chr gegr geb gest verh resp
    """
)
# Words shortened before a number only, as written ("env. 2,1 M", "rd. 12.000"): before a word,
# "env." ends a sentence ("Set it in your env. npm reads it."), and "Rd." before a number too
# ("on Abbey Rd. 3 buses stop there").
_BEFORE_NUMBER = frozenset({"env", "rd"})
# German labels before a number, as written (capitalised): "abs." in lower case is a word.
_LABELS_BEFORE_NUMBER = frozenset({"Abs", "Bd", "Buchst"})
# A scale written short after a number ("16,4 Mrd. €", "3,2 Mio. Euro", "USD 3.2 bn. in"): the
# sentence goes on into the currency after it, or a word in lower case, with one blank between
# (no marker: "16 Mrd. [1] Euro-Länder ..." ends at the marker).
_SHORT_SCALE = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)*\s?(mrd|mio|bn|mn|tsd)\.[ \u00a0]?$", re.IGNORECASE
)
_GERMAN_SCALES = frozenset({"mrd", "mio", "tsd"})
_CAPITALISED_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüß]+(?=[\s,;:.!?)]|$)")
_GERMAN_OPENER = re.compile(
    r"(?:Der|Die|Das|Den|Dem|Des|Ein|Eine|Es|Er|Sie|Wir|Ich|Man|Dies|Diese|Dieser|Dieses|Im|In"
    r"|Am|An|Auf|Aus|Bei|Mit|Nach|Seit|Von|Vor|Zu|Zum|Zur|Für|Über|Unter|Als|Wenn|Danach|Dann"
    r"|Dabei|Damit|Auch|Aber|Und|So|Heute|Hier|Dort|Bis|Durch|Um|Ab|Wie|Alle|Viele|Einige)\b"
)
"""Words that open a German sentence after "u.a." ("Merkel, Scholz u.a. Die Feier begann")."""
_ERA_BEFORE = re.compile(r"(?:^|\s)(?:av|apr|v|n)\.$")
"""What stands before an era's name: "av. J.-C.", "apr. J.-C.", "v. Chr.", "n. Chr."."""
# Nouns that follow a number written with a German scale ("1,5 Mio. Einwohner"): after any
# other capitalised word a sentence may start ("3,2 Mio. Viele davon pendeln täglich.")
_SCALED_NOUNS = _word_set(
    """
    einwohner menschen personen besucher nutzer kunden zuschauer mitglieder mitarbeiter
    beschäftigte haushalte fahrgäste passagiere touristen gäste abonnenten follower downloads
    aufrufe stimmen arbeitsplätze wohnungen fahrzeuge autos exemplare stück tonnen barrel liter
    kubikmeter hektar quadratkilometer kilometer jahre franken pfund dollar euro
    """
)
_CURRENCY_AFTER = re.compile(
    r"[$€£¥₹₩]|(?:Euro|Euros|EUR|USD|US-Dollar|Dollar|Dollars|CHF|GBP|Pfund|Franken|Yen)\b"
)
# A name's mark ("Yahoo! reported", "According to Which?, the Seal", "Which? magazine"): a
# capitalised word glued to it and a word after it in lower case only ("buy? iPhone" and
# "Wow! eBay" end sentences).
_NAME_MARK = re.compile(r"(?<![\w.])[A-Z][a-z]{1,11}[?!]$")
_LOWER_WORD = re.compile(r"[a-z]+\b")
_END_AFTER_ABBREVIATION = re.compile(r"(?<=\.)[ \t\u00a0]{3,}(?=([A-Z][a-z]*)[^\w])")
"""Blanks (a masked marker among them) after a full stop, before a capitalised word that has
ended (a stream decides once the word is whole, as the whole answer does)."""
_QUOTED_MARK = re.compile(r"[?!][\"'”’»)]+$")
"""A question or an exclamation inside quotes or brackets: a word in lower case after it goes
on with the same sentence ("Who Framed Roger Rabbit?" was released)."""


def ends_with_short_scale(text: str) -> bool:
    """Whether ``text`` ends with a number and a scale written short (``16,4 Mrd.``), with a
    day written with a dot (``am 13.``) or with ``u.a.``: whether a sentence ends there is
    decided by the whole word after it (``Euro``, ``August``, ``Berlin``), which a stream may
    not have."""
    end = len(text.rstrip())
    return (
        _SHORT_SCALE.search(text, max(0, end - 40), end) is not None
        or ends_with_day(text, end)
        or _AMONG_OTHERS.search(text, max(0, end - 5), end) is not None
    )


_AMONG_OTHERS = re.compile(r"(?<![\w.])u\.a\.$", re.IGNORECASE)


_WORD_BEFORE_DOT = re.compile(r"(?<![\w.])([^\W\d_](?:[\w.]*[^\W\d_])?)\.$")
_CONTINUATION_PUNCT = "([{,;:"
_CLOSERS = ")]}\"'”’»"
_ELLIPSES = ("...", "\u2026")
_OPENERS = "([{\"'“‘«¿¡*_~"

# Where a sentence that is too long may be cut, best first: after a semicolon; after the comma
# before a coordinating conjunction (and the CJK comma); then at any blank.
_CLAUSE_CUTS = (
    re.compile(r"[;；](?=\s)"),
    re.compile(r",(?=\s+(?:and|but|or|yet|so|while|whereas)\s)|，|、"),
)


def make_pipeline() -> Language:
    """A blank English pipeline with a sentencizer that also knows CJK full stops.

    Returns:
        The pipeline (tokenizer and ``sentencizer``, nothing trained).

    Raises:
        MissingDependencyError: spaCy is not installed.
    """
    try:
        import spacy
        from spacy.pipeline import Sentencizer
        from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex
    except ImportError as exc:  # pragma: no cover - spaCy is a runtime dependency
        raise MissingDependencyError("spacy", purpose="sentence segmentation") from exc

    nlp = spacy.blank("en")
    # "id" and "Id" are split as "I'd" written without its apostrophe, and the full stop after
    # them stays glued on ("an id. Python ..." was one sentence); an answer about software says
    # "id" for an identifier far more often
    tokenizer_rules: Any = nlp.tokenizer
    tokenizer_rules.rules = {
        k: v for k, v in tokenizer_rules.rules.items() if k not in ("id", "Id", "id.", "Id.")
    }
    # spaCy refuses texts over a million characters to spare a parser's memory; the rule
    # sentencizer has no such cost, and a long answer (or a long unit of one) is not an error
    nlp.max_length = 2**62
    # an ellipsis may end a sentence (sentence_spans keeps it going before a lower-case word)
    dots = {"." * n for n in range(4, 8)}  # "mixed.... Further": the tokenizer keeps the run
    punct = sorted(
        set(Sentencizer.default_punct_chars) | set(CJK_TERMINATORS) | set(_ELLIPSES) | dots
    )
    nlp.add_pipe("sentencizer", config={"punct_chars": punct})
    # The tokenizer glues 。 to the word before it, so the sentencizer would never see it.
    cjk = rf"[{CJK_TERMINATORS}]"
    tokenizer: Any = nlp.tokenizer  # a Cython class without type stubs
    tokenizer.infix_finditer = compile_infix_regex([*(nlp.Defaults.infixes or ()), cjk]).finditer
    # "~~struck~~." ends a sentence as "**bold**." does: the tokenizer glued the tildes on
    # "Frankfurt¹. It opened": a full stop after a superscript digit was glued on (not after ²)
    superscript = r"(?<=[\u00b9\u00b2\u00b3\u2070\u2074-\u2079])[.!?,;:]"
    suffixes = [*(nlp.Defaults.suffixes or ()), cjk, "~~", r"(?<=~~)[.!?,;:]", superscript]
    tokenizer.suffix_search = compile_suffix_regex(suffixes).search
    tokenizer.prefix_search = compile_prefix_regex([*(nlp.Defaults.prefixes or ()), "~~"]).search
    return nlp


def sentence_starts(nlp: Language, texts: Iterable[str]) -> list[list[int]]:
    """The character offsets at which the pipeline starts a sentence, for each text.

    Args:
        nlp: a pipeline from :func:`make_pipeline`.
        texts: the (masked) prose units.

    Returns:
        One list of offsets per text, the first always 0.
    """
    texts = list(texts)
    cut = [_blanks_in_runs(text) for text in texts]
    given = (
        text if not at else "".join(" " if k in at else c for k, c in enumerate(text))
        for text, at in zip(texts, cut, strict=True)
    )
    # a sentence the pipeline starts right after a blank put in a run is no sentence
    return [
        [sent.start_char for sent in doc.sents if sent.start_char - 1 not in at]
        for doc, at in zip(nlp.pipe(given), cut, strict=True)
    ]


_RUN = 64
"""The longest run without a blank that the pipeline's tokenizer is given."""
_LONG_RUN = re.compile(rf"\S{{{_RUN + 1},}}")


def _blanks_in_runs(text: str) -> frozenset[int]:
    """Where a blank goes in every :data:`_RUN` characters of a run without one: the
    tokenizer peels a token's affixes by searching the whole token each time, so a long run
    cost the square of its length (30,000 ``[`` took 73 s, ``[.`` repeated 151 s). The offsets
    stay those of the text; no sentence starts after such a blank."""
    return frozenset(
        at for m in _LONG_RUN.finditer(text) for at in range(m.start() + _RUN, m.end() - 1, _RUN)
    )


_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_GLUED_END = re.compile(r"(?<=[a-z0-9\])\s][.!?])(?=[A-Z][a-z]{2,}[ ,;:])")
"""A sentence end glued to the next sentence: after a lower-case word, a number, a closing
bracket or a marker (masked to blanks), not after an initial or an abbreviation's capital
("U.S.The" stays; "e.g.The" is an abbreviation's, checked as any other end), and before a
capitalised word of three letters or more that a blank or a comma ends (decided once it has
ended, so a stream cut inside the word decides as the whole answer does)."""
_GLUED_AFTER_CAPITALS = re.compile(r"(?<![\w.])[A-Z]{2,}[.!?](?=([A-Z][a-z]+)[ ,;:])")
"""The same after a word in capitals ("returns JSON.Each item has ..."), only before a word
that starts sentences: "VB.Net", "ASP.NET" and "IO.File" are names."""
_DATE_LEAD = re.compile(
    r"(?:^|\s)(?:am|vom|zum|bis|seit|ab|den|dem|im|le|du|au|el|del|il)\s+\d{1,2}\.$",
    re.IGNORECASE,
)
"""A day or an ordinal written with a dot after a word that leads one ("am 31. März", "vom
1. Mai", "im 7. Arrondissement", "le 15. mai"): no sentence ends there."""


def _continues(text: str, before: int, after: int) -> bool:
    """True when the boundary between ``text[:before]`` and ``text[after:]`` follows an
    abbreviation and the sentence goes on, or an ordinal ("am 31. März 1889", "le 1. mai")."""
    head = text[max(0, before - 40) : before].rstrip()
    # an ordinal after "am", "vom", "le"...: decided by what comes before the dot alone, so a
    # stream cut right after it decides as the whole answer does ("He scored 10. March was
    # good" still ends a sentence)
    if _DATE_LEAD.search(head) or day_before_month(text, before, after):
        return True  # "am **13. August", "des 9. November": the month's name follows
    if _ERA_BEFORE.search(head) and text.startswith(("J.-C.", "J.C.", "Chr."), after):
        return True  # "52 av. J.-C.", "44 v. Chr.": the era's name is the date's
    if head.endswith((",", ";")):
        return True  # "According to Which?, the Seal": no sentence ends at a comma
    if _NAME_MARK.search(head) and _LOWER_WORD.match(text, after):
        return True  # "Yahoo! reported", "Which? magazine": a name's mark, the sentence goes on
    if _QUOTED_MARK.search(head) and _LOWER_WORD.match(text, after):
        return True  # 'The film "Who Framed Roger Rabbit?" was released ...': a quoted title
    if head.endswith(_ELLIPSES):
        # "in 1889... Mount Everest": a capital starts another sentence; "Wait... what" goes on
        return not text[after : after + 1].isupper()
    # "(approx.)", "e.g.)": the abbreviation's dot is inside closing brackets or quotes
    m = _WORD_BEFORE_DOT.search(head.rstrip(_CLOSERS))
    if m is None:
        return False
    word = m[1].lower()
    if word in _ALWAYS_CONTINUES:
        return True
    scale = _SHORT_SCALE.search(text, max(0, after - 40), after)  # the window alone: linear
    if scale is not None:
        first = text[after : after + 1]
        if first.islower() or _CURRENCY_AFTER.match(text, after) is not None:
            return True
        return scale[1].lower() in _GERMAN_SCALES and _scaled_noun(text, after)
    if m[1] in _BEFORE_NUMBER and text[after : after + 1].isdigit():
        return True
    if m[1] in _LABELS_BEFORE_NUMBER and text[after : after + 1].isdigit():
        return True  # "§ 823 Abs. 1 BGB": capitalised, before a number, no English word
    if word == "u.a" and _CAPITALISED_WORD.match(text, after):
        return _GERMAN_OPENER.match(text, after) is None  # "u.a. Berlin"; "u.a. Die Feier"
    if word in _MAY_END or len(word) == 1:
        first = text[after : after + 1]
        return first.islower() or first.isdigit() or (first != "" and first in _CONTINUATION_PUNCT)
    return False


def _scaled_noun(text: str, at: int) -> bool:
    """Whether a noun that a number with a German scale counts starts at ``at``."""
    word = _CAPITALISED_WORD.match(text, at)
    return word is not None and word[0].lower() in _SCALED_NOUNS


def _take_openers(text: str, previous: int, start: int) -> int:
    """Move a sentence start back over the opening brackets, quotes and emphasis before it.

    The sentencizer leaves punctuation that follows a full stop with the sentence before it, so
    ``He left. "Then," she said`` would start its second sentence after the quote.
    """
    k = start
    while k > previous + 1 and text[k - 1] in _OPENERS:
        k -= 1
    return k if k < start and text[k - 1].isspace() else start


_CAMEL = re.compile(r"[a-z][A-Z]")


def _dotted(text: str, start: int) -> bool:
    """Whether a sentence would start right after a full stop between two word characters."""
    return (
        2 <= start < len(text)
        and text[start - 1] == "."
        and text[start - 2].isalnum()
        and (text[start].isalnum())
    )


def _word_ended(text: str, start: int) -> bool:
    """Whether the word at ``start`` has ended, and no dotted name goes on after it: a stream
    cut inside "System.Te" or right after "System.Text." decides as the whole answer does."""
    b = start
    while b < len(text) and (text[b].isalnum() or text[b] == "_"):
        b += 1
    if b >= len(text):
        return False
    return text[b] != "." or (b + 1 < len(text) and not text[b + 1].isalnum())


def _in_identifier(text: str, dot: int) -> bool:
    """Whether the full stop at ``dot`` joins the parts of a dotted name, not two sentences:
    a part after it in camel case ("Console.WriteLine"), a third part ("System.Text.Json"), or
    a part before it in camel case before a word that starts no sentence ("WebApplication.Build";
    "on the iPhone.The Android version" ends one)."""
    a = dot
    while a > 0 and (text[a - 1].isalnum() or text[a - 1] == "_"):
        a -= 1
    b = dot + 1
    while b < len(text) and (text[b].isalnum() or text[b] == "_"):
        b += 1
    chained = (a >= 2 and text[a - 1] == "." and text[a - 2].isalnum()) or (
        b + 1 < len(text) and text[b] == "." and text[b + 1].isalnum()
    )
    if chained or _CAMEL.search(text, dot + 1, b):
        return True
    # the word after must have ended to start a sentence: a stream cut inside it decides as the
    # whole answer does ("WebApplication.A|dd" is no "A")
    starts_sentence = b < len(text) and text[dot + 1 : b].lower() in STOPWORDS
    return bool(_CAMEL.search(text, a, dot)) and not starts_sentence


def sentence_spans(text: str, starts: Sequence[int]) -> list[tuple[int, int]]:
    """Sentence spans of ``text`` from the pipeline's starts, after the abbreviation fixes.

    Args:
        text: a masked prose unit.
        starts: :func:`sentence_starts` for it.

    Returns:
        Non-empty spans, in order, with no whitespace at either end.
    """
    # an HTML line break ("...1889.<br>The tower...", common in table cells) ends a sentence,
    # and so does a full stop with no blank after it before a capitalised word ("in 1889
    # [1].The tower")
    last = len(text.rstrip())  # a break with only blanks after it starts nothing
    breaks = {m.end() for m in _LINE_BREAK.finditer(text) if m.end() < last}
    glued = {m.end() for m in _GLUED_END.finditer(text) if not _in_identifier(text, m.end() - 1)}
    glued.update(m.end() for m in _GLUED_AFTER_CAPITALS.finditer(text) if m[1].lower() in STOPWORDS)
    # the pipeline's tokenizer splits "WebApplication.CreateBuilder" and "System.Text.Json" at
    # their dots: no sentence ends inside a dotted name ("Paris hosted the fair.It drew ...", a
    # full stop between two word characters, still ends one)
    piped = {
        s
        for s in starts
        if not _dotted(text, s) or (_word_ended(text, s) and not _in_identifier(text, s - 1))
    }
    # an abbreviation the tokenizer keeps whole ("U.S.", "Inc.", "p.m.") before a marker (masked
    # to blanks) and a word that starts sentences may end one: the check of abbreviations below
    # decides ("the U.S. [1] It takes effect ..."; "the U.S. [1] Department of Energy" goes on)
    after_abbreviation = {
        m.end() for m in _END_AFTER_ABBREVIATION.finditer(text) if m[1].lower() in STOPWORDS
    }
    kept: list[int] = []
    for start in sorted({*piped, *breaks, *glued, *after_abbreviation}):
        if (
            text.startswith("~~", start)
            and start
            and text[start - 1] in ".!?"
            and (start + 2 == len(text) or text[start + 2].isspace())
        ):
            start += 2  # "~~struck.~~ Next": the closing tildes end the struck sentence
        if kept:
            if start <= kept[-1]:
                continue
            if start not in breaks:
                start = _take_openers(text, kept[-1], start)
                lead = start
                while lead < len(text) and text[lead].isspace():
                    lead += 1
                if _continues(text, start, lead):
                    continue
        kept.append(start)
    spans: list[tuple[int, int]] = []
    for a, b in zip(kept, [*kept[1:], len(text)], strict=True):
        a, b = strip_span(text, a, b)
        # a line break between two sentences (or after the last) belongs to neither
        tags = [m for m in _LINE_BREAK.finditer(text, a, b) if m.end() == b]
        if tags:
            a, b = strip_span(text, a, tags[-1].start())
        if a < b:
            spans.append((a, b))
    return spans


def _inside(spans: Sequence[tuple[int, int]], index: int) -> bool:
    return any(a < index < b for a, b in spans)


def _cut(text: str, start: int, end: int, limit: int, keep: Sequence[tuple[int, int]]) -> int:
    """Where to cut ``text[start:end]`` so that the first piece is at most ``limit`` long."""
    window_end = start + limit
    shortest = start + max(1, limit // 4)
    for pattern in _CLAUSE_CUTS:
        cuts = [
            m.end()
            for m in pattern.finditer(text, start, window_end)
            if m.end() >= shortest and not _inside(keep, m.end())
        ]
        if cuts:
            return cuts[-1]
    for k in range(window_end, start, -1):
        if text[k - 1].isspace() and not _inside(keep, k - 1):
            return k - 1 if k - 1 > start else k
    cut = window_end
    while cut > start + 1 and (_inside(keep, cut) or unicodedata.combining(text[cut])):
        cut -= 1
    return cut


def split_long(
    text: str, span: tuple[int, int], limit: int, keep: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, int]]:
    """Cut a sentence longer than ``limit`` at clause boundaries into pieces of at most ``limit``.

    Cut after ``;``, else after the comma before ``and`` / ``but`` / ..., else at the last blank
    that fits, else hard at ``limit`` (text without blanks, such as CJK).

    Args:
        text: the masked prose unit.
        span: the sentence, ``(start, end)`` offsets into ``text``.
        limit: the longest piece allowed.
        keep: spans that must not be cut (citation markers).

    Returns:
        The pieces, in order, non-empty, with no whitespace at either end.
    """
    start, end = span
    pieces: list[tuple[int, int]] = []
    while end - start > limit:
        cut = _cut(text, start, end, limit, keep)
        a, b = strip_span(text, start, cut)
        if a < b:
            pieces.append((a, b))
        start, end = strip_span(text, cut, end)
    if start < end:
        pieces.append((start, end))
    return pieces
