"""The cross-encoder adapter and ONNX sessions, on small real ONNX graphs built here.

No trained cross-encoder exists yet, so the graphs are a stand-in built with ``onnx.helper``:
a seeded embedding table (plus a token-type table) averaged over the attention mask and
projected to logits. They are real ONNX models run by onnxruntime; the tests are about the
adapter around the model (tokenization, truncation, batching, labels, softmax), and a NumPy
re-implementation of the same graph checks the numbers.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import onnx
import pytest
from numpy.typing import NDArray
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer

from attribution import InputError, MissingDependencyError, ModelLoadError
from attribution._config import ModelConfig
from attribution.runtime import ENV_BY_KIND, OnnxCrossEncoder, make_session
from attribution.verify import FeatureVerifier, load_verifier

REPO = Path(__file__).resolve().parents[1]
TOKENIZER = REPO / "attribution" / "models" / "all-minilm-l6-v2" / "tokenizer.json"
NLI = ("entailment", "neutral", "contradiction")
VOCAB, WIDTH = 30522, 8

PAIRS = [
    ("The James Webb Space Telescope launched on 25 December 2021.", "Webb launched in 2021."),
    ("Bananas are a good source of potassium.", "Webb launched in 2021."),
    ("", "An empty passage."),
    ("A passage with an empty claim.", ""),
    ("Water boils at 100 degrees Celsius at sea level.", "Water boils at 90 degrees."),
]


class Weights:
    """The stand-in classifier's parameters, seeded."""

    def __init__(self, n_labels: int, seed: int = 7) -> None:
        rng = np.random.default_rng(seed)
        self.tokens = rng.normal(size=(VOCAB, WIDTH)).astype(np.float32)
        self.types = rng.normal(size=(2, WIDTH)).astype(np.float32)
        self.projection = rng.normal(size=(WIDTH, n_labels)).astype(np.float32)
        self.bias = rng.normal(size=(n_labels,)).astype(np.float32)

    def reference(self, ids: Sequence[int], types: Sequence[int] | None) -> NDArray[np.float32]:
        """Label probabilities of one unpadded sequence, computed with NumPy."""
        hidden = self.tokens[list(ids)]
        if types is not None:
            hidden = hidden + self.types[list(types)]
        logits = hidden.mean(axis=0) @ self.projection + self.bias
        exp = np.exp(logits - logits.max())
        probs: NDArray[np.float32] = (exp / exp.sum()).astype(np.float32)
        return probs


