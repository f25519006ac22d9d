"""Web shapes: search results, scraped pages, Wikipedia pages and HTTP responses."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from attribution._wire import CitationSource, ToolOutput
from attribution.sources._extractors._framework import Warn, unsafe_scheme
from attribution.sources._extractors._shapes import (
    JSONObject,
    as_int,
    coerce_output,
    error_of,
    find_items,
    first_str,
    first_text,
    first_value,
    is_empty,
    kind_of,
    make_source,
    parse_labelled_text,
    text_of,
    to_json_text,
    unwrap,
    with_metadata,
)
from attribution.sources._extractors._vendors import (
    RETRIEVED_CHUNK,
    fetched_pages,
    provider_results,
)
from attribution.sources._html import html_page, looks_like_html
from attribution.sources._keys import is_web_url, text_digest
from attribution.sources._urls import canonical_url

__all__ = [
    "fetch_page",
    "has_web_results",
    "http_response",
    "is_web_page",
    "listing_in_text",
    "openai_response_pages",
    "reader_page",
    "web_page",
    "web_pages",
    "web_results",
    "wikipedia_pages",
]

URL_FIELDS = ("url", "link", "href", "source_url", "sourceUrl", "sourceURL")
_TITLE_FIELDS = ("title", "name")
_SNIPPET_FIELDS = (
    "snippet",
    "description",
    "content",
    "body",
    "text",
    "summary",
    "excerpt",
    "highlights",
    "answer",
)
_EXTRA_SNIPPET_FIELDS = ("extra_snippets", "summary", "highlights")
"""Fields whose text is added to a result's snippet besides its first snippet field."""
_MORE_RESULTS: tuple[tuple[str, ...], ...] = (
    ("news", "results"),
    ("faq", "results"),
    ("discussions", "results"),
    ("videos", "results"),
    ("related_questions",),
    ("peopleAlsoAsk",),
    ("top_stories",),
    ("topStories",),
    ("citations",),
)
"""Where a search response keeps results besides its main list: Brave's news, FAQ and
discussions, SerpApi's ``related_questions``, Serper's ``peopleAlsoAsk``, Perplexity's
``citations`` (bare URLs). A page in several lists is one source (merged by URL)."""
_RESULT_FULL_FIELDS = ("raw_content", "rawContent", "full_content", "fullContent", "markdown")
"""A result's whole page, where the search fetched it (Tavily's ``raw_content``, the
``markdown`` of Firecrawl's search and Apify's RAG Web Browser)."""
_PAGE_TEXT_FIELDS = ("content", "markdown", "text", "page_content", "raw_content", "body")
_PAGE_HTML_FIELDS = ("html", "rawHtml", "raw_html")
"""A page's HTML (Firecrawl's ``formats: ["html"]``), read when it has no text field."""
_PAGE_URL_FIELDS = (*URL_FIELDS, "final_url", "finalUrl", "og:url", "ogUrl")
_PAGE_TITLE_FIELDS = ("title", "og:title", "ogTitle")
_STATUS_FIELDS = ("status", "status_code", "statusCode")
_PARAM_URL_FIELDS = ("url", "uri", "link", "href", "endpoint")

