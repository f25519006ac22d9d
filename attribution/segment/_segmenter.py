"""The segmenter: an answer in, its segments out, each with exact offsets and its markers."""

from __future__ import annotations

import re
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import msgspec

from attribution._config import SegmentConfig
from attribution._errors import InputError
from attribution.segment._blocks import BlockKind, Unit, split_blocks
from attribution.segment._rules import (
    count_words,
    is_citation_header,
    is_fact_header,
    is_generic_header,
    is_pseudo_heading,
    is_row_label,
    is_table_filler,
    skip_reason,
)
from attribution.segment._sentences import (
    make_pipeline,
    sentence_spans,
    sentence_starts,
    split_long,
)
from attribution.segment._spans import strip_span
from attribution.text import (
    LOCATOR,
    URL,
    Marker,
    SpanSet,
    aside_phrase,
    find_markers,
    inline_code,
    lead_phrase,
    link_citations,
    link_destinations,
    listed_after,
    markers_in_prose,
    named_citations,
    object_phrase,
    opens_report,
    shared_comma,
    starts_sentence,
    url_end,
)

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = ["Segment", "Segmentation", "Segmenter"]

_EMPHASIS = "*_ "


def _emphasis(mark: str, content: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\w*_\\/]){mark}(?=[^\s*_/])({content}+?)(?<=[^\s*_\\/]){mark}(?![\w*_/])"
    )


_EMPHASIZED = (
    _emphasis(r"\*\*\*", r"[^*]"),
    _emphasis(r"\*\*", r"(?:[^*]|\*(?!\*))"),
    _emphasis(r"\*", r"[^*]"),
    _emphasis("___", "[^_]"),
    _emphasis("__", "(?:[^_]|_(?!_))"),
    _emphasis("_", "[^_]"),
)
"""Emphasis (``*not*``, ``**Gustave Eiffel**``, ``_so_``): its delimiters are markdown, not
words, so the models read ``not``; inside a word or a number (``snake_case``, ``2*3*4``) they
are left alone."""
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


_DISPLAY_MATH = re.compile(r"\$\$(?:(?!\$\$).)+\$\$|\\\[(?:(?!\\\]).)+\\\]", re.DOTALL)
"""A display formula: ``$$ ... $$`` or ``\\[ ... \\]``, nothing else."""


class Segment(msgspec.Struct, frozen=True, kw_only=True):
    """One piece of an answer: a sentence, a list item, a heading, a table cell, a code block.

    ``answer[segment.start:segment.end] == segment.text`` always holds.
    """

    index: int
    """Position among all segments of the answer, in reading order."""
    start: int
    """Offset of the first character (code points)."""
    end: int
    """Offset just past the last character; the segment's markers are inside ``[start, end)``."""
    text: str
    """The segment as written, markers and inner markdown included."""
    clean_text: str
    """``text`` without its markers and container syntax, what a citation in brackets leaves
    ("(see [1])"), struck-through text (``~~...~~``) and addresses that only say where it
    came from ("(https://...)", ", see https://..."), whitespace normalised: what models see."""
    block: BlockKind
    """The markdown block it comes from."""
    is_claim: bool
    """Whether the segment states something that should be backed by a source."""
    skip_reason: str | None
    """Why it is not a claim: ``code``, ``math`` (a display formula), ``heading``,
    ``table_header``, ``table_label`` (the
    first cell of a row of facts: what they are about), ``table_citation`` (a cell of a
    column of sources), ``reference_list``, ``question``,
    ``greeting``, ``connective``, ``too_short``; None for a claim."""
    markers: tuple[Marker, ...]
    """The citation markers attached to it (a marker right after a sentence belongs to it)."""
    context: str | None
    """For a list item: the lead-in ending with ':' before its list, else the heading above it
    (a nested item: its parent item). For a table cell: its row's first cell with words (for
    the cells after it) and its column header, ``"Second floor | Height"``. Otherwise None."""

    @property
    def read_as(self) -> str:
        """What the models read of this segment: its clean text; a table cell's with its row's
        first cell and its column header before it (``"Second floor | Height: 116 m"``): a
        cell alone does not say what it is about."""
        if self.block == "table_cell" and self.context:
            return f"{self.context}: {self.clean_text}"
        return self.clean_text


