"""Service settings: one typed struct, read from ``ATTRIBUTION_*`` environment variables."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping
from typing import Literal
from urllib.parse import urlsplit

import msgspec

from attribution import AttributionConfig, ConfigError, read_config

__all__ = ["Settings"]

_PREFIX = "ATTRIBUTION_"
_REPOSITORY_VARIABLES = ("ATTRIBUTION_DATA_ROOT", "ATTRIBUTION_MINUTES", "ATTRIBUTION_ARGS")
"""Read by the repository's benchmarks and GPU training script, not by the service: not typos."""

_FIELD_IN_ERROR = re.compile(r"at `\$\.(\w+)`|^setting (\w+) = ")
"""Where a validation message names the field: msgspec's path, or the bounds check's."""

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
"""The hosts served by default when the service listens on a loopback address."""
_HOST = re.compile(r"^(\*|(\*\.)?[A-Za-z0-9._:-]+)$")


def _split(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


MAX_TIMEOUT_S = 86_400.0
"""The longest request or stream timeout (a day): ``inf`` is not a timeout the server can keep."""


class Settings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything the service can be configured with; every field has a sane default."""

    host: str = "127.0.0.1"
    """Interface to listen on (ATTRIBUTION_HOST)."""
    port: int = 8000
    """Port to listen on (ATTRIBUTION_PORT)."""
    workers: int = 1
    """Server processes (ATTRIBUTION_WORKERS)."""
    model_threads: int | None = None
    """Threads doing model work (and ONNX Runtime intra-op threads); None: the cores."""
    intra_op_threads: int | None = None
    """ONNX Runtime threads every model call uses (ATTRIBUTION_INTRA_OP_THREADS). None (the
    default): adaptive, a call alone uses model_threads threads (every core; in two lanes of
    half of them, ``ModelConfig.lanes``) and a call made while another runs uses cores /
    model_threads (on two cores the lanes' one-thread session, else a second session per
    model), so a lone request is as fast as it can be and concurrent ones do not oversubscribe
    the cores. 1 runs every call on its model thread only."""
    models_dir: str | None = None
    """Folder of the model manifest; None: the packaged default (ATTRIBUTION_MODELS_DIR)."""
    config: str | None = None
    """The engine's configuration (ATTRIBUTION_CONFIG): a preset's name, ``fast`` (about
    1.6x faster on sources never seen; a little less accurate) or ``default``, else the path of
    a JSON ``AttributionConfig`` file. The thread and models-folder settings above apply on top
    of it. Unset: the defaults."""
    database_path: str = "attribution.sqlite3"
    """SQLite file of the conversation registries (ATTRIBUTION_DATABASE_PATH)."""
    database_url: str | None = None
    """PostgreSQL URL of the conversation registries, ``postgresql://user:pass@host:port/db``
    (ATTRIBUTION_DATABASE_URL; the ``postgres`` extra): replicas on several machines share one
    numbering. Unset: the SQLite file ``database_path``."""
    max_body_bytes: int = 10_000_000
    """Largest request body accepted."""
    max_answer_chars: int = 100_000
    """Longest answer accepted."""
    max_sources: int = 200
    """Most sources (or tool outputs) in one request."""
    max_source_chars: int = 5_000_000
    """Most source text in one request, all sources together."""
    max_pairs: int = 256
    """Most (claim, passage) pairs in one verification request."""
    max_conversation_sources: int = 10_000
    """Most sources one conversation's registry holds; more are refused with 409."""
    request_timeout_s: float = 60.0
    """Model work taking longer than this is abandoned with 504."""
    stream_timeout_s: float = 300.0
    """A stream (body, checks and final result together) taking longer ends with a timeout
    error event."""
    max_queue: int = 32
    """Requests waiting for model work beyond this are refused with 429 and Retry-After."""
    allowed_hosts: str | None = None
    """Host names the service answers for, comma-separated (ATTRIBUTION_ALLOWED_HOSTS):
    ``api.example.com``, ``*.example.com`` (its subdomains), ``*`` (any). Unset: the loopback
    names (``localhost, 127.0.0.1, ::1``) when ``host`` is a loopback address, else any. Other
    hosts get 400 ``invalid_host`` (a web page cannot reach a local install by DNS rebinding)."""
    header_timeout_s: float = 10.0
    """A request's line and headers must arrive within this (else 408, the connection closed)."""
    body_timeout_s: float = 30.0
    """A request's whole body must arrive within this (else 408); an NDJSON stream's body is
    bounded by stream_timeout_s instead."""
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    """Lowest log level written."""
    log_text: bool = False
    """Whether answer and source text may appear in logs (off: PII stays out)."""

    def __post_init__(self) -> None:
        checks = [
            ("port", 0 < self.port < 65536, "1..65535"),
            ("workers", 1 <= self.workers <= 64, "1..64"),
            (
                "model_threads",
                self.model_threads is None or 1 <= self.model_threads <= 256,
                "1..256 or unset",
            ),
            (
                "intra_op_threads",
                self.intra_op_threads is None or 1 <= self.intra_op_threads <= 256,
                "1..256 or unset",
            ),
            ("max_body_bytes", self.max_body_bytes >= 1024, ">= 1024"),
            ("max_answer_chars", self.max_answer_chars >= 1, ">= 1"),
            ("max_sources", self.max_sources >= 1, ">= 1"),
            ("max_source_chars", self.max_source_chars >= 1, ">= 1"),
            ("max_pairs", self.max_pairs >= 1, ">= 1"),
            (
                "max_conversation_sources",
                1 <= self.max_conversation_sources <= 2**62,
                "1..2**62",
            ),
            (
                "request_timeout_s",
                0 < self.request_timeout_s <= MAX_TIMEOUT_S,
                f"> 0 and <= {MAX_TIMEOUT_S:g}",
            ),
            (
                "stream_timeout_s",
                0 < self.stream_timeout_s <= MAX_TIMEOUT_S,
                f"> 0 and <= {MAX_TIMEOUT_S:g}",
            ),
            ("max_queue", self.max_queue >= 1, ">= 1"),
            (
                "database_url",
                self.database_url is None
                or urlsplit(self.database_url).scheme in ("postgresql", "postgres"),
                "a postgresql://user:password@host:port/database URL",
            ),
            ("header_timeout_s", self.header_timeout_s > 0, "> 0"),
            ("body_timeout_s", self.body_timeout_s > 0, "> 0"),
            (
                "allowed_hosts",
                self.allowed_hosts is None
                or all(_HOST.match(h) for h in _split(self.allowed_hosts)),
                "host names, *.domain or *, comma-separated",
            ),
        ]
        for name, ok, requirement in checks:
            if not ok:
                value = getattr(self, name)
                if name == "database_url":  # never echo a password
                    value = urlsplit(value)._replace(netloc="...").geturl()
                raise ConfigError(f"setting {name} = {value!r} is out of bounds: {requirement}")
        if self.config is not None:
            self.engine_config()  # an unknown preset or a bad file fails the start, named

    def engine_config(self) -> AttributionConfig:
        """The engine's configuration: :attr:`config` with this service's threads and models
        folder.

        Raises:
            ConfigError: the preset is unknown, or the file cannot be read or is not a valid
                configuration (named).
        """
        base = AttributionConfig()
        if self.config is not None:
            try:
                base = read_config(self.config)
            except ConfigError as exc:
                raise ConfigError(f"setting config = {self.config!r}: {exc}") from exc
        model = msgspec.structs.replace(
            base.model,
            models_dir=self.models_dir or base.model.models_dir,
            intra_op_threads=self.onnx_threads() or base.model.intra_op_threads,
            busy_intra_op_threads=self.busy_onnx_threads() or base.model.busy_intra_op_threads,
        )
        return msgspec.structs.replace(base, model=model)

    def onnx_threads(self) -> int | None:
        """The intra-op threads of the models' sessions (None: the cores)."""
        return self.intra_op_threads if self.intra_op_threads is not None else self.model_threads

    def busy_onnx_threads(self) -> int | None:
        """The intra-op threads of a call made while another runs (None: as any call)."""
        if self.intra_op_threads is not None:
            return None  # fixed by the operator
        cores = os.cpu_count() or 1
        return max(1, cores // (self.model_threads or cores))

    def allowed_host_names(self) -> tuple[str, ...]:
        """The allowed hosts, lower case; ``("*",)`` when any host is served."""
        if self.allowed_hosts is not None:
            names = tuple(h.lower() for h in _split(self.allowed_hosts))
            return ("*",) if "*" in names else names
        if self.host.lower() in LOOPBACK_NAMES or self.host.startswith("127."):
            return LOOPBACK_NAMES
        return ("*",)

    @classmethod
    def unknown_variables(
        cls, environ: Mapping[str, str] | None = None
    ) -> list[tuple[str, str | None]]:
        """The ``ATTRIBUTION_*`` variables set that neither the service nor the library reads
        (a typo such as ``ATTRIBUTION_PROT`` is otherwise silently ignored), each with the
        nearest name that is read, if one is near."""
        from attribution.runtime import ENV_BY_KIND, ENV_MODELS_DIR

        env = os.environ if environ is None else environ
        known = {_PREFIX + name.upper() for name in cls.__struct_fields__}
        known |= {*ENV_BY_KIND.values(), ENV_MODELS_DIR, *_REPOSITORY_VARIABLES}
        suffixes = [k.removeprefix(_PREFIX) for k in known]

        def near(name: str) -> str | None:
            close = difflib.get_close_matches(name.removeprefix(_PREFIX), suffixes, n=1)
            return _PREFIX + close[0] if close else None

        return [
            (name, near(name))
            for name in sorted(env)
            if name.startswith(_PREFIX) and name not in known
        ]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``ATTRIBUTION_<FIELD>`` variables (``ATTRIBUTION_PORT=9000``).

        Raises:
            ConfigError: a value of the wrong type or out of bounds, naming the variable.
        """
        env = os.environ if environ is None else environ
        raw: dict[str, str] = {}
        for name in cls.__struct_fields__:
            value = env.get(_PREFIX + name.upper())
            if value is not None and value != "":
                raw[name] = value
        try:
            return msgspec.convert(raw, cls, strict=False)
        except msgspec.ValidationError as exc:
            found = _FIELD_IN_ERROR.search(str(exc))
            field = found and (found[1] or found[2])
            where = _PREFIX + field.upper() if field in raw else f"variables {_PREFIX}<FIELD>"
            raise ConfigError(f"environment: {where}: {exc}") from exc
