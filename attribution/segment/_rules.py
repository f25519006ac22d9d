"""Which segments are claims: the rules, as data and small pure functions.

A segment is *not* a claim when it is only code, a question, a greeting or pleasantry, a bare
connective or a short lead-in to a list, or shorter than ``min_words`` words. The rules are
conservative: a sentence that states something stays a claim even when it starts with
``Overall,`` or ``In summary,``; only whole segments match the patterns below.
"""

from __future__ import annotations

import re

__all__ = [
    "MAX_LABEL_WORDS",
    "count_words",
    "is_citation_header",
    "is_fact_header",
    "is_generic_header",
    "is_pseudo_heading",
    "is_row_label",
    "is_table_filler",
    "skip_reason",
]

# Chinese characters, kana: each counts as a word (CJK text has no blanks between words).
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
# A blank-separated token with a letter or digit in it.
_WORD = re.compile(r"[^\s\w]*[^\W_]\S*")
_EMPHASIS = "*_~`"
_LEADING_SYMBOLS = re.compile(r"^(?:[^\w\s*_~`\"'“‘(\[<]\s*)+")
"""Emoji and symbols before a bold pseudo-heading (``📉 **Rates**``, ``✅ **Done**``)."""
_CLOSERS = "\"'”’»)]}" + _EMPHASIS

# Greetings, pleasantries and sign-offs, matched against the whole segment (lower case, closing
# punctuation and emphasis removed).
_GREETING = re.compile(
    r"""
    (?:hi|hello|hey|greetings|howdy|good\s+(?:morning|afternoon|evening|day))
        (?:\s+(?:there|everyone|all|again|folks))?
    |(?:sure|certainly|of\s+course|absolutely|definitely|okay|ok|alright|all\s+right|great
        |got\s+it|no\s+problem|gladly|yes|no|understood|perfect|excellent|awesome)
        (?:\s*[,!.]?\s*(?:here\b.*|i\s+can\s+help.*|i'?d\s+be\s+(?:happy|glad).*|let\s+me\b.*))?
    |(?:(?:what\s+a|that'?s\s+a|this\s+is\s+a|such\s+a)\s+)?
        (?:great|good|excellent|interesting|fantastic|fair|nice|thoughtful)\s+question
    |(?:thanks|thank\s+you)(?:\s+(?:so\s+much|for\b.*))?
    |you'?re\s+(?:very\s+)?welcome
    |i\s+hope\s+(?:this|that|it|these|the\s+above)\s+(?:helps?|is\s+helpful|was\s+helpful
        |answers\b|clarifies\b|gives\b|makes\b).*
    |hope\s+(?:this|that|it)\s+helps.*
    |(?:please\s+)?(?:let\s+me\s+know|feel\s+free|don'?t\s+hesitate)\b.*
    |(?:(?:i'?d|i\s+would|i'?m|i\s+am)\s+(?:be\s+)?)?(?:happy|glad|delighted)\s+to\s+(?:help
        |assist|explain)\b.*
    |(?:is\s+there\s+)?anything\s+else\b.*
    |good\s+luck\b.*|happy\s+(?:reading|exploring|learning|coding)\b.*
    |let'?s\s+(?:dive|take\s+a\s+look|look|break\s+(?:it|this)\s+down|explore|get\s+started
        |start|begin)\b(?!.*:[^:]*\d).*
    |(?:here(?:'s|\s+is|\s+are|\s+you\s+go)|below\s+(?:is|are)|the\s+following\s+(?:is|are))
        \b(?!.*\d)(?!.*:\s*\S).*
    |i\s+(?:found|gathered|searched\s+for|looked\s+up)\s+(?:the\s+following|some|a\s+few|several
        |this|these|what)\b(?!.*\d).{0,60}
    |(?:here(?:'s|\s+is|\s+are)|below\s+(?:is|are))\s+(?:\d{1,2}\s+[a-z]|(?:a\s+|an\s+|the\s+)?
        (?:quick\s+|brief\s+|short\s+|detailed\s+)?(?:breakdown|overview|summary|comparison
        |rundown|list|look|table)\b)(?!.*\d\D+\d)[^,;:]{0,80}
    |i\s+(?:found|gathered|have)\s+\d+\s+(?:relevant\s+|useful\s+)?(?:sources?|results?|articles?
        |papers?|pages?|studies|references?)(?:\s+(?:for|on|about)\s+(?:this|that|it|you|your
        \s+question|the\s+topic))?
    """,
    re.VERBOSE | re.DOTALL,
)

