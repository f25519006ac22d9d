"""MCP shapes: a ``CallToolResult`` and its content blocks.

Tool names look like ``mcp.<server>__<tool>`` or ``mcp__<server>__<tool>`` (Claude's), but a
result can come back under any name, so the other extractors hand an output that
:func:`is_mcp_result` recognises to :func:`mcp_sources`. Text and embedded text resources become
``mcp`` sources; resource links and search results with an http(s) address become
``web_result`` sources, so that they merge with the same page found by a web search. A text
block that holds search results (JSON objects with urls, or a ``Title:/URL:`` listing such as
the Brave, Tavily, Exa and DuckDuckGo servers print) becomes one ``web_result`` per result, and
so does a ``structuredContent`` holding them (the text blocks then repeat it and are skipped).
Image and audio blocks are skipped without a warning: they are not text that an answer's
claims can be checked against, and a tool that returns a chart along with its text is not
malformed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from attribution._wire import CitationSource, SourceType, ToolOutput
from attribution.sources._extractors._framework import Warn
from attribution.sources._extractors._shapes import (
    JSONObject,
    coerce_output,
    first_str,
    first_text,
    is_empty,
    kind_of,
    make_source,
    search_result_locator,
    text_of,
    to_json_text,
)
from attribution.sources._extractors._web import (
    fetch_page,
    has_web_results,
    listing_in_text,
    web_page,
    web_results,
)
from attribution.sources._keys import is_web_url

__all__ = ["is_mcp_result", "mcp_sources", "mcp_title"]

_NAME = re.compile(r"mcp(?:\.|__)(?P<server>[^.]+?)__(?P<tool>.+)", re.IGNORECASE)
_NOT_EVIDENCE = frozenset({"image", "audio"})
# Brave's official server puts the key of its AI summary in a block of its own: not evidence.
_NOT_TEXT_EVIDENCE = re.compile(r"Summarizer key:\s*\S+", re.IGNORECASE)
_BLOCK_TYPES = frozenset({"text", "image", "audio", "resource", "resource_link", "search_result"})


def is_mcp_result(data: Any) -> bool:
    """True when ``data`` is a ``CallToolResult``: content blocks that all have a known type."""
    if not isinstance(data, dict):
        return False
    blocks = data.get("content")
    return (
        isinstance(blocks, list)
        and bool(blocks)
        and all(
            isinstance(b, dict) and isinstance(b.get("type"), str) and b["type"] in _BLOCK_TYPES
            for b in blocks
        )
    )


def mcp_title(tool_name: str) -> str:
    """``<server>/<tool>`` for ``mcp.<server>__<tool>``; other names as they are."""
    match = _NAME.fullmatch(tool_name)
    return f"{match['server']}/{match['tool']}" if match else tool_name


def _typed(uri: str | None) -> SourceType:
    return "web_result" if is_web_url(uri) else "mcp"


def _text_sources(text: str, call: ToolOutput, warn: Warn) -> Iterator[CitationSource]:
    """The sources of a text block: its search results if it lists some, else the text."""
    if _NOT_TEXT_EVIDENCE.fullmatch(text):
        return
    page = fetch_page(text)
    if page is not None:  # the reference fetch server: one web page, the same source as a
        source = web_page(page, call, warn)  # search result or a scrape of that URL
        if source is not None:
            yield source
        return
    parsed = coerce_output(text)
    if not isinstance(parsed, str) and has_web_results(parsed):
        yield from web_results(parsed, call, warn)
        return
    listing = listing_in_text(text) if isinstance(parsed, str) else []
    if listing:
        yield from web_results(listing, call, warn)
        return
    source = make_source(call, "mcp", title=mcp_title(call.tool_name), full_content=text)
    if source is not None:
        yield source


def _block_sources_of(
    block: JSONObject, what: str, call: ToolOutput, warn: Warn
) -> Iterator[CitationSource]:
    if block.get("type") == "text":
        text = text_of(block.get("text"))
        if text is None:
            warn(f"{what} (text) is empty; skipped")
            return
        yield from _text_sources(text, call, warn)
        return
    source = _block_source(block, what, call, warn)
    if source is not None:
        yield source


def _block_source(
    block: JSONObject, what: str, call: ToolOutput, warn: Warn
) -> CitationSource | None:
    kind = block.get("type")
    if not isinstance(kind, str):  # {"type": []} is malformed, not a new kind of block
        warn(f"{what} has no type (got {kind_of(kind)}); skipped")
        return None
    title = mcp_title(call.tool_name)
    if kind == "resource":
        resource = block.get("resource")
        if not isinstance(resource, dict):
            warn(f"{what} (resource) has no resource object; skipped")
            return None
        uri = first_str(resource, "uri")
        text = text_of(resource.get("text"))
        if text is None:
            has_blob = resource.get("blob") is not None
            detail = "only binary data (blob)" if has_blob else "no text"
            warn(f"{what} (resource {uri or 'without uri'}) has {detail}; skipped")
            return None
        return make_source(
            call,
            "mcp",
            locator=(uri,) if uri else None,
            uri=uri,
            title=first_str(resource, "title", "name") or title,
            full_content=text,
        )
    if kind == "resource_link":
        uri = first_str(block, "uri")
        if uri is None:
            warn(f"{what} (resource_link) has no uri; skipped")
            return None
        return make_source(
            call,
            _typed(uri),
            locator=(uri,),
            uri=uri,
            title=first_str(block, "title", "name"),
            snippet=first_text(block, "description"),
        )
    if kind == "search_result":
        uri = first_str(block, "source", "url", "uri")
        text = first_text(block, "content", "text")
        if uri is None and text is None:
            warn(f"{what} (search_result) has no source and no text; skipped")
            return None
        named = first_str(block, "title")
        web = is_web_url(uri)  # keyed as an answer that cites it keys it (else by its text)
        locator = search_result_locator(uri, named) if uri and not web else None
        return make_source(call, _typed(uri), locator=locator, uri=uri, title=named, snippet=text)
    if kind in _NOT_EVIDENCE:
        return None
    warn(f"{what} has unknown type {kind!r}; skipped")
    return None


def mcp_sources(data: Any, call: ToolOutput, warn: Warn) -> Iterator[CitationSource]:
    """Sources of an MCP tool's output.

    Args:
        data: the coerced output: a ``CallToolResult`` (``{"content": [blocks], "isError",
            "structuredContent"}``), a bare list of blocks, or plain text.
        call: the tool call.
        warn: records problems.

    Yields:
        One source per usable block; none when the result is an error. A result with no
        usable block but ``structuredContent`` yields that object as JSON text.
    """
    if is_empty(data):
        warn("output is empty")
        return
    if isinstance(data, str):
        yield from _block_sources([{"type": "text", "text": data}], call, warn)
        return
    if isinstance(data, list):
        yield from _block_sources(data, call, warn)
        return
    if not isinstance(data, dict):
        warn(f"output is a {kind_of(data)}, not an MCP result; no sources")
        return
    if data.get("isError") is True:
        detail = first_text(data, "content") or "no message"
        warn(f"the tool reported an error (isError): {detail[:200]}")
        return
    blocks = data.get("content")
    if isinstance(blocks, str):
        blocks = [{"type": "text", "text": blocks}]
    elif not isinstance(blocks, list):
        # A server that returned a bare object: the object itself is the evidence.
        has_structured = "structuredContent" in data
        blocks = [] if has_structured else [{"type": "text", "text": to_json_text(data, warn)}]
    structured = _unwrapped(data.get("structuredContent"))
    if has_web_results(structured):
        yield from web_results(structured, call, warn)
        return
    found = list(_block_sources(blocks, call, warn, quiet_if_empty="structuredContent" in data))
    if not found and not is_empty(structured):
        source = make_source(
            call,
            "mcp",
            title=mcp_title(call.tool_name),
            full_content=to_json_text(structured, warn),
        )
        found = [source] if source is not None else []
    yield from found


def _unwrapped(structured: Any) -> Any:
    """``structuredContent`` without the ``{"result": ...}`` that FastMCP wraps lists in."""
    if isinstance(structured, dict) and set(structured) == {"result"}:
        return structured["result"]
    return structured


def _block_sources(
    blocks: list[Any], call: ToolOutput, warn: Warn, *, quiet_if_empty: bool = False
) -> Iterator[CitationSource]:
    if not blocks and not quiet_if_empty:
        warn("result has no content blocks")
    several = len(blocks) > 1
    found: list[tuple[str, bool, list[CitationSource]]] = []
    for position, block in enumerate(blocks, 1):
        what = f"block {position}" if several else "block"
        if not isinstance(block, dict):
            warn(f"{what} is a {kind_of(block)}, not a content block; skipped")
            continue
        text = block.get("type") == "text"
        found.append((what, text, list(_block_sources_of(block, what, call, warn))))
    listed = any(len(got) > 1 or any(s.type != "mcp" for s in got) for _, _, got in found)
    for what, text, got in found:
        if listed and text and len(got) == 1 and _status_line(got[0]):
            line = got[0].full_content or ""
            warn(f"{what} is a status line beside the results ({line[:100]!r}); skipped")
            continue
        yield from got


_STATUS_CHARS = 100
_STATUS = re.compile(
    r"(?i:\b(?:total|showing|shown|found|returned|returning|retrieved|page)\b.*\d"
    r"|\d[\d,.]*[ \t]+(?:\w+[ \t]+)?(?:results?|hits?|matches|documents?|docs|items?|records?"
    r"|entries|rows|files|chunks|passages|pages)\b)"
)
"""What a line about the results says: a count of them ("Total results: 3, showing 3.", "Found
12 documents", "3 matching files")."""


def _status_line(source: CitationSource) -> bool:
    """Whether a block's text is a line about the results, not a result: one short line that
    counts them ("Total results: 3, showing 3."); not a short fact with a number ("Population of
    Paris: 2,102,650 (INSEE, 2023).")."""
    text = (source.full_content or "").strip()
    return (
        source.type == "mcp"
        and len(text) <= _STATUS_CHARS
        and "\n" not in text
        and _STATUS.search(text) is not None
    )
