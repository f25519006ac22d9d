"""What the pipeline loads from the runtime: the configured embedder.

It only describes the model and checks its files (the ONNX session opens on first use).
Verifiers are chosen and built one level up, in ``attribution.verify``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attribution._config import ModelConfig
from attribution.runtime._embedder import OnnxEmbedder
from attribution.runtime._manifest import resolve_model
from attribution.runtime._static import StaticEmbedder

if TYPE_CHECKING:
    from attribution.runtime import Embedder

__all__ = ["load_embedder"]


def load_embedder(config: ModelConfig | None = None) -> Embedder:
    """The sentence embedder: ``$ATTRIBUTION_EMBEDDER``, else ``config.embedder``; a static
    model (``format: static``) or an ONNX encoder.

    Args:
        config: model configuration; None: the defaults.

    Returns:
        The embedder (its files found and hash-checked; the session opens on first use).

    Raises:
        ModelLoadError: the model cannot be found, or a file has the wrong sha256.
    """
    config = config if config is not None else ModelConfig()
    resolved = resolve_model(None, "embedder", config)
    if resolved.spec.format == "static":
        return StaticEmbedder(resolved)
    return OnnxEmbedder.from_resolved(resolved, config)