# A segment that is nothing but one of these (and punctuation) links or introduces; it says
# nothing itself.
_CONNECTIVES = frozenset(
    " ".join(entry.split())
    for entry in """
    however|moreover|furthermore|additionally|also|besides|therefore|thus|hence|consequently
    |meanwhile|nevertheless|nonetheless|still|instead|otherwise|similarly|likewise|finally|first
    |firstly|second|secondly|third|thirdly|next|then|lastly|in summary|in short|in brief
    |in conclusion|to summarize|to summarise|to sum up|summary|overall|in addition|for example
    |for instance|in particular|notably|specifically|importantly|that said|in other words
    |as a result|on the other hand|by contrast|in contrast|key facts|key points|key takeaways
    |takeaways|highlights|details|background|note|notes|tl;dr|tldr|bottom line|the bottom line
    |short answer|the short answer|long answer|the long answer|answer|conclusion|overview
    |in a nutshell|of note|for context|what's more|all in all|ultimately|in practice|in general
    |generally|in fact|indeed|basically|essentially|simply put|put simply|as follows
    |first of all|last but not least|after that|afterwards|for reference|fun fact|pros|cons
    |advantages|disadvantages|benefits|drawbacks|example|examples|caveats|caveat|summary of facts
    |key details|main points|quick facts|facts|at a glance|timeline|context|why it matters
    """.split("|")
)
_CONNECTIVE_PUNCT = ",:;.!-–—… "
# A lead-in ending with ':' introduces what follows (a list, a table, code); short ones, or ones
# that say so, are not claims themselves.
_LEAD_IN_WORDS = re.compile(
    r"\b(?:following|follows|below|these|this|here|include|includes|including|summary|key|main)\b"
)
_MAX_LEAD_IN_WORDS = 6
_MAX_ANNOUNCED_LEAD_IN_WORDS = 12
_ANNOUNCES = re.compile(
    r"(?![^:]*\d)"
    r"(?:(?:if|when|to|for|before|after|once|based\s+on|depending\s+on|in\s+order\s+to)\b"
    r"[^;:.]*?,\s*)?"
    r"(?:here(?:'s|\s+is|\s+are)|follow\s+these|these\s+steps|the\s+following|as\s+follows)\b"
    r"[^;]*$"
)
"""A lead-in that opens with words saying what follows is the content, after a condition at
most, and states no number: it may be longer ("If you lost your phone, here is how to get back
into your account:"; not "As of 2024, here are the tallest buildings, which all exceed 500 m:"
nor "Marie Curie won two Nobel Prizes; here's a summary:")."""
_MAX_LONG_LEAD_IN_WORDS = 25
_CONDITION_ONLY = re.compile(
    r"(?i:(?:if|when|whenever|before|after|once|while|unless)\b(?!-)[^,;:.\d]*[:：])"
)
_MAX_CONDITION_WORDS = 7
"""A condition alone is short ("If you're planning a Paris museum day:"); a longer one may hold
a clause of its own ("If you mix bleach and ammonia you create toxic gas:")."""
"""A lead-in that is a condition alone, with no clause of its own and no number ("If you're
planning a Paris museum day:", "Before you upgrade:"): what follows says what holds then."""


def count_words(text: str) -> int:
    """Words of ``text``: blank-separated tokens holding a letter or digit; a CJK character counts
    as one word (and separates the words around it).

    Args:
        text: a segment's text with its markers blanked out.

    Returns:
        The number of words.
    """
    cjk = len(_CJK.findall(text))
    if cjk:
        text = _CJK.sub(" ", text)
    return cjk + len(_WORD.findall(text))


