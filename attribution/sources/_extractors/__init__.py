"""Extractors: turn recorded tool outputs into citation sources.

``extract_sources(calls)`` runs the built-in extractors (:data:`default_extractors`) over a
batch of :class:`ToolOutput` and returns the sources, deduplicated by stable key, with the
warnings met on the way. To handle a tool of your own, or to replace a built-in, register on a
copy::

    registry = default_extractors.copy()

    @registry.register("my_search.v1", pattern=r"my_search")
    def my_search(call: ToolOutput, warn: Warn) -> list[CitationSource]: ...

    extract_sources(calls, registry=registry)
"""

from __future__ import annotations

from collections.abc import Iterable

from attribution._wire import ToolOutput
from attribution.sources._extractors._builtin import default_extractors
from attribution.sources._extractors._framework import (
    ExtractionResult,
    ExtractionWarning,
    Extractor,
    ExtractorFn,
    ExtractorRegistry,
    Warn,
    made_safe,
    merge_sightings,
    unsafe_scheme,
)

__all__ = [
    "ExtractionResult",
    "ExtractionWarning",
    "Extractor",
    "ExtractorFn",
    "ExtractorRegistry",
    "Warn",
    "default_extractors",
    "extract_sources",
    "made_safe",
    "merge_sightings",
    "unsafe_scheme",
]


def extract_sources(
    calls: Iterable[ToolOutput], *, registry: ExtractorRegistry | None = None
) -> ExtractionResult:
    """Extract the citation sources of a batch of tool calls.

    Args:
        calls: the recorded tool calls, in the order they were made.
        registry: the extractors to use; None means :data:`default_extractors`.

    Returns:
        The sources in the order first seen, one per stable key (a page found by a search and
        then scraped is one source with the scrape's text), and a warning for every output or
        part of one that could not be used. Never raises for malformed tool output.
    """
    chosen = default_extractors if registry is None else registry
    return chosen.extract(calls)
