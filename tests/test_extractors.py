"""The built-in extractors on outputs shaped like the real tools', and on broken ones."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import attribution.sources._extractors as extractors_module
from attribution._wire import SOURCE_TYPES, CitationSource, ToolOutput, decode_json
from attribution.sources._extractors import (
    ExtractionResult,
    ExtractorRegistry,
    Warn,
    default_extractors,
    extract_sources,
)
from attribution.sources._extractors._shapes import (
    MAX_RENDER_DEPTH,
    MAX_RENDERED_CHARS,
    MAX_REPR_CHARS,
    MAX_REPR_ITEMS,
    parse_python_repr,
    to_json_text,
)
from attribution.sources._extractors._stores import store_records
from attribution.sources._keys import content_key

EXAMPLES = Path(__file__).resolve().parent.parent / "attribution" / "examples" / "tool_outputs.json"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tool_outputs"


def run(tool_name: str, output: Any, **parameters: Any) -> ExtractionResult:
    """Extract one call with the default extractors."""
    call = ToolOutput(
        tool_name=tool_name, output=output, tool_request_id="req-1", parameters=parameters
    )
    return extract_sources([call])


def reasons(result: ExtractionResult) -> list[str]:
    return [w.reason for w in result.warnings]


def ids(result: ExtractionResult) -> list[str]:
    return [s.id for s in result.sources]


def only(result: ExtractionResult) -> CitationSource:
    assert result.warnings == (), reasons(result)
    assert len(result.sources) == 1, ids(result)
    return result.sources[0]


# --- the registry itself ---------------------------------------------------------------------


def test_default_registry_snapshot() -> None:
    assert default_extractors.patterns() == {
        "generic.v1": r".+",
        "web_search.v1": (
            r"web_search|search_web|google_search|bing_search|brave_search|brave_web_search"
            r"|tavily_search(_results(_json)?)?|serper(_search)?|serpapi(_search)?"
            r"|duckduckgo_search|duckduckgo_results_json|exa_search"
        ),
        "web_scrape.v1": (
            r"web_scrape|scrape(_url|_page|_website)?|fetch(_url|_page|_webpage)?|browse(_page)?"
            r"|read_url|crawl(_page)?|firecrawl_(scrape|crawl)"
        ),
        "wikipedia_search.v1": r"wikipedia(_search)?|search_wikipedia|wiki_search",
        "http_client.v1": r"http_client|http_request|http_get|http_fetch|api_request|requests_get",
        "rag.v1": (
            r"query_rag_project|query_rag|rag_query|rag_search|retrieve|retrieve_documents"
            r"|vector_search|search_documents|query_documents|query_index"
        ),
        "knowledge_base.v1": r"search_knowledge_base|kb_search|search_kb|query_knowledge_base",
        "kb_document.v1": (
            r"read_document|get_document|fetch_document|read_kb_document|get_kb_document"
            r"|read_knowledge_base_document|get_knowledge_base_document"
        ),
        "connector.v1": (
            r"search_connectors?|connector_search|get_connector_item|read_connector_item"
            r"|list_connector_items|connector_[a-z0-9_]+"
        ),
        "chat_turn.v1": (
            r"search_chat_history|chat_history|search_conversations?|get_chat_turns?|read_thread"
            r"|get_thread|search_messages"
        ),
        "anon_upload.v1": (
            r"search_uploads?|query_uploads?|search_attachments?|read_attachment"
            r"|search_uploaded_files|query_uploaded_files"
        ),
        "mcp.v1": r"mcp(?:\.|__)[^.]+?__.+",
    }


# One tool name per built-in, and the extractor that must handle it.
TOOL_NAMES = {
    "web_search": "web_search.v1",
    "Tavily_Search": "web_search.v1",
    "serper": "web_search.v1",
    "fetch_url": "web_scrape.v1",
    "firecrawl_scrape": "web_scrape.v1",
    "wikipedia": "wikipedia_search.v1",
    "http_get": "http_client.v1",
    "query_rag_project": "rag.v1",
    "search_knowledge_base": "knowledge_base.v1",
    "read_document": "kb_document.v1",
    "connector_google_drive": "connector.v1",
    "search_connectors": "connector.v1",
    "read_thread": "chat_turn.v1",
    "search_uploads": "anon_upload.v1",
    "mcp.github__search_code": "mcp.v1",
    "mcp__brave-search__brave_web_search": "mcp.v1",
    "my_own_tool": "generic.v1",
    "mcp.no_double_underscore": "generic.v1",
    "mcp__no_server": "generic.v1",
    "web_search_v2": "generic.v1",
}


@pytest.mark.parametrize(("tool_name", "extractor"), TOOL_NAMES.items())
def test_tool_names_reach_their_extractor(tool_name: str, extractor: str) -> None:
    found = default_extractors.find(tool_name)
    assert found is not None
    assert found.name == extractor


def test_public_names_are_sorted_and_exported() -> None:
    assert extractors_module.__all__ == sorted(extractors_module.__all__)
    assert set(extractors_module.__all__) == {
        "unsafe_scheme",
        "ExtractionResult",
        "ExtractionWarning",
        "Extractor",
        "ExtractorFn",
        "ExtractorRegistry",
        "Warn",
        "default_extractors",
        "extract_sources",
        "made_safe",
        "merge_sightings",
    }
    for name in extractors_module.__all__:
        assert hasattr(extractors_module, name)


def test_user_extractor_on_a_copy_overrides_the_builtin_only_there() -> None:
    registry = default_extractors.copy()

    @registry.register("my_web_search.v1", pattern=r"web_search")
    def my_search(call: ToolOutput, warn: Warn) -> list[CitationSource]:
        return [CitationSource(id="api:mine", type="api", tool_name=call.tool_name)]

    call = ToolOutput(tool_name="web_search", output=[{"url": "https://example.com"}])
    assert ids(extract_sources([call], registry=registry)) == ["api:mine"]
    assert ids(extract_sources([call])) == ["web_result:https://example.com"]
    assert "my_web_search.v1" not in default_extractors.names()


def test_extractor_that_raises_becomes_a_warning_and_spares_the_batch() -> None:
    registry = default_extractors.copy()

    @registry.register("broken.v1", pattern=r"broken_tool")
    def broken(call: ToolOutput, warn: Warn) -> Iterable[CitationSource]:
        raise KeyError("results")

    result = extract_sources(
        [
            ToolOutput(tool_name="broken_tool", output={}),
            ToolOutput(tool_name="web_search", output=[{"url": "https://example.com/a"}]),
        ],
        registry=registry,
    )
    assert ids(result) == ["web_result:https://example.com/a"]
    assert len(result.warnings) == 1
    assert result.warnings[0].extractor == "broken.v1"
    assert result.warnings[0].reason == "extractor failed: KeyError: 'results'"


def test_extractor_returning_something_else_than_sources_is_a_warning() -> None:
    registry = ExtractorRegistry()

    @registry.register("sloppy.v1", pattern=r".+")
    def sloppy(call: ToolOutput, warn: Warn) -> list[Any]:
        return [
            {"id": "x", "type": "api"},
            CitationSource(id="", type="api"),
            CitationSource(id="web_result:https://a.org", type="web_result", uri="https://a.org"),
        ]

    result = extract_sources([ToolOutput(tool_name="t", output="x")], registry=registry)
    assert ids(result) == ["web_result:https://a.org"]
    assert reasons(result) == [
        "extractor returned an invalid source (item 1): a dict, not a CitationSource",
        "extractor returned an invalid source (item 2): its id is empty",
    ]


# --- web search ------------------------------------------------------------------------------

SERPER = {
    "searchParameters": {"q": "james webb telescope", "type": "search", "engine": "google"},
    "knowledgeGraph": {"title": "James Webb Space Telescope", "type": "Space telescope"},
    "organic": [
        {
            "title": "James Webb Space Telescope - Wikipedia",
            "link": "https://en.wikipedia.org/wiki/James_Webb_Space_Telescope",
            "snippet": "The James Webb Space Telescope (JWST) is a space telescope designed to "
            "conduct infrared astronomy.",
            "position": 1,
        },
        {
            "title": "Webb - NASA Science",
            "link": "https://science.nasa.gov/mission/webb/",
            "snippet": "Webb is the premier space science observatory of the next decade.",
            "sitelinks": [{"title": "Images", "link": "https://science.nasa.gov/webb/images"}],
            "position": 2,
        },
    ],
}

SERPAPI = {
    "search_metadata": {"id": "6621", "status": "Success"},
    "organic_results": [
        {
            "position": 1,
            "title": "ESA - Webb",
            "link": "https://www.esa.int/Science_Exploration/Space_Science/Webb",
            "displayed_link": "https://www.esa.int › Science_Exploration › Webb",
            "snippet": "Webb launched on 25 December 2021 on an Ariane 5 from Kourou.",
        }
    ],
}

BRAVE = {
    "type": "search",
    "query": {"original": "jwst mirror"},
    "web": {
        "type": "search",
        "results": [
            {
                "title": "Mirrors - Webb/NASA",
                "url": "https://webb.nasa.gov/content/observatory/ote/mirrors/index.html",
                "description": "The primary mirror is made of 18 hexagonal <strong>beryllium"
                "</strong> segments.",
                "profile": {"name": "NASA"},
            }
        ],
    },
}

TAVILY = {
    "query": "jwst orbit",
    "answer": None,
    "results": [
        {
            "title": "Where is Webb?",
            "url": "https://science.nasa.gov/mission/webb/orbit",
            "content": "Webb orbits the Sun near the second Lagrange point (L2).",
            "raw_content": "Webb orbits the Sun near the second Lagrange point (L2), about "
            "1.5 million km from Earth.",
            "score": 0.93,
        }
    ],
    "response_time": 1.2,
}


def test_serper_organic_results() -> None:
    result = run("serper", SERPER, q="james webb telescope")
    assert result.warnings == ()
    assert ids(result) == [
        "web_result:https://en.wikipedia.org/wiki/James_Webb_Space_Telescope",
        "web_result:https://science.nasa.gov/mission/webb",
    ]
    first = result.sources[0]
    assert first.type == "web_result"
    assert first.title == "James Webb Space Telescope - Wikipedia"
    assert first.domain == "en.wikipedia.org"
    assert first.snippet is not None
    assert first.snippet.startswith("The James Webb Space Telescope (JWST)")
    assert first.tool_name == "serper"
    assert first.tool_request_id == "req-1"
    assert first.full_content is None


def test_serpapi_organic_results() -> None:
    source = only(run("serpapi_search", SERPAPI))
    assert source.id == "web_result:https://www.esa.int/Science_Exploration/Space_Science/Webb"
    assert source.domain == "esa.int"


def test_brave_web_results_nested() -> None:
    source = only(run("brave_search", BRAVE))
    assert source.uri == "https://webb.nasa.gov/content/observatory/ote/mirrors/index.html"
    assert source.snippet is not None
    assert "18 hexagonal" in source.snippet


def test_tavily_raw_content_is_the_full_content() -> None:
    source = only(run("tavily_search", TAVILY))
    assert source.snippet == "Webb orbits the Sun near the second Lagrange point (L2)."
    assert source.full_content is not None
    assert source.full_content.endswith("1.5 million km from Earth.")


def test_bare_list_and_json_string_give_the_same_sources() -> None:
    listing = SERPER["organic"]
    as_list = run("google_search", listing)
    as_text = run("google_search", json.dumps(listing))
    as_bytes = run("google_search", json.dumps(SERPER).encode())
    assert as_list.sources == as_text.sources == as_bytes.sources
    assert len(as_list.sources) == 2


def test_markdown_listing() -> None:
    text = (
        "Here are the top results for 'jwst launch':\n\n"
        "1. [Webb launch - ESA](https://www.esa.int/Webb/launch)\n"
        "   Webb lifted off on 25 December 2021 from Europe's Spaceport.\n"
        "   The launch was on an Ariane 5.\n\n"
        "2. **[NASA's Webb Telescope Launches](https://www.nasa.gov/webb-launch/)** - "
        "NASA's James Webb Space Telescope launched at 7:20 a.m. EST.\n"
    )
    result = run("web_search", text)
    assert result.warnings == ()
    assert [s.title for s in result.sources] == [
        "Webb launch - ESA",
        "NASA's Webb Telescope Launches",
    ]
    assert [s.snippet for s in result.sources] == [
        "Webb lifted off on 25 December 2021 from Europe's Spaceport.\n"
        "The launch was on an Ariane 5.",
        "NASA's James Webb Space Telescope launched at 7:20 a.m. EST.",
    ]
    assert result.sources[1].id == "web_result:https://www.nasa.gov/webb-launch"


def test_labelled_listing() -> None:
    text = (
        "Title: James Webb Space Telescope\n"
        "URL: https://en.wikipedia.org/wiki/James_Webb_Space_Telescope\n"
        "Snippet: JWST is the largest optical telescope in space.\n\n"
        "Title: Webb's orbit\n"
        "Link: https://science.nasa.gov/mission/webb/orbit\n"
        "Description: It orbits L2, 1.5 million km away.\n"
    )
    result = run("bing_search", text)
    assert result.warnings == ()
    assert [(s.title, s.uri, s.snippet) for s in result.sources] == [
        (
            "James Webb Space Telescope",
            "https://en.wikipedia.org/wiki/James_Webb_Space_Telescope",
            "JWST is the largest optical telescope in space.",
        ),
        (
            "Webb's orbit",
            "https://science.nasa.gov/mission/webb/orbit",
            "It orbits L2, 1.5 million km away.",
        ),
    ]


def test_one_broken_result_does_not_drop_its_siblings() -> None:
    output = {
        "results": [
            {"title": "Good", "url": "https://example.com/good", "snippet": "fine"},
            {"title": "No address", "url": 17, "snippet": None},
            "just a string",
            None,
            {"title": "Text only", "content": "evidence without an address"},
            {"title": "Relative", "url": "/wiki/Thing", "snippet": "relative link"},
            {"title": "Blank", "url": "https://example.com/blank", "snippet": "   "},
        ]
    }
    result = run("web_search", output)
    assert ids(result) == [
        "web_result:https://example.com/good",
        content_key("web_result", "evidence without an address"),
        content_key("web_result", "relative link"),
        "web_result:https://example.com/blank",  # a link without text is still a citable result
    ]
    assert reasons(result) == [
        "result 2 has no url and no text; skipped",
        "result 3 is text without a URL; skipped",
        "result 4 is a null, not an object; skipped",
        "result 5 has no url; kept, identified by its text",
        "result 6 has a url that is not http(s) ('/wiki/Thing'); kept as given",
    ]


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        (None, "output is empty"),
        ("", "output is empty"),
        ("   \n", "output is empty"),
        ({"results": []}, "output has an empty list of results"),
        (
            {"error": "rate limit exceeded"},
            "output (object) reports an error: rate limit exceeded; no sources",
        ),
        ({"answer": 42}, "output (object) has no list of results; no sources"),
        (3.5, "output (number) has no list of results; no sources"),
    ],
)
def test_web_search_malformed_output(output: Any, reason: str) -> None:
    result = run("web_search", output)
    assert result.sources == ()
    assert reasons(result) == [reason]


def test_web_search_text_without_urls_is_one_text_source() -> None:
    # LangChain's DuckDuckGoSearchRun joins the snippets alone: the text is still evidence.
    result = run("duckduckgo_search", "Alpha is first. Beta is second.")
    assert [(s.type, s.uri, s.full_content) for s in result.sources] == [
        ("api", None, "Alpha is first. Beta is second.")
    ]
    assert reasons(result) == [
        "text output lists no results (no http(s) URL found); kept as one text source"
    ]


@pytest.mark.parametrize("bracketed", [False, True])
def test_langchain_duckduckgo_results_string(bracketed: bool) -> None:
    results = [
        ("Owners, borrows: rules ...", "Ref: A, B", "https://a.org/x?a=1,2"),
        ("Second [sic].", "Two", "https://b.org/"),
    ]
    parts = [f"snippet: {s}, title: {t}, link: {u}" for s, t, u in results]
    text = ", ".join(f"[{p}]" if bracketed else p for p in parts)
    result = run("duckduckgo_results_json", text)
    assert result.warnings == ()
    assert [(s.snippet, s.title, s.uri) for s in result.sources] == results


# --- scraping --------------------------------------------------------------------------------

PAGE_TEXT = (
    "Webb lifted off on 25 December 2021 on an Ariane 5 rocket from Europe's Spaceport in "
    "Kourou, French Guiana.\n\nIts primary mirror is 6.5 metres across."
)


def test_scrape_object() -> None:
    source = only(
        run(
            "web_scrape",
            {"url": "https://www.esa.int/Webb", "title": "ESA - Webb", "content": PAGE_TEXT},
        )
    )
    assert source.type == "web"
    assert source.id == "web_result:https://www.esa.int/Webb"
    assert source.full_content == PAGE_TEXT
    assert source.title == "ESA - Webb"
    assert source.domain == "esa.int"


def test_firecrawl_envelope() -> None:
    output = {
        "success": True,
        "data": {
            "markdown": "# Webb\n\n" + PAGE_TEXT,
            "metadata": {
                "title": "Webb - NASA Science",
                "description": "The largest space telescope.",
                "language": "en",
                "sourceURL": "https://science.nasa.gov/mission/webb/",
                "statusCode": 200,
            },
        },
    }
    source = only(run("firecrawl_scrape", output, url="https://science.nasa.gov/mission/webb/"))
    assert source.id == "web_result:https://science.nasa.gov/mission/webb"
    assert source.title == "Webb - NASA Science"
    assert source.snippet == "The largest space telescope."
    assert source.full_content == "# Webb\n\n" + PAGE_TEXT


def test_plain_text_scrape_takes_its_url_from_the_parameters() -> None:
    source = only(run("fetch_url", PAGE_TEXT, url="https://www.esa.int/Webb#top"))
    assert source.uri == "https://www.esa.int/Webb#top"
    assert source.id == "web_result:https://www.esa.int/Webb"
    assert source.full_content == PAGE_TEXT


def test_crawl_of_several_pages_keeps_the_good_ones() -> None:
    output = {
        "status": "completed",
        "data": [
            {"markdown": "Page one text.", "metadata": {"sourceURL": "https://a.org/1"}},
            {"markdown": "", "metadata": {"sourceURL": "https://a.org/2"}},
            {"markdown": "Gone.", "metadata": {"sourceURL": "https://a.org/3", "statusCode": 404}},
        ],
    }
    result = run("firecrawl_crawl", output)
    assert ids(result) == ["web_result:https://a.org/1"]
    assert reasons(result) == [
        "page 2 has no text (content/markdown/text/html); skipped",
        "page 3 https://a.org/3 returned HTTP 404; skipped",
    ]


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        (None, "output is empty"),
        (
            {"success": False, "error": "Request timed out"},
            "page reports an error: Request timed out; skipped",
        ),
        (
            {"url": "https://a.org", "content": 12},
            "page has no text (content/markdown/text/html); skipped",
        ),
        (["fine text", 7], "page 2 is a number, not an object or text; skipped"),
    ],
)
def test_scrape_malformed_output(output: Any, reason: str) -> None:
    result = run("scrape", output, url="https://a.org")
    assert reason in reasons(result)


def test_scrape_without_any_url_is_kept_by_its_text() -> None:
    result = run("read_url", "Some page text.")
    assert ids(result) == [content_key("web", "Some page text.")]
    assert reasons(result) == [
        "page has no url and the call has no url parameter; kept, identified by its text"
    ]


def test_one_page_with_a_list_field_is_still_one_page() -> None:
    output = {
        "url": "https://a.org/webb",
        "content": "Webb text.",
        "items": [{"url": "https://a.org/link", "text": "a link on the page"}],
    }
    assert ids(run("web_scrape", output)) == ["web_result:https://a.org/webb"]


# --- search + scrape of the same page --------------------------------------------------------


def test_search_and_scrape_of_one_page_merge_into_one_source() -> None:
    calls = [
        ToolOutput(
            tool_name="web_search",
            tool_request_id="s1",
            output={
                "results": [
                    {
                        "title": "ESA - Webb",
                        "url": "https://www.esa.int/Science_Exploration/Space_Science/Webb/",
                        "snippet": "Webb launched on an Ariane 5.",
                    },
                    {"title": "Other", "url": "https://other.org/x", "snippet": "x"},
                ]
            },
        ),
        ToolOutput(
            tool_name="web_scrape",
            tool_request_id="s2",
            parameters={
                "url": "HTTPS://WWW.ESA.INT/Science_Exploration/Space_Science/Webb"
                "?utm_source=newsletter&utm_medium=email#launch"
            },
            output=PAGE_TEXT,
        ),
    ]
    result = extract_sources(calls)
    assert result.warnings == ()
    assert ids(result) == [
        "web_result:https://www.esa.int/Science_Exploration/Space_Science/Webb",
        "web_result:https://other.org/x",
    ]
    merged = result.sources[0]
    assert merged.snippet == "Webb launched on an Ariane 5."
    assert merged.full_content == PAGE_TEXT
    assert merged.title == "ESA - Webb"
    assert merged.tool_request_id == "s1"  # the first sighting keeps its provenance


# --- Wikipedia -------------------------------------------------------------------------------


def test_wikipedia_langchain_text() -> None:
    text = (
        "Page: James Webb Space Telescope\n"
        "Summary: The James Webb Space Telescope (JWST) is a space telescope designed to "
        "conduct infrared astronomy.\nIt was launched on 25 December 2021.\n\n"
        "Page: Lagrange point\n"
        "Summary: In celestial mechanics, the Lagrange points are points of equilibrium."
    )
    result = run("wikipedia", text)
    assert result.warnings == ()
    assert [s.uri for s in result.sources] == [
        "https://en.wikipedia.org/wiki/James_Webb_Space_Telescope",
        "https://en.wikipedia.org/wiki/Lagrange_point",
    ]
    assert result.sources[0].snippet is not None
    assert result.sources[0].snippet.endswith("It was launched on 25 December 2021.")
    assert result.sources[0].type == "web_result"


def test_wikipedia_mediawiki_pages_and_language() -> None:
    output = {
        "batchcomplete": "",
        "query": {
            "pages": {
                "434221": {
                    "pageid": 434221,
                    "title": "Télescope spatial James-Webb",
                    "extract": "Le télescope spatial James-Webb est un observatoire spatial.",
                },
                "-1": {"title": "Missing page", "missing": ""},
            }
        },
    }
    result = run("search_wikipedia", output, lang="fr")
    assert [s.uri for s in result.sources] == [
        "https://fr.wikipedia.org/wiki/T%C3%A9lescope_spatial_James-Webb"
    ]
    assert result.sources[0].full_content == (
        "Le télescope spatial James-Webb est un observatoire spatial."
    )
    assert reasons(result) == ["page 2 (Missing page) has no text; skipped"]


def test_wikipedia_search_snippets_lose_their_markup() -> None:
    output = {
        "query": {
            "search": [
                {
                    "title": "James Webb Space Telescope",
                    "pageid": 434221,
                    "snippet": 'The <span class="searchmatch">James</span> Webb Space '
                    "Telescope &amp; its mirror",
                }
            ]
        }
    }
    source = only(run("wiki_search", output))
    assert source.snippet == "The James Webb Space Telescope & its mirror"


def test_wikipedia_page_objects_with_urls() -> None:
    output = [
        {
            "title": "Ariane 5",
            "summary": "Ariane 5 is a retired European heavy-lift launch vehicle.",
            "url": "https://en.wikipedia.org/wiki/Ariane_5",
        }
    ]
    source = only(run("wikipedia_search", output))
    assert source.id == "web_result:https://en.wikipedia.org/wiki/Ariane_5"


def test_wikipedia_no_result() -> None:
    result = run("wikipedia", "No good Wikipedia Search Result was found")
    assert result.sources == ()
    assert reasons(result) == ["text output has no 'Page: <title>' entries; no sources"]


# --- HTTP ------------------------------------------------------------------------------------


def test_http_json_body_is_pretty_printed() -> None:
    output = {
        "status": 200,
        "url": "https://api.example.org/v1/missions/jwst",
        "headers": {"content-type": "application/json"},
        "body": '{"name": "JWST", "launch": "2021-12-25", "mirror_m": 6.5}',
    }
    source = only(run("http_get", output))
    assert source.type == "api"
    assert source.id == "api:https://api.example.org/v1/missions/jwst"
    assert source.full_content == (
        '{\n  "name": "JWST",\n  "launch": "2021-12-25",\n  "mirror_m": 6.5\n}'
    )
    assert source.domain == "api.example.org"
    assert source.title == "GET https://api.example.org/v1/missions/jwst"


def test_http_body_object_url_from_parameters() -> None:
    output = {"status_code": "200", "headers": {}, "json": {"segments": 18}}
    source = only(run("http_request", output, url="https://api.example.org/mirror"))
    assert source.uri == "https://api.example.org/mirror"
    assert source.full_content == '{\n  "segments": 18\n}'


def test_http_post_is_keyed_by_its_text() -> None:
    source = only(run("api_request", "created", url="https://api.example.org/x", method="post"))
    assert source.id == content_key("api", "created")
    assert source.title == "POST https://api.example.org/x"


def test_http_output_without_envelope_is_the_body() -> None:
    source = only(run("requests_get", {"data": [1, 2]}, url="https://api.example.org/list"))
    assert source.full_content == '{\n  "data": [\n    1,\n    2\n  ]\n}'


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        (
            {"status": 404, "url": "https://api.example.org/nope", "body": "Not Found"},
            "HTTP 404 from https://api.example.org/nope; no source",
        ),
        ({"status": 503, "body": ""}, "HTTP 503 from https://api.example.org/p; no source"),
        (
            {"status": 204, "headers": {}, "body": None},
            "response from https://api.example.org/p has an empty body; no source",
        ),
        (None, "response from https://api.example.org/p has an empty body; no source"),
    ],
)
def test_http_failures(output: Any, reason: str) -> None:
    result = run("http_client", output, url="https://api.example.org/p")
    assert result.sources == ()
    assert reasons(result) == [reason]


# --- RAG and knowledge base ------------------------------------------------------------------


def test_rag_langchain_documents() -> None:
    output = [
        {
            "page_content": "The primary mirror consists of 18 hexagonal beryllium segments.",
            "metadata": {
                "document_id": "doc-7",
                "chunk_id": 3,
                "source": "https://example.org/jwst-handbook.pdf",
                "page": "12",
                "title": "JWST Handbook",
            },
            "type": "Document",
        },
        {
            "page_content": "Webb orbits the Sun-Earth L2 point.",
            "metadata": {"document_id": "doc-7", "chunk_id": 4, "page": 13},
        },
    ]
    result = run("query_rag_project", output, query="mirror")
    assert result.warnings == ()
    assert ids(result) == ["file:doc-7:3", "file:doc-7:4"]
    first = result.sources[0]
    assert first.type == "file"
    assert first.page_number == 12
    assert first.title == "JWST Handbook"
    assert first.domain == "example.org"
    assert first.full_content == "The primary mirror consists of 18 hexagonal beryllium segments."


def test_rag_langchain_retrieval_chain_source_documents() -> None:
    output = {
        "query": "When did Webb launch?",
        "result": "On 25 December 2021.",
        "source_documents": [
            {"page_content": "Launch: 25 December 2021.", "metadata": {"doc_id": 9, "id": 1}}
        ],
    }
    assert ids(run("retrieve", output)) == ["file:9:1"]


def test_rag_pinecone_matches_and_missing_ids() -> None:
    output = {
        "matches": [
            {
                "id": "c-91",
                "score": 0.82,
                "metadata": {"doc_id": 5, "text": "Launch: 25 December 2021."},
            },
            {"score": 0.5, "metadata": {"text": "No ids at all."}},
            {"id": "c-93", "score": 0.4, "metadata": {"doc_id": 5}},
        ],
        "namespace": "jwst",
    }
    result = run("vector_search", output)
    assert ids(result) == ["file:5:c-91", content_key("file", "No ids at all.")]
    assert reasons(result) == ["chunk 3 has no text (text/content/chunk); skipped"]


def test_knowledge_base_chunks_with_document_id_on_the_container() -> None:
    output = {
        "document_id": 42,
        "chunks": [
            {"chunk_id": 880, "content": "Sunshield: five layers of Kapton.", "pageNumber": 4},
            {"chunk_id": 881, "content": "MIRI operates below 7 K."},
        ],
    }
    result = run("search_knowledge_base", output)
    assert result.warnings == ()
    assert ids(result) == ["kb_chunk:42:880", "kb_chunk:42:881"]
    assert result.sources[0].page_number == 4


def test_chunk_ids_are_never_lent_from_a_listing() -> None:
    # The container's "id" names the response, not each chunk: lending it would merge chunks.
    output = {
        "id": "resp-1",
        "data": [{"document_id": 1, "text": "a"}, {"document_id": 1, "text": "b"}],
    }
    result = run("kb_search", output)
    assert ids(result) == [content_key("kb_chunk", "a"), content_key("kb_chunk", "b")]


def test_kb_document_wrapped_and_from_parameters() -> None:
    wrapped = {"document": {"id": 42, "title": "JWST Mission Fact Sheet", "content": "Full text."}}
    source = only(run("read_document", wrapped))
    assert (source.id, source.type, source.title) == (
        "kb_document:42",
        "kb_document",
        "JWST Mission Fact Sheet",
    )
    from_params = only(run("get_kb_document", "Full text.", document_id=42))
    assert from_params.id == "kb_document:42"


@pytest.mark.parametrize(
    "tool_name", ["query_rag_project", "search_knowledge_base", "read_document"]
)
@pytest.mark.parametrize(
    ("output", "reason"),
    [
        (None, "output is empty"),
        ([], "output is empty"),
        ({"results": []}, "output has an empty list of "),
        (True, "output is a boolean, not "),
        ([{"text": "   "}], " 1 has no text ("),
    ],
)
def test_record_malformed_output(tool_name: str, output: Any, reason: str) -> None:
    result = run(tool_name, output)
    assert result.sources == ()
    assert len(result.warnings) == 1
    assert reason in result.warnings[0].reason


def test_kb_document_with_a_list_of_chunks_is_one_document() -> None:
    output = {"id": 42, "content": "Whole text.", "chunks": [{"id": 1, "text": "Whole"}]}
    assert ids(run("read_document", output)) == ["kb_document:42"]


# --- connectors, chat turns, uploads ---------------------------------------------------------


def test_connector_items() -> None:
    output = {
        "items": [
            {
                "connectorId": "google_drive",
                "externalId": "1AbC",
                "name": "JWST briefing.docx",
                "webUrl": "https://docs.google.com/document/d/1AbC/edit",
                "snippet": "Briefing on the 6.5 m mirror.",
            },
            {"id": "PROJ-12", "subject": "Launch checklist", "body": "Ariane 5 from Kourou."},
            {"id": "PROJ-13", "title": "No content, no link"},
        ]
    }
    result = run("search_connectors", output, connector="jira")
    assert ids(result) == ["connector_item:google_drive:1AbC", "connector_item:jira:PROJ-12"]
    drive, jira = result.sources
    assert drive.snippet == "Briefing on the 6.5 m mirror."
    assert drive.domain == "docs.google.com"
    assert jira.full_content == "Ariane 5 from Kourou."
    assert jira.title == "Launch checklist"
    assert reasons(result) == ["item 3 has no url and no text; skipped"]


def test_connector_listing_without_text_keeps_links() -> None:
    output = [
        {"connector_id": "notion", "id": "p1", "title": "Webb notes", "url": "https://notion.so/p1"}
    ]
    source = only(run("list_connector_items", output))
    assert source.id == "connector_item:notion:p1"
    assert source.text == ""


def test_chat_turns_of_a_thread() -> None:
    output = {
        "thread_id": "t-2024-05",
        "title": "Telescope questions",
        "messages": [
            {"id": "m1", "role": "user", "content": "When did Webb launch?"},
            {
                "id": "m2",
                "role": "assistant",
                "content": [{"type": "text", "text": "On 25 December 2021."}],
            },
            {"id": "m3", "role": "assistant", "content": [{"type": "image_url", "url": "x"}]},
        ],
    }
    result = run("read_thread", output, thread_id="t-2024-05")
    assert ids(result) == ["chat_turn:t-2024-05:m1", "chat_turn:t-2024-05:m2"]
    assert result.sources[1].full_content == "On 25 December 2021."
    assert reasons(result) == ["message 3 has no text (content/text/message); skipped"]


def test_chat_search_hits() -> None:
    output = {
        "hits": {
            "total": 1,
            "hits": [
                {"conversationId": "c9", "messageId": "m4", "text": "L2 is 1.5 million km away."}
            ],
        }
    }
    source = only(run("search_chat_history", output))
    assert source.id == "chat_turn:c9:m4"


def test_upload_chunks() -> None:
    output = [
        {
            "upload_id": "up_1",
            "chunk_index": 0,
            "filename": "webb.pdf",
            "text": "Page one.",
            "page": 1,
        },
        {
            "upload_id": "up_1",
            "chunk_index": 1,
            "filename": "webb.pdf",
            "text": "Page two.",
            "page": 2,
        },
    ]
    result = run("search_uploads", output)
    assert result.warnings == ()
    assert ids(result) == ["anon_chunk:up_1:0", "anon_chunk:up_1:1"]
    assert [s.title for s in result.sources] == ["webb.pdf", "webb.pdf"]


# --- MCP -------------------------------------------------------------------------------------


def test_mcp_call_tool_result_blocks() -> None:
    output = {
        "content": [
            {"type": "text", "text": "Found 2 files mentioning the mirror."},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {
                "type": "resource",
                "resource": {
                    "uri": "file:///repo/docs/mirror.md",
                    "mimeType": "text/markdown",
                    "text": "# Mirror\n18 segments.",
                },
            },
            {
                "type": "resource_link",
                "uri": "https://github.com/spacetelescope/jwst",
                "name": "jwst",
                "title": "spacetelescope/jwst",
                "description": "Python library for JWST data processing.",
            },
            {"type": "resource_link", "uri": "repo://docs/orbit.md", "name": "orbit.md"},
            {
                "type": "search_result",
                "source": "https://webbtelescope.org/news/first-images",
                "title": "Webb's First Images",
                "content": [{"type": "text", "text": "Released on 12 July 2022."}],
            },
        ],
        "isError": False,
    }
    result = run("mcp.github__search_code", output)
    # a file: address is never a source's uri (a UI renders it as a link): said, id kept;
    # the line about the results beside them is none of them
    assert [w.reason for w in result.warnings] == [
        "block 1 is a status line beside the results ('Found 2 files mentioning the mirror.');"
        " skipped",
        "item 1: its address uses the unsafe file: scheme; the address was dropped and the "
        "source kept",
    ]
    assert result.sources[0].uri is None
    assert [(s.type, s.id) for s in result.sources] == [
        ("mcp", "mcp:file:///repo/docs/mirror.md"),
        ("web_result", "web_result:https://github.com/spacetelescope/jwst"),
        ("mcp", "mcp:repo://docs/orbit.md"),
        ("web_result", "web_result:https://webbtelescope.org/news/first-images"),
    ]
    resource, link, _, search = result.sources
    assert resource.title == "github/search_code"
    assert resource.full_content == "# Mirror\n18 segments."
    assert link.snippet == "Python library for JWST data processing."
    assert link.domain == "github.com"
    assert search.snippet == "Released on 12 July 2022."


def test_mcp_embedded_resource_with_web_uri_stays_mcp() -> None:
    output = {
        "content": [
            {
                "type": "resource",
                "resource": {
                    "uri": "https://a.org/page",
                    "text": "Page text.",
                    "mimeType": "text/plain",
                },
            }
        ]
    }
    source = only(run("mcp.fetch__fetch", output))
    assert (source.type, source.id, source.domain) == ("mcp", "mcp:https://a.org/page", "a.org")


def test_mcp_error_result() -> None:
    output = {"content": [{"type": "text", "text": "API rate limit exceeded"}], "isError": True}
    result = run("mcp.github__search_code", output)
    assert result.sources == ()
    assert reasons(result) == ["the tool reported an error (isError): API rate limit exceeded"]


def test_mcp_bare_blocks_and_broken_blocks() -> None:
    output = [
        {"type": "text", "text": "ok"},
        {"type": "resource", "resource": {"uri": "file:///a.bin", "blob": "AAEC"}},
        {"type": "text", "text": "  "},
        {"type": "video", "url": "x"},
        "stray",
    ]
    result = run("mcp.files__read", output)
    assert ids(result) == [content_key("mcp", "ok")]
    assert reasons(result) == [
        "block 2 (resource file:///a.bin) has only binary data (blob); skipped",
        "block 3 (text) is empty; skipped",
        "block 4 has unknown type 'video'; skipped",
        "block 5 is a string, not a content block; skipped",
    ]


def test_mcp_structured_content_only() -> None:
    output = {"content": [], "structuredContent": {"temperature": 22.5}}
    source = only(run("mcp.weather__get", output))
    assert source.full_content == '{\n  "temperature": 22.5\n}'


def test_mcp_plain_text_output() -> None:
    source = only(run("mcp.fetch__fetch", "Contents of the page."))
    assert source.full_content == "Contents of the page."


# --- generic ---------------------------------------------------------------------------------


def test_generic_page_object() -> None:
    output = {"url": "https://blog.example.com/webb", "title": "Webb", "text": "Blog text."}
    source = only(run("my_reader", output))
    assert (source.type, source.id) == ("web", "web_result:https://blog.example.com/webb")


def test_generic_result_listing() -> None:
    output = {"hits": [{"link": "https://a.org/1", "summary": "one"}, {"link": "https://a.org/2"}]}
    result = run("my_search", output)
    assert ids(result) == ["web_result:https://a.org/1", "web_result:https://a.org/2"]


def test_generic_text_and_json() -> None:
    text = only(run("calculator", "6.5 / 2 = 3.25"))
    assert (text.type, text.title, text.full_content) == ("api", "calculator", "6.5 / 2 = 3.25")
    assert text.id == content_key("api", "6.5 / 2 = 3.25")
    obj = only(run("calculator", {"result": 3.25}))
    assert obj.full_content == '{\n  "result": 3.25\n}'


@pytest.mark.parametrize("output", [None, "", " ", [], {}])
def test_generic_empty(output: Any) -> None:
    result = run("my_tool", output)
    assert result.sources == ()
    assert reasons(result) == ["output is empty; no sources"]


# --- the example file ------------------------------------------------------------------------


def test_example_tool_outputs_extract_cleanly() -> None:
    calls = decode_json(EXAMPLES.read_bytes(), list[ToolOutput], what=EXAMPLES.name)
    result = extract_sources(calls)
    assert result.warnings == ()
    types = [s.type for s in result.sources]
    assert types.count("kb_chunk") == 2
    assert "mcp" in types
    # the scraped page (with utm parameters) is the same source as its search result
    esa = [s for s in result.sources if s.domain == "esa.int"]
    assert len(esa) == 1
    assert esa[0].full_content is not None
    assert "Ariane 5" in esa[0].full_content
    assert len(result.sources) == len({s.id for s in result.sources})


# --- any output, any tool --------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "url",
                    "link",
                    "title",
                    "text",
                    "content",
                    "snippet",
                    "results",
                    "data",
                    "metadata",
                    "document_id",
                    "chunk_id",
                    "id",
                    "type",
                    "resource",
                    "uri",
                    "isError",
                    "status",
                    "body",
                    "page",
                    "source",
                    "query",
                    "pages",
                    "web",
                ]
            )
            | st.text(max_size=8),
            children,
            max_size=5,
        )
    ),
    max_leaves=12,
)
outputs = (
    json_values
    | json_values.map(lambda v: json.dumps(v))
    | json_values.map(lambda v: json.dumps(v).encode())
)


@given(tool_name=st.sampled_from(sorted(TOOL_NAMES)), output=outputs)
def test_any_output_yields_valid_sources_and_never_fails(tool_name: str, output: Any) -> None:
    call = ToolOutput(tool_name=tool_name, output=output, tool_request_id="r")
    result = extract_sources([call])
    for warning in result.warnings:
        assert not warning.reason.startswith("extractor failed"), warning.reason
    for source in result.sources:
        assert source.id.strip()
        assert source.type in SOURCE_TYPES
        assert source.tool_name == tool_name
        assert source.tool_request_id == "r"


# --- Python reprs (LangChain's str(results)) ---------------------------------------------------


def test_python_repr_of_documents_becomes_dicts() -> None:
    text = "[Document(id='1', metadata={'source': 'https://a.org/'}, page_content='Hi.')]"
    assert parse_python_repr(text) == [
        {"id": "1", "metadata": {"source": "https://a.org/"}, "page_content": "Hi."}
    ]


@pytest.mark.parametrize(
    "text",
    [
        "[__import__('os').system('true')]",
        "{'a': open('/etc/passwd').read()}",
        "[Document(1)]",
        "[Document(**kwargs)]",
        "[Other(a=1)]",
        "[x.y]",
        "[1, 2",
        "'just a string'",
        "[" * 200_000 + "]" * 200_000,
        "[" + "1, " * (MAX_REPR_CHARS // 3 + 1) + "]",
        # short, but as many parser nodes as characters: read, it would cost ~100 MB
        "[" + "1," * (MAX_REPR_ITEMS + 1) + "x]",
    ],
)
def test_python_repr_refuses_anything_but_literals(text: str) -> None:
    assert parse_python_repr(text) is None


@given(st.text(max_size=200))
def test_python_repr_never_raises(text: str) -> None:
    parse_python_repr("[" + text)


def test_repr_output_is_read_as_its_value() -> None:
    output = str([{"title": "A", "url": "https://a.org/x", "content": "Alpha."}])
    source = only(run("tavily_search_results_json", output))
    assert (source.uri, source.title, source.snippet) == ("https://a.org/x", "A", "Alpha.")


# --- structure written out as text, within a budget (issue 15, finding 1) ---------------------


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_deeply_nested_output_is_not_amplified_and_the_cut_is_said() -> None:
    # arrays of arrays 900 deep: indented two spaces a level, 360 KB became 325 MB of text
    output = [nested(900) for _ in range(200)]
    compact = len(json.dumps(output, separators=(",", ":")))
    result = run("some_api", output)
    (source,) = result.sources
    text = source.full_content or ""
    assert len(text) <= compact
    assert text.count("[…]") == 200
    (reason,) = reasons(result)
    assert f"nested deeper than {MAX_RENDER_DEPTH} levels; 200 lists or objects" in reason


def test_structure_at_the_depth_limit_is_kept_whole_and_indented() -> None:
    output = {"a": nested(MAX_RENDER_DEPTH - 1), "b": "text"}
    result = run("some_api", output)
    assert reasons(result) == []
    assert only(result).full_content == json.dumps(output, indent=2, ensure_ascii=False)


def test_wide_shallow_output_stays_indented() -> None:
    output = {"results": [{"id": i, "name": f"item {i}"} for i in range(300)], "total": 300}
    assert only(run("some_api", output)).full_content == json.dumps(output, indent=2)


def test_output_that_indenting_would_multiply_is_written_compact() -> None:
    # 20 levels of one-item lists around each number: indenting is 20 times the compact text
    output = [nested(20) for _ in range(500)]
    result = run("some_api", output)
    assert reasons(result) == []
    assert only(result).full_content == json.dumps(output, separators=(",", ":"))


def test_output_over_the_text_budget_is_cut_and_the_cut_is_said() -> None:
    output = {"values": ["x" * 1000] * (MAX_RENDERED_CHARS // 1000 + 10)}
    result = run("some_api", output)
    (source,) = result.sources
    text = source.full_content or ""
    assert len(text) == MAX_RENDERED_CHARS
    assert text.startswith('{"values":["xxx')
    (reason,) = reasons(result)
    assert f"only the first {MAX_RENDERED_CHARS:,} were kept" in reason


def test_an_error_object_in_a_warning_is_short() -> None:
    detail = to_json_text({"code": 1, "data": ["y" * 100] * 100}, max_chars=300)
    assert len(detail) == 301
    assert detail.endswith("…")


# --- MCP results whose blocks list search results ----------------------------------------------


def mcp_text(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": False}


def test_mcp_labelled_listing_gives_one_result_each() -> None:
    text = (
        "Found 2 search results:\n\n1. Alpha: the first\n   URL: https://a.org/x\n"
        "   Summary: About <strong>alpha</strong> &amp; more.\n\n"
        "2. Beta\n   URL: https://b.org/y\n   Summary: N/A\n"
    )
    result = run("mcp__ddg__search", mcp_text(text))
    assert [(s.type, s.uri, s.title) for s in result.sources] == [
        ("web_result", "https://a.org/x", "Alpha: the first"),
        ("web_result", "https://b.org/y", "Beta"),
    ]
    assert result.sources[0].snippet == "About alpha & more."
    assert result.sources[1].snippet is None


def test_mcp_listing_rules_and_multiline_raw_content() -> None:
    text = (
        "Title: A\nURL: https://a.org/\nPublished: N/A\nHighlights:\nOne.\nTwo.\n\n---\n\n"
        "Title: undefined\nURL: https://b.org/\nRaw Content: # B\n\nLine one.\nLine two.\n"
        "Favicon: https://b.org/favicon.ico"
    )
    result = run("web_search_exa", mcp_text(text))
    assert result.warnings == ()
    first, second = result.sources
    assert (first.title, first.snippet) == ("A", "One.\nTwo.")
    assert (second.uri, second.title) == ("https://b.org/", None)
    assert second.full_content == "# B\nLine one.\nLine two."


def test_mcp_tavily_images_section_is_not_a_result() -> None:
    text = (
        "Detailed Results:\n\nTitle: A\nURL: https://a.org/\nContent: Alpha.\n\n"
        "Images:\n[1] URL: https://img.org/1.png\n   Description: A chart"
    )
    source = only(run("tavily_search", mcp_text(text)))
    assert (source.uri, source.snippet) == ("https://a.org/", "Alpha.")


def test_mcp_page_that_links_elsewhere_stays_one_page() -> None:
    text = "Contents of https://a.org/:\n- [Home](https://a.org/)\n- [Blog](https://a.org/blog)"
    source = only(run("mcp__fetch__fetch", mcp_text(text)))
    # the fetch server's page: one web source at its URL, not a listing of its links
    assert (source.type, source.uri) == ("web", "https://a.org/")
    assert source.full_content == "- [Home](https://a.org/)\n- [Blog](https://a.org/blog)"


@pytest.mark.parametrize("tool_name", ["fetch", "mcp__fetch__fetch", "mcp.fetch__fetch"])
def test_a_page_searched_then_fetched_then_scraped_is_one_source(tool_name: str) -> None:
    url = "https://en.wikipedia.org/wiki/Rust_(programming_language)"
    fetched = (
        f"Contents of {url}:\n**Rust** is a general-purpose programming language.\n\n"
        "<error>Content truncated. Call the fetch tool with a start_index of 60 to get more "
        "content.</error>"
    )
    calls = [
        ToolOutput(
            tool_name="web_search",
            output={"results": [{"url": url, "title": "Rust", "content": "A language."}]},
        ),
        ToolOutput(tool_name=tool_name, parameters={"url": url}, output=mcp_text(fetched)),
        ToolOutput(tool_name="web_scrape", parameters={"url": url + "#History"}, output="Rust."),
    ]
    (source,) = extract_sources(calls).sources
    assert source.uri == url
    assert source.title == "Rust"
    # the fetched page's text, without the server's header and truncation notice
    assert source.full_content == "**Rust** is a general-purpose programming language."


def test_mcp_json_blocks_and_structured_content_are_read_once() -> None:
    items = [{"title": "A", "url": "https://a.org/", "summary": "Alpha."}]
    output = {
        "content": [{"type": "text", "text": json.dumps(item)} for item in items],
        "structuredContent": {"result": items},
    }
    output["content"].insert(0, {"type": "text", "text": "Summarizer key: abc123"})
    source = only(run("search_papers", output))
    assert (source.type, source.uri, source.snippet) == ("web_result", "https://a.org/", "Alpha.")
    del output["structuredContent"]
    assert ids(run("search_papers", output)) == [source.id]


# --- vector stores -----------------------------------------------------------------------------


def test_chroma_columns_are_zipped_per_query_row() -> None:
    output = {
        "ids": [["a1", "a2"], ["b1"]],
        "documents": [["Alpha one.", "Alpha two."], ["Beta one."]],
        "metadatas": [[{"source": "a.pdf", "title": "A"}, None], [{"source": "https://b.org/"}]],
    }
    result = run("chroma_query", output)
    assert result.warnings == ()
    assert [(s.type, s.uri, s.title, s.full_content) for s in result.sources] == [
        ("file", "a.pdf", "A", "Alpha one."),
        ("file", None, None, "Alpha two."),
        ("file", "https://b.org/", None, "Beta one."),
    ]


def test_store_records_read_llamaindex_qdrant_and_weaviate() -> None:
    node = {
        "node": {
            "id_": "n1",
            "metadata": {},
            "relationships": {"1": {"node_id": "https://a.org/doc"}},
            "text": "Node text.",
        },
        "score": 0.5,
    }
    assert store_records([node]) == [
        {
            "id": "n1",
            "text": "Node text.",
            "document_id": "https://a.org/doc",
            "uri": "https://a.org/doc",
        }
    ]
    rest = {"result": {"points": [{"id": 7, "payload": {"text": "T.", "url": "https://q.org/"}}]}}
    assert store_records(rest) == [{"text": "T.", "url": "https://q.org/", "id": 7}]
    graphql = {"data": {"Get": {"Doc": [{"content": "W.", "_additional": {"id": "u1"}}]}}}
    assert store_records(graphql) == [{"content": "W.", "_additional": {"id": "u1"}, "id": "u1"}]


@pytest.mark.parametrize(
    "data",
    [
        [{"title": "A", "url": "https://a.org/"}],
        [{"payload": {"text": "x"}}, "not a point"],
        {"results": [{"id": 1}]},
        {"ids": "x", "documents": []},
        "text",
        [],
    ],
)
def test_store_records_refuse_other_shapes(data: Any) -> None:
    assert store_records(data) is None


@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(["ids", "documents", "metadatas", "node", "payload", "result"]),
                inner,
                max_size=4,
            )
        ),
        max_leaves=12,
    )
)
def test_store_records_never_raise(data: Any) -> None:
    store_records(data)
    run("chroma_query", data)


# --- search APIs' secondary lists and answers with citations ----------------------------------


def test_secondary_result_lists_follow_the_main_one_merged_by_url() -> None:
    output = {
        "web": {"results": [{"title": "A", "url": "https://a.org/", "description": "Alpha."}]},
        "news": {"results": [{"title": "N", "url": "https://n.org/", "description": "News."}]},
        "faq": {"results": [{"title": "A", "url": "https://a.org", "answer": "Again."}]},
        "peopleAlsoAsk": [{"question": "Q?", "link": "https://q.org/", "snippet": "Ans."}],
    }
    result = run("brave_web_search", output)
    assert result.warnings == ()
    assert [(s.uri, s.snippet) for s in result.sources] == [
        ("https://a.org/", "Alpha.\n\nAgain."),  # the FAQ's words for the page kept too
        ("https://n.org/", "News."),
        ("https://q.org/", "Ans."),
    ]


def test_perplexity_citations_outside_search_results_are_kept() -> None:
    output = {
        "citations": ["https://a.org/", "https://b.org/"],
        "search_results": [{"title": "A", "url": "https://a.org/", "snippet": "Alpha."}],
    }
    result = run("perplexity_ask", output)
    assert [(s.uri, s.title) for s in result.sources] == [
        ("https://a.org/", "A"),
        ("https://b.org/", None),
    ]


def test_openai_responses_citations_then_searched_sources() -> None:
    output = {
        "object": "response",
        "output": [
            {
                "type": "web_search_call",
                "action": {"sources": [{"type": "url", "url": "https://a.org/x"}, "junk"]},
            },
            {
                "type": "message",
                "content": [
                    {
                        "type": "output_text",
                        "text": "A ([a.org](https://a.org/x?utm_source=openai)).",
                        "annotations": [
                            {
                                "type": "url_citation",
                                "url": "https://a.org/x?utm_source=openai",
                                "title": "A page",
                            },
                            {"type": "file_citation", "file_id": "f1"},
                        ],
                    }
                ],
            },
        ],
    }
    result = run("web_search", output)
    assert [(s.uri, s.title) for s in result.sources] == [
        ("https://a.org/x?utm_source=openai", "A page")
    ]
    assert reasons(result) == ["result 3 is text without a URL; skipped"]


# --- Jina Reader's text answer -----------------------------------------------------------------

READER_TEXT = (
    "Title: A page\n\nURL Source: https://a.org/p\n\nPublished Time: 2024-01-01\n\n"
    "Warning: Target URL returned error 404: Not Found\n\nMarkdown Content:\nBody: line.\n"
)


@pytest.mark.parametrize("tool", ["jina_reader", "fetch_url"])
def test_jina_reader_text_is_a_page_without_its_header(tool: str) -> None:
    result = run(tool, READER_TEXT)
    assert [(s.type, s.uri, s.title, s.full_content) for s in result.sources] == [
        ("web", "https://a.org/p", "A page", "Body: line.")
    ]
    assert reasons(result) == ["the reader reports: Target URL returned error 404: Not Found"]


def test_text_that_only_starts_like_a_reader_answer_stays_text() -> None:
    text = "Title: A page\nURL Source: https://a.org/p\nno content marker"
    source = only(run("jina_reader", text))
    assert (source.type, source.full_content) == ("api", text)


def test_scored_matches_keep_their_own_ids() -> None:
    # A RAG tool's matches in Pinecone's shape: the locator still comes from the match itself.
    output = [
        {"document_id": "d1", "chunk_id": "c1", "score": 0.9, "metadata": {"text": "One."}},
        {"document_id": "d1", "chunk_id": "c2", "score": 0.8, "metadata": {"text": "Two."}},
    ]
    assert ids(run("query_rag", output)) == ["file:d1:c1", "file:d1:c2"]


LISTING_PIECES = st.sampled_from(
    [
        "Title: ",
        "URL: ",
        "URL Source: ",
        "Markdown Content:\n",
        "Raw Content: ",
        "https://a.org/",
        "snippet: ",
        ", title: ",
        ", link: ",
        "[",
        "]",
        "1. ",
        "\n",
        "   ",
        "---",
        "N/A",
        "<strong>",
        "&amp;",
        "Document(",
        "x",
    ]
)


@given(st.lists(LISTING_PIECES, max_size=30).map("".join))
def test_text_listings_never_raise(text: str) -> None:
    for tool in ("web_search", "jina_reader", "duckduckgo_results_json", "mcp__s__t"):
        run(tool, text)
        run(tool, {"content": [{"type": "text", "text": text}], "structuredContent": text})


@pytest.mark.parametrize(
    ("address", "scheme"),
    [
        ("javascript:alert(document.cookie)", "javascript"),
        ("  JaVa\tScRipt:alert(1)", "javascript"),
        ("java\nscript:alert(1)", "javascript"),
        ("data:text/html;base64,PHNjcmlwdD4=", "data"),
        ("VBScript:msgbox(1)", "vbscript"),
        ("file:///etc/passwd", "file"),
    ],
)
def test_an_unsafe_address_never_becomes_a_uri(address: str, scheme: str) -> None:
    output = {
        "results": [
            {"url": address, "title": "Trap", "content": "Text of the trap result."},
            {"url": "https://example.org/a", "title": "Fine", "content": "Fine text."},
        ]
    }
    result = extract_sources([ToolOutput(tool_name="web_search", output=output)])
    trap, fine = result.sources
    assert trap.uri is None
    assert trap.domain is None
    assert trap.text == "Text of the trap result."  # the source is kept
    assert fine.uri == "https://example.org/a"
    reasons = [w.reason for w in result.warnings]
    assert any(f"unsafe {scheme}: scheme" in r and r.startswith("item 1") for r in reasons)
    assert not any("kept as given" in r for r in reasons)  # no contradicting warning


def test_control_and_bidi_characters_do_not_reach_title_or_snippet() -> None:
    item = dict(
        url="https://example.org/a",
        title="Invoice \u202efdp.exe\u202c for\x07 you",
        snippet="Pay \u2066now\u2069\x1b[31m",
        content="Body text.",
    )
    output = {"results": [item]}
    result = extract_sources([ToolOutput(tool_name="web_search", output=output)])
    (source,) = result.sources
    assert source.title == "Invoice fdp.exe for you"
    assert source.snippet == "Pay now[31m"
    assert sum("bidirectional" in w.reason for w in result.warnings) == 2


@given(st.text(max_size=40), st.sampled_from(["javascript", "data", "vbscript", "file"]))
def test_no_uri_ever_keeps_an_unsafe_scheme(noise: str, scheme: str) -> None:
    from attribution.sources._extractors import unsafe_scheme

    def user(call: ToolOutput, warn: Any) -> Iterable[CitationSource]:
        for uri in (f"{noise}{scheme}:x", f"{scheme}:{noise}", f" {scheme.upper()}:{noise}"):
            yield CitationSource(id=f"s:{uri!r}", type="api", uri=uri, full_content="t")

    registry = default_extractors.copy()
    registry.register("unsafe.v1", pattern="unsafe")(user)
    for source in registry.extract([ToolOutput(tool_name="unsafe", output="x")]).sources:
        assert source.uri is None or unsafe_scheme(source.uri) is None


def test_base64_and_binary_are_not_taken_for_page_text() -> None:
    import base64
    import random

    blob = base64.b64encode(random.Random(7).randbytes(900)).decode()
    calls = [
        ToolOutput(tool_name="web_scrape", parameters={"url": "https://a.org/logo"}, output=blob),
        ToolOutput(tool_name="read_file", output="\x00\x01PK\x03\x04\x14\x00" * 40),
        ToolOutput(tool_name="web_scrape", parameters={"url": "https://a.org/t"}, output="a" * 900),
    ]
    result = extract_sources(calls)
    kept = {s.uri: s for s in result.sources}
    assert set(kept) == {"https://a.org/logo", "https://a.org/t"}  # the binary-only one dropped
    assert kept["https://a.org/logo"].text == ""  # the page is kept, its base64 is not text
    assert kept["https://a.org/t"].text == "a" * 900  # one long word is still text
    reasons = " | ".join(w.reason for w in result.warnings)
    assert "fullContent is base64 data, not text" in reasons
    assert "is binary data, not text" in reasons
    assert "nothing but data was left of it" in reasons


@given(st.binary(min_size=64, max_size=2048))
def test_random_bytes_as_text_never_become_page_text(data: bytes) -> None:
    from attribution.sources._extractors._framework import not_text

    text = data.decode("utf-8", "replace")
    if not_text(text) is None:  # rare: bytes that decode mostly cleanly
        return
    result = extract_sources([ToolOutput(tool_name="read_file", output=text)])
    assert all(not s.text for s in result.sources)


# Arbitrary JSON, as a tool may return it: nested objects and lists of any scalars, with keys
# drawn mostly from the names extractors read, so the fuzz reaches past the first type check.
_KEYS = st.sampled_from(
    [
        "results", "items", "data", "content", "text", "url", "link", "title", "snippet",
        "metadata", "id", "page", "chunks", "documents", "metadatas", "ids", "matches", "payload",
        "node", "relationships", "web", "value", "type", "resource", "uri", "structuredContent",
        "error", "success", "output", "search_results", "citations", "webPages", "Get", "x",
    ]
)  # fmt: skip
_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text()
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(_KEYS | st.text(), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(st.sampled_from(sorted(TOOL_NAMES)), _JSON | st.text() | _JSON.map(json.dumps))
def test_no_extractor_raises_on_arbitrary_json(tool_name: str, output: Any) -> None:
    result = extract_sources([ToolOutput(tool_name=tool_name, output=output)])
    failed = [w.reason for w in result.warnings if w.reason.startswith("extractor failed")]
    assert failed == []  # the framework caught nothing: the extractor itself never raised
    assert all(isinstance(s, CitationSource) for s in result.sources)


def test_an_html_page_becomes_its_readable_text() -> None:
    from attribution.sources._html import html_page, looks_like_html

    html = (
        "<!doctype html><html><head><title>Tides &amp; Moons</title>"
        "<style>body{color:red}</style><script>var dataLayer=[];</script></head><body>"
        "<nav><a href='/'>Home</a> | <a href='/x'>Guides</a></nav>"
        "<main><h1>Spring tides</h1><p>The <b>spring</b> tide has the <strong>largest</strong>"
        " range.</p><p>Neap&nbsp;tides have the smallest.</p></main>"
        "<footer>© 2024 Coastal</footer></body></html>"
    )
    assert looks_like_html(html)
    title, text = html_page(html)
    assert title == "Tides & Moons"
    assert text == (
        "Spring tides\n\nThe spring tide has the largest range.\n\nNeap tides have the smallest."
    )
    result = extract_sources(
        [ToolOutput(tool_name="fetch_url", parameters={"url": "https://t.org/a"}, output=html)]
    )
    (page,) = result.sources
    assert (page.uri, page.title) == ("https://t.org/a", "Tides & Moons")
    assert page.full_content == text


def test_text_that_mentions_tags_is_not_taken_for_html() -> None:
    from attribution.sources._html import looks_like_html

    assert not looks_like_html("Use <b> for bold and <p> for a paragraph in HTML.")
    assert not looks_like_html("Plain page text.")
    output = "Use <b> for bold and <p> for paragraphs."
    call = ToolOutput(tool_name="fetch_url", parameters={"url": "https://t.org/b"}, output=output)
    (page,) = extract_sources([call]).sources
    assert page.full_content == output


def test_html_in_a_page_field_is_read_as_html_wherever_it_comes() -> None:
    page = (
        "<html><head><title>T</title><style>x{}</style></head><body><nav>Menu</nav>"
        "<p>Para one.</p><script>alert(1)</script></body></html>"
    )
    calls = [
        # a scraper's text field holding the page's HTML
        ToolOutput(tool_name="web_scrape", output={"url": "https://a.com/p", "content": page}),
        # a fragment that carries a script
        ToolOutput(
            tool_name="fetch_url",
            parameters={"url": "https://a.com/q"},
            output="<p>Para <b>two</b>.</p><script>x()</script>",
        ),
        # Firecrawl asked for HTML only: the page is in "html", not lost
        ToolOutput(
            tool_name="firecrawl_scrape",
            output={
                "success": True,
                "data": {
                    "html": "<html><head><title>FC</title></head><body><p>Fire.</p></body></html>",
                    "metadata": {"sourceURL": "https://f.com/x"},
                },
            },
        ),
    ]
    result = extract_sources(calls)
    assert result.warnings == ()
    assert [(s.uri, s.title, s.full_content) for s in result.sources] == [
        ("https://a.com/p", "T", "Para one."),
        ("https://a.com/q", None, "Para two."),
        ("https://f.com/x", "FC", "Fire."),
    ]
    # a search result's title loses its highlight tags as its snippet does
    search = ToolOutput(
        tool_name="web_search",
        output={"results": [{"title": "<b>Bold</b> &amp; more", "url": "https://s.com"}]},
    )
    (hit,) = extract_sources([search]).sources
    assert hit.title == "Bold & more"
    # markdown that opens with an HTML block stays markdown
    readme = '<p align="center"><img src="logo.png"></p>\n\n# Project\n\nIt does things.'
    call = ToolOutput(tool_name="fetch_url", parameters={"url": "https://g.com/r"}, output=readme)
    (page_source,) = extract_sources([call]).sources
    assert page_source.full_content == readme


@given(st.text(max_size=300))
def test_html_parsing_never_raises(noise: str) -> None:
    from attribution.sources._html import html_page

    title, text = html_page(f"<!doctype html><html><body><p>{noise}</p></body></html>")
    assert isinstance(text, str)
    assert title is None or isinstance(title, str)


@pytest.mark.parametrize(
    "output",
    ["[" * 3_000 + "]" * 3_000, '{"results": [{"url": "https://a.org", "title": "A"'],
)
def test_unreadable_json_is_not_called_a_listing_without_urls(output: str) -> None:
    result = extract_sources([ToolOutput(tool_name="web_search", output=output)])
    (warning,) = result.warnings
    assert warning.reason.startswith("output looks like JSON but cannot be read")
    assert "no http(s) URL" not in warning.reason
    (source,) = result.sources  # kept as text, not lost
    assert source.full_content == output


def test_failed_fetches_are_warned_and_extra_snippets_kept() -> None:
    output = {
        "results": [
            {
                "url": "https://a.org/x",
                "title": "X",
                "description": "First words.",
                "extra_snippets": ["More words from the page.", "And more."],
                "summary": "A summary of X.",
            }
        ],
        "failed_results": [{"url": "https://b.org/y", "error": "Failed to fetch url"}],
    }
    result = extract_sources([ToolOutput(tool_name="tavily_extract", output=output)])
    (source,) = result.sources
    assert source.snippet == (
        "First words.\n\nMore words from the page.\n\nAnd more.\n\nA summary of X."
    )
    (warning,) = result.warnings
    assert warning.reason == (
        "failed result 1 (https://b.org/y): the tool could not fetch it (Failed to fetch url); "
        "no source"
    )


def test_a_providers_own_search_gives_its_pages_and_an_error_block_a_warning() -> None:
    """Anthropic's web search answers inside the message; an error block is no page."""
    blocks = [
        {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {"query": "q"}},
        {
            "type": "web_search_tool_result",
            "tool_use_id": "s1",
            "content": [
                {"type": "web_search_result", "url": "https://a.org/x", "title": "X",
                 "encrypted_content": "EqgfCioIARgB"},
            ],
        },
        {
            "type": "text",
            "text": "X says so.",
            "citations": [
                {"type": "web_search_result_location", "url": "https://a.org/x", "title": "X",
                 "cited_text": "The words X quotes.", "encrypted_index": "Eo8B"},
            ],
        },
    ]  # fmt: skip
    for name in ("web_search", "claude_search"):  # the built-in extractor and the generic one
        (source,) = run(name, blocks).sources
        assert (source.uri, source.title, source.snippet) == (
            "https://a.org/x",
            "X",
            "The words X quotes.",
        )
        assert "EqgfCioIARgB" not in (source.full_content or "")
    failed = {
        "type": "web_search_tool_result",
        "tool_use_id": "s1",
        "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"},
    }
    result = run("web_search", failed)
    assert not result.sources
    assert [w.reason for w in result.warnings] == [
        "a web search failed (max_uses_exceeded); no results from it",
        "output has an empty list of results",
    ]


