"""The MCP server as an agent reaches it: started by the SDK's own client over stdio, and over
streamable HTTP on loopback, with the real models and the real SQLite store.

Each transport gets one session that calls every tool (a server start loads the models, so
one start per transport keeps the suite quick); the conversation registry it writes is then
read back through the HTTP service's app, which shares the store.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import AsyncTestClient

pytest.importorskip("mcp", reason="the MCP server needs the mcp extra")

from mcp import Client, StdioServerParameters

from attribution import Attributor, ToolOutput, decode_json, extract_sources
from attribution.service import Settings, create_app

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "attribution" / "examples"
ANSWER = (EXAMPLES / "answer.md").read_text(encoding="utf-8")
TOOL_OUTPUTS: list[dict[str, Any]] = json.loads(
    (EXAMPLES / "tool_outputs.json").read_text(encoding="utf-8")
)
TOOLS = {"attribute", "extract", "verify", "register_sources", "resolve_citation"}


def _server_env(database: Path) -> dict[str, str]:
    return {
        **os.environ,
        "ATTRIBUTION_DATABASE_PATH": str(database),
        "ATTRIBUTION_MAX_SOURCES": "12",  # small enough for a test to go over it
        "ATTRIBUTION_MODEL_THREADS": "1",
        "ATTRIBUTION_BODY_TIMEOUT_S": "3",
        "ATTRIBUTION_MAX_BODY_BYTES": "65536",
    }


def _text(result: Any) -> str:
    (block,) = result.content
    return str(block.text)


async def _call_every_tool(client: Client, conversation: str) -> dict[str, Any]:
    """Call each tool the way an agent would; check what it answers; return the registry."""
    listed = await client.list_tools()
    assert {t.name for t in listed.tools} == TOOLS
    for tool in listed.tools:
        assert tool.input_schema["type"] == "object", tool.name
        assert len(tool.description or "") > 80, "written for a model"

    # attribute: the bundled example, numbered in a conversation
    result = await client.call_tool(
        "attribute",
        {"answer": ANSWER, "toolOutputs": TOOL_OUTPUTS, "conversationId": conversation},
    )
    assert not result.is_error, _text(result)
    checked = result.structured_content
    assert json.loads(_text(result)) == checked, "the text block is the same JSON"
    expected = Attributor().attribute(
        ANSWER, decode_json(json.dumps(TOOL_OUTPUTS), list[ToolOutput])
    )
    assert [c["verdict"] for c in checked["claims"]] == [c.verdict for c in expected.claims]
    markers = {(m["marker"], m["number"]): m["verdict"] for m in checked["markers"]}
    assert markers[("[9]", 9)] == "unknown_number"
    assert "[9]" not in checked["answer"], "an unknown number is dropped by default"
    kept = await client.call_tool(
        "attribute",
        {"answer": ANSWER, "toolOutputs": TOOL_OUTPUTS, "options": {"dropUnknown": False}},
    )
    assert "[9]" in kept.structured_content["answer"]

    # extract: the same sources as the library
    extracted = await client.call_tool("extract", {"toolOutputs": TOOL_OUTPUTS})
    assert not extracted.is_error, _text(extracted)
    library = extract_sources(decode_json(json.dumps(TOOL_OUTPUTS), list[ToolOutput]))
    assert [s["id"] for s in extracted.structured_content["sources"]] == [
        s.id for s in library.sources
    ]

    # verify: one pair, support and contradiction
    good = await client.call_tool(
        "verify",
        {"claim": "The tower is 330 metres tall.", "passage": "The tower is 330 metres tall."},
    )
    bad = await client.call_tool(
        "verify",
        {"claim": "Paris is the capital of Germany.", "passage": "Berlin is Germany's capital."},
    )
    assert good.structured_content["label"] == "supported"
    assert bad.structured_content["support"] < good.structured_content["support"]
    assert 0.0 <= bad.structured_content["contradiction"] <= 1.0

    # register_sources and resolve_citation: the numbers the attribution gave are kept
    registered = await client.call_tool(
        "register_sources", {"conversationId": conversation, "toolOutputs": TOOL_OUTPUTS}
    )
    assert not registered.is_error, _text(registered)
    numbers = registered.structured_content["numbers"]
    assert not any(n["created"] for n in numbers), "attribute numbered them already"
    by_number = {n["number"] for n in numbers}
    assert by_number == {n["number"] for n in checked["numbering"]}
    entry = await client.call_tool(
        "resolve_citation", {"conversationId": conversation, "number": 1}
    )
    assert not entry.is_error, _text(entry)
    assert entry.structured_content["number"] == 1
    assert entry.structured_content["sourceKey"] == numbers[0]["sourceKey"]

    # errors are results the model can act on, and the server stays up
    errors = {
        "bad argument": await client.call_tool("verify", {"claim": 3, "passage": "x"}),
        "blank claim": await client.call_tool("verify", {"claim": " ", "passage": "x"}),
        "unknown field": await client.call_tool("extract", {"toolOutputs": [], "extra": 1}),
        "snake case": await client.call_tool(
            "extract", {"toolOutputs": [{"tool_name": "t", "output": "x"}]}
        ),
        "both given": await client.call_tool(
            "register_sources",
            {"conversationId": conversation, "sources": [], "toolOutputs": []},
        ),
        "unknown number": await client.call_tool(
            "resolve_citation", {"conversationId": conversation, "number": 999}
        ),
        "over a limit": await client.call_tool(
            "extract", {"toolOutputs": [{"toolName": "t", "output": "x"}] * 13}
        ),
        "unknown tool": await client.call_tool("summarise", {}),
    }
    assert all(r.is_error for r in errors.values()), {k: _text(r) for k, r in errors.items()}
    assert "$.claim" in _text(errors["bad argument"])
    # the tool's own argument is named, not the HTTP body's $.pairs[0].claim
    assert "$.claim is blank: there is nothing to check" in _text(errors["blank claim"])
    assert "extra" in _text(errors["unknown field"])
    assert "(the names are camelCase: `toolName`)" in _text(errors["snake case"])
    assert "exactly one of" in _text(errors["both given"])
    assert "[999]" in _text(errors["unknown number"])
    assert "max_sources" in _text(errors["over a limit"])
    assert "attribute, extract" in _text(errors["unknown tool"])
    after = await client.call_tool(
        "resolve_citation", {"conversationId": conversation, "number": 1}
    )
    assert not after.is_error, "still serving after the errors"
    return {n["sourceKey"]: n["number"] for n in numbers}


async def _registry_through_the_service(database: Path, conversation: str) -> dict[str, int]:
    app = create_app(Settings(database_path=str(database), model_threads=1))
    async with AsyncTestClient(app=app, base_url="http://127.0.0.1") as http:
        response = await http.get(f"/v1/conversations/{conversation}/registry")
        assert response.status_code == 200, response.text
        return {e["sourceKey"]: e["number"] for e in response.json()["entries"]}


async def test_every_tool_over_stdio(tmp_path: Path) -> None:
    database = tmp_path / "registries.sqlite3"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "attribution", "mcp", "--database", str(database)],
        env=_server_env(database),
        cwd=str(tmp_path),
    )
    async with Client(params, read_timeout_seconds=120) as client:
        numbers = await _call_every_tool(client, "agent-run-1")
    assert await _registry_through_the_service(database, "agent-run-1") == numbers


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(process: subprocess.Popen[bytes], port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listened on port {port} within {seconds} s")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_every_tool_over_streamable_http(tmp_path: Path, mode: str) -> None:
    database = tmp_path / "registries.sqlite3"
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "attribution", "mcp", "--http", f"127.0.0.1:{port}"],
        env=_server_env(database),
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(process, port, 120)
        url = f"http://127.0.0.1:{port}/mcp"
        async with Client(url, mode=mode, read_timeout_seconds=120) as client:
            numbers = await _call_every_tool(client, f"agent-run-{mode}")
        # a page on another origin cannot reach a loopback install (DNS rebinding): the
        # service's own Host check (allowed_hosts), whatever address the server is bound to
        foreign = httpx.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Host": "evil.example", "Origin": "http://evil.example"},
        )
        assert foreign.status_code == 400, foreign.text
        assert foreign.json()["error"]["type"] == "invalid_host"
        if mode == "auto":
            # the HTTP service's body limits hold here too: a body that stops coming is a 408
            # within body_timeout_s (3 s here), not a connection held for ever
            head = (
                f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
            )
            started = time.monotonic()
            with socket.create_connection(("127.0.0.1", port), timeout=15) as raw:
                raw.sendall(head.encode())
                received = b""
                while chunk := raw.recv(4096):  # to the close: headers and body may part
                    received += chunk
            assert received.startswith(b"HTTP/1.1 408 "), received[:200]
            assert b"body_timeout_s" in received
            assert time.monotonic() - started < 10
            json_type = {"content-type": "application/json"}
            big = httpx.post(url, content=b"x" * 70_000, headers=json_type)
            assert big.status_code == 413, big.text
            assert "max_body_bytes" in big.json()["error"]["message"]
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert await _registry_through_the_service(database, f"agent-run-{mode}") == numbers


def test_a_bad_http_address_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    from attribution._cli import main

    assert main(["mcp", "--http", "localhost"]) == 2
    assert "--http takes HOST:PORT" in capsys.readouterr().err


def test_an_address_it_cannot_listen_on_is_refused_before_the_models_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from attribution._cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        assert main(["mcp", "--http", f"127.0.0.1:{port}"]) == 2
        assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in (
            capsys.readouterr().err
        )
        assert time.monotonic() - started < 5, "no model was loaded first"
        # the HTTP service says the same, with its exit status for bad settings
        service = subprocess.run(
            [sys.executable, "-m", "attribution.service"],
            env={**os.environ, "ATTRIBUTION_PORT": str(port)},
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert service.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in service.stderr


def test_every_address_a_name_gives_is_probed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name can give two addresses ("localhost": ::1 and 127.0.0.1) and the server binds
    both: the second one taken must be refused too, not only the first."""
    from attribution import InputError
    from attribution.service import check_listen

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        def two(host: str, port: int, *args: object, **kwargs: object) -> list[tuple[Any, ...]]:
            return [
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.2", port)),
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
            ]

        monkeypatch.setattr(socket, "getaddrinfo", two)
        with pytest.raises(InputError, match=r"cannot listen on twohosts:\d+ \(at 127\.0\.0\.1\)"):
            check_listen("twohosts", port)
        check_listen("twohosts", _free_port())  # both free: no error


