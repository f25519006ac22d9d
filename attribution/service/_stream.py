"""``POST /v1/attributions:stream``: claims checked as the answer arrives, as server-sent events.

The request is one of two bodies (both strict, camelCase, like every body of the API):

* ``application/json`` — ``{"deltas": [str, ...], "sources" | "toolOutputs": [...],
  "conversationId"?, "options"?, "offsetUnit"?}``: the answer as the sequence of pieces a model
  generated. The simplest form; any HTTP client can send it.
* ``application/x-ndjson`` — the same object on the first line (``deltas`` optional), then one
  ``{"delta": "..."}`` object per line, sent as the model generates them (a chunked body). Claims
  are checked while the body is still arriving.

The response is ``text/event-stream``. Whenever a sentence is complete (the segmenter finds
text after it), its claim is checked against the sources and sent as ``event: claim`` with id
``claim-<n>`` (n = 0, 1, ... in answer order) and the :class:`attribution.ClaimResult` as data
(``start``/``end`` into the answer, in ``offsetUnit``; ``numbers`` count the request's sources
1, 2, ...). At the end comes ``event: result`` (id ``result``) with the full
``AttributionResult``: computed by the ``POST /v1/attributions`` handler itself, so it equals the
non-streaming answer. A failure once the stream has started is ``event: error`` (id ``error``)
with the usual ``{"error": {"type", "message"}}`` and ends the stream; before it starts, errors
are ordinary 4xx responses.

A client that goes away cancels the generator; model work already running finishes in its thread
and gives its admission slot back (:class:`attribution.service._work.ModelRunner`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

import msgspec
import structlog
from litestar import Request, Router, post
from litestar.di import NamedDependency
from litestar.openapi.spec import (
    OpenAPIMediaType,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)
from litestar.response import ServerSentEvent
from litestar.response.base import ASGIResponse
from litestar.response.sse import ServerSentEventMessage
from litestar.response.streaming import ASGIStreamingResponse
from litestar.types import Receive, ReceiveMessage, Send

from attribution import (
    Attributor,
    CitationSource,
    ClaimResult,
    InputError,
    OffsetConverter,
    OffsetUnit,
    ToolOutput,
    decode_json,
    extract_sources,
)

from ._api import AttributionOptions, AttributionRequest, ConversationId, ErrorBody, ErrorDetail
from ._api import Body as WireBody
from ._attribute import attribute_request, check_request, engine_for, over_limit
from ._errors import BadRequest, classify
from ._metrics import Metrics
from ._routes import ERROR_RESPONSES
from ._settings import Settings
from ._store import MAX_CONVERSATION_ID_CHARS, ConversationStore
from ._work import ModelRunner

__all__ = ["StreamDelta", "StreamRequest", "stream_attribution", "stream_router"]

log = structlog.get_logger(__name__)

NDJSON = "application/x-ndjson"
# Segmenting again only pays off once a delta could have ended a sentence.
_BOUNDARY_CHARS = frozenset(" \t\n\r.!?;:\u3002\uff01\uff1f")


class StreamRequest(WireBody, frozen=True):
    """The JSON body (or the first NDJSON line): exactly one of ``sources``, ``toolOutputs``."""

    deltas: tuple[str, ...] = ()
    """The answer in the pieces it was generated in."""
    sources: tuple[CitationSource, ...] | None = None
    """The sources the answer may cite."""
    tool_outputs: tuple[ToolOutput, ...] | None = None
    """Raw tool outputs to extract the sources from."""
    conversation_id: ConversationId | None = None
    """Number the sources in this conversation's registry (the final result only)."""
    options: AttributionOptions | None = None
    """Overrides of the engine's configuration."""
    offset_unit: OffsetUnit = "codepoint"
    """Unit of every offset in the events."""


class StreamDelta(WireBody, frozen=True):
    """Every NDJSON line after the first."""

    delta: str


def _array(items: Schema | Reference) -> Schema:
    return Schema(type=OpenAPIType.ARRAY, items=items)


