"""Typed, frozen, strict configuration of the attribution pipeline.

``AttributionConfig`` groups one section per stage. Every section rejects unknown fields and
checks its bounds in ``__post_init__``, raising :class:`ConfigError` (never ``assert``). Configs
decode from JSON or a dict with :func:`load_config`; :data:`PRESETS` names ready-made ones
(``fast``, ``default``).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import msgspec

from attribution._errors import ConfigError
from attribution.text import MarkerStyle

__all__ = [
    "PRESETS",
    "AttributionConfig",
    "MatchConfig",
    "ModelConfig",
    "ReconcileConfig",
    "SegmentConfig",
    "VerifyConfig",
    "load_config",
    "preset",
    "read_config",
]


_checking = threading.local()
"""Set while a section's types are being checked (the check builds a copy of it)."""


class _Section(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every config section."""

    def __post_init__(self) -> None:
        """Check every field's type, as decoding a configuration file does: a section built in
        code (``ReconcileConfig(fill_missing="no")``) is held to the same types, not just to
        the bounds each section checks after this."""
        if getattr(_checking, "on", False):
            return  # the copy being built to check the types of the section that asked
        _checking.on = True
        try:
            copy = msgspec.convert(msgspec.to_builtins(self), type(self))
        except msgspec.ValidationError as exc:
            if isinstance(exc.__cause__, ConfigError):  # a bound, which names the section
                raise exc.__cause__ from None
            raise ConfigError(f"{type(self).__name__}: {exc}") from exc
        except TypeError as exc:  # a value with no JSON form at all (an object, a function)
            raise ConfigError(f"{type(self).__name__}: {exc}") from exc
        finally:
            _checking.on = False
        for name in self.__struct_fields__:  # a dict where a section goes converts, but is not one
            value, expected = getattr(self, name), getattr(copy, name)
            if isinstance(expected, _Section) and not isinstance(value, type(expected)):
                raise ConfigError(
                    f"{type(self).__name__}.{name} must be a {type(expected).__name__}, "
                    f"not {type(value).__name__}"
                )

    def _check(self, name: str, ok: bool, requirement: str) -> None:
        if not ok:
            value = getattr(self, name)
            raise ConfigError(
                f"{type(self).__name__}.{name} = {value!r} is out of bounds: {requirement}"
            )


class ModelConfig(_Section, frozen=True):
    """Which models to load and how to run them."""

    models_dir: str | None = None
    """Folder holding ``manifest.json``; None: $ATTRIBUTION_MODELS_DIR, else attribution/models/."""
    embedder: str = "all-minilm-l6-v2-int8-dynamic"
    """Sentence embedder of the matcher: a manifest name, or a path to an ``.onnx`` encoder or
    a static model's ``.npy`` table. The default is all-MiniLM-L6-v2 multiplying in int8
    (``training/embedder.py``); ``all-minilm-l6-v2-int8``, the packaged model it was made from,
    stores int8 weights but multiplies in float32: vectors within a cosine of 0.99, half the
    speed (docs/benchmarks.md, "the embedder in int8 arithmetic"). ``minilm-static-256`` is a
    static model distilled from all-MiniLM-L6-v2 (no layers to run), with the combination
    fitted for it chosen automatically; the ``fast`` preset uses it (:data:`PRESETS`)."""
    verifier: str | None = None
    """NLI / support cross-encoder: a manifest name or ``.onnx`` path; None: feature verifier."""
    feature_weights: str | None = None
    """Weights of the feature verifier: a manifest name or a path to its JSON file; None: the
    combination fitted with the configured embedder (its manifest entry's ``feature_weights``:
    ``feature-verifier-combined-static`` for ``minilm-static-256``,
    ``feature-verifier-combined-dynamic`` for ``all-minilm-l6-v2-int8-dynamic``,
    ``feature-verifier-combined`` for ``all-minilm-l6-v2-int8``), which combines the trained
    cross-encoder its weights name. ``feature-verifier`` needs no cross-encoder (faster, less
    accurate: docs/benchmarks.md)."""
    intra_op_threads: int | None = None
    """ONNX Runtime threads per session; None: the number of cores."""
    busy_intra_op_threads: int | None = None
    """ONNX Runtime threads of a call made while another call of the same model is running
    (several requests at once, as in the service); None: ``intra_op_threads`` always. A second
    session with these threads is opened beside the first (a few tens of MB), so a request
    alone still uses every core, while concurrent requests do not ask for more threads than
    there are cores (docs/benchmarks.md, "ONNX threads per call")."""
    lanes: int | None = None
    """A model call made alone (no other call of the model running) with several sequences
    runs them in this many lanes side by side: threads calling the model's one session, which
    has ``intra_op_threads // lanes`` threads (its weights shared, not copied); 1: one pass
    after another on a session of every thread. A pass over one sequence of about 100 tokens
    keeps two threads of one session only partly busy, and a pool of threads spins while it
    waits: on two cores the lanes make a cold call about 15% faster alone and the service 60-78%
    faster under load (docs/benchmarks.md, "two lanes"); a call of one sequence runs on one
    thread. None: 2 when the models get at least two threads, else 1."""
    batch_size: int = 1
    """Sequences per inference batch (texts for a transformer embedder, pairs for a
    cross-encoder). 1, the default, makes every score independent of the rest of the request:
    the int8 models quantise each batch's activations with one scale, so a pair batched with
    others scores slightly differently (by up to 0.02) than alone. It costs no speed on a CPU:
    on two cores, 30 pairs of about 120 tokens take 220 ms one at a time, 200 ms in batches of
    4 and 450 ms in one batch of 32 (docs/benchmarks.md)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check(
            "intra_op_threads",
            self.intra_op_threads is None or 1 <= self.intra_op_threads <= 256,
            "1..256 or null",
        )
        self._check(
            "busy_intra_op_threads",
            self.busy_intra_op_threads is None or 1 <= self.busy_intra_op_threads <= 256,
            "1..256 or null",
        )
        self._check("batch_size", 1 <= self.batch_size <= 1024, "1..1024")
        self._check("lanes", self.lanes is None or 1 <= self.lanes <= 64, "1..64 or null")


class SegmentConfig(_Section, frozen=True):
    """How the answer is cut into claims."""

    min_words: int = 3
    """A segment with fewer words is not a claim."""
    max_claim_chars: int = 1000
    """A sentence longer than this is cut at clause boundaries into several claims."""
    table_cells: bool = True
    """Treat table body cells as separate segments (header rows are never claims)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check("min_words", 1 <= self.min_words <= 50, "1..50")
        self._check("max_claim_chars", 50 <= self.max_claim_chars <= 100_000, "50..100000")


class MatchConfig(_Section, frozen=True):
    """How sources are cut into passages and candidates found for each claim."""

    passage_sentences: int = 3
    """Sentences per passage."""
    passage_overlap: int = 1
    """Sentences shared by consecutive passages of one source."""
    passage_max_chars: int = 800
    """A passage is cut at this length even inside its sentence window."""
    top_k: int = 5
    """Candidate passages kept per claim."""
    lexical_weight: float = 0.35
    """Weight of the lexical score in the fused relevance score (the rest is embedding cosine)."""
    prefilter_per_claim: int = 4
    """When sources are large, only the lexically best passages per claim (by BM25) are
    embedded by a transformer embedder (and the best of each source the claim cites). 4 finds
    the gold passage as often as 8 or embedding every passage (WiCE, a claim against 20
    articles: ``benchmarks.prefilter_recall``) at half the transformer passes of 8."""
    static_prefilter_per_claim: int = 64
    """The same pre-filter for a static embedder, in requests of more passages than its
    ``embed_all_below``: cheap passes, but at 4,500 passages tokenising every one of them cost
    more than the transformer's pre-filtered passes (docs/benchmarks.md)."""
    embed_all_below: int | None = None
    """Embed every passage when a request has at most this many (no lexical pre-filter);
    None: 1,024 with a static embedder, 16 with a transformer (was 48: embedding every passage
    found no more gold passages and cost a transformer pass each)."""
    exact_index_max: int = 50_000
    """Above this many passages the FAISS index is approximate (HNSW) instead of exact."""
    min_passage_similarity: float = 0.15
    """A candidate with a fused relevance score below this is dropped."""
    min_top_mean: float = 0.20
    """If the mean fused score of a claim's top candidates is below this: no relevant source."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check("passage_sentences", 1 <= self.passage_sentences <= 50, "1..50")
        self._check(
            "passage_overlap",
            0 <= self.passage_overlap < self.passage_sentences,
            "0..passage_sentences-1",
        )
        self._check("passage_max_chars", 100 <= self.passage_max_chars <= 20_000, "100..20000")
        self._check("top_k", 1 <= self.top_k <= 100, "1..100")
        self._check("lexical_weight", 0.0 <= self.lexical_weight <= 1.0, "0..1")
        self._check("prefilter_per_claim", 1 <= self.prefilter_per_claim <= 1000, "1..1000")
        self._check(
            "static_prefilter_per_claim", 1 <= self.static_prefilter_per_claim <= 10_000, "1..10000"
        )
        self._check(
            "embed_all_below",
            self.embed_all_below is None or 0 <= self.embed_all_below <= 1_000_000,
            "0..1000000 or null",
        )
        self._check("exact_index_max", self.exact_index_max >= 1, ">= 1")
        self._check("min_passage_similarity", -1.0 <= self.min_passage_similarity <= 1.0, "-1..1")
        self._check("min_top_mean", -1.0 <= self.min_top_mean <= 1.0, "-1..1")


class VerifyConfig(_Section, frozen=True):
    """How (claim, passage) pairs are scored and turned into verdicts."""

    support_threshold: float | None = None
    """Score at or above which a claim is supported; None: the verifier's own calibrated one."""
    partial_margin: float = 0.15
    """Scores within this margin below the support threshold are 'partially supported'."""
    pair_passages: bool = True
    """Also score the best two passages joined, for claims that need two sources together
    (only claims no single passage supports)."""
    joined_veto: float = 0.9
    """Two passages are not joined when the judge's P(contradiction) of one of them alone is
    at least this and above its support: joined, "located in Paris" and "Berlin is the capital
    of Germany" read as support for "located in Berlin, Germany". Not lower: half a claim
    often reads as contradicted (a passage on Curie's 1911 chemistry prize alone: 0.80 for "won
    physics in 1903 and chemistry in 1911"). 0.9 is the shipped combination's veto level. At
    this level a passage also makes a claim nothing supports even in part "contradicted"."""
    joined_needs_judge: bool = True
    """A joined pair supports a claim only when the verifier's cross-encoder, where it is one
    signal of several, also reads the joined text as support at its own calibrated threshold
    (its manifest ``threshold``). Joined, two passages' words cover more of the claim than
    either does alone, and the cheap signals outvoted the judge there (the bundled example's
    "first telescope ever launched to the surface of the Moon": 0.61 combined with the ``fast``
    preset, the judge's own 0.38). False: the combined score alone decides, as before. The
    judge's threshold is its own: ``support_threshold`` moves the combined score's, not this
    one. No effect where the verifier is the judge alone or has none."""
    passages_per_claim: int = 2
    """The matcher's best candidates per claim that the verifier scores (at most
    ``MatchConfig.top_k`` of them). Fewer is faster: with today's judge two are as accurate as
    five on the harness (mean balanced accuracy / AUC 0.697 / 0.787 both) and about 15% faster
    on sources never seen (docs/benchmarks.md, "two candidates a claim")."""
    passages_per_cited_source: int = 1
    """Best passages scored in each source a claim's markers cite (when not among the above)."""
    first_round_passages: int = 1
    """Score a claim's candidates in two rounds: first its best this many and every candidate
    of a source it cites, then the others only if none of those supports it. Verdicts are the
    same as with every candidate scored (more passages cannot undo "supported"); a supported
    claim's score and supporting source are the best of the first round, not of all. 0: one
    round, every candidate scored."""
    verbatim: bool = True
    """A claim found word for word in a passage is supported by it without a model pass
    (``shortcut: "verbatim"`` in the result)."""
    skip_out_of_reach: bool = True
    """With a combined verifier, a pair whose cheap signals could not reach the partial
    threshold (a joined pair: the support threshold) even if the cross-encoder said "supported"
    with certainty gets no model pass: its score is the signals' own with the model's
    probabilities at 0, below that threshold, and it ranks below every pair the model scored
    (``shortcut: "out_of_reach"`` when no pair of the claim was scored). Supported and
    partially supported verdicts are those of scoring it; where a claim's best scored pair
    contradicts it, the skipped pairs that could outrank that pair are scored too, so a
    contradicted verdict is as well; a contradiction only a skipped pair would have shown is
    not looked for. An unsupported claim's reported score can differ from the model's for the
    same pair (docs/benchmarks.md)."""
    evidence_sentences: int = 2
    """Sentences of a passage quoted as evidence at most."""
    evidence_max_chars: int = 150
    """A sentence longer than this is quoted by its best pieces of at most this many characters
    (cut at spaces), not whole: run-on text without full stops or line breaks (menus, captions,
    a scrape's joined lines) would otherwise make a quote of many sentences."""
    evidence_judge_weight: float = 0.0
    """Where the verifier has a cross-encoder and this is above 0, the first quoted sentence is
    chosen among the ``evidence_judge_sentences`` best by term coverage (only those within this
    weight of the best can win, so only they are read), by coverage plus this weight times the
    model's 1 - P(neutral) for that sentence alone. 0, the default: terms alone. At 0.1 it
    found one more WiCE gold sentence in 92 at recall@1 and cost about 230 ms per 10-claim
    answer on a slow 2-core machine (a short model pass per sentence read; docs/benchmarks.md)."""
    evidence_judge_sentences: int = 4
    """Sentences the judge reads per quoted source (see ``evidence_judge_weight``)."""
    nearest_evidence: bool = True
    """Quote, for a claim the engine calls unsupported, the passage that came closest (the
    best-scored one; its sentences chosen as evidence quotes are): ``ClaimResult.nearest``, what
    the sources do say where a reader looks. No model pass (unless ``evidence_judge_weight``
    is above 0: the judge breaks its near-ties as for evidence); False leaves it empty."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check(
            "support_threshold",
            self.support_threshold is None or 0.0 <= self.support_threshold <= 1.0,
            "0..1 or null",
        )
        self._check("partial_margin", 0.0 <= self.partial_margin <= 1.0, "0..1")
        self._check("joined_veto", 0.0 <= self.joined_veto <= 1.0, "0..1")
        self._check("passages_per_claim", 1 <= self.passages_per_claim <= 100, "1..100")
        self._check(
            "passages_per_cited_source", 1 <= self.passages_per_cited_source <= 100, "1..100"
        )
        self._check("first_round_passages", 0 <= self.first_round_passages <= 100, "0..100")
        self._check("evidence_sentences", 1 <= self.evidence_sentences <= 20, "1..20")
        self._check("evidence_max_chars", 40 <= self.evidence_max_chars <= 20_000, "40..20000")
        self._check("evidence_judge_weight", 0.0 <= self.evidence_judge_weight <= 10.0, "0..10")
        self._check("evidence_judge_sentences", 1 <= self.evidence_judge_sentences <= 50, "1..50")


class ReconcileConfig(_Section, frozen=True):
    """What is done with the markers the model wrote and the ones it left out."""

    marker_style: MarkerStyle | None = None
    """Rewrite every marker in this style (``citation``: [n] -> [citation:n]); None: keep."""
    fill_missing: bool = True
    """Add markers to supported claims that carry none."""
    drop_unknown: bool = True
    """Remove numbers the registry does not know from the returned answer (a marker left with
    none goes entirely); each is still reported in ``markers`` as ``unknown_number``. An unknown
    number resolves to no source, so showing it would show the reader a dead link (ADR 0001)."""
    placement: Literal["follow", "before_punctuation", "after_punctuation"] = "follow"
    """Where an added marker goes relative to the sentence's final punctuation: ``follow``
    where the answer's own markers go (after it where most of them follow a sentence's full
    stop: ``in 1889.[1]``; before it otherwise, and where the answer has none)."""
    answer_key: bool = True
    """Read the answer's markers through its own key when it has one that can be followed all
    the way (``attribution.decide.answer_key``): link definitions, footnote definitions or a
    trailing ``[n]`` reference list whose entries name the sources (by address, else by
    title). ``[1]`` then cites the page the answer's own entry 1 names, and is checked and
    written back as that source's number in the conversation; an entry naming a page that is
    none of them makes its number unknown. False: every number is the registry's."""
    fix_wrong_source: bool = False
    """Write a marker the verifier finds citing the wrong source with the number of the source
    that supports its claim (its ``suggested`` number) instead; the marker's check still says
    ``wrong_source``. Off by default: the answer keeps what the model wrote, and the caller
    gets the suggestion."""
    list_added: bool = True
    """Where the answer ends with a list of sources (``Sources: [1]``, or lines ``[1] Title``),
    list there the sources the answer cites once edited that it does not name (added by the
    engine, or cited but left out: ``Sources: [1], [2]``; ``[2] Title``, in the form of the
    list's last line)."""
    marker_parts: bool = False
    """Where the answer cites a claim clause by clause ("X in 2015 [2], while Y in 2009
    [3]."), read each marker against the part of the claim it closes, and call the claim
    supported where each part is (``attribution.decide.marker_parts``). Off by default: a part
    read alone loses what the sentence says around it ("In 2015, A was X [1], and B was Y
    [2]." reads "B was Y" for [2]), and reviews found false claims called supported so; on,
    it mends correct markers a sentence read whole calls wrong (docs/benchmarks.md)."""
    max_sources_per_claim: int = 3
    """Sources cited at most by one added marker."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check("max_sources_per_claim", 1 <= self.max_sources_per_claim <= 20, "1..20")


class AttributionConfig(_Section, frozen=True):
    """Configuration of the whole pipeline; every section has sane defaults."""

    model: ModelConfig = ModelConfig()
    segment: SegmentConfig = SegmentConfig()
    match: MatchConfig = MatchConfig()
    verify: VerifyConfig = VerifyConfig()
    reconcile: ReconcileConfig = ReconcileConfig()


PRESETS: Mapping[str, AttributionConfig] = MappingProxyType(
    {
        "default": AttributionConfig(),
        "fast": AttributionConfig(
            model=ModelConfig(embedder="minilm-static-256"),
            match=MatchConfig(lexical_weight=0.5),
        ),
    }
)
"""Named configurations, for the CLI's ``--config NAME`` and the service's
``ATTRIBUTION_CONFIG=NAME``:

