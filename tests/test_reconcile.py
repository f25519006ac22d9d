from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution.emit._edits import Edit, apply_edits, insertion_edit


def test_edits_and_offset_mapping() -> None:
    text = "Claim one [1]. Claim two. Three"
    edited = apply_edits(text, [Edit(10, 13, "[citation:1]"), Edit(24, 24, " [2]")])
    assert edited.text == "Claim one [citation:1]. Claim two [2]. Three"
    start, end = 15, 25  # "Claim two."
    out = edited.text[
        edited.map(start, after_insertions=False) : edited.map(end, after_insertions=True)
    ]
    assert out == "Claim two [2]."
    assert edited.map(len(text), after_insertions=True) == len(edited.text)


@given(
    st.text(alphabet="abc. ", min_size=1, max_size=30),
    st.lists(
        st.tuples(st.integers(0, 30), st.integers(0, 3), st.text("xyz", max_size=3)), max_size=4
    ),
)
def test_text_outside_edits_is_kept_and_mapped(text: str, raw: list[tuple[int, int, str]]) -> None:
    edits: list[Edit] = []
    cursor = 0
    for start, length, replacement in sorted(raw):
        a = max(cursor, min(start, len(text)))
        b = min(len(text), a + length)
        edits.append(Edit(a, b, replacement))
        cursor = b + 1
        if cursor > len(text):
            break
    edited = apply_edits(text, edits)
    untouched = [i for i in range(len(text)) if not any(e.start <= i < e.end for e in edits)]
    for i in untouched:
        j = edited.map(i, after_insertions=True)
        assert edited.text[j] == text[i]


def test_marker_goes_before_final_punctuation_and_outside_code_and_urls() -> None:
    assert insertion_edit(
        "Earth is round.", 0, 15, [3], style="bracket", before_punctuation=True
    ) == Edit(14, 14, " [3]")
    assert insertion_edit(
        "Earth is round.", 0, 15, [3], style="bracket", before_punctuation=False
    ) == Edit(15, 15, " [3]")
    assert insertion_edit(
        "Earth is round", 0, 14, [1, 2], style="citation", before_punctuation=True
    ) == Edit(14, 14, " [citation:1, 2]")
    # CJK text is written without spaces: the marker is glued on
    assert insertion_edit("地球是圆的。", 0, 6, [3], style="cjk", before_punctuation=True) == Edit(
        5, 5, "【3】"
    )
    assert insertion_edit(
        "完成した。", 0, 5, [7], style="bracket", before_punctuation=True
    ) == Edit(4, 4, "[7]")
    # after a quotation's closing mark, not inside the quotation
    for quoted, added in (
        (
            'Eiffel called it "a monument to science."',
            'Eiffel called it "a monument to science." [4]',
        ),
        ("It said “never again.”", "It said “never again.” [4]"),
        ("(It opened in 1889.)", "(It opened in 1889.) [4]"),
    ):
        edit = insertion_edit(quoted, 0, len(quoted), [4], style="bracket", before_punctuation=True)
        assert quoted[: edit.start] + edit.replacement + quoted[edit.start :] == added
    url = "Docs are at https://example.com/a."
    edit = insertion_edit(url, 0, len(url), [2], style="bracket", before_punctuation=True)
    assert (
        url[: edit.start] + edit.replacement + url[edit.start :]
    ) == "Docs are at https://example.com/a [2]."
    code = "Run `make test`"
    edit = insertion_edit(code, 0, len(code), [1], style="footnote", before_punctuation=True)
    assert code[: edit.start] + edit.replacement == "Run `make test`[^1]"


