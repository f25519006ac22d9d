"""Segmentation: cut an answer into sentences, list items, cells and headings, and tell which
are claims.

Markdown first (:mod:`._blocks`), then spaCy's rule-based sentencizer inside each prose block
(:mod:`._sentences`, the only module that imports spaCy, and only when a pipeline is built),
then the claim rules (:mod:`._rules`). Offsets are code points into the answer, half-open, and
``answer[s.start:s.end] == s.text`` for every segment.
"""

from __future__ import annotations

from attribution.segment._blocks import ENTRY_LABEL, SOURCES_WORDS, BlockKind, key_line_labels
from attribution.segment._segmenter import Segment, Segmentation, Segmenter
from attribution.segment._stream import SegmentStream

__all__ = [
    "ENTRY_LABEL",
    "SOURCES_WORDS",
    "BlockKind",
    "Segment",
    "SegmentStream",
    "Segmentation",
    "Segmenter",
    "key_line_labels",
]