def test_scored_documents_and_generated_references_give_their_chunks() -> None:
    """LangChain's ``(Document, score)`` pairs as JSON lists; Bedrock's retrieve_and_generate
    references, each once per citation."""
    pairs = [
        [{"page_content": "Chairs cost 750 EUR.", "metadata": {"source": "a.md"}}, 0.18],
        [{"page_content": "Internet is 30 EUR.", "metadata": {"source": "b.md"}}, 0.24],
    ]
    result = run("vector_search", pairs)
    assert [(s.uri, s.full_content) for s in result.sources] == [
        ("a.md", "Chairs cost 750 EUR."),
        ("b.md", "Internet is 30 EUR."),
    ]
    reference = {
        "content": {"text": "Leave carries over.", "type": "TEXT"},
        "location": {"type": "WEB", "webLocation": {"url": "https://hr.example/leave"}},
        "metadata": {"x-amz-bedrock-kb-chunk-id": "c1", "title": "Leave"},
    }
    answer = {
        "output": {"text": "Leave carries over."},
        "citations": [{"retrievedReferences": [reference]}, {"retrievedReferences": [reference]}],
    }
    result = run("retrieve_and_generate", answer)
    assert {(s.uri, s.title, s.full_content) for s in result.sources} == {
        ("https://hr.example/leave", "Leave", "Leave carries over.")
    }
    assert not result.warnings


