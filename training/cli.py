"""Command line of the verifier's training: train, export to ONNX, evaluate on held-out NLI.

``pack`` and ``base-pack`` write what a run on a lent GPU machine needs (``training/pack.py``);
``train --pack P --base-dir D --device cuda`` runs there (``training/gpu_run.sh``)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .data import HARD_CASE_PAIRS, MixConfig, attribution_stage
from .hard_cases import OPTIONAL_HARD_CASES
from .train import BASE_LAYERS, TrainConfig

__all__ = ["main"]

DEFAULT_OUT = Path("build/support-verifier")
DEFAULT_MODEL_DIR = Path("attribution/models/support-verifier")
DEFAULT_ROUND = Path("training/rounds/support-verifier")
"""The committed round: float16 trainable weights and progress, resumed from on a new machine."""


def _data_root() -> Path:
    here = Path(__file__).resolve().parents[1]
    return here.parent / "shared" / "data" / "nli"


def _listed(text: str, option: str, known: Sequence[str], what: str) -> tuple[str, ...]:
    """The comma-separated names of ``option``, each checked against ``known``."""
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise SystemExit(
            f"{option}: unknown {', '.join(unknown) or '(none given)'}; {what} {', '.join(known)}"
        )
    return names


def _sources(text: str | None) -> tuple[str, ...]:
    """``--sources a,b``: the mix's sources to keep, each checked against the known ones."""
    if not text:
        return ()
    from .generic import LICENCES

    return _listed(text, "--sources", sorted(LICENCES), "the sources are")


def _optional_hard_cases(text: str | None) -> dict[str, int]:
    """``--with-hard-cases a,b=N``: optional generators to add to the attribution stage, each
    with its pairs before ``--scale`` (:data:`HARD_CASE_PAIRS` where no ``=N`` is given)."""
    if text is None:
        return {}
    counts: dict[str, int] = {}
    items = [item.strip() for item in text.split(",") if item.strip()]
    for item in items:
        name, equals, count = (part.strip() for part in item.partition("="))
        if not name:
            raise SystemExit(f"--with-hard-cases: {item!r}: a generator's name comes before =")
        if equals and not (count.isascii() and count.isdigit() and int(count) > 0):
            raise SystemExit(f"--with-hard-cases: {item!r}: the count after = is a whole number")
        counts[name] = int(count) if equals else HARD_CASE_PAIRS
    _listed(",".join(counts), "--with-hard-cases", OPTIONAL_HARD_CASES, "the optional ones are")
    return counts


def _config(args: argparse.Namespace) -> TrainConfig:
    if args.teacher_weight is not None and not args.teacher:
        raise SystemExit(
            "--teacher-weight needs --teacher (the model whose probabilities it weighs)"
        )
    sources = _sources(args.sources)
    extra = _optional_hard_cases(args.with_hard_cases)
    if extra and args.stage != "attribution":
        raise SystemExit("--with-hard-cases is for the attribution stage (--stage attribution)")
    if extra and sources and not set(extra) <= set(sources):
        raise SystemExit("--with-hard-cases: name them in --sources too, or they are left out")
    if args.stage == "attribution":
        mix = dataclasses.replace(
            attribution_stage(),
            **extra,
            scale=args.scale,
            commercial_only=args.commercial_only,
            sources=sources,
        )
        config = TrainConfig(
            mix=mix,
            freeze_layers=args.freeze_layers,
            init_round=str(
                args.init_round
                or Path(f"{DEFAULT_ROUND}{'-commercial' if args.commercial_only else ''}")
            ),
            learning_rate=2e-5,
            eval_minutes=15.0,
        )
    else:
        mix = MixConfig(scale=args.scale, commercial_only=args.commercial_only, sources=sources)
        config = TrainConfig(mix=mix, freeze_layers=args.freeze_layers)
    overrides = {
        "epochs": args.epochs,
        "threads": args.threads,
        "batch_size": args.batch_size,
        "learning_rate": args.learning_rate,
        "head_learning_rate": args.head_learning_rate,
        "warmup_fraction": args.warmup_fraction,
        "eval_steps": args.eval_steps,
        "eval_pairs": args.eval_pairs,
        "patience": args.patience,
        "layers": args.layers,
        "grow": args.grow,
        "teacher": str(args.teacher) if args.teacher else None,
        "teacher_weight": args.teacher_weight,
    }
    return dataclasses.replace(config, **{k: v for k, v in overrides.items() if v is not None})


