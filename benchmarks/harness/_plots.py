"""Figures for the harness report (matplotlib, the ``bench`` extra).

matplotlib is imported inside each function and the Agg backend chosen there, so importing this
module does no work and never touches a display.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["plot_speed"]

_STAGE_COLOURS = {
    "extract": "#bbbbbb",
    "segment": "#8da0cb",
    "match": "#fc8d62",
    "verify": "#66c2a5",
    "reconcile": "#e78ac3",
}


def _series(entries: Sequence[Mapping[str, Any]], mode: str) -> tuple[list[float], list[float]]:
    """(total source words, p50 ms) of one mode's entries, sorted by words.

    Several workloads share a word count (the claims axis); their mean p50 is drawn so that the
    line stays a function of the x axis, and the points themselves are drawn separately.
    """
    by_words: dict[float, list[float]] = {}
    for e in entries:
        if e["mode"] == mode:
            by_words.setdefault(float(e["total_words"]), []).append(float(e["p50_ms"]))
    xs = sorted(by_words)
    return xs, [sum(by_words[x]) / len(by_words[x]) for x in xs]


def _points(entries: Sequence[Mapping[str, Any]], mode: str) -> tuple[list[float], list[float]]:
    """Every (total source words, p50 ms) point of one mode."""
    chosen = [e for e in entries if e["mode"] == mode]
    return [float(e["total_words"]) for e in chosen], [float(e["p50_ms"]) for e in chosen]


def plot_speed(speed: Mapping[str, Any], out_dir: Path) -> list[Path]:
    """Write the speed figures as PNG files.

    - ``speed_latency.png``: p50 latency per answer against total source words (log-log), the
      engine cold and cached next to both baselines;
    - ``speed_stages.png``: where the engine's cold time goes, per workload (stage medians).

    Args:
        speed: the dict :func:`benchmarks.harness._speed.run_speed` returns.
        out_dir: where to write (created if missing).

    Returns:
        The paths written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    engine = speed["workloads"]
    baselines = speed["baselines"]
    lines: list[tuple[str, Sequence[Mapping[str, Any]], str, str, str]] = [
        ("engine, cold sources", engine, "cold", "C0", "-"),
        ("engine, cached sources", engine, "cached", "C0", "--"),
    ]
    colours = iter(("C3", "C2", "C4", "C5"))
    for name, baseline in baselines.items():
        colour = next(colours, "C7")
        present = {e["mode"] for e in baseline["workloads"]}
        modes = [m for m in ("cold", "cached", "none") if m in present]
        for mode in modes:
            label = name if mode == "none" else f"{name}, {mode}"
            style = "--" if mode == "cached" else "-"
            lines.append((label, baseline["workloads"], mode, colour, style))

    written = []
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for label, entries, mode, colour, style in lines:
        xs, ys = _series(entries, mode)
        ax.plot(xs, ys, style, color=colour, label=label)
        px, py = _points(entries, mode)
        ax.plot(px, py, "o", color=colour, markersize=4)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("total source words per answer")
    ax.set_ylabel("p50 latency per answer (ms)")
    ax.set_title("Latency against workload size (points at one x: 5 / 10 / 20 claims)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "speed_latency.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)

    cold = [e for e in engine if e["mode"] == "cold"]
    fig, ax = plt.subplots(figsize=(7.5, 5))
    labels = [f"{e['claims']}c·{e['sources']}s·{e['words_per_source']}w" for e in cold]
    bottoms = [0.0] * len(cold)
    for stage, colour in _STAGE_COLOURS.items():
        heights = [float(e.get("stages_ms", {}).get(stage, 0.0)) for e in cold]
        ax.bar(labels, heights, bottom=bottoms, color=colour, label=stage)
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    ax.set_ylabel("median ms per answer (cold sources)")
    ax.set_xlabel("workload: claims · sources · words per source")
    ax.set_title("Engine time per stage, cold sources")
    ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "speed_stages.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)
    return written
