"""Link citations: an answer that cites its sources with links, as search-grounded models write
them (``([docs.example.com](https://...))``, ``[[1]](https://...)``).

The engine runs with its real models; the registry numbers the blog 1 and the docs 2, so a link
is read by its address, not by any number it shows.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from attribution import AttributionConfig, Attributor, ReconcileConfig
from attribution.segment import Segmenter, SegmentStream
from attribution.text import link_citations
from tests.test_answer_key import BLOG_URL, DOCS_URL, SOURCES

FRANKFURT = "Orion runs in Frankfurt"
DUBLIN = "Its Dublin region launched in March 2024"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (f"A ([docs.example.com]({DOCS_URL})).", [f"([docs.example.com]({DOCS_URL}))"]),
        (
            "A ([a](https://a.example/x), [b](https://b.example/y_(z))) and B.",
            ["([a](https://a.example/x), [b](https://b.example/y_(z)))"],
        ),
        ("A [[1]](https://a.example/x). B [2](http://b.example/).", None),
        # a link inside the sentence is its text; a year, or a number the sentence goes on
        # after, is no number of a citation; nor is an image
        ("See [the docs](https://a.example/x) now.", []),
        ("Or (see [a](https://a.example/x)).", ["(see [a](https://a.example/x))"]),
        ("Completed in [1889](https://en.wikipedia.org/wiki/1889).", []),
        (
            "It needs Python [3](https://a.example/3/) or later; it has [12](https://b.ex/) x.",
            [],
        ),
        ("A ![1](https://a.example/i.png). B ![x](https://b.example/j.png)", []),
        (
            "It runs on iOS [17](https://a.ex/17), Android [14](https://b.ex/) and Linux.",
            [],
        ),
        # a label before the links of a group
        ("A (Source: [a](https://a.example/x)).", ["(Source: [a](https://a.example/x))"]),
        # ChatGPT's copied answers: reference-style links to web definitions
        (
            'A. ([a.example][1]) B [[2]][2].\n\n[1]: https://a.example/x "A"\n[2]: https://b.example/',
            ["([a.example][1])", "[[2]][2]"],
        ),
        # no web address, or inside code
        ("A ([section](#regions)). `([a](https://a.example/x))`", []),
        ("```\n([a](https://a.example/x))\n```\n", []),
    ],
)
def test_what_is_a_link_citation(text: str, found: list[str] | None) -> None:
    links = link_citations(text)
    assert all(text[m.start : m.end] == m.text and m.style == "link" for m in links)
    if found is None:  # the numbers' links themselves
        found = ["[[1]](https://a.example/x)", "[2](http://b.example/)"]
    assert [m.text for m in links] == found


def test_a_link_citation_is_no_part_of_the_claim() -> None:
    answer = f"{FRANKFURT} ([docs.example.com]({DOCS_URL})). {DUBLIN} [[1]]({BLOG_URL})."
    segments = Segmenter().segment(answer)
    assert [s.clean_text for s in segments] == [f"{FRANKFURT}.", f"{DUBLIN}."]
    assert [[m.style for m in s.markers] for s in segments] == [["link"], ["link"]]


def test_links_name_their_sources_by_address(attributor: Attributor) -> None:
    answer = f"{FRANKFURT} ([docs.example.com]({DOCS_URL})). {DUBLIN} [[1]]({BLOG_URL}/)."
    result = attributor.attribute(answer, SOURCES)
    # "[[1]]" links to the blog, which the conversation numbers 1: the address decides
    assert [(m.number, m.verdict, m.source_id) for m in result.markers] == [
        (2, "supported", "docs"),
        (1, "supported", "blog"),
    ]
    assert [c.verdict for c in result.claims] == ["supported", "supported"]
    assert result.answer == answer  # links are written as they were, nothing is added


def test_a_link_to_the_wrong_source_and_one_to_a_page_not_given(attributor: Attributor) -> None:
    answer = (
        f"{FRANKFURT} ([blog.example.com]({BLOG_URL})). "
        f"{DUBLIN} ([news.example.org](https://news.example.org/orion))."
    )
    config = AttributionConfig(reconcile=ReconcileConfig(marker_style="citation"))
    result = Attributor.from_config(config).attribute(answer, SOURCES)
    (check,) = result.markers
    assert (check.number, check.verdict, check.suggested) == (1, "wrong_source", 2)
    # a page the engine was not given is no citation: the claim gets the source that holds it;
    # the links stay as written whatever the style of the markers
    assert result.answer == (
        f"{FRANKFURT} ([blog.example.com]({BLOG_URL})). "
        f"{DUBLIN} ([news.example.org](https://news.example.org/orion)) [citation:1]."
    )


def test_a_stream_reads_link_citations(attributor: Attributor) -> None:
    answer = f"{FRANKFURT} ([docs.example.com]({DOCS_URL})). {DUBLIN} [[2]]({BLOG_URL})."
    prepared = attributor.prepare_sources(SOURCES)
    stream = SegmentStream(attributor.segmenter)
    found = stream.feed(answer[:60]) + stream.feed(answer[60:]) + stream.finish()
    claims = attributor.check_segments(answer, found, prepared)
    assert [(c.cited, c.verdict) for c in claims] == [((2,), "supported"), ((1,), "supported")]


def test_a_bing_style_footnote_is_written_as_one_markdown_defines(attributor: Attributor) -> None:
    # "[^2^]" (Copilot's raw text) is the footnote [^2]; it is written so, with its definition
    result = attributor.attribute(f"{FRANKFURT} [^2^].", SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [(2, "supported")]
    assert result.answer.startswith(f"{FRANKFURT} [^2].\n\n[^2]: ")


def test_a_link_shows_the_conversations_number_and_follows_the_key(attributor: Attributor) -> None:
    # "[[1]]" links to the docs, which the conversation numbers 2: it shows 2, and a key that
    # says the same is followed without the two disagreeing
    answer = f"{FRANKFURT} [[1]]({DOCS_URL}). {DUBLIN} [2].\n\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n"
    result = attributor.attribute(answer, SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [(2, "supported"), (1, "supported")]
    assert result.answer == (
        f"{FRANKFURT} [[2]]({DOCS_URL}). {DUBLIN} [1].\n\n[2]: {DOCS_URL}\n[1]: {BLOG_URL}\n"
    )


def test_chatgpt_reference_style_links(attributor: Attributor) -> None:
    answer = (
        f"{FRANKFURT}. ([docs.example.com][1]) {DUBLIN}. ([blog.example.com][2])\n\n"
        f'[1]: {DOCS_URL}?utm_source=chatgpt.com "Regions"\n'
        f"[2]: {BLOG_URL}?utm_source=chatgpt.com\n"
    )
    result = attributor.attribute(answer, SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [(2, "supported"), (1, "supported")]
    assert [(c.cited, c.verdict) for c in result.claims] == [
        ((2,), "supported"),
        ((1,), "supported"),
    ]
    assert result.answer == answer


def test_only_a_links_destination_names_its_source(attributor: Attributor) -> None:
    # the link's text is an address too, but a reader goes where the link goes
    answer = f'{FRANKFURT} ([{BLOG_URL}]({DOCS_URL} "mirror of {BLOG_URL}")).'
    result = attributor.attribute(answer, SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [(2, "supported")]


def test_sources_named_in_words(attributor: Attributor) -> None:
    answer = (
        f"{FRANKFURT} (Source: Orion Regions Overview). "
        f"{DUBLIN} (Sources: Dublin launch; {DOCS_URL}). It serves Ireland (source: Reuters)."
    )
    result = attributor.attribute(answer, SOURCES)
    assert [(m.marker, m.number, m.verdict) for m in result.markers] == [
        ("(Source: Orion Regions Overview)", 2, "supported"),
        (f"(Sources: Dublin launch; {DOCS_URL})", 1, "supported"),
        (f"(Sources: Dublin launch; {DOCS_URL})", 2, "wrong_source"),
    ]
    # a name no source has is no citation, and no word of the claim
    assert [c.cited for c in result.claims] == [(2,), (1, 2), ()]
    assert result.claims[2].verdict == "supported"
    assert result.answer.endswith("It serves Ireland (source: Reuters) [1].")


def test_the_command_line_leaves_link_citations_alone(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text(f"{FRANKFURT} [[1]]({DOCS_URL}). {DUBLIN} [2].\n")
    out = subprocess.run(
        [sys.executable, "-m", "attribution", "normalize", str(answer), "--style", "citation"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == f"{FRANKFURT} [[1]]({DOCS_URL}). {DUBLIN} [citation:2]."


def test_a_group_of_one_link_shows_the_conversations_number(attributor: Attributor) -> None:
    answer = f"{FRANKFURT} ([1]({DOCS_URL})). {DUBLIN} [2].\n\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n"
    result = attributor.attribute(answer, SOURCES)
    assert result.answer.startswith(f"{FRANKFURT} ([2]({DOCS_URL})). {DUBLIN} [1].")


def test_a_number_inside_a_links_text_is_its_text(attributor: Attributor) -> None:
    answer = f"{FRANKFURT} ([Regions, part [3]]({DOCS_URL}))."
    result = attributor.attribute(answer, SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [(2, "supported")]
    assert result.answer == answer


def test_names_as_models_write_them(attributor: Attributor) -> None:
    answer = (
        f"{FRANKFURT} (Source: Orion Regions Overview, 2024). "
        f"{DUBLIN} (Source: blog.example.com). "
        f"It serves Ireland (Source: [Dublin launch]({BLOG_URL})). "
        "It is a region (Source: Dublin launch)(Source: Orion Regions Overview)."
    )
    result = attributor.attribute(answer, SOURCES)
    assert [c.cited for c in result.claims] == [(2,), (1,), (1,), (1, 2)]
    # a link's destination names its source, not its text: "[Source: Orion Regions Overview]"
    # linked to the blog cites the blog
    linked = attributor.attribute(
        f"{FRANKFURT} ([Source: Orion Regions Overview]({BLOG_URL})).", SOURCES
    )
    assert [(m.number, m.verdict) for m in linked.markers] == [(1, "wrong_source")]


def test_markers_that_go_take_their_brackets_and_never_collide_with_a_filled_one(
    attributor: Attributor,
) -> None:
    # "[5], [3]" and "([5]; [3])" name no source: they go, with their separators and brackets,
    # and the marker filled in goes where the claim's words end (the edits overlapped: a
    # ValueError); also at a line's start, and before another group
    for written in ("[5], [3]", "([5]; [3])", "(see [5] and [3])", "\n([5]; [3])\n"):
        result = attributor.attribute(f"{DUBLIN}. {written}", SOURCES)
        assert result.answer.strip() == f"{DUBLIN} [1].", written
    result = attributor.attribute(f"[5] ([3]) {FRANKFURT}.\n[5][7] ([3]) {DUBLIN}.", SOURCES)
    assert result.answer == f"{FRANKFURT} [2].\n{DUBLIN} [1]."
    result = attributor.attribute(f"{DUBLIN} ([5]; [3]). It serves Ireland.", SOURCES)
    assert result.answer.startswith(f"{DUBLIN} [1].")


def test_azure_on_your_data_markers(attributor: Attributor) -> None:
    # "[doc2]" is the second source; the judge read "Orion runs in Frankfurt [doc2]." at 0.017
    answer = f"{FRANKFURT} [doc2]. {DUBLIN} [doc1]."
    result = attributor.attribute(answer, SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [(2, "supported"), (1, "supported")]
    assert [c.verdict for c in result.claims] == ["supported", "supported"]
    assert result.answer == answer
    # a marker the engine adds is written as the answer writes its own
    filled = attributor.attribute(f"{FRANKFURT} [doc2]. {DUBLIN}.", SOURCES)
    assert filled.answer == answer
    # an answer's own key with such labels is followed, its labels keep their word
    keyed = attributor.attribute(
        f"{FRANKFURT} [Source 1]. {DUBLIN} [Source 2].\n\n"
        f"Sources:\n[Source 1] Regions, {DOCS_URL}\n[Source 2] {BLOG_URL}\n",
        SOURCES,
    )
    assert [(m.number, m.verdict) for m in keyed.markers] == [(2, "supported"), (1, "supported")]
    assert keyed.answer.endswith(
        f"Sources:\n[Source 2] Regions, {DOCS_URL}\n[Source 1] {BLOG_URL}\n"
    )
