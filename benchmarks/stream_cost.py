"""What streaming an answer costs against sending it in one piece (issue 15, finding 2).

Run: ``.venv/bin/python -m benchmarks.stream_cost [--workload sentences|words|table|both|all]
[--sentences 5000] [--chars 15000] [--rows 200] [--json FILE]``.

Three workloads (``both``: the first two; ``all``: the three), each sent to
``POST /v1/attributions:stream`` as many deltas and as one delta,
through the real app in this process (``AsyncTestClient``; no network):

- ``sentences``: ``--sentences`` one-sentence deltas (``"The tower is <n> metres tall. "``),
  one paragraph, against one small source;
- ``words``: a realistic markdown answer of about ``--chars`` characters (the bundled example
  answer repeated, headings, lists, code and markers included), sent word by word, against the
  bundled tool outputs;
- ``table``: a markdown table of ``--rows`` rows (no sentence ends inside it, so no cut),
  sent four characters at a time, against the small source.

Reported: the wall time of the whole stream (request sent to last event read) and the number of
claim events, for the deltas and for the one piece. Prints Markdown and writes JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from litestar.testing import AsyncTestClient

from attribution.service import Settings, create_app
from benchmarks.foundation import commit

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "attribution" / "examples"
SOURCE = {
    "id": "e",
    "type": "web",
    "fullContent": "The Eiffel Tower was completed in 1889. It is 330 metres tall. "
    "Paris is the capital of France.",
}


def sentence_workload(n: int) -> tuple[list[str], dict[str, Any]]:
    return [f"The tower is {k} metres tall. " for k in range(n)], {"sources": [SOURCE]}


def word_workload(chars: int) -> tuple[list[str], dict[str, Any]]:
    answer = (EXAMPLES / "answer.md").read_text(encoding="utf-8")
    text = ""
    while len(text) < chars:
        text += answer + "\n\n"
    tool_outputs = json.loads((EXAMPLES / "tool_outputs.json").read_text(encoding="utf-8"))
    return re.findall(r"\S+\s*|\s+", text), {"toolOutputs": tool_outputs}


def table_workload(rows: int) -> tuple[list[str], dict[str, Any]]:
    text = "Heights measured:\n\n| name | value | note |\n| --- | --- | --- |\n" + "".join(
        f"| row {i} is here | {i * 3} metres | the tower is tall |\n" for i in range(rows)
    )
    return [text[i : i + 4] for i in range(0, len(text), 4)], {"sources": [SOURCE]}


async def timed(
    client: AsyncTestClient[Any], deltas: list[str], rest: dict[str, Any]
) -> dict[str, Any]:
    started = time.perf_counter()
    response = await client.post(
        "/v1/attributions:stream", json={"deltas": deltas, **rest}, timeout=3600
    )
    seconds = time.perf_counter() - started
    text = response.text
    if response.status_code != 200 or "event: result" not in text:
        raise SystemExit(f"the stream failed ({response.status_code}): {text[:300]}")
    return {
        "status": response.status_code,
        "deltas": len(deltas),
        "chars": sum(len(d) for d in deltas),
        "claim_events": text.count("event: claim"),
        "ended": "event: result" in text,
        "seconds": round(seconds, 3),
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_path=str(Path(tmp) / "db.sqlite3"),
            max_answer_chars=1_000_000,
            max_body_bytes=50_000_000,
            request_timeout_s=3600,
            log_level="warning",
            **(
                {"stream_timeout_s": 3600}
                if "stream_timeout_s" in Settings.__struct_fields__
                else {}
            ),
        )
        # a loopback address: the service answers only for loopback names by default
        async with AsyncTestClient(app=create_app(settings), base_url="http://127.0.0.1") as client:
            for _ in range(1200):
                if (await client.get("/readyz")).status_code == 200:
                    break
                await asyncio.sleep(0.1)
            rows = []
            workloads = []
            if args.workload in ("sentences", "both", "all"):
                workloads.append(
                    (f"{args.sentences} one-sentence deltas", sentence_workload(args.sentences))
                )
            if args.workload in ("words", "both", "all"):
                workloads.append(
                    (f"{args.chars}-character answer, word by word", word_workload(args.chars))
                )
            if args.workload in ("table", "all"):
                workloads.append(
                    (f"{args.rows}-row table, 4 characters a delta", table_workload(args.rows))
                )
            for name, (deltas, rest) in workloads:
                # Once unmeasured: every claim and passage embedding is then cached for both runs.
                await timed(client, ["".join(deltas)], rest)
                one = await timed(client, ["".join(deltas)], rest)
                many = await timed(client, deltas, rest)
                rows.append({"workload": name, "stream": many, "one_piece": one})
    return {
        "commit": commit(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}",
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--workload", choices=["sentences", "words", "table", "both", "all"], default="both"
    )
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--sentences", type=int, default=5000)
    parser.add_argument("--chars", type=int, default=15_000)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    report = asyncio.run(main_async(args))
    print(f"commit {report['commit']}, {report['machine']}\n")
    print("| workload | deltas | stream s | one piece s | claim events (stream / one piece) |")
    print("| --- | ---: | ---: | ---: | --- |")
    for row in report["rows"]:
        s, o = row["stream"], row["one_piece"]
        print(
            f"| {row['workload']} | {s['deltas']} | {s['seconds']} | {o['seconds']} | "
            f"{s['claim_events']} / {o['claim_events']} |"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
