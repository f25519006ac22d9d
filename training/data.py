"""The training mix of the support verifier, built from ``../shared/data/nli``.

Every example is ``(passage, claim, label)`` with label 0 = entailment (the passage fully supports
the claim), 1 = neutral, 2 = contradiction, or 3 = "not entailment" where a dataset does not say
which of neutral and contradiction (binary sets); the loss for 3 is ``-log(1 - P(entailment))``.

What makes it look like attribution (short claims checked against ~150-word passages of a page):
- long premises: VitaminC, DocNLI's FEVER, SummEdits and QAGS windows, Climate-FEVER joined;
- buried evidence: FEVER gold sentences put among other sentences about the same subject;
- near misses: the evidence of a related claim (same subject), never only random pairs;
- numbers that disagree: a supported claim with one number changed (contradiction);
- partial support: two claims joined where the passage supports only one.

Held out (never trained on): VitaminC's last ``heldout_vitaminc`` examples after a fixed shuffle,
MNLI dev_matched, ANLI R1-R3 test. :func:`heldout_sets` returns them.
"""

from __future__ import annotations

import ast
import csv
import dataclasses
import functools
import json
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ._io import LABELS, NOT_ENTAILED, Example, open_text
from .generic import GENERIC_BUILDERS, LICENCES
from .hard_cases import HARD_CASE_BUILDERS, OPTIONAL_HARD_CASES
from .in_domain import IN_DOMAIN_DATASETS, in_domain

__all__ = [
    "HARD_CASE_PAIRS",
    "LABELS",
    "Example",
    "MixConfig",
    "attribution_stage",
    "build_mix",
    "heldout_sets",
]


_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“(])")
_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_WORD = re.compile(r"\w+")
_FEVER_TOKENS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-COLON-": ":"}

HARD_CASE_PAIRS = 5000
"""Pairs each hard-case generator gives the attribution stage's mix (before ``--scale``); an
optional one (``--with-hard-cases name[=N]``) as many unless told otherwise."""

PASSAGE_WORDS = 170
"""Long passages are cut to about this many words so that a 256-token window keeps them whole."""


@dataclass(frozen=True)
class MixConfig:
    """How many examples each source contributes at most (the mix is reproducible by seed).

    The defaults take (nearly) everything the data holds: about 300k pairs. ``scale`` shrinks
    every count (a smoke run uses a small scale).
    """

    seed: int = 13
    fever_pairs: int = 120000
    fever_buried: int = 30000
    vitaminc: int = 60000
    heldout_vitaminc: int = 4000
    docnli_fever: int = 18000
    mnli_binary: int = 19000
    anli_dev: int = 3200
    summedits: int = 6500
    qags: int = 4000
    climate_fever: int = 9000
    factcheck_gpt: int = 3305
    healthver: int = 1917
    numbers: int = 8000
    partial: int = 8000
    snli: int = 20000
    conjnli: int = 16000
    sick: int = 10000
    taxinli: int = 10000
    rte_cb: int = 3300
    science: int = 4100
    breaking_nli: int = 8200
    # hard cases (hard_cases.py): 0 in the generic stage, set by the attribution stage
    modality: int = 0
    negation: int = 0
    unit_forms: int = 0
    unit_swaps: int = 0
    entity_swaps: int = 0
    two_passages: int = 0
    role_swaps: int = 0
    name_changes: int = 0
    # the train part of the labelled attribution data (in_domain.py): 0 in the generic stage
    in_domain_expertqa: int = 0
    in_domain_attributionbench: int = 0
    in_domain_wice: int = 0
    in_domain_lfqa: int = 0
    in_domain_repeat: int = 1
    """Each in-domain pair enters the mix this many times (it is small next to the rest)."""
    scale: float = 1.0
    """Multiplies every count above."""
    sources: tuple[str, ...] = field(default=())
    """Only these sources when set (names as in :data:`Example.source`)."""
    commercial_only: bool = False
    """Only sources whose licence allows commercial use (``generic.LICENCES``)."""


