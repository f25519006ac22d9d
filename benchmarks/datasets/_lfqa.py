"""LFQA-Verification (Chen et al. 2023): answer sentences judged against a set of documents.

Files: ``lfqa-verification/data/annotations/annotations-<setting>.json``, a JSON list of
questions, each with its answer split into sentences and three annotator labels a sentence
(``supported`` / ``partially`` / ``not_supported``). Every setting is judged against the
documents of its question (matched by ``question_id``) in ``data/docs/``: settings ending in
``_whudoc`` (``gpt3_whudoc``, generated from human-found documents) against ``docs-human.json``,
all others (``webgpt``, ``gpt3_wdoc``, ``alpaca_wdoc`` and the no-document ``gpt3``, ``alpaca``)
against ``docs-webgpt.json``.

A sentence's label is the majority of its annotators' labels: the label more than half of them
gave. Where none has a majority (with three annotators: one vote each) the sentence is a
**tie**: ``majority`` is None and its label None (excluded, counted as ``tie``). Label mapping
of the majority: ``supported`` -> True, ``not_supported`` -> False, ``partially`` ->
``partial_as`` (None by default: excluded). ``raw_label`` keeps the votes (``supported/
partially/supported``). A trailing ``</s>`` (a generation artefact ending some answers, and a
special token to many tokenizers) is removed from the sentence and counted as a warning.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import msgspec

from ._io import Examples, Tally
from ._labels import map_label
from ._types import DatasetLoad, Loaded, VerificationExample

__all__ = [
    "PATTERN",
    "LFQAAnswer",
    "LFQADocument",
    "LFQASentence",
    "docs_file_for",
    "load_examples",
    "load_lfqa",
]

PATTERN = "lfqa-verification/data/annotations/*.json"
DOCS_DIR = "lfqa-verification/data/docs"

SUPPORTED = ("supported",)
NOT_SUPPORTED = ("not_supported",)
PARTIAL = ("partially",)

_END_OF_TEXT = "</s>"


class LFQADocument(msgspec.Struct, frozen=True, kw_only=True):
    """One document of a question's document set."""

    doc_id: str
    """The dataset's id, e.g. ``webgpt:18`` or ``human:17``."""
    title: str
    """Page title and site."""
    text: str
    """The document text, as it stands."""


class LFQASentence(msgspec.Struct, frozen=True, kw_only=True):
    """An answer sentence with its annotators' labels."""

    example_id: str
    """Stable id: the answer's id and the sentence's index."""
    index: int
    """0-based position in the answer."""
    text: str
    """The sentence (a trailing ``</s>`` removed)."""
    labels: tuple[str, ...]
    """Every annotator's label, in the dataset's order."""
    majority: str | None
    """The label more than half the annotators gave; None for a tie."""
    label: bool | None
    """The mapped majority label (see the module docstring)."""
    raw_label: str
    """The votes joined with ``/``."""


class LFQAAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """One setting's answer to a question, by sentence, with the documents it was judged against."""

    example_id: str
    """Stable id: ``lfqa:<file stem>:<row>``."""
    setting: str
    """The generation setting (``webgpt``, ``gpt3_whudoc``, ``alpaca``, ...): the file's name."""
    question_id: int
    """The question's id, shared with the document files."""
    question: str
    """The question."""
    sentences: tuple[LFQASentence, ...]
    """The answer's sentences in order."""
    documents: tuple[LFQADocument, ...]
    """The question's documents in the setting's document file (empty when not found)."""
    docs_file: str
    """The document file of the setting, relative to the data root."""

    @property
    def answer_text(self) -> str:
        """The answer: its sentences joined with single spaces."""
        return " ".join(sentence.text for sentence in self.sentences)


class _RawAnnotation(msgspec.Struct):
    labels: list[str]
    answer: str


class _RawAnswer(msgspec.Struct):
    question_id: int
    question: str
    annotations: list[_RawAnnotation]


class _RawDocument(msgspec.Struct):
    text: str
    doc_id: str = ""
    title: str = ""


class _RawDocSet(msgspec.Struct):
    question_id: int
    docs: list[_RawDocument]
    question: str | None = None


def docs_file_for(setting: str) -> str:
    """The document file a setting's answers were judged against (a name in ``data/docs/``)."""
    return "docs-human.json" if setting.endswith("_whudoc") else "docs-webgpt.json"


