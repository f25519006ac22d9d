"""An answer's own key to its numbers: a reference list or definitions that name the sources.

The engine runs with its real models; each answer is one a model writes when it numbers its
sources its own way (the registry numbers the blog 1 and the docs 2).
"""

from __future__ import annotations

import msgspec
import pytest

from attribution import AttributionResult, Attributor, CitationSource
from attribution._config import AttributionConfig, ReconcileConfig
from attribution.decide import AnswerKey, KeyedSource, answer_key
from attribution.segment import Segmenter
from attribution.sources import CitationRegistry
from attribution.text import find_markers

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
DOCS_URL = "https://docs.example.com/regions"
BLOG_URL = "https://blog.example.com/dublin"
NEWS_URL = "https://news.example.org/sydney"


def _checks(result: AttributionResult) -> list[tuple[str, int, str, str | None]]:
    return [(m.marker, m.number, m.verdict, m.source_id) for m in result.markers]


def test_a_reference_list_says_which_source_each_number_is(attributor: Attributor) -> None:
    answer = f"{TEXT}\n\nSources:\n[1] Regions, {DOCS_URL}/\n[2] {BLOG_URL}?utm_source=chat\n"
    result = attributor.attribute(answer, SOURCES)
    assert _checks(result) == [
        ("[1]", 2, "supported", "docs"),
        ("[2]", 1, "supported", "blog"),
    ]
    # the markers and the list's labels carry the conversation's numbers, nothing else moves
    assert result.answer == (
        "Orion runs in Frankfurt [2]. Its Dublin region launched in March 2024 [1].\n\n"
        f"Sources:\n[2] Regions, {DOCS_URL}/\n[1] {BLOG_URL}?utm_source=chat\n"
    )
    cited = {r.cited_text: r.source_ids for r in result.citations.references}
    assert cited["Orion runs in Frankfurt [2]."] == ("docs",)


def test_without_the_key_the_same_answer_reads_registry_numbers() -> None:
    answer = f"{TEXT}\n\nSources:\n[1] {DOCS_URL}\n[2] {BLOG_URL}\n"
    config = AttributionConfig(reconcile=ReconcileConfig(answer_key=False))
    result = Attributor(config).attribute(answer, SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [
        (1, "wrong_source"),
        (2, "wrong_source"),
    ]


def test_a_list_that_agrees_with_the_registry_changes_nothing(attributor: Attributor) -> None:
    # the list numbers the blog 1 as the registry does: "Frankfurt [1]" cites the wrong page
    answer = f"{TEXT}\n\nSources:\n[1] {BLOG_URL}\n[2] {DOCS_URL}\n"
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
        f"[^1]: {DOCS_URL}\n[^2]: Dublin launch\n[^3]: {NEWS_URL}\n"
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
        f"[^2]: {DOCS_URL}\n[^1]: Dublin launch\n[^3]: {NEWS_URL}\n"
    )


def test_a_page_not_given_keeps_its_mark_when_asked(attributor: Attributor) -> None:
    answer = (
        "Orion runs in Frankfurt [1]. Sydney opens next year [3].\n\n"
        f"[1]: {DOCS_URL}\n[3]: {NEWS_URL}\n"
    )
    keep = attributor.with_config(AttributionConfig(reconcile=ReconcileConfig(drop_unknown=False)))
    result = keep.attribute(answer, SOURCES)
    assert [(m.marker, m.number, m.verdict) for m in result.markers] == [
        ("[1]", 2, "supported"),
        ("[3]", 3, "unknown_number"),
    ]
    assert result.answer == (
        "Orion runs in Frankfurt [2]. Sydney opens next year [3].\n\n"
        f"[2]: {DOCS_URL}\n[3]: {NEWS_URL}\n"
    )
    # kept as written, the page's "[2]" would read as the docs (now [2]): the key is not followed
    collides = answer.replace("[3]", "[2]")
    assert keep.attribute(collides, SOURCES).answer == collides


def test_a_definition_whose_number_a_source_takes_stops_being_one(
    attributor: Attributor,
) -> None:
    # the answer's 1 is the registry's 2; the answer's own 2 is a page outside the request:
    # its definition must not stay "[2]:", or the rewritten "[2]" would link to that page
    answer = (
        "Orion runs in Frankfurt [1]. Sydney opens next year [2].\n\n"
        f"[1]: {DOCS_URL}\n[2]: {NEWS_URL}\n"
    )
    result = attributor.attribute(answer, SOURCES)
    assert result.answer == (
        f"Orion runs in Frankfurt [2]. Sydney opens next year.\n\n[2]: {DOCS_URL}\n{NEWS_URL}\n"
    )