def test_a_bold_title_of_a_text_listing_loses_its_marks() -> None:
    listing = (
        "Found 1 search results:\n\n1. **PEP 745 | peps.python.org**\n"
        "   URL: https://peps.python.org/pep-0745/\n   The schedule.\n   Date: 2024-03-10\n"
    )
    (source,) = run("perplexity_search", {"content": [{"type": "text", "text": listing}]}).sources
    assert (source.title, source.snippet) == ("PEP 745 | peps.python.org", "The schedule.")


@pytest.mark.parametrize(
    ("tool", "output", "expected"),
    [
        # a container's ids still name its chunks (they were hashes of the text)
        (
            "search_documents",
            {"document_id": "d1", "documents": [{"chunk_id": "0", "metadata": {"text": "A"}}]},
            [("file:d1:0", "file")],
        ),
        (
            "search_connectors",
            {"connector": "sp", "value": [{"@search.score": 1, "id": "x1", "content": "Body"}]},
            [("connector_item:sp:x1", "connector_item")],
        ),
        # a listing of documents with addresses is no store's: web results, as before
        (
            "lookup",
            {"documents": [{"id": "1", "score": 0.8, "metadata": {"url": "https://a.com/x"}}]},
            [("web_result:https://a.com/x", "web_result")],
        ),
    ],
)
def test_store_shapes_keep_what_other_shapes_gave(
    tool: str, output: Any, expected: list[tuple[str, str]]
) -> None:
    result = run(tool, output)
    assert [(s.id, s.type) for s in result.sources] == expected
    assert not result.warnings


