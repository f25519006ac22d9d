"""End-to-end behaviour of the pipeline with the real models (embedder, FAISS, spaCy, verifier)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attribution import (
    AttributionConfig,
    Attributor,
    CitationRegistry,
    CitationSource,
    InputError,
    ReconcileConfig,
    ToolOutput,
    VerifyConfig,
    decode_json,
    encode_json,
    find_markers,
)
from attribution.emit import best_sentences
from attribution.emit._evidence import _terms_of
from attribution.match import LexicalIndex, make_passages
from attribution.verify import (
    FEATURE_NAMES,
    FeatureVerifier,
    FeatureWeights,
    Pair,
    sentence_judge,
)

ROOT = Path(__file__).resolve().parents[1]

SOURCES = [
    CitationSource(
        id="eiffel",
        type="web",
        uri="https://example.org/eiffel",
        title="Eiffel Tower",
        full_content=(
            "The Eiffel Tower is a wrought-iron lattice tower in Paris, France. "
            "It was completed in 1889 as the entrance arch to the World's Fair. "
            "The tower is 330 metres tall."
        ),
    ),
    CitationSource(
        id="everest",
        type="web",
        uri="https://example.org/everest",
        title="Mount Everest",
        full_content=(
            "Mount Everest is Earth's highest mountain above sea level. "
            "Its elevation of 8,849 metres was measured in 2020 by Chinese and Nepali surveyors. "
            "It lies in the Mahalangur Himal sub-range of the Himalayas."
        ),
    ),
    CitationSource(
        id="wall",
        type="web",
        uri="https://example.org/wall",
        title="Great Wall",
        full_content=(
            "The Great Wall of China is a series of fortifications built across northern China. "
            "Its total length, including all branches, is 21,196 kilometres."
        ),
    ),
    CitationSource(
        id="curie-physics",
        type="kb_chunk",
        title="Marie Curie (1)",
        full_content="In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie "
        "and Henri Becquerel for their work on radiation.",
    ),
    CitationSource(
        id="curie-chemistry",
        type="kb_chunk",
        title="Marie Curie (2)",
        full_content="In 1911 Marie Curie received the Nobel Prize in Chemistry for the "
        "discovery of the elements polonium and radium.",
    ),
]

ANSWER = (
    "The Eiffel Tower in Paris was completed in 1889 [1]. "
    "Mount Everest rises 8,849 metres above sea level [3]. "
    "The Great Wall of China is about 21,196 kilometres long. "
    "Bananas are the main export of Iceland [2]. "
    "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911."
)


@pytest.fixture(scope="module")
def attributor() -> Attributor:
    return Attributor(AttributionConfig())


@pytest.fixture(scope="module")
def result(attributor: Attributor):  # type: ignore[no-untyped-def]
    return attributor.attribute(ANSWER, SOURCES)


def _claim(result, start: str):  # type: ignore[no-untyped-def]
    return next(c for c in result.claims if c.text.startswith(start))


def test_every_claim_span_is_exact(result) -> None:  # type: ignore[no-untyped-def]
    assert [c.text for c in result.claims] == [ANSWER[c.start : c.end] for c in result.claims]
    assert len(result.claims) == 5
    for c in result.claims:
        assert result.answer[c.output_start : c.output_end].startswith(c.text[:20])
    for ref in result.citations.references:
        assert result.answer[ref.start_index : ref.end_index] == ref.cited_text


def test_a_correct_citation_is_supported(result) -> None:  # type: ignore[no-untyped-def]
    claim = _claim(result, "The Eiffel Tower")
    assert claim.verdict == "supported"
    check = next(m for m in result.markers if m.claim_index == claim.index)
    assert (check.number, check.verdict, check.source_id) == (1, "supported", "eiffel")


def test_a_wrong_citation_gets_the_right_source_suggested(result) -> None:  # type: ignore[no-untyped-def]
    claim = _claim(result, "Mount Everest")
    check = next(m for m in result.markers if m.claim_index == claim.index)
    assert check.verdict == "wrong_source"
    assert (check.suggested, check.suggested_source_id) == (2, "everest")


def test_a_missing_citation_is_filled_in(result) -> None:  # type: ignore[no-untyped-def]
    claim = _claim(result, "The Great Wall")
    assert claim.verdict == "supported"
    assert claim.added == (3,)
    assert "about 21,196 kilometres long [3]." in result.answer
    assert any(ref.source_ids == ("wall",) for ref in result.citations.references)


def test_evidence_quotes_point_into_the_source(result) -> None:  # type: ignore[no-untyped-def]
    by_id = {s.id: s for s in SOURCES}
    quotes = [q for c in result.claims for q in c.evidence]
    assert quotes
    for q in quotes:
        text = by_id[q.source_id].full_content
        assert text is not None
        assert text[q.start : q.end] == q.text
    wall = _claim(result, "The Great Wall").evidence
    assert any("21,196" in q.text for q in wall)


def test_a_quote_from_run_on_text_is_the_piece_that_carries_the_claim(
    attributor: Attributor,
) -> None:
    # a scrape with its line breaks lost: menus and captions run into the article's sentence
    menu = " ".join(f"Menu item {i} Shows A-Z TV Schedule Latest News" for i in range(12))
    text = (
        f"{menu} Photo by a staff photographer The Eiffel Tower is 330 metres tall and was "
        f"completed in 1889 {menu}"
    )
    source = CitationSource(id="scrape", type="web", full_content=text)
    limit = VerifyConfig().evidence_max_chars
    checked = attributor.check_claims(["The Eiffel Tower is 330 metres tall."], [source])[0]
    assert checked.evidence, checked.verdict
    first = checked.evidence[0]
    assert text[first.start : first.end] == first.text
    assert first.end - first.start <= limit
    assert "330 metres" in first.text
    # the piece is quoted where the claim's words are, not where the cut fell
    assert first.text == "The Eiffel Tower is 330 metres tall"
    # without the cut, the same claim is quoted by the whole run-on "sentence"
    whole = Attributor(
        AttributionConfig(verify=VerifyConfig(evidence_max_chars=20_000)),
        embedder=attributor.embedder,
        verifier=attributor.verifier,
        segmenter=attributor.segmenter,
    )
    uncut = whole.check_claims(["The Eiffel Tower is 330 metres tall."], [source])[0].evidence
    assert uncut
    assert uncut[0].end - uncut[0].start > limit


_MENU = " ".join(f"Menu item {i} Shows A-Z TV Schedule Latest News" for i in range(12))


@pytest.mark.parametrize(
    ("claim", "text", "quotes"),
    [
        # a unit written another way and a number in words: read across two words
        (
            "The Eiffel Tower is 330 metres tall.",
            f"{_MENU} Photo by a staff photographer The Eiffel Tower is 330 m tall and was "
            f"completed in 1889 {_MENU}",
            ["The Eiffel Tower is 330 m tall"],
        ),
        (
            "Two hundred people died in the flood.",
            f"{_MENU} reports say two hundred people died in the flooded valley {_MENU}",
            ["two hundred people died in the flooded"],
        ),
        # two pieces of one run-on sentence that come to the same words: quoted once
        (
            "The bridge cost 2.5 bn euros.",
            f"{_MENU} The bridge cost 2.5 bn euros and took years {_MENU} the bridge cost 2.5 "
            f"bn euros again {_MENU}",
            ["The bridge cost 2.5 bn euros"],
        ),
    ],
)
def test_a_quote_of_run_on_text_is_the_run_of_words_that_carries_the_claim(
    claim: str, text: str, quotes: list[str]
) -> None:
    source = CitationSource(id="scrape", type="web", full_content=text)
    passages = make_passages([source], AttributionConfig().match)
    lexical = LexicalIndex([p.text for p in passages])
    spans = best_sentences(passages, claim, lexical, 2, max_chars=150)
    assert [text[a:b] for a, b in spans] == quotes


def test_a_quote_of_run_on_text_is_never_a_word_or_two() -> None:
    # a new user's trial: "landed" alone was quoted, the one word of the claim in a sentence
    # longer than the limit
    text = (
        "Apollo 11 launched from Kennedy Space Center on July 16, 1969. Neil Armstrong and "
        "Buzz Aldrin landed the lunar module Eagle on July 20, 1969, while Michael Collins "
        "remained in lunar orbit aboard the command module Columbia."
    )
    claim = "Apollo 11 was the first crewed Moon landing."
    source = CitationSource(id="apollo", type="web", full_content=text)
    passages = make_passages([source], AttributionConfig().match)
    lexical = LexicalIndex([p.text for p in passages])
    spans = best_sentences(passages, claim, lexical, 2, max_chars=150)
    assert all(len(text[a:b].split()) >= 5 for a, b in spans), [text[a:b] for a, b in spans]


def test_a_title_is_no_quote_beside_a_sentence() -> None:
    # a new user's trial: "Kobo Clara BW" (the page's title) came second, at the quote's score
    text = (
        "Kobo Clara BW.\n\nThe e-reader costs $129.99 and has a 6-inch E Ink screen. "
        "It weighs 174 grams."
    )
    claim = "The Kobo Clara BW costs $129.99."
    source = CitationSource(id="kobo", type="web", full_content=text)
    passages = make_passages([source], AttributionConfig().match)
    lexical = LexicalIndex([p.text for p in passages])
    spans = best_sentences(passages, claim, lexical, 2)
    assert [text[a:b] for a, b in spans] == [
        "The e-reader costs $129.99 and has a 6-inch E Ink screen."
    ]


def test_a_quantity_in_the_source_s_form_is_found_for_the_quote() -> None:
    # a new user's trial: "The maximum is 4,000 mg" was quoted "Go to A&E ... the maximum dose"
    # first: the sentence that states it writes "4g", which shares no term with "4,000 mg"
    text = (
        "The usual dose is one or two 500mg tablets up to 4 times in 24 hours. "
        "Do not take more than 8 tablets (4g) in 24 hours. "
        "Go to A&E straight away if you've taken more than the maximum dose."
    )
    claim = "The maximum is 4,000 mg in 24 hours."
    source = CitationSource(id="nhs", type="web", full_content=text)
    passages = make_passages([source], AttributionConfig().match)
    lexical = LexicalIndex([p.text for p in passages])
    (first, *_) = best_sentences(passages, claim, lexical, 2)
    assert text[first[0] : first[1]] == "Do not take more than 8 tablets (4g) in 24 hours."


_RUN_ON_WORDS = st.sampled_from(
    [
        "The", "tower", "is", "330", "m", "tall", "two", "hundred", "people", "menu", "News",
        "a", "by", "2.5", "bn", "per", "cent", "5", "Eiffel", "é", "🗼", "—",
        *(f"{w}s" for w in "alpha bravo charlie delta echo foxtrot golf hotel india juliet "
          "kilo lima mike november oscar papa quebec romeo sierra tango".split()),
    ]
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    text=st.lists(_RUN_ON_WORDS, min_size=30, max_size=160).map(" ".join),
    claim=st.lists(_RUN_ON_WORDS, min_size=1, max_size=8).map(" ".join),
)
def test_a_quote_of_run_on_text_lies_inside_it_and_within_the_limit(text: str, claim: str) -> None:
    source = CitationSource(id="scrape", type="web", full_content=text)
    passages = make_passages([source], AttributionConfig().match)
    if not passages:
        return
    lexical = LexicalIndex([p.text for p in passages])
    spans = best_sentences(passages, claim, lexical, 2, max_chars=150)
    assert len(set(spans)) == len(spans)
    for a, b in spans:
        assert 0 <= a < b <= len(text)
        assert text[a:b] == text[a:b].strip()
        assert b - a <= 150


def test_an_unsupported_claim_quotes_the_source_that_came_closest(
    attributor: Attributor,
) -> None:
    claims = [
        "The Great Wall of China was built by the Ming dynasty.",
        "Mount Everest rises 8,849 metres above sea level.",
    ]
    unsupported, supported = attributor.check_claims(claims, SOURCES)
    assert unsupported.verdict == "unsupported", unsupported
    assert unsupported.evidence == ()
    assert unsupported.nearest
    wall = SOURCES[2].full_content
    assert wall is not None
    for quote in unsupported.nearest:
        assert (quote.source_id, quote.number) == ("wall", 3)
        assert wall[quote.start : quote.end] == quote.text
    assert "Great Wall of China" in unsupported.nearest[0].text
    # a supported claim has evidence, not a nearest quote
    assert supported.verdict == "supported"
    assert supported.evidence
    assert supported.nearest == ()
    # off on request; and a claim nothing is near gets none
    off = attributor.with_config(AttributionConfig(verify=VerifyConfig(nearest_evidence=False)))
    assert off.check_claims(claims[:1], SOURCES)[0].nearest == ()
    (far,) = attributor.check_claims(["Quokkas often smile at hikers on Rottnest Island."], SOURCES)
    assert (far.verdict, far.nearest) == ("unsupported", ())


def test_an_unsupported_claim_is_flagged(result) -> None:  # type: ignore[no-untyped-def]
    claim = _claim(result, "Bananas")
    assert claim.verdict in ("unsupported", "partially_supported")
    check = next(m for m in result.markers if m.claim_index == claim.index)
    assert check.verdict == "unsupported"
    assert claim.added == ()


def test_a_claim_needing_two_sources(result) -> None:  # type: ignore[no-untyped-def]
    claim = _claim(result, "Marie Curie")
    assert claim.verdict == "supported"
    assert set(claim.source_ids) <= {"curie-physics", "curie-chemistry"}
    assert set(claim.added) <= {4, 5}
    assert claim.added


def test_numbers_that_disagree_are_not_supported(attributor: Attributor) -> None:
    result = attributor.attribute("Mount Everest is 9,500 metres high [1].", SOURCES[1:2])
    (claim,) = result.claims
    assert claim.verdict != "supported"
    assert result.markers[0].verdict == "unsupported"


def test_a_german_number_is_read_as_german_writes_it(attributor: Attributor) -> None:
    """A dot between thousands and a short scale: "1.500.000 Besucher" was contradicted (0.19)
    by "1,5 Mio. Besucher", read as 1.5; "1500 Kilometer" was barely supported by "1.500 km"."""
    page = CitationSource(
        id="graz",
        type="web",
        full_content="Die Alpenroute ist 1.500 km lang und führt durch fünf Länder. "
        "Sie wurde 1998 eröffnet. Graz zählt jährlich 1,5 Mio. Besucher.",
    )
    right = ["Graz hat jährlich 1.500.000 Besucher.", "Die Alpenroute ist 1500 Kilometer lang."]
    wrong = ["Graz hat jährlich 2.500.000 Besucher.", "Die Alpenroute ist 2.500 km lang."]
    results = attributor.check_claims(right + wrong, [page])
    for claim, result in zip(right + wrong, results, strict=True):
        expected = "supported" if claim in right else "contradicted"
        assert result.verdict == expected, (claim, result.score)


def test_an_address_naming_where_a_claim_came_from_does_not_lower_its_support(
    attributor: Attributor,
) -> None:
    """A true claim with its source's address written out was only partly supported (0.36)."""
    plain = attributor.attribute("The Eiffel Tower was completed in 1889 [1].", SOURCES[:1])
    for answer in (
        "The Eiffel Tower was completed in 1889, see https://example.org/eiffel [1].",
        "The Eiffel Tower was completed in 1889 (https://example.org/eiffel) [1].",
        "The Eiffel Tower was completed in 1889 <https://example.org/eiffel> [1].",
    ):
        (claim,) = attributor.attribute(answer, SOURCES[:1]).claims
        assert claim.verdict == "supported", answer
        assert claim.score == pytest.approx(plain.claims[0].score, abs=0.01)


