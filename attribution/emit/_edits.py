"""Text edits of the answer with offset mapping: markers normalised, dropped and added."""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Literal, NamedTuple

from attribution.text import (
    UNNUMBERED,
    Marker,
    MarkerStyle,
    format_marker,
    markers_in_prose,
    protected_spans,
    removal_edits,
    rewrite_marker,
)

__all__ = [
    "Edit",
    "EditedText",
    "answer_placement",
    "apply_edits",
    "footnote_definitions",
    "held_markers",
    "insertion_edit",
    "kept_numbers",
    "listed_sources_edit",
    "marker_edits",
    "marker_text",
]

_FINAL_PUNCT = re.compile(r"[.!?。！？;:]+[\"'”’)\]]*$")
_CLOSING = "\"'”’)]"


class Edit(NamedTuple):
    """Replace ``text[start:end]`` by ``replacement`` (an insertion when start == end)."""

    start: int
    end: int
    replacement: str


class EditedText:
    """A text after edits, and the mapping of offsets from the old text into it."""

    def __init__(self, text: str, edits: Sequence[Edit]) -> None:
        ordered = sorted(edits, key=lambda e: (e.start, e.end))
        for a, b in itertools.pairwise(ordered):
            if b.start < a.end:
                raise ValueError(f"overlapping edits {a} and {b}")
        pieces: list[str] = []
        cursor = 0
        self._edits = ordered
        self._starts = [e.start for e in ordered]
        self._shift_before: list[int] = []
        shift = 0
        for e in ordered:
            self._shift_before.append(shift)
            pieces.append(text[cursor : e.start])
            pieces.append(e.replacement)
            cursor = e.end
            shift += len(e.replacement) - (e.end - e.start)
        pieces.append(text[cursor:])
        self.text = "".join(pieces)
        self._total_shift = shift

    def map(self, offset: int, *, after_insertions: bool) -> int:
        """Where an offset of the old text lands in the new one.

        Args:
            offset: an offset into the old text.
            after_insertions: for an insertion exactly at ``offset``, land after the inserted
                text (True: a span's end takes in a marker added at its end) or before it.
        """
        k = bisect_left(self._starts, offset)
        # Edits that start before offset; an insertion at offset counts when after_insertions.
        while k < len(self._edits) and self._edits[k].start == offset and after_insertions:
            e = self._edits[k]
            if e.start != e.end:
                break
            k += 1
        if k == 0:
            return offset
        last = self._edits[k - 1]
        before = self._shift_before[k - 1]
        if offset < last.end:  # inside a replaced span: clamp into its replacement
            return last.start + before + min(offset - last.start, len(last.replacement))
        return offset + before + len(last.replacement) - (last.end - last.start)


def apply_edits(text: str, edits: Sequence[Edit]) -> EditedText:
    """Apply non-overlapping edits; see :class:`EditedText`. An insertion that falls inside a
    deletion goes where the deletion starts (a marker added to "2024. [5], [3]" where "[5], "
    goes: the two overlapped, and the whole attribution failed)."""
    deletions = sorted((e.start, e.end) for e in edits if e.end > e.start)
    if deletions and any(e.start == e.end for e in edits):
        starts = [a for a, _ in deletions]
        moved: list[Edit] = []
        for e in edits:
            if e.start == e.end and (k := bisect_left(starts, e.start) - 1) >= 0:
                a, b = deletions[k]
                if a < e.start < b:
                    glue = e.replacement
                    if a == 0 or text[a - 1] in " \t\n":
                        glue = glue.lstrip(" ")  # "2024. [5], [3]" -> "2024. [1]"
                    e = Edit(a, a, glue)
            moved.append(e)
        edits = moved
    return EditedText(text, edits)


_FOOTNOTE_DEFINITION = re.compile(r"^[ \t]*\[\^(\d{1,6})\]:", re.MULTILINE)


