"""Answers of model providers' own tools: Anthropic's web search and web fetch, Gemini's
grounding with Google Search, and OpenAI's file search.

A provider's tool answers inside the provider's message, not as a list of results: Anthropic
puts ``web_search_tool_result`` blocks (``web_search_result`` items: url, title, an encrypted
text) among the message's content blocks and the text it quotes in the ``citations`` of its
text blocks; Gemini lists the pages under ``candidates[].groundingMetadata.groundingChunks``
(``web.uri``, ``web.title``); OpenAI's Responses API puts a ``file_search_call``'s chunks in
its output. These helpers turn each into the plain results the other extractors read.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from attribution.sources._extractors._framework import Warn
from attribution.sources._extractors._shapes import (
    REDIRECT_HOSTS,
    JSONObject,
    first_str,
    search_result_locator,
)
from attribution.sources._keys import is_web_url
from attribution.sources._urls import canonical_url, domain_of

__all__ = [
    "RETRIEVED_CHUNK",
    "CitedDocument",
    "cited_documents",
    "fetched_pages",
    "file_search_chunks",
    "message_tool_results",
    "provider_results",
]

_ANTHROPIC_SEARCH = "web_search_tool_result"
_ANTHROPIC_FETCH = "web_fetch_tool_result"
_CODE_RESULTS = frozenset(
    {
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
    }
)
"""The blocks of an Anthropic message that hold a code run's result."""
_OTHER_BLOCKS = frozenset(
    {
        "text",
        "server_tool_use",
        "thinking",
        "redacted_thinking",
        "tool_use",
        "tool_result",
        "mcp_tool_use",
        "mcp_tool_result",
        *_CODE_RESULTS,
    }
)
"""The blocks of an Anthropic message that hold no page."""


def _ignore(_: str) -> None:
    """A warning nobody reads (a caller that only asks whether a shape is there)."""


def _blocks(data: Any) -> list[Any] | None:
    """An Anthropic message's content blocks: a message (the API's, or ``{role, content}`` as
    a conversation stores it), its ``content`` list, or one block."""
    if isinstance(data, dict) and (data.get("type") == "message" or "role" in data):
        content = data.get("content")
        return content if isinstance(content, list) else None
    if isinstance(data, dict) and isinstance(data.get("type"), str):
        return [data]
    if isinstance(data, list) and any(
        isinstance(b, dict) and b.get("type") in (_ANTHROPIC_SEARCH, _ANTHROPIC_FETCH, "text")
        for b in data
    ):
        return data
    return None


def _fetched(block: JSONObject, warn: Warn, asked: dict[str, str]) -> JSONObject | None:
    """The page of a ``web_fetch_tool_result`` block ``{url, title, content}`` (no content: a
    PDF's bytes, warned), or None (an error, or no page: warned). ``asked``: the address each
    ``server_tool_use`` block fetched, by its id (an error names none of its own)."""
    result = block.get("content")
    if not isinstance(result, dict):
        warn("a web fetch result holds no page; skipped")
        return None
    url = first_str(result, "url") or asked.get(str(block.get("tool_use_id")))
    if result.get("type") == "web_fetch_tool_error" or "error_code" in result:
        code = result.get("error_code") or "an error"
        warn(f"the web fetch of {url or 'a page'} failed ({code}); no source")
        return None
    document = result.get("content")
    document = document if isinstance(document, dict) else {}
    source = document.get("source")
    source = source if isinstance(source, dict) else {}
    if source.get("type") not in (None, "text"):  # a PDF as base64: no text to quote
        kind = source.get("media_type") or source.get("type")
        warn(f"the web fetch of {url or 'a page'} holds no text ({kind}); kept without text")
        return {"url": url, "title": first_str(document, "title"), "content": None}
    text = first_str(source, "data")
    if not text:
        warn(f"the web fetch of {url or 'a page'} holds no text; skipped")
        return None
    return {"url": url, "title": first_str(document, "title"), "content": text}


def _asked(blocks: list[Any]) -> dict[str, str]:
    """The address each ``server_tool_use`` block of a message asked to fetch, by its id."""
    asked: dict[str, str] = {}
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "server_tool_use":
            given = block.get("input")
            url = first_str(given, "url") if isinstance(given, dict) else None
            if url and block.get("id") is not None:
                asked[str(block["id"])] = url
    return asked


