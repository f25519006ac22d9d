"""Command line of the verifier's training: train, export to ONNX, evaluate on held-out NLI."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from .data import MixConfig, attribution_stage
from .train import TrainConfig

__all__ = ["main"]

DEFAULT_OUT = Path("build/support-verifier")
DEFAULT_MODEL_DIR = Path("attribution/models/support-verifier")
DEFAULT_ROUND = Path("training/rounds/support-verifier")
"""The committed round: float16 trainable weights and progress, resumed from on a new machine."""


def _data_root() -> Path:
    here = Path(__file__).resolve().parents[1]
    return here.parent / "shared" / "data" / "nli"


def _config(args: argparse.Namespace) -> TrainConfig:
    if args.stage == "attribution":
        mix = dataclasses.replace(
            attribution_stage(), scale=args.scale, commercial_only=args.commercial_only
        )
        config = TrainConfig(
            mix=mix,
            freeze_layers=args.freeze_layers,
            init_round=str(args.init_round or DEFAULT_ROUND),
            learning_rate=2e-5,
            eval_minutes=15.0,
        )
    else:
        mix = MixConfig(scale=args.scale, commercial_only=args.commercial_only)
        config = TrainConfig(mix=mix, freeze_layers=args.freeze_layers)
    if args.epochs is not None:
        config = dataclasses.replace(config, epochs=args.epochs)
    if args.threads is not None:
        config = dataclasses.replace(config, threads=args.threads)
    return config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training", description=__doc__)
    parser.add_argument("command", choices=["train", "export", "evaluate", "all"])
    parser.add_argument("--data", type=Path, default=None, help="the nli data folder")
    parser.add_argument(
        "--out", type=Path, default=None, help="checkpoints and logs (default per stage)"
    )
    parser.add_argument(
        "--model-dir", type=Path, default=DEFAULT_MODEL_DIR, help="where the ONNX files go"
    )
    parser.add_argument(
        "--round",
        type=Path,
        default=None,
        help="the committable float16 state of the run, resumed from on a fresh machine "
        "(default per stage: training/rounds/support-verifier[-attribution])",
    )
    parser.add_argument(
        "--stage",
        choices=["generic", "attribution"],
        default="generic",
        help="generic: the whole NLI mix from the base encoder; attribution: hard cases, the "
        "train part of the attribution data and a tenth of the generic mix, starting from "
        "--init-round (default: the generic stage's committed round)",
    )
    parser.add_argument("--init-round", type=Path, default=None)
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full mix")
    parser.add_argument(
        "--commercial-only",
        action="store_true",
        help="train only on sources whose licence allows commercial use",
    )
    parser.add_argument("--freeze-layers", type=int, default=0)
    parser.add_argument("--epochs", type=float, default=None)
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: all)")
    parser.add_argument("--budget-minutes", type=float, default=None)
    parser.add_argument(
        "--precision",
        choices=["auto", "bf16", "fp32"],
        default="auto",
        help="bf16: bfloat16 autocast (auto: where the CPU has AMX or AVX-512 BF16)",
    )
    parser.add_argument("--heldout-limit", type=int, default=2000)
    args = parser.parse_args(argv)
    data = args.data or _data_root()
    if not data.is_dir():
        parser.error(f"no NLI data at {data}: pass --data")
    config = _config(args)
    suffix = "-attribution" if args.stage == "attribution" else ""
    args.out = args.out or Path(f"{DEFAULT_OUT}{suffix}")
    args.round = args.round or Path(f"{DEFAULT_ROUND}{suffix}")
    if args.command in ("train", "all"):
        from .train import train

        record = train(
            config,
            data,
            args.out,
            round_dir=args.round,
            budget_minutes=args.budget_minutes,
            bf16={"auto": None, "bf16": True, "fp32": False}[args.precision],
        )
        if not record["finished"]:
            print("not finished: run the same command again to resume")
            return 0 if args.command == "train" else 3
    if args.command in ("export", "all"):
        from .export import export

        trained = args.out / "final"
        if not (trained / "config.json").is_file():
            from .train import materialize_round

            print(f"no {trained}: exporting the committed round in {args.round}")
            trained = materialize_round(args.round, config, args.out / "from-round")
        export(trained, args.model_dir, config)
    if args.command in ("evaluate", "all"):
        from .evaluate import evaluate

        evaluate(args.model_dir, data, config, limit=args.heldout_limit)
    return 0
