"""Vector-store shapes: query results of Chroma, LlamaIndex, Qdrant, Pinecone and Weaviate.

Each store wraps its chunks differently: Chroma answers in columns (``ids``, ``documents``,
``metadatas``, one row per query), LlamaIndex nests the text under ``node`` and the document id
under ``relationships["1"]``, Qdrant keeps everything in ``payload``, Pinecone in ``metadata``,
Weaviate under ``data.Get.<Class>`` or (client v4) ``properties``. :func:`store_records`
flattens all of them into plain records ``{id, text, uri, title, ...}`` that
:func:`._records.record_sources` reads like any other chunk.
"""

from __future__ import annotations

from typing import Any

from attribution.sources._extractors._shapes import JSONObject, first_id, first_str, first_value

__all__ = ["store_records"]

_TEXT_FIELDS = ("text", "page_content", "pageContent", "content", "chunk", "document")
_URI_FIELDS = ("url", "source", "uri", "file_path", "filePath", "link")


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
    return _weaviate_get(data)


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
        chroma = _chroma(data)
        if chroma is not None:
            return chroma
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
        if record is None:
            return None
        records.append(record)
    return records