def footnote_definitions(
    text: str,
    numbers: Sequence[int],
    describe: Callable[[int], str],
    *,
    labels: Mapping[int, int | None] | None = None,
) -> Edit | None:
    """The edit that appends a definition (``[^3]: Title, https://...``) for each footnote
    number added to ``text`` that has none, so that markdown renders the added marks as
    footnotes rather than as literal ``[^3]``; None when every one is defined. ``labels``: the
    number each definition the answer's own key read defines once the answer is rewritten, by
    the offset of its ``[`` (None: no longer a definition); the others keep theirs."""
    now = labels or {}
    defined: set[int] = set()
    for m in _FOOTNOTE_DEFINITION.finditer(text):
        n = now.get(m.start() + m.group().index("["), int(m[1]))
        if n is not None:
            defined.add(n)
    missing = sorted({n for n in numbers if n not in defined})
    if not missing:
        return None
    lines = "\n".join(f"[^{n}]: {describe(n)}" for n in missing)
    # under the answer's own definitions, else after a blank line
    last = text.rstrip("\n").rsplit("\n", 1)[-1]
    if (
        not text
        or text.endswith("\n\n")
        or (text.endswith("\n") and _FOOTNOTE_DEFINITION.match(last))
    ):
        lead = ""
    else:
        lead = "\n" if text.endswith("\n") else "\n\n"
    return Edit(len(text), len(text), f"{lead}{lines}\n")


_ENTRY_LINE = re.compile(
    r"(?P<lead>(?:[ ]{0,3}|[ \t]*>[ \t]*)(?:[-*+][ \t]+)?(?:\*\*|__)?)\[(?P<n>\d{1,6})\]"
    r"(?P<close>(?:\*\*|__)?)(?!:)(?P<sep>[ \t]*[.)\-–—]?[ \t]*)(?P<rest>\S.*?)(?P<br>[ ]{2,}|\\)?"
)
"""A line of a list of sources under an answer: ``[1] Title``, ``- [2] [Title](https://...)``,
``**[3]** Title, https://...``; not a link definition (``[1]: https://...``), nor a line of an
indented code block."""
_INLINE_LIST = re.compile(
    r"[ \t]*(?:\*\*|__)?(?:sources?|references?|citations?|refs?)(?:\*\*|__)?[ \t]*:?"
    r"(?:\*\*|__)?[ \t]*(?P<list>\[\d{1,6}\](?:[ \t]*(?:,|;|and|&)?[ \t]*\[\d{1,6}\])*)"
    r"[ \t]*\.?[ \t]*",
    re.IGNORECASE,
)
"""A one-line list of sources under an answer: ``Sources: [1], [3]``, ``**Refs:** [1] [2]``."""
_LIST_HEADING = re.compile(
    r"[\W_]*(?:sources?|references?|citations?|refs?|bibliography|links?|further reading|works"
    r" cited)[\W_]*",
    re.IGNORECASE,
)
"""The line that heads a list of sources (``Sources:``, ``**References**``, ``## Sources``)."""
_LISTED = re.compile(r"\[(\d{1,6})\]")
_COMMA_SEPARATED = re.compile(r"[ \t]*[,;]?[ \t]*")
_AND = re.compile(r"\band\b|&", re.IGNORECASE)
_TITLE_THEN_URL = re.compile(
    r"(?P<title>.*?\S)(?P<between>[ \t]*[,;|—–-]?[ \t]*)(?P<open>[(<]?)https?://[^\s)>]+"
    r"(?P<close>[)>]?)\s*"
)
_URL_ONLY = re.compile(r"<?https?://\S+")
_FENCE = re.compile(r"^[ ]{0,3}(?:```|~~~)", re.MULTILINE)


def _link(title: str, url: str | None) -> str:
    """``[title](url)``, the title's brackets escaped, an address with a blank or a bracket in
    angle brackets."""
    if not url:
        return title
    shown = title.replace("[", "\\[").replace("]", "\\]")
    target = f"<{url}>" if any(c in url for c in " ()<>") else url
    return f"[{shown}]({target})"


