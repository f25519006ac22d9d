"""The answer's own key to its numbers: a reference list or definitions that name the sources.

An answer written without the conversation's numbers in front of the model numbers its sources
its own way and says which is which under the text::

    Orion runs in Frankfurt [1]. Its Dublin region opened in 2024 [2].

    Sources:
    [1] Regions, https://docs.example.com/regions
    [2] https://blog.example.com/dublin

A reader follows ``[1]`` to the page the list names, whatever number the registry gave that
page. :func:`answer_key` reads such a key (``[n]: url`` link definitions and ``[^n]: ...``
footnote definitions anywhere, the ``[n]`` / ``【n】`` lines of a trailing reference list) and
resolves each entry to a source by address, else by title; the answer's markers are then read,
and written back, as the sources' numbers in the conversation (:meth:`AnswerKey.translate`).

The key is followed only where it can be followed all the way, else the answer is read as
before: every number the answer's markers use has an entry that names one source, or an
address that is none of them (a *foreign* number: it cites a page the engine was not given);
every entry's label can be rewritten (a numbered list, ``1. Title``, cannot: markdown numbers a
list from its first item); no reference-style link (``[text][1]``) uses a definition's label.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

import msgspec

from attribution.segment import ENTRY_LABEL, Segment, key_line_labels
from attribution.sources import canonical_url
from attribution.text import (
    LABEL_WORD,
    UNNUMBERED,
    URL,
    Marker,
    SpanSet,
    link_addresses,
    link_definitions,
    url_end,
)

__all__ = ["AnswerKey", "KeyedSource", "answer_key", "read_links"]

_DEFINITION = re.compile(
    rf"[ \t>]{{0,4}}\[(?P<caret>\^?)(?:{LABEL_WORD}[ \t]*)?(?P<n>\d{{1,6}})\]:"
    r"[ \t]*(?P<rest>[^\n]*)",
    re.IGNORECASE,
)
"""``[3]: https://...`` (a link definition, ``[doc3]: ...`` too) or ``[^3]: ...`` (a footnote
definition)."""
_LABELLED = re.compile(rf"[ \t>]{{0,4}}(?:[-*+][ \t]+)?{ENTRY_LABEL}[ \t]*(?P<rest>[^\n]*)")
"""A reference list's line whose label is a marker: ``[3] Title, https://...``, ``- [3] ...``,
``【3】 ...``, ``- **[3]** [Title](https://...)``."""
_BETWEEN_ENTRIES = " \t,;|·•"
_NUMBERED = re.compile(r"[ \t>]{0,4}(?:(?:[-*+][ \t]+)?\[\d{1,6}\]\(|\d{1,6}[.)][ \t])")
"""A reference list's line whose number cannot be rewritten: ``3. Title``, ``- [3](url)``."""
_LABEL_DIGITS = re.compile(r"\d{1,6}(?=\]:$)")
_LINK_LABEL = re.compile(r"\]\[(\d{1,6})\]|\[(\d{1,6})\]\[\]")
"""The end of a reference-style link that uses a numeric label: ``[text][3]``, ``[3][]``."""
_LINK_TEXT_CHARS = 300
_BARE_ADDRESS = re.compile(
    r"(?<![\w@/.-])(?:www\.[\w-]+(?:\.[\w-]+)+|[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|edu|gov|int"
    r"|io|co|ai|dev|app|info|uk|de|fr|es|it|nl|eu|ch|at|se|ca|au|in|jp|cn|us)/)[^\s<>()\[\]\"']*",
    re.IGNORECASE,
)
"""An address written without its scheme: ``www.example.com``, ``docs.example.com/regions``
(a dotted name alone is no address: ``Node.js``, ``Amazon.com, Inc.``, ``ASP.NET``, nor one
before a slash: ``Node.js/Express``)."""
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_NOT_TITLE = re.compile(r"[\s\-–—|:,;.*_\"'“”‘’()\[\]<>]+")

MAX_ENTRIES = 1_000
"""Entries read at most (an answer cites tens of sources; a hostile one could define a
hundred thousand, each compared with every source's title)."""
MIN_TITLE_CHARS = 12
"""A title shorter than this names a source only when an entry says nothing else ("Regions"
inside "Regions of the Roman Empire" is no match)."""


def _plain(text: str) -> str:
    """A title or an entry's words, compared loosely: case, punctuation and spacing aside."""
    return " ".join(_NOT_TITLE.sub(" ", text).casefold().split())


def _address(url: str) -> str:
    """What an address names, however it is written: its canonical form without the scheme
    and a leading ``www.`` (``http://www.example.com/a/`` and ``https://example.com/a`` are one
    page)."""
    canonical = canonical_url(url if "://" in url else f"https://{url}")
    bare = canonical.split("://", 1)[-1]
    return bare[4:] if bare.startswith("www.") else bare


_LANGUAGE = re.compile(r"^/[a-z]{2}(?:[-_][a-z]{2})?(?=/)")
_ENDING = re.compile(r"\.html?$")
_LANGUAGE_PARAMETERS = frozenset({"lang", "hl", "locale", "language"})


def _page(address: str) -> str:
    """The page an :func:`_address` shows, whatever its language or ending: without a leading
    language segment (``/en/``, ``/de-de/``), a language parameter (``?lang=en``) and an ending
    ``.html``; every other part of the query names another page (``watch?v=...``,
    ``item?id=...``)."""
    page, _, query = address.partition("?")
    host, _, path = page.partition("/")
    path = _ENDING.sub("", _LANGUAGE.sub("", f"/{path}", count=1)).rstrip("/")
    kept = [
        p for p in query.split("&") if p and p.split("=", 1)[0].lower() not in _LANGUAGE_PARAMETERS
    ]
    return host + path + ("?" + "&".join(kept) if kept else "")


class KeyedSource(msgspec.Struct, frozen=True):
    """A source an entry may name: its number in the conversation, address and title."""

    number: int
    uri: str | None = None
    title: str | None = None


class AnswerKey(msgspec.Struct, frozen=True):
    """What the answer's own numbers name: the sources' numbers in the conversation."""

    numbers: Mapping[int, int]
    """The answer's number → the number of the source its entry names."""
    foreign: frozenset[int]
    """The answer's numbers whose entry gives an address that is none of the sources: they cite
    a page the engine was not given (read as unknown numbers, dropped by default)."""
    labels: Mapping[int, int | None]
    """Each definition the key read, by the offset of its ``[``: the number it defines once the
    answer is rewritten (None: none, it stops being a definition; see :attr:`edits`)."""
    edits: tuple[tuple[int, int, str], ...]
    """``(start, end, text)``: the definition labels to rewrite (``[^1]:`` → ``[^2]:``), or to
    take out with the blanks after them where a translated number now takes a foreign page's
    number (the rewritten ``[2]`` must not link to that page)."""

    def translate(
        self, markers: Sequence[Marker], segments: Sequence[Segment]
    ) -> tuple[list[Marker], list[Segment], frozenset[tuple[int, int]]]:
        """The markers and segments with every number read through this key (a marker whose
        numbers change lists them in order), and the ``(marker start, number)`` of each foreign
        number (kept as written)."""
        foreign: set[tuple[int, int]] = set()
        cache: dict[int, Marker] = {}

        def read(m: Marker) -> Marker:
            if m.style in UNNUMBERED:
                return m  # its address named the source: its numbers are the conversation's
            if m.start in cache:
                return cache[m.start]
            numbers: list[int] = []
            for n in m.numbers:
                if n in self.foreign:
                    foreign.add((m.start, n))
                    numbers.append(n)
                else:
                    numbers.append(self.numbers.get(n, n))
            read_as = tuple(dict.fromkeys(numbers))
            if read_as != m.numbers:
                read_as = tuple(sorted(read_as))
            out = msgspec.structs.replace(m, numbers=read_as)
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


class _Entry(msgspec.Struct, frozen=True):
    """One entry of the key: the answer's number and what the entry says of it."""

    number: int
    text: str
    label: tuple[int, int, bool] | None = None
    """A definition's label: the offsets of ``[`` and of the first character after the blanks
    after ``:``, and whether it names a footnote; None: a reference list's line (its label is a
    marker)."""
    fixed: bool = False
    """A line whose number cannot be rewritten (``1. Title``)."""


def _entries(answer: str, segments: Sequence[Segment]) -> tuple[list[_Entry], SpanSet]:
    """The definitions anywhere outside code and comments, the lines of a trailing reference
    list (at most :data:`MAX_ENTRIES`), and the spans no entry or marker of the key is read in."""
    code = [(s.start, s.end) for s in segments if s.skip_reason == "code"]
    hidden = SpanSet([*code, *(m.span() for m in _COMMENT.finditer(answer))])
    listed = SpanSet([(s.start, s.end) for s in segments if s.skip_reason == "reference_list"])
    entries: list[_Entry] = []
    at = 0
    for line in answer.splitlines(keepends=True):
        start, at = at, at + len(line)
        if len(entries) >= MAX_ENTRIES:
            break
        body = line.rstrip("\r\n")
        bracketed = "[" in body or "［" in body or "【" in body
        if not bracketed and not (listed and body.lstrip(" \t>")[:1].isdigit()):
            continue
        lead = start + len(body) - len(body.lstrip(" \t>"))
        if lead in hidden:
            continue
        d = _DEFINITION.fullmatch(body)
        if d:
            label = (start + body.index("["), start + d.start("rest"), bool(d["caret"]))
            entries.append(_Entry(int(d["n"]), d["rest"], label))
            continue
        if start + len(body.rstrip()) - 1 not in listed:  # its last character: after "- "
            continue
        if found := key_line_labels(body, addressed=False)[: MAX_ENTRIES - len(entries)]:
            for m, after in zip(found, [*found[1:], None], strict=True):
                rest = body[m.end() : after.start() if after else len(body)]
                number = int(m["a"] or m["c"] or m["w"] or m["d"])
                entries.append(_Entry(number, rest.strip(_BETWEEN_ENTRIES)))
            continue
        e = _LABELLED.fullmatch(body)
        if e:
            entries.append(_Entry(int(e["a"] or e["c"] or e["w"] or e["d"]), e["rest"]))
        elif (n := _NUMBERED.match(body)) is not None:
            digits = re.search(r"\d{1,6}", n.group())
            assert digits is not None  # the pattern holds one
            entries.append(_Entry(int(digits.group()), body[n.end() :], fixed=True))
    return entries, hidden


def _titled(words: str, titles: Mapping[str, set[int]]) -> set[int]:
    """The sources whose title is an entry's words, or begins them as whole words when at
    least :data:`MIN_TITLE_CHARS` long ("Orion Regions Overview, docs.example.com"; not
    "Pricing - Orion Documentation" for "Orion Documentation", nor a note that mentions one)."""
    if words in titles:
        return set(titles[words])
    found: set[int] = set()
    for title, numbers in titles.items():
        if len(title) >= MIN_TITLE_CHARS and words.startswith(f"{title} "):
            found |= numbers
    return found


def _addresses(text: str) -> list[str]:
    """The addresses an entry gives, with or without a scheme."""
    found = [text[m.start() : url_end(text, m.start(), m.end())] for m in URL.finditer(text)]
    if found:
        return found
    return [
        text[m.start() : url_end(text, m.start(), m.end())] for m in _BARE_ADDRESS.finditer(text)
    ]


def _links_through(answer: str, defined: set[int], hidden: SpanSet) -> bool:
    """Whether a reference-style link uses one of the ``defined`` labels (``[the docs][1]``,
    ``[1][]``; ``[1][2]`` is two markers, as models write them). Linear: each link's text is
    looked for within :data:`_LINK_TEXT_CHARS` before it."""
    for m in _LINK_LABEL.finditer(answer):
        if m.start() in hidden or int(m[1] or m[2]) not in defined:
            continue
        if m[2] is not None:
            return True
        opened = answer.rfind("[", max(0, m.start() - _LINK_TEXT_CHARS), m.start())
        text = answer[opened + 1 : m.start()] if opened >= 0 else ""
        if text and "\n" not in text and not text.strip().isdigit():
            return True
    return False


def answer_key(
    answer: str,
    segments: Sequence[Segment],
    markers: Sequence[Marker],
    sources: Sequence[KeyedSource],
    *,
    keep_foreign: bool = False,
) -> AnswerKey | None:
    """The answer's own key to its numbers, or None when it has none the engine can follow.

    Args:
        answer: the answer.
        segments: its segments (code and its reference list are told by them).
        markers: its markers.
        sources: what an entry may name: the request's sources and the conversation's other
            registered ones (a page cited earlier in the conversation is no foreign page).
        keep_foreign: foreign numbers stay in the answer as written (``drop_unknown`` off):
            then no translated number may take one's number.

    Entries are resolved by address (:func:`_address`) or, without one, by title
    (:func:`_titled`). None (the answer is read as before) unless an entry names a source and
    the key changes something, and only where it can be followed all the way (the module's
    docstring).
    """
    entries, hidden = _entries(answer, segments)
    if not entries or any(e.fixed for e in entries):
        return None
    by_address, by_page = _address_index(sources)
    by_title: dict[str, set[int]] = {}
    for source in sources:
        if source.title and (title := _plain(source.title)):
            by_title.setdefault(title, set()).add(source.number)
    named: dict[int, set[int]] = {}
    addressed: set[int] = set()
    for entry in entries:
        found = named.setdefault(entry.number, set())
        addresses = _addresses(entry.text)
        words = _plain(entry.text)
        if addresses:
            addressed.add(entry.number)
            keys = [_address(a) for a in addresses]
            hits = [by_address.get(k, set()) for k in keys]
            found.update(*hits)
            if not all(hits):
                # the same page spelled another way (a query, a language path, an ending such
                # as .html); else a page that is none of them
                same = [
                    by_page.get(_page(k), set())
                    for k, hit in zip(keys, hits, strict=True)
                    if not hit
                ]
                found.update(set().union(*same) if all(same) else {0})
        elif words:
            found.update(_titled(words, by_title))
    numbers = {n: next(iter(f)) for n, f in named.items() if len(f) == 1 and 0 not in f}
    foreign = {n for n, f in named.items() if f == {0} or (not f and n in addressed)}
    if not numbers or all(n == m for n, m in numbers.items()):
        return None  # nothing to follow (a key that only makes numbers foreign is not followed)
    listed = SpanSet([(s.start, s.end) for s in segments if s.skip_reason == "reference_list"])
    used = {
        n for m in markers if m.start not in hidden and m.start not in listed for n in m.numbers
    }
    if not used <= numbers.keys() | foreign:
        return None  # a number the key leaves unread: following it would mix two numberings
    targets = set(numbers.values())
    # an entry the key cannot read (no source named, or two) whose number a rewritten one now
    # takes: its label goes, like a foreign one's (the rewritten marker must not point at it)
    # an entry's label that the conversation's numbering gives to another source goes too: a
    # marker the engine adds or rewrites with that number must not link to the entry's page
    known = {source.number for source in sources}
    unread = named.keys() - numbers.keys() - foreign
    foreign |= unread & (targets | known)
    if keep_foreign and foreign & (targets | known):
        return None
    defined = {e.number for e in entries if e.label is not None}
    if defined and _links_through(answer, defined, hidden):
        return None  # "[the docs][1]" links through the definition: it keeps its label
    labels: dict[int, int | None] = {}
    edits: list[tuple[int, int, str]] = []
    for entry in entries:
        if entry.label is None:
            continue
        a, b, _ = entry.label
        now = numbers.get(entry.number, entry.number)
        if entry.number in foreign and entry.number in targets | known:
            labels[a] = None
            edits.append((a, b, ""))
        else:
            labels[a] = now
            if now != entry.number:
                close = answer.index("]:", a) + 2
                # "[Source 1]:" keeps its word: only its number changes
                label = _LABEL_DIGITS.sub(str(now), answer[a:close], count=1)
                edits.append((a, close, label))
    return AnswerKey(numbers=numbers, foreign=frozenset(foreign), labels=labels, edits=tuple(edits))


def _address_index(
    sources: Sequence[KeyedSource],
) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
    """The sources' numbers by canonical address (:func:`_address`) and by page (:func:`_page`)."""
    by_address: dict[str, set[int]] = {}
    by_page: dict[str, set[int]] = {}
    for source in sources:
        if source.uri:
            key = _address(source.uri)
            by_address.setdefault(key, set()).add(source.number)
            by_page.setdefault(_page(key), set()).add(source.number)
    return by_address, by_page


def read_links(
    answer: str,
    markers: Sequence[Marker],
    segments: Sequence[Segment],
    sources: Sequence[KeyedSource],
) -> tuple[list[Marker], list[Segment]]:
    """The answer's markers and segments with each link citation (a marker of style ``link``,
    :func:`attribution.text.link_citations`) naming the sources its addresses name (the same
    page as the answer key tells it: :func:`_address`, :func:`_page`); a link that names none
    of them is no citation and goes (a page the engine was not given, or one the link names
    otherwise), and so does a marker written inside a link citation (``[[1]](https://...)``:
    the address says which source it is).

    Args:
        answer: the answer (or the part of it the segments are in): its link definitions
            say where reference-style links go.
        markers: every marker of the answer (:func:`attribution.text.find_markers`).
        segments: its segments, whose markers hold the link citations.
        sources: what a link may name, with the conversation's numbers.
    """
    links = [m for s in segments for m in s.markers if m.style in UNNUMBERED]
    if not links:
        return list(markers), list(segments)
    by_address, by_page = _address_index(sources)
    by_title: dict[str, set[int]] = {}
    if any(m.style == "named" for m in links):
        for source in sources:
            if source.title and (title := _plain(source.title)):
                by_title.setdefault(title, set()).add(source.number)
    definitions = link_definitions(answer)

    by_host: dict[str, set[int]] = {}
    for source in sources:
        if source.uri:
            by_host.setdefault(_address(source.uri).split("/", 1)[0], set()).add(source.number)

    def lookup(address: str) -> set[int]:
        key = _address(address)
        return by_address.get(key) or by_page.get(_page(key), set())

    def named_lookup(address: str) -> set[int]:
        key = _address(address)
        if "/" not in key and key not in by_address:
            return by_host.get(key, set())  # a site's name: the one page of it there is
        return lookup(address)

    read: dict[int, Marker | None] = {}
    for link in links:
        numbers: list[int] = []
        if link.style == "named":
            numbers = _named(link.text, by_title, named_lookup)
        else:
            for found in link_addresses(link, definitions):
                if len(hit := lookup(found)) == 1:
                    numbers.append(next(iter(hit)))
        read[link.start] = (
            msgspec.structs.replace(link, numbers=tuple(dict.fromkeys(numbers)))
            if numbers
            else None
        )
    inside = SpanSet([(m.start, m.end) for m in links])
    kept = [m for m in markers if m.start not in inside]
    kept += [m for m in read.values() if m is not None]
    kept.sort(key=lambda m: m.start)

    def own(segment: Segment) -> tuple[Marker, ...]:
        mine = (read.get(m.start) if m.style in UNNUMBERED else m for m in segment.markers)
        return tuple(m for m in mine if m is not None)

    new_segments = [
        msgspec.structs.replace(s, markers=own(s))
        if any(m.style in UNNUMBERED for m in s.markers)
        else s
        for s in segments
    ]
    return kept, new_segments


_NAMED_HEAD = re.compile(r"[(\[]\s*\w+\s*:\s*")
_DOMAIN = re.compile(r"(?:www\.)?[\w-]+(?:\.[\w-]+)+", re.IGNORECASE)
_NAME_SEPARATOR = re.compile(r"\s*[;,&|]\s*|\s+and\s+")


def _named(
    text: str, by_title: Mapping[str, set[int]], lookup: Callable[[str], set[int]]
) -> list[int]:
    """The sources a named citation names (``(Sources: Dublin launch; https://...)``): all its
    words as one title, else each name between separators, by its address or its title
    (:func:`_titled`: a title that begins a name names it too), each naming one source; none
    when a name names no source or several."""
    head = _NAMED_HEAD.match(text)
    words = text[head.end() if head else 1 : -1]
    whole = by_title.get(_plain(words), set())
    if len(whole) == 1:
        return list(whole)
    numbers: list[int] = []
    for name in _NAME_SEPARATOR.split(words):
        addresses = _addresses(name) or ([name.strip()] if _DOMAIN.fullmatch(name.strip()) else [])
        found = (
            set().union(*(lookup(a) for a in addresses))
            if addresses
            else _titled(_plain(name), by_title)
            if name.strip()
            else set()
        )
        if len(found) != 1:
            # "(Source: Orion Regions Overview, 2024)": a title that begins all the words
            begun = _titled(_plain(words), by_title)
            return list(begun) if len(begun) == 1 else []
        numbers.append(next(iter(found)))
    return list(dict.fromkeys(numbers))
