"""attribution: post-hoc citation attribution for LLM answers.

Turn an agent's tool outputs into citable sources, number them per conversation, and find,
check and rewrite the citation markers an answer carries::

    from attribution import CitationRegistry, ToolOutput, extract_sources, find_markers

    result = extract_sources([ToolOutput(tool_name="web_search", output=search_json)])
    registry = CitationRegistry()
    numbers = [registry.register_source(s) for s in result.sources]
    markers = find_markers(answer)

The whole pipeline — segment the answer into claims, match them to passages, verify, check the
markers and fill the missing ones::

    from attribution import Attributor, AttributionConfig

    result = Attributor.from_config(AttributionConfig()).attribute(answer, tool_outputs)

``extractors`` is the default extractor registry: ``@extractors.register("my_tool.v1",
pattern="my_tool")`` adds one.
"""

from __future__ import annotations

from attribution._attributor import Attributor, PreparedSources
from attribution._config import (
    PRESETS,
    AttributionConfig,
    MatchConfig,
    ModelConfig,
    ReconcileConfig,
    SegmentConfig,
    VerifyConfig,
    load_config,
    preset,
    read_config,
)
from attribution._errors import (
    AttributionError,
    ConfigError,
    InputError,
    MissingDependencyError,
    ModelLoadError,
    SourceError,
    WorkStopped,
)
from attribution._offsets import OffsetConverter, OffsetUnit, from_units, to_units
from attribution._result import (
    AttributionResult,
    AttributionSummary,
    ClaimResult,
    ClaimVerdict,
    EvidenceQuote,
    MarkerCheck,
    MarkerVerdict,
    NumberedSource,
)
from attribution._stop import stoppable
from attribution._version import __version__
from attribution._wire import (
    SOURCE_TYPES,
    CitationReference,
    CitationSource,
    SourceType,
    StoredCitationData,
    ToolOutput,
    decode_json,
    encode_json,
)
from attribution.sources import (
    CitationRegistry,
    ContextPassage,
    ExtractionResult,
    ExtractionWarning,
    Extractor,
    ExtractorFn,
    ExtractorRegistry,
    RegistryEntry,
    RegistrySnapshot,
    SourceDisplay,
    canonical_url,
    content_key,
    domain_of,
    extract_sources,
    make_source_key,
    render_retrieved_context,
    source_key,
)
from attribution.sources import default_extractors as extractors
from attribution.text import (
    MARKER_STYLES,
    Marker,
    MarkerStyle,
    NormalizedText,
    find_markers,
    format_marker,
    link_citations,
    normalize_markers,
    renumber_markers,
)
from attribution.verify import (
    FeatureVerifier,
    FeatureWeights,
    NliVerifier,
    Pair,
    Verifier,
    VerifierOutput,
)

__all__ = [
    "MARKER_STYLES",
    "PRESETS",
    "SOURCE_TYPES",
    "AttributionConfig",
    "AttributionError",
    "AttributionResult",
    "AttributionSummary",
    "Attributor",
    "CitationReference",
    "CitationRegistry",
    "CitationSource",
    "ClaimResult",
    "ClaimVerdict",
    "ConfigError",
    "ContextPassage",
    "EvidenceQuote",
    "ExtractionResult",
    "ExtractionWarning",
    "Extractor",
    "ExtractorFn",
    "ExtractorRegistry",
    "FeatureVerifier",
    "FeatureWeights",
    "InputError",
    "Marker",
    "MarkerCheck",
    "MarkerStyle",
    "MarkerVerdict",
    "MatchConfig",
    "MissingDependencyError",
    "ModelConfig",
    "ModelLoadError",
    "NliVerifier",
    "NormalizedText",
    "NumberedSource",
    "OffsetConverter",
    "OffsetUnit",
    "Pair",
    "PreparedSources",
    "ReconcileConfig",
    "RegistryEntry",
    "RegistrySnapshot",
    "SegmentConfig",
    "SourceDisplay",
    "SourceError",
    "SourceType",
    "StoredCitationData",
    "ToolOutput",
    "Verifier",
    "VerifierOutput",
    "VerifyConfig",
    "WorkStopped",
    "__version__",
    "canonical_url",
    "content_key",
    "decode_json",
    "domain_of",
    "encode_json",
    "extract_sources",
    "extractors",
    "find_markers",
    "format_marker",
    "from_units",
    "link_citations",
    "load_config",
    "make_source_key",
    "normalize_markers",
    "preset",
    "read_config",
    "render_retrieved_context",
    "renumber_markers",
    "source_key",
    "stoppable",
    "to_units",
]


def _report_as_public() -> None:
    """Public classes and functions name ``attribution`` as their module (``attribution.X``),
    wherever inside the package they are defined: what reprs, docs and pickles show.

    msgspec and ``typing`` resolve a class's string annotations in the namespace of the module
    the class names, so a class's own annotations are resolved first, where it was defined.
    As with httpx, which does the same, ``inspect.getsource`` then no longer finds a class.
    """
    import contextlib
    import inspect
    import typing

    for name in __all__:
        value = globals()[name]
        if not (
            getattr(value, "__module__", "").startswith("attribution.")
            and getattr(value, "__name__", None) == name
        ):
            continue
        if isinstance(value, type):
            own = inspect.get_annotations(value)
            if own:
                try:
                    hints = typing.get_type_hints(value, include_extras=True)
                except NameError:  # an annotation names a type-checking-only import:
                    continue  # the class keeps its own module rather than break decoding
                value.__annotations__ = {k: hints[k] for k in own}
        with contextlib.suppress(AttributeError, TypeError):  # builtin-backed objects refuse
            value.__module__ = __name__


_report_as_public()