_RESULT_LABELS = {
    "title": "title",
    "name": "title",
    "url": "url",
    "link": "url",
    "href": "url",
    "snippet": "snippet",
    "description": "snippet",
    "content": "snippet",
    "summary": "snippet",
    "body": "snippet",
    "text": "snippet",
    "excerpt": "snippet",
    "highlights": "snippet",
    "raw content": "raw_content",
    # Labels read so that their lines do not run into the snippet; not used further.
    "favicon": "favicon",
    "published": "published",
    "published date": "published",
    "date": "published",
    "author": "author",
    "score": "score",
}
_PLACEHOLDERS = frozenset({"n/a", "undefined", "null", "none"})
"""Values that listings print for a missing field (Exa's ``N/A``, Tavily's ``undefined``)."""
# Tavily's MCP server may close its listing with the images it found: not sources.
_IMAGES_SECTION = re.compile(r"^[ \t]*Images:[ \t]*\n.*\Z", re.MULTILINE | re.DOTALL)
_RULE = re.compile(r"^[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$", re.MULTILINE)
# DuckDuckGo's MCP server: "1. Title" then an indented "URL:" line.
_NUMBERED_TITLE = re.compile(
    r"^[ \t]*\d+[.)][ \t]+(?P<title>\S[^\n]*)\n(?=[ \t]*(?:url|link)[ \t]*:)",
    re.MULTILINE | re.IGNORECASE,
)
_EMPHASIS = re.compile(r"^[ \t]*(\*\*|__)(.+)\1[ \t]*$")
"""A title in bold (``1. **Title**`` of the Perplexity MCP server's listing)."""
_LABELLED_URL = re.compile(
    r"^[ \t]*(?:[-*+•][ \t]+|\d+[.)][ \t]+)?(?:url|link)[ \t]*:[ \t]*<?https?://",
    re.MULTILINE | re.IGNORECASE,
)
# LangChain's DuckDuckGoSearchResults: "snippet: S, title: T, link: L, snippet: ..." (older
# versions bracket each result). Snippets and titles may hold ", " and ": ", so a result is
# cut only where its link (no spaces) is followed by the next result or the end.
_DDG_RESULT = re.compile(
    r"\[?snippet: (?P<snippet>.*?), title: (?P<title>.*?), link: (?P<url>https?://\S+?)\]?"
    r"(?=, \[?snippet: |\s*$)",
    re.DOTALL,
)
# Jina Reader's text answer: header lines, then the page after "Markdown Content:".
_JINA_PAGE = re.compile(
    r"\A\s*Title:[ \t]*(?P<title>[^\n]*)\n\s*URL Source:[ \t]*(?P<url>\S+)[ \t]*\n"
    r"(?P<header>(?:[^\n]*\n)*?)\s*(?:Markdown|Text|HTML) Content:[ \t]*\n(?P<content>.*)\Z",
    re.DOTALL,
)
_JINA_WARNING = re.compile(r"^Warning:[ \t]*(?P<warning>.+)$", re.MULTILINE)
_DECORATION = re.compile(r"</?(?:strong|b|em|i|mark|span)(?:\s[^<>]*)?>", re.IGNORECASE)
_MARKDOWN_RESULT = re.compile(
    r"""^\s*(?:\d+[.)]|[-*+•]|\#{1,6})?\s*(?:\*\*)?
        \[(?P<title>[^\]\n]+)\]\((?P<url>https?://[^\s)]+)(?:\s+"[^"]*")?\)(?:\*\*)?
        \s*[-—–:|]*\s*(?P<rest>.*?)\s*$""",
    re.VERBOSE,
)
_BARE_URL = re.compile(r"^\s*(?:\d+[.)]\s*|[-*+•]\s*)?<?(?P<url>https?://[^\s<>]+?)>?\s*$")
_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"')\]]+")

_WIKI_LABELS = {"page": "title", "title": "title", "summary": "summary"}
_WIKI_LANG = re.compile(r"[a-z]{2,3}(?:-[a-z]+)?")
_HTML_TAG = re.compile(r"<[^>]+>")


def _result_line(line: str) -> dict[str, str] | None:
    """A line that starts a search result on its own: ``1. [Title](https://...)`` or a bare URL."""
    match = _MARKDOWN_RESULT.match(line)
    if match:
        return {"title": match["title"], "url": match["url"], "snippet": match["rest"]}
    match = _BARE_URL.match(line)
    return {"url": match["url"]} if match else None


def _plain_title(title: str) -> str:
    """A listing's title without the bold around it."""
    bold = _EMPHASIS.match(title)
    return bold[2] if bold else title


def _results_in_text(text: str) -> list[JSONObject]:
    """Search results written as markdown or as ``Title:/URL:/Snippet:`` blocks.

    Covers the listings of the Brave, Tavily, Exa and DuckDuckGo MCP servers: blocks split by
    ``---`` rules, ``1. Title`` lines over an indented ``URL:``, a multi-line ``Raw Content:``,
    ``N/A`` or ``undefined`` for a missing field, and a closing ``Images:`` section (dropped).
    """
    text = _IMAGES_SECTION.sub("", _RULE.sub("", text))
    text = _NUMBERED_TITLE.sub(lambda m: f"Title: {_plain_title(m['title'])}\n", text)
    records = parse_labelled_text(
        text,
        _RESULT_LABELS,
        body_field="snippet",
        record_start=_result_line,
        continued=("snippet", "raw_content"),
    )
    results: list[JSONObject] = []
    for record in records:
        found = _URL_IN_TEXT.search(record.get("url", ""))
        if found:  # a block without an address is a preamble or trailer, not a result
            kept = {k: v for k, v in record.items() if v.lower() not in _PLACEHOLDERS}
            results.append({**kept, "url": found.group(0)})
    return results


