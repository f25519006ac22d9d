from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution import InputError, find_markers, format_marker, normalize_markers, renumber_markers
from attribution.text import markers_outside


def _found(text: str) -> list[tuple[str, tuple[int, ...], str]]:
    markers = find_markers(text)
    for m in markers:
        assert text[m.start : m.end] == m.text
    return [(m.text, m.numbers, m.style) for m in markers]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Claim [1].", [("[1]", (1,), "bracket")]),
        ("Claim [1, 2].", [("[1, 2]", (1, 2), "bracket")]),
        ("Claim [1,2,2].", [("[1,2,2]", (1, 2), "bracket")]),
        ("Claim [1-3].", [("[1-3]", (1, 2, 3), "bracket")]),
        ("Claim [2–4].", [("[2–4]", (2, 3, 4), "bracket")]),
        ("Claim [1; 4].", [("[1; 4]", (1, 4), "bracket")]),
        ("Claim [1][2].", [("[1]", (1,), "bracket"), ("[2]", (2,), "bracket")]),
        ("Claim [citation:1].", [("[citation:1]", (1,), "citation")]),
        ("Claim [citation: 1, 2].", [("[citation: 1, 2]", (1, 2), "citation")]),
        ("Claim [Citation:3]", [("[Citation:3]", (3,), "citation")]),
        ("Claim[^1].", [("[^1]", (1,), "footnote")]),
        ("Claim [^1^][^2^].", [("[^1^]", (1,), "footnote"), ("[^2^]", (2,), "footnote")]),
        # a number after a word, as RAG tools and prompts name their sources
        ("Claim [doc1][doc2].", [("[doc1]", (1,), "bracket"), ("[doc2]", (2,), "bracket")]),
        (
            "Claim [Source 3], [cite: 4]",
            [("[Source 3]", (3,), "bracket"), ("[cite: 4]", (4,), "bracket")],
        ),
        (
            "Claim [Sources 1, 2] [Ref. 5]",
            [("[Sources 1, 2]", (1, 2), "bracket"), ("[Ref. 5]", (5,), "bracket")],
        ),
        ("Claim [document 5] [docs 2] [S1]", []),
        ("主张【1】。", [("【1】", (1,), "cjk")]),
        ("Claim 【1, 2】", [("【1, 2】", (1, 2), "cjk")]),
        ("Claim 【4†source】", [("【4†source】", (4,), "cjk")]),
        ("Launched in 2021[1].", [("[1]", (1,), "bracket")]),
        ("Paris[1][2]", [("[1]", (1,), "bracket"), ("[2]", (2,), "bracket")]),
        ("In Paris.[3]", [("[3]", (3,), "bracket")]),
        ("As in the U.S.[2] today", [("[2]", (2,), "bracket")]),
        # a link citation, not a marker: its address says which source it is (link_citations)
        ("Linked [[5]](https://example.com) citation", []),
        ("Linked [[5]](#cite-5) citation", [("[5]", (5,), "bracket")]),
        ("> Quoted claim [6].", [("[6]", (6,), "bracket")]),
        ("| cell [7] | other |", [("[7]", (7,), "bracket")]),
        ("End of answer [8]", [("[8]", (8,), "bracket")]),
    ],
)
def test_markers_found(text: str, expected: list[tuple[str, tuple[int, ...], str]]) -> None:
    assert _found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Inline `x = a[1]` code.",
        "Double ``code with ` and [2]`` span.",
        "```python\nvalues = [1]\nprint(values[1])\n```",
        "~~~\n[3]\n~~~",
        "   ```\n   indented fence [4]\n   ```",
        "```\nunclosed fence [5]",
        "A markdown link [1](https://example.com).",
        "A reference link [text][1] and [another one][2]",
        "[1]: https://example.com/source",
        "[^1]: The footnote definition.",
        "- [x] done\n- [ ] todo",
        "Escaped \\[1] bracket.",
        "Zero [0] and reversed [5-1] and huge [1-500].",
        "Indexing a[1], my_list[3], obj.items[4], x[1].y, f[2](x), v[1] = 3",
        "A URL https://example.com/page[3] and https://en.wikipedia.org/wiki/A_(b)[2]",
        "Link target [see](https://example.com/a[1]/b)",
        "Not numbers [a] [1a] [ ] [#1] [-1]",
        "TeX math $x_{[1]}$, $$a^{[2]} + b$$ and $\\sum_i [3]$",
    ],
)
def test_not_markers(text: str) -> None:
    assert _found(text) == []


