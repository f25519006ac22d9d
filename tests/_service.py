"""Helpers of the service tests."""

from __future__ import annotations

import asyncio

import pytest
from litestar.testing import AsyncTestClient


async def wait_until_ready(client: AsyncTestClient, seconds: float = 60) -> None:
    """Poll ``/readyz`` until the service has loaded its models; fail the test after ``seconds``."""
    for _ in range(int(seconds * 10)):
        if (await client.get("/readyz")).status_code == 200:
            return
        await asyncio.sleep(0.1)
    pytest.fail(f"the models did not load within {seconds:.0f} s")