@pytest.mark.parametrize(
    "output",
    [
        [{"entity": {"type": "PERSON", "text": "Barack Obama"}, "confidence": 0.9}],  # NER
        [[{"label": "POSITIVE"}, 0.98], [{"label": "NEGATIVE"}, 0.02]],  # a classifier
    ],
)
def test_outputs_that_only_look_like_a_store_stay_one_text_source(output: Any) -> None:
    (source,) = run("some_tool", output).sources
    assert source.type == "api"


def test_search_hits_whose_text_field_is_unknown_keep_their_fields_as_text() -> None:
    output = {
        "hits": {
            "hits": [
                {"_index": "logs", "_id": "1", "_source": {"level": "error", "message": "Boom"}},
                None,
                {"_index": "logs", "_id": "2", "fields": {"message": ["Second"]}},
            ]
        }
    }
    result = run("elasticsearch_search", output)
    assert [(s.id, s.full_content) for s in result.sources] == [
        ("file:logs:1", "level: error\nmessage: Boom"),
        ("file:logs:2", "message: Second"),
    ]
    assert [w.reason for w in result.warnings] == ["chunk 2 is a null, not an object; skipped"]


def _fetch_block(used: str, url: str, title: str, source: dict[str, str]) -> dict[str, Any]:
    """An Anthropic ``web_fetch_tool_result`` block of a page."""
    document = {"type": "document", "title": title, "source": source}
    return {
        "type": "web_fetch_tool_result",
        "tool_use_id": used,
        "content": {"type": "web_fetch_result", "url": url, "content": document},
    }