def test_code_does_not_hide_markers_after_it() -> None:
    text = "```\ncode [1]\n```\n\nAfter the fence [2]. Then `code [3]` and prose [4]."
    assert [m[0] for m in _found(text)] == ["[2]", "[4]"]


def test_math_hides_its_brackets_and_prices_do_not() -> None:
    text = "Let $x_{[1]}$ hold [2]. It costs $5 [3] and $10 [4], or $$y^{[5]}$$ [6]."
    assert [m[0] for m in _found(text)] == ["[2]", "[3]", "[4]", "[6]"]


def test_footnote_definitions_keep_their_references() -> None:
    text = "Claim one[^1] and two[^2].\n\n[^1]: First source.\n[^2]: Second source."
    assert [m[1] for m in _found(text)] == [(1,), (2,)]


def test_offsets_are_code_points_with_emoji_and_cjk() -> None:
    text = "😀 emoji claim [1]. 中文声明【2】。"
    markers = find_markers(text)
    assert [text[m.start : m.end] for m in markers] == ["[1]", "【2】"]
    assert markers[0].start == len("😀 emoji claim ")
    # full-width square brackets, as CJK text writes them, are markers too (their number was
    # read as a figure of the claim, which the source then contradicted)
    wide = find_markers("埃菲尔铁塔于1889年建成［6］。 Then ［1, 2］ and ［１２］.")
    assert [(m.text, m.numbers, m.style) for m in wide] == [
        ("［6］", (6,), "cjk"),
        ("［1, 2］", (1, 2), "cjk"),
        ("［１２］", (12,), "cjk"),
    ]


def test_format_marker() -> None:
    assert format_marker([1, 2, 2], "bracket") == "[1, 2]"
    assert format_marker([3], "citation") == "[citation:3]"
    assert format_marker([1, 2], "footnote") == "[^1][^2]"
    assert format_marker([1], "cjk") == "【1】"
    with pytest.raises(InputError):
        format_marker([], "bracket")
    with pytest.raises(InputError):
        format_marker([0], "bracket")
    with pytest.raises(InputError):
        format_marker([1], "latex")  # type: ignore[arg-type]


def test_normalize_to_citation_and_back() -> None:
    text = "A [1]. B [2, 3]. C [4-5]. D[^6]. `code [7]` E [citation:8]."
    cited = normalize_markers(text, style="citation")
    assert cited.text == (
        "A [citation:1]. B [citation:2, 3]. C [citation:4, 5]. D[citation:6]. `code [7]` "
        "E [citation:8]."
    )
    assert [m.text for m in cited.markers] == [cited.text[m.start : m.end] for m in cited.markers]
    back = normalize_markers(cited.text, style="bracket")
    assert back.text == "A [1]. B [2, 3]. C [4, 5]. D[6]. `code [7]` E [8]."


def test_a_labelled_number_keeps_its_word_in_its_own_style() -> None:
    text = "A [doc2]. B [Source 1]. C [doc1][doc2]. D [Sources 1, 2]. E [doc1, 2]."
    assert renumber_markers(text, {1: 7, 2: 8}).text == (
        "A [doc8]. B [Source 7]. C [doc7][doc8]. D [Sources 7, 8]. E [doc7][doc8]."
    )
    assert normalize_markers("A [doc2].", style="bracket").text == "A [2]."


