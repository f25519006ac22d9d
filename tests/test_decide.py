"""The verdicts as pure functions: claims (decide_claim) and markers (check_marker)."""

from __future__ import annotations

import pytest

from attribution.decide import (
    ClaimDecision,
    Numbering,
    Support,
    Thresholds,
    check_marker,
    decide_claim,
)
from attribution.text import find_markers

T = Thresholds(support=0.6, partial=0.45)


def _s(score: float, source: int, contradiction: float | None = None) -> Support:
    return Support(score=score, passages=(source,), sources=(source,), contradiction=contradiction)


@pytest.mark.parametrize(
    ("per_source", "pair", "no_relevant", "verdict", "supporting"),
    [
        ({0: _s(0.9, 0), 1: _s(0.7, 1)}, None, False, "supported", (0,)),  # the best source
        (
            {0: _s(0.5, 0), 1: _s(0.4, 1)},
            Support(score=0.8, passages=(3, 7), sources=(0, 1)),
            False,
            "supported",  # two sources together
            (0, 1),
        ),
        (
            {0: _s(0.5, 0)},
            Support(score=0.55, passages=(3, 7), sources=(0, 1)),
            False,
            "partially_supported",
            (),
        ),  # the pair does not reach the threshold
        ({0: _s(0.3, 0, contradiction=0.8)}, None, False, "contradicted", ()),
        ({0: _s(0.5, 0, contradiction=0.4)}, None, False, "partially_supported", ()),
        ({0: _s(0.2, 0)}, None, False, "unsupported", ()),
        ({}, None, True, "unsupported", ()),
    ],
)
def test_decide_claim(
    per_source: dict[int, Support],
    pair: Support | None,
    no_relevant: bool,
    verdict: str,
    supporting: tuple[int, ...],
) -> None:
    decision = decide_claim(per_source, pair, T, no_relevant_source=no_relevant)
    assert decision.verdict == verdict
    assert decision.supporting == supporting
    assert (decision.reason is None) == (verdict == "supported")


def test_a_passage_that_contradicts_a_claim_nothing_supports_makes_it_contradicted() -> None:
    # the judge caps a contradicting pair near 0: an unrelated passage is the claim's best
    per_source = {0: _s(0.01, 0, contradiction=0.96), 1: _s(0.2, 1, contradiction=0.1)}
    plain = decide_claim(per_source, None, T, no_relevant_source=False)
    assert plain.verdict == "unsupported"
    found = decide_claim(per_source, None, T, no_relevant_source=False, contradicting=per_source[0])
    assert found.verdict == "contradicted"
    assert found.contradicting == (0,)
    assert found.contradiction == 0.96
    assert found.score == plain.score == 0.2  # the support score is still the best one
    # partial support outranks a contradiction elsewhere; the best passage's own still counts
    partly = {**per_source, 1: _s(0.5, 1, contradiction=0.1)}
    decision = decide_claim(partly, None, T, no_relevant_source=False, contradicting=partly[0])
    assert decision.verdict == "partially_supported"
    assert decision.contradicting == ()
    own = decide_claim({2: _s(0.3, 2, contradiction=0.8)}, None, T, no_relevant_source=False)
    assert (own.verdict, own.contradicting) == ("contradicted", (2,))


def test_an_unsupported_claim_says_whether_anything_was_relevant() -> None:
    assert decide_claim({}, None, T, no_relevant_source=True).reason == "no relevant source"
    found = decide_claim({0: _s(0.1, 0)}, None, T, no_relevant_source=True)
    assert found.reason == "no source supports the claim"


NUMBERING = Numbering(numbers=(1, 2, 5), source_ids=("a", "b", "c"), known=frozenset({1, 2, 3, 5}))


@pytest.mark.parametrize(
    ("number", "per_source", "supporting", "verdict", "suggested"),
    [
        (1, {0: _s(0.9, 0)}, (0,), "supported", None),
        (2, {0: _s(0.9, 0), 1: _s(0.2, 1)}, (0,), "wrong_source", 1),
        (2, {1: _s(0.5, 1), 0: _s(0.5, 0)}, (0, 1), "supported", None),  # one of a pair
        (2, {1: _s(0.5, 1)}, (1,), "supported", None),  # two of its own passages together
        (5, {2: _s(0.3, 2)}, (), "unsupported", None),
        (3, {}, (), "unverifiable", None),  # known to the registry, not in this request
        (9, {}, (), "unknown_number", None),
    ],
)
def test_check_marker(
    number: int,
    per_source: dict[int, Support],
    supporting: tuple[int, ...],
    verdict: str,
    suggested: int | None,
) -> None:
    (marker,) = find_markers(f"A claim [{number}].")
    decision = ClaimDecision(
        verdict="supported" if supporting else "unsupported", score=0.9, supporting=supporting
    )
    check = check_marker(
        marker,
        number,
        claim_index=0,
        per_source=per_source,
        decision=decision,
        threshold=T.support,
        numbering=NUMBERING,
    )
    assert check.verdict == verdict
    assert check.suggested == suggested
    assert (check.start, check.end) == (marker.start, marker.end)


