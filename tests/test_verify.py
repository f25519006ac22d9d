"""Verifiers: the fitted feature verifier and the NLI adapter, with real models."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from attribution import (
    AttributionConfig,
    Attributor,
    CitationSource,
    FeatureVerifier,
    FeatureWeights,
    InputError,
    ModelLoadError,
    NliVerifier,
    Pair,
)
from attribution._features import FEATURE_NAMES
from attribution._models import OnnxCrossEncoder, load_embedder, load_verifier

from .test_cross_encoder import NLI, TOKENIZER, Weights, build_classifier

PASSAGE = (
    "Mount Everest is Earth's highest mountain above sea level. Its elevation of 8,849 metres "
    "was measured in 2020."
)


@pytest.fixture(scope="module")
def verifier() -> FeatureVerifier:
    v = load_verifier(embedder=load_embedder())
    assert isinstance(v, FeatureVerifier)
    return v


def test_the_fitted_weights_describe_themselves(verifier: FeatureVerifier) -> None:
    w = verifier.weights
    assert w.features == FEATURE_NAMES
    assert 0.0 < w.threshold < 1.0
    assert sum(w.fitted_on.values()) > 1000
    assert {"expertqa.heldout_auc", "wice.cosine_auc"} <= set(w.metrics)


def test_support_orders_pairs_sensibly(verifier: FeatureVerifier) -> None:
    pairs = [
        Pair(claim="Everest is 8,849 metres high.", passage=PASSAGE),
        Pair(claim="Everest is 9,500 metres high.", passage=PASSAGE),
        Pair(claim="Bananas are the main export of Iceland.", passage=PASSAGE),
    ]
    scores = verifier.score(pairs).support
    assert scores[0] >= verifier.threshold
    assert scores[0] > scores[1] > scores[2]
    assert scores[2] < verifier.threshold
    assert verifier.score([]).support == []


def test_given_cosines_are_used_and_missing_ones_need_an_embedder(
    verifier: FeatureVerifier,
) -> None:
    high = verifier.score([Pair(claim="Everest is high.", passage=PASSAGE, cosine=0.9)])
    low = verifier.score([Pair(claim="Everest is high.", passage=PASSAGE, cosine=0.0)])
    assert high.support[0] > low.support[0]
    bare = FeatureVerifier(verifier.weights)
    with pytest.raises(InputError, match="need an embedder"):
        bare.score([Pair(claim="x", passage="y")])


def test_weights_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="not found; run `make fit-verifier`"):
        FeatureWeights.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelLoadError, match="malformed"):
        FeatureWeights.load(bad)
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps({"features": ["cosine"], "weights": [1.0], "bias": 0.0, "threshold": 0.5}),
        encoding="utf-8",
    )
    with pytest.raises(ModelLoadError, match="refit them"):
        FeatureWeights.load(other)


@pytest.fixture(scope="module")
def nli(tmp_path_factory: pytest.TempPathFactory) -> NliVerifier:
    path = build_classifier(tmp_path_factory.mktemp("nli") / "model.onnx", Weights(n_labels=3))
    return NliVerifier(OnnxCrossEncoder.from_path(path, TOKENIZER, NLI, max_length=64, threads=1))


def test_nli_verifier_maps_labels_to_support_and_contradiction(nli: NliVerifier) -> None:
    pairs = [Pair(claim="Everest is high.", passage=PASSAGE), Pair(claim="x", passage="y")]
    out = nli.score(pairs)
    probs = nli.model.predict([(p.passage, p.claim) for p in pairs])
    assert np.allclose(out.support, probs[:, nli.model.support_index])
    assert out.contradiction is not None
    assert np.allclose(out.contradiction, probs[:, nli.model.contradiction_index])
    assert nli.threshold == 0.5


def test_the_pipeline_runs_with_an_nli_verifier(nli: NliVerifier) -> None:
    source = CitationSource(id="e", type="web", full_content=PASSAGE)
    result = Attributor(AttributionConfig(), verifier=nli).attribute(
        "Everest is 8,849 metres high [1].", [source]
    )
    assert result.verifier == nli.name
    (claim,) = result.claims
    assert claim.contradiction is not None
    assert 0.0 <= claim.score <= 1.0
    assert result.markers[0].verdict in ("supported", "unsupported")
