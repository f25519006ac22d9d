"""The built-in extractors, registered on :data:`default_extractors`.

Each entry maps a family of tool names to the shape module that reads their output. The
generic extractor is registered first so that every other one wins over it; an extractor a
user registers on a copy of this registry wins over all of them. ``tests/test_extractors.py``
snapshots the names and patterns, so any change here shows up as a test diff.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from attribution._wire import CitationSource, SourceType, ToolOutput
from attribution.sources._extractors._framework import ExtractorRegistry, Warn
from attribution.sources._extractors._mcp import is_mcp_result, mcp_sources, mcp_title
from attribution.sources._extractors._records import (
    ANON_CHUNK,
    CHAT_TURN,
    CONNECTOR_ITEM,
    FILE_CHUNK,
    KB_CHUNK,
    KB_DOCUMENT,
    record_sources,
)
from attribution.sources._extractors._shapes import (
    coerce_output,
    find_items,
    is_empty,
    make_source,
    text_of,
    to_json_text,
)
from attribution.sources._extractors._stores import store_records
from attribution.sources._extractors._vendors import (
    cited_documents,
    fetched_pages,
    message_tool_results,
    provider_results,
)
from attribution.sources._extractors._web import (
    has_web_results,
    http_response,
    is_web_page,
    openai_response_pages,
    reader_page,
    web_page,
    web_pages,
    web_results,
    wikipedia_pages,
)
from attribution.sources._html import html_page, looks_like_html
from attribution.sources._keys import is_web_url

__all__ = ["default_extractors"]

default_extractors = ExtractorRegistry()
"""The registry :func:`attribution.extract_sources` uses unless given another."""


@default_extractors.register("generic.v1", pattern=r".+")
def extract_generic(call: ToolOutput, warn: Warn) -> Iterator[CitationSource]:
    """Any tool no other extractor knows: a page, search or vector-store results, or the text.

    An MCP result is read by :func:`mcp_sources`; a vector store's query result (Chroma,
    Qdrant, Pinecone, Weaviate, LlamaIndex nodes) gives ``file`` chunk sources. An object with
    an http(s) url and text, or a Jina Reader text answer, becomes a ``web`` source; a listing
    whose items have http(s) urls becomes ``web_result`` sources; anything else becomes one
    ``api`` source with the output as text (JSON pretty-printed), keyed by its hash and titled
    with the tool name.
    """
    data = coerce_output(call.output)
    if is_empty(data):
        warn("output is empty; no sources")
        return
    if (told := message_tool_results(data)) is not None:
        # an Anthropic message: what its tools found; its own answer is no source
        yield from _message_sources(data, told, call, warn)
        return
    if is_mcp_result(data):
        yield from mcp_sources(data, call, warn)
        return
    if isinstance(data, str) and (page_data := reader_page(data, warn)) is not None:
        data = page_data
    if fetched_pages(data) is not data:  # Anthropic's web fetch, read as a scrape tool reads it
        yield from web_pages(data, call, warn)
        return
    if isinstance(data, dict) and openai_response_pages(data) is not None:
        # an OpenAI Responses answer: the pages it searched and cites, its files' chunks; its
        # own answer is no source (it would support every claim of itself)
        yield from _response_sources(data, call, warn)
        return
    records = store_records(data)
    if records is not None:
        yield from record_sources(records, FILE_CHUNK, call, warn)
        return
    if provider_results(data) is not None:  # Anthropic's web search, Gemini's grounding
        yield from web_results(data, call, warn)
        return
    if isinstance(data, dict) and is_web_page(data):
        page = web_page(data, call, warn)
        if page is not None:
            yield page
        return
    if find_items(data) is not None and has_web_results(data):
        yield from web_results(data, call, warn)
        return
    title: str | None = call.tool_name
    text: str | None
    if isinstance(data, str) and looks_like_html(data):
        page_title, text = html_page(data)  # an HTML page: its readable text, not its markup
        title = page_title or title
        if not text:
            warn("output is an HTML page with no readable text; no sources")
            return
    else:
        text = text_of(data) if isinstance(data, str) else to_json_text(data, warn)
    source = make_source(call, "api", title=title, full_content=text)
    if source is not None:
        yield source


def _response_sources(
    data: dict[str, Any], call: ToolOutput, warn: Warn
) -> Iterator[CitationSource]:
    """The sources of an OpenAI Responses answer: its file search's chunks, the pages its web
    search found and its text cites, what its other tools returned; a warning where it has
    none of them."""
    chunks = store_records(data) or []  # the chunks its file search returned
    pages = openai_response_pages(data) or []
    if chunks:
        yield from record_sources(chunks, FILE_CHUNK, call, warn)
    if pages:
        yield from web_results(data, call, warn)
    results = _call_results(data)
    for name, text in results:  # what its other tools returned (an MCP call, code's output)
        source = make_source(call, "api", title=name, full_content=text)
        if source is not None:
            yield source
    if not (chunks or pages or results):
        warn(
            "output is an OpenAI response with no search results or citations (ask for them "
            "with include=['file_search_call.results'] or a web search); its own answer is no "
            "source; no sources"
        )


def _message_sources(
    data: dict[str, Any], told: list[tuple[str, Any]], call: ToolOutput, warn: Warn
) -> Iterator[CitationSource]:
    """The sources of an Anthropic message: the pages its web search found and fetched, what
    its other tools returned; a warning where it has none."""
    found = False
    if provider_results(data) is not None:
        found = True
        yield from web_results(data, call, warn)
    elif fetched_pages(data) is not data:
        found = True
        yield from web_pages(data, call, warn)
    for name, content in told:
        if isinstance(content, list):  # content blocks: read as an MCP result's are
            generic = mcp_title(call.tool_name)
            for block_source in mcp_sources({"content": content}, call, warn):
                found = True
                if block_source.title == generic:  # titled with the tool that returned it
                    block_source = msgspec.structs.replace(block_source, title=name)
                yield block_source
            continue
        text = content if isinstance(content, str) else to_json_text(content, warn)
        source = make_source(call, "api", title=name, full_content=text)
        if source is not None:
            found = True
            yield source
    cited = cited_documents(data)
    for document in cited:  # documents and search results of the request, as it quotes them
        web = is_web_url(document.source)
        kind: SourceType = "web_result" if web else "mcp" if document.source else "file"
        source = make_source(
            call,
            kind,  # a caller's search result as its MCP block is read; a document as a file
            locator=None if web else document.locator,
            uri=document.source,
            title=document.title or document.source,
            snippet="\n\n".join(document.quoted),
        )
        if source is not None:
            found = True
            yield source
    if cited:
        warn(
            f"the answer cites {len(cited)} document(s) or search result(s) of the request "
            "(char_location, page_location, content_block_location, search_result_location "
            "citations), which the message does not hold: each is read from the text the "
            "answer quotes of it (cited_text); pass them as sources for their whole text"
        )
    if not found:
        warn(
            "output is a model's message with no tool results (web search, fetch, MCP or tool "
            "results); its own answer is no source; no sources"
        )


def _call_results(data: dict[str, Any]) -> list[tuple[str, str]]:
    """What the tools of an OpenAI Responses answer other than its searches returned, by the
    tool's name: an ``mcp_call``'s output, a ``code_interpreter_call``'s logs."""
    found: list[tuple[str, str]] = []
    for item in data.get("output") or []:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "mcp_call" and (text := text_of(item.get("output"))):
            found.append((str(item.get("name") or "mcp_call"), text))
        elif kind == "code_interpreter_call":
            outputs = item.get("outputs")
            logs: list[str] = [
                o["logs"]
                for o in (outputs if isinstance(outputs, list) else [])
                if isinstance(o, dict) and isinstance(o.get("logs"), str) and o["logs"].strip()
            ]
            if text := "\n".join(logs):
                found.append(("code_interpreter", text))
    return found


