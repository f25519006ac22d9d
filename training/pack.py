"""Compact, self-contained inputs for a training run on another machine (a lent GPU).

A GPU machine of this workplace gets the repository's working tree and nothing else, 64 MiB at
most, and has no ``../shared`` data and no base-model package. Two files carry what a run needs:

- a **mix pack** (``python -m training pack``): the training mix already tokenised exactly as
  :func:`train.encode` does it, with every pair's label and source, plus the held-out slices,
  as an xz-compressed ``.npz`` (token ids as uint16: the vocabulary has 30,522 entries);
- a **base pack**: the base encoder's weights in float16, xz-compressed, where the rows of the
  frozen word-embedding table that no packed pair uses are zero (they are never looked up, so
  training is unchanged; the trained weights never include that table, so the exported model
  uses the real base table).

``python -m training train --pack P --base-dir D`` then trains from the pack without the data
or the base package; the CPU path (``python -m training train``) stays the documented way and
builds the same mix from ``../shared/data/nli``.
"""

from __future__ import annotations

import dataclasses
import io
import json
import lzma
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["Pack", "read_base", "read_pack", "write_base", "write_pack"]

PACK_VERSION = 1
_MIX = "mix"


@dataclass(frozen=True)
class Pack:
    """A mix pack's content: the tokenised pairs of the mix and of each held-out set."""

    mix: dict[str, Any]
    """The ``MixConfig`` it was built with, as a dict."""
    max_length: int
    groups: dict[str, tuple[list[NDArray[np.int32]], list[int], NDArray[np.int8], list[str]]]
    """Per group (``mix`` and each held-out set): token ids, type-0 lengths, labels, sources."""
    manifest: dict[str, dict[str, int]]


def write_pack(
    path: Path,
    mix: dict[str, Any],
    max_length: int,
    groups: dict[str, tuple[Sequence[Any], NDArray[np.integer[Any]], Sequence[str]]],
    manifest: dict[str, dict[str, int]],
) -> dict[str, Any]:
    """Write the pack; ``groups`` maps a name to (``Tokens`` list, labels, sources).

    Returns a summary: pairs, tokens and bytes.
    """
    arrays: dict[str, NDArray[Any]] = {}
    meta: dict[str, Any] = {
        "version": PACK_VERSION,
        "mix": mix,
        "max_length": max_length,
        "manifest": manifest,
        "groups": {},
    }
    for name, (tokens, labels, sources) in groups.items():
        ids = np.concatenate([t.ids for t in tokens]) if tokens else np.zeros(0, np.int32)
        if ids.size and (ids.min() < 0 or ids.max() > np.iinfo(np.uint16).max):
            raise ValueError(f"{name}: token ids do not fit in uint16")
        lengths = np.array([len(t.ids) for t in tokens], dtype=np.int64)
        firsts = np.array([int((t.type_ids == 0).sum()) for t in tokens], dtype=np.uint16)
        for t, first in zip(tokens, firsts, strict=True):
            # pair encodings are [CLS] passage [SEP] (type 0) then claim [SEP] (type 1)
            if t.type_ids[:first].any() or not t.type_ids[first:].all():
                raise ValueError(f"{name}: a pair's type ids are not 0s then 1s")
        names = sorted(set(sources))
        index = {s: i for i, s in enumerate(names)}
        arrays[f"{name}.ids"] = ids.astype(np.uint16)
        arrays[f"{name}.lengths"] = lengths.astype(np.uint16)
        arrays[f"{name}.firsts"] = firsts
        arrays[f"{name}.labels"] = np.asarray(labels, dtype=np.int8)
        arrays[f"{name}.sources"] = np.array([index[s] for s in sources], dtype=np.uint8)
        meta["groups"][name] = {"pairs": len(tokens), "tokens": int(ids.size), "sources": names}
    buffer = io.BytesIO()
    np.savez(buffer, meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **arrays)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(lzma.compress(buffer.getvalue(), preset=6))
    tmp.replace(path)
    return {
        "file": str(path),
        "bytes": path.stat().st_size,
        "groups": meta["groups"],
    }