@pytest.mark.parametrize(
    ("text", "listed"),
    [
        ("A [1].\n\nSources: [1]", "A [1].\n\nSources: [1], [2]"),
        ("A [1].\n\n**Refs:** [1] [3]\n", "A [1].\n\n**Refs:** [1] [2] [3]\n"),
        ("A [1].\n\n## Sources\n[1] One", "A [1].\n\n## Sources\n[1] One\n[2] Two"),
        (
            "A [1].\r\n\r\nSources:\r\n[1] One\r\n",
            "A [1].\r\n\r\nSources:\r\n[1] One\r\n[2] Two\r\n",
        ),
        ("A [1].\n\n[1] One\n[3] Three", "A [1].\n\n[1] One\n[2] Two\n[3] Three"),
        ("A [1].\n\nSources:\n• [1] One", "A [1].\n\nSources:\n• [1] One\n• [2] Two"),
        (
            "A [1].\n\nSources:\n- **[1]** One — https://a.org",
            "A [1].\n\nSources:\n- **[1]** One — https://a.org\n- **[2]** Two",
        ),
        # nothing to add, no list, a line of prose that opens with a marker
        ("A [1].\n\nSources: [1], [2]", None),
        ("A [1]. B [2].", None),
        ("A.\n\n[1] shows it.", None),
    ],
)
def test_the_list_of_sources_takes_the_sources_added(text: str, listed: str | None) -> None:
    from attribution.emit import listed_sources_edit

    edits = listed_sources_edit(text, [2], lambda n: ("Two", "https://two.org" if n == 5 else None))
    if listed is None:
        assert edits == []
    else:
        assert edits
        assert apply_edits(text, edits).text == listed


def test_lines_of_claims_that_open_with_markers_are_no_list_of_sources() -> None:
    from attribution.emit import listed_sources_edit

    text = "Intro.\n[5] It runs fast.\n[7] It flies high."
    describe = lambda n: ("Two", None)  # noqa: E731
    assert listed_sources_edit(text, [2], describe)  # alone, it reads as a list
    claims = [(7, 24), (25, len(text))]
    assert listed_sources_edit(text, [2], describe, claims=claims) == []


@pytest.mark.parametrize(
    ("text", "listed"),
    [
        # numbers that are dropped: the new one takes the list's place, after its label
        ("A [1].\n\nSources: [7]", "A [1].\n\nSources: [2] [7]"),
        ("A [1].\n\nSources: [1], [7]", "A [1].\n\nSources: [1], [2], [7]"),
        # the marker's removal takes " and [7]" with it: "Sources: [1], [2]"
        ("A [1].\n\nSources: [1] and [7]", "A [1].\n\nSources: [1], [2] and [7]"),
        # a list in words: before its last item
        ("A [1].\n\nSources: [1] and [3]", "A [1].\n\nSources: [1], [2] and [3]"),
        # a heading, a blank line, one entry
        ("A [1].\n\n## Sources\n\n[1] One", "A [1].\n\n## Sources\n\n[1] One\n[2] Two"),
        ("A [1].\n\nIt flies.\n\n[1] One", None),  # one line after prose: no list
        # headings and one-line lists in other words and languages
        ("A [1].\n\nQuellen: [1]", "A [1].\n\nQuellen: [1], [2]"),
        ("A [1].\n\n参考文献：[1]", "A [1].\n\n参考文献：[1], [2]"),
        ("A [1].\n\n**Fuentes**\n\n- [1] One", "A [1].\n\n**Fuentes**\n\n- [1] One\n- [2] Two"),
        ("A [1].\r\n\r\nRefs:\r\n[1] One", "A [1].\r\n\r\nRefs:\r\n[1] One\r\n[2] Two"),
        # link definitions, an indented code block, an unclosed fence: no list to add to
        ("A [1].\n\n[1]: https://a.org\n[3]: https://c.org", None),
        ("A [1].\n\nOut:\n\n    [1] One\n    [3] Three", None),
        ("A [1].\n\n```\nSources:\n[1] One\n[3] Three", None),
        # hard line breaks go on; the address in the line's own brackets; an address alone
        (
            "A [1].\n\nSources:  \n[1] One  \n[3] Three",
            "A [1].\n\nSources:  \n[1] One  \n[2] Two  \n[3] Three",
        ),
        (
            "A [1].\n\nSources:\n* [1] One (https://a.org)",
            "A [1].\n\nSources:\n* [1] One (https://a.org)\n* [2] Two (https://b.org)",
        ),
        (
            "A [1].\n\nSources:\n[1] https://a.org",
            "A [1].\n\nSources:\n[1] https://a.org\n[2] https://b.org",
        ),
        # an added number below the list's first goes first (the list in order)
        ("A [3].\n\nSources: [3]", "A [3].\n\nSources: [2], [3]"),
        ("A [3].\n\nSources:\n- [3] Three", "A [3].\n\nSources:\n- [2] Two\n- [3] Three"),
        (
            "A [3].\n\nSources:  \n[3] Three  \n[4] Four",
            "A [3].\n\nSources:  \n[2] Two  \n[3] Three  \n[4] Four",
        ),
        (
            "A [3].\n\nSources:\n[3] Three\n[1] One",
            "A [3].\n\nSources:\n[3] Three\n[1] One\n[2] Two",
        ),
        # a title with brackets and an address with a blank in a link
        (
            "A [1].\n\nSources:\n- [1] [One](https://a.org)",
            "A [1].\n\nSources:\n- [1] [One](https://a.org)\n- [2] [Two](https://b.org)",
        ),
    ],
)
def test_the_list_of_sources_in_its_forms(text: str, listed: str | None) -> None:
    from attribution.emit import listed_sources_edit

    edits = listed_sources_edit(text, [2], lambda n: ("Two", "https://b.org"), known={1, 2, 3, 4})
    if listed is None:
        assert edits == []
    else:
        assert edits
        assert apply_edits(text, edits).text == listed