_REQUEST_SCHEMA = Schema(
    type=OpenAPIType.OBJECT,
    title="StreamRequest",
    description="Exactly one of sources and toolOutputs. As NDJSON: this object on the first "
    'line, then one {"delta": str} object per line.',
    properties={
        "deltas": _array(Schema(type=OpenAPIType.STRING)),
        "sources": _array(Reference(ref="#/components/schemas/CitationSource")),
        "toolOutputs": _array(Reference(ref="#/components/schemas/ToolOutput")),
        "conversationId": Schema(
            type=OpenAPIType.STRING, min_length=1, max_length=MAX_CONVERSATION_ID_CHARS
        ),
        "options": Reference(ref="#/components/schemas/AttributionOptions"),
        "offsetUnit": Schema(type=OpenAPIType.STRING, enum=["codepoint", "utf16", "utf8"]),
    },
    additional_properties=False,
)


@dataclass
class _StreamOperation(Operation):
    """The operation with its request body, which the handler reads itself (not a ``data``)."""

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            content={
                "application/json": OpenAPIMediaType(schema=_REQUEST_SCHEMA),
                NDJSON: OpenAPIMediaType(schema=_REQUEST_SCHEMA),
            },
            required=True,
        )


def _decode(raw: bytes, type_: type[Any], what: str) -> Any:
    try:
        # strict; bad UTF-8 and absurd nesting are InputErrors too, never a 500
        return decode_json(raw, type_, what=what)
    except InputError as exc:
        raise BadRequest(str(exc)) from exc


class _Inbox:
    """The request body, read while the response streams.

    Litestar's streaming response reads ``receive()`` itself to notice a disconnect; the inbox
    sits in between (:meth:`receive`), keeps body chunks for the generator and passes the rest on.
    """

    def __init__(self, receive: Receive, limit: int) -> None:
        self._receive = receive
        self._limit = limit
        self._total = 0  # bytes taken into the buffer
        self._received = 0  # bytes received by the pump
        self._buffer = bytearray()
        self._ended = False
        self._chunks: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._line = 0

    def _take(self, message: ReceiveMessage) -> bytes:
        body = cast(bytes, message.get("body", b""))
        if not message.get("more_body", False):
            self._ended = True
        return body

    async def receive(self) -> ReceiveMessage:
        """The ``receive`` the response sees: body chunks go to the generator."""
        while True:
            message = await self._receive()
            if message["type"] == "http.request":
                chunk = self._take(message)
                self._received += len(chunk)
                if self._received <= self._limit:  # past the limit, chunks are dropped unread
                    self._chunks.put_nowait(chunk)
                if self._ended or self._received > self._limit:
                    self._chunks.put_nowait(None)
                continue
            return message

    def _count(self, chunk: bytes) -> None:
        self._total += len(chunk)
        if self._total > self._limit:
            raise over_limit("max_body_bytes", "the request body", self._total, self._limit)

    async def first_line(self) -> bytes:
        """The first line, read straight from the connection (before the response starts)."""
        while b"\n" not in self._buffer and not self._ended:
            message = await self._receive()
            if message["type"] == "http.disconnect":
                raise BadRequest("the client went away before the first line")
            if message["type"] == "http.request":
                chunk = self._take(message)
                self._count(chunk)
                self._buffer += chunk
        line = self._pop_line()
        if line is None:  # one line without a newline: the whole body
            line = bytes(self._buffer)
            self._buffer.clear()
            self._line = 1
        return line

    def _pop_line(self) -> bytes | None:
        end = self._buffer.find(b"\n")
        if end < 0:
            return None
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        self._line += 1
        return line

    async def deltas(self) -> AsyncIterator[str]:
        """The ``delta`` of every following line (blank lines skipped)."""
        while True:
            line = self._pop_line()
            if line is None:
                if self._ended and self._chunks.empty():
                    rest = bytes(self._buffer).strip()
                    self._buffer.clear()
                    if rest:
                        self._line += 1
                        yield _decode(rest, StreamDelta, f"line {self._line}").delta
                    return
                chunk = await self._chunks.get()
                if chunk is None:
                    if self._received > self._limit:
                        raise over_limit(
                            "max_body_bytes", "the request body", self._received, self._limit
                        )
                    self._ended = True
                    continue
                self._count(chunk)
                self._buffer += chunk
                continue
            if line.strip():
                yield _decode(line, StreamDelta, f"line {self._line}").delta