def attribution_stage(seed: int = 13) -> MixConfig:
    """The second stage's mix: the hard cases, the train part of the labelled attribution
    data (four times over), and a tenth of the generic mix so that nothing learnt is lost."""
    generic = MixConfig()
    tenth = {
        f.name: max(1, getattr(generic, f.name) // 10)
        for f in dataclasses.fields(MixConfig)
        if f.type in (int, "int")
        and getattr(generic, f.name) > 0
        and f.name not in ("seed", "heldout_vitaminc", "in_domain_repeat")
    }
    return dataclasses.replace(
        generic,
        seed=seed,
        **tenth,
        **{name: HARD_CASE_PAIRS for name in HARD_CASE_BUILDERS if name not in OPTIONAL_HARD_CASES},
        **{f"in_domain_{d}": 100_000 for d in IN_DOMAIN_DATASETS},
        in_domain_repeat=4,
    )


def build_mix(root: Path, config: MixConfig) -> tuple[list[Example], dict[str, Counter[str]]]:
    """The shuffled training examples and, per source, the count of each label.

    Args:
        root: the ``nli`` data folder.
        config: the counts and the seed.
    """
    rng = random.Random(config.seed)
    loaded: list[list[_FeverRow]] = []
    # a claim of a held-out set never trains, whichever training set also carries it
    held_out = {
        _key(e.claim) for part in heldout_sets(root, config, limit=None).values() for e in part
    }

    def fever_rows() -> list[_FeverRow]:
        if not loaded:
            loaded.append(_fever_rows(root))
        return loaded[0]

    builders: dict[str, Callable[[int], list[Example]]] = {
        "fever": lambda n: _fever_pairs(fever_rows(), n, rng),
        "fever_buried": lambda n: _fever_buried(fever_rows(), n, rng),
        "vitaminc": lambda n: _vitaminc(root, config.heldout_vitaminc, config.seed)[0][:n],
        "docnli_fever": lambda n: _docnli(root / "fever-nli-binary", "docnli_fever", n, rng),
        "mnli_binary": lambda n: _docnli(root / "mnli-binary", "mnli_binary", n, rng),
        "anli_dev": lambda n: _anli(root, "dev")[:n],
        "summedits": lambda n: _summedits(root, n, rng),
        "qags": lambda n: _qags(root, n, rng),
        "climate_fever": lambda n: _climate_fever(root, n, rng),
        "factcheck_gpt": lambda n: _factcheck_gpt(root, n, rng),
        "healthver": lambda n: _healthver(root, n, rng),
        "numbers": lambda n: _numbers(fever_rows(), n, rng),
        "partial": lambda n: _partial(fever_rows(), n, rng),
    }
    for name, build_all in GENERIC_BUILDERS.items():
        builders[name] = lambda n, build_all=build_all: _sample(build_all(root), n, rng)
    for name, make in HARD_CASE_BUILDERS.items():
        builders[name] = lambda n, make=make: make(fever_rows(), n, rng)
    attribution_root = root.parent / "attribution"
    for dataset in IN_DOMAIN_DATASETS:
        builders[f"in_domain_{dataset}"] = lambda n, d=dataset: in_domain(
            attribution_root, d, n, rng
        )
    counts = {
        "fever": config.fever_pairs,
        "fever_buried": config.fever_buried,
        "vitaminc": config.vitaminc,
        "docnli_fever": config.docnli_fever,
        "mnli_binary": config.mnli_binary,
        "anli_dev": config.anli_dev,
        "summedits": config.summedits,
        "qags": config.qags,
        "climate_fever": config.climate_fever,
        "factcheck_gpt": config.factcheck_gpt,
        "healthver": config.healthver,
        "numbers": config.numbers,
        "partial": config.partial,
        **{name: getattr(config, name) for name in GENERIC_BUILDERS},
        **{name: getattr(config, name) for name in HARD_CASE_BUILDERS},
        **{f"in_domain_{d}": getattr(config, f"in_domain_{d}") for d in IN_DOMAIN_DATASETS},
    }
    examples: list[Example] = []
    for name, build in builders.items():
        if config.sources and name not in config.sources:
            continue
        if config.commercial_only and not LICENCES[name][1]:
            continue
        if not counts[name]:
            continue
        n = max(1, round(counts[name] * config.scale))
        part = build(n)[:n]
        if name.startswith("in_domain_"):
            part = part * config.in_domain_repeat
        examples.extend(
            e
            for e in part
            if e.passage.strip() and e.claim.strip() and _key(e.claim) not in held_out
        )
    rng.shuffle(examples)
    manifest: dict[str, Counter[str]] = defaultdict(Counter)
    for e in examples:
        manifest[e.source][_label_name(e.label)] += 1
    return examples, dict(manifest)


def _key(claim: str) -> str:
    return " ".join(_WORD.findall(claim.lower()))


def _sample(examples: list[Example], n: int, rng: random.Random) -> list[Example]:
    examples = list(examples)
    rng.shuffle(examples)
    return examples[:n]


def heldout_sets(
    root: Path, config: MixConfig, limit: int | None = 2000
) -> dict[str, list[Example]]:
    """The fixed evaluation sets: VitaminC held-out, MNLI dev_matched, ANLI test (R1-R3), and,
    for a mix that trains on the attribution data's train part, pairs of its *validation* part
    made the same way (``attribution_validation``, the datasets in equal shares): the stage
    that learns the attribution data is then also stopped on how it does there."""
    rng = random.Random(config.seed + 1)
    mnli = _mnli_dev(root)
    rng.shuffle(mnli)
    anli = _anli(root, "test")
    rng.shuffle(anli)
    sets = {
        "vitaminc": _vitaminc(root, config.heldout_vitaminc, config.seed)[1][:limit],
        "mnli_dev": mnli[:limit],
        "anli_test": anli[:limit],
    }
    if any(getattr(config, f"in_domain_{d}") for d in IN_DOMAIN_DATASETS):
        share = None if limit is None else max(1, limit // len(IN_DOMAIN_DATASETS))
        pairs = [
            e
            for d in IN_DOMAIN_DATASETS
            for e in in_domain(
                root.parent / "attribution",
                d,
                share if share is not None else 10**9,
                random.Random(config.seed + 2),
                split="validation",
            )
        ]
        rng.shuffle(pairs)
        sets["attribution_validation"] = pairs
    return sets


def _label_name(label: int) -> str:
    return LABELS[label] if label < len(LABELS) else "not_entailment"


def _clean_fever(text: str) -> str:
    for token, char in _FEVER_TOKENS.items():
        text = text.replace(token, char)
    text = re.sub(r"\s+([,.;:!?)\]'])", r"\1", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    return text.replace("`` ", '"').replace(" ''", '"').strip()


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if len(w) > 2}


def _cut(text: str, words: int = PASSAGE_WORDS) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words])


