"""Matching: candidate passages for each claim, by embedding similarity fused with lexical scores.

Flow for one request:

1. a lexical index (BM25 and IDF-weighted coverage) over every passage;
2. the passages to embed: all of them with a static embedder (the default: hundreds of
   passages in milliseconds) or when there are at most ``embed_all_below``; else, with a
   transformer (about 6,000 tokens/s on two cores), the ``prefilter_per_claim`` best by BM25
   for each claim, plus the best passages of every source a claim cites;
3. embeddings from a content-hash cache, the rest computed in one batch;
4. a FAISS inner-product index over them (exact, or HNSW above ``exact_index_max``), searched
   per claim; the cosine hits and the BM25 hits are fused as
   ``(1 - lexical_weight) * cosine + lexical_weight * idf_coverage`` and the ``top_k`` kept;
5. the relevance gates: candidates under ``min_passage_similarity`` are dropped, and a claim
   whose top candidates average under ``min_top_mean`` has no relevant source.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np

from attribution._config import MatchConfig
from attribution.match._lexical import LexicalIndex
from attribution.match._passages import Passage
from attribution.text import content_terms

if TYPE_CHECKING:
    from attribution.runtime import Embedder, Vectors

__all__ = ["Candidate", "EmbeddingCache", "MatchResult", "Matcher"]

STATIC_EMBED_ALL_BELOW = 1024
"""A static embedder embeds every passage of a request of at most this many (MatchConfig)."""


class Candidate(msgspec.Struct, frozen=True, kw_only=True):
    """A passage that may support a claim, with its relevance scores."""

    passage: int
    """Index of the passage in the request's passage list."""
    relevance: float
    """Fused score: (1 - w) * cosine + w * lexical."""
    cosine: float
    """Embedding cosine between claim and passage."""
    lexical: float
    """IDF-weighted share of the claim's content terms found in the passage."""


class EmbeddingCache:
    """Embeddings by SHA-256 of the text, least recently used evicted first. Thread-safe."""

    def __init__(self, max_items: int = 50_000) -> None:
        self.max_items = max_items
        self._items: OrderedDict[bytes, Vectors] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(text: str) -> bytes:
        return hashlib.sha256(text.encode("utf-8")).digest()

    def get_many(self, texts: Sequence[str]) -> list[Vectors | None]:
        with self._lock:
            out: list[Vectors | None] = []
            for text in texts:
                k = self.key(text)
                vec = self._items.get(k)
                if vec is not None:
                    self._items.move_to_end(k)
                    self.hits += 1
                else:
                    self.misses += 1
                out.append(vec)
            return out

    def put_many(self, texts: Sequence[str], vectors: Vectors) -> None:
        with self._lock:
            for text, vec in zip(texts, vectors, strict=True):
                self._items[self.key(text)] = vec
            while len(self._items) > self.max_items:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def clear(self) -> None:
        """Forget every embedding (and the hit and miss counts)."""
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0


class MatchResult:
    """Candidates per claim, and the embeddings and lexical index to score more pairs with."""

    def __init__(
        self,
        *,
        passages: Sequence[Passage],
        lexical: LexicalIndex,
        claim_terms: list[list[str]],
        claim_vectors: Vectors,
        passage_vectors: dict[int, Vectors],
        candidates: list[list[Candidate]],
        no_relevant_source: list[bool],
        lexical_weight: float,
    ) -> None:
        self.passages = passages
        self.lexical = lexical
        self.claim_terms = claim_terms
        self.claim_vectors = claim_vectors
        self.passage_vectors = passage_vectors
        self.candidates = candidates
        self.no_relevant_source = no_relevant_source
        self.lexical_weight = lexical_weight

    def candidate(self, claim: int, passage: int) -> Candidate | None:
        """Scores of any embedded passage for a claim (None if it was not embedded)."""
        vec = self.passage_vectors.get(passage)
        if vec is None:
            return None
        cosine = float(np.dot(self.claim_vectors[claim], vec))
        lexical = self.lexical.coverage(self.claim_terms[claim], self.lexical.term_sets[passage])
        w = self.lexical_weight
        return Candidate(
            passage=passage,
            relevance=(1.0 - w) * cosine + w * lexical,
            cosine=cosine,
            lexical=lexical,
        )

    def may_join(self, claim: int, a: int, b: int) -> bool:
        """Whether the claim may be scored on passages ``a`` and ``b`` joined: two passages of
        one source may (a page's "It ..." and what it refers to); two of two sources only when
        each holds a word of the claim (another source without one holds no part of it: joined,
        it would only be cited beside the one that does)."""
        if self.passages[a].source_index == self.passages[b].source_index:
            return True
        terms = set(self.claim_terms[claim])
        return all(terms & self.lexical.term_sets[p] for p in (a, b))

    def best_in_source(self, claim: int, source_index: int, limit: int = 3) -> list[Candidate]:
        """The most relevant embedded passages of one source for a claim, best first."""
        found = [
            c
            for p in self.passage_vectors
            if self.passages[p].source_index == source_index
            and (c := self.candidate(claim, p)) is not None
        ]
        found.sort(key=lambda c: -c.relevance)
        return found[:limit]


def _faiss() -> Any:
    try:
        import faiss
    except ImportError as exc:  # pragma: no cover - faiss-cpu is a dependency
        from attribution._errors import MissingDependencyError

        raise MissingDependencyError("faiss-cpu", purpose="passage search") from exc
    return faiss


