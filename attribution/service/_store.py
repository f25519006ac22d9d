"""Conversation registries in a database, so a restart (or a second worker) loses nothing.

:class:`ConversationStore` is the interface the service codes against;
:class:`SqliteConversationStore` is the default implementation (standard-library ``sqlite3``,
WAL mode, one file: one machine); :class:`attribution.service._postgres.PostgresConversationStore`
serves several replicas on several machines (``ATTRIBUTION_DATABASE_URL``). Both share the
numbering logic of :class:`SqlConversationStore`; :func:`open_store` picks one from the settings.

Numbering is the in-memory :class:`attribution.CitationRegistry`'s, made durable and shared: a
source's number is found or created by its stable source key, numbers go up from 1 and are never
reused, and display fields missing from an entry are filled in but never overwritten. Every
agent of a conversation (an orchestrator and its subagents, in any worker process) registers into
the same rows, so they share one numbering.

Concurrency: each find-or-create runs in a ``BEGIN IMMEDIATE`` transaction, which takes SQLite's
single write lock *before* reading the conversation's highest number, so no other connection -
another thread, or another process on the same file - can hand out the same number in between.
Waiting for that lock is bounded by ``busy_timeout``. Reads need no transaction: in WAL mode
they see the last committed state and never block writers.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar, cast, runtime_checkable

import msgspec

from attribution import (
    SOURCE_TYPES,
    AttributionError,
    CitationRegistry,
    CitationSource,
    ConfigError,
    InputError,
    RegistryEntry,
    SourceDisplay,
    SourceType,
)

__all__ = [
    "DEFAULT_MAX_ENTRIES",
    "ConversationFull",
    "ConversationStore",
    "Registration",
    "RegistrationOutcome",
    "SqlConversationStore",
    "SqliteConversationStore",
    "StoreError",
    "open_store",
    "validate_conversation_id",
]

MAX_CONVERSATION_ID_CHARS = 200
"""Longest conversation id accepted."""

DEFAULT_MAX_ENTRIES = 10_000
"""Most sources one conversation's registry holds unless the store is given another cap."""

SCHEMA_VERSION = 1
"""The schema version this code writes; :data:`_MIGRATIONS` brings older files up to it."""

_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

# Migration n takes a database from version n - 1 to n. Statements run one by one inside one
# transaction (``executescript`` would commit halfway), so a failed migration leaves nothing.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        f"""
        CREATE TABLE conversations (
            id          TEXT PRIMARY KEY NOT NULL,
            created_at  TEXT NOT NULL DEFAULT ({_NOW})
        )
        """,
        f"""
        CREATE TABLE registry_entries (
            conversation_id  TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            number           INTEGER NOT NULL CHECK (number >= 1),
            source_key       TEXT NOT NULL,
            source_type      TEXT NOT NULL,
            locator_json     TEXT NOT NULL,
            display_json     TEXT NOT NULL,
            created_at       TEXT NOT NULL DEFAULT ({_NOW}),
            PRIMARY KEY (conversation_id, number),
            UNIQUE (conversation_id, source_key)
        )
        """,
    ),
}

T = TypeVar("T")

Locator = str | int | Sequence[str | int]
"""What identifies a source within its type (as :meth:`attribution.CitationRegistry.register`)."""


class StoreError(AttributionError):
    """The database failed: it stayed locked past the busy timeout, a row is corrupt, the disk
    failed, or the store is closed. The service answers 503: retrying later may work."""


class ConversationFull(AttributionError):
    """Registering would take a conversation past the store's cap on its sources; nothing of
    the call was registered. The service answers 409: the same call will fail again, while
    sources the conversation already holds can still be registered (found) and cited."""

    def __init__(self, conversation_id: str, held: int, adding: int, limit: int) -> None:
        super().__init__(
            f"conversation {conversation_id!r} is full: it holds {held} sources and this would "
            f"add {adding} new ones; the limit (max_conversation_sources) is {limit}"
        )
        self.conversation_id = conversation_id
        self.held = held
        self.adding = adding
        self.limit = limit


# -- the interface ------------------------------------------------------------------------------


class RegistrationOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """What registering one source gave."""

    source_id: str
    """The registered source's id (``CitationSource.id``)."""
    entry: RegistryEntry
    """The source's entry in the conversation, after the registration."""
    created: bool
    """True when this call created the number (every source of the call sharing it says so)."""


