"""``POST /v1/attributions:stream`` through a real app (real models, real store).

Server-sent events are parsed by hand (the format is three lines per event); the final ``result``
event is compared with ``POST /v1/attributions`` for the same answer and sources.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from structlog.testing import capture_logs

from attribution.service import Settings, create_app
from tests._service import wait_until_ready

EXAMPLES = Path(__file__).resolve().parent.parent / "attribution" / "examples"
ANSWER = (EXAMPLES / "answer.md").read_text(encoding="utf-8")
TOOL_OUTPUTS: list[dict[str, Any]] = json.loads(
    (EXAMPLES / "tool_outputs.json").read_text(encoding="utf-8")
)
SOURCE = {
    "id": "e",
    "type": "web",
    "fullContent": "The Eiffel Tower was completed in 1889. It is 330 metres tall. "
    "Paris is the capital of France.",
}

pytestmark = pytest.mark.anyio

Client = AsyncTestClient[Litestar]
STREAM = "/v1/attributions:stream"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def client(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    db = tmp_path_factory.mktemp("stream") / "conversations.sqlite3"
    settings = Settings(
        database_path=str(db),
        max_answer_chars=4_000,
        max_body_bytes=200_000,
        max_queue=4,
        model_threads=2,
    )
    async with AsyncTestClient(app=create_app(settings), base_url="http://127.0.0.1") as c:
        await wait_until_ready(c)
        yield c


def parse_events(text: str) -> list[dict[str, Any]]:
    """``[{"id", "event", "data"}]`` of a ``text/event-stream`` body."""
    events = []
    for block in re.split(r"\r?\n\r?\n", text):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            fields[name] = value
        if fields:
            fields["data"] = json.loads(fields["data"])
            events.append(fields)
    return events


def split_deltas(answer: str, size: int = 7) -> list[str]:
    """The answer in pieces of ``size`` characters, as a model might generate it."""
    return [answer[i : i + size] for i in range(0, len(answer), size)]


def without_timings(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "timingsMs"}


def check_stream(events: list[dict[str, Any]], answer: str, unit: str = "codepoint") -> None:
    """Claims in order with ids claim-0, claim-1, ..., then one result; spans are the answer's."""
    *claims, last = events
    assert [e["event"] for e in claims] == ["claim"] * len(claims)
    assert [e["id"] for e in claims] == [f"claim-{i}" for i in range(len(claims))]
    assert (last["event"], last["id"]) == ("result", "result")
    starts = [e["data"]["start"] for e in claims]
    assert starts == sorted(starts)
    if unit == "codepoint":
        for e in claims:
            assert answer[e["data"]["start"] : e["data"]["end"]] == e["data"]["text"]


