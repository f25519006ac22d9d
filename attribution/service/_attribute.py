"""The engine-facing logic of the routes, in one place: ``POST /v1/attributions``, the streaming
route (whose final ``result`` event is this same function's answer) and the MCP server's tools
all call it.

- :func:`check_request`: what is refused before any model work (exactly one of sources and
  tool outputs, the limits, options out of bounds), and the engine the options ask for.
- :func:`attribute_request`: the whole attribution of a request, conversation registry included.
- :func:`verify_pairs`: the verifier's scores of (claim, passage) pairs, within the limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import structlog

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
    find_markers,
)
from attribution.sources import check_distinct_ids, is_web_url, made_safe, make_source_key
from attribution.text import URL, url_end

from ._api import (
    AttributionOptions,
    AttributionRequest,
    VerificationPair,
    VerificationResponse,
    VerificationResult,
)
from ._errors import BadRequest, LimitExceeded
from ._logging import text_fields
from ._metrics import Metrics
from ._offsets import convert_result_offsets
from ._settings import Settings
from ._store import ConversationStore
from ._work import ModelRunner, Slot

__all__ = [
    "attribute_request",
    "check_extracted",
    "check_request",
    "check_sources",
    "engine_for",
    "extract_checked",
    "linked_keys",
    "over_limit",
    "verify_pairs",
]

log = structlog.get_logger(__name__)


def linked_keys(answer: str) -> set[str]:
    """The source keys of the web pages ``answer`` gives an address of (a link citation, an
    entry of its own key): a page the conversation registered earlier is one it may cite so."""
    keys: set[str] = set()
    for m in URL.finditer(answer):
        address = answer[m.start() : url_end(answer, m.start(), m.end())]
        if not is_web_url(address):
            continue
        # the same page with or without "www." and over either scheme, as the engine reads it
        rest = address.split("://", 1)[1]
        rest = rest[4:] if rest.lower().startswith("www.") else rest
        for scheme in ("https://", "http://"):
            for host in ("", "www."):
                keys.add(make_source_key("web", f"{scheme}{host}{rest}"))
    return keys


def over_limit(name: str, what: str, value: int, limit: int) -> LimitExceeded:
    """The 413 for a configured limit, naming it."""
    return LimitExceeded(f"{what} is {value}; the limit ({name}) is {limit}")


def _tool_output_chars(outputs: tuple[ToolOutput, ...]) -> int:
    total = 0
    for t in outputs:
        if isinstance(t.output, str):
            total += len(t.output)
        else:
            total += len(msgspec.json.encode(t.output))
    return total


def check_extracted(settings: Settings, sources: Sequence[CitationSource], what: str) -> None:
    """413 when ``sources`` (given, or ``what`` = "extracted") are over the count or size
    limits: the limits apply to what the engine will hold and return."""
    if len(sources) > settings.max_sources:
        raise over_limit(
            "max_sources", f"the number of {what} sources", len(sources), settings.max_sources
        )
    chars = sum(len(s.full_content or "") + len(s.snippet or "") for s in sources)
    if chars > settings.max_source_chars:
        raise over_limit(
            "max_source_chars", f"the {what} source text", chars, settings.max_source_chars
        )


def extract_checked(settings: Settings, tool_outputs: Sequence[ToolOutput]) -> ExtractionResult:
    """The sources of ``tool_outputs``; 413 when what was extracted is over the limits (the
    library bounds the text it writes structure out as, so extracting is bounded too)."""
    extracted = extract_sources(tool_outputs)
    check_extracted(settings, extracted.sources, "extracted")
    return extracted


def check_sources(
    settings: Settings,
    sources: tuple[CitationSource, ...] | None,
    tool_outputs: tuple[ToolOutput, ...] | None,
) -> None:
    """413 when the sources or tool outputs are over the count or size limits.

    Tool outputs are checked as given here, and their extracted sources again after
    extraction (:func:`extract_checked`)."""
    if sources is not None:
        check_extracted(settings, sources, "given")
        check_distinct_ids(sources, "$.sources")
    if tool_outputs is not None:
        if len(tool_outputs) > settings.max_sources:
            raise over_limit(
                "max_sources", "the number of tool outputs", len(tool_outputs), settings.max_sources
            )
        chars = _tool_output_chars(tool_outputs)
        if chars > settings.max_source_chars:
            raise over_limit(
                "max_source_chars", "the tool output text", chars, settings.max_source_chars
            )


def engine_for(base: Attributor, options: AttributionOptions | None) -> Attributor:
    """The base attributor, or one with the options applied sharing its models and caches.

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
            answer_key=options.answer_key,
            list_added=options.list_added,
            fix_wrong_source=options.fix_wrong_source,
            marker_parts=options.marker_parts,
        ),
    )
    return base.with_config(config)


