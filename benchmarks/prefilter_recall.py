"""Which passages a transformer embedder must embed: candidate recall of the matcher's
pre-filter when a claim is checked against many sources at once (WiCE, 20 articles a claim).

Run: ``.venv/bin/python -m benchmarks.prefilter_recall [--sources 20] [--static NAME]
[--split validation]``.

Above ``MatchConfig.embed_all_below`` passages the matcher embeds, with the MiniLM transformer,
only the ``prefilter_per_claim`` best passages per claim by BM25, and keeps the ``top_k`` best
of those by its fused relevance (``(1 - w) * cosine + w * coverage``). This measures what that
pre-filter loses, and whether a static embedding model (fused with BM25 by z-scores) chooses
better, against embedding every passage:

- each WiCE claim with a gold sentence set is checked against its own article and the next
  ``--sources - 1`` distinct articles of the split (distractors on other topics and on the same
  article family), every article cut into the engine's passages;
- a passage is relevant when it overlaps a gold sentence of the claim's article;
- ``recall@k``: the share of claims with a relevant passage among the first k candidates the
  matcher would keep (k <= top_k), and the mean number of passages MiniLM embeds per claim.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from attribution import Attributor, CitationSource, MatchConfig, ModelConfig
from attribution.match import LexicalIndex, make_passages
from attribution.runtime import load_embedder
from attribution.text import content_terms
from benchmarks.candidate_recall import gold_spans, wice_claims
from benchmarks.datasets import default_data_root

KS = (1, 2, 3, 5)
PREFILTERS = (2, 3, 4, 5, 8)
STATIC_PREFILTERS = (16, 32, 64)

Scores = NDArray[np.float64]


def _z(x: Scores) -> Scores:
    return (x - x.mean()) / (x.std() + 1e-9)


def top(scores: Scores, among: Sequence[int], k: int) -> list[int]:
    """The ``k`` best of ``among`` by ``scores`` (ties: the earlier passage)."""
    return sorted(among, key=lambda i: (-scores[i], i))[:k]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.prefilter_recall")
    parser.add_argument("--sources", type=int, default=20, help="articles per claim (20)")
    parser.add_argument("--static", default="minilm-static-256", help="the static embedder")
    parser.add_argument("--data-root", type=Path, default=None)
    parser.add_argument("--split", default="validation", choices=["validation", "train", "all"])
    args = parser.parse_args(argv)
    records = wice_claims(args.data_root or default_data_root(), args.split)
    config = MatchConfig()
    articles: dict[str, int] = {}
    for record in records:
        articles.setdefault(" ".join(record.evidence), len(articles))
    texts = list(articles)
    passages = [
        make_passages([CitationSource(id=str(a), type="web", full_content=t)], config)
        for a, t in enumerate(texts)
    ]
    every = [p.text for ps in passages for p in ps]
    print(
        f"WiCE {args.split}: {len(records)} claims, {len(texts)} articles, {len(every)} passages; "
        f"{min(args.sources, len(texts))} articles per claim",
        file=sys.stderr,
    )
    attributor = Attributor()
    minilm = attributor.matcher
    static = load_embedder(ModelConfig(embedder=args.static))
    vectors_minilm = dict(zip(every, minilm.embed(every), strict=True))
    vectors_static = dict(zip(every, static.encode(every), strict=True))
    w = config.lexical_weight

    hits: dict[str, dict[int, int]] = {}
    embedded: dict[str, int] = {}

    def record_hits(name: str, order: Sequence[int], relevant: Sequence[bool], cost: int) -> None:
        found = hits.setdefault(name, dict.fromkeys(KS, 0))
        for k in KS:
            found[k] += any(relevant[i] for i in order[:k])
        embedded[name] = embedded.get(name, 0) + cost

    for record in records:
        own = articles[" ".join(record.evidence)]
        pool = [(own + d) % len(texts) for d in range(min(args.sources, len(texts)))]
        pooled = [p for a in pool for p in passages[a]]
        spans = gold_spans(record)
        relevant = [
            k < len(passages[own]) and any(p.start < b and a < p.end for a, b in spans)
            for k, p in enumerate(pooled)
        ]
        pool_texts = [p.text for p in pooled]
        index = LexicalIndex(pool_texts)
        terms = content_terms(record.claim)
        bm25_map = index.bm25(terms)
        bm25 = np.array([bm25_map.get(i, 0.0) for i in range(len(pooled))])
        coverage = np.array([index.coverage(terms, s) for s in index.term_sets])
        claim_minilm = minilm.embed([record.claim])[0]
        claim_static = static.encode([record.claim])[0]
        cos_minilm = np.array([float(vectors_minilm[t] @ claim_minilm) for t in pool_texts])
        cos_static = np.array([float(vectors_static[t] @ claim_static) for t in pool_texts])
        fused = (1 - w) * cos_minilm + w * coverage

        everything = range(len(pooled))
        record_hits("MiniLM, every passage", top(fused, everything, 5), relevant, len(pooled))
        shortlist = _z(cos_static) + _z(bm25)
        for n in PREFILTERS:
            chosen = top(bm25, everything, n)
            record_hits(f"BM25 top {n} → MiniLM", top(fused, chosen, 5), relevant, len(chosen))
            chosen = top(shortlist, everything, n)
            record_hits(
                f"static + BM25 top {n} → MiniLM", top(fused, chosen, 5), relevant, len(chosen)
            )
        static_fused = (1 - w) * cos_static + w * coverage
        record_hits("static + BM25, no MiniLM", top(shortlist, everything, 5), relevant, 0)
        record_hits("static fused, no MiniLM", top(static_fused, everything, 5), relevant, 0)
        for n in STATIC_PREFILTERS:  # the static matcher of a large request
            chosen = top(bm25, everything, n)
            record_hits(
                f"BM25 top {n} → static fused, no MiniLM", top(static_fused, chosen, 5), relevant, 0
            )

    n = max(len(records), 1)
    print("| shortlist | " + " | ".join(f"recall@{k}" for k in KS) + " | MiniLM passes / claim |")
    print("| --- | " + " | ".join("---:" for _ in KS) + " | ---: |")
    for name, found in hits.items():
        cells = " | ".join(f"{found[k] / n:.3f}" for k in KS)
        print(f"| {name} | {cells} | {embedded[name] / n:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
