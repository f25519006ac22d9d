"""The citation-forms benchmark writes an answer's markers in other forms without moving its
claims: every claim's text is found where the rewritten offsets say."""

from __future__ import annotations

import pytest

from attribution import find_markers
from benchmarks.citation_forms import FORMS, moved, rewrite
from benchmarks.datasets import ExpertQAAnswer, ExpertQAClaim

TEXT = "Orion runs in Frankfurt [1]. It opened Dublin in 2024 [2][3]. It has [9] more."


def _answer() -> ExpertQAAnswer:
    spans = [(0, 28), (29, 61)]
    claims = tuple(
        ExpertQAClaim(
            example_id=f"a:{i}",
            index=i,
            text=TEXT[a:b],
            start=a,
            end=b,
            match=None,
            markers=(),
            evidence=(),
            support="Complete",
            label=True,
            raw_label="Complete",
        )
        for i, (a, b) in enumerate(spans)
    )
    return ExpertQAAnswer(
        example_id="a", question="q", system="rr_x", answer_text=TEXT, sources={}, claims=claims
    )


@pytest.mark.parametrize("form", FORMS)
def test_claims_stay_where_the_rewritten_offsets_say(form: str) -> None:
    answer = _answer()
    text, edits = rewrite(answer, [1, 2, 3], form)
    for claim in answer.claims:
        assert claim.start is not None
        assert claim.end is not None
        head = claim.text[:10]
        assert text[moved(claim.start, edits) :].startswith(head)
        assert text[moved(claim.end, edits) - 1] == "."
    # a number no source has stays as written
    assert "[9]" in text
    if form == "bracket":
        assert text == TEXT
    elif form in ("doc", "source-number"):  # markers still, with a word before the number
        assert [m.numbers for m in find_markers(text)] == [(1,), (2,), (3,), (9,)]
    else:  # no marker the sources number is left as "[n]"
        assert [m.text for m in find_markers(text.split("\n\n")[0])] == ["[9]"]


def test_the_forms_as_written() -> None:
    answer = _answer()
    link, _ = rewrite(answer, [1, 2, 3], "link")
    assert "Frankfurt ([source-1.example.org](https://source-1.example.org/a))." in link
    named, _ = rewrite(answer, [1, 2, 3], "named")
    assert "2024 (Source: Evidence page 2 of a)(Source: Evidence page 3 of a)." in named
    reference, _ = rewrite(answer, [1, 2, 3], "reference-link")
    assert reference.endswith('[3]: https://source-3.example.org/a "Evidence page 3 of a"')
