"""Issue 16: several service replicas, one numbering, on a real PostgreSQL server
(tests/postgres_server.py) and real service processes on loopback.

- Two replicas on one database, many clients registering overlapping sources through both at
  once: numbering dense, no key with two numbers, nothing acknowledged lost, also after one
  replica is killed.
- A replica started while the database is down answers /healthz, is not ready on /readyz,
  answers 503 with Retry-After where it needs the store (and 200 where it does not), and
  recovers by itself when the database comes up; the same when the database crashes and
  restarts under load: only 200s and 503s, each bounded in time, nothing acknowledged lost.
- The schema is versioned: a database of a newer version is refused with a clear error.
"""

from __future__ import annotations

import inspect
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.postgres_server import PostgresServer
from tests.test_service_server import Server, serving

URLS = [f"https://example.com/page/{i}" for i in range(60)]
REQUEST_LIMIT_S = 15.0  # no call may take longer, database down or not


def web(url: str) -> dict[str, Any]:
    return {"id": url, "type": "web_result", "uri": url}


def register(client: httpx.Client, conversation: str, urls: list[str]) -> httpx.Response:
    return client.post(
        f"/v1/conversations/{conversation}/sources", json={"sources": [web(u) for u in urls]}
    )


def registry(client: httpx.Client, conversation: str) -> dict[str, int]:
    """The whole registry, page by page: source key -> number."""
    numbers: dict[str, int] = {}
    after: int | None = 0
    while after is not None:
        page = client.get(f"/v1/conversations/{conversation}/registry?after={after}&limit=25")
        assert page.status_code == 200, page.text[:300]
        body = page.json()
        numbers.update((e["sourceKey"], e["number"]) for e in body["entries"])
        after = body["nextAfter"]
    return numbers


def acknowledged(response: httpx.Response) -> dict[str, int]:
    return {n["sourceKey"]: n["number"] for n in response.json()["numbers"]}


def check_numbering(final: dict[str, int], seen: list[dict[str, int]]) -> None:
    """Dense from 1, one number per key, every acknowledged number still there."""
    assert sorted(final.values()) == list(range(1, len(final) + 1))
    for got in seen:
        for key, number in got.items():
            assert final.get(key) == number, (key, number, final.get(key))


def replica(path: Path, url: str) -> Server:
    return Server(path, {"ATTRIBUTION_DATABASE_URL": url, "ATTRIBUTION_MAX_QUEUE": "64"})


@pytest.fixture
def database(postgres: PostgresServer, request: pytest.FixtureRequest) -> str:
    return postgres.create_database(f"replicas_{request.node.name[5:40]}".lower())