@dataclass(frozen=True, slots=True)
class Segmentation:
    """Segments with the markdown units they come from (:meth:`Segmenter.segment_units`)."""

    segments: list[Segment]
    units: list[Unit]
    unit_of: list[int]
    """For each segment, the index of its unit in ``units``."""


class _Draft(msgspec.Struct, frozen=True):
    """A segment before its index and context are known (offsets relative to its unit)."""

    unit: int
    start: int
    end: int
    markers: tuple[Marker, ...]
    clean: str
    skip: str | None


class _Prepared(msgspec.Struct, frozen=True):
    """A unit with the two views of its text the segmenter works on (same length as the unit).

    ``view``: the unit's text with the container syntax of its later lines and HTML comments
    blanked out (used for the clean text). ``masked``: ``view`` with markers blanked out and
    URLs, link destinations and inline code replaced by letters, so that the sentence splitter
    neither breaks inside them nor counts a marker as a word.
    """

    unit: Unit
    view: str
    masked: str
    counted: str
    """``masked`` with struck-through text blanked: what a claim's words are counted on."""
    code: list[tuple[int, int]]
    markers: list[Marker]
    marks: list[tuple[int, int]]
    """Each marker's span in the unit, and with it what only held markers: the brackets and
    separators of ``([1]; [2])`` are shared out among its markers, so the group goes whole."""


_GONE = "\x00"
"""Stands in the view for link syntax (``[``, ``](destination)``), which the clean text drops:
a character that is neither a blank nor alphanumeric, so offsets and the stripping of
segments do not change."""
_GONE_RUN = re.compile(_GONE + "+")
_FILE_CITATION = re.compile(r"【\d{1,6}:\d{1,6}(?:†[^】\n]{0,80})?】")
"""A file search's citation (``【4:0†report.pdf】``, OpenAI's assistants): its numbers are a
message's and a search result's, no source's, so it is no marker; no word of the claim either."""
_NAMED_FOOTNOTE = re.compile(r"\[\^[A-Za-z][\w-]{0,63}\](?!:)")
"""A footnote mark with a name (``[^wing]``, ``[^note-2]``): no citation number, so not a
marker, and no word of the claim either."""
# struck-through text (GFM ``~~retracted~~``): what the author took back, so no part of what
# the models read. Inside one sentence only (no sentence-ending mark but a decimal point or
# one just before the closing tildes, no line break or tag), so that a stream decides it as the
# whole answer does.
_STRUCK = re.compile(r"(?<!~)~~(?=[^\s~])(?:[^~\n.!?<]|(?<=\d)\.(?=\d))+?[.!?]?(?<=[^\s~])~~(?!~)")
# what "(see [1])", "([1])" or "(source: [2])" leave once their markers are out: a citation's
# brackets and the words that introduced it, nothing of the claim
_EMPTIED_GROUP = re.compile(
    r"\s*(?:[(\[]\s*(?:(?:see|also|cf|source|sources|ref|refs|reference|references|citation"
    r"|citations|via|e\.g|i\.e)\b[.:,;]*\s*)*(?:(?:[,;&]|and\b|or\b)\s*)*"
    rf"(?:(?<=[,;])\s*{LOCATOR.pattern}|(?<=[,;]\s){LOCATOR.pattern})?"
    r"[)\]]|<sup>\s*</sup>|\^\s*\^)",
    re.IGNORECASE,
)
"""What held only markers once they are out: brackets with the words and separators that led
or joined them ("([1]; [2])", "(see [1] and [2])", "(e.g. [1])"), and the place in the source
that followed them ("([1], p. 4)"), ``<sup>[1]</sup>``, ``^[1]^``."""


_CITING = (
    r"see|also|cf|source|sources|ref|refs|reference|references|citation|citations|via"
    r"|more|details|read\s+more|learn\s+more|more\s+info"
)
_LEAD_WORDS = re.compile(rf"(?:\b(?:{_CITING})\b[.:,;]*\s*)+$", re.IGNORECASE)
_MARKER_GROUP = re.compile(r"\((?:[ \t,;&]|and\b|see\b|also\b)*\)", re.IGNORECASE)
"""Brackets with nothing but blanks (markers masked), separators and leading words in them."""
_LEAD_REACH = 80
_LINK_TEXT_REACH = 1_000
_CLOSING = {"(": ")", "[": "]"}


