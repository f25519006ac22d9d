"""``python -m benchmarks.datasets.split [--data-root DIR] [--check]``: the committed split.

Writes ``benchmarks/splits/<dataset>.json`` (the train and validation ids of every dataset), or
with ``--check`` verifies the committed files against the data: exit status 1 when they differ
or a question, answer, claim or page key is found on both sides. See :mod:`._split`.
"""

from __future__ import annotations

from ._split import main

if __name__ == "__main__":
    raise SystemExit(main())
