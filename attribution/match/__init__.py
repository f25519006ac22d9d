"""Match: which passages of which sources may support each claim.

- ``_passages``: sources cut into windows of sentences, with offsets into the source text.
- ``_lexical``: BM25 and IDF-weighted coverage over a request's passages (each passage's terms
  cached by its text, across requests).
- ``_matcher``: the BM25 pre-filter, the embedding cache, FAISS search fused with the lexical
  score, and the relevance gates.
"""

from __future__ import annotations

from attribution.match._lexical import LexicalIndex, clear_lexical_cache, passage_terms
from attribution.match._matcher import Candidate, EmbeddingCache, Matcher, MatchResult
from attribution.match._passages import (
    Passage,
    SourceField,
    clear_sentence_cache,
    cut_long,
    make_passages,
    source_text,
)

__all__ = [
    "Candidate",
    "EmbeddingCache",
    "LexicalIndex",
    "MatchResult",
    "Matcher",
    "Passage",
    "SourceField",
    "clear_lexical_cache",
    "clear_sentence_cache",
    "cut_long",
    "make_passages",
    "passage_terms",
    "source_text",
]
