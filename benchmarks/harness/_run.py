"""Run the harness's tasks and write ``accuracy.json``, ``speed.json``, ``report.md`` and plots."""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attribution import Attributor, FeatureVerifier, NliVerifier
from benchmarks.datasets import SplitName
from benchmarks.foundation import commit

from ._context import HarnessContext

__all__ = ["ACCURACY_TASKS", "TASKS", "clean_json", "run_harness"]

# name -> (module, function); each accuracy task returns {dataset: {key: value}} to merge.
ACCURACY_TASKS: dict[str, tuple[str, str]] = {
    "verification": ("._verification", "run"),
    "markers": ("._markers_task", "run"),
    "filling": ("._filling", "run"),
    "localisation": ("._localisation", "run"),
    "spans": ("._spans", "run"),
}
TASKS = (*ACCURACY_TASKS, "speed")


def _merge(into: dict[str, Any], new: dict[str, Any]) -> None:
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _models(attributor: Attributor) -> dict[str, str]:
    """Name -> sha256 of every model file the engine used."""
    from attribution.runtime import resolve_model

    out: dict[str, str] = {}
    embedder = resolve_model(None, "embedder", attributor.config.model)
    out[embedder.spec.name] = _sha256(embedder.path)
    verifier = attributor.verifier
    cross_encoder = None
    if isinstance(verifier, FeatureVerifier):
        weights = resolve_model(None, "feature_weights", attributor.config.model)
        out[weights.spec.name] = _sha256(weights.path)
        cross_encoder = verifier.cross_encoder
    elif isinstance(verifier, NliVerifier):
        cross_encoder = verifier.model
    else:
        out[verifier.name] = "not a manifest model"
    if cross_encoder is not None:
        out[cross_encoder.spec.name] = _sha256(cross_encoder.resolved.path)
    return out


def _task(name: str) -> Callable[..., Any] | None:
    module, function = ACCURACY_TASKS[name]
    try:
        mod = importlib.import_module(module, __package__)
    except ModuleNotFoundError:
        return None
    fn: Callable[..., Any] = getattr(mod, function)
    return fn


def _held_out_engines(ctx: HarnessContext) -> dict[str, Attributor]:
    """For each fitted-on dataset, an engine whose feature weights were fitted without it.

    The weights are refitted exactly as ``make fit-verifier`` fits them, on the examples of the
    other datasets in the run's split (``--split`` and ``--limit`` apply), and share the models
    and embedding cache of the engine under test.
    """
    from attribution import FeatureWeights
    from benchmarks.fit_feature_verifier import (
        DATASETS,
        build_examples,
        fit_all,
        gated_of,
        signs_of,
    )

    base = ctx.attributor
    verifier = base.verifier
    if not isinstance(verifier, FeatureVerifier):
        return {}
    fitted = [d for d in DATASETS if d in ctx.datasets and d in verifier.weights.fitted_on]
    if not fitted:
        return {}
    examples = build_examples(
        ctx.data_root,
        ctx.limit,
        matcher=base.matcher,
        datasets=DATASETS,
        cross_encoder=verifier.cross_encoder,
        split=ctx.split,
    )
    engines: dict[str, Attributor] = {}
    for dataset in fitted:
        train = [e for e in examples if e.dataset != dataset]
        if len({e.dataset for e in train}) < 1 or len({e.label for e in train}) < 2:
            ctx.notes.append(f"{dataset}: too little other data to refit held-out weights")
            continue
        w, b, threshold, gates = fit_all(
            train, signs_of(verifier.weights), gated=gated_of(verifier.weights)
        )
        weights = FeatureWeights(
            features=verifier.weights.feature_names,
            cross_encoder=verifier.weights.cross_encoder,
            weights=tuple(float(x) for x in w),
            bias=b,
            threshold=threshold,
            nli_floor=gates[0],
            nli_veto=gates[1],
            embedder=verifier.weights.embedder,
            fitted_on={d: sum(e.dataset == d for e in train) for d in {e.dataset for e in train}},
            notes=f"held-out weights: fitted without {dataset}",
        )
        engine = Attributor(
            base.config,
            embedder=base.embedder,
            verifier=FeatureVerifier(
                weights, embedder=base.embedder, cross_encoder=verifier.cross_encoder
            ),
            segmenter=base.segmenter,
            cache=base.cache,  # share the embeddings
        )
        engines[dataset] = engine
    return engines


