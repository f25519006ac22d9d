"""The feature verifier's fit (benchmarks/fit_feature_verifier.py): sign constraints."""

from __future__ import annotations

import numpy as np

from benchmarks.fit_feature_verifier import SIGNS, fit_logistic, signs_for


def _data(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(400, 3))
    # column 1 truly raises support, but a constraint will say it may only lower it
    logits = 2.0 * x[:, 0] + 1.5 * x[:, 1] - 1.0 * x[:, 2]
    y = (rng.random(400) < 1 / (1 + np.exp(-logits))).astype(float)
    return x, y, np.ones(400)


def test_without_signs_the_fit_is_free() -> None:
    x, y, w = _data()
    weights, _ = fit_logistic(x, y, w)
    assert weights[0] > 1
    assert weights[1] > 1
    assert weights[2] < -0.5
    same, _ = fit_logistic(x, y, w, signs=(0, 0, 0))
    assert np.allclose(weights, same)


def test_a_weight_on_the_wrong_side_is_pinned_to_zero_and_the_rest_refitted() -> None:
    x, y, w = _data()
    free, free_bias = fit_logistic(x, y, w)
    weights, bias = fit_logistic(x, y, w, signs=(1, -1, -1))
    assert weights[1] == 0.0  # wanted to be positive; may only lower the score
    assert weights[0] > 0
    assert weights[2] < 0  # kept: already on its side
    assert not np.allclose(weights[[0, 2]], free[[0, 2]])  # refitted without column 1
    satisfied, _ = fit_logistic(x, y, w, signs=(1, 1, -1))
    assert np.allclose(satisfied, free)  # constraints that hold change nothing
    assert isinstance(bias, float)
    assert isinstance(free_bias, float)


def test_the_signs_of_the_features() -> None:
    names = ("cosine", "numbers_missing", "negation_mismatch", "nli_support", "nli_contradiction")
    assert signs_for(names) == (0, -1, -1, 1, -1)
    assert set(SIGNS) <= {
        "numbers_missing",
        "entities_missing",
        "negation_mismatch",
        "nli_support",
        "nli_contradiction",
    }


def test_the_harness_refits_weights_the_way_they_were_fitted() -> None:
    from attribution.verify import FEATURE_NAMES, NLI_FEATURE_NAMES, FeatureWeights
    from benchmarks.fit_feature_verifier import CONSTRAINED, signs_for, signs_of

    names = FEATURE_NAMES + NLI_FEATURE_NAMES
    common = {
        "features": names,
        "weights": tuple(0.0 for _ in names),
        "bias": 0.0,
        "threshold": 0.5,
        "cross_encoder": "support-verifier-minilm-l6-int8",
    }
    free = FeatureWeights(**common, notes="fitted freely")  # type: ignore[arg-type]
    constrained = FeatureWeights(**common, notes=f"...; {CONSTRAINED}: {{...}}")  # type: ignore[arg-type]
    assert signs_of(free) is None
    assert signs_of(constrained) == signs_for(names)
    assert signs_for(names)[-2:] == (1, -1)
