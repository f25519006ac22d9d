"""Running a batch on Ray Data: one Attributor per worker, records in ``map_batches``.

:func:`run_batch` reads ``IN.jsonl``, skips the ids ``OUT.jsonl`` already holds (a job that was
interrupted resumes; a last line cut short by the interruption is dropped and redone), and
appends one output line per record as results arrive, so an interruption loses little.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

import msgspec
import numpy as np
import ray
import ray.data

from attribution import AttributionConfig, Attributor, InputError, ModelConfig
from attribution._process import keep_training_libraries_out

from ._records import BatchOutput, attribute_line, encode_output, record_id

__all__ = ["BatchSummary", "Terminated", "attribute_dataset", "run_batch"]


class BatchSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What a batch did."""

    records: int
    """Records attributed in this run (failed ones included)."""
    skipped: int
    """Records skipped because the output already held their id."""
    failed: int
    """Records that got an error line in this run."""
    failed_before: int = 0
    """Records of the input whose error line an earlier run wrote (skipped: an error line is
    final)."""
    claims: int
    """Claims checked, all records together."""
    verdicts: dict[str, int]
    """Claims per verdict."""
    seconds: float
    """Wall time of the run, Ray's start included."""

    @property
    def records_per_second(self) -> float:
        return self.records / self.seconds if self.seconds > 0 else 0.0


class _AttributeBatch:
    """The map_batches worker: builds its Attributor once, then attributes rows."""

    def __init__(self, config: bytes | None) -> None:
        # an actor's process is the batch's own: spaCy would import torch there (180 MB each)
        keep_training_libraries_out()
        base = (
            msgspec.json.decode(config, type=AttributionConfig)
            if config
            else AttributionConfig(model=ModelConfig(intra_op_threads=1))
        )
        self.attributor = Attributor(base)
        self.attributor.warm_up()

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, list[Any]]:
        ids, outputs, claims, failed, verdicts = [], [], [], [], []
        for record, line in zip(batch["id"], batch["line"], strict=True):
            output, count = attribute_line(self.attributor, str(line), str(record))
            ids.append(output.id)
            outputs.append(encode_output(output))
            claims.append(count)
            failed.append(output.error is not None)
            tally = Counter(c.verdict for c in output.result.claims) if output.result else {}
            verdicts.append(msgspec.json.encode(dict(tally)).decode())
        return {
            "id": ids,
            "output": outputs,
            "claims": claims,
            "failed": failed,
            "verdicts": verdicts,
        }


def attribute_dataset(
    dataset: ray.data.Dataset,
    *,
    config: AttributionConfig | None = None,
    workers: int = 1,
    batch_size: int = 4,
) -> ray.data.Dataset:
    """Attribute a Ray Dataset of records, lazily.

    Args:
        dataset: rows with ``id`` (a string) and ``line`` (the record's JSON text, see
            :class:`attribution.batch.BatchRecord`).
        config: the engine's configuration (default: one ONNX thread per worker).
        workers: Ray actors, each with its own Attributor (models load once per worker).
        batch_size: records handed to a worker at a time.

    Returns:
        A dataset of rows ``id``, ``output`` (the output line's JSON), ``claims``, ``failed``
        and ``verdicts`` (claims per verdict, JSON).
    """
    if workers < 1 or batch_size < 1:
        raise InputError(f"workers and batch_size must be >= 1, not {workers} and {batch_size}")
    return dataset.map_batches(
        _AttributeBatch,
        fn_constructor_kwargs={"config": msgspec.json.encode(config) if config else None},
        batch_size=batch_size,
        batch_format="numpy",
        compute=ray.data.ActorPoolStrategy(size=workers),
        num_cpus=1,
    )