def _window(doc: str, claim: str, words: int = PASSAGE_WORDS) -> str:
    """The stretch of ``doc`` (whole sentences, about ``words`` long) most about ``claim``."""
    sentences = _sentences(doc)
    if not sentences:
        return _cut(doc, words)
    target = _words(claim)
    best, best_score = 0, -1.0
    for i, s in enumerate(sentences):
        score = len(target & _words(s)) / (1 + len(target))
        if score > best_score:
            best, best_score = i, score
    start, end = best, best + 1
    total = len(sentences[best].split())
    while total < words and (start > 0 or end < len(sentences)):
        grow_left = start > 0 and (end >= len(sentences) or (best - start) <= (end - best))
        k = start - 1 if grow_left else end
        n = len(sentences[k].split())
        if total + n > words:
            break
        total += n
        start, end = (k, end) if grow_left else (start, k + 1)
    return _cut(" ".join(sentences[start:end]), words)


@dataclass
class _FeverRow:
    claim: str
    label: str
    evidence: list[str]
    subject: str


def _fever_rows(root: Path) -> list[_FeverRow]:
    rows = []
    for path in sorted((root / "fever-train-vanilla").glob("*.csv*")):
        for r in csv.DictReader(open_text(path)):
            try:
                evidence = [_clean_fever(s) for s in ast.literal_eval(r["evidence"] or "[]")]
            except (ValueError, SyntaxError):
                evidence = []
            claim = r["claim"].strip()
            rows.append(_FeverRow(claim, r["label"], evidence, " ".join(claim.split()[:2]).lower()))
    return rows


def _by_subject(rows: list[_FeverRow]) -> dict[str, list[_FeverRow]]:
    groups: dict[str, list[_FeverRow]] = defaultdict(list)
    for r in rows:
        if r.evidence:
            groups[r.subject].append(r)
    return groups


def _near_miss(row: _FeverRow, groups: dict[str, list[_FeverRow]], rng: random.Random) -> str:
    """Evidence of another claim about the same subject that does not contain this one's."""
    mine = set(row.evidence)
    others = [r for r in groups.get(row.subject, ()) if r.claim != row.claim]
    rng.shuffle(others)
    for other in others[:8]:
        sentences = [s for s in other.evidence if s not in mine]
        if sentences:
            return " ".join(sentences)
    return ""


def _fever_pairs(rows: list[_FeverRow], n: int, rng: random.Random) -> list[Example]:
    """Gold evidence (SUPPORTS/REFUTES) and near-miss evidence for NEI and for SUPPORTS claims."""
    groups = _by_subject(rows)
    out: list[Example] = []
    order = list(range(len(rows)))
    rng.shuffle(order)
    for i in order:
        if len(out) >= n:
            break
        r = rows[i]
        if r.label == "SUPPORTS" and r.evidence:
            out.append(Example(" ".join(r.evidence), r.claim, 0, "fever"))
            if rng.random() < 0.35 and (miss := _near_miss(r, groups, rng)):
                out.append(Example(miss, r.claim, 1, "fever"))
        elif r.label == "REFUTES" and r.evidence:
            out.append(Example(" ".join(r.evidence), r.claim, 2, "fever"))
        elif r.label == "NOT ENOUGH INFO" and (miss := _near_miss(r, groups, rng)):
            out.append(Example(miss, r.claim, 1, "fever"))
    return out


