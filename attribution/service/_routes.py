"""Route handlers: decode strictly, check the limits, run model work off the loop, answer.

Handlers receive the service's resources (settings, attributor, store, runner, metrics) by
dependency injection; they never reach for globals.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import structlog
from litestar import Request, Response, Router, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi import ResponseSpec
from litestar.params import JSONBody
from litestar.status_codes import HTTP_200_OK, HTTP_503_SERVICE_UNAVAILABLE

from attribution import (
    AttributionConfig,
    AttributionResult,
    Attributor,
    CitationRegistry,
    CitationSource,
    ExtractionResult,
    ExtractionWarning,
    Pair,
    ToolOutput,
    extract_sources,
)

from ._api import (
    AttributionOptions,
    AttributionRequest,
    ErrorBody,
    ExtractionRequest,
    HealthBody,
    VerificationRequest,
    VerificationResponse,
    VerificationResult,
)
from ._errors import BadRequest, LimitExceeded, NotReady
from ._logging import text_fields
from ._metrics import Metrics
from ._offsets import convert_result_offsets
from ._settings import Settings
from ._store import ConversationStore
from ._work import ModelRunner

__all__ = ["DEPENDENCIES", "api_router", "health_handlers", "strict_body"]

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
            msgspec.json.decode(body, type=type_, strict=True)
        except msgspec.ValidationError as exc:
            raise BadRequest(str(exc)) from exc
        except msgspec.DecodeError as exc:
            raise BadRequest(f"malformed JSON: {exc}") from exc

    return decode


# -- limits ----------------------------------------------------------------------------------


def _over(name: str, what: str, value: int, limit: int) -> LimitExceeded:
    return LimitExceeded(f"{what} is {value}; the limit ({name}) is {limit}")


def _tool_output_chars(outputs: tuple[ToolOutput, ...]) -> int:
    total = 0
    for t in outputs:
        if isinstance(t.output, str):
            total += len(t.output)
        else:
            total += len(msgspec.json.encode(t.output))
    return total


def _check_sources(
    settings: NamedDependency[Settings],
    sources: tuple[CitationSource, ...] | None,
    tool_outputs: tuple[ToolOutput, ...] | None,
) -> None:
    if sources is not None:
        if len(sources) > settings.max_sources:
            raise _over("max_sources", "the number of sources", len(sources), settings.max_sources)
        chars = sum(len(s.full_content or "") + len(s.snippet or "") for s in sources)
        if chars > settings.max_source_chars:
            raise _over("max_source_chars", "the source text", chars, settings.max_source_chars)
    if tool_outputs is not None:
        if len(tool_outputs) > settings.max_sources:
            raise _over(
                "max_sources", "the number of tool outputs", len(tool_outputs), settings.max_sources
            )
        chars = _tool_output_chars(tool_outputs)
        if chars > settings.max_source_chars:
            raise _over(
                "max_source_chars", "the tool output text", chars, settings.max_source_chars
            )


def _engine(base: Attributor, options: AttributionOptions | None) -> Attributor:
    """The base attributor, or one with the options applied sharing its loaded models.

    Raises:
        ConfigError: an option out of bounds (422).
    """
    if options is None:
        return base
    cfg = base.config

    def merged(section: Any, **changes: Any) -> Any:
        fields = msgspec.structs.asdict(section)
        fields.update({k: v for k, v in changes.items() if v is not None})
        return type(section)(**fields)  # the constructor checks the bounds

    config = AttributionConfig(
        model=cfg.model,
        segment=cfg.segment,
        match=merged(cfg.match, top_k=options.top_k),
        verify=merged(cfg.verify, support_threshold=options.support_threshold),
        reconcile=merged(
            cfg.reconcile,
            marker_style=options.marker_style,
            fill_missing=options.fill_missing,
            drop_unknown=options.drop_unknown,
            placement=options.placement,
        ),
    )
    return base.with_config(config)


_ERROR_RESPONSES = {
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


# -- handlers --------------------------------------------------------------------------------


@post(
    "/attributions",
    before_request=strict_body(AttributionRequest),
    status_code=HTTP_200_OK,
    responses=_ERROR_RESPONSES,
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
    present = [
        name
        for name, v in (("sources", data.sources), ("toolOutputs", data.tool_outputs))
        if v is not None
    ]
    if len(present) != 1:
        which = "both" if present else "neither"
        raise BadRequest(f"give exactly one of sources and toolOutputs ({which} given)")
    if len(data.answer) > settings.max_answer_chars:
        raise _over(
            "max_answer_chars", "the answer length", len(data.answer), settings.max_answer_chars
        )
    _check_sources(settings, data.sources, data.tool_outputs)
    engine = _engine(attributor, data.options)
    log.info(
        "attribution_requested",
        sources=len(data.sources or ()),
        tool_outputs=len(data.tool_outputs or ()),
        conversation=data.conversation_id is not None,
        offset_unit=data.offset_unit,
        **text_fields(settings, answer=data.answer),
    )

    def work() -> AttributionResult:
        items: tuple[CitationSource, ...] | tuple[ToolOutput, ...] = (
            data.sources if data.sources is not None else data.tool_outputs or ()
        )
        registry: CitationRegistry | None = None
        warnings: tuple[ExtractionWarning, ...] = ()
        if data.conversation_id is not None:
            # The stored registry numbers sources, so tool outputs are extracted first; their
            # warnings would otherwise be lost (attribute() sees sources only).
            sources = data.sources
            if sources is None:
                extracted = extract_sources(data.tool_outputs or ())
                sources, warnings = extracted.sources, extracted.warnings
            registry = store.register_sources(data.conversation_id, sources)
            items = sources
        result = engine.attribute(data.answer, items, registry)
        if warnings:
            result = msgspec.structs.replace(result, warnings=warnings + result.warnings)
        return convert_result_offsets(result, data.answer, data.offset_unit)

    result = await runner.run(work)
    metrics.claims_verified += result.summary.claims
    log.info(
        "attribution_done",
        claims=result.summary.claims,
        supported=result.summary.supported,
        markers=result.summary.markers_checked,
        warnings=len(result.warnings),
    )
    return result


@post(
    "/extractions",
    before_request=strict_body(ExtractionRequest),
    status_code=HTTP_200_OK,
    responses=_ERROR_RESPONSES,
    summary="Extract citable sources from tool outputs",
)
async def create_extraction(
    data: JSONBody[ExtractionRequest],
    settings: NamedDependency[Settings],
    runner: NamedDependency[ModelRunner],
) -> ExtractionResult:
    """Sources from raw tool outputs; an output that cannot be used is a warning."""
    _check_sources(settings, None, data.tool_outputs)
    return await runner.run(lambda: extract_sources(data.tool_outputs))


@post(
    "/verifications",
    before_request=strict_body(VerificationRequest),
    status_code=HTTP_200_OK,
    responses=_ERROR_RESPONSES,
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
    if len(data.pairs) > settings.max_pairs:
        raise _over("max_pairs", "the number of pairs", len(data.pairs), settings.max_pairs)
    chars = sum(len(p.claim) + len(p.passage) for p in data.pairs)
    if chars > settings.max_source_chars:
        raise _over("max_source_chars", "the pair text", chars, settings.max_source_chars)
    verifier = attributor.verifier
    pairs = [Pair(claim=p.claim, passage=p.passage) for p in data.pairs]
    output = await runner.run(lambda: verifier.score(pairs))
    threshold = float(verifier.threshold)
    contradiction = output.contradiction
    results = tuple(
        VerificationResult(
            support=round(s, 6),
            label="supported" if s >= threshold else "unsupported",
            contradiction=round(contradiction[i], 6) if contradiction is not None else None,
        )
        for i, s in enumerate(output.support)
    )
    metrics.pairs_verified += len(results)
    return VerificationResponse(results=results, verifier=verifier.name, threshold=threshold)


@get("/healthz", summary="Liveness: the process is up")
async def healthz() -> HealthBody:
    """200 while the process runs."""
    return HealthBody(status="ok")


@get("/readyz", summary="Readiness: the models are loaded")
async def readyz(request: Request[Any, Any, Any]) -> Response[HealthBody]:
    """200 once the models are loaded; 503 while they load or after they failed to."""
    status, detail = request.app.state.readiness
    code = HTTP_200_OK if status == "ready" else HTTP_503_SERVICE_UNAVAILABLE
    return Response(HealthBody(status=status, detail=detail), status_code=code)


@get("/metrics", media_type="text/plain; version=0.0.4; charset=utf-8", summary="Metrics")
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
health_handlers = [healthz, readyz, metrics_text]
