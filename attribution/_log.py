"""How the library logs: through structlog when the application configured it, else quietly.

The library never configures logging (the service and the command line do). structlog left
unconfigured prints every event on standard output, which is the caller's; so an event is
logged only where structlog was configured, and otherwise an informational one is dropped and a
warning becomes a Python :class:`RuntimeWarning` (standard error, once per place), which an
application sees without having set anything up.
"""

from __future__ import annotations

import warnings
from typing import Any, Literal

import structlog

__all__ = ["library_log"]


def library_log(
    logger: Any, level: Literal["info", "warning"], event: str, **fields: object
) -> None:
    """Log ``event`` with ``fields`` at ``level`` on ``logger`` (a structlog logger) where
    structlog is configured; else drop it (info) or warn (warning)."""
    if structlog.is_configured():
        getattr(logger, level)(event, **fields)
    elif level == "warning":
        said = "; ".join(f"{name}: {value}" for name, value in fields.items())
        warnings.warn(f"{event} ({said})", RuntimeWarning, stacklevel=3)
