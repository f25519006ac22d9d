"""The feature verifier's fit (benchmarks/fit_feature_verifier.py): sign constraints, and a
cross-encoder's own threshold written into the manifest."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from attribution import Attributor
from attribution.verify import NliVerifier
from benchmarks.fit_feature_verifier import (
    SIGNS,
    VETOES,
    Example,
    best_scores,
    fit_gates,
    fit_logistic,
    signs_for,
)

ROOT = Path(__file__).resolve().parents[1]


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


def test_a_cross_encoders_own_threshold_is_fitted_into_its_manifest_entry(
    tmp_path: Path,
    data_root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from attribution import ModelConfig
    from attribution.runtime import OnnxCrossEncoder, load_manifest
    from benchmarks.fit_feature_verifier import main

    model = "support-verifier-minilm-l6-int8"
    models = ROOT / "attribution" / "models"
    folder = tmp_path / "models"
    folder.mkdir()
    data = json.loads((models / "manifest.json").read_text(encoding="utf-8"))
    for entry in data["models"]:  # the same files, by absolute path
        for ref in (entry.get("file"), entry.get("tokenizer")):
            if ref and "package" not in ref:
                ref["path"] = str(models / ref["path"])
        entry.pop("threshold", None)
    (folder / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    argv = ["--data-root", str(data_root), "--limit", "12", "--cross-encoder", model]
    committed = (models / "manifest.json").read_bytes()
    # the models folder the model is read from ($ATTRIBUTION_MODELS_DIR) gets the threshold,
    # not the committed manifest (it got every copy's threshold before)
    monkeypatch.setenv("ATTRIBUTION_MODELS_DIR", str(folder))
    assert main([*argv, "--threshold-only"]) == 0
    assert (models / "manifest.json").read_bytes() == committed
    metrics = json.loads(capsys.readouterr().out)
    spec = next(m for m in load_manifest(folder).models if m.name == model)
    assert spec.threshold == metrics["threshold"]
    assert spec.threshold is not None
    assert 0.0 < spec.threshold < 1.0
    assert "--threshold-only" in spec.threshold_fitted_on
    assert {k.split(".")[0] for k in metrics if "." in k} == {
        "expertqa",
        "attributionbench",
        "wice",
        "lfqa",
    }
    # a verifier made of that model alone takes the threshold from the manifest
    loaded = OnnxCrossEncoder.from_config(ModelConfig(models_dir=str(folder)), model)
    assert NliVerifier(loaded).threshold == spec.threshold


def test_weights_are_fitted_with_the_embedder_asked_for_and_say_so(
    tmp_path: Path,
    data_root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from attribution.verify import FeatureWeights
    from benchmarks.fit_feature_verifier import main

    monkeypatch.delenv("ATTRIBUTION_EMBEDDER", raising=False)
    out = tmp_path / "w.json"
    argv = ["--data-root", str(data_root), "--limit", "12", "--out", str(out)]
    assert main([*argv, "--embedder", "minilm-static-256"]) == 0
    fitted = FeatureWeights.load(out)
    assert fitted.embedder == "minilm-static-256"
    assert fitted.cross_encoder is None
    capsys.readouterr()
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--embedder", "no-such-embedder"])
    assert stopped.value.code == 2
    assert "--embedder: unknown model 'no-such-embedder'" in capsys.readouterr().err
    # the environment would choose another embedder than the one the file records
    monkeypatch.setenv("ATTRIBUTION_EMBEDDER", "all-minilm-l6-v2-int8")
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--embedder", "minilm-static-256"])
    assert stopped.value.code == 2
    assert "unset $ATTRIBUTION_EMBEDDER" in capsys.readouterr().err


def test_the_judges_no_and_contradicts_cap_a_pair_at_its_support() -> None:
    from attribution.verify import judged

    scores = np.array([0.9, 0.9, 0.9, 0.9])
    support = np.array([0.05, 0.6, 0.2, 0.6])
    contradiction = np.array([0.1, 0.1, 0.7, 0.3])
    assert np.allclose(judged(scores, support, contradiction, None, None), scores)
    # below the floor: the model's "no" stands
    assert np.allclose(judged(scores, support, contradiction, 0.1, None), [0.05, 0.9, 0.9, 0.9])
    # a contradiction at the veto and above the support: capped
    assert np.allclose(judged(scores, support, contradiction, None, 0.5), [0.9, 0.9, 0.2, 0.9])
    # never raised: a combined score below the model's support is kept
    low = np.array([0.01, 0.01, 0.01, 0.01])
    assert np.allclose(judged(low, support, contradiction, 0.5, 0.5), low)


def _examples(seed: int, gate_pays: bool) -> list[Example]:
    """Two datasets of one-candidate examples: a cheap signal that says "supported" for every
    positive and for half the negatives, and the model's two columns; where ``gate_pays`` the
    model's P(support) is low on exactly those misleading negatives."""
    rng = np.random.default_rng(seed)
    out = []
    for dataset in ("a", "b"):
        for k in range(200):
            label = k % 2 == 0
            misleading = not label and k % 4 == 1
            signal = 1.0 if label or misleading else -1.0
            support = 0.02 if (misleading and gate_pays) else rng.uniform(0.3, 0.9)
            row = [signal + rng.normal(0, 0.05), support, 0.1]
            out.append(
                Example(
                    dataset=dataset,
                    group=f"{dataset}{k}",
                    label=label,
                    candidates=np.array([row]),
                    relevance=np.array([1.0]),
                )
            )
    return out


