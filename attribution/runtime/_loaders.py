"""What the pipeline loads from the runtime: the configured embedder.

It only describes the model and checks its files (the ONNX session opens on first use).
Verifiers are chosen and built one level up, in ``attribution.verify``.
"""

from __future__ import annotations

from attribution._config import ModelConfig
from attribution.runtime._embedder import OnnxEmbedder

__all__ = ["load_embedder"]


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