class Registration(msgspec.Struct, frozen=True, kw_only=True):
    """What registering a batch of sources gave: one outcome per source, and the registry."""

    outcomes: tuple[RegistrationOutcome, ...]
    """One per source given, in the order given."""
    registry: CitationRegistry
    """Part of the conversation's registry right after the registration: the entries of the
    sources given and of the ``cited`` numbers that exist, enough to attribute an answer
    (its known numbers are those it cites); not the whole registry, which may be large."""


@runtime_checkable  # litestar checks injected values against the annotation
class ConversationStore(Protocol):
    """Durable per-conversation citation registries, shared by every worker of the service.

    Implementations are thread-safe, and several processes may use one database at once.
    Conversation ids are checked with :func:`validate_conversation_id`.

    Each conversation holds at most ``max_entries`` sources (a cap the implementation is
    built with, :data:`DEFAULT_MAX_ENTRIES` by default): a call that would create more raises
    :class:`ConversationFull` and registers nothing. No call loads a whole registry except
    :meth:`registry`; the service pages with :meth:`entries`.
    """

    @property
    def max_entries(self) -> int:
        """The most sources one conversation holds."""
        ...

    def register_sources(
        self,
        conversation_id: str,
        sources: Sequence[CitationSource],
        *,
        cited: Collection[int] = (),
        cited_keys: Collection[str] = (),
    ) -> CitationRegistry:
        """Find or create every source's number in the conversation, all in one transaction.

        Args:
            conversation_id: the conversation.
            sources: the sources to number.
            cited: numbers an answer cites, whose entries are wanted too (unknown ones are
                left out: that is how an answer's unknown numbers are told).
            cited_keys: source keys whose entries are wanted too, where they exist (the pages
                an answer links to or names by address: ``web_result:<canonical url>``).

        Returns:
            The entries of ``sources`` and of the ``cited`` numbers that exist (see
            :attr:`Registration.registry`), as a registry.

        Raises:
            InputError: a bad conversation id, or a source the registry cannot key.
            ConversationFull: the new sources would take the conversation past the cap.
        """
        ...

    def register_sources_detailed(
        self,
        conversation_id: str,
        sources: Sequence[CitationSource],
        *,
        cited: Collection[int] = (),
        cited_keys: Collection[str] = (),
    ) -> Registration:
        """Like :meth:`register_sources`, also telling each source's number and if it is new."""
        ...

    def register(
        self,
        conversation_id: str,
        source_type: SourceType,
        locator: Locator,
        display: SourceDisplay | None = None,
    ) -> RegistryEntry:
        """Find or create the number of one source given by type and locator.

        Returns:
            The source's entry (its display filled in from ``display`` where it lacked fields).

        Raises:
            InputError: a bad conversation id, an unknown type or an empty locator.
            ConversationFull: the source is new and the conversation is full.
        """
        ...

    def registry(self, conversation_id: str) -> CitationRegistry:
        """The conversation's whole registry; an empty one for a conversation never seen."""
        ...

    def entries(
        self, conversation_id: str, *, after: int = 0, limit: int = 1000
    ) -> list[RegistryEntry]:
        """At most ``limit`` entries numbered above ``after``, by increasing number."""
        ...

    def resolve(self, conversation_id: str, number: int) -> RegistryEntry | None:
        """The entry numbered ``number`` in the conversation, or None."""
        ...

    def check(self) -> str | None:
        """None when the store can serve now; else why not (``/readyz`` reports it)."""
        ...

    def close(self) -> None:
        """Release the store's connections; calling it again does nothing."""
        ...


