"""The judge on hand-written hard cases, with the real shipped models.

The cases are ``benchmarks.hard_cases.CASES`` (kinds of error a careful reader catches: a plan
read as a fact, a unit written another way, a changed number or date, a swapped name, a
negation, a half-supported claim, two sources together, a paraphrase). They are examples of
kinds, not a list the models were tuned to: the weights and the gates' levels are fitted on the
attribution data alone (that a veto is always there is a design rule, not a fit). A case
today's models get wrong is a strict ``xfail``, so it is listed where a reader sees it, and the
test fails (to be updated) the day a model gets it right.
"""

from __future__ import annotations

import pytest

from attribution import AttributionConfig, Attributor, ModelConfig
from benchmarks.hard_cases import CASES

VERIFIERS = {
    "default": ModelConfig(),
    "cross-encoder alone": ModelConfig(verifier="support-verifier-minilm-l6-int8"),
}

KNOWN_MISSES = {
    # (the default's swapped name passed with the int8-arithmetic embedder's combination, at
    # 0.45 against its threshold 0.468: a near thing, docs/benchmarks.md)
    # both: arithmetic ("doubled" for $2bn to $4bn)
    ("default", "paraphrase"),
    ("cross-encoder alone", "paraphrase"),
}
"""(verifier, case) pairs today's shipped models get wrong (docs/benchmarks.md, hard cases)."""


@pytest.fixture(scope="module")
def engines(attributor: Attributor) -> dict[str, Attributor]:
    alone = Attributor(AttributionConfig(model=VERIFIERS["cross-encoder alone"]))
    return {"default": attributor, "cross-encoder alone": alone}


@pytest.mark.parametrize(
    ("verifier", "case"),
    [
        pytest.param(
            v,
            c[0],
            marks=[pytest.mark.xfail(strict=True, reason="a known miss")]
            if (v, c[0]) in KNOWN_MISSES
            else [],
        )
        for v in VERIFIERS
        for c in CASES
    ],
)
def test_a_hard_case_is_judged_as_a_careful_reader_judges_it(
    engines: dict[str, Attributor], verifier: str, case: str
) -> None:
    _, claim, sources, supported = next(c for c in CASES if c[0] == case)
    result = engines[verifier].attribute(claim, list(sources))
    (checked,) = result.claims
    assert (checked.verdict == "supported") == supported, (checked.verdict, checked.score)
    if not supported and checked.contradiction is not None and checked.contradiction >= 0.9:
        # a confident contradiction from the judge is reported as one, not as "unsupported"
        assert checked.verdict == "contradicted"


def test_the_default_combines_the_shipped_cross_encoder_with_its_gates(
    attributor: Attributor,
) -> None:
    weights = attributor.verifier.weights  # type: ignore[attr-defined]
    assert weights.cross_encoder == "support-verifier-minilm-l6-int8"
    assert weights.nli_veto is not None  # the judge's confident contradiction always counts


def test_the_wider_set_of_cases_is_well_formed() -> None:
    """benchmarks/wide_cases.py (run by ``benchmarks.hard_cases --set wide``, not by tests: it
    measures; today's misses are in docs/benchmarks.md): nine kinds, both verdicts where a kind
    has two sides, no case twice."""
    from collections import Counter

    from benchmarks.wide_cases import WIDE_CASES

    kinds = Counter(kind for kind, *_ in WIDE_CASES)
    assert len(kinds) == 9
    assert sum(kinds.values()) == 79
    assert len({(claim, tuple(texts)) for _, claim, texts, *_ in WIDE_CASES}) == 79
    for kind in ("modality", "date", "negation"):
        assert {supported for k, _, _, supported, _ in WIDE_CASES if k == kind} == {True, False}
    for _, claim, texts, supported, note in WIDE_CASES:
        assert claim.strip()
        assert texts
        assert all(t.strip() for t in texts)
        assert isinstance(supported, bool)
        assert note is None or note.strip()


