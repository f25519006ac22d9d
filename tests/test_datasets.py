"""The dataset loaders, on the real development data and on small copies of its layout.

The real-data tests skip when the data folder is absent; the copy tests build each dataset's
layout in ``tmp_path`` from a few real rows plus one malformed row, so they also prove that the
loaders read whatever a root holds (the held-out half has other file names and row counts).
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from attribution import ConfigError
from benchmarks.datasets import (
    DATASETS,
    PATTERNS,
    DatasetLoad,
    DatasetName,
    ExpertQAAnswer,
    FaithBenchSample,
    LFQAAnswer,
    Loaded,
    WiCEClaim,
    default_data_root,
    docs_file_for,
    load_all,
    load_expertqa,
    load_faithbench,
    load_lfqa,
    load_verification,
    load_wice,
)
from benchmarks.datasets._expertqa import locate

DATA = default_data_root()
needs_data = pytest.mark.skipif(
    not DATA.is_dir(), reason=f"attribution data folder not found at {DATA}"
)

EXPERTQA_FILE = DATA / "expertqa/data/lfqa/rand_val.jsonl"
AB_FILE = DATA / "attributionbench/data/dev_all_subset_balanced.jsonl"
WICE_FILE = DATA / "wice/data/entailment_retrieval/claim/dev.jsonl"
LFQA_DIR = DATA / "lfqa-verification/data"
FAITHBENCH_FILE = DATA / "faithbench/data_for_release/batch_1.json"


@pytest.fixture(scope="module")
def root() -> Path:
    if not DATA.is_dir():
        pytest.skip(f"attribution data folder not found at {DATA}")
    return DATA


@pytest.fixture(scope="module")
def flat(root: Path) -> dict[DatasetName, DatasetLoad]:
    return load_all(root)


@pytest.fixture(scope="module")
def expertqa(root: Path) -> Loaded[ExpertQAAnswer]:
    return load_expertqa(root)


@pytest.fixture(scope="module")
def lfqa(root: Path) -> Loaded[LFQAAnswer]:
    return load_lfqa(root)


@pytest.fixture(scope="module")
def faithbench(root: Path) -> Loaded[FaithBenchSample]:
    return load_faithbench(root)


@pytest.fixture(scope="module")
def wice(root: Path) -> Loaded[WiCEClaim]:
    return load_wice(root)


def _majority(raw_label: str) -> str | None:
    votes = raw_label.split("/")
    label, count = Counter(votes).most_common(1)[0]
    return label if 2 * count > len(votes) else None


# The documented mappings, written out again so that a change in the code shows here.
_EXPECTED_LABEL: dict[DatasetName, dict[str, bool | None]] = {
    "expertqa": {
        "Complete": True,
        "Incomplete": False,
        "Missing": False,
        "Partial": None,
        "N/A": None,
        "null": None,
    },
    "attributionbench": {"attributable": True, "not attributable": False},
    "wice": {"supported": True, "not_supported": False, "partially_supported": None},
    "lfqa": {"supported": True, "not_supported": False, "partially": None},
    "faithbench": {"Consistent": True, "Benign": True, "Questionable": True, "Unwanted": False},
}


# --- the real development data ---------------------------------------------------------------


@pytest.mark.parametrize("dataset", DATASETS)
def test_real_dataset_loads_both_labels(
    flat: dict[DatasetName, DatasetLoad], dataset: DatasetName
) -> None:
    load = flat[dataset]
    assert load.status == "ok", load.path
    assert load.files
    assert load.rows_read > 0
    assert load.skipped == ()
    counts = load.label_counts
    assert counts["supported"] > 0
    assert counts["not_supported"] > 0
    assert sum(counts.values()) == len(load.examples)
    for ex in load.examples:
        assert ex.dataset == dataset
        assert ex.claim.strip()
        assert ex.evidence
        assert any(e.strip() for e in ex.evidence)
        assert ex.group


@pytest.mark.parametrize("dataset", DATASETS)
def test_real_labels_map_as_documented(
    flat: dict[DatasetName, DatasetLoad], dataset: DatasetName
) -> None:
    mapping = _EXPECTED_LABEL[dataset]
    excluded: Counter[str] = Counter()
    for ex in flat[dataset].examples:
        key = (_majority(ex.raw_label) or "tie") if dataset == "lfqa" else ex.raw_label
        assert ex.label is mapping.get(key), (ex.example_id, ex.raw_label)
        if ex.label is None:
            excluded[key] += 1
    assert flat[dataset].excluded == dict(sorted(excluded.items()))


def test_real_ids_are_unique_and_stable(flat: dict[DatasetName, DatasetLoad]) -> None:
    ids = [ex.example_id for load in flat.values() for ex in load.examples]
    assert len(ids) == len(set(ids))
    again = load_verification(DATA, "faithbench")
    assert [ex.example_id for ex in again.examples] == [
        ex.example_id for ex in flat["faithbench"].examples
    ]


def test_partial_as_decides_partial_support(flat: dict[DatasetName, DatasetLoad]) -> None:
    partials: tuple[tuple[DatasetName, str], ...] = (
        ("wice", "partially_supported"),
        ("expertqa", "Partial"),
    )
    for dataset, raw in partials:
        for partial_as in (True, False):
            load = load_verification(DATA, dataset, partial_as=partial_as)
            partial = [ex for ex in load.examples if ex.raw_label == raw]
            assert partial
            assert all(ex.label is partial_as for ex in partial)
            assert raw not in load.excluded
            assert len(load.examples) == len(flat[dataset].examples)
    lfqa = load_verification(DATA, "lfqa", partial_as=True)
    assert set(lfqa.excluded) == {"tie"}
    assert all(ex.label is True for ex in lfqa.examples if _majority(ex.raw_label) == "partially")


def test_real_expertqa_claims(expertqa: Loaded[ExpertQAAnswer]) -> None:
    assert expertqa.records
    assert expertqa.skipped == ()
    systems = {answer.system for answer in expertqa.records}
    assert {"bing_chat", "gpt4"} <= systems
    located = 0
    for answer in expertqa.records:
        assert answer.example_id.startswith("expertqa:")
        for claim in answer.claims:
            if claim.start is not None and claim.end is not None:
                located += 1
                found = answer.answer_text[claim.start : claim.end]
                if claim.match == "exact":
                    assert found == claim.text
                elif claim.match == "stripped":
                    assert found == claim.text.strip()
                else:
                    assert found.split() == claim.text.split()
            assert claim.markers == tuple(
                dict.fromkeys(int(n) for n in re.findall(r"\[(\d+)\]", claim.text))
            )
            assert {ev.marker for ev in claim.evidence} <= set(claim.markers)
            for marker, evidence in claim.evidence_by_marker.items():
                assert evidence == claim.evidence_for(marker)
            if claim.support == "Missing":
                assert claim.evidence == ()
            if answer.system in ("bing_chat", "gpt4"):
                assert all(ev.passage is None and ev.url for ev in claim.evidence)
            if answer.system.startswith(("rr_", "post_hoc_")):
                assert all(ev.passage for ev in claim.evidence)
    total = sum(len(answer.claims) for answer in expertqa.records)
    assert located == total


def test_real_expertqa_flattening_drops_claims_without_passages(
    flat: dict[DatasetName, DatasetLoad], expertqa: Loaded[ExpertQAAnswer]
) -> None:
    load = flat["expertqa"]
    claims = sum(len(answer.claims) for answer in expertqa.records)
    assert len(load.examples) + sum(load.dropped.values()) == claims
    assert load.dropped["no evidence cited"] > 0
    assert load.dropped["evidence is URLs only"] > 0
    assert {ex.group for ex in load.examples} <= {
        a.system for a in expertqa.records if a.system.startswith(("rr_", "post_hoc_"))
    }


def test_real_wice_gold_sets_index_the_sentences(wice: Loaded[WiCEClaim]) -> None:
    assert wice.records
    for claim in wice.records:
        for gold in claim.supporting_sentences:
            assert all(0 <= i < len(claim.evidence) for i in gold)
    labels = Counter(claim.raw_label for claim in wice.records)
    assert set(labels) == {"supported", "partially_supported", "not_supported"}


def test_real_lfqa_sentences_and_documents(lfqa: Loaded[LFQAAnswer]) -> None:
    assert lfqa.records
    settings = {answer.setting for answer in lfqa.records}
    assert "gpt3_whudoc" in settings
    assert len(settings) > 1
    for answer in lfqa.records:
        assert answer.documents, answer.example_id
        prefix = "human:" if answer.setting == "gpt3_whudoc" else "webgpt:"
        assert all(doc.doc_id.startswith(prefix) for doc in answer.documents)
        assert answer.docs_file.endswith(docs_file_for(answer.setting))
        for sentence in answer.sentences:
            assert len(sentence.labels) == 3
            assert sentence.majority == _majority(sentence.raw_label)
            assert not sentence.text.endswith("</s>")
    ties = [s for a in lfqa.records for s in a.sentences if s.majority is None]
    assert ties
    assert all(s.label is None and len(set(s.labels)) == 3 for s in ties)


def test_real_faithbench_spans_and_verdicts(faithbench: Loaded[FaithBenchSample]) -> None:
    assert faithbench.records
    assert "summary span not found in the summary" not in faithbench.warnings
    assert "summary span offsets repaired" not in faithbench.warnings
    for sample in faithbench.records:
        assert sample.unlocated_spans == 0
        for span in sample.spans:
            assert sample.summary[span.start : span.end] == span.text
            if span.source_start is not None and span.source_end is not None:
                assert span.source_end <= len(sample.source)
        unwanted = any(span.label == "Unwanted" for span in sample.spans)
        assert sample.consistent is not unwanted
        assert (sample.worst_label == "Consistent") is (not sample.spans)
        assert {"hhem-2.1", "true_nli", "gpt_4o"} <= set(sample.detectors)
        for verdict in sample.detectors.values():
            assert verdict.hallucinated is (verdict.value < 0.5)
        assert "raw_sample_id" not in sample.detectors
        assert "summarizer" not in sample.detectors
        assert sample.summarizer


# --- small copies of each layout under another root -----------------------------------------


def _lines(path: Path, n: int) -> list[str]:
    with path.open(encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(n)]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@needs_data
def test_copy_expertqa(tmp_path: Path) -> None:
    rows = _lines(EXPERTQA_FILE, 3)
    answers = sum(len(json.loads(row)["answers"]) for row in rows)
    bad_answer = json.loads(rows[0])
    bad_answer["answers"]["broken_system"] = {"claims": []}  # no answer_string
    lines = [*rows, json.dumps(bad_answer), '{"question": 3, "answers": {}}']
    _write(tmp_path / "expertqa/data/lfqa/rand_other.jsonl", "\n".join(lines) + "\n")

    loaded = load_expertqa(tmp_path)
    assert loaded.status == "ok"
    assert loaded.files == ("expertqa/data/lfqa/rand_other.jsonl",)
    assert loaded.rows_read == 5
    assert len(loaded.records) == answers + len(json.loads(rows[0])["answers"])
    assert [(s.row, s.reason.split(":")[0]) for s in loaded.skipped] == [
        (3, "answer broken_system"),
        (4, "Expected `str`, got `int` - at `$.question`"),
    ]
    flat = load_verification(tmp_path, "expertqa")
    assert flat.rows_read == 5
    assert len(flat.skipped) == 2
    assert flat.examples
    assert all(ex.example_id.startswith("expertqa:rand_other:") for ex in flat.examples)


@needs_data
def test_copy_attributionbench(tmp_path: Path) -> None:
    rows = _lines(AB_FILE, 5)
    no_refs = json.loads(rows[0]) | {"references": ["  "]}
    missing_label = json.loads(rows[1])
    del missing_label["attribution_label"]
    lines = [*rows, json.dumps(no_refs), json.dumps(missing_label)]
    _write(tmp_path / "attributionbench/data/test_x.jsonl", "\n".join(lines))

    load = load_verification(tmp_path, "attributionbench")
    assert load.status == "ok"
    assert load.rows_read == 7
    assert len(load.examples) == 5
    assert load.dropped == {"no references": 1}
    assert [(s.file, s.row) for s in load.skipped] == [("attributionbench/data/test_x.jsonl", 6)]
    assert "attribution_label" in load.skipped[0].reason
    for ex, row in zip(load.examples, rows, strict=True):
        original = json.loads(row)
        assert ex.claim == original["claim"]
        assert ex.group == original["src_dataset"]
        assert ex.label is (original["attribution_label"] == "attributable")


@needs_data
def test_copy_wice(tmp_path: Path) -> None:
    rows = _lines(WICE_FILE, 3)
    out_of_range = json.loads(rows[0]) | {"supporting_sentences": [[10_000]]}
    lines = [*rows, json.dumps(out_of_range), '{"claim": "truncated", "evidence": [']
    _write(tmp_path / "wice/data/entailment_retrieval/claim/test.jsonl", "\n\n".join(lines))

    loaded = load_wice(tmp_path)
    assert loaded.rows_read == 5
    assert len(loaded.records) == 3
    assert [s.row for s in loaded.skipped] == [6, 8]  # line indices, blank lines included
    assert "outside" in loaded.skipped[0].reason
    assert "truncated" in loaded.skipped[1].reason
    first = json.loads(rows[0])
    assert loaded.records[0].evidence == tuple(first["evidence"])
    assert loaded.records[0].supporting_sentences == tuple(
        tuple(g) for g in first["supporting_sentences"]
    )
    assert load_verification(tmp_path, "wice").label_counts["excluded"] == sum(
        json.loads(row)["label"] == "partially_supported" for row in rows
    )


def _lfqa_copy(root: Path, *, with_docs: bool) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    for setting in ("gpt3_whudoc", "webgpt"):
        entries = json.loads((LFQA_DIR / f"annotations/annotations-{setting}.json").read_text())
        kept += entries[:2]
        text = json.dumps([*entries[:2], {"question_id": "seven", "annotations": []}])
        _write(root / f"lfqa-verification/data/annotations/annotations-{setting}.json", text)
    if with_docs:
        wanted = {entry["question_id"] for entry in kept}
        for name in ("docs-human.json", "docs-webgpt.json"):
            docs = json.loads((LFQA_DIR / "docs" / name).read_text())
            keep = [d for d in docs if d["question_id"] in wanted]
            _write(root / "lfqa-verification/data/docs" / name, json.dumps(keep))
    return kept


@needs_data
def test_copy_lfqa(tmp_path: Path) -> None:
    kept = _lfqa_copy(tmp_path, with_docs=True)
    loaded = load_lfqa(tmp_path)
    assert loaded.rows_read == 6
    assert len(loaded.records) == 4
    assert [(s.file.rsplit("/", 1)[1], s.row) for s in loaded.skipped] == [
        ("annotations-gpt3_whudoc.json", 2),
        ("annotations-webgpt.json", 2),
    ]
    for answer, original in zip(loaded.records, kept, strict=True):
        assert answer.question_id == original["question_id"]
        assert len(answer.sentences) == len(original["annotations"])
        prefix = "human:" if answer.setting == "gpt3_whudoc" else "webgpt:"
        assert answer.documents
        assert all(d.doc_id.startswith(prefix) for d in answer.documents)
    flat = load_verification(tmp_path, "lfqa")
    assert len(flat.examples) == sum(len(a.sentences) for a in loaded.records)


@needs_data
def test_copy_lfqa_without_documents_drops_its_examples(tmp_path: Path) -> None:
    _lfqa_copy(tmp_path, with_docs=False)
    loaded = load_lfqa(tmp_path)
    assert loaded.records
    assert all(answer.documents == () for answer in loaded.records)
    assert loaded.warnings["no document set for the question"] == 4
    flat = load_verification(tmp_path, "lfqa")
    assert flat.status == "ok"
    assert flat.examples == ()
    assert flat.dropped == {
        "no documents for the question": sum(len(a.sentences) for a in loaded.records)
    }


@needs_data
def test_copy_faithbench(tmp_path: Path) -> None:
    samples = json.loads(FAITHBENCH_FILE.read_text())["samples"][:4]
    annotated = next(i for i, s in enumerate(samples) if s["annotations"])
    shifted = json.loads(json.dumps(samples[annotated]))
    shifted["annotations"] = shifted["annotations"][:1]
    original_start = shifted["annotations"][0]["summary_start"]
    shifted["annotations"][0]["summary_start"] += 1
    shifted["annotations"][0]["summary_end"] += 1
    lost = json.loads(json.dumps(shifted))
    lost["annotations"][0] |= {"summary_span": "text that is nowhere", "label": ["Unwanted"]}
    batch = {"samples": [*samples, shifted, lost, {"sample_id": 9}]}
    folder = tmp_path / "faithbench/data_for_release"
    _write(folder / "batch_12.json", json.dumps(batch))
    _write(folder / "batch_2.json", "{not json")

    loaded = load_faithbench(tmp_path)
    assert loaded.files == (
        "faithbench/data_for_release/batch_2.json",
        "faithbench/data_for_release/batch_12.json",
    )
    assert loaded.rows_read == 7
    assert len(loaded.records) == 6
    assert [(s.file.rsplit("/", 1)[1], s.row) for s in loaded.skipped] == [
        ("batch_2.json", None),
        ("batch_12.json", 6),
    ]
    assert loaded.warnings["summary span offsets repaired"] == 1
    assert loaded.warnings["summary span not found in the summary"] == 1
    repaired, unlocated = loaded.records[4], loaded.records[5]
    assert repaired.spans[0].start == original_start
    assert repaired.summary[repaired.spans[0].start : repaired.spans[0].end] == (
        repaired.spans[0].text
    )
    assert unlocated.spans == ()
    assert unlocated.unlocated_spans == 1
    assert unlocated.worst_label == "Unwanted"
    assert unlocated.consistent is False
    flat = load_verification(tmp_path, "faithbench")
    assert [ex.example_id for ex in flat.examples][:2] == [
        "faithbench:batch_12:0",
        "faithbench:batch_12:1",
    ]
    assert flat.examples[0].evidence == (samples[0]["source"],)


# --- missing data and bad arguments ----------------------------------------------------------


def test_missing_root_reports_every_dataset_missing(tmp_path: Path) -> None:
    loads = load_all(tmp_path / "nowhere")
    assert list(loads) == list(DATASETS)
    for name, load in loads.items():
        assert load.status == "missing"
        assert load.path == (tmp_path / "nowhere" / PATTERNS[name]).as_posix()
        assert load.examples == ()
        assert load.rows_read == 0
        assert load.files == ()
    for loaded in (load_expertqa(tmp_path), load_wice(tmp_path), load_lfqa(tmp_path)):
        assert loaded.status == "missing"
        assert loaded.records == ()
    assert load_faithbench(tmp_path).status == "missing"


@needs_data
def test_one_dataset_present_others_missing(tmp_path: Path) -> None:
    target = tmp_path / "wice/data/entailment_retrieval/claim"
    target.mkdir(parents=True)
    shutil.copy(WICE_FILE, target / "dev.jsonl")
    loads = load_all(tmp_path)
    assert {name for name, load in loads.items() if load.status == "ok"} == {"wice"}
    assert loads["wice"].examples


def test_unknown_dataset_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown dataset 'squad'"):
        load_verification(tmp_path, "squad")  # type: ignore[arg-type]


def test_locate_finds_claims_exactly_stripped_and_across_whitespace() -> None:
    text = "Intro.\n\nFirst claim [1]. Second:\n\n- item [2].\nFirst claim [1]."
    assert locate(text, "First claim [1].") == (8, 24, "exact")
    assert locate(text, "First claim [1].", 24) == (46, 62, "exact")
    assert locate(text, "  Second:", 0) == (25, 32, "stripped")
    start, end, how = locate(text, "Second:  - item [2].") or (0, 0, "none")
    assert how == "whitespace"
    assert text[start:end] == "Second:\n\n- item [2]."
    assert locate(text, "Not there.") is None
    assert locate(text, "   ") is None


def test_cli_prints_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.datasets.__main__ import main

    assert main(["--data-root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "| expertqa | missing |" in out
    assert f"nothing matches {tmp_path}" in out
    if DATA.is_dir():
        assert main(["--data-root", str(DATA), "--partial-as", "true"]) == 0
        out = capsys.readouterr().out
        assert "| wice | ok |" in out
        assert "partially_supported" not in out.split("## wice")[1]
