"""Inline citation markers: find them with exact offsets, normalise them, renumber them.

Markers recognised (``n`` is a citation number, 1 or more):

=============  ==========================  ===================
style          examples                    written back as
=============  ==========================  ===================
``bracket``    ``[1]`` ``[1, 2]`` ``[1-3]``  ``[1, 2]``
               ``[doc1]`` ``[Source 2]``     (kept renumbered: ``[doc3]``)
``citation``   ``[citation:1]`` ``[citation:1, 2]``  ``[citation:1, 2]``
``footnote``   ``[^1]`` ``[^1^]``            ``[^1][^2]``
``cjk``        ``【1】`` ``【1, 2】`` ``【1†source】`` ``［1］``  ``【1, 2】``
=============  ==========================  ===================

``[1][2]`` is two markers. ``[[1]](https://...)`` is a link citation (:func:`link_citations`), not
a marker: its address says which source it is. Never a marker: anything inside a code fence or an
inline code span, a bare URL or a link destination, the text of a markdown link ``[1](url)``, the
label of a reference-style link ``[text][1]``, a link or footnote definition ``[1]: ...`` / ``[^1]:
...`` at the start of a line, an escaped ``\\[1]``, a checkbox ``[x]``, a bracket naming 0, a
reversed or huge range, and array indexing in prose code. Indexing is told from a marker glued to a
word (``Paris[1]`` is a marker) by the word before it: a single character (``a[1]``), a name with
an underscore or an attribute access (``my_list[1]``, ``obj.items[2]``), or an index followed by
``(``, ``=`` or ``.name`` (``a[1].x``, ``f[2](x)``). ``Paris[1][2]`` is two markers, and so is
``so[12]`` in scraped Wikipedia text: a short name such as ``arr[2]`` cannot be told from prose, so
it reads as a marker (wrap code in backticks to be sure)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Literal

import msgspec

from attribution._errors import InputError
from attribution.text._regions import (
    URL,
    ProtectedRegions,
    SpanSet,
    code_spans,
    link_destinations,
    removal_edits,
    url_end,
)

__all__ = [
    "LABEL_WORD",
    "MARKER_STYLES",
    "UNNUMBERED",
    "Marker",
    "MarkerKind",
    "MarkerStyle",
    "NormalizedText",
    "find_markers",
    "format_marker",
    "link_citations",
    "markers_outside",
    "named_citations",
    "normalize_markers",
    "renumber_markers",
    "rewrite_marker",
    "written_style",
]

MarkerStyle = Literal["bracket", "citation", "footnote", "cjk"]
MarkerKind = MarkerStyle | Literal["link", "named"]
"""A style a marker is written in, or a citation without a number: ``link``, a link citation
(:func:`link_citations`); ``named``, a source named in words (``(Source: Orion docs)``)."""
UNNUMBERED: frozenset[MarkerKind] = frozenset({"link", "named"})
"""The kinds of marker that name their sources by address or title: the engine finds their
numbers, and never rewrites them."""
MARKER_STYLES: tuple[MarkerStyle, ...] = ("bracket", "citation", "footnote", "cjk")

# A range wider than this is not a citation marker ([1-2000] is more likely a span of years).
_MAX_RANGE = 50

_NUM = r"\d{1,6}(?:\s*[-–—]\s*\d{1,6})?"
_NUMS = rf"{_NUM}(?:\s*[,;]\s*{_NUM})*"
LABEL_WORD = r"(?:doc|sources?|cite|ref\.?)"
"""A word RAG tools and prompts write before a source's number: ``[doc1]``, ``[Source 2]``."""
_CANDIDATE = re.compile(
    rf"(?P<citation>\[\s*citation\s*:\s*(?P<cnums>{_NUMS})\s*\])"
    rf"|(?P<footnote>\[\^(?P<fnum>\d{{1,6}})\^?\])"
    rf"|(?P<cjk>【\s*(?P<jnums>{_NUMS})\s*(?:†[^】\n]{{0,80}})?】)"
    rf"|(?P<wide>［\s*(?P<wnums>{_NUMS})\s*］)"
    rf"|(?P<labelled>\[\s*{LABEL_WORD}\s*(?::\s*)?(?P<lnums>{_NUMS})\s*\])"
    rf"|(?P<bracket>\[\s*(?P<bnums>{_NUMS})\s*\])",
    re.IGNORECASE,
)
"""``labelled``: a number after a word, as RAG prompts and tools name their sources: ``[doc1]``
(Azure OpenAI on your data), ``[Source 2]``, ``[cite: 3]``, ``[ref. 4]``; bracket style."""
# obj.items / self.cache: a dotted name whose last part is a real identifier (not "e.g.", "U.S.")
_ATTRIBUTE = re.compile(r"[A-Za-z0-9_]\.[A-Za-z_][A-Za-z0-9_]+$")


