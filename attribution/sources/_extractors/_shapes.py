"""Shape handling shared by the built-in extractors.

Tools return the same information in many shapes: a JSON object, a JSON string of one, a bare
list, plain text. These helpers turn any of them into something an extractor can walk, and turn
what it found into a :class:`CitationSource` with a stable id, so that no extractor repeats the
work. None of them raises on malformed input: a missing or wrongly typed field reads as absent.

Positions in warnings are 1-based (``result 3`` is the third result), as a person counts them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, TypeAlias

import msgspec

from attribution._wire import CitationSource, SourceType, ToolOutput
from attribution.sources._extractors._framework import Warn
from attribution.sources._keys import content_key, is_web_url, make_source_key
from attribution.sources._urls import domain_of

__all__ = [
    "ITEM_KEYS",
    "MAX_RENDERED_CHARS",
    "MAX_RENDER_DEPTH",
    "MAX_REPR_CHARS",
    "MAX_REPR_ITEMS",
    "REDIRECT_HOSTS",
    "JSONObject",
    "Locator",
    "as_int",
    "coerce_output",
    "error_of",
    "find_items",
    "first_id",
    "first_str",
    "first_text",
    "first_value",
    "is_empty",
    "kind_of",
    "make_source",
    "page_number",
    "parse_labelled_text",
    "parse_python_repr",
    "search_result_locator",
    "text_of",
    "to_json_text",
    "unwrap",
    "with_metadata",
]

JSONObject: TypeAlias = dict[str, Any]
Locator: TypeAlias = tuple[str, ...]

ITEM_KEYS: tuple[str, ...] = (
    "results",
    "items",
    "data",
    "documents",
    "chunks",
    "matches",
    "hits",
    "organic",
    "organic_results",
    "web",
    "pages",
    "search",
    "records",
    "entries",
    "messages",
    "turns",
    "files",
    "value",
    "source_documents",
    "sources",
    "search_results",
    "webPages",
)
"""Keys under which tools put their list of results (``web`` is Brave's ``web.results``,
``hits`` Elasticsearch's ``hits.hits``, ``value`` Microsoft Graph's and Bing's
``webPages.value``, ``source_documents`` LangChain's retrieval chains', ``search_results``
Perplexity's)."""

_WRAPPER_KEYS = ("data", "result", "document", "item", "message", "page")
_WEB_TYPES = frozenset({"web", "web_result"})
# Deep enough for {"data": {"web": {"results": [...]}}}; deeper nesting is not a listing.
_MAX_DEPTH = 3


def coerce_output(output: Any) -> Any:
    """A tool's output as something to walk: JSON text parsed, bytes decoded, the rest as is.

    Args:
        output: what the tool returned.

    Returns:
        The parsed value when ``output`` is a str or bytes holding a JSON object or array, the
        decoded text when it is other bytes, else ``output`` unchanged (plain text stays text).
    """
    if isinstance(output, bytes | bytearray | memoryview):
        output = bytes(output).decode("utf-8", errors="replace")
    if isinstance(output, str):
        stripped = output.strip()
        if stripped.startswith("data:") and (hits := _printed_milvus_hits(stripped)) is not None:
            return hits
        if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
            try:
                return msgspec.json.decode(stripped)
            except RecursionError:
                return output  # nested deeper than any tool output: kept as text
            except msgspec.DecodeError:
                parsed = parse_python_repr(stripped)
                # text that merely starts with a bracket stays text
                return output if parsed is None else parsed
    return output


_PRINTED_MILVUS = re.compile(
    r"data:[ \t]*(\[.*\])[ \t]*(?:,[ \t]*extra_info:[ \t]*\{[^{}]*\})?", re.DOTALL
)
"""What ``print`` shows of a pymilvus 2.4 search result: ``data: ["[{'id': 2, 'distance': 0.5,
'entity': {...}}, ...]"] , extra_info: {'cost': 0}`` (a list of strings, each the repr of one
query's hits)."""


def _printed_milvus_hits(text: str) -> list[Any] | None:
    """The hits of a printed pymilvus 2.4 search result, every query's in order, or None when
    ``text`` is no such print."""
    match = _PRINTED_MILVUS.fullmatch(text)
    if match is None:
        return None
    queries = parse_python_repr(match.group(1))
    if not isinstance(queries, list) or not queries:
        return None
    hits: list[Any] = []
    for query in queries:
        parsed = parse_python_repr(query) if isinstance(query, str) else query
        if not isinstance(parsed, list) or not all(isinstance(hit, dict) for hit in parsed):
            return None  # a query's hits are rows ("data: [[1, 2], [3]]" is text)
        hits.extend(parsed)
    return hits


MAX_REPR_CHARS = 2_000_000
"""Longest Python repr :func:`parse_python_repr` reads; longer text stays text."""
MAX_REPR_ITEMS = 50_000
"""Most commas and colons a Python repr :func:`parse_python_repr` reads may hold; more stays
text. Python's parser builds a tree node of about a kilobyte for each item, so two megabytes
of ``1,1,1,...`` would cost most of a gigabyte (and seconds) to read."""
_REPR_CALLS = frozenset({"Document"})
"""Constructors whose keyword-only calls a repr may hold (LangChain's ``Document``)."""
_NUMPY_NUMBERS = frozenset({"float16", "float32", "float64", "int32", "int64"})
"""numpy's number types, as numpy 2 writes them in a repr (``np.float32(0.18)``)."""


def _is_number(node: ast.expr) -> bool:
    """Whether ``node`` is a number written in a repr: ``0.18``, ``-0.2`` (no bool, no text)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    )


class _CallsToDicts(ast.NodeTransformer):
    """Rewrites ``Document(k=v, ...)`` into ``{"k": v, ...}`` so that literal_eval reads it.

    Any other call is left alone, and :func:`ast.literal_eval` then rejects the tree.
    """

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("np", "numpy")
            and node.func.attr in _NUMPY_NUMBERS
            and len(node.args) == 1
            and not node.keywords
            and _is_number(node.args[0])
        ):
            return node.args[0]  # "np.float32(0.18)": numpy 2's repr of a score
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in _REPR_CALLS
            and not node.args
            and all(k.arg is not None for k in node.keywords)
        ):
            keys: list[ast.expr | None] = [ast.Constant(k.arg) for k in node.keywords]
            return ast.Dict(keys=keys, values=[k.value for k in node.keywords])
        return node


def parse_python_repr(text: str) -> Any:
    """The list or dict a Python ``repr`` shows, read without evaluating anything.

    LangChain tools often return ``str(results)``: ``[{'title': 'X', 'url': '...'}]`` or
    ``[Document(id='1', metadata={...}, page_content='...')]``. Only literals are read (by
    :func:`ast.literal_eval`), plus keyword calls of the known constructors, which become
    dicts; names, attribute access, operators and other calls are refused.

    Args:
        text: the repr.

    Returns:
        The list or dict, or None when ``text`` is not the repr of one, is longer than
        :data:`MAX_REPR_CHARS` or has more than :data:`MAX_REPR_ITEMS` items (counting
        commas and colons, in strings too), or cannot be read. Never raises.
    """
    stripped = text.strip()
    if len(stripped) > MAX_REPR_CHARS or stripped[:1] not in ("{", "["):
        return None
    if stripped.count(",") + stripped.count(":") > MAX_REPR_ITEMS:
        return None
    try:
        tree = ast.parse(stripped, mode="eval")
        value = ast.literal_eval(_CallsToDicts().visit(tree))
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, list | dict) else None


def is_empty(value: Any) -> bool:
    """True for None, blank text and empty containers: outputs with nothing in them."""
    if value is None:
        return True
    if isinstance(value, str | bytes | bytearray):
        return not value.strip()
    if isinstance(value, list | tuple | dict):
        return not value
    return False


def kind_of(value: Any) -> str:
    """The JSON name of ``value``'s type, for warnings (``object``, ``array``, ``string``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def find_items(value: Any, _depth: int = 0) -> tuple[list[Any], JSONObject | None] | None:
    """The list of results inside an output, and the object that held it.

    Args:
        value: a coerced output.

    Returns:
        ``(items, container)``: a list as is (container None), or the first list found under
        one of :data:`ITEM_KEYS`, directly or one object down (``web.results``, ``hits.hits``),
        with the object it was found in. None when there is no such list.
    """
    if isinstance(value, list):
        return value, None
    if not isinstance(value, dict) or _depth >= _MAX_DEPTH:
        return None
    for key in ITEM_KEYS:
        if isinstance(value.get(key), list):
            return value[key], value
    for key in ITEM_KEYS:
        inner = value.get(key)
        if isinstance(inner, dict):
            found = find_items(inner, _depth + 1)
            if found is not None:
                return found
    return None


def unwrap(obj: JSONObject, fields: Iterable[str]) -> tuple[JSONObject, JSONObject | None]:
    """The record inside an envelope such as ``{"success": true, "data": {...}}``.

    Args:
        obj: an output object.
        fields: fields whose presence shows that ``obj`` is already the record itself.

    Returns:
        ``(record, envelope)``: ``obj`` and None when it has one of ``fields`` or no wrapped
        object, else the object under ``data``/``result``/``document``/... and ``obj``.
    """
    if any(obj.get(f) is not None for f in fields):
        return obj, None
    for key in _WRAPPER_KEYS:
        inner = obj.get(key)
        if isinstance(inner, dict):
            return inner, obj
    return obj, None


def with_metadata(obj: JSONObject) -> JSONObject:
    """``obj`` with the fields of its ``metadata`` object (LangChain, Pinecone) under its own."""
    meta = obj.get("metadata")
    return {**meta, **obj} if isinstance(meta, dict) else obj


def first_value(obj: Mapping[str, Any] | None, *names: str) -> Any:
    """The value of the first of ``names`` present in ``obj`` and not null, else None."""
    if obj is None:
        return None
    for name in names:
        value = obj.get(name)
        if value is not None:
            return value
    return None


def first_str(obj: Mapping[str, Any] | None, *names: str) -> str | None:
    """The first of ``names`` in ``obj`` holding non-blank text, stripped; else None.

    Example: ``first_str(result, "url", "link", "href")``. A field of another type is skipped,
    so ``{"url": 42, "link": "https://..."}`` gives the link.
    """
    if obj is None:
        return None
    for name in names:
        value = obj.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def first_id(obj: Mapping[str, Any] | None, *names: str) -> str | None:
    """Like :func:`first_str`, but an integer id counts too (``"document_id": 42`` → ``"42"``)."""
    if obj is None:
        return None
    for name in names:
        value = obj.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def text_of(value: Any) -> str | None:
    """The text in ``value``, stripped, or None when it holds none.

    Args:
        value: a str, or a list of str and text parts (``{"type": "text", "text": ...}``, the
            content-part shape of chat and MCP messages), joined by blank lines.

    Returns:
        Non-blank text, or None.
    """
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, list):
        parts = [text_of(_part_text(p)) for p in value]
        joined = "\n\n".join(p for p in parts if p)
        return joined or None
    return None


