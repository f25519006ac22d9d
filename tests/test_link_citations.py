"""Link citations: an answer that cites its sources with links, as search-grounded models write
them (``([docs.example.com](https://...))``, ``[[1]](https://...)``).

The engine runs with its real models; the registry numbers the blog 1 and the docs 2, so a link
is read by its address, not by any number it shows.
"""

from __future__ import annotations

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
        # a link inside the sentence is its text; a year is no number of a citation
        ("See [the docs](https://a.example/x) now, or (see [a](https://a.example/x)).", []),
        ("Completed in [1889](https://en.wikipedia.org/wiki/1889).", []),
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
