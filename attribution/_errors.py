"""The one error tree of the library.

Every error the library raises on purpose derives from :class:`AttributionError`::

    AttributionError
    ├── ConfigError (ValueError)          a configuration value is out of bounds or unknown
    ├── InputError (ValueError)           the caller's data is malformed (JSON, offsets, markers)
    ├── SourceError                       a source cannot be used (no text, bad locator)
    ├── ModelLoadError                    a model file is missing, has the wrong hash, or won't load
    ├── WorkStopped                       the caller gave up on the work (a timeout); it stopped
    └── MissingDependencyError (ImportError)  an optional package is missing (with the pip hint)

The HTTP service maps this tree to status codes in one place. Always ``raise X(...) from exc``
when wrapping another exception, so the cause travels with it.
"""

from __future__ import annotations

__all__ = [
    "AttributionError",
    "ConfigError",
    "InputError",
    "MissingDependencyError",
    "ModelLoadError",
    "SourceError",
    "WorkStopped",
]


class AttributionError(Exception):
    """Base class of every error the library raises on purpose."""


class ConfigError(AttributionError, ValueError):
    """A configuration value is out of bounds, of the wrong kind, or unknown."""


class InputError(AttributionError, ValueError):
    """Data given by the caller is malformed: bad JSON, a wrong type, an offset out of range."""


class SourceError(AttributionError):
    """A source cannot be used: it has no text, or its locator is incomplete."""


class ModelLoadError(AttributionError):
    """A model file is missing, has the wrong hash, or cannot be loaded."""


class WorkStopped(AttributionError):
    """The work was stopped before it finished because its caller gave up on it (a service
    request past its timeout, a client gone): raised at the next model batch inside
    :func:`attribution.stoppable` once its event is set."""


class MissingDependencyError(AttributionError, ImportError):
    """An optional dependency is not installed."""

    def __init__(self, package: str, *, extra: str | None = None, purpose: str = "") -> None:
        target = f"attribution[{extra}]" if extra else package
        why = f" (needed for {purpose})" if purpose else ""
        super().__init__(
            f"{package} is not installed{why}; install it with: pip install '{target}'"
        )
        self.package = package
