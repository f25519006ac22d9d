"""The HTTP service through a real app: real models, real SQLite store, real litestar stack.

One app per module (the models load once); requests go through ``AsyncTestClient``. Tests run on
anyio's pytest plugin (bundled with anyio) on the asyncio backend.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from litestar import Litestar
from litestar.testing import AsyncTestClient

from attribution.service import Settings, create_app
from attribution.service._errors import Overloaded, WorkTimeout
from attribution.service._work import Admission, ModelRunner
from tests._service import wait_until_ready

EXAMPLES = Path(__file__).resolve().parent.parent / "attribution" / "examples"
ANSWER = (EXAMPLES / "answer.md").read_text(encoding="utf-8")
TOOL_OUTPUTS: list[dict[str, Any]] = json.loads(
    (EXAMPLES / "tool_outputs.json").read_text(encoding="utf-8")
)

SETTINGS = dict(
    max_body_bytes=100_000,
    max_answer_chars=4_000,
    max_sources=10,
    max_source_chars=20_000,
    max_pairs=4,
    max_queue=2,
    model_threads=2,
)

pytestmark = pytest.mark.anyio

Client = AsyncTestClient[Litestar]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def client(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    db = tmp_path_factory.mktemp("service") / "conversations.sqlite3"
    app = create_app(Settings(database_path=str(db), **SETTINGS))  # type: ignore[arg-type]
    async with AsyncTestClient(app=app, base_url="http://127.0.0.1") as c:
        await wait_until_ready(c)
        yield c


def _error(response: Any, status: int) -> dict[str, str]:
    """The error body of a response, after checking its status and shape."""
    assert response.status_code == status, response.text
    assert "Traceback" not in response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"type", "message"}
    return body["error"]  # type: ignore[no-any-return]


def _check_references(result: dict[str, Any]) -> None:
    answer = result["answer"]
    for ref in result["citations"].get("references", []):
        assert answer[ref["startIndex"] : ref["endIndex"]] == ref["citedText"]


# -- attributions --------------------------------------------------------------------------------


async def test_attribution_from_tool_outputs(client: Client) -> None:
    response = await client.post(
        "/v1/attributions",
        json={"answer": ANSWER, "toolOutputs": TOOL_OUTPUTS},
        headers={"X-Request-ID": "req-tool-outputs-1"},
    )
    assert response.status_code == 200, response.text
    assert response.headers["x-request-id"] == "req-tool-outputs-1"
    result = response.json()
    assert result["claims"], "the example answer has claims"
    verdicts = {c["verdict"] for c in result["claims"]}
    assert "supported" in verdicts
    assert verdicts <= {"supported", "partially_supported", "unsupported", "contradicted"}
    assert result["markers"], "the example answer carries markers"
    assert {"number": 9, "verdict": "unknown_number"}.items() <= next(
        m for m in result["markers"] if m["number"] == 9
    ).items(), "an unknown number is still reported"
    assert "[9]" not in result["answer"], "and dropped from the answer by default"
    assert result["citations"]["references"]
    _check_references(result)
    for claim in result["claims"]:
        assert ANSWER[claim["start"] : claim["end"]] == claim["text"]
    assert result["summary"]["claims"] == len(result["claims"])
    assert [n["number"] for n in result["numbering"]] == list(
        range(1, len(result["numbering"]) + 1)
    )


async def test_attribution_from_sources_with_options(client: Client) -> None:
    extracted = (await client.post("/v1/extractions", json={"toolOutputs": TOOL_OUTPUTS})).json()
    response = await client.post(
        "/v1/attributions",
        json={
            "answer": ANSWER,
            "sources": extracted["sources"],
            "options": {
                "markerStyle": "citation",
                "fillMissing": False,
                "topK": 3,
                "dropUnknown": False,
            },
        },
    )
    assert response.status_code == 200, response.text
    result = response.json()
    assert "[citation:" in result["answer"]
    assert "[citation:9]" in result["answer"], "dropUnknown false keeps an unknown number"
    assert all(not c.get("added") for c in result["claims"]), "fillMissing false adds none"
    assert {c["verdict"] for c in result["claims"]} & {"supported", "partially_supported"}
    _check_references(result)


async def test_an_answers_own_reference_list_and_the_option_that_ignores_it(
    client: Client,
) -> None:
    sources = [
        {"id": "blog", "type": "web", "uri": "https://blog.example.com/dublin",
         "fullContent": "Orion launched its Dublin region in March 2024."},
        {"id": "docs", "type": "web", "uri": "https://docs.example.com/regions",
         "fullContent": "Orion runs in Frankfurt and Dublin."},
    ]  # fmt: skip
    answer = (
        "Orion runs in Frankfurt [1].\n\nSources:\n[1] https://docs.example.com/regions\n"
        "[2] https://blog.example.com/dublin\n"
    )
    keyed = await client.post("/v1/attributions", json={"answer": answer, "sources": sources})
    assert keyed.status_code == 200, keyed.text
    marker = keyed.json()["markers"][0]
    assert (marker["number"], marker["verdict"], marker["sourceId"]) == (2, "supported", "docs")
    assert keyed.json()["answer"].startswith("Orion runs in Frankfurt [2].")
    body = {"answer": answer, "sources": sources, "options": {"answerKey": False}}
    plain = await client.post("/v1/attributions", json=body)
    assert plain.status_code == 200, plain.text
    marker = plain.json()["markers"][0]
    assert (marker["number"], marker["verdict"], marker["suggested"]) == (1, "wrong_source", 2)
    assert plain.json()["answer"] == answer
    # the answer's list of sources lists what the engine cites, unless asked not to
    listed = "Orion runs in Frankfurt.\n\nSources: [1]"
    for options, ending in (({}, "Sources: [1], [2]"), ({"listAdded": False}, "Sources: [1]")):
        body = {"answer": listed, "sources": sources, "options": options}
        got = await client.post("/v1/attributions", json=body)
        assert got.status_code == 200, got.text
        assert got.json()["answer"].endswith(ending), got.json()["answer"]
    # a marker that cites the wrong source, mended when asked
    wrong = {"answer": "Orion runs in Frankfurt [1].", "sources": sources}
    for options, written in (({}, "[1]"), ({"fixWrongSource": True}, "[2]")):
        got = await client.post("/v1/attributions", json={**wrong, "options": options})
        assert got.status_code == 200, got.text
        assert got.json()["answer"] == f"Orion runs in Frankfurt {written}.", got.json()["answer"]
        assert got.json()["markers"][0]["verdict"] == "wrong_source"


async def test_a_link_to_a_page_of_an_earlier_turn_cites_it(client: Client) -> None:
    # the blog was given in the first turn; the second gives the docs only and links the blog:
    # the link cites the conversation's number of the blog (which this request cannot check)
    blog = {
        "id": "blog",
        "type": "web",
        "uri": "https://blog.example.com/dublin",
        "fullContent": "Orion launched its Dublin region in March 2024.",
    }
    docs = {"id": "docs", "type": "web", "uri": "https://docs.example.com/regions",
            "fullContent": "Orion runs in Frankfurt and Dublin."}  # fmt: skip
    body = {"answer": "Orion launched Dublin in March 2024.", "sources": [blog]}
    first = await client.post("/v1/attributions", json={**body, "conversationId": "links-1"})
    assert first.status_code == 200, first.text
    answer = (
        "Orion runs in Frankfurt ([docs.example.com](https://docs.example.com/regions)). "
        "It launched Dublin in March 2024 ([blog](https://www.blog.example.com/dublin/))."
    )
    body = {"answer": answer, "sources": [docs], "conversationId": "links-1"}
    second = await client.post("/v1/attributions", json=body)
    assert second.status_code == 200, second.text
    checks = [(m["number"], m["verdict"]) for m in second.json()["markers"]]
    assert checks == [(2, "supported"), (1, "unverifiable")]
    assert second.json()["answer"] == answer


async def test_attribution_in_a_conversation_keeps_numbers(client: Client) -> None:
    extracted = (await client.post("/v1/extractions", json={"toolOutputs": TOOL_OUTPUTS})).json()
    sources = extracted["sources"]
    first = await client.post(
        "/v1/attributions",
        json={"answer": ANSWER, "sources": sources[2:4], "conversationId": "conv-A"},
    )
    assert first.status_code == 200, first.text
    numbers_first = {n["sourceId"]: n["number"] for n in first.json()["numbering"]}
    assert sorted(numbers_first.values()) == [1, 2]
    broken = {"toolName": "web_search", "toolRequestId": "broken", "output": "{not json"}
    second = await client.post(
        "/v1/attributions",
        json={
            "answer": ANSWER,
            "toolOutputs": [*TOOL_OUTPUTS, broken],
            "conversationId": "conv-A",
        },
    )
    assert second.status_code == 200, second.text
    result = second.json()
    numbers_second = {n["sourceId"]: n["number"] for n in result["numbering"]}
    for source_id, number in numbers_first.items():
        assert numbers_second[source_id] == number, "a source keeps its number in a conversation"
    assert sorted(numbers_second.values()) == list(range(1, len(numbers_second) + 1))
    assert any(w.get("toolRequestId") == "broken" for w in result["warnings"])
    _check_references(result)


OFFSET_SOURCE = {
    "id": "tokyo-tower",
    "type": "web",
    "title": "東京タワー 🗼",
    "fullContent": (
        "東京タワー 🗼 overview. The Tokyo Tower 🗼 is 333 metres tall and stands in Minato, "
        "Tokyo. It was completed in 1958 and is painted white and international orange 🎨."
    ),
}
OFFSET_ANSWER = (
    "# 東京 🗼 Tokyo\n\n"
    "😀 The Tokyo Tower 🗼 is 333 metres tall and stands in Minato, Tokyo [1]. "
    "It was completed in 1958 and is painted white and international orange 🎨."
)


async def _attribute_offsets(client: Client, unit: str) -> dict[str, Any]:
    response = await client.post(
        "/v1/attributions",
        json={"answer": OFFSET_ANSWER, "sources": [OFFSET_SOURCE], "offsetUnit": unit},
    )
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("unit", "codec", "width"), [("utf16", "utf-16-le", 2), ("utf8", "utf-8", 1)]
)
async def test_offsets_in_utf16_and_utf8(client: Client, unit: str, codec: str, width: int) -> None:
    base = await _attribute_offsets(client, "codepoint")
    converted = await _attribute_offsets(client, unit)
    assert converted["answer"] == base["answer"]

    def cut(text: str, start: int, end: int) -> str:
        return text.encode(codec)[start * width : end * width].decode(codec)

    source_text = OFFSET_SOURCE["fullContent"]
    assert converted["claims"]
    assert converted["markers"]
    assert converted["citations"]["references"], "the claims are supported by the source"
    evidence = [e for c in converted["claims"] for e in c.get("evidence", [])]
    assert evidence, "supported claims quote their evidence"
    for claim in converted["claims"]:
        assert cut(OFFSET_ANSWER, claim["start"], claim["end"]) == claim["text"]
        out = cut(converted["answer"], claim["outputStart"], claim["outputEnd"])
        plain = base["claims"][claim["index"]]
        assert out == base["answer"][plain["outputStart"] : plain["outputEnd"]]
        for quote in claim.get("evidence", []):
            assert cut(source_text, quote["start"], quote["end"]) == quote["text"]
    for marker in converted["markers"]:
        assert cut(OFFSET_ANSWER, marker["start"], marker["end"]) == marker["marker"]
    for ref in converted["citations"]["references"]:
        assert cut(converted["answer"], ref["startIndex"], ref["endIndex"]) == ref["citedText"]
    # Non-ASCII text before the spans: the converted offsets really differ.
    assert converted["claims"][0]["start"] != base["claims"][0]["start"]


@pytest.mark.parametrize(
    ("unit", "codec", "width"), [("utf16", "utf-16-le", 2), ("utf8", "utf-8", 1)]
)
async def test_an_unsupported_claims_nearest_quote_is_in_the_unit_asked_for(
    client: Client, unit: str, codec: str, width: int
) -> None:
    answer = "😀 The Tokyo Tower 🗼 was designed by Tachū Naitō."
    response = await client.post(
        "/v1/attributions",
        json={"answer": answer, "sources": [OFFSET_SOURCE], "offsetUnit": unit},
    )
    assert response.status_code == 200, response.text
    (claim,) = response.json()["claims"]
    assert claim["verdict"] == "unsupported"
    assert claim["nearest"], "the source comes close: its nearest passage is quoted"
    source_text = OFFSET_SOURCE["fullContent"].encode(codec)
    for quote in claim["nearest"]:
        # "東京タワー 🗼" before the quote: code points would be off in either unit
        got = source_text[quote["start"] * width : quote["end"] * width].decode(codec)
        assert got == quote["text"]


# -- extractions and verifications -------------------------------------------------------------


async def test_extractions(client: Client) -> None:
    broken = {"toolName": "web_search", "toolRequestId": "broken", "output": "{not json"}
    response = await client.post("/v1/extractions", json={"toolOutputs": [*TOOL_OUTPUTS, broken]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"sources", "warnings"}
    assert len(body["sources"]) >= 4
    assert all(s["id"] and s["type"] for s in body["sources"])
    assert [w["toolRequestId"] for w in body["warnings"]] == ["broken"]


async def test_verifications(client: Client) -> None:
    response = await client.post(
        "/v1/verifications",
        json={
            "pairs": [
                {
                    "claim": "The telescope launched on 25 December 2021.",
                    "passage": "Webb launched on 25 December 2021 on an Ariane 5 rocket.",
                },
                {
                    "claim": "The telescope is made of cheese.",
                    "passage": "Webb launched on 25 December 2021 on an Ariane 5 rocket.",
                },
            ]
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["verifier"]
    assert 0.0 <= body["threshold"] <= 1.0
    first, second = body["results"]
    assert first["label"] == "supported"
    assert second["label"] == "unsupported"
    assert first["support"] > second["support"]
    for r in body["results"]:
        assert r["label"] == ("supported" if r["support"] >= body["threshold"] else "unsupported")


async def test_a_conversation_id_a_path_could_not_name_is_refused_in_the_body(
    client: Client,
) -> None:
    body = {"answer": "Paris is in France.", "sources": [], "conversationId": "team/a"}
    error = _error(await client.post("/v1/attributions", json=body), 400)
    assert "must not hold '/'" in error["message"]
    # an undecodable byte in a path would become U+FFFD: two paths, one registry
    error = _error(await client.get("/v1/conversations/a%FFb/registry"), 400)
    assert "U+FFFD" in error["message"]


async def test_errors_name_the_parameter_and_do_not_echo_a_huge_value(client: Client) -> None:
    error = _error(await client.get("/v1/conversations/abc/registry?after=-1"), 400)
    assert error["message"] == "query parameter 'after': Expected `int` >= 0"
    huge = "x" * 50_000
    body = {"answer": "x", "sources": [], "options": {"markerStyle": huge}}
    response = await client.post("/v1/attributions", json=body)
    error = _error(response, 400)
    assert len(response.content) < 2_000, "the 50,000-character value is not sent back"
    assert "characters left out" in error["message"]
    assert error["message"].endswith("- at `$.options.markerStyle`")  # the field stays named


async def test_a_blank_claim_or_passage_is_refused(client: Client) -> None:
    good = {"claim": "Webb launched in 2021.", "passage": "Webb launched in 2021."}
    for i, field in ((1, "claim"), (0, "passage")):
        pairs = [good, good]
        pairs[i] = {**good, field: " \n "}
        error = _error(await client.post("/v1/verifications", json={"pairs": pairs}), 400)
        assert error["message"] == f"$.pairs[{i}].{field} is blank: there is nothing to check"


async def test_one_id_given_to_two_texts_is_refused_before_anything_is_registered(
    client: Client,
) -> None:
    body = {
        "answer": "Paris is in France [1]. Berlin is in Germany [2].",
        "conversationId": "one-id-two-texts",
        "sources": [
            {"id": "a", "type": "web", "fullContent": "Paris is in France."},
            {"id": "a", "type": "web", "fullContent": "Berlin is in Germany."},
        ],
    }
    error = _error(await client.post("/v1/attributions", json=body), 400)
    assert error["message"] == (
        "$.sources[1].id: 'a' is the id of $.sources[0] too, with another text; an id names "
        "one source"
    )
    registry = await client.get("/v1/conversations/one-id-two-texts/registry")
    assert registry.json().get("entries", []) == []
    # the same source twice is one source, as a search result and its scrape are
    body["sources"] = [body["sources"][0]] * 2  # type: ignore[index]
    ok = await client.post("/v1/attributions", json=body)
    assert ok.status_code == 200, ok.text


async def test_sources_given_directly_are_made_as_safe_as_extracted_ones(client: Client) -> None:
    unsafe = {
        "id": "x",
        "type": "web",
        "uri": "javascript:alert(1)",
        "title": "T\u202eitle",
        "fullContent": "Paris is the capital of France.",
    }
    conv = "/v1/conversations/given-unsafe"
    registered = await client.post(f"{conv}/sources", json={"sources": [unsafe]})
    assert registered.status_code == 200, registered.text
    reasons = [w["reason"] for w in registered.json()["warnings"]]
    assert reasons == [
        "$.sources[0] ('x'): its address uses the unsafe javascript: scheme; the address was "
        "dropped and the source kept",
        "$.sources[0] ('x'): control or bidirectional-override characters were removed from "
        "its title",
    ]
    display = (await client.get(f"{conv}/citations/1")).json()["display"]
    assert display == {"title": "Title"}  # no address at all, rather than a javascript: one
    body = {"answer": "Paris is the capital of France [1].", "sources": [unsafe]}
    for extra in ({}, {"conversationId": "given-unsafe-2"}):
        result = (await client.post("/v1/attributions", json={**body, **extra})).json()
        assert [s.get("uri") for s in result["citations"]["sources"]] == [None]
        assert len(result["warnings"]) == 2
    # an id that names nothing is refused
    blank = {**unsafe, "id": "  "}
    error = _error(await client.post("/v1/attributions", json={**body, "sources": [blank]}), 400)
    assert error["message"] == "$.sources[0].id is blank: a source needs an id that names it"


# -- operations ----------------------------------------------------------------------------------


async def test_health_readiness_metrics_and_schema(client: Client) -> None:
    health = await client.get("/healthz")
    assert (health.status_code, health.json()) == (200, {"status": "ok"})
    ready = await client.get("/readyz")
    assert (ready.status_code, ready.json()) == (200, {"status": "ready"})
    for path in ("/healthz", "/readyz"):  # monitors probing with HEAD: the status, no body
        probe = await client.head(path)
        assert (probe.status_code, probe.content) == (200, b"")
    await client.post("/v1/attributions", json={"answer": ANSWER, "toolOutputs": TOOL_OUTPUTS})
    metrics = await client.get("/metrics")
    assert metrics.status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain")
    text = metrics.text
    assert (
        'attribution_http_requests_total{route="/v1/attributions",method="POST",status="200"}'
        in (text)
    )
    assert (
        'attribution_http_request_duration_seconds_bucket{route="/v1/attributions",le="+Inf"}'
        in (text)
    )
    claims = next(
        line for line in text.splitlines() if line.startswith("attribution_claims_verified_total")
    )
    assert int(claims.split()[-1]) > 0
    assert "attribution_queue_depth 0" in text
    schema = await client.get("/schema/openapi.json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert {"/v1/attributions", "/v1/extractions", "/v1/verifications", "/healthz"} <= set(paths)
    # the stream answers server-sent events, and the options say their bounds
    streamed = paths["/v1/attributions:stream"]["post"]["responses"]["200"]["content"]
    assert list(streamed) == ["text/event-stream"]
    options = schema.json()["components"]["schemas"]["AttributionOptions"]["properties"]
    assert (options["topK"]["minimum"], options["topK"]["maximum"]) == (1, 100)
    assert options["supportThreshold"]["maximum"] == 1.0  # (litestar leaves out a minimum of 0)


async def test_request_id_is_generated_or_echoed(client: Client) -> None:
    generated = await client.get("/healthz")
    assert len(generated.headers["x-request-id"]) == 32
    unsafe = await client.get("/healthz", headers={"X-Request-ID": "bad id\twith spaces"})
    assert unsafe.headers["x-request-id"] != "bad id\twith spaces"
    missing = await client.get("/no/such/route", headers={"X-Request-ID": "abc-123"})
    assert _error(missing, 404)["type"] == "not_found"
    assert missing.headers["x-request-id"] == "abc-123"


async def test_no_user_text_in_logs(client: Client) -> None:
    secret = "Zanzibarian quokkas guard the telescope mirror."
    with structlog.testing.capture_logs() as logs:
        response = await client.post(
            "/v1/attributions",
            json={"answer": secret, "sources": [{**OFFSET_SOURCE, "fullContent": secret}]},
        )
    assert response.status_code == 200
    assert any(e["event"] == "attribution_requested" for e in logs)
    assert "quokkas" not in repr(logs)


async def test_models_that_fail_to_load_leave_the_service_alive_but_not_ready(
    tmp_path: Path,
) -> None:
    settings = Settings(models_dir=str(tmp_path), database_path=str(tmp_path / "c.sqlite3"))
    async with AsyncTestClient(app=create_app(settings), base_url="http://127.0.0.1") as c:
        for _ in range(100):
            ready = await c.get("/readyz")
            if ready.json()["status"] != "loading":
                break
            await asyncio.sleep(0.05)
        assert ready.status_code == 503
        assert ready.json()["status"] == "failed"
        assert (await c.get("/healthz")).status_code == 200
        response = await c.post("/v1/attributions", json={"answer": "x", "sources": []})
        error = _error(response, 503)
        assert error["type"] == "not_ready"
        assert "failed" in error["message"]


# -- errors --------------------------------------------------------------------------------------

SOURCE = {"id": "s1", "type": "web", "fullContent": "Some text."}

BAD_BODIES: list[tuple[str, bytes, int, str, tuple[str, ...]]] = [
    ("malformed json", b'{"answer": ', 400, "invalid_request", ("malformed JSON",)),
    ("not an object", b"[1, 2]", 400, "invalid_request", ("Expected `object`",)),
    ("empty body", b"", 400, "invalid_request", ("malformed JSON",)),
    (
        "unknown field",
        b'{"answer": "x", "sources": [], "verbose": true}',
        400,
        "invalid_request",
        ("verbose",),
    ),
    (
        "unknown nested field",
        b'{"answer": "x", "sources": [{"id": "a", "type": "web", "body": "t"}]}',
        400,
        "invalid_request",
        ("body", "$.sources[0]"),
    ),
    ("wrong type", b'{"answer": 5, "sources": []}', 400, "invalid_request", ("$.answer", "str")),
    (
        "lenient coercion refused",
        b'{"answer": "x", "sources": [], "options": {"topK": "3"}}',
        400,
        "invalid_request",
        ("$.options.topK",),
    ),
    ("missing answer", b'{"sources": []}', 400, "invalid_request", ("answer",)),
    (
        "bad source type",
        b'{"answer": "x", "sources": [{"id": "a", "type": "tweet"}]}',
        400,
        "invalid_request",
        ("$.sources[0].type",),
    ),
    (
        "bad offset unit",
        b'{"answer": "x", "sources": [], "offsetUnit": "utf32"}',
        400,
        "invalid_request",
        ("$.offsetUnit",),
    ),
    ("neither sources", b'{"answer": "x"}', 400, "invalid_request", ("sources", "toolOutputs")),
    (
        "both sources",
        b'{"answer": "x", "sources": [], "toolOutputs": []}',
        400,
        "invalid_request",
        ("sources", "toolOutputs", "both"),
    ),
    (
        "option out of bounds",  # named as on the wire, the bounds in the schema
        b'{"answer": "x", "sources": [], "options": {"topK": 0}}',
        400,
        "invalid_request",
        ("Expected `int` >= 1", "$.options.topK"),
    ),
    (
        "threshold out of bounds",
        b'{"answer": "x", "sources": [], "options": {"supportThreshold": 2.0}}',
        400,
        "invalid_request",
        ("Expected `float` <= 1.0", "$.options.supportThreshold"),
    ),
    (
        "conversation id too long",
        json.dumps({"answer": "x", "sources": [], "conversationId": "c" * 201}).encode(),
        400,
        "invalid_request",
        ("$.conversationId",),
    ),
    (
        "blank conversation id",
        b'{"answer": "x", "sources": [], "conversationId": "   "}',
        400,
        "input_error",
        ("conversation id",),
    ),
    (
        "invalid utf-8",
        b'{"answer": "caf\xe9", "sources": []}',
        400,
        "invalid_request",
        ("not UTF-8", "0xe9", "byte 15"),
    ),
    (
        "nested deeper than any tool output",
        b'{"answer": "x", "toolOutputs": [{"toolName": "t", "output": '
        + b"[" * 5_000
        + b"]" * 5_000
        + b"}]}",
        400,
        "invalid_request",
        ("nested deeper", "more than 800 levels"),
    ),
    (
        "answer too long",
        json.dumps({"answer": "a" * 4_001, "sources": []}).encode(),
        413,
        "limit_exceeded",
        ("max_answer_chars", "4001", "4000"),
    ),
    (
        "too many sources",
        json.dumps(
            {"answer": "x", "sources": [{**SOURCE, "id": f"s{i}"} for i in range(11)]}
        ).encode(),
        413,
        "limit_exceeded",
        ("max_sources", "11", "10"),
    ),
    (
        "too many tool outputs",
        json.dumps({"answer": "x", "toolOutputs": [TOOL_OUTPUTS[0]] * 11}).encode(),
        413,
        "limit_exceeded",
        ("max_sources", "11"),
    ),
    (
        "too much source text",
        json.dumps({"answer": "x", "sources": [{**SOURCE, "fullContent": "w " * 10_001}]}).encode(),
        413,
        "limit_exceeded",
        ("max_source_chars", "20002", "20000"),
    ),
]


@pytest.mark.parametrize(
    ("body", "status", "kind", "words"),
    [case[1:] for case in BAD_BODIES],
    ids=[case[0] for case in BAD_BODIES],
)
async def test_bad_attribution_requests(
    client: Client, body: bytes, status: int, kind: str, words: tuple[str, ...]
) -> None:
    response = await client.post(
        "/v1/attributions", content=body, headers={"Content-Type": "application/json"}
    )
    error = _error(response, status)
    assert error["type"] == kind
    for word in words:
        assert word in error["message"]


async def test_bad_extraction_and_verification_requests(client: Client) -> None:
    error = _error(await client.post("/v1/extractions", json={"toolOutputs": [{}]}), 400)
    assert "toolName" in error["message"]
    bad_utf8 = b'{"toolOutputs": [{"toolName": "t", "output": "\xff"}]}'
    headers = {"Content-Type": "application/json"}
    error = _error(await client.post("/v1/extractions", content=bad_utf8, headers=headers), 400)
    assert "not UTF-8" in error["message"]
    pair = {"claim": "a", "passage": "b"}
    error = _error(await client.post("/v1/verifications", json={"pairs": [pair] * 5}), 413)
    assert "max_pairs" in error["message"]
    assert "5" in error["message"]
    error = _error(
        await client.post("/v1/verifications", json={"pairs": [{**pair, "score": 1}]}), 400
    )
    assert "score" in error["message"]


async def test_body_too_large(client: Client) -> None:
    body = json.dumps({"answer": "x" * 150_000, "sources": []}).encode()
    response = await client.post(
        "/v1/attributions", content=body, headers={"Content-Type": "application/json"}
    )
    error = _error(response, 413)
    assert error["type"] == "body_too_large"
    assert error["message"].startswith("the request body is over ")  # not "Request Entity ..."
    assert error["message"].endswith(" bytes (max_body_bytes)")


async def test_method_not_allowed(client: Client) -> None:
    assert _error(await client.get("/v1/attributions"), 405)["type"] == "method_not_allowed"


async def test_queue_full_answers_429(client: Client) -> None:
    admission: Admission = client.app.state.admission
    held = 0
    while admission.try_acquire():
        held += 1
    assert held == SETTINGS["max_queue"]
    try:
        response = await client.post("/v1/attributions", json={"answer": "x", "sources": [SOURCE]})
        assert _error(response, 429)["type"] == "overloaded"
        assert response.headers["retry-after"] == "1"
        metrics = (await client.get("/metrics")).text
        assert f"attribution_queue_depth {held}" in metrics
    finally:
        for _ in range(held):
            admission.release()
    response = await client.post("/v1/attributions", json={"answer": "x", "sources": [SOURCE]})
    assert response.status_code == 200


# -- the model runner: back-pressure and timeouts, with real threads ----------------------------


def test_runner_refuses_beyond_the_queue_and_times_out() -> None:
    from concurrent.futures import ThreadPoolExecutor

    async def scenario() -> None:
        release = threading.Event()
        admission = Admission(1)
        rejected: list[int] = []
        with ThreadPoolExecutor(max_workers=1) as pool:
            runner = ModelRunner(pool, admission, 5.0, on_reject=lambda: rejected.append(1))
            first = asyncio.ensure_future(runner.run(lambda: release.wait(5) and 42))
            await asyncio.sleep(0.05)
            assert admission.depth == 1
            with pytest.raises(Overloaded) as overloaded:
                await runner.run(lambda: 0)
            assert overloaded.value.headers == {"Retry-After": "1"}
            assert rejected == [1]
            release.set()
            assert await first == 42
            assert admission.wait_idle(5)

            slow = ModelRunner(pool, admission, 0.05)
            stop = threading.Event()
            with pytest.raises(WorkTimeout):
                await slow.run(lambda: stop.wait(5))
            # The abandoned work keeps its slot until its thread really finishes.
            assert admission.depth == 1
            stop.set()
            assert admission.wait_idle(5)
            assert admission.depth == 0

    asyncio.run(scenario())


def test_work_its_caller_gave_up_on_stops_at_the_next_model_batch() -> None:
    """A request answered 504 used to read every pair to the end (an answer of thousands of
    claims: minutes of both cores after its caller had gone); now its work stops."""
    from concurrent.futures import ThreadPoolExecutor

    from attribution import ModelConfig, WorkStopped, stoppable
    from attribution.runtime import OnnxCrossEncoder, load_embedder

    model = OnnxCrossEncoder.from_config(ModelConfig(), "support-verifier-minilm-l6-int8")
    embedder = load_embedder(ModelConfig())
    pairs = [
        (f"Passage {i} says Orion runs in Frankfurt.", "Orion runs in Frankfurt.") for i in range(4)
    ]
    stop = threading.Event()
    with stoppable(stop):
        assert model.predict(pairs[:1]).shape == (1, 3)  # not set: the work goes on
        stop.set()
        with pytest.raises(WorkStopped, match="its caller gave up"):
            model.predict(pairs[1:])  # in lanes: their threads stop too
        with pytest.raises(WorkStopped):
            embedder.encode(["Orion runs in Frankfurt."])
    assert model.predict(pairs[1:]).shape == (3, 3)  # outside the block, nothing stops it

    give_up = threading.Event()  # ends the loop below if the runner does not stop it
    read: list[int] = []

    def endless() -> None:
        i = 0
        while not give_up.is_set():
            model.predict([(f"Passage number {i} of an endless answer.", "Orion runs.")])
            read.append(i)
            i += 1

    async def scenario() -> None:
        admission = Admission(2)
        with ThreadPoolExecutor(max_workers=1) as pool:
            try:
                with pytest.raises(WorkTimeout):
                    await ModelRunner(pool, admission, 0.3).run(endless)
                assert admission.wait_idle(30)  # the work stopped: its slot is free
                assert read  # it had started
            finally:
                give_up.set()

    with structlog.testing.capture_logs() as logs:
        asyncio.run(scenario())
    stopped = [entry for entry in logs if entry["event"] == "model_work_stopped"]
    assert [entry["reason"] for entry in stopped] == ["timeout"]
