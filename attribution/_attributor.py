"""The pipeline: extract → register → segment → match → verify → reconcile → emit.

:class:`Attributor` owns the loaded models (built lazily, once) and only wires the stages
together; each stage lives in its own module and can be tested alone.
"""

from __future__ import annotations

import gc
import re
import time
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

import msgspec
import numpy as np

from attribution._config import AttributionConfig
from attribution._errors import ConfigError, InputError
from attribution._result import AttributionResult, ClaimResult, EvidenceQuote, MarkerCheck
from attribution._wire import CitationSource, ToolOutput, sources_or_tool_outputs
from attribution.decide import (
    OUT_OF_REACH,
    AnswerKey,
    CheckedClaim,
    ClaimDecision,
    ClaimOutcome,
    KeyedSource,
    MarkerPart,
    Numbering,
    Support,
    Thresholds,
    answer_key,
    best_support,
    check_marker,
    claims_to_check,
    decide_claim,
    marker_parts,
    parts_decision,
    read_links,
    support_rank,
    unchecked_unknown,
)
from attribution.emit import (
    Edit,
    answer_placement,
    assemble_result,
    clear_quote_cache,
    evidence_quotes,
    footnote_definitions,
    held_markers,
    insertion_edit,
    kept_numbers,
    listed_sources_edit,
    marker_edits,
    marker_text,
    restyled_definitions,
)
from attribution.match import (
    EmbeddingCache,
    LexicalIndex,
    Matcher,
    MatchResult,
    Passage,
    clear_lexical_cache,
    clear_sentence_cache,
    make_passages,
)
from attribution.sources import (
    CitationRegistry,
    ExtractionWarning,
    check_distinct_ids,
    extract_sources,
    made_safe,
    merge_sightings,
    source_key,
)
from attribution.text import (
    UNNUMBERED,
    Marker,
    MarkerStyle,
    find_markers,
    protected_spans,
    rewrite_marker,
    written_style,
)
from attribution.verify import (
    Pair,
    SentenceJudge,
    Verifier,
    clear_text_cache,
    sentence_judge,
    titled_passage,
    verbatim_as_written,
    verbatim_in,
    word_key,
)

if TYPE_CHECKING:
    from attribution.runtime import Embedder
    from attribution.segment import Segment, Segmenter

__all__ = ["Attributor", "PreparedSources", "SourcesOrToolOutputs"]

_Skipped: TypeAlias = list[list[tuple[Pair, tuple[int, tuple[int, ...]], float]]]
"""Per claim, the pairs the model did not score (out of reach): pair, owner, ceiling."""

_REACH_MARGIN = 1e-9
"""A pair is out of reach when its ceiling is below the threshold by more than this."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def _valid_text(text: str, what: str) -> None:
    """Raise :class:`InputError` when ``text`` holds a surrogate code point (half of a UTF-16
    pair, as ``"\\ud800"`` or bytes decoded with ``surrogateescape`` give): it is no character,
    cannot be written as UTF-8, and would fail deep inside the pipeline."""
    if text.isascii():  # most text, checked at memory speed
        return
    bad = _SURROGATE.search(text)
    if bad is not None:
        raise InputError(
            f"{what}: a lone surrogate U+{ord(bad[0]):04X} at character {bad.start()} is not "
            "text (valid Unicode only)"
        )


def _valid_sources(sources: Sequence[CitationSource], what: str) -> None:
    """:func:`_valid_text` for every text field of every source."""
    for i, source in enumerate(sources):
        name = f"{what}[{i}]"
        for field, value in (
            ("id", source.id),
            ("title", source.title),
            ("uri", source.uri),
            ("snippet", source.snippet),
            ("fullContent", source.full_content),
        ):
            if value:
                _valid_text(value, f"{name}.{field}")


class PreparedSources(NamedTuple):
    """A request's sources, ready to judge claims against (:meth:`Attributor.prepare_sources`)."""

    sources: list[CitationSource]
    """The sources (extracted from tool outputs, duplicates merged)."""
    warnings: tuple[ExtractionWarning, ...]
    """What extraction could not use."""
    numbering: Numbering
    """Their citation numbers (in the registry given, else 1, 2, ...)."""
    passages: list[Passage]
    """The sources cut into passages."""
    lexical: LexicalIndex
    """Term statistics over the passages."""


class Verified(NamedTuple):
    """What the verify stage found for each claim of a request."""

    per_source: list[dict[int, Support]]
    """The best support per source."""
    pair: list[Support | None]
    """The support of the best two passages joined."""
    contradicting: list[Support | None]
    """The scored passage that contradicts the claim most, where the judge says one does
    (P(contradiction) at least ``VerifyConfig.joined_veto`` and above its support)."""
    pair_refused: list[bool]
    """Whether the model read the best two passages joined and the judge's gate did not count
    them (``VerifyConfig.joined_needs_judge``): a model pass decided, though ``pair`` is None."""


def _with_parts(
    whole: Mapping[int, Support], parts: Sequence[Mapping[int, Support]]
) -> dict[int, Support]:
    """A claim's best support per source, each source's best of the whole claim and of its
    parts (the evidence quotes of a claim cited clause by clause come from each part's)."""
    best = dict(whole)
    for found in parts:
        for source, support in found.items():
            if source not in best or support.score > best[source].score:
                best[source] = support
    return best


class _PartVerified(NamedTuple):
    """What the verify stage found for one part of a claim (:class:`Verified`'s columns)."""

    per_source: dict[int, Support]
    pair: Support | None
    contradicting: Support | None
    pair_refused: bool


SourcesOrToolOutputs = Sequence[CitationSource] | Sequence[ToolOutput] | Sequence[Mapping[str, Any]]
"""What :meth:`Attributor.attribute` takes: typed sources or tool outputs, or their JSON dicts."""


def _footnote_text(sources: Sequence[CitationSource], numbering: Numbering, number: int) -> str:
    """What a footnote added for ``number`` says: the source's title and address, one line."""
    index = numbering.index_of(number)
    if index is None:
        return f"source {number}"
    source = sources[index]
    parts = [p for p in (source.title, source.uri) if p] or [source.id]
    return " ".join(", ".join(parts).split())


