"""Markdown pre-split: cut an answer into units before any sentence splitting.

A *unit* is a region of the answer that the segmenter handles as one piece: a paragraph, a list
item (without its nested items), a heading, a table cell, a code block, one line of a trailing
reference list. Units never overlap and come in reading order; each is a half-open code-point
range ``[start, end)`` with no whitespace at either end. Container syntax *inside* a unit (the
``>`` and indentation of a quoted paragraph's later lines) is listed in ``hidden`` so that the
segmenter can blank it out while keeping offsets exact.

The grammar is CommonMark's, simplified where LLM answers never go, and lenient where they often
do: a list item indented by any amount more than the item above it is nested in it. Fenced code
is found by :func:`attribution.text.fenced_code`, so that code here and code for the marker
parser are the same regions.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Literal

from attribution.segment._spans import strip_span
from attribution.text import LABEL_WORD, URL, SpanSet, fenced_code, url_end

__all__ = ["ENTRY_LABEL", "BlockKind", "Unit", "is_key_line", "key_line_labels", "split_blocks"]

BlockKind = Literal["paragraph", "list_item", "heading", "table_cell", "blockquote"]
UnitMode = Literal["sentences", "whole"]

_QUOTE = re.compile(r"[ ]{0,3}>[ ]?")
_ATX = re.compile(r"(#{1,6})(?:[ \t]+|$)")
_ATX_CLOSING = re.compile(r"[ \t]+#+[ \t]*$")
_HR = re.compile(r"(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,}")
_SETEXT = re.compile(r"(?:=+|-+)[ \t]*")
_ITEM = re.compile(r"(?:[-*+]|(?P<num>\d{1,9})[.)])(?=[ \t]|$)")
_CHECKBOX = re.compile(r"\[[ xX]\](?:[ \t]+|$)")
_DELIMITER_ROW = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
_PIPE = re.compile(r"(?<!\\)\|")
_DEFINITION = re.compile(r"\[\^[^\]\n]+\]:|\[[^\]\n]+\]:[ \t]+\S+[ \t]*(?:[\"'(].*)?$")
SOURCES_WORDS = (
    r"(?:sources?|r[eé]f[eé]rences?|citations?|refs?\.?|bibliography|works[ \t]+cited"
    r"|further[ \t]+reading|quellen(?:angaben)?|literatur|fuentes|referencias|fonti|bronnen"
    r"|参考文献|参考资料|参考資料|来源|出典|出处)"
)
"""The words that head a list of sources, in English and a few other languages (matched
ignoring case): ``Sources``, ``Refs.``, ``Quellen``, ``Fuentes``, ``Références``, ``参考文献``."""
_SOURCES_HEADING = re.compile(
    rf"(?:#{{1,6}}[ \t])?[ \t*_]*{SOURCES_WORDS}(?:[ \t*_]|[:：])*", re.IGNORECASE
)
_BOLD_LINE = re.compile(r"(\*\*|__)(?=\S)[^*_\n]{1,80}(?<=\S)\1[ \t]*:?[ \t]*")
"""A line that is all bold: a label over the text under it, not the first words of it."""
_SOURCES_LINE = re.compile(
    r"[ \t>]{0,4}(?:#{1,6}[ \t])?[ \t*_]*(?:Sources?|SOURCES?|References?|REFERENCES?"
    r"|Citations?|CITATIONS?)[ \t*_]*:[ \t*_]*"
)
"""A line that says which sources: its label capitalised ("two\nsources: https://..." is a
sentence broken over two lines)."""
ENTRY_LABEL = (
    r"(?:\*\*|__)?(?:\[\^?(?P<a>\d{1,6})\]|【(?P<c>\d{1,6})[^】\n]{0,80}】|［(?P<w>\d{1,6})］"
    rf"|\[[ \t]*(?i:{LABEL_WORD})[ \t]*(?::[ \t]*)?(?P<d>\d{{1,6}})[ \t]*\])(?:\*\*|__)?(?!\()"
)
"""The label of a reference list's entry, a marker (``[3]``, ``**[3]**``, ``【3】``, ``[doc3]``):
its number is group ``a``, ``c``, ``w`` or ``d``."""
_INLINE_REF = re.compile(ENTRY_LABEL)
_ENTRY_START = re.compile(
    r"[ \t]*(?:https?://|www\.|[\w-]+(?:\.[\w-]+)+(?![\w-])|[\[\"'“*_<(]|[^\W_a-z])"
)
"""An entry starts with an address (``docs.example.com/...`` too), a link, a quote or emphasis,
or a title's capital."""
_REF_ENTRY = re.compile(
    r"(?:(?:[-*+•]|\d{1,4}[.)])[ \t]+)?(?:\*\*|__)?"
    r"(?:\[\^?\d{1,6}\]|【\d{1,6}[^】\n]*】|［\d{1,6}］"
    rf"|\[[ \t]*(?i:{LABEL_WORD})[ \t]*(?::[ \t]*)?\d{{1,6}}[ \t]*\])"
)
_REF_ITEM = re.compile(r"(?:[-*+•]|\d{1,9}[.)])(?=[ \t]|$)")
"""An item's mark in a list of sources: markdown's, or a bullet character ("• [1] A page"),
which markdown reads as text but answers write as a list."""
_LINKISH = re.compile(r"https?://|www\.|\]\(|\]:", re.IGNORECASE)
_COMMENT_OPEN = "<!--"
_COMMENT_CLOSE = "-->"


