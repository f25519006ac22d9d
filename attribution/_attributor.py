"""The pipeline: extract → register → segment → match → verify → reconcile → emit.

:class:`Attributor` owns the loaded models (built lazily, once) and only wires the stages
together; each stage lives in its own module and can be tested alone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np

from attribution._config import AttributionConfig
from attribution._errors import InputError
from attribution.sources._extractors import ExtractionWarning, extract_sources
from attribution.match._lexical import LexicalIndex
from attribution.text._markers import Marker, MarkerStyle, _protected_spans, find_markers
from attribution.match._matcher import EmbeddingCache, Matcher, MatchResult
from attribution.match._passages import Passage, make_passages, source_text
from attribution.emit._edits import Edit, apply_edits, best_sentences, insertion_edit, marker_edits
from attribution.sources._numbering import CitationRegistry
from attribution.emit._result import (
    AttributionResult,
    AttributionSummary,
    ClaimResult,
    ClaimVerdict,
    EvidenceQuote,
    MarkerCheck,
    NumberedSource,
)
from attribution.sources._keys import source_key
from attribution.verify._verifiers import Pair, Verifier
from attribution._wire import CitationReference, CitationSource, StoredCitationData, ToolOutput

if TYPE_CHECKING:
    from attribution.segment import Segment, Segmenter

__all__ = ["Attributor"]


class _Claim(msgspec.Struct, frozen=True):
    """A segment the pipeline checks, with the source indices its markers cite."""

    segment: Segment
    cited_numbers: tuple[int, ...]
    cited_sources: tuple[int, ...]


class _Support(msgspec.Struct, frozen=True):
    """The best support found for a claim from one source, or from a pair of passages."""

    score: float
    passages: tuple[int, ...]
    contradiction: float | None = None


def _dominant_style(markers: Sequence[Marker]) -> MarkerStyle:
    """The style most markers of the answer use (bracket when there are none)."""
    counts: dict[MarkerStyle, int] = {}
    for m in markers:
        counts[m.style] = counts.get(m.style, 0) + 1
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
        embedder: Any | None = None,
        verifier: Verifier | None = None,
        segmenter: Segmenter | None = None,
    ) -> None:
        self.config = config or AttributionConfig()
        self._embedder = embedder
        self._verifier = verifier
        self._segmenter = segmenter
        self.cache = EmbeddingCache()

    @classmethod
    def from_config(cls, config: AttributionConfig) -> Attributor:
        """An attributor built from a configuration (models load on first use)."""
        return cls(config)

    # -- resources ----------------------------------------------------------------------------

    @cached_property
    def embedder(self) -> Any:
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
        from attribution.runtime import load_verifier

        return load_verifier(self.config.model, embedder=self.embedder)

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

    def warm_up(self) -> None:
        """Load every model now rather than on the first request."""
        self.segmenter.segment("Warm up.")
        self.matcher.embed(["warm up"])
        _ = self.verifier

    # -- the pipeline -------------------------------------------------------------------------

    def _sources(
        self, items: Sequence[CitationSource] | Sequence[ToolOutput]
    ) -> tuple[list[CitationSource], tuple[ExtractionWarning, ...]]:
        if all(isinstance(i, ToolOutput) for i in items):
            extracted = extract_sources(items)  # type: ignore[arg-type]
            return list(extracted.sources), extracted.warnings
        if not all(isinstance(i, CitationSource) for i in items):
            kinds = sorted({type(i).__name__ for i in items})
            raise InputError(
                f"sources must be all CitationSource or all ToolOutput, got {', '.join(kinds)}"
            )
        merged: dict[str, CitationSource] = {}
        for source in items:
            key = source_key(source)  # type: ignore[arg-type]
            merged.setdefault(key, source)  # type: ignore[arg-type]
        return list(merged.values()), ()

    def attribute(
        self,
        answer: str,
        sources_or_tool_outputs: Sequence[CitationSource] | Sequence[ToolOutput],
        registry: CitationRegistry | None = None,
    ) -> AttributionResult:
        """Attribute every claim of ``answer`` to the sources.

        Args:
            answer: the finished answer (markdown).
            sources_or_tool_outputs: the sources, or the raw tool outputs to extract them from.
            registry: the conversation's citation registry; sources are registered in it
                (find-or-create) and markers are read against its numbers. Without one, the
                sources are numbered 1, 2, ... in the order given (extracted).

        Returns:
            Verdicts per claim and per marker, evidence quotes, StoredCitationData, the
            answer with markers normalised and filled in, and a summary.

        Raises:
            InputError: the answer is not a string, or the sources are of mixed kinds.
        """
        if not isinstance(answer, str):
            raise InputError(f"answer must be a string, got {type(answer).__name__}")
        timings: dict[str, float] = {}
        clock = time.perf_counter()

        def lap(stage: str) -> None:
            nonlocal clock
            now = time.perf_counter()
            timings[stage] = round((now - clock) * 1000, 3)
            clock = now

        sources, warnings = self._sources(sources_or_tool_outputs)
        registry = registry if registry is not None else CitationRegistry()
        numbers = [registry.register_source(s) for s in sources]
        by_number = {n: i for i, n in enumerate(numbers)}
        lap("extract")

        markers = find_markers(answer)
        segments = self.segmenter.segment(answer)
        claims = [
            _Claim(
                segment=s,
                cited_numbers=tuple(n for m in s.markers for n in m.numbers),
                cited_sources=tuple(
                    dict.fromkeys(
                        by_number[n] for m in s.markers for n in m.numbers if n in by_number
                    )
                ),
            )
            for s in segments
            if s.is_claim or s.markers
        ]
        lap("segment")

        passages = make_passages(sources, self.config.match)
        match = self.matcher.match(
            [c.segment.clean_text for c in claims],
            passages,
            cited={i: c.cited_sources for i, c in enumerate(claims) if c.cited_sources},
        )
        lap("match")

        per_source, pair_support = self._verify(claims, match, passages)
        lap("verify")

        result = self._reconcile(
            answer,
            markers,
            claims,
            per_source,
            pair_support,
            match.lexical,
            match.no_relevant_source,
            passages,
            sources,
            numbers,
            registry,
        )
        lap("reconcile")
        return msgspec.structs.replace(result, warnings=warnings, timings_ms=timings)

    def check_claims(
        self, claims: Sequence[str], sources: Sequence[CitationSource]
    ) -> list[ClaimResult]:
        """Score each claim text as a whole against the sources (no segmentation, no markers).

        What benchmarks and the verification API need: the same matching and verification as
        :meth:`attribute`, for claims given one by one. Sources are numbered 1, 2, ... in order.

        Returns:
            One :class:`ClaimResult` per claim (offsets into the claim text itself).
        """
        from attribution.segment import Segment

        sources, _ = self._sources(sources)
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
        checked = [_Claim(segment=s, cited_numbers=(), cited_sources=()) for s in segments]
        passages = make_passages(sources, self.config.match)
        match = self.matcher.match([s.clean_text for s in segments], passages)
        per_source, pair_support = self._verify(checked, match, passages)
        numbers = list(range(1, len(sources) + 1))
        results: list[ClaimResult] = []
        for i, claim in enumerate(checked):
            result = self._reconcile(
                claim.segment.text,
                [],
                [claim],
                [per_source[i]],
                [pair_support[i]],
                match.lexical,
                [match.no_relevant_source[i]],
                passages,
                sources,
                numbers,
                CitationRegistry(),
            )
            results.append(msgspec.structs.replace(result.claims[0], index=i))
        return results

    def _verify(
        self, claims: Sequence[_Claim], match: MatchResult, passages: Sequence[Passage]
    ) -> tuple[list[dict[int, _Support]], list[_Support | None]]:
        """Best support per (claim, source), and of the best pair of passages per claim."""
        cfg = self.config
        pairs: list[Pair] = []
        owners: list[tuple[int, tuple[int, ...]]] = []
        for i, claim in enumerate(claims):
            text = claim.segment.clean_text
            chosen = {c.passage: c for c in match.candidates[i]}
            for source_index in claim.cited_sources:
                for c in match.best_in_source(i, source_index, limit=2):
                    chosen.setdefault(c.passage, c)
            for c in chosen.values():
                pairs.append(Pair(claim=text, passage=passages[c.passage].text, cosine=c.cosine))
                owners.append((i, (c.passage,)))
            top = match.candidates[i][:2]
            if cfg.verify.pair_passages and len(top) == 2:
                a, b = top[0].passage, top[1].passage
                first, second = sorted((a, b), key=lambda p: (passages[p].source_index, p))
                joined = passages[first].text + "\n" + passages[second].text
                vec = match.passage_vectors[a] + match.passage_vectors[b]
                norm = float(np.linalg.norm(vec)) or 1.0
                cosine = float(np.dot(match.claim_vectors[i], vec) / norm)
                pairs.append(Pair(claim=text, passage=joined, cosine=cosine))
                owners.append((i, (first, second)))
        output = self.verifier.score(pairs, lexical=match.lexical)
        per_source: list[dict[int, _Support]] = [{} for _ in claims]
        pair_support: list[_Support | None] = [None for _ in claims]
        for k, (i, owned) in enumerate(owners):
            contra = output.contradiction[k] if output.contradiction is not None else None
            support = _Support(score=output.support[k], passages=owned, contradiction=contra)
            if len(owned) == 2:
                pair_support[i] = support
                continue
            source_index = passages[owned[0]].source_index
            best = per_source[i].get(source_index)
            if best is None or support.score > best.score:
                per_source[i][source_index] = support
        return per_source, pair_support

    def _reconcile(
        self,
        answer: str,
        markers: Sequence[Marker],
        claims: Sequence[_Claim],
        per_source: list[dict[int, _Support]],
        pair_support: list[_Support | None],
        lexical: LexicalIndex,
        no_relevant_source: Sequence[bool],
        passages: Sequence[Passage],
        sources: Sequence[CitationSource],
        numbers: Sequence[int],
        registry: CitationRegistry,
    ) -> AttributionResult:
        cfg = self.config
        threshold = (
            cfg.verify.support_threshold
            if cfg.verify.support_threshold is not None
            else self.verifier.threshold
        )
        partial_floor = threshold - cfg.verify.partial_margin
        known = registry.numbers()
        by_number = {n: i for i, n in enumerate(numbers)}
        style = cfg.reconcile.marker_style or _dominant_style(markers)
        protected = _protected_spans(answer)

        marker_checks: list[MarkerCheck] = []
        edits: list[Edit] = marker_edits(
            answer,
            markers,
            style=cfg.reconcile.marker_style,
            known=known,
            drop_unknown=cfg.reconcile.drop_unknown,
        )
        claim_rows: list[dict[str, Any]] = []
        for i, claim in enumerate(claims):
            supports = per_source[i]
            best_source = max(supports, key=lambda s: supports[s].score, default=None)
            best = supports[best_source] if best_source is not None else None
            pair = pair_support[i]
            supporting: tuple[int, ...] = ()
            score = best.score if best else 0.0
            contradiction = best.contradiction if best else None
            if best is not None and best.score >= threshold:
                supporting = (best_source,)  # type: ignore[assignment]
            elif pair is not None and pair.score >= threshold and pair.score > score:
                supporting = tuple(dict.fromkeys(passages[p].source_index for p in pair.passages))
                score = pair.score
            verdict: ClaimVerdict
            reason: str | None = None
            if supporting:
                verdict = "supported"
            elif contradiction is not None and contradiction >= 0.5 and contradiction > score:
                verdict = "contradicted"
                reason = "the most relevant passage contradicts the claim"
            elif score >= partial_floor:
                verdict = "partially_supported"
                reason = "the best source supports part of the claim"
            else:
                verdict = "unsupported"
                reason = (
                    "no relevant source"
                    if no_relevant_source[i] and not supports
                    else "no source supports the claim"
                )

            # Verdicts on the markers the answer wrote for this claim.
            cited_ok: list[int] = []
            for m in claim.segment.markers:
                for n in m.numbers:
                    check = self._check_number(
                        m,
                        n,
                        i,
                        supports,
                        threshold,
                        by_number=by_number,
                        known=known,
                        supporting=supporting,
                        numbers=numbers,
                        sources=sources,
                    )
                    marker_checks.append(check)
                    if check.verdict == "supported":
                        cited_ok.append(n)

            added: tuple[int, ...] = ()
            if (
                cfg.reconcile.fill_missing
                and verdict == "supported"
                and not claim.cited_numbers
                and claim.segment.is_claim
            ):
                added = tuple(numbers[s] for s in supporting[: cfg.reconcile.max_sources_per_claim])
                edits.append(
                    insertion_edit(
                        answer,
                        claim.segment.start,
                        claim.segment.end,
                        added,
                        style=style,
                        before_punctuation=cfg.reconcile.placement == "before_punctuation",
                        protected=protected,
                    )
                )
            final_sources = tuple(dict.fromkeys(by_number[n] for n in (*cited_ok, *added)))
            evidence_from = final_sources or supporting
            evidence = self._evidence(
                claim, evidence_from, per_source[i], pair, lexical, passages, sources, numbers
            )
            claim_rows.append(
                {
                    "claim": claim,
                    "verdict": verdict,
                    "score": score,
                    "contradiction": contradiction,
                    "reason": reason,
                    "supporting": supporting,
                    "final_sources": final_sources,
                    "added": added,
                    "evidence": evidence,
                }
            )

        edited = apply_edits(answer, edits)
        claim_results: list[ClaimResult] = []
        references: list[CitationReference] = []
        for i, row in enumerate(claim_rows):
            seg = row["claim"].segment
            out_start = edited.map(seg.start, after_insertions=False)
            out_end = edited.map(seg.end, after_insertions=True)
            shown = row["final_sources"] or ()
            if shown and row["verdict"] in ("supported", "partially_supported"):
                references.append(
                    CitationReference(
                        index=len(references),
                        start_index=out_start,
                        end_index=out_end,
                        cited_text=edited.text[out_start:out_end],
                        source_ids=tuple(sources[s].id for s in shown),
                    )
                )
            claim_results.append(
                ClaimResult(
                    index=i,
                    start=seg.start,
                    end=seg.end,
                    text=seg.text,
                    output_start=out_start,
                    output_end=out_end,
                    verdict=row["verdict"],
                    score=round(float(row["score"]), 6),
                    threshold=threshold,
                    source_ids=tuple(sources[s].id for s in row["supporting"]),
                    numbers=tuple(numbers[s] for s in row["supporting"]),
                    cited=row["claim"].cited_numbers,
                    added=row["added"],
                    evidence=row["evidence"],
                    contradiction=row["contradiction"],
                    reason=row["reason"],
                )
            )
        summary = AttributionSummary(
            claims=len(claim_results),
            supported=sum(c.verdict == "supported" for c in claim_results),
            partially_supported=sum(c.verdict == "partially_supported" for c in claim_results),
            unsupported=sum(c.verdict == "unsupported" for c in claim_results),
            contradicted=sum(c.verdict == "contradicted" for c in claim_results),
            markers_checked=len(marker_checks),
            markers_supported=sum(m.verdict == "supported" for m in marker_checks),
            markers_unsupported=sum(m.verdict == "unsupported" for m in marker_checks),
            markers_wrong=sum(m.verdict == "wrong_source" for m in marker_checks),
            markers_unknown=sum(m.verdict == "unknown_number" for m in marker_checks),
            markers_unverifiable=sum(m.verdict == "unverifiable" for m in marker_checks),
            markers_added=sum(1 for c in claim_results if c.added),
        )
        return AttributionResult(
            answer=edited.text,
            citations=StoredCitationData(sources=tuple(sources), references=tuple(references)),
            claims=tuple(claim_results),
            markers=tuple(marker_checks),
            summary=summary,
            numbering=tuple(
                NumberedSource(number=n, source_id=s.id, title=s.title)
                for n, s in zip(numbers, sources, strict=True)
            ),
            verifier=self.verifier.name,
        )

    def _check_number(
        self,
        marker: Marker,
        number: int,
        claim_index: int,
        supports: dict[int, _Support],
        threshold: float,
        *,
        by_number: dict[int, int],
        known: frozenset[int],
        supporting: tuple[int, ...],
        numbers: Sequence[int],
        sources: Sequence[CitationSource],
    ) -> MarkerCheck:
        """The verdict on one number of a marker attached to a claim."""
        check = MarkerCheck(
            start=marker.start,
            end=marker.end,
            marker=marker.text,
            number=number,
            claim_index=claim_index,
            verdict="unsupported",
        )
        if number not in known:
            return msgspec.structs.replace(check, verdict="unknown_number")
        source_index = by_number.get(number)
        if source_index is None:
            return msgspec.structs.replace(check, verdict="unverifiable")
        own = supports.get(source_index)
        check = msgspec.structs.replace(
            check,
            score=round(own.score if own else 0.0, 6),
            source_id=sources[source_index].id,
        )
        if (own is not None and own.score >= threshold) or (
            source_index in supporting and len(supporting) > 1  # supports it with another
        ):
            return msgspec.structs.replace(check, verdict="supported")
        other = next((s for s in supporting if s != source_index), None)
        if other is not None:
            return msgspec.structs.replace(
                check,
                verdict="wrong_source",
                suggested=numbers[other],
                suggested_source_id=sources[other].id,
            )
        return check

    def _evidence(
        self,
        claim: _Claim,
        source_indices: Sequence[int],
        supports: dict[int, _Support],
        pair: _Support | None,
        lexical: LexicalIndex,
        passages: Sequence[Passage],
        sources: Sequence[CitationSource],
        numbers: Sequence[int],
    ) -> tuple[EvidenceQuote, ...]:
        quotes: list[EvidenceQuote] = []
        for s in source_indices:
            support = supports.get(s)
            if support is not None:
                passage_ids = support.passages
                score = support.score
            elif pair is not None:
                passage_ids = tuple(p for p in pair.passages if passages[p].source_index == s)
                score = pair.score
            else:
                continue
            text, field = source_text(sources[s])
            for p in passage_ids:
                passage = passages[p]
                for a, b in best_sentences(
                    passage,
                    claim.segment.clean_text,
                    lexical,
                    self.config.verify.evidence_sentences,
                ):
                    quotes.append(
                        EvidenceQuote(
                            source_id=sources[s].id,
                            number=numbers[s],
                            field=field,
                            start=a,
                            end=b,
                            text=text[a:b],
                            score=round(score, 6),
                        )
                    )
        return tuple(quotes)
