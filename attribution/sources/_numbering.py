"""The per-conversation citation registry: each source gets a small, stable number ``[n]``.

Numbers are handed out find-or-create by a stable source key, in increasing order, and never
reused or reassigned, so an ``[n]`` written in any turn keeps its meaning for the whole
conversation. One registry is shared by an orchestrator and its subagents: in one process they
share the object (it is thread-safe); a subagent that worked on a copy merges it back and gets
the mapping from its numbers to the shared ones.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import msgspec

from attribution._errors import InputError
from attribution._wire import CitationSource, SourceType, WireStruct, decode_json, encode_json
from attribution.sources._keys import Locator, is_web_url, make_source_key, source_key
from attribution.sources._urls import canonical_url, domain_of

__all__ = ["CitationRegistry", "RegistryEntry", "RegistrySnapshot", "SourceDisplay"]

_FORMAT_VERSION = 1


class SourceDisplay(WireStruct, frozen=True):
    """What a reader is shown for a registered source."""

    title: str | None = None
    """Title of the source."""
    uri: str | None = None
    """Address of the source."""
    domain: str | None = None
    """Host of the address, for display."""


MAX_NUMBER = 999_999
"""The largest citation number: a marker names six digits at most (``attribution.text``)."""


class RegistryEntry(WireStruct, frozen=True):
    """One registered source and its number."""

    number: int
    """The citation number, ``[number]`` in answers; 1 or more."""
    source_key: str
    """The stable key the source is recognised by (``kb_chunk:42:880``)."""
    source_type: SourceType
    """The source's type."""
    locator: tuple[str, ...]
    """What identifies the source within its type, as registered."""
    display: SourceDisplay = SourceDisplay()
    """Title, address and domain for display."""


class RegistrySnapshot(WireStruct, frozen=True, omit_defaults=False):
    """A registry as JSON: its format version and its entries in number order."""

    entries: tuple[RegistryEntry, ...] = ()
    """Every entry, by increasing number."""
    version: int = _FORMAT_VERSION
    """Format version of this snapshot."""


def _fill(old: SourceDisplay, new: SourceDisplay | None) -> SourceDisplay:
    """``old`` with the fields it lacks taken from ``new``."""
    if new is None:
        return old
    changes = {
        f: getattr(new, f)
        for f in old.__struct_fields__
        if getattr(old, f) is None and getattr(new, f) is not None
    }
    return msgspec.structs.replace(old, **changes) if changes else old