def _with_fixes(
    edits: list[Edit],
    fixes: Mapping[int, tuple[Marker, Mapping[int, int]]],
    cfg: AttributionConfig,
    known: Collection[int],
    foreign: Collection[tuple[int, int]],
) -> list[Edit]:
    """``edits`` with each marker in ``fixes`` (by start) written with the numbers of the
    sources that support its claim in place of the wrong ones (``reconcile.fix_wrong_source``):
    the marker's own edit, if it had one, gives way."""
    out = [
        e
        for e in edits
        if not any(e.start == m.start and e.end == m.end for m, _ in fixes.values())
    ]
    for m, right in fixes.values():
        kept = kept_numbers(
            m, known=known, drop_unknown=cfg.reconcile.drop_unknown, foreign=foreign
        )
        numbers = tuple(dict.fromkeys(right.get(n, n) for n in kept))
        if numbers:
            out.append(Edit(m.start, m.end, rewrite_marker(m, numbers, cfg.reconcile.marker_style)))
    return out


def _title_and_address(
    sources: Sequence[CitationSource], numbering: Numbering, number: int
) -> tuple[str, str | None]:
    """A source's title (else its address, else its id) and address, one line each."""
    index = numbering.index_of(number)
    if index is None:
        return f"source {number}", None
    source = sources[index]
    url = " ".join((source.uri or "").split()) or None
    title = " ".join((source.title or "").split()) or url or source.id
    return title, url


def _outside_code(
    markers: Sequence[Marker], segments: Sequence[Segment]
) -> tuple[Sequence[Marker], Sequence[Segment]]:
    """The markers and segments without what lies in code the segmenter found and the marker
    finder cannot see: an indented code block ("    y = [2]" after a blank line) holds no
    citation, so nothing in it is checked, rewritten or dropped."""
    code = [(s.start, s.end) for s in segments if s.skip_reason == "code" and s.markers]
    if not code:
        return markers, segments
    starts = [a for a, _ in code]  # segments come in order and never overlap

    def in_code(at: int) -> bool:
        k = bisect_right(starts, at) - 1
        return k >= 0 and at < code[k][1]

    kept = [m for m in markers if not in_code(m.start)]
    bare = [
        msgspec.structs.replace(s, markers=()) if s.skip_reason == "code" else s for s in segments
    ]
    return kept, bare


def _keyed_sources(
    prepared: PreparedSources, registry: CitationRegistry | None = None
) -> list[KeyedSource]:
    """What an answer's own reference list and its link citations may name: the request's
    sources, then the conversation's other registered ones (by their display address and
    title)."""
    numbering = prepared.numbering
    keyed = [
        KeyedSource(number=n, uri=s.uri, title=s.title)
        for n, s in zip(numbering.numbers, prepared.sources, strict=True)
    ]
    if registry is None:
        return keyed
    here = set(numbering.numbers)
    keyed += [
        KeyedSource(number=e.number, uri=e.display.uri, title=e.display.title)
        for e in registry.entries()
        if e.number not in here
    ]
    return keyed


_AFTER_WORDS = " \t\r\n(),;&"
_GROUP_LEAD = re.compile(r"\((?:[ \t]*(?:see|also|cf\.?|and))*[ \t]*$", re.IGNORECASE)
_TRAILING_AND = re.compile(r"(?:[ \t]+(?:and|&))+$", re.IGNORECASE)


def _words_end(answer: str, segment: Segment) -> int:
    """Where a claim's words end: before the markers it ends with, and the brackets, separators
    and leading words of their group (``... Frankfurt. ([5]; [3])`` ends after "Frankfurt.").
    A marker added goes there, not where the markers it replaces were."""
    end = segment.end
    starts = {m.end: m.start for m in segment.markers}
    moved = False
    while True:
        head = answer[segment.start : end].rstrip(_AFTER_WORDS)
        if moved:
            head = _TRAILING_AND.sub("", head).rstrip(_AFTER_WORDS)
        if moved and (lead := _GROUP_LEAD.search(head)) is not None:
            head = head[: lead.start()].rstrip(_AFTER_WORDS)
        at = segment.start + len(head)
        if at not in starts:
            return max(at, segment.start + 1) if moved else segment.end
        end, moved = starts[at], True


def _labelled_like(markers: Sequence[Marker]) -> Marker | None:
    """A marker of the answer with a word before its number (``[doc1]``, ``[Source 2]``), where
    most of its bracket markers have one: the markers the engine adds are written like it."""
    bracket = [m for m in markers if m.style == "bracket"]
    labelled = [m for m in bracket if not m.text.lstrip("[ ")[:1].isdigit()]
    return labelled[0] if labelled and 2 * len(labelled) > len(bracket) else None


TEXTLESS_REASON = (
    "the sources it cites came without text to check it against (search results without "
    "their pages' text: fetch the pages, or pass their text)"
)
"""Why a claim is unsupported where every source it cites came without text (Anthropic's and
Gemini's search results, a fetched PDF): not that the sources say otherwise."""


def _cites_only_textless(claim: CheckedClaim, numbering: Numbering) -> bool:
    """Whether the claim cites sources and every one of them came without text."""
    cited = set(claim.cited_sources)
    return bool(cited) and cited <= numbering.textless


def _dominant_style(markers: Sequence[Marker]) -> MarkerStyle:
    """The style most markers of the answer use (bracket when there are none)."""
    counts: dict[MarkerStyle, int] = {}
    for m in markers:
        if (style := written_style(m)) is not None:
            counts[style] = counts.get(style, 0) + 1
    return max(counts, key=lambda s: counts[s]) if counts else "bracket"


