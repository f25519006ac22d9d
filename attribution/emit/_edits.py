"""Text edits of the answer with offset mapping: markers normalised, dropped and added."""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Literal, NamedTuple

from attribution.segment import SOURCES_WORDS, key_line_labels
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
    "restyled_definitions",
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


_ANY_DEFINITION = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)*\[\^(\d{1,6})\]:", re.MULTILINE)
"""A footnote definition, in a block quote too (``> [^1]: ...``)."""
_COMMENT = re.compile(r"^[ \t]{0,3}<!--.*?-->", re.DOTALL | re.MULTILINE)
"""An HTML comment that opens a line (an unclosed one hides nothing)."""


def restyled_definitions(
    text: str,
    style: MarkerStyle,
    known: Collection[int],
    *,
    labels: Mapping[int, int | None] | None = None,
    code: Sequence[tuple[int, int]] = (),
    drop_unknown: bool = True,
) -> list[Edit]:
    """The edits that write the answer's footnote definitions (``[^2]: A page``) as entries
    of a list of sources in ``style`` (``[2] A page``, ``[citation:2] A page``) where its
    markers are rewritten in a style other than footnotes: no footnote uses them any more, and
    markdown would hide them (or show a stray ``[^2]:``). A definition's number is read through
    ``labels`` (the answer key's: by the offset of its ``[``, None where it stops being one);
    one whose number is not ``known`` goes with its lines where ``drop_unknown`` (as an entry
    of a list does), unless none would stay; none inside ``code`` (the spans of code blocks)
    or an HTML comment is touched."""
    hidden = [*code, *(m.span() for m in _COMMENT.finditer(text))]
    edits: list[Edit] = []
    gone: list[Edit] = []
    kept = 0
    for m in _ANY_DEFINITION.finditer(text):
        at = m.start() + m.group().index("[")
        if any(a <= at < b for a, b in hidden):
            continue
        n = (labels or {}).get(at, int(m[1]))
        if n is not None and n in known:
            edits.append(Edit(at, m.end(), format_marker((n,), style)))
            kept += 1
        elif n is not None and drop_unknown:
            gone.append(Edit(m.start(), _definition_end(text, m.end()), ""))
    # where none stays, the definitions stay as they are: a list of none under its heading
    # would be worse than footnotes nobody uses (markdown hides them)
    return edits + gone if kept else edits


def _definition_end(text: str, at: int) -> int:
    """The end of the footnote definition whose label ends at ``at``: its line and the lines
    that continue it (up to a blank line or another definition), with their breaks."""
    end = text.find("\n", at)
    while end >= 0:
        nxt = text.find("\n", end + 1)
        line = text[end + 1 : nxt if nxt >= 0 else len(text)]
        if not line.strip() or _ANY_DEFINITION.match(line):
            return end + 1
        end = nxt
    return len(text)


