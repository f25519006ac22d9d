"""Which verifier should be the default: the harness's claim verification, three ways.

Run: ``.venv/bin/python -m benchmarks.verifier_decision [--limit N] [--out DIR]``.

Variants, each run through the harness's verification task on all five datasets:

- ``feature``: the feature verifier (``attribution/models/feature-verifier/weights.json``);
- ``cross-encoder``: the trained cross-encoder alone (``support-verifier-minilm-l6-int8``,
  P(entailment) at its 0.5 threshold; never fitted on the attribution data);
- ``combined``: the feature verifier with the cross-encoder's two probabilities as features
  (``attribution/models/feature-verifier/weights-combined.json``, ``make fit-verifier-combined``;
  with ``--embedder minilm-static-256``, ``weights-combined-static.json``).

Figures quoted are the held-out ones: for the two fitted variants on the datasets they were
fitted on, the harness refits without that dataset (its ``held_out`` pass); FaithBench is never
fitted on. Writes ``<out>/<variant>/accuracy.json`` and ``<out>/decision.md``; the winner is
the variant with the best mean over the five datasets of balanced accuracy and of AUC.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import msgspec

from attribution import AttributionConfig, Attributor, ModelConfig
from benchmarks._logs import quiet_logs
from benchmarks.datasets import default_data_root
from benchmarks.foundation import commit
from benchmarks.harness._run import run_harness

REPO = Path(__file__).resolve().parents[1]
CROSS_ENCODER = "support-verifier-minilm-l6-int8"
FEATURE_WEIGHTS = REPO / "attribution" / "models" / "feature-verifier" / "weights.json"
DATASETS = ("expertqa", "attributionbench", "wice", "lfqa", "faithbench")


def variants(embedder: str | None = None, combined: Path | None = None) -> dict[str, ModelConfig]:
    """The three verifiers; ``combined``: a weights file (None: the embedder's own)."""
    base = ModelConfig() if embedder is None else ModelConfig(embedder=embedder)
    return {
        "feature": msgspec.structs.replace(base, feature_weights=str(FEATURE_WEIGHTS)),
        "cross-encoder": msgspec.structs.replace(base, verifier=CROSS_ENCODER),
        "combined": msgspec.structs.replace(
            base, feature_weights=str(combined) if combined is not None else None
        ),
    }


def held_out(entry: dict[str, Any]) -> tuple[float, float]:
    """(balanced accuracy, AUC) to quote for one dataset: held-out when it was fitted on."""
    source = entry.get("held_out", entry) if entry.get("fitted_on_this_dataset") else entry
    return float(source.get("balanced_accuracy", math.nan)), float(source.get("roc_auc", math.nan))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-root", type=Path, default=default_data_root())
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "verifier-decision")
    parser.add_argument("--limit", type=int, help="at most N examples per dataset")
    parser.add_argument("--only", nargs="*", choices=list(variants()), help="variants to run")
    parser.add_argument(
        "--first-round-passages",
        type=int,
        default=None,
        help="VerifyConfig.first_round_passages (0: every candidate scored in one round)",
    )
    parser.add_argument(
        "--passages-per-claim",
        type=int,
        default=None,
        help="VerifyConfig.passages_per_claim (candidates the judge may read for a claim)",
    )
    parser.add_argument(
        "--prefilter-per-claim",
        type=int,
        default=None,
        help="MatchConfig.prefilter_per_claim (passages a claim has embedded by a transformer "
        "when a request is large)",
    )
    parser.add_argument(
        "--embedder",
        metavar="NAME",
        help="the matcher's embedder for every variant (a manifest name; default: the engine's)",
    )
    parser.add_argument(
        "--combined-weights",
        type=Path,
        default=None,
        help="weights file of the combined variant (default: the shipped combination fitted "
        "with the embedder)",
    )
    args = parser.parse_args(argv)
    quiet_logs()
    if args.combined_weights is not None and not args.combined_weights.is_file():
        parser.error(f"--combined-weights {args.combined_weights} is not a file")
    table: dict[str, dict[str, tuple[float, float]]] = {}
    shared: Attributor | None = None
    for name, model in variants(args.embedder, args.combined_weights).items():
        out = args.out / name
        if args.only and name not in args.only:
            if (out / "accuracy.json").is_file():
                accuracy = json.loads((out / "accuracy.json").read_text())
                table[name] = {d: held_out(v) for d, v in accuracy["datasets"].items()}
            continue
        print(f"=== {name}", file=sys.stderr)
        # the same embeddings: only the verifier differs
        config = AttributionConfig(model=model)
        verify_options = {
            k: v
            for k, v in (
                ("first_round_passages", args.first_round_passages),
                ("passages_per_claim", args.passages_per_claim),
            )
            if v is not None
        }
        if verify_options:
            verify = msgspec.structs.replace(config.verify, **verify_options)
            config = msgspec.structs.replace(config, verify=verify)
        if args.prefilter_per_claim is not None:
            match = msgspec.structs.replace(
                config.match, prefilter_per_claim=args.prefilter_per_claim
            )
            config = msgspec.structs.replace(config, match=match)
        engine = Attributor(config, cache=shared.cache if shared is not None else None)
        shared = shared or engine
        accuracy = run_harness(
            data_root=args.data_root,
            out=out,
            datasets=DATASETS,
            tasks=("verification",),
            limit=args.limit,
            quick_speed=True,
            attributor=engine,
        )
        table[name] = {d: held_out(v) for d, v in accuracy["datasets"].items()}
    lines = [
        f"# Verifier decision (commit {commit()}, limit {args.limit})",
        "",
        "Balanced accuracy / ROC AUC of claim verification, held-out where fitted "
        "(`python -m benchmarks.verifier_decision`).",
        "",
        "| variant | " + " | ".join(DATASETS) + " | mean bal. acc | mean AUC |",
        "| --- |" + " ---: |" * (len(DATASETS) + 2),
    ]
    means: dict[str, float] = {}
    for name, per in table.items():
        cells = [per.get(d, (math.nan, math.nan)) for d in DATASETS]
        bacc = sum(c[0] for c in cells) / len(cells)
        auc = sum(c[1] for c in cells) / len(cells)
        means[name] = (bacc + auc) / 2
        row = " | ".join(f"{b:.3f} / {a:.3f}" for b, a in cells)
        lines.append(f"| {name} | {row} | {bacc:.3f} | {auc:.3f} |")
    valid = {k: v for k, v in means.items() if not math.isnan(v)}
    if valid:
        best = max(valid, key=lambda k: valid[k])
        lines += ["", f"Best by the mean of the two means: **{best}**."]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "decision.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
