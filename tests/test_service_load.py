"""Smoke test of the load benchmark program (``benchmarks/service_load.py``) with tiny numbers.

It runs the program as a user would: the real server starts as a subprocess on loopback, takes
a few requests of every workload and is stopped. Nothing here looks at timings.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ROW_KEYS = {
    "workload",
    "route",
    "concurrency",
    "requests",
    "ok",
    "rejected_429",
    "server_errors",
    "transport_errors",
    "statuses",
    "seconds",
    "requests_per_s",
    "ok_per_s",
    "p50_ms",
    "p95_ms",
    "max_ms",
}


def _listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1.0)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_load_benchmark_runs_the_server_and_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    run = subprocess.run(
        [
            *(sys.executable, "-m", "benchmarks.service_load"),
            *("--requests", "3", "--concurrency", "1,2", "--duration", "10", "--out", str(out)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "| workload | concurrency |" in run.stdout  # the Markdown table

    report = json.loads(out.read_text(encoding="utf-8"))
    assert {"commit", "machine", "python", "limits", "server", "warm_up_ms", "results"} <= set(
        report
    )
    assert report["limits"] == {"requests": 3, "duration_s": 10.0, "concurrency": [1, 2]}

    # The server was started, then stopped: its process is gone and its port is closed.
    server = report["server"]
    assert server["ready_s"] > 0
    assert server["exit_status"] is not None
    assert not _alive(server["pid"])
    assert not _listening(server["port"])

    rows = report["results"]
    workloads = ["attributions, cached", "attributions, cold", "verifications (8 pairs)"]
    assert [(r["workload"], r["concurrency"]) for r in rows] == [
        (w, c) for w in workloads for c in (1, 2)
    ]
    for row in rows:
        assert set(row) == ROW_KEYS
        assert row["route"] in {"/v1/attributions", "/v1/verifications"}
        assert 1 <= row["requests"] <= 3
        assert sum(row["statuses"].values()) == row["requests"]
        assert row["server_errors"] == 0, row
        assert row["transport_errors"] == 0, row
        assert not any(status.startswith("5") for status in row["statuses"]), row
        # Concurrency 2 is far below the default queue: every request is answered.
        assert row["ok"] == row["requests"], row
        assert row["p50_ms"] is not None
        assert row["p50_ms"] <= row["p95_ms"] <= row["max_ms"]