_ENTRY_LINE = re.compile(
    r"(?P<lead>(?:[ ]{0,3}|[ \t]*>[ \t]*)(?:[-*+•][ \t]+)?(?:\*\*|__)?)\[(?P<n>\d{1,6})\]"
    r"(?P<close>(?:\*\*|__)?)(?!:)(?P<sep>[ \t]*[.)\-–—]?[ \t]*)(?P<rest>\S.*?)(?P<br>[ ]{2,}|\\)?"
)
"""A line of a list of sources under an answer: ``[1] Title``, ``- [2] [Title](https://...)``,
``**[3]** Title, https://...``; not a link definition (``[1]: https://...``), nor a line of an
indented code block."""
_DEFINITION_ENTRY = re.compile(
    r"(?P<lead>[ ]{0,3})\[\^(?P<n>\d{1,6})\]:(?P<close>)(?P<sep>[ \t]+)(?P<rest>\S.*?)"
    r"(?P<br>[ ]{2,}|\\)?"
)
"""A footnote definition of one line (``[^2]: A page``), an entry of the list the answer's
definitions become where its markers are rewritten in another style."""
_INLINE_LIST = re.compile(
    rf"[ \t]*(?:\*\*|__)?{SOURCES_WORDS}(?:[ \t*_]|[:：])*"
    r"(?P<list>\[\d{1,6}\](?:[ \t]*(?:(?:,|;|and|&)[ \t]*)?\[\d{1,6}\])*)"
    r"[ \t]*(?:\.[ \t]*)?",
    re.IGNORECASE,
)
"""A one-line list of sources under an answer: ``Sources: [1], [3]``, ``**Refs:** [1] [2]``."""
_LINE_CHARS = 2_000
"""The longest line read as an entry or a one-line list of sources (the patterns backtrack on
long runs of blanks: a longer line is prose)."""
_LIST_HEADING = re.compile(rf"[\W_]*(?:{SOURCES_WORDS}|links?)[\W_]*", re.IGNORECASE)
"""The line that heads a list of sources (``Sources:``, ``**References**``, ``## Sources``)."""
_LISTED = re.compile(r"\[(\d{1,6})\]")
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
    style: MarkerStyle = "bracket",
    definitions: bool = False,
) -> list[Edit]:
    """The edit that lists the sources ``text`` cites once edited (``cited``: the numbers the
    engine added and those the answer keeps) in the list of sources the answer ends with, where
    it ends with one and does not list them: a line like
    its last line (``[2] Title``, ``- [2] [Title](https://...)``, ``[2] Title, https://...``),
    or a number more on a one-line list (``Sources: [1], [2]``). ``describe``: a number's
    title and address; ``claims``: the spans of the answer's claims (lines that hold one are
    prose, no list); ``known``: the numbers that stay in the answer (a one-line list whose
    other numbers are dropped); ``style``: the style the answer's markers are written in once
    edited (``[citation:2]`` where the list's ``[1]`` becomes ``[citation:1]``);
    ``definitions``: the answer's footnote definitions are rewritten as a list in ``style``
    (:func:`restyled_definitions`), so that its last lines ``[^1]: A page`` are that list's
    entries and the new ones are written as its entries will be (``[2] B page``). Where the
    list's numbers go up and all stay, each new one goes where its number puts it (``[1], [2],
    [3]`` for ``[2]`` with [1] and [3] added), else after the list. No edit where there is no
    such list, it is inside a code block, or nothing is to add."""

    def written(n: int) -> str:
        return format_marker((n,), style)

    body = text.rstrip()
    lines = body.split("\n")
    if not cited or not lines or len(_FENCE.findall(body)) % 2:
        return []  # nothing to add, or the end of the text is inside a code block
    end = len(body)

    def missing_of(listed: Collection[int]) -> list[int]:
        return sorted(n for n in set(cited) if n not in listed)

    last = lines[-1].rstrip("\r")
    inline = _INLINE_LIST.fullmatch(last) if len(last) <= _LINE_CHARS else None
    if inline is not None:
        numbers = list(_LISTED.finditer(inline["list"]))
        stays = [m for m in numbers if known is None or int(m[1]) in known]
        missing = missing_of({int(m[1]) for m in stays})
        if not missing:
            return []
        gaps = [inline["list"][a.end() : b.start()] for a, b in itertools.pairwise(numbers)]
        line_start = end - len(last)
        listed = line_start + inline.start("list")
        if not stays:  # "Sources: [7]", [7] dropped: "Sources: [2]", before the blank it takes
            at = len(text[:listed].rstrip(" \t"))
            return [Edit(at, at, " " + ", ".join(written(n) for n in missing))]
        whole = len(stays) == len(numbers)
        if whole and _ascending(int(m[1]) for m in stays):
            # each where its number puts it: "Sources: [2]" with [1] and [3] added: "[1], [2],
            # [3]"; "[1] and [4]" with [2]: "[1], [2] and [4]" (after [1], not before "and")
            plain = next((g for g in gaps if not _AND.search(g)), ", ")
            before_and = bool(gaps) and _AND.search(gaps[-1]) is not None
            edits: list[Edit] = []
            for t, group in _places(missing, [int(m[1]) for m in numbers]).items():
                if t == len(numbers) and before_and:
                    # "[1] and [4]" with [5]: "[1], [4] and [5]" (its "and" moves to the end)
                    a, b = listed + numbers[-2].end(), listed + numbers[-1].start()
                    edits.append(Edit(a, b, plain))
                    at = listed + numbers[-1].end()
                    *rest, final = group
                    tail = f"{gaps[-1]}{written(final)}"
                    edits.append(Edit(at, at, "".join(f"{plain}{written(n)}" for n in rest) + tail))
                elif t == len(numbers) or (t == len(numbers) - 1 and before_and and t > 0):
                    at = listed + numbers[t - 1].end()
                    edits.append(Edit(at, at, "".join(f"{plain}{written(n)}" for n in group)))
                else:
                    at = listed + numbers[t].start()
                    edits.append(Edit(at, at, "".join(f"{written(n)}{plain}" for n in group)))
            return edits
        between = gaps[0] if gaps and len(stays) == len(numbers) else ", "
        at = listed + stays[-1].end()
        return [Edit(at, at, "".join(f"{between}{written(n)}" for n in missing))]
    entries = []
    entry = _DEFINITION_ENTRY if definitions else _ENTRY_LINE
    if definitions and _DEFINITION_ENTRY.fullmatch(lines[-1].rstrip("\r")) is None:
        entry, definitions = _ENTRY_LINE, False  # the answer's own list after its notes
    for line in reversed(lines):
        m = entry.fullmatch(line.rstrip("\r")) if len(line) <= _LINE_CHARS else None
        if m is None:
            break
        entries.append(m)
    above = [line for line in lines[: len(lines) - len(entries)] if line.strip()]
    heading = above[-1] if above else ""  # a blank line may come between: "## Sources\n\n[1] A"
    if not entries or (
        len(entries) < 2 and not definitions and not _LIST_HEADING.fullmatch(heading.strip())
    ):
        return []  # a line of prose that opens with a marker is no list (a definition is)
    first = end - sum(len(line) + 1 for line in lines[-len(entries) :]) + 1
    if any(a < end and first < b for a, b in claims):
        return []  # "[5] It runs.\n[7] It flies.": claims, no list
    # an entry's label may name more than one number ("[7] [1] Title", "[7], [1] Title")
    # definitions above the last block ("[^1]: A\n\n[^2]: B", or a definition's continuation
    # line between) are entries of the list too
    earlier = (
        {int(m[1]) for m in _ANY_DEFINITION.finditer(text, 0, first)} if definitions else set()
    )
    missing = missing_of(
        {int(m["n"]) for m in entries}
        | earlier
        | {
            int(n)
            for m in entries
            if (more := _MORE_LABELS.match(m["rest"]))
            for n in _LISTED.findall(more.group())
        }
    )
    if not missing:
        return []
    model = entries[0]  # the last line: the new ones follow it
    # where the list's last lines go (their numbers dropped), the new ones follow the last
    # that stays: its hard break, not theirs
    staying = [e for e in entries if known is None or int(e["n"]) in known]
    last_goes = bool(staying) and staying[0] is not model

    def said(n: int, like: re.Match[str]) -> str:
        """What an entry for ``n`` says, in the form of the entry ``like``."""
        title, url = describe(n)
        rest = like["rest"]
        if "](" in rest:
            return _link(title, url)
        if url and _URL_ONLY.fullmatch(rest):
            return url
        if url and url != title and (form := _TITLE_THEN_URL.fullmatch(rest)) is not None:
            return f"{title}{form['between'] or ' '}{form['open']}{url}{form['close']}"
        return title

    said_all = [said(n, model) for n in missing]
    new = [
        f"{model['lead']}{written(n)}{model['close']}{model['sep'] or ' '}{said}"
        for n, said in zip(missing, said_all, strict=True)
    ]
    crlf = (
        any(line.endswith("\r") for line in lines[-len(entries) : -1])
        or text[end : end + 2] == "\r\n"
        or text[first - 2 : first] == "\r\n"  # the break before the list's first entry
    )
    newline = "\r\n" if crlf else "\n"
    # hard line breaks ("  " or "\\" at a line's end) between the lines: the last gets one too
    breaks = [m["br"] for m in entries[1:] if m["br"]]
    order = [int(m["n"]) for m in reversed(entries)]
    edits = []
    after: list[int] = missing
    several = any(_MORE_LABELS.match(m["rest"]) for m in entries)  # "[2], [5] Title"
    if _ascending(order) and (known is None or staying == entries) and not earlier and not several:
        # each above the first entry of a greater number, written as that entry is ("- [1]
        # ..." above "- [2] ..."); the rest after the list
        starts = list(
            itertools.accumulate((len(line) + 1 for line in lines[-len(entries) :]), initial=first)
        )
        br = breaks[0] if breaks else ""
        places = _places(missing, order)
        after = places.pop(len(order), [])
        for t, group in places.items():
            like = entries[-1 - t]
            above = [
                f"{like['lead']}{written(n)}{like['close']}{like['sep'] or ' '}{said(n, like)}"
                for n in group
            ]
            edits.append(
                Edit(starts[t], starts[t], "".join(f"{line}{br}{newline}" for line in above))
            )
        new = [line for n, line in zip(missing, new, strict=True) if n in after]
    if not new:
        return edits
    hard = breaks[0] if breaks and not model["br"] and not last_goes else ""
    at = end
    if definitions and last_goes:  # after the last that stays: the definitions after it go
        k = entries.index(staying[0])  # lines from the end
        at = end - sum(len(line) + 1 for line in lines[len(lines) - k :])
        at -= text[at - 1 : at] == "\r"
    return [*edits, Edit(at, at, (hard + newline).join(["", *new]))]


