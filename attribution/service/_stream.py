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

A client that goes away cancels the generator; model work already running stops at its next
model batch and gives its admission slot back (:class:`attribution.service._work.ModelRunner`).
"""

from __future__ import annotations

import asyncio
from bisect import bisect_right
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import msgspec
import structlog
from litestar import Request, Router, post
from litestar.di import NamedDependency
from litestar.openapi.spec import (
    OpenAPIMediaType,
    OpenAPIResponse,
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
from litestar.types import Receive, ReceiveMessage, Scope, Send

from attribution import (
    Attributor,
    CitationRegistry,
    CitationSource,
    ClaimResult,
    InputError,
    OffsetConverter,
    OffsetUnit,
    PreparedSources,
    ToolOutput,
    decode_json,
)
from attribution.segment import SegmentStream

from ._api import AttributionOptions, AttributionRequest, ConversationId, ErrorBody, ErrorDetail
from ._api import Body as WireBody
from ._attribute import (
    attribute_request,
    check_request,
    engine_for,
    extract_checked,
    over_limit,
)
from ._errors import BadRequest, WorkTimeout, classify
from ._guard import RequestTimeout
from ._metrics import Metrics
from ._offsets import QuoteUnits
from ._routes import ERROR_RESPONSES
from ._settings import Settings
from ._store import MAX_CONVERSATION_ID_CHARS, ConversationStore, validate_conversation_id
from ._work import ModelRunner, Slot

__all__ = ["StreamDelta", "StreamRequest", "stream_attribution", "stream_router"]

log = structlog.get_logger(__name__)

NDJSON = "application/x-ndjson"
T = TypeVar("T")


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
        # the answer is a stream of server-sent events, not the JSON litestar would assume
        if self.responses is not None:
            self.responses["200"] = OpenAPIResponse(
                description=(
                    "Server-sent events: `claim` per completed sentence, then `result` (the "
                    "AttributionResult as JSON) or `error` (the error body as JSON)"
                ),
                content={
                    "text/event-stream": OpenAPIMediaType(schema=Schema(type=OpenAPIType.STRING))
                },
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
    """A streaming response whose disconnect listener reads through an :class:`_Inbox`, and
    which gives the stream's admission slot back when it ends, however it ends."""

    __slots__ = ("inbox", "slot")

    inbox: _Inbox | None
    slot: Slot

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.slot.release()

    async def send_body(self, send: Send, receive: Receive) -> None:
        await super().send_body(send, self.inbox.receive if self.inbox is not None else receive)


class _AnswerEventStream(ServerSentEvent):
    """:class:`ServerSentEvent` that lets the generator go on reading the request body."""

    def __init__(
        self, content: AsyncIterator[ServerSentEventMessage], inbox: _Inbox | None, slot: Slot
    ):
        super().__init__(content)
        self.inbox = inbox
        self.slot = slot

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIStreamingResponse:
        plain = cast(ASGIStreamingResponse, super().to_asgi_response(*args, **kwargs))
        duplex = _DuplexStreamingResponse.__new__(_DuplexStreamingResponse)
        for name in (*ASGIStreamingResponse.__slots__, *ASGIResponse.__slots__):
            setattr(duplex, name, getattr(plain, name))
        duplex.inbox = self.inbox
        duplex.slot = self.slot
        return duplex


def _event(kind: str, event_id: str, data: Any) -> ServerSentEventMessage:
    return ServerSentEventMessage(
        data=msgspec.json.encode(data).decode("utf-8"), event=kind, id=event_id
    )


class _AnswerUnits:
    """Offsets into the answer so far in the unit asked for, delta by delta (no rescans)."""

    def __init__(self, unit: OffsetUnit) -> None:
        self.unit = unit
        self._pieces: list[str] = []
        self._starts = [0]  # code point offset of each delta (and of the end)
        self._unit_starts = [0]  # the same in units

    def add(self, delta: str) -> None:
        self._pieces.append(delta)
        self._starts.append(self._starts[-1] + len(delta))
        width = OffsetConverter(delta, self.unit).to_units(len(delta))
        self._unit_starts.append(self._unit_starts[-1] + width)

    def to_units(self, offset: int) -> int:
        k = bisect_right(self._starts, offset) - 1
        if k >= len(self._pieces):
            return self._unit_starts[-1]
        inside = offset - self._starts[k]
        return self._unit_starts[k] + OffsetConverter(self._pieces[k], self.unit).to_units(inside)


def _in_units(
    claim: ClaimResult,
    answer: _AnswerUnits,
    sources: dict[str, CitationSource],
) -> ClaimResult:
    if answer.unit == "codepoint":
        return claim
    quoted = QuoteUnits(sources, answer.unit)
    start, end = answer.to_units(claim.start), answer.to_units(claim.end)
    return msgspec.structs.replace(
        claim,
        start=start,
        end=end,
        output_start=start,
        output_end=end,
        evidence=quoted(claim.evidence),
        nearest=quoted(claim.nearest),
    )


