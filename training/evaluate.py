"""Score the exported verifier on the held-out NLI sets, through the engine's own runtime.

For each set and each ONNX file: 3-way accuracy, and P(entailment) as a binary support score
(entailment vs the rest): balanced accuracy at 0.5 and ROC AUC. Also pairs/s on this machine.
Written to ``<model_dir>/heldout.json``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attribution.runtime import OnnxCrossEncoder
from benchmarks.harness._metrics import balanced_accuracy, roc_auc

from .data import LABELS, heldout_sets
from .export import TOKENIZER
from .train import TrainConfig

__all__ = ["evaluate", "load", "three_way_truth"]


def load(model_dir: Path, file: str, config: TrainConfig) -> OnnxCrossEncoder:
    """One exported file as the engine loads a cross-encoder."""
    tokenizer = model_dir.parent / TOKENIZER
    if not tokenizer.is_file():
        tokenizer = model_dir / "tokenizer.json"
    return OnnxCrossEncoder.from_path(
        model_dir / file, tokenizer, labels=LABELS, max_length=config.max_length
    )


def three_way_truth(labels: NDArray[np.int64]) -> bool:
    """Whether every label is one of the model's three (a set with "not entailment" labels,
    such as attribution_validation: supported, partial, not supported, has no 3-way truth)."""
    return set(labels.tolist()) <= set(range(len(LABELS)))


def evaluate(
    model_dir: Path,
    data_root: Path,
    config: TrainConfig,
    *,
    limit: int = 2000,
    files: tuple[str, ...] = ("model.int8.onnx", "model.onnx"),
    log: Any = print,
) -> dict[str, Any]:
    sets = heldout_sets(data_root, config.mix, limit=limit)
    results: dict[str, Any] = {}
    for file in files:
        model = load(model_dir, file, config)
        model.predict([("warm", "up")])
        per_set: dict[str, Any] = {}
        pairs_total, seconds_total = 0, 0.0
        for name, examples in sets.items():
            started = time.perf_counter()
            probs = model.predict([(e.passage, e.claim) for e in examples])
            seconds_total += time.perf_counter() - started
            pairs_total += len(examples)
            gold = np.array([e.label for e in examples])
            support = probs[:, 0]
            per_set[name] = {
                "n": len(examples),
                **(
                    {"accuracy_3way": round(float((probs.argmax(1) == gold).mean()), 4)}
                    if three_way_truth(gold)
                    else {}
                ),
                "support_balanced_accuracy": round(balanced_accuracy(support >= 0.5, gold == 0), 4),
                "support_auc": round(roc_auc(support, gold == 0), 4),
            }
            log(f"{file} {name}: {per_set[name]}")
        per_set["pairs_per_second"] = round(pairs_total / seconds_total, 1)
        log(f"{file}: {per_set['pairs_per_second']} pairs/s")
        results[file] = per_set
    (model_dir / "heldout.json").write_text(json.dumps(results, indent=2) + "\n")
    return results