def open_store(
    *,
    database_url: str | None,
    database_path: str | os.PathLike[str],
    max_entries: int = DEFAULT_MAX_ENTRIES,
) -> ConversationStore:
    """The store the settings name: PostgreSQL when ``database_url`` is given (the
    ``postgres`` extra), else the SQLite file at ``database_path``.

    Raises:
        ConfigError: the file cannot be opened, the URL is not a PostgreSQL URL, or the
            PostgreSQL driver is not installed. An unreachable PostgreSQL server is not an
            error here: the store reports it (:meth:`ConversationStore.check`) and recovers.
    """
    if database_url:
        from ._postgres import PostgresConversationStore

        return PostgresConversationStore(database_url, max_entries=max_entries)
    return SqliteConversationStore(database_path, max_entries=max_entries)


def migrate(
    conn: Any,
    migrations: dict[int, tuple[str, ...]],
    latest: int,
    placeholder: str,
    newer: type[Exception],
    name: str,
) -> None:
    """Bring a database's schema up to ``latest`` inside the caller's transaction: migration n
    takes it from version n - 1 to n; the version is kept in ``schema_version``.

    Raises:
        newer: the database's schema is newer than ``latest`` (this code is older).
    """
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    current = int(row[0]) if row and row[0] is not None else 0
    if current > latest:
        raise newer(
            f"conversation store {name} has schema version {current}, newer than this "
            f"service's {latest}; upgrade the service"
        )
    for version in range(current + 1, latest + 1):
        for statement in migrations[version]:
            conn.execute(statement)
        conn.execute("DELETE FROM schema_version")
        conn.execute(f"INSERT INTO schema_version (version) VALUES ({placeholder})", (version,))


def validate_conversation_id(conversation_id: str) -> str:
    """Check a conversation id: 1 to 200 printable characters, not only spaces, no ``/`` (a
    path could not name it) and no U+FFFD (an undecodable byte of a path).

    Returns:
        The id, unchanged.

    Raises:
        InputError: the id is empty, too long, blank, or holds a control character, ``/`` or
            U+FFFD.
    """
    if not isinstance(conversation_id, str):
        raise InputError(f"conversation id must be a string, not {type(conversation_id).__name__}")
    if not 1 <= len(conversation_id) <= MAX_CONVERSATION_ID_CHARS:
        raise InputError(
            f"conversation id must have 1..{MAX_CONVERSATION_ID_CHARS} characters, "
            f"not {len(conversation_id)}"
        )
    if not conversation_id.isprintable() or not conversation_id.strip():
        raise InputError(
            f"conversation id {conversation_id!r} must be printable characters, not only spaces"
        )
    if "/" in conversation_id:
        # /v1/conversations/{id}/... could not name it: the body and the path take one set
        raise InputError(
            f"conversation id {conversation_id!r} must not hold '/' (a URL path could not name it)"
        )
    if "\ufffd" in conversation_id:
        # what an undecodable byte of a path becomes: two different paths would share one id
        raise InputError(
            f"conversation id {conversation_id!r} holds U+FFFD, the mark of text that was not "
            "UTF-8; ids are UTF-8 text"
        )
    return conversation_id


# -- SQLite ------------------------------------------------------------------------------------


def _source_type(value: str) -> SourceType:
    if value not in SOURCE_TYPES:
        raise StoreError(f"conversation store holds an unknown source type {value!r}")
    return cast(SourceType, value)


def _row_entry(row: sqlite3.Row | tuple[object, ...]) -> RegistryEntry:
    """An entry from a ``(number, source_key, source_type, locator_json, display_json)`` row."""
    number, key, source_type, locator_json, display_json = row
    try:
        return RegistryEntry(
            number=cast(int, number),
            source_key=cast(str, key),
            source_type=_source_type(cast(str, source_type)),
            locator=msgspec.json.decode(cast(str, locator_json), type=tuple[str, ...]),
            display=msgspec.json.decode(cast(str, display_json), type=SourceDisplay),
        )
    except msgspec.DecodeError as exc:
        raise StoreError(f"conversation store: corrupt entry [{number}] {key!r}") from exc


def _fill(old: SourceDisplay, new: SourceDisplay) -> SourceDisplay:
    """``old`` with the fields it lacks taken from ``new`` (never overwriting one it has)."""
    changes = {
        f: getattr(new, f)
        for f in old.__struct_fields__
        if getattr(old, f) is None and getattr(new, f) is not None
    }
    return msgspec.structs.replace(old, **changes) if changes else old