def _ddg_results(text: str) -> list[JSONObject]:
    """LangChain's DuckDuckGo results string, when ``text`` is one from start to end."""
    results: list[JSONObject] = []
    end = 0
    for match in _DDG_RESULT.finditer(text):
        if text[end : match.start()].strip(", "):
            return []  # something between results: not this format
        results.append(match.groupdict())
        end = match.end()
    return results if results and not text[end:].strip() else []


def listing_in_text(text: str) -> list[JSONObject]:
    """The search results in a text that labels its addresses (``URL: https://...``).

    Stricter than what a search tool's text is read with: a page that merely links elsewhere
    is not a listing, so without a labelled URL line the answer is empty.
    """
    return _results_in_text(text) if _LABELLED_URL.search(text) else []


def _undecorated(text: str | None) -> str | None:
    """A snippet without highlight tags (Brave's ``<strong>``) and HTML entities."""
    if text is None or ("<" not in text and "&" not in text):
        return text
    return text_of(html.unescape(_DECORATION.sub("", text)))


def has_web_results(data: Any) -> bool:
    """True when ``data`` is one result with an http(s) url or holds a list with such results."""
    if isinstance(data, dict) and is_web_url(first_str(with_metadata(data), *URL_FIELDS)):
        return True
    if provider_results(data) is not None:
        return True  # Anthropic's web search, Gemini's grounding
    found = find_items(data)
    return found is not None and any(
        isinstance(item, dict) and is_web_url(first_str(with_metadata(item), *URL_FIELDS))
        for item in found[0]
    )


def _result(item: Any, position: int, call: ToolOutput, warn: Warn) -> Iterator[CitationSource]:
    """The source of one search result; a string result may hold several in text."""
    if isinstance(item, str):
        parsed = _results_in_text(item)
        if not parsed:
            warn(f"result {position} is text without a URL; skipped")
        for result in parsed:
            yield from _result(result, position, call, warn)
        return
    if not isinstance(item, dict):
        warn(f"result {position} is a {kind_of(item)}, not an object; skipped")
        return
    if item.get(RETRIEVED_CHUNK) is True:  # a store's passage Gemini was grounded on
        yield from _retrieved_chunk(item, position, call, warn)
        return
    item = with_metadata(item)
    url = first_str(item, *URL_FIELDS)
    snippet = _undecorated(first_text(item, *_SNIPPET_FIELDS))
    # Brave's extra_snippets and Exa's summary are more of the page's words, not noise
    extra = [_undecorated(first_text(item, f)) for f in _EXTRA_SNIPPET_FIELDS]
    more = [e for e in extra if e and (not snippet or e not in snippet)]
    if more:
        snippet = "\n\n".join([*([snippet] if snippet else []), *more])
    full = first_text(item, *_RESULT_FULL_FIELDS) or _crawled_text(item)
    if url is None and not (snippet or full):
        warn(f"result {position} has no url and no text; skipped")
        return
    if url is None:
        warn(f"result {position} has no url; kept, identified by its text")
    elif not is_web_url(url) and not unsafe_scheme(url):  # an unsafe one is warned about later
        warn(f"result {position} has a url that is not http(s) ({url!r}); kept as given")
    source = make_source(
        call,
        "web_result",
        uri=url,
        title=_undecorated(first_str(item, *_TITLE_FIELDS)),
        snippet=snippet,
        full_content=full,
        domain=first_str(item, "domain"),
    )
    if source is not None:
        yield source


def _retrieved_chunk(
    item: JSONObject, position: int, call: ToolOutput, warn: Warn
) -> Iterator[CitationSource]:
    """A passage of a document store a provider's answer was grounded on (Gemini's
    ``retrievedContext``: ``gs://bucket/handbook.pdf``, its title and text): a ``file`` chunk
    keyed by its document and text."""
    uri, title = first_str(item, "url", "uri"), first_str(item, "title")
    text = first_text(item, "text", "content")
    if text is None:
        warn(f"result {position} (a store's chunk {uri or title or ''}) has no text; skipped")
        return
    document = uri or title or "document"
    source = make_source(
        call, "file", locator=(document, text_digest(text)), uri=uri, title=title, full_content=text
    )
    if source is not None:
        yield source


