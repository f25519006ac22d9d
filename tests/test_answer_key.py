"""An answer's own key to its numbers: a reference list or definitions that name the sources.

The engine runs with its real models; each answer is one a model writes when it numbers its
sources its own way (the registry numbers the blog 1 and the docs 2).
"""

from __future__ import annotations

import msgspec
import pytest

from attribution import Attributor, CitationSource
from attribution._config import AttributionConfig, ReconcileConfig
from attribution.decide import Numbering, answer_key
from attribution.segment import Segmenter

BLOG = CitationSource(
    id="blog",
    type="web",
    uri="https://blog.example.com/dublin",
    title="Dublin launch",
    full_content="Orion launched its Dublin region in March 2024. The region serves Ireland.",
)
DOCS = CitationSource(
    id="docs",
    type="web",
    uri="https://docs.example.com/regions",
    title="Orion Regions Overview",
    full_content="Orion runs in Frankfurt and Dublin. A fourth region, Sydney, is planned.",
)
SOURCES = [BLOG, DOCS]
TEXT = "Orion runs in Frankfurt [1]. Its Dublin region launched in March 2024 [2]."


def _checks(result: object) -> list[tuple[str, int, str, str | None]]:
    return [(m.marker, m.number, m.verdict, m.source_id) for m in result.markers]  # type: ignore[attr-defined]


def test_a_reference_list_says_which_source_each_number_is(attributor: Attributor) -> None:
    answer = (
        f"{TEXT}\n\nSources:\n[1] Regions, https://docs.example.com/regions/\n"
        "[2] https://blog.example.com/dublin?utm_source=chat\n"
    )
    result = attributor.attribute(answer, SOURCES)
    assert _checks(result) == [
        ("[1]", 2, "supported", "docs"),
        ("[2]", 1, "supported", "blog"),
    ]
    # the markers and the list's labels carry the conversation's numbers, nothing else moves
    assert result.answer == (
        "Orion runs in Frankfurt [2]. Its Dublin region launched in March 2024 [1].\n\n"
        "Sources:\n[2] Regions, https://docs.example.com/regions/\n"
        "[1] https://blog.example.com/dublin?utm_source=chat\n"
    )
    cited = {r.cited_text: r.source_ids for r in result.citations.references}
    assert cited["Orion runs in Frankfurt [2]."] == ("docs",)


