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

from typing import Any

from attribution.sources._extractors._shapes import JSONObject, first_str

__all__ = ["fetched_pages", "file_search_chunks", "provider_results"]

_ANTHROPIC_SEARCH = "web_search_tool_result"
_ANTHROPIC_FETCH = "web_fetch_tool_result"


def _blocks(data: Any) -> list[Any] | None:
    """An Anthropic message's content blocks: a message, its ``content`` list, or one block."""
    if isinstance(data, dict) and data.get("type") == "message":
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


def _anthropic_results(data: Any) -> list[Any] | None:
    """The pages an Anthropic web search returned, each with the text the answer quotes of it
    (``cited_text``, as its snippet), or None when ``data`` holds no search result block."""
    blocks = _blocks(data)
    if blocks is None:
        return None
    results: list[Any] = []
    searched = False
    quoted: dict[str, list[str]] = {}
    for block in blocks:
        if not isinstance(block, dict):
            continue
        if block.get("type") == _ANTHROPIC_SEARCH:
            searched = True
            content = block.get("content")
            if isinstance(content, list):
                results.extend(content)
            elif isinstance(content, dict):  # web_search_tool_result_error
                results.append({"error": content.get("error_code") or "error"})
        citations = block.get("citations") if block.get("type") == "text" else None
        for cite in citations if isinstance(citations, list) else []:
            url = first_str(cite, "url") if isinstance(cite, dict) else None
            text = first_str(cite, "cited_text") if isinstance(cite, dict) else None
            if url and text and text not in quoted.setdefault(url, []):
                quoted[url].append(text)
    if not searched:
        return None
    out: list[Any] = []
    for item in results:
        if isinstance(item, dict) and "error" in item and "url" not in item:
            continue  # reported by the caller's warning for an empty list
        if isinstance(item, dict):
            item = {k: v for k, v in item.items() if k != "encrypted_content"}
            url = first_str(item, "url")
            if url in quoted:
                item["snippet"] = "\n\n".join(quoted[url])
        out.append(item)
    return out


def _gemini_results(data: Any) -> list[Any] | None:
    """The pages a Gemini answer was grounded on (``groundingChunks``: ``web`` pages, or
    ``retrievedContext`` chunks of a Vertex AI Search store), or None when it has none."""
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
        listed = first_list(meta, "groundingChunks", "grounding_chunks")
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
        page = chunk.get("web") or chunk.get("retrievedContext") or chunk.get("retrieved_context")
        results.append(page if isinstance(page, dict) else chunk)
    return [{**r, "url": first_str(r, "uri", "url")} if isinstance(r, dict) else r for r in results]


def first_list(obj: Any, *names: str) -> list[Any] | None:
    """The first of ``names`` in ``obj`` holding a list."""
    if not isinstance(obj, dict):
        return None
    for name in names:
        value = obj.get(name)
        if isinstance(value, list):
            return value
    return None


def provider_results(data: Any) -> list[Any] | None:
    """The search results inside a provider's answer (Anthropic's web search, Gemini's
    grounding), as plain result objects (``url``, ``title``, maybe ``snippet`` or ``text``), or
    None when ``data`` is no such answer."""
    found = _anthropic_results(data)
    return found if found is not None else _gemini_results(data)


def fetched_pages(data: Any) -> Any:
    """Anthropic's web fetch answers (a ``web_fetch_tool_result`` block, or a message or list
    of blocks holding such blocks only besides text) as pages ``{url, title, content}``; any
    other ``data`` as it is."""
    blocks = _blocks(data)
    if blocks is None:
        return data
    pages: list[JSONObject] = []
    for block in blocks:
        if not isinstance(block, dict) or block.get("type") != _ANTHROPIC_FETCH:
            if isinstance(block, dict) and block.get("type") not in ("text", "server_tool_use"):
                return data  # something else too: not a fetch answer
            continue
        result = block.get("content")
        if not isinstance(result, dict):
            continue
        if result.get("type") == "web_fetch_tool_error" or "error_code" in result:
            pages.append({"url": first_str(result, "url"), "error": result.get("error_code")})
            continue
        document = result.get("content")
        document = document if isinstance(document, dict) else {}
        source = document.get("source")
        text = first_str(source, "data") if isinstance(source, dict) else None
        pages.append(
            {
                "url": first_str(result, "url"),
                "title": first_str(document, "title"),
                "content": text,
            }
        )
    if not pages:
        return data
    return pages[0] if len(pages) == 1 else pages


def file_search_chunks(data: Any) -> list[JSONObject] | None:
    """The chunks of an OpenAI file search: a vector store's ``search`` page (``data``: file,
    score, ``content`` parts) or a Responses answer's ``file_search_call`` results, as records
    ``{document_id, title, text, ...attributes}``; None when ``data`` is neither."""
    if not isinstance(data, dict):
        return None
    items: list[Any] | None = None
    if data.get("object") == "vector_store.search_results.page":
        items = first_list(data, "data")
    elif data.get("type") == "file_search_call":
        items = first_list(data, "results")
    elif data.get("object") == "response" and isinstance(data.get("output"), list):
        calls = [
            o for o in data["output"] if isinstance(o, dict) and o.get("type") == "file_search_call"
        ]
        if calls:
            items = [r for c in calls for r in (first_list(c, "results") or [])]
    if items is None:
        return None
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
