"""Evidence localisation on WiCE: does the engine quote the sentences annotators marked?

Claims: WiCE's ``supported`` and ``partially_supported`` claims that have at least one non-empty
gold set of supporting sentences (``not_supported`` claims have none; for a partially supported
claim the gold sets support the part that is supported).

Each claim is checked with :meth:`Attributor.check_claims` against one source: the article's
sentences joined with a single space, so every WiCE sentence has known ``[start, end)`` offsets
in the source text. An evidence quote covers every sentence its offsets overlap.

The engine's ranking of sentences:

1. Its evidence quotes, by quote score (best first; equal scores keep the engine's order), each
   quote's sentences in article order.
2. Filled up, when it quotes fewer sentences than needed: the passages the engine's matcher
   embedded for the claim, most relevant first (the same ``Matcher.match`` call the engine
   makes, ranked by its fused cosine + lexical relevance, no relevance gate), each passage's
   sentences by lexical overlap with the claim (share of the claim's content terms in the
   sentence; ties in article order).

``engine-quotes-only`` scores the quotes alone (no filling), which shows what the quotes carry;
``engine-nearest`` puts, for a claim the engine calls unsupported, its nearest evidence
(``ClaimResult.nearest``: the sentences of the passage that came closest, which the engine
shows a reader) before the filling.

Baselines rank every non-blank sentence of the article by (a) ``embedding-cosine``: cosine of
the claim's and the sentence's embeddings (the MiniLM transformer, as every embedding
baseline); (b) ``lexical-overlap``:
share of the claim's content terms (stemmed, stopwords removed) in the sentence. Ties go to the
earlier sentence.

Metrics: ``recall@k`` is the share of claims whose top k sentences include a sentence of some
gold set; ``full_set@k`` the share whose top k contain every sentence of some gold set.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attribution import CitationSource
from attribution.match import make_passages
from attribution.text import content_terms
from benchmarks.datasets import WiCEClaim, load_wice

from ._context import HarnessContext, progress

__all__ = ["DEFINITION", "KS", "SentenceMap", "run"]

KS = (1, 3)
"""The cut-offs reported."""

INCLUDED_LABELS = ("supported", "partially_supported")
"""The WiCE labels whose claims are measured (the only ones with gold sets)."""

METHODS = (
    "engine",
    "engine-quotes-only",
    "engine-nearest",
    "embedding-cosine",
    "lexical-overlap",
)

DEFINITION = (
    "WiCE supported + partially_supported claims with a non-empty gold sentence set; the "
    "article is one source (sentences joined by one space) checked with check_claims. "
    "recall@k: share of claims whose top-k ranked sentences include a sentence of some gold "
    "set; full_set@k: share whose top-k contain a whole gold set. engine: sentences its "
    "evidence quotes overlap, by quote score, filled up to k from the passages its matcher "
    "embedded (most relevant first, each passage's sentences by lexical overlap); "
    "engine-quotes-only: quotes alone; engine-nearest: an unsupported claim's nearest "
    "evidence after the quotes, then the same filling; embedding-cosine / lexical-overlap: "
    "every sentence ranked by claim-sentence cosine / share of claim content terms (ties: "
    "earlier first)."
)


@dataclass(frozen=True)
class SentenceMap:
    """Article sentences joined with single spaces, and each sentence's offsets in the text."""

    text: str
    starts: list[int]
    ends: list[int]

    @classmethod
    def join(cls, sentences: Sequence[str]) -> SentenceMap:
        """Join ``sentences`` with one space; sentence i is ``text[starts[i]:ends[i]]``."""
        starts: list[int] = []
        ends: list[int] = []
        at = 0
        for sentence in sentences:
            starts.append(at)
            ends.append(at + len(sentence))
            at += len(sentence) + 1
        return cls(text=" ".join(sentences), starts=starts, ends=ends)

    def covered(self, start: int, end: int) -> list[int]:
        """Indices of the (non-empty) sentences that ``[start, end)`` overlaps, in order."""
        # Sentences are sorted and disjoint, so both ends can be found by bisection.
        first = bisect.bisect_right(self.ends, start)
        last = bisect.bisect_left(self.starts, end)
        return [
            i
            for i in range(first, last)
            if self.starts[i] < end and self.ends[i] > start and self.ends[i] > self.starts[i]
        ]


def _lexical_share(claim_terms: set[str], sentence: str) -> float:
    """Share of the claim's content terms that occur in ``sentence``."""
    if not claim_terms:
        return 0.0
    return len(claim_terms & set(content_terms(sentence))) / len(claim_terms)


def _extend(ranking: list[int], indices: Iterable[int]) -> None:
    """Append the indices not yet ranked, keeping their order."""
    seen = set(ranking)
    for i in indices:
        if i not in seen:
            ranking.append(i)
            seen.add(i)


def _by_score(scores: dict[int, float]) -> list[int]:
    """Indices best first; ties go to the earlier sentence."""
    return sorted(scores, key=lambda i: (-scores[i], i))


def _engine_rankings(
    ctx: HarnessContext, claim: str, sentences: SentenceMap, evidence: Sequence[str], need: int
) -> tuple[list[int], list[int], list[int]]:
    """The engine's ranking filled up to ``need`` sentences, its quotes' sentences alone, and
    its quotes then its nearest evidence, filled up the same way."""
    source = CitationSource(id="article", type="web", full_content=sentences.text)
    result = ctx.attributor.check_claims([claim], [source])[0]
    quotes = sorted(
        (q for q in result.evidence if q.field == "fullContent"), key=lambda q: -q.score
    )
    quoted: list[int] = []
    for quote in quotes:
        _extend(quoted, sentences.covered(quote.start, quote.end))
    # an unsupported claim's nearest evidence: what the engine shows a reader instead
    near = list(quoted)
    for quote in sorted(
        (q for q in result.nearest if q.field == "fullContent"), key=lambda q: -q.score
    ):
        _extend(near, sentences.covered(quote.start, quote.end))
    ranking = _filled(ctx, claim, sentences, evidence, quoted, need)
    if near == quoted:  # every claim but an unsupported one: the same ranking
        return ranking, quoted, ranking
    return ranking, quoted, _filled(ctx, claim, sentences, evidence, near, need)


