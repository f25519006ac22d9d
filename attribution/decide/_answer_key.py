"""The answer's own key to its numbers: a reference list or definitions that name the sources.

An answer written without the conversation's numbers in front of the model numbers its sources
its own way and says which is which under the text::

    Orion runs in Frankfurt [1]. Its Dublin region opened in 2024 [2].

    Sources:
    [1] Regions, https://docs.example.com/regions
    [2] https://blog.example.com/dublin

A reader follows ``[1]`` to the page the list names, whatever number the registry gave that
page. :func:`answer_key` reads such a key (a trailing reference list, ``[n]: url`` link
definitions, ``[^n]: ...`` footnote definitions) and resolves each entry to the request's
sources by address (canonical URLs), else by title; the answer's markers are then read, and
written back, as the sources' numbers in the conversation (:meth:`AnswerKey.translate`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence

import msgspec

from attribution._wire import CitationSource
from attribution.decide._types import Numbering
from attribution.segment import Segment
from attribution.sources import canonical_url
from attribution.text import URL, Marker, url_end

__all__ = ["AnswerKey", "answer_key"]

_DEFINITION = re.compile(r"^[ \t>]{0,4}\[(?P<caret>\^?)(?P<n>\d{1,6})\]:[ \t]*(?P<rest>[^\n]*)$")
"""``[3]: https://...`` (a link definition) or ``[^3]: ...`` (a footnote definition)."""
_ENTRY = re.compile(
    r"^[ \t>]{0,4}(?:[-*+][ \t]+)?(?:\[\^?(?P<a>\d{1,6})\]|(?P<b>\d{1,6})[.)])"
    r"[ \t]*(?P<rest>[^\n]*)$"
)
"""A line of a trailing reference list: ``[3] Title, https://...``, ``- [3] ...``, ``3. ...``."""
_NOT_TITLE = re.compile(r"[\s\-–—|:,;.*_\"'“”‘’()\[\]<>]+")


def _plain(text: str) -> str:
    """A title or an entry's words, compared loosely: case, punctuation and spacing aside."""
    return " ".join(_NOT_TITLE.sub(" ", text).casefold().split())


class AnswerKey(msgspec.Struct, frozen=True):
    """What the answer's own numbers name: the sources' numbers in the conversation."""

    numbers: Mapping[int, int]
    """The answer's number → the number of the source its entry names (resolved entries)."""
    foreign: frozenset[int]
    """The answer's numbers whose entry gives an address that is none of the request's
    sources: they cite a page the engine was not given (read as unknown numbers)."""
    labels: tuple[tuple[int, int, str], ...]
    """``(start, end, text)``: a definition's label (``[^1]:``) and what replaces it: the label
    of the number it now defines, or nothing where a translated number takes its number (the
    definition of a page outside the request, or of an entry that names no source, stops being
    one: the translated markers must not link to it)."""

    def translate(
        self, markers: Sequence[Marker], segments: Sequence[Segment]
    ) -> tuple[list[Marker], list[Segment], frozenset[tuple[int, int]]]:
        """The markers and segments with every number read through this key, and the
        ``(marker start, number)`` of each number that cites a page outside the request."""
        foreign: set[tuple[int, int]] = set()
        cache: dict[int, Marker] = {}

        def read(m: Marker) -> Marker:
            if m.start in cache:
                return cache[m.start]
            numbers: list[int] = []
            for n in m.numbers:
                if n in self.foreign:
                    foreign.add((m.start, n))
                    numbers.append(n)
                else:
                    numbers.append(self.numbers.get(n, n))
            out = msgspec.structs.replace(m, numbers=tuple(dict.fromkeys(numbers)))
            cache[m.start] = out
            return out

        new_markers = [read(m) for m in markers]
        new_segments = [
            msgspec.structs.replace(s, markers=tuple(read(m) for m in s.markers))
            if s.markers
            else s
            for s in segments
        ]
        return new_markers, new_segments, frozenset(foreign)

    def relabel(self, label: int) -> int | None:
        """The number a definition labelled ``label`` defines once the answer is rewritten (None:
        it is no definition any more)."""
        if label in self.numbers:
            return self.numbers[label]
        return None if label in set(self.numbers.values()) else label


class _Entry(msgspec.Struct, frozen=True):
    """One entry of the key: the answer's number and what the entry says of it."""

    number: int
    text: str
    label: tuple[int, int, bool] | None = None
    """A definition's label: its offsets (``[`` to ``:``) and whether it names a footnote
    (``[^1]:``); None: a line of a reference list, whose label is a marker."""


MAX_ENTRIES = 1_000
"""Entries read at most (an answer cites tens of sources; a hostile one could define a
hundred thousand, each compared with every source's title)."""


