"""Sentence-level NLI sets of ``../shared/data/nli`` beyond the FEVER-shaped core of ``data.py``.

They teach the model plain entailment and contradiction (negation, quantifiers, modality,
swapped roles, lexical contrasts) that the attribution-shaped data rarely shows. Each builder
returns every usable pair; :func:`data.build_mix` caps and shuffles them.

Kept out for measurement: SNLI test (``snli-dev-test`` test files), the MNLI dev_matched file
and TaxiNLI's MNLI-dev file (``taxinli10k_MNLIDev``), ANLI test.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

from ._io import NOT_ENTAILED, Example, open_text

__all__ = ["GENERIC_BUILDERS", "LICENCES", "commercial_sources"]

_THREE = {"entailment": 0, "neutral": 1, "contradiction": 2}
_BINARY = {"entailment": 0, "not_entailment": NOT_ENTAILED}


def _label(value: str) -> int | None:
    value = value.strip().lower()
    if value in _THREE:
        return _THREE[value]
    return _BINARY.get(value)


def _tsv(path: Path) -> Iterator[dict[str, str]]:
    lines = (line.lstrip("\ufeff") for line in open_text(path))
    yield from csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)


def _jsonl(path: Path) -> Iterator[dict[str, object]]:
    for line in open_text(path):
        if line.strip():
            yield json.loads(line)


def _pairs(rows: Iterator[tuple[str, str, str]], source: str) -> list[Example]:
    out = []
    for premise, hypothesis, label in rows:
        value = _label(label)
        if value is not None and premise.strip() and hypothesis.strip():
            out.append(Example(premise.strip(), hypothesis.strip(), value, source))
    return out


def snli(root: Path) -> list[Example]:
    """SNLI dev (e-SNLI's copy) and the counterfactually augmented SNLI (train, dev, test)."""
    folder = root / "snli-dev-test"
    s1 = [line.strip() for line in open_text(folder / "dataset__eSNLI__s1.dev.gz")]
    s2 = [line.strip() for line in open_text(folder / "dataset__eSNLI__s2.dev")]
    labels = [line.strip() for line in open_text(folder / "dataset__eSNLI__labels.dev")]
    rows = list(zip(s1, s2, labels, strict=False))
    for path in sorted((root / "snli-cad").glob("NLI__all_combined__*.tsv*")):
        rows.extend((r["sentence1"], r["sentence2"], r["gold_label"]) for r in _tsv(path))
    return _pairs(iter(rows), "snli")


def conjnli(root: Path) -> list[Example]:
    """ConjNLI: conjunctions, adversarial train and dev."""
    rows: list[tuple[str, str, str]] = []
    for path in sorted((root / "conjnli").glob("*.tsv*")):
        rows.extend((r["Premise"], r["Hypothesis"], r["Label"]) for r in _tsv(path))
    return _pairs(iter(rows), "conjnli")


def sick(root: Path) -> list[Example]:
    """SICK, with the corrected (re-annotated) labels."""
    path = root / "sick" / "corrected__SICK_whole_corpus_reannotated.csv.gz"
    rows = ((r["sentence_A"], r["sentence_B"], r["entailment_label"]) for r in _tsv(path))
    return _pairs(rows, "sick")


def taxinli(root: Path) -> list[Example]:
    """TaxiNLI's 10k MNLI-train pairs (its MNLI-dev file is never read: MNLI dev is held out)."""
    path = root / "taxinli-mnli" / "taxinli10k.tsv.gz"
    return _pairs(((r["prem"], r["hyp"], r["label"]) for r in _tsv(path)), "taxinli")


def rte_cb(root: Path) -> list[Example]:
    """RTE (binary) and CommitmentBank (three-way), train and validation."""
    rows: list[tuple[str, str, str]] = []
    for folder in ("rte", "cb"):
        for path in sorted((root / folder).glob("*.jsonl*")):
            rows.extend(
                (str(r["premise"]), str(r["hypothesis"]), str(r["label"])) for r in _jsonl(path)
            )
    return _pairs(iter(rows), "rte_cb")


def science(root: Path) -> list[Example]:
    """COVID-Fact and SciFact in RTE form (claim against a scientific abstract's sentences)."""
    rows: list[tuple[str, str, str]] = []
    for path in [
        *sorted((root / "covidfact").glob("RTE-covidfact__*.tsv*")),
        *sorted((root / "scifact-rte").glob("*.tsv")),
    ]:
        for r in _tsv(path):
            values = list(r.values())
            if len(values) >= 4 and all(isinstance(v, str) for v in values[:4]):
                rows.append((values[1], values[2], values[3]))
    return _pairs(iter(rows), "science")


def breaking_nli(root: Path) -> list[Example]:
    """Breaking NLI: one word swapped for an antonym, a co-hyponym or a synonym."""
    path = root / "breaking-nli" / "breaking_nli_dataset.zip"
    with zipfile.ZipFile(path) as archive:
        text = archive.read("data/dataset.jsonl").decode("utf-8")
    rows = (
        (str(r["sentence1"]), str(r["sentence2"]), str(r["gold_label"]))
        for line in io.StringIO(text)
        if line.strip()
        for r in [json.loads(line)]
    )
    return _pairs(rows, "breaking_nli")


GENERIC_BUILDERS = {
    "snli": snli,
    "conjnli": conjnli,
    "sick": sick,
    "taxinli": taxinli,
    "rte_cb": rte_cb,
    "science": science,
    "breaking_nli": breaking_nli,
}

LICENCES: dict[str, tuple[str, bool]] = {
    # source: (licence as its SOURCE.txt states it, commercial use allowed)
    "fever": ("CC BY-SA 3.0 (FEVER / Wikipedia)", True),
    "fever_buried": ("CC BY-SA 3.0 (FEVER / Wikipedia)", True),
    "numbers": ("CC BY-SA 3.0 (FEVER / Wikipedia)", True),
    "partial": ("CC BY-SA 3.0 (FEVER / Wikipedia)", True),
    "vitaminc": ("CC BY-SA 3.0", True),
    "docnli_fever": ("BSD-3-Clause; FEVER CC BY-SA 3.0", True),
    "mnli_binary": ("BSD-3-Clause; MNLI OANC / CC BY-SA 3.0", True),
    "anli_dev": ("CC BY-NC 4.0", False),
    "summedits": ("CC BY 4.0", True),
    "qags": ("no licence stated", False),
    "climate_fever": ("no licence file (Wikipedia-derived)", False),
    "factcheck_gpt": ("Apache-2.0", True),
    "healthver": ("no licence stated", False),
    "snli": ("CC BY-SA 4.0; SNLI-CAD Apache-2.0", True),
    "conjnli": ("MIT; Wikipedia CC BY-SA", True),
    "sick": ("CC BY-NC-SA 3.0", False),
    "taxinli": ("C-UDA 1.0; MNLI OANC / CC BY-SA 3.0", True),
    "rte_cb": ("RTE research use; CB CC BY-SA 3.0", False),
    "science": ("COVID-Fact no licence; SciFact CC BY-NC 2.0", False),
    "breaking_nli": ("CC BY-SA 4.0", True),
    "in_domain_expertqa": ("MIT (ExpertQA)", True),
    "in_domain_attributionbench": ("none stated; each source keeps its terms", False),
    "in_domain_wice": ("ODC-BY; Wikipedia CC BY-SA", True),
    "in_domain_lfqa": ("none stated (research use)", False),
    **{
        name: ("CC BY-SA 3.0 (made from FEVER / Wikipedia)", True)
        for name in (
            "modality",
            "negation",
            "unit_forms",
            "unit_swaps",
            "entity_swaps",
            "two_passages",
            "role_swaps",
            "name_changes",
        )
    },
}


def commercial_sources() -> tuple[str, ...]:
    """The mix's sources whose licence allows commercial use."""
    return tuple(sorted(name for name, (_, ok) in LICENCES.items() if ok))
