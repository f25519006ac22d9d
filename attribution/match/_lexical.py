"""Lexical scoring over a request's passages: BM25 for ranking, IDF-weighted term coverage.

BM25 ranks passages for the pre-filter (it weighs term frequency and passage length); the fused
relevance score and the verifier's features use IDF-weighted coverage instead: the share of a
claim's distinct content terms, weighted by rarity, that a passage contains. It lies in [0, 1]
whatever the passage length, so it can be mixed with a cosine.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from attribution.text import content_terms

__all__ = ["LexicalIndex", "passage_terms"]

PASSAGE_TERMS_CACHE = 16_384
"""Passages whose terms are kept between requests (about 4 MB per 1,000 passages): a later turn
over the same sources, or a streamed answer, does not tokenise them again."""


@lru_cache(maxsize=PASSAGE_TERMS_CACHE)
def passage_terms(text: str) -> tuple[str, ...]:
    """:func:`attribution.text.content_terms` of a passage, cached by its text."""
    return tuple(content_terms(text))


class LexicalIndex:
    """Document frequencies and an inverted index over a list of texts."""

    def __init__(self, texts: Sequence[str], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self.terms: list[tuple[str, ...]] = [passage_terms(t) for t in texts]
        self.term_sets: list[frozenset[str]] = [frozenset(t) for t in self.terms]
        self._tf: list[Counter[str]] = [Counter(t) for t in self.terms]
        self.size = len(texts)
        self._lengths = [len(t) for t in self.terms]
        self._avg_length = (sum(self._lengths) / self.size) if self.size else 1.0
        self._df: Counter[str] = Counter()
        self._postings: dict[str, list[int]] = {}
        for i, terms in enumerate(self.term_sets):
            self._df.update(terms)
            for term in terms:
                self._postings.setdefault(term, []).append(i)

    def idf(self, term: str) -> float:
        """Smoothed inverse document frequency; a term seen nowhere gets the highest value."""
        df = self._df.get(term, 0)
        return math.log(1.0 + (self.size - df + 0.5) / (df + 0.5))

    def bm25(self, query: Iterable[str]) -> dict[int, float]:
        """BM25 score of every text that shares a term with ``query`` (stemmed content terms)."""
        scores: dict[int, float] = {}
        avg = self._avg_length or 1.0
        for term in set(query):
            postings = self._postings.get(term)
            if not postings:
                continue
            idf = self.idf(term)
            for i in postings:
                tf = self._tf[i][term]
                norm = tf + self.k1 * (1.0 - self.b + self.b * self._lengths[i] / avg)
                scores[i] = scores.get(i, 0.0) + idf * tf * (self.k1 + 1.0) / norm
        return scores

    def coverage(self, query: Iterable[str], terms: frozenset[str]) -> float:
        """IDF-weighted share of the distinct ``query`` terms found in ``terms``, in [0, 1]."""
        distinct = set(query)
        if not distinct:
            return 0.0
        total = 0.0
        found = 0.0
        for term in distinct:
            weight = self.idf(term)
            total += weight
            if term in terms:
                found += weight
        return found / total if total else 0.0
