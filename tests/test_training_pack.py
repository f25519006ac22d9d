"""The GPU run's inputs (training/pack.py): a mix pack gives back exactly the tokenised pairs,
labels and sources written into it, and refuses a pack of another version or mix. Fast: no
model, no data folder (the whole GPU path, packs to trained rounds, was run on the CPU with
``DEVICE=cpu bash training/gpu_run.sh``; see docs/training-on-a-gpu.md)."""

from __future__ import annotations

import lzma
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="the train extra is not installed")

from training.data import MixConfig
from training.pack import pack_config_matches, pack_mix_name, read_pack, write_pack
from training.train import Tokens


def pair(first: list[int], second: list[int]) -> Tokens:
    ids = np.array([101, *first, 102, *second, 102], dtype=np.int32)
    types = np.array([0] * (len(first) + 2) + [1] * (len(second) + 1), dtype=np.int8)
    return Tokens(ids, types)


def test_a_pack_gives_back_what_was_written(tmp_path: Path) -> None:
    mix = [pair([7592, 2088], [2023]), pair([30521], [1, 2, 3]), pair([5], [6])]
    held = [pair([42], [43, 44])]
    config = MixConfig(scale=0.5)
    from dataclasses import asdict

    summary = write_pack(
        tmp_path / "g.pack",
        asdict(config),
        256,
        {
            pack_mix_name(): (mix, np.array([0, 2, 1]), ["snli", "fever", "snli"]),
            "mnli_dev": (held, np.array([1]), ["mnli_dev"]),
        },
        {"snli": {"entailment": 1}},
    )
    assert summary["groups"][pack_mix_name()]["pairs"] == 3
    pack = read_pack(tmp_path / "g.pack")
    ids, firsts, labels, sources = pack.groups[pack_mix_name()]
    assert [list(x) for x in ids] == [list(t.ids) for t in mix]
    assert firsts == [int((t.type_ids == 0).sum()) for t in mix]
    assert list(labels) == [0, 2, 1]
    assert sources == ["snli", "fever", "snli"]
    assert pack.groups["mnli_dev"][3] == ["mnli_dev"]
    assert pack.max_length == 256
    assert pack_config_matches(pack, config) == []
    assert pack_config_matches(pack, MixConfig(scale=1.0)) == ["scale"]
    # the licence filter is applied when training, so it does not make another pack
    assert pack_config_matches(pack, MixConfig(scale=0.5, commercial_only=True)) == []


def test_bad_packs_are_refused_naming_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="python -m training pack"):
        read_pack(tmp_path / "missing.pack")
    bad = Tokens(np.array([1, 2, 3], dtype=np.int32), np.array([1, 0, 1], dtype=np.int8))
    with pytest.raises(ValueError, match="type ids"):
        write_pack(tmp_path / "b.pack", {}, 8, {pack_mix_name(): ([bad], np.array([0]), ["x"])}, {})
    big = Tokens(np.array([70_000], dtype=np.int32), np.array([0], dtype=np.int8))
    with pytest.raises(ValueError, match="uint16"):
        write_pack(tmp_path / "c.pack", {}, 8, {pack_mix_name(): ([big], np.array([0]), ["x"])}, {})
    (tmp_path / "junk.pack").write_bytes(lzma.compress(b"not a pack"))
    with pytest.raises(Exception):  # noqa: B017, PT011 - numpy's own error for a non-npz
        read_pack(tmp_path / "junk.pack")


def test_a_base_of_embeddings_only_keeps_the_rows_and_needs_a_round(tmp_path: Path) -> None:
    from safetensors.numpy import load_file, save_file

    from training.pack import EMBEDDINGS_ONLY, read_base, write_base
    from training.train import TrainConfig, train

    base = tmp_path / "base"
    base.mkdir()
    (base / "config.json").write_text("{}")
    rng = np.random.default_rng(0)
    table = rng.normal(size=(50, 4)).astype(np.float32)
    layer = rng.normal(size=(4, 4)).astype(np.float32)
    save_file(
        {"embeddings.word_embeddings.weight": table, "encoder.layer.0.dense.weight": layer},
        str(base / "model.safetensors"),
    )
    summary = write_base(base, np.array([3, 7, 3]), tmp_path / "packed", embeddings_only=True)
    assert summary["rows_kept"] == 2
    assert summary["embeddings_only"]
    unpacked = read_base(tmp_path / "packed", tmp_path / "unpacked")
    tensors = load_file(str(unpacked / "model.safetensors"))
    kept = tensors["embeddings.word_embeddings.weight"]
    np.testing.assert_allclose(kept[[3, 7]], table[[3, 7]], atol=1e-2)  # float16 on the way
    assert not kept[[0, 1, 8]].any()
    assert not tensors["encoder.layer.0.dense.weight"].any()
    assert (unpacked / EMBEDDINGS_ONLY).is_file()
    # such a base trains nothing unless a round gives every other weight
    with pytest.raises(SystemExit, match="--init-round"):
        train(TrainConfig(), tmp_path / "no-data", tmp_path / "out", base_dir=unpacked)
    # packed whole again into the same folders: the marker goes with the zeros
    write_base(base, np.array([3]), tmp_path / "packed")
    whole = read_base(tmp_path / "packed", tmp_path / "unpacked")
    assert not (whole / EMBEDDINGS_ONLY).is_file()
    layer_back = load_file(str(whole / "model.safetensors"))["encoder.layer.0.dense.weight"]
    np.testing.assert_allclose(layer_back, layer, atol=1e-2)