class Marker(msgspec.Struct, frozen=True, kw_only=True):
    """One citation marker in a text: ``text[start:end] == marker.text``."""

    start: int
    """Offset of the marker's first character (code points)."""
    end: int
    """Offset just past the marker's last character."""
    text: str
    """The marker as written (``[1, 2]``)."""
    numbers: tuple[int, ...]
    """Citation numbers it names, in order, ranges expanded, without repeats."""
    style: MarkerKind
    """How it was written (``link``, ``named``: a link citation or a source named in words,
    never rewritten but for the number a link shows)."""


class NormalizedText(msgspec.Struct, frozen=True, kw_only=True):
    """A text with its markers rewritten."""

    text: str
    """The rewritten text; every character outside the markers is as it was."""
    markers: tuple[Marker, ...]
    """The markers of the rewritten text, with offsets into it."""
    unknown: tuple[Marker, ...] = ()
    """Markers of the original text that name numbers not in ``known`` (original offsets)."""
    unknown_numbers: tuple[int, ...] = ()
    """The unknown numbers, sorted."""


# ---------------------------------------------------------------------------------------------
# Parsing


def _parse_numbers(spec: str) -> tuple[int, ...] | None:
    """Numbers named by ``1, 3-5``; None when a number is 0 or a range is reversed or huge."""
    numbers: list[int] = []
    for part in re.split(r"\s*[,;]\s*", spec.strip()):
        bounds = re.split(r"\s*[-–—]\s*", part)
        lo, hi = int(bounds[0]), int(bounds[-1])
        if lo < 1 or hi < lo or hi - lo > _MAX_RANGE:
            return None
        numbers.extend(range(lo, hi + 1))
    return tuple(dict.fromkeys(numbers))


def _word_before(text: str, start: int) -> str:
    """The run of identifier characters and dots that ends at ``start`` (may be empty)."""
    i = start
    while i > 0 and (text[i - 1].isascii() and (text[i - 1].isalnum() or text[i - 1] in "_.")):
        i -= 1
    return text[i:start]


def _is_indexing(text: str, start: int, end: int) -> bool:
    """True when ``[n]`` glued to a word reads as array indexing rather than a citation."""
    word = _word_before(text, start)
    if not word:
        return False
    if len(word.rstrip(".")) <= 1 or "_" in word or _ATTRIBUTE.search(word):
        return True
    after = text[end : end + 2]
    return bool(after[:1] in ("(", "=") or re.match(r"\.[A-Za-z_]", after))


def _line_start(text: str, index: int) -> bool:
    """True when only indentation or blockquote marks stand before ``index`` on its line."""
    line_begin = text.rfind("\n", 0, index) + 1
    return not text[line_begin:index].strip(" \t>")


def _scan(text: str) -> list[Marker]:
    regions = ProtectedRegions(text)
    markers: list[Marker] = []
    for m in _CANDIDATE.finditer(text):
        start, end = m.span()
        if regions.covers(start) or start in regions.url_ends:
            continue  # inside code, a URL or a link target, or glued to a URL's end
        if start and text[start - 1] == "\\":
            continue
        style: MarkerStyle
        if m["citation"]:
            style, spec = "citation", m["cnums"]
        elif m["footnote"]:
            style, spec = "footnote", m["fnum"]
        elif m["cjk"]:
            style, spec = "cjk", m["jnums"]
        elif m["wide"]:  # full-width square brackets, as CJK text writes them: ［1］
            style, spec = "cjk", m["wnums"]
        elif m["labelled"]:  # "[doc1]", "[Source 2]": written back with their word
            style, spec = "bracket", m["lnums"]
        else:
            style, spec = "bracket", m["bnums"]
        if style != "cjk":
            if text[end : end + 1] == "(":
                continue  # the text of a markdown link: [1](https://...)
            if text[end : end + 1] == ":" and _line_start(text, start):
                continue  # a definition: [1]: https://... or [^1]: text
            if start and text[start - 1] == "]" and not (markers and markers[-1].end == start):
                continue  # the label of a reference-style link: [text][1]
            if start and text[start - 1] == "[" and _LINKED.match(text, end):
                continue  # the text of a link citation, [[1]](https://...): its address says

        if style == "bracket" and _is_indexing(text, start, end):
            continue
        numbers = _parse_numbers(spec)
        if numbers is None:
            continue
        markers.append(Marker(start=start, end=end, text=m.group(), numbers=numbers, style=style))
    return markers


