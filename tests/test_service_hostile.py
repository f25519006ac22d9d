"""Issue 15: no request may cost more than its size. Hostile input against a real server on
loopback (``python -m attribution.service``), every request bounded in count and time.

- Structure is not amplified into text: 900-deep arrays of arrays come back about as large as
  they went in, with a warning saying what was cut, and the source-size limit applies to the
  extracted text (413 naming it).
- Registering sources takes the same limits; a conversation holds at most
  max_conversation_sources (409 conversation_full, nothing registered); the registry is
  listed a page at a time; attribution in a conversation reads only the entries it needs.
- Bad input is a 400 with the usual error body, never a 500: invalid UTF-8 inside a JSON string
  and nesting of 1,000 levels, on every body route and on NDJSON lines; the sources route
  decodes as strictly as the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import structlog

from tests.test_extractors import nested
from tests.test_service_server import Server, serving

STREAM = "/v1/attributions:stream"
MAX_SOURCE_CHARS = 100_000
MAX_SOURCES = 20
MAX_CONVERSATION_SOURCES = 30
HEADER_TIMEOUT_S = 2.0
BODY_TIMEOUT_S = 2.0
SOURCE = {"id": "s1", "type": "web", "uri": "https://example.com/a", "snippet": "Paris."}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    database = tmp_path_factory.mktemp("hostile") / "conversations.sqlite3"
    settings = {
        "ATTRIBUTION_MAX_SOURCE_CHARS": str(MAX_SOURCE_CHARS),
        "ATTRIBUTION_MAX_SOURCES": str(MAX_SOURCES),
        "ATTRIBUTION_MAX_CONVERSATION_SOURCES": str(MAX_CONVERSATION_SOURCES),
        "ATTRIBUTION_HEADER_TIMEOUT_S": str(HEADER_TIMEOUT_S),
        "ATTRIBUTION_BODY_TIMEOUT_S": str(BODY_TIMEOUT_S),
    }
    with serving(database, settings) as s:
        yield s


@pytest.fixture
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=60) as c:
        yield c


def error_of(response: httpx.Response, status: int, kind: str) -> str:
    """The message of an error response, after checking its status and the usual body."""
    assert response.status_code == status, response.text[:500]
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"type", "message"}, body
    assert body["error"]["type"] == kind, body
    message: str = body["error"]["message"]
    return message


# -- finding 4: 400s, never 500s, on bad UTF-8 and absurd nesting --------------------------------

BAD_UTF8 = b"caf\xc3 \xff\xfe"  # a cut two-byte sequence, then bytes UTF-8 never has
DEEP = b"[" * 1000 + b"]" * 1000


def _tool_outputs(output: bytes) -> bytes:
    return b'[{"toolName": "web_search", "output": ' + output + b"}]"


# Each body route with a JSON string it reads and a field that may hold any JSON value.
BODIES: dict[str, tuple[bytes, bytes]] = {
    "/v1/attributions": (
        b'{"answer": "' + BAD_UTF8 + b'", "sources": []}',
        b'{"answer": "x", "toolOutputs": ' + _tool_outputs(DEEP) + b"}",
    ),
    "/v1/extractions": (
        b'{"toolOutputs": ' + _tool_outputs(b'"' + BAD_UTF8 + b'"') + b"}",
        b'{"toolOutputs": ' + _tool_outputs(DEEP) + b"}",
    ),
    "/v1/verifications": (
        b'{"pairs": [{"claim": "' + BAD_UTF8 + b'", "passage": "x"}]}',
        b'{"pairs": ' + DEEP + b"}",
    ),
    "/v1/conversations/c-hostile/sources": (
        b'{"sources": [{"id": "' + BAD_UTF8 + b'", "type": "web"}]}',
        b'{"toolOutputs": ' + _tool_outputs(DEEP) + b"}",
    ),
    STREAM: (
        b'{"deltas": ["' + BAD_UTF8 + b'"], "sources": []}',
        b'{"deltas": [], "toolOutputs": ' + _tool_outputs(DEEP) + b"}",
    ),
}


@pytest.mark.parametrize("route", sorted(BODIES))
def test_bad_utf8_and_deep_nesting_are_400s_on_every_body_route(
    client: httpx.Client, route: str
) -> None:
    bad_utf8, deep = BODIES[route]
    headers = {"content-type": "application/json"}
    sent = client.post(route, content=bad_utf8, headers=headers)
    assert "not UTF-8 text: byte 0xc3" in error_of(sent, 400, "invalid_request")
    message = error_of(client.post(route, content=deep, headers=headers), 400, "invalid_request")
    # a typed field refuses the first array; a field of any JSON says how deep it went
    assert "nested deeper" in message or "got `array`" in message, message


def _ndjson(client: httpx.Client, *lines: bytes) -> httpx.Response:
    body = b"\n".join(lines) + b"\n"
    return client.post(STREAM, content=body, headers={"content-type": "application/x-ndjson"})


def _error_event(response: httpx.Response) -> dict[str, Any]:
    """The stream's last event: an ``error`` event with the usual error body."""
    assert response.status_code == 200, response.text[:500]
    last = response.text.strip().split("\r\n\r\n")[-1]
    fields = dict(line.split(": ", 1) for line in last.split("\r\n"))
    assert fields["event"] == "error", response.text[-500:]
    data: dict[str, Any] = json.loads(fields["data"])
    assert set(data) == {"error"}, data
    assert set(data["error"]) == {"type", "message"}, data
    return data["error"]


