"""Choose and build the verifier a configuration names."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import structlog

from attribution._config import ModelConfig
from attribution._log import library_log
from attribution.verify._feature_verifier import FeatureVerifier, FeatureWeights
from attribution.verify._nli_verifier import NliVerifier
from attribution.verify._protocol import Verifier

if TYPE_CHECKING:
    from attribution.runtime import Embedder

__all__ = ["load_verifier"]

log = structlog.get_logger(__name__)

FALLBACK_EMBEDDER = "all-minilm-l6-v2-int8"
"""The embedder of weights files that do not name one (fitted before they recorded it)."""


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
    from attribution.runtime import ENV_BY_KIND, OnnxCrossEncoder, is_model_path, resolve_model

    config = config if config is not None else ModelConfig()
    if config.verifier or os.environ.get(ENV_BY_KIND["cross_encoder"]):
        return NliVerifier(OnnxCrossEncoder.from_config(config))
    resolved = resolve_model(None, "feature_weights", config)
    weights = FeatureWeights.load(resolved.path)
    in_use = getattr(getattr(embedder, "spec", None), "name", None)
    fitted_with = weights.embedder or FALLBACK_EMBEDDER  # older files: the transformer's
    if isinstance(in_use, str) and not is_model_path(in_use) and fitted_with != in_use:
        # another embedder's cosines are on another scale: the combination is off calibration
        library_log(
            log,
            "warning",
            "feature_weights_fitted_with_another_embedder",
            weights=str(resolved.path),
            fitted_with=fitted_with,
            embedder=in_use,
            fix=f"use the weights fitted with {in_use} (ModelConfig.feature_weights unset picks "
            "those of ModelConfig.embedder), or fit some: "
            f"python -m benchmarks.fit_feature_verifier --embedder {in_use} ...",
        )
    cross_encoder = None
    if weights.cross_encoder:
        cross_encoder = OnnxCrossEncoder.from_config(config, weights.cross_encoder)
    return FeatureVerifier(weights, embedder=embedder, cross_encoder=cross_encoder)