def find_markers(text: str) -> list[Marker]:
    """Every citation marker in ``text``, in order, with exact offsets.

    Args:
        text: an answer, usually markdown.

    Returns:
        The markers; ``text[m.start:m.end] == m.text`` for each.
    """
    return _scan(text)


_LINKED = re.compile(r"\]\(<?(?:https?://|www\.)", re.IGNORECASE)
_LABEL = re.compile(r"\[\s*[A-Za-z][A-Za-z.]*\s*(?::\s*)?(?=\d)")
"""The word of a labelled marker and what follows it up to its number: ``[doc``, ``[Source ``."""
_SHOWN_NUMBER = re.compile(
    r"(?:^|(?<=\()|(?<=\( )|(?<=: )|(?<=, )|(?<=; ))\[\[?([1-9]\d{0,2})\]?\]\("
)
"""The number a link citation shows: its whole text (``[[1]](...)``, ``([1](...))``), not a
number inside a longer text (``[Regions, part [3]](...)``)."""
_NUMBER_TEXT = re.compile(r"\[([1-9]\d{0,2})\]|([1-9]\d?)")
"""A link's text that is a citation's number: ``[[1]](https://...)``, or ``[1](https://...)``
where the link ends a sentence or a run of citations (``Python [3](https://...) or later`` and
a year, ``[1889](https://...)``, read as text)."""
_ENDS_HERE = re.compile(r"[ \t]*(?:$|[.;!?\[【]|\n)")
_WEB = re.compile(r"<?(?:https?://|www\.)", re.IGNORECASE)
_BETWEEN_LINKS = re.compile(r"[ \t]*(?:[,;]|and\b)?[ \t]*")
_GROUP_LEAD = re.compile(
    r"\([ \t]*(?:(?:sources?|references?|citations?|via|see)[ \t]*:?[ \t]*)?$", re.IGNORECASE
)
"""What opens a group of link citations: ``(``, ``(Source: ``, ``(see ``."""
_LINK_TEXT_CHARS = 300
"""The longest text of a link read as a citation (its opening bracket is looked for no further)."""
_REFERENCE_LINK = re.compile(r"\[([^\[\]\n]{1,300}|\[\d{1,3}\])\]\[([^\[\]\n]{1,60})\]")
_LINK_DEFINITION = re.compile(r"^[ \t]{0,3}\[([^\]\n^]{1,60})\]:[ \t]*<?([^\s>]+)", re.MULTILINE)


def _link_open(text: str, close: int, lo: int) -> int:
    """Offset of the ``[`` that opens the link text closed at ``text[close]`` (``-1``: none on
    its line after ``lo``; nested brackets balanced)."""
    depth = 0
    for k in range(close - 1, lo - 1, -1):
        ch = text[k]
        if ch == "\n":
            return -1
        if ch == "]":
            depth += 1
        elif ch == "[":
            if depth == 0:
                return k
            depth -= 1
    return -1


def link_definitions(text: str) -> dict[str, str]:
    """The web addresses of the link definitions of ``text`` (``[1]: https://... "Title"``,
    outside code), by label in lower case: what a reference-style link ``[text][1]`` goes to."""
    if "]:" not in text:
        return {}
    hidden = SpanSet(code_spans(text))
    return {
        m[1].strip().lower(): m[2]
        for m in _LINK_DEFINITION.finditer(text)
        if _WEB.match(m[2]) and m.start() not in hidden
    }


def _is_number_citation(text: str, a: int, b: int, end: int) -> bool:
    """Whether the link text ``text[a:b]`` of a link ending at ``end`` is a citation's number."""
    m = _NUMBER_TEXT.fullmatch(text, a, b)
    return m is not None and (m[1] is not None or _ENDS_HERE.match(text, end) is not None)


