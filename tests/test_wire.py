from __future__ import annotations

import json

import msgspec
import pytest

from attribution import (
    SOURCE_TYPES,
    CitationReference,
    CitationSource,
    InputError,
    StoredCitationData,
    ToolOutput,
    decode_json,
    encode_json,
)


def test_source_types_are_the_documented_set() -> None:
    assert set(SOURCE_TYPES) == {
        "web",
        "file",
        "api",
        "mcp",
        "kb_chunk",
        "kb_document",
        "connector_item",
        "web_result",
        "chat_turn",
        "anon_chunk",
    }


def test_citation_source_uses_camel_case_and_omits_absent_fields() -> None:
    source = CitationSource(
        id="kb_chunk:42:880",
        type="kb_chunk",
        tool_name="search_knowledge_base",
        tool_request_id="call_1",
        full_content="Text.",
        page_number=3,
    )
    assert json.loads(encode_json(source)) == {
        "id": "kb_chunk:42:880",
        "type": "kb_chunk",
        "toolName": "search_knowledge_base",
        "toolRequestId": "call_1",
        "fullContent": "Text.",
        "pageNumber": 3,
    }


def test_every_source_field_has_its_wire_name() -> None:
    names = [f.encode_name for f in msgspec.structs.fields(CitationSource)]
    assert names == [
        "id",
        "type",
        "toolName",
        "toolRequestId",
        "uri",
        "title",
        "domain",
        "snippet",
        "fullContent",
        "pageNumber",
    ]


def test_stored_citation_data_round_trips() -> None:
    data = StoredCitationData(
        sources=(CitationSource(id="s1", type="web", uri="https://example.com", title="Ex"),),
        references=(
            CitationReference(
                index=0, start_index=0, end_index=5, cited_text="Hello", source_ids=("s1",)
            ),
        ),
    )
    raw = encode_json(data)
    assert json.loads(raw)["references"][0] == {
        "index": 0,
        "startIndex": 0,
        "endIndex": 5,
        "citedText": "Hello",
        "sourceIds": ["s1"],
    }
    assert decode_json(raw, StoredCitationData) == data


def test_tool_output_accepts_any_output_shape() -> None:
    raw = (
        b'[{"toolName": "t", "output": "text"}, {"toolName": "t", "output": [1, {"a": null}]},'
        b' {"toolName": "t", "toolRequestId": "r", "parameters": {"q": 1}, "output": {"x": 1}}]'
    )
    calls = decode_json(raw, list[ToolOutput])
    assert [c.output for c in calls] == ["text", [1, {"a": None}], {"x": 1}]
    assert calls[2].parameters == {"q": 1}
    assert calls[0].parameters == {}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'[{"toolName": 3, "output": 1}]', "$[0].toolName"),
        (b'[{"toolName": "t", "output": 1, "extra": 2}]', "unknown field `extra`"),
        (b'[{"output": 1}]', "missing required field `toolName`"),
        (b'[{"toolName": "t", "output": 1', "malformed JSON"),
        (b'{"toolName": "t", "output": 1}', "Expected `array`"),
        # the common mistakes get a hint
        (b'[{"tool_name": "t", "output": 1}]', "(the names are camelCase: `toolName`)"),
        (b'{"type": "message", "content": []}', "goes in one tool output's `output`"),
        (b'[{"type": "message", "role": "assistant"}]', "goes in its `output`"),
    ],
)
def test_decoding_untrusted_json_names_the_problem(raw: bytes, message: str) -> None:
    with pytest.raises(InputError, match=r"outputs\.json") as info:
        decode_json(raw, list[ToolOutput], what="outputs.json")
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("raw", "hint"),
    [
        (b'[{"toolName": "t", "output": 1, "tool_call_id": "c"}]', None),  # no such field
        (b'[{"toolName": "t", "output": 1, "_id": "c"}]', None),
        (b'[{"id": "a", "type": "web", "full_content": "x"}]', "goes in its `output`"),
        (b'[{"toolName": "t", "output": 1, "full_content": "x"}]', "look like sources"),
        (b'[{"toolName": "t", "output": 1, "snippet": "x"}]', None),  # not sources' alone
    ],
)
def test_a_hint_only_where_it_is_right(raw: bytes, hint: str | None) -> None:
    with pytest.raises(InputError) as info:
        decode_json(raw, list[ToolOutput])
    if hint is None:
        assert "(" not in str(info.value)
    else:
        assert hint in str(info.value)


def test_tool_outputs_given_as_sources_get_a_hint() -> None:
    raw = b'[{"toolName": "web_search", "output": {"results": []}, "parameters": {}}]'
    with pytest.raises(InputError, match="pass them as tool outputs, not as sources"):
        decode_json(raw, list[CitationSource], what="sources.json")
    with pytest.raises(InputError) as info:  # a mistake of another kind: no hint
        decode_json(b'[{"id": "a", "type": "nope"}]', list[CitationSource])
    assert "(" not in str(info.value).split("`type`", 1)[-1]


@pytest.mark.parametrize(
    ("page", "message"),
    [("-5", "Expected `int` >= 0"), ("1" + "0" * 40, "Expected `int` <= 1000000000")],
)
def test_an_absurd_page_number_is_rejected(page: str, message: str) -> None:
    raw = f'{{"id": "a", "type": "file", "fullContent": "x", "pageNumber": {page}}}'.encode()
    with pytest.raises(InputError, match=r"\$\.pageNumber") as info:
        decode_json(raw, CitationSource)
    assert message in str(info.value)
    for fine in (0, 12):  # some loaders count pages from 0
        raw = f'{{"id": "a", "type": "file", "pageNumber": {fine}}}'.encode()
        assert decode_json(raw, CitationSource).page_number == fine


def test_unknown_source_type_is_rejected() -> None:
    with pytest.raises(InputError, match=r"\$\.type"):
        decode_json(b'{"id": "a", "type": "webpage"}', CitationSource)


def test_wire_types_are_frozen() -> None:
    source = CitationSource(id="a", type="web")
    with pytest.raises(AttributeError):
        source.id = "b"  # type: ignore[misc]


def test_source_text_prefers_full_content() -> None:
    assert CitationSource(id="a", type="web", snippet="s", full_content="f").text == "f"
    assert CitationSource(id="a", type="web", snippet="s").text == "s"
    assert CitationSource(id="a", type="web").text == ""


def test_empty_citations_summary_and_extractions_keep_their_fields() -> None:
    """A client reads summary.claims or citations.sources without checking they exist: empty
    lists and zero counts are written, not left out (they came back as {})."""
    import json

    from attribution import AttributionSummary, StoredCitationData, encode_json, extract_sources

    assert json.loads(encode_json(StoredCitationData())) == {"sources": [], "references": []}
    summary = json.loads(encode_json(AttributionSummary()))
    assert summary["claims"] == summary["markersAdded"] == 0
    assert len(summary) == len(AttributionSummary.__struct_fields__)
    assert json.loads(encode_json(extract_sources([]))) == {"sources": [], "warnings": []}


def test_the_camel_case_hint_names_a_field_of_the_object_the_error_points_into() -> None:
    from attribution.service._api import AttributionRequest

    body = b'{"answer": "x", "toolOutputs": [{"toolName": "t", "output": 1, "%s": "x"}]}'
    with pytest.raises(InputError) as info:  # a source's field, not a tool output's: no hint
        decode_json(body % b"full_content", AttributionRequest)
    assert "camelCase" not in str(info.value)
    with pytest.raises(InputError, match=r"the names are camelCase: `toolRequestId`"):
        decode_json(body % b"tool_request_id", AttributionRequest)
