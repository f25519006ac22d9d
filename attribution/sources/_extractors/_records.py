"""Record shapes: chunks, documents, connector items, chat turns and uploads.

All of these are objects identified by one or two ids (``document_id`` and ``chunk_id``,
``thread_id`` and ``message_id``, ...) with some text, a title and maybe an address. One
:class:`RecordShape` per kind names the fields to read, and :func:`record_sources` does the
walking for all of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from attribution._wire import CitationSource, SourceType, ToolOutput
from attribution.sources._extractors._framework import Warn
from attribution.sources._extractors._shapes import (
    JSONObject,
    find_items,
    first_id,
    first_str,
    first_text,
    is_empty,
    kind_of,
    make_source,
    page_number,
    unwrap,
    with_metadata,
)
from attribution.sources._extractors._stores import (
    CHUNK_IDS,
    DOCUMENT_IDS,
    FIELDS_TEXT,
    store_records,
)

__all__ = [
    "ANON_CHUNK",
    "CHAT_TURN",
    "CONNECTOR_ITEM",
    "FILE_CHUNK",
    "KB_CHUNK",
    "KB_DOCUMENT",
    "RecordShape",
    "record_sources",
]

_PAGE_FIELDS = ("page", "page_number", "pageNumber")


@dataclass(frozen=True, slots=True)
class RecordShape:
    """Where a kind of record keeps its id, text and the rest."""

    source_type: SourceType
    """Type of the sources made from such records."""
    noun: str
    """What warnings call one record (``chunk``, ``message``)."""
    key: tuple[tuple[str, ...], ...]
    """Field names of each locator part, outermost first (``(document ids, chunk ids)``)."""
    text: tuple[str, ...]
    """Fields holding the record's whole text."""
    title: tuple[str, ...]
    """Fields holding a title."""
    uri: tuple[str, ...] = ("uri", "url", "source")
    """Fields holding an address."""
    snippet: tuple[str, ...] = ()
    """Fields holding a short excerpt (kept apart from the whole text)."""
    needs_text: bool = True
    """Whether a record without text is useless (a listing of links is not)."""


_CHUNK_KEY = (DOCUMENT_IDS, CHUNK_IDS)
_CHUNK_TEXT = ("text", "content", "chunk", "page_content", "pageContent", "chunk_text", FIELDS_TEXT)
_CHUNK_TITLE = (
    "title",
    "document_title",
    "documentTitle",
    "file_name",
    "fileName",
    "filename",
    "name",
)

_CHUNK_URI = ("uri", "url", "source", "file_path", "filePath")
"""A chunk's address: a URL, or the path of its file (Haystack's ``file_path``)."""
FILE_CHUNK = RecordShape(
    source_type="file",
    noun="chunk",
    key=_CHUNK_KEY,
    text=_CHUNK_TEXT,
    title=_CHUNK_TITLE,
    uri=_CHUNK_URI,
)
"""A chunk of a RAG project's document (LangChain ``{page_content, metadata}`` included)."""
KB_CHUNK = replace(FILE_CHUNK, source_type="kb_chunk")
"""A chunk of a knowledge-base document: the same shape as a RAG chunk."""
KB_DOCUMENT = RecordShape(
    source_type="kb_document",
    noun="document",
    key=(("document_id", "doc_id", "documentId", "id"),),
    text=("content", "text", "body", "markdown", FIELDS_TEXT),
    title=("title", "name", "file_name", "fileName", "filename"),
)
"""A whole knowledge-base document."""
CONNECTOR_ITEM = RecordShape(
    source_type="connector_item",
    noun="item",
    key=(
        ("connector_id", "connectorId", "connector", "provider"),
        ("external_id", "externalId", "id"),
    ),
    text=("content", "text", "body", FIELDS_TEXT),
    snippet=("snippet", "description", "summary", "preview"),
    title=("title", "name", "subject"),
    uri=("url", "web_url", "webUrl", "link", "uri"),
    needs_text=False,
)
"""An item from a connected app (a Drive file, a Jira issue, an email)."""
CHAT_TURN = RecordShape(
    source_type="chat_turn",
    noun="message",
    key=(
        ("thread_id", "threadId", "conversation_id", "conversationId"),
        ("message_id", "messageId", "id"),
    ),
    text=("content", "text", "message", FIELDS_TEXT),
    title=("title", "thread_title", "threadTitle", "subject"),
)
"""A message of an earlier conversation."""
ANON_CHUNK = RecordShape(
    source_type="anon_chunk",
    noun="chunk",
    key=(
        ("upload_id", "uploadId", "file_id", "fileId", "attachment_id", "attachmentId"),
        ("chunk_id", "chunkId", "chunk_index", "chunkIndex", "index"),
    ),
    text=("text", "content", "chunk", FIELDS_TEXT),
    title=("filename", "file_name", "fileName", "name", "title"),
)
"""A chunk of a file uploaded to the conversation."""