def test_a_title_after_a_dagger_stays_in_its_own_style() -> None:
    text = "A 【4†Orion docs】. B 【5†blog】."
    assert normalize_markers(text, style="cjk").text == text
    assert renumber_markers(text, {4: 1, 5: 2}).text == "A 【1†Orion docs】. B 【2†blog】."
    assert normalize_markers(text, style="bracket").text == "A [4]. B [5]."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # what held only markers that go goes with them: brackets, separators, leading words
        ("2024 ([5]; [3]).", "2024."),
        ("x (see [5] and [3]).", "x."),
        ("x (see [1] and [3]).", "x (see [1])."),
        ("x ([5] & [3]).", "x."),
        ("2024 [5], [3].", "2024."),
        ("x [1]; [5]; [9].", "x [1]."),
        ("x [5]; [1]; [9].", "x [1]."),
        # blanks: at a line's start the ones after go, a line of its own goes whole, a word
        # right after keeps the blank before, another group after keeps it too
        ("([5]) Claim.", "Claim."),
        ("Text\n([5]) More.", "Text\nMore."),
        ("Text.\n([5]; [3])\nMore.", "Text.\nMore."),
        ("[5] ([3]) Claim.", "Claim."),
        ("Text\n[5][7] ([3]) More.", "Text\nMore."),
        ("a ([5])b", "a b"),
        ("Text ([5])([1]) More.", "Text ([1]) More."),
        # the first of a bracket's items, before other text, takes its separator along
        ("x ([5]; see above).", "x (see above)."),
        # outside brackets "and" is the prose's
        ("so[12][13] and [9][1] x [1][9].", "so and [1] x [1]."),
    ],
)
def test_markers_that_go_take_what_held_them(text: str, expected: str) -> None:
    assert normalize_markers(text, style="bracket", known={1}, drop_unknown=True).text == expected


def test_unknown_numbers_are_reported_and_dropped_on_request() -> None:
    text = "One [1]. Two [2, 9]. Nine [9]. [9] Line start."
    kept = normalize_markers(text, style="bracket", known={1, 2})
    assert kept.text == text
    assert kept.unknown_numbers == (9,)
    assert [m.text for m in kept.unknown] == ["[2, 9]", "[9]", "[9]"]
    dropped = normalize_markers(text, style="bracket", known={1, 2}, drop_unknown=True)
    assert dropped.text == "One [1]. Two [2]. Nine. Line start."
    glued = normalize_markers("so[12][13] and [9][1] x [1][9].", known={1}, drop_unknown=True)
    assert glued.text == "so and [citation:1] x [citation:1]."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sources: [1], [9]", "Sources: [1]"),
        ("Sources: [9], [1]", "Sources: [1]"),
        ("Sources: [1], [9], [2]", "Sources: [1], [2]"),
        ("Sources: [9], [8], [1]", "Sources: [1]"),
        ("See [1]; [9] and more.", "See [1] and more."),
        ("Claim [9], then more.", "Claim, then more."),
        # "and" lists markers the sentence uses as words; between citations it is the prose's
        ("It runs, according to [1] and [9].", "It runs, according to [1]."),
        ("It runs, according to [9] and [1].", "It runs, according to [1]."),
        ("As [1] and [9] note, it runs.", "As [1] note, it runs."),
        ("It runs [1] and [9] shows it.", "It runs [1] and shows it."),
        ("It runs, according to [1] and [9] and [2].", "It runs, according to [1] and [2]."),
        ("It runs, according to [1][2] and [9].", "It runs, according to [1][2]."),
        ("It runs, as [1] and [9] report.", "It runs, as [1] report."),
        # a list that starts its sentence, the subject of a verb of saying
        ("[9] and [1] note that it runs.", "[1] note that it runs."),
        ("It runs. [9], [8] and [1] show it.", "It runs. [1] show it."),
        ("- [9] and [1] show that it runs.", "- [1] show that it runs."),
        ("[9] and [1] found it; [8] and [2] found more.", "[1] found it; [2] found more."),
        # where the list does not end the clause, "and" joins two clauses
        (
            "It was proposed by [1] and [9] later refined it.",
            "It was proposed by [1] and later refined it.",
        ),
        ("Prices are listed in [1] or [9] lists more.", "Prices are listed in [1] or lists more."),
    ],
)
def test_a_dropped_marker_of_a_list_takes_its_separator_along(text: str, expected: str) -> None:
    out = normalize_markers(text, style="bracket", known={1, 2}, drop_unknown=True)
    assert out.text == expected


