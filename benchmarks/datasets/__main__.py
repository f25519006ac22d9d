"""Print what the attribution datasets under a data root hold: counts per dataset and label.

Run: ``.venv/bin/python -m benchmarks.datasets [--data-root DIR] [--partial-as none|true|false]``.
A quick check for humans (Markdown tables on standard output); exit status 1 when no dataset is
found under the root.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import structlog

from ._load import DATA_ROOT_ENV, default_data_root, load_all
from ._types import DatasetLoad, DatasetName

_PARTIAL_AS: dict[str, bool | None] = {"none": None, "true": True, "false": False}
_SHOW_SKIPPED = 5


def _table(header: Sequence[str], rows: Sequence[Sequence[object]], numeric_from: int) -> str:
    align = ["---" if i < numeric_from else "---:" for i in range(len(header))]
    lines = [header, align, *[[str(cell) for cell in row] for row in rows]]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines)


def _counts(text: dict[str, int]) -> str:
    return ", ".join(f"{key} {value}" for key, value in text.items()) or "none"


def _summary(loads: Mapping[DatasetName, DatasetLoad]) -> str:
    rows = []
    for name, load in loads.items():
        counts = load.label_counts
        labelled = counts["supported"] + counts["not_supported"]
        share = f" ({counts['supported'] / labelled:.0%})" if labelled else ""
        rows.append(
            [
                name,
                load.status,
                len(load.files),
                load.rows_read,
                len(load.skipped),
                len(load.examples),
                f"{counts['supported']}{share}",
                counts["not_supported"],
                counts["excluded"],
                sum(load.dropped.values()),
            ]
        )
    header = ["dataset", "status", "files", "rows", "skipped", "examples"]
    header += ["supported", "not supported", "excluded", "dropped"]
    return _table(header, rows, numeric_from=2)


def _details(name: str, load: DatasetLoad) -> str:
    if load.status == "missing":
        return f"## {name}\n\nmissing: nothing matches {load.path}"
    groups: dict[str, list[int]] = {}
    for ex in load.examples:
        tally = groups.setdefault(ex.group, [0, 0, 0])
        tally[0 if ex.label is True else 1 if ex.label is False else 2] += 1
    rows = [[group, sum(c), *c] for group, c in sorted(groups.items())]
    parts = [
        f"## {name}",
        _table(["group", "examples", "supported", "not supported", "excluded"], rows, 1),
        f"- excluded by label: {_counts(load.excluded)}",
        f"- dropped: {_counts(load.dropped)}",
        f"- warnings: {_counts(load.warnings)}",
        f"- skipped rows: {len(load.skipped) or 'none'}",
        *[
            f"  - {skip.file}:{'file' if skip.row is None else skip.row}: {skip.reason}"
            for skip in load.skipped[:_SHOW_SKIPPED]
        ],
    ]
    return "\n\n".join(parts[:2]) + "\n\n" + "\n".join(parts[2:])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    # Tables go to standard output, the loaders' warnings to standard error (looked up on each
    # call, so a sys.stderr replaced later is the one written to).
    structlog.configure(logger_factory=lambda *_: structlog.PrintLogger(sys.stderr))
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.datasets", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--data-root",
        type=Path,
        help=f"folder holding the dataset folders (default: ${DATA_ROOT_ENV}, else "
        f"{default_data_root()})",
    )
    parser.add_argument(
        "--partial-as",
        choices=sorted(_PARTIAL_AS),
        default="none",
        help="label of partial support: none = excluded (default), true or false",
    )
    args = parser.parse_args(argv)
    root: Path = args.data_root or default_data_root()
    loads = load_all(root, partial_as=_PARTIAL_AS[args.partial_as])
    print(f"data root: {root} · partial support as: {args.partial_as}\n")
    print(_summary(loads))
    for name, load in loads.items():
        print("\n" + _details(name, load))
    return 0 if any(load.status == "ok" for load in loads.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