def test_a_link_in_the_list_escapes_its_title_and_wraps_an_odd_address() -> None:
    from attribution.emit import listed_sources_edit

    text = "A [1].\n\nSources:\n- [1] [One](https://a.org)"
    edits = listed_sources_edit(text, [2], lambda n: ("A ] b", "https://b.org/a b"))
    assert apply_edits(text, edits).text.endswith("- [2] [A \\] b](<https://b.org/a b>)")


@pytest.mark.parametrize(
    ("text", "listed"),
    [
        ("A [2].\n\nSources: [2]", "A [2].\n\nSources: [1], [2], [3]"),
        ("A [2].\n\nSources: [2] and [4]", "A [2].\n\nSources: [1], [2], [3] and [4]"),
        ("A [2].\n\nSources:\n- [2] Two", "A [2].\n\nSources:\n- [1] One\n- [2] Two\n- [3] Three"),
        (
            "A [2].\n\nSources:\n[2] Two\n[4] Four",
            "A [2].\n\nSources:\n[1] One\n[2] Two\n[3] Three\n[4] Four",
        ),
        # not in order: the new ones after it, as before
        ("A [2].\n\nSources: [4], [2]", "A [2].\n\nSources: [4], [2], [1], [3]"),
        # after a review: an "and" list's "and" goes to its new end; a line of several labels
        # keeps the new ones after the list; a new line above a link is a link
        ("A [2].\n\nSources: [1] and [2]", "A [2].\n\nSources: [1], [2] and [3]"),
        (
            "A [2].\n\nSources:\n[2], [5] Two\n[6] Six",
            "A [2].\n\nSources:\n[2], [5] Two\n[6] Six\n[1] One\n[3] Three",
        ),
        (
            "A [2].\n\nSources:\n[2] [Two](https://two.example)\n[4] Four",
            "A [2].\n\nSources:\n[1] [One](https://one.example)\n[2] [Two](https://two.example)\n"
            "[3] Three\n[4] Four",
        ),
    ],
)
def test_numbers_added_on_both_sides_of_the_list_s_go_where_they_belong(
    text: str, listed: str
) -> None:
    # a review: "Sources: [2]" with [1] and [3] added gave "[2], [1], [3]"
    from attribution.emit import listed_sources_edit

    names = {1: "One", 2: "Two", 3: "Three", 4: "Four"}
    links = {1: "https://one.example"}
    known = {1, 2, 3, 4, 5, 6}
    edits = listed_sources_edit(text, [1, 2, 3], lambda n: (names[n], links.get(n)), known=known)
    assert apply_edits(text, edits).text == listed
