from __future__ import annotations

import subprocess
import sys

import attribution


def _isort_key(name: str) -> tuple[int, str]:
    """Constants, then classes, then everything else (ruff's RUF022 order)."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def test_all_is_sorted_and_exported() -> None:
    names = attribution.__all__
    assert names == sorted(names, key=_isort_key)
    assert len(set(names)) == len(names)
    for name in names:
        assert hasattr(attribution, name), name
    public = {n for n in dir(attribution) if not n.startswith("_")}
    modules = {n for n in public if type(getattr(attribution, n)).__name__ == "module"}
    assert public - modules - {"annotations"} == set(names) - {"__version__"}


def test_import_does_no_heavy_work() -> None:
    code = (
        "import sys, attribution; "
        "heavy = {'onnxruntime', 'faiss', 'spacy', 'tokenizers', 'torch', 'transformers'}; "
        "print(sorted(heavy & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_library_writes_nothing_on_the_callers_standard_output() -> None:
    # structlog left unconfigured prints on stdout: the library logs only where an application
    # configured it (the service and the command line do)
    code = (
        "from attribution import Attributor; "
        "source = {'id': 'a', 'type': 'web', 'fullContent': 'The Eiffel Tower is in Paris.'}; "
        "result = Attributor().attribute('The Eiffel Tower is in Paris.', [source]); "
        "print(result.claims[0].verdict)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "supported\n"


def test_error_tree() -> None:
    assert issubclass(attribution.ConfigError, ValueError)
    assert issubclass(attribution.InputError, ValueError)
    assert issubclass(attribution.MissingDependencyError, ImportError)
    for err in (
        attribution.ConfigError,
        attribution.InputError,
        attribution.SourceError,
        attribution.ModelLoadError,
        attribution.MissingDependencyError,
    ):
        assert issubclass(err, attribution.AttributionError)
    hint = str(attribution.MissingDependencyError("faiss-cpu", extra="search", purpose="matching"))
    assert "pip install 'attribution[search]'" in hint
    assert "matching" in hint