class _DuplexStreamingResponse(ASGIStreamingResponse):
    """A streaming response whose disconnect listener reads through an :class:`_Inbox`."""

    __slots__ = ("inbox",)

    inbox: _Inbox | None

    async def send_body(self, send: Send, receive: Receive) -> None:
        await super().send_body(send, self.inbox.receive if self.inbox is not None else receive)


class _AnswerEventStream(ServerSentEvent):
    """:class:`ServerSentEvent` that lets the generator go on reading the request body."""

    def __init__(self, content: AsyncIterator[ServerSentEventMessage], inbox: _Inbox | None):
        super().__init__(content)
        self.inbox = inbox

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIStreamingResponse:
        plain = cast(ASGIStreamingResponse, super().to_asgi_response(*args, **kwargs))
        duplex = _DuplexStreamingResponse.__new__(_DuplexStreamingResponse)
        for name in (*ASGIStreamingResponse.__slots__, *ASGIResponse.__slots__):
            setattr(duplex, name, getattr(plain, name))
        duplex.inbox = self.inbox
        return duplex


def _event(kind: str, event_id: str, data: Any) -> ServerSentEventMessage:
    return ServerSentEventMessage(
        data=msgspec.json.encode(data).decode("utf-8"), event=kind, id=event_id
    )


def _in_units(
    claim: ClaimResult,
    answer: OffsetConverter | None,
    sources: dict[str, CitationSource],
    unit: OffsetUnit,
) -> ClaimResult:
    if answer is None:
        return claim
    replace = msgspec.structs.replace
    evidence = []
    for e in claim.evidence:
        source = sources.get(e.source_id)
        text = ""
        if source is not None:
            text = (source.full_content if e.field == "fullContent" else source.snippet) or ""
        conv = OffsetConverter(text, unit)
        evidence.append(replace(e, start=conv.to_units(e.start), end=conv.to_units(e.end)))
    start, end = answer.to_units(claim.start), answer.to_units(claim.end)
    return replace(
        claim, start=start, end=end, output_start=start, output_end=end, evidence=tuple(evidence)
    )


class _Checker:
    """Finds the claims completed so far and checks the new ones (runs in the model pool)."""

    def __init__(self, engine: Attributor, head: StreamRequest) -> None:
        self.engine = engine
        self.head = head
        self.sources: list[CitationSource] | None = None
        self.checked_to = 0  # claims ending before this offset were sent
        self.count = 0

    def __call__(self, text: str, final: bool) -> list[ClaimResult]:
        if self.sources is None:
            if self.head.sources is not None:
                self.sources = list(self.head.sources)
            else:
                self.sources = list(extract_sources(self.head.tool_outputs or ()).sources)
        segments = self.engine.segmenter.segment(text)
        complete = segments if final else segments[:-1]
        new = [
            s
            for s in complete
            if (s.is_claim or s.markers) and s.start >= self.checked_to and s.clean_text.strip()
        ]
        if not new:
            return []
        self.checked_to = new[-1].end
        results = self.engine.check_claims([s.clean_text for s in new], self.sources)
        out = []
        for segment, result in zip(new, results, strict=True):
            out.append(
                msgspec.structs.replace(
                    result,
                    index=self.count,
                    start=segment.start,
                    end=segment.end,
                    text=segment.text,
                    output_start=segment.start,
                    output_end=segment.end,
                )
            )
            self.count += 1
        return out