def _anthropic_results(data: Any, warn: Warn) -> list[Any] | None:
    """The pages an Anthropic web search returned, each with the text the answer quotes of it
    (``cited_text``, as its snippet), and the pages it fetched with their text; None when
    ``data`` holds no search result block."""
    blocks = _blocks(data)
    if blocks is None or not any(
        isinstance(b, dict) and b.get("type") == _ANTHROPIC_SEARCH for b in blocks
    ):
        return None
    results: list[Any] = []
    quoted: dict[str, list[str]] = {}
    asked = _asked(blocks)
    for block in blocks:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == _ANTHROPIC_SEARCH:
            content = block.get("content")
            if isinstance(content, list):
                results.extend(
                    {k: v for k, v in r.items() if k != "encrypted_content"}
                    if isinstance(r, dict)
                    else r
                    for r in content
                )
            else:  # web_search_tool_result_error
                code = content.get("error_code") if isinstance(content, dict) else None
                warn(f"a web search failed ({code or 'an error'}); no results from it")
        elif kind == _ANTHROPIC_FETCH and (page := _fetched(block, warn, asked)) is not None:
            results.append(
                {"url": page["url"], "title": page["title"], "raw_content": page["content"]}
            )
        citations = block.get("citations") if kind == "text" else None
        for cite in citations if isinstance(citations, list) else []:
            url = first_str(cite, "url") if isinstance(cite, dict) else None
            text = first_str(cite, "cited_text") if isinstance(cite, dict) else None
            if url and text and text not in (said := quoted.setdefault(canonical_url(url), [])):
                said.append(text)
    for item in results:
        url = first_str(item, "url") if isinstance(item, dict) else None
        if url and (cited := quoted.get(canonical_url(url))):
            item["snippet"] = "\n\n".join(cited)
    return results


RETRIEVED_CHUNK = "_retrieved_chunk"
"""The mark of a grounding chunk that is a store's passage (``retrievedContext`` with a
``gs://`` or store address): read as a ``file`` chunk with its text, not as a web result."""


def _gemini_results(data: Any) -> list[Any] | None:
    """The pages a Gemini answer was grounded on (``groundingChunks``: ``web`` and ``maps``
    pages, or ``retrievedContext`` chunks of a Vertex AI Search store), or None when it has
    none."""
    if not isinstance(data, dict):
        return None
    metadata: list[Any] = []
    candidates = data.get("candidates")
    if isinstance(candidates, list):
        metadata = [
            c.get("groundingMetadata") or c.get("grounding_metadata")
            for c in candidates
            if isinstance(c, dict)
        ]
    else:
        metadata = [data.get("groundingMetadata") or data.get("grounding_metadata") or data]
    chunks: list[Any] = []
    found = False
    for meta in metadata:
        listed = _first_list(meta, "groundingChunks", "grounding_chunks")
        if listed is not None:
            found = True
            chunks.extend(listed)
    if not found:
        return None
    results: list[Any] = []
    for chunk in chunks:
        if not isinstance(chunk, dict):
            results.append(chunk)
            continue
        page = next(
            (
                chunk[k]
                for k in ("web", "retrievedContext", "retrieved_context", "maps")
                if isinstance(chunk.get(k), dict)
            ),
            chunk,
        )
        url = first_str(page, "uri", "url")
        if page is not chunk.get("web") and page is not chunk.get("maps") and not is_web_url(url):
            # a Vertex AI Search or RAG store's chunk (gs://, a store's id): a document's
            # passage, with its text, not a web page
            results.append({**page, "url": url, RETRIEVED_CHUNK: True})
            continue
        site = first_str(page, "domain")
        if site is None and domain_of(url) in REDIRECT_HOSTS:
            # the Gemini API writes the site as the chunk's title (Vertex AI as its domain)
            site = first_str(page, "title")
        results.append({**page, "url": url, "domain": site})
    return results


