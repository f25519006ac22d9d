"""Work its caller gave up on stops at the next model batch.

The service runs each request's model work in a thread under a timeout; a thread cannot be
killed, so before this a request answered 504 went on reading pairs until it was done (an
answer of thousands of claims: minutes of both cores). The caller sets an event and the work,
run inside :func:`stoppable`, raises :class:`WorkStopped` at the next batch of a model: the
embedder's and the judge's batches are where nearly all of a large request's time goes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from attribution._errors import WorkStopped

__all__ = ["check_stop", "stop_event", "stoppable"]

_EVENT: ContextVar[threading.Event | None] = ContextVar("attribution_stop", default=None)


@contextmanager
def stoppable(event: threading.Event) -> Iterator[None]:
    """Run the block so that it stops (:class:`WorkStopped`) at the next batch of a model
    (the judge's, the transformer embedder's; the static embedder runs no batches) once
    ``event`` is set (from any thread). Threads the block starts itself are not covered: the
    event lives in this thread's context (the models' own lanes are)."""
    token = _EVENT.set(event)
    try:
        yield
    finally:
        _EVENT.reset(token)


def stop_event() -> threading.Event | None:
    """The event of the innermost :func:`stoppable` block this thread runs in, if any."""
    return _EVENT.get()


def check_stop(event: threading.Event | None) -> None:
    """Raise :class:`WorkStopped` if ``event`` is set (None: never)."""
    if event is not None and event.is_set():
        raise WorkStopped("the work was stopped: its caller gave up on it")
