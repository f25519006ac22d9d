"""The service as it runs: ``python -m attribution.service`` in a subprocess, over loopback.

What only a real server shows: events leaving while the request body is still arriving, a client
hanging up mid-stream, and a graceful shutdown on SIGTERM that finishes the request in flight,
exits 0 and leaves the SQLite database whole. Every wait is bounded in count and time.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from attribution.service._store import SqliteConversationStore
from tests.test_cli import imported
from tests.test_service_stream import (
    ANSWER,
    SOURCE,
    TOOL_OUTPUTS,
    check_stream,
    parse_events,
    split_deltas,
    without_timings,
)

ROOT = Path(__file__).resolve().parent.parent
STREAM = "/v1/attributions:stream"
LONG_ANSWER = " ".join(f"The tower is {n} metres tall." for n in range(60))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m attribution.service`` on a free loopback port; its log lines on a queue."""

    def __init__(
        self, database: Path, settings: dict[str, str] | None = None, **fields: str
    ) -> None:
        """``settings``: more ``ATTRIBUTION_*`` variables, over the defaults below; ``fields``:
        settings by field name (``stream_timeout_s="2"``)."""
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.database = database
        env = {
            **os.environ,
            # a server that has to be killed for hanging dumps every thread's stack first
            "PYTHONFAULTHANDLER": "1",
            "ATTRIBUTION_HOST": "127.0.0.1",
            "ATTRIBUTION_PORT": str(self.port),
            "ATTRIBUTION_DATABASE_PATH": str(database),
            "ATTRIBUTION_MODEL_THREADS": "1",
            "ATTRIBUTION_REQUEST_TIMEOUT_S": "20",
            "ATTRIBUTION_MAX_BODY_BYTES": "1000000",
            **(settings or {}),
            **{f"ATTRIBUTION_{name.upper()}": value for name, value in fields.items()},
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "attribution.service"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.log: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace")
            self.log.append(line)
            self.lines.put(line)

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.base, timeout=2) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    pytest.fail("the server exited at start:\n" + self.diagnosis())
                try:
                    if client.get("/readyz").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.2)
        pytest.fail(f"the server was not ready within {timeout} s:\n" + self.diagnosis())

    def wait_log(self, event: str, timeout: float = 20) -> dict[str, Any]:
        """The next log line of ``event`` (lines before it are dropped)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=min(left, 1.0))
            except queue.Empty:
                if self.process.poll() is not None and not self._reader.is_alive():
                    pytest.fail(f"no {event!r} log line: " + self.diagnosis())
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("event") == event:
                return record
        pytest.fail(f"no {event!r} log line within {timeout} s:\n" + self.diagnosis())

    def diagnosis(self) -> str:
        """Why a wait failed: the exit status of a server that exited, else the stacks of the
        one still running (SIGABRT: the fault handler prints every thread's, then it dies);
        then the end of its log."""
        if self.process.poll() is None:
            self._end(signal.SIGABRT, 10)
            state = "running, killed with SIGABRT for its stacks"
        else:
            state = f"exited with status {self.process.returncode}"
        self._reader.join(10)
        return f"the server {state}; its last log lines:\n" + "".join(self.log[-80:])

    def _end(self, sig: int, wait_s: float) -> None:
        """Send ``sig``, then kill the server if it has not exited within ``wait_s``."""
        self.process.send_signal(sig)
        try:
            self.process.wait(wait_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self._end(signal.SIGTERM, 30)
        self._reader.join(10)
        if self.process.stdout is not None:
            self.process.stdout.close()


@contextmanager
def serving(database: Path, settings: dict[str, str] | None = None) -> Iterator[Server]:
    """A ready :class:`Server`, stopped on leaving the block."""
    s = Server(database, settings)
    try:
        s.wait_ready()
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("server") / "conversations.sqlite3") as s:
        yield s


def queue_depth(client: httpx.Client) -> int:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith("attribution_queue_depth "):
            return int(float(line.split()[1]))
    raise AssertionError("no attribution_queue_depth in /metrics")


def test_stream_over_http_equals_the_full_attribution(server: Server) -> None:
    body = {"deltas": split_deltas(ANSWER), "toolOutputs": TOOL_OUTPUTS}
    with httpx.Client(base_url=server.base, timeout=30) as client:
        text = ""
        with client.stream("POST", STREAM, json=body) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            for chunk in response.iter_text():
                text += chunk
        events = parse_events(text)
        check_stream(events, ANSWER)
        full = client.post("/v1/attributions", json={"answer": ANSWER, "toolOutputs": TOOL_OUTPUTS})
        assert full.status_code == 200
        assert without_timings(events[-1]["data"]) == without_timings(full.json())


def _chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def _dechunk(body: bytes) -> str:
    text, view = b"", body
    for _ in range(100_000):
        size_line, _, view = view.partition(b"\r\n")
        size = int(size_line or b"0", 16)
        if size == 0:
            break
        text, view = text + view[:size], view[size + 2 :]
    return text.decode()


def _open_ndjson(server: Server, first_line: dict[str, Any]) -> socket.socket:
    head = (
        f"POST {STREAM} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    sock.sendall(head + _chunk(json.dumps(first_line).encode() + b"\n"))
    return sock


def _read_until(sock: socket.socket, received: bytes, marker: bytes | None) -> bytes:
    """Read until ``marker`` appears (None: until the server closes); bounded."""
    for _ in range(10_000):
        if marker is not None and marker in received:
            return received
        try:
            data = sock.recv(65536)
        except ConnectionResetError:  # closed with our unread body still in its buffer
            break
        if not data:
            break
        received += data
    assert marker is None, f"no {marker!r} in {received[-300:]!r}"
    return received


def test_body_over_the_limit_after_the_stream_started(server: Server) -> None:
    with _open_ndjson(server, {"sources": [SOURCE]}) as sock:
        sock.sendall(_chunk(b'{"delta": "It is 330 metres tall. Paris is nice."}\n'))
        received = _read_until(sock, b"", b"event: claim")
        try:  # the server may stop reading once it has answered
            for _ in range(20):
                sock.sendall(_chunk(b"\n" * 60_000))
            sock.sendall(_chunk(b""))
        except OSError:
            pass
        received = _read_until(sock, received, None)
    events = parse_events(_dechunk(received.split(b"\r\n\r\n", 1)[1]))
    assert events[-1]["event"] == "error"
    assert events[-1]["data"]["error"]["type"] == "limit_exceeded"
    with httpx.Client(base_url=server.base, timeout=10) as client:
        assert client.get("/healthz").status_code == 200


def test_claims_arrive_while_the_answer_is_still_being_sent(server: Server) -> None:
    """A chunked NDJSON body on a raw socket: the first claim comes before the rest is sent."""
    first = "The Eiffel Tower was completed in 1889. It is 330 metres "
    rest = "tall. Paris is the capital of France."
    with _open_ndjson(server, {"sources": [SOURCE]}) as sock:
        sock.sendall(_chunk(json.dumps({"delta": first}).encode() + b"\n"))
        received = _read_until(sock, b"", b"event: claim")
        assert b" 200 " in received.split(b"\r\n", 1)[0]
        assert b"id: claim-0" in received
        assert b"event: result" not in received
        sock.sendall(_chunk(json.dumps({"delta": rest}).encode() + b"\n") + _chunk(b""))
        received = _read_until(sock, received, None)
    events = parse_events(_dechunk(received.split(b"\r\n\r\n", 1)[1]))
    check_stream(events, first + rest)
    assert [e["data"]["verdict"] for e in events[:-1]] == ["supported"] * 3


def test_client_hanging_up_mid_stream(server: Server) -> None:
    body = {"deltas": split_deltas(LONG_ANSWER, 9), "sources": [SOURCE]}
    with httpx.Client(base_url=server.base, timeout=30) as client:
        for _ in range(3):
            with client.stream("POST", STREAM, json=body) as response:
                assert response.status_code == 200
                for chunk in response.iter_text():
                    if "event: claim" in chunk:
                        break  # leaving the block closes the connection mid-stream
        for _ in range(100):  # the abandoned work stops at its next model batch and frees its slot
            if queue_depth(client) == 0:
                break
            time.sleep(0.1)
        assert queue_depth(client) == 0
        after = client.post(
            STREAM, json={"deltas": ["It is 330 metres tall."], "sources": [SOURCE]}
        )
        assert after.status_code == 200
        assert parse_events(after.text)[-1]["event"] == "result"
        assert client.get("/healthz").status_code == 200
    assert server.process.poll() is None
    assert "unhandled_error" not in "".join(server.log)
    assert "Traceback" not in "".join(server.log)


@pytest.mark.skipif(
    importlib.util.find_spec("torch") is None, reason="torch is not installed: nothing to keep out"
)
def test_the_service_keeps_torch_out_where_it_is_installed(tmp_path: Path) -> None:
    server = Server(tmp_path / "c.sqlite3", {"PYTHONPROFILEIMPORTTIME": "1"})
    try:
        server.wait_log("models_ready", timeout=120)
    finally:
        server.stop()
    modules = imported("".join(server.log))
    assert {"spacy", "thinc", "onnxruntime"} <= modules  # it loaded what imports torch
    assert not [m for m in modules if m.startswith("torch.")]


def test_sigterm_finishes_the_request_in_flight(tmp_path: Path) -> None:
    database = tmp_path / "conversations.sqlite3"
    server = Server(database)
    try:
        server.wait_ready()
        with httpx.Client(base_url=server.base, timeout=30) as client:
            stored = client.post(
                "/v1/conversations/shutdown-c1/sources", json={"toolOutputs": TOOL_OUTPUTS}
            )
            assert stored.status_code == 200, stored.text
            before = client.get("/v1/conversations/shutdown-c1/registry").json()
        assert before

        # An NDJSON request whose body is held back until SIGTERM has been sent.
        go = threading.Event()
        outcome: dict[str, Any] = {}
        answer = "The Eiffel Tower was completed in 1889. It is 330 metres tall. The end."

        def body() -> Iterator[bytes]:
            yield (
                json.dumps({"sources": [SOURCE], "conversationId": "shutdown-c2"}).encode() + b"\n"
            )
            yield json.dumps({"delta": answer[:40]}).encode() + b"\n"
            go.wait(20)
            yield json.dumps({"delta": answer[40:]}).encode() + b"\n"

        def send() -> None:
            try:
                with httpx.Client(base_url=server.base, timeout=30) as c:
                    r = c.post(
                        STREAM, content=body(), headers={"content-type": "application/x-ndjson"}
                    )
                    outcome["status"], outcome["text"] = r.status_code, r.text
            except Exception as exc:  # reported by the assertions below
                outcome["error"] = repr(exc)

        sender = threading.Thread(target=send)
        sender.start()
        server.wait_log("attribution_stream_requested")  # the server has the request
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.5)  # shutdown has begun: the server no longer accepts connections
        go.set()
        sender.join(30)
        assert not sender.is_alive()
        assert "error" not in outcome, outcome
        assert outcome["status"] == 200
        events = parse_events(outcome["text"])
        check_stream(events, answer)
        assert events[-1]["data"]["summary"]["claims"] >= 2
        # attribution/service/__main__.py keeps uvicorn's re-raised SIGTERM from ending the
        # process with -15.
        assert server.process.wait(30) == 0
    finally:
        server.stop()
    log = "".join(server.log)
    assert "service_stopped" in log
    assert "Traceback" not in log

    store = SqliteConversationStore(str(database))
    try:
        assert before["nextAfter"] is None
        assert (
            msgspec.json.decode(msgspec.json.encode(store.registry("shutdown-c1").snapshot()))[
                "entries"
            ]
            == (before["entries"])
        )
        assert len(store.registry("shutdown-c2")) == 1  # written by the request in flight
    finally:
        store.close()


def test_a_database_file_that_cannot_be_opened_stops_the_start_in_one_line(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:  # a port free now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    service = subprocess.run(
        [sys.executable, "-m", "attribution.service"],
        env={
            **os.environ,
            "ATTRIBUTION_PORT": str(port),
            "ATTRIBUTION_DATABASE_PATH": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert service.returncode == 2
    assert service.stderr.startswith("attribution service: conversation store: cannot open")
    assert "Traceback" not in service.stderr
    assert service.stdout == "", "no server started, no model loaded"
