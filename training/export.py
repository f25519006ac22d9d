"""Export a trained verifier to ONNX (fp32 and dynamically quantised int8) and check it.

The check scores a fixed set of pairs with torch and with onnxruntime and fails when fp32 differs
by more than ``FP32_TOLERANCE`` in any probability (int8 is reported: quantisation moves scores).
The files, their sha256 and the label order are written to ``attribution/models/manifest.json``.
"""

from __future__ import annotations

import json
import shutil
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tokenizers import Tokenizer

from attribution.runtime import file_sha256 as sha256

from .data import LABELS, Example
from .train import BASE_LAYERS, TrainConfig, base_model_dir, collate, encode

__all__ = ["FP32_TOLERANCE", "MODEL_NAME", "export"]

MODEL_NAME = "support-verifier-minilm-l6"
FP32_TOLERANCE = 1e-4
TOKENIZER = "all-minilm-l6-v2/tokenizer.json"
"""The vendored MiniLM tokenizer (the base model's own, byte for byte)."""

CHECK_PAIRS = [
    Example(
        "The Eiffel Tower is 330 metres tall and stands in Paris.", "The tower is in Paris.", 0, ""
    ),
    Example("The Eiffel Tower is 330 metres tall.", "The Eiffel Tower is 500 metres tall.", 2, ""),
    Example("Rust 1.0 was released in May 2015 by Mozilla.", "Rust was released in 2015.", 0, ""),
    Example("The company reported revenue of $4.2 billion.", "Profit rose by 10%.", 1, ""),
    Example("Water boils at 100 °C at sea level.", "Water boils at 90 °C at sea level.", 2, ""),
    Example("She was born in Lyon and studied in Paris.", "She studied in Lyon.", 1, ""),
]