def test_without_the_key_the_same_answer_reads_registry_numbers() -> None:
    answer = f"{TEXT}\n\nSources:\n[1] https://docs.example.com/regions\n[2] https://blog.example.com/dublin\n"
    config = AttributionConfig(reconcile=ReconcileConfig(answer_key=False))
    result = Attributor(config).attribute(answer, SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [
        (1, "wrong_source"),
        (2, "wrong_source"),
    ]


def test_a_list_that_agrees_with_the_registry_changes_nothing(attributor: Attributor) -> None:
    # the list numbers the blog 1 as the registry does: "Frankfurt [1]" cites the wrong page
    answer = f"{TEXT}\n\nSources:\n[1] https://blog.example.com/dublin\n[2] https://docs.example.com/regions\n"
    result = attributor.attribute(answer, SOURCES)
    assert result.answer == answer
    assert [(m.number, m.verdict, m.suggested) for m in result.markers] == [
        (1, "wrong_source", 2),
        (2, "wrong_source", 1),
    ]


def test_footnote_definitions_by_address_and_title_and_a_page_not_given(
    attributor: Attributor,
) -> None:
    answer = (
        "Orion runs in Frankfurt[^1]. Its Dublin region launched in March 2024[^2]. "
        "Sydney opens next year[^3].\n\n"
        "[^1]: https://docs.example.com/regions\n"
        "[^2]: Dublin launch\n"
        "[^3]: https://news.example.org/sydney\n"
    )
    result = attributor.attribute(answer, SOURCES)
    assert _checks(result) == [
        ("[^1]", 2, "supported", "docs"),
        ("[^2]", 1, "supported", "blog"),
        ("[^3]", 3, "unknown_number", None),  # a page the engine was not given
    ]
    # the definitions follow their marks, the foreign mark goes, and no definition is added
    assert result.answer == (
        "Orion runs in Frankfurt[^2]. Its Dublin region launched in March 2024[^1]. "
        "Sydney opens next year.\n\n"
        "[^2]: https://docs.example.com/regions\n"
        "[^1]: Dublin launch\n"
        "[^3]: https://news.example.org/sydney\n"
    )


def test_a_page_not_given_keeps_its_mark_when_asked(attributor: Attributor) -> None:
    answer = (
        "Orion runs in Frankfurt [1]. Sydney opens next year [2].\n\n"
        "[1]: https://docs.example.com/regions\n[2]: https://news.example.org/sydney\n"
    )
    keep = attributor.with_config(AttributionConfig(reconcile=ReconcileConfig(drop_unknown=False)))
    result = keep.attribute(answer, SOURCES)
    assert [(m.marker, m.number, m.verdict) for m in result.markers] == [
        ("[1]", 2, "supported"),
        ("[2]", 2, "unknown_number"),
    ]
    assert result.answer.startswith("Orion runs in Frankfurt [2]. Sydney opens next year [2].")


def test_a_definition_whose_number_a_source_takes_stops_being_one(
    attributor: Attributor,
) -> None:
    # the answer's 1 is the registry's 2; the answer's own 2 is a page outside the request:
    # its definition must not stay "[2]:", or the rewritten "[2]" would link to that page
    answer = (
        "Orion runs in Frankfurt [1]. Sydney opens next year [2].\n\n"
        "[1]: https://docs.example.com/regions\n[2]: https://news.example.org/sydney\n"
    )
    result = attributor.attribute(answer, SOURCES)
    assert result.answer == (
        "Orion runs in Frankfurt [2]. Sydney opens next year.\n\n"
        "[2]: https://docs.example.com/regions\n https://news.example.org/sydney\n"
    )


def _key(answer: str, sources: list[CitationSource] = SOURCES):  # type: ignore[no-untyped-def]
    numbering = Numbering(
        numbers=tuple(range(1, len(sources) + 1)),
        source_ids=tuple(s.id for s in sources),
        known=frozenset(range(1, len(sources) + 1)),
    )
    return answer_key(answer, Segmenter().segment(answer), sources, numbering)


@pytest.mark.parametrize(
    "tail",
    [
        "Sources:\n1. Orion Regions Overview\n2. [Dublin launch](https://blog.example.com/dublin/)",
        "References:\n- [1] Orion Regions Overview - docs.example.com\n- [2] Dublin launch",
        "[1]: <https://docs.example.com/regions#top>\n[2]: https://BLOG.example.com/dublin",
    ],
)
def test_entries_in_the_forms_models_write(tail: str) -> None:
    key = _key(f"{TEXT}\n\n{tail}\n")
    assert key is not None
    assert dict(key.numbers) == {1: 2, 2: 1}
    assert not key.foreign


def test_what_is_no_key() -> None:
    # no entry, entries naming none of the sources, a definition inside code
    assert _key(TEXT) is None
    assert _key(f"{TEXT}\n\n[1]: https://a.example.net/x\n[2]: https://b.example.net/y\n") is None
    fenced = f"{TEXT}\n\n```\n[1]: https://docs.example.com/regions\n```\n"
    assert _key(fenced) is None
    # sources without addresses or titles cannot be named
    bare = [CitationSource(id=s.id, type="web", full_content=s.full_content) for s in SOURCES]
    assert _key(f"{TEXT}\n\n[1]: https://docs.example.com/regions\n", bare) is None


def test_a_short_title_names_a_source_only_alone() -> None:
    short = [BLOG, msgspec.structs.replace(DOCS, title="Regions")]
    # "Regions" alone names the docs; inside a longer entry it is no match: another page
    key = _key(f"{TEXT}\n\n[1]: Regions\n[2]: Regions of the Roman Empire\n", short)
    assert key is not None
    assert dict(key.numbers) == {1: 2}
    assert key.foreign == {2}
    # a title of twelve characters or more names its source inside an entry
    key = _key(f"{TEXT}\n\n[1]: Orion Regions Overview (docs)\n[2]: Dublin launch\n")
    assert key is not None
    assert dict(key.numbers) == {1: 2, 2: 1}


def test_an_entry_naming_two_sources_is_read_as_written() -> None:
    answer = (
        f"{TEXT}\n\n[1]: https://docs.example.com/regions https://blog.example.com/dublin\n"
        "[2]: https://blog.example.com/dublin\n"
    )
    key = _key(answer)
    assert key is not None
    assert dict(key.numbers) == {2: 1}
    assert not key.foreign
    # the answer's 2 takes the number 1: entry 1's definition stops being one, entry 2's is 1
    assert [answer[a:b] + " -> " + text for a, b, text in key.labels] == [
        "[1]: -> ",
        "[2]: -> [1]:",
    ]
