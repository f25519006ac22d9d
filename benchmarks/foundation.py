"""Micro-benchmarks of the pure-Python foundation: markers, extraction, registry, offsets.

Run: ``.venv/bin/python -m benchmarks.foundation [--repeat 30] [--json OUT.json]``.
Prints a Markdown table (median and p95 of ``--repeat`` timed runs after a warm-up) with the
commit and machine, ready to paste into ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attribution import (
    CitationRegistry,
    OffsetConverter,
    ToolOutput,
    extract_sources,
    find_markers,
    normalize_markers,
)

_PARAGRAPH = (
    "The James Webb Space Telescope launched on 25 December 2021 [1]. Its primary mirror is "
    "6.5 m across, built from 18 hexagonal segments [2, 3]. "
    "See [the NASA page](https://nasa.gov/webb) and `mirror[0]` in the code. "
    "It orbits near L2[4] about 1.5 million km from Earth [citation:5]. "
    "First images came on 12 July 2022 😀 中文【6】.\n\n"
)


def make_answer(chars: int) -> str:
    """A markdown answer of about ``chars`` characters with markers, code and links."""
    block = _PARAGRAPH + "```python\nx = values[1]\n```\n\n- item [7]\n- item [8-9]\n\n"
    return (block * (chars // len(block) + 1))[:chars]


def make_tool_outputs(calls: int, words: int) -> list[ToolOutput]:
    """``calls`` tool outputs: searches of 10 results and scrapes of ``words`` words."""
    body = " ".join(["telescope mirror orbit launch science"] * (words // 5))
    out: list[ToolOutput] = []
    for i in range(calls):
        if i % 2 == 0:
            results = [
                {
                    "title": f"Result {i}-{j}",
                    "url": f"https://site{j}.org/p/{i}?utm_source=x",
                    "snippet": body[:300],
                }
                for j in range(10)
            ]
            out.append(
                ToolOutput(
                    tool_name="web_search", tool_request_id=f"r{i}", output={"results": results}
                )
            )
        else:
            out.append(
                ToolOutput(
                    tool_name="web_scrape",
                    tool_request_id=f"r{i}",
                    parameters={"url": f"https://site{i % 10}.org/p/{i - 1}"},
                    output={
                        "url": f"https://site{i % 10}.org/p/{i - 1}",
                        "title": "Page",
                        "content": body,
                    },
                )
            )
    return out


def timed(fn: Callable[[], object], repeat: int) -> dict[str, float]:
    """Median and p95 wall time of ``fn`` in milliseconds, after one warm-up call."""
    fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return {"median_ms": statistics.median(samples), "p95_ms": p95}


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
        return out.stdout.strip() + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per case (30)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = parser.parse_args()

    answer = make_answer(20_000)
    n_markers = len(find_markers(answer))
    outputs = make_tool_outputs(100, 2000)
    keys = [f"doc{i % 5000}" for i in range(10_000)]
    emoji_text = ("abc 😀 中文 e\u0301 " * 2000)[:20_000]

    def registry_run() -> None:
        reg = CitationRegistry()
        for k in keys:
            reg.register("kb_document", k)

    def offsets_run() -> None:
        conv = OffsetConverter(emoji_text, "utf16")
        for i in range(0, len(emoji_text), 20):
            conv.from_units(conv.to_units(i))

    cases: list[tuple[str, str, Callable[[], object]]] = [
        ("find_markers", f"20,000-char answer, {n_markers} markers", lambda: find_markers(answer)),
        (
            "normalize_markers",
            "same answer, [n] -> [citation:n]",
            lambda: normalize_markers(answer, style="citation"),
        ),
        (
            "extract_sources",
            "100 tool outputs (50 searches x 10 results, 50 scrapes x 2,000 words)",
            lambda: extract_sources(outputs),
        ),
        ("registry.register", "10,000 registrations of 5,000 sources", registry_run),
        (
            "OffsetConverter",
            "20,000 chars with emoji/CJK, build + 1,000 round trips (utf16)",
            offsets_run,
        ),
    ]
    results: dict[str, Any] = {
        "commit": commit(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}",
        "python": platform.python_version(),
        "repeat": args.repeat,
        "cases": {},
    }
    print(
        f"commit {results['commit']} · {results['machine']} · Python {results['python']} · "
        f"median / p95 of {args.repeat} runs\n"
    )
    print("| case | workload | median ms | p95 ms |\n| --- | --- | ---: | ---: |")
    for name, workload, fn in cases:
        r = timed(fn, args.repeat)
        results["cases"][name] = {"workload": workload, **r}
        print(f"| {name} | {workload} | {r['median_ms']:.2f} | {r['p95_ms']:.2f} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
