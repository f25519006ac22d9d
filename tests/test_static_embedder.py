"""The static embedder (``minilm-static-256``, a model2vec model distilled from MiniLM): the
matcher's default. Shapes, invariances, golden numbers, files given by path, and clear errors."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from attribution import AttributionConfig, Attributor, CitationSource, InputError, ModelLoadError
from attribution._config import ModelConfig
from attribution.runtime import (
    ENV_BY_KIND,
    OnnxEmbedder,
    StaticEmbedder,
    _static,
    load_embedder,
    resolve_model,
)

WEBB = "The James Webb Space Telescope launched on 25 December 2021."
WEBB_PARAPHRASE = "Webb, the space observatory, lifted off on Christmas Day 2021."
BANANAS = "Bananas are a good source of potassium."
TOWER = "The Eiffel Tower is in Paris. The tower is 330 metres tall. It opened in 1889."

# Measured once with the committed table (sha256 385cff85...). model2vec 0.10.0's own
# StaticModel.encode of the distilled folder gives the same numbers to 1e-4 (its table is float16
# too): [-0.220825, 0.026367, 0.271729, -0.293945, 0.069214], cosines 0.797363 / -0.064819.
GOLDEN_WEBB_HEAD = [-0.220718, 0.026366, 0.271825, -0.294045, 0.069236]
GOLDEN_COSINE_PARAPHRASE = 0.797369
GOLDEN_COSINE_UNRELATED = -0.064825


@pytest.fixture(scope="module")
def embedder() -> StaticEmbedder:
    return StaticEmbedder(resolve_model("minilm-static-256", "embedder"))


def test_load_embedder_picks_it_by_name_and_loads_nothing_until_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV_BY_KIND["embedder"], raising=False)
    model = load_embedder(ModelConfig(embedder="minilm-static-256"))
    assert isinstance(model, StaticEmbedder)
    assert model.dimension == 256
    assert "_loaded" not in vars(model)


def test_the_matcher_embeds_every_passage_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_BY_KIND["embedder"], raising=False)
    engine = Attributor(AttributionConfig(model=ModelConfig(embedder="minilm-static-256")))
    sources = [
        CitationSource(
            id=f"s{i}", type="web", full_content=f"Filler sentence {i} about item {i}. " * 6
        )
        for i in range(60)
    ]
    sources.append(CitationSource(id="tower", type="web", full_content=TOWER))
    result = engine.attribute("The tower in Paris is 330 metres tall.", sources)
    assert len(engine.cache) > 100  # every passage, not a BM25 pre-filter of them
    assert result.claims[0].source_ids == ("tower",)


def test_golden_numbers(embedder: StaticEmbedder) -> None:
    vectors = embedder.encode([WEBB, WEBB_PARAPHRASE, BANANAS])
    assert vectors.dtype == np.float32
    assert vectors.shape == (3, 256)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(vectors[0, :5], GOLDEN_WEBB_HEAD, atol=1e-5)
    assert float(vectors[0] @ vectors[1]) == pytest.approx(GOLDEN_COSINE_PARAPHRASE, abs=1e-5)
    assert float(vectors[0] @ vectors[2]) == pytest.approx(GOLDEN_COSINE_UNRELATED, abs=1e-5)


def test_each_text_alone_gives_the_same_vector(embedder: StaticEmbedder) -> None:
    texts = [WEBB, "", "☃", BANANAS * 40, "hi", WEBB_PARAPHRASE]
    together = embedder.encode(texts)
    for i, text in enumerate(texts):
        assert np.allclose(embedder.encode([text])[0], together[i], atol=1e-6)


def test_a_request_of_several_chunks_gives_each_text_its_own_vector(
    embedder: StaticEmbedder,
) -> None:
    # more texts than one chunk of averaging, empty ones on and beside the chunk's edge
    texts = [f"{WEBB} {i}" if i % 97 else "" for i in range(2 * _static._CHUNK + 3)]
    texts[_static._CHUNK - 1] = "☃"
    together = embedder.encode(texts)
    for i in (0, 1, _static._CHUNK - 1, _static._CHUNK, _static._CHUNK + 1, len(texts) - 1):
        assert np.allclose(embedder.encode([texts[i]])[0], together[i], atol=1e-6)
    assert not together[0].any()
    assert not together[_static._CHUNK - 1].any()


def test_empty_and_unknown_only_texts_are_zero_rows(embedder: StaticEmbedder) -> None:
    assert embedder.encode([]).shape == (0, 256)
    rows = embedder.encode(["", "☃ ☃", WEBB])
    assert not rows[0].any()
    assert not rows[1].any()
    assert rows[2].any()


def test_rejects_a_bare_string_and_non_strings(embedder: StaticEmbedder) -> None:
    with pytest.raises(InputError, match="not one string"):
        embedder.encode(WEBB)
    with pytest.raises(InputError, match="item 1 is a int"):
        embedder.encode([WEBB, 3])  # type: ignore[list-item]


def test_threads_share_one_embedder() -> None:
    fresh = StaticEmbedder(resolve_model("minilm-static-256", "embedder"))
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda t: fresh.encode([t])[0], [WEBB, BANANAS] * 8))
    assert all(np.allclose(r, results[i % 2]) for i, r in enumerate(results))


def test_a_table_given_by_path(
    embedder: StaticEmbedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(embedder.resolved.path, tmp_path / "vectors.npy")
    shutil.copy(embedder.resolved.tokenizer_path or "", tmp_path / "tokenizer.json")
    monkeypatch.setenv(ENV_BY_KIND["embedder"], str(tmp_path / "vectors.npy"))
    by_path = load_embedder(ModelConfig())
    assert isinstance(by_path, StaticEmbedder)
    assert by_path.dimension == 256
    assert np.allclose(by_path.encode([WEBB]), embedder.encode([WEBB]), atol=1e-6)


def test_a_table_of_the_wrong_shape_is_refused_naming_the_file(
    embedder: StaticEmbedder, tmp_path: Path
) -> None:
    np.save(tmp_path / "vectors.npy", np.zeros((10, 8), dtype=np.float16))
    shutil.copy(embedder.resolved.tokenizer_path or "", tmp_path / "tokenizer.json")
    model = StaticEmbedder.from_config(ModelConfig(), str(tmp_path / "vectors.npy"))
    with pytest.raises(ModelLoadError, match=r"vectors\.npy has shape \[10, 8\]"):
        model.encode([WEBB])
    (tmp_path / "bad.npy").write_bytes(b"not a table")
    with pytest.raises(ModelLoadError, match=r"bad\.npy .*not a \.npy table"):
        load_embedder(ModelConfig(embedder=str(tmp_path / "bad.npy")))


def test_the_kinds_do_not_mix() -> None:
    static = resolve_model("minilm-static-256", "embedder")
    with pytest.raises(ModelLoadError, match="static model, not an ONNX graph"):
        OnnxEmbedder(static)
    with pytest.raises(ModelLoadError, match="not a static one"):
        StaticEmbedder.from_config(ModelConfig(embedder="all-minilm-l6-v2-int8"))
