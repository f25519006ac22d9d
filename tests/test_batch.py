"""Batch jobs on a real local Ray with the real models: a small file with bad records, a
resumed run, the Python API over a Dataset the caller made, and the command line.

One Ray is started for the module (``num_cpus=2``, a small object store) and stopped at the
end; run_batch uses a Ray already started in the process.
"""

from __future__ import annotations

import importlib.util
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="batch jobs need the batch extra")

from attribution import Attributor, ToolOutput, decode_json  # noqa: E402
from attribution._cli import main  # noqa: E402
from attribution.batch import attribute_dataset, run_batch  # noqa: E402

# Ray Data's DataContext warns about its own deprecated fields when it copies itself
# (ray 2.60): its module, not this project, sets them.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data.context")

EXAMPLES = Path(__file__).resolve().parent.parent / "attribution" / "examples"
ANSWER = (EXAMPLES / "answer.md").read_text(encoding="utf-8")
TOOL_OUTPUTS: list[dict[str, Any]] = json.loads(
    (EXAMPLES / "tool_outputs.json").read_text(encoding="utf-8")
)
SOURCE = {
    "id": "e",
    "type": "web",
    "fullContent": "The Eiffel Tower was completed in 1889. It is 330 metres tall.",
}
RECORDS = [
    json.dumps({"id": "jwst", "answer": ANSWER, "toolOutputs": TOOL_OUTPUTS}),
    json.dumps({"answer": "The Eiffel Tower was completed in 1889 [1].", "sources": [SOURCE]}),
    "{not json",
    json.dumps({"id": "both", "answer": "x", "sources": [], "toolOutputs": []}),
    json.dumps(
        {
            "id": "keep-unknown",
            "answer": "It is 330 metres tall [1][7].",
            "sources": [SOURCE],
            "config": {"reconcile": {"drop_unknown": False}},
        }
    ),
]


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        object_store_memory=200 * 1024**2,
    )
    yield
    ray.shutdown()


def _lines(path: Path) -> list[dict[str, Any]]:
    # "\n" only: a result may hold U+2028 in its strings, which splitlines() would cut at
    text = path.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line]