def _crawled_text(item: JSONObject) -> str | None:
    """A crawled page's text in a listing of results: Crawl4AI's ``fit_markdown`` (the page
    without its chrome), else what a reader sees of its ``html``, else its ``raw_markdown``."""
    markdown = item.get("markdown")
    markdown = markdown if isinstance(markdown, dict) else {}
    if fit := first_text(markdown, "fit_markdown"):
        return fit
    markup = first_text(item, *_PAGE_HTML_FIELDS)
    read = html_page(markup)[1] if markup else None
    return read or first_text(markdown, "raw_markdown")


def _more_results(data: JSONObject, main: list[Any]) -> list[Any]:
    """The results of a response's secondary lists (:data:`_MORE_RESULTS`), main list excluded."""
    more: list[Any] = []
    for path in _MORE_RESULTS:
        value: Any = data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, list) and value is not main:
            more.extend(value)
    return more


_RESPONSE_ITEMS = frozenset(
    {
        "message",
        "reasoning",
        "web_search_call",
        "file_search_call",
        "function_call",
        "custom_tool_call",
        "computer_call",
        "code_interpreter_call",
        "image_generation_call",
        "local_shell_call",
        "mcp_call",
        "mcp_list_tools",
        "mcp_approval_request",
    }
)
"""The kinds of item an OpenAI Responses answer's ``output`` holds."""


def _response_item(item: JSONObject) -> bool:
    """Whether ``item`` of an ``output`` list is one of a Responses answer's."""
    return item.get("type") in _RESPONSE_ITEMS


def openai_response_pages(data: JSONObject) -> list[Any] | None:
    """The pages an OpenAI Responses answer cites or searched, or None if it is not one.

    ``url_citation`` annotations come first, with their titles; the ``web_search_call``
    sources follow. The citations' URLs carry ``?utm_source=openai``, which the source key
    ignores, so a page both cited and searched is one source.
    """
    output = data.get("output")
    if data.get("object") != "response" or not isinstance(output, list):
        return None
    if not any(isinstance(item, dict) and _response_item(item) for item in output):
        return None  # another tool's "response" object: no message, no call of a model's tool
    cited: list[Any] = []
    searched: list[Any] = []
    for item in output:
        if not isinstance(item, dict):
            continue
        action = item.get("action")
        sources = action.get("sources") if isinstance(action, dict) else None
        if isinstance(sources, list):
            searched.extend(sources)
        content = item.get("content")
        for part in content if isinstance(content, list) else []:
            notes = part.get("annotations") if isinstance(part, dict) else None
            for note in notes if isinstance(notes, list) else []:
                if isinstance(note, dict) and note.get("type") == "url_citation":
                    cited.append({"url": note.get("url"), "title": note.get("title")})
    return cited + searched


def web_results(data: Any, call: ToolOutput, warn: Warn) -> Iterator[CitationSource]:
    """Sources of a search tool's output.

    Args:
        data: the coerced output: a list of results, an object holding one (``results``,
            Serper's ``organic``, SerpAPI's ``organic_results``, Brave's ``web.results``, Bing's
            ``webPages.value``) and maybe secondary lists (:data:`_MORE_RESULTS`), an OpenAI
            Responses answer, one result object, text listing results in markdown or labelled
            blocks, or LangChain's DuckDuckGo results string.
        call: the tool call.
        warn: records problems.

    Yields:
        One ``web_result`` source per usable result.
    """
    if is_empty(data):
        warn("output is empty")
        return
    if isinstance(data, str):
        items: list[Any] = _ddg_results(data) or _results_in_text(data)
        if not items:
            stripped = data.strip()
            if stripped[:1] in ("[", "{"):
                # coerce_output could not read it: malformed, cut short or nested too deep
                warn(
                    "output looks like JSON but cannot be read (malformed, cut short or nested "
                    "too deep); kept as one text source"
                )
            else:
                warn("text output lists no results (no http(s) URL found); kept as one text source")
            source = make_source(call, "api", title=call.tool_name, full_content=text_of(data))
            if source is not None:
                yield source
            return
    else:
        found = find_items(data)
        openai = openai_response_pages(data) if isinstance(data, dict) else None
        provided = provider_results(data, warn)
        if openai is not None:
            items = openai
        elif provided is not None:
            items = provided
        elif found is not None:
            items = found[0]
            if isinstance(data, dict):
                items = [*items, *_more_results(data, items)]
        elif isinstance(data, dict) and first_str(data, *URL_FIELDS):
            items = [data]  # a single result
        else:
            error = error_of(data)
            reason = f"reports an error: {error}" if error else "has no list of results"
            warn(f"output ({kind_of(data)}) {reason}; no sources")
            return
    if not items:
        warn("output has an empty list of results")
    for position, item in enumerate(items, 1):
        yield from _result(item, position, call, warn)
    if isinstance(data, dict):
        _warn_failed(data, warn)