def test_unknown_numbers_and_normalisation(attributor: Attributor) -> None:
    config = AttributionConfig(
        reconcile=ReconcileConfig(marker_style="citation", drop_unknown=True)
    )
    result = Attributor(
        config,
        embedder=attributor.embedder,
        verifier=attributor.verifier,
        segmenter=attributor.segmenter,
    ).attribute("The Eiffel Tower was completed in 1889 [1][7].", SOURCES)
    verdicts = {m.number: m.verdict for m in result.markers}
    assert verdicts == {1: "supported", 7: "unknown_number"}
    assert result.answer == "The Eiffel Tower was completed in 1889 [citation:1]."
    assert [m.text for m in find_markers(result.answer)] == ["[citation:1]"]


def test_unknown_numbers_are_dropped_by_default_and_kept_on_request(
    attributor: Attributor,
) -> None:
    answer = "The Eiffel Tower was completed in 1889 [1][7]. It is in Paris [9]."
    dropped = attributor.attribute(answer, SOURCES)
    assert "[7]" not in dropped.answer
    assert "[9]" not in dropped.answer
    assert "[1]" in dropped.answer
    reported = {m.number: m.verdict for m in dropped.markers}
    assert reported[7] == reported[9] == "unknown_number", "still reported when dropped"
    refs = dropped.citations.references
    assert all(dropped.answer[r.start_index : r.end_index] == r.cited_text for r in refs)

    keep = AttributionConfig(reconcile=ReconcileConfig(drop_unknown=False))
    kept = attributor.with_config(keep).attribute(answer, SOURCES)
    assert "[7]" in kept.answer
    assert "[9]" in kept.answer
    assert {m.number: m.verdict for m in kept.markers} == reported


def test_an_entry_of_the_answers_list_of_sources_goes_with_its_unknown_number(
    attributor: Attributor,
) -> None:
    # the label went and its words stayed: "**** Unknown", "Refs: [1] and", "Unknown page"
    claim = "The Eiffel Tower was completed in 1889 [1]."
    eiffel = "Eiffel https://example.org/eiffel"
    for listed, want in (
        (
            "## Sources\n\n**[1]** Eiffel Tower\n**[7]** Unknown",
            "## Sources\n\n**[1]** Eiffel Tower",
        ),
        (
            "Sources:\n- [1] Eiffel Tower\n- [7] Unknown\n- [8] Other",
            "Sources:\n- [1] Eiffel Tower",
        ),
        ("Sources:\n- [7] Unknown\n- [1] Eiffel Tower", "Sources:\n- [1] Eiffel Tower"),
        # a label of two numbers, one of them dropped ("-/[1] Eiffel Tower" came back)
        ("Sources:\n- [7]/[1] Eiffel Tower", "Sources:\n- [1] Eiffel Tower"),
        # a bullet character markdown reads as text ("• Unknown" stayed)
        ("Sources:\n• [1] Eiffel Tower\n• [7] Unknown", "Sources:\n• [1] Eiffel Tower"),
        ("Sources:\r\n[1] Eiffel Tower\r\n[7] Unknown", "Sources:\r\n[1] Eiffel Tower"),
        # the list's only entry goes: the source the answer cites takes its place
        ("## Sources\n\n[7] Unknown page", "## Sources\n\n[1] Eiffel Tower"),
        ("Refs: [7], [1] and [8]", "Refs: [1]"),
        (f"Sources: [1] {eiffel}, [7] Other https://other.org/x", f"Sources: [1] {eiffel}"),
        (f"Sources: [7] Other https://other.org/x, [1] {eiffel}", f"Sources: [1] {eiffel}"),
        (
            f"Sources: [7] A https://a.org/x; [1] {eiffel}; [8] B https://b.org/y",
            f"Sources: [1] {eiffel}",
        ),
        # the answer's last line break stays
        ("Sources:\n[1] Eiffel Tower\n[7] Unknown\n", "Sources:\n[1] Eiffel Tower\n"),
        ("Sources:\r\n[1] Eiffel Tower\r\n[7] Unknown\r\n", "Sources:\r\n[1] Eiffel Tower\r\n"),
        # a key of titles alone
        ("Sources: [1] Eiffel Tower, [7] Unknown page", "Sources: [1] Eiffel Tower"),
        # a label with a number that stays is an entry that stays
        (
            "Sources:\n- [1][7] Eiffel Tower\n- [2] Everest",
            "Sources:\n- [1] Eiffel Tower\n- [2] Everest",
        ),
    ):
        result = attributor.attribute(f"{claim}\n\n{listed}", SOURCES)
        assert result.answer == f"{claim}\n\n{want}", listed
        assert {m.number for m in result.markers if m.verdict == "unknown_number"} >= {7}
    # after a review: a label with a known number, bold labels on a one-line key (one
    # crashed: overlapping edits), a line that continues an entry, lists of markers in words
    for listed, want in (
        ("Sources:\n[7] [1] Eiffel Tower\n[2] Everest", "Sources:\n[1] Eiffel Tower\n[2] Everest"),
        ("Sources:\n**[7], [1]** Eiffel Tower", "Sources:\n**[1]** Eiffel Tower"),
        (
            f"Sources: [8] A https://a.org/x, **[7]** B https://b.org/y, [1] {eiffel}",
            f"Sources: [1] {eiffel}",
        ),
        (f"Sources: **[7]** B https://b.org/y, [1] {eiffel}", f"Sources: [1] {eiffel}"),
        (f"Sources: [1] {eiffel}, **[7]** B https://b.org/y", f"Sources: [1] {eiffel}"),
        (
            "Sources:\n- [1] Eiffel Tower\n- [7] Unknown page\n  https://unknown.org/x\n- [2] B",
            "Sources:\n- [1] Eiffel Tower\n- [2] B",
        ),
        ("Sources: [1] and [7] [8]", "Sources: [1]"),
        # a continuation indented as far as its entry goes with it (a fourth review)
        (
            "Sources:\n  [7] Other\n  https://x.org\n  [1] Eiffel Tower",
            "Sources:\n  [1] Eiffel Tower",
        ),
        # an indented list: the next entry is no continuation of the one that goes
        (
            "**Sources:**\n  **[7]** Other https://x.org\n  **[1]** Eiffel Tower https://a.org",
            "**Sources:**\n  **[1]** Eiffel Tower https://a.org",
        ),
    ):
        result = attributor.attribute(f"{claim}\n\n{listed}", SOURCES)
        assert result.answer == f"{claim}\n\n{want}", listed
    for answer, want in (
        (
            "The tower was completed in 1889 [1] and [7] [8].",
            "The tower was completed in 1889 [1].",
        ),
        ("The tower was completed in 1889 [1] and [7]。", "The tower was completed in 1889 [1]。"),
    ):
        assert attributor.attribute(answer, SOURCES).answer == want, answer
    # the list's last line goes and the engine adds one: no blank line, the last break kept,
    # a hard break not doubled
    everest = "The Eiffel Tower was completed in 1889 [1]. Mount Everest is 8,849 metres tall."
    filled = everest.replace("tall.", "tall [2].")
    for listed, want in (
        (
            "Sources:\n[1] Eiffel Tower\n[7] Unknown\n",
            "Sources:\n[1] Eiffel Tower\n[2] Mount Everest\n",
        ),
        (
            "Sources:\r\n[1] Eiffel Tower\r\n[7] Unknown\r\n",
            "Sources:\r\n[1] Eiffel Tower\r\n[2] Mount Everest\r\n",
        ),
        (
            "## Sources\n\n[7] Unknown\n\n",
            "## Sources\n\n[1] Eiffel Tower\n[2] Mount Everest\n\n",
        ),
        (
            "Sources:\n[1] Eiffel Tower\\\n[7] Unknown",
            "Sources:\n[1] Eiffel Tower\\\n[2] Mount Everest",
        ),
    ):
        result = attributor.attribute(f"{everest}\n\n{listed}", SOURCES)
        assert result.answer == f"{filled}\n\n{want}", listed
    # a claim the engine cites gets its entry where the list loses one
    answer = f"{claim} Mount Everest is 8,849 metres tall.\n\nRefs: [7], [1] and [8]"
    result = attributor.attribute(answer, SOURCES)
    assert result.answer.endswith("metres tall [2].\n\nRefs: [1], [2]")
    # rewritten in another style, the entries that stay are rewritten with it
    cited = attributor.with_config(
        AttributionConfig(reconcile=ReconcileConfig(marker_style="citation"))
    ).attribute(f"{claim}\n\nSources: [7] Other https://other.org/x, [1] {eiffel}", SOURCES)
    assert cited.answer.endswith(f"\n\nSources: [citation:1] {eiffel}")
    # kept when unknown numbers are kept
    keep = attributor.with_config(AttributionConfig(reconcile=ReconcileConfig(drop_unknown=False)))
    listed = "## Sources\n\n**[1]** Eiffel Tower\n**[7]** Unknown"
    assert keep.attribute(f"{claim}\n\n{listed}", SOURCES).answer == f"{claim}\n\n{listed}"