def link_citations(text: str) -> list[Marker]:
    """The links an answer cites its sources with, as markers of style ``link`` naming no
    number yet (what a link names is told by its address, against the sources):
    ``([docs.example.com](https://...))`` or ``([a](https://...), [b](https://...))``, a
    group of web links alone inside parentheses (how search-grounded models cite), the same
    with reference-style links whose definitions are web addresses (``([docs.example.com][1])``
    and ``[1]: https://...``, as ChatGPT's copied answers write them), and a link whose text is
    a number, ``[[1]](https://...)``, or ``[1](https://...)`` ending a sentence. A link inside
    a sentence (``see [the docs](https://...)``) is read as its text, not as a citation; links
    in code, and images, are none.

    Returns:
        The link citations in order, ``text[m.start:m.end] == m.text``.
    """
    if "](" not in text and "][" not in text:
        return []
    hidden = SpanSet(code_spans(text))
    links: list[tuple[int, int, bool]] = []  # start, end, whether it is a number's citation
    lo = 0
    for s, e in link_destinations(text):
        if s in hidden or not _WEB.match(text, s + 1):
            continue
        # linear: a bracket no link opened is not looked at again
        k = _link_open(text, s - 1, max(lo, s - 1 - _LINK_TEXT_CHARS))
        lo = e
        if k < 0 or k in hidden or (k > 0 and text[k - 1] == "!"):
            continue
        links.append((k, e, _is_number_citation(text, k + 1, s - 1, e)))
    if "][" in text and (defined := link_definitions(text)):
        for m in _REFERENCE_LINK.finditer(text):
            image = m.start() > 0 and text[m.start() - 1] == "!"
            if m[2].strip().lower() in defined and m.start() not in hidden and not image:
                numeric = _is_number_citation(text, m.start(1), m.end(1), m.end())
                links.append((m.start(), m.end(), numeric))
        links.sort()
    found: list[Marker] = []
    i = 0
    while i < len(links):
        # a run of links with only commas, semicolons or blanks between them
        j = i
        while j + 1 < len(links) and _BETWEEN_LINKS.fullmatch(text, links[j][1], links[j + 1][0]):
            j += 1
        a, b = links[i][0], links[j][1]
        lead = _GROUP_LEAD.search(text, max(0, a - 40), a)
        after = b
        while after < len(text) and text[after] in " \t":
            after += 1
        if lead is not None and text.startswith(")", after):
            a, b = lead.start(), after + 1
            found.append(Marker(start=a, end=b, text=text[a:b], numbers=(), style="link"))
        else:
            found.extend(
                Marker(start=s, end=e, text=text[s:e], numbers=(), style="link")
                for s, e, numeric in links[i : j + 1]
                if numeric
            )
        i = j + 1
    return found


def link_addresses(link: Marker, definitions: Mapping[str, str]) -> list[str]:
    """The web addresses a link citation goes to: its links' destinations (not their texts or
    titles), and the definitions its reference-style links use."""
    text = link.text
    found: list[str] = []
    for s, e in link_destinations(text):
        destination = text[s + 1 : e - 1].strip()
        if destination.startswith("<"):
            destination = destination[1:].partition(">")[0]
        else:
            destination = destination.split(maxsplit=1)[0] if destination else ""
        if _WEB.match(destination):
            found.append(destination)
    for m in _REFERENCE_LINK.finditer(text):
        if (address := definitions.get(m[2].strip().lower())) is not None:
            found.append(address)
    return found


_NAMED = re.compile(
    r"(?:\([ \t]*(?i:sources?|references?|citations?)|\[[ \t]*(?:Sources?|SOURCES?|References?"
    r"|REFERENCES?|Citations?|CITATIONS?))[ \t]*:[ \t]*"
    r"(?=[^()\[\]\n]{0,200}[^\W\d_])[^()\[\]\n]{1,200}(?:\)|\](?!\())"
)
"""A source named in brackets after its label (capitalised in square brackets: "[source:
string]" is a schema's), not a link's text (``[Source: X](https://...)``)."""


