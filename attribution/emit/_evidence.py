"""Evidence quotes: the sentences of a source that carry a claim's support, with offsets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attribution._result import EvidenceQuote
from attribution._wire import CitationSource
from attribution.decide import CheckedClaim, Numbering, Support
from attribution.match import LexicalIndex, Passage, source_text
from attribution.text import content_terms

__all__ = ["best_sentences", "evidence_quotes"]


def best_sentences(
    passage: Passage, claim: str, lexical: LexicalIndex, limit: int
) -> list[tuple[int, int]]:
    """The sentence spans of a passage that cover the claim best, in text order.

    The sentence with the highest IDF-weighted coverage of the claim's terms is taken first;
    further sentences (up to ``limit``) only when they add claim terms the quote lacks.
    """
    terms = content_terms(claim)
    if not terms or not passage.sentences:
        return list(passage.sentences[:1])
    base = passage.start
    sentence_terms = [
        frozenset(content_terms(passage.text[a - base : b - base])) for a, b in passage.sentences
    ]
    chosen: list[int] = []
    covered: set[str] = set()
    for _ in range(limit):
        best, gain = -1, 0.0
        for i, s_terms in enumerate(sentence_terms):
            if i in chosen:
                continue
            new = frozenset(t for t in terms if t in s_terms and t not in covered)
            value = lexical.coverage(terms, new) if new else 0.0
            if value > gain:
                best, gain = i, value
        if best < 0:
            break
        chosen.append(best)
        covered.update(t for t in terms if t in sentence_terms[best])
    if not chosen:
        chosen = [0]
    return [passage.sentences[i] for i in sorted(chosen)]


def evidence_quotes(
    claim: CheckedClaim,
    source_indices: Sequence[int],
    per_source: Mapping[int, Support],
    pair: Support | None,
    *,
    lexical: LexicalIndex,
    passages: Sequence[Passage],
    sources: Sequence[CitationSource],
    numbering: Numbering,
    sentences: int,
) -> tuple[EvidenceQuote, ...]:
    """Quotes from each source in ``source_indices``: the best sentences of its best passage
    (or of its part of the supporting pair), as offsets into the source's text."""
    quotes: list[EvidenceQuote] = []
    for s in source_indices:
        support = per_source.get(s)
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
            for a, b in best_sentences(passages[p], claim.segment.clean_text, lexical, sentences):
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