def test_a_key_of_titles_alone_renumbers_the_answer(attributor: Attributor) -> None:
    answer = (
        "Everest is 8,849 metres tall [1]. The Eiffel Tower was completed in 1889 [2].\n\n"
        "Sources: [1] Mount Everest, [2] Eiffel Tower"
    )
    result = attributor.attribute(answer, SOURCES)
    assert result.answer == (
        "Everest is 8,849 metres tall [2]. The Eiffel Tower was completed in 1889 [1].\n\n"
        "Sources: [2] Mount Everest, [1] Eiffel Tower"
    )
    assert [(m.number, m.verdict) for m in result.markers] == [(2, "supported"), (1, "supported")]


def test_a_marker_supported_with_another_source_shows_the_score_its_verdict_rests_on(
    attributor: Attributor,
) -> None:
    # a new user's trial: both markers "supported" with scores of 0.004 and 0.008 (each
    # source's own), while the claim rested on the two joined (0.96)
    rust = CitationSource(
        id="rust",
        type="web",
        full_content=(
            "Rust is a general-purpose programming language emphasizing performance and memory "
            "safety. Rust 1.0, the first stable release, was published on May 15, 2015."
        ),
    )
    go = CitationSource(
        id="go",
        type="web",
        full_content=(
            "Go was designed at Google in 2007 by Robert Griesemer, Rob Pike and Ken Thompson. "
            "It was publicly announced in November 2009."
        ),
    )
    answer = (
        "Rust 1.0 came out on May 15, 2015 [1], while Go was first announced publicly in "
        "November 2009 [2]."
    )
    result = attributor.attribute(answer, [rust, go])
    (claim,) = result.claims
    assert claim.verdict == "supported"
    for check in result.markers:
        assert check.verdict == "supported"
        assert check.score is not None
        assert check.score >= claim.threshold


def test_a_claim_cited_clause_by_clause_has_each_marker_judged_by_its_clause(
    attributor: Attributor,
) -> None:
    # two new users' trials: a sentence of two facts, each cited, was judged whole: a correct
    # marker came back "wrong_source" (and was "mended" to a wrong one), or the claim
    # unsupported (0.01) though each clause alone is supported; asked to, the engine reads
    # each marker by its clause (off by default: see ReconcileConfig.marker_parts)
    default = attributor
    attributor = attributor.with_config(
        AttributionConfig(reconcile=ReconcileConfig(marker_parts=True))
    )
    curie = (
        "Marie Curie won the Nobel Prize in Physics in 1903 {} and the Nobel Prize in "
        "Chemistry in 1911 {}."
    )
    right = attributor.attribute(curie.format("[4]", "[5]"), SOURCES)
    assert [(m.number, m.verdict) for m in right.markers] == [(4, "supported"), (5, "supported")]
    swapped = attributor.attribute(curie.format("[5]", "[4]"), SOURCES)
    assert [(m.number, m.verdict, m.suggested) for m in swapped.markers] == [
        (5, "wrong_source", 4),
        (4, "wrong_source", 5),
    ]
    mixed = attributor.attribute(
        "The Eiffel Tower was completed in 1889 [1] and Mount Everest is 8,849 metres tall [3].",
        SOURCES,
    )
    assert [(m.number, m.verdict, m.suggested) for m in mixed.markers] == [
        (1, "supported", None),
        (3, "wrong_source", 2),
    ]
    chamonix = CitationSource(
        id="chamonix",
        type="web",
        full_content=(
            "Chamonix hosted the first Winter Olympic Games in 1924. The Mont Blanc Tunnel, "
            "11.6 kilometres long, has linked Chamonix to Courmayeur since 1965."
        ),
    )
    answer = (
        "Chamonix hosted the first Winter Olympics in 1924 [1], and the 11.6 km Mont Blanc "
        "Tunnel has linked the town to Courmayeur since {} [1]."
    )
    true = attributor.attribute(answer.format(1965), [chamonix])
    assert true.claims[0].verdict == "supported"
    assert [m.verdict for m in true.markers] == ["supported", "supported"]
    false = attributor.attribute(answer.format(1975), [chamonix])
    assert false.claims[0].verdict != "supported"
    assert [m.verdict for m in false.markers] == ["supported", "unsupported"]
    # off (the default): every marker judged by the whole claim
    whole = default.attribute(curie.format("[5]", "[4]"), SOURCES)
    assert [m.verdict for m in whole.markers] != ["wrong_source", "wrong_source"]
    # a comparison of two values, each cited (a fourth review: "Everest ... [1], while K2 ...
    # [2]" lost its correct [1] where the judge read the whole as contradicted)
    everest = "Mount Everest is 8,849 metres tall [1], while K2 is 8,611 metres tall [2]."
    k2 = CitationSource(
        id="k2", type="web", full_content="K2 is 8,611 metres tall, the second-highest mountain."
    )
    both = attributor.attribute(everest, [SOURCES[1], k2])
    assert [(m.number, m.verdict) for m in both.markers] == [(1, "supported"), (2, "supported")]


def test_a_supported_claim_citing_only_unknown_numbers_gets_its_source(
    attributor: Attributor,
) -> None:
    # the unknown numbers resolve to no source and are dropped: the claim cites nothing
    for answer in (
        "The Eiffel Tower was completed in 1889 [9].",
        "The Eiffel Tower was completed in 1889 [7][8].",
    ):
        result = attributor.attribute(answer, SOURCES)
        assert result.answer == "The Eiffel Tower was completed in 1889 [1].", answer
        assert result.claims[0].added == (1,)
        assert all(m.verdict == "unknown_number" for m in result.markers)
    # a known number the request brings no text for is a citation all the same: no filling
    registry = CitationRegistry()
    registry.register_source(SOURCES[0])
    registry.register_source(CitationSource(id="kept", type="web", title="elsewhere"))
    result = attributor.attribute(
        "The Eiffel Tower was completed in 1889 [2].", SOURCES[:1], registry
    )
    assert result.answer == "The Eiffel Tower was completed in 1889 [2]."
    assert result.markers[0].verdict == "unverifiable"
    # so is a source the request brings without any text: nothing of it can be checked
    textless = CitationSource(id="empty", type="web", title="a page that came back empty")
    result = attributor.attribute(
        "The Eiffel Tower was completed in 1889 [2].", [SOURCES[0], textless]
    )
    assert [m.verdict for m in result.markers] == ["unverifiable"]
    assert result.summary.markers_unverifiable == 1


