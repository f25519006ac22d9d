"""Records per second of a batch: a plain loop in one process against ``attribution batch`` on
a local Ray with 1 and 2 workers, over the same records.

    python -m benchmarks.batch_speed [--records 24] [--json OUT.json]

The records are the bundled example (8 claims over 5 tool outputs) and short answers over one
source, alternating, each with its own id; in record i every " the " of the answer and the
sources reads " the<i> ", so no record's passages or pairs are in another's caches. Every
configuration starts cold (models loaded, Ray started), as a job does; the figures are single
runs of a whole job.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import tempfile
import time
from pathlib import Path

from attribution import AttributionConfig, Attributor, ModelConfig
from attribution.batch import attribute_line, run_batch

EXAMPLES = Path(__file__).resolve().parent.parent / "attribution" / "examples"


def make_records(n: int) -> list[str]:
    answer = (EXAMPLES / "answer.md").read_text(encoding="utf-8")
    tools = json.loads((EXAMPLES / "tool_outputs.json").read_text(encoding="utf-8"))
    source = {
        "id": "e",
        "type": "web",
        "fullContent": "The Eiffel Tower was completed in 1889. It is 330 metres tall. "
        "It stands in Paris, on the Champ de Mars.",
    }
    records = []
    for i in range(n):
        if i % 2 == 0:
            line = json.dumps({"id": f"r{i}", "answer": answer, "toolOutputs": tools})
        else:
            short = f"The Eiffel Tower was completed in 1889 [1]. It is {300 + i} metres tall."
            line = json.dumps({"id": f"r{i}", "answer": short, "sources": [source]})
        records.append(line.replace(" the ", f" the{i} "))  # nothing cached across records
    return records


def plain_loop(records: list[str]) -> float:
    started = time.perf_counter()
    attributor = Attributor(AttributionConfig(model=ModelConfig()))
    for i, line in enumerate(records):
        attribute_line(attributor, line, f"r{i}")
    return time.perf_counter() - started


def on_ray(records: list[str], workers: int, folder: Path) -> float:
    path = folder / f"in-{workers}.jsonl"
    path.write_text("\n".join(records) + "\n", encoding="utf-8")
    summary = run_batch(path, folder / f"out-{workers}.jsonl", workers=workers, progress=None)
    if summary.records != len(records) or summary.failed:
        raise RuntimeError(f"the batch did not attribute every record: {summary}")
    return summary.seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=24)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    records = make_records(args.records)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, run in (
            ("plain loop, one process (2 ONNX threads)", lambda: plain_loop(records)),
            ("Ray, 1 worker (1 thread)", lambda: on_ray(records, 1, folder)),
            ("Ray, 2 workers (1 thread each)", lambda: on_ray(records, 2, folder)),
        ):
            seconds = run()
            rows.append({"configuration": name, "seconds": seconds, "rps": len(records) / seconds})
            print(f"{name:<45} {seconds:7.1f} s  {len(records) / seconds:6.2f} records/s")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    report = {
        "records": len(records),
        "cores": os.cpu_count(),
        "machine": platform.platform(),
        "commit": commit,
        "rows": rows,
    }
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