def test_a_page_the_conversation_registered_earlier_is_no_foreign_page(
    attributor: Attributor,
) -> None:
    registry = CitationRegistry()
    news = CitationSource(id="news", type="web", uri=NEWS_URL, title="Sydney")
    for source in (news, *SOURCES):  # news 1, blog 2, docs 3; this request brings no news
        registry.register_source(source)
    answer = (
        "Orion runs in Frankfurt [1]. Sydney opens next year [2].\n\n"
        f"[1]: {DOCS_URL}\n[2]: {NEWS_URL}\n"
    )
    result = attributor.attribute(answer, SOURCES, registry)
    assert [(m.number, m.verdict) for m in result.markers] == [
        (3, "supported"),
        (1, "unverifiable"),
    ]
    assert result.answer.startswith("Orion runs in Frankfurt [3]. Sydney opens next year [1].")


def _key(answer: str, sources: list[CitationSource] = SOURCES) -> AnswerKey | None:
    keyed = [KeyedSource(number=n, uri=s.uri, title=s.title) for n, s in enumerate(sources, 1)]
    return answer_key(answer, Segmenter().segment(answer), find_markers(answer), keyed)


@pytest.mark.parametrize(
    "tail",
    [
        "Sources:\n[1] Orion Regions Overview\n[2] [Dublin launch](http://www.blog.example.com/dublin/)",
        f"References:\n- [1] Orion Regions Overview, docs.example.com\n- [2] {BLOG_URL}.",
        "Sources:\n【1】 docs.example.com/regions\n【2】 https://blog.example.com/dublin",
        "[1]: <https://docs.example.com/regions#top>\n[2]: https://BLOG.example.com/dublin",
        f'[1]: {DOCS_URL} "Regions"\r\n[2]: {BLOG_URL}\r\n',
        # a key on one line; labels in bold; full-width brackets
        f"Sources: [1] {DOCS_URL}, [2] {BLOG_URL}",
        f"**Sources:** [1] Orion Regions Overview; [2] Dublin launch, {BLOG_URL}",
        f"References: 【1†Regions】 {DOCS_URL} · 【2】 {BLOG_URL}",
        f"**Sources**\n- **[1]** [Regions]({DOCS_URL})\n- **[2]** [Blog]({BLOG_URL})",
        f"**[1]** {DOCS_URL}\n**[2]** {BLOG_URL}",
        f"Sources:\n［1］ {DOCS_URL}\n［2］ {BLOG_URL}",
        # labels with a word, as RAG tools write them
        f"[doc1]: {DOCS_URL}\n[doc2]: {BLOG_URL}",
        f"Sources: [Source 1] Regions, {DOCS_URL} [Source 2] {BLOG_URL}",
    ],
)
def test_entries_in_the_forms_models_write(tail: str) -> None:
    key = _key(f"{TEXT}\n\n{tail}\n")
    assert key is not None
    assert dict(key.numbers) == {1: 2, 2: 1}
    assert not key.foreign


@pytest.mark.parametrize(
    "answer",
    [
        TEXT,  # no entry
        f"{TEXT}\n\n[1]: https://a.example.net/x\n[2]: https://b.example.net/y\n",  # none named
        f"{TEXT}\n\n```\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n```\n",  # in a fence
        f"{TEXT}\n\nConfig:\n\n    [1]: {DOCS_URL}\n    [2]: {BLOG_URL}\n\nDone.",  # indented code
        f"{TEXT}\n\n<!--\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n-->\n",  # a comment
        # a numbered list keeps its numbers (markdown numbers a list from its first item), so
        # its markers cannot be written as the sources' numbers beside it
        f"{TEXT}\n\nSources:\n1. [Regions]({DOCS_URL})\n2. [Dublin launch]({BLOG_URL})\n",
        f"{TEXT}\n\nSources:\n- [1]({DOCS_URL})\n- [2]({BLOG_URL})\n",
        # entry 2 names nothing: following the key for [1] only would mix two numberings
        f"{TEXT}\n\nSources:\n[1] {DOCS_URL}\n[2] Orion docs: regions page\n",
        f"{TEXT}\n\n[1]: {DOCS_URL}\n",  # [2] has no entry
        f"{TEXT}\n\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n[2]: {NEWS_URL}\n",  # 2 is two pages
        # a reference-style link goes through a definition: it keeps its label
        f"See [the docs][1]. {TEXT}\n\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n",
    ],
)
def test_what_is_no_key(answer: str) -> None:
    assert _key(answer) is None


