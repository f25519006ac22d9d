"""Text machinery every stage shares: markdown regions, citation markers, terms of source text.

- ``_regions``: code, URLs, link destinations and definitions (where prose rules do not apply).
- ``_markers``: find, format, normalise and renumber citation markers, with exact offsets.
- ``_terms``: fast regex sentences, word tokens, numbers, names and negation of source text.
- ``_quantities``: a number written with a scale or another metric unit, compared by value.
"""

from __future__ import annotations

from attribution.text._markers import (
    MARKER_STYLES,
    Marker,
    MarkerKind,
    MarkerStyle,
    NormalizedText,
    find_markers,
    format_marker,
    link_citations,
    markers_outside,
    normalize_markers,
    renumber_markers,
    rewrite_marker,
)
from attribution.text._quantities import (
    Quantity,
    as_written_in,
    quantities,
    quantity_values,
    same_quantity,
)
from attribution.text._regions import (
    URL,
    ProtectedRegions,
    SpanSet,
    fenced_code,
    inline_code,
    link_destinations,
    merge_spans,
    protected_spans,
    removal_span,
    removal_spans,
    url_end,
)
from attribution.text._terms import (
    STOPWORDS,
    content_terms,
    entity_terms,
    in_range,
    may_begin_number,
    negated,
    number_ranges,
    number_scales,
    number_terms,
    source_sentence_spans,
    stem,
    word_tokens,
)

__all__ = [
    "MARKER_STYLES",
    "STOPWORDS",
    "URL",
    "Marker",
    "MarkerKind",
    "MarkerStyle",
    "NormalizedText",
    "ProtectedRegions",
    "Quantity",
    "SpanSet",
    "as_written_in",
    "content_terms",
    "entity_terms",
    "fenced_code",
    "find_markers",
    "format_marker",
    "in_range",
    "inline_code",
    "link_citations",
    "link_destinations",
    "markers_outside",
    "may_begin_number",
    "merge_spans",
    "negated",
    "normalize_markers",
    "number_ranges",
    "number_scales",
    "number_terms",
    "protected_spans",
    "quantities",
    "quantity_values",
    "removal_span",
    "removal_spans",
    "renumber_markers",
    "rewrite_marker",
    "same_quantity",
    "source_sentence_spans",
    "stem",
    "url_end",
    "word_tokens",
]