- ``default``: the best-ranking scores (the highest AUC; the MiniLM bi-encoder's shortlist;
  the judge reads at most two candidates a claim, besides a cited source's best passage);
- ``fast``: the static embedder's shortlist (no transformer pass to find candidates) and the
  lexical score given more weight beside its weaker cosine (``match.lexical_weight`` 0.5
  instead of 0.35); the judge reads as many candidates as in the default. About 1.6 times
  faster on sources never seen before (10 claims against 20 sources of 800 words on two
  cores: 0.37-0.40 s against 0.59-0.66 s; 100 sources of 2,000 words: 0.65 s against 0.87 s),
  with scores that rank claims less well (mean AUC 0.781 against 0.791 on the validation
  data; mean balanced accuracy 0.712 against 0.708; docs/benchmarks.md, "the fast preset",
  "the embedder in int8 arithmetic", "two lanes" and "a joined pair counts only where the
  judge reads it as support")."""


def preset(name: str) -> AttributionConfig:
    """The named configuration (:data:`PRESETS`).

    Raises:
        ConfigError: no preset has that name (the known ones are named).
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise ConfigError(
            f"no configuration preset {name!r}; the presets are {', '.join(sorted(PRESETS))}"
        ) from None


def read_config(name_or_path: str) -> AttributionConfig:
    """A preset by name (:data:`PRESETS`), else the JSON ``AttributionConfig`` file at that path
    (what the CLI's ``--config`` and the service's ``ATTRIBUTION_CONFIG`` take).

    Raises:
        ConfigError: neither a preset nor a readable file, or not a valid configuration; the
            message does not repeat ``name_or_path`` (the caller says where it came from).
    """
    if name_or_path in PRESETS:
        return PRESETS[name_or_path]
    try:
        data = Path(name_or_path).read_bytes()
    except OSError as exc:
        raise ConfigError(
            f"neither a preset ({', '.join(sorted(PRESETS))}) nor a readable file "
            f"({exc.strerror or exc})"
        ) from exc
    return load_config(data)


def load_config(data: bytes | str | dict[str, Any]) -> AttributionConfig:
    """An :class:`AttributionConfig` from JSON text or a dict.

    Raises:
        ConfigError: an unknown field, a wrong type, or a value out of bounds (named); ``data``
            neither JSON text nor a dict.
    """
    if not isinstance(data, bytes | bytearray | str | dict):
        raise ConfigError(f"configuration: expected JSON text or a dict, got {type(data).__name__}")
    try:
        if isinstance(data, dict):
            return msgspec.convert(data, AttributionConfig)
        return msgspec.json.decode(data, type=AttributionConfig)
    except ConfigError:
        raise
    except msgspec.ValidationError as exc:
        raise ConfigError(f"configuration: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise ConfigError(f"configuration: malformed JSON: {exc}") from exc
