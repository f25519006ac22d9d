"""One fixed train/validation split of the development data, grouped so that nothing leaks.

The development half of every dataset is split once, about 70% train / 30% validation, and the
split is committed as record ids in ``benchmarks/splits/<dataset>.json``. Models may be trained
on ``train``; every reported figure and every fitted threshold uses ``validation`` only.

**Grouping.** Every record of every dataset (the flattened :class:`VerificationExample`\\ s and
the richer records of :func:`load_expertqa`, :func:`load_wice`, :func:`load_lfqa`,
:func:`load_faithbench`) gets keys, and a union-find over *all* datasets at once joins records
that share one, so the train and validation parts never share a key:

- ``question``: the normalised question (ExpertQA, LFQA, AttributionBench) or the Wikipedia
  text around the claim (WiCE ``claim_context``);
- ``topic``: the Wikipedia article a WiCE claim comes from (``claim_title``);
- ``answer``: one system's answer, question + system (ExpertQA) or question + setting (LFQA);
- ``claim``: the normalised claim, sentence or summary, when it has four words or more (so that
  a repeated stock phrase does not chain unrelated questions together);
- ``page``: each source page the record was judged against: its URL where the record gives one
  (ExpertQA evidence and reference lists, AttributionBench ``[n] url`` references) and always
  the hash of its normalised text (ExpertQA and AttributionBench evidence passages, a WiCE
  article, an LFQA document, a FaithBench source).

Texts are normalised before hashing (NFKC, case-folded, ``[n]`` markers dropped, runs of
punctuation and whitespace made one space); URLs lose their scheme, ``www.``, fragment and
trailing slash. So AttributionBench's ExpertQA and LFQA rows, which repeat rows of those two
datasets, land on the side of their originals; a WiCE article, an LFQA document or a FaithBench
source shared by several records keeps them together.

**Assignment.** Whole components go to one side, largest first (components of equal size in an
order shuffled with the fixed seed :data:`SEED` from their sorted names), each to the side that
keeps every dataset's validation share of records, of flattened examples and of each label
(supported, not supported) closest to :data:`VALIDATION_SHARE` (cross-dataset components weigh
on each dataset they touch). The result depends on the data only: the same data gives the same
split on any machine.

**Ids.** The ids the records already carry: :attr:`VerificationExample.example_id`, and for the
richer records their ``example_id`` (ExpertQA answers ``expertqa:<stem>:<row>:<system>`` and
their claims ``...:<index>``, LFQA answers ``lfqa:<stem>:<row>`` and their sentences
``...:<index>``, WiCE claims and FaithBench samples, which share their flattened example's id).
A split file lists both levels, so a record of either view can be looked up.

**Records the split does not know count as validation.** The other half of the data (kept
apart, read with the same loaders) must always be evaluated whole. Its ids are not in the lists,
and where its files have the same names as this half's (LFQA's ``annotations-<setting>.json``
hold 50 of the 100 questions in each half), ids such as ``lfqa:annotations-webgpt:0`` would
collide. So each split file records the sha256 of the files it was made from, and a
:class:`SplitFilter` applies a dataset's split only when every one of those files is, unchanged,
under the data root it filters; otherwise every record of that dataset counts as validation
(and the filter says so in :attr:`SplitFilter.notes`). ``all`` keeps everything.

Run ``python -m benchmarks.datasets.split [--data-root DIR]`` to write the split files and
``... --check`` to verify the committed ones against the data (exit status 1 on a difference or
a key found on both sides).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal, Protocol, TypeVar

import msgspec

from attribution import ConfigError

from ._expertqa import ExpertQAAnswer, load_expertqa
from ._faithbench import FaithBenchSample, load_faithbench
from ._lfqa import LFQAAnswer, load_lfqa
from ._load import DATA_ROOT_ENV, default_data_root, load_all
from ._types import DATASETS, DatasetLoad, DatasetName, VerificationExample
from ._wice import WiCEClaim, load_wice

__all__ = [
    "CLAIM_MIN_WORDS",
    "METHOD",
    "SEED",
    "SPLITS_DIR",
    "SPLIT_NAMES",
    "VALIDATION_SHARE",
    "Side",
    "SplitBuild",
    "SplitFile",
    "SplitFilter",
    "SplitName",
    "SplitUnit",
    "assign_components",
    "build_split",
    "check_split",
    "filter_split",
    "in_split",
    "main",
    "normalise_text",
    "normalise_url",
    "read_split",
    "shared_keys",
    "split_units",
    "write_split",
]

SplitName = Literal["validation", "train", "all"]
"""Which records a run sees: one side of the split, or everything."""

Side = Literal["train", "validation"]
"""The two sides of the split."""

SPLIT_NAMES: tuple[SplitName, ...] = ("validation", "train", "all")
"""Every split name, the default (``validation``) first."""

SIDES: tuple[Side, ...] = ("train", "validation")

SEED = 20250611
"""The fixed seed that orders components of equal size."""

VALIDATION_SHARE = 0.3
"""The share of each dataset's records the validation side aims at."""

