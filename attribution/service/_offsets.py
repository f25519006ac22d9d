"""Every offset of an attribution result, converted from code points to UTF-16 or UTF-8.

The engine counts code points; JavaScript clients count UTF-16 code units and Go clients UTF-8
bytes. :func:`convert_result_offsets` rewrites every span of a result in one pass, using the
library's :class:`attribution.OffsetConverter` (the one place that knows the encodings).
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from attribution import (
    AttributionResult,
    CitationSource,
    EvidenceQuote,
    OffsetConverter,
    OffsetUnit,
)

__all__ = ["QuoteUnits", "convert_result_offsets"]


class QuoteUnits:
    """Evidence quotes with their offsets (code points into the quoted source's
    ``fullContent`` or ``snippet``, as the quote's ``field`` says) in another unit; one
    converter per quoted text, made when first needed."""

    def __init__(self, sources: Mapping[str, CitationSource], unit: OffsetUnit) -> None:
        self._sources = sources
        self._unit = unit
        self._converters: dict[tuple[str, str], OffsetConverter] = {}

    def _converter(self, source_id: str, field: str) -> OffsetConverter:
        key = (source_id, field)
        conv = self._converters.get(key)
        if conv is None:
            source = self._sources.get(source_id)
            text = ""
            if source is not None:
                text = (source.full_content if field == "fullContent" else source.snippet) or ""
            conv = self._converters[key] = OffsetConverter(text, self._unit)
        return conv

    def __call__(self, quotes: tuple[EvidenceQuote, ...]) -> tuple[EvidenceQuote, ...]:
        """``quotes`` with ``start`` and ``end`` in the unit."""
        out = []
        for e in quotes:
            conv = self._converter(e.source_id, e.field)
            out.append(
                msgspec.structs.replace(e, start=conv.to_units(e.start), end=conv.to_units(e.end))
            )
        return tuple(out)


def convert_result_offsets(
    result: AttributionResult, input_answer: str, unit: OffsetUnit
) -> AttributionResult:
    """``result`` with every offset in ``unit``.

    Converted: claims ``start/end`` (into the input answer) and ``outputStart/outputEnd`` (into
    ``result.answer``), markers ``start/end`` (input answer), references
    ``startIndex/endIndex`` (``result.answer``) and the ``start/end`` of evidence and nearest
    quotes (the quoted source's ``fullContent`` or ``snippet``, as its ``field`` says).
    """
    if unit == "codepoint":
        return result
    replace = msgspec.structs.replace
    given = OffsetConverter(input_answer, unit)
    output = OffsetConverter(result.answer, unit)
    quoted = QuoteUnits({s.id: s for s in result.citations.sources}, unit)
    claims = tuple(
        replace(
            c,
            start=given.to_units(c.start),
            end=given.to_units(c.end),
            output_start=output.to_units(c.output_start),
            output_end=output.to_units(c.output_end),
            evidence=quoted(c.evidence),
            nearest=quoted(c.nearest),
        )
        for c in result.claims
    )
    markers = tuple(
        replace(m, start=given.to_units(m.start), end=given.to_units(m.end)) for m in result.markers
    )
    references = tuple(
        replace(
            r, start_index=output.to_units(r.start_index), end_index=output.to_units(r.end_index)
        )
        for r in result.citations.references
    )
    return replace(
        result,
        claims=claims,
        markers=markers,
        citations=replace(result.citations, references=references),
    )