def _part_text(part: Any) -> Any:
    if isinstance(part, dict) and part.get("type", "text") == "text":
        return part.get("text")
    return part if isinstance(part, str) else None


def first_text(obj: Mapping[str, Any] | None, *names: str) -> str | None:
    """The text (see :func:`text_of`) of the first of ``names`` in ``obj`` that has some."""
    if obj is None:
        return None
    for name in names:
        text = text_of(obj.get(name))
        if text:
            return text
    return None


def as_int(value: Any) -> int | None:
    """``value`` as an int: an int, an integral float or a numeric string; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value.strip())
    return None


def page_number(obj: Mapping[str, Any] | None, *names: str) -> int | None:
    """The first of ``names`` in ``obj`` holding a page number: an int from 0 to 10^9 (the
    wire's :data:`~attribution._wire.PageNumber`) or its text."""
    if obj is None:
        return None
    for name in names:
        number = as_int(obj.get(name))
        if number is not None and 0 <= number <= 1_000_000_000:
            return number
    return None


MAX_RENDER_DEPTH = 32
"""Deepest structure :func:`to_json_text` writes out; deeper lists and objects are cut."""
MAX_RENDERED_CHARS = 1_000_000
"""Most characters :func:`to_json_text` writes one structured output as; the rest is cut."""
_INDENT_BUDGET = 4
"""Indented only while indenting at most quadruples the compact text (short text always)."""
_ALWAYS_INDENTED = 4096


def _pruned(value: Any, depth: int, cut: list[int]) -> tuple[Any, int]:
    """``value`` with lists and objects deeper than :data:`MAX_RENDER_DEPTH` replaced by the
    strings ``"[…]"`` and ``"{…}"`` (how many were, counted in ``cut``), and the characters
    indenting it by two spaces per level would add to its compact JSON."""
    if not isinstance(value, list | tuple | dict) or not value:
        return value, 0
    if depth >= MAX_RENDER_DEPTH:
        cut[0] += 1
        return ("{…}" if isinstance(value, dict) else "[…]"), 0
    # each item on its own line indented one level deeper, the closing bracket on its own line
    extra = len(value) * (2 * depth + 3) + 2 * depth + 1
    if isinstance(value, dict):
        items: dict[Any, Any] = {}
        for key, item in value.items():
            items[key], more = _pruned(item, depth + 1, cut)
            extra += more + 1  # the space after the colon
        return items, extra
    pruned: list[Any] = []
    for item in value:
        kept, more = _pruned(item, depth + 1, cut)
        pruned.append(kept)
        extra += more
    return pruned, extra


def to_json_text(
    value: Any, warn: Warn | None = None, *, max_chars: int = MAX_RENDERED_CHARS
) -> str:
    """``value`` as JSON text, readable as evidence, within a budget; unknown types by repr.

    The text is indented when that keeps it short (at most four times the compact JSON, or a
    few kilobytes), compact otherwise: indentation grows with depth, so indenting deeply
    nested structure would multiply its size many times over. Structure deeper than
    :data:`MAX_RENDER_DEPTH` levels is written ``[…]`` / ``{…}``, and text over ``max_chars``
    is cut; either cut is reported to ``warn``.

    Args:
        value: a JSON value (or any value msgspec encodes).
        warn: told what was cut, in one sentence; None: cut silently (a warning's detail).
        max_chars: the most characters returned.
    """
    cut = [0]
    pruned, indenting = _pruned(value, 0, cut)
    raw = msgspec.json.encode(pruned, enc_hook=repr)
    if cut[0] and warn is not None:
        warn(
            f"its structure is nested deeper than {MAX_RENDER_DEPTH} levels; {cut[0]} lists "
            "or objects deeper than that were left out of the text (written […] or {…})"
        )
    indented = len(raw) + indenting
    if indented <= max_chars and indented <= max(_INDENT_BUDGET * len(raw), _ALWAYS_INDENTED):
        raw = msgspec.json.format(raw, indent=2)
    text = raw.decode("utf-8")
    if len(text) > max_chars:
        if warn is not None:
            warn(
                f"its JSON text is {len(text):,} characters; only the first {max_chars:,} were kept"
            )
        text = text[:max_chars] + ("" if warn is not None else "…")
    return text


def error_of(obj: Any) -> str | None:
    """The error message an output object reports (``{"error": ...}``), or None."""
    if not isinstance(obj, dict):
        return None
    error = obj.get("error")
    if isinstance(error, dict):
        return first_str(error, "message", "detail", "type") or to_json_text(error, max_chars=300)
    if isinstance(error, str) and error.strip():
        return error.strip()
    if obj.get("success") is False:
        return first_str(obj, "message", "detail") or "the tool reported success: false"
    return None


_LABEL_LINE = re.compile(
    r"""^\s*(?:[-*+•]\s+|\d+[.)]\s+)?      # an optional list marker
        (?:\*\*|__)?(?P<label>[A-Za-z][A-Za-z _-]{0,24}?)(?:\*\*|__)?
        \s*:\s*(?:\*\*|__)?\s*(?P<value>.*?)\s*$""",
    re.VERBOSE,
)

LineHook = Callable[[str], dict[str, str] | None]


def parse_labelled_text(
    text: str,
    labels: Mapping[str, str],
    *,
    body_field: str,
    record_start: LineHook | None = None,
    continued: Collection[str] = (),
) -> list[dict[str, str]]:
    """Records from a labelled listing such as ``Title: X\\nURL: Y\\nSnippet: Z\\n\\nTitle: ...``.

    A line ``Label: value`` whose label (case-insensitive) is in ``labels`` sets that field; a
    field already set in the current record starts the next record. Other lines continue
    ``body_field`` of the current record; lines before the first record (a preamble such as
    "Here are the results:") are dropped.

    Args:
        text: the listing.
        labels: label (lower case) to field name, e.g. ``{"link": "url", "url": "url"}``.
        body_field: the field that unlabelled lines continue.
        record_start: called with each line first; a dict it returns starts a new record with
            those fields (a markdown link line ``1. [Title](https://...)``).
        continued: fields that unlabelled lines after them continue instead of ``body_field``
            (a ``Raw Content:`` label followed by a whole page).

    Returns:
        The records, each a dict of non-blank fields, in order.
    """
    records: list[dict[str, str]] = []
    current: dict[str, str] = {}
    last = body_field

    def flush() -> None:
        nonlocal current
        kept = {k: v.strip() for k, v in current.items() if v.strip()}
        if kept:
            records.append(kept)
        current = {}

    for line in text.splitlines():
        if not line.strip():
            continue
        started = record_start(line) if record_start else None
        if started is not None:
            flush()
            current, last = dict(started), body_field
            continue
        match = _LABEL_LINE.match(line)
        field = labels.get(match["label"].strip().lower()) if match else None
        if match and field:
            if field in current:
                flush()
            current[field] = match["value"]
            last = field
        elif current:
            target = last if last in continued else body_field
            previous = current.get(target, "")
            current[target] = f"{previous}\n{line.strip()}" if previous else line.strip()
    flush()
    return records


_HOST = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}")
"""A host name: ``uefa.com``, ``en.wikipedia.org`` (not "Wikipedia", nor an address)."""


