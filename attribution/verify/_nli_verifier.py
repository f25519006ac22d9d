"""Any ONNX sequence-classification cross-encoder as a verifier.

An NLI model with entailment / neutral / contradiction, or a binary supported / unsupported one:
entailment is support, contradiction (when the model has it) is contradiction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attribution.verify._protocol import Pair, VerifierOutput, with_conflicts
from attribution.verify._windows import judge_pairs

if TYPE_CHECKING:
    from attribution.match import LexicalIndex
    from attribution.runtime import OnnxCrossEncoder

__all__ = ["NliVerifier"]


class NliVerifier:
    """An ONNX cross-encoder as a verifier (entailment → support, contradiction if it has one)."""

    def __init__(self, model: OnnxCrossEncoder, *, threshold: float | None = None) -> None:
        """Args:
        model: the cross-encoder.
        threshold: the support threshold; None: the model's calibrated one from the manifest
            (``ModelSpec.threshold``), else 0.5.
        """
        self.model = model
        if threshold is None:
            threshold = model.support_threshold
        self._threshold = threshold

    @property
    def name(self) -> str:
        return str(self.model.spec.name)

    @property
    def threshold(self) -> float:
        return self._threshold

    def clear_cache(self) -> None:
        self.model.clear_cache()

    def score(
        self, pairs: Sequence[Pair], *, lexical: LexicalIndex | None = None
    ) -> VerifierOutput:
        if not pairs:
            return VerifierOutput(support=[])
        probs = judge_pairs(self.model, [(p.passage, p.claim) for p in pairs])
        contra_index = self.model.contradiction_index
        support, contradiction = with_conflicts(
            probs[:, self.model.support_index],
            probs[:, contra_index] if contra_index is not None else None,
            pairs,
        )
        return VerifierOutput(support=[float(v) for v in support], contradiction=contradiction)
