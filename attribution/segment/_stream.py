"""Segments of an answer that is still being written, each found once, at a cost linear in
the answer's length.

Segmenting the whole answer again after every delta costs the square of its length. A
:class:`SegmentStream` segments only the unfinished tail: the text from the last *cut*, a point
before which nothing the model writes later can change the segmentation. A cut is the start of a
sentence that follows another one in a plain paragraph (not a list item, quote, table or code)
and begins with a letter (so no markdown syntax starts there); the start of a paragraph's line
after a blank line; or the start of the line of an ATX heading or of a list item that is not
nested (both close whatever came before). The tail is segmented by the same :class:`Segmenter`
(``continued=True`` when it starts inside a paragraph), so a segment found in the tail is the
segment the whole answer has, its offsets shifted.

A tail that no cut shortens (a long table, code block or list) is segmented again only as it
grows by a quarter (:data:`GROWTH`) once it is over :data:`EAGER_CHARS`: its finished segments
come a little later, and every character is still segmented a bounded number of times.

A segment is *finished* once another segment follows it in the tail, except while what follows
may still become part of it: the start of a marker (``Sentence. [1``), lines starting like
reference entries (``[1] ...``) at the end, which may turn out to be the answer's trailing
reference list, and the rest of a table row (its cells are finished together, once the row has
ended: a cell of markers alone cites the row's claim). Two markdown constructs can still
change a finished segment afterwards, and no streaming segmenter can know in advance: a setext
underline (``===`` or ``---`` on the line right after a paragraph) makes the paragraph a
heading, and a delimiter row under a line makes it a table header. Answers almost never write
either without a blank line before; when they do, the final result is the one to trust.
"""

from __future__ import annotations

import re

import msgspec

from attribution.segment._segmenter import Segment, Segmentation, Segmenter
from attribution.segment._sentences import ends_with_short_scale

__all__ = ["SegmentStream"]

# Segmenting again only pays off once a delta could have ended a sentence or a line.
_BOUNDARY_CHARS = frozenset(" \t\n\r.!?;:\u3002\uff01\uff1f\uff61")
EAGER_CHARS = 500
"""A tail up to this long is segmented again on every delta that may finish a segment; a
longer one (a table, a code block, a list: no cut inside them) only once it has grown by a
:data:`GROWTH` part since it was last segmented, so the work stays linear in the answer."""
GROWTH = 4
"""A long tail is segmented again once it has grown by 1/GROWTH of its length."""
_REFERENCE_LIKE = re.compile(
    r"[ \t>]*(?:(?:[-*+•]|\d{1,4}[.)])[ \t]+)?(?:\*\*|__)?[\[【［]"
    r"|[ \t>]*(?:#{1,6}[ \t]+)?[*_]*[ \t]*(?:sources?|references?|citations?)[ \t]*[*_]*[ \t]*:",
    re.IGNORECASE,
)
"""A line that may be a reference list's entry, or a key on one line (``Sources: [1] ...``)."""
_FIRST_WORD = re.compile(r"[^\W\d_]+")
_SOURCE_LABELS = (
    "source",
    "sources",
    "reference",
    "references",
    "citation",
    "citations",
    "see",
    "also",
    "and",
    "cf",
)
"""Words that open a group of citations: "(Source: ...)", "(see [1])", "(see [a](https://...))"."""
_OPENERS = "\"'“‘«¿¡*_("
# The syntax before the text of an ATX heading, and of a list item that is not nested.
_ATX = re.compile(r"#{1,6}[ \t]+")
_TOP_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")


def _settled(text: str) -> bool:
    """Whether a segment starting with ``text`` cannot become a marker of the one before it:
    it starts with a letter or digit (after opening quotes, brackets or emphasis), and not with
    a bracket and a word that opens a group of citations ("(Source: Orion docs)" and "(see
    [1])" after a full stop cite with the sentence before it; "(S" may yet become one)."""
    rest = text.lstrip(_OPENERS)
    if not rest[:1].isalnum():
        return False
    opened = text[: len(text) - len(rest)]
    if "(" in opened or "[" in opened:
        word = _FIRST_WORD.match(rest)
        if word is not None:
            w = word.group().lower()
            ended = word.end() < len(rest)  # a word still being written may become one
            if any(label == w if ended else label.startswith(w) for label in _SOURCE_LABELS):
                return False
    return True


def _reference_zone(text: str) -> int:
    """Start of the trailing run of lines that begin like a reference entry (blank lines
    between them included, a line of blockquote marks alone counting as blank, as the block
    parser reads it); ``len(text)`` when there is none."""
    zone = end = len(text)
    lines = text.split("\n")
    for k, line in enumerate(reversed(lines)):
        start = end - len(line)
        if k == 0 and len(lines) > 1 and not _REFERENCE_LIKE.match(line):
            end = start - 1
            continue  # a line not ended yet may still become an entry ("- I", "- **")
        if line.strip(" \t\r>"):
            if not _REFERENCE_LIKE.match(line):
                break
            zone = start
        end = start - 1
    return zone


def _held_from(text: str) -> int:
    """Where segments stop being finished because a reference list may yet start after them:
    the line before the trailing reference-like lines (a marker on the first of them belongs to
    it unless they turn out to be the answer's reference list)."""
    zone = _reference_zone(text)
    if zone == len(text) or zone == 0:
        return zone
    before = text.rfind("\n", 0, zone - 1) + 1
    return before if text[before : zone - 1].strip() else zone


