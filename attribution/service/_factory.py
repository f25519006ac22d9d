"""The import string uvicorn's workers load (``attribution.service._factory:app_from_env``)."""

from __future__ import annotations

from litestar import Litestar

from ._app import create_app
from ._settings import Settings

__all__ = ["app_from_env"]


def app_from_env() -> Litestar:
    """The app with :meth:`Settings.from_env` (each worker process builds its own)."""
    return create_app(Settings.from_env())
