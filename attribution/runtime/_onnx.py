"""ONNX Runtime sessions and tokenizers: the one module that imports ``onnxruntime``.

:func:`make_session` opens a model on the CPU provider with explicit thread counts;
:class:`OnnxModel` is the base of the adapters: it loads its session and tokenizer on first use
(once, under a lock), and runs token sequences through the graph in length-sorted batches so
that padding is small, handing back each batch's rows with their original positions; a call
made alone runs its batches in lanes (threads calling the one session at once).
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

import msgspec
import numpy as np
import structlog
from numpy.typing import NDArray

from attribution._config import ModelConfig
from attribution._errors import ConfigError, InputError, MissingDependencyError, ModelLoadError
from attribution._log import library_log
from attribution._stop import check_stop, stop_event
from attribution.runtime._manifest import ModelKind, ModelSpec, ResolvedModel, resolve_model

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

__all__ = [
    "GraphNode",
    "OnnxModel",
    "Runtime",
    "Session",
    "check_texts",
    "default_lanes",
    "default_threads",
    "load_tokenizer",
    "make_session",
]

log = structlog.get_logger(__name__)

_PROVIDER = "CPUExecutionProvider"
_PAD_TOKENS = ("[PAD]", "<pad>")


class GraphNode(Protocol):
    """An input or output of an ONNX graph, as onnxruntime describes it."""

    @property
    def name(self) -> str: ...
    @property
    def shape(self) -> Sequence[int | str | None]: ...


class Session(Protocol):
    """The part of ``onnxruntime.InferenceSession`` the adapters use."""

    def get_inputs(self) -> Sequence[GraphNode]: ...
    def get_outputs(self) -> Sequence[GraphNode]: ...
    def run(
        self, output_names: Sequence[str] | None, input_feed: Mapping[str, NDArray[Any]]
    ) -> list[NDArray[Any]]: ...


def default_threads() -> int:
    """Cores this process may run on (its CPU affinity where the platform tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def make_session(path: Path, threads: int | None = None) -> Session:
    """Open an ONNX model on the CPU.

    Args:
        path: the ``.onnx`` file.
        threads: intra-op threads; None: :func:`default_threads`. Inter-op threads are 1 (the
            graphs are sequential), and every graph optimisation is on.

    Returns:
        The inference session (safe to run from several threads at once).

    Raises:
        MissingDependencyError: onnxruntime is not installed.
        ModelLoadError: the CPU provider is missing, or the file is not a loadable model.
    """
    try:
        import onnxruntime as ort  # type: ignore[import-untyped]
    except ImportError as exc:
        raise MissingDependencyError("onnxruntime", purpose="running ONNX models") from exc
    available = ort.get_available_providers()
    if _PROVIDER not in available:
        raise ModelLoadError(
            f"onnxruntime offers no {_PROVIDER} (only {', '.join(available) or 'none'}); "
            "install the CPU build with: pip install onnxruntime"
        )
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads if threads is not None else default_threads()
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        session: Session = ort.InferenceSession(
            str(path), sess_options=options, providers=[_PROVIDER]
        )
    except Exception as exc:  # onnxruntime raises its own untyped exception classes
        raise ModelLoadError(f"ONNX model {path} cannot be loaded: {exc}") from exc
    return session


def default_lanes(config: ModelConfig) -> int:
    """``config.lanes``, else 2 when the sessions get at least two threads, else 1."""
    if config.lanes is not None:
        return config.lanes
    threads = config.intra_op_threads or default_threads()
    return 2 if threads >= 2 else 1


def load_tokenizer(path: Path) -> tuple[Tokenizer, int]:
    """Load a ``tokenizer.json`` with its padding and truncation switched off.

    Args:
        path: the ``tokenizer.json`` file.

    Returns:
        The tokenizer and the token id that pads sequences.

    Raises:
        MissingDependencyError: tokenizers is not installed.
        ModelLoadError: the file is not a tokenizer.
    """
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise MissingDependencyError("tokenizers", purpose="tokenizing model input") from exc
    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception on a bad file
        raise ModelLoadError(f"tokenizer {path} cannot be loaded: {exc}") from exc
    pad_id = _pad_id(tokenizer)
    # The adapters pad each batch to its own longest sequence, and truncate as they need.
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer, pad_id


def _pad_id(tokenizer: Tokenizer) -> int:
    """The padding token id the tokenizer was saved with, else a conventional pad token's."""
    if tokenizer.padding is not None:
        return int(tokenizer.padding["pad_id"])
    for token in _PAD_TOKENS:
        token_id = tokenizer.token_to_id(token)
        if token_id is not None:
            return token_id
    return 0


Batch = tuple[NDArray[np.intp], NDArray[np.float32], NDArray[np.int64]]
"""A batch's rows (positions in the call's encodings), graph output and attention mask."""


class Runtime(msgspec.Struct, frozen=True, kw_only=True):
    """What an adapter holds once loaded."""

    session: Session
    """The inference session."""
    busy_session: Session | None = None
    """A session with ``busy_threads`` intra-op threads, for calls made while another runs."""
    tokenizer: Tokenizer
    """The tokenizer, configured once at load and only read afterwards (so thread-safe)."""
    pad_id: int
    """Token id that pads sequences."""
    inputs: tuple[str, ...]
    """The graph inputs that are fed, among input_ids, attention_mask, token_type_ids."""
    output: GraphNode
    """The graph output that is read."""


class OnnxModel:
    """Base of the ONNX adapters: lazy, thread-safe loading and length-sorted batches.

    Subclasses name their kind (``_kind``) and the graph output they read (``_output``), and
    may check the spec (``_check_spec``), configure the tokenizer (``_configure``) and check the
    loaded graph (``_check``).
    """

    _kind: ClassVar[ModelKind]
    _output: ClassVar[str]
    _required_inputs: ClassVar[tuple[str, ...]] = ("input_ids", "attention_mask")
    _optional_inputs: ClassVar[tuple[str, ...]] = ("token_type_ids",)

    def __init__(
        self,
        resolved: ResolvedModel,
        *,
        threads: int | None = None,
        batch_size: int = 1,
        busy_threads: int | None = None,
        lanes: int = 1,
    ) -> None:
        """Describe the model; nothing is loaded until the first call that needs it.

        Args:
            resolved: the model's spec and files (see :func:`resolve_model`).
            threads: intra-op threads a call may use; None: the number of cores.
            batch_size: sequences per inference batch.
            busy_threads: intra-op threads of a call made while another call of this model
                runs (a second session); None: the session's.
            lanes: above 1, the session gets ``threads // lanes`` intra-op threads, and a call
                made alone with several batches runs them in this many lanes side by side
                (threads calling the one session at once, sharing its weights); a call made
                while another runs, or of one batch, runs them one after the other.

        Raises:
            ConfigError: ``threads``, ``busy_threads``, ``batch_size`` or ``lanes`` is below 1.
            ModelLoadError: the model has no tokenizer or no maximum length, or its spec does
                not suit the adapter (a cross-encoder without a support label).
        """
        if resolved.tokenizer_path is None or resolved.spec.max_length is None:
            raise ModelLoadError(f"model {resolved.spec.name!r} needs a tokenizer and max_length")
        if (
            batch_size < 1
            or lanes < 1
            or any(t is not None and t < 1 for t in (threads, busy_threads))
        ):
            raise ConfigError(
                f"batch_size = {batch_size}, lanes = {lanes}, threads = {threads} and "
                f"busy_threads = {busy_threads} must be >= 1"
            )
        self.resolved = resolved
        self._tokenizer_path: Path = resolved.tokenizer_path
        self.spec: ModelSpec = resolved.spec
        self.max_length: int = resolved.spec.max_length
        self.threads = threads
        self.busy_threads = busy_threads
        self.batch_size = batch_size
        self.lanes = lanes
        self._pool: ThreadPoolExecutor | None = None  # the lanes' threads, made at load
        self._calls_lock = threading.Lock()
        self._calls = 0  # calls running now
        self.busy_calls = 0
        """Calls that ran on the busy session (another call of this model was running)."""
        self.lane_calls = 0
        """Calls that ran in lanes (made alone, with several batches)."""
        self._load_lock = threading.Lock()
        self._loaded: Runtime | None = None
        if resolved.spec.format != "onnx":
            raise ModelLoadError(
                f"model {resolved.spec.name!r} is a {resolved.spec.format} model, not an ONNX "
                "graph; load it with load_embedder (StaticEmbedder)"
            )
        self._check_spec()

    @classmethod
    def from_config(
        cls, config: ModelConfig | None = None, name_or_path: str | None = None
    ) -> Self:
        """The model a configuration names (its files are found and hash-checked now).

        Args:
            config: model configuration (models folder, threads, batch size); None: defaults.
            name_or_path: a manifest name or an ``.onnx`` path; None: the environment variable
                of the kind (``$ATTRIBUTION_EMBEDDER``, ``$ATTRIBUTION_VERIFIER``), else the
                field of ``config`` (``embedder``, ``verifier``).

        Returns:
            The adapter, not yet loaded.

        Raises:
            ModelLoadError: nothing is configured, the model cannot be found, a file has the
                wrong sha256, or the spec does not suit the adapter.
        """
        config = config if config is not None else ModelConfig()
        return cls.from_resolved(resolve_model(name_or_path, cls._kind, config), config)

    @classmethod
    def from_resolved(cls, resolved: ResolvedModel, config: ModelConfig) -> Self:
        """The adapter of a model already found, run as ``config`` says (threads, busy
        threads, batch size, lanes)."""
        return cls(
            resolved,
            threads=config.intra_op_threads,
            batch_size=config.batch_size,
            busy_threads=config.busy_intra_op_threads,
            lanes=default_lanes(config),
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec.name!r}, path={str(self.resolved.path)!r})"

    @functools.cached_property
    def _runtime(self) -> Runtime:
        # cached_property has no lock since Python 3.12: without this one, threads making
        # their first call together would each load the model.
        with self._load_lock:
            if self._loaded is None:
                self._loaded = self._load()
            return self._loaded

    def _load(self) -> Runtime:
        started = time.perf_counter()
        tokenizer, pad_id = load_tokenizer(self._tokenizer_path)
        self._configure(tokenizer)
        threads = self.threads if self.threads is not None else default_threads()
        if self.lanes > 1:
            # one session of fewer threads: a call alone runs its lanes on it side by side
            threads = max(1, threads // self.lanes)
            self._pool = ThreadPoolExecutor(self.lanes, thread_name_prefix="onnx-lane")
        session = make_session(self.resolved.path, threads)
        busy = None
        if self.busy_threads is not None and self.busy_threads != threads:
            busy = make_session(self.resolved.path, self.busy_threads)
        runtime = Runtime(
            session=session,
            busy_session=busy,
            tokenizer=tokenizer,
            pad_id=pad_id,
            inputs=self._graph_inputs(session),
            output=self._graph_output(session),
        )
        self._check(runtime)
        library_log(
            log,
            "info",
            "model_loaded",
            model=self.spec.name,
            kind=self.spec.kind,
            ms=round((time.perf_counter() - started) * 1000, 1),
        )
        return runtime

    def _check_spec(self) -> None:
        """Check the spec suits the adapter (at construction, before anything loads)."""

    def _configure(self, tokenizer: Tokenizer) -> None:
        """Set the tokenizer up for this adapter (once, before any thread uses it)."""

    def _check(self, runtime: Runtime) -> None:
        """Check the loaded graph against the spec."""

    def _graph_inputs(self, session: Session) -> tuple[str, ...]:
        names = [node.name for node in session.get_inputs()]
        known = self._required_inputs + self._optional_inputs
        missing = [n for n in self._required_inputs if n not in names]
        unknown = [n for n in names if n not in known]
        if missing or unknown:
            raise ModelLoadError(
                f"model {self.spec.name!r} ({self.resolved.path}) has inputs {names}; "
                f"kind {self.spec.kind} needs {list(self._required_inputs)} "
                f"and may have {list(self._optional_inputs)}"
            )
        return tuple(names)

    def _graph_output(self, session: Session) -> GraphNode:
        outputs = session.get_outputs()
        for node in outputs:
            if node.name == self._output:
                return node
        raise ModelLoadError(
            f"model {self.spec.name!r} ({self.resolved.path}) has outputs "
            f"{[node.name for node in outputs]}; kind {self.spec.kind} reads {self._output!r}"
        )

    def _run_batches(self, encodings: Sequence[Encoding]) -> Iterator[Batch]:
        """Run encodings through the graph, shortest first, ``batch_size`` at a time; in
        ``lanes`` side by side when no other call of this model is running.

        Yields:
            Per batch: the positions of its rows in ``encodings``, the graph output, and the
            attention mask it was run with.
        """
        runtime = self._runtime
        stop = stop_event()  # read here: the lanes' threads do not see the caller's context
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.intp, count=len(encodings))
        order = np.argsort(lengths, kind="stable")
        with self._calls_lock:
            alone = not self._calls
            busy = not alone and runtime.busy_session is not None
            self._calls += 1
            self.busy_calls += busy
        # a call alone gets every lane; one made while another runs, the busy session if any
        session = runtime.busy_session if busy and runtime.busy_session else runtime.session
        batches = [order[a : a + self.batch_size] for a in range(0, len(order), self.batch_size)]

        def run(on: Session, rows: NDArray[np.intp]) -> Batch:
            check_stop(stop)
            feed = _pad([encodings[i] for i in rows], int(lengths[rows].max()), runtime.pad_id)
            (output,) = on.run([runtime.output.name], {name: feed[name] for name in runtime.inputs})
            return rows, output.astype(np.float32, copy=False), feed["attention_mask"]

        lanes = min(self.lanes if alone else 1, len(batches))
        if lanes > 1:
            with self._calls_lock:
                self.lane_calls += 1

        def run_lane(k: int) -> list[Batch]:
            # lane k runs batches k, k + lanes, ... (the lengths are sorted: the lanes even out);
            # ONNX Runtime runs concurrent calls of one session on their callers' threads
            return [run(session, rows) for rows in batches[k::lanes]]

        try:
            if lanes > 1 and self._pool is not None:
                futures = [self._pool.submit(run_lane, k) for k in range(lanes)]
                for future in futures:
                    yield from future.result()
            else:
                for rows in batches:
                    yield run(session, rows)
        finally:
            with self._calls_lock:
                self._calls -= 1


def _pad(batch: Sequence[Encoding], width: int, pad_id: int) -> dict[str, NDArray[np.int64]]:
    """The batch as int64 arrays of one width, padded on the right."""
    ids = np.full((len(batch), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(batch), width), dtype=np.int64)
    types = np.zeros((len(batch), width), dtype=np.int64)
    for row, encoding in enumerate(batch):
        n = len(encoding.ids)
        ids[row, :n] = encoding.ids
        mask[row, :n] = encoding.attention_mask
        types[row, :n] = encoding.type_ids
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


def check_texts(texts: Sequence[str], what: str) -> list[str]:
    """``texts`` as a list, checked to hold strings only.

    Raises:
        InputError: ``texts`` is a single string, or holds something else than strings.
    """
    if isinstance(texts, str):
        raise InputError(f"{what} takes a sequence of strings, not one string")
    items = list(texts)
    for i, text in enumerate(items):
        if not isinstance(text, str):
            raise InputError(f"{what}: item {i} is a {type(text).__name__}, not a str")
    return items