def test_an_anthropic_message_with_thinking_a_search_and_a_fetch_gives_every_page() -> None:
    fetch = _fetch_block("s2", "https://b.org/page", "B", {"type": "text", "data": "The page."})
    failed = {
        "type": "web_fetch_tool_result",
        "tool_use_id": "s3",
        "content": {"type": "web_fetch_tool_error", "error_code": "url_not_accessible"},
    }
    search = {
        "type": "web_search_tool_result",
        "tool_use_id": "s1",
        "content": [{"type": "web_search_result", "url": "https://a.org/x/", "title": "X"}],
    }
    quote = {
        "type": "text",
        "text": "X says so.",
        "citations": [{"type": "web_search_result_location", "url": "https://a.org/x",
                       "title": "X", "cited_text": "Quoted words."}],
    }  # fmt: skip
    thinking = {"type": "thinking", "thinking": "...", "signature": "s"}
    message = {"role": "assistant", "content": [thinking, search, fetch, failed, quote]}
    result = run("web_search", message)
    assert [(s.uri, s.snippet, s.full_content) for s in result.sources] == [
        ("https://a.org/x/", "Quoted words.", None),
        ("https://b.org/page", None, "The page."),
    ]
    assert [w.reason for w in result.warnings] == [
        "the web fetch of a page failed (url_not_accessible); no source"
    ]
    # the fetches alone, under a tool no extractor knows: whole pages
    result = run("web_fetch", [thinking, fetch, failed, fetch])
    assert [(s.type, s.uri, s.full_content) for s in result.sources] == [
        ("web", "https://b.org/page", "The page.")
    ]
    assert len(result.warnings) == 1


