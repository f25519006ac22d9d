"""Conversation stores under concurrent registration: SQLite against PostgreSQL (issue 16).

Run: ``.venv/bin/python -m benchmarks.store_speed [--clients 16] [--calls 2000]
[--conversations 4] [--http] [--out benchmarks/out/store_speed.json]``.

Needs Debian's ``postgresql`` package (``initdb``, ``pg_ctl``): a server is started in a
temporary folder on a free loopback port, as the tests do (``tests/postgres_server.py``), with
PostgreSQL's default durability (``fsync`` and ``synchronous_commit`` on). Nothing but
127.0.0.1 is contacted.

**Store** (default): ``--clients`` threads share one store object, as a service process's
worker threads do, and call ``register_sources`` back to back with 3 sources each, drawn from
200 URLs, into ``--conversations`` conversations (so calls in one conversation contend for its
numbering, and most sources are found rather than created), until ``--calls`` calls were made.
**HTTP** (``--http``): the same calls as ``POST /v1/conversations/{id}/sources`` from
``--clients`` client threads against real service processes: one replica on SQLite, one
replica on PostgreSQL, and two replicas on one PostgreSQL database, the clients alternating
between them.

Reported per store: calls per second (a call registers 3 sources in one transaction), and
p50 / p95 / max latency per call. Prints a Markdown table and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attribution import CitationSource
from benchmarks.foundation import commit

URLS = [f"https://example.com/page/{i}" for i in range(200)]


def _sources(rng: random.Random) -> list[CitationSource]:
    return [CitationSource(id=u, type="web_result", uri=u) for u in rng.sample(URLS, 3)]


def drive(
    call: Callable[[random.Random, str], None], clients: int, calls: int, conversations: int
) -> dict[str, Any]:
    """``clients`` threads calling ``call(rng, conversation)`` until ``calls`` calls were made."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    left = [calls]
    barrier = threading.Barrier(clients)

    def client(seed: int) -> None:
        rng = random.Random(seed)
        barrier.wait()
        while True:
            with lock:
                if left[0] <= 0:
                    return
                left[0] -= 1
            started = time.perf_counter()
            try:
                call(rng, f"conv-{rng.randrange(conversations)}")
            except Exception as exc:  # counted, never hidden
                with lock:
                    errors.append(f"{type(exc).__name__}: {exc}"[:200])
                continue
            took = time.perf_counter() - started
            with lock:
                latencies.append(took)

    threads = [threading.Thread(target=client, args=(seed,)) for seed in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    return {
        "calls": calls,
        "ok": len(latencies),
        "errors": len(errors),
        "first_errors": errors[:3],
        "seconds": round(seconds, 2),
        "calls_per_s": round(len(latencies) / seconds, 1),
        "p50_ms": round(cuts[49] * 1000, 1),
        "p95_ms": round(cuts[94] * 1000, 1),
        "max_ms": round(max(latencies, default=0.0) * 1000, 1),
    }


def store_rows(server: Any, folder: Path, args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    from attribution.service import ConversationStore, open_store

    # PostgreSQL with the store's defaults: a pool of at most 8 connections
    stores: dict[str, ConversationStore] = {
        "SQLite (WAL, one file)": open_store(
            database_url=None, database_path=folder / "store.sqlite3"
        ),
        "PostgreSQL (pool of 8)": open_store(
            database_url=server.create_database("store_speed"), database_path=""
        ),
    }
    rows = {}
    for name, store in stores.items():
        try:
            assert store.check() is None
            store.register_sources("warm-up", _sources(random.Random(0)))

            def call(rng: random.Random, conv: str, store: Any = store) -> None:
                store.register_sources(conv, _sources(rng))

            rows[name] = drive(call, args.clients, args.calls, args.conversations)
            print(name, rows[name], flush=True)
        finally:
            store.close()
    return rows


def http_rows(server: Any, folder: Path, args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    import httpx

    from tests.test_service_server import Server

    url = server.create_database("http_speed")
    setups = {
        "SQLite, 1 replica": [{}],
        "PostgreSQL, 1 replica": [{"ATTRIBUTION_DATABASE_URL": url}],
        "PostgreSQL, 2 replicas": [{"ATTRIBUTION_DATABASE_URL": url}] * 2,
    }
    rows = {}
    for n, (name, replicas) in enumerate(setups.items()):
        servers = [
            Server(folder / f"http-{n}.sqlite3", {**env, "ATTRIBUTION_MAX_QUEUE": "64"})
            for env in replicas
        ]
        try:
            for s in servers:
                s.wait_ready(180)
            local = threading.local()

            def call(
                rng: random.Random,
                conv: str,
                servers: list[Any] = servers,
                local: Any = local,
                n: int = n,
            ) -> None:
                if not hasattr(local, "clients"):
                    local.clients = [httpx.Client(base_url=s.base, timeout=60) for s in servers]
                c = local.clients[rng.randrange(len(local.clients))]
                body = {
                    "sources": [
                        {"id": u, "type": "web_result", "uri": u} for u in rng.sample(URLS, 3)
                    ]
                }
                response = c.post(f"/v1/conversations/{conv}-{n}/sources", json=body)
                if response.status_code != 200:
                    raise RuntimeError(f"{response.status_code} {response.text[:100]}")

            rows[name] = drive(call, args.clients, args.calls, args.conversations)
            print(name, rows[name], flush=True)
        finally:
            for s in servers:
                s.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--conversations", type=int, default=4)
    parser.add_argument("--http", action="store_true", help="through real service processes")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/store_speed.json"))
    args = parser.parse_args(argv)

    from tests.postgres_server import PostgresServer, find_binaries

    binaries = find_binaries()
    if binaries is None:
        print("no initdb/pg_ctl: apt-get install postgresql", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="attribution-store-speed-"))
    server = PostgresServer(binaries)
    try:
        server.start()
        rows = (http_rows if args.http else store_rows)(server, folder, args)
    finally:
        server.remove()
        shutil.rmtree(folder, ignore_errors=True)
    record = {
        "commit": commit(),
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "args": {k: str(v) for k, v in vars(args).items()},
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1))
    print("\n| store | calls | errors | calls per s | p50 ms | p95 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, r in rows.items():
        print(
            f"| {name} | {r['ok']} | {r['errors']} | {r['calls_per_s']} | {r['p50_ms']} | "
            f"{r['p95_ms']} | {r['max_ms']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
