"""Batch attribution on Ray Data: many logged answers, one record per line, on one machine or
a cluster.

``run_batch(IN.jsonl, OUT.jsonl)`` (the ``attribution batch`` command) attributes every record
with one :class:`attribution.Attributor` per Ray worker; ``attribute_dataset(ds)`` does the same
for a Ray ``Dataset`` the caller already has. Installed with the ``batch`` extra; the library
never imports this package (only the command line's ``batch`` command does).
"""

from __future__ import annotations

try:
    import ray
    import ray.data  # noqa: F401
except ImportError as exc:  # the library installed without its batch extra
    from attribution import MissingDependencyError

    raise MissingDependencyError(exc.name or "ray", extra="batch", purpose="batch jobs") from exc

from ._records import BatchRecord, attribute_line
from ._run import BatchSummary, Terminated, attribute_dataset, run_batch

__all__ = [
    "BatchRecord",
    "BatchSummary",
    "Terminated",
    "attribute_dataset",
    "attribute_line",
    "run_batch",
]
