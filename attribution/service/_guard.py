"""What every routed request must pass before a handler reads it (issue 15, finding 5).

- **Host**: the ``Host`` header names one of the allowed hosts (``allowed_hosts``; bound to a
  loopback address, only loopback names by default), so a web page cannot make a browser talk
  to a local install through a name it controls (DNS rebinding). Otherwise 400 ``invalid_host``.
  Litestar's own ``AllowedHostsMiddleware`` is not used: it compares the header with its port
  still on (``127.0.0.1:8000`` never matches ``127.0.0.1``) and answers in its own body shape.
- **Content type**: a body route reads JSON (and the stream route NDJSON) only when the request
  says so; anything else, a missing type included, is 415 ``unsupported_media_type``. A browser
  sends no JSON type across origins without asking first (CORS), so this also stops a page from
  writing to the service with a form or a plain-text ``fetch``.
- **Body time**: the whole body must arrive within ``body_timeout_s``, else 408
  ``request_timeout``. An NDJSON stream's body is the answer as it is written: it is bounded
  by ``stream_timeout_s`` instead.

The header read timeout is the server's (:class:`HeaderTimeoutH11Protocol`): no request
exists until its headers have arrived.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, cast

import h11
from litestar.enums import ScopeType
from litestar.types import (
    ASGIApp,
    HTTPResponseBodyEvent,
    HTTPResponseStartEvent,
    Receive,
    ReceiveMessage,
    Scope,
    Send,
)
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from ._errors import LimitExceeded, ServiceError
from ._settings import Settings

__all__ = [
    "HeaderTimeoutH11Protocol",
    "InvalidHost",
    "RequestTimeout",
    "UnsupportedMediaType",
    "plain_guard",
    "request_guard",
]

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
_JSON = "application/json"
_NDJSON = "application/x-ndjson"
_STREAM_PATH = "/v1/attributions:stream"


class InvalidHost(ServiceError):
    """The ``Host`` header names a host this service is not configured to serve."""

    status_code = 400
    error_type = "invalid_host"


class UnsupportedMediaType(ServiceError):
    """The body is not declared as JSON (or NDJSON, on the stream route)."""

    status_code = 415
    error_type = "unsupported_media_type"


class RequestTimeout(ServiceError):
    """The request body did not arrive in time."""

    status_code = 408
    error_type = "request_timeout"


def host_name(header: str) -> str:
    """The host of a ``Host`` header: lower case, without its port or IPv6 brackets."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    name, _, port = value.rpartition(":")
    return name if name and port.isdigit() else value


def host_allowed(name: str, allowed: tuple[str, ...]) -> bool:
    """Whether ``name`` matches an entry: ``*`` (any), ``*.example.com`` (its subdomains), or
    the name itself."""
    for entry in allowed:
        if entry == "*" or entry == name:
            return True
        if entry.startswith("*.") and name.endswith(entry[1:]):
            return True
    return False


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _media_type(header: str | None) -> tuple[str, dict[str, str]]:
    if header is None:
        return "", {}
    kind, *params = header.split(";")
    parsed = {}
    for param in params:
        key, _, value = param.partition("=")
        parsed[key.strip().lower()] = value.strip().strip('"').lower()
    return kind.strip().lower(), parsed


def check_content_type(path: str, header: str | None) -> None:
    """Raise :class:`UnsupportedMediaType` unless the body is declared as JSON in UTF-8 (or as
    NDJSON on the stream route)."""
    kind, params = _media_type(header)
    accepted = [_JSON, _NDJSON] if path == _STREAM_PATH else [_JSON]
    is_json = kind == _JSON or (kind.startswith("application/") and kind.endswith("+json"))
    if not (is_json or kind in accepted):
        said = f"Content-Type {header!r}" if header is not None else "no Content-Type"
        raise UnsupportedMediaType(
            f"the request has {said}; this route reads {' or '.join(accepted)} (UTF-8)"
        )
    charset = params.get("charset")
    if charset not in (None, "utf-8", "utf8"):
        raise UnsupportedMediaType(
            f"the body's charset is {charset!r}; send {' or '.join(accepted)} in UTF-8"
        )


def _check_encoding(scope: Scope) -> None:
    """:class:`UnsupportedMediaType` for a compressed body: read as JSON, a gzip body is
    "malformed JSON at byte 0"; this says what it is."""
    encoding = (_header(scope, b"content-encoding") or "identity").strip().lower()
    if encoding != "identity":
        raise UnsupportedMediaType(
            f"the body is sent with Content-Encoding {encoding!r}; this service reads bodies "
            "uncompressed"
        )


def _timed_receive(receive: Receive, seconds: float) -> Receive:
    """``receive`` that fails with :class:`RequestTimeout` once the body has taken longer than
    ``seconds`` (from the first call); after the body's last part it adds nothing."""
    deadline: float | None = None
    done = False

    async def timed() -> ReceiveMessage:
        nonlocal deadline, done
        if done:
            return await receive()
        now = time.monotonic()
        if deadline is None:
            deadline = now + seconds
        try:
            message = await asyncio.wait_for(receive(), max(0.0, deadline - now))
        except TimeoutError:
            raise RequestTimeout(
                f"the request body did not arrive within {seconds:g} s (body_timeout_s)",
                headers={"connection": "close"},  # the rest of the body must not be read
            ) from None
        if message["type"] != "http.request" or not message.get("more_body", False):
            done = True
        return message

    return timed