def _first_list(obj: Any, *names: str) -> list[Any] | None:
    """The first of ``names`` in ``obj`` holding a list."""
    if not isinstance(obj, dict):
        return None
    for name in names:
        value = obj.get(name)
        if isinstance(value, list):
            return value
    return None


def provider_results(data: Any, warn: Warn = _ignore) -> list[Any] | None:
    """The search results inside a provider's answer (Anthropic's web search, with the pages
    it fetched; Gemini's grounding), as plain result objects (``url``, ``title``, maybe
    ``snippet`` or ``raw_content``), or None when ``data`` is no such answer."""
    found = _anthropic_results(data, warn)
    return found if found is not None else _gemini_results(data)


def fetched_pages(data: Any, warn: Warn = _ignore) -> Any:
    """Anthropic's web fetch answers (a ``web_fetch_tool_result`` block, or a message or list
    of blocks that holds such blocks and no search) as pages ``{url, title, content}``, a
    list of them where there are several (an empty list where every fetch failed: warned), or
    as search results ``{"results": [...]}`` where a page came without its text (a PDF: kept,
    so that the answer's marker for it is unverifiable rather than unknown); any other
    ``data`` as it is."""
    blocks = _blocks(data)
    if blocks is None:
        return data
    fetches = [b for b in blocks if isinstance(b, dict) and b.get("type") == _ANTHROPIC_FETCH]
    if not fetches or any(
        isinstance(b, dict) and b.get("type") not in _OTHER_BLOCKS | {_ANTHROPIC_FETCH}
        for b in blocks
    ):
        return data  # no fetch, or a search or something else beside it
    asked = _asked(blocks)
    pages = [page for b in fetches if (page := _fetched(b, warn, asked)) is not None]
    if any(page["content"] is None for page in pages):
        # a PDF's page without its text: a result the answer may cite, not a page to read
        return {
            "results": [
                {"url": p["url"], "title": p["title"], "raw_content": p["content"]} for p in pages
            ]
        }
    return pages[0] if len(pages) == 1 else pages


def file_search_chunks(data: Any) -> list[JSONObject] | None:
    """The chunks of an OpenAI file search: a vector store's ``search`` page (``data``: file,
    score, ``content`` parts) or a Responses answer's ``file_search_call`` results, as records
    ``{document_id, title, text, ...attributes}``; None when ``data`` is neither."""
    if not isinstance(data, dict):
        return None
    items: list[Any] | None = None
    if data.get("object") == "vector_store.search_results.page":
        items = _first_list(data, "data")
    elif data.get("type") == "file_search_call":
        items = _first_list(data, "results")
    elif data.get("object") == "response" and isinstance(data.get("output"), list):
        calls = [
            o for o in data["output"] if isinstance(o, dict) and o.get("type") == "file_search_call"
        ]
        if calls:
            items = [r for c in calls for r in (_first_list(c, "results") or [])]
    if not items:
        return None  # no results listed (the API lists them only when asked): read otherwise
    records: list[JSONObject] = []
    for item in items:
        if not isinstance(item, dict):
            records.append(item)
            continue
        attributes = item.get("attributes")
        record: JSONObject = dict(attributes) if isinstance(attributes, dict) else {}
        content = item.get("content")
        if isinstance(content, list):
            parts = [first_str(p, "text") for p in content if isinstance(p, dict)]
            text: Any = "\n".join(p for p in parts if p) or None
        else:
            text = item.get("text")
        record.update(
            document_id=item.get("file_id"),
            title=first_str(item, "filename") or first_str(record, "title"),
            text=text,
            score=item.get("score"),
        )
        records.append(record)
    return records


_TOOL_BLOCKS = (_OTHER_BLOCKS - {"text", "thinking", "redacted_thinking"}) | {
    _ANTHROPIC_SEARCH,
    _ANTHROPIC_FETCH,
}
"""Blocks of an Anthropic message that a tool call or its result makes."""


def _tool_name(block: JSONObject) -> str:
    """A tool call's name: an MCP connector's as ``server/tool`` ("linear/search_issues")."""
    name = str(block.get("name") or block.get("type"))
    server = first_str(block, "server_name")
    return f"{server}/{name}" if server and block.get("type") == "mcp_tool_use" else name