CLAIM_MIN_WORDS = 4
"""A claim shorter than this (after normalisation) gets no ``claim`` key."""

SPLITS_DIR = Path(__file__).resolve().parents[1] / "splits"
"""Where the committed split files live: ``benchmarks/splits/<dataset>.json``."""

METHOD = (
    "Union-find over the records of all five datasets at once, joining records that share a "
    "normalised question or context, a WiCE Wikipedia title, an answer (question + system or "
    "setting), a claim of four words or more, or a source page (its URL, and the hash of its "
    "normalised text); whole components then go to train or validation, largest first (equal "
    "sizes in seeded random order), each to the side that keeps every dataset's validation "
    "share of records, of flattened examples and of each label closest to 30%."
)
"""One sentence saying how the split was made (written into every split file)."""

_MARKER = re.compile(r"\[\d+\]")
_NON_WORD = re.compile(r"[\W_]+")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
# "[n] url\n\npassage", as ExpertQA writes evidence and AttributionBench its ExpertQA references
_REFERENCE = re.compile(r"\s*\[\d+\][ \t]*(https?://\S+|www\.\S+)?(.*)", re.DOTALL)


# -- keys -------------------------------------------------------------------------------------


def normalise_text(text: str | None) -> str:
    """NFKC, case-folded, ``[n]`` markers dropped, punctuation and whitespace runs one space."""
    if not text:
        return ""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_NON_WORD.sub(" ", _MARKER.sub(" ", folded)).split())


def normalise_url(url: str) -> str:
    """A URL without scheme, ``www.``, fragment and trailing slash; host lower-cased."""
    url = url.strip().rstrip(".,;:)]}>\"'")
    url = _SCHEME.sub("", url).split("#", 1)[0]
    host, _, path = url.partition("/")
    host = host.lower().removeprefix("www.")
    path = path.rstrip("/")
    return host + ("/" + path if path else "")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _text_key(kind: str, text: str | None, min_words: int = 1) -> list[str]:
    norm = normalise_text(text)
    if not norm or len(norm.split()) < min_words:
        return []
    return [f"{kind}:{_digest(norm)}"]


def _question_keys(text: str | None) -> list[str]:
    return _text_key("question", text)


def _answer_keys(question: str | None, system: str) -> list[str]:
    norm = normalise_text(question)
    return [f"answer:{_digest(norm + chr(0) + system)}"] if norm else []


def _claim_keys(text: str | None) -> list[str]:
    return _text_key("claim", text, CLAIM_MIN_WORDS)


def _page_text_keys(text: str | None) -> list[str]:
    return _text_key("page", text)


def _page_url_keys(url: str | None) -> list[str]:
    norm = normalise_url(url) if url else ""
    return [f"page:url:{norm}"] if norm else []


