"""Conversation registries in PostgreSQL: several service replicas, on several machines, one
numbering (``ATTRIBUTION_DATABASE_URL=postgresql://user:pass@host:port/db``).

The numbering logic is :class:`SqlConversationStore`'s, shared with the SQLite store; what
differs is how a transaction serialises a conversation's numbering. Every find-or-create runs
in one transaction that first makes sure the conversation's row exists and then locks it
(``SELECT ... FOR UPDATE``): two replicas registering in the same conversation take turns,
the second one reading (``READ COMMITTED``: each statement sees the last commit) what the first
created, so a source key gets one number, numbers are dense, and they only go up.
Conversations do not wait for each other. A commit is acknowledged only once PostgreSQL has
made it durable (``synchronous_commit`` on, its default), so an acknowledged registration
survives a crash of the replica and of its connection.

Connections come from a psycopg 3 pool (``psycopg_pool``) opened in the background: the
service starts whether or not the database answers. While it does not, every call raises
:class:`StoreError` (the service answers 503 with ``Retry-After``) within
``wait_timeout_s``, and :meth:`check` says why (``/readyz`` is 503); the pool checks a
connection before lending it and reconnects by itself when the database comes back. The schema
is created and migrated on the first connection (versioned, idempotent, under an advisory lock
so that replicas starting together migrate once).

This module is the only one importing psycopg (the ``postgres`` extra); the library core never
does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit

from attribution import ConfigError

from ._store import DEFAULT_MAX_ENTRIES, SqlConversationStore, StoreError, migrate

try:
    import psycopg
    from psycopg_pool import ConnectionPool
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ConfigError(
        "ATTRIBUTION_DATABASE_URL needs the PostgreSQL driver: pip install 'attribution[postgres]' "
        f"({exc})"
    ) from exc

__all__ = ["SCHEMA_VERSION", "PostgresConversationStore", "redact_url"]

T = TypeVar("T")

SCHEMA_VERSION = 1
"""The schema version this code writes; :data:`_MIGRATIONS` brings older databases up to it."""

_MIGRATION_LOCK = 0x6174747269627574  # pg_advisory_xact_lock key ("attribut")

# Migration n takes a database from version n - 1 to n, in one transaction with the version.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """
        CREATE TABLE conversations (
            id          TEXT PRIMARY KEY,
            created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE registry_entries (
            conversation_id  TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            number           BIGINT NOT NULL CHECK (number >= 1),
            source_key       TEXT NOT NULL,
            source_type      TEXT NOT NULL,
            locator_json     TEXT NOT NULL,
            display_json     TEXT NOT NULL,
            created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
            PRIMARY KEY (conversation_id, number),
            UNIQUE (conversation_id, source_key)
        )
        """,
    ),
}

STATEMENT_TIMEOUT_MS = 30_000
"""No statement (nor a wait for a conversation's lock) runs longer: a stuck peer cannot hang a
request."""


def redact_url(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def check_url(url: str) -> str:
    """Raise :class:`ConfigError` unless ``url`` is a ``postgresql://`` (or ``postgres://``) URL."""
    if urlsplit(url).scheme not in ("postgresql", "postgres"):
        raise ConfigError(
            f"database_url {redact_url(url)!r} is not a PostgreSQL URL: "
            "postgresql://user:password@host:port/database"
        )
    return url


class PostgresConversationStore(SqlConversationStore):
    """A :class:`ConversationStore` in PostgreSQL, shared by any number of service processes.

    Example::

        store = PostgresConversationStore("postgresql://attribution@db:5432/attribution")
        entry = store.register("conv-1", "web", "https://example.com/a")
        store.close()
    """

    _placeholder = "%s"

    def __init__(
        self,
        url: str,
        *,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        min_connections: int = 1,
        max_connections: int = 8,
        connect_timeout_s: float = 5.0,
        wait_timeout_s: float = 5.0,
    ) -> None:
        """Start the connection pool (in the background: nothing here waits for the server).

        Args:
            url: ``postgresql://user:password@host:port/database`` (libpq's URL form; its
                query may carry libpq options such as ``sslmode``).
            max_entries: the most sources one conversation holds (1..2**62).
            min_connections / max_connections: the pool's size.
            connect_timeout_s: how long one connection attempt may take.
            wait_timeout_s: how long a call waits for a connection before :class:`StoreError`.

        Raises:
            ConfigError: not a PostgreSQL URL, or a bound out of range.
        """
        check_url(url)
        if not 1 <= max_entries <= 2**62:
            raise ConfigError(f"max_entries = {max_entries} is out of bounds: 1..2**62")
        if not 1 <= min_connections <= max_connections:
            raise ConfigError(
                f"connections {min_connections}..{max_connections} are out of bounds: "
                "1 <= min_connections <= max_connections"
            )
        if connect_timeout_s <= 0 or wait_timeout_s <= 0:
            raise ConfigError("connect_timeout_s and wait_timeout_s must be > 0")
        self._max_entries = max_entries
        self._url = redact_url(url)
        self._schema_ready = False
        self._schema_lock = threading.Lock()
        self._pool: ConnectionPool[Any] = ConnectionPool(
            url,
            min_size=min_connections,
            max_size=max_connections,
            timeout=wait_timeout_s,
            kwargs={
                "connect_timeout": max(1, round(connect_timeout_s)),
                # a server that vanished without closing the socket is noticed within a minute
                "keepalives": 1,
                "keepalives_idle": 30,
                "keepalives_interval": 10,
                "keepalives_count": 3,
            },
            configure=self._configure,
            check=ConnectionPool.check_connection,
            reconnect_timeout=wait_timeout_s,
            name="attribution-conversations",
            open=False,
        )
        self._pool.open(wait=False)

    @property
    def url(self) -> str:
        """The database's URL, without its password."""
        return self._url

    @staticmethod
    def _configure(conn: psycopg.Connection[Any]) -> None:
        conn.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
        conn.execute(f"SET lock_timeout = {STATEMENT_TIMEOUT_MS}")
        conn.commit()

    # -- connections ----------------------------------------------------------------------------

    @contextmanager
    def _connection(
        self, what: str, timeout: float | None = None
    ) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection, every failure of the database or the pool a StoreError."""
        try:
            self._ensure_schema(timeout)
            with self._pool.connection(timeout=timeout) as conn:
                yield conn
        except StoreError:
            raise
        except (psycopg.Error, OSError) as exc:  # PoolTimeout and PoolClosed are psycopg errors
            raise StoreError(
                f"conversation store {self._url}: {what} failed: {_first_line(exc)}"
            ) from exc

    def _write(self, work: Callable[[Any], T]) -> T:
        """Run ``work`` in one transaction: committed (durably) when it returns, else rolled
        back. The conversation's lock (:meth:`_lock_conversation`) serialises numbering."""
        with self._connection("write") as conn, conn.transaction():
            return work(conn)

    def _read(self, work: Callable[[Any], T]) -> T:
        with self._connection("read") as conn:
            return work(conn)

    def _lock_conversation(self, conn: Any, conversation_id: str) -> None:
        conn.execute("SELECT 1 FROM conversations WHERE id = %s FOR UPDATE", (conversation_id,))

    def _ensure_schema(self, timeout: float | None = None) -> None:
        """Create or migrate the schema once per process, on the first connection."""
        if self._schema_ready:
            return
        with self._schema_lock:
            if self._schema_ready:
                return
            with self._pool.connection(timeout=timeout) as conn, conn.transaction():
                # replicas starting together take turns; the later ones find it done
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                migrate(conn, _MIGRATIONS, SCHEMA_VERSION, "%s", StoreError, self._url)
            self._schema_ready = True

    def schema_version(self) -> int:
        """The database's schema version (creating the schema first when it has none)."""
        row = self._read(lambda c: c.execute("SELECT max(version) FROM schema_version").fetchone())
        return int(row[0])

    def check(self, timeout_s: float = 2.0) -> str | None:
        """None when the database answers within ``timeout_s`` (its schema made ready); else
        why not."""
        try:
            with self._connection("check", timeout_s) as conn:
                conn.execute("SELECT 1").fetchone()
        except StoreError as exc:
            return str(exc)
        return None

    # -- lifecycle --------------------------------------------------------------------------------

    def close(self) -> None:
        """Close the pool; later calls raise :class:`StoreError`. Calling it again does nothing."""
        self._pool.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