def message_tool_results(data: Any) -> list[tuple[str, Any]] | None:
    """What the tools called inside an Anthropic message returned, as (the tool's name, the
    result's content: text, a list of content blocks, an object), or None when ``data`` is no
    such message: ``{"type": "message", "role": "assistant", "content": [...]}`` as the API
    answers (with its ``stop_reason``) or holding a tool's block, or a user's
    message holding tool results. The model's own text is no source: passed whole, its message
    is most often the answer being checked."""
    if not (isinstance(data, dict) and data.get("type") == "message"):
        return None
    blocks = data.get("content")
    if not isinstance(blocks, list):
        return None
    kinds = {b.get("type") for b in blocks if isinstance(b, dict)}
    if kinds & {"output_text", "output_audio", "input_text"}:
        return None  # an OpenAI Responses or Realtime item, not Anthropic's
    answered = "stop_reason" in data
    if data.get("role") == "assistant":
        if not (answered or kinds & _TOOL_BLOCKS):
            return None  # another app's message (an OpenAI output item: "output_text")
    elif not (data.get("role") == "user" and "tool_result" in kinds):
        return None  # a message of a chat history or an app: read as before
    names = {
        str(b.get("id")): _tool_name(b)
        for b in blocks
        if isinstance(b, dict) and b.get("type") in ("mcp_tool_use", "tool_use", "server_tool_use")
    }
    found: list[tuple[str, Any]] = []
    for block in blocks:
        if not isinstance(block, dict) or block.get("is_error"):
            continue
        kind = block.get("type")
        name = names.get(str(block.get("tool_use_id")), str(kind))
        content = block.get("content")
        if kind in ("mcp_tool_result", "tool_result") and content:
            found.append((name, content))
        elif kind in _CODE_RESULTS and isinstance(content, dict):
            inner = content.get("content")
            out = content.get("stdout") or (
                first_str(inner, "stdout") if isinstance(inner, dict) else None
            )
            if isinstance(out, str) and out.strip():
                found.append((name, out))
    return found


_DOCUMENT_CITATIONS = frozenset({"char_location", "page_location", "content_block_location"})


class CitedDocument(NamedTuple):
    """A document or search result an Anthropic answer cites, known only by what it quotes."""

    locator: tuple[str, ...]
    """What identifies it: a document's index and title (its message's id where it has no
    title), a search result's source and title (:func:`search_result_locator`, as the MCP
    reader keys a ``search_result`` block)."""
    title: str | None
    source: str | None
    """A search result's ``source`` (an address, or a name of the caller's own)."""
    quoted: list[str]
    """The texts the answer quotes of it (``cited_text``), each once, in the order cited."""


def cited_documents(data: Any) -> list[CitedDocument]:
    """The documents an Anthropic message's text cites with ``char_location``,
    ``page_location`` or ``content_block_location`` citations (documents given with the
    request), and the search results it cites with ``search_result_location`` ones: the
    response holds neither, only the text it quotes of each (``cited_text``), which is what
    the answer's claims can be checked against."""
    blocks = _blocks(data)
    message = first_str(data, "id") if isinstance(data, dict) else None
    found: dict[tuple[str, ...], CitedDocument] = {}
    for block in blocks or []:
        citations = block.get("citations") if isinstance(block, dict) else None
        for cite in citations if isinstance(citations, list) else []:
            if not isinstance(cite, dict) or not (quote := first_str(cite, "cited_text")):
                continue
            kind = cite.get("type")
            if kind in _DOCUMENT_CITATIONS:
                index = cite.get("document_index")
                title = first_str(cite, "document_title")
                if not isinstance(index, int) or isinstance(index, bool):
                    continue
                # untitled documents of two requests share their indexes: the message tells
                named = title or message
                locator = ("document", str(index), *((named,) if named else ()))
                new = CitedDocument(locator, title, None, [])
            elif kind == "search_result_location":
                source = first_str(cite, "source")
                title = first_str(cite, "title")
                if not (source or title):
                    continue
                new = CitedDocument(search_result_locator(source, title), title, source, [])
            else:
                continue
            document = found.setdefault(new.locator, new)
            if quote not in document.quoted:
                document.quoted.append(quote)
    return list(found.values())
