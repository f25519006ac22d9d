"""How many real tool-output shapes yield the sources a user expects (issue 13's measure).

Run: ``.venv/bin/python -m benchmarks.tool_shapes [--verbose]``.

Each fixture in ``tests/fixtures/tool_outputs/*/`` (see its README) is one tool output as an
agent receives it, with the sources a user would expect from it. A fixture passes when
``extract_sources`` neither raises nor drops one of them: every expected source is found by
its URL (``?utm_`` tracking suffixes and a trailing ``/`` ignored; any source when the
expected URL is null), keeps the expected text, and leaves out the excluded text. Prints one
line per fixture and the count that pass.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attribution import CitationSource, ToolOutput, extract_sources
from benchmarks._logs import quiet_logs

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "tool_outputs"


def _same_url(a: str | None, b: str) -> bool:
    def norm(u: str) -> str:
        return u.split("?utm_")[0].rstrip("/")

    return a is not None and norm(a) == norm(b)


def check(fixture: dict[str, Any]) -> tuple[bool, str]:
    """Whether the fixture's output yields its expected sources through ``extract_sources``,
    and why not."""
    raw = fixture["toolOutput"]
    tool = ToolOutput(
        tool_name=raw["toolName"], output=raw["output"], parameters=raw.get("parameters", {})
    )
    try:
        extracted = extract_sources([tool])
    except Exception as exc:  # the measure: an exception escaping is a failure, not a crash
        return False, f"raised {type(exc).__name__}: {exc}"
    ok, why = check_sources(list(extracted.sources), fixture)
    return ok, why if not ok else f"{why}, {len(extracted.warnings)} warnings"


def check_sources(sources: Sequence[CitationSource], fixture: dict[str, Any]) -> tuple[bool, str]:
    """Whether ``sources`` (from any way in: the library, the CLI, the service) are the ones
    the fixture expects (address, title where one is expected, text), and why not."""
    missing = []
    for want in fixture["expected"]:
        found = [s for s in sources if want["uri"] is None or _same_url(s.uri, want["uri"])]
        text = want.get("textContains")
        if text:
            found = [s for s in found if text in (s.full_content or "") + (s.snippet or "")]
        excluded = want.get("textExcludes")
        if excluded:
            found = [s for s in found if excluded not in (s.full_content or "")]
        if want.get("title"):
            found = [s for s in found if s.title == want["title"]]
        if not found:
            missing.append(want["uri"] or want.get("title") or "(a source)")
    expected = len(fixture["expected"])
    if missing:
        return False, f"{len(sources)} sources for {expected} expected; missing {missing}"
    if not expected and sources:
        return False, f"{len(sources)} sources where none was expected"
    return True, f"{len(sources)} sources"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="say why each fixture fails")
    args = parser.parse_args(argv)
    quiet_logs()
    paths = sorted(FIXTURES.glob("*/*.json"))
    passed = 0
    for path in paths:
        ok, why = check(json.loads(path.read_text()))
        passed += ok
        line = f"{'ok  ' if ok else 'FAIL'} {path.parent.name}/{path.name}"
        print(f"{line}: {why}" if args.verbose or ok else line)
    print(f"\n{passed} of {len(paths)} shapes yield the expected sources")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