@dataclass(slots=True)
class Unit:
    """One region of the answer to segment (see the module docstring)."""

    start: int
    end: int
    block: BlockKind
    mode: UnitMode
    """``sentences``: cut into sentences; ``whole``: one segment (headings, cells, code)."""
    skip: str | None = None
    """Why no segment of this unit is a claim (``code``, ``heading``, ...); None: decide later."""
    hidden: list[tuple[int, int]] = field(default_factory=list)
    """Container syntax inside the unit: the ``>`` and indentation of its later lines."""
    is_item: bool = False
    """A list item, or a later paragraph of one."""
    parent: int | None = None
    """For a nested list item: the unit of the item it is nested in."""
    lead_in: int | None = None
    """For a top-level list item: the unit just before its list (the lead-in if it ends in ':')."""
    heading: int | None = None
    """For a top-level list item: the last heading before the list."""
    headers: tuple[int, ...] = ()
    """For a table body cell: its column's header cell; for a whole body row: the header cells."""
    column: int = 0
    """For a table body cell: its column, from 0."""
    row_label: int | None = None
    """For a table body cell after its row's first cell with words: that cell (what the row is
    about: "| Second floor | 116 m |"; a rank before it is not: "| 3 | Tower | ... |")."""


@dataclass(slots=True)
class _Line:
    start: int
    end: int
    """End of the line's text: before ``\\r\\n`` and trailing whitespace."""
    quote: int
    """Blockquote depth."""
    body: int
    """Offset of the first character after blockquote markers and indentation."""
    indent: int
    """Columns of indentation before ``body`` (tabs to multiples of 4)."""

    @property
    def blank(self) -> bool:
        return self.body >= self.end


@dataclass(slots=True)
class _OpenItem:
    marker_indent: int
    content_indent: int
    unit: int | None
    quote: int


def _lines(text: str) -> list[_Line]:
    lines: list[_Line] = []
    pos = 0
    for raw in text.split("\n"):
        start, stop = pos, pos + len(raw)
        pos = stop + 1
        end = stop
        while end > start and text[end - 1].isspace():
            end -= 1
        content, quote = start, 0
        while (m := _QUOTE.match(text, content, end)) is not None:
            content, quote = m.end(), quote + 1
        body, column = content, 0
        while body < end and text[body] in " \t":
            column = column + 4 - column % 4 if text[body] == "\t" else column + 1
            body += 1
        lines.append(_Line(start=start, end=end, quote=quote, body=body, indent=column))
    return lines


def _cells(text: str, line: _Line) -> list[tuple[int, int]]:
    """Content spans of a table row's cells, without pipes and padding (empty cells too)."""
    start, end = line.body, line.end
    if text.startswith("|", start):
        start += 1
    if end > start and text[end - 1] == "|" and text[end - 2 : end - 1] != "\\":
        end -= 1
    cells: list[tuple[int, int]] = []
    cursor = start
    for m in _PIPE.finditer(text, start, end):
        cells.append(strip_span(text, cursor, m.start()))
        cursor = m.end()
    cells.append(strip_span(text, cursor, end))
    return cells


def _is_table_row(text: str, line: _Line) -> bool:
    return not line.blank and _PIPE.search(text, line.body, line.end) is not None


def _is_delimiter_row(text: str, line: _Line) -> bool:
    return (
        not line.blank
        and "|" in text[line.body : line.end]
        and _DELIMITER_ROW.fullmatch(text, line.body, line.end) is not None
    )


