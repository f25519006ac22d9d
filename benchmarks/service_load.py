"""The HTTP service under concurrent load: the real server, a realistic mix of requests.

Run: ``.venv/bin/python -m benchmarks.service_load [--requests 200] [--duration 60]
[--concurrency 1,4,16] [--max-queue N] [--out benchmarks/out/service_load.json]``.

Starts ``python -m attribution.service`` as a subprocess on a free loopback port with its
SQLite file in a temporary folder, waits for ``/readyz``, and stops it at the end (also on an
error or Ctrl-C).
For each workload and each concurrency level, that many clients send requests back to back
until ``--requests`` were sent or ``--duration`` seconds passed, whichever comes first. Every
request goes to 127.0.0.1; nothing else is contacted. The workloads:

- ``attributions, cached``: ``POST /v1/attributions`` with the bundled example
  (``attribution/examples/answer.md`` and ``attribution/examples/tool_outputs.json``), the
  same body every time. After
  the warm-up request every passage's embedding is in the engine's cache, as in a later turn of
  a conversation whose sources were already seen.
- ``attributions, cold``: the same example with a request counter written into every sentence of
  every source, so no passage was ever embedded before (passages are three sentences with one of
  overlap, so a counter appended only at the end of a source would leave its other passages
  cached). The answer's claims are still cached: they are the same every time.
- ``verifications``: ``POST /v1/verifications`` with 8 (claim, passage) pairs from the example.

Reported per workload and concurrency: requests sent, status counts, successful requests per
second, and p50 / p95 / max latency of the successful (2xx) requests. 429 (the service's queue
is full) is counted apart: it is the back-pressure working, not a failure. Prints a Markdown
table and writes JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from benchmarks.foundation import commit

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "attribution" / "examples"
HOST = "127.0.0.1"

# A sentence end: "." "!" or "?" followed by white space or the end of the text (not "6.5").
_SENTENCE_END = re.compile(r"([.!?])(?=\s|$)")


# -- the workloads ---------------------------------------------------------------------------


def _mark_sentences(value: Any, tag: str) -> Any:
    """``value`` with ``tag`` written before the end of every sentence of every prose string."""
    if isinstance(value, str):
        if " " not in value or value.startswith(("http://", "https://")):
            return value  # ids, urls, titles without spaces: keep, they key the source
        marked = _SENTENCE_END.sub(lambda m: f" {tag}{m.group(1)}", value)
        if marked == value and len(value) >= 80:  # prose without a full stop
            marked = f"{value} {tag}."
        return marked  # short strings without a sentence end (titles, queries) stay as they are
    if isinstance(value, list):
        return [_mark_sentences(v, tag) for v in value]
    if isinstance(value, dict):
        return {k: _mark_sentences(v, tag) for k, v in value.items()}
    return value


def _cold_tool_outputs(tool_outputs: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    out = copy.deepcopy(tool_outputs)
    for call in out:
        call["output"] = _mark_sentences(call["output"], f"(load test request {n})")
    return out


def _verification_pairs() -> list[dict[str, str]]:
    claims = [
        "Webb is a partnership between NASA, ESA and the Canadian Space Agency.",
        "Webb lifted off on 25 December 2021 on an Ariane 5 rocket.",
        "Its primary mirror is 6.5 m across.",
        "The mirror is made of 18 hexagonal beryllium segments coated with gold.",
        "Webb orbits near the second Lagrange point, about 1.5 million km from Earth.",
        "The telescope observes the Universe in infrared light.",
        "Webb was the first telescope launched to the surface of the Moon.",
        "The first full-colour images were released on 12 July 2022.",
    ]
    passages = [
        "The James Webb Space Telescope is an international partnership between NASA, ESA and "
        "the Canadian Space Agency (CSA).",
        "Webb lifted off on 25 December 2021 on an Ariane 5 rocket from Europe's Spaceport in "
        "Kourou, French Guiana.",
        "The telescope's primary mirror is 6.5 metres across and is made of 18 hexagonal "
        "segments of gold-coated beryllium.",
        "The telescope's primary mirror is 6.5 metres across and is made of 18 hexagonal "
        "segments of gold-coated beryllium.",
        "After a month-long journey, Webb reached its orbit around the second Sun-Earth Lagrange "
        "point, L2, about 1.5 million kilometres from Earth, on 24 January 2022.",
        "It is the largest and most powerful telescope ever sent into space, and it observes the "
        "Universe in infrared light.",
        "There its five-layer sunshield, about the size of a tennis court, keeps the telescope "
        "and its instruments permanently in shade.",
        "The first full-colour images and spectra were released on 12 July 2022 and marked the "
        "start of Webb's science operations.",
    ]
    return [{"claim": c, "passage": p} for c, p in zip(claims, passages, strict=True)]


@dataclass(frozen=True)
class Workload:
    """One kind of request: a name, a route and a body for the n-th request."""

    name: str
    route: str
    body: Callable[[int], dict[str, Any]]


def make_workloads() -> list[Workload]:
    answer = (EXAMPLES / "answer.md").read_text(encoding="utf-8")
    tool_outputs = json.loads((EXAMPLES / "tool_outputs.json").read_text(encoding="utf-8"))
    example = {"answer": answer, "toolOutputs": tool_outputs}
    pairs = {"pairs": _verification_pairs()}
    return [
        Workload("attributions, cached", "/v1/attributions", lambda n: example),
        Workload(
            "attributions, cold",
            "/v1/attributions",
            lambda n: {"answer": answer, "toolOutputs": _cold_tool_outputs(tool_outputs, n)},
        ),
        Workload("verifications (8 pairs)", "/v1/verifications", lambda n: pairs),
    ]


# -- the server ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m attribution.service`` on a free loopback port; database and log in ``folder``."""

    def __init__(
        self, folder: Path, *, ready_timeout_s: float, extra_env: dict[str, str] | None = None
    ) -> None:
        self.port = _free_port()
        self.base_url = f"http://{HOST}:{self.port}"
        self.log_path = folder / "service.log"
        env = {
            **os.environ,
            "ATTRIBUTION_HOST": HOST,
            "ATTRIBUTION_PORT": str(self.port),
            "ATTRIBUTION_DATABASE_PATH": str(folder / "conversations.sqlite3"),
            "ATTRIBUTION_LOG_LEVEL": "warning",
            **(extra_env or {}),
        }
        self._log = self.log_path.open("wb")
        t0 = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "attribution.service"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        try:
            self._wait_ready(ready_timeout_s)
        except BaseException:
            self.stop()
            raise
        self.ready_s = time.perf_counter() - t0

    def _wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        with httpx.Client(base_url=self.base_url, timeout=5.0) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(
                        f"the service exited with status {self.process.returncode} before it was "
                        f"ready; its log:\n{self.log_tail()}"
                    )
                try:
                    if client.get("/readyz").status_code == 200:
                        return
                except httpx.TransportError:
                    pass  # not listening yet
                time.sleep(0.2)
        raise TimeoutError(
            f"the service was not ready after {timeout_s:.0f} s; its log:\n{self.log_tail()}"
        )

    def peak_rss_mb(self) -> float | None:
        """Peak resident memory (VmHWM) of the server process and its children, in MiB; None
        where /proc cannot tell (not Linux)."""

        def tree(pid: int) -> list[int]:
            try:
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                children = []
            return [pid, *(p for c in children for p in tree(int(c)))]

        total = 0
        for pid in tree(self.process.pid):
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                return None
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        return round(total / 1024, 1) if total else None

    def log_tail(self, chars: int = 4000) -> str:
        self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]

    def stop(self) -> int | None:
        """Terminate the server (SIGTERM, then SIGKILL after 30 s); its exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        return self.process.returncode


# -- the load --------------------------------------------------------------------------------


@dataclass
class LevelResult:
    """What one workload did at one concurrency level."""

    workload: str
    route: str
    concurrency: int
    seconds: float = 0.0
    statuses: Counter[str] = field(default_factory=Counter)
    ok_latencies_ms: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        lat = sorted(self.ok_latencies_ms)
        requests = sum(self.statuses.values())
        server_errors = sum(n for s, n in self.statuses.items() if s.startswith("5"))
        return {
            "workload": self.workload,
            "route": self.route,
            "concurrency": self.concurrency,
            "requests": requests,
            "ok": len(lat),
            "rejected_429": self.statuses.get("429", 0),
            "server_errors": server_errors,
            "transport_errors": self.statuses.get("transport_error", 0),
            "statuses": dict(sorted(self.statuses.items())),
            "seconds": round(self.seconds, 3),
            "requests_per_s": round(requests / self.seconds, 2) if self.seconds else None,
            "ok_per_s": round(len(lat) / self.seconds, 2) if self.seconds else None,
            "p50_ms": round(statistics.median(lat), 1) if lat else None,
            "p95_ms": round(_percentile(lat, 0.95), 1) if lat else None,
            "max_ms": round(lat[-1], 1) if lat else None,
        }


def _percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, round(q * (len(sorted_values) - 1)))]


class _Numbers:
    """Request numbers, unique across the whole run (they make the cold bodies unique)."""

    def __init__(self) -> None:
        self._next = 0

    def take(self) -> int:
        self._next += 1
        return self._next


async def run_level(
    client: httpx.AsyncClient,
    workload: Workload,
    concurrency: int,
    *,
    max_requests: int,
    max_seconds: float,
    numbers: _Numbers,
) -> LevelResult:
    """``concurrency`` clients sending back to back until the count or the time is used up."""
    result = LevelResult(workload.name, workload.route, concurrency)
    sent = 0
    start = time.perf_counter()
    deadline = start + max_seconds

    async def one_client() -> None:
        nonlocal sent
        while sent < max_requests and time.perf_counter() < deadline:
            sent += 1
            # Serialised before the clock starts: building the body is the client's cost.
            content = json.dumps(workload.body(numbers.take())).encode()
            t = time.perf_counter()
            try:
                response = await client.post(
                    workload.route, content=content, headers={"content-type": "application/json"}
                )
                await response.aread()
                status = str(response.status_code)
            except httpx.TransportError:
                status = "transport_error"
            elapsed_ms = (time.perf_counter() - t) * 1000
            result.statuses[status] += 1
            if status.startswith("2"):
                result.ok_latencies_ms.append(elapsed_ms)
            elif status == "429":
                # Back off as Retry-After asks (briefly), so a full queue is not a busy loop.
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one_client() for _ in range(concurrency)))
    result.seconds = time.perf_counter() - start
    return result


async def run_load(
    base_url: str,
    workloads: list[Workload],
    levels: list[int],
    *,
    max_requests: int,
    max_seconds: float,
    request_timeout_s: float,
) -> tuple[list[LevelResult], dict[str, float]]:
    numbers = _Numbers()
    limits = httpx.Limits(max_connections=max(levels), max_keepalive_connections=max(levels))
    async with httpx.AsyncClient(
        base_url=base_url, timeout=request_timeout_s, limits=limits, trust_env=False
    ) as client:
        warm_up_ms: dict[str, float] = {}
        for w in workloads:  # one request each, not counted: first-call costs, cache filled
            t = time.perf_counter()
            response = await client.post(w.route, json=w.body(numbers.take()))
            warm_up_ms[w.name] = round((time.perf_counter() - t) * 1000, 1)
            if response.status_code != 200:
                raise RuntimeError(
                    f"warm-up {w.name}: HTTP {response.status_code}: {response.text[:500]}"
                )
        results = []
        for w in workloads:
            for c in levels:
                r = await run_level(
                    client,
                    w,
                    c,
                    max_requests=max_requests,
                    max_seconds=max_seconds,
                    numbers=numbers,
                )
                print(f"  {w.name} x {c}: {dict(r.statuses)} in {r.seconds:.1f} s", flush=True)
                results.append(r)
    return results, warm_up_ms


# -- the report ------------------------------------------------------------------------------


def _ms(v: float | None) -> str:
    return "–" if v is None else f"{v:,.0f}"


def markdown_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| workload | concurrency | requests | 2xx | 429 | 5xx / failed | 2xx per s "
        "| p50 ms | p95 ms | max ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        failed = r["server_errors"] + r["transport_errors"]
        other = r["requests"] - r["ok"] - r["rejected_429"] - failed
        failed_text = str(failed) + (f" (+{other} other 4xx)" if other else "")
        lines.append(
            f"| {r['workload']} | {r['concurrency']} | {r['requests']} | {r['ok']} "
            f"| {r['rejected_429']} | {failed_text} | {r['ok_per_s']} "
            f"| {_ms(r['p50_ms'])} | {_ms(r['p95_ms'])} | {_ms(r['max_ms'])} |"
        )
    return "\n".join(lines)


def _levels(text: str) -> list[int]:
    try:
        levels = [int(x) for x in text.split(",") if x.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text!r}") from exc
    if not levels or min(levels) < 1:
        raise argparse.ArgumentTypeError(f"concurrency levels must be >= 1: {text!r}")
    return levels


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--requests", type=int, default=200, help="most requests per workload and level (200)"
    )
    parser.add_argument(
        "--duration", type=float, default=60.0, help="most seconds per workload and level (60)"
    )
    parser.add_argument(
        "--concurrency", type=_levels, default=[1, 4, 16], help="levels, comma-separated (1,4,16)"
    )
    parser.add_argument(
        "--out", type=Path, default=ROOT / "benchmarks" / "out" / "service_load.json"
    )
    parser.add_argument(
        "--max-queue",
        type=int,
        default=None,
        help="the server's ATTRIBUTION_MAX_QUEUE (unset: the service's default)",
    )
    parser.add_argument("--ready-timeout", type=float, default=180.0, help="seconds (180)")
    parser.add_argument("--request-timeout", type=float, default=120.0, help="seconds (120)")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.duration <= 0:
        parser.error("--requests must be >= 1 and --duration > 0")

    from attribution.service import Settings  # the server's defaults, for the report

    # SIGTERM ends the program like Ctrl-C does: through the finally below, stopping the server.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    extra_env = {} if args.max_queue is None else {"ATTRIBUTION_MAX_QUEUE": str(args.max_queue)}
    defaults = Settings.from_env({**os.environ, **extra_env})  # what the server will read
    t_start = time.perf_counter()
    workloads = make_workloads()
    with tempfile.TemporaryDirectory(prefix="attribution-load-") as tmp:
        print(f"starting python -m attribution.service (log: {tmp}/service.log) ...", flush=True)
        server = Server(Path(tmp), ready_timeout_s=args.ready_timeout, extra_env=extra_env)
        exit_status: int | None = None
        peak_rss_mb: float | None = None
        try:
            print(f"ready in {server.ready_s:.1f} s on {server.base_url}", flush=True)
            results, warm_up_ms = asyncio.run(
                run_load(
                    server.base_url,
                    workloads,
                    args.concurrency,
                    max_requests=args.requests,
                    max_seconds=args.duration,
                    request_timeout_s=args.request_timeout,
                )
            )
        finally:
            peak_rss_mb = server.peak_rss_mb()
            exit_status = server.stop()
            print(f"service stopped (exit status {exit_status})", flush=True)

    rows = [r.to_json() for r in results]
    report = {
        "commit": commit(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}",
        "python": platform.python_version(),
        "command": "python -m benchmarks.service_load " + " ".join(sys.argv[1:] or []),
        "limits": {
            "requests": args.requests,
            "duration_s": args.duration,
            "concurrency": args.concurrency,
        },
        "server": {
            "pid": server.process.pid,
            "port": server.port,
            "ready_s": round(server.ready_s, 2),
            "exit_status": exit_status,
            "max_queue": defaults.max_queue,
            "workers": defaults.workers,
            "model_threads": defaults.model_threads,
            "request_timeout_s": defaults.request_timeout_s,
            "peak_rss_mb": peak_rss_mb,
        },
        "warm_up_ms": warm_up_ms,
        "results": rows,
        "total_s": round(time.perf_counter() - t_start, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

    print(
        f"\ncommit {report['commit']} · {report['machine']} · Python {report['python']} · "
        f"server: workers {defaults.workers}, max_queue {defaults.max_queue}\n"
        f"server ready in {server.ready_s:.1f} s; warm-up (first request) ms: {warm_up_ms}\n"
    )
    print(markdown_table(rows))
    print(f"\nserving process peak RSS: {peak_rss_mb} MiB")
    print(f"total {report['total_s']} s; JSON: {args.out}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the server was already stopped by main's finally
        print("interrupted", file=sys.stderr)
        sys.exit(130)