def _reference_keys(reference: str) -> list[str]:
    """A reference or passage: ``[n] url`` header split off (URL key), then the text's hash."""
    found = _REFERENCE.fullmatch(reference)
    if found is None:
        return _page_text_keys(reference)
    body = found.group(2).strip()
    return _page_url_keys(found.group(1)) + _page_text_keys(body or reference)


# -- units ------------------------------------------------------------------------------------


@dataclass
class SplitUnit:
    """Records that always go together: a rich record with its sub-records, or one example."""

    dataset: DatasetName
    ids: list[str]
    """The record ids: the rich record's, then its claims' or sentences' (or one example's)."""
    keys: set[str] = field(default_factory=set)
    """Question, topic, answer, claim and page keys (see the module docstring)."""
    records: int = 1
    """Leaf records: ExpertQA claims, AttributionBench rows, WiCE claims, LFQA sentences,
    FaithBench samples."""
    examples: int = 0
    """Flattened verification examples among them."""
    supported: int = 0
    """Flattened examples labelled supported."""
    not_supported: int = 0
    """Flattened examples labelled not supported."""


def _expertqa_unit(answer: ExpertQAAnswer) -> SplitUnit:
    keys = [*_question_keys(answer.question), *_answer_keys(answer.question, answer.system)]
    for claim in answer.claims:
        keys += _claim_keys(claim.text)
        for ev in claim.evidence:
            keys += _page_url_keys(ev.url) + _page_text_keys(ev.passage)
    for url in answer.sources.values():
        keys += _page_url_keys(url)
    return SplitUnit(
        dataset="expertqa",
        ids=[answer.example_id, *(claim.example_id for claim in answer.claims)],
        keys=set(keys),
        records=len(answer.claims),
    )


def _wice_unit(claim: WiCEClaim) -> SplitUnit:
    keys = [
        *_question_keys(claim.context),
        *_text_key("topic", claim.title),
        *_claim_keys(claim.claim),
        *_page_text_keys(" ".join(claim.evidence)),
    ]
    return SplitUnit(dataset="wice", ids=[claim.example_id], keys=set(keys))


def _lfqa_unit(answer: LFQAAnswer) -> SplitUnit:
    keys = [*_question_keys(answer.question), *_answer_keys(answer.question, answer.setting)]
    for sentence in answer.sentences:
        keys += _claim_keys(sentence.text)
    for doc in answer.documents:
        keys += _page_text_keys(doc.text)
    return SplitUnit(
        dataset="lfqa",
        ids=[answer.example_id, *(s.example_id for s in answer.sentences)],
        keys=set(keys),
        records=len(answer.sentences),
    )


def _faithbench_unit(sample: FaithBenchSample) -> SplitUnit:
    keys = [*_claim_keys(sample.summary), *_page_text_keys(sample.source)]
    return SplitUnit(dataset="faithbench", ids=[sample.example_id], keys=set(keys))


def _example_keys(example: VerificationExample) -> list[str]:
    keys = [*_question_keys(example.context), *_claim_keys(example.claim)]
    if example.dataset in ("expertqa", "lfqa"):
        keys += _answer_keys(example.context, example.group)  # group: system or setting
    if example.dataset == "wice":
        keys += _page_text_keys(" ".join(example.evidence))  # the sentences of one article
    elif example.dataset == "faithbench":
        keys += _page_text_keys(example.evidence[0])
    else:
        for text in example.evidence:
            keys += _reference_keys(text)
    return keys


