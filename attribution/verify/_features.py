"""Support signals for a (claim, passage) pair: the inputs of the feature verifier.

Each feature is a number in [0, 1] (the claim length is squashed into it). They are cheap: the
cosine comes from embeddings the matcher already computed, the rest from token sets.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

import msgspec

from attribution.match import LexicalIndex
from attribution.text import (
    Quantity,
    clear_name_cache,
    clear_plan_cache,
    clear_quantity_cache,
    content_terms,
    entity_terms,
    in_range,
    negated,
    number_ranges,
    number_scales,
    number_terms,
    quantity_values,
    same_quantity,
    stem,
    word_tokens,
)

__all__ = ["FEATURE_NAMES", "NLI_FEATURE_NAMES", "ClaimSignals", "pair_features", "signals"]

# Words as entity_terms cuts them (L2, Ariane-5, O'Brien), to compare names with.
_RAW_WORD = re.compile(r"[\w'’-]+")

FEATURE_NAMES: tuple[str, ...] = (
    "cosine",
    "idf_coverage",
    "coverage",
    "bigram_coverage",
    "longest_run",
    "numbers_missing",
    "has_numbers",
    "entities_missing",
    "negation_mismatch",
    "claim_length",
)

NLI_FEATURE_NAMES: tuple[str, ...] = ("nli_support", "nli_contradiction")
"""Extra features of the combined verifier: a cross-encoder's P(entailment), P(contradiction)."""


class ClaimSignals(msgspec.Struct, frozen=True):
    """What is computed once per text and compared across pairs."""

    terms: tuple[str, ...]
    term_set: frozenset[str]
    bigrams: frozenset[tuple[str, str]]
    stems: tuple[str, ...]
    words: frozenset[str]
    numbers: frozenset[str]
    scaled: frozenset[tuple[str, str]]
    """The numbers written with a scale, (as written, value): ``1.5 million``, ``1.2k``."""
    ranges: tuple[tuple[str, str], ...]
    entities: frozenset[str]
    negated: bool


@lru_cache(maxsize=8192)
def signals(text: str) -> ClaimSignals:
    """The signals of one text (cached: claims and passages recur across pairs)."""
    terms = tuple(content_terms(text))
    tokens = word_tokens(text)
    stems = tuple(stem(t) for t in tokens)
    return ClaimSignals(
        terms=terms,
        term_set=frozenset(terms),
        bigrams=frozenset(itertools.pairwise(terms)),
        stems=stems,
        words=frozenset(_RAW_WORD.findall(text.lower())),
        numbers=frozenset(number_terms(text)),
        scaled=frozenset(number_scales(text)),
        ranges=tuple(number_ranges(text)),
        entities=frozenset(entity_terms(text)),
        negated=negated(text),
    )


@lru_cache(maxsize=8192)
def _measures(text: str) -> tuple[Quantity, ...]:
    """Scaled numbers and measures (``1.82 km`` is 1820 metres). Read only where a claim misses
    a number it writes so (a passage's are not needed otherwise)."""
    return quantity_values(text)


def clear_text_cache() -> None:
    """Forget the cached :func:`signals` of every text (as if no text was seen before)."""
    signals.cache_clear()
    _measures.cache_clear()
    clear_quantity_cache()
    clear_name_cache()
    clear_plan_cache()


def _longest_run(claim: tuple[str, ...], passage: tuple[str, ...]) -> int:
    """Length of the longest run of consecutive claim tokens found verbatim in the passage."""
    positions: dict[str, list[int]] = {}
    for i, token in enumerate(passage):
        positions.setdefault(token, []).append(i)
    best = 0
    for i, token in enumerate(claim):
        if len(claim) - i <= best:
            break
        for p in positions.get(token, ()):
            k = 1
            while i + k < len(claim) and p + k < len(passage) and claim[i + k] == passage[p + k]:
                k += 1
            best = max(best, k)
    return best


def _missing_numbers(
    claim: ClaimSignals, passage: ClaimSignals, claim_text: str, passage_text: str
) -> set[str]:
    """The claim's numbers the passage lacks; the two ends of a range the claim states count as
    found when the passage gives a number inside it ("between 80% and 90%" against 85%), and a
    number the claim writes with a scale when the passage gives its value ("1.5 million"
    against "1,500,000", "1.2k" against "1,200"), and a measure the passage gives in another
    unit ("1.82 km" against "1,820 metres", "4,700 miles" against "7,600 km")."""
    missing = set(claim.numbers - passage.numbers)
    for written, value in claim.scaled:
        if written in missing and value in passage.numbers:
            missing.discard(written)
    if missing and (measures := _measures(claim_text)):
        stated = _measures(passage_text)
        for q in measures:
            if q.written in missing and any(same_quantity(q, p) for p in stated):
                missing.discard(q.written)  # "1.82 km" against "1,820 metres"
    for low, high in claim.ranges:
        if {low, high} & missing and any(in_range(v, low, high) for v in passage.numbers):
            missing -= {low, high}
    return missing


def pair_features(claim: str, passage: str, cosine: float, lexical: LexicalIndex) -> list[float]:
    """The features of one pair, in :data:`FEATURE_NAMES` order.

    Args:
        claim: the claim text (markers removed).
        passage: the passage text (or two passages joined).
        cosine: embedding cosine between claim and passage.
        lexical: the index whose document frequencies weigh terms.
    """
    c = signals(claim)
    p = signals(passage)
    n_terms = len(c.term_set)
    coverage = len(c.term_set & p.term_set) / n_terms if n_terms else 0.0
    bigram_coverage = len(c.bigrams & p.bigrams) / len(c.bigrams) if c.bigrams else coverage
    run = _longest_run(c.stems, p.stems) / len(c.stems) if c.stems else 0.0
    numbers_missing = (
        len(_missing_numbers(c, p, claim, passage)) / len(c.numbers) if c.numbers else 0.0
    )
    entities_missing = len(c.entities - p.words) / len(c.entities) if c.entities else 0.0
    return [
        max(-1.0, min(1.0, cosine)),
        lexical.coverage(c.terms, p.term_set),
        coverage,
        bigram_coverage,
        run,
        numbers_missing,
        1.0 if c.numbers else 0.0,
        entities_missing,
        1.0 if c.negated != p.negated else 0.0,
        min(1.0, len(c.stems) / 40.0),
    ]