def test_a_run_of_unknown_markers_goes_with_the_blank_before_it() -> None:
    def dropped(text: str) -> str:
        return normalize_markers(text, style="bracket", known={1}, drop_unknown=True).text

    assert dropped("appeared in 2023 [7][8].") == "appeared in 2023."
    assert dropped("appeared in 2023 [7][8][9] and more") == "appeared in 2023 and more"
    # the blank stays for a marker of the run that stays, wherever it is in the run
    assert dropped("appeared in 2023 [7][8][1].") == "appeared in 2023 [1]."
    assert dropped("appeared in 2023 [7][1][8].") == "appeared in 2023 [1]."
    assert dropped("appeared in 2023 [1][7][8].") == "appeared in 2023 [1]."
    assert dropped("see [7][a link](https://example.com)") == "see [a link](https://example.com)"
    # a run that opens a line takes the blanks after it, as one marker there does
    assert dropped("[7][8] Claim here.") == "Claim here."
    assert dropped("Intro.\n[7][8]  Claim here.") == "Intro.\nClaim here."
    assert dropped("[7][1] Claim here.") == "[1] Claim here."


def test_renumber() -> None:
    text = "A [1, 2]. B[^2]. C [citation:3]. D【2】 E [4]"
    out = renumber_markers(text, {2: 7, 3: 1})
    assert out.text == "A [1, 7]. B[^7]. C [citation:1]. D【7】 E [4]"
    merged = renumber_markers("A [1, 2]", {2: 1})
    assert merged.text == "A [1]"


# --- properties ------------------------------------------------------------------------------

_words = st.sampled_from(
    [
        "The",
        "telescope",
        "launched",
        "in",
        "2021",
        "e.g.",
        "U.S.",
        "3.5",
        "—",
        "中文",
        "😀",
        "a",
        "is",
    ]
)
_numbers = st.lists(st.integers(1, 30), min_size=1, max_size=3)
_markers = st.one_of(
    _numbers.map(lambda ns: format_marker(ns, "bracket")),
    _numbers.map(lambda ns: format_marker(ns, "citation")),
    st.integers(1, 30).map(lambda n: f"[^{n}]"),
    _numbers.map(lambda ns: format_marker(ns, "cjk")),
    st.tuples(st.integers(1, 9), st.integers(0, 3)).map(lambda t: f"[{t[0]}-{t[0] + t[1]}]"),
)
_inert = st.sampled_from(
    [
        "`a[1]`",
        "[link](https://example.com/x)",
        "https://example.com/a",
        "[x]",
        "\n```\nv = [2]\n```\n",
        "a[1]",
        "[0]",
        "\n- item",
        "\n# Heading",
        "| cell |",
        "\n\n",
    ]
)
_fragment = st.one_of(_words, _markers, _inert)


@st.composite
def answers(draw: st.DrawFn) -> str:
    return " ".join(draw(st.lists(_fragment, max_size=30)))


def _outside(text: str) -> str:
    """The text with every marker cut out."""
    parts, cursor = [], 0
    for m in find_markers(text):
        parts.append(text[cursor : m.start])
        cursor = m.end
    return "".join(parts) + text[cursor:]


@given(answers())
def test_markers_are_exact_ordered_and_disjoint(text: str) -> None:
    markers = find_markers(text)
    for m in markers:
        assert text[m.start : m.end] == m.text
        assert m.numbers
        assert all(n >= 1 for n in m.numbers)
    for a, b in itertools.pairwise(markers):
        assert a.end <= b.start