def test_scores_in_numpy_s_repr_and_odd_page_numbers_are_read() -> None:
    output = (
        "[(Document(metadata={'source': 'a.md'}, page_content='Chairs cost 750 EUR.'), "
        "np.float32(0.18))]"
    )
    (source,) = run("vector_search", output).sources
    assert (source.uri, source.full_content) == ("a.md", "Chairs cost 750 EUR.")
    chunk = {
        "content": {"text": "Leave carries over."},
        "location": {"type": "S3", "s3Location": {"uri": "s3://b/a.pdf"}},
        "metadata": {"x-amz-bedrock-kb-document-page-number": float("nan")},
    }
    (source,) = run("retrieve", {"retrievalResults": [chunk]}).sources
    assert (source.uri, source.page_number) == ("s3://b/a.pdf", None)


def test_a_fetched_pdf_is_kept_without_text_and_a_failed_fetch_names_its_address() -> None:
    """A fetched PDF's bytes are no text to quote, but the answer may cite the page: its marker
    is then unverifiable, not unknown."""
    pdf = {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"}
    fetched = _fetch_block("s1", "https://a.com/x.pdf", "Report", pdf)
    asked = {"type": "server_tool_use", "id": "s2", "name": "web_fetch",
             "input": {"url": "https://b.com/gone"}}  # fmt: skip
    failed = {
        "type": "web_fetch_tool_result",
        "tool_use_id": "s2",
        "content": {"type": "web_fetch_tool_error", "error_code": "url_not_accessible"},
    }
    for tool in ("web_fetch", "fetch_url"):
        result = run(tool, {"role": "assistant", "content": [fetched, asked, failed]})
        assert [(s.type, s.uri, s.title, s.full_content) for s in result.sources] == [
            ("web_result", "https://a.com/x.pdf", "Report", None)
        ]
        assert [w.reason for w in result.warnings] == [
            "the web fetch of https://a.com/x.pdf holds no text (application/pdf); kept "
            "without text",
            "the web fetch of https://b.com/gone failed (url_not_accessible); no source",
        ]


def test_an_openai_response_is_read_as_one_whatever_the_tool_is_called() -> None:
    """Under a name no extractor knows, the whole response was one source holding the model's
    own answer, which then supported every claim of itself."""
    response = {
        "object": "response",
        "output": [
            {"type": "web_search_call", "action": {"type": "search", "sources": [
                {"type": "url", "url": "https://a.org/x"}]}},
            {"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": "It is tall.", "annotations": [
                    {"type": "url_citation", "url": "https://b.org/y?utm_source=openai",
                     "title": "B"}]}]},
        ],
    }  # fmt: skip
    for tool in ("openai_responses", "responses_create", "web_search"):
        result = run(tool, response)
        assert [(s.type, s.uri) for s in result.sources] == [
            ("web_result", "https://b.org/y?utm_source=openai"),
            ("web_result", "https://a.org/x"),
        ], tool
    answer_only = {"object": "response", "output": [response["output"][1]]}
    answer_only["output"][0]["content"][0]["annotations"] = []
    result = run("openai_responses", answer_only)
    assert not result.sources
    assert "its own answer is no source" in result.warnings[0].reason