async def _generate(
    head: StreamRequest,
    more: AsyncIterator[str] | None,
    settings: Settings,
    attributor: Attributor,
    store: ConversationStore,
    runner: ModelRunner,
    metrics: Metrics,
) -> AsyncIterator[ServerSentEventMessage]:
    checker = _Checker(engine_for(attributor, head.options), head)
    pieces: list[str] = []
    size = 0
    unit = head.offset_unit

    async def deltas() -> AsyncIterator[str]:
        for d in head.deltas:
            yield d
        if more is not None:
            async for d in more:
                yield d

    async def check(final: bool) -> list[ServerSentEventMessage]:
        text = "".join(pieces)
        claims = await runner.run(lambda: checker(text, final))
        if not claims:
            return []
        answer = OffsetConverter(text, unit) if unit != "codepoint" else None
        by_id = {s.id: s for s in checker.sources or ()}
        return [
            _event("claim", f"claim-{c.index}", _in_units(c, answer, by_id, unit)) for c in claims
        ]

    try:
        async for delta in deltas():
            pieces.append(delta)
            size += len(delta)
            if size > settings.max_answer_chars:
                raise over_limit(
                    "max_answer_chars", "the answer length", size, settings.max_answer_chars
                )
            if _BOUNDARY_CHARS.intersection(delta):
                for message in await check(final=False):
                    yield message
        for message in await check(final=True):
            yield message
        request = AttributionRequest(
            answer="".join(pieces),
            sources=head.sources,
            tool_outputs=head.tool_outputs,
            conversation_id=head.conversation_id,
            options=head.options,
            offset_unit=head.offset_unit,
        )
        # The non-streaming route's own function: the final result is the same by construction.
        final = await attribute_request(
            request,
            settings=settings,
            attributor=attributor,
            store=store,
            runner=runner,
            metrics=metrics,
        )
        yield _event("result", "result", final)
    except Exception as exc:  # the status line is sent: the error becomes the last event
        status, kind, text, _ = classify(exc)
        if status >= 500 and kind == "internal_error":
            log.error("stream_failed", error=type(exc).__name__, exc_info=exc)
        yield _event("error", "error", ErrorBody(error=ErrorDetail(type=kind, message=text)))


@post(
    "/attributions:stream",
    status_code=200,
    responses=ERROR_RESPONSES,
    summary="Attribute an answer as it is generated (server-sent events)",
    operation_class=_StreamOperation,
    description=(
        "Body: `application/json` `{deltas: [str], sources | toolOutputs, conversationId?, "
        "options?, offsetUnit?}`, or `application/x-ndjson`: that object on the first line, then "
        '`{"delta": str}` lines. Events: `claim` (id `claim-<n>`) per completed sentence, then '
        "`result` (id `result`) with the full AttributionResult, or `error` (id `error`)."
    ),
)
async def stream_attribution(
    request: Request[Any, Any, Any],
    settings: NamedDependency[Settings],
    attributor: NamedDependency[Attributor],
    store: NamedDependency[ConversationStore],
    runner: NamedDependency[ModelRunner],
    metrics: NamedDependency[Metrics],
) -> ServerSentEvent:
    """Check each claim as its sentence completes; end with the full attribution result."""
    inbox: _Inbox | None = None
    more: AsyncIterator[str] | None = None
    if request.content_type[0] == NDJSON:
        inbox = _Inbox(request.receive, settings.max_body_bytes)
        head = cast(StreamRequest, _decode(await inbox.first_line(), StreamRequest, "line 1"))
        more = inbox.deltas()
    else:
        head = cast(StreamRequest, _decode(await request.body(), StreamRequest, "body"))
    # the same refusals as the non-streaming route, before the stream starts (4xx, not events)
    check_request(
        settings,
        attributor,
        answer_chars=sum(len(d) for d in head.deltas),
        sources=head.sources,
        tool_outputs=head.tool_outputs,
        options=head.options,
    )
    log.info(
        "attribution_stream_requested",
        sources=len(head.sources or ()),
        tool_outputs=len(head.tool_outputs or ()),
        ndjson=inbox is not None,
    )
    return _AnswerEventStream(
        _generate(head, more, settings, attributor, store, runner, metrics), inbox
    )


stream_router = Router(path="/v1", route_handlers=[stream_attribution], tags=["attribution"])