def listed_sources_edit(
    text: str,
    cited: Sequence[int],
    describe: Callable[[int], tuple[str, str | None]],
    *,
    claims: Sequence[tuple[int, int]] = (),
    known: Collection[int] | None = None,
) -> Edit | None:
    """The edit that lists the sources ``text`` cites once edited (``cited``: the numbers the
    engine added and those the answer keeps) in the list of sources the answer ends with, where
    it ends with one and does not list them: a line like
    its last line (``[2] Title``, ``- [2] [Title](https://...)``, ``[2] Title, https://...``),
    or a number more on a one-line list (``Sources: [1], [2]``). ``describe``: a number's
    title and address; ``claims``: the spans of the answer's claims (lines that hold one are
    prose, no list); ``known``: the numbers that stay in the answer (a one-line list whose
    other numbers are dropped with ``and`` between them is left alone). None when there is no
    such list, it is inside a code block, or nothing is to add."""
    body = text.rstrip()
    lines = body.split("\n")
    if not cited or not lines or len(_FENCE.findall(body)) % 2:
        return None  # nothing to add, or the end of the text is inside a code block
    end = len(body)

    def missing_of(listed: Collection[int]) -> list[int]:
        return sorted(n for n in set(cited) if n not in listed)

    last = lines[-1].rstrip("\r")
    inline = _INLINE_LIST.fullmatch(last)
    if inline is not None:
        numbers = list(_LISTED.finditer(inline["list"]))
        stays = [m for m in numbers if known is None or int(m[1]) in known]
        missing = missing_of({int(m[1]) for m in stays})
        if not missing:
            return None
        gaps = [inline["list"][a.end() : b.start()] for a, b in itertools.pairwise(numbers)]
        if len(stays) < len(numbers) and not all(_COMMA_SEPARATED.fullmatch(g) for g in gaps):
            return None  # "[1] and [7]" with [7] dropped: the "and" is not ours to mend
        line_start = end - len(last)
        listed = line_start + inline.start("list")
        if not stays:  # "Sources: [7]", [7] dropped: "Sources: [2]", before the blank it takes
            at = len(text[:listed].rstrip(" \t"))
            return Edit(at, at, " " + ", ".join(f"[{n}]" for n in missing))
        if len(stays) == len(numbers) and _AND.search(gaps[-1] if gaps else ""):
            at = listed + numbers[-2].end()  # "[1] and [4]": "[1], [2] and [4]"
            return Edit(at, at, "".join(f", [{n}]" for n in missing))
        between = gaps[0] if gaps and len(stays) == len(numbers) else ", "
        at = listed + stays[-1].end()
        return Edit(at, at, "".join(f"{between}[{n}]" for n in missing))
    entries = []
    for line in reversed(lines):
        m = _ENTRY_LINE.fullmatch(line.rstrip("\r"))
        if m is None:
            break
        entries.append(m)
    heading = lines[-len(entries) - 1] if len(entries) < len(lines) else ""
    if not entries or (len(entries) < 2 and not _LIST_HEADING.fullmatch(heading.strip())):
        return None  # a line of prose that opens with a marker is no list
    first = end - sum(len(line) + 1 for line in lines[-len(entries) :]) + 1
    if any(a < end and first < b for a, b in claims):
        return None  # "[5] It runs.\n[7] It flies.": claims, no list
    missing = missing_of({int(m["n"]) for m in entries})
    if not missing:
        return None
    model = entries[0]  # the last line: the new ones follow it
    rest = model["rest"]
    new: list[str] = []
    for n in missing:
        title, url = describe(n)
        if "](" in rest:
            said = _link(title, url)
        elif url and _URL_ONLY.fullmatch(rest):
            said = url
        elif url and url != title and (t := _TITLE_THEN_URL.fullmatch(rest)) is not None:
            said = f"{title}{t['between'] or ' '}{t['open']}{url}{t['close']}"
        else:
            said = title
        new.append(f"{model['lead']}[{n}]{model['close']}{model['sep'] or ' '}{said}")
    crlf = any(line.endswith("\r") for line in lines[-len(entries) : -1]) or (
        len(entries) == 1 and text[end : end + 2] == "\r\n"
    )
    newline = "\r\n" if crlf else "\n"
    # hard line breaks ("  " or "\\" at a line's end) between the lines: the last gets one too
    breaks = [m["br"] for m in entries[1:] if m["br"]]
    hard = breaks[0] if breaks and not model["br"] else ""
    return Edit(end, end, (hard + newline).join(["", *new]))


