"""The speed task end to end in its quick mode: real engine, real WiCE text, real plots.

Only the shape of the report is checked; tests never assert on wall-clock values.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from attribution import Attributor
from benchmarks.datasets import default_data_root, load_wice
from benchmarks.harness._context import HarnessContext
from benchmarks.harness._plots import plot_speed
from benchmarks.harness._speed import QUICK_GRID, STAGES, make_workload, run_speed

ROOT = default_data_root()
pytestmark = pytest.mark.skipif(
    load_wice(ROOT).status == "missing", reason=f"WiCE data not under {ROOT}"
)

ENGINE_KEYS = {
    "claims",
    "sources",
    "words_per_source",
    "total_words",
    "passages",
    "mode",
    "runs",
    "p50_ms",
    "p95_ms",
    "mean_ms",
    "throughput_per_s",
    "stages_ms",
    "peak_rss_mb",
    "ratio_vs_baselines",
    "ratio_pairs",
}
BASELINES = ("embedding-threshold@0.6", "lexical-overlap")


@pytest.fixture(scope="module")
def speed() -> dict[str, Any]:
    ctx = HarnessContext(attributor=Attributor(), data_root=ROOT)
    return run_speed(ctx, quick=True)


def test_workloads_cover_the_quick_grid_in_both_modes(speed: dict[str, Any]) -> None:
    assert speed["mode"] == "quick"
    points = {
        (e["claims"], e["sources"], e["words_per_source"], e["mode"]) for e in speed["workloads"]
    }
    expected = {
        (s.claims, s.sources, s.words_per_source, m) for s in QUICK_GRID for m in ("cold", "cached")
    }
    assert points == expected
    assert speed["peak_rss_scope"] in {"workload", "process"}


def test_engine_entries_hold_positive_figures_and_ratios(speed: dict[str, Any]) -> None:
    for entry in speed["workloads"]:
        assert set(entry) == ENGINE_KEYS
        assert entry["runs"] == 1
        for key in ("p50_ms", "p95_ms", "throughput_per_s", "peak_rss_mb", "total_words"):
            assert entry[key] > 0, key
        assert entry["p95_ms"] >= entry["p50_ms"]
        assert set(entry["stages_ms"]) == set(STAGES)
        assert set(entry["ratio_vs_baselines"]) == set(BASELINES)
        for name in BASELINES:
            ratio = entry["ratio_vs_baselines"][name]
            assert math.isfinite(ratio), name
            assert ratio > 0, name
            assert entry["ratio_pairs"][name] == 1


def test_baselines_are_timed_on_every_workload(speed: dict[str, Any]) -> None:
    assert set(speed["baselines"]) == set(BASELINES)
    embedding = speed["baselines"]["embedding-threshold@0.6"]["workloads"]
    lexical = speed["baselines"]["lexical-overlap"]["workloads"]
    assert {e["mode"] for e in embedding} == {"cold", "cached"}
    assert {e["mode"] for e in lexical} == {"none"}
    assert len(embedding) == 2 * len(QUICK_GRID)
    assert len(lexical) == len(QUICK_GRID)
    for entry in embedding + lexical:
        assert entry["p50_ms"] > 0
        assert entry["throughput_per_s"] > 0


def test_plots_are_written_as_png(speed: dict[str, Any], tmp_path: Path) -> None:
    paths = plot_speed(speed, tmp_path / "figures")
    assert [p.name for p in paths] == ["speed_latency.png", "speed_stages.png"]
    for path in paths:
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(data) > 1000


def test_workload_sources_are_distinct_real_text() -> None:
    # Repeated text would be embedded once and flatter the cold figures.
    workload = make_workload(ROOT, claims=12, sources=8, words=2000)
    texts = [s.full_content or "" for s in workload.sources]
    assert len(set(texts)) == len(texts) == 8
    assert all(len(t.split()) >= 2000 for t in texts)
    assert len(workload.claims) == 12
    assert workload.claims_about_sources == 8
    assert workload.answer.count("[") == 4


def test_a_supported_workload_takes_only_claims_wice_labels_supported() -> None:
    from benchmarks.datasets import load_wice

    labels = {c.claim.strip().rstrip("."): c.label for c in load_wice(ROOT).records}
    plain = make_workload(ROOT, claims=10, sources=10, words=400)
    held = make_workload(ROOT, claims=10, sources=10, words=400, supported=True)
    assert all(labels[c] is True for c in held.claims)
    assert not all(labels[c] is True for c in plain.claims)  # the default is mostly not
    assert len({s.full_content for s in held.sources}) == 10


@pytest.mark.parametrize(
    ("options", "embedder"),
    [
        (["--embedder", "all-minilm-l6-v2-int8"], "all-minilm-l6-v2-int8"),
        (["--embedder", "minilm-static-256"], "minilm-static-256"),
        (["--preset", "fast"], "minilm-static-256"),
    ],
)
def test_pipeline_speed_reports_stages_pairs_memory_and_the_baseline(
    options: list[str], embedder: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import pipeline_speed

    out = tmp_path / "speed.json"
    argv = ["--repeat", "2", "--claims", "3", "--sources", "3", "--words", "200"]
    assert pipeline_speed.main([*argv, *options, "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["embedder"] == embedder
    preset = options[1] if options[0] == "--preset" else "default"
    assert figures["preset"] == preset
    assert figures["passages_per_claim"] == 2  # the default reads two as the fast preset does
    assert figures["claims"] == 3
    cold, cached = figures["modes"]["cold sources"], figures["modes"]["cached sources"]
    for row in (cold, cached):
        assert set(row["stages_ms"]) == set(STAGES)
        assert row["p95_ms"] >= row["p50_ms"] > 0
        # at most passages_per_claim + a cited source's best passage + the joined pair
        assert 0 < row["pairs_per_claim"] <= figures["passages_per_claim"] + 2
    assert cold["baseline_p50_ms"] > 0
    assert cold["engine_over_baseline"] > 0
    assert "baseline_p50_ms" not in cached  # the baseline is timed cold only
    assert figures["peak_rss_mb"] > 50
    assert "| cold sources |" in capsys.readouterr().out