class CitationRegistry:
    """Numbers the sources of one conversation. Thread-safe.

    Example::

        registry = CitationRegistry()
        n = registry.register("kb_chunk", (42, 880), SourceDisplay(title="Handbook"))
        assert registry.register("kb_chunk", ("42", "880")) == n   # find, not create
        registry.resolve(n).source_key                              # 'kb_chunk:42:880'
    """

    def __init__(self, entries: Sequence[RegistryEntry] = ()) -> None:
        self._lock = threading.RLock()
        self._by_number: dict[int, RegistryEntry] = {}
        self._by_key: dict[str, int] = {}
        self._next = 1
        for entry in sorted(entries, key=lambda e: e.number):
            if not 1 <= entry.number <= MAX_NUMBER:
                raise InputError(
                    f"registry entry {entry.source_key!r} has number {entry.number}, outside "
                    f"1..{MAX_NUMBER} (a marker names six digits at most)"
                )
            if entry.number in self._by_number:
                raise InputError(f"registry number {entry.number} is given twice")
            if entry.source_key in self._by_key:
                raise InputError(f"registry source key {entry.source_key!r} is given twice")
            self._by_number[entry.number] = entry
            self._by_key[entry.source_key] = entry.number
            self._next = entry.number + 1

    # -- registering ----------------------------------------------------------------------

    def _find_or_create(
        self,
        key: str,
        source_type: SourceType,
        locator: tuple[str, ...],
        display: SourceDisplay | None,
    ) -> int:
        with self._lock:
            number = self._by_key.get(key)
            if number is not None:
                entry = self._by_number[number]
                filled = _fill(entry.display, display)
                if filled is not entry.display:
                    self._by_number[number] = msgspec.structs.replace(entry, display=filled)
                return number
            number = self._next
            self._next += 1
            self._by_number[number] = RegistryEntry(
                number=number,
                source_key=key,
                source_type=source_type,
                locator=locator,
                display=display or SourceDisplay(),
            )
            self._by_key[key] = number
            return number

    def register(
        self, source_type: SourceType, locator: Locator, display: SourceDisplay | None = None
    ) -> int:
        """Find or create the number of a source.

        Args:
            source_type: the source's type (``kb_chunk``, ``web_result``, ...).
            locator: what identifies it within its type: a URL for web sources,
                ``(document_id, chunk_id)`` for a chunk, a single id otherwise.
            display: title, address and domain to show; fields missing from an existing
                entry are filled in, present ones are kept.

        Returns:
            The source's number: the existing one when its key is registered, else the next.

        Raises:
            InputError: unknown type or empty locator.
        """
        key = make_source_key(source_type, locator)
        parts = [locator] if isinstance(locator, str | int) else list(locator)
        texts = tuple(str(p).strip() for p in parts)
        display = display or SourceDisplay()
        if display.uri is None and source_type in ("web", "web_result") and is_web_url(texts[0]):
            display = msgspec.structs.replace(display, uri=texts[0])
        if display.domain is None and display.uri:
            display = msgspec.structs.replace(display, domain=domain_of(display.uri))
        return self._find_or_create(key, source_type, texts, display)

    def register_source(self, source: CitationSource) -> int:
        """Find or create the number of a :class:`CitationSource` (keyed by ``source_key``)."""
        key = source_key(source)
        web = source.type in ("web", "web_result") and is_web_url(source.uri)
        locator = (canonical_url(source.uri),) if web and source.uri else (source.id,)
        display = SourceDisplay(
            title=source.title, uri=source.uri, domain=source.domain or domain_of(source.uri)
        )
        return self._find_or_create(key, source.type, locator, display)

    # -- looking up -----------------------------------------------------------------------

    def resolve(self, number: int) -> RegistryEntry | None:
        """The entry numbered ``number``, or None when there is none."""
        with self._lock:
            return self._by_number.get(number)

    def number_of(self, key: str) -> int | None:
        """The number registered for a source key, or None."""
        with self._lock:
            return self._by_key.get(key)

    def lookup(self, source_type: SourceType, locator: Locator) -> int | None:
        """The number of a source if it is registered, without registering it."""
        return self.number_of(make_source_key(source_type, locator))

    def numbers(self) -> frozenset[int]:
        """Every number in use."""
        with self._lock:
            return frozenset(self._by_number)

    def entries(self) -> list[RegistryEntry]:
        """Every entry, by increasing number."""
        with self._lock:
            return [self._by_number[n] for n in sorted(self._by_number)]

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_number)

    def __iter__(self) -> Iterator[RegistryEntry]:
        return iter(self.entries())

    def __contains__(self, number: object) -> bool:
        with self._lock:
            return number in self._by_number

    # -- persistence and merging ------------------------------------------------------------

    def snapshot(self) -> RegistrySnapshot:
        """The registry as an immutable value."""
        return RegistrySnapshot(entries=tuple(self.entries()))

    def to_json(self) -> bytes:
        """The registry as JSON (a :class:`RegistrySnapshot`)."""
        return encode_json(self.snapshot())

    @classmethod
    def from_snapshot(cls, snapshot: RegistrySnapshot) -> CitationRegistry:
        """A registry holding the snapshot's entries.

        Raises:
            InputError: an unsupported version, a number below 1, or a number or key given twice.
        """
        if snapshot.version != _FORMAT_VERSION:
            raise InputError(
                f"registry format version {snapshot.version} is not supported "
                f"(this library reads version {_FORMAT_VERSION})"
            )
        return cls(snapshot.entries)

    @classmethod
    def from_json(cls, data: bytes | str, *, what: str = "registry") -> CitationRegistry:
        """A registry from JSON written by :meth:`to_json`.

        Raises:
            InputError: malformed JSON, an unknown field, or an inconsistent registry.
        """
        return cls.from_snapshot(decode_json(data, RegistrySnapshot, what=what))

    def copy(self) -> CitationRegistry:
        """An independent copy (for a subagent that works apart and merges back)."""
        return CitationRegistry(self.entries())

    def merge(self, other: CitationRegistry | RegistrySnapshot) -> dict[int, int]:
        """Bring another registry's sources into this one.

        A source already here keeps its number. A new source keeps the number it had in
        ``other`` when that number is unused here and not below this registry's next number
        (so a subagent that worked on a copy keeps its numbers when nothing else registered
        meanwhile); otherwise it gets the next number.

        Returns:
            For every entry of ``other``, its number there → its number here. Apply it to the
            subagent's text with :func:`renumber_markers` when any number changed.
        """
        entries = other.entries if isinstance(other, RegistrySnapshot) else other.entries()
        mapping: dict[int, int] = {}
        with self._lock:
            for entry in sorted(entries, key=lambda e: e.number):
                existing = self._by_key.get(entry.source_key)
                if existing is not None:
                    self._find_or_create(
                        entry.source_key, entry.source_type, entry.locator, entry.display
                    )
                    mapping[entry.number] = existing
                    continue
                if entry.number >= self._next and entry.number not in self._by_number:
                    self._next = entry.number
                mapping[entry.number] = self._find_or_create(
                    entry.source_key, entry.source_type, entry.locator, entry.display
                )
        return mapping
