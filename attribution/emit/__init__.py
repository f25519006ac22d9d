"""Emit: the answer with markers normalised and filled in, evidence quotes, the result.

- ``_edits``: text edits with offset mapping (markers normalised, dropped, inserted before the
  final punctuation, never inside code, a URL or a link target).
- ``_evidence``: the sentences of a source that carry a claim's support.
- ``_assemble``: the :class:`AttributionResult` (claims, markers, citations, summary).
"""

from __future__ import annotations

from attribution.emit._assemble import assemble_result, summarize
from attribution.emit._edits import (
    Edit,
    EditedText,
    answer_placement,
    apply_edits,
    footnote_definitions,
    held_markers,
    insertion_edit,
    kept_numbers,
    listed_sources_edit,
    marker_edits,
    marker_text,
    restyled_definitions,
)
from attribution.emit._evidence import best_sentences, clear_quote_cache, evidence_quotes

__all__ = [
    "Edit",
    "EditedText",
    "answer_placement",
    "apply_edits",
    "assemble_result",
    "best_sentences",
    "clear_quote_cache",
    "evidence_quotes",
    "footnote_definitions",
    "held_markers",
    "insertion_edit",
    "kept_numbers",
    "listed_sources_edit",
    "marker_edits",
    "marker_text",
    "restyled_definitions",
    "summarize",
]