def test_the_gates_are_fitted_only_where_they_pay() -> None:
    weights = np.array([3.0, 0.0, 0.0])
    gates, _ = fit_gates(_examples(0, gate_pays=True), weights, 0.0)
    assert gates[0] is not None  # the floor catches the misleading negatives
    assert gates[0] > 0.02
    scores = best_scores(_examples(0, gate_pays=True), weights, 0.0, gates)
    assert scores.max() > 0.9
    assert (scores == 0.02).sum() == 100  # the 50 misleading negatives per dataset, capped
    gates, _ = fit_gates(_examples(1, gate_pays=False), weights, 0.0)
    assert gates == (None, max(VETOES))  # nothing to gain: no floor, the weakest veto


def test_the_engines_join_rules_can_be_fitted_under(attributor: Attributor) -> None:
    """``--engine-join``: the best two candidates joined are a candidate only where the engine
    would count them (its veto, its cross-source rule, its judge gate)."""
    from attribution import CitationSource, VerifyConfig
    from attribution.match import make_passages
    from attribution.verify import FEATURE_NAMES, FeatureVerifier
    from benchmarks.fit_feature_verifier import _joinable, _judge_refuses

    verify = VerifyConfig()
    assert isinstance(attributor.verifier, FeatureVerifier)
    model = attributor.verifier.cross_encoder
    assert model is not None
    threshold = model.spec.threshold
    assert threshold is not None
    n = len(FEATURE_NAMES)
    assert _judge_refuses(model, [0.0] * n + [threshold - 0.01, 0.0], verify)
    assert not _judge_refuses(model, [0.0] * n + [threshold, 0.0], verify)
    assert not _judge_refuses(None, [0.0] * n, verify)  # no judge, no gate
    off = VerifyConfig(joined_needs_judge=False)
    assert not _judge_refuses(model, [0.0] * n + [0.0, 0.0], off)

    claim = "The Eiffel Tower is in Paris and opened in 1889."
    texts = ["The Eiffel Tower is in Paris.", "The tower opened in 1889.", "Everest is high."]
    sources = [CitationSource(id=f"s{k}", type="api", full_content=t) for k, t in enumerate(texts)]
    passages = make_passages(sources, attributor.config.match)
    match = attributor.matcher.match([claim], passages)
    by_text = {passages[c.passage].text: c for c in match.candidates[0]}
    paris, opened = by_text[texts[0]], by_text[texts[1]]
    everest = match.candidate(0, next(p for p, x in enumerate(passages) if x.text == texts[2]))
    assert everest is not None
    calm = [[0.0] * n + [0.5, 0.1]] * 2
    assert _joinable([paris, opened], calm, match, verify)
    # a source without a word of the claim is not joined with another
    assert not _joinable([paris, everest], calm, match, verify)
    # nor is a passage the judge says contradicts the claim
    contradicts = [[0.0] * n + [0.05, 0.95], calm[1]]
    assert not _joinable([paris, opened], contradicts, match, verify)
    assert not _joinable([paris, opened], calm, match, VerifyConfig(pair_passages=False))
    # the engine's own rule, on the passages' indices
    assert match.may_join(0, paris.passage, opened.passage)
    assert not match.may_join(0, paris.passage, everest.passage)