def _pack(args: argparse.Namespace, data: Path, config: TrainConfig) -> None:
    """Build the stage's mix and its held-out sets, tokenised, into one compact file."""
    from tokenizers import Tokenizer

    from .data import build_mix, heldout_sets
    from .pack import pack_mix_name, write_pack
    from .train import base_model_dir, encode

    if config.mix.commercial_only or config.mix.sources:
        raise SystemExit(
            "pack the whole mix: --commercial-only filters a pack when training "
            "(and --sources is for a run from the data)"
        )
    tokenizer = Tokenizer.from_file(str(base_model_dir(config.base) / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    examples, manifest = build_mix(data, config.mix)
    groups = {pack_mix_name(): examples, **heldout_sets(data, config.mix, limit=None)}
    summary = write_pack(
        args.pack,
        json.loads(json.dumps(dataclasses.asdict(config.mix))),
        config.max_length,
        {
            name: (
                encode(tokenizer, part, config.max_length),
                np.array([e.label for e in part]),
                [e.source for e in part],
            )
            for name, part in groups.items()
        },
        {k: dict(v) for k, v in manifest.items()},
    )
    print(json.dumps(summary, indent=1))


def _base_pack(args: argparse.Namespace, config: TrainConfig) -> None:
    from .pack import read_pack, write_base
    from .train import base_model_dir

    used = np.unique(
        np.concatenate(
            [
                np.concatenate(
                    [np.unique(np.concatenate(group[0])) for group in pack.groups.values()]
                )
                for pack in (read_pack(path) for path in args.packs)
            ]
        )
    )
    written = write_base(
        base_model_dir(config.base), used, args.out, embeddings_only=args.embeddings_only
    )
    print(json.dumps(written, indent=1))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training", description=__doc__)
    parser.add_argument(
        "command", choices=["train", "export", "evaluate", "all", "pack", "base-pack"]
    )
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
    parser.add_argument(
        "--with-hard-cases",
        metavar="A,B",
        help="add these optional hard-case generators to the attribution stage's mix, "
        f"{HARD_CASE_PAIRS:,} pairs each before --scale, or NAME=N pairs (a GPU round: "
        f"role_swaps=20000; FEVER gives about 21,500 role swaps): {', '.join(OPTIONAL_HARD_CASES)}",
    )
    parser.add_argument(
        "--sources",
        default=None,
        metavar="A,B",
        help="only these sources of the stage's mix (comma-separated; default all; names as in "
        "the mix's manifest)",
    )
    parser.add_argument("--freeze-layers", type=int, default=0)
    parser.add_argument(
        "--layers",
        type=int,
        default=None,
        help="keep only the lower this many transformer layers (a faster judge; default all); "
        "above 6, up to 12, a deeper judge whose added layers start as copies (--grow)",
    )
    parser.add_argument(
        "--grow",
        choices=("stack", "interleave"),
        default=None,
        help="how a deeper judge (--layers above the base's) copies the base's layers: 'stack', "
        "all of them again on top (default); 'interleave', each again after itself",
    )
    parser.add_argument(
        "--teacher",
        type=Path,
        default=None,
        help="an exported judge's .onnx file whose probabilities the run also learns "
        "(distillation, e.g. of a --layers student from the shipped model)",
    )
    parser.add_argument(
        "--teacher-weight",
        type=float,
        default=None,
        help="with --teacher: the share of the loss from the teacher's probabilities (0.5)",
    )
    parser.add_argument("--epochs", type=float, default=None)
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: all)")
    parser.add_argument("--budget-minutes", type=float, default=None)
    parser.add_argument(
        "--finish-at-budget",
        action="store_true",
        help="when --budget-minutes runs out, finish the run with its best weights",
    )
    parser.add_argument(
        "--precision",
        choices=["auto", "bf16", "fp32"],
        default="auto",
        help="bf16: bfloat16 autocast (auto: where the CPU has AMX or AVX-512 BF16)",
    )
    parser.add_argument("--heldout-limit", type=int, default=2000)
    parser.add_argument(
        "--pack",
        type=Path,
        default=None,
        help="pack: the file to write; train: train from this mix pack instead of --data",
    )
    parser.add_argument(
        "--packs", type=Path, nargs="*", default=[], help="base-pack: the packs it must serve"
    )
    parser.add_argument(
        "--embeddings-only",
        action="store_true",
        help="base-pack: keep only the word embeddings (for runs started with --init-round)",
    )
    parser.add_argument(
        "--device", default="cpu", help="train: torch device (cuda on a GPU machine)"
    )
    parser.add_argument(
        "--base-dir",
        type=Path,
        default=None,
        help="train: the base encoder's folder, or a base pack (unpacked into --out)",
    )
    for name, kind in (
        ("batch-size", int),
        ("learning-rate", float),
        ("head-learning-rate", float),
        ("warmup-fraction", float),
        ("eval-steps", int),
        ("eval-pairs", int),
        ("patience", int),
    ):
        parser.add_argument(
            f"--{name}", type=kind, default=None, help="overrides the stage's default"
        )
    return parser


def _check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse option values no run can use, before any data is read (a usage error)."""
    bounds: list[tuple[str, object, bool, str]] = [
        ("--scale", args.scale, 0 < args.scale <= 1, "in (0, 1]"),
        ("--freeze-layers", args.freeze_layers, 0 <= args.freeze_layers <= BASE_LAYERS,
         f"0 to {BASE_LAYERS}"),
        ("--heldout-limit", args.heldout_limit, args.heldout_limit >= 1, "1 or more"),
    ]  # fmt: skip
    optional = (
        ("--epochs", args.epochs, lambda v: v > 0, "above 0"),
        ("--threads", args.threads, lambda v: v >= 1, "1 or more"),
        ("--budget-minutes", args.budget_minutes, lambda v: v >= 0, "0 or more"),
        ("--layers", args.layers, lambda v: 1 <= v <= 2 * BASE_LAYERS, f"1 to {2 * BASE_LAYERS}"),
        ("--batch-size", args.batch_size, lambda v: v >= 1, "1 or more"),
        ("--learning-rate", args.learning_rate, lambda v: v > 0, "above 0"),
        ("--head-learning-rate", args.head_learning_rate, lambda v: v > 0, "above 0"),
        ("--warmup-fraction", args.warmup_fraction, lambda v: 0 <= v < 1, "in [0, 1)"),
        ("--eval-steps", args.eval_steps, lambda v: v >= 1, "1 or more"),
        ("--eval-pairs", args.eval_pairs, lambda v: v >= 1, "1 or more"),
        ("--patience", args.patience, lambda v: v >= 0, "0 or more"),
    )
    bounds += [(name, v, ok(v), said) for name, v, ok, said in optional if v is not None]
    for name, value, fine, said in bounds:
        if not fine or value != value:  # NaN is never fine
            parser.error(f"{name} must be {said}, got {value}")
    for name, path in (("--init-round", args.init_round), ("--teacher", args.teacher)):
        if path is not None and not path.exists():
            parser.error(f"{name} {path}: no such file or folder")


def stage_config(argv: list[str]) -> TrainConfig:
    """The run configuration that these command-line options give (nothing is run)."""
    parser = _parser()
    args = parser.parse_args(argv)
    _check(parser, args)
    return _config(args)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    _check(parser, args)
    if args.command == "base-pack":
        if not args.packs or args.out is None:
            parser.error("base-pack needs --packs and --out")
        _base_pack(args, TrainConfig())
        return 0
    data = args.data or _data_root()
    if not data.is_dir() and not (args.command == "train" and args.pack):
        parser.error(f"no NLI data at {data}: pass --data")
    config = _config(args)
    if args.command == "pack":
        if args.pack is None:
            parser.error("pack needs --pack FILE")
        _pack(args, data, config)
        return 0
    # each stage, and the commercial-only build of each, has its own run and round folders
    suffix = ("-attribution" if args.stage == "attribution" else "") + (
        "-commercial" if args.commercial_only else ""
    )
    args.out = args.out or Path(f"{DEFAULT_OUT}{suffix}")
    args.round = args.round or Path(f"{DEFAULT_ROUND}{suffix}")
    if args.command in ("train", "all"):
        from .train import train

        base_dir = args.base_dir
        if base_dir is not None and (base_dir / "model.fp16.safetensors.xz").is_file():
            from .pack import read_base

            base_dir = read_base(base_dir, args.out / "base")
        try:
            record = train(
                config,
                data,
                args.out,
                round_dir=args.round,
                budget_minutes=args.budget_minutes,
                bf16={"auto": None, "bf16": True, "fp32": False}[args.precision],
                pack=args.pack,
                device=args.device,
                base_dir=base_dir,
                finish_at_budget=args.finish_at_budget,
            )
        except KeyboardInterrupt as exc:  # SIGINT or SIGTERM (train() saves if it was training)
            print(
                f"stopped ({exc or 'SIGINT'}): run the same command again to resume from the "
                "last saved checkpoint or round",
                file=sys.stderr,
            )
            return 130
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