def test_a_batch_with_bad_records_then_resumed(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    records.write_text("\n".join(RECORDS) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    first = run_batch(records, out, limit=3, progress=None)
    assert (first.records, first.skipped, first.failed) == (3, 0, 1)
    # an interruption cut the last line short: it is dropped and that record done again
    cut = out.read_bytes()
    out.write_bytes(cut[: cut.rfind(b'{"id"')] + b'{"id":"line-3","err')
    second = run_batch(records, out, workers=2, batch_size=1, progress=None)
    assert (second.records, second.skipped, second.failed) == (3, 2, 2)

    lines = {line["id"]: line for line in _lines(out)}
    assert list(lines) != [], "every record has one line"
    assert sorted(lines) == sorted(["jwst", "line-2", "line-3", "both", "keep-unknown"])
    assert len(_lines(out)) == 5, "nothing written twice"
    assert "malformed JSON" in lines["line-3"]["error"]
    assert "exactly one of sources and toolOutputs" in lines["both"]["error"]
    assert "[7]" in lines["keep-unknown"]["result"]["answer"], "the record's own config"

    expected = Attributor().attribute(
        ANSWER, decode_json(json.dumps(TOOL_OUTPUTS), list[ToolOutput])
    )
    got = lines["jwst"]["result"]
    assert [c["verdict"] for c in got["claims"]] == [c.verdict for c in expected.claims]
    assert got["answer"] == expected.answer
    assert first.claims + second.claims == sum(
        line["result"]["summary"]["claims"] for line in lines.values() if "result" in line
    )


def test_a_dataset_the_caller_has() -> None:
    rows = [{"id": f"r{i}", "line": line} for i, line in enumerate(RECORDS[:2] + RECORDS[3:4])]
    results = attribute_dataset(ray.data.from_items(rows), workers=1).take_all()
    by_id = {r["id"]: r for r in results}
    assert set(by_id) == {"r0", "r1", "r2"}
    assert by_id["r2"]["failed"]
    assert not by_id["r1"]["failed"]
    assert json.loads(by_id["r1"]["output"])["result"]["claims"][0]["verdict"] == "supported"
    assert json.loads(by_id["r1"]["verdicts"]) == {"supported": 1}


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import logging

    records = tmp_path / "records.jsonl"
    records.write_text(RECORDS[1] + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    # a console handler of Ray Data's, as the one it puts on the terminal
    terminal = logging.StreamHandler(io.StringIO())
    logging.getLogger("ray.data").addHandler(terminal)
    try:
        assert main(["batch", str(records), str(out)]) == 0
    finally:
        logging.getLogger("ray.data").removeHandler(terminal)
    assert "1 records done: 1 attributed, 0 failed" in capsys.readouterr().err
    # Ray Data's lines (execution plans, progress-bar advice) do not run into the job's own,
    # and its handlers are as they were after the job
    said = terminal.stream.getvalue()
    assert "Execution plan of Dataset" not in said, said
    assert "Progress bars disabled" not in said, said
    assert terminal.level == logging.NOTSET
    assert main(["batch", str(records), str(out)]) == 0
    assert "0 records done: 0 attributed, 0 failed; 1 already in" in capsys.readouterr().err
    assert main(["batch", str(tmp_path / "missing.jsonl"), str(out)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_bad_arguments_and_paths_are_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records.jsonl"
    records.write_text(RECORDS[1] + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    for args, said in (
        ([str(records), str(tmp_path)], "is a directory, not a file"),
        ([str(tmp_path), str(out)], "is a directory, not a file"),
        ([str(records), str(tmp_path / "no" / "out.jsonl")], "no such directory"),
        ([str(records), str(out), "--workers", "0"], "workers must be at least 1, got 0"),
        ([str(records), str(out), "--batch-size", "0"], "batch_size must be at least 1"),
        ([str(records), str(out), "--limit", "-1"], "limit must be 0 or more, got -1"),
        # no cluster there: said at once (Ray itself waits minutes before it gives up)
        ([str(records), str(out), "--address", "127.0.0.1:1"], "nothing answers at 127.0.0.1:1"),
        ([str(records), str(out), "--address", "ray://127.0.0.1:1"], "nothing answers at"),
    ):
        assert main(["batch", *args]) == 2, args
        assert said in capsys.readouterr().err, args
    assert not out.exists(), "nothing was attributed"


def test_records_hold_unicode_line_separators_inside_their_strings(tmp_path: Path) -> None:
    # U+2028 and U+0085 are valid inside a JSON string; only "\n" ends a record
    lines = [
        json.dumps({"id": "u", "answer": "It is 330 metres\u2028tall.", "sources": [SOURCE]}),
        json.dumps({"id": "n", "answer": "It was completed\x85in 1889.", "sources": [SOURCE]}),
    ]
    records = tmp_path / "records.jsonl"
    records.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8", newline="")
    out = tmp_path / "out.jsonl"
    summary = run_batch(records, out, progress=None)
    assert (summary.records, summary.failed) == (2, 0)
    assert sorted(line["id"] for line in _lines(out)) == ["n", "u"]


def test_an_output_that_is_not_this_commands_is_never_touched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    records = tmp_path / "records.jsonl"
    text = RECORDS[1] + "\n" + json.dumps({"id": "x", "answer": "A b c.", "sources": [SOURCE]})
    records.write_text(text, encoding="utf-8")  # no newline at the end
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\nno newline at the end", encoding="utf-8")
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to(tmp_path / "gone" / "out.jsonl")
    for out, said in (
        (records, "is the input file; results go to another file"),
        (notes, "notes.txt:1: not a result line of this command"),
        (dangling, "cannot be written"),
    ):
        assert main(["batch", str(records), str(out), "--limit", "0"]) == 2, out
        assert said in capsys.readouterr().err, out
    assert records.read_text(encoding="utf-8") == text, "the input is unchanged"
    assert notes.read_text(encoding="utf-8") == "my notes\nno newline at the end"
    # records from standard input
    stdin = io.TextIOWrapper(io.BytesIO((RECORDS[1] + "\n").encode()), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    out = tmp_path / "from-stdin.jsonl"
    assert main(["batch", "-", str(out)]) == 0
    assert [line["id"] for line in _lines(out)] == ["line-1"]


def test_a_line_that_is_not_utf8_is_one_failed_record_and_ids_may_be_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # one bad line refused the whole file before ("not UTF-8 (invalid start byte at byte
    # 154363)"), and "id": 7 was "Expected `str | null`, got `int`"
    good = json.dumps({"id": 7, "answer": "It is 330 metres tall [1].", "sources": [SOURCE]})
    bad = b'{"id": "latin1", "answer": "caf\xe9", "sources": []}'
    records = tmp_path / "records.jsonl"
    records.write_bytes(good.encode() + b"\n" + bad + b"\n")
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(records), str(out)]) == 1  # a record failed: a script can tell
    err = capsys.readouterr().err
    assert "2 records done: 1 attributed, 1 failed" in err
    lines = {line["id"]: line for line in _lines(out)}
    assert set(lines) == {"7", "latin1"}
    assert "result" in lines["7"]
    assert lines["latin1"]["error"] == (
        "record on line 2: not UTF-8 text: byte 0xe9 at byte 31 of the line cannot be decoded"
    )
    # done: a second run skips both, and still says a record failed (a retry loop sees it)
    assert main(["batch", str(records), str(out)]) == 1
    assert "2 already in" in (err := capsys.readouterr().err)
    assert "1 of them with an error line of an earlier run" in err
    # an id the bad bytes are part of is no id: the record is named by its line (two such ids
    # read alike, "caf\ufffd", and the file was refused as using one id twice)
    records.write_bytes(b'{"id": "caf\xe9", "answer": "x"}\n{"id": "caf\xe8", "answer": "y"}\n')
    assert main(["batch", str(records), str(tmp_path / "ids.jsonl")]) == 1
    assert sorted(line["id"] for line in _lines(tmp_path / "ids.jsonl")) == ["line-1", "line-2"]
    capsys.readouterr()
    # an id used twice names the line it was first on
    records.write_text(good + "\n" + good + "\n", encoding="utf-8")
    assert main(["batch", str(records), str(tmp_path / "other.jsonl")]) == 2
    assert "records.jsonl:2: id '7' is used twice (first on line 1)" in capsys.readouterr().err


def test_results_on_standard_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # "-" as OUT wrote a file named "-"
    records = tmp_path / "records.jsonl"
    records.write_text(RECORDS[1] + "\n" + RECORDS[2] + "\n", encoding="utf-8")
    assert main(["batch", str(records), "-"]) == 1
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.split("\n") if line]
    assert sorted(line["id"] for line in lines) == ["line-1", "line-2"]
    assert "malformed JSON" in next(line for line in lines if line["id"] == "line-2")["error"]
    assert "2 records done" in captured.err
    assert not (tmp_path / "-").exists()


def test_sigterm_stops_a_batch_as_ctrl_c_does(tmp_path: Path) -> None:
    import os
    import signal

    from attribution.batch import Terminated

    records = tmp_path / "records.jsonl"
    lines = [
        json.dumps({"id": f"r{i}", "answer": "It is 330 metres tall [1].", "sources": [SOURCE]})
        for i in range(6)
    ]
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    before = signal.getsignal(signal.SIGTERM)

    def terminate(record: str) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # what timeout(1), a scheduler or systemd send

    with pytest.raises(Terminated):
        run_batch(records, out, batch_size=1, progress=None, on_output=terminate)
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is put back
    kept = _lines(out)
    assert 1 <= len(kept) < 6
    rest = run_batch(records, out, progress=None)
    assert rest.skipped == len(kept)
    assert sorted(line["id"] for line in _lines(out)) == [f"r{i}" for i in range(6)]


def test_sigterm_to_the_command_that_started_its_own_ray(tmp_path: Path) -> None:
    """The command starts Ray itself, whose SIGTERM handler printed a crash dump and exited 15
    without a word of what was written; the job's handler goes in after Ray's."""
    import signal
    import subprocess
    import sys
    import time

    records = tmp_path / "records.jsonl"
    answer = "It is 330 metres tall [1]. Claim {} holds."
    lines = [
        json.dumps({"id": f"r{i}", "answer": answer.format(i), "sources": [SOURCE]})
        for i in range(20_000)
    ]
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "attribution", "batch", str(records), str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=str(tmp_path),
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not (out.exists() and out.stat().st_size > 0):
            assert process.poll() is None, "the job ended before it was stopped"
            time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, err.decode()[-2000:]
    assert b"terminated: " in err
    assert b"SIGTERM received" not in err
    written = _lines(out)  # every line whole
    assert 0 < len(written) < 20_000


@pytest.mark.skipif(
    importlib.util.find_spec("torch") is None, reason="torch is not installed: nothing to keep out"
)
def test_a_worker_keeps_torch_out_where_it_is_installed() -> None:
    @ray.remote(max_calls=1)  # a process of its own, as a map_batches actor has
    def worker_modules() -> tuple[bool, bool, bool]:
        import sys

        from attribution.batch._run import _AttributeBatch

        had_torch = "torch" in sys.modules
        _AttributeBatch(None)  # what map_batches builds in each actor
        return had_torch, "spacy" in sys.modules, sys.modules.get("torch") is not None

    had_torch, spacy, torch = ray.get(worker_modules.remote(), timeout=120)
    assert not had_torch
    assert spacy  # it loaded what imports torch
    assert not torch  # 180 MB a worker, for nothing
