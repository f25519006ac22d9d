"""Evidence quotes: the sentences of a source that carry a claim's support, with offsets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attribution._result import EvidenceQuote
from attribution._wire import CitationSource
from attribution.decide import CheckedClaim, Numbering, Support
from attribution.match import LexicalIndex, Passage, cut_long, source_text
from attribution.text import content_terms

__all__ = ["best_sentences", "evidence_quotes"]


PRIMARY_BONUS = 0.0
"""Added to a sentence's coverage when it lies in the passage the verifier scored best (the
judge's choice breaking near-ties). 0: on WiCE's validation claims a bonus of 0.1 cost recall
(docs/benchmarks.md, evidence quotes); kept as the place where a stronger judge's preference
goes."""


def best_sentences(
    passages: Sequence[Passage],
    claim: str,
    lexical: LexicalIndex,
    limit: int,
    *,
    primary: int = 1,
    max_chars: int | None = None,
) -> list[tuple[int, int]]:
    """The sentence spans that carry a claim best, best first.

    ``passages`` are one source's passages for the claim: first the ``primary`` one (or ones)
    the verifier scored best, then the source's other passages. Every sentence of them is a
    candidate (a sentence longer than ``max_chars`` is cut at spaces into pieces that are
    candidates instead: run-on text without full stops would otherwise be quoted whole); the
    one with the highest IDF-weighted coverage of the claim's terms (plus
    :data:`PRIMARY_BONUS` inside the verifier's passage) is taken first, further
    sentences (up to ``limit``) only when they add claim terms the quote lacks.
    """
    spans: dict[tuple[int, int], bool] = {}
    texts: dict[tuple[int, int], str] = {}
    for k, passage in enumerate(passages):
        for sentence in passage.sentences:
            pieces = (
                [sentence]
                if max_chars is None or sentence[1] - sentence[0] <= max_chars
                else [
                    (a + passage.start, b + passage.start)
                    for a, b in cut_long(
                        passage.text,
                        (sentence[0] - passage.start, sentence[1] - passage.start),
                        max_chars,
                    )
                ]
            )
            for a, b in pieces:
                spans[(a, b)] = spans.get((a, b), False) or k < primary
                texts[(a, b)] = passage.text[a - passage.start : b - passage.start]
    if not spans:
        return []
    terms = content_terms(claim)
    order = sorted(spans)
    if not terms:
        return [next(span for span in order if spans[span])]
    sentence_terms = {span: frozenset(content_terms(texts[span])) for span in order}
    chosen: list[tuple[int, int]] = []
    covered: set[str] = set()
    for _ in range(limit):
        best: tuple[int, int] | None = None
        gain = 0.0
        for span in order:
            if span in chosen:
                continue
            new = frozenset(t for t in terms if t in sentence_terms[span] and t not in covered)
            if not new:
                continue
            value = lexical.coverage(terms, new) + (PRIMARY_BONUS if spans[span] else 0.0)
            if value > gain:
                best, gain = span, value
        if best is None:
            break
        chosen.append(best)
        covered.update(t for t in terms if t in sentence_terms[best])
    if not chosen:
        chosen = [next(span for span in order if spans[span])]
    return chosen


def evidence_quotes(
    claim: CheckedClaim,
    source_indices: Sequence[int],
    per_source: Mapping[int, Support],
    pair: Support | None,
    *,
    candidates: Mapping[int, Sequence[int]],
    lexical: LexicalIndex,
    passages: Sequence[Passage],
    sources: Sequence[CitationSource],
    numbering: Numbering,
    sentences: int,
    max_chars: int | None = None,
) -> tuple[EvidenceQuote, ...]:
    """Quotes from each source in ``source_indices``: the sentences that carry the claim, best
    first, among its best passage (or its part of the supporting pair) and the source's other
    passages (``candidates``: source index → passage ids), as offsets into the source's text;
    a sentence longer than ``max_chars`` is quoted by its best pieces (:func:`best_sentences`)."""
    quotes: list[EvidenceQuote] = []
    for s in source_indices:
        support = per_source.get(s)
        if support is not None:
            primary = support.passages
            score = support.score
        elif pair is not None:
            primary = tuple(p for p in pair.passages if passages[p].source_index == s)
            score = pair.score
        else:
            continue
        pool = [passages[p] for p in dict.fromkeys((*primary, *candidates.get(s, ())))]
        text, field = source_text(sources[s])
        chosen = best_sentences(
            pool,
            claim.segment.clean_text,
            lexical,
            sentences,
            primary=len(primary),
            max_chars=max_chars,
        )
        for a, b in chosen:
            quotes.append(
                EvidenceQuote(
                    source_id=sources[s].id,
                    number=numbering.numbers[s],
                    field=field,
                    start=a,
                    end=b,
                    text=text[a:b],
                    score=round(score, 6),
                )
            )
    return tuple(quotes)