def _normalised(clean: str) -> str:
    return clean.replace("’", "'").replace("‘", "'").strip(_EMPHASIS + " ").lower()


def is_pseudo_heading(clean: str) -> bool:
    """True for a paragraph that is only bold text without final punctuation (``**Design**``);
    ``**Key facts:**`` is a lead-in instead.

    Args:
        clean: the paragraph's clean text.

    Returns:
        Whether it reads as a heading.
    """
    clean = _LEADING_SYMBOLS.sub("", clean, count=1)
    for mark in ("**", "__"):
        if len(clean) > 2 * len(mark) and clean.startswith(mark) and clean.endswith(mark):
            inner = clean[len(mark) : -len(mark)].strip()
            return bool(inner) and mark not in inner and inner[-1] not in ".!?:。！？："
    return False


MAX_LABEL_WORDS = 3
"""A table row's first cell of at most this many words, and no sentence's end, is a label
("Height", "Visitors per year"); a longer one is a claim of its own ("It opened in 1889"), and
the cells after it are not its facts."""

_FILLERS = frozenset(
    {"yes", "no", "n/a", "na", "none", "unknown", "tbd", "tba", "various", "other", "same",
     "idem", "see above", "see below", "true", "false", "high", "medium", "low", "moderate",
     "partial", "partly", "partially", "full", "limited", "mixed", "optional", "required",
     "supported", "unsupported", "not supported", "not specified", "not available",
     "not applicable", "not stated", "not reported", "unclear", "varies", "depends",
     "ja", "nein", "oui", "non", "sí", "si", "是", "否", "有", "无", "x", "-"}
)  # fmt: skip
_CITATION_HEADERS = frozenset(
    {"source", "sources", "sources used", "source link", "source links", "source url",
     "citation", "citations", "reference", "references", "reference url", "reference link",
     "ref", "refs", "link", "links", "url", "urls", "cited in", "cited from", "supported by",
     "quelle", "quellen", "fuente", "fuentes", "référence", "références", "来源", "出处",
     "参考", "参考文献", "出典"}
)  # fmt: skip
_NO_FACT_WORDS = frozenset(
    {"unit", "units", "currency", "confidence", "verdict", "rating", "ratings", "status",
     "score", "assessment", "evaluation", "priority", "difficulty", "pros", "cons", "pro",
     "con", "advantages", "disadvantages", "advantage", "disadvantage", "strengths",
     "weaknesses", "recommendation", "recommended", "opinion", "best", "verdicts"}
)  # fmt: skip
_HEADER_WORDS = re.compile(r"[^\W_]+")


def _bare(clean: str) -> str:
    """A cell's words compared loosely: case, emphasis, leading symbols (✅) and a trailing
    parenthesis (``Yes (beta)``) aside."""
    text = _LEADING_SYMBOLS.sub("", clean.casefold().strip(" .!*_`'\""))
    text = re.sub(r"\s*\([^)]*\)$", "", text)
    return " ".join(text.strip(" .!*_`'\"").split())


def is_table_filler(clean: str) -> bool:
    """Whether a table cell says nothing a source could back: ``yes``, ``N/A``, ``—``,
    ``✅ Supported``, ``High``."""
    bare = _bare(clean)
    return not any(c.isalnum() for c in bare) or bare in _FILLERS


def is_citation_header(clean: str) -> bool:
    """Whether a column header names a column of citations: the whole header (``Source``,
    ``Sources used``, ``Citation(s)``, ``Reference URL``, ``Supported by``; not ``Main
    source`` or ``Reference price``, whose cells are facts)."""
    bare = re.sub(r"\(s\)", "", clean.casefold())
    return " ".join(_HEADER_WORDS.findall(bare)) in _CITATION_HEADERS


