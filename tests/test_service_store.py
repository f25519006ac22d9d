"""The conversation stores (a real SQLite file; a real PostgreSQL server, tests/postgres_server.py)
and the ``/v1/conversations`` routes (a real app). Every test taking ``store`` or ``opener``
runs on both stores: they give the same guarantees."""

from __future__ import annotations

import multiprocessing
import random
import sqlite3
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.datastructures import State
from litestar.testing import TestClient

from attribution import (
    CitationRegistry,
    CitationSource,
    ConfigError,
    InputError,
    SourceDisplay,
)
from attribution.service import Settings
from attribution.service._attribute import linked_keys
from attribution.service._conversations import ConversationController
from attribution.service._errors import handle_exception
from attribution.service._routes import DEPENDENCIES
from attribution.service._store import (
    ConversationFull,
    SqlConversationStore,
    SqliteConversationStore,
    StoreError,
    open_store,
)

CONV = "conv-1"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "registries.sqlite3"


Opener = Callable[..., SqlConversationStore]


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, db_path: Path) -> Iterator[Opener]:
    """Opens stores (keyword arguments: the store's) on one database of the parameter's kind:
    every store it opens sees the same data, as a restart or another process would."""
    opened: list[SqlConversationStore] = []
    if request.param == "sqlite":
        location = str(db_path)

        def make(**kwargs: Any) -> SqlConversationStore:
            opened.append(SqliteConversationStore(location, **kwargs))
            return opened[-1]
    else:
        from attribution.service._postgres import PostgresConversationStore

        server = request.getfixturevalue("postgres")
        location = server.create_database(f"t_{uuid.uuid4().hex[:16]}")

        def make(**kwargs: Any) -> SqlConversationStore:
            opened.append(PostgresConversationStore(location, **kwargs))
            return opened[-1]

    make.location = location  # type: ignore[attr-defined]
    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(opener: Opener) -> SqlConversationStore:
    return opener()


def web(url: str, title: str | None = None) -> CitationSource:
    return CitationSource(id=url, type="web_result", uri=url, title=title)


# -- the store ----------------------------------------------------------------------------------


def test_find_or_create_numbers_upward(store: SqlConversationStore) -> None:
    first = store.register(CONV, "kb_chunk", (42, 880), SourceDisplay(title="Handbook"))
    second = store.register(CONV, "kb_document", "handbook-2")
    again = store.register(CONV, "kb_chunk", ("42", "880"))
    assert (first.number, second.number, again.number) == (1, 2, 1)
    assert again.source_key == "kb_chunk:42:880"
    assert again.locator == ("42", "880")
    assert again.display.title == "Handbook"


def test_same_page_spelled_differently_gets_one_number(store: SqlConversationStore) -> None:
    registry = store.register_sources(
        CONV,
        [
            web("https://Example.com/a/?utm_source=x", "A"),
            web("https://example.com/b"),
            web("https://example.com/a#top"),
        ],
    )
    assert [e.source_key for e in registry.entries()] == [
        "web_result:https://example.com/a",
        "web_result:https://example.com/b",
    ]
    assert store.register(CONV, "web", "https://EXAMPLE.com/a").number == 1


def test_detailed_registration_tells_numbers_and_what_was_created(
    store: SqlConversationStore,
) -> None:
    store.register_sources(CONV, [web("https://example.com/old")])
    result = store.register_sources_detailed(
        CONV,
        [
            web("https://example.com/new"),
            web("https://example.com/old"),
            web("https://example.com/new?utm_medium=mail"),
        ],
    )
    outcomes = [(o.source_id, o.entry.number, o.created) for o in result.outcomes]
    assert outcomes == [
        ("https://example.com/new", 2, True),
        ("https://example.com/old", 1, False),
        ("https://example.com/new?utm_medium=mail", 2, True),
    ]
    assert sorted(result.registry.numbers()) == [1, 2]


def test_numbers_only_go_up_and_conversations_are_apart(store: SqlConversationStore) -> None:
    numbers = [store.register(CONV, "kb_document", f"doc-{i}").number for i in range(5)]
    assert numbers == [1, 2, 3, 4, 5]
    assert store.register("other", "kb_document", "doc-4").number == 1
    assert store.register(CONV, "kb_document", "doc-5").number == 6


def test_resolve_gives_what_register_gave(store: SqlConversationStore) -> None:
    entry = store.register(CONV, "web_result", "https://example.com/x?utm_source=y")
    assert store.resolve(CONV, entry.number) == entry
    assert entry.display == SourceDisplay(
        uri="https://example.com/x?utm_source=y", domain="example.com"
    )
    assert store.resolve(CONV, entry.number + 1) is None
    assert store.resolve(CONV, 0) is None
    assert store.resolve(CONV, 10**30) is None
    assert store.resolve("never-seen", 1) is None
    assert len(store.registry("never-seen")) == 0


