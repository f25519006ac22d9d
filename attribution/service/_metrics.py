"""Prometheus metrics, written by hand in the text exposition format (no dependency).

Request counts by route and status, a request-latency histogram by route, claims and pairs
verified, and the admission queue's depth. Updated on the event loop only (the queue depth is
read from :class:`attribution.service._work.Admission`, which is thread-safe).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Metrics"]

_BUCKETS: tuple[float, ...] = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class Metrics:
    """The service's counters; :meth:`render` writes them in the Prometheus text format."""

    def __init__(self, queue_depth: Callable[[], int], queue_limit: int) -> None:
        self._queue_depth = queue_depth
        self._queue_limit = queue_limit
        self.requests: dict[tuple[str, str, int], int] = {}
        self._latency_counts: dict[str, list[int]] = {}
        self._latency_sum: dict[str, float] = {}
        self._latency_total: dict[str, int] = {}
        self.claims_verified = 0
        self.pairs_verified = 0
        self.rejected_overload = 0

    def count_reject(self) -> None:
        """Count one request refused because the queue was full."""
        self.rejected_overload += 1

    def observe(self, method: str, route: str, status: int, seconds: float | None) -> None:
        """Count one finished request and its latency (None: unknown, counted only).

        ``route`` is the matched path template (``/v1/attributions``), never the raw path, so
        the label set stays bounded; unmatched requests are counted as ``other``.
        """
        method = method if method in _METHODS else "other"  # a label set the client cannot grow
        key = (route, method, status)
        self.requests[key] = self.requests.get(key, 0) + 1
        if seconds is None:
            return
        counts = self._latency_counts.setdefault(route, [0] * len(_BUCKETS))
        for i, bound in enumerate(_BUCKETS):
            if seconds <= bound:
                counts[i] += 1
        self._latency_sum[route] = self._latency_sum.get(route, 0.0) + seconds
        self._latency_total[route] = self._latency_total.get(route, 0) + 1

    def render(self) -> str:
        """All metrics in the Prometheus text exposition format (version 0.0.4)."""
        lines = [
            "# HELP attribution_http_requests_total HTTP requests by route, method and status.",
            "# TYPE attribution_http_requests_total counter",
        ]
        for (route, method, status), n in sorted(self.requests.items()):
            lines.append(
                f'attribution_http_requests_total{{route="{_escape(route)}",'
                f'method="{_escape(method)}",status="{status}"}} {n}'
            )
        lines += [
            "# HELP attribution_http_request_duration_seconds Request latency by route.",
            "# TYPE attribution_http_request_duration_seconds histogram",
        ]
        for route in sorted(self._latency_counts):
            label = f'route="{_escape(route)}"'
            for bound, n in zip(_BUCKETS, self._latency_counts[route], strict=True):
                lines.append(
                    f'attribution_http_request_duration_seconds_bucket{{{label},le="{bound}"}} {n}'
                )
            total = self._latency_total[route]
            lines.append(
                f'attribution_http_request_duration_seconds_bucket{{{label},le="+Inf"}} {total}'
            )
            lines.append(
                f"attribution_http_request_duration_seconds_sum{{{label}}} "
                f"{self._latency_sum[route]:.6f}"
            )
            lines.append(f"attribution_http_request_duration_seconds_count{{{label}}} {total}")
        lines += [
            "# HELP attribution_claims_verified_total Claims of answers attributed.",
            "# TYPE attribution_claims_verified_total counter",
            f"attribution_claims_verified_total {self.claims_verified}",
            "# HELP attribution_pairs_verified_total Pairs scored by /v1/verifications.",
            "# TYPE attribution_pairs_verified_total counter",
            f"attribution_pairs_verified_total {self.pairs_verified}",
            "# HELP attribution_rejected_overload_total Requests refused with 429.",
            "# TYPE attribution_rejected_overload_total counter",
            f"attribution_rejected_overload_total {self.rejected_overload}",
            "# HELP attribution_queue_depth Requests waiting for or doing model work.",
            "# TYPE attribution_queue_depth gauge",
            f"attribution_queue_depth {self._queue_depth()}",
            "# HELP attribution_queue_limit Most requests admitted to model work at once.",
            "# TYPE attribution_queue_limit gauge",
            f"attribution_queue_limit {self._queue_limit}",
        ]
        return "\n".join(lines) + "\n"