def _places(missing: Sequence[int], listed: Sequence[int]) -> dict[int, list[int]]:
    """The numbers to add by the position of the first listed number greater than theirs (the
    list's length for those after it), in order."""
    places: dict[int, list[int]] = {}
    for n in missing:
        t = next((i for i, v in enumerate(listed) if v > n), len(listed))
        places.setdefault(t, []).append(n)
    return places


def _ascending(numbers: Iterable[int]) -> bool:
    """Whether a list's numbers go up (then the numbers added before its first go first)."""
    listed = list(numbers)
    return all(a < b for a, b in itertools.pairwise(listed))


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
    listed: Sequence[tuple[int, int]] = (),
) -> list[Edit]:
    """Edits that rewrite markers in ``style`` and drop unknown numbers when asked (and the
    ``foreign`` ones, ``(marker start, number)``: numbers the answer's own key says cite a page
    outside the request). A marker in ``renumbered`` (by start: read through the answer's key
    as other numbers than it says) is written again in its own style. A marker in ``held`` (by
    start) gets no edit: the caller edits it (:func:`held_markers`). In the answer's list of
    sources (``listed``: its spans), an entry whose label goes goes whole (:func:`_gone_entries`):
    ``[7] A page`` would otherwise stay as ``A page``, ``**[7]** A page`` as ``**** A page``."""
    kept = [
        kept_numbers(m, known=known, drop_unknown=drop_unknown, foreign=foreign) for m in markers
    ]
    # a link or a name never goes, nor a marker the caller holds
    goes = [
        not n and m.style not in UNNUMBERED and m.start not in held
        for m, n in zip(markers, kept, strict=True)
    ]
    entries, labels = _gone_entries(text, markers, goes, listed, held)
    goes = [g and m.start not in labels for m, g in zip(markers, goes, strict=True)]
    edits = entries + [
        Edit(a, b, new)
        for a, b, new in removal_edits(
            text, [(m.start, m.end, g) for m, g in zip(markers, goes, strict=True)]
        )
    ]
    for m, numbers, gone in zip(markers, kept, goes, strict=True):
        if gone or m.start in held or m.start in labels:
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


