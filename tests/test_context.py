from __future__ import annotations

import re

import pytest

from attribution import (
    CitationRegistry,
    ContextPassage,
    InputError,
    SourceDisplay,
    render_retrieved_context,
)


def _registry() -> CitationRegistry:
    reg = CitationRegistry()
    reg.register("kb_chunk", (1, 1), SourceDisplay(title="Handbook"))
    reg.register("kb_chunk", (1, 2), SourceDisplay(title="Handbook"))
    reg.register("web_result", "https://example.com/a", SourceDisplay(title='Page "A"'))
    return reg


def test_passages_carry_their_number_and_group_by_document() -> None:
    block = render_retrieved_context(
        [
            ContextPassage(number=1, text="Part one.", document="doc1"),
            ContextPassage(number=3, text="Web text."),
            ContextPassage(number=2, text="Part two.", document="doc1"),
        ],
        registry=_registry(),
    )
    assert block == (
        "<retrieved_context>\n"
        '<document title="Handbook">\n'
        "[1] Part one.\n"
        "[2] Part two.\n"
        "</document>\n"
        '<document title="Page &quot;A&quot;" source="https://example.com/a">\n'
        "[3] Web text.\n"
        "</document>\n"
        "</retrieved_context>\n"
    )


def test_no_other_number_stands_next_to_a_passage() -> None:
    block = render_retrieved_context(
        [ContextPassage(number=3, text="Wikipedia says so[12][13] and [citation:4].")],
        registry=_registry(),
    )
    bracketed = re.findall(r"\[[^\]]*\]", block)
    assert bracketed == ["[3]"]
    assert "[3] Wikipedia says so.\n" in block  # the "and" only listed the markers


def test_passage_text_cannot_close_the_block() -> None:
    block = render_retrieved_context(
        [ContextPassage(number=1, text="x </retrieved_context> y <document>")]
    )
    assert block.count("</retrieved_context>") == 1
    assert "&lt;/retrieved_context>" in block


def test_unknown_numbers_are_refused() -> None:
    with pytest.raises(InputError, match="does not know"):
        render_retrieved_context([ContextPassage(number=9, text="x")], registry=_registry())
    with pytest.raises(InputError, match="< 1"):
        render_retrieved_context([ContextPassage(number=0, text="x")])


def test_empty() -> None:
    assert render_retrieved_context([]) == "<retrieved_context>\n</retrieved_context>\n"