@pytest.mark.parametrize("tool", ["crawl4ai_crawl", "mcp__crawl4ai__crawl"])
def test_a_crawled_page_in_a_listing_gives_its_text(tool: str) -> None:
    """Crawl4AI's results under a name no scrape pattern takes were their description only."""
    fixture = FIXTURES / "scrapers_stores" / "crawl4ai_docker_crawl.json"
    output = json.loads(fixture.read_text(encoding="utf-8"))["toolOutput"]["output"]
    (source,) = run(tool, output).sources
    assert source.uri == "https://qdrant.tech/pricing/"
    assert "starting at $0.014 per hour" in (source.full_content or "")
    assert "We use cookies" not in (source.full_content or "")  # the reader's text, no chrome


@pytest.mark.parametrize(
    ("tool", "output", "expected"),
    [
        # a reader's own text field wins over the fields made into text
        (
            "search_chat_history",
            {"value": [{"@search.score": 1, "thread_id": "t1", "message_id": "m1",
                        "message": "The window is 30 days."}]},
            [("chat_turn:t1:m1", "The window is 30 days.")],
        ),
        (
            "retrieve",
            {"value": [{"@search.score": 1, "id": "1", "content": ["Refunds.", "Shipping."]}]},
            [("file:1:1", "Refunds.\n\nShipping.")],
        ),
        (
            "retrieve",
            {"value": [{"@search.score": 1, "id": "1", "metadata": {"text": "Refunds."}}]},
            [("file:1:1", "Refunds.")],
        ),
        (
            "es_search",
            {"hits": {"hits": [{"_index": "kb", "_id": "1",
                                "_source": {"title": "T", "document": "Refunds."}}]}},
            [("file:kb:1", "Refunds.")],
        ),
        # two chunks of equal text in two files, two hits of one document: two sources
        (
            "search_vector_store",
            {"object": "vector_store.search_results.page", "data": [
                {"file_id": "f1", "content": [{"type": "text", "text": "Same"}]},
                {"file_id": "f2", "content": [{"type": "text", "text": "Same"}]},
            ]},
            [("file:f1:2a98b1deb68c7223", "Same"), ("file:f2:2a98b1deb68c7223", "Same")],
        ),
        (
            "es_search",
            {"hits": {"hits": [
                {"_index": "kb", "_id": "c0", "_source": {"id": "doc-1", "text": "A"}},
                {"_index": "kb", "_id": "c1", "_source": {"id": "doc-1", "text": "B"}},
            ]}},
            [("file:kb:c0", "A"), ("file:kb:c1", "B")],
        ),
        # a vector store's points are not named by what wraps them
        (
            "retrieve",
            {"source_id": "kb-main", "result": {"points": [
                {"id": "u1", "payload": {"text": "A", "chunk_id": 0}},
                {"id": "u2", "payload": {"text": "B", "chunk_id": 0}},
            ]}},
            [("file:sha256:559aead08264d579", "A"), ("file:sha256:df7e70e5021544f4", "B")],
        ),
        # a structured store's row
        (
            "kb_tool",
            {"retrievalResults": [{"content": {"type": "ROW", "row": [
                {"columnName": "region", "columnValue": "EMEA", "type": "STRING"}]},
                "location": {"type": "SQL", "sqlLocation": {"query": "SELECT"}}}]},
            [("file:sha256:c0f6cf76b3109ae3", "region: EMEA")],
        ),
    ],
)  # fmt: skip
def test_index_hits_keep_their_readers_text_and_their_own_ids(
    tool: str, output: Any, expected: list[tuple[str, str]]
) -> None:
    result = run(tool, output)
    assert [(s.id, s.full_content) for s in result.sources] == expected
    assert not result.warnings


def test_what_only_looks_like_a_fetch_or_a_response_reads_as_before() -> None:
    """A scrape tool's own "results" list is pages with their text (it became search results
    with the text in the snippet); a tool's "response" object without a model's message or
    tool call is one text source; a Responses answer's MCP call output is a source."""
    page = {"results": [{"url": "https://a.example/x", "title": "A", "content": "Page text."}]}
    (source,) = run("scrape", page).sources
    assert (source.type, source.full_content) == ("web", "Page text.")
    wrapped = {"url": "https://a.example/x", "markdown": "The page.", "results": [{"url": "y"}]}
    assert [s.full_content for s in run("scrape", wrapped).sources] == ["The page."]
    other = {"object": "response", "output": [{"url": "https://a.example/x", "content": "c"}]}
    assert [s.type for s in run("my_tool", other).sources] == ["api"]
    response = {
        "object": "response",
        "output": [
            {"type": "mcp_call", "name": "weather", "output": "Paris: 18 C, cloudy"},
            {"type": "message", "content": [{"type": "output_text", "text": "It is 18 C."}]},
        ],
    }
    (source,) = run("my_tool", response).sources
    assert (source.title, source.full_content) == ("weather", "Paris: 18 C, cloudy")


def test_a_log_hit_keeps_its_timestamp_and_a_chunk_its_own_id() -> None:
    hit = {
        "_index": "docs",
        "_id": "rand1",
        "_source": {"@timestamp": "2024-05-01T10:32:00Z", "message": "Error", "chunk_id": 3,
                    "doc_id": "handbook"},
    }  # fmt: skip
    (source,) = run("search_logs", {"hits": {"hits": [hit]}}).sources
    assert source.id == "file:handbook:3"
    assert "@timestamp: 2024-05-01T10:32:00Z" in (source.full_content or "")


def test_hits_that_count_their_documents_chunks_and_other_tools_calls_keep_everything() -> None:
    """A third review: a "chunk_id" counting a document's chunks, in hits that name no
    document, made two hits one source; a CRM's "response" with a "phone_call" lost its one
    text source; an MCP call's output beside a web search was lost."""
    hits = {"hits": {"hits": [
        {"_index": "docs", "_id": "r1", "_source": {"chunk_id": 1, "text": "Alpha"}},
        {"_index": "docs", "_id": "r2", "_source": {"chunk_id": 1, "text": "Beta"}},
    ]}}  # fmt: skip
    assert [s.id for s in run("my_tool", hits).sources] == ["file:docs:r1", "file:docs:r2"]
    crm = {"object": "response", "output": [{"type": "phone_call", "summary": "Refund asked"}]}
    assert [s.type for s in run("crm_tool", crm).sources] == ["api"]
    both = {"object": "response", "output": [
        {"type": "web_search_call", "action": {"sources": [{"url": "https://a.org/x"}]}},
        {"type": "mcp_call", "name": "weather", "output": "Paris: 18 C"},
    ]}  # fmt: skip
    assert [(s.type, s.full_content) for s in run("x", both).sources] == [
        ("web_result", None),
        ("api", "Paris: 18 C"),
    ]


def test_a_models_message_gives_what_its_tools_found_never_its_own_answer() -> None:
    """An Anthropic message without search results was read as an MCP result: its own answer
    became a source, which supported every claim of itself; its MCP tools' results beside a
    web search were lost."""
    plain = {"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "end_turn",
             "content": [{"type": "text", "text": "Paris is the capital of France."}]}  # fmt: skip
    for tool in ("claude", "web_search", "fetch_url", "mcp__x__y"):  # any extractor
        result = run(tool, plain)
        assert not result.sources, tool
        assert "its own answer is no source" in result.warnings[0].reason
    used = {"type": "mcp_tool_use", "id": "m1", "name": "weather", "server_name": "w", "input": {}}
    got = {"type": "mcp_tool_result", "tool_use_id": "m1", "is_error": False,
           "content": [{"type": "text", "text": "Paris: 18 C"}]}  # fmt: skip
    search = {"type": "web_search_tool_result", "tool_use_id": "s", "content": [
        {"type": "web_search_result", "url": "https://a.org/x", "title": "A"}]}  # fmt: skip
    message = {"type": "message", "role": "assistant", "content": [search, used, got,
               {"type": "text", "text": "It is 18 C in Paris."}]}  # fmt: skip
    assert [(s.type, s.title, s.full_content) for s in run("claude", message).sources] == [
        ("web_result", "A", None),
        ("mcp", "w/weather", "Paris: 18 C"),  # its MCP server and tool
    ]
    # a review: a fetch beside code's run, a search result inside a tool's result, code's
    # output, a dict; an OpenAI output item is no Anthropic message
    text = {"type": "text", "data": "Revenue rose 12% in Q3."}
    fetch = _fetch_block("f1", "https://ex.com/q3", "Q3", text)
    code = {
        "type": "code_execution_tool_result",
        "tool_use_id": "c1",
        "content": {"type": "code_execution_result", "stdout": "mean growth: 12.0"},
    }
    ran = {"type": "server_tool_use", "id": "c1", "name": "code_execution", "input": {}}
    result = run("claude", {"type": "message", "role": "assistant", "content": [fetch, ran, code]})
    assert [(s.type, s.uri, s.title, s.full_content) for s in result.sources] == [
        ("web", "https://ex.com/q3", "Q3", "Revenue rose 12% in Q3."),
        ("api", None, "code_execution", "mean growth: 12.0"),
    ]
    found = {
        "type": "search_result",
        "source": "https://kb.ex.com/q3",
        "title": "Q3 report",
        "content": [{"type": "text", "text": "Revenue rose 12% in Q3."}],
    }
    told = {
        "type": "message",
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": [found]},
            {"type": "tool_result", "tool_use_id": "t2", "content": {"temp": 18}},
        ],
    }
    result = run("agent", told)
    assert (result.sources[0].type, result.sources[0].uri) == ("web_result", "https://kb.ex.com/q3")
    assert '"temp": 18' in (result.sources[1].full_content or "")
    item = {
        "type": "message",
        "id": "msg_o",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "It grew.", "annotations": []}],
    }
    assert [s.type for s in run("agent", item).sources] == ["api"]  # fmt: skip
    # a message of an app or a chat history is read as before
    slack = {"type": "message", "user": "U1", "text": "deploy done"}
    assert [s.type for s in run("slack", slack).sources] == ["api"]
    history = {"type": "message", "role": "user", "content": [{"type": "text", "text": "Hi"}]}
    assert run("history", history).sources


