"""The matcher with the real embedder and FAISS."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution import CitationSource, MatchConfig, ModelConfig
from attribution.match._matcher import EmbeddingCache, Matcher
from attribution.match._passages import make_passages
from attribution.runtime import load_embedder

TOPICS = [
    "The Eiffel Tower in Paris was completed in 1889 and is 330 metres tall.",
    "Mount Everest is the highest mountain on Earth at 8,849 metres.",
    "Photosynthesis converts light energy into chemical energy in plants.",
    "The Great Wall of China is over 21,000 kilometres long.",
    "Honey bees communicate the location of flowers with a waggle dance.",
]


@pytest.fixture(scope="module")
def embedder():  # type: ignore[no-untyped-def]
    return load_embedder()


def _sources(n_filler: int = 0) -> list[CitationSource]:
    filler = " ".join(
        f"Filler sentence number {i} talks about unrelated municipal budgets."
        for i in range(n_filler)
    )
    return [
        CitationSource(id=f"s{i}", type="web", full_content=f"{filler} {text}".strip())
        for i, text in enumerate(TOPICS)
    ]


def test_each_claim_finds_its_source(embedder) -> None:  # type: ignore[no-untyped-def]
    passages = make_passages(_sources())
    result = Matcher(embedder).match(
        ["Everest is 8,849 m high.", "Bees dance to show where flowers are."], passages
    )
    assert [passages[c[0].passage].source_id for c in result.candidates] == ["s1", "s4"]
    top = result.candidates[0][0]
    assert top.relevance == pytest.approx(0.65 * top.cosine + 0.35 * top.lexical)
    assert result.no_relevant_source == [False, False]


def test_the_relevance_gate_reports_no_source(embedder) -> None:  # type: ignore[no-untyped-def]
    passages = make_passages(_sources())
    config = MatchConfig(min_top_mean=0.5)
    result = Matcher(embedder, config).match(["Quantum chromodynamics describes quarks."], passages)
    assert result.no_relevant_source == [True]
    assert result.candidates == [[]]


def test_cached_embeddings_are_not_recomputed(embedder) -> None:  # type: ignore[no-untyped-def]
    cache = EmbeddingCache()
    matcher = Matcher(embedder, cache=cache)
    passages = make_passages(_sources())
    first = matcher.match(["Everest is 8,849 m high."], passages)
    misses = cache.misses
    second = matcher.match(["Everest is 8,849 m high."], passages)
    assert cache.misses == misses  # everything came from the cache
    assert cache.hits >= len(passages)
    assert np.allclose(first.claim_vectors, second.claim_vectors)


def test_large_requests_use_the_lexical_prefilter(embedder) -> None:  # type: ignore[no-untyped-def]
    passages = make_passages(_sources(n_filler=30))
    config = MatchConfig(embed_all_below=10, prefilter_per_claim=4)
    result = Matcher(embedder, config).match(["Everest is 8,849 metres high."], passages)
    assert len(result.passage_vectors) <= 4
    assert len(passages) > 10
    assert passages[result.candidates[0][0].passage].source_id == "s1"


def test_a_static_embedder_embeds_every_passage_up_to_its_limit_then_its_own_prefilter() -> None:
    from attribution.match._matcher import STATIC_EMBED_ALL_BELOW

    static = load_embedder(ModelConfig(embedder="minilm-static-256"))
    passages = make_passages(_sources(n_filler=30))
    claim = ["Everest is 8,849 metres high."]
    # a small request: every passage, whatever the transformer's pre-filter says
    config = MatchConfig(prefilter_per_claim=1)
    assert len(passages) <= STATIC_EMBED_ALL_BELOW
    assert len(Matcher(static, config).match(claim, passages).passage_vectors) == len(passages)
    # past the limit: the static pre-filter's count, not the transformer's
    config = MatchConfig(embed_all_below=10, prefilter_per_claim=1, static_prefilter_per_claim=6)
    result = Matcher(static, config).match(claim, passages)
    assert 1 < len(result.passage_vectors) <= 6  # the passages BM25 scores at all, up to 6
    assert passages[result.candidates[0][0].passage].source_id == "s1"


def test_cited_sources_are_embedded_even_when_they_rank_low(embedder) -> None:  # type: ignore[no-untyped-def]
    passages = make_passages(_sources(n_filler=30))
    config = MatchConfig(embed_all_below=10, prefilter_per_claim=2)
    result = Matcher(embedder, config).match(
        ["Everest is 8,849 metres high."], passages, cited={0: [3]}
    )
    best = result.best_in_source(0, 3)
    assert best
    assert all(passages[c.passage].source_index == 3 for c in best)


def test_a_claim_again_is_matched_once(embedder, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from attribution.match import LexicalIndex

    passages = make_passages(_sources(n_filler=30))
    config = MatchConfig(embed_all_below=10, prefilter_per_claim=4)
    everest, bees = "Everest is 8,849 metres high.", "Bees dance to show where flowers are."
    alone = Matcher(embedder, config).match([everest], passages)
    ranked: list[tuple[str, ...]] = []
    bm25 = LexicalIndex.bm25

    def counting(self: LexicalIndex, terms: list[str]) -> dict[int, float]:
        ranked.append(tuple(terms))
        return bm25(self, terms)

    monkeypatch.setattr(LexicalIndex, "bm25", counting)
    result = Matcher(embedder, config).match([everest, bees, everest, everest], passages)
    assert len(ranked) == 4  # two claims, each ranked once to embed and once for candidates
    assert len(set(ranked)) == 2
    assert result.candidates[0] == result.candidates[2] == result.candidates[3]
    assert result.candidates[0] == alone.candidates[0]
    assert result.candidates[2] is not result.candidates[0]  # each claim's list is its own
    flags = result.no_relevant_source
    assert flags[0] == flags[2] == flags[3] == alone.no_relevant_source[0]


def test_more_new_texts_than_the_cache_holds_are_all_embedded(embedder) -> None:  # type: ignore[no-untyped-def]
    matcher = Matcher(embedder, cache=EmbeddingCache(max_items=2))
    texts = ["Everest is high.", "Bees dance.", "The Eiffel Tower is in Paris."]
    vectors = matcher.embed(texts)
    assert vectors.shape == (3, embedder.dimension)  # was (2, ...): the first had been evicted
    alone = Matcher(embedder).embed(texts)
    assert np.allclose(vectors, alone, atol=1e-6)


def test_approximate_index_above_the_exact_limit(embedder) -> None:  # type: ignore[no-untyped-def]
    passages = make_passages(_sources(n_filler=5))
    exact = Matcher(embedder).match(["Everest is 8,849 metres high."], passages)
    approx = Matcher(embedder, MatchConfig(exact_index_max=2)).match(
        ["Everest is 8,849 metres high."], passages
    )
    assert approx.candidates[0][0].passage == exact.candidates[0][0].passage


def test_a_passage_is_tokenised_once_across_requests() -> None:
    from attribution.match._lexical import LexicalIndex, passage_terms
    from attribution.text import content_terms

    texts = [f"The tower number {i} was painted red in {1900 + i}." for i in range(50)]
    first = LexicalIndex(texts)
    before = passage_terms.cache_info()
    second = LexicalIndex(list(reversed(texts)))
    LexicalIndex(["A passage never seen before."])
    after = passage_terms.cache_info()
    assert after.hits - before.hits == len(texts)
    assert after.misses - before.misses == 1
    # the cached terms are the terms: the same scores either way
    assert [list(t) for t in first.terms] == [content_terms(t) for t in texts]
    query = content_terms("Which tower was painted red in 1907?")
    assert second.bm25(query)[len(texts) - 1 - 7] == first.bm25(query)[7]


@given(
    st.lists(
        st.lists(
            st.lists(
                st.sampled_from(["tower", "red", "paint", "1907", "bridge", "river"]), max_size=6
            ),
            max_size=4,
        ),
        min_size=1,
        max_size=5,
    ),
    st.lists(
        st.sampled_from(["tower", "red", "paint", "1907", "bridge", "river", "sea"]), max_size=4
    ),
)
def test_an_index_built_from_groups_scores_as_one_built_whole(
    groups: list[list[list[str]]], query: list[str]
) -> None:
    from attribution.match._lexical import LexicalIndex
    from attribution.text import content_terms

    texts = [" ".join(words) for group in groups for words in group]
    whole = LexicalIndex(texts)
    grouped = LexicalIndex(texts, groups=[len(g) for g in groups])
    terms = content_terms(" ".join(query))
    assert grouped.bm25(terms) == pytest.approx(whole.bm25(terms))
    assert grouped.terms == whole.terms
    for term in terms:
        assert grouped.idf(term) == whole.idf(term)
    for k in range(len(texts)):
        assert grouped.coverage(terms, grouped.term_sets[k]) == whole.coverage(
            terms, whole.term_sets[k]
        )


@given(
    st.lists(
        st.lists(st.sampled_from(["tower", "red", "paint", "1907", "bridge", "river"]), max_size=8),
        min_size=1,
        max_size=8,
    ),
    st.lists(st.sampled_from(["tower", "red", "1907", "bridge", "sea"]), max_size=4),
    st.integers(1, 3),
    st.booleans(),
)
def test_bm25_and_idf_are_the_textbook_formulas(
    docs: list[list[str]], query: list[str], group: int, gather_first: bool
) -> None:
    import math
    from collections import Counter

    from attribution.match._lexical import LexicalIndex
    from attribution.text import content_terms

    texts = [" ".join(words) for words in docs]
    sizes = [min(group, len(texts) - k) for k in range(0, len(texts), group)]
    index = LexicalIndex(texts, groups=sizes)
    terms = content_terms(" ".join(query))
    if gather_first:  # postings gathered for many queries at once, or as each query asks
        index.gather([*terms, "river", "paint"])
    n = len(texts)
    read = [content_terms(t) for t in texts]
    avg = sum(map(len, read)) / n or 1.0
    expected: dict[int, float] = {}
    for term in set(terms):
        df = sum(term in r for r in read)
        idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
        assert index.idf(term) == pytest.approx(idf)
        for k, r in enumerate(read):
            tf = Counter(r)[term]
            if tf:
                norm = tf + 1.2 * (1.0 - 0.75 + 0.75 * len(r) / avg)
                expected[k] = expected.get(k, 0.0) + idf * tf * 2.2 / norm
    assert index.bm25(terms) == pytest.approx(expected)


def test_group_statistics_are_reused_across_requests_and_sizes_are_checked() -> None:
    from attribution.match._lexical import LexicalIndex

    a = [f"Source A says the tower {i} is red." for i in range(3)]
    b = [f"Source B says the bridge {i} is long." for i in range(2)]
    first = LexicalIndex(a + b, groups=[3, 2])
    again = LexicalIndex(b + a, groups=[2, 3])  # the same sources in another order
    assert again._parts[0][1] is first._parts[1][1]
    assert again._parts[1][1] is first._parts[0][1]
    assert set(again.bm25(["bridge"])) == {0, 1}
    with pytest.raises(ValueError, match="do not cover"):
        LexicalIndex(a, groups=[2])


def test_the_group_cache_is_bounded_by_passages(monkeypatch: pytest.MonkeyPatch) -> None:
    from attribution.match import _lexical
    from attribution.match._lexical import LexicalIndex, clear_lexical_cache

    clear_lexical_cache()
    monkeypatch.setattr(_lexical, "PART_CACHE_PASSAGES", 5)
    groups = [[f"Source {g} passage {i} about towers." for i in range(2)] for g in range(4)]
    for group in groups:
        LexicalIndex(group)
    assert len(_lexical._parts) == 2
    assert _lexical._parts_passages == 4
    LexicalIndex([f"passage {i}" for i in range(6)])  # larger than the whole cache: not kept
    assert _lexical._parts_passages == 4
    clear_lexical_cache()
