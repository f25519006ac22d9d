"""Latency of the whole pipeline: by default a 10-claim answer against 20 sources of 800 words.

Run: ``.venv/bin/python -m benchmarks.pipeline_speed [--repeat 20] [--claims 10 --sources 20
--words 800] [--supported] [--embedder NAME] [--passages-per-claim N] [--prefilter-per-claim N]
[--threads N] [--lanes N] [--no-skip-out-of-reach] [--no-baseline] [--json FILE]``.

The workload is real text: WiCE's Wikipedia-cited web articles, each cut (or joined) to about
``--words`` words, and an answer made of WiCE claims about the first of them, with a ``[n]``
marker on every other claim (:func:`benchmarks.harness._speed.make_workload`); most of these
claims are not supported by their article (WiCE's labels), so ``--supported`` takes only claims
WiCE labels supported, as in an answer that mostly holds up. Models are
loaded and warmed up before timing. Three modes:

- **cold sources**: every cache is cleared before each run, as when an answer cites sources the
  engine has never seen;
- **cached sources**: the sources' embeddings are kept, as when the conversation's sources were
  embedded before (a later turn, or sources registered while the agent worked);
- **cached sources and pairs**: nothing is forgotten, as when the same answer is checked again
  (a retry, a second client, the stream's final check of claims it judged already).

In the first two modes the verifier's pair scores are forgotten before each run: a new answer
brings new (claim, passage) pairs. Reported per mode: p50 and p95 of the whole call, the median
of each stage (``timingsMs``), the (claim, passage) pairs the verifier scored per claim, and the
claims decided without a model pass (``shortcut``); then the peak resident memory of the process
(models included) and the time to the first answer, model loading included.

The **baseline** is timed in the same loop, cold, so that load from other processes falls on
both sides of the ratio: seed 004's embedding threshold (embed every answer sentence and every
chunk with the MiniLM transformer, cite where cosine >= 0.60), a fresh cache each run. The ratio
is the median of engine ÷ baseline over runs made in the same iteration.

Prints Markdown tables with the commit and machine; ``--json`` also writes the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from attribution import PRESETS, Attributor
from attribution.match import EmbeddingCache, LexicalIndex, Matcher
from attribution.verify import Pair, Verifier, VerifierOutput
from benchmarks._logs import quiet_logs
from benchmarks.datasets import default_data_root
from benchmarks.foundation import commit
from benchmarks.harness._baselines import Baselines
from benchmarks.harness._context import baseline_embedder
from benchmarks.harness._speed import (
    _embedding_threshold,
    _peak_rss_mb,
    _reset_peak_rss,
    forget_pair_scores,
    make_workload,
)

STAGES = ("extract", "segment", "match", "verify", "reconcile")


class CountingVerifier:
    """The engine's verifier, counting the pairs it is asked to score (nothing else changes)."""

    def __init__(self, inner: Verifier) -> None:
        self.inner = inner
        self.pairs = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def threshold(self) -> float:
        return self.inner.threshold

    def score(
        self, pairs: Sequence[Pair], *, lexical: LexicalIndex | None = None
    ) -> VerifierOutput:
        self.pairs += len(pairs)
        return self.inner.score(pairs, lexical=lexical)

    def __getattr__(self, name: str) -> Any:  # clear_cache, cross_encoder
        return getattr(self.inner, name)