@default_extractors.register(
    "web_search.v1",
    pattern=(
        r"web_search|search_web|google_search|bing_search|brave_search|brave_web_search"
        r"|tavily_search(_results(_json)?)?|serper(_search)?|serpapi(_search)?"
        r"|duckduckgo_search|duckduckgo_results_json|exa_search"
    ),
)
def extract_web_search(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Web search results as ``web_result`` sources (see :func:`._web.web_results`).

    A search served by an MCP server (``CallToolResult`` blocks) is read by :func:`mcp_sources`.
    """
    data = coerce_output(call.output)
    if (told := message_tool_results(data)) is not None:
        return _message_sources(data, told, call, warn)  # its own answer is no source
    if is_mcp_result(data):
        return mcp_sources(data, call, warn)
    return web_results(data, call, warn)


@default_extractors.register(
    "web_scrape.v1",
    pattern=(
        r"web_scrape|scrape(_url|_page|_website)?|fetch(_url|_page|_webpage)?|browse(_page)?"
        r"|read_url|crawl(_page)?|firecrawl_(scrape|crawl)"
    ),
)
def extract_web_scrape(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Fetched pages as ``web`` sources with their whole text (see :func:`._web.web_pages`)."""
    data = coerce_output(call.output)
    if (told := message_tool_results(data)) is not None:
        return _message_sources(data, told, call, warn)  # its own answer is no source
    return web_pages(data, call, warn)


@default_extractors.register(
    "wikipedia_search.v1", pattern=r"wikipedia(_search)?|search_wikipedia|wiki_search"
)
def extract_wikipedia(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Wikipedia pages as ``web_result`` sources (see :func:`._web.wikipedia_pages`)."""
    return wikipedia_pages(coerce_output(call.output), call, warn)


@default_extractors.register(
    "http_client.v1",
    pattern=r"http_client|http_request|http_get|http_fetch|api_request|requests_get",
)
def extract_http_client(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """An HTTP response body as one ``api`` source (see :func:`._web.http_response`)."""
    return http_response(coerce_output(call.output), call, warn)


@default_extractors.register(
    "rag.v1",
    pattern=(
        r"query_rag_project|query_rag|rag_query|rag_search|retrieve|retrieve_documents"
        r"|vector_search|search_documents|query_documents|query_index"
    ),
)
def extract_rag(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Retrieved chunks of a RAG project as ``file`` sources keyed by document and chunk id."""
    return record_sources(coerce_output(call.output), FILE_CHUNK, call, warn)


@default_extractors.register(
    "knowledge_base.v1",
    pattern=r"search_knowledge_base|kb_search|search_kb|query_knowledge_base",
)
def extract_knowledge_base(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Knowledge-base chunks as ``kb_chunk`` sources (the same shapes as RAG chunks)."""
    return record_sources(coerce_output(call.output), KB_CHUNK, call, warn)


@default_extractors.register(
    "kb_document.v1",
    pattern=(
        r"read_document|get_document|fetch_document|read_kb_document|get_kb_document"
        r"|read_knowledge_base_document|get_knowledge_base_document"
    ),
)
def extract_kb_document(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """A whole knowledge-base document as a ``kb_document`` source."""
    return record_sources(coerce_output(call.output), KB_DOCUMENT, call, warn)


@default_extractors.register(
    "connector.v1",
    pattern=(
        r"search_connectors?|connector_search|get_connector_item|read_connector_item"
        r"|list_connector_items|connector_[a-z0-9_]+"
    ),
)
def extract_connector(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Items from connected apps as ``connector_item`` sources keyed by connector and item id."""
    return record_sources(coerce_output(call.output), CONNECTOR_ITEM, call, warn)


@default_extractors.register(
    "chat_turn.v1",
    pattern=(
        r"search_chat_history|chat_history|search_conversations?|get_chat_turns?|read_thread"
        r"|get_thread|search_messages"
    ),
)
def extract_chat_turns(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Messages of earlier conversations as ``chat_turn`` sources keyed by thread and message."""
    return record_sources(coerce_output(call.output), CHAT_TURN, call, warn)


@default_extractors.register(
    "anon_upload.v1",
    pattern=(
        r"search_uploads?|query_uploads?|search_attachments?|read_attachment"
        r"|search_uploaded_files|query_uploaded_files"
    ),
)
def extract_anon_upload(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Chunks of files uploaded to the conversation as ``anon_chunk`` sources."""
    return record_sources(coerce_output(call.output), ANON_CHUNK, call, warn)


@default_extractors.register("mcp.v1", pattern=r"mcp(?:\.|__)[^.]+?__.+")
def extract_mcp(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
    """Content blocks of an MCP tool result (see :func:`._mcp.mcp_sources`).

    ``mcp.<server>__<tool>`` and Claude's ``mcp__<server>__<tool>``.
    """
    data = coerce_output(call.output)
    if (told := message_tool_results(data)) is not None:
        return _message_sources(data, told, call, warn)  # its own answer is no source
    return mcp_sources(data, call, warn)
