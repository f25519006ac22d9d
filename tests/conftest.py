"""Shared test set-up: hypothesis profiles (``HYPOTHESIS_PROFILE=thorough`` for long runs)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from attribution import Attributor

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