def split_units(
    root: Path,
) -> tuple[list[SplitUnit], dict[DatasetName, DatasetLoad], dict[DatasetName, dict[str, str]]]:
    """Every record under ``root`` as split units, the flattened loads, and each dataset's files.

    Returns:
        ``(units, flat, files)``: units in dataset then file order; the flattened loads (for
        counts); per dataset present, its files (relative to ``root``) with their sha256.
    """
    flat = load_all(root)
    units: list[SplitUnit] = []
    files: dict[DatasetName, set[str]] = {}
    expertqa, wice = load_expertqa(root), load_wice(root)
    lfqa, faithbench = load_lfqa(root), load_faithbench(root)
    rich: list[tuple[DatasetName, list[SplitUnit], tuple[str, ...]]] = [
        ("expertqa", [_expertqa_unit(a) for a in expertqa.records], expertqa.files),
        ("wice", [_wice_unit(c) for c in wice.records], wice.files),
        ("lfqa", [_lfqa_unit(a) for a in lfqa.records], lfqa.files),
        ("faithbench", [_faithbench_unit(s) for s in faithbench.records], faithbench.files),
    ]
    for dataset, dataset_units, dataset_files in rich:
        units += dataset_units
        if dataset_files:
            files.setdefault(dataset, set()).update(dataset_files)
    by_id = {rid: unit for unit in units for rid in unit.ids}
    for dataset in DATASETS:
        load = flat[dataset]
        if load.status == "ok":
            files.setdefault(dataset, set()).update(load.files)
        for example in load.examples:
            unit = by_id.get(example.example_id)
            if unit is None:  # AttributionBench (no richer view), or an example of its own
                unit = SplitUnit(dataset=dataset, ids=[example.example_id])
                units.append(unit)
                by_id[example.example_id] = unit
            unit.keys.update(_example_keys(example))
            unit.examples += 1
            unit.supported += example.label is True
            unit.not_supported += example.label is False
    hashed = {
        dataset: {rel: _file_sha256(root / rel) or "unreadable" for rel in sorted(found)}
        for dataset, found in files.items()
    }
    return units, flat, hashed


# -- components and assignment ------------------------------------------------------------


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, node: str) -> str:
        root = self.parent.setdefault(node, node)
        while root != self.parent[root]:
            root = self.parent[root]
        while node != root:  # path compression
            self.parent[node], node = root, self.parent[node]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def components(units: Sequence[SplitUnit]) -> list[list[SplitUnit]]:
    """Units joined through shared keys, each component's units in input order; sorted by the
    smallest id in each."""
    forest = _UnionFind()
    for unit in units:
        node = "id:" + unit.ids[0]
        forest.find(node)
        for rid in unit.ids[1:]:
            forest.union(node, "id:" + rid)
        for key in unit.keys:  # "question:...", "page:...": never "id:..."
            forest.union(node, key)
    groups: dict[str, list[SplitUnit]] = {}
    for unit in units:
        groups.setdefault(forest.find("id:" + unit.ids[0]), []).append(unit)
    return sorted(groups.values(), key=lambda group: min(i for u in group for i in u.ids))


Dim = tuple[DatasetName, Literal["records", "examples", "supported", "not_supported"]]


def _dims(group: Sequence[SplitUnit]) -> Counter[Dim]:
    counts: Counter[Dim] = Counter()
    for unit in group:
        counts[(unit.dataset, "records")] += unit.records
        counts[(unit.dataset, "examples")] += unit.examples
        counts[(unit.dataset, "supported")] += unit.supported
        counts[(unit.dataset, "not_supported")] += unit.not_supported
    return counts


def assign_components(
    groups: Sequence[Sequence[SplitUnit]], *, seed: int = SEED, share: float = VALIDATION_SHARE
) -> list[Side]:
    """The side of each component (in the order given): greedy, largest component first.

    Each component goes to the side that keeps the validation share of every dataset's records,
    flattened examples, supported and not-supported examples, among the components placed so
    far, closest to ``share`` (squared deviations, each count normalised by its total); a tie
    goes to train.
    """
    sizes = [_dims(group) for group in groups]
    totals: Counter[Dim] = Counter()
    for size in sizes:
        totals.update(size)
    order = list(range(len(groups)))
    random.Random(seed).shuffle(order)
    order.sort(key=lambda i: -sum(n / totals[d] for d, n in sizes[i].items() if n))
    seen: Counter[Dim] = Counter()
    valid: Counter[Dim] = Counter()
    sides: list[Side] = ["train"] * len(groups)
    for i in order:
        cost: dict[Side, float] = {}
        for side in SIDES:
            cost[side] = 0.0
            for dim, n in sizes[i].items():
                if not n:
                    continue
                v = valid[dim] + (n if side == "validation" else 0)
                cost[side] += ((v - share * (seen[dim] + n)) / totals[dim]) ** 2
        side = "validation" if cost["validation"] < cost["train"] else "train"
        sides[i] = side
        for dim, n in sizes[i].items():
            seen[dim] += n
            if side == "validation":
                valid[dim] += n
    return sides


