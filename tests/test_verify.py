"""Verifiers: the fitted feature verifier and the NLI adapter, with real models."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
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
from attribution.runtime import OnnxCrossEncoder, load_embedder
from attribution.verify import VERBATIM_MIN_WORDS, load_verifier, verbatim_in, word_key
from attribution.verify._features import FEATURE_NAMES, NLI_FEATURE_NAMES

from .test_cross_encoder import NLI, TOKENIZER, Weights, build_classifier

ROOT = Path(__file__).resolve().parents[1]

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
    # the default combines the trained cross-encoder (chosen in docs/benchmarks.md)
    assert w.features == (*FEATURE_NAMES, *NLI_FEATURE_NAMES)
    assert w.cross_encoder == "support-verifier-minilm-l6-int8"
    assert verifier.cross_encoder is not None
    assert 0.0 < w.threshold < 1.0
    # fitted on the validation part of the four labelled datasets (benchmarks/splits)
    assert set(w.fitted_on) == {"attributionbench", "expertqa", "lfqa", "wice"}
    assert min(w.fitted_on.values()) > 0
    assert sum(w.fitted_on.values()) > 500
    assert "validation part" in w.notes
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
    bare = FeatureVerifier(verifier.weights, cross_encoder=verifier.cross_encoder)
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
    shipped = json.loads(
        (ROOT / "attribution/models/feature-verifier/weights-combined.json").read_text()
    )
    gated = tmp_path / "gated.json"
    gated.write_text(json.dumps({**shipped, "nli_veto": 1.5}), encoding="utf-8")
    with pytest.raises(ModelLoadError, match=r"nli_veto = 1\.5 is not a probability"):
        FeatureWeights.load(gated)
    plain = json.loads((ROOT / "attribution/models/feature-verifier/weights.json").read_text())
    gated.write_text(json.dumps({**plain, "nli_floor": 0.1}), encoding="utf-8")
    with pytest.raises(ModelLoadError, match="without a cross_encoder"):
        FeatureWeights.load(gated)


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


def _combined_weights(verifier: FeatureVerifier, nli_weight: float) -> FeatureWeights:
    base = verifier.weights
    return FeatureWeights(
        features=(*FEATURE_NAMES, *NLI_FEATURE_NAMES),
        weights=(*base.weights[: len(FEATURE_NAMES)], nli_weight, -nli_weight),
        bias=base.bias,
        threshold=base.threshold,
        cross_encoder="a-cross-encoder",
    )


def test_combined_weights_need_their_cross_encoder(
    verifier: FeatureVerifier, nli: NliVerifier, tmp_path: Path
) -> None:
    weights = _combined_weights(verifier, 2.0)
    with pytest.raises(ModelLoadError, match="combine the cross-encoder 'a-cross-encoder'"):
        FeatureVerifier(weights)
    path = tmp_path / "combined.json"
    path.write_bytes(msgspec.json.encode(weights))
    assert FeatureWeights.load(path).feature_names == (*FEATURE_NAMES, *NLI_FEATURE_NAMES)
    # the same features without the cross-encoder's name are refused, and the other way round
    path.write_bytes(msgspec.json.encode(msgspec.structs.replace(weights, cross_encoder=None)))
    with pytest.raises(ModelLoadError, match="refit them"):
        FeatureWeights.load(path)


def test_combined_verifier_adds_the_cross_encoders_probabilities(
    verifier: FeatureVerifier, nli: NliVerifier
) -> None:
    pairs = [
        Pair(claim="Everest is 8,849 metres high.", passage=PASSAGE, cosine=0.8),
        Pair(claim="Rust was released in 2015.", passage=PASSAGE, cosine=0.1),
    ]
    plain = verifier.features(pairs)[:, : len(FEATURE_NAMES)]
    combined = FeatureVerifier(_combined_weights(verifier, 3.0), cross_encoder=nli.model)
    assert combined.name == "feature-verifier.v1+a-cross-encoder"
    x = combined.features(pairs)
    assert x.shape == (2, len(FEATURE_NAMES) + 2)
    np.testing.assert_allclose(x[:, : len(FEATURE_NAMES)], plain)
    probs = nli.model.predict([(p.passage, p.claim) for p in pairs])
    np.testing.assert_allclose(x[:, -2], probs[:, nli.model.support_index], rtol=1e-6)
    np.testing.assert_allclose(x[:, -1], probs[:, nli.model.contradiction_index], rtol=1e-6)
    out = combined.score(pairs)
    assert out.contradiction is not None
    np.testing.assert_allclose(out.contradiction, x[:, -1])
    # the two extra weights move the score as the logistic model says
    logit = x @ np.asarray(combined.weights.weights) + combined.weights.bias
    np.testing.assert_allclose(out.support, 1 / (1 + np.exp(-logit)), rtol=1e-6)


def test_cross_encoder_cache_returns_the_same_scores(nli: NliVerifier) -> None:
    model = nli.model
    model.clear_cache()
    pairs = [(PASSAGE, "Everest is high."), ("y", "x"), (PASSAGE, "Everest is high.")]
    first = model.predict(pairs)
    assert len(model._cache) == 2  # the repeated pair is one entry
    again = model.predict(list(reversed(pairs)))
    np.testing.assert_array_equal(again, first[::-1])
    model.clear_cache()
    assert not model._cache
    np.testing.assert_allclose(model.predict(pairs), first, rtol=1e-6)


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        ("The tower is 330 metres tall.", "Built in 1889, the tower is 330 metres tall.", True),
        ("THE TOWER — is 330 metres “tall”", "the tower is 330 metres tall", True),
        ("The tower is 330 metres tall.", "The tower is 300 metres tall.", False),
        ("The museum opens on Mondays.", "The museum never opens on Mondays.", False),
        ("The museum does not open on Mondays.", "The museum does open on Mondays.", False),
        ("Tall the tower is 330 metres.", "The tower is 330 metres tall.", False),
        ("It is tall.", "It is tall.", False),  # too short to trust words alone
        ("tower is 330 met", "The tower is 330 metres tall.", False),  # words, not characters
        ("ﬁnal score was 3–1 today", "The final score was 3-1 today.", True),  # NFKC
        # a currency or a per cent sign is part of what a number says
        ("The bridge cost €5 billion in all.", "The bridge cost $5 billion in all.", False),
        ("The bridge cost $5 billion in all.", "Overall the bridge cost $5 billion in all.", True),
        ("Its share rose by 5% last year.", "Its share rose by 5 points last year.", False),
        # a number the passage goes on with, or a minus sign before it, is part of it
        ("The film runs for 2 hours.", "The film runs for 2 hours 10 minutes.", False),
        ("5 °C in July is the low.", "Then -5 °C in July is the low.", False),
        ("It was built in 1889 in Paris.", "It was built in 1889 in Paris and 1890 too.", True),
    ],
)
def test_the_verbatim_rule(claim: str, passage: str, found: bool) -> None:
    assert verbatim_in(word_key(claim), word_key(passage)) is found


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        ("The flight takes 2.5 hours.", "Today the flight takes 150 minutes.", True),
        ("It was signed on 21/01/1793.", "In Paris, it was signed on 21 January 1793.", True),
        # a claim that ends with a quantity where the passage's sentence goes on: to the judge
        ("The hike took 120 minutes.", "The hike took 2 hours and a half.", False),
        ("The ferry crossing takes 2.5 hours.", "It takes 150 minutes longer than flying.", False),
        ("The recommended dose is 1 g.", "The recommended dose is 1,000 mg/m2 a day.", False),
        ("Three quarters of voters approved it.", "75% of voters approved it.", True),
        # the claim as written is no business of this rule; another value is no form
        ("The flight takes 150 minutes.", "The flight takes 150 minutes.", False),
        ("The flight takes 2.5 hours.", "The flight takes 160 minutes.", False),
        ("It was signed on 22/01/1793.", "It was signed on 21 January 1793.", False),
        ("The film runs 120 minutes.", "The film runs 2 hours 10 minutes.", False),
        ("It was 23 °F in July.", "It was 5 °C in July, and -5 °C in January.", False),
        ("Water boils at 215 °F at sea level.", "Water boils at 100 °C at sea level.", False),
        # a state in the passage's words, where the passage's sentence ends there too
        ("Telemetry is disabled by default.", "Telemetry is not enabled by default.", True),
        ("The feature is unavailable.", "The feature is not available in the free plan.", False),
        ("The API is disabled.", "The API is not enabled for free users; paid have it.", False),
    ],
)
def test_a_claim_written_with_the_passage_s_forms_may_be_verbatim(
    claim: str, passage: str, found: bool
) -> None:
    from attribution.verify import verbatim_as_written

    assert verbatim_as_written(claim, passage, word_key(passage)) is found


def test_the_verbatim_rule_needs_enough_words() -> None:
    assert VERBATIM_MIN_WORDS == 4
    assert not verbatim_in(word_key(""), word_key("anything at all here"))


@pytest.mark.parametrize(
    ("claim", "passage", "title", "titled"),
    [
        ("It shipped on 12 March 2024.", "Version 3 shipped today.", "Notes: 12 March 2024", True),
        ("It shipped in 2024.", "Version 3 shipped today.", "Annual report 2024", True),
        # a number the title lacks, or gives otherwise: the passage alone
        ("It shipped on 14 March 2024.", "Version 3 shipped today.", "Notes: 12 March 2024", False),
        ("It shipped in 2023.", "Version 3 shipped today.", "Annual report 2024", False),
        # the passage gives the claim's numbers, the claim gives none, no title, the title inside
        ("It shipped in 2024.", "It shipped in 2024.", "Report 2024", False),
        ("It shipped last spring.", "It shipped today.", "Report 2024", False),
        ("It shipped in 2024.", "It shipped today.", None, False),
        ("It shipped in 2024.", "Report 2024. It shipped today.", "Report 2024", False),
        # from a review: a number of the title that is no date of the passage's "today"
        ("It shipped on 12 March 2024.", "It shipped yesterday.", "Notes: 12 March 2024", False),
        ("Revenue rose 8% in 2023.", "Revenue rose 8% in 2022.", "Annual report 2023", False),
        ("In 2023 it grew.", "In 2022 it fell. This year it grew.", "Annual report 2023", False),
        ("The trail has 10 falls.", "Today the trail has falls.", "Top 10 trails", False),
        ("It lasts 15 hours.", "Today it lasts 20 hours.", "iPhone 15 review", False),
        (
            "It shipped on 12 March 2024 with 5 fixes.",
            "It shipped today with 12 fixes.",
            "Notes: 5 March 2024",
            False,
        ),
        ("It shipped on 12 March 2024.", "It shipped today.", "Notes: 12 March 2024 " * 20, False),
    ],
)
def test_a_title_is_read_with_its_passage_only_where_it_alone_gives_the_claims_numbers(
    claim: str, passage: str, title: str | None, titled: bool
) -> None:
    from attribution.verify import titled_passage

    read = titled_passage(claim, passage, title)
    assert read == (f"{title}\n{passage}" if titled else passage)