def run_harness(
    *,
    data_root: Path,
    out: Path,
    datasets: tuple[str, ...],
    tasks: tuple[str, ...],
    limit: int | None,
    quick_speed: bool,
    held_out: bool = True,
    attributor: Attributor | None = None,
    split: SplitName = "validation",
) -> dict[str, Any]:
    """Run the chosen tasks and write the reports into ``out``; returns accuracy.json's dict.

    Every accuracy task sees only the records of ``split`` (``validation`` by default; see
    ``benchmarks/splits``), recorded as ``accuracy.json``'s ``split``. The speed task times
    WiCE text whatever the split (it reads no label).

    With ``held_out`` (the default), every accuracy task is run a second time on each dataset
    the feature verifier was fitted on, with weights refitted without that dataset; those
    figures land under ``datasets[NAME]["held_out"]`` and are the ones to quote.
    """
    attributor = attributor or Attributor()
    ctx = HarnessContext(
        attributor=attributor, data_root=data_root, datasets=datasets, limit=limit, split=split
    )
    started = time.perf_counter()
    attributor.warm_up()
    accuracy: dict[str, Any] = {
        "commit": commit(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}",
        "python": platform.python_version(),
        "models": _models(attributor),
        "verifier": attributor.verifier.name,
        "data_root": str(data_root),
        "limit": limit,
        "split": split,
        "datasets": {},
        "seconds": {},
    }
    for name in tasks:
        if name == "speed":
            continue
        fn = _task(name)
        if fn is None:
            ctx.notes.append(f"task {name}: not available in this version; skipped")
            continue
        print(f"== {name}", file=sys.stderr)
        t0 = time.perf_counter()
        # A task reports only on the datasets asked for, whatever it computed.
        _merge(accuracy["datasets"], {d: v for d, v in fn(ctx).items() if d in ctx.datasets})
        accuracy["seconds"][name] = round(time.perf_counter() - t0, 1)
    accuracy_tasks = [t for t in tasks if t != "speed"]
    if held_out and accuracy_tasks:
        print("== held-out: refitting the feature verifier without each dataset", file=sys.stderr)
        t0 = time.perf_counter()
        for dataset, engine in _held_out_engines(ctx).items():
            sub_ctx = HarnessContext(
                attributor=engine,
                data_root=data_root,
                datasets=(dataset,),
                limit=limit,
                split=split,
            )
            for name in accuracy_tasks:
                fn = _task(name)
                if fn is None:
                    continue
                print(f"== held-out {dataset}: {name}", file=sys.stderr)
                for d, figures in fn(sub_ctx).items():
                    if d != dataset:
                        continue
                    target = accuracy["datasets"].setdefault(d, {}).setdefault("held_out", {})
                    _merge(target, figures)
        accuracy["seconds"]["held_out"] = round(time.perf_counter() - t0, 1)
    speed: dict[str, Any] | None = None
    if "speed" in tasks:
        try:
            from ._speed import run_speed
        except ModuleNotFoundError:
            ctx.notes.append("task speed: not available in this version; skipped")
        else:
            print("== speed", file=sys.stderr)
            t0 = time.perf_counter()
            speed = run_speed(ctx, quick=quick_speed)
            speed.update({"commit": accuracy["commit"], "machine": accuracy["machine"]})
            accuracy["seconds"]["speed"] = round(time.perf_counter() - t0, 1)
    accuracy["notes"] = ctx.notes
    accuracy["seconds"]["total"] = round(time.perf_counter() - started, 1)

    out.mkdir(parents=True, exist_ok=True)
    (out / "accuracy.json").write_text(json.dumps(clean_json(accuracy), indent=2) + "\n")
    plots: list[Path] = []
    if speed is not None:
        (out / "speed.json").write_text(json.dumps(clean_json(speed), indent=2) + "\n")
        try:
            from ._plots import plot_speed
        except ModuleNotFoundError:
            ctx.notes.append("plots: matplotlib is not installed; pip install 'attribution[bench]'")
        else:
            plots = plot_speed(speed, out)
    from ._report import write_report

    write_report(out / "report.md", accuracy, speed, plots)
    return accuracy


def clean_json(value: Any) -> Any:
    """``value`` with NaN and infinities as null (JSON has no NaN) and NumPy scalars as numbers."""
    if isinstance(value, dict):
        return {str(k): clean_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_json(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value
    if hasattr(value, "item"):  # a NumPy scalar
        value = value.item()
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    return value