class Matcher:
    """Finds candidate passages for claims (see the module docstring for the flow)."""

    def __init__(
        self,
        embedder: Embedder,
        config: MatchConfig | None = None,
        *,
        cache: EmbeddingCache | None = None,
    ) -> None:
        self.embedder = embedder
        self.config = config or MatchConfig()
        self.cache = cache if cache is not None else EmbeddingCache()

    def warm_up(self) -> None:
        """Load the embedder and the search library now (FAISS's import takes a moment and
        logs), rather than in the first request."""
        self.embed(["warm up"])
        _faiss()

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embeddings of ``texts``, from the cache where possible."""
        dim = int(self.embedder.dimension)
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        cached = self.cache.get_many(texts)
        todo = sorted({t for t, v in zip(texts, cached, strict=True) if v is None})
        if todo:
            computed = np.asarray(self.embedder.encode(todo), dtype=np.float32)
            self.cache.put_many(todo, computed)
            # from what was computed, not the cache: more new texts than the cache holds
            # pushed the first out, and the result lost their rows
            fresh = dict(zip(todo, computed, strict=True))
            cached = [v if v is not None else fresh[t] for t, v in zip(texts, cached, strict=True)]
        return np.stack([v for v in cached if v is not None]).astype(np.float32, copy=False)

    def _to_embed(
        self,
        passages: Sequence[Passage],
        lexical: LexicalIndex,
        claim_terms: list[list[str]],
        cited: Mapping[int, Iterable[int]],
    ) -> list[int]:
        static = getattr(self.embedder, "static", False)
        limit = self.config.embed_all_below
        if limit is None:
            limit = STATIC_EMBED_ALL_BELOW if static else 16
        if len(passages) <= limit:
            return list(range(len(passages)))
        per_claim = (
            self.config.static_prefilter_per_claim if static else self.config.prefilter_per_claim
        )
        chosen: set[int] = set()
        by_source: dict[int, list[int]] = {}
        for p in passages:
            by_source.setdefault(p.source_index, []).append(p.index)
        ranked_for: dict[tuple[str, ...], dict[int, float]] = {}
        cited_done: set[tuple[tuple[str, ...], int]] = set()
        for i, terms in enumerate(claim_terms):
            key = tuple(terms)
            scores = ranked_for.get(key)
            if scores is None:  # a claim's terms that came before rank the passages alike
                scores = ranked_for[key] = lexical.bm25(terms)
                chosen.update(sorted(scores, key=lambda j: -scores[j])[:per_claim])
            for source_index in cited.get(i, ()):
                if (key, source_index) in cited_done:  # the same terms citing the same source
                    continue
                cited_done.add((key, source_index))
                in_source = by_source.get(source_index, [])
                ranked = sorted(in_source, key=lambda j: -scores.get(j, 0.0))
                chosen.update(ranked[:3])
        return sorted(chosen)

    def match(
        self,
        claims: Sequence[str],
        passages: Sequence[Passage],
        *,
        cited: Mapping[int, Iterable[int]] | None = None,
        lexical: LexicalIndex | None = None,
    ) -> MatchResult:
        """Candidate passages for every claim.

        Args:
            claims: claim texts (markers removed).
            passages: every passage of the request.
            cited: for a claim index, the source indices its markers cite; their best passages
                are embedded too, so a cited source can be checked even when it ranks low.
            lexical: the passages' lexical index when the caller has it already (a streamed
                answer matches its claims a few at a time against the same passages).
        """
        cfg = self.config
        if lexical is None:
            lexical = LexicalIndex([p.text for p in passages])
        claim_terms = [content_terms(c) for c in claims]
        lexical.gather({t for terms in claim_terms for t in terms})
        embed_ids = self._to_embed(passages, lexical, claim_terms, cited or {})
        claim_vectors = self.embed(list(claims))
        vectors = self.embed([passages[i].text for i in embed_ids])
        passage_vectors = {p: vectors[k] for k, p in enumerate(embed_ids)}

        hits: list[set[int]] = [set() for _ in claims]
        if embed_ids and len(claims):
            faiss = _faiss()
            dim = vectors.shape[1]
            if len(embed_ids) > cfg.exact_index_max:
                index = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
            else:
                index = faiss.IndexFlatIP(dim)
            index.add(np.ascontiguousarray(vectors))
            depth = min(len(embed_ids), max(4 * cfg.top_k, 32))
            _, found = index.search(np.ascontiguousarray(claim_vectors), depth)
            for i, row in enumerate(found):
                hits[i].update(embed_ids[k] for k in row if k >= 0)
        result = MatchResult(
            passages=passages,
            lexical=lexical,
            claim_terms=claim_terms,
            claim_vectors=claim_vectors,
            passage_vectors=passage_vectors,
            candidates=[],
            no_relevant_source=[],
            lexical_weight=cfg.lexical_weight,
        )
        first: dict[str, int] = {}
        for i, terms in enumerate(claim_terms):
            same = first.setdefault(claims[i], i)
            if same != i:  # the same claim again (its vector and terms too): the same candidates
                result.candidates.append(list(result.candidates[same]))
                result.no_relevant_source.append(result.no_relevant_source[same])
                continue
            scores = lexical.bm25(terms)
            lexical_hits = [
                j
                for j in sorted(scores, key=lambda j: -scores[j])[: 2 * cfg.top_k]
                if j in passage_vectors
            ]
            pool = [result.candidate(i, p) for p in hits[i] | set(lexical_hits)]
            ranked = sorted(
                (c for c in pool if c is not None), key=lambda c: (-c.relevance, c.passage)
            )
            kept = [c for c in ranked[: cfg.top_k] if c.relevance >= cfg.min_passage_similarity]
            head = ranked[: min(3, cfg.top_k)]
            mean = sum(c.relevance for c in head) / len(head) if head else -1.0
            no_source = not kept or mean < cfg.min_top_mean
            result.candidates.append([] if no_source else kept)
            result.no_relevant_source.append(no_source)
        return result
