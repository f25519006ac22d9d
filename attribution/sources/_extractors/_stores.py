"""Vector-store shapes: query results of Chroma, LlamaIndex, Qdrant, Pinecone, Weaviate,
Milvus, LangChain's scored documents, Bedrock knowledge bases, Elasticsearch and OpenSearch,
Azure AI Search and OpenAI's file search.

Each store wraps its chunks differently: Chroma answers in columns (``ids``, ``documents``,
``metadatas``, one row per query), LlamaIndex nests the text under ``node`` and the document id
under ``relationships["1"]``, Qdrant keeps everything in ``payload``, Pinecone in ``metadata``,
Weaviate under ``data.Get.<Class>`` or (client v4) ``properties``. :func:`store_records`
flattens all of them into plain records ``{id, text, uri, title, ...}`` that
:func:`._records.record_sources` reads like any other chunk.
"""

from __future__ import annotations

import math
from typing import Any

from attribution.sources._extractors._shapes import (
    JSONObject,
    first_id,
    first_str,
    first_text,
    first_value,
    with_metadata,
)
from attribution.sources._extractors._vendors import file_search_chunks
from attribution.sources._keys import text_digest

__all__ = ["CHUNK_IDS", "DOCUMENT_IDS", "FIELDS_TEXT", "store_records"]

_TEXT_FIELDS = ("text", "page_content", "pageContent", "content", "chunk", "document")
_URI_FIELDS = ("url", "source", "uri", "file_path", "filePath", "link")
DOCUMENT_IDS = (
    "document_id",
    "doc_id",
    "documentId",
    "file_id",
    "fileId",
    "source_id",
    "sourceId",
)
"""The fields that name a chunk's document (the outer part of its key)."""
CHUNK_IDS = ("chunk_id", "chunkId", "id", "chunk_index", "chunkIndex")
"""The fields that name a chunk inside its document (the inner part of its key)."""


def _chroma(data: JSONObject) -> list[JSONObject] | None:
    """Chroma's ``query`` (a row per query embedding) or ``get`` (flat) result."""
    ids, documents = data.get("ids"), data.get("documents")
    if not (isinstance(ids, list) and isinstance(documents, list) and ids):
        return None
    metadatas = data.get("metadatas")
    if all(isinstance(row, list) for row in ids):  # query: one row per query
        id_rows = ids
        doc_rows = documents
        meta_rows = metadatas if isinstance(metadatas, list) else []
    else:
        id_rows, doc_rows = [ids], [documents]
        meta_rows = [metadatas] if isinstance(metadatas, list) else []
    records: list[JSONObject] = []
    for row, row_ids in enumerate(id_rows):
        row_docs = doc_rows[row] if row < len(doc_rows) else None
        row_meta = meta_rows[row] if row < len(meta_rows) else None
        for column, chunk_id in enumerate(row_ids):
            meta = _at(row_meta, column)
            record: JSONObject = dict(meta) if isinstance(meta, dict) else {}
            record.update(id=chunk_id, text=_at(row_docs, column))
            records.append(record)
    return records


def _at(values: Any, index: int) -> Any:
    return values[index] if isinstance(values, list) and index < len(values) else None


def _llamaindex(item: JSONObject) -> JSONObject | None:
    """A LlamaIndex ``NodeWithScore`` (or bare node) dump."""
    node = item.get("node") if isinstance(item.get("node"), dict) else item
    if not isinstance(node, dict) or not ("id_" in node and "relationships" in node):
        return None
    meta = node.get("metadata")
    record: JSONObject = dict(meta) if isinstance(meta, dict) else {}
    relationships = node.get("relationships")
    parent = relationships.get("1") if isinstance(relationships, dict) else None
    document_id = first_str(parent, "node_id") if isinstance(parent, dict) else None
    record.update(
        id=first_id(node, "id_"),
        text=node.get("text"),
        document_id=document_id,
        uri=first_str(record, *_URI_FIELDS) or document_id,
    )
    return record