def test_bound_to_every_address_it_answers_for_any_host(tmp_path: Path) -> None:
    """The hosts served follow the address --http binds, not ATTRIBUTION_HOST (loopback by
    default): bound to 0.0.0.0 it refused every remote name with invalid_host."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "attribution", "mcp", "--http", f"0.0.0.0:{port}"],
        env=_server_env(tmp_path / "registries.sqlite3"),
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(process, port, 120)
        answer = httpx.post(
            f"http://127.0.0.1:{port}/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Host": f"myserver.example:{port}", "Accept": "application/json"},
        )
        assert "invalid_host" not in answer.text, answer.text
    finally:
        process.terminate()
        process.wait(timeout=30)


def _read_line(process: subprocess.Popen[bytes], seconds: float) -> dict[str, Any]:
    """The server's next line on stdout, or a failure after ``seconds`` (no hang)."""
    import selectors

    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(seconds):
            raise AssertionError(f"no answer within {seconds} s")
    return json.loads(process.stdout.readline())  # type: ignore[no-any-return]


def test_a_line_the_transport_cannot_read_is_answered_over_stdio(tmp_path: Path) -> None:
    """The SDK's stdio transport dropped such a line without a word and the client waited for
    its answer forever (a lone surrogate escape, deep nesting, bytes that are not UTF-8)."""
    database = tmp_path / "registries.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "attribution", "mcp", "--database", str(database)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=_server_env(database),
        cwd=str(tmp_path),
    )
    assert process.stdin is not None

    def send(line: bytes) -> None:
        assert process.stdin is not None
        process.stdin.write(line + b"\n")
        process.stdin.flush()

    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}
        send(
            json.dumps(
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}
            ).encode()
        )
        assert _read_line(process, 120)["id"] == 1
        send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        call = (
            b'{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}'
        )
        surrogate = b'{"claim": "Paris is in \\ud800 France.", "passage": "Paris is in France."}'
        deep = b'{"toolOutputs": [{"toolName": "x", "output": ' + b"[" * 300 + b"]" * 300 + b"}]}"
        latin1 = b'{"claim": "caf\xe9", "passage": "x"}'
        cases = [
            (call % (b"2", b"verify", surrogate), 2, -32700, "lone surrogate"),
            (call % (b"3", b"extract", deep), 3, -32700, "nested deeper"),
            (call % (b'"four"', b"verify", latin1), "four", -32700, "byte 0xe9"),
            (b"not json", None, -32700, "not JSON"),
            (b'{"jsonrpc": "1.0", "id": 5, "method": "tools/list"}', 5, -32600, "JSON-RPC 2.0"),
            # the TypeScript SDK writes the id last, after params (which may hold an "id")
            (
                b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"verify","arguments":'
                b'{"claim":"caf\xe9","passage":"x","id":3}},"id":9}',
                9,
                -32700,
                "byte 0xe9",
            ),
        ]
        for line, request_id, code, words in cases:
            send(line)
            answer = _read_line(process, 30)
            assert answer["id"] == request_id
            assert answer["error"]["code"] == code
            assert words in answer["error"]["message"]
        # a response the client sends is never answered, readable or not
        send(b'{"jsonrpc": "2.0", "id": 77, "result": {"x": "\\ud800"}}')
        # nothing else in the process reads the protocol's input
        if Path(f"/proc/{process.pid}/fd/0").exists():
            assert os.readlink(f"/proc/{process.pid}/fd/0") == "/dev/null"
        # and the server goes on answering
        send(b'{"jsonrpc": "2.0", "id": 6, "method": "tools/list"}')
        tools = {tool["name"] for tool in _read_line(process, 30)["result"]["tools"]}
        assert tools == TOOLS
    finally:
        process.stdin.close()
        process.wait(timeout=60)
        assert process.stdout is not None
        process.stdout.close()
    assert process.returncode == 0