def _fever_buried(rows: list[_FeverRow], n: int, rng: random.Random) -> list[Example]:
    """Gold evidence buried among sentences about the same subject (or removed: neutral)."""
    groups = _by_subject(rows)
    out: list[Example] = []
    order = [i for i, r in enumerate(rows) if r.evidence and r.label != "NOT ENOUGH INFO"]
    rng.shuffle(order)
    for i in order:
        if len(out) >= n:
            break
        r = rows[i]
        pool = [s for o in groups.get(r.subject, ()) if o.claim != r.claim for s in o.evidence]
        pool = [s for s in dict.fromkeys(pool) if s not in r.evidence]
        if len(pool) < 2:
            continue
        rng.shuffle(pool)
        budget = PASSAGE_WORDS - sum(len(s.split()) for s in r.evidence)
        filler: list[str] = []
        for s in pool:
            if len(s.split()) > budget:
                continue
            filler.append(s)
            budget -= len(s.split())
        if len(filler) < 2:
            continue
        remove = r.label == "SUPPORTS" and rng.random() < 0.3
        sentences = list(filler) if remove else filler + list(r.evidence)
        if not remove:
            rng.shuffle(sentences)
        label = 1 if remove else (0 if r.label == "SUPPORTS" else 2)
        out.append(Example(" ".join(sentences), r.claim, label, "fever_buried"))
    return out


def _vitaminc(root: Path, heldout: int, seed: int) -> tuple[list[Example], list[Example]]:
    out = list(_vitaminc_examples(root))
    random.Random(seed).shuffle(out)
    return out[:-heldout], out[-heldout:]


@functools.lru_cache(maxsize=1)
def _vitaminc_examples(root: Path) -> tuple[Example, ...]:
    """VitaminC's pairs in file order, parsed once a process (the mix and the held-out sets
    both read them: a second parse of the 1.3-second file is the smoke tests' largest cost)."""
    data = json.loads(
        "".join(open_text(root / "vitaminc" / "vitaminc_fact_verification__task.json.gz"))
    )
    out = []
    for ex in data["examples"]:
        text = ex["input"]
        if "\nClaim: " not in text:
            continue
        evidence, claim = text.rsplit("\nClaim: ", 1)
        title, _, body = evidence.partition(": ")
        scores = ex["target_scores"]
        verdict = max(scores, key=scores.get)
        label = {"True": 0, "False": 2, "Neither": 1}[verdict]
        passage = f"{title}: {body}" if body else evidence
        out.append(Example(passage.replace("\ufffd", " "), claim, label, "vitaminc"))
    return tuple(out)


def _docnli(folder: Path, source: str, n: int, rng: random.Random) -> list[Example]:
    """DocNLI's binary TSVs (label, premise, hypothesis): dev and test files both train."""
    out = []
    for path in sorted(folder.glob("*.txt*")):
        for line in open_text(path):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                continue
            label, premise, hypothesis = parts
            out.append(
                Example(
                    _window(premise, hypothesis),
                    hypothesis,
                    0 if label == "entailment" else NOT_ENTAILED,
                    source,
                )
            )
    rng.shuffle(out)
    return out[:n]


def _anli(root: Path, split: str) -> list[Example]:
    out = []
    for path in sorted((root / "anli").glob(f"*__{split}.jsonl*")):
        for line in open_text(path):
            r = json.loads(line)
            label = {"e": 0, "n": 1, "c": 2}[r["label"]]
            out.append(Example(r["context"], r["hypothesis"], label, f"anli_{split}"))
    return out


def _mnli_dev(root: Path) -> list[Example]:
    path = next((root / "mnli").glob("*.txt*"))
    rows = csv.DictReader(open_text(path), delimiter="\t")
    labels = {"entailment": 0, "neutral": 1, "contradiction": 2}
    return [
        Example(r["premise"], r["hypothesis"], labels[r["gold_label"]], "mnli_dev")
        for r in rows
        if r.get("gold_label") in labels
    ]


def _summedits(root: Path, n: int, rng: random.Random) -> list[Example]:
    out = []
    for path in sorted((root / "summedits").glob("*summedits_*.json*")):
        for r in json.loads("".join(open_text(path))):
            summary = r["summary"]
            label = 0 if str(r["label"]) == "1" else NOT_ENTAILED
            out.append(Example(_window(r["doc"], summary), summary, label, "summedits"))
    rng.shuffle(out)
    return out[:n]