def _payload(item: JSONObject) -> JSONObject | None:
    """A Qdrant point (``payload``), Pinecone match (``metadata``) or Weaviate v4 object."""
    for field in ("payload", "properties"):
        inner = item.get(field)
        if isinstance(inner, dict):
            meta = inner.get("metadata")
            record = {**meta, **inner} if isinstance(meta, dict) else dict(inner)
            record.pop("metadata", None)
            record["id"] = first_value(item, "id", "uuid")
            return record
    meta = item.get("metadata")
    if "score" in item and isinstance(meta, dict) and first_str(meta, *_TEXT_FIELDS):
        # The match's own fields (id, and any document_id a tool adds) win over metadata's.
        own = {k: v for k, v in item.items() if k not in ("metadata", "values", "sparse_values")}
        return {**meta, **own}
    return None


def _haystack(item: JSONObject) -> JSONObject | None:
    """A Haystack ``Document`` as its ``to_dict`` writes it: ``id``, ``content``, ``meta``
    fields (flattened or not) and its ``embedding`` and ``sparse_embedding`` fields."""
    if not ("content" in item and "id" in item and "sparse_embedding" in item):
        return None
    meta = item.get("meta")
    record = {**meta, **item} if isinstance(meta, dict) else dict(item)
    record.pop("meta", None)
    return record


def _weaviate_get(data: JSONObject) -> list[Any] | None:
    """The objects under ``data.Get.<Class>`` of a Weaviate GraphQL answer."""
    inner = data.get("data")
    get = inner.get("Get") if isinstance(inner, dict) else None
    if not isinstance(get, dict):
        return None
    objects: list[Any] = []
    for listing in get.values():
        if isinstance(listing, list):
            for obj in listing:
                if isinstance(obj, dict):
                    extra = obj.get("_additional")
                    own_id = extra.get("id") if isinstance(extra, dict) else None
                    objects.append({**obj, "id": own_id} if own_id else obj)
    return objects


def _listing(data: Any) -> list[Any] | None:
    """The list of points, matches, objects or nodes in a store's answer."""
    if isinstance(data, list):
        return data
    if not isinstance(data, dict):
        return None
    result = data.get("result")
    if isinstance(result, dict):
        result = result.get("points")
    for value in (result, data.get("points"), data.get("matches"), data.get("objects")):
        if isinstance(value, list):
            return value
    documents = data.get("documents")
    if (
        isinstance(documents, list)
        and documents
        and all(isinstance(d, dict) and _haystack(d) is not None for d in documents)
    ):
        return documents  # Haystack's {"documents": [...]}: other lists of documents are no store's
    return _weaviate_get(data)


def _bedrock(data: JSONObject) -> list[Any] | None:
    """A Bedrock knowledge base's ``retrieve`` answer (``retrievalResults``) or the references
    of a ``retrieve_and_generate`` answer (``citations[].retrievedReferences``)."""
    results = data.get("retrievalResults")
    if not isinstance(results, list):
        citations = data.get("citations")
        if not isinstance(citations, list) or not any(
            isinstance(c, dict) and "retrievedReferences" in c for c in citations
        ):
            return None
        results = []
        for cite in citations:
            refs = cite.get("retrievedReferences") if isinstance(cite, dict) else None
            results.extend(refs if isinstance(refs, list) else [])
    records: list[Any] = []
    for item in results:
        if not isinstance(item, dict):
            records.append(item)
            continue
        content = item.get("content")
        text = first_str(content, "text") if isinstance(content, dict) else content
        row = content.get("row") if isinstance(content, dict) else None
        if text is None and isinstance(row, list):  # a structured store's row
            text = "\n".join(
                f"{cell.get('columnName')}: {cell.get('columnValue')}"
                for cell in row
                if isinstance(cell, dict)
            )
        meta = item.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        # the user's own metadata (a title) is kept; the service's x-amz-* fields are read here
        record: JSONObject = {k: v for k, v in meta.items() if not k.startswith("x-amz-")}
        uri = _located(item.get("location")) or first_str(meta, "x-amz-bedrock-kb-source-uri")
        page = meta.get("x-amz-bedrock-kb-document-page-number")
        page = page if isinstance(page, int | float) and not isinstance(page, bool) else None
        record.update(
            text=text,
            uri=uri,
            document_id=uri or _custom_id(item.get("location")),
            id=first_value(meta, "x-amz-bedrock-kb-chunk-id"),
            page=int(page)
            if page is not None and math.isfinite(page) and page == int(page)
            else None,
        )
        records.append(record)
    return records


