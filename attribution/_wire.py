"""Wire types: the JSON shapes that frontends and agent stacks exchange with the engine.

The JSON field names are camelCase and fixed (existing frontends parse them); Python attributes
are snake_case and msgspec renames them. Optional fields are omitted from JSON when absent.
Decoding is strict: an unknown field or a wrong type is an :class:`InputError` naming the field.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar, get_args

import msgspec

from attribution._errors import InputError

__all__ = [
    "SOURCE_TYPES",
    "CitationReference",
    "CitationSource",
    "SourceType",
    "StoredCitationData",
    "ToolOutput",
    "decode_json",
    "encode_json",
    "input_hint",
    "sources_or_tool_outputs",
]

SourceType = Literal[
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
]
SOURCE_TYPES: tuple[str, ...] = get_args(SourceType)


class WireStruct(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    rename="camel",
):
    """Base of every wire type: frozen, strict, camelCase on the wire."""


PageNumber = Annotated[int, msgspec.Meta(ge=0, le=1_000_000_000)]
"""A page number as the wire takes it: not negative, not absurd (a decoder refuses 10^40)."""


class CitationSource(WireStruct, frozen=True):
    """One thing an answer can cite: a web page, a search result, a knowledge-base chunk, ...

    ``id`` is the stable source key (``kb_chunk:42:880``, ``web_result:<canonical url>``) for
    sources the built-in extractors produce; sources given by a caller keep their own ids.
    """

    id: str
    """Stable identifier; references point at sources by this id."""
    type: SourceType
    """What kind of source this is."""
    tool_name: str | None = None
    """Name of the tool whose output this source came from."""
    tool_request_id: str | None = None
    """Id of the tool call whose output this source came from."""
    uri: str | None = None
    """Address of the source (a URL, or a scheme of the tool's own)."""
    title: str | None = None
    """Human-readable title."""
    domain: str | None = None
    """Host of ``uri`` without ``www.``, for display."""
    snippet: str | None = None
    """Short excerpt (a search result's snippet)."""
    full_content: str | None = None
    """Whole text of the source when the tool returned it."""
    page_number: PageNumber | None = None
    """Page of a paged document the text came from (0 to 10^9: some loaders count from 0)."""

    @property
    def text(self) -> str:
        """The text evidence is looked for in: ``fullContent``, else ``snippet``, else ''."""
        return self.full_content or self.snippet or ""


class CitationReference(WireStruct, frozen=True):
    """One cited span of the answer: ``answer[start_index:end_index] == cited_text``."""

    index: int
    """Position of this reference in the answer (0-based, in reading order)."""
    start_index: int
    """Start offset of the cited span in the answer (half-open)."""
    end_index: int
    """End offset of the cited span in the answer (half-open)."""
    cited_text: str
    """The cited span's text."""
    source_ids: tuple[str, ...]
    """Ids of the sources that support the span."""


class StoredCitationData(WireStruct, frozen=True, omit_defaults=False):
    """What a frontend stores with an answer: its sources and the references into it (both
    always written, empty or not)."""

    sources: tuple[CitationSource, ...] = ()
    """Every source the references may point at."""
    references: tuple[CitationReference, ...] = ()
    """Cited spans of the answer, in reading order."""


class ToolOutput(WireStruct, frozen=True):
    """One recorded tool call: what was asked and what the tool returned."""

    tool_name: str
    """Name of the tool as the agent called it (``web_search``, ``mcp.github__search``, ...)."""
    output: Any
    """Whatever the tool returned: an object, a list, a JSON string or plain text."""
    tool_request_id: str | None = None
    """Id of the call, carried into the sources it yields."""
    parameters: dict[str, Any] = msgspec.field(default_factory=dict)
    """Arguments the tool was called with."""


T = TypeVar("T")


_UNKNOWN_FIELD = re.compile(r"unknown field `([^`]+)`")
_PROVIDER_FIELDS = frozenset({"id", "type", "role", "content", "candidates", "object", "model"})
"""Fields of a provider's whole answer (a message, a response) given where a tool output goes."""


def _camel(name: str) -> str:
    """``tool_name`` as ``toolName``; a name that opens or ends with ``_`` as it is."""
    if name.startswith("_") or name.endswith("_"):
        return name
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


_PATH = re.compile(r" - at `\$((?:\.[^.\[`]+|\[\d+\])*)`")
_STEP = re.compile(r"\.([^.\[`]+)|\[(\d+)\]")


def _struct_at(type_: Any, message: str) -> msgspec.inspect.StructType | None:
    """The struct the error's path (`` - at `$.toolOutputs[0]` ``) points into, if any."""
    info: Any = msgspec.inspect.type_info(type_)
    path = _PATH.search(message)
    for step in _STEP.finditer(path[1] if path else ""):
        info = _unwrapped(info)
        if step[1] is not None and isinstance(info, msgspec.inspect.StructType):
            info = next((f.type for f in info.fields if f.encode_name == step[1]), None)
        elif step[2] is not None and hasattr(info, "item_type"):
            info = info.item_type
        else:
            return None
    info = _unwrapped(info)
    return info if isinstance(info, msgspec.inspect.StructType) else None


def _unwrapped(info: Any) -> Any:
    """A type's info without its constraints, and the one struct or list of a union."""
    while True:
        if isinstance(info, msgspec.inspect.Metadata):
            info = info.type
        elif isinstance(info, msgspec.inspect.UnionType):
            kept = [t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)]
            if len(kept) != 1:
                return info
            info = kept[0]
        else:
            return info