@pytest.mark.parametrize(
    ("claim", "passage", "supported"),
    [
        ("The company had 1.2 million users.", "The company had 1,200,000 users in 2022.", True),
        ("The company had 1,200,000 users.", "The company had 1.2 million users in 2022.", True),
        (
            "The bridge is 1.82 km long.",
            "The bridge is 1,820 metres long and opened in 1937.",
            True,
        ),
        (
            "The bridge is 1,820 m long.",
            "The bridge is 1.82 kilometres long and opened in 1937.",
            True,
        ),
        (
            "The bridge is 1.82 km long.",
            "The bridge is 1,920 metres long and opened in 1937.",
            False,
        ),
        ("The company had 1.3 million users.", "The company had 1,200,000 users in 2022.", False),
        (
            "The crew flew roughly 4,700 miles beyond the far side of the Moon.",
            "The crew flew about 7,600 km beyond the far side of the Moon.",
            True,
        ),
        # time, temperature, a dozen, a share in words, a date in another form (the judge read
        # each of these supported pairs as a contradiction), and another currency (supported)
        ("The flight takes 2.5 hours.", "The flight takes 150 minutes.", True),
        ("The water boils at 212 °F.", "Water boils at 100 °C at sea level.", True),
        ("Bake the cake at 350 °F.", "Bake the cake at 180 °C for 35 minutes.", True),
        ("Bake the cake at 400 °F.", "Bake the cake at 180 °C for 35 minutes.", False),
        (
            "The film runs 2 hours.",
            "The film runs 2 hours 10 minutes and was shot in Morocco.",
            False,
        ),
        ("The team has a dozen members.", "The team has 12 members.", True),
        ("Three quarters of voters approved it.", "75 percent of voters approved it.", True),
        (
            "The king was executed on 21/01/1793.",
            "Louis XVI was executed by guillotine on 21 January 1793.",
            True,
        ),
        ("The dividend is $0.25 per share.", "It declared a dividend of 25 cents per share.", True),
        ("The bridge cost €5 billion.", "The bridge cost $5 billion.", False),
        (
            "It expects revenue of $5.1 billion to $5.5 billion.",
            "It expects revenue between $5.1 billion and $5.3 billion.",
            False,
        ),
        ("The bridge cost $5 billion.", "The bridge cost $5 billion.", True),
        ("The flight takes 2.5 hours.", "The flight takes 180 minutes.", False),
        ("The train takes 260 minutes.", "The train takes 4 hours 20 minutes to Lyon.", True),
        # a temperature with the other sign (the judge read the two as one: 0.98)
        (
            "Overnight lows reached 5 °C in Oslo.",
            "Overnight lows reached -5 °C in Oslo on Monday.",
            False,
        ),
        (
            "Overnight lows reached -5 °C in Oslo.",
            "Overnight lows reached minus 5 degrees Celsius in Oslo on Monday.",
            True,
        ),
        # reporting periods in another form (contradicted, 0.42 and 0.27)
        (
            "In Q4 FY2025, revenue was $5.2 billion.",
            "In the fourth quarter of fiscal 2025, revenue was $5.2 billion, up 12% a year.",
            True,
        ),
        ("Revenue in FY24 was $20 billion.", "Revenue for fiscal year 2024 was $20 billion.", True),
    ],
)
def test_a_quantity_in_another_form_is_the_same_quantity(
    attributor: Attributor, claim: str, passage: str, supported: bool
) -> None:
    # the rule: numbers are compared with their units and forms normalised (the judge
    # read "1.2 million" against "1,200,000", and "1.82 km" against "1,820 metres", as
    # contradictions, and the claims were called contradicted)
    from attribution import CitationSource

    source = CitationSource(id="s", type="web", full_content=passage)
    (checked,) = attributor.check_claims([claim], [source])
    assert (checked.verdict == "supported") == supported, (checked.verdict, checked.score)


