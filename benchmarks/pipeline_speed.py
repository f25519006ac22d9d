"""Latency of the whole pipeline: a 10-claim answer against 20 sources of about 800 words.

Run: ``.venv/bin/python -m benchmarks.pipeline_speed [--data-root DIR] [--repeat 20]``.

The workload is real text: 20 Wikipedia-cited web articles from WiCE (the development half),
each cut to about 800 words at a sentence end, and an answer made of 10 WiCE claims about the
first 10 of them, with a ``[n]`` marker on every other claim. Models are loaded and warmed up
before timing. Two figures are reported:

- **cold sources**: the embedding cache is cleared before every run, as when an answer cites
  sources the engine has not seen before;
- **cached sources**: the embedding cache is kept, as when the same conversation's sources were
  already embedded (a later turn, or sources registered while the agent was still working).

In both modes a cross-encoder's pair cache is emptied before every run: a new answer brings new
(claim, passage) pairs.

Prints a Markdown table (p50, p95, mean per stage) with the commit and machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from attribution import AttributionConfig, Attributor
from benchmarks._logs import quiet_logs
from benchmarks.datasets import default_data_root
from benchmarks.foundation import commit
from benchmarks.harness._speed import forget_pair_scores, make_workload


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-root", type=Path, default=default_data_root())
    parser.add_argument("--repeat", type=int, default=20, help="timed runs per mode (20)")
    parser.add_argument("--threads", type=int, default=None, help="ONNX Runtime threads")
    args = parser.parse_args()
    quiet_logs()

    try:
        workload = make_workload(args.data_root, claims=10, sources=20, words=800)
    except FileNotFoundError as exc:
        raise SystemExit(str(exc)) from exc
    answer, sources = workload.answer, list(workload.sources)
    config = AttributionConfig()
    if args.threads:
        from attribution import ModelConfig

        config = AttributionConfig(model=ModelConfig(intra_op_threads=args.threads))
    attributor = Attributor(config)
    t0 = time.perf_counter()
    attributor.warm_up()
    first = attributor.attribute(answer, sources)
    load_s = time.perf_counter() - t0
    n_words = sum(len((s.full_content or "").split()) for s in sources)
    print(
        f"commit {commit()} · {platform.machine()}, {os.cpu_count()} cores · Python "
        f"{platform.python_version()} · verifier {first.verifier}\n"
        f"workload: {first.summary.claims} claims, {len(sources)} sources, {n_words} words "
        f"(first call incl. model load: {load_s:.1f} s)\n",
    )
    print("| mode | p50 ms | p95 ms | extract | segment | match | verify | reconcile |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for mode in ("cold sources", "cached sources"):
        totals: list[float] = []
        stages: dict[str, list[float]] = {}
        for _ in range(args.repeat):
            if mode == "cold sources":
                attributor.clear_caches()
            forget_pair_scores(attributor)  # a new answer in both modes: no pair scores reused
            t = time.perf_counter()
            result = attributor.attribute(answer, sources)
            totals.append((time.perf_counter() - t) * 1000)
            for k, v in result.timings_ms.items():
                stages.setdefault(k, []).append(v)
        totals.sort()
        p95 = totals[min(len(totals) - 1, round(0.95 * (len(totals) - 1)))]
        cells = " | ".join(
            f"{statistics.median(stages[k]):.0f}"
            for k in ("extract", "segment", "match", "verify", "reconcile")
        )
        print(f"| {mode} | {statistics.median(totals):.0f} | {p95:.0f} | {cells} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