def _locator(
    record: JSONObject, shape: RecordShape, lenders: list[JSONObject], *, single: bool
) -> tuple[str, ...] | None:
    """The record's locator, or None when a part is missing.

    A part the record lacks is looked up in ``lenders`` (the object that held the listing, the
    call's parameters), except the innermost part of a record in a listing: that one is the
    record's own (each chunk has its own id), and lending it would merge distinct records.
    """
    parts: list[str] = []
    for number, names in enumerate(shape.key, 1):
        own_only = number == len(shape.key) and not single
        candidates = [record] if own_only else [record, *lenders]
        found = next((v for c in candidates if (v := first_id(c, *names)) is not None), None)
        if found is None:
            return None
        parts.append(found)
    return tuple(parts)


def _record_source(
    item: Any,
    what: str,
    shape: RecordShape,
    call: ToolOutput,
    warn: Warn,
    lenders: list[JSONObject],
    *,
    single: bool,
) -> CitationSource | None:
    if isinstance(item, str):
        item = {shape.text[0]: item}
    if not isinstance(item, dict):
        warn(f"{what} is a {kind_of(item)}, not an object; skipped")
        return None
    record = with_metadata(item)
    text = first_text(record, *shape.text)
    snippet = first_text(record, *shape.snippet)
    uri = first_str(record, *shape.uri)
    if shape.needs_text and text is None:
        warn(f"{what} has no text ({'/'.join(shape.text[:3])}); skipped")
        return None
    if not (text or snippet or uri):
        warn(f"{what} has no url and no text; skipped")
        return None
    return make_source(
        call,
        shape.source_type,
        locator=_locator(record, shape, lenders, single=single),
        uri=uri,
        title=first_str(record, *shape.title),
        snippet=snippet,
        full_content=text,
        page=page_number(record, *_PAGE_FIELDS),
    )


def record_sources(
    data: Any, shape: RecordShape, call: ToolOutput, warn: Warn
) -> Iterator[CitationSource]:
    """Sources of an output made of records of one kind.

    Args:
        data: the coerced output: a list of records, an object holding one under a common key
            (``results``, ``chunks``, ``matches``, ...), a vector store's query result (see
            :func:`._stores.store_records`), one record (maybe wrapped in
            ``{"document": ...}``), or plain text (one record whose ids come from the call's
            parameters).
        shape: where this kind of record keeps its fields.
        call: the tool call.
        warn: records problems.

    Yields:
        One source per record with text (or, where text is optional, an address). A record
        without its ids is keyed by a hash of its text.
    """
    if is_empty(data):
        warn("output is empty")
        return
    store = data if isinstance(data, dict) else None  # may name what its chunks share
    records = store_records(data)
    data = records if records is not None else data
    # A record that has its own text is one record, even with a list field ("chunks").
    is_record = isinstance(data, dict) and first_text(with_metadata(data), *shape.text)
    found = None if is_record else find_items(data)
    if found is not None:
        items, container = found
        # a search index's answer may come wrapped with what its hits share (a connector's
        # id); a vector store's points name their own documents
        wrapped = store is not None and ("value" in store or "hits" in store)
        outer = container if records is None else store if wrapped else None
        lenders = [c for c in (outer, call.parameters) if c]
        if not items:
            warn(f"output has an empty list of {shape.noun}s")
        for position, item in enumerate(items, 1):
            what = f"{shape.noun} {position}"
            source = _record_source(item, what, shape, call, warn, lenders, single=False)
            if source is not None:
                yield source
        return
    envelope: JSONObject | None = None
    if isinstance(data, dict):
        record, envelope = unwrap(data, shape.text)
    elif isinstance(data, str):
        record = {shape.text[0]: data}
    else:
        warn(f"output is a {kind_of(data)}, not {shape.noun}s; no sources")
        return
    # One record: the call's parameters may name all of it (read_document(document_id=42)).
    lenders = [c for c in (envelope, call.parameters) if c]
    source = _record_source(record, shape.noun, shape, call, warn, lenders, single=True)
    if source is not None:
        yield source