def _documents(path: Path, tally: Tally) -> dict[int, _RawDocSet]:
    """The document sets of ``path`` by question id; problems become warnings."""
    rel = tally.rel(path)
    try:
        entries = msgspec.json.decode(path.read_bytes(), type=list[msgspec.Raw])
    except (OSError, msgspec.DecodeError):
        tally.warn(f"document file missing or unreadable: {rel}")
        return {}
    tally.files.append(rel)
    sets: dict[int, _RawDocSet] = {}
    for entry in entries:
        try:
            docset = msgspec.json.decode(entry, type=_RawDocSet)
        except msgspec.DecodeError:
            tally.warn(f"malformed document set in {rel}")
            continue
        sets.setdefault(docset.question_id, docset)
    return sets


def _sentence(
    annotation: _RawAnnotation,
    *,
    example_id: str,
    index: int,
    tally: Tally,
    partial_as: bool | None,
) -> LFQASentence:
    text = annotation.answer
    if text.rstrip().endswith(_END_OF_TEXT):
        text = text.rstrip().removesuffix(_END_OF_TEXT).rstrip()
        tally.warn(f"sentence ends with {_END_OF_TEXT!r} (removed)")
    votes = Counter(annotation.labels).most_common(1)
    majority = votes[0][0] if votes and 2 * votes[0][1] > len(annotation.labels) else None
    return LFQASentence(
        example_id=example_id,
        index=index,
        text=text,
        labels=tuple(annotation.labels),
        majority=majority,
        label=map_label(
            majority,
            supported=SUPPORTED,
            not_supported=NOT_SUPPORTED,
            partial=PARTIAL,
            partial_as=partial_as,
        ),
        raw_label="/".join(annotation.labels),
    )


def _load(root: Path, partial_as: bool | None) -> tuple[Tally, list[LFQAAnswer]]:
    tally = Tally(dataset="lfqa", root=root, pattern=PATTERN)
    answers: list[LFQAAnswer] = []
    doc_sets: dict[str, dict[int, _RawDocSet]] = {}
    for path, row, item in tally.records("list", _RawAnswer):
        setting = path.stem.removeprefix("annotations-")
        docs_name = docs_file_for(setting)
        docs_path = root / DOCS_DIR / docs_name
        if docs_name not in doc_sets:
            doc_sets[docs_name] = _documents(docs_path, tally)
        docset = doc_sets[docs_name].get(item.question_id)
        if docset is None:
            tally.warn("no document set for the question")
        elif docset.question is not None and docset.question.strip() != item.question.strip():
            tally.warn("document set's question differs from the answer's")
        answer_id = f"lfqa:{path.stem}:{row}"
        answers.append(
            LFQAAnswer(
                example_id=answer_id,
                setting=setting,
                question_id=item.question_id,
                question=item.question,
                sentences=tuple(
                    _sentence(
                        annotation,
                        example_id=f"{answer_id}:{index}",
                        index=index,
                        tally=tally,
                        partial_as=partial_as,
                    )
                    for index, annotation in enumerate(item.annotations)
                ),
                documents=()
                if docset is None
                else tuple(
                    LFQADocument(doc_id=d.doc_id, title=d.title, text=d.text) for d in docset.docs
                ),
                docs_file=tally.rel(docs_path),
            )
        )
    return tally, answers


def load_lfqa(root: Path, *, partial_as: bool | None = None) -> Loaded[LFQAAnswer]:
    """Load LFQA-Verification's answers: sentences with majority labels, and their documents.

    Args:
        root: the data root (the folder holding ``lfqa-verification/``).
        partial_as: the label a ``partially`` majority takes (None: excluded).

    Returns:
        The answers in file order; ``status="missing"`` when no annotation file matches.
    """
    tally, answers = _load(root, partial_as)
    return tally.loaded(answers)


def load_examples(root: Path, *, partial_as: bool | None = None) -> DatasetLoad:
    """LFQA-Verification flattened: each sentence against its question's document texts."""
    tally, answers = _load(root, partial_as)
    flat = Examples()
    for answer in answers:
        texts = tuple(doc.text for doc in answer.documents if doc.text.strip())
        for sentence in answer.sentences:
            if not sentence.text.strip():
                flat.drop("empty sentence")
            elif not texts:
                flat.drop("no documents for the question")
            else:
                flat.add(
                    VerificationExample(
                        dataset="lfqa",
                        example_id=sentence.example_id,
                        claim=sentence.text,
                        evidence=texts,
                        label=sentence.label,
                        raw_label=sentence.raw_label,
                        group=answer.setting,
                        context=answer.question,
                    ),
                    excluded_as=sentence.majority or "tie",
                )
    return tally.dataset_load(flat)