def marker_edits(
    text: str,
    markers: Sequence[Marker],
    *,
    style: MarkerStyle | None,
    known: Collection[int],
    drop_unknown: bool,
    foreign: Collection[tuple[int, int]] = (),
    renumbered: Collection[int] = (),
    held: Collection[int] = (),
) -> list[Edit]:
    """Edits that rewrite markers in ``style`` and drop unknown numbers when asked (and the
    ``foreign`` ones, ``(marker start, number)``: numbers the answer's own key says cite a page
    outside the request). A marker in ``renumbered`` (by start: read through the answer's key
    as other numbers than it says) is written again in its own style. A marker in ``held`` (by
    start) gets no edit: the caller edits it (:func:`held_markers`)."""
    kept = [
        kept_numbers(m, known=known, drop_unknown=drop_unknown, foreign=foreign) for m in markers
    ]
    # a link or a name never goes, nor a marker the caller holds
    goes = [
        not n and m.style not in UNNUMBERED and m.start not in held
        for m, n in zip(markers, kept, strict=True)
    ]
    edits = [
        Edit(a, b, new)
        for a, b, new in removal_edits(
            text, [(m.start, m.end, g) for m, g in zip(markers, goes, strict=True)]
        )
    ]
    for m, numbers, gone in zip(markers, kept, goes, strict=True):
        if gone or m.start in held:
            continue
        if m.style in UNNUMBERED:
            # a link or a name stays as written, but for the number a link shows
            if (new := rewrite_marker(m, m.numbers, None)) != m.text:
                edits.append(Edit(m.start, m.end, new))
        elif (
            style is not None
            or numbers != m.numbers
            or m.start in renumbered
            or m.text.endswith("^]")  # "[^1^]" is written "[^1]", which a definition defines
        ):
            new = rewrite_marker(m, numbers, style)
            if new != m.text:
                edits.append(Edit(m.start, m.end, new))
    return edits


def answer_placement(text: str, markers: Sequence[Marker]) -> Placement:
    """Where the answer writes the markers that end its sentences: ``after`` the punctuation
    where most of them follow it (``in 1889. [1]`` before a line's end, ``"... in 1889."[1]``),
    ``glued`` where most of those are written on to it (``in 1889.[1]``), else ``before``
    (``in 1889 [1].``; also where it has none). A marker that starts a line (a reference
    list's ``[1]. Title``) or that heads the next sentence tells nothing."""
    after = glued = before = 0
    for m in markers:
        if m.style in UNNUMBERED:
            continue
        j = m.start
        while j > 0 and text[j - 1] in " \t":
            j -= 1
        if j == 0 or text[j - 1] == "\n":
            continue  # a line's start: a list of sources, not a sentence's end
        k = m.end
        while k < len(text) and text[k] in " \t":
            k += 1
        stop = j
        while stop > 0 and text[stop - 1] in _CLOSERS:
            stop -= 1
        at_line_end = text[k : k + 1] in ("", "\n", "\r")
        if stop > 0 and text[stop - 1] in _SENTENCE_STOPS and (j == m.start or at_line_end):
            after += 1
            glued += j == m.start
        elif text[k : k + 1] in _SENTENCE_STOPS and text[k + 1 : k + 2] in ("", " ", "\n", "\r"):
            before += 1
    if after <= before:
        return "before"
    return "glued" if 2 * glued > after else "after"


