"""Every real-shaped tool output in tests/fixtures/tool_outputs yields its expected sources,
through the library, the CLI (``attribution extract``) and the service (``POST
/v1/extractions``).

The check is the one ``python -m benchmarks.tool_shapes`` counts (issue 13's measure). A shape
not read yet is listed in :data:`NOT_YET` with why; the marks are strict, so a fixture that
starts passing fails here until it is taken off the list.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.tool_shapes import FIXTURES, check, check_sources

NOT_YET: dict[str, str] = {}
"""Fixtures (``<folder>/<file>``) that do not give their expected sources yet, with why."""

PATHS = sorted(FIXTURES.glob("*/*.json"))


def _param(path: Path) -> object:
    name = f"{path.parent.name}/{path.name}"
    reason = NOT_YET.get(name)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(path, id=name, marks=marks)


def test_fixtures_are_found() -> None:
    assert len(PATHS) >= 61
    assert set(NOT_YET) <= {f"{p.parent.name}/{p.name}" for p in PATHS}


@pytest.mark.parametrize("path", [_param(p) for p in PATHS])
def test_tool_shape_gives_expected_sources(path: Path) -> None:
    ok, why = check(json.loads(path.read_text(encoding="utf-8")))
    assert ok, why


@pytest.mark.parametrize("path", [_param(p) for p in PATHS])
def test_the_cli_gives_the_same_sources(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from attribution import CitationSource, decode_json
    from attribution._cli import main

    fixture = json.loads(path.read_text(encoding="utf-8"))
    calls = tmp_path / "calls.json"
    calls.write_text(json.dumps([fixture["toolOutput"]]), encoding="utf-8")
    assert main(["extract", str(calls)]) == 0
    sources = decode_json(capsys.readouterr().out, list[CitationSource])
    ok, why = check_sources(sources, fixture)
    assert ok, why


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from litestar.testing import TestClient

    from attribution.service import Settings, create_app

    db = tmp_path_factory.mktemp("service") / "conversations.sqlite3"
    with TestClient(
        app=create_app(Settings(database_path=str(db))), base_url="http://127.0.0.1"
    ) as client:
        yield client


@pytest.mark.parametrize("path", [_param(p) for p in PATHS])
def test_the_service_gives_the_same_sources(path: Path, service: Any) -> None:
    from attribution import CitationSource, decode_json

    fixture = json.loads(path.read_text(encoding="utf-8"))
    response = service.post("/v1/extractions", json={"toolOutputs": [fixture["toolOutput"]]})
    assert response.status_code == 200, response.text
    sources = decode_json(json.dumps(response.json().get("sources", [])), list[CitationSource])
    ok, why = check_sources(sources, fixture)
    assert ok, why
