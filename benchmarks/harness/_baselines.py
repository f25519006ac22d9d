"""The baselines every accuracy and speed table shows next to the engine.

- ``embedding-threshold@t``: what many RAG stacks do: embed each answer sentence and each source
  chunk with all-MiniLM-L6-v2 (whatever the engine's matcher uses) and cite every chunk with
  cosine >= t (t = 0.5, 0.6, 0.7). The
  chunks are the engine's own passages, so the comparison isolates the decision, not chunking.
- ``lexical-overlap``: cite a chunk when at least half of the claim's content words (stemmed,
  stopwords removed) appear in it.

A claim's baseline score is its best chunk's score; it is "supported" when that score reaches
the baseline's threshold, and the cited sources are those with a chunk at or above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attribution import CitationSource, MatchConfig
from attribution.match import Matcher, Passage, make_passages
from attribution.text import content_terms

__all__ = ["BASELINE_THRESHOLDS", "BaselineScores", "Baselines"]

BASELINE_THRESHOLDS = {
    "embedding-threshold@0.5": 0.5,
    "embedding-threshold@0.6": 0.6,
    "embedding-threshold@0.7": 0.7,
    "lexical-overlap": 0.5,
}


@dataclass(frozen=True)
class BaselineScores:
    """Per-chunk scores of one claim against one request's sources."""

    passages: list[Passage]
    cosine: list[float]
    lexical: list[float]

    def score(self, baseline: str) -> float:
        """The claim's score under a baseline: its best chunk's."""
        values = self.lexical if baseline == "lexical-overlap" else self.cosine
        return max(values, default=0.0)

    def cited(self, baseline: str) -> set[int]:
        """Source indices the baseline cites for the claim."""
        values = self.lexical if baseline == "lexical-overlap" else self.cosine
        threshold = BASELINE_THRESHOLDS[baseline]
        return {
            p.source_index for p, v in zip(self.passages, values, strict=True) if v >= threshold
        }


class Baselines:
    """Scores claims the baselines' way, with the matcher given (the harness passes the MiniLM
    transformer's: ``HarnessContext.baseline_matcher``)."""

    def __init__(self, matcher: Matcher, config: MatchConfig | None = None) -> None:
        self.matcher = matcher
        self.config = config or MatchConfig()

    def score_claims(
        self, claims: Sequence[str], sources: Sequence[CitationSource]
    ) -> list[BaselineScores]:
        """Every chunk's cosine and lexical coverage for each claim (all chunks are embedded)."""
        passages = make_passages(sources, self.config)
        claim_vectors = self.matcher.embed(list(claims))
        passage_vectors = self.matcher.embed([p.text for p in passages])
        cosines = claim_vectors @ passage_vectors.T if len(passages) else np.zeros((len(claims), 0))
        passage_terms = [frozenset(content_terms(p.text)) for p in passages]
        out = []
        for i, claim in enumerate(claims):
            terms = set(content_terms(claim))
            lexical = [len(terms & pt) / len(terms) if terms else 0.0 for pt in passage_terms]
            out.append(
                BaselineScores(
                    passages=passages,
                    cosine=[float(c) for c in cosines[i]],
                    lexical=lexical,
                )
            )
        return out
