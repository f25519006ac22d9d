"""The WiCE evidence-localisation and FaithBench span-detection tasks, on the real engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from attribution import Attributor
from benchmarks.harness import _localisation, _spans
from benchmarks.harness._baselines import BASELINE_THRESHOLDS
from benchmarks.harness._context import HarnessContext

LOCALISATION_KEYS = {"recall@1", "recall@3", "full_set@1", "full_set@3"}

ARTICLE = [
    "The Harbour Bridge in Kelso opened to traffic on 4 May 1931 after three years of work.",
    "Kelso is a market town in the Scottish Borders with a population of about 6,800.",
    "The local rugby club plays its home games at Poynder Park.",
]
SOURCE = (
    "Northwind Airlines reported a net profit of 42 million euros for 2023, up from a loss "
    "the year before. The airline carried 9.1 million passengers, a record for the company. "
    "Its chief executive, Maria Lindqvist, said fuel costs had fallen in the second half. "
    "The board proposed a dividend of 0.15 euros per share."
)
FAITHFUL = "Northwind Airlines reported a net profit of 42 million euros for 2023."
INVENTED = "The airline also plans to open a flight school in Antarctica next spring."


def _context(attributor: Attributor, root: Path, limit: int | None = None) -> HarnessContext:
    return HarnessContext(attributor=attributor, data_root=root, limit=limit)


def _is_share(value: Any) -> bool:
    return value is None or (isinstance(value, float) and 0.0 <= value <= 1.0)


# -- WiCE evidence localisation -------------------------------------------------------------


def test_sentence_map_offsets_and_overlap() -> None:
    sentences = _localisation.SentenceMap.join(["Ab.", "", "Cd ef.", "G."])
    assert sentences.text == "Ab.  Cd ef. G."
    for i, s in enumerate(["Ab.", "", "Cd ef.", "G."]):
        assert sentences.text[sentences.starts[i] : sentences.ends[i]] == s
    assert sentences.covered(0, 3) == [0]
    assert sentences.covered(2, 7) == [0, 2]  # the empty sentence is never covered
    assert sentences.covered(3, 5) == []  # only the separators
    assert sentences.covered(5, len(sentences.text)) == [2, 3]


def test_localisation_on_real_wice(attributor: Attributor, data_root: Path) -> None:
    ctx = _context(attributor, data_root, limit=2)
    out = _localisation.run(ctx)
    if not out:
        pytest.skip("WiCE is missing")
    report = out["wice"]["evidence_localisation"]
    assert report["n"] == 2
    assert set(report["n_by_label"]) <= set(_localisation.INCLUDED_LABELS)
    assert set(report["methods"]) == set(_localisation.METHODS)
    for figures in report["methods"].values():
        assert set(figures) == LOCALISATION_KEYS
        assert all(_is_share(v) for v in figures.values())
        # Containing a whole gold set implies containing a gold sentence; @3 is never below @1.
        assert figures["full_set@1"] <= figures["recall@1"] <= figures["recall@3"]
        assert figures["full_set@1"] <= figures["full_set@3"] <= figures["recall@3"]
    assert isinstance(report["definition"], str)
    assert report["definition"]


def test_localisation_finds_the_obvious_sentence(attributor: Attributor, tmp_path: Path) -> None:
    folder = tmp_path / "wice/data/entailment_retrieval/claim"
    folder.mkdir(parents=True)
    rows = [
        {
            "claim": "The Harbour Bridge in Kelso opened to traffic in May 1931.",
            "evidence": ARTICLE,
            "supporting_sentences": [[0]],
            "label": "supported",
        },
        # Not measured: no gold set, and a label without one.
        {"claim": "Kelso has a zoo.", "evidence": ARTICLE, "label": "not_supported"},
        {"claim": "Kelso is old.", "evidence": ARTICLE, "label": "supported"},
    ]
    (folder / "dev.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    report = _localisation.run(_context(attributor, tmp_path))["wice"]["evidence_localisation"]
    assert report["n"] == 1
    assert report["skipped"] == {"no gold sentence set": 1}
    for method in _localisation.METHODS:
        assert report["methods"][method]["recall@1"] == 1.0, method
        assert report["methods"][method]["full_set@1"] == 1.0, method


def test_localisation_notes_a_missing_dataset(attributor: Attributor, tmp_path: Path) -> None:
    ctx = _context(attributor, tmp_path)
    assert _localisation.run(ctx) == {}
    assert any(note.startswith("wice: missing") for note in ctx.notes)


# -- FaithBench span detection --------------------------------------------------------------


def _check_span_report(report: dict[str, Any]) -> None:
    for key in ("micro_precision", "micro_recall", "micro_f1", "mean_f1"):
        assert _is_share(report[key]), key
    assert all(isinstance(report[k], int) and report[k] >= 0 for k in ("tp", "fp", "fn"))


def _check_sample_report(report: dict[str, Any], n: int) -> None:
    assert report["n"] == n
    for key in ("balanced_accuracy", "roc_auc", "predicted_hallucinated_rate"):
        assert _is_share(report[key]), key


def test_spans_on_real_faithbench(attributor: Attributor, data_root: Path) -> None:
    ctx = _context(attributor, data_root, limit=2)
    out = _spans.run(ctx)
    if not out:
        pytest.skip("FaithBench is missing")
    spans = out["faithbench"]["span_detection"]
    assert spans["n"] == 2
    assert spans["skipped"] == {}
    _check_span_report(spans["main"])
    assert set(spans["views"]) == {"gold=Unwanted", "gold=Unwanted+Questionable"}
    for view in spans["views"].values():
        assert set(view) == {"partial_as_unsupported", "partial_as_supported"}
        for report in view.values():
            _check_span_report(report)
    assert set(spans["baselines"]) == set(BASELINE_THRESHOLDS)
    samples = out["faithbench"]["sample_level"]
    assert samples["n"] == 2
    for view in ("partial_as_unsupported", "partial_as_supported"):
        _check_sample_report(samples["engine"][view], 2)
    assert {"hhem-2.1", "trueteacher"} <= set(samples["detectors"])
    for report in (*samples["detectors"].values(), *samples["baselines"].values()):
        _check_sample_report(report, 2)
    # HHEM gives a probability, so it has an AUC slot; TrueTeacher's 0/1 verdicts do not.
    assert samples["detectors"]["trueteacher"]["roc_auc"] is None
    assert spans["definition"]
    assert samples["definition"]


def test_spans_flag_the_invented_sentence(attributor: Attributor, tmp_path: Path) -> None:
    summary = f"{FAITHFUL} {INVENTED}"
    start = summary.index(INVENTED)
    samples = [
        {
            "sample_id": 0,
            "source": SOURCE,
            "summary": summary,
            "annotations": [
                {
                    "label": ["Unwanted", "Unwanted.Extrinsic"],
                    "summary_span": INVENTED,
                    "summary_start": start,
                    "summary_end": start + len(INVENTED),
                }
            ],
            "metadata": {"summarizer": "test", "hhem-2.1": 0.1, "trueteacher": 0},
        },
        {
            "sample_id": 1,
            "source": SOURCE,
            "summary": FAITHFUL,
            "annotations": [],
            "metadata": {"summarizer": "test", "hhem-2.1": 0.9, "trueteacher": 1},
        },
    ]
    folder = tmp_path / "faithbench/data_for_release"
    folder.mkdir(parents=True)
    (folder / "batch_1.json").write_text(json.dumps({"samples": samples}))
    out = _spans.run(_context(attributor, tmp_path))["faithbench"]
    main = out["span_detection"]["main"]
    # Exactly the invented sentence is flagged: every gold character found, nothing else.
    assert main["fp"] == 0
    assert main["fn"] == 0
    assert main["micro_f1"] == 1.0
    assert main["mean_f1"] == 1.0
    engine = out["sample_level"]["engine"]["partial_as_unsupported"]
    assert engine["balanced_accuracy"] == 1.0
    assert engine["roc_auc"] == 1.0
    detectors = out["sample_level"]["detectors"]
    assert detectors["hhem-2.1"]["roc_auc"] == 1.0
    assert detectors["trueteacher"]["balanced_accuracy"] == 1.0


def test_spans_note_a_missing_dataset(attributor: Attributor, tmp_path: Path) -> None:
    ctx = _context(attributor, tmp_path)
    assert _spans.run(ctx) == {}
    assert any(note.startswith("faithbench: missing") for note in ctx.notes)