def _host(name: str | None) -> str | None:
    """``name`` as a host without ``www.``, where it is one."""
    if not name:
        return None
    name = name.strip().lower().rstrip(".")
    return name.removeprefix("www.") if _HOST.fullmatch(name) else None


REDIRECT_HOSTS = frozenset({"vertexaisearch.cloud.google.com"})
"""Hosts of addresses that redirect to the page (Gemini's ``/grounding-api-redirect/...``):
the page's site is the one the tool names, not theirs."""


def _site(uri: str | None, named: str | None) -> str | None:
    """A source's site: its address's host, or the one the tool names (a host name) where the
    address is a redirect's or no web address (a page cannot show another site than its own)."""
    own = domain_of(uri) if is_web_url(uri) else None
    if own is None or own in REDIRECT_HOSTS:
        return _host(named) or own
    return own


def search_result_locator(source: str | None, title: str | None) -> tuple[str, ...]:
    """What identifies a search result block (``{"type": "search_result", "source", "title",
    "content"}``) whose source is no web address: its source and title (two results of one
    source, "kb", are two passages), the same where a tool returns it and where an answer
    cites it."""
    return ("search_result", *(part for part in (source, title) if part))


def make_source(
    call: ToolOutput,
    source_type: SourceType,
    *,
    locator: Locator | None = None,
    uri: str | None = None,
    title: str | None = None,
    snippet: str | None = None,
    full_content: str | None = None,
    page: int | None = None,
    domain: str | None = None,
) -> CitationSource | None:
    """A source found in ``call``'s output, with its stable key as id.

    The key is the canonical URL for web sources with an http(s) ``uri``, else ``locator``,
    else a hash of the text, else ``uri`` itself.

    Args:
        call: the tool call the source came from (gives ``toolName`` and ``toolRequestId``).
        source_type: the source's type.
        locator: what identifies the source within its type, such as ``(document_id, chunk_id)``;
            every part must be non-blank.
        uri: the source's address; ``domain`` is derived from it when it is an http(s) URL.
        title: human-readable title.
        snippet: short excerpt.
        full_content: whole text.
        page: page number.
        domain: the site's host where the tool gives it and ``uri`` does not (a redirect's
            address: Gemini's grounding; no web address); a value that is no host name, or
            one beside a page's own address, is not used.

    Returns:
        The source, or None when there is nothing to key it by (no locator, text or uri).
    """
    text = full_content or snippet
    if source_type in _WEB_TYPES and is_web_url(uri):
        key = make_source_key(source_type, uri or "")
    elif locator:
        key = make_source_key(source_type, locator)
    elif text:
        key = content_key(source_type, text)
    elif uri:
        key = make_source_key(source_type, uri)
    else:
        return None
    return CitationSource(
        id=key,
        type=source_type,
        tool_name=call.tool_name,
        tool_request_id=call.tool_request_id,
        uri=uri,
        title=title,
        domain=_site(uri, domain),
        snippet=snippet,
        full_content=full_content,
        page_number=page,
    )