def _filled(
    ctx: HarnessContext,
    claim: str,
    sentences: SentenceMap,
    evidence: Sequence[str],
    ranked: Sequence[int],
    need: int,
) -> list[int]:
    """``ranked`` filled up to ``need`` sentences from the passages the engine's matcher
    embedded for the claim."""
    source = CitationSource(id="article", type="web", full_content=sentences.text)
    ranking = list(ranked)
    if len(ranking) < need:
        # The engine's own candidates, ungated: the matcher embedded these passages for the
        # claim, so this is the engine's notion of where the evidence is, not a baseline's.
        passages = make_passages([source], ctx.attributor.config.match)
        match = ctx.attributor.matcher.match([claim], passages)
        terms = set(content_terms(claim))
        for candidate in match.best_in_source(0, 0, limit=len(match.passage_vectors)):
            passage = passages[candidate.passage]
            inside: list[int] = []
            for a, b in passage.sentences:
                _extend(inside, sentences.covered(a, b))
            shares = {i: _lexical_share(terms, evidence[i]) for i in inside}
            _extend(ranking, _by_score(shares))
            if len(ranking) >= need:
                break
    return ranking


def _baseline_rankings(
    ctx: HarnessContext, claim: str, evidence: Sequence[str]
) -> dict[str, list[int]]:
    """Every non-blank sentence ranked by embedding cosine and by lexical overlap."""
    indices = [i for i, s in enumerate(evidence) if s.strip()]
    vectors = ctx.baseline_matcher.embed([claim] + [evidence[i] for i in indices])
    cosines = vectors[1:] @ vectors[0] if len(indices) else np.zeros(0, dtype=np.float32)
    terms = set(content_terms(claim))
    return {
        "embedding-cosine": _by_score({i: float(c) for i, c in zip(indices, cosines, strict=True)}),
        "lexical-overlap": _by_score({i: _lexical_share(terms, evidence[i]) for i in indices}),
    }


def _hits(ranking: Sequence[int], gold: Sequence[frozenset[int]], k: int) -> tuple[bool, bool]:
    """Whether the top k include a gold sentence, and whether they contain a whole gold set."""
    top = set(ranking[:k])
    return any(top & g for g in gold), any(g <= top for g in gold)


def run(ctx: HarnessContext) -> dict[str, dict[str, Any]]:
    """Recall@1/@3 of evidence sentences on WiCE for the engine and the two baselines."""
    if "wice" not in ctx.datasets:
        return {}
    loaded = load_wice(ctx.data_root)
    if loaded.status == "missing":
        ctx.notes.append(f"wice: missing (looked for {loaded.path}); evidence localisation skipped")
        return {}
    skipped: dict[str, int] = {}

    def skip(reason: str) -> None:
        """Count a claim left out, by reason."""
        skipped[reason] = skipped.get(reason, 0) + 1

    claims: list[WiCEClaim] = []
    for record in loaded.records:
        if record.raw_label not in INCLUDED_LABELS:
            continue
        if not any(g for g in record.supporting_sentences):
            skip("no gold sentence set")
        elif not any(s.strip() for s in record.evidence):
            skip("no article text")
        else:
            claims.append(record)
    claims = ctx.take(claims)

    need = max(KS)
    hits: dict[str, dict[str, list[bool]]] = {
        m: {f"{name}@{k}": [] for name in ("recall", "full_set") for k in KS} for m in METHODS
    }
    by_label: dict[str, int] = {}
    quoted_counts: list[int] = []
    for record in progress(claims, "wice localisation"):
        gold = [frozenset(g) for g in record.supporting_sentences if g]
        sentences = SentenceMap.join(record.evidence)
        try:
            ranking, quoted, near = _engine_rankings(
                ctx, record.claim, sentences, record.evidence, need
            )
            rankings = {"engine": ranking, "engine-quotes-only": quoted, "engine-nearest": near}
            rankings.update(_baseline_rankings(ctx, record.claim, record.evidence))
        except Exception as exc:  # one odd row must not end a long run
            skip(f"error: {type(exc).__name__}")
            continue
        by_label[record.raw_label] = by_label.get(record.raw_label, 0) + 1
        quoted_counts.append(len(quoted))
        for method, ranked in rankings.items():
            for k in KS:
                any_hit, full_hit = _hits(ranked, gold, k)
                hits[method][f"recall@{k}"].append(any_hit)
                hits[method][f"full_set@{k}"].append(full_hit)

    n = len(quoted_counts)

    def share(values: list[bool]) -> float | None:
        """The share of True values, rounded; None when there is none."""
        return round(sum(values) / len(values), 4) if values else None

    report: dict[str, Any] = {
        "n": n,
        "n_by_label": dict(sorted(by_label.items())),
        "skipped": dict(sorted(skipped.items())),
        "engine_quoted_share": share([c > 0 for c in quoted_counts]),
        "engine_quoted_sentences_mean": round(float(np.mean(quoted_counts)), 4) if n else None,
        "methods": {m: {key: share(v) for key, v in hits[m].items()} for m in METHODS},
        "definition": DEFINITION,
    }
    return {"wice": {"evidence_localisation": report}}