def _done_ids(out_path: Path) -> tuple[set[str], set[str]]:
    """The ids already in the output, and those of them with an error line; a last line cut
    short by an interruption is removed.

    Only a regular file is read back (a terminal, a pipe or ``/dev/stdout`` is written to, not
    read), and only one this command wrote: every whole line a ``{"id", "result" | "error"}``
    object. Anything else is refused before a byte of it changes.

    Raises:
        InputError: the file holds a line that is not a result of this command.
    """
    if not out_path.is_file():
        return set(), set()
    data = out_path.read_bytes()
    whole = data[: data.rfind(b"\n") + 1]
    done: set[str] = set()
    failed: set[str] = set()
    for number, line in enumerate(whole.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            value = msgspec.json.decode(line)
        except msgspec.DecodeError:
            value = None
        if not (
            isinstance(value, dict)
            and isinstance(value.get("id"), str)
            and ("result" in value or "error" in value)
        ):
            raise InputError(
                f"{out_path}:{number}: not a result line of this command; the output must be a "
                "new file or the results of an earlier run (nothing was written)"
            )
        done.add(value["id"])
        if "error" in value:
            failed.add(value["id"])
    if whole != data:  # a last line cut short by an interruption: it is attributed again
        out_path.write_bytes(whole)
    return done, failed


def _read_records(in_path: Path) -> list[tuple[str, str, str | None]]:
    """The records of ``in_path``: (id, JSON text, the error that makes it unreadable or None).

    A line that is not UTF-8 is a record with an error (its own line in the output), not a
    reason to refuse the file.

    Raises:
        InputError: the file cannot be read, or an id names two records.
    """
    try:
        raw = sys.stdin.buffer.read() if str(in_path) == "-" else in_path.read_bytes()
    except FileNotFoundError as exc:
        raise InputError(f"{in_path}: no such file") from exc
    except IsADirectoryError as exc:
        raise InputError(f"{in_path}: is a directory, not a file") from exc
    except OSError as exc:
        raise InputError(f"{in_path}: cannot be read: {exc.strerror}") from exc
    if raw.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark is not part of the records
        raw = raw[3:]
    records: list[tuple[str, str, str | None]] = []
    seen: dict[str, int] = {}
    # lines end at "\n" only: U+2028 or U+0085 inside a JSON string is part of its record
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        chunk = chunk.removesuffix(b"\r")
        if not chunk.strip():
            continue
        error: str | None = None
        try:
            line = chunk.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = chunk.decode("utf-8", "replace")
            error = (
                f"record on line {number}: not UTF-8 text: byte 0x{chunk[exc.start]:02x} at "
                f"byte {exc.start} of the line cannot be decoded"
            )
        record = record_id(line, number)
        if error is not None and "\ufffd" in record:  # an id the bad bytes are part of
            record = f"line-{number}"
        if record in seen:
            raise InputError(
                f"{in_path}:{number}: id {record!r} is used twice (first on line "
                f"{seen[record]}); an id names a record in the output and when a run resumes, "
                "so each must be unique (a record without an id is named line-<n>)"
            )
        seen[record] = number
        records.append((record, line, error))
    return records


def _check_reachable(address: str) -> None:
    """Refuse at once a ``host:port`` (or ``ray://host:port``) address nothing answers at: Ray
    itself waits minutes for a cluster that is not there before it says so. ``auto``, ``local``
    and addresses without a port are left to Ray."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit() or not host:
        return
    host = host.strip("[]")  # [::1]:10001
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except (OSError, OverflowError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise InputError(
            f"cannot join the Ray cluster at {address!r}: nothing answers at {host}:{port} "
            f"({reason}); start one (ray start --head) or leave --address out to run here"
        ) from exc


class Terminated(KeyboardInterrupt):
    """A batch stopped by SIGTERM (``timeout``, a scheduler, systemd): handled as Ctrl-C is,
    the records written so far kept and the same command resuming."""


@contextmanager
def _terminated_as_interrupt() -> Iterator[Callable[[], None]]:
    """SIGTERM raises :class:`Terminated` in the main thread while the block runs (Ray's own
    handler printed a crash dump and the run said nothing of what it had written). Yields a
    function that puts the handler in again (after ``ray.init``, which puts Ray's in); the
    caller's handler is put back at the end. Outside the main thread, signals are left alone."""

    def stop(signum: int, frame: object) -> None:
        raise Terminated

    def again() -> None:
        signal.signal(signal.SIGTERM, stop)

    try:
        previous = signal.getsignal(signal.SIGTERM)
        signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread
        yield lambda: None
        return
    try:
        yield again
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def _results_file(target: Path, to_stdout: bool) -> Iterator[TextIO]:
    """Where the output lines go: ``target`` appended to, or standard output."""
    if to_stdout:
        yield sys.stdout
        return
    with target.open("a", encoding="utf-8") as out:
        yield out


@contextmanager
def _ray_quiet(quiet: bool) -> Iterator[None]:
    """Ray's and Ray Data's console handlers held back to errors while ``quiet`` (Ray Data's
    execution plans and progress-bar advice), so the job's own progress line reads alone; Ray
    Data's log files keep every line. The handlers are put back as they were. (``ray.init``
    without its logging set up drops Ray's own handlers: its warnings at start still show.)"""
    if not quiet:
        yield
        return
    changed = [
        (handler, handler.level)
        for name in ("ray", "ray.data")
        for handler in logging.getLogger(name).handlers
        if isinstance(handler, logging.StreamHandler)
        and not isinstance(handler, logging.FileHandler)
    ]
    for handler, level in changed:
        handler.setLevel(max(logging.ERROR, level))
    try:
        yield
    finally:
        for handler, level in changed:
            handler.setLevel(level)


def run_batch(
    in_path: str | os.PathLike[str],
    out_path: str | os.PathLike[str],
    *,
    address: str | None = None,
    workers: int = 1,
    batch_size: int = 4,
    config: AttributionConfig | None = None,
    limit: int | None = None,
    progress: TextIO | None = sys.stderr,
    on_output: Callable[[str], None] | None = None,
) -> BatchSummary:
    """Attribute every record of ``in_path`` into ``out_path`` (JSON lines), resuming.

    Args:
        address: a Ray cluster to join (``ray://...`` or ``auto``); None: the Ray already
            started in this process, else a local one started here (and stopped at the end).
        workers: Ray workers, each with its own Attributor.
        limit: attribute at most this many records this run.
        progress: where progress lines go (None: nowhere); while they go somewhere, Ray
            Data's console lines below errors are held back (its log files, in Ray's session
            folder, keep them).

    Raises:
        InputError: the input cannot be read, the output cannot be written, an id is used
            twice, or ``workers``, ``batch_size`` or ``limit`` is out of range.
    """
    started = time.perf_counter()
    for name, value, least in (("workers", workers, 1), ("batch_size", batch_size, 1)):
        if value < least:
            raise InputError(f"{name} must be at least {least}, got {value}")
    if limit is not None and limit < 0:
        raise InputError(f"limit must be 0 or more, got {limit}")
    if address:
        _check_reachable(address)
    source, target = Path(in_path), Path(out_path)
    to_stdout = str(out_path) == "-"  # results on standard output: nothing to resume from
    if not to_stdout:
        if target.is_dir():
            raise InputError(f"{target}: is a directory, not a file")
        if not target.parent.is_dir():
            raise InputError(f"{target}: no such directory {str(target.parent)!r}")
        if str(source) != "-" and source.exists() and target.exists() and source.samefile(target):
            raise InputError(f"{target}: is the input file; results go to another file")
    records = _read_records(source)
    done, failed_earlier = (set(), set()) if to_stdout else _done_ids(target)
    if not to_stdout:
        try:  # written to before any work: an output that cannot be is said now, not after
            with target.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise InputError(f"{target}: cannot be written: {exc.strerror or exc}") from exc
    todo = [r for r in records if r[0] not in done]
    skipped = len(records) - len(todo)
    if limit is not None:
        todo = todo[:limit]
    verdicts: Counter[str] = Counter()
    claims = failed = written = 0
    unreadable = [(record, error) for record, _, error in todo if error is not None]
    readable = [(record, line) for record, line, error in todo if error is None]

    def emit(out: TextIO, line: str, record: str, record_claims: int, record_failed: bool) -> None:
        nonlocal written, claims, failed
        try:
            out.write(line + "\n")
            out.flush()
        except BrokenPipeError:  # standard output's reader has gone ("| head"): not a failure
            raise
        except OSError as exc:  # a full disk: what was written stays, resumable
            where = "standard output" if to_stdout else str(out_path)
            raise InputError(
                f"{where}: writing failed after {written} records: {exc.strerror or exc}"
            ) from exc
        written += 1
        claims += record_claims
        failed += record_failed
        if on_output is not None:
            on_output(record)
        if progress is not None:
            rate = written / (time.perf_counter() - started)
            print(
                f"\r{written}/{len(todo)} records, {failed} failed, {rate:.2f} records/s",
                end="",
                file=progress,
                flush=True,
            )

    own_ray = False
    # SIGTERM (timeout, a scheduler, systemd) stops the job as Ctrl-C does, from the start
    with (
        _results_file(target, to_stdout) as out,
        _terminated_as_interrupt() as ours_again,
        _ray_quiet(progress is not None),
    ):
        for record, error in unreadable:  # no engine needed to say so
            emit(out, encode_output(BatchOutput(id=record, error=error)), record, 0, True)
        if readable:
            own_ray = not ray.is_initialized()
            try:
                if own_ray:
                    try:
                        ray.init(
                            address=address,
                            num_cpus=None if address else max(workers, 1),
                            include_dashboard=False,
                            log_to_driver=False,
                            configure_logging=False,
                        )
                    except (ConnectionError, ValueError, RuntimeError) as exc:
                        # no cluster at the address, or ray:// without the Ray Client
                        # (pip install 'ray[client]')
                        raise InputError(
                            f"cannot join the Ray cluster at {address!r}: {exc}"
                        ) from exc
                    except SystemExit as exc:  # Ray's SIGTERM handler, while Ray starts
                        if exc.code == signal.SIGTERM:
                            raise Terminated from exc
                        raise
                    ours_again()  # ray.init put its own SIGTERM handler in (a crash dump)
                ray.data.DataContext.get_current().enable_progress_bars = False
                rows = [{"id": i, "line": line} for i, line in readable]
                results = attribute_dataset(
                    ray.data.from_items(rows), config=config, workers=workers, batch_size=batch_size
                )
                for row in results.iter_rows():
                    emit(
                        out,
                        str(row["output"]),
                        str(row["id"]),
                        int(row["claims"]),
                        bool(row["failed"]),
                    )
                    verdicts.update(msgspec.json.decode(str(row["verdicts"])))
            finally:
                if own_ray:  # also after a start cut short: its processes would outlive the job
                    ray.shutdown()
    if progress is not None and todo:
        print(file=progress)
    return BatchSummary(
        records=written,
        skipped=skipped,
        failed=failed,
        claims=claims,
        verdicts=dict(sorted(verdicts.items())),
        seconds=time.perf_counter() - started,
        failed_before=sum(1 for record, _, _ in records if record in failed_earlier),
    )