def key_line_labels(line: str, *, addressed: bool = True) -> list[re.Match[str]]:
    """The labels of a key written on one line (``Sources: [1] Title, https://... [2] ...``;
    each match's ``a``, ``c`` or ``w`` group is the number), or none where the line is no such
    key: it names no address, or an entry starts like no title or address (a sentence such as
    "Sources: [1] and [2] agree that ..." or a label inside a title, "Overview [2023], ...").
    A label inside an address is none. ``addressed=False``: a key of titles alone is one too
    (``Sources: [1] NASA Apollo 11 Overview, [2] Smithsonian``), where each entry is short and
    ends no sentence inside it (read so where it is the answer's last paragraph)."""
    head = _SOURCES_LINE.match(line)
    if head is None or (addressed and not _LINKISH.search(line, head.end())):
        return []
    addresses = SpanSet(
        [(m.start(), url_end(line, m.start(), m.end())) for m in URL.finditer(line, head.end())]
    )
    labels = [m for m in _INLINE_REF.finditer(line, head.end()) if m.start() not in addresses]
    if not labels or labels[0].start() != head.end():
        return []
    ends = [m.start() for m in labels[1:]] + [len(line)]
    for m, end in zip(labels, ends, strict=True):
        if not line[m.end() : end].strip() or not _ENTRY_START.match(line, m.end()):
            return []
        if not addressed and (
            end - m.end() > _TITLE_ENTRY_CHARS or _SENTENCE_INSIDE.search(line, m.end(), end)
        ):
            return []  # "Sources: [1] Reuters says it runs. It is fast, [2] ...": prose
    return labels


_TITLE_ENTRY_CHARS = 150
"""The longest entry of a key of titles alone."""
_SENTENCE_INSIDE = re.compile(r"[.!?][\"'”’)]*[ \t]+[A-Z]")
"""A sentence that ends inside an entry: no title does that."""


_BETWEEN_ADDRESSES = re.compile(r"(?:[\s,;|·•]|and\b|&)*")


def is_key_line(line: str) -> bool:
    """Whether ``line`` says which sources the answer used, on its own: a key on one line
    (:func:`key_line_labels`), or ``Sources:`` and addresses alone (``SOURCES: https://a,
    https://b``, as LangChain's question answering with sources ends an answer)."""
    if key_line_labels(line):
        return True
    head = _SOURCES_LINE.match(line)
    if head is None:
        return False
    at, found = head.end(), False
    for m in URL.finditer(line, head.end()):
        if not _BETWEEN_ADDRESSES.fullmatch(line, at, m.start()):
            return False
        at, found = url_end(line, m.start(), m.end()), True
    return found and _BETWEEN_ADDRESSES.fullmatch(line, at) is not None


def _reference_start(
    text: str, lines: list[_Line], code: dict[int, int], *, mid_line: bool = False
) -> int:
    """Index of the first line of a trailing reference list (``len(lines)`` when there is none).

    Either a ``Sources:`` / ``References:`` line followed only by list entries, numbered entries
    or links; or, with no such line, a trailing run of lines that each start with ``[n]`` and
    hold a URL (or are ``[n]: url`` definitions). A line indented four columns after a blank
    line is an indented code block, never an entry: the run stops above it (else the same
    lines were a reference list while the answer ended there and code once more followed,
    and a stream disagreed with the whole answer).
    """
    n = len(lines)
    last = n - 1
    while last >= 0 and lines[last].blank and last not in code:
        last -= 1
    if last < 0 or last in code:
        return n
    strict, growing = n, True
    for i in range(last, -1, -1):
        line = lines[i]
        if i in code:
            break
        if line.blank:
            continue
        body = text[line.body : line.end]
        if i == 0 and mid_line:
            break  # the rest of a line: no heading, no key of its own
        if line.indent < 4 and _SOURCES_HEADING.fullmatch(body):
            return i if i < last else strict
        if line.indent < 4 and growing and is_key_line(body):
            return i  # "Sources: [1] https://... [2] ...", and only entries after it
        alone = i == last and (i == 0 or lines[i - 1].blank)  # the answer's last paragraph
        if alone and line.indent < 4 and key_line_labels(body, addressed=False):
            return i  # "Sources: [1] A title, [2] Another title"
        if line.indent >= 4 and (i == 0 or lines[i - 1].blank):
            break  # an indented code block's first line, not a reference entry
        is_entry = _REF_ENTRY.match(body) is not None
        if not (is_entry or _REF_ITEM.match(body) or _LINKISH.search(body)):
            break
        growing = growing and is_entry and _LINKISH.search(body) is not None
        if growing:
            strict = i
    return strict