def _qags(root: Path, n: int, rng: random.Random) -> list[Example]:
    out = []
    for path in sorted((root / "qags").glob("*.jsonl*")):
        for line in open_text(path):
            r = json.loads(line)
            article = r["article"]
            for s in r["summary_sentences"]:
                votes = Counter(v["response"] for v in s["responses"])
                if votes["yes"] == votes["no"]:
                    continue
                label = 0 if votes["yes"] > votes["no"] else NOT_ENTAILED
                claim = s["sentence"]
                out.append(Example(_window(article, claim), claim, label, "qags"))
    rng.shuffle(out)
    return out[:n]


def _climate_fever(root: Path, n: int, rng: random.Random) -> list[Example]:
    """Each evidence sentence alone, and all five joined (supported if any one supports)."""
    out = []
    labels = {"SUPPORTS": 0, "NOT_ENOUGH_INFO": 1, "REFUTES": 2}
    for line in open_text(root / "climate-fever" / "dataset__climate-fever.jsonl.gz"):
        r = json.loads(line)
        evidences = r["evidences"]
        for e in evidences:
            out.append(
                Example(e["evidence"], r["claim"], labels[e["evidence_label"]], "climate_fever")
            )
        found = {labels[e["evidence_label"]] for e in evidences}
        joined = " ".join(e["evidence"] for e in evidences)
        label = 0 if 0 in found else (2 if 2 in found else 1)
        out.append(Example(joined, r["claim"], label, "climate_fever"))
    rng.shuffle(out)
    return out[:n]


def _factcheck_gpt(root: Path, n: int, rng: random.Random) -> list[Example]:
    stances = {"completely-support": 0, "partially-support": 1, "irrelevant": 1, "refute": 2}
    out = []
    path = root / "factcheck-gpt" / "subtasks__subtask3_claim_evidence_stance.jsonl.gz"
    for line in open_text(path):
        r = json.loads(line)
        if r.get("stance") in stances:
            passage = _window(r["evidence"], r["claim"])
            out.append(Example(passage, r["claim"], stances[r["stance"]], "factcheck_gpt"))
    rng.shuffle(out)
    return out[:n]


def _healthver(root: Path, n: int, rng: random.Random) -> list[Example]:
    labels = {"Supports": 0, "Neutral": 1, "Refutes": 2}
    out = []
    for path in sorted((root / "healthver").glob("*.csv*")):
        for r in csv.DictReader(open_text(path)):
            if r["label"] in labels:
                out.append(
                    Example(_cut(r["evidence"]), r["claim"], labels[r["label"]], "healthver")
                )
    rng.shuffle(out)
    return out[:n]


def _numbers(rows: list[_FeverRow], n: int, rng: random.Random) -> list[Example]:
    """A supported claim with one of its numbers changed: the evidence now contradicts it."""
    out = []
    order = [r for r in rows if r.label == "SUPPORTS" and r.evidence and _NUMBER.search(r.claim)]
    rng.shuffle(order)
    for r in order[:n]:
        matches = list(_NUMBER.finditer(r.claim))
        m = rng.choice(matches)
        digits = m.group().replace(",", "")
        try:
            value = float(digits)
        except ValueError:
            continue
        if value.is_integer() and 1000 < value < 2100:
            changed = str(int(value) + rng.choice([-3, -2, -1, 1, 2, 5]))
        elif value.is_integer():
            changed = str(max(0, int(value) + rng.choice([-2, -1, 1, 2, 10])) or 3)
        else:
            changed = f"{value * rng.choice([0.5, 1.5, 2.0]):.{len(digits.split('.')[1])}f}"
        if changed == digits:
            continue
        claim = r.claim[: m.start()] + changed + r.claim[m.end() :]
        out.append(Example(" ".join(r.evidence), claim, 2, "numbers"))
    return out


def _partial(rows: list[_FeverRow], n: int, rng: random.Random) -> list[Example]:
    """Two claims joined where the passage supports only the first (partial support)."""
    groups = _by_subject(rows)
    out = []
    order = [r for r in rows if r.label == "SUPPORTS" and r.evidence]
    rng.shuffle(order)
    for r in order:
        if len(out) >= n:
            break
        others = [o for o in groups.get(r.subject, ()) if o.claim != r.claim]
        if not others:
            continue
        other = rng.choice(others)
        if set(other.evidence) <= set(r.evidence):
            continue
        claim = r.claim.rstrip(".") + ", and " + other.claim
        out.append(Example(" ".join(r.evidence), claim, 1, "partial"))
    return out
