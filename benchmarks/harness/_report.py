"""``report.md``: the harness's figures as Markdown tables, with the run's provenance."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

__all__ = ["write_report"]

_VERIFICATION_KEYS = {
    "n",
    "balanced_accuracy",
    "roc_auc",
    "threshold",
    "predicted_supported_rate",
    "supported_share",
    "label_mapping",
    "engine_seconds",
    "baselines",
    "per_group",
    "leave_one_dataset_out",
    "fitted_on_this_dataset",
}


def _f(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _verification_table(datasets: dict[str, Any]) -> list[str]:
    baselines = sorted({b for d in datasets.values() for b in d.get("baselines", {})})
    columns = [
        "dataset", "n", "engine bal. acc", "engine AUC", "held-out bal. acc", "held-out AUC",
        *(f"{b} bal. acc / AUC" for b in baselines),
    ]  # fmt: skip
    lines = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
    for name, d in datasets.items():
        if "balanced_accuracy" not in d:
            continue
        lodo = d.get("held_out") or d.get("leave_one_dataset_out", {})
        cells = [
            name + (" (fitted on)" if d.get("fitted_on_this_dataset") else ""),
            _f(d.get("n")),
            _f(d.get("balanced_accuracy")),
            _f(d.get("roc_auc")),
            _f(lodo.get("balanced_accuracy")),
            _f(lodo.get("roc_auc")),
        ]
        for b in baselines:
            fig = d.get("baselines", {}).get(b, {})
            cells.append(f"{_f(fig.get('balanced_accuracy'))} / {_f(fig.get('roc_auc'))}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _groups_table(name: str, groups: dict[str, Any]) -> list[str]:
    lines = [
        f"\n**{name} by sub-source**\n",
        "| sub-source | n | engine bal. acc | engine AUC | "
        "embedding-threshold@0.6 bal. acc / AUC | lexical-overlap bal. acc / AUC |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for g, d in groups.items():
        e6 = d.get("baselines", {}).get("embedding-threshold@0.6", {})
        lx = d.get("baselines", {}).get("lexical-overlap", {})
        lines.append(
            f"| {g} | {_f(d.get('n'))} | {_f(d.get('balanced_accuracy'))} | "
            f"{_f(d.get('roc_auc'))} | {_f(e6.get('balanced_accuracy'))} / {_f(e6.get('roc_auc'))}"
            f" | {_f(lx.get('balanced_accuracy'))} / {_f(lx.get('roc_auc'))} |"
        )
    return lines


def _methods_table(
    rows: dict[str, dict[str, Any]], columns: list[tuple[str, str]], first: str = "method"
) -> list[str]:
    """A table with one row per method and one column per (key, label)."""
    lines = [
        f"| {first} | " + " | ".join(label for _, label in columns) + " |",
        "|" + " --- |" * (len(columns) + 1),
    ]
    for name, figures in rows.items():
        cells = [_f(figures.get(key)) for key, _ in columns]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def _with_held_out(
    task: dict[str, Any], held: dict[str, Any] | None, engine_key: str = "engine"
) -> dict[str, dict[str, Any]]:
    """Engine, held-out engine (when present) and baselines, in that order."""
    rows: dict[str, dict[str, Any]] = {"engine": task.get(engine_key, {})}
    if held and held.get(engine_key):
        rows["engine, held-out weights"] = held[engine_key]
    rows.update(task.get("baselines", {}))
    return rows


def _task_sections(name: str, d: dict[str, Any]) -> list[str]:
    held = d.get("held_out", {})
    out: list[str] = []
    if "marker_checking" in d:
        task = d["marker_checking"]
        out += [f"\n## Marker checking ({name})\n", task.get("definition", ""), ""]
        out += _methods_table(
            _with_held_out(task, held.get("marker_checking")),
            [
                ("n", "n"),
                ("accuracy", "accuracy"),
                ("balanced_accuracy", "balanced acc."),
                ("predicted_supported_rate", "predicted supported"),
            ],
        )
        confusion = task.get("engine", {}).get("confusion", {})
        if confusion:
            verdicts = sorted({v for row in confusion.values() for v in row})
            out += [
                "",
                "Engine verdicts by expert label:",
                "",
                "| expert label | " + " | ".join(verdicts) + " |",
                "|" + " --- |" * (len(verdicts) + 1),
            ]
            for label, row in confusion.items():
                out.append(
                    f"| {label} | " + " | ".join(str(row.get(v, 0)) for v in verdicts) + " |"
                )
    if "citation_filling" in d:
        task = d["citation_filling"]
        keys = sorted(
            {k for k, v in task.get("engine", {}).items() if isinstance(v, int | float)} - {"n"}
        )
        out += [f"\n## Citation filling ({name})\n", task.get("definition", ""), ""]
        if task.get("judge"):
            out += [f"Judge: {task['judge']}", ""]
        out += _methods_table(
            _with_held_out(task, held.get("citation_filling")),
            [("n", "n"), *[(k, k.replace("_", " ")) for k in keys]],
        )
    if "evidence_localisation" in d:
        task = d["evidence_localisation"]
        rows = dict(task.get("methods", {}))
        held_methods = held.get("evidence_localisation", {}).get("methods", {})
        if "engine" in held_methods:
            rows = {
                "engine": rows.get("engine", {}),
                "engine, held-out weights": held_methods["engine"],
                **{k: v for k, v in rows.items() if k != "engine"},
            }
        out += [
            f"\n## Evidence localisation ({name}, n = {task.get('n')})\n",
            task.get("definition", ""),
            "",
        ]
        out += _methods_table(
            rows,
            [
                ("recall@1", "recall@1"),
                ("recall@3", "recall@3"),
                ("full_set@1", "full set@1"),
                ("full_set@3", "full set@3"),
            ],
        )
    if "span_detection" in d:
        task = d["span_detection"]
        rows = {"engine": task.get("main", {}), **task.get("baselines", {})}
        out += [
            f"\n## Span detection ({name}, n = {task.get('n')})\n",
            task.get("definition", ""),
            "",
        ]
        out += _methods_table(
            rows,
            [
                ("micro_precision", "precision"),
                ("micro_recall", "recall"),
                ("micro_f1", "micro F1"),
                ("mean_f1", "mean F1 per summary"),
            ],
        )
        views = task.get("views", {})
        if views:
            out += ["", "Engine under other readings of the labels:", ""]
            flat = {f"{g}, {p}": v for g, ps in views.items() for p, v in ps.items()}
            out += _methods_table(
                flat,
                [("micro_f1", "micro F1"), ("mean_f1", "mean F1")],
                first="gold, partial support",
            )
    if "sample_level" in d:
        task = d["sample_level"]
        engine = task.get("engine", {})
        rows = {f"engine ({engine.get('main', 'main')})": engine.get(engine.get("main", ""), {})}
        for k, v in engine.items():
            if isinstance(v, dict) and k != engine.get("main"):
                rows[f"engine ({k})"] = v
        rows.update({f"detector: {k}": v for k, v in task.get("detectors", {}).items()})
        rows.update({f"baseline: {k}": v for k, v in task.get("baselines", {}).items()})
        out += [
            f"\n## Sample-level hallucination detection ({name}, n = {task.get('n')})\n",
            task.get("definition", ""),
            "",
        ]
        out += _methods_table(
            rows,
            [
                ("balanced_accuracy", "balanced acc."),
                ("roc_auc", "ROC AUC"),
                ("predicted_hallucinated_rate", "predicted hallucinated"),
            ],
        )
    return out


def _speed_table(speed: dict[str, Any]) -> list[str]:
    rows = speed.get("workloads", [])
    if not rows:
        return ["(no workloads)"]
    lines = [
        "| claims | sources | words/source | total words | passages | mode | p50 ms | p95 ms "
        "| answers/s | peak RSS MB | engine ÷ embedding@0.6 | engine ÷ lexical | match ms "
        "| verify ms |",
        "|" + " ---: |" * 14,
    ]
    for r in rows:
        ratios = r.get("ratio_vs_baselines", {})
        stages = r.get("stages_ms", {})
        cells = [
            r.get("claims"),
            r.get("sources"),
            r.get("words_per_source"),
            r.get("total_words"),
            r.get("passages"),
            r.get("mode"),
            r.get("p50_ms"),
            r.get("p95_ms"),
            r.get("throughput_per_s"),
            r.get("peak_rss_mb"),
            ratios.get("embedding-threshold@0.6"),
            ratios.get("lexical-overlap"),
            stages.get("match"),
            stages.get("verify"),
        ]
        lines.append("| " + " | ".join(_f(c) for c in cells) + " |")
    for name, baseline in speed.get("baselines", {}).items():
        lines += ["", f"Baseline `{name}`: {baseline.get('description', '')}", ""]
        lines += [
            "| claims | sources | words/source | mode | p50 ms | p95 ms | answers/s |",
            "|" + " ---: |" * 7,
        ]
        for r in baseline.get("workloads", []):
            cells = [
                r.get("claims"),
                r.get("sources"),
                r.get("words_per_source"),
                r.get("mode"),
                r.get("p50_ms"),
                r.get("p95_ms"),
                r.get("throughput_per_s"),
            ]
            lines.append("| " + " | ".join(_f(c) for c in cells) + " |")
    return lines


def write_report(
    path: Path, accuracy: dict[str, Any], speed: dict[str, Any] | None, plots: list[Path]
) -> None:
    """Write the Markdown report of one harness run."""
    datasets: dict[str, Any] = accuracy.get("datasets", {})
    lines = [
        "# Attribution benchmark report",
        "",
        f"- commit `{accuracy.get('commit')}`, machine: {accuracy.get('machine')}, "
        f"Python {accuracy.get('python')}",
        f"- verifier: `{accuracy.get('verifier')}`; models: "
        + ", ".join(f"`{k}` ({v[:12]})" for k, v in accuracy.get("models", {}).items()),
        f"- data: `{accuracy.get('data_root')}`; split: {accuracy.get('split', 'all')} "
        "(`benchmarks/splits`; records it does not know count as validation); "
        f"limit per dataset: {accuracy.get('limit')}",
        f"- seconds per task: {accuracy.get('seconds')}",
        "",
        "## Claim verification",
        "",
        "Balanced accuracy at each method's own threshold (the engine's calibrated one; the "
        "baselines' fixed ones) and ROC AUC of the support score. Datasets marked *fitted on* "
        "are where the feature verifier's weights were fitted: the *held-out* columns are "
        "the honest figures there (weights refitted without that dataset).",
        "",
        *_verification_table(datasets),
    ]
    for name, d in datasets.items():
        if "per_group" in d:
            lines += _groups_table(name, d["per_group"])
    lines += ["", "Label mappings:", ""]
    for name, d in datasets.items():
        if "label_mapping" in d:
            lines.append(f"- **{name}**: {d['label_mapping']}")
    for name, d in datasets.items():
        lines += _task_sections(name, d)
    if speed is not None:
        lines += ["", "## Speed and scale", "", *_speed_table(speed)]
        for plot in plots:
            lines += ["", f"![{plot.stem}]({plot.name})"]
    if accuracy.get("notes"):
        lines += ["", "## Notes", "", *[f"- {n}" for n in accuracy["notes"]]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    """Re-render report.md from a run's JSON: ``python -m benchmarks.harness._report DIR``."""
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/out")
    import json as _json

    accuracy = _json.loads((out / "accuracy.json").read_text(encoding="utf-8"))
    speed_path = out / "speed.json"
    speed = _json.loads(speed_path.read_text(encoding="utf-8")) if speed_path.exists() else None
    plots = sorted(out.glob("*.png"))
    write_report(out / "report.md", accuracy, speed, plots)
    print(out / "report.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