def build_classifier(
    path: Path,
    weights: Weights,
    *,
    token_types: bool = True,
    inputs: Sequence[str] = ("input_ids", "attention_mask"),
    output: str = "logits",
) -> Path:
    """Write a sequence classifier: masked mean of token (+ type) embeddings, then a projection."""
    n_labels = weights.bias.shape[0]
    names = [*inputs, "token_type_ids"] if token_types else list(inputs)
    graph_inputs = [
        helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"]) for n in names
    ]
    ids_name, mask_name = inputs[0], inputs[-1]
    nodes = [
        helper.make_node("Gather", ["token_table", ids_name], ["tok"]),
        helper.make_node("Cast", [mask_name], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["maskf", "axis2"], ["mask3"]),
    ]
    hidden = "tok"
    if token_types:
        nodes += [
            helper.make_node("Gather", ["type_table", "token_type_ids"], ["typ"]),
            helper.make_node("Add", ["tok", "typ"], ["hidden"]),
        ]
        hidden = "hidden"
    nodes += [
        helper.make_node("Mul", [hidden, "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "axis1"], ["total"], keepdims=0),
        helper.make_node("ReduceSum", ["mask3", "axis1"], ["count"], keepdims=0),
        helper.make_node("Div", ["total", "count"], ["pooled"]),
        helper.make_node("MatMul", ["pooled", "projection"], ["scores"]),
        helper.make_node("Add", ["scores", "bias"], [output]),
    ]
    initializers = [
        numpy_helper.from_array(weights.tokens, "token_table"),
        numpy_helper.from_array(weights.projection, "projection"),
        numpy_helper.from_array(weights.bias, "bias"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "axis2"),
    ]
    if token_types:
        initializers.append(numpy_helper.from_array(weights.types, "type_table"))
    graph = helper.make_graph(
        nodes,
        "stand_in_classifier",
        graph_inputs,
        [helper.make_tensor_value_info(output, TensorProto.FLOAT, ["batch", n_labels])],
        initializers,
    )
    # IR 8 / opset 17: what every onnxruntime this project supports reads (onnx writes newer).
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return path


@pytest.fixture(scope="module")
def weights() -> Weights:
    return Weights(n_labels=3)


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory, weights: Weights) -> Path:
    return build_classifier(tmp_path_factory.mktemp("nli") / "model.onnx", weights)


@pytest.fixture(scope="module")
def model(model_path: Path) -> OnnxCrossEncoder:
    return OnnxCrossEncoder.from_path(model_path, TOKENIZER, NLI, max_length=64, threads=1)


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    """The tokenizer as saved, without its fixed 128-token padding and truncation."""
    tokenizer = Tokenizer.from_file(str(TOKENIZER))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


# -- what comes out -----------------------------------------------------------------------------


def test_probabilities_match_the_graph_computed_by_hand(
    model: OnnxCrossEncoder, weights: Weights, tokenizer: Tokenizer
) -> None:
    probs = model.predict(PAIRS)
    assert probs.shape == (len(PAIRS), 3)
    assert probs.dtype == np.float32
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-6)
    for row, (passage, claim) in zip(probs, PAIRS, strict=True):
        encoding = tokenizer.encode(passage, claim)  # premise first, hypothesis second
        assert np.allclose(row, weights.reference(encoding.ids, encoding.type_ids), atol=1e-5)


def test_empty_input_and_bad_pairs(model: OnnxCrossEncoder) -> None:
    empty = model.predict([])
    assert empty.shape == (0, 3)
    assert empty.dtype == np.float32
    with pytest.raises(InputError, match="pair 0 is not a"):
        model.predict([("only one",)])  # type: ignore[list-item]
    with pytest.raises(InputError, match="item 1 is a int"):
        model.predict([("a", "b"), ("c", 4)])  # type: ignore[list-item]


def test_same_pair_scores_the_same_alone_and_in_any_batch(
    model: OnnxCrossEncoder, model_path: Path
) -> None:
    together = model.predict(PAIRS)
    alone = np.vstack([model.predict([pair]) for pair in PAIRS])
    reversed_back = model.predict(PAIRS[::-1])[::-1]
    small = OnnxCrossEncoder.from_path(model_path, TOKENIZER, NLI, 64, batch_size=2)
    for other in (alone, reversed_back, small.predict(PAIRS)):
        assert np.allclose(together, other, atol=1e-6)


