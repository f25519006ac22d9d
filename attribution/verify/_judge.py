"""The judge's view of single sentences: how much a sentence bears on a claim.

Evidence quotes (``attribution.emit``) are chosen by the IDF-weighted share of the claim's terms
a sentence holds; where the verifier has a cross-encoder, its reading of the best few
sentences breaks near-ties (docs/benchmarks.md, evidence quotes from the judge).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from attribution.verify._protocol import model_input

if TYPE_CHECKING:
    from attribution.verify._protocol import Verifier

__all__ = ["SentenceJudge", "sentence_judge"]

SentenceJudge = Callable[[str, Sequence[str]], list[float]]
"""(claim, sentences) → one score in [0, 1] per sentence: how much it bears on the claim."""


def sentence_judge(verifier: Verifier) -> SentenceJudge | None:
    """The verifier's cross-encoder as a :data:`SentenceJudge`, or None when it has none.

    A sentence's score is P(entailment) + P(contradiction), that is 1 - P(neutral): whether
    the sentence speaks to the claim at all, for or against (a supported claim's quote is
    wanted; a partly supported one's quote may hold the part that disagrees). A model without
    a neutral label gives its P(support).
    """
    model = getattr(verifier, "cross_encoder", None) or getattr(verifier, "model", None)
    if model is None or not hasattr(model, "predict"):
        return None
    labels = tuple(getattr(model, "labels", ()))
    neutral = labels.index("neutral") if "neutral" in labels else None
    support = int(model.support_index)

    def judge(claim: str, sentences: Sequence[str]) -> list[float]:
        if not sentences:
            return []
        probs = model.predict([model_input(s, claim) for s in sentences])
        if neutral is not None:
            return [float(1.0 - row[neutral]) for row in probs]
        return [float(row[support]) for row in probs]

    return judge
