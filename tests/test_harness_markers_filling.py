"""The ExpertQA marker-checking and citation-filling tasks, on the real engine and data."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from attribution import Attributor
from benchmarks.harness import _filling, _markers_task
from benchmarks.harness._baselines import BASELINE_THRESHOLDS
from benchmarks.harness._context import HarnessContext

SUPPORTING = (
    "The Eiffel Tower in Paris is 330 metres tall. It was completed in 1889 for the World's "
    "Fair and was the tallest man-made structure in the world until 1930."
)
UNRELATED = (
    "Honeybees communicate the location of flowers through a waggle dance. A colony can hold "
    "tens of thousands of workers in summer."
)
TRUE_CLAIM = "The Eiffel Tower in Paris is 330 metres tall"
FALSE_CLAIM = "The Great Wall of China was painted bright purple by Napoleon in 1802"


def _in_unit(value: float) -> bool:
    return math.isnan(value) or 0.0 <= value <= 1.0


def _tiny_root(root: Path) -> Path:
    """An ExpertQA file and an LFQA setting whose right answers are known."""
    expertqa = root / "expertqa" / "data" / "lfqa"
    expertqa.mkdir(parents=True)
    answer = f"{TRUE_CLAIM} [1]. {FALSE_CLAIM} [2]."
    row = {
        "question": "How tall is the Eiffel Tower?",
        "answers": {
            "rr_gs_gpt4": {
                "answer_string": answer,
                "claims": [
                    {
                        "claim_string": f"{TRUE_CLAIM} [1].",
                        "evidence": [f"[1] https://a.example/tower\n\n{SUPPORTING}"],
                        "support": "Complete",
                    },
                    {
                        "claim_string": f"{FALSE_CLAIM} [2].",
                        "evidence": [f"[2] https://b.example/bees\n\n{UNRELATED}"],
                        "support": "Incomplete",
                    },
                ],
                "attribution": ["[1] https://a.example/tower", "[2] https://b.example/bees"],
            },
            # URL-only evidence: not a checked system, never read.
            "gpt4": {"answer_string": "Tall [1].", "claims": [], "attribution": []},
        },
    }
    (expertqa / "tiny.jsonl").write_text(json.dumps(row) + "\n")
    lfqa = root / "lfqa-verification" / "data"
    (lfqa / "annotations").mkdir(parents=True)
    (lfqa / "docs").mkdir()
    annotations = [
        {
            "question_id": 7,
            "question": "How tall is the Eiffel Tower?",
            "annotations": [
                {"labels": ["supported"] * 3, "answer": f"{TRUE_CLAIM}."},
                {"labels": ["not_supported"] * 3, "answer": f"{FALSE_CLAIM}."},
            ],
        }
    ]
    (lfqa / "annotations" / "annotations-webgpt.json").write_text(json.dumps(annotations))
    docs = [
        {
            "question_id": 7,
            "docs": [
                {"doc_id": "webgpt:1", "title": "Tower", "text": SUPPORTING},
                {"doc_id": "webgpt:2", "title": "Bees", "text": UNRELATED},
            ],
        }
    ]
    (lfqa / "docs" / "docs-webgpt.json").write_text(json.dumps(docs))
    return root


@pytest.fixture(scope="module")
def tiny_context(
    attributor: Attributor, tmp_path_factory: pytest.TempPathFactory
) -> HarnessContext:
    root = _tiny_root(tmp_path_factory.mktemp("tiny-data"))
    return HarnessContext(attributor=attributor, data_root=root, datasets=("expertqa", "lfqa"))


@pytest.fixture(scope="module")
def marker_report(attributor: Attributor, data_root: Path) -> dict[str, Any]:
    ctx = HarnessContext(attributor=attributor, data_root=data_root, limit=2)
    out = _markers_task.run(ctx)
    assert set(out) == {"expertqa"}
    report: dict[str, Any] = out["expertqa"]["marker_checking"]
    return report


@pytest.fixture(scope="module")
def filling_report(attributor: Attributor, data_root: Path) -> dict[str, Any]:
    ctx = HarnessContext(attributor=attributor, data_root=data_root, limit=2)
    return _filling.run(ctx)


def test_marker_checking_on_real_data_has_sane_figures(marker_report: dict[str, Any]) -> None:
    assert marker_report["answers"] == 2
    assert marker_report["n"] > 0
    assert "Partial" in marker_report["definition"]
    systems = {"engine": marker_report["engine"], **marker_report["baselines"]}
    assert set(marker_report["baselines"]) == set(BASELINE_THRESHOLDS)
    for name, scores in systems.items():
        assert scores["n"] == marker_report["n"], name
        for key in ("accuracy", "balanced_accuracy", "predicted_supported_rate"):
            assert _in_unit(scores[key]), (name, key)
        table = scores["confusion"]
        assert sum(sum(row.values()) for row in table.values()) == marker_report["n"]
        assert set(table) <= {"Complete", "Incomplete", "Missing"}
    assert set(marker_report["engine"]["confusion"]["Complete"]) <= {
        "supported",
        "unsupported",
        "wrong_source",
    }


def test_citation_filling_on_real_data_has_sane_figures(filling_report: dict[str, Any]) -> None:
    assert set(filling_report) == {"expertqa", "lfqa"}
    rates = {
        "expertqa": (
            "expert_evidence_recall",
            "cited_rate_supported",
            "abstain_rate_not_supported",
        ),
        "lfqa": ("citation_recall", "abstain_rate_not_supported", "balanced_accuracy"),
    }
    for dataset, keys in rates.items():
        report = filling_report[dataset]["citation_filling"]
        assert report["answers"] == 2
        assert report["n"] > 0
        assert "engine's own verifier" in report["judge"]
        assert "judge" in report["definition"].lower()
        systems = {"engine": report["engine"], **report["baselines"]}
        assert set(report["baselines"]) == set(BASELINE_THRESHOLDS)
        for name, scores in systems.items():
            assert scores["n"] == report["n"], (dataset, name)
            for key in (*keys, "precision", "judged_recall"):
                assert _in_unit(scores[key]), (dataset, name, key)
            assert scores["citations"] >= 0
        assert sum(report["label_counts"].values()) == report["n"]


def test_marker_checking_gets_a_known_answer_right(tiny_context: HarnessContext) -> None:
    report = _markers_task.run(tiny_context)["expertqa"]["marker_checking"]
    assert report["answers"] == 1
    assert report["n"] == 2
    assert report["engine"]["confusion"] == {
        "Complete": {"supported": 1},
        "Incomplete": {"unsupported": 1},
    }
    assert report["engine"]["accuracy"] == 1.0
    assert report["engine"]["balanced_accuracy"] == 1.0


def test_citation_filling_gets_a_known_answer_right(tiny_context: HarnessContext) -> None:
    out = _filling.run(tiny_context)
    expertqa = out["expertqa"]["citation_filling"]["engine"]
    # The true claim gets the passage the expert judged; the false one gets nothing.
    assert expertqa["n"] == 2
    assert expertqa["expert_evidence_recall"] == 1.0
    assert expertqa["abstain_rate_not_supported"] == 1.0
    assert expertqa["citations"] == 1
    assert expertqa["precision"] == 1.0
    lfqa = out["lfqa"]["citation_filling"]["engine"]
    assert lfqa["n"] == 2
    assert lfqa["citation_recall"] == 1.0
    assert lfqa["abstain_rate_not_supported"] == 1.0
    assert lfqa["balanced_accuracy"] == 1.0


def test_missing_datasets_are_noted_not_raised(attributor: Attributor, tmp_path: Path) -> None:
    ctx = HarnessContext(attributor=attributor, data_root=tmp_path)
    assert _markers_task.run(ctx) == {}
    assert _filling.run(ctx) == {}
    assert len(ctx.notes) == 3
    assert all("missing" in note for note in ctx.notes)


def test_stripping_markers_keeps_a_map_to_the_new_offsets() -> None:
    text = "Paris is big [1]. It has a tower [2][3], and a river."
    stripped = _filling.strip_with_map(text)
    assert stripped.text == "Paris is big. It has a tower, and a river."
    start = text.index("It has")
    end = text.index(", and")
    new_start, new_end = stripped.map(start), stripped.map(end)
    assert stripped.text[new_start:new_end] == "It has a tower"
    # An offset inside a removed marker maps to where the marker was.
    assert stripped.map(text.index("[2]") + 1) == stripped.text.index(",")
