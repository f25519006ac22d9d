"""What the pipeline loads: the configured embedder and verifier.

The pipeline calls these when it first needs a model; both only describe the model and check its
files (the ONNX session itself opens on first use).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from attribution._config import ModelConfig
from attribution.runtime._cross_encoder import OnnxCrossEncoder
from attribution.runtime._embedder import OnnxEmbedder
from attribution.runtime._manifest import ENV_BY_KIND, resolve_model

if TYPE_CHECKING:
    from attribution.verify._verifiers import Verifier
    from attribution.runtime import Embedder

__all__ = ["load_embedder", "load_verifier"]


def load_embedder(config: ModelConfig | None = None) -> OnnxEmbedder:
    """The sentence embedder: ``$ATTRIBUTION_EMBEDDER``, else ``config.embedder``.

    Args:
        config: model configuration; None: the defaults.

    Returns:
        The embedder (its files found and hash-checked; the session opens on first use).

    Raises:
        ModelLoadError: the model cannot be found, or a file has the wrong sha256.
    """
    return OnnxEmbedder.from_config(config)


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
    # Imported here: the verifiers sit above the model runtime, which must not import them.
    from attribution.verify._verifiers import FeatureVerifier, FeatureWeights, NliVerifier

    config = config if config is not None else ModelConfig()
    if config.verifier or os.environ.get(ENV_BY_KIND["cross_encoder"]):
        return NliVerifier(OnnxCrossEncoder.from_config(config))
    weights = FeatureWeights.load(resolve_model(None, "feature_weights", config).path)
    cross_encoder = None
    if weights.cross_encoder:
        cross_encoder = OnnxCrossEncoder.from_config(config, weights.cross_encoder)
    return FeatureVerifier(weights, embedder=embedder, cross_encoder=cross_encoder)