def test_an_unknown_marker_the_sentence_uses_as_a_word_is_rewritten_not_dropped(
    attributor: Attributor,
) -> None:
    # dropped, it broke the sentence: "According to, the Eiffel Tower ...", "As notes, ..."
    for answer, want in (
        (
            "According to [9], the Eiffel Tower was completed in 1889.",
            "According to [1], the Eiffel Tower was completed in 1889.",
        ),
        (
            "As [9] notes, the Eiffel Tower was completed in 1889.",
            "As [1] notes, the Eiffel Tower was completed in 1889.",
        ),
        (
            "As shown in [7], the Eiffel Tower was completed in 1889.",
            "As shown in [1], the Eiffel Tower was completed in 1889.",
        ),
        # a citation after the claim's words is dropped and filled in as before
        (
            "The Eiffel Tower was completed in 1889 [9].",
            "The Eiffel Tower was completed in 1889 [1].",
        ),
        (
            "The Eiffel Tower was completed in 1889 (see [9]).",
            "The Eiffel Tower was completed in 1889 [1].",
        ),
        (  # "(cf.)" stayed behind before
            "The Eiffel Tower was completed in 1889 (cf. [9]).",
            "The Eiffel Tower was completed in 1889 [1].",
        ),
    ):
        result = attributor.attribute(answer, SOURCES)
        assert result.answer == want, answer
        assert [m.verdict for m in result.markers] == ["unknown_number"], answer
        assert result.claims[0].added == (1,)
        refs = result.citations.references
        assert [(r.cited_text, r.source_ids) for r in refs] == [(want, ("eiffel",))]
    # one that is the subject of the next sentence ("... level. [10] found that X") is X's
    # (it was the sentence before's, and filled in with that sentence's source)
    for answer, want in (
        (
            "Mount Everest is Earth's highest mountain above sea level. [10] found that the "
            "Eiffel Tower was completed in 1889.",
            "Mount Everest is Earth's highest mountain above sea level [2]. [1] found that the "
            "Eiffel Tower was completed in 1889.",
        ),
        (
            "Mount Everest is Earth's highest mountain above sea level. [10] and [9] found that "
            "the Eiffel Tower was completed in 1889.",
            "Mount Everest is Earth's highest mountain above sea level [2]. [1] found that the "
            "Eiffel Tower was completed in 1889.",
        ),
    ):
        result = attributor.attribute(answer, SOURCES)
        assert result.answer == want, answer
        everest, eiffel = result.citations.references
        assert everest.source_ids == ("everest",)
        assert everest.cited_text.endswith("sea level [2].")  # the next sentence's marker not
        assert eiffel.source_ids == ("eiffel",)
        assert eiffel.cited_text == "[1] found that the Eiffel Tower was completed in 1889."
    # dropped (the claim cites a known number), it leaves its claim beginning at its first word
    answer = (
        "The Eiffel Tower was completed in 1889. [9] notes that Mount Everest is Earth's highest "
        "mountain above sea level [2]."
    )
    everest = attributor.attribute(answer, SOURCES).citations.references[-1]
    assert everest.cited_text.startswith("notes that Mount Everest")
    # nothing to fill in (the claim is not supported, or it cites a known number): the unknown
    # number goes as every unknown number does (the answer never carries a number its citation
    # list cannot resolve), still reported
    for answer, want in (
        # a leading source phrase that named only it goes with it ("According to, the ...")
        (
            "According to [9], the Eiffel Tower was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "- As [9] notes, the Eiffel Tower was completed in 1921.",
            "- The Eiffel Tower was completed in 1921.",
        ),
        # so does one set off inside the sentence or at its end ("The tower, according to, was")
        (
            "The Eiffel Tower, according to [9], was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "The Eiffel Tower was completed in 1921, as [9] notes.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "The Eiffel Tower was completed in 1921 (per [9]).",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "It is in Paris; according to [9], the Eiffel Tower was completed in 1921.",
            "It is in Paris; the Eiffel Tower was completed in 1921.",
        ),
        (  # in any numbered style
            "The Eiffel Tower, according to [^9], was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (  # a phrase that names a list of markers that all go
            "The Eiffel Tower, according to [7] and [8], was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "According to [7], [8], the Eiffel Tower was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (  # a verb of saying after several markers is plural
            "As [7] and [8] note, the Eiffel Tower was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (  # two phrases that share a comma both go (their edits do not overlap)
            "The Eiffel Tower, according to [9], as [10] notes, was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "The Eiffel Tower was completed in 1921, according to [9], as [10] notes.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "It is in Paris; according to [9], as [10] notes, the Eiffel Tower was completed "
            "in 1921.",
            "It is in Paris; the Eiffel Tower was completed in 1921.",
        ),
        (  # a leading phrase, then one set off: the capital goes to the word after both
            "According to [9], as [10] notes, the Eiffel Tower was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "According to [9], as [1] notes, the Eiffel Tower was completed in 1921.",
            "As [1] notes, the Eiffel Tower was completed in 1921.",
        ),
        # a word written in lower case on purpose keeps it
        (
            "According to [9], iPhone sales made the Eiffel Tower 500 metres tall.",
            "iPhone sales made the Eiffel Tower 500 metres tall.",
        ),
        (
            "According to [9], [1], the Eiffel Tower was completed in 1889.",
            "According to [1], the Eiffel Tower was completed in 1889.",
        ),
        # the object of a preposition goes with it, a list that is a subject whole, a group
        # of citations with the place in the source it names
        (
            "A study by [9] found that the Eiffel Tower was completed in 1921.",
            "A study found that the Eiffel Tower was completed in 1921.",
        ),
        (
            "Studies [9] and [10] show that the Eiffel Tower was completed in 1921.",
            "Studies show that the Eiffel Tower was completed in 1921.",
        ),
        (
            "The Eiffel Tower was completed in 1921 ([9], p. 4).",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "The Eiffel Tower was completed in 1921 (see also [9]).",
            "The Eiffel Tower was completed in 1921.",
        ),
        # a leading phrase in a quote's line, a heading, a table's cell, in bold
        (
            "> According to [9], the Eiffel Tower was completed in 1921.",
            "> The Eiffel Tower was completed in 1921.",
        ),
        (
            "**According to [9]**, the Eiffel Tower was completed in 1921.",
            "The Eiffel Tower was completed in 1921.",
        ),
        (
            "| Fact | Note |\n| --- | --- |\n"
            "| According to [9], the Eiffel Tower was completed in 1921. | old |",
            "| Fact | Note |\n| --- | --- |\n| The Eiffel Tower was completed in 1921. | old |",
        ),
    ):
        result = attributor.attribute(answer, SOURCES)
        assert result.answer == want, answer
        assert "unknown_number" in [m.verdict for m in result.markers]
        refs = result.citations.references
        assert all(result.answer[r.start_index : r.end_index] == r.cited_text for r in refs)
    # the marker written in place is written as the answer writes its markers
    for answer, want in (
        (
            "A study by [9] found that the Eiffel Tower was completed in 1889.",
            "A study by [1] found that the Eiffel Tower was completed in 1889.",
        ),
        (  # the group goes with the place it named; the claim's source is filled in
            "The Eiffel Tower was completed in 1889 ([9], p. 4).",
            "The Eiffel Tower was completed in 1889 [1].",
        ),
        (
            "Mount Everest is Earth's highest mountain above sea level [^2]. "
            "According to [9], the Eiffel Tower was completed in 1889.",
            "According to [^1], the Eiffel Tower was completed in 1889.",
        ),
        (
            "Mount Everest is Earth's highest mountain above sea level [Source 2]. "
            "According to [Source 9], the Eiffel Tower was completed in 1889.",
            "According to [Source 1], the Eiffel Tower was completed in 1889.",
        ),
    ):
        result = attributor.attribute(answer, SOURCES)
        assert want in result.answer, result.answer
    # kept on request, as every unknown number (and the claim's source filled in after it)
    keep = AttributionConfig(reconcile=ReconcileConfig(drop_unknown=False))
    answer = "According to [9], the Eiffel Tower was completed in 1889."
    kept = attributor.with_config(keep).attribute(answer, SOURCES).answer
    assert kept == "According to [9], the Eiffel Tower was completed in 1889 [1]."


def test_two_sightings_of_one_source_are_merged_and_its_text_kept(
    attributor: Attributor,
) -> None:
    eiffel = "The Eiffel Tower was completed in 1889 by Gustave Eiffel."
    result = attributor.attribute(
        "The Eiffel Tower was completed in 1889 [1].",
        [
            CitationSource(id="s1", type="web_result", uri="https://ex.com/p", snippet="Towers."),
            CitationSource(
                id="s2", type="web", uri="https://ex.com/p?utm_source=x", full_content=eiffel
            ),
        ],
    )
    (source,) = result.citations.sources
    assert source.full_content == eiffel, "the scrape's text is not lost"
    assert result.claims[0].verdict == "supported"
    (warning,) = result.warnings
    assert "'s2'" in warning.reason
    assert "merged" in warning.reason
    # one id given to two texts is two sources mixed up: refused, naming both items
    with pytest.raises(InputError, match=r"sources\[1\]\.id: 's1' is the id of sources\[0\]"):
        attributor.check_claims(
            ["The Eiffel Tower was completed in 1889."],
            [
                CitationSource(id="s1", type="web", full_content="Towers are tall."),
                CitationSource(id="s1", type="web", full_content=eiffel),
            ],
        )
    # a search result and its scrape under one id are one source, the scrape's text kept
    merged = attributor.attribute(
        "The Eiffel Tower was completed in 1889 [1].",
        [
            CitationSource(id="s1", type="web_result", snippet="The Eiffel Tower, Paris."),
            CitationSource(id="s1", type="web_result", full_content=eiffel),
        ],
    )
    assert [s.full_content for s in merged.citations.sources] == [eiffel]
    assert merged.markers[0].verdict == "supported"
    # the same source given twice is one source
    twice = attributor.attribute(
        "The Eiffel Tower was completed in 1889 [1].",
        [CitationSource(id="s1", type="web", full_content=eiffel)] * 2,
    )
    assert len(twice.citations.sources) == 1
    assert twice.markers[0].verdict == "supported"


def test_registry_numbers_are_used(attributor: Attributor) -> None:
    registry = CitationRegistry()
    for s in reversed(SOURCES):  # numbered in another order than given
        registry.register_source(s)
    result = attributor.attribute("The Eiffel Tower was completed in 1889.", SOURCES, registry)
    assert result.claims[0].added == (5,)
    assert {n.source_id: n.number for n in result.numbering}["eiffel"] == 5


def test_code_greetings_and_questions_are_not_claims(attributor: Attributor) -> None:
    answer = "Hello! Here is what I found.\n\n```\nx = [1]\n```\n\nIs that clear?\n"
    result = attributor.attribute(answer, SOURCES)
    assert result.claims == ()
    assert result.answer == answer


def test_bundled_example_end_to_end(attributor: Attributor) -> None:
    answer = (ROOT / "attribution" / "examples" / "answer.md").read_text(encoding="utf-8")
    outputs = decode_json(
        (ROOT / "attribution" / "examples" / "tool_outputs.json").read_bytes(), list[ToolOutput]
    )
    result = attributor.attribute(answer, outputs)
    verdicts = {(m.marker, m.number): m.verdict for m in result.markers}
    assert verdicts[("[1]", 1)] == "supported"
    assert verdicts[("[citation:5]", 5)] == "supported"
    assert verdicts[("[4]", 4)] == "wrong_source"  # the launch is on the ESA page, not [4]
    assert verdicts[("[9]", 9)] == "unknown_number"
    assert result.summary.markers_added >= 1
    wire = json.loads(encode_json(result))
    assert wire["summary"]["claims"] == len(result.claims) == 8
    assert wire["citations"]["references"]


def test_bad_input(attributor: Attributor) -> None:
    with pytest.raises(InputError, match="all CitationSource or all ToolOutput"):
        attributor.attribute("x", [SOURCES[0], ToolOutput(tool_name="t", output="x")])  # type: ignore[list-item]
    with pytest.raises(InputError, match="answer must be a string"):
        attributor.attribute(None, SOURCES)  # type: ignore[arg-type]
    # a lone surrogate (no character; cannot be written as UTF-8), wherever it is, is named
    with pytest.raises(InputError, match=r"answer: a lone surrogate U\+D800 at character 10"):
        attributor.attribute("The tower \ud800 [1].", SOURCES)
    bad = CitationSource(id="b", type="web", full_content="x \udc00 y")
    with pytest.raises(InputError, match=r"sources_or_tool_outputs\[1\]\.fullContent"):
        attributor.attribute("The tower [1].", [SOURCES[0], bad])
    scraped = ToolOutput(
        tool_name="web_search", output={"results": [{"url": "https://a.b", "content": "\ud800"}]}
    )
    with pytest.raises(InputError, match=r"sources_or_tool_outputs\[0\]: a lone surrogate U\+D800"):
        attributor.attribute("The tower [1].", [scraped])
    # wherever it is in the call (an address, a plain-text output): said, not lost in extraction
    for output in ({"results": [{"url": "https://a.b/\ud800", "content": "x"}]}, "text \udc00"):
        with pytest.raises(InputError, match="a lone surrogate"):
            attributor.attribute(
                "The tower [1].", [ToolOutput(tool_name="web_search", output=output)]
            )
    with pytest.raises(InputError, match=r"claims\[1\]: a lone surrogate"):
        attributor.check_claims(["fine", "x \ud800"], SOURCES)
    with pytest.raises(InputError, match=r"sources\[0\]\.title"):
        attributor.check_claims(["fine"], [CitationSource(id="t", type="web", title="\udfff")])


def test_check_claims_takes_a_list_of_strings(attributor: Attributor) -> None:
    claim = "The Eiffel Tower was completed in 1889."
    with pytest.raises(InputError, match="claims must be a list of strings, got str"):
        attributor.check_claims(claim, SOURCES)  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"claims\[1\] must be a string, got NoneType"):
        attributor.check_claims([claim, None], SOURCES)  # type: ignore[list-item]
    with pytest.raises(InputError, match=r"claims\[0\] must be a string, got int"):
        attributor.check_claims([3], SOURCES)  # type: ignore[list-item]
    assert [r.verdict for r in attributor.check_claims((claim,), SOURCES)] == ["supported"]
    generated = attributor.check_claims((c for c in [claim]), SOURCES)  # type: ignore[arg-type]
    assert [r.verdict for r in generated] == ["supported"]


def test_no_sources_means_nothing_is_supported(attributor: Attributor) -> None:
    result = attributor.attribute("The Eiffel Tower was completed in 1889 [1].", [])
    assert result.claims[0].verdict == "unsupported"
    assert result.markers[0].verdict == "unknown_number"
    assert result.citations.references == ()


def _untimed(result: object) -> bytes:
    import msgspec

    return encode_json(msgspec.structs.replace(result, timings_ms={}))  # type: ignore[type-var]


