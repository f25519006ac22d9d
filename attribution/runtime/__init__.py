"""The model runtime: models described as data, ONNX sessions, the embedder and cross-encoder.

Importing this package loads no model and imports neither ``onnxruntime`` nor ``tokenizers``
(the adapters import them when a model first loads); it does import numpy, so
``attribution/__init__.py`` imports it only where a pipeline is built.

- :func:`resolve_model` finds a model by name or path (argument, then environment variable,
  then configuration) in ``attribution/models/manifest.json`` and checks its files' sha256.
- :class:`OnnxEmbedder` turns texts into unit vectors; it satisfies :class:`Embedder`, as
  :class:`StaticEmbedder` (a model2vec token-vector table, no layers to run) does.
- :class:`OnnxCrossEncoder` turns (passage, claim) pairs into label probabilities.
- :func:`load_embedder` builds the embedder the configuration names.

The runtime knows no pipeline stage: verifiers are built in ``attribution.verify``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeAlias

import numpy as np
from numpy.typing import NDArray

from attribution.runtime._cross_encoder import (
    CONTRADICTION_LABELS,
    SUPPORT_LABELS,
    OnnxCrossEncoder,
    encode_pairs,
    encode_windows,
    pair_budget,
)
from attribution.runtime._embedder import OnnxEmbedder
from attribution.runtime._loaders import load_embedder
from attribution.runtime._manifest import (
    ENV_BY_KIND,
    ENV_MODELS_DIR,
    FileRef,
    Manifest,
    ModelKind,
    ModelSpec,
    ResolvedModel,
    file_sha256,
    is_model_path,
    load_manifest,
    locate_model,
    models_dir,
    resolve_model,
)
from attribution.runtime._onnx import default_lanes, default_threads, make_session
from attribution.runtime._static import StaticEmbedder

__all__ = [
    "CONTRADICTION_LABELS",
    "ENV_BY_KIND",
    "ENV_MODELS_DIR",
    "SUPPORT_LABELS",
    "Embedder",
    "FileRef",
    "Manifest",
    "ModelKind",
    "ModelSpec",
    "OnnxCrossEncoder",
    "OnnxEmbedder",
    "ResolvedModel",
    "StaticEmbedder",
    "Vectors",
    "default_lanes",
    "default_threads",
    "encode_pairs",
    "encode_windows",
    "file_sha256",
    "is_model_path",
    "load_embedder",
    "load_manifest",
    "locate_model",
    "make_session",
    "models_dir",
    "pair_budget",
    "resolve_model",
]

Vectors: TypeAlias = NDArray[np.float32]
"""Embeddings: float32, one row per text."""


class Embedder(Protocol):
    """Turns texts into vectors of a fixed length (unit length for cosine by dot product)."""

    @property
    def dimension(self) -> int:
        """Length of the vectors."""
        ...

    def encode(self, texts: Sequence[str]) -> Vectors:
        """One row per text, in order; shape ``(len(texts), dimension)``."""
        ...


if TYPE_CHECKING:

    def _embedder_conforms(embedder: OnnxEmbedder) -> Embedder:
        # mypy checks here that OnnxEmbedder satisfies the Embedder protocol.
        return embedder

    def _static_conforms(embedder: StaticEmbedder) -> Embedder:
        return embedder
