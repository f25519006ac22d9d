"""Every real-shaped tool output in tests/fixtures/tool_outputs yields its expected sources.

The check is the one ``python -m benchmarks.tool_shapes`` counts (issue 13's measure). A shape
not read yet is listed in :data:`NOT_YET` with why; the marks are strict, so a fixture that
starts passing fails here until it is taken off the list.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.tool_shapes import FIXTURES, check

NOT_YET: dict[str, str] = {
    "scrapers_stores/raw_html_page.json": (
        "raw HTML is kept as text with its <script>/<style>: it needs an HTML-to-text step "
        "(library not chosen yet)"
    ),
}
"""Fixtures (``<folder>/<file>``) that do not give their expected sources yet, with why."""

PATHS = sorted(FIXTURES.glob("*/*.json"))


def _param(path: Path) -> object:
    name = f"{path.parent.name}/{path.name}"
    reason = NOT_YET.get(name)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(path, id=name, marks=marks)


def test_fixtures_are_found() -> None:
    assert len(PATHS) >= 43
    assert set(NOT_YET) <= {f"{p.parent.name}/{p.name}" for p in PATHS}


@pytest.mark.parametrize("path", [_param(p) for p in PATHS])
def test_tool_shape_gives_expected_sources(path: Path) -> None:
    ok, why = check(json.loads(path.read_text(encoding="utf-8")))
    assert ok, why