def export(
    trained: Path,
    model_dir: Path,
    config: TrainConfig,
    *,
    manifest: Path | None = None,
    log: Any = print,
) -> dict[str, Any]:
    """Write ``model.onnx`` and ``model.int8.onnx`` into ``model_dir`` and register them.

    Args:
        trained: the transformers folder the training wrote (``<out>/final``).
        model_dir: where the ONNX files go (``attribution/models/support-verifier``).
        config: the training configuration (its ``max_length`` and base tokenizer).
        manifest: the model manifest to update; None: ``model_dir/../manifest.json``.
    """
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModelForSequenceClassification

    if not (trained / "config.json").is_file():
        raise SystemExit(f"{trained} holds no trained model: run the training to the end first")
    manifest = manifest or model_dir.parent / "manifest.json"
    for needed in (manifest, manifest.parent / TOKENIZER):
        if not needed.is_file():
            raise SystemExit(
                f"{needed} is missing: the export registers its files in the manifest beside "
                f"the model folder ({model_dir}), with the vendored tokenizer; export into "
                "attribution/models or a copy of it (manifest.json and all-minilm-l6-v2/)"
            )
    model_dir.mkdir(parents=True, exist_ok=True)
    # eager attention: the plainest graph (no fused-attention mask code to trace)
    model = AutoModelForSequenceClassification.from_pretrained(
        str(trained), attn_implementation="eager"
    ).eval()
    tokenizer = Tokenizer.from_file(str(base_model_dir(config.base) / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    inputs = collate(encode(tokenizer, CHECK_PAIRS, config.max_length))
    fp32 = model_dir / "model.onnx"
    int8 = model_dir / "model.int8.onnx"
    # The TorchScript exporter (dynamo=False) needs no onnxscript. Its warnings (deprecation,
    # tracer notes) are silenced: the check below compares the graph with torch on real pairs.
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            args=(),
            kwargs=dict(inputs),
            f=str(fp32),
            input_names=list(inputs),
            output_names=["logits"],
            dynamic_axes={
                **{name: {0: "batch", 1: "sequence"} for name in inputs},
                "logits": {0: "batch"},
            },
            opset_version=17,
            dynamo=False,
        )
        reference = torch.softmax(model(**inputs).logits, dim=-1).numpy()
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    feeds = {k: v.numpy() for k, v in inputs.items()}
    checks: dict[str, Any] = {}
    for path in (fp32, int8):
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        logits = session.run(None, feeds)[0]
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs = shifted / shifted.sum(axis=1, keepdims=True)
        diff = float(np.abs(probs - reference).max())
        same = bool((probs.argmax(1) == reference.argmax(1)).all())
        checks[path.name] = {"max_abs_diff": float(f"{diff:.3g}"), "same_argmax": same}
        log(f"{path.name}: max |p_onnx - p_torch| = {diff:.2e}, same argmax: {same}")
    if checks[fp32.name]["max_abs_diff"] > FP32_TOLERANCE:
        raise SystemExit(f"fp32 ONNX differs from torch by more than {FP32_TOLERANCE}")
    (model_dir / "config.json").write_text(
        json.dumps(
            {
                "id2label": dict(enumerate(LABELS)),
                "max_position_embeddings": model.config.max_position_embeddings,
            },
            indent=2,
        )
        + "\n"
    )
    for dropped in _register(manifest, model_dir, config):
        log(
            f"{dropped}: the file changed, so its calibrated threshold was dropped (0.5 until "
            "recalibrated): run `make calibrate-verifier`"
        )
    record = {
        "exported": time.strftime("%Y-%m-%d"),
        "checks": checks,
        "files": {p.name: {"bytes": p.stat().st_size, "sha256": sha256(p)} for p in (fp32, int8)},
    }
    (model_dir / "export.json").write_text(json.dumps(record, indent=2) + "\n")
    shutil.copy(trained / "config.json", model_dir / "transformers-config.json")
    return record


def _register(manifest_path: Path, model_dir: Path, config: TrainConfig) -> list[str]:
    """Add (or replace) the fp32 and int8 entries of the manifest. An entry whose file is the
    same (same sha256) keeps its calibrated threshold; returns the names of the entries whose
    threshold was dropped because their file changed."""
    manifest = json.loads(manifest_path.read_text())
    old = {m["name"]: m for m in manifest["models"]}
    dropped: list[str] = []
    folder = model_dir.relative_to(manifest_path.parent).as_posix()
    tokenizer_path = manifest_path.parent / TOKENIZER
    entries = []
    depth = (
        ""
        if not config.layers
        else f" ({config.layers} layers, grown from the base's)"
        if config.layers > BASE_LAYERS
        else f" (its lower {config.layers} layers only)"
    )
    for suffix, file, what in (
        ("int8", "model.int8.onnx", "dynamically quantised int8"),
        ("fp32", "model.onnx", "fp32"),
    ):
        entries.append(
            {
                "name": f"{MODEL_NAME}-{suffix}",
                "kind": "cross_encoder",
                "file": {
                    "path": f"{folder}/{file}",
                    "hint": "train and export it with: make train-verifier",
                },
                "sha256": sha256(model_dir / file),
                "tokenizer": {"path": TOKENIZER},
                "tokenizer_sha256": sha256(tokenizer_path),
                "max_length": config.max_length,
                "labels": list(LABELS),
                "licence": "Apache-2.0 (weights); see "
                "attribution/models/support-verifier/MODEL_CARD.md "
                "for the training data's licences, some non-commercial",
                "description": f"all-MiniLM-L6-v2{depth} fine-tuned here as a 3-way support "
                f"verifier (entailment = the passage fully supports the claim), {what} ONNX. "
                "Trained by training (make train-verifier); card in "
                "attribution/models/support-verifier/MODEL_CARD.md.",
            }
        )
    for entry in entries:
        before = old.get(entry["name"], {})
        if "threshold" not in before:
            continue
        if before.get("sha256") == entry["sha256"]:
            for key in ("threshold", "threshold_fitted_on"):
                if key in before:
                    entry[key] = before[key]
        else:
            dropped.append(entry["name"])
    names = {e["name"] for e in entries}
    models = [m for m in manifest["models"] if m["name"] not in names] + entries
    manifest["models"] = models
    manifest_path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return dropped