def test_bad_ndjson_lines_are_400s_before_the_stream_and_error_events_after(
    client: httpx.Client,
) -> None:
    head = json.dumps({"sources": [SOURCE]}).encode()
    first = _ndjson(client, b'{"deltas": ["' + BAD_UTF8 + b'"], "sources": []}')
    assert "line 1: not UTF-8" in error_of(first, 400, "invalid_request")
    deep = _ndjson(client, b'{"toolOutputs": ' + _tool_outputs(DEEP) + b"}")
    assert "line 1: JSON nested deeper" in error_of(deep, 400, "invalid_request")
    # after line 1 the status line is sent: a bad line ends the stream with an error event
    error = _error_event(_ndjson(client, head, b'{"delta": "Paris ' + BAD_UTF8 + b'"}'))
    assert error["type"] == "invalid_request"
    assert error["message"].startswith("line 2: not UTF-8"), error


def test_the_sources_route_decodes_strictly_naming_the_field(client: httpx.Client) -> None:
    route = "/v1/conversations/c-strict/sources"
    source = {**SOURCE, "pageNumber": "7"}
    message = error_of(client.post(route, json={"sources": [source]}), 400, "invalid_request")
    assert message.endswith("got `str` - at `$.sources[0].pageNumber`"), message
    unknown = {**SOURCE, "pageNo": 7}
    message = error_of(client.post(route, json={"sources": [unknown]}), 400, "invalid_request")
    assert message.endswith("unknown field `pageNo` - at `$.sources[0]`"), message
    # nothing was registered by the refused requests
    assert client.get("/v1/conversations/c-strict/citations/1").status_code == 404


# -- finding 1: structure is not amplified into text; limits apply to the extracted text --------


def test_deeply_nested_tool_output_is_not_amplified(client: httpx.Client) -> None:
    # 90 KB of arrays 900 deep: pretty-printed, it came back as 81 MB (360 KB as 325 MB)
    output = [nested(900) for _ in range(50)]
    body = json.dumps({"toolOutputs": [{"toolName": "some_api", "output": output}]}).encode()
    assert len(body) < MAX_SOURCE_CHARS
    headers = {"content-type": "application/json"}
    response = client.post("/v1/extractions", content=body, headers=headers)
    assert response.status_code == 200, response.text[:500]
    assert len(response.content) < len(body)
    (source,) = response.json()["sources"]
    assert source["fullContent"].count("[…]") == 50
    (warning,) = response.json()["warnings"]
    assert "nested deeper than 32 levels; 50 lists or objects" in warning["reason"]
    answer = {"answer": "The API returned nothing useful."}
    response = client.post(
        "/v1/attributions",
        json={**answer, "toolOutputs": [{"toolName": "some_api", "output": output}]},
    )
    assert response.status_code == 200, response.text[:500]
    assert len(response.content) < len(body)
    assert "nested deeper than 32 levels" in response.json()["warnings"][0]["reason"]


def test_source_size_limit_applies_to_the_extracted_text(client: httpx.Client) -> None:
    # 72 KB of [0,0] rows as given, 264 KB as indented text: over the limit
    tool_outputs = [{"toolName": "some_api", "output": [[0, 0]] * 12_000}]
    for route, extra in (("/v1/extractions", {}), ("/v1/attributions", {"answer": "Zero."})):
        response = client.post(route, json={**extra, "toolOutputs": tool_outputs})
        assert error_of(response, 413, "limit_exceeded") == (
            "the extracted source text is 264002; the limit (max_source_chars) is 100000"
        )


