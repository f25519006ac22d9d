"""One entry point over the five datasets: the data root, and flattened loads by name."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from attribution import ConfigError

from . import _attributionbench, _expertqa, _faithbench, _lfqa, _wice
from ._types import DATASETS, DatasetLoad, DatasetName

__all__ = ["DATA_ROOT_ENV", "PATTERNS", "default_data_root", "load_all", "load_verification"]

DATA_ROOT_ENV = "ATTRIBUTION_DATA_ROOT"
"""Environment variable that overrides the default data root."""

PATTERNS: dict[DatasetName, str] = {
    "expertqa": _expertqa.PATTERN,
    "attributionbench": _attributionbench.PATTERN,
    "wice": _wice.PATTERN,
    "lfqa": _lfqa.PATTERN,
    "faithbench": _faithbench.PATTERN,
}
"""The glob pattern (relative to the data root) of each dataset's files."""

_LOADERS: dict[DatasetName, Callable[..., DatasetLoad]] = {
    "expertqa": _expertqa.load_examples,
    "attributionbench": _attributionbench.load_examples,
    "wice": _wice.load_examples,
    "lfqa": _lfqa.load_examples,
    "faithbench": _faithbench.load_examples,
}


def default_data_root() -> Path:
    """The data root: ``$ATTRIBUTION_DATA_ROOT`` if set, else ``../shared/data/attribution``
    next to the repository root (``<repo>/../shared/data/attribution``)."""
    if env := os.environ.get(DATA_ROOT_ENV):
        return Path(env)
    repo_root = Path(__file__).resolve().parents[2]
    return repo_root.parent / "shared" / "data" / "attribution"


def load_verification(
    root: Path | str, dataset: DatasetName, *, partial_as: bool | None = None
) -> DatasetLoad:
    """Load one dataset flattened to claim-versus-evidence :class:`VerificationExample`\\ s.

    Args:
        root: the data root holding the dataset folders (either half of the data).
        dataset: ``expertqa``, ``attributionbench``, ``wice``, ``lfqa`` or ``faithbench``.
        partial_as: the label partial support takes (ExpertQA ``Partial``, WiCE
            ``partially_supported``, LFQA ``partially``); None keeps those examples with
            ``label=None``, counted in ``excluded``.

    Returns:
        The examples and counts; ``status="missing"`` (with the pattern looked for in ``path``)
        when the dataset's files are not under ``root``. Malformed rows never raise: they are
        listed in ``skipped``.

    Raises:
        ConfigError: ``dataset`` is not one of the five names.
    """
    loader = _LOADERS.get(dataset)
    if loader is None:
        raise ConfigError(f"unknown dataset {dataset!r}; expected one of {', '.join(DATASETS)}")
    return loader(Path(root), partial_as=partial_as)


def load_all(
    root: Path | str | None = None, *, partial_as: bool | None = None
) -> dict[DatasetName, DatasetLoad]:
    """Load every dataset flattened, in :data:`DATASETS` order; missing ones say so.

    Args:
        root: the data root; None for :func:`default_data_root`.
        partial_as: as for :func:`load_verification`.
    """
    base = default_data_root() if root is None else Path(root)
    return {name: load_verification(base, name, partial_as=partial_as) for name in DATASETS}