def read_pack(path: Path) -> Pack:
    """Read a pack written by :func:`write_pack`."""
    if not path.is_file():
        raise SystemExit(f"no training pack at {path}: make one with python -m training pack")
    with np.load(io.BytesIO(lzma.decompress(path.read_bytes()))) as data:
        meta = json.loads(bytes(data["meta"]).decode())
        if meta.get("version") != PACK_VERSION:
            raise SystemExit(
                f"{path} is a pack of version {meta.get('version')}, not {PACK_VERSION}"
            )
        groups: dict[str, Any] = {}
        for name, info in meta["groups"].items():
            ids = data[f"{name}.ids"].astype(np.int32)
            lengths = data[f"{name}.lengths"].astype(np.int64)
            ends = np.cumsum(lengths)
            starts = ends - lengths
            names = info["sources"]
            groups[name] = (
                [ids[s:e] for s, e in zip(starts, ends, strict=True)],
                [int(x) for x in data[f"{name}.firsts"]],
                data[f"{name}.labels"].astype(np.int8),
                [names[i] for i in data[f"{name}.sources"]],
            )
    return Pack(meta["mix"], meta["max_length"], groups, meta["manifest"])


def pack_mix_name() -> str:
    return _MIX


EMBEDDINGS_ONLY = "embeddings-only.txt"
"""In a base pack written with ``embeddings_only``: its encoder weights are zeros."""


def write_base(
    base_dir: Path, used_ids: NDArray[np.integer[Any]], out: Path, *, embeddings_only: bool = False
) -> dict[str, Any]:
    """The base encoder in float16 with only the word-embedding rows in ``used_ids`` kept.

    ``embeddings_only`` zeroes every other tensor too (they pack to almost nothing), for runs
    that take all of them from a round (``--init-round``): the frozen word-embedding table is
    the one part of the encoder a round does not hold. A marker file says so, and training
    refuses such a base without a round to start from."""
    from safetensors.numpy import load_file, save_file

    weights = base_dir / "model.safetensors"
    if not weights.is_file():
        raise SystemExit(f"{weights} is missing: the base pack needs safetensors weights")
    tensors = load_file(str(weights))
    table = next(k for k in tensors if k.endswith("word_embeddings.weight"))
    kept = np.zeros_like(tensors[table])
    rows = np.unique(np.asarray(used_ids, dtype=np.int64))
    kept[rows] = tensors[table][rows]
    tensors[table] = kept
    if embeddings_only:
        tensors = {k: v if k == table else np.zeros_like(v) for k, v in tensors.items()}
    half = {k: v.astype(np.float16) if v.dtype == np.float32 else v for k, v in tensors.items()}
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_bytes((base_dir / "config.json").read_bytes())
    raw = out / "model.fp16.safetensors"
    save_file(half, str(raw))
    packed = out / "model.fp16.safetensors.xz"
    packed.write_bytes(lzma.compress(raw.read_bytes(), preset=6))
    raw.unlink()
    marker = out / EMBEDDINGS_ONLY
    if embeddings_only:
        marker.write_text("the encoder's weights are zeros: train with --init-round\n")
    else:
        marker.unlink(missing_ok=True)
    return {
        "rows_kept": int(rows.size),
        "rows": int(kept.shape[0]),
        "bytes": packed.stat().st_size,
        "embeddings_only": embeddings_only,
    }


def read_base(packed: Path, out: Path) -> Path:
    """Unpack a base pack into a folder ``from_pretrained`` reads (float32 safetensors)."""
    from safetensors.numpy import load, save_file

    source = packed / "model.fp16.safetensors.xz"
    if not source.is_file():
        raise SystemExit(f"no base pack at {source}")
    tensors = load(lzma.decompress(source.read_bytes()))
    full = {k: v.astype(np.float32) if v.dtype == np.float16 else v for k, v in tensors.items()}
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_bytes((packed / "config.json").read_bytes())
    save_file(full, str(out / "model.safetensors"))
    marker = out / EMBEDDINGS_ONLY
    if (packed / EMBEDDINGS_ONLY).is_file():
        marker.write_bytes((packed / EMBEDDINGS_ONLY).read_bytes())
    else:
        marker.unlink(missing_ok=True)
    return out


def pack_config_matches(pack: Pack, mix: Any) -> list[str]:
    """The fields of ``mix`` (a ``MixConfig``) that differ from the pack's, beyond the filter
    ``commercial_only`` (applied to a pack's pairs when training)."""
    wanted = json.loads(json.dumps(dataclasses.asdict(mix)))
    return sorted(
        k
        for k in wanted.keys() | pack.mix.keys()
        if k != "commercial_only" and wanted.get(k) != pack.mix.get(k)
    )
