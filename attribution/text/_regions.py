"""Markdown regions that are not prose: code, URLs, link destinations, definitions.

Markers are never recognised inside them, claims never start in code, and a marker is never
inserted into them. :func:`protected_spans` is the union; the other functions are its parts.
:func:`removal_span` says what to delete when a marker goes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence

__all__ = [
    "LOCATOR",
    "URL",
    "ProtectedRegions",
    "SpanSet",
    "code_spans",
    "fenced_code",
    "inline_code",
    "link_destinations",
    "merge_spans",
    "protected_spans",
    "removal_edits",
    "removal_span",
    "removal_spans",
    "url_end",
]

_FENCE_OPEN = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")
_BACKTICKS = re.compile(r"`+")
URL = re.compile(r"""(?:https?|ftp)://(?:\[[0-9A-Fa-f:.]+\])?[^\s<>"'`\[\]]+""", re.IGNORECASE)
_LINK_DEST = re.compile(r"\]\(")
_REF_DEFINITION = re.compile(r"^[ \t>]{0,4}\[[^\]\n]+\]:[ \t]+\S[^\n]*$", re.MULTILINE)
_FOOTNOTE_DEFINITION = re.compile(r"^[ \t>]{0,4}\[\^[^\]\n]+\]:", re.MULTILINE)
_MATH = re.compile(
    r"(?<![\\$])\$\$[^$\n`]+?\$\$"  # $$display$$
    r"|(?<![\\$\w])\$(?=[^\s$])[^$\n`]*?(?<=[^\s\\$])\$(?![\d$])"  # $inline$ (as pandoc reads it)
)
"""TeX math on one line. Brackets in it are indices or arguments, not citations: ``$x_{[1]}$``.
Only spans that read as math count (a backslash, ``_``, ``^`` or ``{`` inside), so prices
("$5 [1] and $10 [2]") keep their markers."""
_URL_TRAILING = ".,;:!?*_~'\""


def fenced_code(text: str) -> list[tuple[int, int]]:
    """Spans of fenced code blocks, fences included; an unclosed fence runs to the end."""
    spans: list[tuple[int, int]] = []
    pos = 0
    open_at: int | None = None
    fence = ""
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if open_at is None:
            m = _FENCE_OPEN.match(body)
            # A backtick fence's info string may not hold a backtick (that is inline code).
            if m and not (m["fence"][0] == "`" and "`" in m["info"]):
                open_at, fence = pos, m["fence"]
        else:
            stripped = body.strip(" \t>")
            if stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]):
                spans.append((open_at, pos + len(body)))
                open_at = None
        pos += len(line)
    if open_at is not None:
        spans.append((open_at, len(text)))
    return spans