_MAX_NUMBER = 2**63 - 1  # SQLite's INTEGER; a larger number cannot be bound, let alone stored
_ENTRY_COLUMNS = "number, source_key, source_type, locator_json, display_json"


class SqlConversationStore:
    """What the SQL stores share: numbering, limits and lookups, written once over a DB-API
    connection (``conn.execute(sql, params)`` giving a cursor), with ``?`` placeholders.

    A subclass supplies :meth:`_write` (run a function in a transaction that serialises
    numbering within a conversation), :meth:`_read`, and where needed :attr:`_placeholder` and
    :meth:`_lock_conversation`.
    """

    _placeholder = "?"
    _max_entries: int

    @property
    def max_entries(self) -> int:
        """The most sources one conversation holds."""
        return self._max_entries

    def _write(self, work: Callable[[Any], T]) -> T:
        raise NotImplementedError

    def _read(self, work: Callable[[Any], T]) -> T:
        raise NotImplementedError

    def check(self) -> str | None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _q(self, sql: str) -> str:
        """``sql`` with this database's placeholders (the SQL here holds no other ``?``)."""
        return sql if self._placeholder == "?" else sql.replace("?", self._placeholder)

    def _lock_conversation(self, conn: Any, conversation_id: str) -> None:
        """Hold the conversation's numbering until the transaction ends (after the
        conversation's row exists). SQLite's ``BEGIN IMMEDIATE`` already holds the database's
        one write lock, so there is nothing more to take there."""

    def _exec(self, conn: Any, sql: str, params: Sequence[object] = ()) -> Any:
        return conn.execute(self._q(sql), params)

    # -- registering ----------------------------------------------------------------------------

    def _store_entry(
        self, conn: Any, conversation_id: str, wanted: RegistryEntry
    ) -> tuple[RegistryEntry, bool]:
        """Find or create ``wanted`` (its number ignored) inside the caller's write transaction."""
        row = self._exec(
            conn,
            f"SELECT {_ENTRY_COLUMNS} FROM registry_entries "
            "WHERE conversation_id = ? AND source_key = ?",
            (conversation_id, wanted.source_key),
        ).fetchone()
        if row is not None:
            entry = _row_entry(row)
            filled = _fill(entry.display, wanted.display)
            if filled is entry.display:
                return entry, False
            self._exec(
                conn,
                "UPDATE registry_entries SET display_json = ? "
                "WHERE conversation_id = ? AND number = ?",
                (msgspec.json.encode(filled).decode(), conversation_id, entry.number),
            )
            return msgspec.structs.replace(entry, display=filled), False
        # Safe only because the transaction holds the conversation's numbering (see _write).
        entry = msgspec.structs.replace(wanted, number=self._held(conn, conversation_id) + 1)
        self._exec(
            conn,
            "INSERT INTO registry_entries "
            "(conversation_id, number, source_key, source_type, locator_json, display_json) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                conversation_id,
                entry.number,
                entry.source_key,
                entry.source_type,
                msgspec.json.encode(list(entry.locator)).decode(),
                msgspec.json.encode(entry.display).decode(),
            ),
        )
        return entry, True

    def _held(self, conn: Any, conversation_id: str) -> int:
        """How many sources the conversation holds: numbers go up from 1 and are never reused
        or skipped, so the highest is the count (and the primary key finds it at once)."""
        (highest,) = self._exec(
            conn,
            "SELECT coalesce(max(number), 0) FROM registry_entries WHERE conversation_id = ?",
            (conversation_id,),
        ).fetchone()
        return int(highest)

    def _numbered(
        self, conn: Any, conversation_id: str, numbers: Sequence[int]
    ) -> list[RegistryEntry]:
        """The entries of those of ``numbers`` that exist."""
        return self._entries_where(conn, conversation_id, "number", numbers)

    def _keyed(self, conn: Any, conversation_id: str, keys: Sequence[str]) -> list[RegistryEntry]:
        """The entries of those of the source ``keys`` that exist."""
        return self._entries_where(conn, conversation_id, "source_key", keys)

    def _entries_where(
        self, conn: Any, conversation_id: str, column: str, values: Sequence[object]
    ) -> list[RegistryEntry]:
        """The conversation's entries whose ``column`` (``number``, ``source_key``) is one of
        ``values``."""
        found: list[RegistryEntry] = []
        for start in range(0, len(values), 500):  # SQLite binds at most 999 values
            chunk = values[start : start + 500]
            rows = self._exec(
                conn,
                f"SELECT {_ENTRY_COLUMNS} FROM registry_entries WHERE conversation_id = ? "
                f"AND {column} IN ({', '.join('?' * len(chunk))})",
                (conversation_id, *chunk),
            ).fetchall()
            found.extend(_row_entry(row) for row in rows)
        return found

    def register_sources_detailed(
        self,
        conversation_id: str,
        sources: Sequence[CitationSource],
        *,
        cited: Collection[int] = (),
        cited_keys: Collection[str] = (),
    ) -> Registration:
        """Find or create every source's number in the conversation, in one transaction.

        Keys, locators and display fields are derived exactly as
        :meth:`attribution.CitationRegistry.register_source` does (by registering the batch in
        a scratch registry first), so the store and the in-memory registry cannot disagree.
        Sources of the batch sharing a key share a number; new keys are numbered in the order
        first seen. The cost grows with the batch, ``cited`` and ``cited_keys``, not with the
        conversation.

        Returns:
            Each source's entry and whether this call created its number, and the entries of
            the sources and of the ``cited`` numbers that exist, as a registry.

        Raises:
            InputError: a bad conversation id, or a source the registry cannot key.
            ConversationFull: the new sources would take the conversation past
                :attr:`max_entries`; nothing was registered.
            StoreError: the database failed (after waiting ``busy_timeout_s``).
        """
        validate_conversation_id(conversation_id)
        scratch = CitationRegistry()
        scratch_numbers = [scratch.register_source(source) for source in sources]
        wanted = scratch.entries()
        numbers = sorted({n for n in cited if 1 <= n <= _MAX_NUMBER})
        keys = sorted({k for k in cited_keys if k})

        def work(
            conn: Any,
        ) -> tuple[dict[int, tuple[RegistryEntry, bool]], list[RegistryEntry]]:
            self._exec(
                conn,
                "INSERT INTO conversations (id) VALUES (?) ON CONFLICT DO NOTHING",
                (conversation_id,),
            )
            self._lock_conversation(conn, conversation_id)
            held = self._held(conn, conversation_id)
            stored = {w.number: self._store_entry(conn, conversation_id, w) for w in wanted}
            adding = sum(created for _, created in stored.values())
            if held + adding > self._max_entries:  # rolled back: nothing is registered
                raise ConversationFull(conversation_id, held, adding, self._max_entries)
            return stored, [
                *self._numbered(conn, conversation_id, numbers),
                *self._keyed(conn, conversation_id, keys),
            ]

        stored, cited_entries = self._write(work)
        by_number = {e.number: e for e in cited_entries}
        by_number.update((e.number, e) for e, _ in stored.values())
        outcomes = tuple(
            RegistrationOutcome(
                source_id=source.id,
                entry=stored[n][0],
                created=stored[n][1],
            )
            for source, n in zip(sources, scratch_numbers, strict=True)
        )
        return Registration(outcomes=outcomes, registry=CitationRegistry(list(by_number.values())))

    def register_sources(
        self,
        conversation_id: str,
        sources: Sequence[CitationSource],
        *,
        cited: Collection[int] = (),
        cited_keys: Collection[str] = (),
    ) -> CitationRegistry:
        """Find or create every source's number in the conversation, in one transaction.

        Returns:
            The entries of the sources and of the ``cited`` numbers that exist, as a
            registry (not the whole registry: see :meth:`registry`).

        Raises:
            InputError: a bad conversation id, or a source the registry cannot key.
            ConversationFull: the new sources would take the conversation past
                :attr:`max_entries`; nothing was registered.
            StoreError: the database failed (after waiting ``busy_timeout_s``).
        """
        return self.register_sources_detailed(
            conversation_id, sources, cited=cited, cited_keys=cited_keys
        ).registry

    def register(
        self,
        conversation_id: str,
        source_type: SourceType,
        locator: Locator,
        display: SourceDisplay | None = None,
    ) -> RegistryEntry:
        """Find or create the number of one source, as :meth:`CitationRegistry.register` does.

        Returns:
            The source's entry; display fields it lacked are filled from ``display``.

        Raises:
            InputError: a bad conversation id, an unknown type or an empty locator.
            ConversationFull: the source is new and the conversation holds
                :attr:`max_entries` sources already.
            StoreError: the database failed (after waiting ``busy_timeout_s``).
        """
        validate_conversation_id(conversation_id)
        scratch = CitationRegistry()
        scratch.register(source_type, locator, display)
        (wanted,) = scratch.entries()

        def work(conn: Any) -> RegistryEntry:
            self._exec(
                conn,
                "INSERT INTO conversations (id) VALUES (?) ON CONFLICT DO NOTHING",
                (conversation_id,),
            )
            self._lock_conversation(conn, conversation_id)
            held = self._held(conn, conversation_id)
            entry, created = self._store_entry(conn, conversation_id, wanted)
            if created and held + 1 > self._max_entries:
                raise ConversationFull(conversation_id, held, 1, self._max_entries)
            return entry

        return self._write(work)

    # -- looking up -------------------------------------------------------------------------------

    def registry(self, conversation_id: str) -> CitationRegistry:
        """The conversation's whole registry; an empty one for a conversation never seen.

        Raises:
            InputError: a bad conversation id.
        """
        return CitationRegistry(self.entries(conversation_id, limit=_MAX_NUMBER))

    def entries(
        self, conversation_id: str, *, after: int = 0, limit: int = 1000
    ) -> list[RegistryEntry]:
        """At most ``limit`` entries numbered above ``after``, by increasing number.

        Raises:
            InputError: a bad conversation id, or ``limit`` below 1.
        """
        validate_conversation_id(conversation_id)
        if limit < 1:
            raise InputError(f"limit must be 1 or more, not {limit}")
        if after >= _MAX_NUMBER:
            return []

        def work(conn: Any) -> list[RegistryEntry]:
            rows = self._exec(
                conn,
                f"SELECT {_ENTRY_COLUMNS} FROM registry_entries "
                "WHERE conversation_id = ? AND number > ? ORDER BY number LIMIT ?",
                (conversation_id, max(after, 0), min(limit, _MAX_NUMBER)),
            ).fetchall()
            return [_row_entry(row) for row in rows]

        return self._read(work)

    def resolve(self, conversation_id: str, number: int) -> RegistryEntry | None:
        """The entry numbered ``number`` in the conversation, or None.

        Raises:
            InputError: a bad conversation id.
        """
        validate_conversation_id(conversation_id)
        if not 1 <= number <= _MAX_NUMBER:
            return None

        def work(conn: Any) -> RegistryEntry | None:
            row = self._exec(
                conn,
                f"SELECT {_ENTRY_COLUMNS} FROM registry_entries "
                "WHERE conversation_id = ? AND number = ?",
                (conversation_id, number),
            ).fetchone()
            return None if row is None else _row_entry(row)

        return self._read(work)