def _without_cited_urls(text: str) -> str:
    """``text`` (a claim's clean text) without the addresses that only say where it came from:
    one (or a list of them) alone in brackets ("in 1889 (https://...)", "(see https://...,
    https://...)") or ending the sentence as an autolink ("<https://...>") or after a comma, a
    colon, a dash or a word like "see" ("in 1889, see https://..."). A source's page never
    holds its own address, so such a URL only lowered the claim's support (0.99 to 0.36 for a
    true claim). An address the sentence is about ("The site is https://...") stays."""
    pieces: list[str] = []
    cursor = 0
    for m in URL.finditer(text):
        start, end = m.start(), url_end(text, m.start(), m.end())
        if start < cursor:
            continue
        a, b = start, end
        autolink = text[a - 1 : a] == "<" and text[b : b + 1] == ">"
        if autolink:
            a, b = a - 1, b + 1
        # the words that lead an address are a few before it: searching from the cursor each
        # time cost the square of a line of addresses (a one-line key of 60,000 characters: 7 s)
        lead = _LEAD_WORDS.search(text, max(cursor, a - _LEAD_REACH), a)
        head = lead.start() if lead else a
        while head > cursor and text[head - 1].isspace():
            head -= 1
        tail = b
        while tail < len(text) and text[tail].isspace():
            tail += 1
        cut: tuple[int, int] | None = None
        opener = text[head - 1 : head]
        listed = _more_urls(text, tail) if opener in _CLOSING else tail  # "(https://a, ...)"
        if opener in _CLOSING and text[listed : listed + 1] == _CLOSING[opener]:
            cut = (head - 1, listed + 1)  # alone in brackets (or a list of them)
        elif not text[tail:].strip(".!?…"):  # it ends the sentence
            if opener in (",", ":", ";", "-", "–", "—"):
                cut = (head - 1, b)
            elif lead or autolink:
                cut = (head, b)
        if cut is None:
            continue
        begin = cut[0]
        while begin > cursor and text[begin - 1].isspace():
            begin -= 1
        pieces.append(text[cursor:begin])
        cursor = cut[1]
    if not pieces:
        return text
    pieces.append(text[cursor:])
    return " ".join("".join(pieces).split())


_URL_SEPARATOR = re.compile(r"\s*(?:[,;]|and\b|&)\s*(?:and\s+)?")


def _more_urls(text: str, at: int) -> int:
    """Past the addresses listed from ``at`` on (", https://b; https://c and https://d"),
    and the blanks after them; ``at`` itself when none is."""
    while True:
        sep = _URL_SEPARATOR.match(text, at)
        url = URL.match(text, sep.end()) if sep else None
        if url is None:
            return at
        at = url_end(text, url.start(), url.end())
        while at < len(text) and text[at].isspace():
            at += 1


