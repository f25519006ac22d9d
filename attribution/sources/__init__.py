"""Sources: tool outputs become citable sources, each with a stable key and a number.

- ``_extractors/``: one extractor per tool-name pattern (``_framework`` the registry, one
  module per family of tools, ``_shapes`` the shared shape handling).
- ``_keys`` and ``_urls``: a source's stable key (``web_result:<canonical url>``, ...).
- ``_numbering``: the per-conversation :class:`CitationRegistry` (find-or-create, monotonic).
- ``_context``: the ``<retrieved_context>`` block a model is prompted with.
"""

from __future__ import annotations

from attribution.sources._context import ContextPassage, render_retrieved_context
from attribution.sources._extractors import (
    ExtractionResult,
    ExtractionWarning,
    Extractor,
    ExtractorFn,
    ExtractorRegistry,
    Warn,
    default_extractors,
    extract_sources,
    made_safe,
    merge_sightings,
)
from attribution.sources._keys import (
    check_distinct_ids,
    content_key,
    is_web_url,
    make_source_key,
    source_key,
)
from attribution.sources._numbering import (
    CitationRegistry,
    RegistryEntry,
    RegistrySnapshot,
    SourceDisplay,
)
from attribution.sources._urls import canonical_url, domain_of

__all__ = [
    "CitationRegistry",
    "ContextPassage",
    "ExtractionResult",
    "ExtractionWarning",
    "Extractor",
    "ExtractorFn",
    "ExtractorRegistry",
    "RegistryEntry",
    "RegistrySnapshot",
    "SourceDisplay",
    "Warn",
    "canonical_url",
    "check_distinct_ids",
    "content_key",
    "default_extractors",
    "domain_of",
    "extract_sources",
    "is_web_url",
    "made_safe",
    "make_source_key",
    "merge_sightings",
    "render_retrieved_context",
    "source_key",
]