def test_json_shaped_dicts_give_the_same_result(attributor: Attributor) -> None:
    answer = "The Eiffel Tower was completed in 1889 [1]. Everest is 8,849 metres high."
    typed = attributor.attribute(answer, SOURCES)
    as_json = json.loads(encode_json(list(SOURCES)))
    assert all(isinstance(d, dict) for d in as_json)
    assert _untimed(attributor.attribute(answer, as_json)) == _untimed(typed)
    example = ROOT / "attribution" / "examples" / "tool_outputs.json"
    outputs = json.loads(example.read_text(encoding="utf-8"))
    from_dicts = attributor.attribute("Rust 1.0 shipped in May 2015.", outputs)
    from_types = attributor.attribute(
        "Rust 1.0 shipped in May 2015.", decode_json(example.read_bytes(), list[ToolOutput])
    )
    assert _untimed(from_dicts) == _untimed(from_types)


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ([{"id": "a", "type": "website"}], r"\$\[0\]\.type"),
        ([{"id": "a", "type": "web", "pageNumber": "7"}], r"\$\[0\]\.pageNumber"),
        ([{"id": "a", "type": "web", "colour": "red"}], "unknown field `colour`"),
        ([{"toolName": "web_search"}], "missing required field `output`"),
        ([{"toolName": "s", "output": []}, {"id": "a", "type": "web"}], r"\$\[1\] is a source"),
        ([SOURCES[0], {"id": "a", "type": "web"}], r"\$\[0\] is a CitationSource among dicts"),
        ({"id": "a", "type": "web"}, "must be a list"),
    ],
)
def test_bad_dicts_name_the_field(attributor: Attributor, given: object, named: str) -> None:
    with pytest.raises(InputError, match=named):
        attributor.attribute("Paris is in France.", given)  # type: ignore[arg-type]


def test_with_config_shares_models_and_caches(attributor: Attributor) -> None:
    from attribution import ConfigError, ModelConfig

    config = AttributionConfig(reconcile=ReconcileConfig(marker_style="citation"))
    other = attributor.with_config(config)
    assert other.config == config
    assert other.embedder is attributor.embedder
    assert other.verifier is attributor.verifier
    assert other.segmenter is attributor.segmenter
    assert other.cache is attributor.cache
    assert attributor.with_config(attributor.config) is attributor
    result = other.attribute("The Eiffel Tower is 330 metres tall.", SOURCES)
    assert "[citation:1]" in result.answer
    with pytest.raises(ConfigError, match="model section"):
        attributor.with_config(AttributionConfig(model=ModelConfig(verifier="other")))


def test_clear_caches_forgets_embeddings_and_pair_scores() -> None:
    engine = Attributor()
    answer = "The Eiffel Tower was completed in 1889."
    first = engine.attribute(answer, SOURCES)
    assert len(engine.cache) > 0
    assert _terms_of.cache_info().currsize > 0  # the quoted sentences' terms
    engine.clear_caches()
    assert len(engine.cache) == 0
    assert _terms_of.cache_info().currsize == 0
    cross_encoder = getattr(engine.verifier, "cross_encoder", None)
    if cross_encoder is not None:
        assert not cross_encoder._cache  # the pair scores are gone too
    again = engine.attribute(answer, SOURCES)
    assert encode_json(again.claims) == encode_json(first.claims)


class _CountingVerifier:
    """The engine's real verifier, counting the pairs it is asked to score."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner = inner
        self.batches: list[list[str]] = []
        self.passages: list[list[str]] = []

    name = property(lambda self: self.inner.name)
    threshold = property(lambda self: self.inner.threshold)

    def score(self, pairs, *, lexical=None):  # type: ignore[no-untyped-def]
        self.batches.append([p.claim for p in pairs])
        self.passages.append([p.passage for p in pairs])
        return self.inner.score(pairs, lexical=lexical)


def _counting(attributor: Attributor, config: AttributionConfig | None = None):  # type: ignore[no-untyped-def]
    counting = _CountingVerifier(attributor.verifier)
    engine = Attributor(
        config or attributor.config,
        embedder=attributor.embedder,
        verifier=counting,  # type: ignore[arg-type]
        cache=attributor.cache,
    )
    return engine, counting


def test_a_claim_copied_word_for_word_needs_no_model_pass(attributor: Attributor) -> None:
    engine, counting = _counting(attributor)
    answer = "the eiffel tower is a wrought-iron lattice tower in PARIS, France!"
    result = engine.attribute(answer, SOURCES)
    (claim,) = result.claims
    assert (claim.verdict, claim.shortcut, claim.score) == ("supported", "verbatim", 1.0)
    assert claim.source_ids == ("eiffel",)
    assert claim.added == (1,)
    assert counting.batches == []  # decided without the verifier


def test_a_changed_word_is_not_verbatim(attributor: Attributor) -> None:
    engine, counting = _counting(attributor)
    result = engine.attribute("The Eiffel Tower is a wrought-iron lattice tower in Lyon.", SOURCES)
    (claim,) = result.claims
    assert claim.shortcut is None
    assert counting.batches
    assert all(len(b) >= 1 for b in counting.batches)


def test_the_verbatim_rule_can_be_switched_off(attributor: Attributor) -> None:
    config = AttributionConfig(verify=VerifyConfig(verbatim=False))
    engine, counting = _counting(attributor, config)
    claim = engine.attribute("The tower is 330 metres tall.", SOURCES[:1]).claims[0]
    assert claim.shortcut is None
    assert counting.batches


def test_a_cited_source_is_still_checked_next_to_a_verbatim_one(attributor: Attributor) -> None:
    engine, counting = _counting(attributor)
    result = engine.attribute("The tower is 330 metres tall [2].", SOURCES[:2])
    assert result.claims[0].shortcut == "verbatim"
    assert result.markers[0].verdict != "supported"  # [2] is Everest: scored, and wrong
    assert result.markers[0].suggested == 1
    assert sum(len(b) for b in counting.batches) == 1  # Everest's best passage only


def test_an_off_topic_claim_is_unsupported_without_a_model_pass(attributor: Attributor) -> None:
    engine, counting = _counting(attributor)
    result = engine.attribute("Quokkas often smile at hikers on Rottnest Island.", SOURCES)
    (claim,) = result.claims
    assert (claim.verdict, claim.shortcut) == ("unsupported", "no_candidates")
    assert counting.batches == []


def test_pairs_per_claim_are_few_and_the_joined_pair_only_when_needed(
    attributor: Attributor,
) -> None:
    engine, counting = _counting(attributor)
    result = engine.attribute(ANSWER, SOURCES)
    # the first round, the other candidates of claims it left unsupported, the joined pairs
    assert 1 <= len(counting.batches) <= 3
    singles = [
        c
        for claims, texts in zip(counting.batches, counting.passages, strict=True)
        for c, t in zip(claims, texts, strict=True)
        if "\n" not in t
    ]
    joined = [
        c
        for claims, texts in zip(counting.batches, counting.passages, strict=True)
        for c, t in zip(claims, texts, strict=True)
        if "\n" in t
    ]
    most = engine.config.verify.passages_per_claim + 1  # + a cited source's best passage
    assert max(singles.count(c) for c in singles) <= most
    by_single = [
        c.text.split(" [")[0]
        for c in result.claims
        if c.verdict == "supported" and len(c.source_ids) == 1
    ]
    assert by_single
    assert not any(j.startswith(t.rstrip(".")) for j in joined for t in by_single)
    for claim in result.claims:  # a claim two sources support together came from the joined
        if len(claim.source_ids) == 2:
            assert any(j.startswith(claim.text[:20]) for j in joined)


def test_more_candidates_are_scored_only_for_claims_the_first_round_leaves_unsupported(
    attributor: Attributor,
) -> None:
    engine, counting = _counting(attributor)
    every = AttributionConfig(verify=VerifyConfig(first_round_passages=0))
    one_round_engine, one_round = _counting(attributor, every)
    result = engine.attribute(ANSWER, SOURCES)
    reference = one_round_engine.attribute(ANSWER, SOURCES)
    # the same verdicts, on claims and on markers, for fewer pairs
    assert [c.verdict for c in result.claims] == [c.verdict for c in reference.claims]
    assert [m.verdict for m in result.markers] == [m.verdict for m in reference.markers]
    scored = sum(map(len, counting.batches))
    assert scored < sum(map(len, one_round.batches))
    first, *later = counting.batches
    later_claims = [c for batch in later for c in batch]
    for claim in result.claims:
        text = claim.text.split(" [")[0].rstrip(".")
        pairs_first = sum(c.startswith(text) for c in first)
        if claim.verdict == "supported" and len(claim.source_ids) == 1:
            # its best candidate (and its cited sources' candidates) decided it
            assert pairs_first >= 1
            assert claim.cited or pairs_first == 1
            assert not any(c.startswith(text) for c in later_claims)
        elif claim.verdict != "supported" and claim.shortcut is None and later:
            # the rest of its candidates, or the joined pair
            assert any(c.startswith(text) for c in later_claims)
    # a claim its best candidate does not support: the second round scores the other one
    counting.batches.clear()
    (claim,) = engine.attribute("Pierre Curie was born in Warsaw.", SOURCES).claims
    assert claim.verdict != "supported"
    first, second, *_ = counting.batches
    assert first == second == ["Pierre Curie was born in Warsaw."]


class _ReachingCounter(_CountingVerifier):
    """The counting verifier, passing on the real verifier's reach (its cheap ceiling)."""

    def reach(self, pairs, *, lexical=None):  # type: ignore[no-untyped-def]
        return self.inner.reach(pairs, lexical=lexical)


def test_pairs_out_of_the_models_reach_get_no_model_pass(attributor: Attributor) -> None:
    off = AttributionConfig(verify=VerifyConfig(skip_out_of_reach=False))
    runs = {}
    for name, config in (("skip", attributor.config), ("off", off)):
        counting = _ReachingCounter(attributor.verifier)
        engine = Attributor(
            config,
            embedder=attributor.embedder,
            verifier=counting,  # type: ignore[arg-type]
            cache=attributor.cache,
        )
        runs[name] = (engine.attribute(ANSWER, SOURCES), counting)
    (skip, skipping), (full, scoring) = runs["skip"], runs["off"]
    # the same verdicts on claims and markers, and the same scores where the model decided
    assert [c.verdict for c in skip.claims] == [c.verdict for c in full.claims]
    assert [m.verdict for m in skip.markers] == [m.verdict for m in full.markers]
    for a, b in zip(skip.claims, full.claims, strict=True):
        if a.shortcut is None:
            assert a.score == pytest.approx(b.score, abs=1e-9)
    sent = sum(map(len, skipping.batches))
    assert 0 < sent < sum(map(len, scoring.batches))
    # "Bananas are the main export of Iceland [2]": no passage leaves the model a say
    bananas = next(c for c in skip.claims if c.text.startswith("Bananas"))
    partial = attributor.verifier.threshold - attributor.config.verify.partial_margin
    assert (bananas.verdict, bananas.shortcut) == ("unsupported", "out_of_reach")
    assert bananas.score < partial
    assert not any(c.startswith("Bananas") for batch in skipping.batches for c in batch)
    scored = next(c for c in full.claims if c.text.startswith("Bananas"))
    assert scored.shortcut is None
    assert scored.score < partial


PARIS_BERLIN_BANANAS = [
    CitationSource(
        id="eiffel",
        type="web",
        full_content="The Eiffel Tower is located in Paris, France. It was completed in "
        "1889 and is 330 metres tall.",
    ),
    CitationSource(
        id="berlin",
        type="web",
        full_content="Berlin is the capital of Germany. The city has many museums and a "
        "famous television tower.",
    ),
    CitationSource(
        id="bananas",
        type="web",
        full_content="Bananas are grown in tropical regions. Iceland imports most of its fruit.",
    ),
]