class SegmentStream:
    """Feed an answer delta by delta; get each segment once, when it is finished.

    Example::

        stream = SegmentStream(segmenter)
        for delta in deltas:
            for segment in stream.feed(delta):
                ...  # a finished segment, offsets into the whole answer
        for segment in stream.finish():
            ...
    """

    def __init__(self, segmenter: Segmenter) -> None:
        self.segmenter = segmenter
        self._pieces: list[str] = []
        self._tail = ""  # the answer from the cut on
        self._base = 0  # offset of the cut in the answer
        self._continued = False  # the cut is inside a paragraph
        self._mid_line = False  # ... and inside a line
        self._before = 0  # segments before the cut
        self._sent_to = 0  # finished segments starting before this offset were returned
        self.segmented_chars = 0
        """Characters segmented so far: about the answer's length, not its square."""
        self.window: tuple[int, str] = (0, "")
        """The answer's text spanning the segments last returned, and where it starts."""
        self._due = 0  # a tail longer than EAGER_CHARS is segmented again from this length

    @property
    def text(self) -> str:
        """The answer so far (joined on each call)."""
        return "".join(self._pieces) + self._tail

    @staticmethod
    def may_finish(delta: str) -> bool:
        """Whether ``delta`` can finish a segment (else :meth:`feed` only stores it)."""
        return not _BOUNDARY_CHARS.isdisjoint(delta)

    def feed(self, delta: str) -> list[Segment]:
        """Add ``delta`` to the answer; the segments it finished, in order."""
        self._tail += delta
        if not self.may_finish(delta):
            return []
        if len(self._tail) > EAGER_CHARS and len(self._tail) < self._due:
            return []  # segmented again once it has grown: each character a bounded number
        return self._advance(final=False)

    def finish(self) -> list[Segment]:
        """The answer is complete: every segment not returned yet."""
        return self._advance(final=True)

    def _advance(self, *, final: bool) -> list[Segment]:
        tail = self._tail
        self.segmented_chars += len(tail)
        seg = self.segmenter.segment_units(tail, continued=self._continued, mid_line=self._mid_line)
        segments = seg.segments
        done = segments if final else segments[:-1]
        if not final and len(segments) >= 2:
            same_unit = seg.unit_of[-1] == seg.unit_of[-2]
            dangling = segments[-2].text.endswith(("[", "【", "［", "[^"))
            # "16,4 Mrd. E": "Euro" goes on with the sentence, "Es" starts one; wait for the word
            word_pending = ends_with_short_scale(segments[-2].text) and not any(
                ch.isspace() for ch in segments[-1].text
            )
            if same_unit and (dangling or word_pending or not _settled(segments[-1].text)):
                # ``Sentence. [1`` : what follows may yet be a marker of the sentence before
                done = segments[:-2]
            # Lines starting with ``[n]`` at the end may yet be a trailing reference list,
            # which would take their markers from the sentence before them.
            held = _held_from(tail)
            done = [s for s in done if s.end <= held]
            if segments[-1].block == "table_cell":
                # a table row's cells are finished together, at the row's end: a cell holding
                # only markers cites the row's claim before it (decide.claims_to_check)
                row = tail.rfind("\n", 0, segments[-1].start) + 1
                done = [s for s in done if s.block != "table_cell" or s.start < row]
        out: list[Segment] = []
        base, replace = self._base, msgspec.structs.replace
        for k, s in enumerate(done):
            if base + s.start < self._sent_to:
                continue
            markers = tuple(replace(m, start=base + m.start, end=base + m.end) for m in s.markers)
            out.append(
                replace(
                    s,
                    index=self._before + k,
                    start=base + s.start,
                    end=base + s.end,
                    markers=markers,
                )
            )
        if out:
            self._sent_to = out[-1].end
            first = out[0].start - self._base
            self.window = (out[0].start, tail[first : out[-1].end - self._base])
        if not final and len(segments) >= 2 and len(done) == len(segments) - 1:
            self._cut(seg)
        self._due = len(self._tail) + len(self._tail) // GROWTH
        return out

    def _cut(self, seg: Segmentation) -> None:
        """Move the cut to the start of the last (unfinished) segment where that is safe."""
        last, before = seg.segments[-1], seg.segments[-2]
        unit = seg.units[seg.unit_of[-1]]
        tail = self._tail
        if before.skip_reason in ("code", "reference_list"):
            return
        if seg.unit_of[-2] == seg.unit_of[-1]:
            # a later sentence of a plain paragraph, starting with a letter (no syntax)
            if unit.block == "paragraph" and unit.skip is None and tail[last.start].isalpha():
                self._move(last.start, len(seg.segments) - 1, continued=True)
            return
        if last.start != unit.start:
            return
        line = tail.rfind("\n", 0, last.start) + 1
        syntax = tail[line : last.start]
        if syntax == "":
            # a paragraph of its own: a letter at the start of a line, after a blank line
            if (
                unit.block == "paragraph"
                and unit.skip is None
                and tail[last.start].isalpha()
                and tail[: max(line - 1, 0)].rstrip(" \t\r").endswith("\n")
            ):
                self._move(line, len(seg.segments) - 1, continued=False)
            return
        # an ATX heading, or a top-level list item, at the very start of its line: both close
        # whatever came before, so the markdown state after them does not depend on it
        if (unit.block == "heading" and unit.skip == "heading" and _ATX.fullmatch(syntax)) or (
            unit.block == "list_item" and unit.skip is None and _TOP_ITEM.fullmatch(syntax)
        ):
            self._move(line, len(seg.segments) - 1, continued=False)

    def _move(self, cut: int, finished: int, *, continued: bool) -> None:
        # a cut inside a line: the tail's first line is the rest of one, no line of its own
        self._mid_line = continued and cut > 0 and self._tail[cut - 1] != "\n"
        self._pieces.append(self._tail[:cut])
        self._tail = self._tail[cut:]
        self._base += cut
        self._continued = continued
        self._before += finished