def input_hint(message: str, type_: Any) -> str:
    """A hint after a decoding error where the mistake is a common one: snake_case names, a
    provider's answer where tool outputs go, tool outputs where sources go."""
    unknown = _UNKNOWN_FIELD.search(message)
    named = _camel(unknown[1]) if unknown is not None else ""
    at = _struct_at(type_, message) if unknown is not None and named != unknown[1] else None
    if at is not None and named in {f.encode_name for f in at.fields}:
        return f" (the names are camelCase: `{named}`)"  # a field of the object named
    item = next(iter(get_args(type_)), type_)
    if not isinstance(item, type) or not issubclass(item, msgspec.Struct):
        return ""
    if unknown is not None:
        name = unknown[1]
        if item is CitationSource and name in {"toolName", "output", "parameters"}:
            return " (these are tool outputs: pass them as tool outputs, not as sources)"
        if item is ToolOutput and _camel(name) == "fullContent":
            return " (these look like sources, not tool outputs)"
        if item is ToolOutput and name in _PROVIDER_FIELDS:
            return (
                ' (a tool output is {"toolName": ..., "output": ...}: a provider\'s whole '
                "message or response goes in its `output`)"
            )
    if item is ToolOutput and "Expected `array`, got `object`" in message and "`$" not in message:
        return (
            ' (a list of tool outputs is expected, [{"toolName": ..., "output": ...}]; a '
            "provider's whole message or response goes in one tool output's `output`)"
        )
    return ""


def decode_json(data: bytes | str, type_: type[T], *, what: str = "input") -> T:
    """Decode untrusted JSON strictly into ``type_``.

    Args:
        data: the JSON text.
        type_: the type to decode into (a wire type, or a container of one).
        what: a name for the data, used in the error message (a file name, say).

    Returns:
        The decoded value.

    Raises:
        InputError: the JSON is malformed, a field is unknown or missing, or a value has the
            wrong type; the message names the field (``$[0].toolName``).
    """
    # a UTF-8 byte order mark (Windows tools write one) is not part of the JSON
    if isinstance(data, bytes) and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif isinstance(data, str) and data.startswith("\ufeff"):
        data = data[1:]
    try:
        return msgspec.json.decode(data, type=type_)
    except msgspec.ValidationError as exc:
        # the typed decoder checks types as it reads, so "{bad" is "expected an array": say
        # what is wrong with text that is not JSON at all
        try:
            msgspec.json.decode(data, type=msgspec.Raw)  # well-formed? (builds no objects)
        except msgspec.DecodeError as malformed:
            raise InputError(f"{what}: malformed JSON: {_malformed(data, malformed)}") from exc
        except (RecursionError, UnicodeDecodeError):
            pass
        raise InputError(f"{what}: {exc}{input_hint(str(exc), type_)}") from exc
    except msgspec.DecodeError as exc:
        raise InputError(f"{what}: malformed JSON: {_malformed(data, exc)}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{what}: not UTF-8 text: {_bad_utf8(data, exc)}") from exc
    except RecursionError as exc:
        where = _too_deep_at(data)
        at = (
            f": more than {_REPORTED_DEPTH:,} levels (level {_REPORTED_DEPTH + 1:,} opens at "
            f"byte {where})"
            if where is not None
            else ""
        )
        raise InputError(
            f"{what}: JSON nested deeper than any tool output{at}; the decoder stops near "
            f"{sys.getrecursionlimit():,} levels (Python's recursion limit); the input was not read"
        ) from exc


