"""``python -m attribution.service``: serve the app with uvicorn on the settings' host and port."""

from __future__ import annotations

import signal
import sys

import uvicorn

from attribution import ConfigError, InputError
from attribution._process import keep_training_libraries_out

from ._guard import HeaderTimeoutH11Protocol
from ._mcp import check_listen
from ._settings import Settings
from ._store import open_store


def main() -> int:
    """Read the settings from the environment and serve until interrupted."""
    keep_training_libraries_out()  # nothing here runs torch; spaCy would import it
    try:
        settings = Settings.from_env()
        # what can only fail, checked before the models load and in one line, not after them
        # inside a server's traceback: the address, and a SQLite file that cannot be opened
        check_listen(settings.host, settings.port)
        if not settings.database_url:
            open_store(database_url=None, database_path=settings.database_path).close()
    except (ConfigError, InputError) as exc:
        print(f"attribution service: {exc}", file=sys.stderr)
        return 2
    # uvicorn shuts down gracefully on SIGTERM and then re-raises the signal, so the process
    # would end with -15 after a clean stop; an empty handler lets it exit 0.
    signal.signal(signal.SIGTERM, lambda *_: None)
    uvicorn.run(
        "attribution.service._factory:app_from_env",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=settings.log_level,
        access_log=False,  # the service logs every request itself, with its request id
        log_config=None,  # create_app configures logging: JSON lines, uvicorn's included
        # h11 with a header read timeout (header_timeout_s); the body's is the app's
        http=HeaderTimeoutH11Protocol,
        timeout_graceful_shutdown=int(settings.request_timeout_s) + 5,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
