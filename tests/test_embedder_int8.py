"""The bi-encoder multiplying in int8 (``all-minilm-l6-v2-int8-dynamic``, made by
``training/embedder.py`` from the packaged ``all-minilm-l6-v2-int8``): its vectors stay close to
the float32 ones, it computes with integer matrix products, and the maker reproduces it."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import pytest

from attribution.runtime import OnnxEmbedder, resolve_model
from training import embedder as maker

TEXTS = [
    "The James Webb Space Telescope launched on 25 December 2021.",
    "Webb, the space observatory, lifted off on Christmas Day 2021.",
    "Bananas are a good source of potassium.",
    "Orion already runs in Sydney, Frankfurt and Virginia.",
    "A fourth region, Sydney, is planned but has no date yet.",
    "The Eiffel Tower is 330 metres tall. It opened in 1889 for the World's Fair in Paris, "
    "and it was the tallest structure in the world until 1930.",
]


@pytest.fixture(scope="module")
def models() -> tuple[OnnxEmbedder, OnnxEmbedder]:
    floats = OnnxEmbedder(resolve_model("all-minilm-l6-v2-int8", "embedder"), threads=2)
    ints = OnnxEmbedder(resolve_model("all-minilm-l6-v2-int8-dynamic", "embedder"), threads=2)
    return floats, ints


def test_its_vectors_are_within_cosine_0_99_of_the_float_ones(
    models: tuple[OnnxEmbedder, OnnxEmbedder],
) -> None:
    floats, ints = (m.encode(TEXTS) for m in models)
    assert ints.shape == floats.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(ints, axis=1), 1.0, atol=1e-5)
    assert (ints * floats).sum(axis=1).min() > 0.98
    # what the matcher uses: the paraphrase stays far closer than the unrelated sentence
    assert ints[0] @ ints[1] > ints[0] @ ints[2] + 0.3
    assert abs(float(ints[0] @ ints[1]) - float(floats[0] @ floats[1])) < 0.03


def test_it_multiplies_in_int8_where_the_packaged_model_multiplies_in_float32(
    models: tuple[OnnxEmbedder, OnnxEmbedder],
) -> None:
    ops = [Counter(n.op_type for n in onnx.load(str(m.resolved.path)).graph.node) for m in models]
    # the packaged model: int8 storage, float32 products
    assert ops[0]["MatMulInteger"] == 0
    assert ops[0]["Cast"] > 0
    assert ops[1]["MatMulInteger"] >= 36  # every weight matrix of the six layers


def test_the_maker_reproduces_it(models: tuple[OnnxEmbedder, OnnxEmbedder], tmp_path: Path) -> None:
    shutil.copy(models[1].resolved.tokenizer_path or "", tmp_path / "tokenizer.json")
    digest, lowest = maker.quantise(tmp_path)
    assert lowest > maker.MIN_COSINE
    made = OnnxEmbedder(resolve_model(str(tmp_path / maker.FILE), "embedder"), threads=2)
    # the same file where onnxruntime's quantiser is the committed one's; the same vectors
    # to rounding in any case
    assert np.allclose(made.encode(TEXTS), models[1].encode(TEXTS), atol=2e-3)
    assert len(digest) == 64


def test_the_maker_names_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"tokenizer\.json is missing"):
        maker.quantise(tmp_path)