@given(answers(), st.sampled_from(["bracket", "citation", "footnote", "cjk"]))
def test_normalisation_keeps_every_other_character(text: str, style: str) -> None:
    out = normalize_markers(text, style=style)  # type: ignore[arg-type]
    assert _outside(out.text) == _outside(text)
    assert [n for m in out.markers for n in m.numbers] == [
        n for m in find_markers(text) for n in m.numbers
    ]
    for m in out.markers:
        assert out.text[m.start : m.end] == m.text


@given(answers())
def test_bracket_citation_round_trip(text: str) -> None:
    bracket = normalize_markers(text, style="bracket").text
    cited = normalize_markers(bracket, style="citation").text
    assert normalize_markers(cited, style="bracket").text == bracket
    assert normalize_markers(cited, style="citation").text == cited


@given(answers(), st.sets(st.integers(1, 30)))
def test_dropping_unknown_leaves_only_known_numbers(text: str, known: set[int]) -> None:
    out = normalize_markers(text, known=known, drop_unknown=True)
    assert all(n in known for m in find_markers(out.text) for n in m.numbers)
    assert set(out.unknown_numbers) == {
        n for m in find_markers(text) for n in m.numbers if n not in known
    }


def test_normalize_leaves_the_spans_it_is_told_to_skip() -> None:
    text = "A [1].\n\n    y = arr[2]\n\nB [2]."
    code = (text.index("y"), text.index("]", text.index("arr")) + 1)
    out = normalize_markers(text, style="bracket", known={1}, drop_unknown=True, skip=[code])
    assert out.text == "A [1].\n\n    y = arr[2]\n\nB."
    assert [m.numbers for m in out.markers] == [(1,)]
    assert markers_outside(find_markers(text), [code, (0, 1)]) == find_markers(text)[::2]
    # a span inside another (a comment inside code) hides nothing the outer one does not
    assert markers_outside(find_markers(text), [(0, len(text)), (1, 2)]) == []


def test_markers_the_sentence_uses_as_words() -> None:
    from attribution.text import markers_in_prose

    def read(text: str) -> list[bool]:
        return markers_in_prose(text, [(m.start, m.end) for m in find_markers(text)])

    # the object of a preposition or of "see", the subject of a verb of saying, a list of them
    assert read("According to [5], Orion runs in Frankfurt.") == [True]
    assert read("As shown in [5], it runs.") == [True]
    assert read("See [5] for details.") == [True]
    assert read("This is supported by [5] and [6].") == [True, True]
    assert read("Results of [5], [6] and [7] show it.") == [True, True, True]
    assert read("As [5] notes, it runs.") == [True]
    assert read("Compare with cf. [5].") == [True]
    # citations after the claim's words, and citation groups
    assert read("Orion runs in Frankfurt [5].") == [False]
    assert read("Orion runs in Frankfurt [5][6] and Virginia [7].") == [False, False, False]
    assert read("Orion runs in Frankfurt (see [5]) and (cf. [6]).") == [False, False]
    assert read("It opened in 2024. [5] It runs.") == [False]
    assert read("Orion runs in Frankfurt [5] and in Virginia [6].") == [False, False]
    assert read("A 2021 study [5] found that it runs.") == [False]  # a citation after a noun
    assert read("It is what Paris is known as. [5] It runs.") == [False]  # a full stop between
    assert read("It runs. [5] notes that it runs.") == [True]