def _parts(answer: str, by_number: dict[int, int]) -> list[tuple[str, str, tuple[int, ...]]]:
    from attribution.decide import claims_to_check, marker_parts
    from attribution.segment import Segmenter

    claims = claims_to_check(answer, Segmenter().segment(answer), by_number)
    return [
        (p.claim.segment.text, p.claim.segment.read_as, p.claim.cited_numbers)
        for p in marker_parts(answer, claims, by_number)
    ]


def test_a_claim_cited_clause_by_clause_is_read_by_its_parts() -> None:
    answer = "Rust 1.0 came out on May 15, 2015 [2], while Go was announced in November 2009 [3]."
    assert _parts(answer, {2: 1, 3: 2}) == [
        ("Rust 1.0 came out on May 15, 2015 [2]", "Rust 1.0 came out on May 15, 2015.", (2,)),
        (
            ", while Go was announced in November 2009 [3].",
            "Go was announced in November 2009.",
            (3,),
        ),
    ]
    # a subject in emphasis (ExpertQA's answers write them so)
    answer = "**Stoicism** sees it as a cycle of rebirth [1], while **Nietzsche** sees a test [3]."
    assert [read for _, read, _ in _parts(answer, {1: 0, 3: 2})] == [
        "Stoicism sees it as a cycle of rebirth.",
        "Nietzsche sees a test.",
    ]
    # a group of markers closes one part; emphasis goes from what the judge reads
    answer = "It opened in **1889** [1][2] and the Eiffel Tower is 330 metres tall today [3]."
    assert [read for _, read, _ in _parts(answer, {1: 0, 2: 1, 3: 2})] == [
        "It opened in 1889.",
        "The Eiffel Tower is 330 metres tall today.",
    ]


@pytest.mark.parametrize(
    "answer",
    [
        "It opened in 1889 and it is 330 metres tall [1].",  # one group
        "It opened in 1889 [1] and [2].",  # markers listed
        "It opened in 1889 [1], and it is tall [2].",  # a part of three words
        "It opened in 1889 [1], and it is 330 metres tall.",  # the last part cites nothing
        "It opened in 1889 [1], which it did [2] with style and grace, as noted.",
        # a part that does not state something alone (after a review: read alone, any source
        # of the kind supported it, and the claim was called supported)
        "Marie Curie won the Nobel Prize in Physics in 1903 [1], and later won it in 1921 [2].",
        "Curie won the Nobel Prize in 1903 [1], and in 1921 she won it again in Oslo [2].",
        "The tower was designed by Eiffel's company [1], which later built a bridge there [2].",
        "Aspirin reduces the risk of heart attack [1] but can cause stomach bleeding often [2].",
        "As the Harvard team reported in 2019 [1], Zelmax cut deaths by 20 percent [2].",
        # a later subject that points back, a first part without its subject (a second review)
        "Python was created by Guido van Rossum [1], and the language was first released [2].",
        "Einstein was born in 1879 [1], and the same year Edison invented the phonograph [2].",
        "Born in Ulm in the year 1879 [1], Einstein developed relativity in 1905 [2].",
        "The iron lattice tower that Eiffel designed [1] is 330 metres tall today [2].",
        # a sentence the segmenter reads for the judge: brackets, struck text, links, quotes
        "The tower was completed in 1889 (see [1]), and the bridge opened in 1937 (see [2]).",
        "The tower was done in ~~1899~~ 1889 [1], while the bridge opened in 1937 [2].",
        "The [tower](https://a.ex/t) was done in 1889 [1], while the bridge opened in 1937 [2].",
    ],
)
def test_a_claim_not_cited_clause_by_clause_has_no_parts(answer: str) -> None:
    assert _parts(answer, {1: 0, 2: 1}) == []


@pytest.mark.parametrize(
    "answer",
    [
        # a first word ending in -ed or -ing that is a name or a subject (a fourth review)
        "Beijing hosted the Summer Olympics in 2008 [1], and London hosted them in 2012 [2].",
        "Smoking causes most deaths from lung cancer [1], and Radon causes many of the rest [2].",
    ],
)
def test_a_name_that_ends_like_a_participle_opens_a_part(answer: str) -> None:
    assert len(_parts(answer, {1: 0, 2: 1})) == 2


def test_a_claim_is_supported_where_each_of_its_parts_is() -> None:
    from attribution.decide import parts_decision

    whole = ClaimDecision(verdict="unsupported", score=0.01, supporting=())
    yes = [
        ClaimDecision(verdict="supported", score=0.9, supporting=(0,)),
        ClaimDecision(verdict="supported", score=0.7, supporting=(1,)),
    ]
    got = parts_decision(whole, yes)
    assert (got.verdict, got.score, got.supporting) == ("supported", 0.7, (0, 1))
    no = [yes[0], ClaimDecision(verdict="unsupported", score=0.1, supporting=())]
    assert parts_decision(whole, no) is whole
    supported = ClaimDecision(verdict="supported", score=0.8, supporting=(0,))
    assert parts_decision(supported, no) is supported  # the parts judge the markers only
    # a passage that contradicts the whole claim is not outvoted by its parts
    contradicted = ClaimDecision(
        verdict="contradicted", score=0.4, supporting=(), contradiction=0.6, contradicting=(1,)
    )
    assert parts_decision(contradicted, yes) is contradicted