# -- split files ------------------------------------------------------------------------------


class SplitFile(msgspec.Struct, frozen=True, kw_only=True):
    """One dataset's committed split: ``benchmarks/splits/<dataset>.json``."""

    dataset: DatasetName
    seed: int
    method: str
    counts: dict[str, int]
    """Ids listed per side (rich records and their sub-records both count)."""
    records: dict[str, int]
    """Leaf records per side (claims, rows, sentences, samples)."""
    examples: dict[str, int]
    """Flattened verification examples per side."""
    validation_fraction: dict[str, float]
    """The validation side's share of ``records`` and of ``examples``."""
    files: dict[str, str]
    """The files (relative to the data root) the split was made from, with their sha256: the
    split applies to data under a root only where all of them are there, unchanged."""
    train: list[str]
    validation: list[str]


@dataclass
class SplitBuild:
    """A split computed from the data: the files to commit and what was learnt on the way."""

    files: dict[DatasetName, SplitFile]
    units: list[SplitUnit]
    groups: list[list[SplitUnit]]
    sides: list[Side]
    flat: dict[DatasetName, DatasetLoad]

    def largest_component(self, dataset: DatasetName) -> tuple[int, int]:
        """(records of ``dataset`` in its largest component, records of ``dataset`` in all)."""
        counts = [sum(u.records for u in g if u.dataset == dataset) for g in self.groups]
        return max(counts, default=0), sum(counts)

    def side_of(self) -> dict[str, Side]:
        """Every record id and its side."""
        return {
            rid: side
            for g, side in zip(self.groups, self.sides, strict=True)
            for u in g
            for rid in u.ids
        }


def _fraction(valid: int, total: int) -> float:
    return round(valid / total, 4) if total else 0.0


def build_split(
    root: Path | str, *, seed: int = SEED, share: float = VALIDATION_SHARE
) -> SplitBuild:
    """Compute the split of the data under ``root`` (nothing is written).

    Datasets missing under ``root`` get no split file.
    """
    root = Path(root)
    units, flat, hashed = split_units(root)
    groups = components(units)
    sides = assign_components(groups, seed=seed, share=share)
    files: dict[DatasetName, SplitFile] = {}
    for dataset in DATASETS:
        if dataset not in hashed:
            continue
        ids: dict[Side, list[str]] = {"train": [], "validation": []}
        records: Counter[Side] = Counter()
        examples: Counter[Side] = Counter()
        for group, side in zip(groups, sides, strict=True):
            for unit in group:
                if unit.dataset == dataset:
                    ids[side] += unit.ids
                    records[side] += unit.records
                    examples[side] += unit.examples
        files[dataset] = SplitFile(
            dataset=dataset,
            seed=seed,
            method=METHOD,
            counts={side: len(ids[side]) for side in SIDES},
            records={side: records[side] for side in SIDES},
            examples={side: examples[side] for side in SIDES},
            validation_fraction={
                "records": _fraction(records["validation"], sum(records.values())),
                "examples": _fraction(examples["validation"], sum(examples.values())),
            },
            files=hashed[dataset],
            train=sorted(ids["train"]),
            validation=sorted(ids["validation"]),
        )
    return SplitBuild(files=files, units=units, groups=groups, sides=sides, flat=flat)


def _split_path(dataset: str, splits_dir: Path | None) -> Path:
    return (SPLITS_DIR if splits_dir is None else splits_dir) / f"{dataset}.json"


def encode_split(split: SplitFile) -> bytes:
    """A split file's bytes: indented JSON, one id a line."""
    return msgspec.json.format(msgspec.json.encode(split), indent=2) + b"\n"


