"""``python -m benchmarks``: the benchmark harness (a checkout of the repository only)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks._logs import quiet_logs
from benchmarks.datasets import SPLIT_NAMES, default_data_root
from benchmarks.harness._context import DATASET_NAMES
from benchmarks.harness._run import TASKS, run_harness

REPO = Path(__file__).resolve().parents[1]


def _names(value: str, allowed: Sequence[str], what: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    unknown = [n for n in names if n not in allowed]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown {what} {', '.join(unknown) or '(none)'}; choose from {', '.join(allowed)}"
        )
    return names


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Citation accuracy on human-labelled data, speed and scale, with baselines "
        "computed in the same run. Writes accuracy.json, speed.json, report.md and plots.",
    )
    parser.add_argument(
        "--data-root",
        type=Path,
        default=default_data_root(),
        help="root of the attribution datasets (default: ../shared/data/attribution)",
    )
    parser.add_argument(
        "--out", type=Path, default=REPO / "benchmarks" / "out", help="report folder"
    )
    parser.add_argument("--limit", type=int, help="at most N examples per dataset (evenly spread)")
    parser.add_argument(
        "--split",
        choices=SPLIT_NAMES,
        default="validation",
        help="part of the committed split (benchmarks/splits) every task sees: validation "
        "(default; records the split does not know, e.g. the held-out half, count as "
        "validation), train or all",
    )
    parser.add_argument(
        "--datasets",
        type=lambda v: _names(v, DATASET_NAMES, "dataset"),
        default=DATASET_NAMES,
        help=f"comma-separated, from {','.join(DATASET_NAMES)}",
    )
    parser.add_argument(
        "--tasks",
        type=lambda v: _names(v, TASKS, "task"),
        default=TASKS,
        help=f"comma-separated, from {','.join(TASKS)}",
    )
    parser.add_argument(
        "--quick-speed", action="store_true", help="a tiny speed grid (smoke runs, CI)"
    )
    parser.add_argument(
        "--no-held-out",
        action="store_true",
        help="skip the second pass with weights refitted without each dataset (faster, but "
        "then the figures on fitted-on datasets are in-sample only)",
    )
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be 1 or more")
    # the report folder is made now: a run of hours must not end on a path it cannot write
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        parser.error(f"--out {args.out}: cannot be a folder for the report ({exc.strerror or exc})")
    if not args.data_root.is_dir():
        print(
            f"note: {args.data_root} not found; accuracy tasks will skip every dataset",
            file=sys.stderr,
        )
    quiet_logs()
    accuracy = run_harness(
        data_root=args.data_root,
        out=args.out,
        datasets=args.datasets,
        tasks=args.tasks,
        limit=args.limit,
        quick_speed=args.quick_speed,
        held_out=not args.no_held_out,
        split=args.split,
    )
    print(f"wrote {args.out / 'report.md'} ({accuracy['seconds']['total']} s)", file=sys.stderr)
    for note in accuracy["notes"]:
        print(f"note: {note}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