class _Parser:
    """A line-by-line state machine over the answer's lines (see the module docstring)."""

    def __init__(
        self,
        text: str,
        lines: list[_Line],
        code: dict[int, int],
        *,
        table_cells: bool,
        mid_line: bool = False,
    ) -> None:
        self.text = text
        self.mid_line = mid_line
        """The first line is the rest of a line (a stream's tail): no key of its own."""
        self.lines = lines
        self.code = code
        """Every line inside fenced code, mapped to the last line of its fence."""
        self.table_cells = table_cells
        self.units: list[Unit] = []
        self.para: int | None = None
        """The unit of the paragraph (or list item) that a text line would continue."""
        self.para_quote = 0
        self.items: list[_OpenItem] = []
        self.heading: int | None = None
        self.list_lead: int | None = None
        self.list_heading: int | None = None

    # -- helpers ------------------------------------------------------------------------------

    def _add(self, unit: Unit) -> int | None:
        start, end = strip_span(self.text, unit.start, unit.end)
        if start >= end:
            return None
        unit.start, unit.end = start, end
        self.units.append(unit)
        return len(self.units) - 1

    @staticmethod
    def _kind(quote: int, is_item: bool) -> BlockKind:
        return "list_item" if is_item else "blockquote" if quote else "paragraph"

    def _close(self) -> None:
        self.para = None

    def _leave_lists(self, line: _Line) -> None:
        """Close the list items a line at this indentation is not inside."""
        while self.items and (
            line.indent <= self.items[-1].marker_indent or line.quote != self.items[-1].quote
        ):
            self.items.pop()

    def _open_paragraph(self, line: _Line) -> None:
        """A new paragraph: a later paragraph of the open list item, or a plain one."""
        self._leave_lists(line)
        unit = Unit(
            start=line.body,
            end=line.end,
            block=self._kind(line.quote, bool(self.items)),
            mode="sentences",
            is_item=bool(self.items),
        )
        owner = self._nearest_item()
        if owner is not None:
            # It belongs to the same item, so it has the same context.
            item = self.units[owner]
            unit.parent, unit.lead_in, unit.heading = item.parent, item.lead_in, item.heading
        self.para, self.para_quote = self._add(unit), line.quote

    def _nearest_item(self) -> int | None:
        for item in reversed(self.items):
            if item.unit is not None:
                return item.unit
        return None

    def _lead_in_candidate(self) -> int | None:
        if not self.units:
            return None
        last = self.units[-1]
        if last.mode == "sentences" and not last.is_item and last.skip is None:
            return len(self.units) - 1
        return None

    # -- line kinds ---------------------------------------------------------------------------

    def _code(self, first: int, last: int, indented: bool = False) -> None:
        self._close()
        line = self.lines[first]
        if not indented and line.indent <= (self.items[-1].marker_indent if self.items else -1):
            self._leave_lists(line)
        start = line.start
        while start < line.end and self.text[start] in " \t>":
            start += 1
        self._add(
            Unit(
                start=start,
                end=self.lines[last].end,
                block=self._kind(line.quote, bool(self.items)),
                mode="whole",
                skip="code",
                is_item=bool(self.items),
                parent=self._nearest_item(),
            )
        )

    def _atx_heading(self, line: _Line, marks: re.Match[str]) -> None:
        self._close()
        self.items.clear()
        end = line.end
        closing = _ATX_CLOSING.search(self.text, marks.end(), end)
        if closing is not None:
            end = closing.start()
        elif self.text[marks.end() : end].strip("#") == "":
            end = marks.end()
        index = self._add(
            Unit(start=marks.end(), end=end, block="heading", mode="whole", skip="heading")
        )
        if index is not None:
            self.heading = index

    def _table(self, first: int, stop: int) -> int:
        """Units for the table whose header row is ``lines[first]``; returns the next line."""
        self._close()
        header_line = self.lines[first]
        if self.items and header_line.indent <= self.items[-1].marker_indent:
            self.items.clear()
        headers: list[int | None] = []
        for a, b in _cells(self.text, header_line):
            headers.append(
                self._add(
                    Unit(start=a, end=b, block="table_cell", mode="whole", skip="table_header")
                )
            )
        header_units = tuple(h for h in headers if h is not None)
        i = first + 2
        while i < stop and self.lines[i].quote == header_line.quote:
            line = self.lines[i]
            if not _is_table_row(self.text, line) or i in self.code:
                break
            cells = _cells(self.text, line)
            if self.table_cells:
                label: int | None = None
                for column, (a, b) in enumerate(cells):
                    header = headers[column] if column < len(headers) else None
                    added = self._add(
                        Unit(
                            start=a,
                            end=b,
                            block="table_cell",
                            mode="sentences",
                            headers=() if header is None else (header,),
                            row_label=label,
                            column=column,
                        )
                    )
                    if label is None and any(ch.isalpha() for ch in self.text[a:b]):
                        label = added  # what the row is about: its first cell with words
            else:
                self._add(
                    Unit(
                        start=cells[0][0],
                        end=cells[-1][1],
                        block="table_cell",
                        mode="whole",
                        headers=header_units,
                    )
                )
            i += 1
        return i

    def _item(self, line: _Line, marker: re.Match[str]) -> None:
        self._close()
        self._leave_lists(line)
        content = marker.end()
        while content < line.end and self.text[content] in " \t":
            content += 1
        if (box := _CHECKBOX.match(self.text, content, line.end)) is not None:
            content = box.end()
        if not self.items and not (self.units and self.units[-1].is_item):
            # A new list, not the next item of the one before: its lead-in and heading.
            self.list_lead = self._lead_in_candidate()
            self.list_heading = self.heading
        parent = self._nearest_item()
        index = self._add(
            Unit(
                start=content,
                end=line.end,
                block="list_item",
                mode="sentences",
                is_item=True,
                parent=parent,
                lead_in=self.list_lead if not self.items else None,
                heading=self.list_heading if not self.items else None,
            )
        )
        content_indent = line.indent + (content - line.body)
        self.items.append(
            _OpenItem(
                marker_indent=line.indent,
                content_indent=content_indent,
                unit=index,
                quote=line.quote,
            )
        )
        self.para, self.para_quote = index, line.quote

    def _continue(self, para: int, line: _Line) -> None:
        """A later line of the open paragraph: its container syntax is hidden, not cut out."""
        unit = self.units[para]
        unit.hidden.append((line.start, line.body))
        unit.end = line.end

    # -- the loop -----------------------------------------------------------------------------

    def run(self, stop: int) -> None:
        """Parse ``lines[:stop]``."""
        text, lines = self.text, self.lines
        i = 0
        while i < stop:
            line = lines[i]
            if i in self.code:
                # Also a line in the middle of a fence, reached by skipping a comment that hid
                # the fence's start: code is where the marker parser says it is.
                last = min(self.code[i], stop - 1)
                self._code(i, last)
                i = last + 1
                continue
            if line.blank:
                self._close()
                i += 1
                continue
            if self.para is not None and line.quote != self.para_quote:
                self._close()
            if self.items and line.quote != self.items[-1].quote:
                self.items.clear()
            body = text[line.body : line.end]
            if body.startswith(_COMMENT_OPEN):
                self._close()
                i = self._skip_comment(i, stop)
                continue
            base = self.items[-1].content_indent if self.items else 0
            if self.para is None and line.indent >= base + 4:
                last = self._indented_code_end(i, stop, base + 4)
                self._code(i, last, indented=True)
                i = last + 1
                continue
            if line.indent < 4 and (marks := _ATX.match(text, line.body, line.end)) is not None:
                self._atx_heading(line, marks)
                i += 1
                continue
            para = self.units[self.para] if self.para is not None else None
            if (
                para is not None
                and not para.is_item
                and line.indent < 4
                and _SETEXT.fullmatch(text, line.body, line.end)
            ):
                para.block, para.mode, para.skip = "heading", "whole", "heading"
                self.heading = self.para
                self._close()
                i += 1
                continue
            if _HR.fullmatch(text, line.body, line.end):
                self._close()
                self.items.clear()
                i += 1
                continue
            if (
                i + 1 < stop
                and i + 1 not in self.code
                and lines[i + 1].quote == line.quote
                and _is_table_row(text, line)
                and _is_delimiter_row(text, lines[i + 1])
                and len(_cells(text, line)) == len(_cells(text, lines[i + 1]))
            ):
                i = self._table(i, stop)
                continue
            if line.indent < 4 and (
                _DEFINITION.match(text, line.body, line.end)
                or (not (self.mid_line and i == 0) and is_key_line(text[line.body : line.end]))
            ):
                self._close()
                self._add(
                    Unit(
                        start=line.body,
                        end=line.end,
                        block=self._kind(line.quote, False),
                        mode="whole",
                        skip="reference_list",
                    )
                )
                i += 1
                continue
            marker = _ITEM.match(text, line.body, line.end)
            if marker is not None and self._starts_item(marker, line):
                self._item(line, marker)
                i += 1
                continue
            if self.para is not None and self._bold_line(self.para):
                self._close()  # "**Profit**" on its own line labels the text under it
            if self.para is not None:
                self._continue(self.para, line)
            else:
                self._open_paragraph(line)
            i += 1

    def _bold_line(self, para: int) -> bool:
        """Whether the open paragraph is one line that is all bold (a label: "**Profit**",
        "**Warning:**"): the next line starts a paragraph of its own."""
        unit = self.units[para]
        return not unit.is_item and bool(_BOLD_LINE.fullmatch(self.text, unit.start, unit.end))

    def _indented_code_end(self, first: int, stop: int, indent: int) -> int:
        """The last line of the indented code block that starts at ``lines[first]``."""
        last = first
        for k in range(first + 1, stop):
            line = self.lines[k]
            if k in self.code or (
                not line.blank and (line.indent < indent or line.quote != self.lines[first].quote)
            ):
                break
            if not line.blank:
                last = k
        return last

    def _starts_item(self, marker: re.Match[str], line: _Line) -> bool:
        """A list marker starts an item unless it would interrupt a plain paragraph oddly."""
        para = self.units[self.para] if self.para is not None else None
        if para is None or para.is_item:
            return True
        empty = marker.end() >= line.end
        ordered_not_one = marker["num"] is not None and int(marker["num"]) != 1
        return not (empty or ordered_not_one)

    def _skip_comment(self, i: int, stop: int) -> int:
        """Skip the HTML comment that starts line ``i``; returns the index of the line after it."""
        close = self.text.find(_COMMENT_CLOSE, self.lines[i].body + len(_COMMENT_OPEN))
        if close < 0:
            return stop
        while i < stop and self.lines[i].start <= close and i not in self.code:
            i += 1
        return i