def _p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-root", type=Path, default=default_data_root())
    parser.add_argument("--repeat", type=int, default=20, help="timed runs per mode (20)")
    parser.add_argument("--claims", type=int, default=10)
    parser.add_argument("--sources", type=int, default=20)
    parser.add_argument("--words", type=int, default=800, help="words per source (800)")
    parser.add_argument(
        "--supported",
        action="store_true",
        help="claims WiCE labels supported: an answer that mostly holds up",
    )
    parser.add_argument("--threads", type=int, default=None, help="ONNX Runtime threads")
    parser.add_argument(
        "--lanes", type=int, default=None, help="ModelConfig.lanes (sessions side by side)"
    )
    parser.add_argument("--embedder", default=None, help="the matcher's embedder (a model name)")
    parser.add_argument(
        "--passages-per-claim", type=int, default=None, help="VerifyConfig.passages_per_claim"
    )
    parser.add_argument(
        "--first-round-passages",
        type=int,
        default=None,
        help="VerifyConfig.first_round_passages (0: every candidate in one round)",
    )
    parser.add_argument(
        "--prefilter-per-claim",
        type=int,
        default=None,
        help="MatchConfig.prefilter_per_claim (passages a transformer embeds per claim)",
    )
    parser.add_argument(
        "--no-skip-out-of-reach",
        action="store_true",
        help="VerifyConfig.skip_out_of_reach off: the model scores every pair",
    )
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the embedding-threshold baseline"
    )
    parser.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        default="default",
        help="the configuration the other options change (attribution.PRESETS)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    for name in ("repeat", "claims", "sources", "words"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be 1 or more, got {getattr(args, name)}")
    quiet_logs()

    try:
        workload = make_workload(
            args.data_root,
            claims=args.claims,
            sources=args.sources,
            words=args.words,
            supported=args.supported,
        )
    except FileNotFoundError as exc:
        raise SystemExit(str(exc)) from exc
    answer, sources = workload.answer, list(workload.sources)
    config = PRESETS[args.preset]
    model = msgspec.structs.replace(
        config.model,
        **{
            k: v
            for k, v in (
                ("intra_op_threads", args.threads),
                ("embedder", args.embedder),
                ("lanes", args.lanes),
            )
            if v is not None
        },
    )
    config = msgspec.structs.replace(config, model=model)
    verify_options = {
        k: v
        for k, v in (
            ("passages_per_claim", args.passages_per_claim),
            ("first_round_passages", args.first_round_passages),
            ("skip_out_of_reach", False if args.no_skip_out_of_reach else None),
        )
        if v is not None
    }
    if verify_options:
        verify = msgspec.structs.replace(config.verify, **verify_options)
        config = msgspec.structs.replace(config, verify=verify)
    if args.prefilter_per_claim is not None:
        match = msgspec.structs.replace(config.match, prefilter_per_claim=args.prefilter_per_claim)
        config = msgspec.structs.replace(config, match=match)
    plain = Attributor(config)
    t0 = time.perf_counter()
    plain.warm_up(freeze_gc=True)  # as the HTTP service does
    first = plain.attribute(answer, sources)
    load_s = time.perf_counter() - t0
    counting = CountingVerifier(plain.verifier)
    attributor = Attributor(
        config, embedder=plain.embedder, verifier=counting, segmenter=plain.segmenter
    )
    baseline_model = None if args.no_baseline else baseline_embedder(plain)
    n_words = sum(len((s.full_content or "").split()) for s in sources)
    n_claims = first.summary.claims
    print(
        f"commit {commit()} · {platform.machine()}, {os.cpu_count()} cores · Python "
        f"{platform.python_version()} · preset {args.preset} · embedder "
        f"{config.model.embedder} · lexical weight {config.match.lexical_weight} · passages per "
        f"claim {config.verify.passages_per_claim} (first round "
        f"{config.verify.first_round_passages}; out of reach skipped: "
        f"{config.verify.skip_out_of_reach}) · verifier "
        f"{first.verifier}\nworkload: {n_claims} claims"
        f"{' (WiCE: supported)' if args.supported else ''}, {len(sources)} sources, "
        f"{n_words} words "
        f"(first call incl. model load: {load_s:.1f} s)\n",
    )
    scoped = _reset_peak_rss()
    figures: dict[str, Any] = {
        "commit": commit(),
        "preset": args.preset,
        "embedder": config.model.embedder,
        "lexical_weight": config.match.lexical_weight,
        "passages_per_claim": config.verify.passages_per_claim,
        "first_round_passages": config.verify.first_round_passages,
        "skip_out_of_reach": config.verify.skip_out_of_reach,
        "prefilter_per_claim": config.match.prefilter_per_claim,
        "verifier": first.verifier,
        "claims": n_claims,
        "supported_claims_only": args.supported,
        "sources": len(sources),
        "words": n_words,
        "first_call_s": round(load_s, 2),
        "modes": {},
    }
    print(
        "| mode | p50 ms | p95 ms | "
        + " | ".join(STAGES)
        + " | pairs / claim | no model pass | baseline p50 ms | engine ÷ baseline |"
    )
    print(
        "| --- | ---: | ---: | "
        + " | ".join("---:" for _ in STAGES)
        + " | ---: | ---: | ---: | ---: |"
    )
    for mode in ("cold sources", "cached sources", "cached sources and pairs"):
        totals: list[float] = []
        baseline: list[float] = []
        stages: dict[str, list[float]] = {}
        pairs: list[int] = []
        shortcuts = 0
        for _ in range(args.repeat):
            if mode == "cold sources":
                attributor.clear_caches()
            if mode != "cached sources and pairs":
                forget_pair_scores(attributor)
            counting.pairs = 0
            t = time.perf_counter()
            result = attributor.attribute(answer, sources)
            totals.append((time.perf_counter() - t) * 1000)
            pairs.append(counting.pairs)
            shortcuts = sum(c.shortcut is not None for c in result.claims)
            for k, v in result.timings_ms.items():
                stages.setdefault(k, []).append(v)
            if baseline_model is not None and mode == "cold sources":
                matcher = Matcher(baseline_model, config.match, cache=EmbeddingCache())
                claims = [c.text for c in result.claims]
                t = time.perf_counter()
                _embedding_threshold(Baselines(matcher, config.match), claims, sources)
                baseline.append((time.perf_counter() - t) * 1000)
        p50 = statistics.median(totals)
        ratio = (
            statistics.median(e / b for e, b in zip(totals, baseline, strict=False))
            if baseline
            else None
        )
        row: dict[str, Any] = {
            "p50_ms": round(p50, 1),
            "p95_ms": round(_p95(totals), 1),
            "stages_ms": {k: round(statistics.median(v), 1) for k, v in stages.items()},
            "pairs_per_claim": round(statistics.median(pairs) / max(n_claims, 1), 2),
            "claims_without_model_pass": shortcuts,
        }
        if baseline:
            row["baseline_p50_ms"] = round(statistics.median(baseline), 1)
            row["engine_over_baseline"] = round(ratio or 0.0, 3)
        figures["modes"][mode] = row
        cells = " | ".join(f"{row['stages_ms'].get(k, 0):.0f}" for k in STAGES)
        base = (
            f"{row['baseline_p50_ms']:.0f} | {row['engine_over_baseline']:.3f}"
            if baseline
            else "– | –"
        )
        print(
            f"| {mode} | {p50:.0f} | {row['p95_ms']:.0f} | {cells} | {row['pairs_per_claim']} | "
            f"{shortcuts} of {n_claims} | {base} |"
        )
        sys.stdout.flush()
    peak = _peak_rss_mb(scoped)
    figures["peak_rss_mb"] = round(peak, 1)
    print(f"\npeak RSS {peak:.0f} MiB ({'while timing' if scoped else 'process lifetime'})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