def inline_code(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of inline code in ``text[start:end]``: a run of n backticks up to the next run of n."""
    spans: list[tuple[int, int]] = []
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text, start, end)]
    i = 0
    while i < len(runs):
        a, b = runs[i]
        width = b - a
        for j in range(i + 1, len(runs)):
            if runs[j][1] - runs[j][0] == width:
                spans.append((a, runs[j][1]))
                i = j
                break
        i += 1
    return spans


def url_end(text: str, start: int, end: int) -> int:
    """Trim trailing punctuation and unbalanced closing parentheses off a bare URL."""
    while end > start:
        last = text[end - 1]
        unbalanced = last == ")" and text.count("(", start, end) < text.count(")", start, end)
        if last in _URL_TRAILING or unbalanced:
            end -= 1
        else:
            break
    return end


def link_destinations(text: str) -> list[tuple[int, int]]:
    """Spans of ``(destination)`` after a link text's closing bracket, balanced parentheses,
    on one line. Linear: each line with a ``](`` is read once (a line of ``](`` cost the
    square of its length when each looked for its closing parenthesis to the line's end)."""
    opens = [m.end() - 1 for m in _LINK_DEST.finditer(text)]
    if not opens:
        return []
    closes: dict[int, int] = {}
    i = 0
    while i < len(opens):
        line_end = text.find("\n", opens[i])
        line_end = len(text) if line_end < 0 else line_end
        j = i
        while j < len(opens) and opens[j] < line_end:
            j += 1
        mine = set(opens[i:j])
        # depth after each character of the line from the first "(" on; a destination opened
        # at q closes at the first k > q whose depth is the depth before q
        first = opens[i]
        depths: list[int] = []
        depth = 0
        for k in range(first, line_end):
            ch = text[k]
            depth += (ch == "(") - (ch == ")")
            depths.append(depth)
        seen: dict[int, int] = {}
        for k in range(line_end - 1, first - 1, -1):
            d = depths[k - first]
            if k in mine and (at := seen.get(d - 1)) is not None:
                closes[k] = at
            seen[d] = k
        i = j
    return [(q, closes[q] + 1) for q in opens if q in closes]


def merge_spans(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def code_spans(text: str) -> list[tuple[int, int]]:
    """The fenced code blocks and, between them, the inline code spans of ``text``."""
    fences = fenced_code(text)
    spans = list(fences)
    cursor = 0
    for a, b in [*fences, (len(text), len(text))]:
        spans.extend(inline_code(text, cursor, a))
        cursor = b
    return spans


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Sorted, disjoint spans in which no marker is recognised."""
    spans = code_spans(text)
    spans.extend((m.start(), url_end(text, m.start(), m.end())) for m in URL.finditer(text))
    spans.extend(link_destinations(text))
    spans.extend(m.span() for m in _REF_DEFINITION.finditer(text))
    spans.extend(m.span() for m in _FOOTNOTE_DEFINITION.finditer(text))
    if "$" in text:
        spans.extend(m.span() for m in _MATH.finditer(text) if _is_math(m.group()))
    return merge_spans(spans)


def _is_math(span: str) -> bool:
    inner = span.strip("$")
    return any(c in inner for c in "\\_^{")


class SpanSet:
    """Spans ``[start, end)`` (in any order, overlapping or not), asked in O(log n) whether an
    offset lies in one."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [a for a, _ in ordered]
        self.reach: list[int] = []  # the furthest end among the spans starting at or before each
        for _, b in ordered:
            self.reach.append(max(b, self.reach[-1]) if self.reach else b)

    def __bool__(self) -> bool:
        return bool(self.starts)

    def __contains__(self, at: object) -> bool:
        if not isinstance(at, int):
            return False
        k = bisect_right(self.starts, at) - 1
        return k >= 0 and at < self.reach[k]


class ProtectedRegions:
    """Answers 'is this offset protected?' in O(log n)."""

    def __init__(self, text: str) -> None:
        self.url_ends = frozenset(url_end(text, m.start(), m.end()) for m in URL.finditer(text))
        self.spans = protected_spans(text)
        self._starts = [a for a, _ in self.spans]

    def covers(self, index: int) -> bool:
        k = bisect_right(self._starts, index) - 1
        return k >= 0 and index < self.spans[k][1]


_TAKES_AN_OBJECT = frozenset(
    "to of in see from by per as cf like with unlike via than at on under into following".split()
)
"""Words after which a marker is a word of the sentence, not a citation after it: ``According
to [5],``, ``as shown in [5]``, ``See [5] for details``, ``supported by [5]``, ``cf. [5]``."""
_WORD_BEFORE = re.compile(r"(?:\b(cf)\.|([A-Za-z]+))[ \t]*$", re.IGNORECASE)
"""The word right before a marker (a full stop only after "cf": "known as. [5] It ..." ends
a sentence)."""
_REPORTS = re.compile(
    r"[ \t]+(?:notes?|shows?|says?|reports?|finds?|found|states?|stated|suggests?|describes?"
    r"|explains?|lists?|argues?|claims?|confirms?|mentions?|documents?|gives?|provides?"
    r"|writes?|wrote|puts? it|adds?)\b"
)
"""A verb of saying after a marker: ``[5] notes that``, ``as [5] puts it``."""
_LISTED = re.compile(r"[ \t]*(?:,[ \t]*)?(?:(?:and|or|&)[ \t]*)?$", re.IGNORECASE)
"""What joins a marker to one before it in a list: ``of [5] and [1]``, ``[5], [1]``,
``[5][1]``."""
_SUBJECTS_LISTED = re.compile(
    r"[ \t]*(?:,[ \t]*(?:(?:and|or|&)[ \t]*)?|(?:and|or|&)[ \t]*)", re.IGNORECASE
)
"""What joins the markers of a list that is a sentence's subject: ``[9] and [1] note that``
(not a blank alone: ``1889. [1] [9] notes that`` is a citation and a subject)."""
_SOURCE_NOUN = (
    r"(?:stud(?:y|ies)|reports?|surveys?|papers?|articles?|analys[ie]s|research|data|results?"
    r"|findings?|reviews?|evidence|estimates?|statistics|documentation|docs|guides?|websites?"
    r"|sources?|authors?|researchers|experts|scientists|analysts|trials?|experiments?"
    r"|measurements?|work|census|polls?|investigations?|audits?|assessments?|benchmarks?|tests?"
    r"|books?|documents?|records|posts?|announcements?|statements?|filings?|datasets?"
    r"|publications?|interviews?|observations?|simulations?|projections?|forecasts?"
    r"|authorities|officials|historians|critics|commentators|reviewers)"
)
"""A noun that names where something was said: ``study``, ``reports``, ``researchers``."""
_LISTED_AFTER_SOURCES = re.compile(rf"\b(?:{_SOURCE_NOUN}|both|others)[ \t]*$", re.IGNORECASE)
"""Such a noun right before a list of markers that is the subject of the verb after it:
``Studies [9] and [8] show``, ``Both [9] and [8] say``."""
_REPORT_PLURAL = re.compile(
    r"[ \t]+(?:note|show|say|report|find|state|suggest|describe|explain|list|argue|claim"
    r"|confirm|mention|document|give|provide|write|put it|add|agree|indicate|demonstrate"
    r"|estimate|found|showed|shown|noted|reported|said|stated|suggested|described|explained"
    r"|argued|claimed|confirmed|mentioned|documented|gave|provided|wrote|added|agreed"
    r"|indicated|demonstrated|estimated|have|had)\b"
)
"""A verb of saying, plural or past, after a list of markers whose subject is a noun before it
(:data:`_LISTED_AFTER_SOURCES`): not ``It runs [1] and [9] shows it`` (where "and" joins a
clause whose subject is [9]) nor ``Sales fell 5% [9] and [1] confirm the trend``."""
_REPORTS_WHAT = re.compile(_REPORTS.pattern + r"(?:[ \t]+that\b|[ \t]*:)")
"""A verb of saying followed by what was said: ``[9] notes that ...``, not ``[2] says so.``."""


_LEAD = re.compile(
    r"\b(?:according[ \t]+to|as[ \t]+(?:shown|noted|reported|described|stated|seen|explained"
    r"|discussed|mentioned|found|documented)[ \t]+(?:in|by)|as|per|based[ \t]+on|in|from"
    r"|citing)[ \t]+$",
    re.IGNORECASE,
)
"""A phrase that leads a sentence with its source: ``According to [9], ...``."""
_LEAD_TAIL = re.compile(
    r"(?:[ \t]+(?:notes?|shows?|reports?|says?|explains?|states?|puts?[ \t]+it|found|finds?"
    r"|writes?|wrote|mentions?|confirms?|describes?))?(?P<close>\*\*|__|\*|_)?[ \t]*,"
    r"(?P<after>\*\*|__|\*|_)?[ \t]*(?=\w|(?:\*\*|__|\*)\w)(?!(?:and|or|but|p|pp)\b)"
)
"""What follows a leading phrase's markers: a verb of saying, then a comma and the next word;
emphasis that opened before the phrase may close before or after the comma
(``**As [9] notes**,``, ``**According to [9],**``)."""
_ITEM_START = re.compile(r"(?:^|\n)[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+$")
"""A list item's start: a sentence starts after it."""
_LINE_START = re.compile(r"(?:^|(?:^|[.!?:](?:\[\^?[\w:]{1,12}\])*[ \t]*|\n[ \t]*)\n)[ \t]*$")
"""A line's start where the line before ended a sentence or was blank (a hard-wrapped line's
start is no sentence's)."""
_SENTENCE_END = re.compile(
    r"(?:(?<![.\w])(?:\w{3,}|\d+)|[)\]\"'”’])[.!?](?:\[\^?[\w:]{1,12}\])*[ \t]+$"
)
"""A sentence's end before a phrase: not the full stop of "e.g.", "i.e.", "cf." or "al."; a
marker may follow it or come before it (``in 1889.[1] According to``, ``in 1889 [1].``)."""


_EMPHASIS_OPEN = re.compile(r"(?:\*\*|__|(?<!\*)\*|(?<!_)_)$")
_QUOTE_OPEN = re.compile(r"[\"“‘'(]$")
_BLOCK_START = re.compile(
    r"(?:^|\n)[ \t]*(?:>[ \t]*)+$|(?:^|\n)[ \t]*#{1,6}[ \t]+$|(?:^|\n)[ \t]*\|(?:[^\n|]*\|)*[ \t]*$"
)
"""A block's start where a sentence starts too: a quote's line, a heading, a table's cell."""
_SAID = re.compile(r"[:,][ \t]*$")
"""What may come before a quotation that starts a sentence: ``She said: "According to ..."``."""


def lead_phrase(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the marker ``text[start:end]`` is all a sentence's leading source phrase names
    (``According to [9], the tower ...``, ``As [9] notes, ...``, ``In [9], ...``, at a sentence's
    or a list item's start), the span of that phrase up to the next word: what goes with the
    marker when it goes (``According to, the tower ...`` read as nothing). None otherwise."""
    phrase = _LEAD.search(text, max(0, start - 40), start)
    if phrase is None:
        return None
    a = after = phrase.start()
    opened = _EMPHASIS_OPEN.search(text, max(0, a - 2), a)
    tail = _LEAD_TAIL.match(text, end)
    if tail is None:
        return None
    closed = tail.group("close") or tail.group("after")
    if closed is not None:
        # emphasis around the phrase goes with it ("**According to [9]**, the tower")
        if opened is None or opened.group() != closed:
            return None
        a = after = opened.start()
    elif opened is not None:  # emphasis that goes on: the phrase starts inside it
        after = opened.start()
    quoted = False
    if (quote := _QUOTE_OPEN.search(text, max(0, after - 1), after)) is not None:
        after, quoted = quote.start(), True  # '"According to [9], the tower ...": it stays
    window = max(0, after - 40)
    if not (
        (quoted and _SAID.search(text, window, after))
        or _ITEM_START.search(text, window, after)
        or _LINE_START.search(text, window, after)
        or _SENTENCE_END.search(text, window, after)
        or _BLOCK_START.search(text, max(0, after - 400), after)
    ):
        return None
    return a, tail.end()


_ASIDE = re.compile(
    r"(?:according[ \t]+to|as[ \t]+(?:shown|noted|reported|described|stated|seen|explained"
    r"|discussed|mentioned|found|documented)[ \t]+(?:in|by)|as|(?:as[ \t]+)?per|citing)[ \t]+$",
    re.IGNORECASE,
)
"""A source phrase a sentence sets off after its subject or at its end: ``The tower, according
to [9], was ...``, ``... in 1889, as [9] notes.``, ``... in 1889 (per [9]).``"""
_ASIDE_OPEN = re.compile(r"(?:[ \t]*(,)\s*|[ \t]*(\()[ \t]*|(?<=\w)[ \t]+)$")
_CLAUSE_START = re.compile(r"[;:][ \t]+$")
"""A clause's start inside a sentence, where a source phrase may lead it."""
_ASIDE_VERB = re.compile(
    r"[ \t]+(?:notes?|shows?|reports?|says?|explains?|states?|puts?[ \t]+it|found|finds?"
    r"|writes?|wrote|mentions?|confirms?|describes?)\b"
)
_ASIDE_CLOSE = re.compile(
    r"[ \t]*(?:(,)[ \t]+(?=[^\W\d_])(?!(?:and|or|but|p|pp)\b)|(\))"
    r"|(?=[.!?;:][\"'”’*_]*(?:\s|$)|\r?\n|$))",
    re.IGNORECASE,
)
"""What may follow an aside: a comma and the sentence's next word (not "and [1]" or "p. 4"), the
group's ")", or the sentence's or the line's end."""


def aside_phrase(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the marker ``text[start:end]`` is all a source phrase set off inside or at the end
    of a sentence names (``The tower, according to [9], was built ...``, ``... in 1889,
    according to [9].``, ``... in 1889 (per [9]).``, ``... in 1889 according to [9].``), the
    span to delete with the marker when it goes, so that the sentence still reads (``The tower
    was built ...``; ``... in 1889.``). None otherwise: ``data from [9]`` is no aside, nor a
    phrase followed by more than the marker."""
    phrase = _ASIDE.search(text, max(0, start - 40), start)
    if phrase is None or (phrase.start() > 0 and text[phrase.start() - 1].isalnum()):
        return None
    bare = phrase.group().strip().lower() == "as"  # "as [9] notes", never "as [9]" alone
    tail = end
    if (verb := _ASIDE_VERB.match(text, end)) is not None:
        tail = verb.end()
    elif bare:
        return None
    closed = _ASIDE_CLOSE.match(text, tail)
    if (
        closed is not None
        and closed.group(1)
        and _CLAUSE_START.search(text, max(0, phrase.start() - 8), phrase.start())
    ):
        # "It runs; according to [9], the tower ...": "It runs; the tower ..."
        return phrase.start(), closed.end()
    opened = _ASIDE_OPEN.search(text, max(0, phrase.start() - 40), phrase.start())
    if opened is None or closed is None or opened.start() == 0:
        return None
    comma, paren = opened.group(1) is not None, opened.group(2) is not None
    if bare and not (comma or paren):  # "built exactly as [9] describes": a comparison
        return None
    if paren:  # "(per [9])": the group and the space before it
        return (opened.start(), closed.end()) if closed.group(2) else None
    if closed.group(2):  # ")" without its "("
        return None
    if closed.group(1):  # "X, according to [9], was": "X was"
        return (opened.start(), closed.start(1) + 1) if comma else None
    # at the sentence's end: "..., according to [9]." or "... according to [9]."
    return opened.start(), tail


_OBJECT_OF = re.compile(
    rf"\b{_SOURCE_NOUN}(?P<of>[ \t]+(?:of|by|from|in|on|at|with|via)[ \t]+)$", re.IGNORECASE
)
"""A preposition after a noun naming where something was said, whose object a marker is: ``The
study by [9] found``, ``Results of [9] show``, ``Data from [9] suggest``; not ``born in [9].``,
``made of [9] iron`` (a citation after a stranded preposition, or inside a phrase)."""
_OBJECT_AFTER = re.compile(
    r"(?=[ \t]+(?!(?:and|or)\b)[^\W\d_]|[ \t]*(?:[,.;:!?)](?![ \t]*[\[【［(])|\r?\n|$))",
    re.IGNORECASE,
)
"""What follows such a phrase: a word (not "and" or "or", which list more), or the clause's or
line's end (not a comma before another marker)."""


def object_phrase(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the marker ``text[start:end]`` (or the list of markers it starts, up to ``end``)
    is all the object of a preposition after a noun naming where something was said (``The
    study by [9] found``, ``Results of [9] and [8] show``; not ``born in [9].``), the span to
    delete with it when it goes: the preposition and the blank before it, so that the sentence
    still reads (``The study found``, ``Results show``, not ``The study by found``). None
    otherwise (a phrase that leads a sentence or is set off is :func:`lead_phrase`'s or
    :func:`aside_phrase`'s)."""
    phrase = _OBJECT_OF.search(text, max(0, start - 40), start)
    if phrase is None or _OBJECT_AFTER.match(text, end) is None:
        return None
    return phrase.start("of"), end


def shared_comma(text: str, aside: tuple[int, int] | None, taken: int) -> tuple[int, int] | None:
    """``aside`` (an :func:`aside_phrase` span) without the comma (and blanks) it shares with
    the phrase before it, which a span up to ``taken`` already deletes: "The tower, according
    to [9], as [10] notes, was" loses both phrases, "The tower was", not the second's words."""
    if aside is None or aside[0] >= taken or text[aside[0] : taken].strip(" \t\r\n,"):
        return aside
    if taken >= aside[1]:
        return None
    end = aside[1]
    if text[taken - 1] in " \t":  # the phrase before took the blank: so does this one
        while end < len(text) and text[end] in " \t":
            end += 1
    return taken, end


def starts_sentence(text: str, at: int) -> bool:
    """Whether only blanks stand between ``at`` and the start of its sentence, clause
    (after ``;``), line or list item."""
    j = at
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    return (
        j == 0
        or text[j - 1] in ".!?:;\n"
        or _ITEM_START.search(text, max(0, j - 12), at) is not None
    )


def listed_after(text: str, end: int, start: int) -> bool:
    """Whether ``text[end:start]``, between two markers, lists them: nothing, blanks, a comma,
    "and", "or" or "&" (``[7][8]``, ``[7], [8]``, ``[7] and [8]``)."""
    return _LISTED.fullmatch(text, end, start) is not None


def opens_report(text: str, spans: Sequence[tuple[int, int]], k: int) -> bool:
    """Whether the marker ``spans[k]`` (``spans`` in text order) heads a list of markers that is
    the subject of a verb of saying followed by what was said: ``[9] notes that ...``, ``[9]
    and [1] note: ...``; not ``[2] says so.``, whose marker cites the sentence before."""
    end = spans[k][1]
    while k + 1 < len(spans) and _SUBJECTS_LISTED.fullmatch(text, end, spans[k + 1][0]):
        k += 1
        end = spans[k][1]
    return _REPORTS_WHAT.match(text, end) is not None


def markers_in_prose(text: str, spans: Sequence[tuple[int, int]]) -> list[bool]:
    """For each marker ``(start, end)`` of ``text`` (disjoint, in any order), whether the
    sentence uses it as one of its words rather than citing with it: the object of a preposition
    or of "see" (``According to [5], ...``, ``as shown in [5]``, ``See [5] for details.``), the
    subject of a verb of saying at a sentence's start (``[5] notes that``), or listed with one
    that is (``Results of [5] and [1] show``). Removing such a marker breaks the sentence
    (``According to, ...``)."""
    order = sorted(range(len(spans)), key=lambda k: spans[k][0])
    out = [False] * len(spans)
    # where the list of markers from each one ends ("[9] and [1] note that": at "[1]")
    list_end = [spans[k][1] for k in order]
    for pos in range(len(order) - 2, -1, -1):
        if _SUBJECTS_LISTED.fullmatch(text, spans[order[pos]][1], spans[order[pos + 1]][0]):
            list_end[pos] = list_end[pos + 1]
    previous: int | None = None
    for pos, k in enumerate(order):
        start = spans[k][0]
        head = text[max(0, start - 40) : start]
        word = _WORD_BEFORE.search(head)
        listed = (
            previous is not None
            and out[previous]
            and _LISTED.fullmatch(text, spans[previous][1], start) is not None
        )
        # "(see [5])" and "(cf. [5])" are a citation group, not prose
        grouped = _GROUP_OPEN.search(head) is not None
        before = (word.group(1) or word.group(2)).lower() if word is not None else ""
        # the subject of a verb of saying where it starts a sentence ("[5] notes that", "[5]
        # and [1] note that"), not a citation after a noun ("A 2021 study [5] found that")
        subject = starts_sentence(text, start) and _REPORTS.match(text, list_end[pos])
        out[k] = not grouped and bool(listed or before in _TAKES_AN_OBJECT or subject)
        previous = k
    return out


def removal_spans(
    text: str, markers: Sequence[tuple[int, int, bool]]
) -> list[tuple[int, int] | None]:
    """For each marker ``(start, end, goes)`` of ``text`` (disjoint), the span to delete when it
    goes (:func:`removal_span`), None when it stays. Markers written one after another, or as a
    list (``[7], [8]``, ``[7] and [8]``), whose every one goes are removed as one marker would
    be: ``in 2023 [7][8].`` and ``in 2023 [7], [8].`` → ``in 2023.``, and ``[7][8] Claim`` at a
    line start → ``Claim``; where one of them stays, each that goes is removed alone with its
    separator (``in 2023 [7][8][1].`` → ``in 2023 [1].``). Brackets that held only markers
    that go go with them (:func:`_bracket_goes_too`). The spans never overlap."""
    order = sorted(range(len(markers)), key=lambda k: markers[k][0])
    at = {k: pos for pos, k in enumerate(order)}  # a marker's place in text order
    out: list[tuple[int, int] | None] = [None] * len(markers)
    # "and" between two markers the sentence uses as words lists them ("according to [5] and
    # [7]"); between citations it is the prose's ("runs [5] and [7] shows ...")
    prose = markers_in_prose(text, [(a, b) for a, b, _ in markers])
    joined = [
        pos + 1 < len(order)
        and (
            markers[order[pos + 1]][0] == markers[k][1]
            or _joined(text, markers[k][1], markers[order[pos + 1]][0])
        )
        for pos, k in enumerate(order)
    ]  # joined[pos]: the marker at pos and the next are one run or list
    # "and" lists a marker the sentence uses as a word after the one before it where the list
    # ends with the clause ("according to [5] and [7].") or before a verb of saying ("As [5] and
    # [7] note"), not before more words ("proposed by [5] and [7] later refined it": there it
    # joins two clauses); read from the end, so that each "and" knows where its list ends
    ends_clause = [False] * len(order)
    # a list that starts its sentence is the subject of the verb after it ("[9] and [1] show")
    subject = [False] * len(order)
    for pos, k in enumerate(order):
        listed = pos > 0 and _LISTED.fullmatch(text, markers[order[pos - 1]][1], markers[k][0])
        subject[pos] = subject[pos - 1] if listed else starts_sentence(text, markers[k][0])
    # ... and so does one after a noun, whose verb of saying, plural, follows the list ("Studies
    # [9] and [8] show that": "Studies show that" when both go, not "Studies and show that")
    reports = [False] * len(order)  # the list from the marker at pos ends before such a verb
    after_sources = [False] * len(order)  # ... and its separators' list starts after a noun
    for pos, k in enumerate(order):
        start = markers[k][0]
        after_sources[pos] = (pos > 0 and joined[pos - 1] and after_sources[pos - 1]) or bool(
            _LISTED_AFTER_SOURCES.search(text, max(0, start - 40), start)
        )
    # a list that is a preposition's object after a source noun ("A study by [9] and [8] found")
    object_list = [False] * len(order)
    for pos, k in enumerate(order):
        start = markers[k][0]
        object_list[pos] = (pos > 0 and joined[pos - 1] and object_list[pos - 1]) or bool(
            _OBJECT_OF.search(text, max(0, start - 40), start)
        )
    # the markers from pos on end their clause, the line or the text ("tall [1] and [8].":
    # nothing but markers follows the "and", which so lists them, not two clauses)
    list_ends = [False] * len(order)
    for pos in range(len(order) - 1, -1, -1):
        end = markers[order[pos]][1]
        if pos + 1 < len(order) and not joined[pos]:
            following = order[pos + 1]
            # "study [9], and [1] reported": a comma before "and" joins a clause
            plain_and = _PLAIN_AND.fullmatch(text, end, markers[following][0]) is not None
            joined[pos] = (
                (
                    (list_ends[pos + 1] and not prose[order[pos]])
                    or (prose[following] and ends_clause[pos + 1])
                    or (reports[pos + 1] and after_sources[pos] and plain_and)
                    or (prose[following] and object_list[pos] and plain_and)
                )
                and end < markers[following][0]
                and _PROSE_LIST.fullmatch(text, end, markers[following][0]) is not None
            )
        reports[pos] = _REPORT_PLURAL.match(text, end) is not None or (
            joined[pos] and reports[pos + 1]
        )
        list_ends[pos] = _LIST_END.match(text, end) is not None or (
            joined[pos] and list_ends[pos + 1]
        )
        ends_clause[pos] = (
            _LIST_END.match(text, end) is not None
            or _SAYS.match(text, end) is not None
            or (subject[pos] and _REPORTS.match(text, end) is not None)
            or (joined[pos] and ends_clause[pos + 1])
        )
    run: list[int] = []
    for pos, k in enumerate(order):
        run.append(k)
        if joined[pos]:
            continue  # the run goes on
        if len(run) > 1 and all(markers[m][2] for m in run):
            # one span for the whole run, shared out so that the edits stay disjoint and the
            # separators between the markers go too
            a, b = removal_span(text, markers[run[0]][0], markers[run[-1]][1])
            previous = a
            for m in run:
                out[m] = (previous, markers[m][1])
                previous = markers[m][1]
            out[run[-1]] = (out[run[-1]][0], b)  # type: ignore[index]
        else:
            for m in run:
                if markers[m][2]:
                    out[m] = _listed_removal(text, markers, order, at[m], joined)
        run = []
    _disjoint(order, out)
    _bracket_goes_too(text, order, out)
    _disjoint(order, out)
    return out


def removal_edits(
    text: str, markers: Sequence[tuple[int, int, bool]]
) -> list[tuple[int, int, str]]:
    """For the markers ``(start, end, goes)`` of ``text`` (disjoint, in any order), the edits
    ``(start, end, replacement)`` that remove the ones that go so that the sentence still
    reads: each with the blank or separator :func:`removal_spans` gives it, or with the source
    phrase it is all the object of (:func:`lead_phrase`, :func:`aside_phrase`,
    :func:`object_phrase`; a leading phrase's next word then takes its capital: "According to
    [9], the tower" -> "The tower"). The edits are disjoint, in text order, and reach into no
    marker that stays."""
    order = sorted(range(len(markers)), key=lambda k: markers[k][0])
    spans = removal_spans(text, markers)
    # where the markers that go make one run ("according to [7] and [8]"), a source phrase
    # names them all: the end of the run each one starts
    last = list(range(len(order)))  # the place in order of the run's last marker
    for pos in range(len(order) - 2, -1, -1):
        k, after = order[pos], spans[order[pos + 1]]
        if spans[k] is not None and after is not None and after[0] == markers[k][1]:
            last[pos] = last[pos + 1]
    run_end = {k: markers[order[last[pos]]][1] for pos, k in enumerate(order)}
    # a run listed with a marker that stays keeps the phrase for that one ("The tower,
    # according to [9]; [1], is": "The tower, according to [1], is", not "The tower; [1], is")
    stays_after = {
        k: last[pos] + 1 < len(order)
        and spans[(following := order[last[pos] + 1])] is None
        and _STAYS_LISTED.fullmatch(text, run_end[k], markers[following][0]) is not None
        for pos, k in enumerate(order)
    }
    edits: list[tuple[int, int, str]] = []
    free = 0  # where the last edit, or a marker that stays, ends: no edit may reach before it
    capital = -1  # the index in edits of the capital a leading phrase's going left, if last
    for k in order:
        start, end, _ = markers[k]
        span = spans[k]
        if span is None:
            free, capital = max(free, end), -1
            continue
        a, b = span
        if capital != len(edits) - 1:
            capital = -1
        # a capital after a leading phrase may give way to a phrase that follows it:
        # "According to [9], as [10] notes, the ..."
        taken = edits[capital][0] if capital >= 0 else free
        lead = None if stays_after[k] else lead_phrase(text, start, run_end[k])
        if lead is not None and free <= lead[0] <= a and run_end[k] <= lead[1]:
            # "According to [9], the tower ..." -> "The tower ...", not "According to, ..."
            edits.append((lead[0], lead[1], ""))
            free = lead[1]
            # a capital only where the phrase had one ("| in [9], the |" is no sentence's start)
            first = _LEADS_CAPITALISED.match(text, lead[0])
            marks = _EMPHASIS_MARKS.match(text, lead[1])
            word = marks.end() if marks is not None else lead[1]  # "**the** bridge"
            if first is not None and first.group()[-1].isupper() and _capitalise(text, word):
                edits.append((word, word + 1, text[word].upper()))
                capital, free = len(edits) - 1, word + 1
            continue
        aside = (
            None
            if stays_after[k]
            else shared_comma(text, aside_phrase(text, start, run_end[k]), taken)
        )
        obj = None if stays_after[k] else object_phrase(text, start, run_end[k])
        if aside is not None and taken <= aside[0] <= a and run_end[k] <= aside[1]:
            # "The tower, according to [9], was ..." -> "The tower was ..."
            a, b = aside
            if capital >= 0 and a < edits[capital][1]:
                del edits[capital]  # the capital goes to the word after this phrase
                capital = -1
                edits.append((a, b, ""))
                free = b
                if _capitalise(text, b):
                    edits.append((b, b + 1, text[b].upper()))
                    capital, free = len(edits) - 1, b + 1
                continue
        elif obj is not None and free <= obj[0] <= a and run_end[k] <= obj[1]:
            # "The study by [9] found ..." -> "The study found ...", not "The study by found"
            a, b = obj[0], max(b, obj[1])
        a = max(a, free)  # after a phrase that took the blanks before this marker
        if a < b:
            edits.append((a, b, ""))
            free = b
    return edits


_LEADS_CAPITALISED = re.compile(r"[*_]*[^\W\d_]", re.UNICODE)
_EMPHASIS_MARKS = re.compile(r"[*_]*")
_STAYS_LISTED = re.compile(
    r"[ \t]*(?:[;&][ \t]*|,[ \t]*(?:(?:and|or)\b[ \t]*)?|(?:and|or)\b[ \t]*)?", re.IGNORECASE
)
"""What lists a marker after a run of markers that go (nothing, a blank, a separator)."""
_CAPITALISED_WORD = re.compile(r"[^\W\d_]+")


def _capitalise(text: str, at: int) -> bool:
    """Whether the word at ``at`` begins a sentence written in capitals once its leading phrase
    went: an all-lowercase word, not an address or a name written in lower case on purpose
    ("iPhone", "example.org/...", "https://..."), whose first letter has one capital."""
    word = _CAPITALISED_WORD.match(text, at)
    if word is None or not word.group().islower():  # "iPhone" is not
        return False
    after = text[word.end() : word.end() + 2]
    emphasised = at > 0 and text[at - 1] == "_"  # "_the_ bridge": the mark closes the emphasis
    if after[:1] in (":", "/", "@") or (after[:1] == "_" and not emphasised):
        return False
    if after[:1] == "." and after[1:].isalnum():
        return False
    return len(text[at].upper()) == 1


def _disjoint(order: Sequence[int], out: list[tuple[int, int] | None]) -> None:
    """Two spans that overlap (two markers of a list that both go share the separator between
    them; a bracket's blank another span took) are cut where the one before ends."""
    last_end = 0
    for k in order:
        span = out[k]
        if span is not None:
            if span[0] < last_end:
                out[k] = span = (last_end, max(span[1], last_end))
            last_end = span[1]


_GROUP_OPEN = re.compile(
    r"\([ \t]*(?:(?:see(?:[ \t]+also)?\b|also\b|cf\b\.?|e\.[ \t]?g\.,?|i\.[ \t]?e\.,?|via\b"
    r"|(?:sources?|refs?\.?|references?)[ \t]*:)[ \t]*)?$",
    re.IGNORECASE,
)
"""A bracket that opens a group of markers, and the words that may lead them: ``(see [1])``,
``(see also [1])``, ``(e.g. [1])``, ``(sources: [1], [2])``."""


def _bracket_goes_too(text: str, order: Sequence[int], out: list[tuple[int, int] | None]) -> None:
    """Where every marker between brackets goes, the brackets go with them (``2024 ([5]; [3]).``
    and ``(see [5])`` → ``2024.``, not ``2024 ().``), with the blank before them where a
    blank, a punctuation mark or the end follows (``a ([5])b`` → ``a b``), or the blanks after
    them at a line's start; a line they were alone on goes whole."""
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and (a := out[order[j]]) and (b := out[order[j + 1]]):
            if a[1] != b[0]:
                break
            j += 1
        first_k, last_k = order[i], order[j]
        first, last = out[first_k], out[last_k]
        # the spans just before this group, one run: where they start
        before: tuple[int, int] | None = None
        back = i - 1
        while back >= 0 and (span := out[order[back]]) is not None:
            if before is not None and span[1] != before[0]:
                break
            before = (span[0], before[1] if before is not None else span[1])
            back -= 1
        i = j + 1
        if first is None or last is None:
            continue
        left = first[0]
        while left > 0 and text[left - 1] in " \t":
            left -= 1
        opened = _GROUP_OPEN.search(text, max(0, left - 20), left)
        right = last[1]
        while right < len(text) and text[right] in " \t":
            right += 1
        if opened is None:
            continue
        about = _ABOUT_SOURCE.match(text, right)
        if about is not None:
            right = about.end() - 1  # "(via [5], which is old)": what it says of the source too
        elif not text.startswith(")", right):
            continue
        start, end = opened.start(), right + 1
        k = start
        while k > 0 and text[k - 1] in " \t":
            k -= 1
        # at a line's start, or after markers at a line's start that go too ("[5] ([3]) Text")
        line_start = (
            start == 0
            or text[start - 1] == "\n"
            or (
                before is not None
                and before[1] >= k
                and (before[0] == 0 or text[before[0] - 1] == "\n")
            )
        )
        blank_before = start > 0 and text[start - 1] in " \t"
        after = text[end : end + 1]
        if line_start:
            # at a line's start the blanks after go; alone on its line, the line goes
            while end < len(text) and text[end] in " \t":
                end += 1
            if text[end : end + 1] == "\n" and start > 0:
                end += 1
        elif blank_before and not (after.isalnum() or (after != "" and after in "([")):
            # "2024 ([5])." -> "2024."; "a ([5])b" and "a ([5])([1])" keep the blank before
            while start > 0 and text[start - 1] in " \t":
                start -= 1
        out[first_k] = (start, first[1])
        tail = out[last_k]
        assert tail is not None  # the same span as first's where one marker goes
        out[last_k] = (tail[0], max(end, tail[1]))


_ABOUT_SOURCE = re.compile(r"(?:,[ \t]*)?(?:which|who|whose)\b[^()\[\]\n]{0,80}\)", re.IGNORECASE)
"""A clause about the source after its marker, up to the group's end: ``(via [5], which is
old)``."""
_SEPARATOR = re.compile(r"[ \t]*[,;/][ \t]*")
"""What separates two markers of a list ("Sources: [1], [2]", "[7]/[1] A page")."""
_BLANKS = re.compile(r"[ \t]+")
_PLACE = (
    r"(?:pp?\.|pages?\b|ch\.|chap\.|chapters?\b|sec\.|sections?\b|§§?|paras?\.|paragraphs?\b"
    r"|figs?\.|figures?\b|tab\.|tables?\b|ll?\.|lines?\b|slides?\b|vol\.|volumes?\b)[ \t]*"
    r"(?:\d[\w.]*|[ivxlcdm]+\b\.?)(?:[ \t]*(?:[-–—,]|and)[ \t]*(?:\d[\w.]*|[ivxlcdm]+\b\.?))*"
)
LOCATOR = re.compile(_PLACE + r"[ \t]*(?=\))", re.IGNORECASE)
"""A place in a source after its marker, up to the bracket's end: ``([5], p. 4)``, ``([5],
pp. 4–6)``, ``([5], section 3.2)``."""
_PLACE_THEN = re.compile(_PLACE + r"[ \t]*;[ \t]*", re.IGNORECASE)
"""... and up to the next marker of the group: ``([5], p. 4; [1])``."""
_PLAIN_AND = re.compile(r"[ \t]+(?:and|or|&)[ \t]+", re.IGNORECASE)
_PROSE_LIST = re.compile(r"[ \t]*(?:,\s*)?(?:and|or|&)\s+", re.IGNORECASE)
"""What lists a marker after one the sentence uses as a word: "according to [5] and [7]"."""
_SAYS = re.compile(_REPORTS.pattern + r"[ \t]*(?:[,.;:!?]|that\b|\r?\n|$)")
"""A verb of saying that ends a clause: "As [5] and [7] note, ...", "as [5] and [7] report."."""
_LIST_END = re.compile(r"[ \t]*(?:(?:\*\*|__|\*|_)[ \t]*)?(?:[,.;:!?)\]|。！？；，|]|\r?\n|$)")
"""What ends such a list: a clause's or the line's end ("according to [5] and [7]."), not a
word ("proposed by [5] and [7] later refined it": there the "and" joins two clauses)."""
_BRACKETED_SEPARATOR = re.compile(
    r"[ \t]*(?:[;&]|,(?:[ \t]*(?:and|or)\b)?|(?:and|or)\b)[ \t]*", re.IGNORECASE
)
"""... and inside brackets: "(see [1] and [2])" (outside them, "and" is the prose's)."""


def _joined(text: str, a: int, b: int) -> bool:
    """Whether ``text[a:b]``, between two markers, separates them as a list's items (a
    separator, or blanks alone: "[7] [8]")."""
    if _SEPARATOR.fullmatch(text, a, b) or _BLANKS.fullmatch(text, a, b):
        return True
    if not _BRACKETED_SEPARATOR.fullmatch(text, a, b):
        return False
    reach = max(0, a - 80)
    return text.rfind("(", reach, a) > text.rfind(")", reach, a)


def _listed_removal(
    text: str,
    markers: Sequence[tuple[int, int, bool]],
    order: Sequence[int],
    pos: int,
    joined: Sequence[bool],
) -> tuple[int, int]:
    """The span to delete for the marker at ``order[pos]``, which goes: in a list of markers
    its separator goes with it, the one before it when the marker before stays or none follows
    (``Sources: [1], [9]`` → ``Sources: [1]``; ``[1]; [5]; [9]`` → ``[1]``), else the one after
    it (``[9], [1]`` → ``[1]``); alone, as :func:`removal_span` says."""
    start, end, _ = markers[order[pos]]
    after = joined[pos] and markers[order[pos + 1]][0] > end
    # its place in the source, where it ends a bracket ("[5], p. 4)"), goes with it
    tail = end
    if (sep := _SEPARATOR.match(text, end)) is not None and (
        place := LOCATOR.match(text, sep.end())
    ) is not None:
        tail = place.end()
    if pos > 0:
        _, p_end, p_goes = markers[order[pos - 1]]
        if (not p_goes or not after) and joined[pos - 1] and p_end < start:
            return p_end, tail
    if after:
        return start, markers[order[pos + 1]][0]
    # first in brackets before other text: "([5], the docs)" -> "(the docs)"; a place in the
    # source it cites goes with it ("([5], p. 4)": the brackets then go too)
    opened = start > 0 and _GROUP_OPEN.search(text, max(0, start - 20), start) is not None
    if opened and (sep := _SEPARATOR.match(text, end)) is not None:
        if (place := LOCATOR.match(text, sep.end())) is not None:
            return start, place.end()  # "(see [5], p. 4)": the brackets go too
        following = markers[order[pos + 1]][0] if pos + 1 < len(order) else -1
        if (place := _PLACE_THEN.match(text, sep.end())) is not None and place.end() == following:
            return start, following  # "([5], p. 4; [1])" -> "([1])", not "(p. 4; [1])"
        return start, sep.end()
    # inside brackets after other text, with the separator before it ("([1], p. 2; [5], p.
    # 4)" -> "([1], p. 2)")
    if text.startswith(")", _blank_end(text, tail)):
        if (before := _SEPARATOR_BEFORE.search(text, max(0, start - 8), start)) is not None:
            previous_goes = pos > 0 and markers[order[pos - 1]][2]
            if not previous_goes:
                return before.start(), tail
        if tail > end:
            return start, tail
    return removal_span(text, start, end)


def _blank_end(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t":
        at += 1
    return at


_SEPARATOR_BEFORE = re.compile(r"[ \t]*[,;][ \t]*$")


def removal_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span to delete when a marker goes: the marker and the blank that set it off.

    ``claim [9].`` → ``claim.``; ``so[12] and`` → ``so and``; ``[9] Claim`` at a line start →
    ``Claim``; ``claim [9][1]`` → ``claim [1]`` (the blank stays for the marker after it; a run
    of markers that all go, and a list of markers: :func:`removal_spans`). Emphasis around the
    marker alone goes with it (``**[7]** Title`` → ``Title``, not ``**** Title``).
    """
    for k in (2, 1):
        mark = text[start - k : start] if start >= k else ""
        if mark in ("**", "__", "*", "_") and text[end : end + k] == mark:
            start, end = start - k, end + k
            break
    left = start
    while left > 0 and text[left - 1] in " \t":
        left -= 1
    if left == 0 or text[left - 1] == "\n":
        right = end
        while right < len(text) and text[right] in " \t":
            right += 1
        return start, right
    if text[end : end + 1] in ("[", "【", "［"):
        return start, end
    return left, end
