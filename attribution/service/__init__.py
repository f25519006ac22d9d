"""The attribution HTTP service (litestar + msgspec).

``create_app(settings)`` builds the app; ``python -m attribution.service`` serves it with
uvicorn on the host and port of :class:`Settings` (environment variables ``ATTRIBUTION_*``). The
library (``attribution``) never imports this package.
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
from ._settings import Settings

__all__ = ["Settings", "create_app"]