def is_fact_header(clean: str) -> bool:
    """Whether a column's cells can state facts about their row: not a column of units,
    ratings, verdicts or pros and cons."""
    return not set(_HEADER_WORDS.findall(clean.casefold())) & _NO_FACT_WORDS


_NAME_WORD = re.compile(r"(?<![^\W_])[^\W\d_]{2,}(?![^\W_])")
"""A word of two letters or more, no digit in it ("India"; not "1st", "Q1", "2M", "$394B")."""


def is_row_label(clean: str, *, max_words: int = MAX_LABEL_WORDS) -> bool:
    """Whether a row's first cell names what the row is about rather than saying something:
    a name (a word of two letters or more without digits), at most ``max_words`` words, no
    sentence's end."""
    ended = clean.rstrip(" *_").endswith((".", "!", "?"))
    named = bool(_NAME_WORD.search(clean))
    return count_words(clean) <= max_words and named and not ended


_GENERIC_HEADERS = frozenset(
    {"value", "values", "detail", "details", "description", "descriptions", "info",
     "information", "answer", "answers", "data", "note", "notes", "comment", "comments",
     "remark", "remarks", "explanation", "summary", "result", "results", "fact", "facts",
     "key facts", "attribute", "property", "field", "item", "aspect", "feature", "topic",
     "category", "parameter", "metric", "statistic", "figure", "key", "wert", "valeur"}
)  # fmt: skip


def is_generic_header(clean: str) -> bool:
    """Whether a column header only says that the column holds something ("Value",
    "Details"): a cell read with it says no more than without it."""
    return " ".join(clean.casefold().strip(" .:*_`").split()) in _GENERIC_HEADERS


_QUOTE_OPENERS = '"“«‘'


_REPORTING = re.compile(
    r"\b(?:said|says|asked|asks|wrote|writes|told|tweeted|added|stated|declared|demanded"
    r"|wondered|questioned|sagte|fragte|schrieb|a\s+demandé|a\s+dit|demanda)\b",
    re.IGNORECASE,
)


def _reports_question(text: str, ending: str) -> bool:
    """Whether a segment ending in a question mark states that someone asked it: the question
    mark closes a quotation that opens after a reporting verb ('Guterres said: "How many more
    must die?"'), so the segment says something a source can back; a question about a quoted
    name ('What is meant by "fair use?"') is still a question."""
    closing = text.rstrip(" ")[len(ending) :].lstrip(" \u00a0\u202f")
    if not closing or closing[0] not in "\"”»’'":
        return False  # the question mark closes no quotation
    opened = max(ending.rfind(q) for q in _QUOTE_OPENERS)
    return opened > 0 and bool(_REPORTING.search(ending, 0, opened))


def skip_reason(clean: str, words: int, *, min_words: int) -> str | None:
    """Why a prose segment is not a claim, or None when it is one.

    Args:
        clean: the segment's clean text (markers removed, whitespace normalised).
        words: its :func:`count_words`.
        min_words: the fewest words a claim has.

    Returns:
        ``"question"``, ``"greeting"``, ``"connective"``, ``"too_short"`` or None.
    """
    text = _normalised(clean)
    ending = text.rstrip(_CLOSERS + " ")
    if ending.endswith(("?", "？")) and not _reports_question(text, ending):
        return "question"
    bare = ending.rstrip(".!。！ ")
    if _GREETING.fullmatch(bare):
        return "greeting"
    if bare.rstrip(_CONNECTIVE_PUNCT) in _CONNECTIVES:
        return "connective"
    if ending.endswith((":", "：")) and (
        words <= _MAX_LEAD_IN_WORDS
        or (words <= _MAX_ANNOUNCED_LEAD_IN_WORDS and _LEAD_IN_WORDS.search(text))
        or (words <= _MAX_LONG_LEAD_IN_WORDS and _ANNOUNCES.match(text))
        or (words <= _MAX_CONDITION_WORDS and _CONDITION_ONLY.fullmatch(ending))
    ):
        return "connective"
    if words < min_words:
        return "too_short"
    return None