Placement = Literal["before", "after", "glued"]
_SENTENCE_STOPS = ".!?。！？"
_CLOSERS = "\"'”’)]*_"


def kept_numbers(
    marker: Marker,
    *,
    known: Collection[int],
    drop_unknown: bool,
    foreign: Collection[tuple[int, int]] = (),
) -> tuple[int, ...]:
    """The numbers of ``marker`` that stay in the answer: all of them unless unknown numbers
    (and ``foreign`` ones) are dropped."""
    if not drop_unknown:
        return marker.numbers
    return tuple(n for n in marker.numbers if n in known and (marker.start, n) not in foreign)


def held_markers(
    text: str,
    markers: Sequence[Marker],
    *,
    known: Collection[int],
    drop_unknown: bool,
    foreign: Collection[tuple[int, int]] = (),
) -> frozenset[int]:
    """The starts of the bracket markers that would go (every number dropped) but that the
    sentence uses as words (:func:`attribution.text.markers_in_prose`): ``According to [5],
    Orion runs in Frankfurt.`` would read ``According to, Orion ...``. Where the engine fills in
    the claim's source, the first of them is written with its number instead
    (``According to [1], ...``); otherwise they go as every unknown number does (the answer never
    carries a number its citation list cannot resolve)."""
    if not drop_unknown:
        return frozenset()
    bracketed = [m for m in markers if m.style == "bracket"]
    prose = markers_in_prose(text, [(m.start, m.end) for m in bracketed])
    return frozenset(
        m.start
        for m, in_prose in zip(bracketed, prose, strict=True)
        if in_prose and not kept_numbers(m, known=known, drop_unknown=drop_unknown, foreign=foreign)
    )


_CJK = re.compile(
    r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
)
"""Chinese, Japanese and Korean characters and their punctuation: text written without spaces."""


def marker_text(numbers: Sequence[int], style: MarkerStyle, like: Marker | None) -> str:
    """A marker the engine writes naming ``numbers``: in ``style``, or like the answer's own
    marker ``like`` where its markers carry a word (``[doc1]``, ``[Source 2]``)."""
    return (
        rewrite_marker(like, numbers, None) if like is not None else format_marker(numbers, style)
    )


def insertion_edit(
    text: str,
    claim_start: int,
    claim_end: int,
    numbers: Sequence[int],
    *,
    style: MarkerStyle,
    before_punctuation: bool,
    protected: Sequence[tuple[int, int]] | None = None,
    like: Marker | None = None,
    glued: bool = False,
) -> Edit:
    """The edit that adds a marker naming ``numbers`` to the claim ``text[claim_start:claim_end]``.

    The marker goes before the claim's final punctuation (``Earth [6].``) or after it
    (``Earth. [6]``); after a closing quote or bracket that follows the punctuation, so that
    it is not read as part of a quotation (``"a monument to science." [6]``); never inside
    inline code, a URL or a link target: if the chosen place falls inside one, it moves past it.
    ``like``: a marker of the answer to write it as (its word kept: ``[doc3]``).
    """
    claim = text[claim_start:claim_end]
    position = claim_end
    tail = _FINAL_PUNCT.search(claim)
    closed = tail is not None and tail.group()[-1] in _CLOSING
    if before_punctuation and tail and not closed:
        position = claim_start + tail.start()
        while position > claim_start and text[position - 1] in " \t":
            position -= 1
    for a, b in protected if protected is not None else protected_spans(text):
        if a < position < b:
            position = b
    marker = marker_text(numbers, style, like)
    # a footnote mark, and a marker after CJK text (written without spaces), are glued on
    cjk = position > 0 and _CJK.match(text, position - 1) is not None
    glue = "" if style == "footnote" or cjk or (glued and not before_punctuation) else " "
    return Edit(position, position, glue + marker)
