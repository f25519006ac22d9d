"""A smoke run of every benchmark task, so the harness can never rot (real engine, real data)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from benchmarks.__main__ import main
from benchmarks.datasets import default_data_root

ROOT = default_data_root()
pytestmark = pytest.mark.skipif(not ROOT.is_dir(), reason=f"no attribution data at {ROOT}")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bench")
    assert main(["--data-root", str(ROOT), "--limit", "2", "--quick-speed", "--out", str(out)]) == 0
    return out


def test_accuracy_json_has_the_documented_shape(report: Path) -> None:
    data = json.loads((report / "accuracy.json").read_text(encoding="utf-8"))
    assert {"commit", "machine", "models", "datasets"} <= set(data)
    assert data["split"] == "validation"  # the default: figures on the validation part only
    assert set(data["models"]) >= {"all-minilm-l6-v2-int8-dynamic"}  # the default embedder
    assert set(data["datasets"]) == {"expertqa", "attributionbench", "wice", "lfqa", "faithbench"}
    for figures in data["datasets"].values():
        assert figures["n"] == 2
        assert {"balanced_accuracy", "roc_auc", "baselines"} <= set(figures)
        assert set(figures["baselines"]) == {
            "embedding-threshold@0.5",
            "embedding-threshold@0.6",
            "embedding-threshold@0.7",
            "lexical-overlap",
        }


def test_report_and_speed_outputs(report: Path) -> None:
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "## Claim verification" in text
    assert "split: validation" in text
    assert "expertqa" in text
    if (report / "speed.json").exists():
        speed = json.loads((report / "speed.json").read_text(encoding="utf-8"))
        assert speed["workloads"]
        assert "## Speed and scale" in text


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--datasets", "nope"])
    assert info.value.code == 2
    assert "unknown dataset nope" in capsys.readouterr().err
    # a report folder that cannot be made is said before any work, not after hours of it
    with pytest.raises(SystemExit) as info:
        main(["--out", __file__, "--tasks", "verification"])
    assert info.value.code == 2
    assert "cannot be a folder for the report" in capsys.readouterr().err


def test_every_report_table_row_has_as_many_cells_as_its_header(report: Path) -> None:
    from benchmarks.harness._report import _verification_table

    text = (report / "report.md").read_text(encoding="utf-8")
    tables = [_verification_table({}), text.split("\n")]
    for lines in tables:
        rows = [line for line in lines if line.startswith("|")]
        for head, rule in itertools.pairwise(rows):
            if set(rule.replace("|", "").split()) <= {"---", "---:"}:
                assert head.count("|") == rule.count("|"), (head, rule)


def test_the_embedding_baselines_keep_their_model_whatever_the_engine_embeds_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from attribution import Attributor
    from benchmarks.harness._context import BASELINE_EMBEDDER, baseline_embedder

    monkeypatch.setenv("ATTRIBUTION_EMBEDDER", "minilm-static-256")
    attributor = Attributor()
    assert attributor.embedder.spec.name == "minilm-static-256"  # type: ignore[attr-defined]
    baseline = baseline_embedder(attributor)
    assert baseline.spec.name == BASELINE_EMBEDDER  # type: ignore[attr-defined]
    monkeypatch.setenv("ATTRIBUTION_EMBEDDER", BASELINE_EMBEDDER)
    same = Attributor()
    assert baseline_embedder(same) is same.embedder  # the engine's own, not a second copy