def write_split(build: SplitBuild, splits_dir: Path | None = None) -> list[Path]:
    """Write every dataset's split file of ``build``; returns the paths written."""
    written = []
    for dataset, split in build.files.items():
        path = _split_path(dataset, splits_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encode_split(split))
        written.append(path)
    return written


def read_split(dataset: str, splits_dir: Path | None = None) -> SplitFile | None:
    """The committed split of ``dataset``; None when there is no file.

    Raises:
        ConfigError: the file is not a valid split file.
    """
    path = _split_path(dataset, splits_dir)
    try:
        stat = path.stat()
    except OSError:
        return None
    return _read_split(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=64)
def _read_split(path: Path, size: int, mtime_ns: int) -> SplitFile:
    del size, mtime_ns  # cache keys only
    try:
        return msgspec.json.decode(path.read_bytes(), type=SplitFile)
    except (OSError, msgspec.DecodeError) as exc:
        raise ConfigError(f"{path}: not a valid split file: {exc}") from exc


def _file_sha256(path: Path) -> str | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return _sha256(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=256)
def _sha256(path: Path, size: int, mtime_ns: int) -> str | None:
    del size, mtime_ns  # cache keys only
    digest = hashlib.sha256()
    try:
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def _mismatched_files(split: SplitFile, root: Path) -> list[str]:
    """The split's files that are absent or different under ``root``."""
    return [rel for rel, sha in split.files.items() if _file_sha256(root / rel) != sha]


# -- filtering --------------------------------------------------------------------------------


class _HasId(Protocol):
    @property
    def example_id(self) -> str: ...


R = TypeVar("R", bound=_HasId)


def dataset_of(record_id: str) -> str:
    """The dataset an id belongs to: its first ``:``-separated part."""
    return record_id.split(":", 1)[0]


class SplitFilter:
    """Which records one split keeps, for the data under one root.

    A dataset's committed split applies only when every file it was made from is under the
    root, unchanged; otherwise (the held-out half, changed data, no split file) all that
    dataset's records count as validation, with a line in :attr:`notes`. Records whose id is
    in neither list count as validation too.
    """

    def __init__(
        self, split: str, data_root: Path | str, *, splits_dir: Path | None = None
    ) -> None:
        if split not in SPLIT_NAMES:
            raise ConfigError(f"unknown split {split!r}; expected one of {', '.join(SPLIT_NAMES)}")
        self.split: SplitName = split
        self.data_root = Path(data_root)
        self.splits_dir = splits_dir
        self.notes: list[str] = []
        """Datasets whose committed split does not apply under ``data_root``, and why."""
        self._train: dict[str, frozenset[str]] = {}

    def train_ids(self, dataset: str) -> frozenset[str]:
        """The ids that count as train for ``dataset`` under this root (empty when the split
        does not apply there)."""
        if dataset not in self._train:
            self._train[dataset] = self._load_train(dataset)
        return self._train[dataset]

    def _load_train(self, dataset: str) -> frozenset[str]:
        if dataset not in DATASETS:
            return frozenset()
        path = _split_path(dataset, self.splits_dir)
        split = read_split(dataset, self.splits_dir)
        if split is None:
            self.notes.append(
                f"split: no committed split for {dataset} ({path}); all its records count as "
                "validation"
            )
            return frozenset()
        if bad := _mismatched_files(split, self.data_root):
            self.notes.append(
                f"split: {dataset}: {len(bad)} of the {len(split.files)} files the split was "
                f"made from are absent or changed under {self.data_root} (first: {bad[0]}); "
                f"all {dataset} records there count as validation"
            )
            return frozenset()
        return frozenset(split.train)

    def side(self, dataset: str, record_id: str) -> Side:
        """``train`` when the applicable split lists the id as train, else ``validation``."""
        return "train" if record_id in self.train_ids(dataset) else "validation"

    def keeps(self, dataset: str, record_id: str) -> bool:
        """Whether this split keeps the record."""
        return self.split == "all" or self.side(dataset, record_id) == self.split

    def filter(self, records: Iterable[R]) -> list[R]:
        """The records this split keeps (the dataset read from each id's prefix), in order."""
        return [r for r in records if self.keeps(dataset_of(r.example_id), r.example_id)]


