"""Model work off the event loop, with back-pressure and a timeout.

:class:`Admission` counts the requests waiting for or doing model work; past ``max_queue`` a
request is refused at once (429) rather than queued; a :class:`Slot` is one admitted request,
which a stream holds from before its first byte to its end. :class:`ModelRunner` runs a function in
the model thread pool under ``asyncio.wait_for``: past ``request_timeout_s`` the caller gets
504, the work stops at its next model batch (:func:`attribution.stoppable`; before, it read
every pair to the end), and the request keeps its admission slot until its thread really
finishes, so abandoned work still counts against the queue.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

import structlog

from attribution import WorkStopped, stoppable

from ._errors import Overloaded, WorkTimeout

__all__ = ["Admission", "ModelRunner", "Slot"]

T = TypeVar("T")

log = structlog.get_logger(__name__)


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


class Slot:
    """One admission slot, held by a request for as long as it lasts (a stream) and by each
    piece of its model work until that work's thread finishes; freed when the last lets go."""

    def __init__(self, admission: Admission) -> None:
        self._admission = admission
        self._lock = threading.Lock()
        self._holders = 1

    def share(self) -> Slot:
        """One more holder (a piece of work); :meth:`release` once it is done."""
        with self._lock:
            if self._holders == 0:
                raise RuntimeError("the slot was already freed")
            self._holders += 1
        return self

    def release(self) -> None:
        """One holder lets go; the last gives the slot back."""
        with self._lock:
            self._holders -= 1
            freed = self._holders == 0
        if freed:
            self._admission.release()


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

    def admit(self) -> Slot:
        """Take an admission slot now (a stream takes one before it answers).

        Raises:
            Overloaded: ``max_queue`` requests are already admitted (429, Retry-After).
        """
        if not self.admission.try_acquire():
            if self._on_reject is not None:
                self._on_reject()
            raise Overloaded(
                f"too many requests in progress (max_queue = {self.admission.limit}); retry later",
                headers={"Retry-After": "1"},
            )
        return Slot(self.admission)

    async def run(
        self,
        fn: Callable[[], T],
        *,
        slot: Slot | None = None,
        timeout_s: float | None = None,
    ) -> T:
        """``fn()`` in the pool, in ``slot`` (else in a slot taken now).

        Args:
            fn: the work.
            slot: the caller's slot (a stream's); None: admit this work alone.
            timeout_s: the time left to the caller (a stream's deadline); the work never gets
                more than ``request_timeout_s``.

        Raises:
            Overloaded: ``max_queue`` requests are already admitted (429, Retry-After).
            WorkTimeout: the work took longer than the timeout (504).
        """
        held = self.admit() if slot is None else slot.share()
        context = contextvars.copy_context()  # the request id travels into the worker's logs
        stop = threading.Event()

        why: list[str] = []

        def work() -> T:
            try:
                with stoppable(stop):
                    return fn()
            except WorkStopped:  # its caller already has its answer (504) or is gone
                log.info("model_work_stopped", reason=why[0] if why else "unknown")
                raise

        try:
            future: Future[T] = self.pool.submit(context.run, work)
        except BaseException:
            held.release()
            raise
        future.add_done_callback(lambda _: held.release())
        timeout = self.timeout_s if timeout_s is None else min(timeout_s, self.timeout_s)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), max(timeout, 0.0))
        except asyncio.CancelledError:
            why.append("caller_gone")
            stop.set()  # the caller went away (a stream's client): its work stops too
            raise
        except TimeoutError as exc:
            future.cancel()  # stops work that has not started
            why.append("timeout")
            stop.set()  # and running work at its next model batch (WorkStopped, logged)
            limit = (
                f"request_timeout_s = {self.timeout_s:g} s"
                if timeout == self.timeout_s
                else f"the {max(timeout, 0.0):.3g} s left to the request"
            )
            raise WorkTimeout(f"model work took longer than {limit}") from exc