class _Spans:
    """Sorted, disjoint spans (segments of one kind), asked whether a range overlaps one."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        self.starts = [a for a, _ in spans]
        self.ends = [b for _, b in spans]

    def overlap(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` (at least its first character) overlaps a span."""
        k = bisect_right(self.ends, start)  # the first span that ends after ``start``
        return k < len(self.starts) and self.starts[k] < max(end, start + 1)


def _entries(answer: str, segments: Sequence[Segment]) -> list[_Entry]:
    """The definitions anywhere outside code, and the lines of a trailing reference list (at
    most :data:`MAX_ENTRIES`)."""
    code = _Spans([(s.start, s.end) for s in segments if s.skip_reason == "code"])
    listed = _Spans([(s.start, s.end) for s in segments if s.skip_reason == "reference_list"])
    entries: list[_Entry] = []
    at = 0
    for line in answer.splitlines(keepends=True):
        start, at = at, at + len(line)
        if len(entries) >= MAX_ENTRIES:
            break
        body = line.rstrip("\r\n")
        if "[" not in body and not listed.starts:
            continue
        if code.overlap(start, start + 1):
            continue
        d = _DEFINITION.match(body)
        if d:
            open_ = body.index("[")
            label = (start + open_, start + body.index("]:", open_) + 2, bool(d["caret"]))
            entries.append(_Entry(int(d["n"]), d["rest"], label))
            continue
        e = _ENTRY.match(body)
        if e and listed.overlap(start, start + len(body)):
            entries.append(_Entry(int(e["a"] or e["b"]), e["rest"], None))
    return entries


MIN_TITLE_CHARS = 12
"""A title shorter than this names a source only when an entry says nothing else ("Regions"
inside "Regions of the Roman Empire" is no match)."""


def _titled(words: str, titles: Mapping[str, set[int]]) -> set[int]:
    """The sources whose title is an entry's words, or stands in them as whole words when
    at least :data:`MIN_TITLE_CHARS` long ("Regions - Orion docs" names "Orion docs")."""
    if words in titles:
        return set(titles[words])
    found: set[int] = set()
    padded = f" {words} "
    for title, numbers in titles.items():
        if len(title) >= MIN_TITLE_CHARS and f" {title} " in padded:
            found |= numbers
    return found


def _resolve(
    entry: _Entry, by_url: Mapping[str, set[int]], by_title: Mapping[str, set[int]]
) -> set[int]:
    """The numbers of the sources an entry names: by address when it gives one, else by
    title."""
    urls = [
        entry.text[m.start() : url_end(entry.text, m.start(), m.end())]
        for m in URL.finditer(entry.text)
    ]
    if urls:
        found: set[int] = set()
        for url in urls:
            found |= by_url.get(canonical_url(url), set())
        return found
    words = _plain(entry.text)
    return _titled(words, by_title) if words else set()


def answer_key(
    answer: str,
    segments: Sequence[Segment],
    sources: Sequence[CitationSource],
    numbering: Numbering,
) -> AnswerKey | None:
    """The answer's own key to its numbers, or None when it has none that changes anything.

    Entries are resolved by address (a canonical URL equal to a source's) or, without one,
    by title (:func:`_titled`); a number whose entries name two sources resolves to nothing and
    is read as written. The key counts only when at least one entry resolves (a list of pages
    the caller did not give, or sources given without addresses or titles, change nothing);
    then every other entry's number is foreign: the answer says it cites something that is
    none of the request's sources.
    """
    entries = _entries(answer, segments)
    if not entries:
        return None
    by_url: dict[str, set[int]] = {}
    by_title: dict[str, set[int]] = {}
    for index, source in enumerate(sources):
        number = numbering.numbers[index]
        if source.uri:
            by_url.setdefault(canonical_url(source.uri), set()).add(number)
        if source.title and _plain(source.title):
            by_title.setdefault(_plain(source.title), set()).add(number)
    named: dict[int, set[int]] = {}
    for entry in entries:
        named.setdefault(entry.number, set()).update(_resolve(entry, by_url, by_title))
    numbers = {n: next(iter(found)) for n, found in named.items() if len(found) == 1}
    if not numbers:
        return None
    foreign = frozenset(n for n, found in named.items() if not found)
    if not foreign and all(n == m for n, m in numbers.items()):
        return None
    key = AnswerKey(numbers=numbers, foreign=foreign, labels=())
    labels: list[tuple[int, int, str]] = []
    for entry in entries:
        if entry.label is None:
            continue
        a, b, caret = entry.label
        now = key.relabel(entry.number)
        if now != entry.number:
            labels.append((a, b, "" if now is None else f"[{'^' if caret else ''}{now}]:"))
    return msgspec.structs.replace(key, labels=tuple(labels))