def test_the_stream_holds_extracted_text_to_the_limit_before_checking_claims(
    client: httpx.Client,
) -> None:
    tool_outputs = [{"toolName": "some_api", "output": [[0, 0]] * 12_000}]
    response = client.post(
        STREAM, json={"deltas": ["Zero is zero. ", "Zero again."], "toolOutputs": tool_outputs}
    )
    assert "event: claim" not in response.text  # no claim was checked against the text
    error = _error_event(response)
    assert error == {
        "type": "limit_exceeded",
        "message": "the extracted source text is 264002; the limit (max_source_chars) is 100000",
    }


# -- finding 3: registration takes the limits; conversations are capped and paged -------------


def web(n: int, text: str = "The tower is 330 metres tall.") -> dict[str, Any]:
    return {"id": f"w{n}", "type": "web", "uri": f"https://example.com/{n}", "snippet": text}


def test_registering_sources_takes_the_request_limits(client: httpx.Client) -> None:
    route = "/v1/conversations/c-limits/sources"
    many = {"sources": [web(n) for n in range(MAX_SOURCES + 1)]}
    assert error_of(client.post(route, json=many), 413, "limit_exceeded") == (
        f"the number of given sources is {MAX_SOURCES + 1}; the limit (max_sources) is 20"
    )
    large = {"sources": [web(1, "x" * MAX_SOURCE_CHARS), web(2, "y")]}
    message = error_of(client.post(route, json=large), 413, "limit_exceeded")
    assert message.endswith("the limit (max_source_chars) is 100000"), message
    rows = {"toolOutputs": [{"toolName": "some_api", "output": [[0, 0]] * 12_000}]}
    message = error_of(client.post(route, json=rows), 413, "limit_exceeded")
    assert message.startswith("the extracted source text is"), message
    assert client.get(route.replace("sources", "registry")).json()["entries"] == []


def test_a_conversation_is_capped_and_a_refused_call_registers_nothing(
    client: httpx.Client,
) -> None:
    conv = "/v1/conversations/c-cap"
    for first in (0, 15):  # two batches of 15 fill it to the cap of 30
        batch = {"sources": [web(n) for n in range(first, first + 15)]}
        assert client.post(f"{conv}/sources", json=batch).status_code == 200
    over = {"sources": [web(7), web(30), web(31)]}  # one known, two new
    assert error_of(client.post(f"{conv}/sources", json=over), 409, "conversation_full") == (
        "conversation 'c-cap' is full: it holds 30 sources and this would add 2 new ones; "
        "the limit (max_conversation_sources) is 30"
    )
    assert client.get(f"{conv}/citations/31").status_code == 404
    # sources it holds are still found, and answers citing them still attributed
    known = client.post(f"{conv}/sources", json={"sources": [web(7)]})
    assert known.status_code == 200
    (number,) = known.json()["numbers"]
    assert (number["number"], number["created"]) == (8, False)
    answer = {"answer": "The tower is 330 metres tall [8].", "conversationId": "c-cap"}
    assert client.post("/v1/attributions", json={**answer, "sources": [web(7)]}).status_code == 200
    refused = client.post("/v1/attributions", json={**answer, "sources": [web(99)]})
    assert "is full" in error_of(refused, 409, "conversation_full")


def test_the_registry_is_listed_a_page_at_a_time(client: httpx.Client) -> None:
    conv = "/v1/conversations/c-pages"
    batch = {"sources": [web(n) for n in range(MAX_SOURCES)]}
    assert client.post(f"{conv}/sources", json=batch).status_code == 200
    numbers: list[int] = []
    after: int | None = 0
    for _ in range(10):  # bounded: 20 entries in pages of 7 are three pages
        page = client.get(f"{conv}/registry", params={"after": after, "limit": 7}).json()
        assert len(page["entries"]) <= 7
        numbers += [e["number"] for e in page["entries"]]
        after = page["nextAfter"]
        if after is None:
            break
    assert numbers == list(range(1, MAX_SOURCES + 1))
    whole = client.get(f"{conv}/registry").json()  # the default page holds up to 1,000
    assert [e["number"] for e in whole["entries"]] == numbers
    assert whole["nextAfter"] is None
    for bad in ({"limit": 0}, {"limit": 1001}, {"after": -1}, {"limit": "x"}):
        error_of(client.get(f"{conv}/registry", params=bad), 400, "invalid_request")