def _warn_failed(data: JSONObject, warn: Warn) -> None:
    """A warning for each page the tool reports it could not fetch (Tavily's
    ``failed_results``): the URL and the tool's reason, since no source comes of it."""
    failed = first_value(data, "failed_results", "failedResults", "failed")
    if not isinstance(failed, list):
        return
    for position, item in enumerate(failed, 1):
        url = first_str(item, *URL_FIELDS) if isinstance(item, dict) else None
        reason = error_of(item) if isinstance(item, dict) else None
        if reason is None and isinstance(item, str):
            url = url or item
        warn(
            f"failed result {position} ({url or 'no url'}): the tool could not fetch it"
            f"{f' ({reason})' if reason else ''}; no source"
        )


_FETCH_PAGE = re.compile(r"\A\s*Contents of (?P<url>https?://\S+?):[ \t]*\n(?P<content>.*)\Z", re.S)
_FETCH_NOTICE = re.compile(
    r"\s*<error>(?:Content truncated\. Call the fetch tool with a start_index of \d+ to get "
    r"more content\.|No more content available\.)</error>\s*\Z"
)


def fetch_page(text: str) -> JSONObject | None:
    """The page in the reference MCP ``fetch`` server's answer: ``Contents of <url>:`` and the
    page as markdown, maybe ending in its truncation notice (removed: it is not the page's).

    Returns:
        ``{url, content}``, or None when ``text`` is not one.
    """
    match = _FETCH_PAGE.match(text)
    if match is None:
        return None
    content = _FETCH_NOTICE.sub("", match["content"]).strip()
    return {"url": match["url"], "content": content} if content else None


def reader_page(text: str, warn: Warn) -> JSONObject | None:
    """The page in a Jina Reader text answer (``Title:``, ``URL Source:``, ``Markdown Content:``).

    Args:
        text: a tool's text output.
        warn: records the ``Warning:`` header lines Reader adds (a 404 from the target).

    Returns:
        ``{title, url, content}`` without the header lines, or None when ``text`` is not one.
    """
    match = _JINA_PAGE.match(text)
    if match is None:
        return None
    for header in _JINA_WARNING.finditer(match["header"]):
        warn(f"the reader reports: {header['warning'].strip()}")
    return {"title": match["title"], "url": match["url"], "content": match["content"]}


def _status(obj: JSONObject) -> int | None:
    for name in _STATUS_FIELDS:
        status = as_int(obj.get(name))
        if status is not None and 100 <= status <= 599:
            return status
    return None


def _page_of(obj: JSONObject) -> JSONObject:
    """The page inside ``obj`` (Firecrawl's ``data``), with its ``metadata`` fields."""
    return with_metadata(unwrap(obj, (*_PAGE_TEXT_FIELDS, *_PAGE_HTML_FIELDS))[0])


def is_web_page(obj: JSONObject) -> bool:
    """True when ``obj`` looks like one fetched page: an http(s) address and some text."""
    page = _page_of(obj)
    return is_web_url(first_str(page, *_PAGE_URL_FIELDS)) and bool(
        first_text(page, *_PAGE_TEXT_FIELDS, *_PAGE_HTML_FIELDS)
    )


def _first_listed(obj: JSONObject, names: tuple[str, ...]) -> str | None:
    """The first string of the first of ``names`` holding a list of them: Firecrawl writes a
    page's title as a list where the page has two ``<title>`` or ``og:title`` tags."""
    for name in names:
        value = obj.get(name)
        if isinstance(value, list):
            found = next((v.strip() for v in value if isinstance(v, str) and v.strip()), None)
            if found:
                return found
    return None