_LABEL_LEAD = re.compile(r"[ \t>]*(?:(?:[-*+•]|\d{1,6}[.)])[ \t]+)?(?:\*\*|__|\*|_)?")
"""What may come before an entry's label on its line: a quote's mark, a bullet, emphasis."""


def _gone_entries(
    text: str,
    markers: Sequence[Marker],
    goes: Sequence[bool],
    listed: Sequence[tuple[int, int]],
    held: Collection[int],
) -> tuple[list[Edit], frozenset[int]]:
    """The edits that take out the entries of the answer's list of sources (the spans
    ``listed``) whose labels go (every number of them dropped), and the starts of the markers
    inside what goes. A line that opens with such a label goes with its line break and the
    lines that continue it (``[7] A page``, ``- **[7]** A page\\n  https://...``); the text's
    last lines go with the break before them (its own last break stays). On a key written on
    one line (``Sources: [1] A https://a, [7] B https://b``) an entry goes up to the next one,
    the entries that end the line from the end of the last one that stays, the whole line
    where none stays. A label with a number that stays (``[1][7] A page``, ``[7], [1] A
    page``) is no label that goes, nor one whose line holds a marker the caller edits
    (``held``)."""
    if not listed or not any(goes):
        return [], frozenset()
    spans = sorted(listed)
    by_start = {m.start: (m, g) for m, g in zip(markers, goes, strict=True)}
    starts = sorted(by_start)
    found: list[Edit] = []
    done: set[int] = set()  # the lines already read
    for m, gone in zip(markers, goes, strict=True):
        k = bisect_left(spans, (m.start + 1, -1)) - 1
        if not gone or k < 0 or not spans[k][0] <= m.start < spans[k][1]:
            continue
        line_start = text.rfind("\n", 0, m.start) + 1
        if line_start in done:
            continue
        done.add(line_start)
        line_end = text.find("\n", m.start)
        line_end = len(text) if line_end < 0 else line_end
        line = text[line_start:line_end].rstrip("\r")
        items = key_line_labels(line, addressed=False)  # inside the list: titles alone too
        if items:  # a key on one line: each entry whose label goes
            found += _gone_items(text, line_start, line, items, by_start, starts)
            continue
        if _LABEL_LEAD.fullmatch(text, line_start, m.start) is None:
            continue  # not the line's label: the marker goes alone
        run = [m]  # the label's markers: "[7][8] A page", "[7], [1] A page", "**[7]/[1]**"
        at = m.end
        while (gap := _LABEL_GAP.match(text, at)) is not None and gap.end() in by_start:
            run.append(by_start[gap.end()][0])
            at = run[-1].end
        if not all(by_start[r.start][1] for r in run):
            continue
        end = min(line_end + 1, len(text))
        indent = len(line[: len(line) - len(line.lstrip(" \t>"))].expandtabs(4))
        while (
            (more := _CONTINUED.match(text, end)) is not None
            and len(more["indent"].expandtabs(4)) >= indent
            and more.start() < spans[-1][1]
        ):
            end = more.end()  # a line that continues the entry ("  https://...") goes with it
        found.append(Edit(line_start, end, ""))
    # the markers inside what goes go with it (none the caller edits itself)
    merged: list[Edit] = []
    labels: set[int] = set()
    for edit in sorted(found):
        inside = starts[bisect_left(starts, edit.start) : bisect_left(starts, edit.end)]
        if any(a in held for a in inside):
            continue
        labels.update(inside)
        if merged and merged[-1].end >= edit.start:  # lines one after another
            previous = merged.pop()
            edit = Edit(previous.start, max(previous.end, edit.end), "")
        merged.append(edit)
    if (
        merged
        and not text[merged[-1].end :].strip()
        and text[merged[-1].start - 1 : merged[-1].start] == "\n"
    ):
        # the text's last lines: the break before them goes, the text's own last one stays
        # (an entry the engine adds after them follows the line before them)
        a, b = merged[-1].start, merged[-1].end
        before = 2 if text[a - 2 : a] == "\r\n" else 1
        after = 0 if text[b - 1 : b] != "\n" else 2 if text[b - 2 : b] == "\r\n" else 1
        merged[-1] = Edit(a - before, b - after, "")
    return merged, frozenset(labels)