def test_attribution_in_a_conversation_knows_numbers_it_did_not_send(
    client: httpx.Client,
) -> None:
    # the engine gets only the entries the answer needs, yet [5] (registered earlier, not
    # sent now) is known, not an unknown number, and [99] is unknown
    conv = "c-known"
    batch = {"sources": [web(n) for n in range(10)]}
    assert client.post(f"/v1/conversations/{conv}/sources", json=batch).status_code == 200
    answer = "The tower is 330 metres tall [5]. It stands in Paris [99]."
    body = {"answer": answer, "conversationId": conv, "sources": [web(100, "Paris.")]}
    result = client.post("/v1/attributions", json=body).json()
    verdicts = {m["number"]: m["verdict"] for m in result["markers"]}
    assert verdicts == {5: "unverifiable", 99: "unknown_number"}
    assert [n["number"] for n in result["numbering"]] == [11]


# -- finding 5, the low ones: metrics labels, the schema page, content types --------------------


def test_an_unknown_method_is_counted_as_other(client: httpx.Client) -> None:
    for method in ("FOO", "BREW", "PROPFIND"):
        assert client.request(method, "/v1/attributions").status_code == 405
    metrics = client.get("/metrics").text
    assert 'method="other"' in metrics
    assert not any(m in metrics for m in ('method="FOO"', "BREW", "PROPFIND"))


def test_the_schema_is_json_and_no_page_loads_a_third_party_script(client: httpx.Client) -> None:
    schema = client.get("/schema/openapi.json")
    assert schema.status_code == 200
    assert schema.json()["info"]["title"] == "attribution"
    for path in ("/schema", "/schema/swagger", "/schema/redoc", "/schema/elements", "/"):
        response = client.get(path)
        assert '<script src="http' not in response.text, path
        assert "cdn" not in response.text.lower(), path


def test_every_content_type_names_its_charset_once(client: httpx.Client) -> None:
    for path in ("/", "/metrics", "/healthz", "/static/app.js", "/schema/openapi.json"):
        content_type = client.get(path).headers["content-type"]
        assert content_type.count("charset") <= 1, (path, content_type)