class SqliteConversationStore(SqlConversationStore):
    """A :class:`ConversationStore` in one SQLite file (WAL mode, ``synchronous=NORMAL``).

    Connections come from a small pool guarded by a lock: a call borrows one, uses it alone
    and gives it back, so any thread (litestar's worker threads come and go) can use the store
    and the number of open connections stays bounded by the threads using it at once. A pool
    rather than one connection per thread, because a thread-local connection would stay open
    after its thread ended and could not be closed by :meth:`close`.

    Example::

        store = SqliteConversationStore("data/attribution.sqlite3")
        entry = store.register("conv-1", "kb_chunk", (42, 880), SourceDisplay(title="Handbook"))
        store.resolve("conv-1", entry.number)       # the same entry, after a restart too
        store.close()
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout_s: float = 30.0,
        max_idle_connections: int = 8,
        max_entries: int = DEFAULT_MAX_ENTRIES,
    ) -> None:
        """Open (creating if needed) the database file and bring its schema up to date.

        Args:
            path: the SQLite file; its folder is created when missing.
            busy_timeout_s: how long a write waits for another writer's lock before failing.
            max_idle_connections: connections kept open between calls; more are closed.
            max_entries: the most sources one conversation holds (1..2**62).

        Raises:
            ConfigError: the path cannot be opened or created, the file is not a database,
                its schema is newer than this code, or a bound is out of range.
        """
        if str(path) in ("", ":memory:") or str(path).startswith("file:"):
            raise ConfigError(f"conversation store needs a file path, not {str(path)!r}")
        if busy_timeout_s <= 0:
            raise ConfigError(f"busy_timeout_s = {busy_timeout_s} is out of bounds: > 0")
        if max_idle_connections < 1:
            raise ConfigError(
                f"max_idle_connections = {max_idle_connections} is out of bounds: >= 1"
            )
        if not 1 <= max_entries <= 2**62:
            raise ConfigError(f"max_entries = {max_entries} is out of bounds: 1..2**62")
        self._max_entries = max_entries
        self._path = Path(path)
        self._busy_timeout_ms = int(busy_timeout_s * 1000)
        self._max_idle = max_idle_connections
        self._lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._abandoned: list[sqlite3.Connection] = []
        self._closed = False
        self._pid = os.getpid()
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._connect()
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(
                f"conversation store: cannot open {str(self._path)!r}: {exc}"
            ) from exc
        try:
            self._migrate(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise ConfigError(
                f"conversation store: cannot set up {str(self._path)!r}: {exc}"
            ) from exc
        except BaseException:
            conn.close()
            raise
        self._idle.append(conn)

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    # -- connections ----------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: no implicit transactions; every write says BEGIN IMMEDIATE.
        # check_same_thread=False: the pool hands a connection to one thread at a time, but
        # not always the same one, and close() may run on yet another.
        conn = sqlite3.connect(
            self._path,
            timeout=self._busy_timeout_ms / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise ConfigError(
                    f"conversation store: {str(self._path)!r} cannot use WAL mode "
                    f"(journal mode {mode[0] if mode else None!r}); use a local file system"
                )
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """Borrow a connection for the length of the block."""
        with self._lock:
            if self._closed:
                raise StoreError(f"conversation store {str(self._path)!r} is closed")
            if self._pid != os.getpid():
                # A forked child must not use, nor close (a close may checkpoint the WAL), its
                # parent's connections: keep them referenced and unused, and start afresh.
                self._abandoned.extend(self._idle)
                self._idle = []
                self._pid = os.getpid()
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            try:
                conn = self._connect()
            except sqlite3.Error as exc:
                raise StoreError(
                    f"conversation store: cannot open {str(self._path)!r}: {exc}"
                ) from exc
        healthy = True
        try:
            yield conn
        except BaseException:
            healthy = not conn.in_transaction
            raise
        finally:
            with self._lock:
                keep = healthy and not self._closed and len(self._idle) < self._max_idle
                if keep:
                    self._idle.append(conn)
            if not keep:
                conn.close()

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in a ``BEGIN IMMEDIATE`` transaction: committed, or rolled back."""
        with self._connection() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = work(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError(
                    f"conversation store {str(self._path)!r}: write failed: {exc}"
                ) from exc
            return result

    def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` outside a transaction (each statement sees the last commit)."""
        with self._connection() as conn:
            try:
                return work(conn)
            except sqlite3.Error as exc:
                raise StoreError(
                    f"conversation store {str(self._path)!r}: read failed: {exc}"
                ) from exc

    def _migrate(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            migrate(conn, _MIGRATIONS, SCHEMA_VERSION, "?", ConfigError, repr(str(self._path)))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def check(self) -> str | None:
        """None when the file answers a query; else the error."""
        try:
            self._read(lambda conn: conn.execute("SELECT 1").fetchone())
        except StoreError as exc:
            return str(exc)
        return None

    # -- lifecycle --------------------------------------------------------------------------------

    def close(self) -> None:
        """Close every idle connection; connections in use close when their call ends.

        Later calls raise :class:`StoreError`. Calling it again does nothing.
        """
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
