"""In-domain pairs: the *train* part of the labelled attribution data.

The development half of each attribution dataset is split once (``benchmarks/splits``, grouped
so that no question, answer or source page lies on both sides); only records of the ``train``
part ever become training pairs here. Thresholds, the signal combination and every reported
figure use the ``validation`` part (the harness's default).

Each example becomes ``(passage, claim, label)``: the evidence it was judged against, cut to
the window most about the claim (as long premises are elsewhere in the mix), with label
entailment for supported, neutral for partially supported, and "not entailment" for not
supported (the datasets do not say whether the evidence contradicts or is silent).
"""

from __future__ import annotations

import random
from pathlib import Path

from ._io import NOT_ENTAILED, Example

__all__ = ["IN_DOMAIN_DATASETS", "in_domain"]

IN_DOMAIN_DATASETS = ("expertqa", "attributionbench", "wice", "lfqa")
"""The datasets whose train part may train the verifier (FaithBench judges whole summaries
against whole articles, a different unit, and stays for evaluation)."""


def _label(label: bool | None, raw: str) -> int | None:
    if label is True:
        return 0
    if label is False:
        return NOT_ENTAILED
    return 1 if "partial" in raw.lower() else None


def in_domain(
    data_root: Path, dataset: str, n: int, rng: random.Random, *, split: str = "train"
) -> list[Example]:
    """Up to ``n`` pairs from ``dataset``'s ``split`` part (shuffled with ``rng``)."""
    from benchmarks.datasets import filter_split, load_verification

    from .data import PASSAGE_WORDS, _window

    if dataset not in IN_DOMAIN_DATASETS:
        raise ValueError(f"{dataset!r} is not one of {IN_DOMAIN_DATASETS}")
    if dataset == "wice":
        return _wice(data_root, n, rng, split=split)
    loaded = load_verification(data_root, dataset)  # type: ignore[arg-type]
    if loaded.status != "ok":
        return []
    kept = filter_split(loaded.examples, split, data_root=data_root)
    out: list[Example] = []
    for example in kept:
        label = _label(example.label, example.raw_label)
        if label is None:
            continue
        evidence = "\n".join(e for e in example.evidence if e.strip())
        passage = _window(evidence, example.claim, PASSAGE_WORDS)
        if passage.strip() and example.claim.strip():
            out.append(Example(passage, example.claim, label, f"in_domain_{dataset}"))
    rng.shuffle(out)
    return out[:n]


def _wice(data_root: Path, n: int, rng: random.Random, *, split: str) -> list[Example]:
    """WiCE cites whole articles; the passage is the first gold sentence set with one sentence
    of context on each side (so a supported label is about text the passage holds). A
    not-supported claim gets the window of its article most about it."""
    from benchmarks.datasets import filter_split, load_wice

    from .data import PASSAGE_WORDS, _window

    loaded = load_wice(data_root)
    if loaded.status != "ok":
        return []
    out: list[Example] = []
    for record in filter_split(loaded.records, split, data_root=data_root):
        label = _label(record.label, record.raw_label)
        sentences = record.evidence
        if label is None or not sentences:
            continue
        gold = next((g for g in record.supporting_sentences if g), None)
        if gold is not None and label != NOT_ENTAILED:
            lo, hi = max(0, min(gold) - 1), min(len(sentences), max(gold) + 2)
            keep = sorted({*range(lo, min(gold) + 1), *gold, *range(max(gold), hi)})
            passage = " ".join(sentences[i] for i in keep if 0 <= i < len(sentences))
        elif label == NOT_ENTAILED:
            passage = _window(" ".join(sentences), record.claim, PASSAGE_WORDS)
        else:
            continue  # supported, but no gold set says where
        if passage.strip():
            out.append(Example(passage, record.claim, label, "in_domain_wice"))
    rng.shuffle(out)
    return out[:n]