def test_malformed_parts_of_provider_and_index_answers_are_skipped_not_crashed_on() -> None:
    """A caption or a code run's result of the wrong type reached a field reader made for
    objects: the extractor failed and the call lost its other sources."""
    azure = {"value": [{"@search.score": 1, "id": "1", "content": "Body",
                        "@search.captions": [None, "x", {"text": "Cap"}]}]}  # fmt: skip
    result = run("azure_search", azure)
    assert [s.full_content for s in result.sources] == ["Body"]
    assert not any("extractor" in w.reason for w in result.warnings)
    code = {"type": "code_execution_tool_result", "tool_use_id": "c1", "content": {"content": [1]}}
    search = {"type": "web_search_tool_result", "tool_use_id": "s", "content": [
        {"type": "web_search_result", "url": "https://a.org/x", "title": "A"}]}  # fmt: skip
    result = run("claude", {"type": "message", "role": "assistant", "content": [search, code]})
    assert [s.uri for s in result.sources] == ["https://a.org/x"]
    assert not any("extractor" in w.reason for w in result.warnings)


def test_a_grounding_redirect_takes_the_site_the_chunk_names_as_its_domain() -> None:
    """Gemini's grounding chunks address pages through a redirect on Google's host; the site is
    the chunk's title (the Gemini API) or its ``domain`` (Vertex AI), not the redirect's host."""
    redirect = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ"
    answer = {
        "candidates": [
            {
                "groundingMetadata": {
                    "groundingChunks": [
                        {"web": {"uri": redirect + "1", "title": "uefa.com"}},
                        {
                            "web": {
                                "uri": redirect + "2",
                                "title": "BBC Sport",
                                "domain": "bbc.co.uk",
                            }
                        },
                        {"web": {"uri": redirect + "3", "title": "A page, not a site"}},
                        {"web": {"uri": "https://www.espn.com/x", "title": "espn.org"}},
                    ]
                }
            }
        ]
    }
    sources = run("google_search", answer).sources
    assert [s.domain for s in sources] == [
        "uefa.com",
        "bbc.co.uk",
        "vertexaisearch.cloud.google.com",
        "espn.com",  # an address of the page itself: its own host, whatever the title says
    ]
    # a search result that names its site: a host name is taken, anything else is not
    results = [
        {"url": "https://a.org/x", "title": "X", "snippet": "x", "domain": "www.A.org"},
        {"url": "https://b.org/y", "title": "Y", "snippet": "y", "domain": "Example News"},
        # a page's own address names its site, whatever the result says (after a review)
        {"url": "https://news.example.com/a", "title": "Z", "snippet": "z", "domain": "google.com"},
    ]
    found = [s.domain for s in run("web_search", results).sources]
    assert found == ["a.org", "b.org", "news.example.com"]


def test_a_status_line_beside_an_mcp_servers_results_is_no_source() -> None:
    """Elastic's MCP server answers with "Total results: 3, showing 3." before the hits."""
    hits = [
        {"title": "A", "url": "https://a.org/x", "content": "Alpha text."},
        {"title": "B", "url": "https://b.org/y", "content": "Beta text."},
    ]
    blocks = [
        {"type": "text", "text": "Total results: 2, showing 2."},
        {"type": "text", "text": json.dumps(hits)},
    ]
    result = run("mcp__elasticsearch__search", {"content": blocks})
    assert [s.uri for s in result.sources] == ["https://a.org/x", "https://b.org/y"]
    assert any("status line" in w.reason for w in result.warnings)
    # alone, or beside text that lists nothing, a short line is the tool's answer: kept
    alone = run("mcp__db__count", {"content": blocks[:1]})
    assert [s.full_content for s in alone.sources] == ["Total results: 2, showing 2."]
    prose = [blocks[0], {"type": "text", "text": "The index holds two articles on 2FA."}]
    assert len(run("mcp__db__count", {"content": prose}).sources) == 2


def test_documents_an_anthropic_answer_cites_are_read_from_what_it_quotes() -> None:
    """Documents given with the request (char, page and block locations) and a caller's search
    results (search_result_location) are not in the response: the quoted text is all it holds
    of them, and it is theirs, not the answer's."""
    message = {
        "type": "message",
        "role": "assistant",
        "stop_reason": "end_turn",
        "content": [
            {
                "type": "text",
                "text": "The grass is green and the sky is blue.",
                "citations": [
                    {"type": "char_location", "cited_text": "The grass is green.",
                     "document_index": 0, "document_title": "Notes", "start_char_index": 0,
                     "end_char_index": 19},
                    {"type": "char_location", "cited_text": "The sky is blue.",
                     "document_index": 0, "document_title": "Notes", "start_char_index": 20,
                     "end_char_index": 36},
                    {"type": "char_location", "cited_text": "The grass is green.",
                     "document_index": 0, "document_title": "Notes", "start_char_index": 0,
                     "end_char_index": 19},
                    {"type": "page_location", "cited_text": "Rayleigh scattering.",
                     "document_index": 1, "document_title": None, "start_page_number": 3,
                     "end_page_number": 4},
                    {"type": "content_block_location", "cited_text": "", "document_index": 2,
                     "start_block_index": 0, "end_block_index": 1},
                    {"type": "char_location", "cited_text": "No index.", "document_index": True},
                ],
            },
            {
                "type": "text",
                "text": " Refunds take 5 days, says the wiki.",
                "citations": [
                    {"type": "search_result_location", "source": "https://acme.example/refunds",
                     "title": "Refunds", "cited_text": "Refunds take 5 business days.",
                     "search_result_index": 0, "start_block_index": 0, "end_block_index": 0},
                    {"type": "search_result_location", "source": "wiki://hr/leave",
                     "title": "Leave", "cited_text": "Leave carries over.",
                     "search_result_index": 1, "start_block_index": 0, "end_block_index": 0},
                ],
            },
        ],
    }  # fmt: skip
    result = run("claude", message)
    assert [(s.type, s.id, s.uri, s.title, s.snippet) for s in result.sources] == [
        ("file", "file:document:0:Notes", None, "Notes", "The grass is green.\n\nThe sky is blue."),
        ("file", "file:document:1", None, None, "Rayleigh scattering."),
        ("web_result", "web_result:https://acme.example/refunds", "https://acme.example/refunds",
         "Refunds", "Refunds take 5 business days."),
        ("mcp", "mcp:search_result:wiki://hr/leave:Leave", "wiki://hr/leave", "Leave",
         "Leave carries over."),
    ]  # fmt: skip
    assert any("cited_text" in w.reason for w in result.warnings)
    # the model's own text is still no source
    assert not any("The grass is green and" in (s.snippet or "") for s in result.sources)


def test_printed_milvus_hits_of_several_queries_are_read_and_other_data_lines_are_text() -> None:
    """pymilvus 2.4's printed search result: a list of strings, each one query's hits."""

    def hit(n: int) -> str:
        return (
            f"{{'id': {n}, 'distance': 0.8, 'entity': {{'text': 'Text {n}.', 'source': 's.md'}}}}"
        )

    printed = f'data: ["[{hit(1)}]", "[{hit(2)}]"] , extra_info: {{\'cost\': 0}}'
    result = run("milvus_search", printed)
    assert [s.full_content for s in result.sources] == ["Text 1.", "Text 2."]
    # a line that merely starts with "data:" is text, as before
    for text in (
        "data: the numbers are up",
        "data: [1, 2] and more",
        'data: ["not a repr"]',
        'data: [["alpha beta gamma"], ["delta"]]',  # rows of no hits (after a review)
    ):
        (source,) = run("milvus_search", text).sources
        assert source.full_content == text


def test_a_short_fact_with_a_number_beside_links_is_a_source() -> None:
    """After a review: "Population of Paris: 2,102,650 (INSEE, 2023)." beside a resource link
    was dropped as a status line; only a line that counts the results is one."""
    link = {"type": "resource_link", "uri": "https://www.insee.fr/paris", "name": "INSEE"}
    for fact in (
        "Population of Paris: 2,102,650 (INSEE, 2023).",
        "The sum is 200.",
        "Answer: the warranty lasts 2 years.",
    ):
        result = run("mcp__stats__lookup", {"content": [{"type": "text", "text": fact}, link]})
        assert [s.full_content for s in result.sources][:1] == [fact]
    for status in ("Found 12 documents.", "3 matching files", "Showing page 1 of 4"):
        result = run("mcp__stats__lookup", {"content": [{"type": "text", "text": status}, link]})
        assert [s.uri for s in result.sources] == ["https://www.insee.fr/paris"], status


def test_a_document_two_answers_cite_keeps_both_quotes_and_a_cited_block_is_one_source() -> None:
    """After a review: the same document cited by two messages of one agent loop kept one
    message's quotes; a caller's search result block beside the answer that cites it was two
    sources (one keyed by its text, one by its source)."""

    def answer(text: str, quote: str) -> dict[str, Any]:
        cite = {
            "type": "char_location",
            "cited_text": quote,
            "document_index": 0,
            "document_title": "Handbook",
            "start_char_index": 0,
            "end_char_index": 5,
        }
        return {"type": "message", "role": "assistant", "stop_reason": "end_turn",
                "content": [{"type": "text", "text": text, "citations": [cite]}]}  # fmt: skip

    result = extract_sources(
        [
            ToolOutput(tool_name="claude", output=answer("a", "Staff get 25 days of leave.")),
            ToolOutput(tool_name="claude", output=answer("b", "Overtime is paid at 1.5x.")),
        ]
    )
    (source,) = result.sources
    assert source.snippet == "Staff get 25 days of leave.\n\nOvertime is paid at 1.5x."
    block = {"type": "search_result", "source": "kb-17", "title": "Refunds",
             "content": [{"type": "text", "text": "Refunds take 5 days."}]}  # fmt: skip
    result_block = {"type": "tool_result", "tool_use_id": "t1", "content": [block]}
    told = {"type": "message", "role": "user", "content": [result_block]}
    cite = {"type": "search_result_location", "source": "kb-17", "title": "Refunds",
            "cited_text": "Refunds take 5 days.", "search_result_index": 0,
            "start_block_index": 0, "end_block_index": 0}  # fmt: skip
    cited = {"type": "message", "role": "assistant", "stop_reason": "end_turn",
             "content": [{"type": "text", "text": "Five days.", "citations": [cite]}]}  # fmt: skip
    result = extract_sources(
        [ToolOutput(tool_name="claude", output=told), ToolOutput(tool_name="claude", output=cited)]
    )
    assert [s.id for s in result.sources] == ["mcp:search_result:kb-17:Refunds"]


def test_a_gemini_answer_grounded_on_a_document_store_gives_its_chunks_as_files() -> None:
    """Vertex AI Search and RAG stores ground Gemini on ``retrievedContext`` chunks with their
    text and a ``gs://`` address: they were web results with a warning on each address."""

    def chunk(name: str, text: str | None) -> dict[str, Any]:
        context = {"uri": f"gs://hr/{name}", "title": name, "text": text}
        return {"retrievedContext": {k: v for k, v in context.items() if v is not None}}

    chunks = [
        chunk("handbook.pdf", "Unused leave carries over, up to 5 days."),
        chunk("handbook.pdf", "Overtime is paid at 1.5 times the rate."),
        chunk("empty.pdf", None),
        {"web": {"uri": "https://acme.example/hr", "title": "acme.example"}},
    ]
    answer = {"candidates": [{"groundingMetadata": {"groundingChunks": chunks}}]}
    result = run("gemini", answer)
    assert [(s.type, s.uri, s.full_content) for s in result.sources] == [
        ("file", "gs://hr/handbook.pdf", "Unused leave carries over, up to 5 days."),
        ("file", "gs://hr/handbook.pdf", "Overtime is paid at 1.5 times the rate."),
        ("web_result", "https://acme.example/hr", None),
    ]
    assert len({s.id for s in result.sources}) == 3  # two passages of one document: two chunks
    assert [w.reason for w in result.warnings] == [
        "result 3 (a store's chunk gs://hr/empty.pdf) has no text; skipped"
    ]


def test_an_mcp_connectors_results_inside_a_claude_message_are_titled_with_its_tool() -> None:
    """A new user's trial: they were titled with the tool name the message was passed under
    ("claude"); the connector's server and tool say where they came from."""
    message = {
        "type": "message",
        "role": "assistant",
        "stop_reason": "end_turn",
        "content": [
            {"type": "mcp_tool_use", "id": "m1", "name": "search_issues", "server_name": "linear",
             "input": {"query": "login"}},
            {"type": "mcp_tool_result", "tool_use_id": "m1", "is_error": False,
             "content": [{"type": "text", "text": "ENG-4512: Login outage on 4 June 2025."}]},
            {"type": "text", "text": "The outage was on 4 June."},
        ],
    }  # fmt: skip
    (source,) = run("claude", message).sources
    assert (source.title, source.tool_name) == ("linear/search_issues", "claude")
