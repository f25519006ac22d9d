"""Sources cut into passages of a few sentences, with offsets into the source text."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Literal

import msgspec

from attribution._config import MatchConfig
from attribution._wire import CitationSource
from attribution.text import source_sentence_spans

__all__ = [
    "Passage",
    "SourceField",
    "clear_sentence_cache",
    "cut_long",
    "make_passages",
    "source_text",
]

SourceField = Literal["fullContent", "snippet"]


class Passage(msgspec.Struct, frozen=True, kw_only=True):
    """A window of consecutive sentences of one source.

    ``source_text(source)[start:end] == text``, and each sentence span lies inside
    ``[start, end)`` with offsets into the same source text.
    """

    index: int
    """Position among all passages of the request."""
    source_index: int
    """Position of the source in the request's source list."""
    source_id: str
    """Id of the source."""
    field: SourceField
    """Which text of the source the offsets point into."""
    start: int
    """Start offset in the source text."""
    end: int
    """End offset in the source text."""
    text: str
    """The passage."""
    sentences: tuple[tuple[int, int], ...]
    """Sentence spans (source-text offsets) inside the passage."""


def source_text(source: CitationSource) -> tuple[str, SourceField]:
    """The text evidence is sought in: ``fullContent``, else ``snippet``, with its field name."""
    if source.full_content and source.full_content.strip():
        return source.full_content, "fullContent"
    return source.snippet or "", "snippet"


def cut_long(text: str, span: tuple[int, int], limit: int) -> list[tuple[int, int]]:
    """``span`` of ``text`` as is, or cut at white space into pieces of at most ``limit``
    characters when it is longer (a table row, a run-on scrape: text with neither full stops
    nor line breaks); a piece neither starts nor ends with white space, and a word longer than
    half the limit is cut where the limit falls."""
    a, b = span
    pieces: list[tuple[int, int]] = []
    while b - a > limit:
        cut = next(
            (k for k in range(a + limit - 1, a + limit // 2 - 1, -1) if text[k].isspace()),
            a + limit,
        )
        end = cut
        while end > a and text[end - 1].isspace():
            end -= 1
        pieces.append((a, end))
        a = cut
        while a < b and text[a].isspace():
            a += 1
    if a < b:
        pieces.append((a, b))
    return pieces


SENTENCE_CACHE = 4_096
"""Source texts whose sentence spans are kept between requests, by the text's sha256 (the text
itself is not held): a later turn over the same sources does not split them again (about 0.3 s
for 100 sources of 2,000 words on two cores)."""

_sentences: OrderedDict[tuple[bytes, int], tuple[tuple[int, int], ...]] = OrderedDict()
_sentences_lock = threading.Lock()


def _sentence_pieces(text: str, limit: int) -> tuple[tuple[int, int], ...]:
    """The sentence spans of ``text``, those longer than ``limit`` cut at spaces; cached."""
    key = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest(), limit)
    with _sentences_lock:
        found = _sentences.get(key)
        if found is not None:
            _sentences.move_to_end(key)
            return found
    pieces = tuple(
        piece for span in source_sentence_spans(text) for piece in cut_long(text, span, limit)
    )
    with _sentences_lock:
        _sentences[key] = pieces
        while len(_sentences) > SENTENCE_CACHE:
            _sentences.popitem(last=False)
    return pieces


def clear_sentence_cache() -> None:
    """Forget the cached sentence spans of every source text."""
    with _sentences_lock:
        _sentences.clear()


def make_passages(
    sources: Sequence[CitationSource], config: MatchConfig | None = None
) -> list[Passage]:
    """Cut every source into overlapping windows of ``passage_sentences`` sentences.

    Consecutive windows of a source share ``passage_overlap`` sentences; a window also ends
    before it would pass ``passage_max_chars``. A source without text gives no passage.
    """
    config = config or MatchConfig()
    passages: list[Passage] = []
    step = config.passage_sentences - config.passage_overlap
    for source_index, source in enumerate(sources):
        text, field = source_text(source)
        sentences = _sentence_pieces(text, config.passage_max_chars)
        i = 0
        while i < len(sentences):
            window = [sentences[i]]
            j = i + 1
            while (
                j < len(sentences)
                and len(window) < config.passage_sentences
                and sentences[j][1] - window[0][0] <= config.passage_max_chars
            ):
                window.append(sentences[j])
                j += 1
            start, end = window[0][0], window[-1][1]
            passages.append(
                Passage(
                    index=len(passages),
                    source_index=source_index,
                    source_id=source.id,
                    field=field,
                    start=start,
                    end=end,
                    text=text[start:end],
                    sentences=tuple(window),
                )
            )
            if j >= len(sentences):
                break
            i += max(1, min(step, len(window) - config.passage_overlap))
    return passages
