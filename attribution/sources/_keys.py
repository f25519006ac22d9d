"""Stable source keys: how one source is recognised again, across tools, turns and subagents."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from attribution._errors import InputError
from attribution._wire import SOURCE_TYPES, CitationSource
from attribution.sources._urls import canonical_url

__all__ = [
    "check_distinct_ids",
    "content_key",
    "is_web_url",
    "make_source_key",
    "source_key",
    "text_digest",
]

_WEB_TYPES = frozenset({"web", "web_result"})
# One page is one source whether a search result or a scrape brought it, so every web source
# identified by a URL shares this prefix.
_WEB_PREFIX = "web_result"

Locator = str | int | Sequence[str | int]


def is_web_url(uri: str | None) -> bool:
    """True when ``uri`` is an absolute http(s) URL."""
    if not uri:
        return False
    lowered = uri.strip().lower()
    return lowered.startswith(("http://", "https://")) and len(lowered) > len("https://")


def make_source_key(source_type: str, locator: Locator) -> str:
    """Build the stable key of a source from its type and locator.

    Args:
        source_type: one of the ``CitationSource`` types.
        locator: what identifies the source within its type: a URL for web sources, a tuple
            such as ``(document_id, chunk_id)`` for a knowledge-base chunk, a single id otherwise.

    Returns:
        ``web_result:<canonical url>`` for web sources, else ``<type>:<part>:<part>...``
        (``kb_chunk:42:880``).

    Raises:
        InputError: the type is unknown or the locator is empty.
    """
    if source_type not in SOURCE_TYPES:
        raise InputError(f"unknown source type {source_type!r}; expected one of {SOURCE_TYPES}")
    parts = [locator] if isinstance(locator, str | int) else list(locator)
    texts = [str(p).strip() for p in parts]
    if not texts or any(not t for t in texts):
        raise InputError(f"empty locator for a {source_type} source: {locator!r}")
    if source_type in _WEB_TYPES and len(texts) == 1 and is_web_url(texts[0]):
        return f"{_WEB_PREFIX}:{canonical_url(texts[0])}"
    return ":".join([source_type, *texts])


def text_digest(text: str) -> str:
    """A short hash of ``text`` (blanks around it aside): what names a source by its text."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:16]


def content_key(source_type: str, text: str) -> str:
    """Key for a source that has no locator of its own: its type and a hash of its text."""
    return make_source_key(source_type, ("sha256", text_digest(text)))


def source_key(source: CitationSource) -> str:
    """The stable key of ``source``: its canonical URL for web sources, else its id."""
    if source.type in _WEB_TYPES and source.uri and is_web_url(source.uri):
        return make_source_key(source.type, source.uri)
    return source.id


def check_distinct_ids(sources: Sequence[CitationSource], what: str = "sources") -> None:
    """Refuse one id given to two sources with different texts.

    An id names one source; two sightings of it (a search result, then the scrape with the
    page's text) are merged, but two different texts under one id are two sources the caller
    mixed up, and keeping either would judge claims against the wrong one.

    An id that is empty or blank names nothing and is refused too.

    Raises:
        InputError: naming the later item (``sources[3].id``) and the earlier one, or the item
            whose id is blank.
    """
    seen: dict[str, tuple[int, CitationSource]] = {}
    for i, source in enumerate(sources):
        if not isinstance(source.id, str) or not source.id.strip():
            raise InputError(f"{what}[{i}].id is blank: a source needs an id that names it")
        first = seen.setdefault(source.id, (i, source))
        if first[0] == i:
            continue
        earlier = first[1]
        # like for like: a snippet beside a page's text is a search result and its scrape
        if earlier.full_content and source.full_content:
            clash = earlier.full_content != source.full_content
        elif earlier.full_content or source.full_content:
            clash = False
        else:
            clash = bool(earlier.snippet and source.snippet and earlier.snippet != source.snippet)
        if clash:
            raise InputError(
                f"{what}[{i}].id: {source.id!r} is the id of {what}[{first[0]}] too, with "
                "another text; an id names one source"
            )
