"""The feature verifier: a calibrated logistic model over cheap support signals.

The signals are embedding cosine, IDF-weighted and plain term coverage, bigram coverage, the
longest verbatim run, and numbers, names and negation that disagree; the weights are fitted on
the development data by ``benchmarks/fit_feature_verifier.py``. When the weights name a
cross-encoder (``cross_encoder``), its P(entailment) and P(contradiction) are two more features:
the combined verifier, today's default.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import numpy as np
from numpy.typing import NDArray

from attribution._errors import InputError, ModelLoadError
from attribution.match import LexicalIndex
from attribution.verify._features import FEATURE_NAMES, NLI_FEATURE_NAMES, pair_features
from attribution.verify._protocol import Pair, VerifierOutput, with_conflicts
from attribution.verify._windows import judge_pairs

if TYPE_CHECKING:
    from attribution.runtime import Embedder, OnnxCrossEncoder

__all__ = ["FeatureVerifier", "FeatureWeights", "judged"]


class FeatureWeights(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A fitted logistic model over :data:`FEATURE_NAMES` (the file the fit script writes)."""

    features: tuple[str, ...]
    """Feature names, in the order of ``weights``."""
    weights: tuple[float, ...]
    """One weight per feature."""
    bias: float
    """Intercept."""
    threshold: float
    """Calibrated support threshold (maximises balanced accuracy on the fitting data)."""
    version: int = 1
    """File format version."""
    fitted_on: dict[str, int] = msgspec.field(default_factory=dict)
    """Examples per dataset used for fitting."""
    metrics: dict[str, float] = msgspec.field(default_factory=dict)
    """Cross-validated figures reported by the fit script."""
    notes: str = ""
    """How the weights were made."""
    cross_encoder: str | None = None
    """Manifest name of the cross-encoder whose scores are the features
    :data:`NLI_FEATURE_NAMES` (present exactly when this is set)."""
    nli_floor: float | None = None
    """The judge's "no": a pair whose P(entailment) is below this scores at most its
    P(entailment), whatever the other signals say (None: off; needs ``cross_encoder``)."""
    nli_veto: float | None = None
    """The judge's "contradicts": a pair whose P(contradiction) is at least this and above its
    P(entailment) scores at most its P(entailment) (None: off; needs ``cross_encoder``)."""
    embedder: str | None = None
    """Manifest name of the embedder whose cosines (and candidates) the weights were fitted
    with; another embedder's cosines are on another scale (None: not recorded, the
    transformer ``all-minilm-l6-v2-int8`` of older files)."""

    @classmethod
    def load(cls, path: Path) -> FeatureWeights:
        """Read and check a weights file.

        Raises:
            ModelLoadError: the file is missing, malformed, or names other features.
        """
        try:
            weights = msgspec.json.decode(path.read_bytes(), type=cls)
        except FileNotFoundError as exc:
            raise ModelLoadError(
                f"feature-verifier weights {path} not found; run `make fit-verifier` to fit "
                "them on the development data, or pass model.feature_weights"
            ) from exc
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise ModelLoadError(f"feature-verifier weights {path} are malformed: {exc}") from exc
        if (weights.nli_floor is not None or weights.nli_veto is not None) and not (
            weights.cross_encoder
        ):
            raise ModelLoadError(
                f"feature-verifier weights {path} set nli_floor or nli_veto without a "
                "cross_encoder to read them from"
            )
        for name in ("nli_floor", "nli_veto"):
            value = getattr(weights, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise ModelLoadError(
                    f"feature-verifier weights {path}: {name} = {value} is not a probability"
                )
        expected = weights.feature_names
        if tuple(weights.features) != expected or len(weights.weights) != len(expected):
            raise ModelLoadError(
                f"feature-verifier weights {path} are for features {list(weights.features)}, "
                f"but this version computes {list(expected)}; refit them"
            )
        return weights

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The features these weights apply to, in order."""
        return FEATURE_NAMES + (NLI_FEATURE_NAMES if self.cross_encoder else ())


def _sigmoid(x: NDArray[np.float64]) -> NDArray[np.float64]:
    out: NDArray[np.float64] = 1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0)))
    return out


class FeatureVerifier:
    """A calibrated logistic model over support signals (with a cross-encoder's, if combined)."""

    def __init__(
        self,
        weights: FeatureWeights,
        *,
        embedder: Embedder | None = None,
        cross_encoder: OnnxCrossEncoder | None = None,
    ) -> None:
        """
        Args:
            weights: the fitted weights.
            embedder: computes cosines for pairs that come without one.
            cross_encoder: the model the weights' ``cross_encoder`` names (required then).

        Raises:
            ModelLoadError: the weights do not match their features, or they need a
                cross-encoder and none is given.
        """
        if len(weights.weights) != len(weights.feature_names):
            raise ModelLoadError(
                f"feature weights have {len(weights.weights)} weights for "
                f"{len(weights.feature_names)} features {list(weights.feature_names)}"
            )
        if weights.cross_encoder and cross_encoder is None:
            raise ModelLoadError(
                f"these feature weights combine the cross-encoder {weights.cross_encoder!r}; "
                "build the FeatureVerifier with it (load_verifier does)"
            )
        self.weights = weights
        self._w = np.asarray(weights.weights, dtype=np.float64)
        self._embedder = embedder
        self.cross_encoder = cross_encoder if weights.cross_encoder else None

    @property
    def name(self) -> str:
        base = f"feature-verifier.v{self.weights.version}"
        return f"{base}+{self.weights.cross_encoder}" if self.weights.cross_encoder else base

    @property
    def threshold(self) -> float:
        return self.weights.threshold

    @property
    def judge_threshold(self) -> float | None:
        """The cross-encoder's own calibrated support threshold (its manifest ``threshold``,
        else 0.5); None without a cross-encoder."""
        return self.cross_encoder.support_threshold if self.cross_encoder is not None else None

    def features(
        self, pairs: Sequence[Pair], *, lexical: LexicalIndex | None = None
    ) -> NDArray[np.float64]:
        """The feature matrix of ``pairs`` (one row per pair)."""
        x = self.features_without_model(pairs, lexical=lexical)
        if self.cross_encoder is None:
            return x
        return np.hstack([x, self._nli(pairs)])

    def features_without_model(
        self, pairs: Sequence[Pair], *, lexical: LexicalIndex | None = None
    ) -> NDArray[np.float64]:
        """The cheap signals of ``pairs`` (:data:`FEATURE_NAMES`, one row per pair)."""
        if lexical is None:
            lexical = LexicalIndex(sorted({p.passage for p in pairs}))
        cosines = self._cosines(pairs)
        rows = [
            pair_features(p.claim, p.passage, cos, lexical)
            for p, cos in zip(pairs, cosines, strict=True)
        ]
        return np.asarray(rows, dtype=np.float64).reshape(len(pairs), len(FEATURE_NAMES))

    def _nli(self, pairs: Sequence[Pair]) -> NDArray[np.float64]:
        """P(entailment) and P(contradiction) per pair (0 where the model has no such label)."""
        model = self.cross_encoder
        assert model is not None
        probs = judge_pairs(model, [(p.passage, p.claim) for p in pairs]).astype(np.float64)
        support = probs[:, model.support_index]
        contra_index = model.contradiction_index
        contra = probs[:, contra_index] if contra_index is not None else np.zeros(len(pairs))
        return np.stack([support, contra], axis=1)

    def _cosines(self, pairs: Sequence[Pair]) -> list[float]:
        missing = [i for i, p in enumerate(pairs) if p.cosine is None]
        cosines = [p.cosine if p.cosine is not None else math.nan for p in pairs]
        if missing:
            if self._embedder is None:
                raise InputError(
                    "pairs without a cosine need an embedder; build the FeatureVerifier with one"
                )
            claims = self._embedder.encode([pairs[i].claim for i in missing])
            passages = self._embedder.encode([pairs[i].passage for i in missing])
            for k, i in enumerate(missing):
                cosines[i] = float(np.dot(claims[k], passages[k]))
        return cosines

    def clear_cache(self) -> None:
        if self.cross_encoder is not None:
            self.cross_encoder.clear_cache()

    def reach(
        self, pairs: Sequence[Pair], *, lexical: LexicalIndex | None = None
    ) -> tuple[list[float], list[float]] | None:
        """Before the cross-encoder runs: the most each pair can score whatever the model says
        (the cheap signals with the model's probabilities at their most favourable, 0 or 1;
        the judge's gates only lower a score), and what it scores with both probabilities at 0
        (below the first, ungated). None without a cross-encoder (the score is cheap then).
        """
        if self.cross_encoder is None or not pairs:
            return None
        n = len(FEATURE_NAMES)
        x = self.features_without_model(pairs, lexical=lexical)
        base = x @ self._w[:n] + self.weights.bias
        w_support, w_contra = self._w[n], self._w[n + 1]
        ceiling = _sigmoid(base + max(w_support, 0.0) + max(w_contra, 0.0))
        return [float(v) for v in ceiling], [float(v) for v in _sigmoid(base)]

    def score(
        self, pairs: Sequence[Pair], *, lexical: LexicalIndex | None = None
    ) -> VerifierOutput:
        if not pairs:
            return VerifierOutput(support=[])
        x = self.features(pairs, lexical=lexical)
        probs = _sigmoid(x @ self._w + self.weights.bias)
        contradiction = judge_support = None
        if self.cross_encoder is not None:
            support, contra = x[:, len(FEATURE_NAMES)], x[:, len(FEATURE_NAMES) + 1]
            probs = judged(probs, support, contra, self.weights.nli_floor, self.weights.nli_veto)
            contradiction = [float(v) for v in contra]
            judge_support = [float(v) for v in support]
        probs, contradiction = with_conflicts(probs, contradiction, pairs)
        return VerifierOutput(
            support=[float(p) for p in probs],
            contradiction=contradiction,
            judge_support=judge_support,
            judge_threshold=self.judge_threshold,
        )


def judged(
    scores: NDArray[np.float64],
    support: NDArray[np.float64],
    contradiction: NDArray[np.float64],
    floor: float | None,
    veto: float | None,
) -> NDArray[np.float64]:
    """The combined scores with the cross-encoder's word as the last: where its P(support) is
    below ``floor``, or its P(contradiction) reaches ``veto`` and exceeds its P(support), a pair
    scores at most the model's P(support). The cheap signals calibrate the model's "yes";
    they cannot overrule its "no" (FeatureWeights.nli_floor, nli_veto)."""
    overruled = np.zeros(len(scores), dtype=bool)
    if floor is not None:
        overruled |= support < floor
    if veto is not None:
        overruled |= (contradiction >= veto) & (contradiction > support)
    out: NDArray[np.float64] = np.where(overruled, np.minimum(scores, support), scores)
    return out