def request_guard(app: ASGIApp) -> ASGIApp:
    """Middleware: the host, content-type and body-time checks of the module's docstring."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        settings: Settings = scope["app"].state.settings
        _check_host(scope, settings)
        if scope.get("method") in _BODY_METHODS:
            path = str(scope.get("path", ""))
            content_type = _header(scope, b"content-type")
            check_content_type(path, content_type)
            _check_encoding(scope)
            if not (path == _STREAM_PATH and _media_type(content_type)[0] == _NDJSON):
                receive = _timed_receive(receive, settings.body_timeout_s)
        await app(scope, receive, send)

    return middleware


def _check_host(scope: Scope, settings: Settings) -> None:
    """:class:`InvalidHost` unless the request's ``Host`` is one ``allowed_hosts`` names."""
    allowed = settings.allowed_host_names()
    host = _header(scope, b"host")
    if allowed != ("*",) and (host is None or not host_allowed(host_name(host), allowed)):
        said = f"Host {host!r}" if host is not None else "no Host header"
        raise InvalidHost(
            f"the request has {said}; this service answers for {', '.join(allowed)} "
            "(setting allowed_hosts)"
        )


async def _send_error(send: Send, error: ServiceError) -> None:
    """Answer ``error`` as the service's routes do: ``{"error": {"type", "message"}}``."""
    body = json.dumps({"error": {"type": error.error_type, "message": error.message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in error.headers.items()]
    start: HTTPResponseStartEvent = {
        "type": "http.response.start",
        "status": error.status_code,
        "headers": headers,
    }
    await send(start)
    end: HTTPResponseBodyEvent = {"type": "http.response.body", "body": body, "more_body": False}
    await send(end)


def plain_guard(app: ASGIApp, settings: Settings) -> ASGIApp:
    """Middleware for an app outside Litestar (the MCP server's streamable HTTP): the Host
    check, and a body read whole within ``body_timeout_s`` and ``max_body_bytes`` (408, 413),
    then handed on, answered in the service's error shape."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        reads_body = scope.get("method") in _BODY_METHODS
        try:
            _check_host(scope, settings)
            if reads_body:
                _check_encoding(scope)
        except (InvalidHost, UnsupportedMediaType) as exc:
            await _send_error(send, exc)
            return
        if not reads_body:  # the app's own errors are its own: only the checks are answered
            await app(scope, receive, send)
            return
        try:
            timed = _timed_receive(receive, settings.body_timeout_s)
            body = bytearray()
            while True:
                message = await timed()
                if message["type"] == "http.disconnect":
                    return
                body += cast(bytes, message.get("body", b""))
                if len(body) > settings.max_body_bytes:
                    raise LimitExceeded(
                        f"the request body is over {settings.max_body_bytes:,} bytes "
                        "(max_body_bytes)",
                        headers={"connection": "close"},
                    )
                if not message.get("more_body", False):
                    break
        except (RequestTimeout, LimitExceeded) as exc:
            await _send_error(send, exc)
            return
        whole: ReceiveMessage = {"type": "http.request", "body": bytes(body), "more_body": False}
        sent = False

        async def replay() -> ReceiveMessage:
            nonlocal sent
            if not sent:
                sent = True
                return whole
            return await receive()

        await app(scope, replay, send)

    return middleware


class HeaderTimeoutH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header read timeout.

    uvicorn waits for a request's headers as long as the client likes (its keep-alive timer
    stops at the first byte), so a client trickling a header a byte at a time holds its
    connection forever. Here a connection's request line and headers must arrive within
    ``header_timeout_s`` of the connection opening (or of the previous response ending); else
    it gets 408 (or, when it sent nothing, is simply closed) and the connection is closed.
    """

    header_timeout_s: float | None = None
    """Read once per process from the settings' environment (``ATTRIBUTION_HEADER_TIMEOUT_S``):
    a class attribute set in the parent would not reach the workers uvicorn spawns."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = 0
        if HeaderTimeoutH11Protocol.header_timeout_s is None:
            HeaderTimeoutH11Protocol.header_timeout_s = Settings.from_env().header_timeout_s
        self._timeout_s: float = HeaderTimeoutH11Protocol.header_timeout_s

    def _arm(self) -> None:
        self._disarm()
        self._header_bytes = 0
        self._header_timer = self.loop.call_later(self._timeout_s, self._header_timeout)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._header_bytes += len(data)
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # the headers are in: the request exists, the app's limits apply

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # the next request's headers get the same time

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self._header_bytes:
            body = (
                b'{"error":{"type":"request_timeout","message":"the request headers did not '
                b'arrive within %g s (header_timeout_s)"}}' % self._timeout_s
            )
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body)
            )
        self.transport.close()