def _link_syntax(
    answer: str, a: int, b: int, destinations: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Spans of the syntax of the inline links in ``answer[a:b]``: each ``](destination)``, and
    the ``[`` (or ``![``) that opens its text, so that ``[1889](https://...)`` reads ``1889``."""
    spans: list[tuple[int, int]] = []
    first = bisect_right(destinations, (a, a))  # sorted: only those of this unit are read
    lo = a
    for s, e in destinations[first:]:
        if s >= b:
            break
        if s <= a or e > b or answer[s - 1] != "]":
            continue
        spans.append((s - 1, e))
        depth = 0
        # the bracket that opens the link's text, after the link before it (no link holds
        # another) and within a link text's reach: linear
        reach, lo = max(lo, s - 2 - _LINK_TEXT_REACH), e
        for k in range(s - 2, reach - 1, -1):
            ch = answer[k]
            if ch == "\n":
                break
            if ch == "]":
                depth += 1
            elif ch == "[":
                if depth == 0:
                    spans.append((k - 1 if k > a and answer[k - 1] == "!" else k, k + 1))
                    break
                depth -= 1
    return spans


def _prepare(
    answer: str,
    unit: Unit,
    markers: list[Marker],
    links: Sequence[tuple[int, int]],
    destinations: Sequence[tuple[int, int]] = (),
) -> _Prepared:
    a, b = unit.start, unit.end
    chars = list(answer[a:b])
    hidden = [*unit.hidden, *(m.span() for m in _HTML_COMMENT.finditer(answer, a, b))]
    for s, e in hidden:
        chars[s - a : e - a] = " " * (e - s)
    shown = list(chars)
    syntax = _link_syntax(answer, a, b, destinations)
    for s, e in syntax:
        shown[s - a : e - a] = _GONE * (e - s)
    code = [(s - a, e - a) for s, e in inline_code(answer, a, b)]
    for hit in _NAMED_FOOTNOTE.finditer(answer, a, b):
        s, e = hit.start() - a, hit.end() - a
        if not any(cs < e and s < ce for cs, ce in code):
            shown[s:e] = _GONE * (e - s)  # "Alphabet[^wing]" reads "Alphabet"
    for hit in _FILE_CITATION.finditer(answer, a, b):
        s, e = hit.start() - a, hit.end() - a
        if not any(cs < e and s < ce for cs, ce in code):
            while s > 0 and shown[s - 1] in " \t":
                s -= 1
            shown[s:e] = _GONE * (e - s)  # "Frankfurt 【4:0†source】." reads "Frankfurt."
    struck: list[tuple[int, int]] = []
    for hit in _STRUCK.finditer(answer, a, b):
        s, e = hit.start() - a, hit.end() - a
        if not any(cs < e and s < ce for cs, ce in code):
            shown[s:e] = _GONE * (e - s)
            struck.append((s, e))
    view = "".join(shown)
    marks = [(m.start - a, m.end - a) for m in markers]
    if unit.skip is None:
        first = bisect_right(links, (a, a)) - 1
        for s, e in links[max(first, 0) :]:
            if s >= b:
                break
            s, e = max(s, a), min(e, b)
            if s < e:
                chars[s - a : e - a] = "x" * (e - s)
        for s, e in code:
            chars[s:e] = "x" * (e - s)
        for s, _ in syntax:
            if answer[s] == "!":  # an image's "![" does not end a sentence
                chars[s - a] = "x"
        for m in markers:
            chars[m.start - a : m.end - a] = " " * (m.end - m.start)
        if markers and "(" in answer[a:b]:
            # brackets that held only markers are blanks too: "Frankfurt. ([1]; [2]) It ..."
            # cites with both, not with "[1]" and the next sentence with "; [2])"
            starts = [s for s, _ in marks]  # sorted, as the markers are: linear with bisect
            for g in _MARKER_GROUP.finditer("".join(chars)):
                inside: list[int] = []
                k = bisect_left(starts, g.start())
                while k < len(marks) and marks[k][1] <= g.end():
                    inside.append(k)
                    k += 1
                if inside:
                    chars[g.start() : g.end()] = " " * (g.end() - g.start())
                    for j, k in enumerate(inside):
                        s = g.start() if j == 0 else marks[inside[j - 1]][1]
                        e = g.end() if j == len(inside) - 1 else marks[k][1]
                        marks[k] = (s, e)
    masked = "".join(chars)
    counted = masked
    if struck:
        for s, e in struck:
            chars[s:e] = " " * (e - s)
        counted = "".join(chars)
    return _Prepared(
        unit=unit,
        view=view,
        masked=masked,
        counted=counted,
        code=code,
        markers=markers,
        marks=marks,
    )


def _with_phrases(
    view: str, start: int, end: int, markers: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """``markers`` widened to the source phrase they are all of (``According to [9], ``,
    ``, as [9] notes``, `` (per [9])``, ``, according to [7] and [8]``, `` by [9]`` in "The
    study by [9] found"): words that say where
    the claim comes from, not what it says, which the judge would read as the claim's
    (it read "completed in 1921 (per).")."""
    out: list[tuple[int, int]] = []
    last = list(range(len(markers)))  # the last marker of the run of listed markers from each
    for j in range(len(markers) - 2, -1, -1):
        if listed_after(view, markers[j][1], markers[j + 1][0]):
            last[j] = last[j + 1]
    k = 0
    while k < len(markers):
        ms, me = markers[k]
        for j in dict.fromkeys((last[k], k)):  # the whole run a phrase names, or the one marker
            run_end = markers[j][1]
            phrase = (
                lead_phrase(view, ms, run_end)
                or shared_comma(view, aside_phrase(view, ms, run_end), out[-1][1] if out else 0)
                or object_phrase(view, ms, run_end)
            )
            if phrase is None:
                continue
            a, b = max(start, phrase[0]), min(end, phrase[1])
            while b > run_end and view[b - 1] in " \t":  # the blank before the next word stays
                b -= 1
            if a <= ms and run_end <= b and (not out or out[-1][1] <= a):
                out.append((a, b))
                k = j + 1
                break
        else:
            if not out or out[-1][1] <= ms:  # not inside the phrase before it
                out.append((ms, me))
            k += 1
    return out


def _clean(view: str, start: int, end: int, markers: Sequence[tuple[int, int]]) -> str:
    """``view[start:end]`` without the markers (and the source phrases they are all of) and the
    blanks before them, whitespace normalised."""
    markers = _with_phrases(view, start, end, markers)
    parts: list[str] = []
    cursor = start
    for ms, me in markers:
        cut = ms
        while cut > cursor and view[cut - 1] in " \t":
            cut -= 1
        parts.append(view[cursor:cut])
        glued = cut == ms and cut > start and me < end
        if glued and view[ms - 1].isalnum() and view[me].isalnum():
            parts.append(" ")
        cursor = me
    parts.append(view[cursor:end])
    # link syntax between two words reads as a blank ("See[Paris](u)and"), else as nothing
    text = " ".join(_GONE_RUN.sub(_glue, "".join(parts)).split())
    if markers:
        text = " ".join(_EMPTIED_GROUP.sub("", text).split())
    if "://" in text:
        text = _without_cited_urls(text)
    return text


def _without_emphasis(clean: str) -> str:
    """``clean`` with the delimiters of its emphasis removed (not inside inline code)."""
    if "*" not in clean and "_" not in clean:
        return clean
    for _ in range(3):  # nested: **a *b* c**
        plain = clean
        for pattern in _EMPHASIZED:  # the content holds no delimiter of its own kind: linear
            if pattern.search(plain) is None:
                continue
            code = inline_code(plain, 0, len(plain)) if "`" in plain else []

            def inner(m: re.Match[str], code: list[tuple[int, int]] = code) -> str:
                if any(a < m.end() and m.start() < b for a, b in code):
                    return m.group()
                return m.group(1)

            plain = pattern.sub(inner, plain)
        if plain == clean:
            break
        clean = plain
    return clean


def _glue(run: re.Match[str]) -> str:
    text, a, b = run.string, run.start(), run.end()
    return " " if a > 0 and b < len(text) and text[a - 1].isalnum() and text[b].isalnum() else ""


def _only_code(prep: _Prepared, start: int, end: int, markers: Sequence[tuple[int, int]]) -> bool:
    """True when everything but punctuation in ``[start, end)`` is inline code."""
    spans = [(max(s, start), min(e, end)) for s, e in prep.code if s < end and e > start]
    if not spans:
        return False
    cursor = start
    for s, e in sorted([*spans, *markers]):
        if any(ch.isalnum() for ch in prep.view[cursor:s]):
            return False
        cursor = max(cursor, e)
    return not any(ch.isalnum() for ch in prep.view[cursor:end])


def _attach(
    spans: list[tuple[int, int]], markers: Sequence[tuple[int, int]], view: str = ""
) -> list[tuple[int, int, list[int]]]:
    """Give each marker to the span it follows (the first span when none comes before it), and
    extend the spans over their markers. Returns ``(start, end, marker positions)`` per span.
    A marker between two spans that is the next one's subject (``... long. [9] notes that X``,
    ``... long. [9] and [1] note that X``: :func:`attribution.text.markers_in_prose` at a
    sentence's start, read in ``view``) is the next span's."""
    if not spans:
        if not markers:
            return []
        return [(markers[0][0], max(e for _, e in markers), list(range(len(markers))))]
    starts = [s for s, _ in spans]
    prose = markers_in_prose(view, markers) if view else [False] * len(markers)
    owned: list[list[int]] = [[] for _ in spans]
    heads: int | None = None  # the gap whose subject list the markers now read belong to
    for k, (ms, _) in enumerate(markers):
        i = max(bisect_right(starts, ms) - 1, 0)
        between = prose[k] and i + 1 < len(spans) and spans[i][1] <= ms
        if between and heads != i and starts_sentence(view, ms) and opens_report(view, markers, k):
            heads = i  # "... long. [9] notes that X", "... long. [9] and [1] note that X"
        elif not (between and heads == i):
            heads = None
        owned[i + 1 if heads == i else i].append(k)
    out: list[tuple[int, int, list[int]]] = []
    for (s, e), mine in zip(spans, owned, strict=True):
        if mine:
            s = min(s, markers[mine[0]][0])
            e = max(e, max(markers[k][1] for k in mine))
        out.append((s, e, mine))
    return out


def _table_facts(
    units: Sequence[Unit],
    by_unit: Sequence[Sequence[_Draft]],
    cleans: Sequence[str],
    drafts: list[_Draft],
) -> list[_Draft]:
    """A table row of short cells states facts: "| Height | 330 m |" says the height is 330 m.

    A body cell after its row's label (:attr:`Unit.row_label`, when the label is a name, not a
    sentence: :func:`is_row_label`) is a claim however short, read with the label and its
    column header (``"Height: 330 m"``), unless it says nothing to check (``yes``, ``n/a``, a
    dash, ``High``: :func:`is_table_filler`) or its column is no column of facts (sources,
    units, ratings, pros and cons: :func:`is_fact_header`). The label itself is then what the
    row is about, not a claim of its own (``table_label``). A cell of a column of sources
    (``| Wikipedia [1] |``) is ``table_citation``: its markers cite the row's claim.
    """
    facts: set[int] = set()  # units whose drafts become claims
    labels: set[int] = set()
    citing: set[int] = set()
    labelled = _labels_of_tables(units, cleans)
    for k, unit in enumerate(units):
        label = unit.row_label
        if unit.block != "table_cell" or label is None or not by_unit[k]:
            continue
        if any(is_citation_header(cleans[h]) for h in unit.headers):
            citing.add(k)
            continue
        if units[label].column != 0 or label not in labelled:
            continue  # a label is the row's first cell ("| 1889 | Tower was completed |": none)
        if not all(is_fact_header(cleans[h]) for h in unit.headers):
            continue
        said = [d for d in by_unit[k] if d.skip in (None, "too_short")]
        if not said or is_table_filler(cleans[k]):
            continue
        facts.add(k)
        labels.add(label)
    if not facts and not citing:
        return drafts
    replace = msgspec.structs.replace
    out: list[_Draft] = []
    for d in drafts:
        if d.unit in facts and d.skip == "too_short":
            d = replace(d, skip=None)
        elif d.unit in labels and d.unit not in facts and d.skip in (None, "too_short"):
            d = replace(d, skip="table_label")
        elif d.unit in citing and d.skip in (None, "too_short"):
            d = replace(d, skip="table_citation")
        out.append(d)
    return out


_MAX_COLUMN_LABEL_WORDS = 8
"""The most words of a first cell that is a label because its column's other cells are."""


def _labels_of_tables(units: Sequence[Unit], cleans: Sequence[str]) -> set[int]:
    """The first cells that label their rows (:func:`is_row_label`), and those a little longer
    in a column whose other cells mostly are labels ("| Annual, after 30 days |" among
    "| Annual |" and "| Monthly |": a plan, not a claim)."""
    # a table's first column, by the header cell of a column after it (one table's: the first
    # column's header may be empty, "| | 2022 | 2023 |", in every table of an answer)
    firsts: dict[tuple[int, ...], list[int]] = {}
    for unit in units:
        label = unit.row_label
        if unit.block == "table_cell" and label is not None and units[label].column == 0:
            if not unit.headers:
                continue  # a table without a header row: its labels are the short ones only
            column = firsts.setdefault(tuple(unit.headers), [])
            if label not in column:
                column.append(label)
    found: set[int] = set()
    for column in firsts.values():
        short = {k for k in column if is_row_label(cleans[k])}
        found |= short
        for k in column:
            others = len(column) - 1
            rest = len(short - {k})
            if (
                k not in short
                and others >= 2
                and 3 * rest >= 2 * others
                and is_row_label(cleans[k], max_words=_MAX_COLUMN_LABEL_WORDS)
            ):
                found.add(k)
    return found


class Segmenter:
    """Cuts answers into segments and tells which are claims.

    Markdown comes first: code, headings, list items, table cells, block quotes and a trailing
    reference list are told apart line by line; then spaCy's rule-based sentencizer splits the
    prose inside each block into sentences. A segmenter owns its spaCy pipeline, built on first
    use; it may be shared by threads.

    Example::

        segmenter = Segmenter(SegmentConfig(min_words=3))
        for claim in segmenter.claims(answer):
            print(claim.start, claim.end, claim.clean_text, [m.numbers for m in claim.markers])
    """

    def __init__(self, config: SegmentConfig | None = None) -> None:
        """A segmenter; its spaCy pipeline is built on first use.

        Args:
            config: the segmentation settings; the defaults when None.
        """
        self.config = config if config is not None else SegmentConfig()
        # spaCy does not promise that one pipeline may run in several threads at once.
        self._lock = threading.Lock()

    @cached_property
    def nlp(self) -> Language:
        """The spaCy pipeline (blank English tokenizer and sentencizer), built on first use."""
        return make_pipeline()

    def segment(self, answer: str) -> list[Segment]:
        """Every segment of ``answer``, claims and non-claims, in reading order.

        Args:
            answer: the answer, markdown.

        Returns:
            Segments that never overlap, with ``answer[s.start:s.end] == s.text``. Every marker
            :func:`find_markers` finds outside HTML comments is attached to exactly one segment.

        Raises:
            InputError: ``answer`` is not a string.
        """
        if not isinstance(answer, str):
            raise InputError(f"an answer must be a string, got {type(answer).__name__}")
        return self.segment_units(answer).segments

    def segment_units(
        self, answer: str, *, continued: bool = False, mid_line: bool = False
    ) -> Segmentation:
        """:meth:`segment`, with the markdown unit of every segment (what streaming needs).

        Args:
            answer: the answer, markdown.
            continued: ``answer`` starts in the middle of a paragraph that began earlier, after
                a sentence boundary; its first unit is then never taken for a lone pseudo-heading.
            mid_line: ... and in the middle of a line: its first line is no line of its own (no
                key of sources, no heading).
        """
        units = split_blocks(answer, table_cells=self.config.table_cells, mid_line=mid_line)
        prepared = self._prepare(answer, units)
        prose = [p for p in prepared if p.unit.mode == "sentences"]
        per_unit: list[list[int]] = []
        if prose:  # an answer without prose needs no pipeline
            with self._lock:
                per_unit = sentence_starts(self.nlp, [p.masked for p in prose])
        starts = iter(per_unit)
        drafts: list[_Draft] = []
        for k, prep in enumerate(prepared):
            sentence_starts_of_unit = next(starts) if prep.unit.mode == "sentences" else None
            drafts.extend(
                self._drafts(k, prep, sentence_starts_of_unit, continued=continued and k == 0)
            )
        return Segmentation(
            segments=self._finish(answer, units, drafts),
            units=units,
            unit_of=[d.unit for d in drafts],
        )

    def claims(self, answer: str) -> list[Segment]:
        """The segments of ``answer`` that are claims (see :meth:`segment`).

        Args:
            answer: the answer, markdown.

        Returns:
            The claims, in reading order; their ``index`` is their place among all segments.
        """
        return [s for s in self.segment(answer) if s.is_claim]

    # -- steps --------------------------------------------------------------------------------

    @staticmethod
    def _prepare(answer: str, units: list[Unit]) -> list[_Prepared]:
        markers = find_markers(answer)
        cited = link_citations(answer)
        if named := named_citations(answer):
            linked = SpanSet([(m.start, m.end) for m in cited])
            cited += [m for m in named if m.start not in linked and m.end - 1 not in linked]
            cited.sort(key=lambda m: m.start)
        if cited:
            # a link citation is a marker whose number its address tells; a number written
            # inside it ("[[1]](https://...)") is no marker of its own
            inside = SpanSet([(m.start, m.end) for m in cited])
            markers = sorted(
                [*(m for m in markers if m.start not in inside), *cited], key=lambda m: m.start
            )
        unit_starts = [u.start for u in units]
        per_unit: list[list[Marker]] = [[] for _ in units]
        for m in markers:
            k = bisect_right(unit_starts, m.start) - 1
            if k >= 0 and m.end <= units[k].end:
                per_unit[k].append(m)
        destinations = link_destinations(answer)
        links = sorted(
            [(m.start(), url_end(answer, m.start(), m.end())) for m in URL.finditer(answer)]
            + destinations
        )
        return [
            _prepare(answer, u, ms, links, destinations)
            for u, ms in zip(units, per_unit, strict=True)
        ]

    def _drafts(
        self, k: int, prep: _Prepared, starts: list[int] | None, *, continued: bool = False
    ) -> list[_Draft]:
        unit = prep.unit
        limit = self.config.max_claim_chars
        marks = prep.marks
        if starts is not None:
            sentences = sentence_spans(prep.masked, starts)
        else:
            sentences = [(0, unit.end - unit.start)]
        if unit.skip is None:
            sentences = [
                piece
                for span in sentences
                for piece in (
                    split_long(prep.masked, span, limit, marks)
                    if span[1] - span[0] > limit
                    else [span]
                )
            ]
        drafts: list[_Draft] = []
        for s, e, mine in _attach(sentences, marks, prep.view):
            # Spans come from the masked text; a cut inside masked code may leave real blanks.
            s, e = strip_span(prep.view, s, e)
            if s >= e:
                continue
            own = [marks[i] for i in mine]
            clean = _clean(prep.view, s, e, own)
            if unit.block == "table_cell":
                clean = clean.replace("\\|", "|")  # an escaped pipe inside a cell
            skip = unit.skip
            if skip is None:
                whole = len(sentences) == 1 and not continued
                skip = self._skip(prep, s, e, own, clean, whole=whole)
            clean = _without_emphasis(clean)  # after the pseudo-heading rule, which reads it
            drafts.append(
                _Draft(
                    unit=k,
                    start=s,
                    end=e,
                    markers=tuple(prep.markers[i] for i in mine),
                    clean=clean,
                    skip=skip,
                )
            )
        return drafts

    def _skip(
        self,
        prep: _Prepared,
        start: int,
        end: int,
        markers: Sequence[tuple[int, int]],
        clean: str,
        *,
        whole: bool,
    ) -> str | None:
        if _only_code(prep, start, end, markers):
            return "code"
        unit = prep.unit
        if whole and not unit.is_item and unit.block != "table_cell" and is_pseudo_heading(clean):
            return "heading"
        if not any(c.isalnum() for c in clean):
            return "too_short"  # nothing left once struck text and cited addresses are out
        if _DISPLAY_MATH.fullmatch(clean):
            return "math"
        words = count_words(prep.counted[start:end])
        return skip_reason(clean, words, min_words=self.config.min_words)

    @staticmethod
    def _finish(answer: str, units: list[Unit], drafts: list[_Draft]) -> list[Segment]:
        by_unit: list[list[_Draft]] = [[] for _ in units]
        for d in drafts:
            by_unit[d.unit].append(d)
        cleans = [" ".join(d.clean for d in ds) for ds in by_unit]
        drafts = _table_facts(units, by_unit, cleans, drafts)

        def context(unit: Unit) -> str | None:
            if unit.headers or unit.row_label is not None:
                around = [] if unit.row_label is None else [unit.row_label]
                # a header that only says the column holds something ("Value") is left out
                headers = [h for h in unit.headers if not is_generic_header(cleans[h])]
                return " | ".join(c for h in (*around, *headers) if (c := cleans[h])) or None
            if not unit.is_item:
                return None
            if unit.parent is not None:
                return cleans[unit.parent] or None
            if unit.lead_in is not None and by_unit[unit.lead_in]:
                last = by_unit[unit.lead_in][-1]
                lead = last.clean.strip(_EMPHASIS)
                if lead.endswith((":", "：")) or last.skip == "heading":
                    return lead or None
            if unit.heading is not None:
                return cleans[unit.heading] or None
            return None

        contexts = [context(u) for u in units]
        segments: list[Segment] = []
        for d in drafts:
            unit = units[d.unit]
            start, end = unit.start + d.start, unit.start + d.end
            segments.append(
                Segment(
                    index=len(segments),
                    start=start,
                    end=end,
                    text=answer[start:end],
                    clean_text=d.clean,
                    block=unit.block,
                    is_claim=d.skip is None,
                    skip_reason=d.skip,
                    markers=d.markers,
                    context=contexts[d.unit],
                )
            )
        return segments