def test_sources_without_addresses_or_titles_cannot_be_named() -> None:
    bare = [CitationSource(id=s.id, type="web", full_content=s.full_content) for s in SOURCES]
    assert _key(f"{TEXT}\n\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n", bare) is None


def test_a_short_title_names_a_source_only_alone() -> None:
    short = [BLOG, msgspec.structs.replace(DOCS, title="Regions")]
    key = _key(f"{TEXT}\n\n[1]: Regions\n[2]: Dublin launch\n", short)
    assert key is not None
    assert dict(key.numbers) == {1: 2, 2: 1}
    # "Regions" inside a longer entry is no match
    assert _key(f"{TEXT}\n\n[1]: Regions of the Roman Empire\n[2]: Dublin launch\n", short) is None
    # a title of twelve characters or more names its source inside an entry
    key = _key(f"{TEXT}\n\n[1]: Orion Regions Overview (docs)\n[2]: Dublin launch\n")
    assert key is not None
    assert dict(key.numbers) == {1: 2, 2: 1}


def test_translated_markers_list_their_numbers_in_order() -> None:
    answer = f"Orion runs in Frankfurt and Dublin [1-2].\n\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n"
    key = _key(answer)
    assert key is not None
    markers, _, foreign = key.translate(find_markers(answer), [])
    assert (markers[0].numbers, foreign) == ((1, 2), frozenset())


def test_the_same_page_spelled_another_way() -> None:
    # a query, a language segment or an ending such as .html: the same page
    for docs in (f"{DOCS_URL}?lang=en", "https://docs.example.com/en/regions.html"):
        key = _key(f"{TEXT}\n\n[1] Orion Regions Overview, {docs}\n[2] {BLOG_URL}\n")
        assert key is not None
        assert dict(key.numbers) == {1: 2, 2: 1}
    # another page of the same site, or a short link, is another page whatever its title says
    for other in ("https://docs.example.com/pricing", "https://bit.ly/x"):
        key = _key(f"{TEXT}\n\n[1] {DOCS_URL}\n[2] Dublin launch, {other}\n")
        assert key is not None
        assert (dict(key.numbers), key.foreign) == ({1: 2}, {2})


def test_a_name_with_a_dot_is_no_address() -> None:
    filing = CitationSource(
        id="sec",
        type="web",
        uri="https://www.sec.gov/a/10k.htm",
        title="Amazon.com, Inc. Form 10-K",
    )
    answer = "Revenue grew [1]. Its Dublin region launched in March 2024 [2].\n\n"
    key = _key(f"{answer}[1]: Amazon.com, Inc. Form 10-K\n[2]: {BLOG_URL}\n", [BLOG, filing])
    assert key is not None
    assert dict(key.numbers) == {1: 2, 2: 1}


def test_adjacent_markers_are_no_reference_link() -> None:
    key = _key(f"Orion runs in Frankfurt [1][2].\n\n[1]: {DOCS_URL}\n[2]: {BLOG_URL}\n")
    assert key is not None
    assert dict(key.numbers) == {1: 2, 2: 1}


def test_a_key_that_only_makes_numbers_foreign_is_not_followed(attributor: Attributor) -> None:
    # the answer already uses the conversation's numbers; its entry 2 spells the docs'
    # address another way: reading 2 as a page not given would drop a right citation
    answer = (
        "Its Dublin region launched in March 2024 [1]. Orion runs in Frankfurt [2].\n\n"
        f"Sources:\n[1] {BLOG_URL}\n[2] Regions page, https://docs.example.com/en/regions.html\n"
    )
    assert _key(answer) is None
    result = attributor.attribute(answer, SOURCES)
    assert [m.verdict for m in result.markers] == ["supported", "supported"]
    assert result.answer == answer


