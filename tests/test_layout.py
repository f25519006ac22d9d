"""The floor plan: stages in folders, imports that follow it, a public API that says so.

Read from the source with ``ast`` (nothing is imported): every rule here is one a reader of the
tree relies on, and a change that breaks one fails here with the module and line named.
"""

from __future__ import annotations

import ast
import inspect
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

import attribution

PACKAGE = Path(attribution.__file__).resolve().parent
STAGES = ("text", "sources", "segment", "match", "verify", "decide", "emit", "runtime")
"""The subpackages that hold the pipeline's stages."""
APART = ("service", "batch")
"""Front ends built on the library, apart from it: the HTTP and MCP service, Ray batch jobs."""


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def _runtime_imports(tree: ast.Module) -> Iterator[ast.ImportFrom | ast.Import]:
    """Imports that run (those under ``if TYPE_CHECKING:`` only name types)."""

    def walk(nodes: list[ast.stmt]) -> Iterator[ast.ImportFrom | ast.Import]:
        for node in nodes:
            if isinstance(node, ast.If) and ast.unparse(node.test) in (
                "TYPE_CHECKING",
                "typing.TYPE_CHECKING",
            ):
                yield from walk(node.orelse)  # only the else branch runs
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield node
            for field in ("body", "orelse", "handlers", "finalbody"):
                children = getattr(node, field, None)
                if isinstance(children, list):
                    yield from walk([c for c in children if isinstance(c, ast.stmt)])

    yield from walk(tree.body)


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _owner(module: str) -> str:
    """The node a module belongs to: its stage (or ``service``), else the module itself."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in (*STAGES, *APART):
        return parts[1]
    return module


def _imports() -> Iterator[tuple[str, Path, int, str, list[str]]]:
    for module, path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _runtime_imports(tree):
            if isinstance(node, ast.ImportFrom):
                yield (
                    module,
                    path,
                    node.lineno,
                    _absolute(module, path, node),
                    [a.name for a in node.names],
                )
            else:
                for alias in node.names:
                    yield module, path, node.lineno, alias.name, []


def test_no_underscore_name_crosses_a_module() -> None:
    crossing = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {name} from {target}"
        for module, path, line, target, names in _imports()
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert not crossing, "\n".join(crossing)


def test_stages_meet_only_through_their_package() -> None:
    """``from attribution.match import Matcher``, never ``from attribution.match._matcher``."""
    reaching_in = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}"
        for module, path, line, target, _ in _imports()
        if target.startswith("attribution.")
        and len(target.split(".")) > 2
        and _owner(target) != _owner(module)
        and target.split(".")[1] in STAGES
    ]
    assert not reaching_in, "\n".join(reaching_in)


FRONT_ENDS = {
    ("attribution._cli", "attribution.service"),
    ("attribution._cli", "attribution.batch"),
}
"""(module, package) pairs where a command starts a front end: ``attribution mcp`` starts the
service's MCP server, ``attribution batch`` a Ray job. The import stays inside the command's
function, so ``import attribution`` and every other command never load them."""


def _function_level_lines(path: Path) -> set[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.lineno
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }


def test_the_model_runtime_knows_no_stage_and_the_core_no_service() -> None:
    wrong = []
    for module, path, line, target, _ in _imports():
        where = f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}"
        if _owner(module) == "runtime" and _owner(target) in STAGES and _owner(target) != "runtime":
            wrong.append(where)
        if (module, target) in FRONT_ENDS and line in _function_level_lines(path):
            continue
        if _owner(module) not in APART and (
            _owner(target) in APART
            or target.split(".")[0]
            in ("litestar", "uvicorn", "mcp", "ray", "benchmarks", "training")
        ):
            wrong.append(where)
    assert not wrong, "\n".join(wrong)


def test_no_stage_imports_the_public_facade() -> None:
    """``attribution/__init__`` imports every stage, so a stage importing it would be a circle."""
    inward = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports from attribution"
        for module, path, line, target, _ in _imports()
        if target == "attribution" and module != "attribution" and _owner(module) not in APART
    ]
    assert not inward, "\n".join(inward)


def test_programs_beside_the_library_use_its_packages_not_their_modules() -> None:
    """benchmarks/ and training/ may use ``attribution`` and its stage packages, never a
    private module inside one (``attribution.match._matcher``)."""
    reaching_in = []
    for folder in ("benchmarks", "training"):
        for path in sorted((PACKAGE.parent / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and not node.level
                    else [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else []
                )
                reaching_in.extend(
                    f"{path.relative_to(PACKAGE.parent)}:{node.lineno} imports {name}"
                    for name in names
                    if name.startswith("attribution.")
                    and any(p.startswith("_") for p in name.split(".")[1:])
                )
    assert not reaching_in, "\n".join(reaching_in)


def test_no_import_circle_between_stages() -> None:
    """The stages (and top-level modules) form a DAG: no package needs one that needs it."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module, _, _, target, _ in _imports():
        if module == "attribution" or not target.startswith("attribution"):
            continue  # the public façade imports everything; it is no stage
        a, b = _owner(module), _owner(target)
        if a != b and b != "attribution":
            graph[a].add(b)
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*trail[trail.index(nxt) :], nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, cycles


def test_the_folders_name_the_stages() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert folders == {*STAGES, *APART}
    # where a claim and a marker are judged, as docs/architecture.md says
    assert (PACKAGE / "decide" / "_claims.py").read_text().count("def decide_claim(") == 1
    assert (PACKAGE / "decide" / "_markers.py").read_text().count("def check_marker(") == 1


@pytest.mark.parametrize("name", attribution.__all__)
def test_public_names_report_themselves_as_attribution(name: str) -> None:
    value = getattr(attribution, name)
    if isinstance(value, type) or inspect.isfunction(value):
        assert value.__module__ == "attribution", value


def test_the_version_has_one_source() -> None:
    from importlib.metadata import version

    from attribution._version import __version__

    assert attribution.__version__ == __version__ == version("attribution")
    pyproject = (PACKAGE.parent / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject
    assert "\nversion =" not in pyproject.split("[tool.setuptools.dynamic]")[0]