def test_a_client_gone_mid_body_is_not_a_server_error(server: Server, client: httpx.Client) -> None:
    while not server.lines.empty():
        server.lines.get()
    head = (
        f"POST /v1/attributions HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        raw.sendall(head.encode() + b'{"answer": "The tower is')
        time.sleep(0.3)
    label = 'route="/v1/attributions",method="POST",status="499"'
    deadline = time.monotonic() + 10
    while label not in client.get("/metrics").text and time.monotonic() < deadline:
        time.sleep(0.2)
    metrics = client.get("/metrics").text
    assert label in metrics
    assert 'route="/v1/attributions",method="POST",status="500"' not in metrics
    logged = []
    while not server.lines.empty():
        logged.append(server.lines.get())
    assert any('"client_disconnected"' in line for line in logged)
    assert not any("unhandled_error" in line for line in logged)


# -- finding 5: content types, hosts, read timeouts ----------------------------------------------


@pytest.mark.parametrize("route", sorted(BODIES))
def test_a_body_not_declared_json_is_415_on_every_body_route(
    client: httpx.Client, route: str
) -> None:
    body = b'{"answer": "Paris.", "sources": []}'
    for content_type in (
        None,  # a browser's fetch of a Blob sends none
        "text/plain",  # a form or fetch across origins, with no CORS preflight
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin-1",
    ):
        headers = {} if content_type is None else {"content-type": content_type}
        message = error_of(
            client.post(route, content=body, headers=headers), 415, "unsupported_media_type"
        )
        assert "application/json" in message, message
    if route != STREAM:
        ndjson = {"content-type": "application/x-ndjson"}
        error_of(client.post(route, content=body, headers=ndjson), 415, "unsupported_media_type")
    # declared JSON, with its charset said or not: read as before
    for content_type in ("application/json", "Application/JSON; charset=UTF-8"):
        sent = client.post(route, content=b"{}", headers={"content-type": content_type})
        assert sent.status_code != 415, sent.text[:300]
    # a compressed body is named as such, not "malformed JSON at byte 0"
    import gzip

    headers = {"content-type": "application/json", "content-encoding": "gzip"}
    message = error_of(
        client.post(route, content=gzip.compress(body), headers=headers),
        415,
        "unsupported_media_type",
    )
    assert "Content-Encoding 'gzip'" in message, message


def test_only_loopback_hosts_are_served_when_bound_to_loopback(
    server: Server, client: httpx.Client
) -> None:
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", "[::2]:80"):
        message = error_of(client.get("/healthz", headers={"host": host}), 400, "invalid_host")
        assert "allowed_hosts" in message, message
        assert "localhost" in message, message
        sent = client.post("/v1/extractions", json={"toolOutputs": []}, headers={"host": host})
        error_of(sent, 400, "invalid_host")
    for host in (f"localhost:{server.port}", "127.0.0.1", f"[::1]:{server.port}", "LOCALHOST"):
        assert client.get("/healthz", headers={"host": host}).status_code == 200, host


def test_allowed_hosts_setting(tmp_path: pytest.TempPathFactory) -> None:
    from attribution.service import Settings

    assert Settings().allowed_host_names() == ("localhost", "127.0.0.1", "::1")
    assert Settings(host="0.0.0.0").allowed_host_names() == ("*",)
    custom = Settings(host="0.0.0.0", allowed_hosts="api.example.com, *.example.org")
    assert custom.allowed_host_names() == ("api.example.com", "*.example.org")
    from attribution import ConfigError
    from attribution.service._guard import host_allowed, host_name

    with pytest.raises(ConfigError, match="allowed_hosts"):
        Settings(allowed_hosts="a b/c")
    names = custom.allowed_host_names()
    assert host_allowed(host_name("eu.example.org:443"), names)
    assert host_allowed(host_name("API.example.com"), names)
    assert not host_allowed(host_name("example.org"), names)
    assert not host_allowed(host_name("api.example.com.evil"), names)


def _read_all(sock: socket.socket, limit_s: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes (and how long that took)."""
    started = time.monotonic()
    sock.settimeout(limit_s)
    received = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return received, time.monotonic() - started
        received += chunk


def test_headers_must_arrive_within_the_header_timeout(server: Server) -> None:
    # a client trickling its headers a byte at a time is cut off with 408
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        started = time.monotonic()
        for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"x" * 100:
            if select.select([raw], [], [], 0.2)[0]:  # the server answered: stop sending
                break
            raw.sendall(bytes([byte]))
        received, _ = _read_all(raw, HEADER_TIMEOUT_S + 5)
    assert time.monotonic() - started < HEADER_TIMEOUT_S + 5
    assert received.startswith(b"HTTP/1.1 408 "), received[:200]
    assert b'"request_timeout"' in received
    assert b"header_timeout_s" in received
    # a connection that never says anything is closed, with nothing sent
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        received, waited = _read_all(raw, HEADER_TIMEOUT_S + 5)
    assert received == b""
    assert waited < HEADER_TIMEOUT_S + 3
    # so is a kept-alive connection after its response, when no next request comes
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(0.5)
        raw.sendall(b"GET /hea")  # the next request's headers never finish
        received, waited = _read_all(raw, HEADER_TIMEOUT_S + 5)
    assert received.startswith(b"HTTP/1.1 200 "), received[:200]
    assert b"HTTP/1.1 408 " in received
    assert waited < HEADER_TIMEOUT_S + 3


def test_the_body_must_arrive_within_the_body_timeout(server: Server) -> None:
    head = (
        f"POST /v1/extractions HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        raw.sendall(head.encode() + b'{"toolOutputs": [')
        received, waited = _read_all(raw, BODY_TIMEOUT_S + 10)
    assert waited < BODY_TIMEOUT_S + 5
    status, _, rest = received.partition(b"\r\n")
    assert status.startswith(b"HTTP/1.1 408 "), received[:300]
    body = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert body["error"]["type"] == "request_timeout"
    assert "body_timeout_s" in body["error"]["message"]


def test_a_stream_whose_first_line_never_comes_ends_within_the_body_timeout(
    server: Server,
) -> None:
    # an NDJSON stream's later lines are bounded by stream_timeout_s; its first line, read
    # before the response starts, by body_timeout_s (it held the connection for ever)
    head = (
        f"POST /v1/attributions:stream HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        raw.sendall(head.encode() + b'5\r\n{"ans\r\n')  # part of a first line, then nothing
        received, waited = _read_all(raw, BODY_TIMEOUT_S + 10)
    assert waited < BODY_TIMEOUT_S + 5
    status, _, rest = received.partition(b"\r\n")
    assert status.startswith(b"HTTP/1.1 408 "), received[:300]
    assert b"first line did not arrive" in rest
    assert b"body_timeout_s" in rest


def test_the_plain_guard_answers_in_the_service_error_body() -> None:
    asyncio.run(_plain_guard_answers())


async def _plain_guard_answers() -> None:
    """The MCP server's HTTP guard: a foreign Host, a compressed body and one over the limit
    get the service's answers, before the app reads anything."""
    from attribution.service import Settings
    from attribution.service._guard import plain_guard

    reached: list[bytes] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append((await receive())["body"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    guard = plain_guard(app, Settings(host="127.0.0.1", max_body_bytes=1024))

    async def call(headers: dict[str, str], body: bytes) -> tuple[int, dict[str, Any] | bytes]:
        sent: list[dict[str, Any]] = []
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/mcp",
            "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
        }
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, Any]:
            return messages.pop(0)

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await guard(scope, receive, send)
        payload = sent[1]["body"]
        return sent[0]["status"], (json.loads(payload) if sent[0]["status"] != 200 else payload)

    local = {"host": "127.0.0.1:8765", "content-type": "application/json"}
    assert await call(local, b"{}") == (200, b"ok")
    assert reached == [b"{}"], "the body is handed on whole"
    status, body = await call({**local, "host": "evil.example"}, b"{}")
    assert (status, body["error"]["type"]) == (400, "invalid_host")  # type: ignore[index]
    status, body = await call({**local, "content-encoding": "gzip"}, b"x")
    assert (status, body["error"]["type"]) == (415, "unsupported_media_type")  # type: ignore[index]
    status, body = await call(local, b"x" * 1025)
    assert status == 413
    assert "over 1,024 bytes (max_body_bytes)" in body["error"]["message"]  # type: ignore[index]
    assert reached == [b"{}"]


def test_a_mistyped_setting_is_named_in_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from attribution.service import Settings
    from attribution.service._logging import configure_logging

    env = {"ATTRIBUTION_PROT": "9000", "ATTRIBUTION_EMBEDDER": "x", "ATTRIBUTION_FOO": "1"}
    assert Settings.unknown_variables({**env, "ATTRIBUTION_PORT": "1"}) == [
        ("ATTRIBUTION_FOO", None),
        ("ATTRIBUTION_PROT", "ATTRIBUTION_PORT"),
    ]
    monkeypatch.setenv("ATTRIBUTION_PROT", "9000")
    out = io.StringIO()
    before = structlog.get_config()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    configure_logging(Settings(), stream=out)
    try:
        (line,) = [json.loads(x) for x in out.getvalue().splitlines() if "unknown_setting" in x]
    finally:
        structlog.configure(**before)
        root.handlers[:] = handlers
        root.setLevel(level)
    assert line["variable"] == "ATTRIBUTION_PROT"
    assert line["did_you_mean"] == "ATTRIBUTION_PORT"
    assert line["level"] == "warning"


def test_thread_settings() -> None:
    from attribution import ConfigError
    from attribution.service import Settings

    assert Settings().onnx_threads() is None  # the cores
    assert Settings(model_threads=2).onnx_threads() == 2
    assert Settings(model_threads=2, intra_op_threads=1).onnx_threads() == 1
    env = {"ATTRIBUTION_INTRA_OP_THREADS": "1", "ATTRIBUTION_MODEL_THREADS": "4"}
    assert Settings.from_env(env).onnx_threads() == 1
    assert Settings(model_threads=2, intra_op_threads=1).busy_onnx_threads() is None  # fixed
    cores = os.cpu_count() or 1
    assert Settings().busy_onnx_threads() == 1  # as many model threads as cores: 1 each
    assert Settings(model_threads=1).busy_onnx_threads() == cores
    with pytest.raises(ConfigError, match="intra_op_threads"):
        Settings(intra_op_threads=0)
    # an infinite timeout is no timeout the server can keep (it crashed the start)
    for name in ("ATTRIBUTION_REQUEST_TIMEOUT_S", "ATTRIBUTION_STREAM_TIMEOUT_S"):
        with pytest.raises(ConfigError, match=r"= inf is out of bounds: > 0 and <= 86400"):
            Settings.from_env({name: "inf"})
    # the error names the variable to fix, not only the field behind it
    with pytest.raises(ConfigError, match=r"^environment: ATTRIBUTION_PORT: Expected `int`"):
        Settings.from_env({"ATTRIBUTION_PORT": "abc"})
    with pytest.raises(ConfigError, match=r"^environment: ATTRIBUTION_MAX_QUEUE: setting max_q"):
        Settings.from_env({"ATTRIBUTION_MAX_QUEUE": "0"})