@lru_cache(maxsize=32)
def _cached_filter(split: str, data_root: Path, splits_dir: Path | None) -> SplitFilter:
    return SplitFilter(split, data_root, splits_dir=splits_dir)


def in_split(
    dataset: str,
    record_id: str,
    split: str,
    *,
    data_root: Path | str,
    splits_dir: Path | None = None,
) -> bool:
    """Whether ``split`` (``all``, ``train``, ``validation``) keeps the record.

    ``data_root`` is the data the record was loaded from: the committed split applies only
    where its files are there unchanged (see :class:`SplitFilter`); unknown records count as
    validation.
    """
    return _cached_filter(split, Path(data_root), splits_dir).keeps(dataset, record_id)


def filter_split(
    records: Iterable[R],
    split: str,
    *,
    data_root: Path | str,
    splits_dir: Path | None = None,
) -> list[R]:
    """The records (anything with an ``example_id``) that ``split`` keeps, in order."""
    return _cached_filter(split, Path(data_root), splits_dir).filter(records)


# -- checking ---------------------------------------------------------------------------------


def shared_keys(units: Sequence[SplitUnit], side_of: Mapping[str, Side]) -> list[str]:
    """Problems of an assignment: a unit whose ids lie on both sides, or a key (question,
    answer, claim, page) found on both sides, within or across datasets. Ids not in
    ``side_of`` count as validation."""
    problems: list[str] = []
    key_sides: dict[str, dict[Side, str]] = {}
    for unit in units:
        sides = {side_of.get(rid, "validation") for rid in unit.ids}
        if len(sides) > 1:
            problems.append(f"{unit.ids[0]}: its records lie on both sides")
        side: Side = "train" if sides == {"train"} else "validation"
        for key in unit.keys:
            key_sides.setdefault(key, {}).setdefault(side, unit.ids[0])
    for key, where in sorted(key_sides.items()):
        if len(where) > 1:
            problems.append(
                f"key {key} on both sides: {where['train']} (train), "
                f"{where['validation']} (validation)"
            )
    return problems


def _compare(fresh: SplitFile, committed: SplitFile) -> list[str]:
    name = fresh.dataset
    if fresh == committed:
        return []
    problems = []
    if fresh.files != committed.files:
        problems.append(f"{name}: the data files differ from those the split was made from")
    was = {rid: "train" for rid in committed.train} | {
        rid: "validation" for rid in committed.validation
    }
    now = {rid: "train" for rid in fresh.train} | {rid: "validation" for rid in fresh.validation}
    only_data = sorted(set(now) - set(was))
    only_file = sorted(set(was) - set(now))
    moved = sorted(rid for rid in set(now) & set(was) if now[rid] != was[rid])
    for what, ids in (
        ("ids in the data but not in the split file", only_data),
        ("ids in the split file but not in the data", only_file),
        ("ids on another side than the data gives now", moved),
    ):
        if ids:
            problems.append(f"{name}: {len(ids)} {what} (first: {ids[0]})")
    if not problems:
        problems.append(f"{name}: the split file differs from the one the data gives now")
    return problems


