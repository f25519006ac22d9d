"""Request and response bodies of the HTTP API (camelCase on the wire, strict).

These are the service's own wire types; engine results (``AttributionResult``,
``ExtractionResult``) are wire types of the library already and are returned as they are.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from attribution import CitationSource, MarkerStyle, OffsetUnit, ToolOutput

from ._store import MAX_CONVERSATION_ID_CHARS

__all__ = [
    "AttributionOptions",
    "AttributionRequest",
    "Body",
    "ErrorBody",
    "ErrorDetail",
    "ExtractionRequest",
    "HealthBody",
    "VerificationPair",
    "VerificationRequest",
    "VerificationResponse",
    "VerificationResult",
]


class Body(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    rename="camel",
):
    """Base of every body: frozen, strict, camelCase on the wire."""


class AttributionOptions(Body, frozen=True):
    """Per-request overrides of the engine's configuration (unset: the service's defaults)."""

    marker_style: MarkerStyle | None = None
    """Rewrite every marker in this style; unset: keep each marker's style."""
    fill_missing: bool | None = None
    """Add markers to supported claims that carry none."""
    drop_unknown: bool | None = None
    """Remove numbers the registry does not know from the returned answer (the default; they
    are still reported in ``markers`` as ``unknown_number``); false keeps them."""
    top_k: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    """Candidate passages kept per claim (1..100)."""
    support_threshold: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] | None = None
    """Score at or above which a claim is supported (0..1); unset: the verifier's own."""
    placement: Literal["follow", "before_punctuation", "after_punctuation"] | None = None
    """Where an added marker goes relative to the sentence's final punctuation."""
    answer_key: bool | None = None
    """Read the answer's markers through its own reference list or definitions when their
    entries name the sources (the default); false: every number is the registry's."""
    fix_wrong_source: bool | None = None
    """Write a marker that cites the wrong source with the number of the source that supports
    its claim (default false: keep it; the check reports the suggestion either way)."""
    list_added: bool | None = None
    """List the sources the engine cites in the answer's own list of sources, where it ends
    with one (the default); false: leave the list as written."""
    marker_parts: bool | None = None
    """Judge each marker inside a claim cited clause by clause against the part it closes;
    false (the default): against the whole claim."""


ConversationId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CONVERSATION_ID_CHARS)]


class AttributionRequest(Body, frozen=True):
    """``POST /v1/attributions``: exactly one of ``sources`` and ``toolOutputs``."""

    answer: str
    """The finished answer (markdown)."""
    sources: tuple[CitationSource, ...] | None = None
    """The sources the answer may cite."""
    tool_outputs: tuple[ToolOutput, ...] | None = None
    """Raw tool outputs to extract the sources from."""
    conversation_id: ConversationId | None = None
    """Number the sources in this conversation's registry (stored across requests)."""
    options: AttributionOptions | None = None
    """Overrides of the engine's configuration."""
    offset_unit: OffsetUnit = "codepoint"
    """Unit of every offset in the response: code points, UTF-16 code units or UTF-8 bytes."""


class ExtractionRequest(Body, frozen=True):
    """``POST /v1/extractions``."""

    tool_outputs: tuple[ToolOutput, ...]
    """The tool outputs to extract sources from."""


class VerificationPair(Body, frozen=True):
    """One claim and the passage to check it against."""

    claim: str
    passage: str


class VerificationRequest(Body, frozen=True):
    """``POST /v1/verifications``."""

    pairs: tuple[VerificationPair, ...]
    """The pairs to score (at most the service's max_pairs)."""


class VerificationResult(Body, frozen=True):
    """The score of one pair."""

    support: float
    """P(the passage supports the claim)."""
    label: Literal["supported", "unsupported"]
    """``supported`` when ``support`` reaches the threshold."""
    contradiction: float | None = None
    """P(the passage contradicts the claim), when the verifier can tell."""


class VerificationResponse(Body, frozen=True):
    """Scores of every pair, in the request's order."""

    results: tuple[VerificationResult, ...]
    verifier: str
    """Name of the verifier that scored the pairs."""
    threshold: float
    """Support score at or above which a pair is labelled supported."""


class HealthBody(Body, frozen=True):
    """``GET /healthz`` and ``GET /readyz``."""

    status: Literal["ok", "ready", "loading", "failed", "store_unavailable"]
    detail: str | None = None


class ErrorDetail(Body, frozen=True):
    """What went wrong."""

    type: str
    """A stable, machine-readable kind (``invalid_request``, ``limit_exceeded``, ...)."""
    message: str
    """In words; for a malformed body, msgspec's message naming the field."""


class ErrorBody(Body, frozen=True):
    """Body of every error response."""

    error: ErrorDetail
