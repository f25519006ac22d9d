"""The hard-case generators of the verifier's training mix, on hand-made evidence.

Each generator must change exactly the thing it names and label the result accordingly; these
are checked on small rows written here, so the test needs neither torch nor the data.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from training._io import NOT_ENTAILED
from training.hard_cases import (
    HARD_CASE_BUILDERS,
    entity_swaps,
    modality,
    name_changes,
    negation,
    role_swaps,
    two_passages,
    unit_forms,
    unit_swaps,
)


@dataclass
class Row:
    claim: str
    label: str
    evidence: list[str]
    subject: str


ROWS = [
    Row(
        "The Eiffel Tower is 330 metres tall.",
        "SUPPORTS",
        ["The Eiffel Tower is 330 metres tall and stands in Paris."],
        "the eiffel",
    ),
    Row(
        "The Eiffel Tower was completed on 31 March 1889.",
        "SUPPORTS",
        ["Construction of the Eiffel Tower was completed on 31 March 1889."],
        "the eiffel",
    ),
    Row(
        "The Eiffel Tower was designed by Gustave Eiffel.",
        "SUPPORTS",
        ["The company of Gustave Eiffel designed and built the tower."],
        "the eiffel",
    ),
    Row(
        "The Homesman features Meryl Streep.",
        "SUPPORTS",
        [
            "The Homesman is a 2014 western film directed by Tommy Lee Jones.",
            "The film also features Meryl Streep and Hailee Steinfeld.",
        ],
        "the homesman",
    ),
    Row("Orion runs in Sydney.", "SUPPORTS", ["Orion runs in Sydney and Frankfurt."], "orion runs"),
    Row("Paris is in Germany.", "REFUTES", ["Paris is the capital of France."], "paris is"),
]


def test_modality_states_the_claim_as_a_plan_without_its_evidence() -> None:
    made = modality(ROWS, 10, random.Random(1))
    assert made
    for e in made:
        assert e.label == 1
        assert e.source == "modality"
        row = next(r for r in ROWS if r.claim == e.claim)
        assert row.label == "SUPPORTS"
        assert not any(s in e.passage for s in row.evidence)  # the support is gone
        assert any(h in e.passage for h in ("planned", "may", "expected", "could", "will", "going"))
    orion = [e for e in made if e.claim.startswith("Orion")]
    assert orion
    assert "Orion runs in Sydney" not in orion[0].passage


def test_negation_contradicts_and_skips_claims_already_negative() -> None:
    made = negation(
        [*ROWS, Row("X is not Y.", "SUPPORTS", ["X is not Y."], "x is")], 10, random.Random(2)
    )
    assert made
    assert all(e.label == 2 for e in made)
    assert all(" not " in e.claim or "cannot" in e.claim for e in made)
    assert not any(e.claim.startswith("X is") for e in made)


def test_unit_forms_keep_the_meaning() -> None:
    made = unit_forms(ROWS, 10, random.Random(3))
    claims = {e.claim for e in made}
    assert all(e.label == 0 for e in made)
    assert claims & {
        "The Eiffel Tower is 330 m tall.",
        "The Eiffel Tower is 330 meters tall.",
    }
    assert "The Eiffel Tower was completed on March 31, 1889." in claims
    assert not any(e.claim in {r.claim for r in ROWS} for e in made)  # every one rewritten


def test_unit_swaps_contradict() -> None:
    made = unit_swaps(ROWS, 10, random.Random(4))
    assert made
    assert all(e.label == 2 for e in made)
    eiffel = [e for e in made if "330" in e.claim]
    assert eiffel
    assert all("metres" not in e.claim for e in eiffel)
    dates = [e for e in made if "1889" in e.claim]
    assert dates
    assert all("31 March" not in e.claim for e in dates)


def test_entity_swaps_replace_a_name_that_is_not_the_subject() -> None:
    made = entity_swaps(ROWS, 10, random.Random(5))
    assert made
    for e in made:
        assert e.label == NOT_ENTAILED
        row = next(r for r in ROWS if e.passage == " ".join(dict.fromkeys(r.evidence)))
        assert e.claim != row.claim
        assert e.claim.split()[0] == row.claim.split()[0]  # the subject stays


SWAP_ROWS = [
    *ROWS,
    Row(
        "Argentina beat France in the 2022 World Cup final.",
        "SUPPORTS",
        ["In the 2022 World Cup final, Argentina beat France on penalties."],
        "2022 fifa",
    ),
    Row(
        "Microsoft acquired GitHub in 2018.",
        "SUPPORTS",
        ["In 2018 Microsoft acquired GitHub for $7.5 billion."],
        "github",
    ),
    Row("Neo is an American film character.", "SUPPORTS", ["Neo appears in films."], "neo"),
]


def test_role_swaps_exchange_two_names_the_evidence_mentions() -> None:
    made = [e for seed in range(5) for e in role_swaps(SWAP_ROWS, 10, random.Random(seed))]
    claims = {e.claim for e in made}
    assert "France beat Argentina in the 2022 World Cup final." in claims
    assert "GitHub acquired Microsoft in 2018." in claims
    for e in made:
        assert e.label == NOT_ENTAILED
        row = next(r for r in SWAP_ROWS if e.passage == " ".join(dict.fromkeys(r.evidence)))
        assert e.claim != row.claim
        # the same words, in another order
        assert sorted(e.claim.rstrip(".").split()) == sorted(row.claim.rstrip(".").split())
    assert not any("March" in e.claim and "31 March" not in e.claim for e in made)
    # names either way round in a symmetric relation are no swap ("A and B", "married")
    symmetric = [
        Row(
            "Zeus is the child of Rhea and Cronus.",
            "SUPPORTS",
            ["Zeus, son of Rhea and Cronus."],
            "zeus is",
        ),
        Row(
            "Angelina Jolie married Brad Pitt.",
            "SUPPORTS",
            ["Angelina Jolie married Brad Pitt in 2014."],
            "angelina jolie",
        ),
    ]
    assert role_swaps(symmetric, 10, random.Random(1)) == []


def test_names_are_names_not_adjectives_months_or_sentence_openers() -> None:
    from training.hard_cases import _names

    def names(claim: str) -> list[str]:
        return [name for _, _, name in _names(claim)]

    assert names("Neo is an American film character.") == ["Neo"]
    assert names("There is a Japan Airlines flight in March to Iran.") == ["Japan Airlines", "Iran"]
    assert names("The Conjuring 2 was written by Carey Hayes.") == ["The Conjuring", "Carey Hayes"]
    assert names("In 2013 Michael Fassbender appeared in The Counselor.") == [
        "Michael Fassbender",
        "The Counselor",
    ]


def test_name_changes_replace_any_name_with_one_the_evidence_lacks() -> None:
    made = name_changes(SWAP_ROWS, 20, random.Random(8))
    assert made
    subjects = 0
    for e in made:
        assert e.label == NOT_ENTAILED
        row = next(r for r in SWAP_ROWS if e.passage == " ".join(dict.fromkeys(r.evidence)))
        assert e.claim != row.claim
        new = set(e.claim.rstrip(".").split()) - set(row.claim.rstrip(".").split())
        assert new
        assert not {w.lower() for w in new} & set(e.passage.lower().rstrip(".").split())
        subjects += e.claim.split()[0] != row.claim.split()[0]
    assert subjects  # a subject can change too ("Google acquired GitHub")


def test_two_passages_need_both_windows() -> None:
    made = two_passages(ROWS, 10, random.Random(6))
    joined = [e for e in made if e.label == 0]
    alone = [e for e in made if e.label == NOT_ENTAILED]
    assert len(joined) == len(alone) == 1
    assert "\n" in joined[0].passage
    assert "Meryl Streep" in joined[0].passage
    assert "2014 western film" in joined[0].passage
    assert "\n" not in alone[0].passage


@pytest.mark.parametrize("name", sorted(HARD_CASE_BUILDERS))
def test_generators_are_deterministic_and_bounded(name: str) -> None:
    make = HARD_CASE_BUILDERS[name]
    first = make(ROWS, 2, random.Random(9))
    assert first == make(ROWS, 2, random.Random(9))
    assert len(first) <= 2
    assert all(e.source == name for e in first)
    assert all(e.passage.strip() and e.claim.strip() for e in first)


def test_the_optional_generators_join_the_attribution_stage_only_when_asked() -> None:
    import json
    from pathlib import Path

    from training.cli import stage_config
    from training.hard_cases import OPTIONAL_HARD_CASES
    from training.train import same_run

    plain = stage_config(["train", "--stage", "attribution"])
    assert all(getattr(plain.mix, name) == 0 for name in OPTIONAL_HARD_CASES)
    assert all(
        getattr(plain.mix, name) == 5000
        for name in HARD_CASE_BUILDERS
        if name not in OPTIONAL_HARD_CASES
    )
    asked = stage_config(["train", "--stage", "attribution", "--with-hard-cases", "role_swaps"])
    assert asked.mix.role_swaps == 5000
    assert asked.mix.name_changes == 0
    # the committed round was made without them, and is still the same run as the stage today
    root = Path(__file__).resolve().parents[1] / "training" / "rounds"
    saved = json.loads((root / "support-verifier-attribution" / "round.json").read_text())
    assert same_run(saved["config"], plain)
    assert not same_run(saved["config"], asked)
    counted = stage_config(
        ["train", "--stage", "attribution", "--with-hard-cases", "role_swaps=20000,name_changes"]
    )
    assert (counted.mix.role_swaps, counted.mix.name_changes) == (20000, 5000)
    for bad in ("role_swaps=", "role_swaps=-3", "role_swaps=many", "role_swaps=0", "role_swaps=²"):
        with pytest.raises(SystemExit, match="whole number"):
            stage_config(["train", "--stage", "attribution", "--with-hard-cases", bad])
    with pytest.raises(SystemExit, match="name comes before ="):
        stage_config(["train", "--stage", "attribution", "--with-hard-cases", "role_swaps,=3"])
    with pytest.raises(SystemExit, match="optional ones are role_swaps, name_changes"):
        stage_config(["train", "--stage", "attribution", "--with-hard-cases", "swaps"])
    with pytest.raises(SystemExit, match="attribution stage"):
        stage_config(["train", "--with-hard-cases", "role_swaps"])
