"""The committed train/validation split: grouping, determinism, the files, filtering, wiring.

Synthetic tests run everywhere; the real-data tests use the ``data_root`` fixture and skip when
the data folder is absent.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest

import benchmarks.__main__ as bench_cli
from attribution import Attributor, ConfigError
from benchmarks.datasets import (
    DATASETS,
    SPLITS_DIR,
    DatasetName,
    SplitFile,
    SplitFilter,
    build_split,
    check_split,
    filter_split,
    in_split,
    load_expertqa,
    load_faithbench,
    load_lfqa,
    load_verification,
    load_wice,
    read_split,
)
from benchmarks.datasets._split import (
    SplitBuild,
    SplitUnit,
    assign_components,
    components,
    encode_split,
    main,
    normalise_text,
    normalise_url,
    shared_keys,
)
from benchmarks.fit_feature_verifier import labelled_rows
from benchmarks.harness import _verification
from benchmarks.harness._context import HarnessContext

# -- synthetic ------------------------------------------------------------------------------


def test_normalisation() -> None:
    assert normalise_text("  The  [3] Eiffel-Tower,\nis TALL. ") == "the eiffel tower is tall"
    assert normalise_text(None) == ""
    assert normalise_url("https://www.Example.com/a/b/#frag") == "example.com/a/b"
    assert normalise_url("http://example.com/a/b).") == "example.com/a/b"
    assert normalise_url("www.example.com") == "example.com"


def _unit(rid: str, *keys: str, dataset: str = "expertqa", records: int = 1) -> SplitUnit:
    return SplitUnit(
        dataset=cast("Any", dataset), ids=[rid], keys=set(keys), records=records, examples=records
    )


def test_components_join_records_through_shared_keys_across_datasets() -> None:
    units = [
        _unit("expertqa:a:0", "question:q1", "page:p1"),
        _unit("attributionbench:x:0", "question:q1", dataset="attributionbench"),
        _unit("expertqa:a:1", "question:q2", "page:p1"),  # same page as a:0
        _unit("expertqa:a:2", "question:q3"),
        SplitUnit(dataset="lfqa", ids=["lfqa:b:0", "lfqa:b:0:0", "lfqa:b:0:1"], keys={"page:d"}),
        _unit("lfqa:b:1", "page:d", dataset="lfqa"),
    ]
    groups = [sorted(i for u in g for i in u.ids) for g in components(units)]
    assert groups == [
        ["attributionbench:x:0", "expertqa:a:0", "expertqa:a:1"],
        ["expertqa:a:2"],
        ["lfqa:b:0", "lfqa:b:0:0", "lfqa:b:0:1", "lfqa:b:1"],
    ]


def test_assignment_is_deterministic_and_near_the_share() -> None:
    units = [_unit(f"expertqa:f:{i}", f"question:{i // 3}") for i in range(300)]
    groups = components(units)
    sides = assign_components(groups)
    assert sides == assign_components(groups)
    valid = sum(len(g) for g, s in zip(groups, sides, strict=True) if s == "validation")
    assert 0.28 <= valid / 300 <= 0.32
    # a different seed only reorders components of equal size: the share stays close
    other = assign_components(groups, seed=1)
    valid = sum(len(g) for g, s in zip(groups, other, strict=True) if s == "validation")
    assert 0.28 <= valid / 300 <= 0.32


def test_a_giant_component_goes_where_it_balances_best() -> None:
    units = [_unit("expertqa:g:0", "question:big", records=80)]
    units += [_unit(f"expertqa:g:{i}", f"question:{i}") for i in range(1, 21)]
    groups = components(units)
    sides = assign_components(groups)
    big = next(s for g, s in zip(groups, sides, strict=True) if g[0].ids == ["expertqa:g:0"])
    assert big == "train"  # 80 of 100 records: validation would be 80% at least


def test_shared_keys_finds_a_key_on_both_sides() -> None:
    units = [
        _unit("wice:w:0", "page:p"),
        _unit("wice:w:1", "page:p"),
        SplitUnit(dataset="lfqa", ids=["lfqa:l:0", "lfqa:l:0:0"], keys=set()),
    ]
    problems = shared_keys(units, {"wice:w:0": "train", "lfqa:l:0": "train"})
    assert any("page:p on both sides" in p for p in problems)
    assert any("lfqa:l:0: its records lie on both sides" in p for p in problems)
    assert shared_keys(units, {"wice:w:0": "train", "wice:w:1": "train"}) == []


def _tiny_split(root: Path, splits: Path) -> Path:
    data = root / "faithbench" / "data_for_release" / "batch_1.json"
    data.parent.mkdir(parents=True)
    data.write_text('{"samples": []}')
    split = SplitFile(
        dataset="faithbench",
        seed=1,
        method="test",
        counts={"train": 1, "validation": 1},
        records={"train": 1, "validation": 1},
        examples={"train": 1, "validation": 1},
        validation_fraction={"records": 0.5, "examples": 0.5},
        files={
            "faithbench/data_for_release/batch_1.json": hashlib.sha256(
                data.read_bytes()
            ).hexdigest()
        },
        train=["faithbench:batch_1:0"],
        validation=["faithbench:batch_1:1"],
    )
    splits.mkdir()
    (splits / "faithbench.json").write_bytes(encode_split(split))
    return data


class _Record(msgspec.Struct, frozen=True):
    example_id: str


def test_filter_sides_unknown_records_and_changed_data(tmp_path: Path) -> None:
    root, splits = tmp_path / "data", tmp_path / "splits"
    data = _tiny_split(root, splits)
    records = [_Record(f"faithbench:batch_1:{i}") for i in range(3)]
    records.append(_Record("wice:dev:0"))  # no split file for WiCE there: validation

    def kept(split: str, at: Path = root) -> list[str]:
        return [r.example_id for r in SplitFilter(split, at, splits_dir=splits).filter(records)]

    assert kept("train") == ["faithbench:batch_1:0"]
    assert kept("validation") == ["faithbench:batch_1:1", "faithbench:batch_1:2", "wice:dev:0"]
    assert kept("all") == [r.example_id for r in records]
    assert in_split(
        "faithbench", "faithbench:batch_1:0", "train", data_root=root, splits_dir=splits
    )
    assert in_split(
        "faithbench", "faithbench:batch_1:9", "validation", data_root=root, splits_dir=splits
    )
    assert [
        r.example_id for r in filter_split(records, "train", data_root=root, splits_dir=splits)
    ] == ["faithbench:batch_1:0"]
    notes = SplitFilter("validation", root, splits_dir=splits)
    notes.filter(records)
    assert any("no committed split for wice" in n for n in notes.notes)

    # Another half of the data under the same file names: the split does not apply there.
    other = tmp_path / "other"
    shutil.copytree(root, other)
    (other / data.relative_to(root)).write_text('{"samples": [] }')
    assert kept("train", other) == []
    assert kept("validation", other) == [r.example_id for r in records]
    changed = SplitFilter("train", other, splits_dir=splits)
    changed.filter(records)
    assert any("absent or changed" in n for n in changed.notes)

    with pytest.raises(ConfigError, match="unknown split"):
        SplitFilter("test", root)


# -- the real data --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(data_root: Path) -> SplitBuild:
    return build_split(data_root)


def test_split_is_deterministic(built: SplitBuild, data_root: Path) -> None:
    again = build_split(data_root)
    assert again.files == built.files
    for split in built.files.values():
        assert split.train == sorted(split.train)
        assert split.validation == sorted(split.validation)
        assert not set(split.train) & set(split.validation)
        assert split.counts == {"train": len(split.train), "validation": len(split.validation)}


def test_committed_files_match_the_data(built: SplitBuild, data_root: Path) -> None:
    assert set(built.files) == set(DATASETS)
    assert check_split(data_root) == []
    for dataset, split in built.files.items():
        assert read_split(dataset) == split
        # one id a line, sorted: diff-friendly
        text = (SPLITS_DIR / f"{dataset}.json").read_text(encoding="utf-8")
        assert f'\n    "{split.train[0]}",\n' in text


def test_every_record_id_is_in_the_split(built: SplitBuild, data_root: Path) -> None:
    listed = {d: set(s.train) | set(s.validation) for d, s in built.files.items()}
    for dataset in DATASETS:
        ids = {e.example_id for e in load_verification(data_root, dataset).examples}
        assert ids <= listed[dataset]
    rich: dict[DatasetName, list[str]] = {
        "expertqa": [
            i
            for a in load_expertqa(data_root).records
            for i in (a.example_id, *(c.example_id for c in a.claims))
        ],
        "lfqa": [
            i
            for a in load_lfqa(data_root).records
            for i in (a.example_id, *(s.example_id for s in a.sentences))
        ],
        "wice": [c.example_id for c in load_wice(data_root).records],
        "faithbench": [s.example_id for s in load_faithbench(data_root).records],
    }
    for name, rich_ids in rich.items():
        assert set(rich_ids) == listed[name], name


def test_no_key_on_both_sides(built: SplitBuild) -> None:
    side_of = built.side_of()
    assert shared_keys(built.units, side_of) == []
    # AttributionBench's ExpertQA and LFQA rows sit on the side of their originals
    by_question: dict[str, set[str]] = {}
    for unit in built.units:
        for key in unit.keys:
            if key.startswith("question:"):
                by_question.setdefault(key, set()).add(side_of[unit.ids[0]])
    linked = 0
    for unit in built.units:
        if unit.dataset == "attributionbench":
            for key in unit.keys:
                if key.startswith("question:"):
                    assert by_question[key] == {side_of[unit.ids[0]]}
                    linked += 1
    assert linked


def test_ab_rows_share_components_with_their_originals(built: SplitBuild) -> None:
    repeats = {
        e.example_id: e.group
        for e in built.flat["attributionbench"].examples
        if e.group in ("ExpertQA", "LFQA")
    }
    assert repeats
    for group in built.groups:
        datasets = {u.dataset for u in group}
        for unit in group:
            if unit.ids[0] in repeats:
                assert repeats[unit.ids[0]].lower() in datasets


def test_validation_fractions(built: SplitBuild) -> None:
    for dataset, split in built.files.items():
        for what in ("records", "examples"):
            assert 0.2 <= split.validation_fraction[what] <= 0.4, (dataset, what)


def test_unknown_records_count_as_validation(data_root: Path, tmp_path: Path) -> None:
    lfqa = read_split("lfqa")
    assert lfqa is not None
    train_id = next(i for i in lfqa.train if i.count(":") == 2)  # an answer: lfqa:<stem>:<row>
    assert in_split("lfqa", train_id, "train", data_root=data_root)
    assert not in_split("lfqa", train_id, "validation", data_root=data_root)
    unknown = "expertqa:rand_test:0:gpt4"
    assert in_split("expertqa", unknown, "validation", data_root=data_root)
    assert not in_split("expertqa", unknown, "train", data_root=data_root)
    # The held-out half keeps LFQA's file names: ids collide, but its files differ, so the
    # split does not apply and every one of its records counts as validation.
    other = tmp_path / "other"
    shutil.copytree(data_root / "lfqa-verification", other / "lfqa-verification")
    annotations = other / "lfqa-verification" / "data" / "annotations"
    for path in annotations.glob("*.json"):
        path.chmod(0o644)
        rows = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps(rows[::-1]), encoding="utf-8")
    answers = load_lfqa(other).records
    assert train_id in {a.example_id for a in answers}
    assert filter_split(answers, "train", data_root=other) == []
    assert filter_split(answers, "validation", data_root=other) == list(answers)


def test_check_fails_on_a_tampered_file(
    data_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    splits = tmp_path / "splits"
    shutil.copytree(SPLITS_DIR, splits)
    assert main(["--data-root", str(data_root), "--splits-dir", str(splits), "--check"]) == 0
    path = splits / "wice.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["validation"] = sorted([*data["validation"], data["train"].pop(0)])
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["--data-root", str(data_root), "--splits-dir", str(splits), "--check"]) == 1
    err = capsys.readouterr().err
    assert "ids on another side" in err
    assert "split check FAILED" in err


def test_write_reproduces_the_committed_files(data_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "written"
    assert main(["--data-root", str(data_root), "--splits-dir", str(out)]) == 0
    for dataset in DATASETS:
        written = (out / f"{dataset}.json").read_bytes()
        assert written == (SPLITS_DIR / f"{dataset}.json").read_bytes()


# -- the harness and the fit see one side only ----------------------------------------------


def _ctx(data_root: Path, split: str) -> HarnessContext:
    # The tasks' record selection needs no engine.
    return HarnessContext(
        attributor=cast("Attributor", None), data_root=data_root, split=cast("Any", split)
    )


def test_harness_train_and_validation_see_disjoint_examples(data_root: Path) -> None:
    for dataset in DATASETS:
        seen: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for split in ("train", "validation", "all"):
            rows = _verification._rows(_ctx(data_root, split), dataset)
            assert rows is not None
            seen[split] = [(claim, tuple(evidence)) for claim, evidence, _, _ in rows]
        assert seen["train"]
        assert seen["validation"]
        assert not set(seen["train"]) & set(seen["validation"]), dataset
        assert len(seen["train"]) + len(seen["validation"]) == len(seen["all"]), dataset
    rich: list[list[Any]] = [
        list(load_expertqa(data_root).records),
        list(load_lfqa(data_root).records),
        list(load_wice(data_root).records),
        list(load_faithbench(data_root).records),
    ]
    for records in rich:
        train = {r.example_id for r in _ctx(data_root, "train").take(records)}
        valid = {r.example_id for r in _ctx(data_root, "validation").take(records)}
        assert train
        assert valid
        assert not train & valid
        assert train | valid == {r.example_id for r in records}


def test_feature_fit_rows_follow_the_split(data_root: Path) -> None:
    train = labelled_rows(data_root, "wice", None, split="train")
    valid = labelled_rows(data_root, "wice", None, split="validation")
    assert train
    assert valid
    assert not {e.example_id for e in train} & {e.example_id for e in valid}
    assert len(labelled_rows(data_root, "wice", None, split="all")) == len(train) + len(valid)


def test_cli_passes_the_split(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[dict[str, Any]] = []

    def fake_run_harness(**kwargs: Any) -> dict[str, Any]:
        calls.append(kwargs)
        return {"seconds": {"total": 0.0}, "notes": []}

    monkeypatch.setattr(bench_cli, "run_harness", fake_run_harness)
    assert bench_cli.main(["--out", str(tmp_path), "--tasks", "verification"]) == 0
    assert bench_cli.main(["--out", str(tmp_path), "--split", "train"]) == 0
    assert [c["split"] for c in calls] == ["validation", "train"]
    with pytest.raises(SystemExit) as info:
        bench_cli.main(["--split", "test"])
    assert info.value.code == 2
