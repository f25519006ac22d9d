"""Candidate recall of the matcher's signals on WiCE: does the passage holding a gold sentence
rank in the top k? A first measurement for the fast path (a static embedding model as the
cheap shortlist, next to BM25 and the MiniLM bi-encoder).

Run: ``.venv/bin/python -m benchmarks.candidate_recall [--static NAME_OR_NPY] [--split
validation]``. The static model is the packaged ``minilm-static-256`` (made by
``training/static.py``) unless another is named.

Each WiCE claim with a gold sentence set is one query; its article (sentences joined by one
space) is cut into the engine's passages (``make_passages``); a passage is relevant when it
overlaps a gold sentence. Ranked by MiniLM cosine, static cosine, BM25, and static + BM25
(z-scores added). Reports recall@1/3/5/8 and the seconds spent embedding.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attribution import Attributor, CitationSource, MatchConfig, ModelConfig
from attribution.match import LexicalIndex, make_passages
from attribution.runtime import load_embedder
from attribution.text import content_terms
from benchmarks.datasets import default_data_root, filter_split, load_wice

KS = (1, 3, 5, 8)


def _z(x: NDArray[np.float64]) -> NDArray[np.float64]:
    return (x - x.mean()) / (x.std() + 1e-9)


def wice_claims(root: Path, split: str) -> list[Any]:
    """WiCE's records of ``split`` that have a gold sentence set."""
    return [
        r
        for r in filter_split(load_wice(root).records, split, data_root=root)
        if any(r.supporting_sentences)
    ]


def gold_spans(record: Any) -> list[tuple[int, int]]:
    """The gold sentences' offsets in the record's article (its sentences joined by a space)."""
    starts, pos = [], 0
    for sentence in record.evidence:
        starts.append(pos)
        pos += len(sentence) + 1
    gold = {i for group in record.supporting_sentences for i in group if i < len(starts)}
    return [(starts[i], starts[i] + len(record.evidence[i])) for i in gold]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.candidate_recall")
    parser.add_argument(
        "--static",
        default="minilm-static-256",
        help="the static embedder: a manifest name or a .npy table (minilm-static-256)",
    )
    parser.add_argument("--data-root", type=Path, default=None)
    parser.add_argument("--split", default="validation", choices=["validation", "train", "all"])
    args = parser.parse_args(argv)
    records = wice_claims(args.data_root or default_data_root(), args.split)
    static = load_embedder(ModelConfig(embedder=args.static))
    minilm = Attributor().embedder
    config = MatchConfig()
    methods = ("minilm", "static", "bm25", "static+bm25")
    hits = {m: dict.fromkeys(KS, 0) for m in methods}
    seconds = {"minilm": 0.0, "static": 0.0}
    passages_seen = 0
    for record in records:
        spans = gold_spans(record)
        source = CitationSource(id="s", type="web", full_content=" ".join(record.evidence))
        passages = make_passages([source], config)
        passages_seen += len(passages)
        relevant = [any(p.start < b and a < p.end for a, b in spans) for p in passages]
        texts = [p.text for p in passages]
        started = time.perf_counter()
        by_static = static.encode(texts) @ static.encode([record.claim])[0]
        seconds["static"] += time.perf_counter() - started
        started = time.perf_counter()
        by_minilm = minilm.encode(texts) @ minilm.encode([record.claim])[0]
        seconds["minilm"] += time.perf_counter() - started
        bm25 = LexicalIndex(texts).bm25(content_terms(record.claim))
        by_bm25 = np.array([bm25.get(i, 0.0) for i in range(len(texts))])
        scores = {
            "minilm": by_minilm,
            "static": by_static,
            "bm25": by_bm25,
            "static+bm25": _z(by_static.astype(np.float64)) + _z(by_bm25),
        }
        for method, values in scores.items():
            order = np.argsort(-values, kind="stable")
            for k in KS:
                hits[method][k] += any(relevant[i] for i in order[:k])
    n = len(records)
    print(f"WiCE {args.split}: {n} claims, {passages_seen / max(n, 1):.1f} passages each")
    print("| method | " + " | ".join(f"recall@{k}" for k in KS) + " | embedding s |")
    print("| --- | " + " | ".join("---:" for _ in KS) + " | ---: |")
    for method in methods:
        spent = seconds.get(method.split("+")[0] if method != "bm25" else "", 0.0)
        cells = " | ".join(f"{hits[method][k] / max(n, 1):.3f}" for k in KS)
        print(f"| {method} | {cells} | {spent:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
