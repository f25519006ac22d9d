r"""Verify: how strongly a passage supports (or contradicts) a claim.

- :class:`Verifier` (``_protocol``): scores (claim, passage) :class:`Pair`\ s.
- :class:`FeatureVerifier` (``_feature_verifier``): a logistic model over cheap signals
  (``_features``), optionally combined with a cross-encoder's two probabilities.
- :class:`NliVerifier` (``_nli_verifier``): a cross-encoder alone.
- :func:`load_verifier` (``_loading``): the verifier a :class:`ModelConfig` names.
"""

from __future__ import annotations

from attribution.verify._feature_verifier import FeatureVerifier, FeatureWeights
from attribution.verify._features import FEATURE_NAMES, NLI_FEATURE_NAMES, pair_features
from attribution.verify._loading import load_verifier
from attribution.verify._nli_verifier import NliVerifier
from attribution.verify._protocol import Pair, Verifier, VerifierOutput

__all__ = [
    "FEATURE_NAMES",
    "NLI_FEATURE_NAMES",
    "FeatureVerifier",
    "FeatureWeights",
    "NliVerifier",
    "Pair",
    "Verifier",
    "VerifierOutput",
    "load_verifier",
    "pair_features",
]
