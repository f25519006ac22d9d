"""The static embedder: a table of token vectors, averaged per text (a model2vec model).

A static model has no layers to run: a text's vector is the mean of its tokens' rows in one
table, scaled to unit length. The packaged one (``minilm-static-256`` in the manifest) was
distilled with ``model2vec`` from the same all-MiniLM-L6-v2 the bi-encoder is (how:
``training/static.py``); on the harness's candidate recall it finds the passages the
bi-encoder finds at about a hundredth of the cost (docs/benchmarks.md), which is what the
matcher's shortlist needs.

The table is a ``.npy`` file (float16 or float32, read without pickle) with one row per
token id of its ``tokenizer.json``; special tokens are not added and unknown tokens are
dropped, as model2vec does.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from attribution._config import ModelConfig
from attribution._errors import ModelLoadError
from attribution.runtime._manifest import ResolvedModel, resolve_model
from attribution.runtime._onnx import check_texts, load_tokenizer

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

    from attribution.runtime import Vectors

__all__ = ["StaticEmbedder"]

_EPS = 1e-12
_CHUNK = 256
"""Texts averaged at a time: the token vectors of one chunk are gathered at once (about 40 MB
for 256 passages of 150 tokens), not those of a whole request (gigabytes at 10,000 passages)."""


class StaticEmbedder:
    """Sentence vectors from a static token-vector table. Thread-safe; loads on first use.

    Example::

        embedder = StaticEmbedder.from_config(ModelConfig(embedder="minilm-static-256"))
        vectors = embedder.encode(["Webb launched in 2021.", "The telescope lifted off."])
        float(vectors[0] @ vectors[1])   # cosine similarity
    """

    static = True
    """Embedding costs next to nothing: the matcher embeds every passage (no pre-filter)."""

    def __init__(self, resolved: ResolvedModel) -> None:
        """Describe the model; the table and tokenizer load on the first call that needs them.

        Raises:
            ModelLoadError: the spec has no tokenizer, maximum length or dimension.
        """
        spec = resolved.spec
        if resolved.tokenizer_path is None or spec.max_length is None or spec.dimension is None:
            raise ModelLoadError(
                f"static embedder {spec.name!r} needs a tokenizer, max_length and dimension"
            )
        self.resolved = resolved
        self.spec = spec
        self.max_length: int = spec.max_length
        self._dimension: int = spec.dimension
        self._lock = threading.Lock()

    @classmethod
    def from_config(
        cls, config: ModelConfig | None = None, name_or_path: str | None = None
    ) -> StaticEmbedder:
        """The static embedder a configuration names (files found and hash-checked now).

        Raises:
            ModelLoadError: the model cannot be found, a file has the wrong sha256, or the
                model is not a static one.
        """
        resolved = resolve_model(name_or_path, "embedder", config)
        if resolved.spec.format != "static":
            raise ModelLoadError(
                f"model {resolved.spec.name!r} is an {resolved.spec.format} embedder, "
                "not a static one; use OnnxEmbedder"
            )
        return cls(resolved)

    def __repr__(self) -> str:
        return f"StaticEmbedder({self.spec.name!r}, path={str(self.resolved.path)!r})"

    @property
    def dimension(self) -> int:
        """Length of the vectors."""
        return self._dimension

    @functools.cached_property
    def _loaded(self) -> tuple[Tokenizer, NDArray[np.float32], int | None]:
        with self._lock:
            return self._load()

    def _load(self) -> tuple[Tokenizer, NDArray[np.float32], int | None]:
        path = self.resolved.path
        try:
            table = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ModelLoadError(f"static embedder table {path} cannot be read: {exc}") from exc
        tokenizer, _ = load_tokenizer(self.resolved.tokenizer_path)  # type: ignore[arg-type]
        vocabulary = tokenizer.get_vocab_size(with_added_tokens=True)
        if table.ndim != 2 or table.shape != (vocabulary, self._dimension):
            raise ModelLoadError(
                f"static embedder table {path} has shape {list(table.shape)}; expected "
                f"[{vocabulary} tokens, {self._dimension}] for its tokenizer and dimension"
            )
        tokenizer.enable_truncation(self.max_length)
        unknown = tokenizer.token_to_id("[UNK]")
        return tokenizer, np.asarray(table, dtype=np.float32), unknown

    def encode(self, texts: Sequence[str]) -> Vectors:
        """Embed texts: one unit-length row per text, in order (an empty text gives zeros).

        Raises:
            InputError: ``texts`` is one string, or holds something else than strings.
            ModelLoadError: the table or tokenizer fails to load (first call only).
        """
        items = check_texts(texts, "StaticEmbedder.encode")
        out = np.zeros((len(items), self._dimension), dtype=np.float32)
        if not items:
            return out
        tokenizer, table, unknown = self._loaded
        for start in range(0, len(items), _CHUNK):
            chunk = items[start : start + _CHUNK]
            encodings = tokenizer.encode_batch(chunk, add_special_tokens=False)
            _average(encodings, table, unknown, out[start : start + len(chunk)])
        if self.spec.normalize:
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), _EPS)
        return out


def _average(
    encodings: Sequence[Encoding],
    table: NDArray[np.float32],
    unknown: int | None,
    out: NDArray[np.float32],
) -> None:
    """Write the mean token vector of each encoding (unknown tokens left out) into ``out``."""
    lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.intp, count=len(encodings))
    ids = np.fromiter(
        (i for e in encodings for i in e.ids), dtype=np.intp, count=int(lengths.sum())
    )
    rows = np.repeat(np.arange(len(encodings)), lengths)
    if unknown is not None:
        keep = ids != unknown
        ids, rows = ids[keep], rows[keep]
    counts = np.bincount(rows, minlength=len(encodings))
    filled = counts > 0
    if filled.any():
        # rows are grouped by text in order: each text's tokens form one run
        starts = (np.cumsum(counts) - counts)[filled]
        out[filled] = np.add.reduceat(table[ids], starts, axis=0)
        out[filled] /= counts[filled, None].astype(np.float32)