def test_a_leading_source_phrase_is_found_where_its_marker_is_all_it_names() -> None:
    from attribution.text import lead_phrase

    def lead(text: str) -> str | None:
        (marker,) = find_markers(text)
        span = lead_phrase(text, marker.start, marker.end)
        return None if span is None else text[span[0] : span[1]]

    assert lead("According to [9], the tower stands.") == "According to [9], "
    assert lead("It runs. As [9] notes, the tower stands.") == "As [9] notes, "
    assert lead("- In [9], the tower stands.") == "In [9], "
    assert lead("Intro:\n2. As shown in [9], 5 people saw it.") == "As shown in [9], "
    # a quote's line, a heading, a table's cell, a quotation, emphasis around the phrase
    assert lead("> According to [9], the tower stands.") == "According to [9], "
    assert lead("## According to [9], the tower stands") == "According to [9], "
    assert lead("| a | b |\n| - | - |\n| According to [9], it stands. | x |") == (
        "According to [9], "
    )
    assert lead('She said: "According to [9], the tower stands."') == "According to [9], "
    assert lead("**According to [9]**, the tower stands.") == "**According to [9]**, "
    assert lead("It stands. *According to [9]*, the tower stands.") == "*According to [9]*, "
    assert lead("**According to [9], the tower** stands.") == "According to [9], "
    assert lead("The **according to [9]**, the tower stands.") is None
    assert lead('The "according to [9], the tower" stands.') is None
    # not at a sentence's start, not followed by a comma and a word, not a phrase of the kind
    assert lead("The tower, according to [9], stands.") is None
    assert lead("According to [9] the tower stands.") is None
    assert lead("Within [9], the tower stands.") is None
    assert lead("It was built in 1889 [9], the tower.") is None
    # a hard-wrapped line's start, an abbreviation's full stop, a pointer, what follows a comma
    assert lead("It is described at length\nin [9], the standard history.") is None
    assert lead("Landmarks are documented, e.g. in [9], the tower stands.") is None
    assert lead("See [9], the tower stands.") is None
    assert lead("According to [9], and more.") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a marker that is a preposition's object goes with the preposition
        ("The study by [9] found it.", "The study found it."),
        ("Results of [9] and [8] show it.", "Results show it."),
        ("Data from [9], however, suggest it.", "Data, however, suggest it."),
        ("A study by [9] and [8] found it.", "A study found it."),
        ("A study by [9] and [1] found it.", "A study by [1] found it."),
        ("Data from [9] and [8] indicate it.", "Data indicate it."),
        # ... only after a noun naming where it was said: elsewhere the preposition is the
        # sentence's, stranded or with its object after the marker (after a review)
        ("The library is written in [9].", "The library is written in."),
        (
            "The tower, which they were proud of [9], was tall.",
            "The tower, which they were proud of, was tall.",
        ),
        ("It is located in [9] Paris.", "It is located in Paris."),
        ("It is made of [9] iron.", "It is made of iron."),
        (
            "The theory proposed by [1] and [2] later refined it.",
            "The theory proposed by [1] and [2] later refined it.",
        ),
        # ... not where a marker of the list stays
        ("Results of [9] and [1] show it.", "Results of [1] show it."),
        ("Results of [1] and [9] show it.", "Results of [1] show it."),
        ("Results of [9][1] show it.", "Results of [1] show it."),
        ("Results of [9], [1] show it.", "Results of [1] show it."),
        # a list of citations after a noun, the subject of a verb of saying in the plural
        ("Studies [9] and [8] show that it runs.", "Studies show that it runs."),
        ("Studies [9], [8] and [7] note it.", "Studies note it."),
        ("Studies [9] and [1] show that it runs.", "Studies [1] show that it runs."),
        ("Studies [9] and [8] found that it runs.", "Studies found that it runs."),
        ("Studies [9] and [8] have shown that it runs.", "Studies have shown that it runs."),
        ("Both [9] and [8] say it runs.", "Both say it runs."),
        # ... not after a number or a verb, where "and" joins a clause (after a review)
        (
            "Sales fell 5% [9] and [1] confirm the trend.",
            "Sales fell 5% and [1] confirm the trend.",
        ),
        (
            "It ran in 1889 [9], and [1] and [2] show it.",
            "It ran in 1889, and [1] and [2] show it.",
        ),
        # a group of citations with the words that lead it, or the place in the source it cites
        ("It runs (see also [9]).", "It runs."),
        ("It runs (e.g. [9]).", "It runs."),
        ("It runs (e.g., [9], [8]).", "It runs."),
        ("It runs (sources: [9], [8]).", "It runs."),
        ("It runs (References: [9]).", "It runs."),
        ("It runs ([9], p. 4).", "It runs."),
        ("It runs ([9], pp. 4–6).", "It runs."),
        ("It runs ([9], section 3.2).", "It runs."),
        ("It runs ([9], ch. iv).", "It runs."),
        ("It runs ([9], tables and figures).", "It runs (tables and figures)."),
        ("It runs ([9], page layout).", "It runs (page layout)."),
        ("It runs (via [9] or [1] or [8]).", "It runs (via [1])."),
        ("It runs (e.g., [9], [8], and [7]).", "It runs."),
        ("It runs (e.g. [9] or [8]).", "It runs."),
        # a comma before "and" joins a clause; a pipe in prose is no table's cell (a review)
        (
            "It was red in a study [9], and [1] reported it.",
            "It was red in a study, and [1] reported it.",
        ),
        ("| a | b |\n| - | - |\n| in [9], the | c |", "| a | b |\n| - | - |\n| the | c |"),
        ("We bound |x| in [9], which holds.", "We bound |x| in, which holds."),
        # a leading phrase in bold with a list, a verb or the comma inside; a group led by a
        # word with a place in the source (after a second review)
        ("**According to [9] and [8]**, it runs.", "It runs."),
        ("**According to [9] and [1]**, it runs.", "**According to [1]**, it runs."),
        ("**According to [9],** it runs.", "It runs."),
        ("**As [9] notes**, it runs.", "It runs."),
        ("It runs (see [9], p. 4).", "It runs."),
        ("It runs (e.g., [9], p. 4).", "It runs."),
        ("It runs (see [9], the docs).", "It runs (see the docs)."),
        # several places in one group: each goes with its marker (after a third review)
        ("It runs ([9], p. 4; [1]).", "It runs ([1])."),
        ("It runs (see [9], p. 4; [1]).", "It runs (see [1])."),
        ("It runs ([1], p. 4; [9]).", "It runs ([1], p. 4)."),
        ("It runs ([1], p. 2; [9], p. 4).", "It runs ([1], p. 2)."),
        ("It runs ([1]; [9], p. 4).", "It runs ([1])."),
        ("It runs ([9], p. 4; [8], p. 5).", "It runs."),
        ("It runs (the docs, [9]).", "It runs (the docs)."),
        # a leading phrase after a sentence that ends with its marker
        ("It was built.[1] According to [9], it runs.", "It was built.[1] It runs."),
        ("It was built [1]. According to [9], it runs.", "It was built [1]. It runs."),
        ("It was built.[1]\nAccording to [9], it runs.", "It was built.[1]\nIt runs."),
        # at the text's end no blank is left behind
        ("It runs (see [9])", "It runs"),
        ("It runs. (Sources: [9], [8])", "It runs."),
        # a phrase stays for a marker listed after the ones that go
        (
            "The tower, according to [9]; [1], is in France.",
            "The tower, according to [1], is in France.",
        ),
        ("It was built in 1889, according to [9]; [1].", "It was built in 1889, according to [1]."),
        ("It runs ([9], the docs).", "It runs (the docs)."),
        ("It runs ([1], p. 4).", "It runs ([1], p. 4)."),
        # what a group says of the source goes with it; a phrase at the end of a quotation
        ("It runs (via [9], which is old).", "It runs."),
        ("The tower (see [9], who wrote it) runs.", "The tower runs."),
        ("It runs (via [1], which is old).", "It runs (via [1], which is old)."),
        ('He said "it runs, according to [9]." Then.', 'He said "it runs." Then.'),
        # the next word in emphasis takes the capital inside it
        ("According to [9], **the** tower runs.", "**The** tower runs."),
        ("According to [9], _the_ tower runs.", "_The_ tower runs."),
        ("According to [9], snake_case runs.", "snake_case runs."),
        # the source phrases the engine drops with a marker, here too
        ("According to [9], the tower runs.", "The tower runs."),
        ("The tower, according to [9], runs.", "The tower runs."),
        ("According to [9], as [8] notes, the tower runs.", "The tower runs."),
        ("According to [9], data from [8] show it.", "Data show it."),
        ("According to [1], data from [9] show it.", "According to [1], data show it."),
    ],
)
def test_the_words_around_a_marker_that_goes_go_where_they_only_cite(
    text: str, expected: str
) -> None:
    out = normalize_markers(text, style="bracket", known={1, 2}, drop_unknown=True)
    assert out.text == expected


