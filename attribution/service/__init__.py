"""The attribution HTTP service (litestar + msgspec).

``create_app(settings)`` builds the app; ``python -m attribution.service`` serves it with
uvicorn on the host and port of :class:`Settings` (environment variables ``ATTRIBUTION_*``).
``open_store(...)`` opens the conversation store the settings name (SQLite, or PostgreSQL with
the ``postgres`` extra: ``docs/replicas.md``). ``serve_mcp(settings)`` serves the same engine,
limits and conversation store as an MCP server (``attribution mcp``; the ``mcp`` extra). The
library (``attribution``) never imports this package; only the command line's ``mcp`` command
does, to start it.
"""

from __future__ import annotations

try:
    import litestar  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError as exc:  # the library installed without its service extra
    from attribution import MissingDependencyError

    raise MissingDependencyError(
        f"the HTTP service needs {exc.name}: pip install 'attribution[service]'"
    ) from exc

from ._app import create_app
from ._mcp import check_listen, parse_http_address, serve_mcp
from ._settings import Settings
from ._store import (
    ConversationFull,
    ConversationStore,
    SqliteConversationStore,
    StoreError,
    open_store,
)

__all__ = [
    "ConversationFull",
    "ConversationStore",
    "Settings",
    "SqliteConversationStore",
    "StoreError",
    "check_listen",
    "create_app",
    "open_store",
    "parse_http_address",
    "serve_mcp",
]