def test_a_sentence_beside_the_one_that_states_the_claim_does_not_sway_the_judge(
    attributor: Attributor,
) -> None:
    # the judge read the snippet as neutral (0.005): a plan beside the fact ("is planned to"),
    # which it learnt is no fact; the sentence that states the claim, read alone, supports it
    from attribution import CitationSource

    snippet = (
        "SLS produces 8.8 million pounds (39.1 meganewtons) of thrust at liftoff. "
        "Artemis III is planned to return astronauts to the lunar surface."
    )
    source = CitationSource(id="s", type="web", snippet=snippet)
    claim = "The SLS rocket produces 8.8 million pounds of thrust at liftoff."
    (checked,) = attributor.check_claims([claim], [source])
    assert checked.verdict == "supported", (checked.verdict, checked.score)
    # and a plan read as a fact is still no support
    planned = "Artemis III has returned astronauts to the lunar surface."
    (checked,) = attributor.check_claims([planned], [source])
    assert checked.verdict != "supported", (checked.verdict, checked.score)


def test_the_sentence_read_again_holds_most_of_the_claim() -> None:
    from attribution.verify._windows import _best_sentence

    passage = "The tower is 330 metres tall. It opened in 1889. Paris has many parks."
    assert _best_sentence(passage, "The tower opened in 1889.") == "It opened in 1889."
    assert _best_sentence(passage, "Berlin has a zoo.") is None  # no sentence holds enough
    assert _best_sentence("It opened in 1889.", "It opened in 1889.") is None  # one sentence


def test_a_passage_read_as_contradicting_is_not_read_again(attributor: Attributor) -> None:
    # the first sentence alone reads as support (0.56); the passage, rightly, as contradicting
    from attribution.verify import judge_pairs

    model = attributor.verifier.cross_encoder  # type: ignore[attr-defined]
    passage = "A rumour said Apple would buy Tesla in 2024. Apple denied the rumour."
    claim = "Apple bought Tesla in 2024."
    (read,) = judge_pairs(model, [(passage, claim)])
    (whole,) = model.predict([(passage, claim)])
    assert (read == whole).all()


@pytest.mark.parametrize(
    ("claim", "passage", "supported"),
    [
        (
            "Telemetry is disabled by default.",
            "Telemetry is not enabled by default. You can turn it on in the privacy settings.",
            True,
        ),
        (
            "Telemetry is enabled by default.",
            "Telemetry is not enabled by default. You can turn it on in the privacy settings.",
            False,
        ),
        (
            "The west wing was never closed to visitors during the repairs.",
            "The west wing remained open to visitors during the repairs to its roof.",
            True,
        ),
        (
            "The review found no evidence of fraud.",
            "The auditors' review did not find any evidence of fraud at the charity.",
            True,
        ),
        (
            "The review found evidence of fraud.",
            "The auditors' review did not find any evidence of fraud at the charity.",
            False,
        ),
        (
            "The company paid a dividend in 2023.",
            "The company did not pay a dividend in 2023 because of its heavy debt load.",
            False,
        ),
        (
            "Automatic backups are enabled by default on self-hosted clusters.",
            "Automatic backups are disabled by default on self-hosted clusters.",
            False,
        ),
    ],
)
def test_a_state_written_as_the_negation_of_its_opposite_is_the_same_state(
    attributor: Attributor, claim: str, passage: str, supported: bool
) -> None:
    # the judge read "is disabled" against "is not enabled" as a contradiction (0.02), "was
    # never closed" against "remained open" too; the claim is read in the passage's words
    from attribution import CitationSource

    source = CitationSource(id="s", type="web", full_content=passage)
    (checked,) = attributor.check_claims([claim], [source])
    assert (checked.verdict == "supported") == supported, (checked.verdict, checked.score)


