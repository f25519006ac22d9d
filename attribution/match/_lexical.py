"""Lexical scoring over a request's passages: BM25 for ranking, IDF-weighted term coverage.

BM25 ranks passages for the pre-filter (it weighs term frequency and passage length); the fused
relevance score and the verifier's features use IDF-weighted coverage instead: the share of a
claim's distinct content terms, weighted by rarity, that a passage contains. It lies in [0, 1]
whatever the passage length, so it can be mixed with a cosine.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from functools import lru_cache

from attribution.text import content_terms

__all__ = ["LexicalIndex", "clear_lexical_cache", "passage_terms"]

PASSAGE_TERMS_CACHE = 16_384
"""Passages whose terms are kept between requests (about 4 MB per 1,000 passages): a later turn
over the same sources, or a streamed answer, does not tokenise them again."""


@lru_cache(maxsize=PASSAGE_TERMS_CACHE)
def passage_terms(text: str) -> tuple[str, ...]:
    """:func:`attribution.text.content_terms` of a passage, cached by its text."""
    return tuple(content_terms(text))


PART_CACHE_PASSAGES = 16_384
"""Passages whose group's term statistics (a source's passages, as the pipeline builds the
index) are kept between requests, oldest group forgotten first; a group with more passages is
not kept. About 2 MB per 1,000 passages: a later request over the same sources builds its index
in a few milliseconds instead of reading every passage's terms again. Groups are found by a
digest of their texts, which are not held."""


class _Part:
    """Term statistics of one group of passages. A term's postings (the passages that hold
    it, and how often) are gathered when a query first asks for it, and kept. A request asks
    for its claims' terms only, a few hundred of a vocabulary of thousands: counting every term
    of every passage up front cost about 100 ms for 100 sources of 2,000 words on two cores
    (half of it the garbage collector walking the counts), one pass over the passages' term
    sets for a request's claims' terms about 17 ms."""

    __slots__ = ("_postings", "lengths", "term_sets", "terms")

    def __init__(self, terms: list[tuple[str, ...]]) -> None:
        self.terms = terms
        self.term_sets = [frozenset(t) for t in terms]
        self.lengths = [len(t) for t in terms]
        self._postings: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def postings(self, term: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The passages (indices in the group) that hold ``term``, and its count in each."""
        found = self._postings.get(term)
        if found is None:
            self.gather((term,))
            found = self._postings[term]
        return found

    def gather(self, terms: Iterable[str]) -> None:
        """Gather the postings of ``terms`` not gathered yet, in one pass over the passages."""
        todo = {t for t in terms if t not in self._postings}
        if not todo:
            return
        ids: dict[str, list[int]] = {t: [] for t in todo}
        for i, present in enumerate(self.term_sets):
            for term in todo & present:
                ids[term].append(i)
        for term, found in ids.items():
            # the same value whichever thread stores it
            self._postings[term] = (tuple(found), tuple([self.terms[i].count(term) for i in found]))


def _count(texts: Sequence[str]) -> _Part:
    """The term statistics of ``texts``."""
    return _Part([passage_terms(t) for t in texts])


_parts: OrderedDict[bytes, _Part] = OrderedDict()
_parts_passages = 0
_parts_lock = threading.Lock()


def clear_lexical_cache() -> None:
    """Forget every cached passage's terms and every group's term statistics."""
    global _parts_passages
    passage_terms.cache_clear()
    with _parts_lock:
        _parts.clear()
        _parts_passages = 0


def _part(texts: Sequence[str]) -> _Part:
    """The term statistics of ``texts``, from the cache or counted (and kept)."""
    global _parts_passages
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    key = digest.digest()
    with _parts_lock:
        found = _parts.get(key)
        if found is not None:
            _parts.move_to_end(key)
            return found
    part = _count(texts)
    if len(texts) <= PART_CACHE_PASSAGES:
        with _parts_lock:
            if key not in _parts:
                _parts[key] = part
                _parts_passages += len(texts)
            while _parts_passages > PART_CACHE_PASSAGES:
                _, old = _parts.popitem(last=False)
                _parts_passages -= len(old.terms)
    return part


class LexicalIndex:
    """Document frequencies and an inverted index over a list of texts.

    Built from groups of consecutive texts (``groups``: their sizes; the pipeline passes one
    group per source), each group's statistics cached by its texts across requests; a term's
    document frequency and postings are gathered from the groups when a query first asks."""

    def __init__(
        self,
        texts: Sequence[str],
        *,
        groups: Sequence[int] | None = None,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> None:
        """
        Args:
            texts: the passages' texts.
            groups: sizes of consecutive groups of ``texts`` (summing to their number); None:
                one group.
            k1, b: BM25's parameters.

        Raises:
            ValueError: the group sizes do not add up to the number of texts.
        """
        sizes = [len(texts)] if groups is None else list(groups)
        if sum(sizes) != len(texts) or any(n < 0 for n in sizes):
            raise ValueError(f"group sizes {sizes} do not cover {len(texts)} texts")
        self.k1 = k1
        self.b = b
        self._parts: list[tuple[int, _Part]] = []
        self.terms: list[tuple[str, ...]] = []
        self.term_sets: list[frozenset[str]] = []
        self._lengths: list[int] = []
        at = 0
        for n in sizes:
            if n == 0:
                continue
            part = _part(texts[at : at + n])
            self._parts.append((at, part))
            self.terms.extend(part.terms)
            self.term_sets.extend(part.term_sets)
            self._lengths.extend(part.lengths)
            at += n
        self.size = len(texts)
        self._avg_length = (sum(self._lengths) / self.size) if self.size else 1.0
        self._found: dict[str, tuple[list[int], list[int]]] = {}

    def gather(self, terms: Iterable[str]) -> None:
        """Find the texts that hold each of ``terms`` in one pass over them: what a query
        does for its own terms, done for many queries' terms at once (a request's claims)."""
        todo = {t for t in terms if t not in self._found}
        for _, part in self._parts:
            part.gather(todo)

    def _postings(self, term: str) -> tuple[list[int], list[int]]:
        """The texts that hold ``term`` (indices over all groups), and its count in each."""
        found = self._found.get(term)
        if found is None:
            ids: list[int] = []
            counts: list[int] = []
            for at, part in self._parts:
                local, tf = part.postings(term)
                if local:
                    ids.extend([at + i for i in local] if at else local)
                    counts.extend(tf)
            found = (ids, counts)
            self._found[term] = found
        return found

    def _document_frequency(self, term: str) -> int:
        return len(self._postings(term)[0])

    def idf(self, term: str) -> float:
        """Smoothed inverse document frequency; a term seen nowhere gets the highest value."""
        df = self._document_frequency(term)
        return math.log(1.0 + (self.size - df + 0.5) / (df + 0.5))

    def bm25(self, query: Iterable[str]) -> dict[int, float]:
        """BM25 score of every text that shares a term with ``query`` (stemmed content terms)."""
        scores: dict[int, float] = {}
        avg = self._avg_length or 1.0
        for term in set(query):
            postings, counts = self._postings(term)
            if not postings:
                continue
            idf = self.idf(term)
            for i, tf in zip(postings, counts, strict=True):
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
