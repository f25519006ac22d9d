"""Choose and build the verifier a configuration names."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import structlog

from attribution._config import ModelConfig
from attribution.verify._feature_verifier import FeatureVerifier, FeatureWeights
from attribution.verify._nli_verifier import NliVerifier
from attribution.verify._protocol import Verifier

if TYPE_CHECKING:
    from attribution.runtime import Embedder

__all__ = ["load_verifier"]

log = structlog.get_logger(__name__)


def load_verifier(
    config: ModelConfig | None = None, *, embedder: Embedder | None = None
) -> Verifier:
    """The support verifier: the configured cross-encoder, else the feature verifier.

    A cross-encoder is used when ``$ATTRIBUTION_VERIFIER`` or ``config.verifier`` names one;
    otherwise the feature verifier with the weights of ``$ATTRIBUTION_FEATURE_WEIGHTS``, else
    ``config.feature_weights`` (and the cross-encoder those weights name, if they combine one).

    Args:
        config: model configuration; None: the defaults.
        embedder: the embedder the feature verifier computes cosines with.

    Returns:
        The verifier.

    Raises:
        ModelLoadError: the model or the weights cannot be found, are malformed, or have the
            wrong sha256.
    """
    # the runtime imports numpy's model adapters: only when a verifier is built
    from attribution.runtime import ENV_BY_KIND, OnnxCrossEncoder, resolve_model

    config = config if config is not None else ModelConfig()
    if config.verifier or os.environ.get(ENV_BY_KIND["cross_encoder"]):
        return NliVerifier(OnnxCrossEncoder.from_config(config))
    resolved = resolve_model(None, "feature_weights", config)
    weights = FeatureWeights.load(resolved.path)
    in_use = getattr(getattr(embedder, "spec", None), "name", None)
    if weights.embedder and in_use and weights.embedder != in_use:
        # another embedder's cosines are on another scale: the combination is off calibration
        log.warning(
            "feature_weights_fitted_with_another_embedder",
            weights=str(resolved.path),
            fitted_with=weights.embedder,
            embedder=in_use,
            fix="leave ModelConfig.feature_weights unset (the embedder's own weights), or refit: "
            f"python -m benchmarks.fit_feature_verifier --embedder {in_use} ...",
        )
    cross_encoder = None
    if weights.cross_encoder:
        cross_encoder = OnnxCrossEncoder.from_config(config, weights.cross_encoder)
    return FeatureVerifier(weights, embedder=embedder, cross_encoder=cross_encoder)