def test_a_pair_that_comes_again_in_one_call_is_read_once(
    model_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An answer that repeats a sentence 7,000 times had each copy read by the model (45 s of a
    54 s call); now the copies take the first one's probabilities."""
    import attribution.runtime._cross_encoder as module

    read: list[int] = []
    encode = module.encode_windows

    def counting(tokenizer: Tokenizer, passages: Sequence[str], *rest: object) -> object:
        read.append(len(passages))
        return encode(tokenizer, passages, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "encode_windows", counting)
    for cache in (100_000, 0):
        model = OnnxCrossEncoder.from_path(model_path, TOKENIZER, NLI, 64, threads=1)
        model.cache_size = cache
        a, b = PAIRS[0], PAIRS[1]
        probs = model.predict([a, b, a, a, b])
        assert read == [2]
        alone = OnnxCrossEncoder.from_path(model_path, TOKENIZER, NLI, 64, threads=1)
        first, second = alone.predict([a])[0], alone.predict([b])[0]
        for row, want in zip(probs, (first, second, first, first, second), strict=True):
            assert np.allclose(row, want, atol=1e-6)
        probs[2, 0] = -1.0  # each row is its own copy
        assert probs[0, 0] != -1.0
        assert probs[3, 0] != -1.0
        read.clear()


def test_pairs_that_differ_only_in_where_the_passage_ends_are_two_pairs(
    model: OnnxCrossEncoder, model_path: Path
) -> None:
    """The cache key joined the two texts with a NUL, so ("a\\0b", "c") read ("a", "b\\0c")'s
    scores (in one call since pairs that come again are read once, cache or not)."""
    first = ("Webb launched in 2021.\x00Webb", "launched in 1990.")
    second = ("Webb launched in 2021.", "Webb\x00launched in 1990.")
    together = model.predict([first, second])
    fresh = OnnxCrossEncoder.from_path(model_path, TOKENIZER, NLI, 64, threads=1)
    fresh.cache_size = 0
    assert np.allclose(together[1], fresh.predict([second])[0], atol=1e-6)
    assert np.allclose(together[0], fresh.predict([first])[0], atol=1e-6)
    assert not np.allclose(together[0], together[1], atol=1e-6)


# -- labels -------------------------------------------------------------------------------------


def test_label_roles(model: OnnxCrossEncoder, tmp_path: Path) -> None:
    assert (model.labels, model.support_index, model.contradiction_index) == (NLI, 0, 2)
    binary = build_classifier(tmp_path / "binary.onnx", Weights(n_labels=2))
    supported = OnnxCrossEncoder.from_path(binary, TOKENIZER, ("unsupported", "Supported"))
    assert (supported.support_index, supported.contradiction_index) == (1, None)
    assert supported.predict(PAIRS).shape == (len(PAIRS), 2)
    refuted = OnnxCrossEncoder.from_path(binary, TOKENIZER, ("SUPPORTS", "REFUTES"))
    assert (refuted.support_index, refuted.contradiction_index) == (0, 1)


def test_labels_without_support_or_with_two(model_path: Path) -> None:
    with pytest.raises(ModelLoadError, match=r"none of its labels \['yes', 'no', 'maybe'\]"):
        OnnxCrossEncoder.from_path(model_path, TOKENIZER, ("yes", "no", "maybe"))
    with pytest.raises(ModelLoadError, match="more than one"):
        OnnxCrossEncoder.from_path(model_path, TOKENIZER, ("entailment", "supported", "neutral"))


def test_label_count_must_match_the_graph(model_path: Path) -> None:
    wrong = OnnxCrossEncoder.from_path(model_path, TOKENIZER, ("unsupported", "supported"))
    with pytest.raises(ModelLoadError, match=r"output logits has shape \['batch', 3\]"):
        wrong.predict(PAIRS)


# -- truncation ---------------------------------------------------------------------------------


def test_long_passage_keeps_every_claim_token(
    model: OnnxCrossEncoder, tokenizer: Tokenizer
) -> None:
    passage = " ".join(["the observatory measured the spectrum of a remote galaxy"] * 40)
    claim = "Webb launched on 25 December 2021 from Kourou."
    claim_ids = tokenizer.encode(claim, add_special_tokens=False).ids
    (encoding,) = model.encode_pairs([passage], [claim])
    assert len(encoding.ids) == model.max_length == 64
    second = [i for i, t in zip(encoding.ids, encoding.type_ids, strict=True) if t == 1]
    assert second == [*claim_ids, 102]  # the whole claim, then [SEP]
    assert encoding.ids[: 1 + 10] == tokenizer.encode(passage).ids[: 1 + 10]  # passage start
    # The claim reaches the model: two claims after the same long passage score differently
    # (had the pair been cut from the right, both would have lost their claim entirely).
    other = "Bananas are a good source of potassium and fibre."
    first, second_probs = model.predict([(passage, claim), (passage, other)])
    assert not np.allclose(first, second_probs, atol=1e-4)


def test_claim_longer_than_half_the_window_is_cut_too(model: OnnxCrossEncoder) -> None:
    passage = " ".join(["galaxy"] * 100)
    claim = " ".join(["telescope"] * 100)
    (encoding,) = model.encode_pairs([passage], [claim])
    assert len(encoding.ids) == 64
    budget = 64 - 3
    assert encoding.type_ids.count(0) - 2 == budget // 2  # [CLS] passage [SEP]
    assert encoding.type_ids.count(1) - 1 == budget - budget // 2  # claim [SEP]


def test_short_pairs_are_encoded_as_the_tokenizer_encodes_pairs(
    model: OnnxCrossEncoder, tokenizer: Tokenizer
) -> None:
    for encoding, (passage, claim) in zip(
        model.encode_pairs([p for p, _ in PAIRS], [c for _, c in PAIRS]), PAIRS, strict=True
    ):
        native = tokenizer.encode(passage, claim)
        assert (encoding.ids, encoding.type_ids) == (native.ids, native.type_ids)


# -- graphs of other shapes ---------------------------------------------------------------------


def test_graph_without_token_type_ids(tmp_path: Path, tokenizer: Tokenizer) -> None:
    weights = Weights(n_labels=3, seed=11)
    path = build_classifier(tmp_path / "m.onnx", weights, token_types=False)
    model = OnnxCrossEncoder.from_path(path, TOKENIZER, NLI, max_length=64)
    (probs,) = model.predict(PAIRS[:1])
    encoding = tokenizer.encode(*PAIRS[0])
    assert np.allclose(probs, weights.reference(encoding.ids, None), atol=1e-5)


def test_graph_with_other_inputs_is_refused(tmp_path: Path) -> None:
    path = build_classifier(
        tmp_path / "m.onnx", Weights(3), token_types=False, inputs=("ids", "attention_mask")
    )
    model = OnnxCrossEncoder.from_path(path, TOKENIZER, NLI)
    with pytest.raises(ModelLoadError, match=r"has inputs \['ids', 'attention_mask'\]"):
        model.predict(PAIRS)


def test_graph_with_another_output_is_refused(tmp_path: Path) -> None:
    path = build_classifier(tmp_path / "m.onnx", Weights(3), output="scores_out")
    with pytest.raises(ModelLoadError, match=r"has outputs \['scores_out'\].*reads 'logits'"):
        OnnxCrossEncoder.from_path(path, TOKENIZER, NLI).predict(PAIRS)


# -- loading ------------------------------------------------------------------------------------


def test_from_path_reports_missing_files(model_path: Path, tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match=r"nope.json not found; check the path given to"):
        OnnxCrossEncoder.from_path(model_path, tmp_path / "nope.json", NLI)
    with pytest.raises(ModelLoadError, match=r"nope.onnx not found"):
        OnnxCrossEncoder.from_path(tmp_path / "nope.onnx", TOKENIZER, NLI)


def _export_folder(folder: Path, model_path: Path) -> Path:
    """A folder laid out as ``optimum`` exports one: model, tokenizer, config with labels."""
    folder.mkdir()
    (folder / "model.onnx").symlink_to(model_path)
    (folder / "tokenizer.json").symlink_to(TOKENIZER)
    labels = {"id2label": {"0": "entailment", "1": "neutral", "2": "contradiction"}}
    (folder / "config.json").write_text(json.dumps(labels))
    return folder


def test_from_config_with_an_exported_folder(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _export_folder(tmp_path / "export", model_path)
    monkeypatch.setenv(ENV_BY_KIND["cross_encoder"], str(folder / "model.onnx"))
    model = OnnxCrossEncoder.from_config(ModelConfig(batch_size=4))
    assert (model.labels, model.batch_size, model.max_length) == (NLI, 4, 512)
    assert model.predict(PAIRS).shape == (len(PAIRS), 3)


def test_a_file_that_is_not_a_model(tmp_path: Path) -> None:
    (tmp_path / "bad.onnx").write_bytes(b"not a protobuf")
    with pytest.raises(ModelLoadError, match=r"ONNX model .*bad.onnx cannot be loaded"):
        make_session(tmp_path / "bad.onnx", threads=1)


def test_a_file_that_is_not_a_tokenizer(model_path: Path, tmp_path: Path) -> None:
    (tmp_path / "tokenizer.json").write_text("{}")
    model = OnnxCrossEncoder.from_path(model_path, tmp_path / "tokenizer.json", NLI)
    with pytest.raises(ModelLoadError, match=r"tokenizer .*tokenizer.json cannot be loaded"):
        model.predict(PAIRS)


def test_missing_cpu_provider(model_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import onnxruntime  # type: ignore[import-untyped]

    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: ["CUDAExecutionProvider"])
    with pytest.raises(ModelLoadError, match=r"no CPUExecutionProvider.*pip install onnxruntime"):
        make_session(model_path, threads=1)


def test_missing_onnxruntime(model_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails as if not installed
    with pytest.raises(MissingDependencyError, match="onnxruntime is not installed"):
        make_session(model_path, threads=1)


def test_session_threads(model_path: Path) -> None:
    session = make_session(model_path, threads=2)
    assert [node.name for node in session.get_inputs()] == [
        "input_ids",
        "attention_mask",
        "token_type_ids",
    ]
    ids = np.array([[101, 102]], dtype=np.int64)
    (logits,) = session.run(
        None, {"input_ids": ids, "attention_mask": ids * 0 + 1, "token_type_ids": ids * 0}
    )
    assert logits.shape == (1, 3)


# -- what the pipeline loads --------------------------------------------------------------------


def test_load_verifier_uses_the_configured_cross_encoder(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from attribution.verify import NliVerifier, Pair

    folder = _export_folder(tmp_path / "export", model_path)
    monkeypatch.delenv(ENV_BY_KIND["cross_encoder"], raising=False)
    verifier = load_verifier(ModelConfig(verifier=str(folder / "model.onnx")))
    assert isinstance(verifier, NliVerifier)
    output = verifier.score([Pair(claim=c, passage=p) for p, c in PAIRS])
    assert len(output.support) == len(PAIRS)
    assert output.contradiction is not None


def test_load_verifier_without_feature_weights_fails_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ENV_BY_KIND.values():
        monkeypatch.delenv(name, raising=False)
    directory = tmp_path / "models"
    directory.mkdir()
    (directory / "manifest.json").write_bytes(
        (REPO / "attribution" / "models" / "manifest.json").read_bytes()
    )
    with pytest.raises(
        ModelLoadError, match=r"feature-verifier/weights-combined-dynamic\.json not found"
    ):
        load_verifier(ModelConfig(models_dir=str(directory)))


def test_the_manifest_threshold_is_the_verifier_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from attribution import ConfigError
    from attribution.verify import NliVerifier

    monkeypatch.delenv(ENV_BY_KIND["cross_encoder"], raising=False)
    packaged = REPO / "attribution" / "models"
    manifest = json.loads((packaged / "manifest.json").read_text())
    for entry in manifest["models"]:
        for field in ("file", "tokenizer"):
            ref = entry.get(field)
            if ref and "package" not in ref:
                ref["path"] = str(packaged / ref["path"])  # absolute: this folder has no files
        if entry["name"] == "support-verifier-minilm-l6-int8":
            entry["threshold"] = 0.73
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    config = ModelConfig(models_dir=str(tmp_path), verifier="support-verifier-minilm-l6-int8")
    verifier = load_verifier(config)
    assert isinstance(verifier, NliVerifier)
    assert verifier.threshold == 0.73
    assert NliVerifier(verifier.model, threshold=0.4).threshold == 0.4  # an explicit one wins

    manifest["models"][-1]["threshold"] = 1.5
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises((ConfigError, ModelLoadError), match="threshold"):
        load_verifier(config)


# -- long passages: windows --------------------------------------------------------------------


def test_a_long_passage_is_scored_in_windows_and_the_best_one_wins() -> None:
    from attribution.runtime._cross_encoder import encode_windows

    model = OnnxCrossEncoder.from_config(ModelConfig(), "support-verifier-minilm-l6-int8")
    filler = " ".join(
        f"Sentence {i} describes the weather in a small village on the coast." for i in range(40)
    )
    passage = filler + " The Eiffel Tower is 330 metres tall and stands in Paris."
    claim = "The Eiffel Tower is 330 metres tall."
    tokenizer = model._runtime.tokenizer  # the tokenizer the model loaded
    encodings, owners = encode_windows(tokenizer, [passage, "Short."], [claim, claim], 256, 4)
    assert owners[-1] == 1
    assert owners.count(0) > 1  # the long passage became several windows
    assert all(len(e.ids) <= 256 for e in encodings)
    assert all(claim.split()[-1].rstrip(".") in tokenizer.decode(e.ids) for e in encodings)

    model.max_windows = 1  # the passage cut to its first window: the evidence is lost
    cut = model.predict([(passage, claim)])[0]
    model.clear_cache()
    model.max_windows = 4
    windowed = model.predict([(passage, claim)])[0]
    assert windowed[model.support_index] > cut[model.support_index] + 0.1
    short = model.predict([("The Eiffel Tower is 330 metres tall.", claim)])[0]
    model.clear_cache()
    model.max_windows = 1
    assert np.allclose(short, model.predict([("The Eiffel Tower is 330 metres tall.", claim)])[0])


def test_the_shipped_int8_model_scores_a_pair_the_same_whatever_else_is_in_the_request() -> None:
    # int8 dynamic quantisation takes one scale per batch: only batches of one pair keep a
    # pair's score independent of the others (the default batch_size).
    pairs = [
        ("The Eiffel Tower is 330 metres tall and stands in Paris.", "The tower is 330 m tall."),
        ("Short.", "Tall."),
        ("A much longer passage about other things. " * 20, "Bananas contain potassium."),
    ]
    model = OnnxCrossEncoder.from_config(ModelConfig(), "support-verifier-minilm-l6-int8")
    assert model.batch_size == 1
    alone = model.predict(pairs[:1])[0]
    model.clear_cache()
    assert np.array_equal(model.predict(pairs)[0], alone)
    model.clear_cache()
    assert np.array_equal(model.predict(pairs[::-1])[2], alone)


def _four_threads_at_once(
    model: OnnxCrossEncoder, pairs: Callable[[int], list[tuple[str, str]]], first: int
) -> dict[int, NDArray[np.float32]]:
    """Ten calls from each of four threads started together: ``pairs(k)`` for k from ``first``."""
    import threading

    barrier = threading.Barrier(4)
    results: dict[int, NDArray[np.float32]] = {}

    def call(start: int) -> None:
        barrier.wait()
        for k in range(start, start + 10):
            results[k] = model.predict(pairs(k))

    threads = [threading.Thread(target=call, args=(first + 10 * t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 40
    return results


def test_concurrent_calls_use_the_busy_session_and_score_the_same() -> None:

    from attribution.runtime import resolve_model

    config = ModelConfig(intra_op_threads=2, busy_intra_op_threads=1)
    resolved = resolve_model("support-verifier-minilm-l6-int8", "cross_encoder", config)
    model = OnnxCrossEncoder(resolved, threads=2, busy_threads=1)
    reference = OnnxCrossEncoder(resolved, threads=2)  # one session, its own score cache

    def pairs(k: int) -> list[tuple[str, str]]:  # new pairs each call: no cached score
        return [
            (f"The tower is 330 m tall ({k}).", "The Eiffel Tower is 330 metres tall."),
            (f"Sydney is planned but has no date yet ({k}).", "Orion already runs in Sydney."),
        ]

    model.predict(pairs(-1))
    assert model.busy_calls == 0  # alone: the session with every thread
    assert model._runtime.busy_session is not None
    results = _four_threads_at_once(model, pairs, first=0)
    assert model.busy_calls > 0  # calls overlapped and took the one-thread session
    for k, got in results.items():  # the thread count does not change a score
        assert np.allclose(got, reference.predict(pairs(k)), atol=1e-5)
    with pytest.raises(Exception, match="busy_threads"):
        OnnxCrossEncoder(resolved, busy_threads=0)


def test_weights_fitted_with_another_embedder_are_loaded_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from structlog.testing import capture_logs

    from attribution.runtime import load_embedder

    for name in ENV_BY_KIND.values():
        monkeypatch.delenv(name, raising=False)
    static = load_embedder(ModelConfig(embedder="minilm-static-256"))
    with capture_logs() as logs:
        # the static embedder with its own weights (the default choice): no warning
        load_verifier(ModelConfig(embedder="minilm-static-256"), embedder=static)
    assert [e for e in logs if e["log_level"] == "warning"] == []
    with capture_logs() as logs:
        mixed = ModelConfig(
            embedder="minilm-static-256", feature_weights="feature-verifier-combined"
        )
        verifier = load_verifier(mixed, embedder=static)
    assert isinstance(verifier, FeatureVerifier)
    (warning,) = [e for e in logs if e["log_level"] == "warning"]
    assert warning["event"] == "feature_weights_fitted_with_another_embedder"
    assert warning["fitted_with"] == "all-minilm-l6-v2-int8"
    assert warning["embedder"] == "minilm-static-256"
    assert "--embedder minilm-static-256" in warning["fix"]
    # a file that names no embedder was fitted with the transformer's cosines
    shipped = REPO / "attribution" / "models" / "feature-verifier" / "weights.json"
    unnamed = {k: v for k, v in json.loads(shipped.read_bytes()).items() if k != "embedder"}
    (tmp_path / "unnamed.json").write_text(json.dumps(unnamed))
    with capture_logs() as logs:
        plain = ModelConfig(
            embedder="minilm-static-256", feature_weights=str(tmp_path / "unnamed.json")
        )
        load_verifier(plain, embedder=static)
    (warning,) = [e for e in logs if e["log_level"] == "warning"]
    assert warning["fitted_with"] == "all-minilm-l6-v2-int8"
    # the features-only weights (the README's fast option) are fitted with the default embedder
    with capture_logs() as logs:
        default = load_embedder(ModelConfig())
        load_verifier(ModelConfig(feature_weights="feature-verifier"), embedder=default)
    assert [e for e in logs if e["log_level"] == "warning"] == []
    # an embedder given by path has no name to compare: no warning
    table = REPO / "attribution" / "models" / "minilm-static" / "vectors.npy"
    by_path = load_embedder(ModelConfig(embedder=str(table)))
    with capture_logs() as logs:
        load_verifier(ModelConfig(), embedder=by_path)
    assert [e for e in logs if e["log_level"] == "warning"] == []


def test_a_call_alone_runs_in_lanes_and_scores_the_same() -> None:

    from attribution.runtime import resolve_model

    resolved = resolve_model("support-verifier-minilm-l6-int8", "cross_encoder", ModelConfig())
    model = OnnxCrossEncoder(resolved, threads=2, lanes=2)
    reference = OnnxCrossEncoder(resolved, threads=2)  # one session, one thread of calls

    def pairs(k: int, n: int = 5) -> list[tuple[str, str]]:  # new pairs: no cached score
        return [
            (f"The tower is {330 + i} m tall ({k}).", "The Eiffel Tower is 330 metres tall.")
            for i in range(n)
        ]

    assert np.array_equal(model.predict(pairs(0)), reference.predict(pairs(0)))
    assert model.lane_calls == 1
    assert reference.lane_calls == 0
    model.predict(pairs(1, n=1))  # one batch: nothing to run side by side
    assert model.lane_calls == 1
    assert reference._pool is None
    assert model._pool is not None

    results = _four_threads_at_once(model, pairs, first=10)
    assert model.lane_calls < 41  # calls made while another ran went one batch at a time
    for k, got in results.items():
        assert np.array_equal(got, reference.predict(pairs(k)))
    with pytest.raises(Exception, match="lanes"):
        OnnxCrossEncoder(resolved, lanes=0)


def test_lanes_by_default_on_two_threads_or_more() -> None:
    from attribution.runtime import default_lanes

    assert default_lanes(ModelConfig(intra_op_threads=4)) == 2
    assert default_lanes(ModelConfig(intra_op_threads=1)) == 1
    assert default_lanes(ModelConfig(intra_op_threads=1, lanes=3)) == 3
    with pytest.raises(Exception, match="lanes"):
        ModelConfig(lanes=0)