def _custom_id(location: Any) -> str | None:
    """The document id of a Bedrock ``customDocumentLocation`` (a source with no address)."""
    custom = location.get("customDocumentLocation") if isinstance(location, dict) else None
    return first_id(custom, "id") if isinstance(custom, dict) else None


def _located(location: Any) -> str | None:
    """The address in a Bedrock ``location`` (``s3Location.uri``, ``webLocation.url``,
    ``confluenceLocation.url``, ``sharePointLocation.url``, ...)."""
    if not isinstance(location, dict):
        return None
    for value in location.values():
        if isinstance(value, dict) and (found := first_str(value, "uri", "url")):
            return found
    return None


def _search_hits(data: JSONObject) -> list[Any] | None:
    """The hits of an Elasticsearch or OpenSearch ``_search`` answer (``hits.hits[]``: its
    ``_source``, else its ``fields``) or of an Azure AI Search query (``value[]`` with
    ``@search.score``). A hit whose text is in no field a chunk's text is read from keeps its
    fields as its text ("message: Error at checkout")."""
    hits = data.get("hits")
    inner = hits.get("hits") if isinstance(hits, dict) else None
    if isinstance(inner, list) and any(
        isinstance(h, dict) and ("_source" in h or "fields" in h) for h in inner
    ):
        records: list[Any] = []
        for hit in inner:
            if not isinstance(hit, dict):
                records.append(hit)  # warned about by the reader, the others kept
                continue
            source = hit.get("_source")
            if not isinstance(source, dict):
                fields = hit.get("fields")
                source = (
                    {
                        k: v[0] if isinstance(v, list) and len(v) == 1 else v
                        for k, v in fields.items()
                    }
                    if isinstance(fields, dict)
                    else {}
                )
            record = _with_text(dict(source))
            named = first_id(record, *DOCUMENT_IDS) is not None
            if hit.get("_id") is not None and not named:
                # the hit's own id names it in its index: a "chunk_id" that counts a
                # document's chunks, or an "id" its chunks share, names no hit alone
                record["chunk_id"] = hit["_id"]
                record["document_id"] = hit.get("_index")
            records.append(record)
        return records
    value = data.get("value")
    if isinstance(value, list) and any(isinstance(v, dict) and "@search.score" in v for v in value):
        out: list[Any] = []
        for item in value:
            if not isinstance(item, dict):
                out.append(item)
                continue
            record = {k: v for k, v in item.items() if not k.startswith("@")}
            captions = item.get("@search.captions")
            said = [
                first_str(c, "text")
                for c in (captions if isinstance(captions, list) else [])
                if isinstance(c, dict)
            ]
            if said and not first_str(record, *_TEXT_FIELDS):
                record["text"] = " ".join(c for c in said if c)  # the semantic ranker's caption
            record = _with_text(record)
            if (parent := first_value(item, "parent_id", "parentId")) is not None:
                record.setdefault("document_id", parent)
            if (chunk := first_value(item, "chunk_id", "chunkId")) is not None:
                record.setdefault("id", chunk)
            if (uri := first_str(item, "metadata_storage_path")) is not None:
                record.setdefault("uri", uri)
            out.append(record)
        return out
    return None


FIELDS_TEXT = "_fields_text"
"""The field a search hit's or an index row's text made of its fields goes in: read by every
kind of record after its own text fields (a log line's ``message``, a product's ``name``)."""
_FIELD_DEPTH = 4
"""How deep :func:`_fields_text` reads a record's nested objects and lists."""


def _with_text(record: JSONObject) -> JSONObject:
    """``record`` with a text made of its fields (:data:`FIELDS_TEXT`), for a reader that finds
    no text field of its own in it (an index of log lines or products, a page crawler's
    ``body_content``, a semantic field's nested ``content.text``): ``message: Error at
    checkout``. A record whose ``text`` or ``content`` holds text needs none."""
    if first_text(with_metadata(record), "text", "content", "chunk", "page_content"):
        return record
    if document := first_text(record, "document"):
        return {**record, "text": document}
    lines = _fields_text(record, "", _FIELD_DEPTH)
    return {**record, FIELDS_TEXT: "\n".join(lines)} if lines else record