def named_citations(text: str) -> list[Marker]:
    """The sources an answer names in words, in brackets: ``(Source: Orion Regions Overview)``,
    ``(Sources: Dublin launch; https://docs.example.com/regions)``, ``[Source: Reuters]``, as
    markers of style ``named`` naming no number yet (the engine reads the names as the answer
    key reads an entry: an address, else a source's title). None in code.

    Returns:
        The named citations in order, ``text[m.start:m.end] == m.text``.
    """
    if ":" not in text:
        return []
    found = [m for m in _NAMED.finditer(text)]
    if not found:
        return []
    # not in code, nor in an address ("https://github.com/search?q=(Source:x)")
    hidden = SpanSet(
        [
            *code_spans(text),
            *link_destinations(text),
            *((m.start(), url_end(text, m.start(), m.end())) for m in URL.finditer(text)),
        ]
    )
    return [
        Marker(start=m.start(), end=m.end(), text=m.group(), numbers=(), style="named")
        for m in found
        if m.start() not in hidden and _names_something(m.group())
    ]


_NAME_LIKE = re.compile(r"[A-Z0-9]|://|\.\w")
_KEY_VALUE = re.compile(r"\b[a-z]\w*:\s")


def _names_something(found: str) -> bool:
    """Whether a named citation with its label in lower case (``(source: ...)``) names a source:
    a capital, a digit or an address in its names, and no ``key: value`` of a log line or a
    schema (``(source: kafka, partition: 3)``, ``(source: stdin)``)."""
    label = found.lstrip("([ \t")
    if label[:1].isupper():
        return True
    names = found.split(":", 1)[1]
    return _NAME_LIKE.search(names) is not None and _KEY_VALUE.search(names) is None


# ---------------------------------------------------------------------------------------------
# Rewriting


def format_marker(numbers: Iterable[int], style: MarkerStyle) -> str:
    """Write a marker naming ``numbers`` in ``style`` (``[1, 2]``, ``[citation:1, 2]``, ...).

    Raises:
        InputError: no numbers, a number below 1, or an unknown style.
    """
    nums = list(dict.fromkeys(numbers))
    if not nums or any(n < 1 for n in nums):
        raise InputError(f"a marker needs citation numbers of 1 or more, got {nums}")
    joined = ", ".join(str(n) for n in nums)
    if style == "bracket":
        return f"[{joined}]"
    if style == "citation":
        return f"[citation:{joined}]"
    if style == "footnote":
        return "".join(f"[^{n}]" for n in nums)
    if style == "cjk":
        return f"【{joined}】"
    raise InputError(f"unknown marker style {style!r}; expected one of {MARKER_STYLES}")


def written_style(marker: Marker) -> MarkerStyle | None:
    """The style ``marker`` is written in; None for a link or named citation (no number)."""
    style = marker.style
    return None if style == "link" or style == "named" else style


def rewrite_marker(marker: Marker, numbers: Sequence[int], style: MarkerStyle | None) -> str:
    """``marker`` written again naming ``numbers``, in ``style`` (None: its own): a source's
    title after ``†`` stays where one number is written in the same style again (``【1†Regions】``
    renumbered is ``【3†Regions】``, not ``【3】``); a link or named citation is written as it
    was, the number a link shows aside (``[[1]](https://...)`` naming source 2 shows ``[[2]]``)."""
    own = written_style(marker)
    if own is None:
        shown = _SHOWN_NUMBER.search(marker.text)
        if shown and len(numbers) == 1 and marker.text.count("](") == 1:
            # "[[1]](https://...)" to the source numbered 2 shows "[[2]]": the number it shows
            # is the conversation's, as every other marker's
            return f"{marker.text[: shown.start(1)]}{numbers[0]}{marker.text[shown.end(1) :]}"
        return marker.text
    target = style or own
    new = format_marker(numbers, target)
    if style is None and own == "bracket" and (word := _LABEL.match(marker.text)) is not None:
        # "[doc2]" renumbered is "[doc1]", "[Source 2]" "[Source 1]", "[Sources 1, 2]" keeps
        # its word, "[doc1]" for two numbers is "[doc1][doc2]" (as Azure writes them)
        lead = word.group()
        if lead.rstrip(" :").lower() == "[doc" or len(numbers) == 1:
            return "".join(f"{lead}{n}]" for n in numbers)
        return f"{lead}{', '.join(str(n) for n in dict.fromkeys(numbers))}]"
    if target == marker.style == "cjk" and len(numbers) == 1 and len(marker.numbers) == 1:
        dagger = marker.text.find("†")
        if dagger >= 0:
            return f"{new[:-1]}{marker.text[dagger:]}"
    return new


