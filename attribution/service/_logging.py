"""structlog set-up of the service (the library never configures logging).

JSON lines on stdout; every line carries the ``request_id`` bound by the request middleware.
Answer and source text stay out of logs unless ``Settings.log_text`` (see :func:`text_fields`).
"""

from __future__ import annotations

import logging
import sys
from typing import Any, TextIO

import structlog
import structlog.stdlib
import structlog.tracebacks
import structlog.typing

from ._settings import Settings

__all__ = ["configure_logging", "text_fields"]

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


_HANDLER = "attribution-service-json"


def configure_logging(settings: Settings, *, stream: TextIO | None = None) -> None:
    """Configure structlog, and stdlib logging (uvicorn's), to write JSON lines on ``stream``
    (default: stdout; the MCP server over stdio logs on stderr, its stdout being the protocol)."""
    out = sys.stdout if stream is None else stream
    level = _LEVELS[settings.log_level]
    shared: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    # Tracebacks without locals: locals would carry answer and source text into logs.
    tracebacks = structlog.processors.ExceptionRenderer(
        structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
    )
    structlog.configure(
        processors=[*shared, tracebacks, structlog.processors.JSONRenderer()],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=out),
        cache_logger_on_first_use=False,
    )
    # stdlib records (uvicorn's server messages) become JSON lines too; replacing the handler
    # by name keeps a second create_app in one process from doubling every line.
    handler = logging.StreamHandler(out)
    handler.set_name(_HANDLER)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                tracebacks,
                structlog.processors.JSONRenderer(),
            ],
        )
    )
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # FAISS says at info level which CPU build it loads, as "Could not load library with AVX512
    # support due to: ModuleNotFoundError ..." where that build is absent: not the operator's
    # concern, and it reads like an error
    logging.getLogger("faiss").setLevel(max(level, logging.WARNING))
    # a mistyped variable (ATTRIBUTION_PROT) would otherwise be ignored without a word
    for variable, near in Settings.unknown_variables():
        structlog.get_logger(__name__).warning(
            "unknown_setting", variable=variable, did_you_mean=near, ignored=True
        )


def text_fields(settings: Settings, **fields: str) -> dict[str, Any]:
    """Log fields holding user text: the text itself with ``log_text``, else only its length."""
    if settings.log_text:
        return dict(fields)
    return {f"{name}_chars": len(value) for name, value in fields.items()}