def _gone_items(
    text: str,
    line_start: int,
    line: str,
    items: Sequence[re.Match[str]],
    by_start: Mapping[int, tuple[Marker, bool]],
    starts: Sequence[int],
) -> list[Edit]:
    """The edits that take out the entries of a key written on one line whose labels go."""
    offsets: list[int] = []
    going: list[bool] = []
    for item in items:
        a, b = line_start + item.start(), line_start + item.end()
        inside = starts[bisect_left(starts, a) : bisect_left(starts, b)]
        going.append(bool(inside) and all(by_start[x][1] for x in inside))
        marks = item.group()[-2:]
        if (
            marks in ("**", "__")
            and not item.group().startswith(marks)
            and text[a - 2 : a] == marks
        ):
            a -= 2  # "Sources: **[7]** B": the line's head took the label's first marks
        offsets.append(a)
    if not any(going):
        return []
    line_end = line_start + len(line)
    if all(going):
        return [Edit(line_start, min(line_end + 1, len(text)), "")]
    ends = [*offsets[1:], line_end]
    last = len(items)  # the trailing entries that go: from the last one that stays
    while going[last - 1]:
        last -= 1
    edits = [Edit(offsets[i], ends[i], "") for i in range(last) if going[i]]
    if last < len(items):
        kept_end = len(text[: ends[last - 1]].rstrip(_ENTRY_GAP))
        edits.append(Edit(kept_end, line_end, ""))
    return edits


_MORE_LABELS = re.compile(r"(?:[ \t,/;&]*(?:\*\*|__)?\[\d{1,6}\](?:\*\*|__)?)+")
"""The labels after an entry line's first: "[1]" of "[7] [1] Title"."""
_LABEL_GAP = re.compile(r"(?:\*\*|__)?[ \t]*[,/;&]?[ \t]*(?:\*\*|__)?")
"""What may stand between two markers of one entry's label: "[7][8]", "[7], [1]", "[7]/[1]"."""
_CONTINUED = re.compile(
    r"(?P<indent>[ \t>]+)(?![-*+•][ \t]|\d{1,4}[.)][ \t]|[*_]{0,2}[\[［【])\S[^\n]*(?:\n|$)"
)
"""A line that continues the entry above it (indented, at least as far as it): no item or label
of its own ("  https://..." under "- [7] A page"; not "  **[1]** B" under "  **[7]** A")."""
_ENTRY_GAP = " \t,;|·•"
"""What may separate the entries of a key written on one line."""


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