async def test_stream_of_deltas_equals_the_full_attribution(client: Client) -> None:
    body = {"deltas": split_deltas(ANSWER), "toolOutputs": TOOL_OUTPUTS}
    response = await client.post(STREAM, json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    events = parse_events(response.text)
    check_stream(events, ANSWER)
    assert len(events) > 5
    full = await client.post(
        "/v1/attributions", json={"answer": ANSWER, "toolOutputs": TOOL_OUTPUTS}
    )
    assert full.status_code == 200
    assert without_timings(events[-1]["data"]) == without_timings(full.json())


async def test_stream_claims_match_the_final_claims(client: Client) -> None:
    answer = "The Eiffel Tower was completed in 1889. It is 330 metres tall. Paris is in Germany."
    response = await client.post(
        STREAM, json={"deltas": split_deltas(answer, 5), "sources": [SOURCE]}
    )
    events = parse_events(response.text)
    check_stream(events, answer)
    claims = [e["data"] for e in events[:-1]]
    final = events[-1]["data"]["claims"]
    assert [(c["start"], c["end"], c["verdict"]) for c in claims] == [
        (c["start"], c["end"], c["verdict"]) for c in final
    ]
    # "Paris is in Germany" against "Paris is the capital of France": not supported (the
    # shipped judge's P(contradiction) is near the contradiction cut, so either verdict)
    assert [c["verdict"] for c in claims[:2]] == ["supported", "supported"]
    assert claims[2]["verdict"] in ("unsupported", "contradicted")


@pytest.mark.parametrize("unit", ["utf16", "utf8"])
async def test_stream_offsets_in_units_equal_the_full_attribution(
    client: Client, unit: str
) -> None:
    answer = "Die Brücke 🌉 wurde 1889 gebaut. Paris ist die Hauptstadt von Frankreich. Ende."
    source = {
        "id": "s",
        "type": "web",
        "fullContent": "Paris ist die Hauptstadt von Frankreich 🇫🇷.",
    }
    body = {"deltas": split_deltas(answer, 4), "sources": [source], "offsetUnit": unit}
    events = parse_events((await client.post(STREAM, json=body)).text)
    check_stream(events, answer, unit)
    codec, width = ("utf-16-le", 2) if unit == "utf16" else ("utf-8", 1)
    encoded = answer.encode(codec)
    for e in events[:-1]:
        c = e["data"]
        assert encoded[c["start"] * width : c["end"] * width].decode(codec) == c["text"]
    full = await client.post(
        "/v1/attributions", json={"answer": answer, "sources": [source], "offsetUnit": unit}
    )
    assert without_timings(events[-1]["data"]) == without_timings(full.json())


async def test_ndjson_body_gives_the_same_events(client: Client) -> None:
    deltas = split_deltas(ANSWER, 11)
    lines = [json.dumps({"toolOutputs": TOOL_OUTPUTS})] + [json.dumps({"delta": d}) for d in deltas]
    response = await client.post(
        STREAM, content="\n".join(lines) + "\n", headers={"content-type": "application/x-ndjson"}
    )
    assert response.status_code == 200, response.text
    events = parse_events(response.text)
    check_stream(events, ANSWER)
    reference = parse_events(
        (await client.post(STREAM, json={"deltas": deltas, "toolOutputs": TOOL_OUTPUTS})).text
    )
    assert without_timings(events[-1]["data"]) == without_timings(reference[-1]["data"])
    assert [e["data"] for e in events[:-1]] == [e["data"] for e in reference[:-1]]


async def test_conversation_numbers_in_the_final_result(client: Client) -> None:
    answer = "The Eiffel Tower was completed in 1889 [1]. It is 330 metres tall."
    body = {"deltas": split_deltas(answer), "sources": [SOURCE], "conversationId": "stream-c1"}
    events = parse_events((await client.post(STREAM, json=body)).text)
    registry = (await client.get("/v1/conversations/stream-c1/registry")).json()
    assert registry  # the sources were registered by the final step
    full = await client.post(
        "/v1/attributions",
        json={"answer": answer, "sources": [SOURCE], "conversationId": "stream-c1"},
    )
    assert without_timings(events[-1]["data"]) == without_timings(full.json())


@pytest.mark.parametrize(
    ("body", "status", "kind"),
    [
        ({"deltas": ["a."]}, 400, "invalid_request"),
        ({"deltas": ["a."], "sources": [], "toolOutputs": []}, 400, "invalid_request"),
        ({"deltas": "a.", "sources": []}, 400, "invalid_request"),
        ({"deltas": ["a."], "sources": [], "extra": 1}, 400, "invalid_request"),
        ({"deltas": ["x" * 4_001], "sources": []}, 413, "limit_exceeded"),
        ({"deltas": ["a."], "sources": [], "options": {"topK": 0}}, 400, "invalid_request"),
        # refused before the stream starts, not as its last event
        ({"deltas": ["a."], "sources": [], "conversationId": "a/b"}, 400, "input_error"),
    ],
)
async def test_bad_requests_are_refused_before_the_stream(
    client: Client, body: dict[str, Any], status: int, kind: str
) -> None:
    response = await client.post(STREAM, json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["type"] == kind


async def test_bad_ndjson(client: Client) -> None:
    headers = {"content-type": "application/x-ndjson"}
    first = await client.post(STREAM, content=b"{not json\n", headers=headers)
    assert first.status_code == 400
    assert "line 1" in first.json()["error"]["message"]
    later = await client.post(
        STREAM, content=b'{"sources": []}\n{"delta": "Hi. "}\n{"delta": 5}\n', headers=headers
    )
    assert later.status_code == 200  # the stream had started: the error is its last event
    events = parse_events(later.text)
    assert events[-1]["event"] == "error"
    assert events[-1]["data"]["error"]["type"] == "invalid_request"
    assert "line 3" in events[-1]["data"]["error"]["message"]
    too_long = [json.dumps({"sources": []})] + [json.dumps({"delta": "x" * 1000})] * 5
    long = await client.post(STREAM, content="\n".join(too_long), headers=headers)
    assert parse_events(long.text)[-1]["data"]["error"]["type"] == "limit_exceeded"
    huge = await client.post(STREAM, content=b" " * 200_001 + b"\n", headers=headers)
    assert huge.status_code == 413, huge.text


async def test_ndjson_of_one_line(client: Client) -> None:
    """A single object without a newline is the whole request, like the JSON body."""
    body = json.dumps({"deltas": ["It is 330 metres tall."], "sources": [SOURCE]})
    response = await client.post(
        STREAM, content=body, headers={"content-type": "application/x-ndjson"}
    )
    events = parse_events(response.text)
    assert [e["event"] for e in events] == ["claim", "result"]


async def test_client_going_away_frees_every_slot(client: Client) -> None:
    """An ASGI disconnect after the first event: the generator stops, no slot stays taken."""
    app = client.app
    sentences = " ".join(f"The tower is {n} metres tall." for n in range(40))
    body = json.dumps({"deltas": split_deltas(sentences, 9), "sources": [SOURCE]}).encode()
    sent: list[dict[str, Any]] = []
    first_event = asyncio.Event()
    received = 0

    async def receive() -> dict[str, Any]:
        nonlocal received
        received += 1
        if received == 1:
            return {"type": "http.request", "body": body, "more_body": False}
        await first_event.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and message.get("body"):
            first_event.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": STREAM,
        "raw_path": STREAM.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"content-type", b"application/json"), (b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    with capture_logs() as logs:
        await asyncio.wait_for(app(scope, receive, send), 30)  # type: ignore[arg-type]
    assert sent[0]["status"] == 200
    # logged and counted like any request, as nginx's 499 (it had no request line at all)
    (line,) = [e for e in logs if e["event"] == "request"]
    assert (line["status"], line["client_gone"], line["route"]) == (499, True, STREAM)
    metrics = (await client.get("/metrics")).text
    assert f'route="{STREAM}",method="POST",status="499"}} 1' in metrics
    chunks = [m for m in sent if m["type"] == "http.response.body"]
    assert not any(b"event: result" in m.get("body", b"") for m in chunks)
    admission = app.state.admission
    assert await asyncio.to_thread(admission.wait_idle, 30)
    assert admission.depth == 0
    after = await client.post(
        STREAM, json={"deltas": ["It is 330 metres tall."], "sources": [SOURCE]}
    )
    assert parse_events(after.text)[-1]["event"] == "result"


async def streamed_claims(
    client: Client, answer: str, size: int
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The claim events of ``answer`` streamed in pieces of ``size`` against :data:`SOURCE`,
    checked to be the final result's claims (input offsets aside), and the final result."""
    body = {"deltas": split_deltas(answer, size), "sources": [SOURCE]}
    events = parse_events((await client.post(STREAM, json=body)).text)
    check_stream(events, answer)
    claims = [e["data"] for e in events[:-1]]
    final = events[-1]["data"]
    ignore = {"outputStart", "outputEnd"}
    assert [{k: v for k, v in c.items() if k not in ignore} for c in claims] == [
        {k: v for k, v in c.items() if k not in ignore} for c in final["claims"]
    ]
    return claims, final


@pytest.mark.parametrize("size", [1, 3, 8, 25])
async def test_claim_events_agree_with_the_final_result(client: Client, size: int) -> None:
    """Issue 15: every claim event is the final result's claim (markers cited, not added)."""
    answer = (
        "The Eiffel Tower was completed in 1889 [1]. It is 330 metres tall. Paris is in "
        "Germany [1].\n\n- The tower is in Paris [1].\n- It is 330 metres tall.\n\n"
        "The Eiffel Tower was completed in 1889. [1]"
    )
    claims, _ = await streamed_claims(client, answer, size)
    assert claims[0]["cited"] == [1]
    assert "added" not in claims[0]  # empty: omitted on the wire


@pytest.mark.parametrize("size", [1, 4, 11, 30])
async def test_a_source_column_cites_its_rows_claim_in_the_stream_too(
    client: Client, size: int
) -> None:
    """A table cell of markers alone cites the claim of its row, streamed or not (the row's
    cells are finished together); a line of sources cites no one claim."""
    answer = (
        "| Fact | Source |\n|---|---|\n| The tower is 330 metres tall | [1] |\n"
        "| It was completed in 1889 | [1] |\n\nSources: [1]"
    )
    claims, final = await streamed_claims(client, answer, size)
    assert [c["text"] for c in claims] == [
        "The tower is 330 metres tall",
        "It was completed in 1889",
    ]
    assert [c["cited"] for c in claims] == [[1], [1]]
    assert all("added" not in c for c in claims)
    assert [m["verdict"] for m in final["markers"]] == ["supported", "supported"]
    assert final["answer"] == answer  # nothing added, nothing dropped


async def test_a_full_service_refuses_a_stream_with_429(client: Client) -> None:
    """Issue 15: admitted before the status line, so no 200 followed by an overloaded event."""
    runner = client.app.state.runner
    held = [runner.admit() for _ in range(runner.admission.limit)]
    try:
        response = await client.post(STREAM, json={"deltas": ["It is tall."], "sources": [SOURCE]})
        assert response.status_code == 429, response.text
        assert response.headers["retry-after"] == "1"
        assert response.json()["error"]["type"] == "overloaded"
    finally:
        for slot in held:
            slot.release()
    after = await client.post(
        STREAM, json={"deltas": ["It is 330 metres tall."], "sources": [SOURCE]}
    )
    assert parse_events(after.text)[-1]["event"] == "result"
    assert client.app.state.admission.depth == 0