def check_split(root: Path | str, splits_dir: Path | None = None) -> list[str]:
    """Problems with the committed split files against the data under ``root`` (empty: fine).

    Recomputes the split and compares it with each committed file (ids, sides, counts, data
    files), then checks that, with the committed assignment, no record is split and no key is
    found on both sides.
    """
    root = Path(root)
    build = build_split(root)
    problems: list[str] = []
    committed: dict[str, SplitFile] = {}
    for dataset in DATASETS:
        try:
            split = read_split(dataset, splits_dir)
        except ConfigError as exc:
            problems.append(str(exc))
            continue
        fresh = build.files.get(dataset)
        if split is None and fresh is not None:
            problems.append(f"{dataset}: no split file {_split_path(dataset, splits_dir)}")
        elif split is not None and fresh is None:
            problems.append(f"{dataset}: a split file is committed but no data is under {root}")
        elif split is not None and fresh is not None:
            committed[dataset] = split
            problems += _compare(fresh, split)
    side_of: dict[str, Side] = {}
    for split in committed.values():
        side_of.update(dict.fromkeys(split.train, "train"))
        side_of.update(dict.fromkeys(split.validation, "validation"))
    problems += shared_keys(build.units, side_of)
    return problems


# -- command line -----------------------------------------------------------------------------


def _summary(build: SplitBuild) -> list[str]:
    lines = [
        "| dataset | components | largest (records) | train ids | validation ids | "
        "validation share: records | examples | supported: train | validation |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    side_of = build.side_of()
    notes = []
    for dataset, split in build.files.items():
        groups = sum(1 for g in build.groups if any(u.dataset == dataset for u in g))
        largest, total = build.largest_component(dataset)
        supported: dict[Side, list[bool]] = {"train": [], "validation": []}
        for ex in build.flat[dataset].labelled:
            supported[side_of.get(ex.example_id, "validation")].append(bool(ex.label))
        share = {side: f"{sum(v) / len(v):.0%}" if v else "–" for side, v in supported.items()}
        frac = split.validation_fraction
        lines.append(
            f"| {dataset} | {groups} | {largest} ({largest / total:.0%}) | "
            f"{split.counts['train']} | {split.counts['validation']} | {frac['records']:.3f} | "
            f"{frac['examples']:.3f} | {share['train']} | {share['validation']} |"
        )
        if not 0.2 <= frac["records"] <= 0.4:
            notes.append(
                f"{dataset}: a {VALIDATION_SHARE:.0%} validation share is out of reach "
                f"(largest component: {largest} of {total} records); the components went "
                "where they balance best"
            )
    return lines + notes


def main(argv: Sequence[str] | None = None) -> int:
    """Write the split files, or ``--check`` the committed ones; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.datasets.split",
        description="Write (or --check) the committed train/validation split of every dataset.",
    )
    parser.add_argument(
        "--data-root",
        type=Path,
        help=f"folder holding the dataset folders (default: ${DATA_ROOT_ENV}, else "
        f"{default_data_root()})",
    )
    parser.add_argument(
        "--splits-dir", type=Path, default=SPLITS_DIR, help=f"split files (default: {SPLITS_DIR})"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="verify the committed split files against the data instead of writing them",
    )
    args = parser.parse_args(argv)
    root: Path = args.data_root or default_data_root()
    if args.check:
        problems = check_split(root, args.splits_dir)
        for problem in problems[:50]:
            print(f"split check: {problem}", file=sys.stderr)
        if len(problems) > 50:
            print(f"split check: ... and {len(problems) - 50} more", file=sys.stderr)
        if problems:
            print(
                f"split check FAILED ({len(problems)} problems); rewrite with "
                "`python -m benchmarks.datasets.split` if the data changed on purpose",
                file=sys.stderr,
            )
            return 1
        print(f"split check: the files in {args.splits_dir} match the data under {root}")
        return 0
    build = build_split(root)
    if not build.files:
        print(f"no dataset found under {root}; nothing written", file=sys.stderr)
        return 1
    problems = shared_keys(build.units, build.side_of())
    if problems:  # cannot happen: components never straddle sides
        for problem in problems:
            print(f"split: {problem}", file=sys.stderr)
        return 1
    for path in write_split(build, args.splits_dir):
        print(f"wrote {path}")
    missing = [d for d in DATASETS if d not in build.files]
    if missing:
        print(f"no data under {root} for {', '.join(missing)}: no split written", file=sys.stderr)
    print(f"\ndata root: {root} · seed {SEED} · target validation share {VALIDATION_SHARE}\n")
    print("\n".join(_summary(build)))
    return 0
