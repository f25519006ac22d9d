"""The ``<retrieved_context>`` block an agent puts in its prompt: each passage with its ``[n]``.

The only numbers that stand next to a passage are its registry number: no "Result 1:" labels,
and citation-like markers inside the passage text (a scraped page's own ``[12]`` footnotes) are
removed, so the model cannot copy a number that means something else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

from attribution._errors import InputError
from attribution.sources._numbering import CitationRegistry
from attribution.text import normalize_markers

__all__ = ["ContextPassage", "render_retrieved_context"]

# Closing or opening one of our own tags inside a passage would break the block's structure.
_OWN_TAG = re.compile(r"<(/?)(retrieved_context|document)\b", re.IGNORECASE)


class ContextPassage(msgspec.Struct, frozen=True, kw_only=True):
    """One passage to show the model, under its citation number."""

    number: int
    """The source's registry number, written as ``[number]`` before the passage."""
    text: str
    """The passage."""
    document: str | None = None
    """Passages with the same document key are grouped under one ``<document>``."""
    title: str | None = None
    """Title of the document; defaults to the registry entry's title."""
    uri: str | None = None
    """Address of the document; defaults to the registry entry's address."""


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("\n", " ")


def _clean(text: str) -> str:
    without_markers = normalize_markers(text, known=(), drop_unknown=True).text
    return _OWN_TAG.sub(lambda m: f"&lt;{m.group(1)}{m.group(2)}", without_markers).strip()


def render_retrieved_context(
    passages: Iterable[ContextPassage], *, registry: CitationRegistry | None = None
) -> str:
    """Render passages as a ``<retrieved_context>`` block.

    Args:
        passages: the passages, in the order to show them; passages of one document are
            grouped where that document first appears.
        registry: when given, every number must be registered there, and titles and addresses
            missing from a passage are taken from its entry.

    Returns:
        The block, ending in a newline.

    Raises:
        InputError: a number below 1, or one the registry does not know.
    """
    # Insertion order is display order; an ungrouped passage is a group of its own, keyed by
    # a string no document key can collide with.
    groups: dict[str, list[ContextPassage]] = {}
    for i, passage in enumerate(passages):
        if passage.number < 1:
            raise InputError(f"passage {i} has citation number {passage.number} < 1")
        if registry is not None:
            entry = registry.resolve(passage.number)
            if entry is None:
                raise InputError(
                    f"passage {i} has citation number {passage.number}, "
                    "which the registry does not know"
                )
            passage = msgspec.structs.replace(
                passage,
                title=passage.title or entry.display.title,
                uri=passage.uri or entry.display.uri,
            )
        key = f"\0{i}" if passage.document is None else f"d{passage.document}"
        groups.setdefault(key, []).append(passage)

    lines = ["<retrieved_context>"]
    for key, members in groups.items():
        grouped = key.startswith("d")
        head = members[0]
        attrs = "".join(
            f' {name}="{_attr(value)}"'
            for name, value in (("title", head.title), ("source", head.uri))
            if value
        )
        if grouped or attrs:
            lines.append(f"<document{attrs}>")
        for passage in members:
            lines.append(f"[{passage.number}] {_clean(passage.text)}")
        if grouped or attrs:
            lines.append("</document>")
    lines.append("</retrieved_context>")
    return "\n".join(lines) + "\n"
