"""Logging set-up for benchmark programs: library logs go to standard error, warnings and up."""

from __future__ import annotations

import logging
import sys

import structlog


def _stderr(*_args: object) -> structlog.PrintLogger:
    return structlog.PrintLogger(sys.stderr)


def quiet_logs() -> None:
    """Send the library's structlog output to stderr, warnings and above only."""
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
        logger_factory=_stderr,
    )
