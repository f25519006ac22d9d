"""Model work off the event loop, with back-pressure and a timeout.

:class:`Admission` counts the requests waiting for or doing model work; past ``max_queue`` a
request is refused at once (429) rather than queued. :class:`ModelRunner` runs a function in
the model thread pool under ``asyncio.wait_for``: past ``request_timeout_s`` the caller gets
504, and the request keeps its admission slot until its thread really finishes, so abandoned
work still counts against the queue.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from ._errors import Overloaded, WorkTimeout

__all__ = ["Admission", "ModelRunner"]

T = TypeVar("T")


class Admission:
    """A bounded counter of admitted requests (thread-safe: slots are freed by worker threads)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._count = 0
        self._idle = threading.Condition(self._lock)

    @property
    def depth(self) -> int:
        """Requests admitted and not finished."""
        return self._count

    def try_acquire(self) -> bool:
        """Take a slot; False when all ``limit`` slots are taken."""
        with self._lock:
            if self._count >= self.limit:
                return False
            self._count += 1
            return True

    def release(self) -> None:
        """Give a slot back."""
        with self._lock:
            self._count -= 1
            if self._count == 0:
                self._idle.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until no request holds a slot; False on timeout."""
        with self._lock:
            return self._idle.wait_for(lambda: self._count == 0, timeout)


class ModelRunner:
    """Runs model work in the pool, admitted by :class:`Admission`, under a timeout."""

    def __init__(
        self,
        pool: ThreadPoolExecutor,
        admission: Admission,
        timeout_s: float,
        *,
        on_reject: Callable[[], None] | None = None,
    ) -> None:
        self.pool = pool
        self.admission = admission
        self.timeout_s = timeout_s
        self._on_reject = on_reject

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` in the pool.

        Raises:
            Overloaded: ``max_queue`` requests are already admitted (429, Retry-After).
            WorkTimeout: the work took longer than the timeout (504).
        """
        if not self.admission.try_acquire():
            if self._on_reject is not None:
                self._on_reject()
            raise Overloaded(
                f"too many requests in progress (max_queue = {self.admission.limit}); retry later",
                headers={"Retry-After": "1"},
            )
        context = contextvars.copy_context()  # the request id travels into the worker's logs
        try:
            future: Future[T] = self.pool.submit(context.run, fn)
        except BaseException:
            self.admission.release()
            raise
        future.add_done_callback(lambda _: self.admission.release())
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.timeout_s)
        except TimeoutError as exc:
            future.cancel()  # only stops work that has not started; a running thread finishes
            raise WorkTimeout(
                f"model work took longer than request_timeout_s = {self.timeout_s:g} s"
            ) from exc
