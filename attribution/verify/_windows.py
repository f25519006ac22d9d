"""The judge reads a passage, and where it does not read support, the passage's sentence that
holds most of the claim's words: the best window wins.

A small cross-encoder reads a whole passage at once, and a sentence beside the one that states
the claim can sway it: "SLS produces 8.8 million pounds of thrust at liftoff." supports the same
claim (0.89), and with "Artemis III is planned to return astronauts to the lunar surface." after
it, the model reads the pair as neutral (0.005), having learnt that a plan is no fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attribution.text import content_terms, source_sentence_spans
from attribution.verify._protocol import model_input

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from attribution.runtime import OnnxCrossEncoder

__all__ = ["READ_AGAIN_BELOW", "SENTENCE_SHARE", "judge_pairs"]

READ_AGAIN_BELOW = 0.5
"""A pair whose P(support) is below this is read again by its best sentence."""
SENTENCE_SHARE = 0.6
"""The least share of the claim's content terms that sentence holds (else it is not read)."""


def _best_sentence(passage: str, claim: str) -> str | None:
    """The passage's sentence holding the largest share of the claim's content terms, if the
    passage has more than one and that share reaches :data:`SENTENCE_SHARE`."""
    spans = source_sentence_spans(passage)
    if len(spans) < 2:
        return None
    terms = set(content_terms(claim))
    if not terms:
        return None
    best, share = None, 0.0
    for a, b in spans:
        sentence = passage[a:b]
        found = len(terms & set(content_terms(sentence))) / len(terms)
        if found >= SENTENCE_SHARE and found > share:
            best, share = sentence, found
    return best


def judge_pairs(model: OnnxCrossEncoder, pairs: Sequence[tuple[str, str]]) -> NDArray[np.float32]:
    """Label probabilities of (passage, claim) pairs as the judge reads them
    (:func:`model_input`). A pair read below :data:`READ_AGAIN_BELOW`, and not as a
    contradiction, is read again by its best sentence; that reading wins when it reads support
    (at least :data:`READ_AGAIN_BELOW`): a "no" a little less sure than the passage's is still a
    "no" (it would only slip past the judge's floor)."""
    inputs = [model_input(passage, claim) for passage, claim in pairs]
    probs = model.predict(inputs)
    support, contra = model.support_index, model.contradiction_index
    again: list[tuple[int, str]] = []
    best: dict[tuple[str, str], str | None] = {}  # a pair that comes again: its sentence again
    for i, (passage, claim) in enumerate(inputs):
        against = probs[i, contra] if contra is not None else 0.0
        # a passage read as contradicting the claim is not read again ("Apple denied the
        # rumour" after the rumour): only one it reads as saying nothing of it
        if probs[i, support] < READ_AGAIN_BELOW and against < probs[i, support]:
            if (passage, claim) not in best:
                best[passage, claim] = _best_sentence(passage, claim)
            sentence = best[passage, claim]
            if sentence is not None:
                again.append((i, sentence))
    if again:
        rows = model.predict([(sentence, inputs[i][1]) for i, sentence in again])
        for (i, _), row in zip(again, rows, strict=True):
            if row[support] >= READ_AGAIN_BELOW:  # a "yes" (not a "no" nudged over a gate)
                probs[i] = row
    return probs