def check_request(
    settings: Settings,
    attributor: Attributor,
    *,
    answer_chars: int,
    sources: tuple[CitationSource, ...] | None,
    tool_outputs: tuple[ToolOutput, ...] | None,
    options: AttributionOptions | None,
) -> Attributor:
    """Refuse what no model work may start on; the engine the options ask for.

    Raises:
        BadRequest: both or neither of sources and tool outputs (400).
        LimitExceeded: the answer, the sources or the tool outputs are over a limit (413).
        ConfigError: an option is out of bounds (422).
    """
    present = [
        name for name, v in (("sources", sources), ("toolOutputs", tool_outputs)) if v is not None
    ]
    if len(present) != 1:
        which = "both" if present else "neither"
        raise BadRequest(f"give exactly one of sources and toolOutputs ({which} given)")
    if answer_chars > settings.max_answer_chars:
        raise over_limit(
            "max_answer_chars", "the answer length", answer_chars, settings.max_answer_chars
        )
    check_sources(settings, sources, tool_outputs)
    return engine_for(attributor, options)


async def attribute_request(
    data: AttributionRequest,
    *,
    settings: Settings,
    attributor: Attributor,
    store: ConversationStore,
    runner: ModelRunner,
    metrics: Metrics,
    slot: Slot | None = None,
    timeout_s: float | None = None,
) -> AttributionResult:
    """Attribute one request: check it, register its sources in the conversation (if any),
    run the engine in the model pool, and convert the offsets to the unit asked for.

    A stream passes its admission ``slot`` and the time it has left (``timeout_s``)."""
    engine = check_request(
        settings,
        attributor,
        answer_chars=len(data.answer),
        sources=data.sources,
        tool_outputs=data.tool_outputs,
        options=data.options,
    )
    log.info(
        "attribution_requested",
        sources=len(data.sources or ()),
        tool_outputs=len(data.tool_outputs or ()),
        conversation=data.conversation_id is not None,
        offset_unit=data.offset_unit,
        **text_fields(settings, answer=data.answer),
    )

    def work() -> AttributionResult:
        registry: CitationRegistry | None = None
        warnings: tuple[ExtractionWarning, ...] = ()
        # Tool outputs are extracted here, not by attribute(), so that the limits apply to
        # the extracted text and the stored registry can number the sources; the warnings
        # are added to the result below (attribute() sees sources only).
        sources: Sequence[CitationSource]
        if data.sources is not None:
            # made safe before the registry stores them (attribute() would, after)
            sources, warnings = made_safe(data.sources, "$.sources")
        else:
            extracted = extract_checked(settings, data.tool_outputs or ())
            sources, warnings = extracted.sources, extracted.warnings
        if data.conversation_id is not None:
            # only the entries this answer needs, whatever the conversation's size: its
            # sources', those of the numbers it cites (which tell its unknown numbers) and
            # those of the pages it links to (link citations, its own key's entries)
            cited = {n for marker in find_markers(data.answer) for n in marker.numbers}
            registry = store.register_sources(
                data.conversation_id, sources, cited=cited, cited_keys=linked_keys(data.answer)
            )
        result = engine.attribute(data.answer, sources, registry)
        if warnings:
            result = msgspec.structs.replace(result, warnings=warnings + result.warnings)
        return convert_result_offsets(result, data.answer, data.offset_unit)

    result = await runner.run(work, slot=slot, timeout_s=timeout_s)
    metrics.claims_verified += result.summary.claims
    log.info(
        "attribution_done",
        claims=result.summary.claims,
        supported=result.summary.supported,
        markers=result.summary.markers_checked,
        warnings=len(result.warnings),
    )
    return result


async def verify_pairs(
    pairs: Sequence[VerificationPair],
    *,
    settings: Settings,
    attributor: Attributor,
    runner: ModelRunner,
    metrics: Metrics,
    single: bool = False,
) -> VerificationResponse:
    """The verifier's support (and contradiction) score of each pair, in order.

    ``single``: the one pair is the request itself (the MCP ``verify`` tool's ``claim`` and
    ``passage``), so an error names ``$.claim``, not ``$.pairs[0].claim``.

    Raises:
        LimitExceeded: more than ``max_pairs`` pairs, or more than ``max_source_chars`` of text.
        BadRequest: a claim or a passage is blank.
    """
    if len(pairs) > settings.max_pairs:
        raise over_limit("max_pairs", "the number of pairs", len(pairs), settings.max_pairs)
    for i, pair in enumerate(pairs):
        for field, text in (("claim", pair.claim), ("passage", pair.passage)):
            if not text.strip():
                # the model scores blank text as it scores anything (a blank claim against a
                # blank passage came out "supported"): nothing is there to check
                where = "$" if single else f"$.pairs[{i}]"
                raise BadRequest(f"{where}.{field} is blank: there is nothing to check")
    chars = sum(len(p.claim) + len(p.passage) for p in pairs)
    if chars > settings.max_source_chars:
        raise over_limit("max_source_chars", "the pair text", chars, settings.max_source_chars)
    verifier = attributor.verifier
    scored = [Pair(claim=p.claim, passage=p.passage) for p in pairs]
    output = await runner.run(lambda: verifier.score(scored))
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
