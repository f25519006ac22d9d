"""Every offset of an attribution result, converted from code points to UTF-16 or UTF-8.

The engine counts code points; JavaScript clients count UTF-16 code units and Go clients UTF-8
bytes. :func:`convert_result_offsets` rewrites every span of a result in one pass, using the
library's :class:`attribution.OffsetConverter` (the one place that knows the encodings).
"""

from __future__ import annotations

import msgspec

from attribution import (
    AttributionResult,
    CitationSource,
    EvidenceQuote,
    OffsetConverter,
    OffsetUnit,
)

__all__ = ["convert_result_offsets"]


def convert_result_offsets(
    result: AttributionResult, input_answer: str, unit: OffsetUnit
) -> AttributionResult:
    """``result`` with every offset in ``unit``.

    Converted: claims ``start/end`` (into the input answer) and ``outputStart/outputEnd`` (into
    ``result.answer``), markers ``start/end`` (input answer), references
    ``startIndex/endIndex`` (``result.answer``) and evidence ``start/end`` (the quoted source's
    ``fullContent`` or ``snippet``, as its ``field`` says).
    """
    if unit == "codepoint":
        return result
    replace = msgspec.structs.replace
    given = OffsetConverter(input_answer, unit)
    output = OffsetConverter(result.answer, unit)
    by_id: dict[str, CitationSource] = {s.id: s for s in result.citations.sources}
    source_converters: dict[tuple[str, str], OffsetConverter] = {}

    def source_converter(source_id: str, field: str) -> OffsetConverter:
        key = (source_id, field)
        conv = source_converters.get(key)
        if conv is None:
            source = by_id.get(source_id)
            text = ""
            if source is not None:
                text = (source.full_content if field == "fullContent" else source.snippet) or ""
            conv = source_converters[key] = OffsetConverter(text, unit)
        return conv

    def quotes_in_units(quotes: tuple[EvidenceQuote, ...]) -> tuple[EvidenceQuote, ...]:
        """The quotes with their offsets in the unit asked for."""
        return tuple(
            replace(
                e,
                start=source_converter(e.source_id, e.field).to_units(e.start),
                end=source_converter(e.source_id, e.field).to_units(e.end),
            )
            for e in quotes
        )

    claims = tuple(
        replace(
            c,
            start=given.to_units(c.start),
            end=given.to_units(c.end),
            output_start=output.to_units(c.output_start),
            output_end=output.to_units(c.output_end),
            evidence=quotes_in_units(c.evidence),
            nearest=quotes_in_units(c.nearest),
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