class Attributor:
    """Attributes the claims of finished answers to the sources behind them.

    Example::

        from attribution import Attributor, AttributionConfig

        attributor = Attributor.from_config(AttributionConfig())
        result = attributor.attribute(answer, tool_outputs)
        print(result.answer)              # markers checked and filled in
        result.citations                  # StoredCitationData for the frontend

    Models load on first use and once per attributor; an attributor may be shared by threads.
    """

    def __init__(
        self,
        config: AttributionConfig | None = None,
        *,
        embedder: Embedder | None = None,
        verifier: Verifier | None = None,
        segmenter: Segmenter | None = None,
        cache: EmbeddingCache | None = None,
    ) -> None:
        self.config = config or AttributionConfig()
        self._embedder = embedder
        self._verifier = verifier
        self._segmenter = segmenter
        self.cache = cache if cache is not None else EmbeddingCache()
        """The embeddings of every passage seen, by content hash (shared by :meth:`with_config`)."""

    @classmethod
    def from_config(cls, config: AttributionConfig) -> Attributor:
        """An attributor built from a configuration (models load on first use)."""
        return cls(config)

    def with_config(self, config: AttributionConfig) -> Attributor:
        """An attributor with another configuration that shares this one's models and caches.

        The embedder, verifier, segmenter and embedding cache are this attributor's (loaded
        now if they were not yet), so a per-request variant costs nothing. The model section
        must be the same: other models need their own attributor (:meth:`from_config`).

        Raises:
            ConfigError: ``config`` is not an :class:`AttributionConfig` (a dict: use
                :func:`load_config` first), or ``config.model`` differs from this attributor's.
        """
        if not isinstance(config, AttributionConfig):
            raise ConfigError(
                f"with_config takes an AttributionConfig, got {type(config).__name__} "
                "(attribution.load_config reads one from JSON or a dict)"
            )
        if config == self.config:
            return self
        if config.model != self.config.model:
            raise ConfigError(
                "with_config shares the loaded models, so the model section must not change; "
                "build another attributor with Attributor.from_config for other models"
            )
        return Attributor(
            config,
            embedder=self.embedder,
            verifier=self.verifier,
            segmenter=self.segmenter,
            cache=self.cache,
        )

    def clear_caches(self) -> None:
        """Forget every cached embedding and verifier score (as if no source was seen before);
        a verifier keeps scores when it has a ``clear_cache`` method (the built-in ones do).

        Shared with the attributors :meth:`with_config` made from this one. The process-wide
        caches of per-text work (sentence spans, passage terms, verifier features, quoted
        sentences' terms) are emptied too.
        """
        clear_sentence_cache()
        clear_lexical_cache()
        clear_text_cache()
        clear_quote_cache()
        self.cache.clear()
        clear = getattr(self.verifier, "clear_cache", None)
        if clear is not None:
            clear()

    # -- resources ----------------------------------------------------------------------------

    @cached_property
    def embedder(self) -> Embedder:
        """The sentence embedder."""
        if self._embedder is not None:
            return self._embedder
        from attribution.runtime import load_embedder

        return load_embedder(self.config.model)

    @cached_property
    def verifier(self) -> Verifier:
        """The support verifier: the configured cross-encoder, else the feature verifier."""
        if self._verifier is not None:
            return self._verifier
        from attribution.verify import load_verifier

        return load_verifier(self.config.model, embedder=self.embedder)

    @cached_property
    def _sentence_judge(self) -> SentenceJudge | None:
        """The verifier's cross-encoder reading single sentences for evidence quotes (None:
        the verifier has none, or ``evidence_judge_weight`` is 0)."""
        if self.config.verify.evidence_judge_weight <= 0.0:
            return None
        return sentence_judge(self.verifier)

    @cached_property
    def segmenter(self) -> Segmenter:
        """The claim segmenter."""
        if self._segmenter is not None:
            return self._segmenter
        from attribution.segment import Segmenter

        return Segmenter(self.config.segment)

    @cached_property
    def matcher(self) -> Matcher:
        """The passage matcher (shares the attributor's embedding cache)."""
        return Matcher(self.embedder, self.config.match, cache=self.cache)

    def warm_up(self, *, freeze_gc: bool = False) -> None:
        """Load every model now rather than on the first request.

        Args:
            freeze_gc: then move every object the process holds into the garbage collector's
                permanent generation (:func:`gc.freeze`), so that its full collections, which
                a request's allocations trigger, no longer walk the models' objects (spaCy's
                above all; 233,000 objects, about 80 ms a walk on two cores). For a process
                that serves many requests; the HTTP and MCP servers do it, and undo it
                (:func:`gc.unfreeze`) when they stop. Objects frozen are freed as usual when
                their count drops to zero; only reference cycles among them wait for the
                unfreeze.
        """
        self.segmenter.segment("Warm up.")
        self.matcher.warm_up()
        _ = self.verifier
        if freeze_gc:
            gc.collect()
            gc.freeze()

    # -- the pipeline -------------------------------------------------------------------------

    def _sources(
        self, given: SourcesOrToolOutputs, what: str = "sources_or_tool_outputs"
    ) -> tuple[list[CitationSource], tuple[ExtractionWarning, ...]]:
        items = sources_or_tool_outputs(given, what=what)
        if all(isinstance(i, ToolOutput) for i in items):
            for position, item in enumerate(items):
                try:  # a lone surrogate anywhere in a call: said here, not lost in an extractor
                    msgspec.json.encode(item)
                except UnicodeEncodeError as exc:
                    raise InputError(
                        f"{what}[{position}]: a lone surrogate U+{ord(exc.object[exc.start]):04X} "
                        "in the tool output is not text (valid Unicode only)"
                    ) from exc
            extracted = extract_sources(items)  # type: ignore[arg-type]
            return list(extracted.sources), extracted.warnings
        if not all(isinstance(i, CitationSource) for i in items):
            kinds = sorted({type(i).__name__ for i in items})
            raise InputError(
                f"sources must be all CitationSource or all ToolOutput, got {', '.join(kinds)}"
            )
        # one source per key, as extraction does: a later sighting fills the gaps and brings
        # a longer text (a page given as a search result and as a scrape); a warning says so,
        # since the sources are numbered after the merge and only the longer text is kept
        given = [i for i in items if isinstance(i, CitationSource)]
        _valid_sources(given, what)
        check_distinct_ids(given, what)
        # as safe as extracted sources: no javascript: address, no bidi overrides in a title
        given, safety = made_safe(given, what)
        merged: dict[str, CitationSource] = {}
        warnings: list[ExtractionWarning] = list(safety)
        for position, source in enumerate(given):
            key = source_key(source)
            first = merged.get(key)
            if first is None:
                merged[key] = source
                continue
            texts = (first.full_content or "", source.full_content or "")
            kept = "; the longer text was kept" if all(texts) and texts[0] != texts[1] else ""
            warnings.append(
                ExtractionWarning(
                    tool_name=what,
                    reason=f"item {position} ({source.id!r}) has the source key of "
                    f"{first.id!r} ({key!r}): they were merged into one source{kept}",
                )
            )
            merged[key] = merge_sightings(first, source)
        return list(merged.values()), tuple(warnings)

    def attribute(
        self,
        answer: str,
        sources_or_tool_outputs: SourcesOrToolOutputs,
        registry: CitationRegistry | None = None,
    ) -> AttributionResult:
        """Attribute every claim of ``answer`` to the sources.

        Args:
            answer: the finished answer (markdown).
            sources_or_tool_outputs: the sources, or the raw tool outputs to extract them from:
                :class:`CitationSource` / :class:`ToolOutput` objects, or the same as the
                JSON-shaped dicts ``json.loads`` gives (camelCase keys, strictly validated).
            registry: the conversation's citation registry; sources are registered in it
                (find-or-create) and markers are read against its numbers. Without one, the
                sources are numbered 1, 2, ... in the order given (extracted).

        Returns:
            Verdicts per claim and per marker, evidence quotes, StoredCitationData, the
            answer with markers normalised and filled in, and a summary.

        Raises:
            InputError: the answer is not a string, the sources are of mixed kinds, or a dict
                has a missing, unknown or mistyped field (the message names it: ``$[2].type``).
        """
        if not isinstance(answer, str):
            raise InputError(f"answer must be a string, got {type(answer).__name__}")
        _valid_text(answer, "answer")
        timings: dict[str, float] = {}
        clock = time.perf_counter()

        def lap(stage: str) -> None:
            nonlocal clock
            now = time.perf_counter()
            timings[stage] = round((now - clock) * 1000, 3)
            clock = now

        registry = registry if registry is not None else CitationRegistry()
        prepared = self.prepare_sources(sources_or_tool_outputs, registry)
        lap("extract")

        markers = find_markers(answer)
        segments = self.segmenter.segment(answer)
        keyed = _keyed_sources(prepared, registry)
        markers, segments = read_links(answer, markers, segments, keyed)
        key = None
        if self.config.reconcile.answer_key:
            key = answer_key(
                answer,
                segments,
                [m for m in markers if m.style not in UNNUMBERED],
                keyed,
                keep_foreign=not self.config.reconcile.drop_unknown,
            )
        lap("segment")
        result = self._judge(answer, markers, segments, prepared, lap, key)
        lap("reconcile")  # decide + emit (the key keeps its name)
        return msgspec.structs.replace(result, warnings=prepared.warnings, timings_ms=timings)

    def prepare_sources(
        self,
        sources_or_tool_outputs: SourcesOrToolOutputs,
        registry: CitationRegistry | None = None,
    ) -> PreparedSources:
        """The sources of a request, numbered, cut into passages and indexed, ready to judge
        claims against: what :meth:`attribute` does first, kept for :meth:`check_segments`.

        Args:
            sources_or_tool_outputs: as for :meth:`attribute`.
            registry: as for :meth:`attribute`; the sources are registered in it.

        Raises:
            InputError: as for :meth:`attribute`.
        """
        sources, warnings = self._sources(sources_or_tool_outputs)
        registry = registry if registry is not None else CitationRegistry()
        numbers = [registry.register_source(s) for s in sources]
        passages = make_passages(sources, self.config.match)
        return PreparedSources(
            sources=sources,
            warnings=warnings,
            numbering=Numbering(
                numbers=tuple(numbers),
                source_ids=tuple(src.id for src in sources),
                known=registry.numbers(),
                textless=frozenset(range(len(sources))) - {p.source_index for p in passages},
            ),
            passages=passages,
            lexical=LexicalIndex(
                [p.text for p in passages],
                groups=list(Counter(p.source_index for p in passages).values()),
            ),
        )

    def check_segments(
        self,
        text: str,
        segments: Sequence[Segment],
        prepared: PreparedSources,
        *,
        offset: int = 0,
    ) -> list[ClaimResult]:
        """Judge some segments of an answer (a streamed answer's finished sentences).

        Each claim is judged as :meth:`attribute` judges it in the whole answer: its markers
        are checked, missing ones are filled in, and it gets the same verdict, numbers and
        evidence (the matcher's shortlist aside: when a request has more passages than it embeds,
        the passages embedded for one claim can be candidates of another).

        Args:
            text: the answer from ``offset`` on, at least up to the last segment's end; only
                this is read, so the cost does not grow with what came before.
            segments: segments of the answer from its :class:`Segmenter`, offsets into the
                whole answer (non-claims without markers are skipped, as in :meth:`attribute`).
            prepared: the request's sources, from :meth:`prepare_sources`.
            offset: where ``text`` starts in the answer.

        Returns:
            One :class:`ClaimResult` per claim, in order, offsets into the whole answer;
            ``index`` counts these claims from 0, and ``output_start`` / ``output_end`` equal
            ``start`` / ``end`` (the edits of the whole answer are not known yet).
        """
        for s in segments:
            _valid_text(s.text, f"segment {s.index}")
        replace = msgspec.structs.replace

        def shifted(s: Segment) -> Segment:
            return replace(
                s,
                start=s.start - offset,
                end=s.end - offset,
                markers=tuple(
                    replace(m, start=m.start - offset, end=m.end - offset) for m in s.markers
                ),
            )

        local = [shifted(s) for s in segments]
        markers = [m for s in local for m in s.markers]
        # link citations name the request's sources by address (the whole answer's also name
        # the conversation's earlier pages, which a stream does not hold)
        markers, local = read_links(text, markers, local, _keyed_sources(prepared))
        result = self._judge(text, markers, local, prepared, lambda _: None)
        return [
            replace(
                c,
                start=c.start + offset,
                end=c.end + offset,
                output_start=c.start + offset,
                output_end=c.end + offset,
            )
            for c in result.claims
        ]

    def _judge(
        self,
        answer: str,
        markers: Sequence[Marker],
        segments: Sequence[Segment],
        prepared: PreparedSources,
        lap: Callable[[str], None],
        key: AnswerKey | None = None,
    ) -> AttributionResult:
        """Match, verify, decide and emit the claims among ``segments``; with the answer's
        own ``key`` to its numbers, its markers are read through it."""
        markers, segments = _outside_code(markers, segments)
        # a link citation no source list has read (a stream's segments) cites nothing known
        segments = [
            msgspec.structs.replace(s, markers=tuple(m for m in s.markers if m.numbers))
            if any(not m.numbers for m in s.markers)
            else s
            for s in segments
        ]
        foreign: frozenset[tuple[int, int]] = frozenset()
        renumbered: frozenset[int] = frozenset()
        if key is not None:
            written = {m.start: m.numbers for m in markers}
            markers, segments, foreign = key.translate(markers, segments)
            renumbered = frozenset(m.start for m in markers if m.numbers != written[m.start])
        numbering = prepared.numbering
        by_number = {n: i for i, n in enumerate(numbering.numbers)}
        claims = claims_to_check(answer, segments, by_number, foreign=foreign)
        # a claim cited clause by clause is read by its parts too ("X in 2015 [2], while Y in
        # 2009 [3]."): each part with the markers that close it
        parts = (
            marker_parts(answer, claims, by_number, foreign=foreign)
            if self.config.reconcile.marker_parts
            else []
        )
        checked = [*claims, *(p.claim for p in parts)]
        passages = prepared.passages
        match = self.matcher.match(
            [c.segment.read_as for c in checked],
            passages,
            cited={i: c.cited_sources for i, c in enumerate(checked) if c.cited_sources},
            lexical=prepared.lexical,
        )
        lap("match")

        titles = [s.title for s in prepared.sources]
        verified = self._verify(checked, match, passages, titles)
        lap("verify")
        n = len(claims)
        return self._decide_and_emit(
            answer,
            markers,
            claims,
            Verified(
                verified.per_source[:n],
                verified.pair[:n],
                verified.contradicting[:n],
                verified.pair_refused[:n],
            ),
            match.no_relevant_source[:n],
            match.lexical,
            passages,
            prepared.sources,
            numbering,
            key=key,
            foreign=foreign,
            renumbered=renumbered,
            source_list=[(s.start, s.end) for s in segments if s.skip_reason == "reference_list"],
            code=[(s.start, s.end) for s in segments if s.skip_reason == "code"],
            parts=[
                (
                    part,
                    _PartVerified(
                        verified.per_source[n + k],
                        verified.pair[n + k],
                        verified.contradicting[n + k],
                        verified.pair_refused[n + k],
                    ),
                    match.no_relevant_source[n + k],
                )
                for k, part in enumerate(parts)
            ],
        )

    def check_claims(
        self, claims: Sequence[str], sources: Sequence[CitationSource] | Sequence[Mapping[str, Any]]
    ) -> list[ClaimResult]:
        """Score each claim text as a whole against the sources (no segmentation, no markers).

        What benchmarks and the verification API need: the same matching and verification as
        :meth:`attribute`, for claims given one by one. Sources are numbered 1, 2, ... in order.

        Returns:
            One :class:`ClaimResult` per claim (offsets into the claim text itself).
        """
        from attribution.segment import Segment

        if isinstance(claims, str | bytes) or not isinstance(claims, Iterable):
            raise InputError(f"claims must be a list of strings, got {type(claims).__name__}")
        claims = list(claims)  # a tuple, a generator, an array of strings: read once
        for i, text in enumerate(claims):
            if not isinstance(text, str):
                raise InputError(f"claims[{i}] must be a string, got {type(text).__name__}")
            _valid_text(text, f"claims[{i}]")
        sources, _ = self._sources(sources, "sources")
        segments = [
            Segment(
                index=i,
                start=0,
                end=len(text),
                text=text,
                clean_text=" ".join(text.split()),
                block="paragraph",
                is_claim=True,
                skip_reason=None,
                markers=(),
                context=None,
            )
            for i, text in enumerate(claims)
        ]
        checked = [CheckedClaim(segment=s, cited_numbers=(), cited_sources=()) for s in segments]
        passages = make_passages(sources, self.config.match)
        match = self.matcher.match([s.read_as for s in segments], passages)
        titles = [s.title for s in sources]
        per_source, pair_support, contradicting, refused = self._verify(
            checked, match, passages, titles
        )
        numbering = Numbering(
            numbers=tuple(range(1, len(sources) + 1)),
            source_ids=tuple(src.id for src in sources),
            known=frozenset(),
        )
        results: list[ClaimResult] = []
        for i, claim in enumerate(checked):
            result = self._decide_and_emit(
                claim.segment.text,
                [],
                [claim],
                Verified([per_source[i]], [pair_support[i]], [contradicting[i]], [refused[i]]),
                [match.no_relevant_source[i]],
                match.lexical,
                passages,
                sources,
                numbering,
            )
            results.append(msgspec.structs.replace(result.claims[0], index=i))
        return results

    def _threshold(self) -> float:
        """The support threshold: the configured one, else the verifier's calibrated one."""
        configured = self.config.verify.support_threshold
        return configured if configured is not None else self.verifier.threshold

    def _verify(
        self,
        claims: Sequence[CheckedClaim],
        match: MatchResult,
        passages: Sequence[Passage],
        titles: Sequence[str | None],
    ) -> Verified:
        """Best support per (claim, source), and of the best pair of passages per claim.

        Model passes go only where they decide something: the ``passages_per_claim`` best
        candidates and the best passage of each cited source; a claim found word for word in a
        passage is supported by it without a pass (and its other uncited candidates are not
        scored). With ``first_round_passages`` above 0 the candidates go in two rounds: first
        the claim's best ``first_round_passages`` and every candidate of a source it cites, then
        the rest only for claims the first round left unsupported (more passages cannot undo a
        supported verdict, so no verdict changes). The best two passages joined are scored, in
        a last round, only for claims no single passage supports, and only when the judge does
        not say that one of the two alone contradicts the claim (``joined_veto``: "in Paris"
        beside "Berlin is in Germany" must not support "it is in Berlin, Germany"); a joined
        pair counts only where the judge's own P(support) of it reaches the judge's calibrated
        threshold too (``joined_needs_judge``; the cheap signals over-credit two passages'
        words together). With
        ``skip_out_of_reach``, pairs that could not reach the partial threshold (a joined pair:
        the support threshold) get no model pass (:meth:`_score`), except where a claim's best
        scored pair contradicts it: then those that could outrank that pair are scored too.
        """
        cfg = self.config.verify
        per_source: list[dict[int, Support]] = [{} for _ in claims]
        pair_support: list[Support | None] = [None for _ in claims]
        pair_refused = [False for _ in claims]
        later: list[list[Pair]] = [[] for _ in claims]
        later_owners: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in claims]
        pairs: list[Pair] = []
        owners: list[tuple[int, tuple[int, ...]]] = []
        keys: dict[int, str] = {}

        skipped: _Skipped = [[] for _ in claims]

        threshold = self._threshold()
        thresholds = Thresholds(support=threshold, partial=threshold - cfg.partial_margin)
        # each claim's passages the judge says contradict it alone: none is joined with another,
        # and the claim is contradicted if nothing supports it even in part
        contradicting: list[set[int]] = [set() for _ in claims]
        strongest: list[Support | None] = [None for _ in claims]

        def keep(i: int, support: Support) -> None:
            source_index = support.sources[0]
            best = per_source[i].get(source_index)
            if best is None or support_rank(support) > support_rank(best):
                per_source[i][source_index] = support
            contra = support.contradiction
            if contra is not None and contra >= cfg.joined_veto and contra > support.score:
                contradicting[i].update(support.passages)
                now = strongest[i]
                if now is None or now.contradiction is None or contra > now.contradiction:
                    strongest[i] = support

        for i, claim in enumerate(claims):
            text = claim.segment.read_as
            chosen = {c.passage: c for c in match.candidates[i][: cfg.passages_per_claim]}
            for source_index in claim.cited_sources:
                if any(passages[p].source_index == source_index for p in chosen):
                    continue
                for c in match.best_in_source(i, source_index, cfg.passages_per_cited_source):
                    chosen.setdefault(c.passage, c)
            verbatim: set[int] = set()
            if cfg.verbatim and chosen:
                claim_key = word_key(text)
                for p in chosen:
                    if p not in keys:
                        keys[p] = word_key(passages[p].text)
                    if verbatim_in(claim_key, keys[p]) or verbatim_as_written(
                        text, passages[p].text, keys[p]
                    ):
                        source_index = passages[p].source_index
                        verbatim.add(source_index)
                        keep(i, Support(1.0, (p,), (source_index,), shortcut="verbatim"))
            cited = set(claim.cited_sources)
            first = cfg.first_round_passages
            for rank, (p, c) in enumerate(chosen.items()):
                source_index = passages[p].source_index
                if source_index in verbatim or (verbatim and source_index not in cited):
                    continue
                # the source's dated title where the passage's "today" is the claim's date
                read = titled_passage(text, passages[p].text, titles[source_index])
                pair = Pair(claim=text, passage=read, cosine=c.cosine)
                if first and rank >= first and source_index not in cited:
                    later[i].append(pair)
                    later_owners[i].append((i, (p,)))
                else:
                    pairs.append(pair)
                    owners.append((i, (p,)))
        self._score(pairs, owners, match, passages, keep, thresholds.partial, skipped)
        if any(later):
            pairs, owners = [], []
            for i in range(len(claims)):
                best = best_support(per_source[i])
                if later[i] and (best is None or best[1].score < threshold):
                    pairs.extend(later[i])
                    owners.extend(later_owners[i])
            self._score(pairs, owners, match, passages, keep, thresholds.partial, skipped)
        # a claim its best scored pair contradicts: the skipped pairs that could outrank that
        # pair are scored after all, so "contradicted" is what scoring every pair would say
        pairs, owners = [], []
        for i in range(len(claims)):
            best = best_support(per_source[i])
            if best is None or best[1].shortcut is not None or best[1].contradiction is None:
                continue
            score, contradiction = best[1].score, best[1].contradiction
            if contradiction >= thresholds.contradiction and contradiction > score:
                for pair, owner, ceiling in skipped[i]:
                    if ceiling > score:
                        pairs.append(pair)
                        owners.append(owner)
        self._score(pairs, owners, match, passages, keep)

        if cfg.pair_passages:
            pairs, owners = [], []
            for i, claim in enumerate(claims):
                top = match.candidates[i][:2]
                best = best_support(per_source[i])
                if len(top) < 2 or (best is not None and best[1].score >= threshold):
                    continue
                a, b = top[0].passage, top[1].passage
                if {a, b} & contradicting[i]:
                    continue  # a passage that contradicts the claim does not support it joined
                if not match.may_join(i, a, b):
                    continue  # two sources, one without a word of the claim
                first, second = sorted((a, b), key=lambda p: (passages[p].source_index, p))
                vec = match.passage_vectors[a] + match.passage_vectors[b]
                norm = float(np.linalg.norm(vec)) or 1.0
                pairs.append(
                    Pair(
                        claim=claim.segment.read_as,
                        passage=passages[first].text + "\n" + passages[second].text,
                        cosine=float(np.dot(match.claim_vectors[i], vec) / norm),
                    )
                )
                owners.append((i, (first, second)))

            def keep_pair(i: int, support: Support) -> None:
                pair_support[i] = support

            def refuse_pair(i: int) -> None:
                pair_refused[i] = True

            # a joined pair counts only when it supports the claim, and (joined_needs_judge)
            # only when the judge, where it is one signal of several, says so too
            self._score(
                pairs,
                owners,
                match,
                passages,
                keep_pair,
                threshold,
                judge_gate=cfg.joined_needs_judge,
                refused=refuse_pair,
            )
        return Verified(per_source, pair_support, strongest, pair_refused)

    def _score(
        self,
        pairs: Sequence[Pair],
        owners: Sequence[tuple[int, tuple[int, ...]]],
        match: MatchResult,
        passages: Sequence[Passage],
        keep: Callable[[int, Support], None],
        must_reach: float | None = None,
        skipped: _Skipped | None = None,
        *,
        judge_gate: bool = False,
        refused: Callable[[int], None] | None = None,
    ) -> None:
        """Score pairs in one batch and hand each owner its support.

        With ``must_reach`` (and ``VerifyConfig.skip_out_of_reach``), a pair that cannot score
        that much whatever the verifier's model says (its ``reach``) is not sent to the model:
        its owner gets the score of its cheap signals alone, below ``must_reach``, marked
        ``out_of_reach``; the pair, its owner and its ceiling go into ``skipped[claim]``.
        With ``judge_gate``, a scored pair whose judge's own P(support) is below the judge's
        own threshold (``VerifierOutput.judge_support`` and ``judge_threshold``, where the
        verifier has a judge among other signals) is not handed to its owner at all; ``refused``
        hears of its owner instead.
        """
        if not pairs:
            return
        reach = getattr(self.verifier, "reach", None)
        if must_reach is not None and self.config.verify.skip_out_of_reach and reach is not None:
            bounds = reach(pairs, lexical=match.lexical)
            if bounds is not None:
                ceilings, estimates = bounds
                # a hair below: the ceiling adds the weights in another order than the score
                out = [c < must_reach - _REACH_MARGIN for c in ceilings]
                for k, (i, owned) in enumerate(owners):
                    if out[k]:
                        keep(i, self._support(estimates[k], owned, passages, OUT_OF_REACH))
                        if skipped is not None:
                            skipped[i].append((pairs[k], owners[k], ceilings[k]))
                kept = [k for k in range(len(pairs)) if not out[k]]
                pairs = [pairs[k] for k in kept]
                owners = [owners[k] for k in kept]
                if not pairs:
                    return
        output = self.verifier.score(pairs, lexical=match.lexical)
        judge, floor = output.judge_support, output.judge_threshold
        for k, (i, owned) in enumerate(owners):
            if judge_gate and judge is not None and floor is not None and judge[k] < floor:
                if refused is not None:
                    refused(i)
                continue  # the judge does not read it as support: the pair does not count
            contra = output.contradiction[k] if output.contradiction is not None else None
            keep(i, self._support(output.support[k], owned, passages, contradiction=contra))

    @staticmethod
    def _support(
        score: float,
        owned: tuple[int, ...],
        passages: Sequence[Passage],
        shortcut: str | None = None,
        *,
        contradiction: float | None = None,
    ) -> Support:
        sources = tuple(dict.fromkeys(passages[p].source_index for p in owned))
        return Support(score, owned, sources, contradiction=contradiction, shortcut=shortcut)

    def _decide_and_emit(
        self,
        answer: str,
        markers: Sequence[Marker],
        claims: Sequence[CheckedClaim],
        verified: Verified,
        no_relevant_source: Sequence[bool],
        lexical: LexicalIndex,
        passages: Sequence[Passage],
        sources: Sequence[CitationSource],
        numbering: Numbering,
        *,
        key: AnswerKey | None = None,
        foreign: frozenset[tuple[int, int]] = frozenset(),
        renumbered: frozenset[int] = frozenset(),
        source_list: Sequence[tuple[int, int]] = (),
        code: Sequence[tuple[int, int]] = (),
        parts: Sequence[tuple[MarkerPart, _PartVerified, bool]] = (),
    ) -> AttributionResult:
        """Judge every claim and marker (``decide``), then edit the answer and write the result
        (``emit``). ``markers`` are read through the answer's ``key`` already; ``foreign``:
        ``(marker start, number)`` of the numbers it says cite a page outside the request;
        ``renumbered``: the starts of the markers it reads as other numbers than written;
        ``source_list``: the spans of the answer's list of sources; ``code``: those of its code
        blocks; ``parts``: the parts of
        claims cited clause by clause (:func:`attribution.decide.marker_parts`), each with
        what the verify stage found for it and whether the matcher found no relevant source."""
        cfg = self.config
        per_source, pair_support, contradicting, pair_refused = verified
        threshold = self._threshold()
        thresholds = Thresholds(support=threshold, partial=threshold - cfg.verify.partial_margin)
        style = cfg.reconcile.marker_style or _dominant_style(markers)
        placed = answer_placement(answer, markers) if cfg.reconcile.placement == "follow" else None
        before_punctuation = cfg.reconcile.placement == "before_punctuation" or placed == "before"
        like = _labelled_like(markers) if cfg.reconcile.marker_style is None else None
        protected = protected_spans(answer)
        decisions = [
            decide_claim(
                per_source[i],
                pair_support[i],
                thresholds,
                no_relevant_source=no_relevant_source[i],
                contradicting=contradicting[i],
                pair_refused=pair_refused[i],
            )
            for i in range(len(claims))
        ]
        for i, claim in enumerate(claims):  # say why where nothing it cites could be read
            if decisions[i].verdict == "unsupported" and _cites_only_textless(claim, numbering):
                decisions[i] = msgspec.structs.replace(decisions[i], reason=TEXTLESS_REASON)
        # a claim cited clause by clause: each marker is judged by its part, and the claim is
        # supported where every part is
        part_of: dict[int, tuple[dict[int, Support], ClaimDecision]] = {}  # by marker start
        decided_parts: dict[int, list[ClaimDecision]] = {}
        part_supports: dict[int, list[dict[int, Support]]] = {}
        for part, found, no_relevant in parts:
            part_decision = decide_claim(
                found.per_source,
                found.pair,
                thresholds,
                no_relevant_source=no_relevant,
                contradicting=found.contradicting,
                pair_refused=found.pair_refused,
            )
            decided_parts.setdefault(part.claim_index, []).append(part_decision)
            part_supports.setdefault(part.claim_index, []).append(found.per_source)
            for m in part.claim.segment.markers:
                part_of[m.start] = (found.per_source, part_decision)
        decisions = [
            parts_decision(decision, decided_parts.get(i, ()))
            for i, decision in enumerate(decisions)
        ]
        filled = [
            cfg.reconcile.fill_missing
            and decision.verdict == "supported"
            # a claim whose every number is unknown to the registry cites nothing
            # (those numbers resolve to no source, and are dropped by default)
            and not any(n in numbering.known for n in claim.cited_numbers)
            and claim.segment.is_claim
            for claim, decision in zip(claims, decisions, strict=True)
        ]
        # an unknown marker the sentence uses as a word ("According to [5], ...") becomes the
        # number filled in, where the claim gets one, rather than leaving "According to, ..."
        in_prose = held_markers(
            answer,
            markers,
            known=numbering.known,
            drop_unknown=cfg.reconcile.drop_unknown,
            foreign=foreign,
        )
        rewritten: dict[int, Marker] = {}  # claim index -> its marker written with the fill
        for i, claim in enumerate(claims):
            first = next((m for m in claim.segment.markers if m.start in in_prose), None)
            if filled[i] and first is not None:
                rewritten[i] = first
        held = frozenset(m.start for m in rewritten.values())
        edits: list[Edit] = marker_edits(
            answer,
            markers,
            style=cfg.reconcile.marker_style,
            known=numbering.known,
            drop_unknown=cfg.reconcile.drop_unknown,
            foreign=foreign,
            renumbered=renumbered,
            held=held,
            listed=source_list,
        )
        restyled: list[Edit] = []
        if cfg.reconcile.marker_style not in (None, "footnote"):
            # "[^1]: Eiffel page" under markers rewritten as "[citation:1]": "[citation:1] ..."
            restyled = restyled_definitions(
                answer,
                cfg.reconcile.marker_style,
                numbering.known,
                labels=key.labels if key is not None else None,
                code=code,
                drop_unknown=cfg.reconcile.drop_unknown,
            )
        edits += restyled
        if key is not None:
            written = {e.start for e in restyled}  # a restyled label: renumbered in it
            edits += [Edit(a, b, text) for a, b, text in key.edits if a not in written]
        marker_checks: list[MarkerCheck] = []
        outcomes: list[ClaimOutcome] = []
        # every passage of a source may hold a quote's sentence, not only the ones scored
        by_source: dict[int, tuple[int, ...]] = {}
        for p, passage in enumerate(passages):
            by_source[passage.source_index] = (*by_source.get(passage.source_index, ()), p)

        def quote(
            claim: CheckedClaim,
            quoted: Sequence[int],
            supports: Mapping[int, Support],
            pair: Support | None,
            pool: Mapping[int, tuple[int, ...]] = by_source,
        ) -> tuple[EvidenceQuote, ...]:
            """The evidence quotes of ``claim`` from the sources ``quoted``: among their
            supporting passages and the passages ``pool`` names (source index → passages)."""
            return evidence_quotes(
                claim,
                quoted,
                supports,
                pair,
                candidates=pool,
                lexical=lexical,
                passages=passages,
                sources=sources,
                numbering=numbering,
                sentences=cfg.verify.evidence_sentences,
                max_chars=cfg.verify.evidence_max_chars,
                judge=self._sentence_judge,
                judge_weight=cfg.verify.evidence_judge_weight,
                judge_sentences=cfg.verify.evidence_judge_sentences,
            )

        fixes: dict[int, tuple[Marker, dict[int, int]]] = {}  # marker start -> wrong -> right
        for i, claim in enumerate(claims):
            decision = decisions[i]
            cited_ok: list[int] = []
            for m in (*claim.segment.markers, *claim.lent_markers):
                own, judged = part_of.get(m.start, (per_source[i], decision))
                if decision.verdict == "contradicted" and set(judged.supporting) & set(
                    decision.contradicting
                ):
                    # a part supported by the passage that contradicts the whole claim: the
                    # marker is judged by the claim
                    own, judged = per_source[i], decision
                for n in m.numbers:
                    check = check_marker(
                        m,
                        n,
                        claim_index=i,
                        per_source=own,
                        decision=judged,
                        threshold=threshold,
                        numbering=numbering,
                        foreign=(m.start, n) in foreign,
                    )
                    marker_checks.append(check)
                    if check.verdict == "supported":
                        cited_ok.append(n)
                    elif (
                        cfg.reconcile.fix_wrong_source
                        and check.verdict == "wrong_source"
                        and check.suggested is not None
                        and m.start not in held
                        and m.style not in UNNUMBERED
                    ):
                        # the answer cites the source that supports the claim instead
                        fixes.setdefault(m.start, (m, {}))[1][n] = check.suggested
                        cited_ok.append(check.suggested)
            added: tuple[int, ...] = ()
            if filled[i]:
                chosen = decision.supporting[: cfg.reconcile.max_sources_per_claim]
                added = tuple(numbering.numbers[s] for s in chosen)
                in_place = rewritten.get(i)
                edits.append(
                    Edit(
                        in_place.start,
                        in_place.end,
                        marker_text(added, style, like if style == "bracket" else None),
                    )
                    if in_place is not None
                    else insertion_edit(
                        answer,
                        claim.segment.start,
                        _words_end(answer, claim.segment),
                        added,
                        style=style,
                        like=like if style == "bracket" else None,
                        before_punctuation=before_punctuation,
                        glued=placed == "glued",
                        protected=protected,
                    )
                )
            shown = tuple(
                dict.fromkeys(
                    s for n in (*cited_ok, *added) if (s := numbering.index_of(n)) is not None
                )
            )
            quoted = shown or decision.supporting
            supports: Mapping[int, Support] = per_source[i]
            if i in decided_parts:  # a source may support a part and not the whole claim
                supports = _with_parts(per_source[i], part_supports[i])
            if not quoted and decision.verdict == "partially_supported":
                quoted = (best[0],) if (best := best_support(per_source[i])) else ()
            elif not quoted and decision.verdict == "contradicted":
                # the quotes of a contradicted claim: what contradicts it, from that passage
                quoted = decision.contradicting
                against = contradicting[i]
                if against is not None and against.sources == quoted:
                    supports = {**supports, quoted[0]: against}
            evidence = quote(claim, quoted, supports, pair_support[i])
            nearest: tuple[EvidenceQuote, ...] = ()
            if (
                cfg.verify.nearest_evidence
                and decision.verdict == "unsupported"
                and (closest := best_support(per_source[i])) is not None
            ):
                # what the passage that came closest says, for a reader to check (its
                # sentences alone: the matcher chose it for the claim, where the rest of the
                # source is words in common at best)
                nearest = quote(claim, (closest[0],), per_source[i], None, pool={})
            outcomes.append(
                ClaimOutcome(
                    claim=claim,
                    decision=decision,
                    shown=shown,
                    added=added,
                    evidence=evidence,
                    nearest=nearest,
                )
            )
        if fixes:
            edits = _with_fixes(edits, fixes, cfg, numbering.known, foreign)
        marker_checks += unchecked_unknown(markers, claims, numbering.known, foreign=foreign)
        # "[^3]" without "[^3]: ..." renders as literal text: define the footnotes added, and
        # those the answer cites as footnotes without a definition: its own footnote marks
        # when markers keep their style, every marker when they are all rewritten as footnotes
        target = cfg.reconcile.marker_style
        cited = [
            n
            for m in markers
            if m.style not in UNNUMBERED
            and (m.style == "footnote" if target is None else target == "footnote")
            for n in m.numbers
            if n in numbering.known
            and numbering.index_of(n) is not None
            and (m.start, n) not in foreign
            and n not in (fixes[m.start][1] if m.start in fixes else ())  # mended away
        ]
        cited += [  # a mended footnote names its new number: it needs a definition too
            n
            for m, right in fixes.values()
            if (m.style == "footnote" if target is None else target == "footnote")
            for n in right.values()
        ]
        definitions = None
        if style == "footnote" or cited:
            definitions = footnote_definitions(
                answer,
                [*cited, *(n for o in outcomes for n in o.added if style == "footnote")],
                lambda n: _footnote_text(sources, numbering, n),
                labels=key.labels if key is not None else None,
            )
            if definitions is not None:
                edits.append(definitions)  # last: after a marker added at the text's end
        elif (
            (
                style == "bracket"
                or (target is not None and _dominant_style(markers) == "bracket")
                or bool(restyled)  # the answer's footnote definitions, now a list in its style
            )
            and cfg.reconcile.list_added
            and key is None
        ):
            # "Sources: [1]" under an answer the engine cited [2] in lists [2] too (not where
            # the answer's own key renumbers its list: its labels are not the numbers yet), in
            # the style its markers are rewritten in ("[citation:1], [citation:2]")
            listed = listed_sources_edit(
                answer,
                [  # what the answer cites once edited: the numbers added and those it keeps
                    *(n for o in outcomes for n in o.added),
                    *(c.number for c in marker_checks if c.number in numbering.known),
                    *(n for _, right in fixes.values() for n in right.values()),
                ],
                lambda n: _title_and_address(sources, numbering, n),
                claims=[(c.segment.start, c.segment.end) for c in claims if c.segment.is_claim],
                known=numbering.known if cfg.reconcile.drop_unknown else None,
                style=style,
                definitions=bool(restyled),
            )
            edits += listed
        marker_checks.sort(key=lambda c: c.start)  # stable: a marker's numbers keep their order
        return assemble_result(
            answer,
            edits,
            outcomes,
            marker_checks,
            sources=sources,
            numbering=numbering,
            threshold=threshold,
            verifier=self.verifier.name,
            appendix=definitions,
        )