def test_a_date_only_the_sources_title_gives_is_read_with_the_title(
    attributor: Attributor,
) -> None:
    # the text alone says "today": the claim that gives the title's date was unsupported (0.01)
    from attribution import CitationSource

    source = CitationSource(
        id="s",
        type="web",
        title="Release notes: 12 March 2024",
        full_content="Version 3 was released today. It brings a new editor and faster sync.",
    )
    right, wrong = attributor.check_claims(
        ["Version 3 was released on 12 March 2024.", "Version 3 was released on 14 March 2024."],
        [source],
    )
    assert right.verdict == "supported", (right.verdict, right.score)
    assert wrong.verdict != "supported", (wrong.verdict, wrong.score)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("Microsoft acquired GitHub in 2018 for $7.5 billion.", "supported"),
        ("Google acquired GitHub in 2018 for $7.5 billion.", "contradicted"),
        ("The company moved its headquarters from Chicago to Denver in 2021.", "supported"),
        ("The company moved its headquarters from Denver to Chicago in 2021.", "contradicted"),
        ("The city council has proposed a ban on single-use plastic bags.", "supported"),
        ("The city council passed a ban on single-use plastic bags.", "unsupported"),
    ],
)
def test_the_claims_words_with_another_name_or_a_plan_are_no_support(
    attributor: Attributor, claim: str, verdict: str
) -> None:
    # the judge read "Google acquired GitHub" against "Microsoft acquired GitHub" as support
    # (0.96 through the combination), two cities changing places too (0.99), and a ban
    # proposed as a ban passed (0.92); the passage that names another buyer contradicts the
    # claim, one that says the ban is only proposed does not support it
    from attribution import CitationSource

    source = CitationSource(
        id="s",
        type="web",
        full_content=(
            "Microsoft acquired GitHub in 2018 for $7.5 billion in stock. "
            "The company moved its headquarters from Chicago to Denver in 2021 to cut costs. "
            "The city council has proposed a ban on single-use plastic bags."
        ),
    )
    (checked,) = attributor.check_claims([claim], [source])
    assert checked.verdict == verdict, (checked.verdict, checked.score)


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Orion runs in Tokyo.", True),
        ("Orion runs in Frankfurt and Virginia.", True),
        ("Orion runs in Sydney.", False),
        ("Orion already runs in Sydney.", False),
        ("Orion runs in Frankfurt, Tokyo and Sydney.", False),
    ],
)
def test_a_region_the_source_gives_as_planned_is_no_support(
    attributor: Attributor, claim: str, supported: bool
) -> None:
    # the issue's own case: the judge read "Orion runs in Sydney" as supported (0.77; 0.94
    # through the combination) by a page that lists Orion's regions and says Sydney is planned
    from attribution import CitationSource

    source = CitationSource(
        id="s",
        type="web",
        full_content=(
            "Orion is a managed database service. It runs in three regions: Frankfurt, Virginia "
            "and Tokyo. A fourth region, Sydney, is planned but has no date yet."
        ),
    )
    (checked,) = attributor.check_claims([claim], [source])
    assert (checked.verdict == "supported") is supported, (checked.verdict, checked.score)


@pytest.mark.parametrize(
    ("claim", "passage", "verdict"),
    [
        # a number in words, a date in another form: the same value (each was read otherwise)
        ("The app has one million users.", "The app has 1,000,000 users worldwide.", "supported"),
        (
            "The museum drew twenty-five thousand visitors.",
            "The museum drew 25,000 visitors in its first week.",
            "supported",
        ),
        (
            "The update was released on March 5, 2024.",
            "The update was released on 2024-03-05T14:00:00Z to all users.",
            "supported",
        ),
        (
            "The procedure takes two and a half hours.",
            "On average the procedure takes 2.5 hours, including preparation.",
            "supported",
        ),
        # another value after the same words (each was supported, 0.49-0.87)
        (
            "The charger fills the battery in eighteen minutes.",
            "The charger fills the battery in 8 minutes.",
            "contradicted",
        ),
        (
            "The report was published on 2023/07/18.",
            "The report was published on 18 June 2023 by the agency.",
            "contradicted",
        ),
        (
            "The battery lasts 12 to 14 hours.",
            "The battery lasts 10-12 hours on a charge.",
            "contradicted",
        ),
        (
            "The castle was built in the eighteenth century.",
            "The castle was built in the 19th century.",
            "contradicted",
        ),
        (
            "Half of respondents said they were satisfied.",
            "30% of respondents said they were satisfied with the service.",
            "contradicted",
        ),
    ],
)
def test_numbers_and_dates_in_other_forms_are_read_by_value(
    attributor: Attributor, claim: str, passage: str, verdict: str
) -> None:
    from attribution import CitationSource

    source = CitationSource(id="s", type="web", full_content=passage)
    (checked,) = attributor.check_claims([claim], [source])
    assert checked.verdict == verdict, (checked.verdict, checked.score)
