"""Issue 15's limits, against the real server on loopback (``python -m attribution.service``).

Every client here is bounded in count and time and talks only to the server the module starts.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from tests.test_service_server import (
    SOURCE,
    Server,
    _chunk,
    _dechunk,
    _open_ndjson,
    _read_until,
    parse_events,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(
        tmp_path_factory.mktemp("limits") / "conversations.sqlite3",
        stream_timeout_s="2",
    )
    try:
        s.wait_ready()
        yield s
    finally:
        s.stop()


def test_the_deadline_bounds_the_whole_stream(server: Server) -> None:
    """A body that keeps coming, each check quick: ``stream_timeout_s`` ends the whole stream."""
    started = time.monotonic()
    with _open_ndjson(server, {"sources": [SOURCE]}) as sock:
        received = b""
        for n in range(60):  # a sentence every 0.1 s, for at most 6 s
            try:
                line = json.dumps({"delta": f"It is {n} metres tall. "}).encode() + b"\n"
                sock.sendall(_chunk(line))
            except OSError:
                break
            sock.settimeout(0.1)
            try:
                data = sock.recv(65536)
                received += data
                if b"event: error" in received or not data:
                    break
            except TimeoutError:
                pass
        sock.settimeout(20)
        received = _read_until(sock, received, b"event: error")
    events = parse_events(_dechunk(received.split(b"\r\n\r\n", 1)[1]).rsplit("\n\n", 1)[0])
    assert events[-1]["event"] == "error"
    assert events[-1]["data"]["error"]["type"] == "timeout"
    assert "stream_timeout_s = 2" in events[-1]["data"]["error"]["message"]
    assert any(e["event"] == "claim" for e in events)
    assert time.monotonic() - started < 20