def test_two_replicas_share_one_dense_numbering(tmp_path: Path, database: str) -> None:
    with (
        serving(tmp_path / "a.sqlite3", {"ATTRIBUTION_DATABASE_URL": database}) as a,
        serving(tmp_path / "b.sqlite3", {"ATTRIBUTION_DATABASE_URL": database}) as b,
    ):
        seen: list[dict[str, int]] = []
        failures: list[str] = []
        barrier = threading.Barrier(16)

        def client(seed: int) -> None:
            rng = random.Random(seed)
            bases = [a.base, b.base]
            try:
                barrier.wait()
                for turn in range(6):
                    with httpx.Client(base_url=bases[(seed + turn) % 2], timeout=30) as c:
                        sent = register(c, "shared", rng.sample(URLS, rng.randint(1, 5)))
                    if sent.status_code != 200:
                        failures.append(f"{sent.status_code} {sent.text[:200]}")
                    else:
                        seen.append(acknowledged(sent))
            except Exception as exc:  # handed to the main thread, which fails the test
                failures.append(repr(exc))

        threads = [threading.Thread(target=client, args=(seed,)) for seed in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not failures
        assert len(seen) == 16 * 6
        with httpx.Client(base_url=a.base, timeout=30) as ca:
            from_a = registry(ca, "shared")
        with httpx.Client(base_url=b.base, timeout=30) as cb:
            from_b = registry(cb, "shared")
        assert from_a == from_b
        check_numbering(from_b, seen)
        # a replica killed outright loses nothing acknowledged; the other goes on numbering
        a.process.send_signal(signal.SIGKILL)
        a.process.wait(10)
        with httpx.Client(base_url=b.base, timeout=30) as cb:
            assert registry(cb, "shared") == from_b
            new = acknowledged(register(cb, "shared", ["https://example.com/after-the-kill"]))
        assert list(new.values()) == [len(from_b) + 1]


def _timed(call: Any) -> tuple[httpx.Response | None, float]:
    started = time.monotonic()
    try:
        response = call()
    except httpx.TransportError:
        response = None
    return response, time.monotonic() - started


def _wait_status(client: httpx.Client, path: str, status: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = client.get(path)
            if last.status_code == status:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    pytest.fail(f"{path} did not answer {status} within {timeout} s (last: {last})")


def _store_wait_s() -> float:
    """How long the service's PostgreSQL store waits for a connection (its default)."""
    from attribution.service._postgres import PostgresConversationStore

    wait = inspect.signature(PostgresConversationStore).parameters["wait_timeout_s"].default
    assert isinstance(wait, int | float)
    return float(wait)


def _unavailable(response: httpx.Response | None) -> None:
    assert response is not None
    assert response.status_code == 503, response.text[:300]
    assert response.headers.get("retry-after") == "1"
    assert response.json()["error"]["type"] == "store_error"


@pytest.fixture
def stopped_database(postgres: PostgresServer) -> Iterator[PostgresServer]:
    """The session's server, stopped for the test and running again after it."""
    postgres.create_database("outage")
    postgres.stop("fast")
    try:
        yield postgres
    finally:
        if not postgres.running():
            postgres.start()


def test_a_replica_rides_out_the_database_being_down(
    tmp_path: Path, stopped_database: PostgresServer
) -> None:
    server = replica(tmp_path / "unused.sqlite3", stopped_database.url("outage"))
    try:
        server.wait_log("models_ready", timeout=120)
        with httpx.Client(base_url=server.base, timeout=30) as client:
            # started without its database: alive, not ready, 503 where the store is needed
            assert client.get("/healthz").status_code == 200
            ready = client.get("/readyz")
            assert ready.status_code == 503
            assert ready.json()["status"] == "store_unavailable"
            response, took = _timed(lambda: register(client, "c", URLS[:3]))
            _unavailable(response)
            assert took < REQUEST_LIMIT_S
            answer = {"answer": "Paris is in France.", "sources": [web(URLS[0])]}
            assert client.post("/v1/attributions", json=answer).status_code == 200
            with_conversation = client.post(
                "/v1/attributions", json={**answer, "conversationId": "c"}
            )
            _unavailable(with_conversation)
            # the database comes up: the replica recovers by itself (schema created then)
            stopped_database.start()
            _wait_status(client, "/readyz", 200)
            first = register(client, "c", URLS[:3])
            assert first.status_code == 200, first.text[:300]

        # under load, the database crashes and restarts
        seen: list[dict[str, int]] = [acknowledged(first)]
        statuses: list[int | None] = []
        slowest = [0.0]
        stop = threading.Event()

        def load(seed: int) -> None:
            rng = random.Random(seed)
            with httpx.Client(base_url=server.base, timeout=30) as c:
                while not stop.is_set():
                    response, took = _timed(lambda: register(c, "c", rng.sample(URLS, 3)))
                    slowest[0] = max(slowest[0], took)
                    statuses.append(None if response is None else response.status_code)
                    if response is not None and response.status_code == 200:
                        seen.append(acknowledged(response))
                    elif response is not None:
                        _unavailable(response)
                    time.sleep(0.05)

        threads = [threading.Thread(target=load, args=(seed,)) for seed in range(8)]
        for thread in threads:
            thread.start()
        time.sleep(2)
        before_crash = len(seen)
        stopped_database.stop("immediate")  # a crash: no clean shutdown
        # longer than the store's wait for a connection, so calls meanwhile must 503 (an
        # outage shorter than that may be ridden out unseen: calls wait, then succeed)
        time.sleep(_store_wait_s() + 3)
        stopped_database.start()
        time.sleep(6)
        stop.set()
        for thread in threads:
            thread.join(60)
        assert set(statuses) <= {200, 503}, sorted(set(map(str, statuses)))
        assert 503 in statuses  # the outage was seen ...
        assert statuses[-8:].count(200) == 8 or statuses.count(200) > before_crash  # ... and over
        assert slowest[0] < REQUEST_LIMIT_S
        with httpx.Client(base_url=server.base, timeout=30) as client:
            _wait_status(client, "/readyz", 200)
            after = register(client, "c", ["https://example.com/after-the-crash"])
            assert after.status_code == 200, after.text[:300]
            final = registry(client, "c")
        check_numbering(final, [*seen, acknowledged(after)])
        assert not any('"unhandled_error"' in line for line in server.log)
    finally:
        server.stop()


def test_a_newer_schema_is_refused_and_migration_is_idempotent(postgres: PostgresServer) -> None:
    import psycopg

    from attribution.service._postgres import SCHEMA_VERSION, PostgresConversationStore
    from attribution.service._store import StoreError

    url = postgres.create_database("schema_versions")
    for _ in range(2):  # a second start (or replica) finds the schema and changes nothing
        with PostgresConversationStore(url) as store:
            assert store.check() is None
            assert store.schema_version() == SCHEMA_VERSION
            store.register("c", "web", "https://example.com/a")
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM schema_version").fetchone() == (1,)
        conn.execute("UPDATE schema_version SET version = 99")
    with PostgresConversationStore(url) as store:
        problem = store.check()
        assert problem is not None
        assert "schema version 99" in problem
        with pytest.raises(StoreError, match="upgrade the service"):
            store.register("c", "web", "https://example.com/b")


def test_bad_database_urls_stop_the_start_naming_the_setting(tmp_path: Path) -> None:
    from attribution import ConfigError
    from attribution.service import Settings

    with pytest.raises(ConfigError, match="database_url") as caught:
        Settings(database_url="mysql://root:hunter2@db/x")
    assert "hunter2" not in str(caught.value)
    server = Server(tmp_path / "x.sqlite3", {"ATTRIBUTION_DATABASE_URL": "sqlite:///x"})
    try:
        assert server.process.wait(60) == 2
        assert any("database_url" in line for line in server.log)
    finally:
        server.stop()