def test_an_entry_no_marker_cites_does_not_stop_the_key() -> None:
    news = CitationSource(id="news", type="web", uri=NEWS_URL, title="Sydney")
    three = [BLOG, news, DOCS]  # the docs are 3
    # "[3] Orion pricing page" names nothing and no marker cites it; the answer's 1 becomes 3,
    # so that entry's label goes (two entries labelled 3 would point at two pages)
    answer = f"Orion runs in Frankfurt [1].\n\nSources:\n[1] {DOCS_URL}\n[3] Orion pricing page\n"
    key = _key(answer, three)
    assert key is not None
    assert (dict(key.numbers), key.foreign) == ({1: 3}, {3})
    # a note among footnote definitions, alike: "[^3]:" would define the rewritten "[^3]"
    notes = (
        f"Orion runs in Frankfurt[^1].\n\n[^3]: All figures as of June 2024.\n[^1]: {DOCS_URL}\n"
    )
    key = _key(notes, three)
    assert key is not None
    assert [notes[a:b] + "->" + text for a, b, text in key.edits] == ["[^3]: ->", "[^1]:->[^3]:"]


def test_another_page_of_a_site_is_another_page() -> None:
    video = CitationSource(
        id="v", type="web", uri="https://www.youtube.com/watch?v=AAA", title="Keynote"
    )
    key = _key(
        f"{TEXT}\n\n[1] {DOCS_URL}\n[2] Orion keynote, https://youtube.com/watch?v=BBB\n",
        [video, DOCS],
    )
    assert key is not None
    assert (dict(key.numbers), key.foreign) == ({1: 2}, {2})


def test_a_title_names_a_source_only_where_an_entry_begins_with_it() -> None:
    home = CitationSource(id="h", type="web", title="Orion Documentation")
    regions = CitationSource(id="r", type="web", title="Regions - Orion Documentation")
    entries = "[1] Regions - Orion Documentation\n[2] Pricing - Orion Documentation\n"
    answer = f"{TEXT}\n\nSources:\n{entries}"
    assert _key(answer, [home, regions]) is None  # 2 names neither: the key is not followed
    note = f"{TEXT}\n\n[1]: {DOCS_URL}\n[2]: Before the Dublin launch, Frankfurt was alone.\n"
    assert _key(note) is None
    # a title with a slash is no address
    guide = CitationSource(id="g", type="web", title="Node.js/Express Routing Guide")
    key = _key(f"{TEXT}\n\n[1]: {DOCS_URL}\n[2]: Node.js/Express Routing Guide\n", [guide, DOCS])
    assert key is not None
    assert dict(key.numbers) == {1: 2, 2: 1}


def test_a_foreign_label_the_conversation_numbers_otherwise_goes() -> None:
    news = CitationSource(id="news", type="web", uri=NEWS_URL, title="Sydney")
    three = [news, DOCS, BLOG]  # the blog is 3: a "[3]" the engine adds must not link elsewhere
    answer = "Orion runs in Frankfurt [1]. It serves Ireland [3].\n\n"
    answer += f"[1]: {DOCS_URL}\n[3]: https://elsewhere.example.net/ireland\n"
    key = _key(answer, three)
    assert key is not None
    assert (dict(key.numbers), key.foreign) == ({1: 2}, {3})
    assert [answer[a:b] + "->" + text for a, b, text in key.edits] == ["[1]:->[2]:", "[3]: ->"]


def test_a_key_on_one_line_is_rewritten_and_is_no_claim(attributor: Attributor) -> None:
    tail = f"**Sources:** [1] Orion Regions Overview, {DOCS_URL} [2] Dublin launch, {BLOG_URL}"
    result = attributor.attribute(f"{TEXT}\n\n{tail}\n", SOURCES)
    assert _checks(result) == [
        ("[1]", 2, "supported", "docs"),
        ("[2]", 1, "supported", "blog"),
    ]
    assert result.answer.endswith(
        f"**Sources:** [2] Orion Regions Overview, {DOCS_URL} [1] Dublin launch, {BLOG_URL}\n"
    )
    assert [c.text for c in result.claims] == TEXT.replace(". ", ".\n").splitlines()


def test_a_title_after_a_dagger_stays_when_its_number_changes(attributor: Attributor) -> None:
    answer = (
        "Orion runs in Frankfurt 【1†Orion Regions Overview】. Its Dublin region launched in"
        f" March 2024 【2†Dublin launch】.\n\nSources:\n【1†Orion Regions Overview】 {DOCS_URL}\n"
        f"【2†Dublin launch】 {BLOG_URL}\n"
    )
    result = attributor.attribute(answer, SOURCES)
    assert [(m.number, m.verdict) for m in result.markers] == [(2, "supported"), (1, "supported")]
    swapped = answer.replace("【1†", "【x†").replace("【2†", "【1†").replace("【x†", "【2†")
    assert result.answer == swapped
