"""The cross-encoder adapter: any ONNX sequence-pair classifier, as label probabilities.

:class:`OnnxCrossEncoder` runs a graph that takes ``input_ids`` / ``attention_mask``
(/ ``token_type_ids``) for a (premise, hypothesis) pair and returns ``logits``
``[batch, n_labels]``: an NLI model (entailment / neutral / contradiction) or a binary support
classifier. The premise is the source passage, the hypothesis the claim. When a pair is too
long, only the passage is cut, so the claim is always scored whole.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from attribution._errors import InputError, ModelLoadError
from attribution.runtime._manifest import FileRef, ModelSpec, locate_model
from attribution.runtime._onnx import OnnxModel, Runtime, check_texts

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

__all__ = [
    "CONTRADICTION_LABELS",
    "SUPPORT_LABELS",
    "OnnxCrossEncoder",
    "encode_pairs",
    "encode_windows",
    "pair_budget",
]

SUPPORT_LABELS = frozenset({"entailment", "entails", "supported", "support", "supports"})
"""Label names (case-insensitive) that mean "the passage supports the claim"."""
CONTRADICTION_LABELS = frozenset(
    {"contradiction", "contradicted", "contradicts", "refuted", "refutes"}
)
"""Label names (case-insensitive) that mean "the passage contradicts the claim"."""


class OnnxCrossEncoder(OnnxModel):
    """Label probabilities for (passage, claim) pairs from an ONNX classifier. Thread-safe.

    The labels come from the spec, in the graph's output order; :attr:`support_index` and
    :attr:`contradiction_index` say which columns mean support and contradiction.

    Example::

        model = OnnxCrossEncoder.from_path(
            "nli/model.onnx", "nli/tokenizer.json",
            labels=("entailment", "neutral", "contradiction"), max_length=512,
        )
        probs = model.predict([("Webb launched on 25 December 2021.", "Webb launched in 2021.")])
        probs[0, model.support_index]
    """

    _kind = "cross_encoder"
    _output = "logits"
    cache_size: int = 100_000
    """Pairs whose probabilities are kept (least recently used dropped); 0 turns it off.

    A pair recurs whenever the same answer is checked again against the same sources (a
    service retry, a re-run, a benchmark's second pass); the key is a hash of both texts."""
    max_windows: int = 4
    """A passage longer than the window is scored in up to this many overlapping windows (a
    quarter of each overlaps the one before), and the window that supports the claim most
    wins; 1 cuts the passage to the first window."""

    def _check_spec(self) -> None:
        self._cache: OrderedDict[bytes, NDArray[np.float32]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.labels: tuple[str, ...] = self.spec.labels
        support = self._label_index(SUPPORT_LABELS)
        if support is None:
            raise ModelLoadError(
                f"model {self.spec.name!r}: none of its labels {list(self.labels)} means "
                f"support; one must be one of {sorted(SUPPORT_LABELS)}"
            )
        self.support_index: int = support
        self.contradiction_index: int | None = self._label_index(CONTRADICTION_LABELS)

    @property
    def support_threshold(self) -> float:
        """The model's own calibrated support threshold on P(support): its manifest
        ``threshold`` (``ModelSpec.threshold``), else 0.5."""
        return self.spec.threshold if self.spec.threshold is not None else 0.5

    @classmethod
    def from_path(
        cls,
        model_path: str | Path,
        tokenizer_path: str | Path,
        labels: Sequence[str],
        max_length: int = 512,
        *,
        threads: int | None = None,
        batch_size: int = 1,
    ) -> OnnxCrossEncoder:
        """A cross-encoder exported by the user (no manifest entry, no hash check).

        Args:
            model_path: the ``.onnx`` file.
            tokenizer_path: its ``tokenizer.json``.
            labels: the label names in the order of the graph's logits.
            max_length: tokens per pair at most, special tokens included.
            threads: intra-op threads of the session; None: the number of cores.
            batch_size: pairs per inference batch.

        Returns:
            The cross-encoder, not yet loaded.

        Raises:
            ConfigError: the labels repeat, or ``max_length`` is out of bounds.
            ModelLoadError: a file is missing, or no label means support.
        """
        model_path = Path(model_path).expanduser().resolve()
        hint = "check the path given to OnnxCrossEncoder.from_path"
        spec = ModelSpec(
            name=model_path.name,
            kind="cross_encoder",
            file=FileRef(path=str(model_path), hint=hint),
            sha256=None,
            tokenizer=FileRef(path=str(Path(tokenizer_path).expanduser().resolve()), hint=hint),
            tokenizer_sha256=None,
            labels=tuple(labels),
            max_length=max_length,
            description="given by path",
        )
        resolved = locate_model(spec, model_path.parent)
        return cls(resolved, threads=threads, batch_size=batch_size)

    def predict(self, pairs: Sequence[tuple[str, str]]) -> NDArray[np.float32]:
        """Label probabilities of (passage, claim) pairs.

        Args:
            pairs: (premise = source passage, hypothesis = claim) pairs.

        Returns:
            float32 array of shape ``(len(pairs), len(labels))``; each row sums to 1.

        Raises:
            InputError: a pair is not two strings.
            ModelLoadError: the model fails to load (first call only).
        """
        passages, claims = _split_pairs(pairs)
        probabilities = np.zeros((len(passages), len(self.labels)), dtype=np.float32)
        if not passages:
            return probabilities
        keys = [_pair_key(p, c) for p, c in zip(passages, claims, strict=True)]
        todo: list[int] = []
        # a pair that comes again in the same call is read once (an answer that repeats a
        # sentence 7,000 times read it 7,000 times: 45 s of a 54 s call)
        again: dict[bytes, list[int]] = {}
        with self._cache_lock:
            for i, key in enumerate(keys):
                hit = self._cache.get(key)
                if hit is not None:
                    self._cache.move_to_end(key)
                    probabilities[i] = hit
                elif key in again:
                    again[key].append(i)
                else:
                    again[key] = []
                    todo.append(i)
        if not todo:
            return probabilities
        encodings, owners = encode_windows(
            self._runtime.tokenizer,
            [passages[i] for i in todo],
            [claims[i] for i in todo],
            self.max_length,
            self.max_windows,
        )
        best = np.full(len(todo), -1.0, dtype=np.float32)
        for rows, logits, _mask in self._run_batches(encodings):
            for row, probs in zip(rows, _softmax(logits), strict=True):
                k = owners[row]
                if probs[self.support_index] > best[k]:  # the best window wins
                    best[k] = probs[self.support_index]
                    probabilities[todo[k]] = probs
        for i in todo:
            for j in again[keys[i]]:
                probabilities[j] = probabilities[i]
        if self.cache_size:
            with self._cache_lock:
                for i in todo:
                    self._cache[keys[i]] = probabilities[i].copy()
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return probabilities

    def clear_cache(self) -> None:
        """Forget every cached pair (a benchmark timing cold runs calls this)."""
        with self._cache_lock:
            self._cache.clear()

    def encode_pairs(self, passages: Sequence[str], claims: Sequence[str]) -> list[Encoding]:
        """Tokenize pairs as the model sees them: special tokens added, the passage cut to fit.

        tokenizers' own ``only_first`` truncation raises when a claim alone overflows, so the
        cut is made here: the passage gives up tokens first; a claim that would leave the
        passage less than half the window is cut to the other half (as ``longest_first``).

        Args:
            passages: the first sequence of each pair.
            claims: the second sequence of each pair.

        Returns:
            One encoding per pair, at most ``max_length`` tokens each.
        """
        return encode_pairs(self._runtime.tokenizer, passages, claims, self.max_length)

    def _check(self, runtime: Runtime) -> None:
        shape = runtime.output.shape
        width = shape[-1] if len(shape) == 2 else None
        if len(shape) != 2 or (isinstance(width, int) and width != len(self.labels)):
            raise ModelLoadError(
                f"model {self.spec.name!r} ({self.resolved.path}): output "
                f"{runtime.output.name} has shape {list(shape)}; its labels "
                f"{list(self.labels)} need [batch, {len(self.labels)}]"
            )

    def _label_index(self, names: frozenset[str]) -> int | None:
        found = [i for i, label in enumerate(self.labels) if label.lower() in names]
        if len(found) > 1:
            raise ModelLoadError(
                f"model {self.spec.name!r}: labels {list(self.labels)} have more than one "
                f"of {sorted(names)}"
            )
        return found[0] if found else None


def encode_pairs(
    tokenizer: Tokenizer, passages: Sequence[str], claims: Sequence[str], max_length: int
) -> list[Encoding]:
    """Pairs as a cross-encoder sees them (see :meth:`OnnxCrossEncoder.encode_pairs`).

    Also how ``training`` tokenises its training pairs, so the two cannot drift apart.
    """
    budget = max_length - tokenizer.num_special_tokens_to_add(True)
    firsts = tokenizer.encode_batch(list(passages), add_special_tokens=False)
    seconds = tokenizer.encode_batch(list(claims), add_special_tokens=False)
    encodings = []
    for first, second in zip(firsts, seconds, strict=True):
        keep_first, keep_second = pair_budget(len(first.ids), len(second.ids), budget)
        if keep_first < len(first.ids):
            first.truncate(keep_first)
        if keep_second < len(second.ids):
            second.truncate(keep_second)
        encodings.append(tokenizer.post_process(first, second))
    return encodings


def encode_windows(
    tokenizer: Tokenizer,
    passages: Sequence[str],
    claims: Sequence[str],
    max_length: int,
    max_windows: int,
) -> tuple[list[Encoding], list[int]]:
    """Pairs as :func:`encode_pairs` makes them, except that a passage too long for the window
    is cut into up to ``max_windows`` overlapping windows, each paired with the whole claim.

    Returns:
        The encodings, and for each the index of the pair it belongs to.
    """
    budget = max_length - tokenizer.num_special_tokens_to_add(True)
    firsts = tokenizer.encode_batch(list(passages), add_special_tokens=False)
    seconds = tokenizer.encode_batch(list(claims), add_special_tokens=False)
    encodings: list[Encoding] = []
    owners: list[int] = []
    for k, (first, second) in enumerate(zip(firsts, seconds, strict=True)):
        keep_first, keep_second = pair_budget(len(first.ids), len(second.ids), budget)
        if keep_second < len(second.ids):
            second.truncate(keep_second)
        windows = [first]
        if keep_first < len(first.ids):
            first.truncate(keep_first, stride=keep_first // 4)
            windows = [first, *first.overflowing][: max(1, max_windows)]
        for window in windows:
            encodings.append(tokenizer.post_process(window, second))
            owners.append(k)
    return encodings, owners


def pair_budget(first: int, second: int, budget: int) -> tuple[int, int]:
    """Tokens kept of each sequence of a pair so that together they fit in ``budget``.

    The first sequence (the passage) is cut before the second (the claim); it keeps at least
    half the budget (or all of itself), and the second gets the rest.

    Args:
        first: tokens of the first sequence.
        second: tokens of the second sequence.
        budget: tokens the two may have together (the window less the special tokens).

    Returns:
        Tokens kept of the first and of the second sequence.
    """
    keep_first = min(first, max(budget - second, budget // 2))
    return keep_first, min(second, budget - keep_first)


def _pair_key(passage: str, claim: str) -> bytes:
    """The pair's cache key: the passage's length leads, so that no two pairs share one
    (``("a\\0b", "c")`` and ``("a", "b\\0c")`` did, and the second read the first's scores)."""
    first = passage.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(
        len(first).to_bytes(8, "little") + first + claim.encode("utf-8", "surrogatepass"),
        digest_size=16,
    ).digest()


def _split_pairs(pairs: Sequence[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """Passages and claims of pairs, checked to be two strings each."""
    items = list(pairs)
    for i, pair in enumerate(items):
        if not (isinstance(pair, tuple | list) and len(pair) == 2):
            raise InputError(f"OnnxCrossEncoder.predict: pair {i} is not a (passage, claim) pair")
    passages = check_texts([p for p, _ in items], "OnnxCrossEncoder.predict passages")
    claims = check_texts([c for _, c in items], "OnnxCrossEncoder.predict claims")
    return passages, claims


def _softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    """Row-wise softmax, shifted by the row maximum so it cannot overflow."""
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    probabilities: NDArray[np.float32] = (shifted / shifted.sum(axis=1, keepdims=True)).astype(
        np.float32, copy=False
    )
    return probabilities