def _fields_text(value: Any, name: str, depth: int) -> list[str]:
    """``name: value`` lines of a record's text and numbers, nested fields by their path."""
    if isinstance(value, str):
        return [f"{name}: {value.strip()}" if name else value.strip()] if value.strip() else []
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [f"{name}: {value}"] if name else []
    if depth <= 0:
        return []
    if isinstance(value, dict):
        return [
            line
            for k, v in value.items()
            if isinstance(k, str) and not k.startswith(("_", "@search", "@odata"))
            for line in _fields_text(v, f"{name}.{k}" if name else k, depth - 1)
        ]
    if isinstance(value, list):
        return [line for v in value for line in _fields_text(v, name, depth - 1)]
    return []


def _unpacked(items: list[Any]) -> list[Any] | None:
    """A store's listing whose items wrap their chunk: LangChain's ``(Document, score)`` pairs
    (``similarity_search_with_score``), Milvus's hits (``entity`` fields, a list per query)."""
    pairs = [i for i in items if isinstance(i, list | tuple) and len(i) == 2]
    if (
        items
        and len(pairs) == len(items)
        and all(
            isinstance(d, dict) and ("page_content" in d or "pageContent" in d) for d, _ in pairs
        )
    ):
        return [{**d, "score": score} for d, score in pairs]
    rows = [row for i in items for row in (i if isinstance(i, list | tuple) else [i])]
    if rows and all(isinstance(r, dict) and "entity" in r and "distance" in r for r in rows):
        return [
            {**r["entity"], "id": r.get("id"), "score": r.get("distance")}
            if isinstance(r["entity"], dict)
            else dict(r)  # warned about by the reader, the others kept (a copy: keyed after)
            for r in rows
        ]
    return None


def store_records(data: Any) -> list[JSONObject] | None:
    """Flat chunk records from a vector store's query result, or None if it is not one.

    Args:
        data: a coerced output.

    Returns:
        One record per chunk, with its store's fields flattened (``text``, ``id``, metadata
        such as ``source``/``url``/``title``), or None when ``data`` is no known store shape
        (a listing is one only when every item has its store's marks).
    """
    if isinstance(data, dict):
        if (chroma := _chroma(data)) is not None:
            return chroma
        for shape in (_bedrock, _search_hits, file_search_chunks):
            flat = shape(data)
            if flat is not None:
                return _keyed(flat)
    if isinstance(data, list) and (unpacked := _unpacked(data)) is not None:
        return _keyed(unpacked)
    items = _listing(data)
    if not items:
        return None
    if isinstance(data, dict) and _weaviate_get(data) is not None:
        return [item for item in items if isinstance(item, dict)]
    records: list[JSONObject] = []
    for item in items:
        if not isinstance(item, dict):
            return None
        record = _llamaindex(item) or _payload(item)
        if record is None and (record := _haystack(item)) is not None:
            record = _keyed([record])[0]
        if record is None:
            return None
        records.append(record)
    return records


def _keyed(records: list[Any]) -> list[Any]:
    """Records of a store that names a chunk by one id only, given both a chunk's key needs:
    a chunk with an id of its own and no document's is its own document (Haystack, Milvus,
    Azure without a parent); one of a known document without an id of its own is named by a
    hash of its text inside that document (OpenAI's file search, Bedrock without chunk ids).
    Two chunks of equal text in two files were one source."""
    for record in records:
        if not isinstance(record, dict):
            continue
        document = first_id(record, *DOCUMENT_IDS)
        chunk = first_id(record, *CHUNK_IDS)
        if document is None and chunk is not None:
            record["document_id"] = chunk
        elif document is not None and chunk is None:
            text = first_text(with_metadata(record), *_TEXT_FIELDS, FIELDS_TEXT)
            if text:
                record["chunk_id"] = text_digest(text)
    return records