def test_a_source_phrase_set_off_inside_a_sentence_goes_with_its_marker() -> None:
    from attribution.text import aside_phrase

    def without(text: str) -> str | None:
        (marker,) = (m for m in find_markers(text) if m.text == "[9]")
        span = aside_phrase(text, marker.start, marker.end)
        return None if span is None else text[: span[0]] + text[span[1] :]

    assert without("The tower, according to [9], was built.") == "The tower was built."
    assert without("The tower, as shown in [9], was built.") == "The tower was built."
    assert without("The tower, as [9] notes, was built.") == "The tower was built."
    assert without("It was built in 1889, according to [9].") == "It was built in 1889."
    assert without("It was built in 1889 according to [9].") == "It was built in 1889."
    assert without("It was built in 1889, as [9] notes.") == "It was built in 1889."
    assert without("It was built in 1889 (per [9]).") == "It was built in 1889."
    assert without("The tower (according to [9]) was built.") == "The tower was built."
    assert without("It stands; according to [9], it was built.") == "It stands; it was built."
    assert without("It was built in 1889, per [9]: a fact.") == "It was built in 1889: a fact."
    # the marker is not all the phrase names, or the phrase is no aside
    assert without("The tower, according to [9] and [1], was built.") is None
    assert without("The tower, according to [9], [1] was built.") is None
    assert without("It was built according to [9] plans.") is None
    assert without("Data from [9] show it.") is None
    assert without("It was built in 1889 as [9].") is None
    assert without("The tower according to [9], was built.") is None  # no comma to pair
    assert without("It was built (per [9].") is None
    assert without("According to [9], it was built.") is None  # a leading phrase: lead_phrase
    # after a review: what follows the comma is the sentence's, a comparison is no aside
    assert without("The tower, according to [9], and [1], was built.") is None
    assert without("The tower, according to [9], p. 4, was built.") is None
    assert without("It was built exactly as [9] describes.") is None
    assert without("It was twice as large as [9] reports.") is None
    assert without("It was built in 1889 as per [9].") == "It was built in 1889."
    assert without("The tower , according to [9], was built.") == "The tower was built."
    assert without("It was built, according to [9]\nIt is tall.") == "It was built\nIt is tall."
    assert without("It was built,\r\naccording to [9].") == "It was built."


def test_where_the_answer_puts_its_markers() -> None:
    from attribution.emit import answer_placement

    def placed(text: str) -> str:
        return answer_placement(text, find_markers(text))

    assert placed("It runs.[1] It is tall.[2]") == "glued"
    assert placed("It runs. [1]\nIt is tall.[2] It is red [3].") == "after"
    assert placed("It runs. [1]\r\nIt is tall. [2]\r\nIt is red.") == "after"
    assert placed('It "runs."[1] It is "tall."[2] It is red.') == "glued"
    assert placed("它在运行。[1]它很高。[2]") == "glued"
    assert placed("It runs [1]. It is tall [2].") == "before"
    assert placed("It runs [1]. It is tall.[2]") == "before"  # a tie: before
    assert placed("It runs. [1] It is tall.") == "before"  # a marker heading the next sentence
    assert placed("No markers.") == "before"
    # a list of sources under the answer tells nothing
    assert placed("It runs.[1] It is tall.[2]\n\nSources:\n[1]. A\n[2]. B") == "glued"
