"""Loaders for the five human-labelled attribution datasets (development or held-out half).

Every loader takes the data root (the folder holding ``expertqa/``, ``attributionbench/``,
``wice/``, ``lfqa-verification/`` and ``faithbench/``) and reads whatever files match the
dataset's documented glob pattern, in natural file order, so the same code reads either half of
the data. Nothing about the data raises: a dataset with no files comes back with
``status="missing"`` and the pattern looked for; a malformed row is skipped and listed with its
reason; an oddity that costs no row (a repaired span, a duplicate evidence entry) is counted
under ``warnings``.

Two views of the data:

- :func:`load_verification` / :func:`load_all`: any dataset flattened to
  :class:`VerificationExample` (claim, the evidence texts it was judged against, a label) in a
  :class:`DatasetLoad` with its counts; what a verifier is fitted and measured on.
- :func:`load_expertqa`, :func:`load_wice`, :func:`load_lfqa`, :func:`load_faithbench`: the
  richer records (answers with claim offsets and markers, gold sentence sets, sentence votes and
  document sets, checked summary spans and detector verdicts) in a :class:`Loaded`.

Label mappings (True = supported, False = not, None = excluded; ``raw_label`` keeps the
original, and ``partial_as`` decides partial support, None by default):

========================  =====================  ==========================  ==================
dataset                   True                   False                       None (excluded)
========================  =====================  ==========================  ==================
ExpertQA ``support``      Complete               Incomplete, Missing         Partial, N/A, null
AttributionBench          attributable           not attributable            anything else
WiCE                      supported              not_supported               partially_supported
LFQA (majority of 3)      supported              not_supported               partially, tie
FaithBench (per summary)  no Unwanted span       an Unwanted span            (none)
========================  =====================  ==========================  ==================

Flattened examples need evidence: ExpertQA claims that cite nothing (``Missing``) or cite URLs
only (``bing_chat``, ``gpt4``) and LFQA answers without a document set are dropped, counted by
reason in ``DatasetLoad.dropped``; the richer records keep them. Each dataset module's
docstring gives the details (ties, span repair, detector normalisation).

One fixed train/validation split (about 70/30 per dataset, grouped so that the two parts never
share a question, an answer, a claim or a source page, within or across datasets) is committed
as ids in ``benchmarks/splits/<dataset>.json``; models train on ``train``, figures and
thresholds use ``validation``. :func:`filter_split` / :func:`in_split` / :class:`SplitFilter`
select a part; records the split does not know (the held-out half of the data) count as
validation. ``python -m benchmarks.datasets.split [--check]`` writes or verifies the files; see
:mod:`benchmarks.datasets._split`.

Run ``python -m benchmarks.datasets [--data-root DIR]`` for a table of the counts.
"""

from __future__ import annotations

from ._expertqa import ExpertQAAnswer, ExpertQAClaim, ExpertQAEvidence, OffsetMatch, load_expertqa
from ._faithbench import (
    DetectorVerdict,
    FaithBenchSample,
    FaithBenchSpan,
    SampleLabel,
    SpanLabel,
    load_faithbench,
)
from ._lfqa import LFQAAnswer, LFQADocument, LFQASentence, docs_file_for, load_lfqa
from ._load import DATA_ROOT_ENV, PATTERNS, default_data_root, load_all, load_verification
from ._split import (
    SPLIT_NAMES,
    SPLITS_DIR,
    Side,
    SplitFile,
    SplitFilter,
    SplitName,
    build_split,
    check_split,
    filter_split,
    in_split,
    read_split,
    write_split,
)
from ._types import (
    DATASETS,
    DatasetLoad,
    DatasetName,
    Loaded,
    LoadReport,
    LoadStatus,
    SkippedRow,
    VerificationExample,
)
from ._wice import WiCEClaim, load_wice

__all__ = [
    "DATASETS",
    "DATA_ROOT_ENV",
    "PATTERNS",
    "SPLITS_DIR",
    "SPLIT_NAMES",
    "DatasetLoad",
    "DatasetName",
    "DetectorVerdict",
    "ExpertQAAnswer",
    "ExpertQAClaim",
    "ExpertQAEvidence",
    "FaithBenchSample",
    "FaithBenchSpan",
    "LFQAAnswer",
    "LFQADocument",
    "LFQASentence",
    "LoadReport",
    "LoadStatus",
    "Loaded",
    "OffsetMatch",
    "SampleLabel",
    "Side",
    "SkippedRow",
    "SpanLabel",
    "SplitFile",
    "SplitFilter",
    "SplitName",
    "VerificationExample",
    "WiCEClaim",
    "build_split",
    "check_split",
    "default_data_root",
    "docs_file_for",
    "filter_split",
    "in_split",
    "load_all",
    "load_expertqa",
    "load_faithbench",
    "load_lfqa",
    "load_verification",
    "load_wice",
    "read_split",
    "write_split",
]
