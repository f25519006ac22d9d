"""Shared test set-up: hypothesis profiles (``HYPOTHESIS_PROFILE=thorough`` for long runs)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from attribution import Attributor
from tests.postgres_server import PostgresServer, find_binaries

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.register_profile("thorough", max_examples=5000, deadline=None)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)


@pytest.fixture(scope="session")
def attributor() -> Attributor:
    """One engine for the tests that only use it (models load once per run)."""
    return Attributor()


@pytest.fixture(scope="session")
def data_root() -> Path:
    """The labelled attribution data; tests that need it skip when it is absent."""
    from benchmarks.datasets import default_data_root

    root = default_data_root()
    if not root.is_dir():
        pytest.skip(f"no labelled data under {root}")
    return root


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the session (tests/postgres_server.py); skips, loudly,
    where the Debian package is not installed."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(
            "POSTGRESQL TESTS SKIPPED: no initdb/pg_ctl; the PostgreSQL store is NOT tested. "
            "Install Debian's package: apt-get install -y --no-install-recommends postgresql"
        )
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    server = PostgresServer(binaries)
    try:
        server.start()
        yield server
    finally:
        server.remove()