def _rewrite(
    text: str,
    markers: list[Marker],
    new_numbers: Mapping[int, tuple[int, ...]],
    style: MarkerStyle | None,
) -> tuple[str, list[Marker]]:
    """Rewrite the markers at the given list positions; others are copied as they are. A
    marker left with no number goes with what only cited with it (:func:`removal_edits`)."""
    gone = [
        (m.start, m.end, i in new_numbers and not new_numbers[i]) for i, m in enumerate(markers)
    ]
    edits: list[tuple[int, int, str, int | None]] = [
        (a, b, new, None) for a, b, new in removal_edits(text, gone)
    ]
    edits += [
        (marker.start, marker.end, rewrite_marker(marker, new_numbers[i], style), i)
        for i, marker in enumerate(markers)
        if new_numbers.get(i)
    ]
    edits.sort(key=lambda e: (e[0], e[1]))
    pieces: list[str] = []
    out: list[Marker] = []
    cursor = 0
    length = 0
    for a, b, new, i in edits:
        pieces.append(text[cursor:a])
        length += a - cursor
        if i is not None:
            out.append(
                Marker(
                    start=length,
                    end=length + len(new),
                    text=new,
                    numbers=new_numbers[i],
                    style=style or markers[i].style,
                )
            )
        pieces.append(new)
        length += len(new)
        cursor = b
    pieces.append(text[cursor:])
    return "".join(pieces), out


def markers_outside(markers: Sequence[Marker], spans: Sequence[tuple[int, int]]) -> list[Marker]:
    """The markers that start in none of ``spans`` (sorted or not, overlapping or not)."""
    skipped = SpanSet(spans)
    return [m for m in markers if m.start not in skipped]


def normalize_markers(
    text: str,
    *,
    style: MarkerStyle = "citation",
    known: Collection[int] | None = None,
    drop_unknown: bool = False,
    skip: Sequence[tuple[int, int]] = (),
) -> NormalizedText:
    """Rewrite every marker in ``style``, keeping every other character of ``text``.

    Args:
        text: the answer.
        style: the style to write markers in (``[n]`` → ``[citation:n]`` with ``"citation"``).
        known: the citation numbers that exist (a registry's); None means all are known.
        drop_unknown: remove unknown numbers from markers, and a marker left with none
            together with the blank before it.
        skip: spans ``[start, end)`` that hold no marker: what only a markdown parser tells
            apart, such as an indented code block (``Segment.skip_reason == "code"``; fences
            and inline code are known here already).

    Returns:
        The rewritten text, its markers, and the markers that named unknown numbers.
    """
    if style not in MARKER_STYLES:
        raise InputError(f"unknown marker style {style!r}; expected one of {MARKER_STYLES}")
    markers = markers_outside(find_markers(text), skip)
    known_set = None if known is None else frozenset(known)
    unknown: list[Marker] = []
    unknown_numbers: set[int] = set()
    plan: dict[int, tuple[int, ...]] = {}
    for i, marker in enumerate(markers):
        numbers = marker.numbers
        if known_set is not None:
            missing = [n for n in numbers if n not in known_set]
            if missing:
                unknown.append(marker)
                unknown_numbers.update(missing)
                if drop_unknown:
                    numbers = tuple(n for n in numbers if n in known_set)
        plan[i] = numbers
    new_text, new_markers = _rewrite(text, markers, plan, style)
    return NormalizedText(
        text=new_text,
        markers=tuple(new_markers),
        unknown=tuple(unknown),
        unknown_numbers=tuple(sorted(unknown_numbers)),
    )


def renumber_markers(text: str, mapping: Mapping[int, int]) -> NormalizedText:
    """Replace citation numbers by ``mapping`` (numbers it lacks stay), keeping each style.

    Used after merging a subagent's registry into a shared one that had moved on: the merge
    returns the mapping from the subagent's numbers to the shared ones.
    """
    markers = find_markers(text)
    plan = {
        i: tuple(dict.fromkeys(mapping.get(n, n) for n in m.numbers))
        for i, m in enumerate(markers)
        if any(n in mapping for n in m.numbers)
    }
    new_text, _ = _rewrite(text, markers, plan, None)
    return NormalizedText(text=new_text, markers=tuple(find_markers(new_text)))