class _Checker:
    """The claims of the answer so far, each judged once its sentence is finished, as the whole
    answer's attribution judges it (runs in the model pool, one call at a time)."""

    def __init__(
        self, engine: Attributor, head: StreamRequest, store: ConversationStore, settings: Settings
    ) -> None:
        self.engine = engine
        self.head = head
        self.store = store
        self.settings = settings
        self.segments = SegmentStream(engine.segmenter)
        self.prepared: PreparedSources | None = None
        self.count = 0

    def sources(self) -> PreparedSources:
        if self.prepared is None:
            head = self.head
            registry: CitationRegistry | None = None
            if head.conversation_id is not None:
                # A copy of the stored registry: numbers as the final result will give them,
                # stored only by the final step.
                registry = self.store.registry(head.conversation_id)
            if head.sources is not None:
                items: Sequence[CitationSource] = head.sources
            else:  # the extracted text is held to the limits before any claim is checked
                items = extract_checked(self.settings, head.tool_outputs or ()).sources
            self.prepared = self.engine.prepare_sources(items, registry)
        return self.prepared

    def __call__(self, delta: str | None) -> list[ClaimResult]:
        """Judge the claims ``delta`` finished (None: the answer is complete)."""
        prepared = self.sources()
        found = self.segments.finish() if delta is None else self.segments.feed(delta)
        if not any(s.is_claim or s.markers for s in found):
            return []
        offset, text = self.segments.window
        claims = self.engine.check_segments(text, found, prepared, offset=offset)
        out = [msgspec.structs.replace(c, index=self.count + k) for k, c in enumerate(claims)]
        self.count += len(out)
        return out


class _Deadline:
    """The whole stream's time limit (``stream_timeout_s``): body, checks and final result."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._loop = asyncio.get_running_loop()
        self._at = self._loop.time() + seconds

    def left(self) -> float:
        return self._at - self._loop.time()

    def error(self) -> WorkTimeout:
        return WorkTimeout(f"the stream took longer than stream_timeout_s = {self.seconds:g} s")

    async def run(self, runner: ModelRunner, slot: Slot, fn: Callable[[], T]) -> T:
        if self.left() <= 0:
            raise self.error()
        try:
            return await runner.run(fn, slot=slot, timeout_s=self.left())
        except WorkTimeout as exc:
            if self.left() <= 0:
                raise self.error() from exc
            raise

    async def next(self, deltas: AsyncIterator[str]) -> str | None:
        """The next delta, or None at the end of the body."""
        try:
            return await asyncio.wait_for(anext(deltas), max(self.left(), 0.0))
        except StopAsyncIteration:
            return None
        except TimeoutError as exc:
            raise self.error() from exc


async def _generate(
    head: StreamRequest,
    more: AsyncIterator[str] | None,
    slot: Slot,
    settings: Settings,
    attributor: Attributor,
    store: ConversationStore,
    runner: ModelRunner,
    metrics: Metrics,
) -> AsyncIterator[ServerSentEventMessage]:
    deadline = _Deadline(settings.stream_timeout_s)
    checker = _Checker(engine_for(attributor, head.options), head, store, settings)
    answer = _AnswerUnits(head.offset_unit)
    pieces: list[str] = []
    size = 0

    async def deltas() -> AsyncIterator[str]:
        for d in head.deltas:
            yield d
        if more is not None:
            while (line := await deadline.next(more)) is not None:
                yield line

    async def check(delta: str | None) -> list[ServerSentEventMessage]:
        claims = await deadline.run(runner, slot, lambda: checker(delta))
        if not claims:
            return []
        by_id = {s.id: s for s in checker.sources().sources}
        return [_event("claim", f"claim-{c.index}", _in_units(c, answer, by_id)) for c in claims]

    try:
        async for delta in deltas():
            pieces.append(delta)
            answer.add(delta)
            size += len(delta)
            if size > settings.max_answer_chars:
                raise over_limit(
                    "max_answer_chars", "the answer length", size, settings.max_answer_chars
                )
            if not SegmentStream.may_finish(delta):
                checker.segments.feed(delta)  # only stored: no segmentation, no thread hop
                continue
            for message in await check(delta):
                yield message
        for message in await check(None):
            yield message
        request = AttributionRequest(
            answer="".join(pieces),
            sources=head.sources,
            tool_outputs=head.tool_outputs,
            conversation_id=head.conversation_id,
            options=head.options,
            offset_unit=head.offset_unit,
        )
        if deadline.left() <= 0:
            raise deadline.error()
        # The non-streaming route's own function: the final result is the same by construction.
        try:
            final = await attribute_request(
                request,
                settings=settings,
                attributor=attributor,
                store=store,
                runner=runner,
                metrics=metrics,
                slot=slot,
                timeout_s=deadline.left(),
            )
        except WorkTimeout as exc:
            if deadline.left() <= 0:
                raise deadline.error() from exc
            raise
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
        # the first line comes before the response, like a body: within body_timeout_s (the
        # stream's own limit starts with the response); else a client sending headers and
        # nothing more would hold the connection as long as it liked
        try:
            first = await asyncio.wait_for(inbox.first_line(), settings.body_timeout_s)
        except TimeoutError:
            raise RequestTimeout(
                f"the stream's first line did not arrive within {settings.body_timeout_s:g} s "
                "(body_timeout_s)",
                headers={"connection": "close"},
            ) from None
        head = cast(StreamRequest, _decode(first, StreamRequest, "line 1"))
        more = inbox.deltas()
    else:
        head = cast(StreamRequest, _decode(await request.body(), StreamRequest, "body"))
    # the same refusals as the non-streaming route, before the stream starts (4xx, not events)
    if head.conversation_id is not None:
        validate_conversation_id(head.conversation_id)  # the store reads it only at the end
    check_request(
        settings,
        attributor,
        answer_chars=sum(len(d) for d in head.deltas),
        sources=head.sources,
        tool_outputs=head.tool_outputs,
        options=head.options,
    )
    # Admitted before the status line: a full service answers 429 with Retry-After, never a 200
    # and then an error event. The stream holds its slot to its end (and its work to theirs).
    slot = runner.admit()
    log.info(
        "attribution_stream_requested",
        sources=len(head.sources or ()),
        tool_outputs=len(head.tool_outputs or ()),
        ndjson=inbox is not None,
    )
    return _AnswerEventStream(
        _generate(head, more, slot, settings, attributor, store, runner, metrics), inbox, slot
    )


stream_router = Router(path="/v1", route_handlers=[stream_attribution], tags=["attribution"])
