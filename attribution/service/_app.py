"""The app factory: lifespan-managed resources on ``app.state``, one error mapping, logs.

``create_app(settings)`` wires everything; nothing loads until the lifespan starts. The
lifespan builds one :class:`attribution.Attributor` and warms it up in the model pool (``/readyz``
answers 503 until it is ready), opens the conversation store, and on exit waits for in-flight
model work, shuts the pool down and closes the store.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import re
import time
import uuid
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

import structlog
from litestar import Litestar
from litestar.datastructures import State
from litestar.enums import ScopeType
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from attribution import Attributor, __version__

from ._conversations import ConversationController
from ._errors import handle_exception
from ._guard import request_guard
from ._logging import configure_logging
from ._metrics import Metrics
from ._page import page_router
from ._routes import DEPENDENCIES, api_router, health_handlers
from ._settings import Settings
from ._store import open_store
from ._stream import stream_router
from ._work import Admission, ModelRunner

__all__ = ["create_app"]

log = structlog.get_logger(__name__)

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
_STATE_ID = "attribution.request_id"
_STATE_START = "attribution.start"
_STATE_STATUS = "attribution.status"


@asynccontextmanager
async def _lifespan(app: Litestar) -> AsyncIterator[None]:
    state = app.state
    settings: Settings = state.settings
    threads = settings.model_threads or os.cpu_count() or 1
    attributor = Attributor(settings.engine_config())
    # Opened first: a store that cannot open fails the start before any thread is started.
    # PostgreSQL does not need to answer yet: /readyz says so until it does.
    state.store = await asyncio.to_thread(
        open_store,
        database_url=settings.database_url,
        database_path=settings.database_path,
        max_entries=settings.max_conversation_sources,
    )
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="model")
    state.attributor = attributor
    state.pool = pool
    state.runner = ModelRunner(
        pool, state.admission, settings.request_timeout_s, on_reject=state.metrics.count_reject
    )
    state.readiness = ("loading", None)

    async def warm_up() -> None:
        started = time.perf_counter()
        try:
            await asyncio.get_running_loop().run_in_executor(
                pool, functools.partial(attributor.warm_up, freeze_gc=True)
            )
        except Exception as exc:  # any failure leaves the service alive and not ready
            state.readiness = ("failed", f"{type(exc).__name__}: {exc}")
            log.error("models_failed", error=type(exc).__name__, message=str(exc))
            return
        state.readiness = ("ready", None)
        log.info(
            "models_ready",
            verifier=attributor.verifier.name,
            threads=threads,
            ms=round((time.perf_counter() - started) * 1000, 1),
        )

    async def open_database() -> None:
        # creates or migrates PostgreSQL's schema now rather than on the first request
        problem = await asyncio.to_thread(state.store.check)
        if problem is None:
            log.info("store_ready", store=type(state.store).__name__)
        else:
            log.warning("store_not_ready", store=type(state.store).__name__, message=problem)

    warming = asyncio.create_task(warm_up())
    opening = asyncio.create_task(open_database())
    log.info("service_starting", version=__version__, threads=threads, max_queue=settings.max_queue)
    try:
        yield
    finally:
        log.info("service_stopping", in_flight=state.admission.depth)
        await warming
        await opening
        # Requests that timed out may still hold a thread: let them finish before shutting down.
        await asyncio.to_thread(state.admission.wait_idle, settings.request_timeout_s)
        await asyncio.to_thread(pool.shutdown, wait=True)
        if state.store is not None:
            await asyncio.to_thread(state.store.close)
        gc.unfreeze()  # warm_up froze the models' objects out of the collector's way
        log.info("service_stopped")


def _request_id(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = value.decode("latin-1")
            if _REQUEST_ID.match(text):
                return text
            break
    return uuid.uuid4().hex


def _request_context(app: ASGIApp) -> ASGIApp:
    """Middleware: a request id (``X-Request-ID`` or a new one) bound to every log line."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        request_id = state.setdefault(_STATE_ID, _request_id(scope))
        state.setdefault(_STATE_START, time.perf_counter())
        with structlog.contextvars.bound_contextvars(request_id=request_id):
            try:
                await app(scope, receive, send)
            except BaseException:
                if state.pop(_STATE_STATUS, None) is not None:  # it failed after it started
                    _finished(scope, state, 500)
                raise
            if state.pop(_STATE_STATUS, None) is not None:
                # the response started and never ended, and nothing failed: the client went
                # away (a stream it stopped reading); counted and logged as nginx's 499
                _finished(scope, state, 499, client_gone=True)

    return middleware


async def _before_send(message: Message, scope: Scope) -> None:
    """Echo the request id, and count and log every response (routed or not)."""
    if scope["type"] != ScopeType.HTTP:
        return
    state: dict[str, Any] = scope.setdefault("state", {})
    if message["type"] == "http.response.start":
        request_id = state.setdefault(_STATE_ID, _request_id(scope))
        headers = list(message.get("headers", ()))
        headers.append((b"x-request-id", request_id.encode("latin-1")))
        message["headers"] = headers
        state[_STATE_STATUS] = message["status"]
        return
    if message["type"] == "http.response.body" and not message.get("more_body", False):
        status = state.pop(_STATE_STATUS, None)
        if status is not None:
            _finished(scope, state, status)


def _finished(
    scope: Scope, state: dict[str, Any], status: int, *, client_gone: bool = False
) -> None:
    """Count and log a request that ended with ``status``."""
    start = state.get(_STATE_START)
    seconds = time.perf_counter() - start if start is not None else None
    route = str(scope.get("path_template") or "other")
    metrics: Metrics = scope["app"].state.metrics
    metrics.observe(str(scope.get("method", "GET")), route, status, seconds)
    log.info(
        "request",
        request_id=state.get(_STATE_ID),
        method=scope.get("method"),
        route=route,
        status=status,
        ms=round(seconds * 1000, 1) if seconds is not None else None,
        **({"client_gone": True} if client_gone else {}),
    )


def create_app(settings: Settings | None = None) -> Litestar:
    """The attribution service as a litestar app.

    Args:
        settings: the service settings; None: :meth:`Settings.from_env`.

    Returns:
        The app; its lifespan loads the models, opens the store and starts the model pool.
    """
    settings = settings if settings is not None else Settings.from_env()
    configure_logging(settings)
    admission = Admission(settings.max_queue)
    metrics = Metrics(lambda: admission.depth, settings.max_queue)
    state = State(
        {
            "settings": settings,
            "admission": admission,
            "metrics": metrics,
            "readiness": ("loading", None),
            "attributor": None,
            "store": None,
            "runner": None,
            "pool": None,
        }
    )
    return Litestar(
        route_handlers=[
            api_router,
            stream_router,
            ConversationController,
            *health_handlers,
            page_router,
        ],
        dependencies=DEPENDENCIES,
        lifespan=[_lifespan],
        state=state,
        exception_handlers={Exception: handle_exception},
        middleware=[_request_context, request_guard],
        before_send=[_before_send],
        request_max_body_size=settings.max_body_bytes,
        logging_config=None,
        # the schema as JSON only: the HTML viewers load unpinned third-party scripts onto the
        # API's origin
        openapi_config=OpenAPIConfig(
            title="attribution", version=__version__, render_plugins=[JsonRenderPlugin()]
        ),
    )