def _fence_lines(text: str, lines: list[_Line]) -> dict[int, int]:
    """Map the first line of each fenced code block to its last line."""
    fences: dict[int, int] = {}
    starts = [line.start for line in lines]
    previous = -1
    for a, b in fenced_code(text):
        first = bisect_right(starts, a) - 1
        if first > previous:  # two fences on one of our lines (split at \r, \u2028...): one
            previous = fences[first] = bisect_right(starts, b) - 1
    return fences


def _reference_units(text: str, lines: list[_Line], first: int) -> list[Unit]:
    units: list[Unit] = []
    for line in lines[first:]:
        if line.blank:
            continue
        start = line.body
        block_kind: BlockKind = "blockquote" if line.quote else "paragraph"
        if (marks := _ATX.match(text, line.body, line.end)) is not None:
            start, block_kind = marks.end(), "heading"
        elif (item := _REF_ITEM.match(text, line.body, line.end)) is not None:
            start, block_kind = item.end(), "list_item"
        a, b = strip_span(text, start, line.end)
        if a < b:
            units.append(
                Unit(start=a, end=b, block=block_kind, mode="whole", skip="reference_list")
            )
    return units


def split_blocks(text: str, *, table_cells: bool = True, mid_line: bool = False) -> list[Unit]:
    """Cut ``text`` into units (see the module docstring).

    Args:
        text: the answer, markdown.
        table_cells: one unit per table body cell (else one per body row).
        mid_line: ``text`` starts inside a line (a stream's tail cut at a sentence): its first
            line is no line of its own ("... [1]. Sources: [1] https://..." is a sentence).

    Returns:
        The units in reading order; they never overlap and have no whitespace at either end.
    """
    lines = _lines(text)
    code = {
        k: last for first, last in _fence_lines(text, lines).items() for k in range(first, last + 1)
    }
    stop = _reference_start(text, lines, code, mid_line=mid_line)
    parser = _Parser(text, lines, code, table_cells=table_cells, mid_line=mid_line)
    parser.run(stop)
    units = parser.units
    if stop < len(lines):
        units.extend(_reference_units(text, lines, stop))
    return units