def test_a_skipped_pair_never_hides_a_contradiction_the_model_found(
    attributor: Attributor,
) -> None:
    # one source contradicts the claim (the judge caps that pair near 0); the others are
    # unrelated, out of reach, and their estimates are higher than that capped score
    sources = PARIS_BERLIN_BANANAS
    claims = ["The Eiffel Tower was completed in 1925.", "The Eiffel Tower is 500 metres tall."]
    results = {}
    for skip in (True, False):
        config = AttributionConfig(verify=VerifyConfig(skip_out_of_reach=skip))
        engine = Attributor(
            config,
            embedder=attributor.embedder,
            verifier=attributor.verifier,
            cache=attributor.cache,
        )
        results[skip] = engine.check_claims(claims, sources)
    for skipping, scoring in zip(results[True], results[False], strict=True):
        assert skipping.verdict == scoring.verdict == "contradicted"
        assert skipping.score == pytest.approx(scoring.score, abs=1e-9)
        assert skipping.contradiction == pytest.approx(scoring.contradiction, abs=1e-9)
        assert skipping.contradicting_ids == ("eiffel",)
        assert {q.source_id for q in skipping.evidence} == {"eiffel"}


class _CountingWithReach(_CountingVerifier):
    """The counting verifier that also bounds pairs, so that pairs out of reach are skipped."""

    def reach(self, pairs, *, lexical=None):  # type: ignore[no-untyped-def]
        return self.inner.reach(pairs, lexical=lexical)


def test_a_joined_pair_the_judge_refused_is_a_model_pass_not_a_shortcut(
    attributor: Attributor,
) -> None:
    # each source holds half the claim, so neither alone can reach the (high) threshold and
    # neither is sent to the model; the two joined can, are read, and the judge refuses them
    # (the year is wrong): the verdict rests on that pass, not on "out_of_reach"
    revenue = "Acme Corp's revenue grew 25 percent in 2023, reaching $4 billion."
    chief = "Lisa Berg became chief executive of Acme Corp in 2019 after a decade at Orion Pharma."
    claim = (
        "Acme Corp's revenue grew 25 percent in 2023, reaching $4 billion, and Lisa Berg became "
        "chief executive of Acme Corp in 2018 after a decade at Orion Pharma."
    )
    sources = [
        CitationSource(id="revenue", type="web", full_content=revenue),
        CitationSource(id="chief", type="web", full_content=chief),
    ]
    results = {}
    for joined in (False, True):
        verify = VerifyConfig(support_threshold=0.95, partial_margin=0.0, pair_passages=joined)
        counting = _CountingWithReach(attributor.verifier)
        engine = Attributor(
            AttributionConfig(verify=verify),
            embedder=attributor.embedder,
            verifier=counting,  # type: ignore[arg-type]
            cache=attributor.cache,
        )
        (results[joined],) = engine.check_claims([claim], sources)
        read = [p for batch in counting.passages for p in batch]
        assert read == ([revenue + "\n" + chief] if joined else []), read
    alone, with_pair = results[False], results[True]
    assert (alone.verdict, alone.shortcut) == ("unsupported", "out_of_reach")
    assert with_pair.verdict == "unsupported"
    assert with_pair.score == alone.score  # the refused pair does not count
    assert with_pair.shortcut is None  # but the model read it


@pytest.mark.parametrize("source_id", ["", "  ", None])
def test_a_source_whose_id_names_nothing_is_refused(
    attributor: Attributor, source_id: str | None
) -> None:
    source = CitationSource(id=source_id, type="web", full_content="a b c")  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"sources\[0\]\.id is blank"):
        attributor.check_claims(["The tower is tall."], [source])


def test_the_answer_s_list_of_sources_lists_what_the_answer_cites(
    attributor: Attributor,
) -> None:
    # a new user's trial: "Sources: [1], [7]" lost the unknown [7] but did not list the [2]
    # the engine added to the answer
    eiffel = CitationSource(
        id="e",
        type="web",
        title="Eiffel Tower",
        uri="https://example.org/eiffel",
        full_content="The Eiffel Tower was completed in 1889 for the World Fair.",
    )
    facts = CitationSource(
        id="f",
        type="web",
        title="Tower facts",
        uri="https://example.com/facts",
        full_content="The Eiffel Tower is 330 metres tall including its antennas.",
    )
    text = "The Eiffel Tower was completed in 1889 [1]. It is 330 metres tall."
    cases = {
        "\n\nSources: [1], [7]": "\n\nSources: [1], [2]",
        "\n\nSources:\n[1] Eiffel Tower\n": "\n\nSources:\n[1] Eiffel Tower\n[2] Tower facts\n",
        "\n\n**Sources:**\n- [1] [Eiffel](https://example.org/eiffel)": (
            "\n\n**Sources:**\n- [1] [Eiffel](https://example.org/eiffel)\n"
            "- [2] [Tower facts](https://example.com/facts)"
        ),
        "\n\nSources:\n[1] Eiffel, https://example.org/eiffel": (
            "\n\nSources:\n[1] Eiffel, https://example.org/eiffel\n"
            "[2] Tower facts, https://example.com/facts"
        ),
        # no list: a line of prose that opens with a marker
        "\n\n[1] says so too.": "\n\n[1] says so too.",
        # the numbers that are dropped (after a review)
        "\n\nSources: [7]": "\n\nSources: [1], [2]",
        "\n\nSources: [7]; [8]": "\n\nSources: [1], [2]",
    }
    # a source the answer cites but left out of its list (a new user's trial)
    cited = "The Eiffel Tower was completed in 1889 [1]. It is 330 metres tall [2]."
    result = attributor.attribute(cited + "\n\nSources: [1], [3]", [eiffel, facts])
    assert result.answer == cited + "\n\nSources: [1], [2]"
    # a number added below the list's first goes first (it came "Sources: [2], [1]")
    second = "The Eiffel Tower was completed in 1889. It is 330 metres tall [2]."
    for tail, listed in (
        ("\n\nSources: [2]", "\n\nSources: [1], [2]"),
        ("\n\nSources:\n[2] Tower facts", "\n\nSources:\n[1] Eiffel Tower\n[2] Tower facts"),
    ):
        result = attributor.attribute(second + tail, [eiffel, facts])
        assert result.answer == second.replace("1889.", "1889 [1].") + listed, tail
    for tail, listed in cases.items():
        result = attributor.attribute(text + tail, [eiffel, facts])
        assert result.answer == text.replace("tall.", "tall [2].") + listed, tail
        for ref in result.citations.references:
            assert result.answer[ref.start_index : ref.end_index] == ref.cited_text
    # an answer whose own key renumbers its list: the list is left as the key writes it (its
    # labels are not the conversation's numbers until then: entries went missing or twice)
    keyed = attributor.attribute(
        "It was completed in 1889 [2]. It is 330 metres tall.\n\n"
        "Sources:\n[2] Eiffel Tower, https://example.org/eiffel",
        [eiffel, facts],
    )
    assert keyed.answer.endswith("Sources:\n[1] Eiffel Tower, https://example.org/eiffel")
    # in the style the markers are rewritten in (the list was left "[citation:1]" alone)
    for style, one, two in (
        ("citation", "[citation:1]", "[citation:2]"),
        ("cjk", "【1】", "【2】"),
    ):
        restyled = attributor.with_config(
            AttributionConfig(reconcile=ReconcileConfig(marker_style=style))
        )
        for tail, listed in (
            ("\n\nSources: [1]", f"\n\nSources: {one}, {two}"),
            (
                "\n\nSources:\n- [1] Eiffel Tower",
                f"\n\nSources:\n- {one} Eiffel Tower\n- {two} Tower facts",
            ),
        ):
            got = restyled.attribute(text + tail, [eiffel, facts]).answer
            assert got.endswith(listed), (style, got)
    # and off
    leave = attributor.with_config(AttributionConfig(reconcile=ReconcileConfig(list_added=False)))
    assert leave.attribute(text + "\n\nSources: [1]", [eiffel, facts]).answer.endswith(
        "Sources: [1]"
    )


def test_a_marker_that_cites_the_wrong_source_is_mended_when_asked(
    attributor: Attributor,
) -> None:
    # a new user's trial: "[1]" cites the wrong source, the check suggests [2], and the answer
    # kept "[1]" with no reference for the claim; asked to, the engine writes "[2]"
    tower = CitationSource(id="t", type="web", title="Tower", full_content="It is 330 m tall.")
    oslo = CitationSource(
        id="o", type="web", title="Oslo", full_content="In Oslo, snow is common in March."
    )
    answer = "In Oslo, snow is common in March [1, 7].\n\nSources: [1]"
    kept = attributor.attribute(answer, [tower, oslo])
    assert kept.answer == "In Oslo, snow is common in March [1].\n\nSources: [1]"
    assert (kept.markers[0].verdict, kept.markers[0].suggested) == ("wrong_source", 2)
    assert not kept.citations.references
    fixing = attributor.with_config(
        AttributionConfig(reconcile=ReconcileConfig(fix_wrong_source=True))
    )
    mended = fixing.attribute(answer, [tower, oslo])
    assert mended.answer == "In Oslo, snow is common in March [2].\n\nSources: [1], [2]"
    assert (mended.markers[0].verdict, mended.markers[0].suggested) == ("wrong_source", 2)
    (reference,) = mended.citations.references
    assert reference.cited_text == "In Oslo, snow is common in March [2]."
    assert mended.answer[reference.start_index : reference.end_index] == reference.cited_text
    # a footnote mended is defined under its new number, the old one no longer
    footnote = fixing.attribute("In Oslo, snow is common in March[^1].", [tower, oslo])
    assert footnote.answer == "In Oslo, snow is common in March[^2].\n\n[^2]: Oslo\n"


def test_footnotes_the_answer_gets_are_defined(attributor: Attributor) -> None:
    # "[^2]" without "[^2]: ..." renders as literal text: the footnotes added, and those cited
    # without a definition, are defined under the answer's own definitions
    eiffel = CitationSource(
        id="e",
        type="web",
        title="Eiffel Tower",
        uri="https://example.org/eiffel",
        full_content="The Eiffel Tower was completed in 1889. It is 330 metres tall.",
    )
    everest = CitationSource(id="v", type="web", full_content="Everest is 8,849 metres high.")
    own = "It is 330 metres tall[^1]. Everest is 8,849 metres high.\n\n[^1]: Eiffel page\n"
    result = attributor.attribute(own, [eiffel, everest])
    assert result.answer == (
        "It is 330 metres tall[^1]. Everest is 8,849 metres high[^2].\n\n"
        "[^1]: Eiffel page\n[^2]: v\n"
    )
    bare = "The Eiffel Tower was completed in 1889[^1]. Everest is 8,849 metres high."
    defined = attributor.attribute(bare, [eiffel, everest])
    assert defined.answer == (
        "The Eiffel Tower was completed in 1889[^1]. Everest is 8,849 metres high[^2].\n\n"
        "[^1]: Eiffel Tower, https://example.org/eiffel\n[^2]: v\n"
    )
    # an added marker goes where the answer puts its own: after the full stop here
    after = "The Eiffel Tower was completed in 1889.[^1] Everest is 8,849 metres high."
    followed = attributor.attribute(after, [eiffel, everest])
    assert followed.answer.startswith(
        "The Eiffel Tower was completed in 1889.[^1] Everest is 8,849 metres high.[^2]\n\n"
    )
    assert followed.citations.references[-1].cited_text == "Everest is 8,849 metres high.[^2]"
    before = Attributor(
        AttributionConfig(reconcile=ReconcileConfig(placement="before_punctuation")),
        embedder=attributor.embedder,
        verifier=attributor.verifier,
        segmenter=attributor.segmenter,
    )
    assert "metres high[^2]." in before.attribute(after, [eiffel, everest]).answer
    glued = "The Eiffel Tower was completed in 1889.[1] Everest is 8,849 metres high."
    assert attributor.attribute(glued, [eiffel, everest]).answer.endswith("metres high.[2]")
    # the last claim ended the text: its span ends at its marker, not with the definitions
    last = defined.citations.references[-1]
    assert last.cited_text == "Everest is 8,849 metres high[^2]."
    assert defined.claims[-1].output_end == last.end_index
    # every marker rewritten as a footnote: each is defined, the answer's own and those added
    footnotes = Attributor(
        AttributionConfig(reconcile=ReconcileConfig(marker_style="footnote")),
        embedder=attributor.embedder,
        verifier=attributor.verifier,
        segmenter=attributor.segmenter,
    )
    brackets = "The Eiffel Tower was completed in 1889 [1]. Everest is 8,849 metres high [2]."
    assert footnotes.attribute(brackets, [eiffel, everest]).answer == (
        "The Eiffel Tower was completed in 1889 [^1]. Everest is 8,849 metres high [^2].\n\n"
        "[^1]: Eiffel Tower, https://example.org/eiffel\n[^2]: v\n"
    )
    # another style asked for: no footnote is left to define
    cited = Attributor(
        AttributionConfig(reconcile=ReconcileConfig(marker_style="citation")),
        embedder=attributor.embedder,
        verifier=attributor.verifier,
        segmenter=attributor.segmenter,
    )
    assert "[^" not in cited.attribute(bare, [eiffel, everest]).answer


