"""Route handlers: decode strictly, check the limits, run model work off the loop, answer.

Handlers receive the service's resources (settings, attributor, store, runner, metrics) by
dependency injection; they never reach for globals.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from litestar import Request, Response, Router, get, head, post
from litestar.di import NamedDependency, Provide
from litestar.openapi import ResponseSpec
from litestar.params import JSONBody
from litestar.status_codes import HTTP_200_OK, HTTP_503_SERVICE_UNAVAILABLE

from attribution import (
    AttributionResult,
    Attributor,
    ExtractionResult,
    InputError,
    decode_json,
)

from ._api import (
    AttributionRequest,
    ErrorBody,
    ExtractionRequest,
    HealthBody,
    VerificationRequest,
    VerificationResponse,
)
from ._attribute import attribute_request, check_sources, extract_checked, verify_pairs
from ._errors import BadRequest, NotReady
from ._metrics import Metrics
from ._settings import Settings
from ._store import ConversationStore
from ._work import ModelRunner

__all__ = [
    "CONVERSATION_RESPONSES",
    "DEPENDENCIES",
    "ERROR_RESPONSES",
    "api_router",
    "health_handlers",
    "strict_body",
]

log = structlog.get_logger(__name__)


# -- strict decoding -------------------------------------------------------------------------


def strict_body(type_: type[Any]) -> Callable[[Request[Any, Any, Any]], Awaitable[None]]:
    """A before-request hook decoding the body strictly into ``type_``.

    Litestar converts bodies leniently (``"5"`` is accepted for an int); the API promises strict
    decoding, so the body is checked here first, with msgspec's message naming the field.
    """

    async def decode(request: Request[Any, Any, Any]) -> None:
        body = await request.body()
        try:
            # strict, as msgspec decodes by default; bad UTF-8 and absurd nesting become
            # InputErrors too, never a 500
            decode_json(body, type_, what="request body")
        except InputError as exc:
            raise BadRequest(str(exc)) from exc

    return decode


ERROR_RESPONSES = {
    code: ResponseSpec(data_container=ErrorBody, description=description)
    for code, description in (
        (400, "Malformed JSON, a wrong type or unknown field (named), or a bad combination"),
        (413, "The body, or a count or length, is over a configured limit (named)"),
        (422, "An option is out of bounds"),
        (429, "Too many requests in progress; see Retry-After"),
        (503, "The models are not loaded (yet), or the store failed"),
        (504, "Model work took longer than the request timeout"),
    )
}

CONVERSATION_RESPONSES = {
    **ERROR_RESPONSES,
    409: ResponseSpec(
        data_container=ErrorBody,
        description="The conversation holds max_conversation_sources sources; no new one fits",
    ),
}


# -- handlers --------------------------------------------------------------------------------


@post(
    "/attributions",
    before_request=strict_body(AttributionRequest),
    status_code=HTTP_200_OK,
    responses=CONVERSATION_RESPONSES,
    summary="Attribute an answer's claims to its sources",
)
async def create_attribution(
    data: JSONBody[AttributionRequest],
    settings: NamedDependency[Settings],
    attributor: NamedDependency[Attributor],
    store: NamedDependency[ConversationStore],
    runner: NamedDependency[ModelRunner],
    metrics: NamedDependency[Metrics],
) -> AttributionResult:
    """Check every claim and marker of ``answer`` against the sources; fill missing markers."""
    return await attribute_request(
        data,
        settings=settings,
        attributor=attributor,
        store=store,
        runner=runner,
        metrics=metrics,
    )


@post(
    "/extractions",
    before_request=strict_body(ExtractionRequest),
    status_code=HTTP_200_OK,
    responses=ERROR_RESPONSES,
    summary="Extract citable sources from tool outputs",
)
async def create_extraction(
    data: JSONBody[ExtractionRequest],
    settings: NamedDependency[Settings],
    runner: NamedDependency[ModelRunner],
) -> ExtractionResult:
    """Sources from raw tool outputs; an output that cannot be used is a warning."""
    check_sources(settings, None, data.tool_outputs)
    return await runner.run(lambda: extract_checked(settings, data.tool_outputs))


@post(
    "/verifications",
    before_request=strict_body(VerificationRequest),
    status_code=HTTP_200_OK,
    responses=ERROR_RESPONSES,
    summary="Score (claim, passage) pairs with the verifier",
)
async def create_verification(
    data: JSONBody[VerificationRequest],
    settings: NamedDependency[Settings],
    attributor: NamedDependency[Attributor],
    runner: NamedDependency[ModelRunner],
    metrics: NamedDependency[Metrics],
) -> VerificationResponse:
    """The verifier's support score and label for each pair."""
    return await verify_pairs(
        data.pairs, settings=settings, attributor=attributor, runner=runner, metrics=metrics
    )


@get("/healthz", summary="Liveness: the process is up")
async def healthz() -> HealthBody:
    """200 while the process runs."""
    return HealthBody(status="ok")


async def _readiness(request: Request[Any, Any, Any]) -> tuple[int, HealthBody]:
    status, detail = request.app.state.readiness
    store = request.app.state.store
    if status == "ready" and store is not None:
        problem = await asyncio.to_thread(store.check)
        if problem is not None:
            status, detail = "store_unavailable", problem
    code = HTTP_200_OK if status == "ready" else HTTP_503_SERVICE_UNAVAILABLE
    return code, HealthBody(status=status, detail=detail)


@get("/readyz", summary="Readiness: the models are loaded and the conversation store answers")
async def readyz(request: Request[Any, Any, Any]) -> Response[HealthBody]:
    """200 once the models are loaded and while the conversation store answers; 503 while the
    models load, after they failed to, or while the store's database is unreachable."""
    code, body = await _readiness(request)
    return Response(body, status_code=code)


# Monitors and load balancers often probe with HEAD: the same status, no body.
@head("/healthz", include_in_schema=False)
async def healthz_head() -> None:
    """200 while the process runs."""


@head("/readyz", include_in_schema=False)
async def readyz_head(request: Request[Any, Any, Any]) -> Response[None]:
    """The status of ``GET /readyz``."""
    code, _ = await _readiness(request)
    return Response(None, status_code=code)


@get("/metrics", media_type="text/plain; version=0.0.4", summary="Metrics")  # + charset
async def metrics_text(metrics: NamedDependency[Metrics]) -> str:
    """Prometheus text exposition format."""
    return metrics.render()


def _provide_attributor(request: Request[Any, Any, Any]) -> Attributor:
    status, detail = request.app.state.readiness
    if status != "ready":
        raise NotReady(
            f"models are {status}" + (f": {detail}" if detail else ""),
            headers={"Retry-After": "5"} if status == "loading" else None,
        )
    attributor: Attributor = request.app.state.attributor
    return attributor


def _state_getter(name: str) -> Callable[[Request[Any, Any, Any]], Any]:
    def provide(request: Request[Any, Any, Any]) -> Any:
        return getattr(request.app.state, name)

    return provide


DEPENDENCIES = {
    "settings": Provide(_state_getter("settings"), sync_to_thread=False),
    "attributor": Provide(_provide_attributor, sync_to_thread=False),
    "store": Provide(_state_getter("store"), sync_to_thread=False),
    "runner": Provide(_state_getter("runner"), sync_to_thread=False),
    "metrics": Provide(_state_getter("metrics"), sync_to_thread=False),
}

api_router = Router(
    path="/v1",
    route_handlers=[create_attribution, create_extraction, create_verification],
    tags=["attribution"],
)
health_handlers = [healthz, readyz, healthz_head, readyz_head, metrics_text]