def web_page(
    obj: JSONObject, call: ToolOutput, warn: Warn, *, what: str = "page"
) -> CitationSource | None:
    """The source of one fetched page, with its whole text.

    Args:
        obj: ``{url, title, content|markdown|text}``, or an envelope around one (Firecrawl's
            ``{"success": true, "data": {"markdown", "metadata": {"title", "sourceURL"}}}``).
        call: the tool call; ``parameters["url"]`` is the address when the page has none.
        warn: records problems.
        what: how warnings name the page (``page 2`` in a crawl).

    Returns:
        A ``web`` source, or None (with a warning) when the page failed or has no text.
    """
    error = error_of(obj)
    page = _page_of(obj)
    status = _status(page)
    url = first_str(page, *_PAGE_URL_FIELDS) or first_str(call.parameters, *_PARAM_URL_FIELDS)
    if status is not None and status >= 400:
        where = f" {url}" if url else ""
        warn(f"{what}{where} returned HTTP {status}; skipped")
        return None
    content = first_text(page, *_PAGE_TEXT_FIELDS)
    title = first_str(page, *_PAGE_TITLE_FIELDS) or _first_listed(page, _PAGE_TITLE_FIELDS)
    markup = first_text(page, *_PAGE_HTML_FIELDS) if content is None else content
    if markup is not None and (content is None or looks_like_html(markup)):
        # a page's HTML in its text field, or only in its html field: what a reader sees
        html_title, content = html_page(markup)
        title = title or html_title
        if not content:
            warn(f"{what} is an HTML page with no readable text; skipped")
            return None
    if content is None:
        detail = (
            f"reports an error: {error}" if error else "has no text (content/markdown/text/html)"
        )
        warn(f"{what} {detail}; skipped")
        return None
    if url is None:
        warn(f"{what} has no url and the call has no url parameter; kept, identified by its text")
    return make_source(
        call,
        "web",
        uri=url,
        title=title,
        snippet=first_text(page, "description", "og:description", "ogDescription"),
        full_content=content,
    )


def web_pages(data: Any, call: ToolOutput, warn: Warn) -> Iterator[CitationSource]:
    """Sources of a scrape tool's output: one page, a crawl's list of pages, plain text, or an
    HTML page (read by :func:`html_page`: its readable text and ``<title>``).

    Args:
        data: the coerced output (Jina Reader's text answer included, see :func:`reader_page`).
        call: the tool call; plain text takes its address from ``parameters["url"]``.
        warn: records problems.

    Yields:
        One ``web`` source per page with text.
    """
    if is_empty(data):
        warn("output is empty")
        return
    fetched = fetched_pages(data, warn)  # Anthropic's web fetch
    if fetched is not data and isinstance(fetched, dict) and "results" in fetched:
        yield from web_results(fetched, call, warn)  # a fetched PDF among them: results
        return
    data = fetched
    if isinstance(data, str) and looks_like_html(data):
        title, text = html_page(data)
        if not text:
            warn("output is an HTML page with no readable text; skipped")
            return
        data = {"content": text, "title": title}
    elif isinstance(data, str):
        data = reader_page(data, warn) or fetch_page(data) or {"content": data}
    elif isinstance(data, dict) and isinstance(data.get("content"), list):
        # an MCP result of the fetch server under a scrape tool's name
        blocks = text_of(data["content"])
        data = (fetch_page(blocks) if blocks else None) or data
    if isinstance(data, dict) and first_text(
        _page_of(data), *_PAGE_TEXT_FIELDS, *_PAGE_HTML_FIELDS
    ):
        pages: list[Any] = [data]  # one page, even if it has a list field such as "items"
    else:
        found = find_items(data)
        pages = found[0] if found is not None else [data]
    several = len(pages) > 1
    for position, page in enumerate(pages, 1):
        what = f"page {position}" if several else "page"
        if isinstance(page, str):
            page = {"content": page}
        if not isinstance(page, dict):
            warn(f"{what} is a {kind_of(page)}, not an object or text; skipped")
            continue
        source = web_page(page, call, warn, what=what)
        if source is not None:
            yield source


def _wikipedia_url(title: str, call: ToolOutput) -> str:
    lang = first_str(call.parameters, "lang", "language")
    host = lang.lower() if lang and _WIKI_LANG.fullmatch(lang.lower()) else "en"
    return f"https://{host}.wikipedia.org/wiki/{quote(title.replace(' ', '_'), safe='/:()_,-')}"