def test_markers_with_nothing_else_to_say_are_no_claim_of_their_own(
    attributor: Attributor,
) -> None:
    eiffel = "The Eiffel Tower was completed in 1889. It is 330 metres tall."
    everest = "Mount Everest is 8,849 metres high. It lies in the Himalayas."
    sources = [
        CitationSource(id="eiffel", type="web", full_content=eiffel),
        CitationSource(id="everest", type="web", full_content=everest),
    ]
    # a Source column: each row's cell of markers cites the row's claim
    table = (
        "| Fact | Source |\n|---|---|\n| The Eiffel Tower was completed in 1889 | [1] |\n"
        "| Everest is 8,849 metres high | [1] |\n"
    )
    result = attributor.attribute(table, sources)
    assert [(c.text, c.verdict, c.cited, c.added) for c in result.claims] == [
        ("The Eiffel Tower was completed in 1889", "supported", (1,), ()),
        ("Everest is 8,849 metres high", "supported", (1,), ()),
    ]
    checks = [(m.number, m.claim_index, m.verdict, m.suggested) for m in result.markers]
    assert checks == [(1, 0, "supported", None), (1, 1, "wrong_source", 2)]
    assert table[result.markers[1].start : result.markers[1].end] == "[1]"
    assert result.answer == table  # nothing added to a row that cites
    # a line of sources, a marker alone on a line, a reference list: no one claim's citation
    for tail in (
        "\n\nSources: [1], [2]",
        "\n\n[1]",
        "\n\n[1] Eiffel, https://example.org/eiffel\n[2] Everest, https://example.org/everest",
    ):
        answer = "The Eiffel Tower was completed in 1889. Everest is 8,849 metres high." + tail
        result = attributor.attribute(answer, sources)
        assert [(c.verdict, c.added) for c in result.claims] == [
            ("supported", (1,)),
            ("supported", (2,)),
        ], tail
        assert result.markers == ()
        assert result.summary.unsupported == 0
    # a row without a claim: the Source cell cites the row's last cell that says something
    rows = "| Fact | Value | Source |\n|---|---|---|\n| Height | 330 metres tall | [1] |\n"
    result = attributor.attribute(rows + "| Everest | 8,849 metres high | [1] |\n", sources)
    assert [(c.text, c.cited) for c in result.claims] == [
        ("330 metres tall", (1,)),
        ("8,849 metres high", (1,)),
    ]
    assert [(m.claim_index, m.verdict, m.suggested) for m in result.markers] == [
        (0, "supported", None),
        (1, "wrong_source", 2),
    ]
    # an unknown number where no claim checks it is still reported, as it is dropped
    for answer, kept, owner in (
        # the row's cell that says something is checked with the Source cell's markers
        ("| Event | Source |\n|---|---|\n| Moon landing | [9] |\n", "| Moon landing | |", 0),
        ("| Event | Source |\n|---|---|\n| [9] | [9] |\n", "| | |", None),
        ("The Eiffel Tower was completed in 1889 [1].\n\nSources: [1], [9]", "Sources: [1]", None),
    ):
        result = attributor.attribute(answer, sources)
        unknown = {(m.number, m.verdict, m.claim_index) for m in result.markers if m.number == 9}
        assert unknown == {(9, "unknown_number", owner)}, answer
        assert result.summary.markers_unknown == len([m for m in result.markers if m.number == 9])
        assert kept in result.answer
        assert "[9]" not in result.answer
    # an indented code block holds no citation: nothing in it is checked, rewritten or dropped
    code = (
        "It was completed in 1889 [1]:\n\n    if x[1]:\n        y = [9]\n\nIt is 330 metres tall."
    )
    result = attributor.attribute(code, sources)
    assert "        y = [9]\n" in result.answer
    assert [(m.marker, m.verdict) for m in result.markers] == [("[1]", "supported")]
    assert all("y = " not in c.text for c in result.claims)
    # a short sentence that says something keeps its marker checked, as before
    result = attributor.attribute("It is 330 metres tall [1].", sources)
    assert [(m.number, m.verdict) for m in result.markers] == [(1, "supported")]


def test_two_passages_joined_do_not_support_what_one_of_them_contradicts(
    attributor: Attributor,
) -> None:
    # "in Paris" beside "Berlin is the capital of Germany": the judge reads the joined text as
    # support (P 0.73), but the first passage alone contradicts the claim (P 0.96)
    engine, counting = _counting(attributor)
    (claim,) = engine.check_claims(
        ["The Eiffel Tower is located in Berlin, Germany."], PARIS_BERLIN_BANANAS
    )
    assert claim.verdict == "contradicted"  # by the Paris passage, not the Berlin one
    assert claim.contradicting_ids == ("eiffel",)
    assert claim.contradicting_numbers == (1,)
    assert claim.contradiction is not None
    assert claim.contradiction >= 0.9
    # the quote shows what contradicts it
    assert [q.source_id for q in claim.evidence] == ["eiffel"]
    assert "located in Paris" in claim.evidence[0].text
    assert not any("\n" in passage for batch in counting.passages for passage in batch)
    # a claim the two support together still gets its joined pair
    counting.passages.clear()
    both = "The Eiffel Tower is 330 metres tall and Berlin has museums."
    engine.check_claims([both], PARIS_BERLIN_BANANAS)
    assert any("\n" in passage for batch in counting.passages for passage in batch)


def test_the_reach_of_a_pair_bounds_its_score(attributor: Attributor) -> None:
    verifier = attributor.verifier
    pairs = [
        Pair(claim=claim, passage=source.full_content)
        for claim in ("The tower is 330 metres tall.", "Bananas are the main export of Iceland.")
        for source in SOURCES
    ]
    reach = verifier.reach(pairs)  # type: ignore[attr-defined]
    assert reach is not None
    ceilings, estimates = reach
    scores = verifier.score(pairs).support
    for ceiling, estimate, score in zip(ceilings, estimates, scores, strict=True):
        assert estimate <= ceiling
        assert score <= ceiling + 1e-9
    # a verifier without a cross-encoder has nothing to skip
    plain = FeatureWeights(
        features=FEATURE_NAMES, weights=(0.0,) * len(FEATURE_NAMES), bias=0.0, threshold=0.5
    )
    assert FeatureVerifier(plain, embedder=attributor.embedder).reach(pairs) is None


def test_the_judge_chooses_between_sentences_the_terms_cannot_tell_apart(
    attributor: Attributor,
) -> None:
    # both sentences hold every term of the claim (bridge, open, 1932); only one says it
    text = (
        "Tickets for the bridge tour open at 9 am, and the 1932 photo exhibition is free. "
        "The Harbour Bridge opened in March 1932 after eight years of work."
    )
    claim = "The bridge opened in 1932."
    passages = make_passages([CitationSource(id="s", type="web", full_content=text)])
    lexical = LexicalIndex([p.text for p in passages])
    judge = sentence_judge(attributor.verifier)
    assert judge is not None, "the default verifier combines a cross-encoder"
    read: list[int] = []

    def counted(claim: str, sentences: Sequence[str]) -> list[float]:
        read.append(len(sentences))
        return judge(claim, sentences)

    def first(weight: float) -> str:
        (span,) = best_sentences(passages, claim, lexical, 1, judge=counted, judge_weight=weight)
        return text[span[0] : span[1]]

    assert first(0.0).startswith("Tickets")  # a tie on terms: the earlier sentence
    assert read == []
    assert VerifyConfig().evidence_judge_weight == 0.0  # off by default: it costs model passes
    assert first(0.1).startswith("The Harbour Bridge")
    assert read == [2]
    # a sentence that leads on terms by more than the weight is taken without a model pass
    read.clear()
    (span,) = best_sentences(
        passages,
        "The bridge photo exhibition is free.",
        lexical,
        1,
        judge=counted,
        judge_weight=0.1,
    )
    assert text[span[0] : span[1]].startswith("Tickets")
    assert read == []


def test_a_source_without_a_word_of_the_claim_is_not_joined_to_support_it(
    attributor: Attributor,
) -> None:
    """A joined pair of two sources, one holding nothing of the claim, came out supported and
    cited both (the judge liked the longer text): a source with no word of the claim holds no
    part of it."""
    sources = [
        CitationSource(id="a", type="web", full_content="The Eiffel Tower was completed in 1889."),
        CitationSource(id="b", type="web", full_content="Mount Everest is 8,849 metres high."),
    ]
    result = attributor.attribute('He said "The Eiffel Tower was completed in 1889."', sources)
    (claim,) = result.claims
    assert 2 not in claim.added
    assert all(q.source_id != "b" for q in claim.evidence)
    assert "[1, 2]" not in result.answer


def test_a_link_in_a_claim_is_judged_by_its_text_not_its_address(attributor: Attributor) -> None:
    answer = "The Eiffel Tower was completed in [1889](https://en.wikipedia.org/wiki/1889)."
    result = attributor.attribute(answer, SOURCES)
    (claim,) = result.claims
    assert claim.verdict == "supported", claim.score  # the URL's words made it 0.004
    assert claim.text == answer  # the text as written, link and all


def test_a_table_cell_is_read_with_its_row_and_column(attributor: Attributor) -> None:
    # "57 m" alone is in the source; the row says it is the second floor's height, which the
    # source gives as 115.7 metres (the cell alone was called supported, 0.98)
    source = CitationSource(
        id="w",
        type="web",
        full_content="The tower is 330 metres tall and is the tallest structure in Paris. "
        "The first level is at 57 metres and the second at 115.7 metres.",
    )
    table = (
        "| Level | Height |\n|---|---|\n"
        "| Second floor | 57 m [1] |\n| First level | 57 metres [1] |"
    )
    wrong, right = attributor.attribute(table, [source]).claims
    assert wrong.verdict != "supported", (wrong.verdict, wrong.score)
    assert right.verdict == "supported", (right.verdict, right.score)


