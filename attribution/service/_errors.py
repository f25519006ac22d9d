"""The one place where errors become HTTP responses.

Every error response has the body ``{"error": {"type": ..., "message": ...}}``::

    ServiceError                      raised by the service itself
    ├── BadRequest            400     malformed JSON, wrong type, unknown field, bad combination
    ├── LimitExceeded         413     a request over one of the configured limits (named)
    ├── Overloaded            429     more than max_queue requests waiting (Retry-After)
    ├── NotReady              503     models still loading (Retry-After)
    └── WorkTimeout           504     model work over request_timeout_s
    attribution.InputError    400     the engine refused the caller's data
    attribution.ConfigError   422     an option out of bounds
    attribution.SourceError   422     a source cannot be used
    _store.ConversationFull   409     a conversation is at max_conversation_sources (named)
    attribution.ModelLoadError / MissingDependencyError   503
    _store.StoreError 503     the conversation database failed or is unreachable (Retry-After)
    a client gone mid-body    499     not an error: logged at info, counted as 499 (nginx's code)
    litestar HTTPException    its own status (404, 405, 413 body too large, ...)
    anything else             500     a generic message; the error is logged, never sent
"""

from __future__ import annotations

from typing import Any

import structlog
from litestar import Request, Response
from litestar.exceptions import HTTPException, InternalServerException, ValidationException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge

from attribution import (
    AttributionError,
    ConfigError,
    InputError,
    MissingDependencyError,
    ModelLoadError,
    SourceError,
)

from ._api import ErrorBody, ErrorDetail
from ._store import ConversationFull, StoreError

__all__ = [
    "BadRequest",
    "LimitExceeded",
    "NotReady",
    "Overloaded",
    "ServiceError",
    "WorkTimeout",
    "classify",
    "handle_exception",
]

log = structlog.get_logger(__name__)


class ServiceError(Exception):
    """Base of the errors the service raises on purpose."""

    status_code = 500
    error_type = "service_error"

    def __init__(self, message: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.headers = headers or {}


class BadRequest(ServiceError):
    """The request body is malformed, of the wrong shape, or an invalid combination."""

    status_code = 400
    error_type = "invalid_request"


class LimitExceeded(ServiceError):
    """The request is over one of the configured limits (the message names it and the value)."""

    status_code = 413
    error_type = "limit_exceeded"


class Overloaded(ServiceError):
    """Too many requests are waiting for model work."""

    status_code = 429
    error_type = "overloaded"


class NotReady(ServiceError):
    """The models are not loaded (yet, or they failed to load)."""

    status_code = 503
    error_type = "not_ready"


class WorkTimeout(ServiceError):
    """Model work took longer than the configured timeout."""

    status_code = 504
    error_type = "timeout"


_LIBRARY: tuple[tuple[type[AttributionError], int, str], ...] = (
    (InputError, 400, "input_error"),
    (ConfigError, 422, "config_error"),
    (SourceError, 422, "source_error"),
    (ConversationFull, 409, "conversation_full"),
    (ModelLoadError, 503, "model_load_error"),
    (StoreError, 503, "store_error"),
    (MissingDependencyError, 503, "missing_dependency"),
)


def _validation_message(exc: ValidationException) -> str:
    """The msgspec message litestar carries in ``extra`` (it names a body's field; a query or
    path parameter is named here: ``query parameter 'after': Expected `int` >= 0``), else
    detail."""
    extra = exc.extra
    if isinstance(extra, list):
        parts = []
        for e in extra:
            if not isinstance(e, dict) or not e.get("message"):
                continue
            key, source = e.get("key"), e.get("source")
            source = str(getattr(source, "value", source))  # litestar's ParamType.QUERY
            named = f"{source} parameter {key!r}: " if key and source in _PARAMETERS else ""
            parts.append(f"{named}{e['message']}")
        if parts:
            return "; ".join(parts)
    return str(exc.detail)


_PARAMETERS = frozenset({"query", "path", "header", "cookie"})

MAX_MESSAGE_CHARS = 1_000
"""An error message is cut to about this many characters: the parts that name the problem
(its start, and its end, where msgspec names the field) are kept, and a value the client sent
is not echoed back whole (a 2 MB option came back as a 2 MB error)."""


def _capped(message: str) -> str:
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    head, tail = message[: MAX_MESSAGE_CHARS * 2 // 3], message[-MAX_MESSAGE_CHARS // 4 :]
    left_out = len(message) - len(head) - len(tail)
    return f"{head} [... {left_out:,} characters left out ...] {tail}"


def _client_gone(exc: Exception) -> bool:
    """Litestar's way of saying the client hung up while sending the body."""
    return isinstance(exc, InternalServerException) and "client disconnected" in str(exc.detail)


def classify(exc: Exception) -> tuple[int, str, str, dict[str, str]]:
    """(status, type, message, headers) for any exception; the message at most about
    :data:`MAX_MESSAGE_CHARS` long."""
    status, kind, message, headers = _classify(exc)
    return status, kind, _capped(message), headers


def _classify(exc: Exception) -> tuple[int, str, str, dict[str, str]]:
    if isinstance(exc, ServiceError):
        return exc.status_code, exc.error_type, exc.message, exc.headers
    for cls, status, kind in _LIBRARY:
        if isinstance(exc, cls):
            # the database may be back in a moment (a restart, a fail-over)
            retry = {"Retry-After": "1"} if isinstance(exc, StoreError) else {}
            return status, kind, str(exc), retry
    if isinstance(exc, AttributionError):
        return 422, "attribution_error", str(exc), {}
    if isinstance(exc, ValidationException):
        return 400, "invalid_request", _validation_message(exc), {}
    if _client_gone(exc):
        # nginx's 499: the client closed the connection; nothing failed on this side
        return 499, "client_closed_request", "the client disconnected before the whole body", {}
    if isinstance(exc, RequestEntityTooLarge):
        return 413, "body_too_large", str(exc.detail), {}
    if isinstance(exc, HTTPException):
        kind = "not_found" if exc.status_code == 404 else "http_error"
        if exc.status_code == 405:
            kind = "method_not_allowed"
        return exc.status_code, kind, str(exc.detail), dict(exc.headers or {})
    return 500, "internal_error", "internal server error", {}


def handle_exception(request: Request[Any, Any, Any], exc: Exception) -> Response[ErrorBody]:
    """Map any exception to ``{"error": {"type", "message"}}`` with the right status code."""
    status, kind, message, headers = classify(exc)
    if kind == "body_too_large":  # litestar's own words are "Request Entity Too Large"
        limit = getattr(getattr(request.app.state, "settings", None), "max_body_bytes", None)
        if limit is not None:
            message = f"the request body is over {limit:,} bytes (max_body_bytes)"
    if status == 499:
        log.info("client_disconnected", path=request.url.path)
    elif status >= 500 and not isinstance(exc, ServiceError | AttributionError):
        log.error(
            "unhandled_error",
            path=request.url.path,
            error=type(exc).__name__,
            exc_info=exc,
        )
    elif status >= 500:
        log.warning("server_error", path=request.url.path, status=status, type=kind)
    return Response(
        ErrorBody(error=ErrorDetail(type=kind, message=message)),
        status_code=status,
        headers=headers,
    )