def _malformed(data: bytes | str, exc: msgspec.DecodeError) -> str:
    """What is wrong with JSON that does not decode: a lone surrogate escape where there is
    one (the decoder's own message, "truncated", misleads there), else the decoder's message."""
    lone = _LONE_SURROGATE.search(
        data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    )
    if lone is None:
        return str(exc).removeprefix("JSON is malformed: ")
    return (
        f"a lone surrogate escape {lone[0].decode()} at byte {lone.start()} (half of a UTF-16 "
        "pair, no character)"
    )


def _bad_utf8(data: bytes | str, exc: UnicodeDecodeError) -> str:
    """Where the input stops being UTF-8, in bytes from its start."""
    if isinstance(data, bytes | bytearray | memoryview):
        try:
            bytes(data).decode("utf-8")
        except UnicodeDecodeError as found:
            exc = found
    return f"byte 0x{exc.object[exc.start]:02x} at byte {exc.start} cannot be decoded"


# A high surrogate escape not followed by a low one, or a low one on its own (an escaped
# backslash before it is rare enough to ignore in an error message).
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<![0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


_REPORTED_DEPTH = 800
"""Where a nesting too deep for the decoder is located in its message: below the decoder's
limit (Python's recursion limit, less the caller's stack), so that input the decoder refused
reaches it; the scan stops there, so a large body costs no more than its first 800 levels."""


def _too_deep_at(data: bytes | str) -> int | None:
    """The byte offset where JSON nesting first goes past :data:`_REPORTED_DEPTH` (strings
    skipped), or None. Only run after decoding failed for depth."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    depth, in_string, escaped = 0, False, False
    for offset, byte in enumerate(raw):
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > _REPORTED_DEPTH:
                return offset
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return None


def sources_or_tool_outputs(
    items: object, *, what: str = "sources_or_tool_outputs"
) -> list[CitationSource] | list[ToolOutput]:
    """Typed sources or tool outputs from what a caller holds: the wire types themselves, or
    the JSON-shaped dicts ``json.loads`` gives (camelCase keys, as on the wire).

    A list of dicts is read as tool outputs when its items have ``toolName`` (or ``output``),
    as sources otherwise, and decoded as strictly as JSON on the wire.

    Raises:
        InputError: not a list, a mix of dicts and typed items or of tool outputs and sources,
            or a dict with a missing, unknown or mistyped field (named: ``$[2].type``).
    """
    if isinstance(items, str | bytes | bytearray | Mapping) or not isinstance(items, Sequence):
        raise InputError(
            f"{what} must be a list of sources or tool outputs, got {type(items).__name__}"
        )
    dicts = [isinstance(i, Mapping) for i in items]
    if not any(dicts):
        return list(items)
    if not all(dicts):
        k = dicts.index(False)
        raise InputError(
            f"{what}: $[{k}] is a {type(items[k]).__name__} among dicts; give all dicts "
            "(JSON-shaped) or all CitationSource / ToolOutput"
        )
    tools = ["toolName" in i or "output" in i for i in items]
    if any(tools) and not all(tools):
        k = tools.index(not tools[0])
        raise InputError(
            f"{what}: $[0] is a {'tool output' if tools[0] else 'source'} but $[{k}] is a "
            f"{'tool output' if tools[k] else 'source'}; give one kind"
        )
    kind: type[CitationSource] | type[ToolOutput] = ToolOutput if tools[0] else CitationSource
    try:
        return msgspec.convert([dict(i) for i in items], type=list[kind])  # type: ignore[valid-type]
    except msgspec.ValidationError as exc:
        raise InputError(f"{what}: {exc}") from exc


def encode_json(value: object, *, indent: int = 0) -> bytes:
    """Encode a wire value to JSON (``indent`` > 0 pretty-prints it)."""
    raw = msgspec.json.encode(value)
    return msgspec.json.format(raw, indent=indent) if indent else raw