def test_display_gaps_are_filled_never_overwritten(store: SqlConversationStore) -> None:
    store.register(CONV, "kb_document", "d1", SourceDisplay(title="First title"))
    entry = store.register(
        CONV, "kb_document", "d1", SourceDisplay(title="Second title", uri="kb://d1")
    )
    assert entry.display.title == "First title"
    assert entry.display.uri == "kb://d1"
    stored = store.resolve(CONV, entry.number)
    assert stored is not None
    assert stored.display == entry.display


def test_store_agrees_with_the_in_memory_registry(store: SqlConversationStore) -> None:
    sources = [
        web("https://example.com/a", "A"),
        CitationSource(id="kb_chunk:7:1", type="kb_chunk", title="Chunk"),
        web("https://www.example.com/a/"),
        CitationSource(id="note", type="file", uri="file:///n.txt"),
    ]
    memory = CitationRegistry()
    for source in sources:
        memory.register_source(source)
    assert store.register_sources(CONV, sources).snapshot() == memory.snapshot()


def test_a_registration_reads_only_the_entries_it_needs(store: SqlConversationStore) -> None:
    store.register_sources(CONV, [web(f"https://example.com/{i}") for i in range(50)])
    registry = store.register_sources(
        CONV, [web("https://example.com/7"), web("https://example.com/new")], cited=[3, 7, 99, -1]
    )
    assert sorted(registry.numbers()) == [3, 7, 8, 51]  # cited, cited, given, new
    assert registry.number_of("web_result:https://example.com/new") == 51
    assert len(store.registry(CONV)) == 51
    # and the pages an answer gives the address of (a link citation), where they exist
    keys = linked_keys("Linked [a](https://www.example.com/12/) and (http://nope.org/x).")
    linked = store.register_sources(CONV, [web("https://example.com/7")], cited_keys=keys)
    assert sorted(linked.numbers()) == [8, 13]


def test_a_conversation_past_its_cap_registers_nothing(opener: Opener) -> None:
    with opener(max_entries=3) as store:
        store.register_sources(CONV, [web("https://example.com/a"), web("https://example.com/b")])
        batch = [web("https://example.com/a"), web("https://example.com/c"), web("https://d.org")]
        with pytest.raises(ConversationFull, match="holds 2 sources and this would add 2 new"):
            store.register_sources(CONV, batch)
        assert len(store.registry(CONV)) == 2  # rolled back: nothing of the batch is in
        assert store.register(CONV, "web", "https://example.com/c").number == 3
        with pytest.raises(ConversationFull, match=r"the limit \(max_conversation_sources\) is 3"):
            store.register(CONV, "kb_document", "another")
        assert store.register(CONV, "web", "https://example.com/a").number == 1  # found
        assert len(store.register_sources("other", batch)) == 3  # the cap is per conversation
    with pytest.raises(ConfigError, match="max_entries = 0"):
        opener(max_entries=0)


def test_entries_come_a_page_at_a_time(store: SqlConversationStore) -> None:
    store.register_sources(CONV, [web(f"https://example.com/{i}") for i in range(10)])
    assert [e.number for e in store.entries(CONV, after=0, limit=4)] == [1, 2, 3, 4]
    assert [e.number for e in store.entries(CONV, after=8, limit=4)] == [9, 10]
    assert store.entries(CONV, after=10) == []
    assert store.entries("never-seen") == []
    with pytest.raises(InputError, match="limit must be 1 or more"):
        store.entries(CONV, limit=0)


def test_a_restart_keeps_everything(opener: Opener) -> None:
    with opener() as store:
        store.register_sources(CONV, [web(f"https://example.com/{i}", f"T{i}") for i in range(3)])
        before = store.registry(CONV).snapshot()
    with opener() as store:
        assert store.registry(CONV).snapshot() == before
        assert store.register(CONV, "web", "https://example.com/1").number == 2
        assert store.register(CONV, "web", "https://example.com/new").number == 4


def test_wal_mode_schema_and_tables(db_path: Path) -> None:
    with SqliteConversationStore(db_path) as store:
        store.register(CONV, "kb_document", "d1")
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(1,)]
        assert conn.execute("SELECT id FROM conversations").fetchall() == [(CONV,)]
        row = conn.execute(
            "SELECT conversation_id, number, source_key, source_type, locator_json, display_json"
            " FROM registry_entries"
        ).fetchone()
        assert row == (CONV, 1, "kb_document:d1", "kb_document", '["d1"]', "{}")
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO registry_entries (conversation_id, number, source_key, source_type,"
                " locator_json, display_json) VALUES (?, 2, 'kb_document:d1', 'kb_document',"
                " '[]', '{}')",
                (CONV,),
            )
    finally:
        conn.close()