def test_a_table_of_short_facts_is_checked_fact_by_fact(attributor: Attributor) -> None:
    # "| Height | 330 m |": each value is a claim about its row's label (they were all too
    # short to be claims: a table of facts was not checked at all, and a label was a claim)
    source = CitationSource(
        id="w",
        type="web",
        full_content="The Eiffel Tower is 330 metres tall. It was completed in 1889 and was "
        "designed by Gustave Eiffel's company. It receives about 7 million visitors a year.",
    )
    other = CitationSource(id="o", type="web", full_content="Paris has many museums.")
    table = (
        "| Fact | Value |\n|---|---|\n| Height [2] | 330 m |\n| Completed | 1889 |\n"
        "| Designer | Le Corbusier |\n| Visitors per year | about 7 million |\n"
    )
    result = attributor.attribute(table, [source, other])
    verdicts = {c.text: c.verdict for c in result.claims}
    assert verdicts == {
        "330 m": "supported",
        "1889": "supported",
        "Le Corbusier": "unsupported",
        "about 7 million": "supported",
    }
    # the label's marker cites its row's fact: the wrong source, and the right one suggested
    (check,) = result.markers
    assert (check.marker, check.verdict, check.suggested) == ("[2]", "wrong_source", 1)
    assert result.claims[check.claim_index].text == "330 m"
    # a column of sources cites its row's fact; a label's marker cites every fact of its row
    # (no marker is added after the second one)
    table = (
        "| Fact | Value | Source |\n|---|---|---|\n| Height | 330 m | Wikipedia [1] |\n"
        "| Completed | 1889 | [2] |\n"
    )
    result = attributor.attribute(table, [source, other])
    assert [(m.marker, m.verdict, m.suggested) for m in result.markers] == [
        ("[1]", "supported", None),
        ("[2]", "wrong_source", 1),
    ]
    row = "| Tower | Height | Completed |\n|---|---|---|\n| Eiffel Tower [1] | 330 m | 1889 |\n"
    assert attributor.attribute(row, [source, other]).answer == row


def test_a_quote_is_no_fragment_of_the_page(attributor: Attributor) -> None:
    # a heading or a label run into the page text ("Support", "USD") adds a claim word, but
    # says nothing of the claim: it was quoted after the sentence that carries it
    page = (
        "Travel policy\n\nSupport\n\nThe daily allowance for travel abroad is 85 US dollars "
        "per day. USD\n\nMeals are covered separately."
    )
    source = CitationSource(id="p", type="web", full_content=page)
    claim = "Employees travelling abroad get support: a daily allowance of USD 85 [1]."
    (checked,) = attributor.attribute(claim, [source]).claims
    assert [q.text for q in checked.evidence] == [
        "The daily allowance for travel abroad is 85 US dollars per day."
    ]


def test_a_short_sentence_is_quoted_when_it_is_what_holds_the_claim(
    attributor: Attributor,
) -> None:
    # a CJK sentence is no fragment (its characters are its words), and a fragment that holds
    # the claim's words beats a sentence that holds none of them
    cjk = CitationSource(
        id="c", type="web", full_content="埃菲尔铁塔高330米。它每年吸引数百万游客参观。"
    )
    (claim,) = attributor.attribute("埃菲尔铁塔高330米[1]。", [cjk]).claims
    assert claim.evidence
    assert claim.evidence[0].text == "埃菲尔铁塔高330米。"
    page = "Eiffel Tower\n\n330 metres.\n\nOpening hours change with the seasons of the year."
    short = CitationSource(id="p", type="web", full_content=page)
    (claim,) = attributor.attribute("The Eiffel Tower is 330 metres tall [1].", [short]).claims
    assert all("Opening hours" not in q.text for q in claim.evidence)


FOOTNOTE_SOURCES = [
    CitationSource(
        id="a",
        type="web",
        title="Eiffel Tower facts",
        uri="https://eiffel.example/facts",
        full_content="The Eiffel Tower was completed in 1889. It is 330 metres tall.",
    ),
    CitationSource(
        id="b",
        type="web",
        title="Louvre history",
        uri="https://louvre.example/history",
        full_content="The Louvre is the world's most-visited museum. It opened in 1793.",
    ),
]
"""Two pages an answer's footnotes name (the restyled-definition tests)."""


@pytest.mark.parametrize(
    ("style", "label"), [("citation", "[citation:{}]"), ("bracket", "[{}]"), (None, "[^{}]:")]
)
def test_footnote_definitions_follow_the_markers_style(style: str | None, label: str) -> None:
    """Footnotes rewritten as "[citation:2]" left their "[^1]: ..." definitions behind, which
    no footnote used any more; they become the list's entries, numbered as the markers are."""
    sources = FOOTNOTE_SOURCES
    answer = (
        "The Louvre opened in 1793.[^1] The Eiffel Tower was completed in 1889.[^2]\n\n"
        "[^1]: Louvre history, https://louvre.example/history\n"
        "[^2]: Eiffel Tower facts, https://eiffel.example/facts\n"
    )
    engine = Attributor(AttributionConfig(reconcile=ReconcileConfig(marker_style=style)))
    marker = label.rstrip(":")
    assert engine.attribute(answer, sources).answer == (
        f"The Louvre opened in 1793.{marker.format(2)} The Eiffel Tower was completed in "
        f"1889.{marker.format(1)}\n\n"
        f"{label.format(2)} Louvre history, https://louvre.example/history\n"
        f"{label.format(1)} Eiffel Tower facts, https://eiffel.example/facts\n"
    )


def test_a_claim_whose_sources_came_without_text_says_so(attributor: Attributor) -> None:
    """Search results without their pages' text (Anthropic's, Gemini's): the claim is
    unsupported because nothing could be read, not because a source says otherwise."""
    results = [
        CitationSource(id="r1", type="web_result", uri="https://a.example/x", title="A"),
        CitationSource(id="r2", type="web_result", uri="https://b.example/y", title="B"),
    ]
    answer = "Artemis II will launch in 2026 [1]. Its crew has four astronauts [1][2]."
    result = attributor.attribute(answer, results)
    for claim in result.claims:
        assert claim.verdict == "unsupported"
        assert "came without text" in (claim.reason or "")
    assert {m.verdict for m in result.markers} == {"unverifiable"}
    # a claim citing a source with text too is judged as before
    with_text = [*results, SOURCES[0]]
    mixed = attributor.attribute("The Eiffel Tower was completed in 1889 [1][3].", with_text)
    assert mixed.claims[0].reason is None or "came without text" not in mixed.claims[0].reason


def test_restyled_footnote_definitions_spare_code_and_drop_unknown_numbers() -> None:
    """After a review: a definition inside a code block was rewritten too, a definition of an
    unknown number stayed "[^7]:" among the restyled entries, one in a block quote was not
    restyled."""
    engine = Attributor(AttributionConfig(reconcile=ReconcileConfig(marker_style="citation")))
    sources = [
        CitationSource(
            id="a",
            type="web",
            title="Eiffel Tower facts",
            full_content="The Eiffel Tower was completed in 1889. It is 330 metres tall.",
        )
    ]
    for answer, want in (
        (
            "It was completed in 1889.[^1]\n\n```markdown\n[^1]: an example\n```\n\n"
            "[^1]: Eiffel Tower facts\n",
            "It was completed in 1889.[citation:1]\n\n```markdown\n[^1]: an example\n```\n\n"
            "[citation:1] Eiffel Tower facts\n",
        ),
        (
            "It was completed in 1889.[^1]\n\nSources:\n[^1]: Eiffel Tower facts\n"
            "[^7]: Unknown page\n",
            "It was completed in 1889.[citation:1]\n\nSources:\n[citation:1] Eiffel Tower facts\n",
        ),
        (
            "It was completed in 1889.[^1]\n\n> [^1]: Eiffel Tower facts\n",
            "It was completed in 1889.[citation:1]\n\n> [citation:1] Eiffel Tower facts\n",
        ),
        # a second review: an unclosed comment in code hid the rest, indented and CRLF lines
        # kept a stray "[^7]:", a gone definition's continuation stayed under the one above
        (
            "It was completed in 1889.[^1] Comments open with `<!--`.\n\n"
            "[^1]: Eiffel Tower facts\n",
            "It was completed in 1889.[citation:1] Comments open with `<!--`.\n\n"
            "[citation:1] Eiffel Tower facts\n",
        ),
        (
            "It was completed in 1889.[^1]\n\n  [^1]: Eiffel Tower facts\n  [^7]: Unknown\n",
            "It was completed in 1889.[citation:1]\n\n  [citation:1] Eiffel Tower facts\n",
        ),
        (
            "It was completed in 1889.[^1]\r\n\r\n[^1]: Eiffel Tower facts\r\n[^7]: Unknown\r\n",
            "It was completed in 1889.[citation:1]\r\n\r\n[citation:1] Eiffel Tower facts\r\n",
        ),
        (
            "It was completed in 1889.[^1]\n\n[^1]: Eiffel Tower facts\n[^3]: Gift shop,\n"
            "https://c.example/shop\n",
            "It was completed in 1889.[citation:1]\n\n[citation:1] Eiffel Tower facts\n",
        ),
        # where none would stay, none goes (no heading over an empty list)
        (
            "It was completed in 1889.[^1]\n\nSources:\n[^7]: Unknown\n",
            "It was completed in 1889.[citation:1]\n\nSources:\n[^7]: Unknown\n",
        ),
    ):
        assert engine.attribute(answer, sources).answer == want


def test_restyled_footnote_definitions_list_the_sources_the_engine_adds() -> None:
    """The definitions became a list in the markers' style, but the source the engine cited
    for another claim was not listed under them (as it is under a list the answer writes)."""
    sources = FOOTNOTE_SOURCES
    text = "The Eiffel Tower was completed in 1889.[^1] The Louvre opened in 1793."
    for style, one, two in (
        ("bracket", "[1]", "[2]"),
        ("citation", "[citation:1]", "[citation:2]"),
    ):
        engine = Attributor(AttributionConfig(reconcile=ReconcileConfig(marker_style=style)))
        cited = f"The Eiffel Tower was completed in 1889.{one} The Louvre opened in 1793.{two}"
        for tail, listed in (
            (
                "\n\n[^1]: Eiffel Tower facts, https://eiffel.example/facts\n",
                f"\n\n{one} Eiffel Tower facts, https://eiffel.example/facts\n"
                f"{two} Louvre history, https://louvre.example/history\n",
            ),
            # an unknown number's definition goes; the new entry follows the one that stays
            (
                "\n\nSources:\n[^1]: Eiffel Tower facts\n[^7]: Unknown page\n",
                f"\n\nSources:\n{one} Eiffel Tower facts\n{two} Louvre history\n",
            ),
        ):
            assert engine.attribute(text + tail, sources).answer == cited + listed, (style, tail)
    # definitions a blank line apart, or with a line that continues one, are all listed (a
    # review found the first repeated); the answer's own list after a note gets the entry
    engine = Attributor(AttributionConfig(reconcile=ReconcileConfig(marker_style="citation")))
    two = "The Eiffel Tower was completed in 1889.[^1] The Louvre opened in 1793.[^2]"
    for defs in (
        "\n\n[^1]: Eiffel Tower facts\n\n[^2]: Louvre history\n",
        "\n\n[^1]: Eiffel Tower facts,\n    https://eiffel.example/facts\n[^2]: Louvre history\n",
    ):
        out = engine.attribute(two + defs, sources).answer
        assert out.count("[citation:1] Eiffel Tower facts") == 1, out
        assert out.count("Louvre history") == 1, out
    noted = (
        "The Eiffel Tower was completed in 1889 [1].[^1] The Louvre opened in 1793.\n\n"
        "[^1]: Eiffel Tower facts.\n\nSources:\n[1] Eiffel Tower facts"
    )
    out = engine.attribute(noted, sources).answer
    assert out.endswith("Sources:\n[citation:1] Eiffel Tower facts\n[citation:2] Louvre history"), (
        out
    )
    # footnotes kept as footnotes: the definition is added as one, as before
    kept = Attributor().attribute(text + "\n\n[^1]: Eiffel Tower facts\n", sources)
    assert kept.answer.endswith(
        "[^1]: Eiffel Tower facts\n[^2]: Louvre history, https://louvre.example/history\n"
    )
