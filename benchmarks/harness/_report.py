"""``report.md``: the harness's figures as Markdown tables, with the run's provenance."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

__all__ = ["write_report"]

_TASK_TITLES = {
    "marker_checking": "Marker checking",
    "citation_filling": "Citation filling",
    "evidence_localisation": "Evidence localisation",
    "span_detection": "Span detection",
    "sample_level": "Sample-level hallucination detection",
}
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
    head = "| dataset | n | engine bal. acc | engine AUC | held-out bal. acc | held-out AUC | "
    head += " | ".join(f"{b} bal. acc / AUC" for b in baselines) + " |"
    lines = [head, "|" + " --- |" * (6 + len(baselines))]
    for name, d in datasets.items():
        if "balanced_accuracy" not in d:
            continue
        lodo = d.get("leave_one_dataset_out", {})
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


def _speed_table(speed: dict[str, Any]) -> list[str]:
    rows = speed.get("workloads", [])
    if not rows:
        return ["(no workloads)"]
    keys = [k for k in rows[0] if not isinstance(rows[0][k], dict | list)]
    lines = ["| " + " | ".join(keys) + " |", "|" + " --- |" * len(keys)]
    for r in rows:
        lines.append("| " + " | ".join(_f(r.get(k)) for k in keys) + " |")
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
        f"- data: `{accuracy.get('data_root')}`; limit per dataset: {accuracy.get('limit')}",
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
        for key, value in d.items():
            if key in _VERIFICATION_KEYS:
                continue
            title = _TASK_TITLES.get(key, key.replace("_", " ").capitalize())
            lines += [
                "",
                f"## {title} ({name})",
                "",
                "```json",
                json.dumps(value, indent=2),
                "```",
            ]
    if speed is not None:
        lines += ["", "## Speed and scale", "", *_speed_table(speed)]
        if speed.get("baselines"):
            lines += ["", "```json", json.dumps(speed["baselines"], indent=2), "```"]
        for plot in plots:
            lines += ["", f"![{plot.stem}]({plot.name})"]
    if accuracy.get("notes"):
        lines += ["", "## Notes", "", *[f"- {n}" for n in accuracy["notes"]]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