@pytest.mark.parametrize(
    "conversation_id",
    ["", "x" * 201, "a\nb", "tab\there", "   ", "nul\x00", "team/a", "a\ufffdb"],
)
def test_bad_conversation_ids_are_input_errors(
    store: SqlConversationStore, conversation_id: str
) -> None:
    with pytest.raises(InputError, match="conversation id"):
        store.register(conversation_id, "kb_document", "d1")
    with pytest.raises(InputError, match="conversation id"):
        store.registry(conversation_id)
    with pytest.raises(InputError, match="conversation id"):
        store.resolve(conversation_id, 1)


def test_longest_and_unicode_ids_are_fine(store: SqlConversationStore) -> None:
    for conversation_id in ["x" * 200, "gespräch 1 ✓"]:
        assert store.register(conversation_id, "kb_document", "d").number == 1


def test_bad_source_is_an_input_error_and_writes_nothing(store: SqlConversationStore) -> None:
    with pytest.raises(InputError):
        store.register(CONV, "kb_chunk", ())
    assert len(store.registry(CONV)) == 0


def test_unopenable_path_is_a_config_error_naming_it(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(ConfigError, match="a-file"):
        SqliteConversationStore(blocker / "db.sqlite3")
    with pytest.raises(ConfigError, match="a-file"):
        SqliteConversationStore(blocker)  # not a database
    with pytest.raises(ConfigError, match="file path"):
        SqliteConversationStore(":memory:")


def test_newer_schema_is_refused(db_path: Path) -> None:
    SqliteConversationStore(db_path).close()
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE schema_version SET version = 99")
    conn.close()
    with pytest.raises(ConfigError, match="schema version 99"):
        SqliteConversationStore(db_path)


def test_closed_store_refuses_work_and_closing_twice_is_fine(opener: Opener) -> None:
    store = opener()
    store.register(CONV, "kb_document", "d1")
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.registry(CONV)


def test_threads_share_one_dense_numbering(store: SqlConversationStore) -> None:
    urls = [f"https://example.com/page/{i}" for i in range(24)]
    barrier = threading.Barrier(8)
    seen: list[dict[str, int]] = []
    errors: list[BaseException] = []

    def agent(seed: int) -> None:
        picked = random.Random(seed).sample(urls, 16)
        mine: dict[str, int] = {}
        try:
            barrier.wait()
            for i, url in enumerate(picked):
                if i % 4 == 0:
                    registry = store.register_sources(CONV, [web(url), web(url + "?utm_id=1")])
                    number = registry.lookup("web", url)
                    assert number is not None
                    mine[url] = number
                else:
                    mine[url] = store.register(CONV, "web_result", url).number
        except BaseException as exc:  # handed to the main thread, which fails the test
            errors.append(exc)
        seen.append(mine)

    threads = [threading.Thread(target=agent, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    registry = store.registry(CONV)
    numbers = {e.source_key.removeprefix("web_result:"): e.number for e in registry.entries()}
    assert sorted(numbers.values()) == list(range(1, len(numbers) + 1))
    for mine in seen:
        assert all(numbers[url] == number for url, number in mine.items())


def register_in_process(
    location: str, urls: list[str], seed: int, barrier: Any, results: Any
) -> None:
    """One worker process: register ``urls`` in a shuffled order, one transaction each."""
    order = list(urls)
    random.Random(seed).shuffle(order)
    url = location if location.startswith("postgresql://") else None
    with open_store(database_url=url, database_path=location) as store:
        barrier.wait()
        results.put({url: store.register(CONV, "web_result", url).number for url in order})


def test_two_processes_share_one_dense_numbering(opener: Opener) -> None:
    first_store = opener()
    first_store.check()  # created (and migrated) once, up front
    location: str = opener.location  # type: ignore[attr-defined]
    urls = [f"https://example.com/doc/{i}" for i in range(40)]
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    results = ctx.Queue()
    processes = [
        ctx.Process(
            target=register_in_process, args=(location, urls[i * 10 :], i, barrier, results)
        )
        for i in range(2)
    ]
    for process in processes:
        process.start()
    got = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    first, second = got
    assert all(first[url] == second[url] for url in set(first) & set(second))
    entries = first_store.registry(CONV).entries()
    assert [e.number for e in entries] == list(range(1, len(urls) + 1))
    assert {e.locator[0]: e.number for e in entries} == first | second


# -- the routes, through a real app ----------------------------------------------------------------


def make_app(path: Path) -> Litestar:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        app.state.store = SqliteConversationStore(path)
        try:
            yield
        finally:
            app.state.store.close()

    return Litestar(
        route_handlers=[ConversationController],
        lifespan=[lifespan],
        exception_handlers={Exception: handle_exception},
        state=State({"settings": Settings()}),
        dependencies={"settings": DEPENDENCIES["settings"]},
    )


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient[Litestar]]:
    with TestClient(app=make_app(db_path), base_url="http://127.0.0.1") as test_client:
        yield test_client


def sources_body(*urls: str) -> dict[str, Any]:
    return {"sources": [{"id": u, "type": "web_result", "uri": u, "title": u[-1]} for u in urls]}


def test_register_resolve_and_list(client: TestClient[Litestar]) -> None:
    response = client.post(
        f"/v1/conversations/{CONV}/sources",
        json=sources_body("https://example.com/a", "https://example.com/b"),
    )
    assert response.status_code == 200
    assert response.json() == {
        "conversationId": CONV,
        "numbers": [
            {
                "number": 1,
                "sourceId": "https://example.com/a",
                "sourceKey": "web_result:https://example.com/a",
                "created": True,
            },
            {
                "number": 2,
                "sourceId": "https://example.com/b",
                "sourceKey": "web_result:https://example.com/b",
                "created": True,
            },
        ],
        "warnings": [],
    }
    entry = client.get(f"/v1/conversations/{CONV}/citations/2").json()
    assert entry == {
        "number": 2,
        "sourceKey": "web_result:https://example.com/b",
        "sourceType": "web_result",
        "locator": ["https://example.com/b"],
        "display": {"title": "b", "uri": "https://example.com/b", "domain": "example.com"},
    }
    page = client.get(f"/v1/conversations/{CONV}/registry").json()
    assert [e["number"] for e in page["entries"]] == [1, 2]
    assert page["nextAfter"] is None
    assert client.get("/v1/conversations/new-one/registry").json() == {
        "entries": [],
        "nextAfter": None,
    }


def test_unknown_number_is_404_with_an_error_body(client: TestClient[Litestar]) -> None:
    response = client.get(f"/v1/conversations/{CONV}/citations/7")
    assert response.status_code == 404
    assert response.json() == {
        "error": {"type": "not_found", "message": f"conversation {CONV!r} has no citation [7]"}
    }


def test_a_subagent_continues_the_numbering(client: TestClient[Litestar]) -> None:
    client.post(f"/v1/conversations/{CONV}/sources", json=sources_body("https://example.com/a"))
    # A subagent, in another request, finds the same page (spelled differently) and a new one.
    response = client.post(
        f"/v1/conversations/{CONV}/sources",
        json={
            "toolOutputs": [
                {
                    "toolName": "web_search",
                    "output": [
                        {"url": "https://new.example.org/x", "title": "X", "snippet": "x"},
                        {"url": "https://EXAMPLE.com/a?utm_source=agent", "snippet": "a"},
                        {"title": "no url"},
                    ],
                }
            ]
        },
    )
    assert response.status_code == 200
    body = response.json()
    assert [(n["number"], n["created"]) for n in body["numbers"]] == [(2, True), (1, False)]
    assert [w["reason"] for w in body["warnings"]] == ["result 3 has no url and no text; skipped"]


@pytest.mark.parametrize(
    ("body", "named"),
    [
        # litestar keeps the path of a bad value in `extra`, not in the message the app sends
        ({"sources": [{"id": "x", "type": "nope"}]}, "'nope'"),
        ({"sources": [{"id": "x"}]}, "type"),
        ({"sources": [], "extra": 1}, "extra"),
        ({}, "sources"),
        ({"sources": [], "toolOutputs": []}, "toolOutputs"),
    ],
)
def test_malformed_body_is_400_naming_the_field(
    client: TestClient[Litestar], body: dict[str, Any], named: str
) -> None:
    response = client.post(f"/v1/conversations/{CONV}/sources", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_request"
    assert named in error["message"]


def test_bad_conversation_id_in_the_path_is_400(client: TestClient[Litestar]) -> None:
    response = client.get(f"/v1/conversations/{'x' * 201}/registry")
    assert response.status_code == 400
    assert client.get("/v1/conversations/a%09b/registry").status_code == 400


def test_the_routes_and_the_store_share_the_file(db_path: Path) -> None:
    with TestClient(app=make_app(db_path), base_url="http://127.0.0.1") as client:
        client.post(f"/v1/conversations/{CONV}/sources", json=sources_body("https://example.com/a"))
    with SqliteConversationStore(db_path) as store:  # a restart, or a second worker
        entry = store.register(CONV, "web", "https://example.com/b")
    assert entry.number == 2
    with TestClient(app=make_app(db_path), base_url="http://127.0.0.1") as client:
        entries = client.get(f"/v1/conversations/{CONV}/registry").json()["entries"]
    assert msgspec.convert([e["number"] for e in entries], list[int]) == [1, 2]