def _plain(text: str | None) -> str | None:
    """Search snippets from the MediaWiki API carry ``<span class="searchmatch">`` markup."""
    return text_of(html.unescape(_HTML_TAG.sub("", text))) if text else None


def wikipedia_pages(data: Any, call: ToolOutput, warn: Warn) -> Iterator[CitationSource]:
    """Sources of a Wikipedia tool's output.

    Args:
        data: the coerced output: a page object or a list of them (``{title,
            summary|extract|content|snippet, url|fullurl}``), a MediaWiki API response
            (``query.search`` or ``query.pages``), or LangChain's text ``Page: T\\nSummary: ...``.
        call: the tool call (``parameters["lang"]`` picks the wiki for built URLs).
        warn: records problems.

    Yields:
        One ``web_result`` source per page; its URL is built from the title when none is given.
    """
    if is_empty(data):
        warn("output is empty")
        return
    if isinstance(data, str):
        pages: list[Any] = parse_labelled_text(data, _WIKI_LABELS, body_field="summary")
        pages = [p for p in pages if "title" in p]
        if not pages:
            warn("text output has no 'Page: <title>' entries; no sources")
            return
    else:
        query = data.get("query") if isinstance(data, dict) else None
        listing = first_value(query, "pages", "search") if isinstance(query, dict) else None
        if isinstance(listing, dict):  # query.pages is keyed by page id
            listing = list(listing.values())
        found = (listing, None) if isinstance(listing, list) else find_items(data)
        pages = found[0] if found is not None else [data]
    for position, page in enumerate(pages, 1):
        if not isinstance(page, dict):
            warn(f"page {position} is a {kind_of(page)}, not an object; skipped")
            continue
        title = first_str(page, "title")
        url = first_str(page, "url", "fullurl", "canonicalurl", "link")
        full = first_text(page, "content", "extract", "text")
        snippet = _plain(first_str(page, "summary", "snippet", "description"))
        if not (full or snippet):
            warn(f"page {position} ({title or 'untitled'}) has no text; skipped")
            continue
        if url is None and title is not None:
            url = _wikipedia_url(title, call)
        source = make_source(
            call, "web_result", uri=url, title=title, snippet=snippet, full_content=full
        )
        if source is not None:
            yield source


def _body_text(body: Any, warn: Warn) -> str | None:
    """A response body as evidence text: JSON pretty-printed, text as is."""
    body = coerce_output(body)
    if is_empty(body):
        return None
    if isinstance(body, str):
        return text_of(body)
    return to_json_text(body, warn)


def http_response(data: Any, call: ToolOutput, warn: Warn) -> Iterator[CitationSource]:
    """The source of an HTTP client tool's output.

    Args:
        data: the coerced output: an envelope ``{status|status_code, url, headers,
            body|content|text|data|json}``, or the body itself (text or JSON).
        call: the tool call; ``parameters["url"]`` is the address when the output has none,
            and a ``method`` other than GET keys the source by its text, not its URL.
        warn: records problems.

    Yields:
        One ``api`` source, unless the status is 400 or more or the body is empty.
    """
    url = first_str(call.parameters, *_PARAM_URL_FIELDS)
    body: Any = data
    if isinstance(data, dict) and (
        _status(data) is not None or isinstance(data.get("headers"), dict)
    ):
        status = _status(data)
        url = first_str(data, "url", "final_url", "finalUrl") or url
        if status is not None and status >= 400:
            warn(f"HTTP {status} from {url or 'the request'}; no source")
            return
        body = first_value(data, "body", "content", "text", "data", "json")
    text = _body_text(body, warn)
    if text is None:
        warn(f"response from {url or 'the request'} has an empty body; no source")
        return
    page_title = None
    if looks_like_html(text):
        page_title, text = html_page(text)
        if not text:
            warn(f"response from {url or 'the request'} is an HTML page with no readable text")
            return
    method = (first_str(call.parameters, "method") or "GET").upper()
    locator = (canonical_url(url),) if url and is_web_url(url) and method == "GET" else None
    source = make_source(
        call,
        "api",
        locator=locator,
        uri=url,
        title=page_title or (f"{method} {url}" if url else None),
        full_content=text,
    )
    if source is not None:
        yield source
