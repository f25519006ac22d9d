from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution import CitationSource
from attribution._config import MatchConfig
from attribution.match._lexical import LexicalIndex
from attribution.match._passages import make_passages, source_text
from attribution.text._terms import (
    _ASCII_WORD_SPLIT,
    _SENTENCE_END,
    _WORD_SPLIT,
    _sentence_ends,
    _word_numbers,
    _Words,
    content_terms,
    entity_terms,
    number_ranges,
    number_terms,
    source_sentence_spans,
    stem,
    word_tokens,
)


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in source_sentence_spans(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three?", ["One.", "Two!", "Three?"]),
        (
            "Dr. Smith met Mr. Jones in the U.S. Army.",
            ["Dr. Smith met Mr. Jones in the U.S. Army."],
        ),
        ("J. P. Gardner wrote it. Next.", ["J. P. Gardner wrote it.", "Next."]),
        ("Pi is 3.14 today. Version 1.2.3 is out.", ["Pi is 3.14 today.", "Version 1.2.3 is out."]),
        ("See e.g. Table 2 for details. Then go.", ["See e.g. Table 2 for details.", "Then go."]),
        ('He said "hi." Then left [12]. End', ['He said "hi."', "Then left [12].", "End"]),
        ("Para one\n\nPara two", ["Para one", "Para two"]),
        ("Items:\n- first\n- second", ["Items:", "- first", "- second"]),
        ("中文句子。第二句。", ["中文句子。", "第二句。"]),
        # a day before its month's name ends no sentence; "May" is an English word
        (
            "Sie wurde ab dem 13. August 1961 errichtet. Am 9. Nov. 1989 fiel sie.",
            ["Sie wurde ab dem 13. August 1961 errichtet.", "Am 9. Nov. 1989 fiel sie."],
        ),
        ("The total was 12. May I add more?", ["The total was 12.", "May I add more?"]),
        ("  ", []),
    ],
)
def test_sentence_spans(text: str, expected: list[str]) -> None:
    assert _sentences(text) == expected


_pieces = st.sampled_from([*"ab .!?\n\t3,ÉD。", "Dr.", " e.g. ", "😀"])


@given(st.lists(_pieces, max_size=40).map("".join))
def test_sentence_spans_are_exact_ordered_and_trimmed(text: str) -> None:
    spans = source_sentence_spans(text)
    for a, b in spans:
        assert 0 <= a < b <= len(text)
        assert text[a:b] == text[a:b].strip()
    for (_, b), (c, _) in itertools.pairwise(spans):
        assert b <= c


_ends = st.sampled_from(
    [*"ab A3 .!?:;\n\t\"')]”’[#*->|•。！？", "[12]", "Dr.", "e.g.", "\n\n", "。\n", "1. "]
)


@given(st.lists(_ends, max_size=40).map("".join))
def test_sentence_ends_are_found_where_the_whole_pattern_finds_them(text: str) -> None:
    # the fast scan tries the pattern only after end punctuation and at line breaks
    def spans(matches):  # type: ignore[no-untyped-def]
        return [(m.start(), m.end(), m.group("tail")) for m in matches]

    assert spans(_sentence_ends(text)) == spans(_SENTENCE_END.finditer(text))


@given(st.text(st.characters(max_codepoint=127), max_size=60))
def test_the_ascii_word_pattern_splits_ascii_text_as_the_unicode_one_does(text: str) -> None:
    assert _ASCII_WORD_SPLIT.split(text.lower()) == _WORD_SPLIT.split(text.lower())


_ascii_words = st.sampled_from(
    [
        "one",
        "hundred",
        "and",
        "twenty",
        "-",
        "five",
        "3",
        "rd",
        "2015-03-10",
        "330",
        "m",
        "%",
        "per",
        "cent",
        "a",
        "dozen",
        "2.5",
        "bn",
        "1,500",
        "'s",
        "Paris",
        "The",
        ",",
        " ",
        ".",
    ]
)


@given(st.lists(_ascii_words, max_size=30).map(" ".join))
def test_ascii_text_takes_the_fast_path_to_the_same_tokens(text: str) -> None:
    # an ASCII text skips the general Unicode checks; a non-ASCII word at the end forces them
    assert word_tokens(text) == word_tokens(text + " é")[:-1]
    assert word_tokens(text.replace(" ", "")) == word_tokens(text.replace(" ", "") + " é")[:-1]


@given(st.lists(_ascii_words, max_size=30).map(" ".join))
def test_no_number_in_words_is_missed_for_want_of_a_cue_word(text: str) -> None:
    words = _Words.of(text)
    assert _word_numbers(words) == _word_numbers(words, quick=False)


def test_terms_numbers_and_names() -> None:
    assert content_terms("The mirrors were launched") == ["mirror", "launch"]
    assert stem("studies") == "study"
    assert stem("telescopes") == "telescope"
    assert number_terms("about 1.5 million km, 1,500,000 and 6.50 m") == {"1.5", "1500000", "6.5"}
    assert {"webb", "nasa", "l2"} <= entity_terms("It was built by NASA. The Webb orbits L2.")
    assert "it" not in entity_terms("It was built by NASA.")


def test_passages_have_exact_offsets_and_overlap() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(10))
    source = CitationSource(id="s", type="web", full_content=text, snippet="short")
    passages = make_passages([source], MatchConfig(passage_sentences=3, passage_overlap=1))
    assert source_text(source) == (text, "fullContent")
    assert [p.text.count("Sentence") for p in passages] == [3, 3, 3, 3, 2][: len(passages)]
    for p in passages:
        assert text[p.start : p.end] == p.text
        assert all(p.start <= a < b <= p.end for a, b in p.sentences)
    assert passages[0].sentences[-1] == passages[1].sentences[0]  # one sentence of overlap


def test_snippet_is_used_without_full_content_and_empty_sources_give_nothing() -> None:
    sources = [
        CitationSource(id="a", type="web_result", snippet="Only a snippet here."),
        CitationSource(id="b", type="web_result", full_content="   "),
    ]
    passages = make_passages(sources)
    assert [(p.source_id, p.field, p.text) for p in passages] == [
        ("a", "snippet", "Only a snippet here.")
    ]


def test_long_sentences_are_cut() -> None:
    text = "word " * 1000
    passages = make_passages(
        [CitationSource(id="s", type="web", full_content=text)], MatchConfig(passage_max_chars=200)
    )
    assert all(len(p.text) <= 200 for p in passages)
    assert all(text[p.start : p.end] == p.text for p in passages)


def test_lexical_index() -> None:
    index = LexicalIndex(["the webb telescope mirror", "a cat sat on the mat", "webb webb"])
    scores = index.bm25(content_terms("Webb mirror"))
    assert set(scores) == {0, 2}
    assert scores[0] > scores[2]
    assert index.coverage(content_terms("Webb mirror"), index.term_sets[0]) == pytest.approx(1.0)
    assert index.coverage(content_terms("Webb mirror"), index.term_sets[1]) == 0.0
    assert 0 < index.coverage(content_terms("Webb mirror"), index.term_sets[2]) < 1


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("It is 330 m tall.", "It is 330 metres tall."),
        ("It is 330 meters tall.", "It is 330 metres tall."),
        ("Sales rose 5%.", "Sales rose 5 percent."),
        ("Sales rose 5 per cent.", "Sales rose 5%."),
        ("It opened three new regions.", "It opened 3 new regions."),
        ("It opened on 2015-03-10.", "It opened on 10 March 2015."),
        ("A 12 km run.", "A 12 kilometre run."),
        ("It employs thirty-five people.", "It employs 35 people."),
        ("It cost two hundred and five dollars.", "It cost 205 dollars."),
        ("It raised three million dollars.", "It raised 3 million dollars."),
        ("It raised $2.5bn.", "It raised $2.5 billion."),
        ("Sales rose fifty percent.", "Sales rose 50%."),
        ("It came third.", "It came 3rd."),
        ("The twenty-first century.", "The 21st century."),
        ("A dozen eggs.", "12 eggs."),
    ],
)
def test_one_quantity_written_two_ways_gives_the_same_terms(one: str, other: str) -> None:
    assert content_terms(one) == content_terms(other)
    assert number_terms(one) == number_terms(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("It opened on 10 March 2015.", "It opened on 10/03/2015."),
        ("It opened on March 10th, 2015.", "It opened on 2015-03-10."),
        ("In May 2020.", "In 05/2020."),
        ("It raised €40m.", "It raised 40 million euros."),
        ("six hundred thousand", "600 thousand"),
    ],
)
def test_one_number_written_two_ways_gives_the_same_numbers(one: str, other: str) -> None:
    assert number_terms(one) == number_terms(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        # a dot between thousands, a decimal comma (the answer in German, the page in English)
        ("Die Strecke ist 1.500 km lang.", "The route is 1,500 km long."),
        ("Es kostet 2.500.000 Euro.", "It costs 2,500,000 euros."),
        ("Der Preis lag bei 1.500,50 Euro.", "The price was 1,500.50 euros."),
        ("Der Turm ist 330,5 m hoch.", "The tower is 330.5 m tall."),
        ("Le pont mesure 1,500 km de long.", "The bridge is 1.5 km long."),
        # a scale in the answer's language
        ("Die Stadt hat 1,5 Mio. Einwohner.", "The city has 1.5 million people."),
        ("Der Umsatz lag bei 2,3 Mrd. Euro.", "Revenue was 2.3 billion euros."),
        ("Les ventes ont atteint 1,2 milliard.", "Sales reached 1.2 billion."),
        ("Hay 3 millones de personas.", "There are 3 million people."),
    ],
)
def test_a_number_in_another_language_s_form_gives_the_same_numbers(one: str, other: str) -> None:
    from attribution.text import money_amounts, quantities

    assert number_terms(one) == number_terms(other)
    assert [q.value for q in quantities(one)] == [q.value for q in quantities(other)]
    assert money_amounts(one) == money_amounts(other)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        # English keeps its own reading of a number that reads two ways
        ("It weighs 4.000 kg.", {"4"}),
        ("The population was 112.414 million.", {"112.414", "112414000"}),
        ("P Diddy's son lands $54,000 scholarship", {"54000"}),
        ("It is 3.048 m, or 10 feet.", {"3.048", "10"}),
        # names and "et al." are no German or French ("MIT", "Le Monde", "de", "von", "et")
        ("Smith et al. enrolled 1,500 patients.", {"1500"}),
        ("MIT researchers tested 1,200 samples.", {"1200"}),
        ("Le Monde sold 480,000 copies.", {"480000"}),
        ("Rio de Janeiro hosted 11,238 athletes.", {"11238"}),
        ("Carlos de la Cruz and Wernher von Braun led 1,500 engineers.", {"1500"}),
        ("Der p-Wert lag bei 0.050 und damit an der Grenze.", {".05"}),  # no thousand
        ("In Berlin leben 3.500 Ärzte.", {"3500"}),
        ("A ponte tem 1.500 metros.", {"1500"}),
        # German reads it the other way; a number that reads one way reads so in any text
        ("Das Boot wiegt rund 4.000 kg.", {"4000"}),
        ("It lists 1.234.567 items.", {"1234567"}),
    ],
)
def test_a_number_that_reads_two_ways_is_read_in_its_text_s_language(
    text: str, numbers: set[str]
) -> None:
    assert number_terms(text) == numbers


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("One of the two said so.", {"2"}),  # "one" alone is a pronoun
        ("The first time, it may rain 10 times.", {"10"}),  # "first" alone, "may" the verb
        ("In March they met.", set()),  # a month with no day or year names no number
        ("Nineteen eighty-four.", {"19", "84"}),  # two numbers, not one
        ("Two, three and four.", {"2", "3", "4"}),  # a list, not a sum
        ("A cat and a hundred dogs.", {"100"}),
        ("Twenty-five thousand and six", {"25006"}),
    ],
)
def test_numbers_in_words(text: str, numbers: set[str]) -> None:
    assert number_terms(text) == numbers


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("It employs thirty-five people.", "It employs five people."),
        ("It is 330 m tall.", "It is 330 feet tall."),
        ("It opened on 2015-03-10.", "It opened on 10 May 2015."),
        ("Sales rose 5%.", "Sales rose 6%."),
        ("In the 1990s.", "In 1990 seconds."),  # a decade is not a duration
    ],
)
def test_different_quantities_stay_different(one: str, other: str) -> None:
    assert content_terms(one) != content_terms(other)


@pytest.mark.parametrize(
    ("text", "ranges"),
    [
        ("All the scores were between 80% and 90%.", [("80", "90")]),
        ("It ran from 1990 to 1995.", [("1990", "1995")]),
        ("An 80-90 per cent share.", [("80", "90")]),
        ("The 2015–2016 season.", [("2015", "2016")]),
        ("Rates rose 5 to 6.5 percent.", [("5", "6.5")]),
        ("A 3-2 win.", []),  # a score, not a range: the first end is the higher
        ("The 2015-16 season.", []),  # a shortened end is not read
        ("It opened on 2015-03-10.", []),  # a date
        ("Between 5 and 10 million people.", [("5", "10")]),  # the scale is not in the range
    ],
)
def test_number_ranges(text: str, ranges: list[tuple[str, str]]) -> None:
    assert number_ranges(text) == ranges


def test_a_range_in_a_claim_is_found_by_numbers_inside_it() -> None:
    from attribution.match import LexicalIndex
    from attribution.verify import FEATURE_NAMES, pair_features

    missing = FEATURE_NAMES.index("numbers_missing")
    claim = "All three scores were between 80% and 90%."
    index = LexicalIndex(["x"])
    inside = pair_features(claim, "The scores were 85%, 86% and 89.4%.", 0.5, index)
    outside = pair_features(claim, "The scores were 75%, 76% and 79.4%.", 0.5, index)
    assert inside[missing] < outside[missing]
    assert outside[missing] == 1.0  # 80 and 90 missing; "three" (3) found nowhere either


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("The repo has 1.2k stars.", {"1.2", "1200"}),
        ("A 10K run.", {"10", "10000"}),
        ("From 3k to 5k.", {"3", "3000", "5", "5000"}),
        ("A 5km run.", {"5"}),  # a unit, not a thousand
        ("It has 3M users.", {"3", "3000000"}),
        ("A 7B model.", {"7", "7000000000"}),
        ("A 5m wall.", {"5"}),  # metres, not a million
        ("Revenue was 16.4 billion.", {"16.4", "16400000000"}),  # not 16399999999.999998
        ("It cost $8.3bn.", {"8.3", "8300000000"}),
        ("En hausse de 12\u202f%.", {"12"}),  # a no-break space before the sign
        ("Elle pèse 7\u202f300,5 tonnes.", {"7300.5"}),  # thousands set apart by a thin space
        ("Elle mesure 1\u00a0083 pieds.", {"1083"}),
    ],
)
def test_a_scale_letter_gives_the_value(text: str, numbers: set[str]) -> None:
    assert number_terms(text) == numbers


@pytest.mark.parametrize(
    ("claim", "passage", "share"),
    [
        ("It has 1.5 million people.", "It has 1,500,000 people.", 0.0),
        ("It has 1.2k stars.", "It has 1,200 stars.", 0.0),
        ("It has 1,200 stars.", "It has 1.2k stars.", 0.0),
        ("It has 1.2 million users.", "It has 1.2M users.", 0.0),
        ("It has 1.5 million people.", "It has 1.5 billion people.", 0.5),
        ("It has 1.5 million people.", "It is 1.5 km long.", 0.5),
        ("It is 1.82 km long.", "It is 1,820 metres long.", 0.0),
        ("It is 1,820 m long.", "It is 1.82 kilometres long.", 0.0),
        ("It weighs 2.5 kg.", "It weighs 2,500 grams.", 0.0),
        ("It is 1.82 km long.", "It weighs 1,820 kg.", 1.0),  # another dimension
        ("It is 1.82 km long.", "It is 1,920 metres long.", 1.0),
        ("Revenue was $16.4 billion.", "Revenue was 16,400 million dollars.", 0.0),
        ("It flew 4,700 miles beyond the Moon.", "It flew about 7,600 km beyond it.", 0.0),
        ("It flew 4,700 miles beyond the Moon.", "It flew about 7,700 km beyond it.", 1.0),
        # a scale in words
        ("The app has one million users.", "The app has 1,000,000 users.", 0.0),
        ("It drew twenty-five thousand visitors.", "It drew 25,000 visitors.", 0.0),
        ("It drew twenty-five thousand visitors.", "It drew 35,000 visitors.", 1.0),
    ],
)
def test_a_number_with_a_scale_is_found_by_its_value(
    claim: str, passage: str, share: float
) -> None:
    from attribution.match import LexicalIndex
    from attribution.verify import FEATURE_NAMES, pair_features

    missing = FEATURE_NAMES.index("numbers_missing")
    assert pair_features(claim, passage, 0.5, LexicalIndex(["x"]))[missing] == share


@pytest.mark.parametrize(
    ("claim", "passage", "read"),
    [
        (
            "The company had 1.2 million users.",
            "At the end of 2022 it had 1,200,000 users.",
            "The company had 1,200,000 users.",
        ),
        ("It had 1,200,000 users.", "It had 1.2M users in 2022.", "It had 1.2M users."),
        # a number in words with a scale, a unit or "per cent"; an ISO date with its time
        (
            "The app has one million users.",
            "It has 1,000,000 users.",
            "The app has 1,000,000 users.",
        ),
        (
            "The museum drew twenty-five thousand visitors.",
            "The museum drew 25,000 visitors in a week.",
            "The museum drew 25,000 visitors.",
        ),
        (
            "It played for 3 minutes.",
            "He played for three minutes.",
            "It played for three minutes.",
        ),
        ("It grew fifteen per cent.", "It grew 15% last year.", "It grew 15%."),
        (
            "It was released on March 5, 2024.",
            "It was released on 2024-03-05T14:00:00Z to all.",
            "It was released on 2024-03-05.",
        ),
        ("It lasted the third hour.", "It lasted 3 hours.", "It lasted the third hour."),
        (
            "It went out at 2024-03-05T14:00:00Z.",
            "It went out on 5 March 2024.",
            "It went out at 5 March 2024 14:00:00Z.",
        ),
        (
            "It was signed on the 5th of March 2024.",
            "It was signed on 2024/03/05.",
            "It was signed on 2024/03/05.",
        ),
        (
            "It was signed on 5 March 2024.",
            "It was signed on 05.03.2024.",
            "It was signed on 05.03.2024.",
        ),
        ("The tank holds 60 litres.", "The tank holds 60 L.", "The tank holds 60 L."),
        # a round figure or a bound read as the passage's exact value it holds, its words gone
        (
            "The bridge is about 1.6 km long.",
            "The bridge is 1,596 metres long and was opened in 1998.",
            "The bridge is 1,596 metres long.",
        ),
        (
            "Nearly half of voters backed the proposal.",
            "The proposal was backed by 48% of voters, just short of a majority.",
            "48% of voters backed the proposal.",
        ),
        (
            "At least 30 people were hurt in the blast.",
            "Officials said 34 people were hurt in the blast.",
            "34 people were hurt in the blast.",
        ),
        (
            "The salary is more than £40k a year.",
            "The salary is £42,300 a year.",
            "The salary is £42,300 a year.",
        ),
        (
            "He ran it in under 10 seconds.",
            "He ran it in 9.86 seconds.",
            "He ran it in 9.86 seconds.",
        ),
        # not a value the bound leaves out, one below "nearly" by more than a twentieth, a year
        (
            "More than 30 people were hurt in the blast.",
            "Officials said 30 people were hurt in the blast.",
            "More than 30 people were hurt in the blast.",
        ),
        (
            "Nearly half of voters backed the proposal.",
            "The proposal was backed by 41% of voters.",
            "Nearly half of voters backed the proposal.",
        ),
        ("It opened around 2019.", "It opened in 2018.", "It opened around 2019."),
        # a count in words against digits, either way; not "one", not a year
        (
            "The novel was turned down by 12 publishers.",
            "The novel was rejected by twelve publishers, the author said.",
            "The novel was turned down by twelve publishers.",
        ),
        (
            "The committee has eighteen members.",
            "The committee has 18 members.",
            "The committee has 18 members.",
        ),
        ("The team won one game.", "The team won 1 game.", "The team won one game."),
        (
            "The team won 20 games in 2019.",
            "The team won twenty games in two thousand nineteen.",
            "The team won twenty games in 2019.",
        ),
        # a time of day on the other clock; a speed in another unit
        ("It kicks off at 3pm.", "Kick-off is at 15:00 local time.", "It kicks off at 15:00."),
        (
            "It is open from 11am to 10pm.",
            "Opening hours are 11:00–22:00 daily.",
            "It is open from 11:00 to 22:00.",
        ),
        (
            "It kicks off at 3 p.m. on Friday.",
            "Kick-off is at 15:00.",
            "It kicks off at 15:00 on Friday.",
        ),
        ("It kicks off at 15:00.", "Kick-off is at 3 p.m. local time.", "It kicks off at 3 p.m."),
        ("He won in 2:30.", "The race started at 2:30pm.", "He won in 2:30."),
        (  # both ends of the hours (only the second was read: "07:00 to 10pm")
            "The store is open 07:00 to 22:00 on weekdays.",
            "Store hours: Mon–Sat 7am–10pm.",
            "The store is open 7am to 10pm on weekdays.",
        ),
        # a decade a time is before or after is no year of it
        ("Prices rose after the 1950s.", "Prices rose after 1957.", "Prices rose after the 1950s."),
        ("Its top speed is 250 km/h.", "Its top speed is 250 kph.", "Its top speed is 250 kph."),
        ("The car reaches 60 mph.", "The car reaches 97 km/h.", "The car reaches 97 km/h."),
        # a share as one in so many is compared, not written as a share of
        (
            "One in five adults in the country smoke.",
            "20% of adults in the country smoke.",
            "One in five adults in the country smoke.",
        ),
        # halves and quarters in words
        (
            "The procedure takes two and a half hours.",
            "On average the procedure takes 2.5 hours.",
            "The procedure takes 2.5 hours.",
        ),
        (
            "The race lasted three quarters of an hour.",
            "The race lasted 45 minutes in all.",
            "The race lasted 45 minutes.",
        ),
        (
            "The walk takes half an hour.",
            "The walk takes 30 minutes.",
            "The walk takes 30 minutes.",
        ),
        (
            "The film runs an hour and a half.",
            "The film runs 90 minutes.",
            "The film runs 90 minutes.",
        ),
        ("It is 1.82 km long.", "Its length is 1,820 metres.", "It is 1,820 metres long."),
        ("It raised $5bn.", "It raised $5,000,000,000 in 2021.", "It raised $5,000,000,000."),
        ("It flew 4,700 miles out.", "It flew about 7,600 km out.", "It flew 7,600 km out."),
        # one end of a range is no quantity of its own; a form the passage writes stays
        ("The hike is 5-10 km long.", "The hike is 5-6 miles long.", "The hike is 5-10 km long."),
        ("It holds 10 to 20 litres.", "It holds 10 to 20,000 ml.", "It holds 10 to 20 litres."),
        ("Founded in 2000.", "It cost $2k in 2000.", "Founded in 2000."),
        (
            "The spire is 83 feet tall.",
            "The spire is 1\u00a0083 feet tall.",
            "The spire is 83 feet tall.",
        ),
        # the same form, another value, another dimension, plain numbers: left as written
        ("It is 330 m tall.", "It is 330 m tall.", "It is 330 m tall."),
        ("It had 1.3 million users.", "It had 1,200,000 users.", "It had 1.3 million users."),
        ("It is 1.82 km long.", "It weighs 1,820 kg.", "It is 1.82 km long."),
        ("It opened in 1889.", "It opened in 1,889 days.", "It opened in 1889."),
        ("No numbers here.", "It had 1,200,000 users.", "No numbers here."),
        # time, temperature, a dozen, a share in words, a date in another form
        ("The flight takes 2.5 hours.", "It takes 150 minutes.", "The flight takes 150 minutes."),
        ("It took 3 days.", "It took 72 hours in all.", "It took 72 hours."),
        ("It boils at 212 °F.", "Water boils at 100 °C.", "It boils at 100 °C."),
        ("It was -40°F.", "It was −40 °C that night.", "It was −40 °C."),
        ("It was 72 °F.", "It was 22 °C.", "It was 22 °C."),
        # a time in another language's units
        (
            "Der Flug dauert 2,5 Stunden.",
            "Der Flug dauert 150 Minuten.",
            "Der Flug dauert 150 Minuten.",
        ),
        ("Es dauert 1 Tag.", "Es dauert 24 Stunden.", "Es dauert 24 Stunden."),
        # a time and the same time in parts, either way (a new user's trial: contradicted)
        (
            "The flight takes 260 minutes.",
            "The flight takes 4 hours 20 minutes.",
            "The flight takes 4 hours 20 minutes.",
        ),
        (
            "The flight takes 1 hour 25 minutes.",
            "The flight takes 85 minutes.",
            "The flight takes 85 minutes.",
        ),
        ("It took 150 minutes.", "It took 2 hours and a half.", "It took 2 hours and a half."),
        (
            "The flight takes 260 minutes.",
            "The flight takes 4 hours 10 minutes.",
            "The flight takes 260 minutes.",
        ),
        # a German unit's dots are thousands; short words in their own case only
        (
            "Der Flug dauert 1.500 Minuten.",
            "Der Flug dauert 90 Sekunden.",
            "Der Flug dauert 1.500 Minuten.",
        ),
        (
            "Airflow 2 DAG runs hourly.",
            "Airflow 48 hours runs hourly.",
            "Airflow 2 DAG runs hourly.",
        ),
        (
            "Values within 2 std were kept.",
            "Values within 120 minutes were kept.",
            "Values within 2 std were kept.",
        ),
        # an oven's degrees Celsius in whole tens, as recipes convert them
        ("Bake it at 350 °F.", "Bake it at 180 °C.", "Bake it at 180 °C."),
        ("Bake it at 180 °C.", "Bake it at 350 °F.", "Bake it at 350 °F."),
        ("Roast it at 400 °F.", "Roast it at 200 °C.", "Roast it at 200 °C."),
        ("The team has a dozen members.", "It has 12 members.", "The team has 12 members."),
        (
            "Three quarters of voters approved.",
            "75 per cent of voters approved.",
            "75 per cent of voters approved.",
        ),
        (
            "About 67% of them voted.",
            "Two-thirds of them voted.",
            "About two-thirds of them voted.",
        ),
        ("A third of them voted.", "33.3% of them voted.", "33.3% of them voted."),
        ("It rose 12%.", "It rose 12 per cent.", "It rose 12 per cent."),
        ("It pays $0.25 a share.", "It pays 25 cents a share.", "It pays 25 cents a share."),
        ("It pays 25 cents a share.", "It pays $0.25 a share.", "It pays $0.25 a share."),
        ("The ratio is 0.25.", "It pays 25 cents a share.", "The ratio is 0.25."),
        ("It pays $0.30 a share.", "It pays 25 cents a share.", "It pays $0.30 a share."),
        ("It fell on 21/01/1793.", "On 21 January 1793 it fell.", "It fell on 21 January 1793."),
        ("It fell on 01/21/1793.", "On 21 January 1793 it fell.", "It fell on 21 January 1793."),
        ("It fell on Jan. 21, 1793.", "On 1793-01-21 it fell.", "It fell on 1793-01-21."),
        (
            "On 1 February 1958 it had 1.2 million fans.",
            "On February 1, 1958, it had 1,200,000 fans.",
            "On February 1, 1958 it had 1,200,000 fans.",
        ),
        # another value, a plain number against a dozen, no "of" after a share: as written
        ("The flight takes 2.5 hours.", "It takes 160 minutes.", "The flight takes 2.5 hours."),
        ("It was 20 °C.", "It was 70 °F.", "It was 20 °C."),
        ("It boils at 100 °C.", "It boils at 200 °F.", "It boils at 100 °C."),
        # tens from above water's boiling point, in degrees Celsius only
        ("Bake it at 400 °F.", "Bake it at 180 °C.", "Bake it at 400 °F."),
        ("It boils at 100 °C.", "It boils at 205 °F.", "It boils at 100 °C."),
        ("It was 40 °C.", "It was 100 °F.", "It was 40 °C."),
        ("It opened on 12 May.", "A dozen people came.", "It opened on 12 May."),
        ("It took half an hour.", "It took 50% longer.", "It took half an hour."),
        ("About 60% of them voted.", "Two-thirds of them voted.", "About 60% of them voted."),
        ("It fell on 22/01/1793.", "On 21 January 1793 it fell.", "It fell on 22/01/1793."),
        (
            "It fell on 21 January 1792.",
            "On 21 January 1793 it fell.",
            "It fell on 21 January 1792.",
        ),
        # found by a review: a time in parts, a share of a time, a value that recurs elsewhere
        # in the passage, a date either way round, a dozen against a date
        (
            "The film runs 120 minutes.",
            "The film runs 2 hours 10 minutes.",
            "The film runs 120 minutes.",
        ),
        (
            "Sales rose 50% in the second half of 2020.",
            "Sales rose 20% in the second half of 2020.",
            "Sales rose 50% in the second half of 2020.",
        ),
        (
            "The vaccine was 50% effective.",
            "Half of the participants got the vaccine, which was 95% effective.",
            "The vaccine was 50% effective.",
        ),
        (
            "The trial lasted 2 weeks.",
            "Patients took the drug for 14 days; the trial lasted 6 weeks.",
            "The trial lasted 2 weeks.",
        ),
        ("It was on 9/11/2001.", "It was on 9 November 2001.", "It was on 9/11/2001."),
        (
            "About half a dozen were hurt.",
            "On 01/06/2021 some were hurt.",
            "About half a dozen were hurt.",
        ),
        ("It took 25 years.", "It took a quarter of a century.", "It took 25 years."),
        (
            "Half of voters backed it.",
            "50% to 60% of voters backed it.",
            "Half of voters backed it.",
        ),
        # found by a second review: the second end of a range after a sign, a value of another
        # thing in a list, a time in parts written short, a temperature change, below zero
        (
            "Three fifths of voters backed it.",
            "Between 50% and 60% of voters backed it.",
            "Three fifths of voters backed it.",
        ),
        (
            "It reached 104 °F in Phoenix.",
            "It reached 40 °C in Dallas and 45 °C in Phoenix.",
            "It reached 104 °F in Phoenix.",
        ),
        (
            "His semi-final lasted 4 hours.",
            "His quarter-final lasted 240 minutes and his semi-final 3 hours.",
            "His semi-final lasted 4 hours.",
        ),
        ("The hike took 120 minutes.", "The hike took 2h 30m.", "The hike took 120 minutes."),
        (
            "Warming is to stay under 34.7 °F above pre-industrial levels.",
            "Warming is to stay under 1.5 °C above pre-industrial levels.",
            "Warming is to stay under 34.7 °F above pre-industrial levels.",
        ),
        ("The low was 23 °F.", "The low was 5 °C below zero.", "The low was 5 °C below zero."),
        ("The low was 41 °F.", "The low was 5 °C below zero.", "The low was 41 °F."),
        # the words in another order: the passage's value alone in a clause that holds the
        # claim's words (a second user trial); not where the clause holds another value
        (
            "Earnings were 87 cents per share.",
            "GAAP earnings per share were $0.87.",
            "Earnings were $0.87 per share.",
        ),
        (
            "Gas prices rose 25 cents in Texas.",
            "Gas prices rose $0.25 in Ohio and $0.10 in Texas.",
            "Gas prices rose 25 cents in Texas.",
        ),
        (
            "A dozen children were hurt in the crash.",
            "Two 12-year-old children were hurt in the crash.",
            "A dozen children were hurt in the crash.",
        ),
        # a range in another form, its first end with the second's scale or unit
        (
            "It guided revenue of $4.9–5.0 billion.",
            "It expects revenue between $4.90 billion and $5.00 billion.",
            "It guided revenue of between $4.90 billion and $5.00 billion.",
        ),
        (
            "Revenue will be between $4.9 and $5.0 billion.",
            "It expects revenue of $4.90-$5.00 billion.",
            "Revenue will be $4.90-$5.00 billion.",
        ),
        (
            "The trail is 5–10 km long.",
            "It is between 5,000 and 10,000 metres long.",
            "The trail is between 5,000 and 10,000 metres long.",
        ),
        (
            "Revenue will be $4.9–5.2 billion.",
            "It expects revenue between $4.90 billion and $5.00 billion.",
            "Revenue will be $4.9–5.2 billion.",
        ),
        (
            "Inflation hit 33% in March.",
            "A third of the rise came in March; inflation hit 12% in March.",
            "Inflation hit 33% in March.",
        ),
        (
            '"50% of voters agreed," he said.',
            "Half of voters agreed.",
            '"Half of voters agreed," he said.',
        ),
        (
            "Police arrested 6 people.",
            "Police arrested half  a dozen people.",
            "Police arrested 6 people.",
        ),
        (
            "The kiln reaches 1,200 °C.",
            "Der Brennofen erreicht 1.200,5 °C.",
            "The kiln reaches 1,200 °C.",
        ),
    ],
)
def test_a_claim_is_read_with_the_passage_s_form_of_its_quantities(
    claim: str, passage: str, read: str
) -> None:
    from attribution.text import as_written_in

    assert as_written_in(claim, passage) == read


def test_quantities_give_their_value_in_the_base_unit() -> None:
    from attribution.text import quantities, quantity_values

    text = "A 1.82 km bridge, 2.5 kg, 3M users, $5bn and 1,200 people in 2023-05-04."
    found = {(text[q.start : q.end], q.value, q.dimension, q.plain) for q in quantities(text)}
    assert ("1.82 km", "1820", "length", False) in found
    assert ("2.5 kg", "2500", "mass", False) in found
    assert ("3M", "3000000", "count", False) in found
    assert ("5bn", "5000000000", "count", False) in found
    assert ("1,200", "1200", "count", True) in found
    (measure, share) = quantity_values("It is 1.82 km long, 12% of it.")
    assert (measure.written, measure.value, measure.dimension) == ("1.82", "1820", "length")
    assert (share.written, share.value, share.dimension) == ("12", "12", "share")
    assert quantities("no digits") == []
    text = "2.5 hours, 212 °F, -40 degrees Celsius, two dozen, three quarters of it, 5 per cent"
    found = {(text[q.start : q.end], q.value, q.dimension) for q in quantities(text)}
    assert found == {
        ("2.5 hours", "9000", "duration"),
        ("212 °F", "373.15", "temperature"),
        ("-40 degrees Celsius", "233.15", "temperature"),
        ("two dozen", "24", "count"),
        ("three quarters", "75", "share"),
        ("5 per cent", "5", "share"),
    }
    # "s" is no unit ("the 1990s"), nor is a bare "degrees"
    assert [q.dimension for q in quantities("In the 1990s it turned 90 degrees.")] == ["count"] * 2
    # a time in parts and a clock time are no duration; a dash between two temperatures is
    # no minus sign
    assert {q.dimension for q in quantities("It ran 2 hours 10 minutes, at 2:30 h.")} == {"count"}
    (high,) = [q for q in quantities("It was 10°–15°C.") if q.dimension == "temperature"]
    assert high.value == "288.15"
    # a number of any length, a temperature below zero, a change of temperature
    assert quantities("The core reached 10000000000000000000000 °C.")
    (low,) = quantities("It was 5 °C below zero.", plain=False)
    assert low.value == "268.15"
    for change in ("It warmed by 1 °C.", "It is 5 °F below freezing.", "1.5 °C above the mean"):
        assert not quantities(change, plain=False), change


def test_quantities_of_a_long_text_take_linear_time() -> None:
    from attribution.text import quantities

    # the overlap check was quadratic: 20,000 shares took 7 to 16 s
    found = quantities("rose 5% and took 5 min and " * 20_000)
    assert len(found) == 40_000


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        ("It cost €5 billion.", "It cost $5 billion.", True),
        ("It cost 5 billion euros.", "It cost US$5bn.", True),
        ("It cost £40.", "It cost 40 dollars.", True),
        # the claim's currency beside another, the same currency, or no amount to compare
        ("It cost $5 billion.", "It cost €5 billion ($5 billion).", False),
        ("It cost $5 billion.", "It cost US$5 billion.", False),
        ("It cost $5 billion.", "It cost 5 billion.", False),
        ("It cost $5 billion.", "It cost €6 billion.", False),
        ("It weighs 5 pounds.", "It cost $5.", False),  # pounds after a number: a weight
        ("No money here.", "It cost $5.", False),
        # forms a review found misread: a scale in capitals, a blank after the sign, a name
        # with its country, a sign after the number
        ("It raised $5M in seed funding.", "It raised $5 million. Tickets cost €5.", False),
        ("The US gave $5 million.", "It gave US$ 5 million and the EU €5 million.", False),
        ("The US gave $5 million.", "It gave 5 million U.S. dollars and €5 million.", False),
        ("It costs €5 per month.", "It costs 5 € per month, or $5 for students.", False),
        ("It costs $5 per month.", "It costs 5 € per month.", True),
        # the claim's currency named in words: the amount may be too ("five dollars")
        ("It costs $5 a month.", "It costs five dollars a month, or 5 euros in Europe.", False),
    ],
)
def test_an_amount_in_another_currency_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    from attribution.text import currency_conflict

    assert currency_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        (
            "It expects $5.1 billion to $5.5 billion.",
            "It expects $5.1 billion to $5.3 billion.",
            True,
        ),
        ("The dose is 10–20 mg.", "The dose is 10-15 mg.", True),
        # another range after the same words, in a clause that says the claim's fact
        ("The dose is 10–20 mg.", "The dose is 5-8 mg.", True),
        ("The battery lasts 12 to 14 hours.", "The battery lasts 10-12 hours on a charge.", True),
        (
            "The battery lasts between 20 and 24 hours.",
            "The battery lasts 10-12 hours on a charge.",
            True,
        ),
        # the same range in another form, another range after other words or inside the
        # claim's (or the claim's inside it), another fact, no range
        (
            "It expects $4.9–5.0 billion.",
            "It expects between $4.90 billion and $5.00 billion.",
            False,
        ),
        ("The dose is 10–20 mg.", "For children the dose is reduced to 5-8 mg.", False),
        ("The battery lasts 9 to 13 hours.", "The battery lasts 10-12 hours on a charge.", False),
        ("The battery lasts 11 to 12 hours.", "The battery lasts 10-13 hours on a charge.", False),
        (
            "The battery lasts 12 to 14 hours on a charge.",
            "The battery lasts 10-12 hours of video playback, the maker says of its camera.",
            False,
        ),
        ("The dose is 10 mg.", "The dose is 10-15 mg.", False),
    ],
)
def test_a_range_with_one_end_changed_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    from attribution.text import range_conflict

    assert range_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        ("Lows reached 5 °C.", "Lows reached -5 °C on Monday.", True),
        ("Lows reached -5 °C.", "Lows reached 5 °C.", True),
        ("Lows reached 23 °F.", "Lows reached −23 °F.", True),
        ("Lows reached 5 °C.", "Lows reached minus 5 degrees Celsius.", True),
        # the claim's temperature given too (in any unit), zero, another value, no sign
        ("Lows reached 5 °C.", "Lows were -5 °C on Monday and 5 °C on Tuesday.", False),
        ("Lows reached 5 °C.", "Lows reached -5 °C, or 41 °F by day.", False),
        ("Lows reached 0 °C.", "Lows reached -0 °C.", False),
        ("Lows reached 5 °C.", "Lows reached -6 °C.", False),
        ("Lows reached 5 °C.", "Lows reached 5 °C.", False),
        ("It fell by 5 °C.", "It fell by 5 °C to -5 °C.", False),
        # after a review: a tolerance, a change written with its verb
        ("It is accurate to plus or minus 0.5 °C.", "It is accurate to ±0.5 °C.", False),
        ("It is accurate to ±0.5 °C.", "It is accurate to plus or minus 0.5 °C.", False),
        ("Overnight it dropped 5 °C.", "It fell from 0 °C to -5 °C.", False),
        ("Overnight lows reached 5 °C.", "Overnight lows fell to -5 °C.", True),
        # "of minus 5 °C" is -5 °C (a first version read "f " as Fahrenheit's)
        ("Lows of -5 °C are expected.", "Lows of minus 5 °C are expected.", False),
        # "+3 °C" is how European forecasts write a temperature; "for minus 12 °C" is -12 °C
        ("Overnight lows reached -5 °C.", "Overnight lows reached +5 °C.", True),
        ("Highs reached 3 °C.", "Highs of +3 °C were recorded.", False),
        (
            "Forecasters expect -12 °C tonight.",
            "The forecast calls for minus 12 °C tonight.",
            False,
        ),
    ],
)
def test_a_temperature_with_the_other_sign_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    from attribution.text import sign_conflict

    assert sign_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        ("The film runs 2 hours.", "The film runs 2 hours 10 minutes, in colour.", True),
        ("The hike took 2 hours.", "The hike took 2 hours and a half.", True),
        ("The race took 2 h.", "The winner's time: 2h 30m.", True),
        # the same time, alone or in its other form; another part; no time in parts
        ("The film runs 2 hours.", "The film runs 2 hours.", False),
        ("The film runs 130 minutes.", "The film runs 2 hours 10 minutes.", False),
        ("It lasts 10 minutes.", "It lasts 2 hours 10 minutes.", False),
        ("The hike took 2 hours.", "It took 2 hours; the return 1 hour 30 minutes.", False),
        ("The film runs 2 hours.", "The film runs 3 hours 10 minutes.", False),
        ("The film has 2 parts.", "The film runs 2 hours 10 minutes.", False),
        # from a review: a bound or a round figure; a list of times; a part that is none
        ("The film runs more than 2 hours.", "The film runs 2 hours 10 minutes.", False),
        ("The film is over 2 hours long.", "The film runs 2 hours 10 minutes.", False),
        ("The film runs about 2 hours.", "The film runs 2 hours 10 minutes.", False),
        ("The first leg takes 2 hours.", "It takes 2 hours, 3 hours for the second leg.", False),
        ("The climb takes 3 hours.", "The climb takes 3 hours, 800 m of ascent in all.", False),
        ("Eggs need 10 minutes.", "Boil the eggs 10 minutes and 6 minutes for soft yolks.", False),
        ("The festival lasts 3 days.", "It lasts 3 days, 2 days of which are free.", False),
        ("The trip took 2 hours.", "The trip took 2 hours, half an hour of it in traffic.", False),
        ("The film runs 2 hours.", "The film runs 2 hours 0 minutes.", False),
        ("It takes 1 hour.", "It takes 1 hour 90 minutes.", False),
        ("The hike takes 2 to 3 hours.", "It takes 2 to 3 hours 30 minutes.", True),
        # German, French, Spanish and Dutch units (a review: "2 Stunden" against "2 Stunden 10
        # Minuten" was supported, 0.997)
        ("Der Film dauert 2 Stunden.", "Der Film dauert 2 Stunden 10 Minuten.", True),
        ("Le film dure 2 heures.", "Le film dure 2 heures et 10 minutes.", True),
        ("La película dura 2 horas.", "La película dura 2 horas y 10 minutos.", True),
        ("Der Film dauert 2 Stunden.", "Der Film dauert 2 Stunden.", False),
        # after a review: a bound or a round figure in those languages too
        ("Der Film dauert etwa 2 Stunden.", "Der Film dauert 2 Stunden 10 Minuten.", False),
        ("Le film dure plus de 2 heures.", "Le film dure 2 heures et 10 minutes.", False),
        ("La película dura unas 2 horas.", "La película dura 2 horas y 10 minutos.", False),
        ("De film duurt ongeveer 2 uur.", "De film duurt 2 uur en 10 minuten.", False),
        # abbreviated parts and halves in those languages
        ("Der Film dauert 2 Stunden.", "Der Film dauert 2 Std. 30 Min.", True),
        ("The hike took 2 hrs.", "The hike took 2 hrs. 30 mins.", True),
        ("La película dura 2 horas.", "La película dura 2 horas y media.", True),
        ("Le film dure 2 heures.", "Le film dure 2 heures et demie.", True),
        ("The hike took 2 hours.", "The hike took 2 hours. 30 minutes later it rained.", False),
        # a new user's trial: "just" is no hedge, "about" within a quarter only, an upper bound
        ("The trip takes just 2 hours.", "The trip takes 2 hours 16 minutes.", True),
        ("It takes about 1 hour.", "It takes 1 hour 25 minutes.", True),
        ("It takes under 2 hours.", "It takes 2 hours 10 minutes.", True),
        ("It takes nearly 2 hours.", "It takes 2 hours 10 minutes.", True),
    ],
)
def test_a_time_the_passage_gives_only_as_part_of_a_longer_one_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    # the judge read "runs 2 hours" against "runs 2 hours 10 minutes" as support (0.996)
    from attribution.text import time_conflict

    assert time_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        (
            "The company paid a dividend in 2023.",
            "The company did not pay a dividend in 2023.",
            True,
        ),
        ("The museum is open on Mondays.", "The museum is not open on Mondays.", True),
        ("The update fixes the memory leak.", "The update doesn't fix the memory leak.", True),
        ("He played for Ajax in 2010.", "He never played for Ajax in 2010.", True),
        ("The app can export PDF files.", "The app cannot export PDF files.", True),
        ("The app can't export PDF files.", "The app can export PDF files.", True),
        (
            "The drug was not approved by the FDA.",
            "The drug was approved by the FDA in 2020.",
            True,
        ),
        ("The firm did not pay a dividend.", "The firm paid a dividend in 2023.", True),
        # the same polarity; another word besides the negation; "not only"; another sentence
        ("The firm paid a dividend in 2023.", "The firm paid a dividend in 2023.", False),
        ("The firm did not pay a dividend.", "The firm did not pay a dividend.", False),
        ("The museum is open on Mondays.", "The museum is open on Mondays, not Sundays.", False),
        ("Jonas Berg played in Sweden.", "Jonas Berg never played outside Norway.", False),
        ("It is available in the EU.", "It is not only available in the EU but in the US.", False),
        (
            "The museum is open on Mondays.",
            "It is not closed. The museum is open on Mondays.",
            False,
        ),
        ("It is open.", "It is not open.", False),  # too short to tell
        # from a review: two negations, hearsay, a myth, a question, a bound, the claim said
        ("The museum is open on Mondays.", "It is not true that it is not open on Mondays.", False),
        ("The museum is open on Mondays.", "Nobody would claim it is not open on Mondays.", False),
        (
            "The museum is open on Mondays.",
            "It is often said that the museum is not open on "
            "Mondays. In fact, it opens on Mondays.",
            False,
        ),
        (
            "The museum is open on Mondays.",
            "Is it true that the museum is not open on Mondays?",
            False,
        ),
        (
            "Acme paid a dividend in 2023.",
            "Acme did not pay a dividend in 2023 until May, when it paid $1.",
            False,
        ),
        (
            "The bridge is open to cyclists.",
            "The bridge is not open to cyclists during rush hour.",
            False,
        ),
        (
            "The company paid a dividend in 2023.",
            "Critics claimed the company did not pay a "
            "dividend in 2023, but the company paid a dividend in 2023.",
            False,
        ),
        (
            "The company paid a dividend.",
            "The CEO denied reports that the company did not pay a dividend.",
            False,
        ),
    ],
)
def test_the_claim_with_a_negation_is_a_conflict(claim: str, passage: str, conflict: bool) -> None:
    # the judge read "paid a dividend" against "did not pay a dividend" as support (0.58)
    from attribution.text import negation_conflict

    assert negation_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        (
            "Automatic backups are enabled by default.",
            "Automatic backups are disabled by default.",
            True,
        ),
        ("Backups are enabled by default.", "Backups are not enabled by default.", True),
        ("Backups are not disabled by default.", "Backups are disabled by default.", True),
        ("The museum is closed on Mondays.", "The museum is open on Mondays.", True),
        ("The bridge is safe.", "The bridge is unsafe.", True),
        # the same state; both contraries denied; another subject, sense, bound; hearsay; "it"
        ("Backups are disabled by default.", "Backups are disabled by default.", False),
        ("The bridge is not safe.", "The bridge is not unsafe.", False),
        ("The camera is disabled by default.", "The microphone is enabled by default.", False),
        ("The museum is closed on Mondays.", "The museum is open every day but Tuesday.", False),
        ("The API is disabled.", "If the API is enabled, it logs every request.", False),
        ("It is not possible to go below zero.", "It is possible to create such a system.", False),
        ("The bridge is safe.", "The bridge is unsafe for trucks.", False),
    ],
)
def test_the_opposite_of_the_claims_state_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    # a new user's trial: "enabled by default" against "disabled by default" was supported 0.89
    from attribution.text import state_conflict

    assert state_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        # another name in the claim's name's words; two names changing places
        ("Google acquired GitHub in 2018.", "Microsoft acquired GitHub in 2018 for $7.5bn.", True),
        (
            "Pierre Curie won the Nobel Prize in Chemistry in 1911.",
            "Marie Curie won the Nobel Prize in Chemistry in 1911.",
            True,
        ),
        (
            "The Danube flows into the Adriatic Sea.",
            "The Danube flows through Vienna and then into the Black Sea.",
            True,
        ),
        (
            "Professor Mark Osei led the study.",
            "Dr. Anna Keller led the study, with Professor Mark Osei as co-author.",
            True,
        ),
        (
            "The firm moved its headquarters from Denver to Chicago in 2021.",
            "The firm moved its headquarters from Chicago to Denver in 2021.",
            True,
        ),
        (
            "Helix Bio's chief executive, Lisa Berg, announced the merger.",
            "Orion Pharma will merge with Helix Bio, Orion's chief executive Lisa Berg announced.",
            True,
        ),
        (
            "Smith replaced Jones as head coach in 2019.",
            "Jones replaced Smith as head coach in 2019.",
            True,
        ),
        # one name written two ways: a title, a first name, initials, a demonym, accents, a plural
        ("Joe Biden said the bill would pass.", "President Biden said the bill would pass.", False),
        ("Dr. Smith led the study.", "Professor Smith led the study.", False),
        ("The US Senate passed the bill.", "The United States Senate passed the bill.", False),
        (
            "The UK government said it would act.",
            "The British government said it would act.",
            False,
        ),
        ("Spain calls it Alemania today.", "Spain calls it Alemanía today.", False),
        (
            "The FDA approved the drug.",
            "The Food and Drug Administration approved the drug.",
            False,
        ),
        (
            "HP reported revenue of $14 billion.",
            "Hewlett-Packard reported revenue of $14 billion.",
            False,
        ),
        ("The bridge fell during WWII.", "The bridge fell during World War II.", False),
        (
            "The Fed raised rates on Wednesday.",
            "The Federal Reserve raised rates on Wednesday.",
            False,
        ),
        (
            "It took effect in Sept. 2020 as planned.",
            "It took effect in September 2020 as planned.",
            False,
        ),
        (
            "Bill Clinton signed the law in 1996.",
            "President William J. Clinton signed the law in 1996.",
            False,
        ),
        (
            "China imposed tariffs on steel in 2018.",
            "Beijing imposed tariffs on steel in 2018.",
            False,
        ),
        ("Kyiv is the capital of Ukraine.", "Kiev is the capital of Ukraine.", False),
        (
            "Speaker Pelosi said the vote would be on Friday.",
            "Nancy Pelosi said the vote would be on Friday.",
            False,
        ),
        (
            "The Company reported revenue of $5 billion.",
            "Acme reported revenue of $5 billion.",
            False,
        ),
        ("Annual revenue rose 10% to $5 billion.", "Yearly revenue rose 10% to $5 billion.", False),
        (
            "Ultimately the court ruled for the firm.",
            "Eventually the court ruled for the firm.",
            False,
        ),
        (
            "Wozniak co-founded Apple with Jobs in 1976.",
            "Steve Jobs co-founded Apple with Steve Wozniak in 1976.",
            False,
        ),
        # the passage's place lies in the claim's; a weekday against a date; "of" in initials
        ("Barack Obama was born in Hawaii.", "Obama was born in Honolulu, Hawaii, in 1961.", False),
        (
            "Einstein was born in Germany in 1879.",
            "Einstein was born in Ulm, Germany, in 1879.",
            False,
        ),
        (
            "It lifted off on an Ariane 5 rocket from Kourou, French Guiana.",
            "Webb lifted off on an Ariane 5 rocket from Europe's Spaceport in Kourou, "
            "French Guiana.",
            False,
        ),
        (
            "Apple announced the headset on Monday.",
            "Apple announced the headset on June 5, 2023.",
            False,
        ),
        (
            "The DOJ sued Google in January 2023.",
            "The Department of Justice sued Google in January 2023.",
            False,
        ),
        (
            "The EU fined Apple in March 2024.",
            "The European Commission fined Apple in March 2024.",
            False,
        ),
        # an amount, emphasis and an all-capital stopword in the words around a name
        (
            "According to Reuters, Amazon will invest $4 billion in Anthropic.",
            "Google will invest $4 billion in Anthropic, according to Reuters.",
            True,
        ),
        ("Google acquired GitHub in 2018.", "**Microsoft** acquired GitHub in 2018.", True),
        (
            "The WHO declared a pandemic on March 11, 2020.",
            "The CDC declared a pandemic on March 11, 2020.",
            True,
        ),
        # two countries, a people's word on each side
        ("Iran invaded Kuwait in 1990.", "Iraq invaded Kuwait in 1990.", True),
        (
            "The British government said it would act.",
            "The French government said it would act.",
            True,
        ),
        # a common word at a sentence's start; a symmetric relation; a list; another fact
        ("Researchers found that the drug works.", "Scientists found that the drug works.", False),
        ("France played Argentina in the final.", "Argentina played France in the final.", False),
        ("Lennon and McCartney wrote the song.", "McCartney and Lennon wrote the song.", False),
        ("Google acquired GitHub in 2018.", "Microsoft and Google acquired GitHub in 2018.", False),
        (
            "The Tories spent £2,980,815 on the campaign.",
            "The Lib Dems spent £1,580,575 on the campaign.",
            False,
        ),
        # a modifier before one name only; the claim's name stands in its words elsewhere
        (
            "The Golden State Warriors player is set to earn $48 million.",
            "Golden State Warriors superstar Stephen Curry is set to earn $48 million.",
            False,
        ),
        (
            "Google acquired Fitbit in 2021.",
            "Microsoft acquired GitHub in 2018. Google acquired Fitbit in 2021.",
            False,
        ),
        # the passage names the claim's name in another sentence: which is meant is not plain
        (
            "Akamai found the flaw in May.",
            "Cloudflare found the flaw in May. Akamai patched it.",
            False,
        ),
        # the passage's sentence says another fact (a quarter of the claim's words missing)
        (
            "Google acquired the startup for its mapping software in 2013.",
            "Microsoft acquired the startup last week.",
            False,
        ),
    ],
)
def test_another_name_in_the_claims_words_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    # the judge read "Google acquired GitHub" against "Microsoft acquired GitHub" as support
    from attribution.text import name_conflict

    assert name_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        (
            "The battery charges to 80% in 8 minutes.",
            "The battery charges to 80% in 18 minutes.",
            True,
        ),
        ("The tower is 300 metres tall.", "The tower is 330 metres tall, the city says.", True),
        ("Revenue grew 35 percent in 2023.", "Revenue grew 25 percent in 2023, it said.", True),
        # the same value in another unit; a value the claim's rounds; a bound or round figure
        ("The tower is 330 m tall.", "The tower is 1,083 feet tall.", False),
        ("Revenue grew 5% in 2023.", "Revenue grew 5.2% in 2023.", False),
        ("The battery charges in about 20 minutes.", "The battery charges in 18 minutes.", False),
        ("The battery charges in 20 minutes.", "The battery charges in up to 18 minutes.", False),
        (
            "The battery charges in more than 10 minutes.",
            "The battery charges in 18 minutes.",
            False,
        ),
        # a unit of another kind with the claim's number; the passage gives both
        (
            "The drug lowered blood pressure by an average of 12 percent.",
            "The drug lowered blood pressure by an average of 12 mmHg over eight weeks.",
            True,
        ),
        (
            "The drug lowered blood pressure by an average of 12 percent.",
            "The drug lowered blood pressure by an average of 12 mmHg, a fall of 12 percent.",
            False,
        ),
        # a share in words; a measure in two parts; values the claim adds up; another subject
        (
            "A third of respondents use the app daily.",
            "32.8% of respondents use the app daily.",
            False,
        ),
        ("The baby weighed 3.5 kg at birth.", "The baby weighed 7 lb 11 oz at birth.", False),
        (
            "The recipe takes 45 minutes.",
            "The recipe takes 15 minutes to prepare and 30 minutes to cook.",
            False,
        ),
        (
            "The car charges to 80% in 15 minutes with the V4 charger.",
            "The car charges to 80% in 30 minutes on a V2 charger; a V4 takes half as long.",
            False,
        ),
        ("Inflation fell to 3.14% in June.", "Inflation fell to 3.1% in June.", False),
        # a value in words; a share in words far from the passage's; a value opening the
        # sentence, compared by the words after it
        (
            "The charger fills the battery in eighteen minutes.",
            "The charger fills the battery in 8 minutes.",
            True,
        ),
        ("The charger fills it in eight minutes.", "The charger fills it in 8 minutes.", False),
        (
            "The charger fills it in two hours and ten minutes.",
            "The charger fills it in 2 hours.",
            False,
        ),
        (
            "Half of respondents said they were satisfied.",
            "30% of respondents said they were satisfied with the service.",
            True,
        ),
        (
            "30% of respondents said they were satisfied.",
            "Half of respondents said they were satisfied with the service.",
            True,
        ),
        (
            "Half of respondents said they were satisfied.",
            "48% of respondents said they were satisfied with the service.",
            False,
        ),
        (
            "About half of respondents said they were satisfied.",
            "45% of respondents said they were satisfied with the service.",
            False,
        ),
        # a bound or a round figure against a value it cannot be; against one it can
        (
            "About half of respondents said they were satisfied.",
            "30% of respondents said they were satisfied with the service.",
            True,
        ),
        (
            "About a third of adults reported poor sleep.",
            "In the survey, 13% of adults reported poor sleep at least three nights a week.",
            True,
        ),
        (
            "Two-thirds of the budget goes to salaries.",
            "Roughly 40 percent of the budget goes to salaries, with the rest on equipment.",
            True,
        ),
        (
            "The trail runs for more than 300 km.",
            "The trail runs for 270 km along the coast.",
            True,
        ),
        (
            "The trail runs for more than 300 km.",
            "The trail runs for 350 km along the coast.",
            False,
        ),
        ("The battery charges in up to 18 minutes.", "The battery charges in 25 minutes.", True),
        ("The battery charges in up to 18 minutes.", "The battery charges in 12 minutes.", False),
        ("Nearly half of voters backed the plan.", "30% of voters backed the plan.", True),
        ("Nearly half of voters backed the plan.", "48% of voters backed the plan.", False),
        ("The bridge is about 1.6 km long.", "The bridge is 1,596 metres long.", False),
        ("The bridge is about 1.6 km long.", "The bridge is 2,596 metres long.", True),
        # a share as one in so many; a speed
        (
            "One in four children in the district lives in poverty.",
            "One in three children in the district lives in poverty, the report says.",
            True,
        ),
        (
            "One in five children in the district lives in poverty.",
            "20% of children in the district lives in poverty, the report says.",
            False,
        ),
        ("The car has a top speed of 250 km/h.", "The car has a top speed of 205 km/h.", True),
        ("The car has a top speed of 155 mph.", "The car has a top speed of 250 km/h.", False),
        (
            "The speed limit on the village road is 30 mph.",
            "The limit on the village road is 30 miles per hour, dropping to 20 near the school.",
            False,
        ),
        # whole units apart are no rounding; a number with a scale, money too
        ("The trail is 12 km long.", "The trail is 13 km long.", True),
        ("Revenue rose to €450m in 2023.", "Revenue rose to €450 billion in 2023.", True),
        ("Revenue rose to €450m in 2023.", "Revenue rose to €450 million in 2023.", False),
        ("Revenue rose to $1.2bn in 2023.", "Revenue rose to $1.25 billion in 2023.", False),
        # an article more or less after a value that opens the sentence
        (
            "Half of the students passed the exam.",
            "Of the 240 candidates, 30% of students passed the exam on their first attempt.",
            True,
        ),
        (
            "12% of adults smoke daily.",
            "Of those surveyed, 15% of teenagers smoke daily.",
            False,
        ),
        # other words before the value; the value elsewhere; another fact of the page
        ("The battery charges to 80% in 8 minutes.", "It fills to 80% in 18 minutes.", False),
        (
            "The battery charges to 80% in 8 minutes.",
            "The battery charges to 80% in 18 minutes; the fast charger does it in 8 minutes.",
            False,
        ),
        (
            "The old model charged to 80% in 8 minutes at home.",
            "The new model charges to 80% in 18 minutes.",
            False,
        ),
    ],
)
def test_another_value_after_the_claims_words_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    # the judge read "80% in 8 minutes" against "80% in 18 minutes" as support (0.87)
    from attribution.text import value_conflict

    assert value_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        (
            "Release 2.4.0 was published on 18 June 2023.",
            "Release 2.4.0 was published on 2023-07-18 and adds a query planner.",
            True,
        ),
        ("The wall fell on 9 October 1989.", "The wall fell on 9 November 1989, ending it.", True),
        # the same day in another form; a day either way round; other words before it
        ("The wall fell on 9 November 1989.", "The wall fell on 1989-11-09, ending it.", False),
        ("The wall fell on 03/04/1989.", "The wall fell on 4 March 1989.", False),
        ("The wall fell on 9 October 1989.", "The talks began on 9 November 1989.", False),
        # the day named without its year; another subject's clause; two calendars
        (
            "Armstrong walked on the Moon on 21 July 1969.",
            "Armstrong walked on the Moon on July 20, 1969 (02:56 UTC on 21 July).",
            False,
        ),
        (
            "The Senate passed the bill on 7 March 2021.",
            "The House passed the bill on 5 March 2021, and the Senate passed the bill "
            "two days later.",
            False,
        ),
        (
            "Newton died on 31 March 1727.",
            "Newton died on 20 March 1727 (Old Style), in London.",
            False,
        ),
        # the claim's day elsewhere in the passage
        (
            "The wall fell on 9 October 1989.",
            "The wall fell on 9 November 1989; crowds gathered on 9 October 1989.",
            False,
        ),
        # a year first with slashes or dots; an ISO date with a time of day
        (
            "The report was published on 2023/07/18.",
            "The report was published on 18 June 2023 by the agency.",
            True,
        ),
        (
            "The report was published on 2023/07/18.",
            "The report was published on 18 July 2023 by the agency.",
            False,
        ),
        (
            "The update was released on March 7, 2024.",
            "The update was released on 2024-03-05T14:00:00Z to all users.",
            True,
        ),
        (  # a time of day: the day before or after in another time zone
            "The update was released on March 6, 2024.",
            "The update was released on 2024-03-05T22:00:00Z to all users.",
            False,
        ),
        # a dotted date either way round; a date of another year or name in the claim
        ("Payment is due on April 1, 2024.", "Payment is due on 04.01.2024.", False),
        ("Payment is due on April 2, 2024.", "Payment is due on 04.01.2024.", True),
        (
            "The update was released on March 5, 2024.",
            "The update was released on 2024-03-05T14:00:00Z to all users.",
            False,
        ),
        # a day first with dots; another year of the day; "the" before an ordinal day
        ("The treaty was signed on 5 March 2024.", "The treaty was signed on 05.04.2024.", True),
        ("The treaty was signed on 5 March 2024.", "The treaty was signed on 05.03.2024.", False),
        ("The treaty was signed on 5 March 2024.", "The treaty was signed on 5 March 2023.", True),
        (
            "The treaty was signed on the 5th of March 2024.",
            "The treaty was signed on 2024-03-06.",
            True,
        ),
        # a decade against another or a year outside it; against one inside it
        (
            "It became popular in the 1970s.",
            "It became popular in the 1960s, among students.",
            True,
        ),
        ("It became popular in the 1970s.", "It became popular in 1965.", True),
        ("It became popular in the 1970s.", "It became popular in the early 1970s.", False),
        ("It became popular in the 1970s.", "It became popular in 1975.", False),
        # a century, in words or figures, before Christ or not
        (
            "The castle was built in the eighteenth century.",
            "The castle was built in the 19th century.",
            True,
        ),
        (
            "The castle was built in the nineteenth century.",
            "The castle was built in the 19th century.",
            False,
        ),
        (
            "The temple was built in the 5th century BC.",
            "The temple was built in the 5th century AD.",
            True,
        ),
        (
            "The castle was built in the 18th century.",
            "The castle was built in the 19th century in an 18th-century style.",
            False,
        ),
        (
            "The castle was built in the 18th century.",
            "The chapel was restored in the 19th century.",
            False,
        ),
    ],
)
def test_another_day_after_the_claims_words_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    # the judge read "published on 18 June 2023" against "on 2023-07-18" as support (0.52)
    from attribution.text import date_conflict

    assert date_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        (
            "The city council passed a ban on plastic bags.",
            "The city council has proposed a ban on plastic bags. A vote is due next month.",
            True,
        ),
        (
            "The compound reduces inflammation in mice.",
            "The compound may reduce inflammation in mice.",
            True,
        ),
        (
            "The new stadium opened in August 2027.",
            "The new stadium is expected to open in August 2027.",
            True,
        ),
        (
            "Version 3.0 of the framework has dropped support for Python 3.8.",
            "Version 3.0 of the framework, due next year, will drop support for Python 3.8.",
            True,
        ),
        (
            "Apple launched the iPhone 16 in September.",
            "Apple plans to launch the iPhone 16 in September.",
            True,
        ),
        # the claim says a plan, a hedge or a time to come itself; the passage says it happened
        (
            "The city council has proposed banning plastic bags.",
            "The city council has proposed a ban on plastic bags.",
            False,
        ),
        (
            "The compound might reduce inflammation in mice.",
            "The compound may reduce inflammation in mice.",
            False,
        ),
        (
            "The city council passed a ban on plastic bags.",
            "The city council passed a ban on plastic bags.",
            False,
        ),
        # "will" of a procedure, against a claim in the present; a purpose; a negation
        (
            "You receive a confirmation email within an hour.",
            "You will receive a confirmation email within an hour.",
            False,
        ),
        (
            "Austerity is a set of policies implemented to reduce budget deficits.",
            "Austerity is a set of policies that aim to reduce budget deficits.",
            False,
        ),
        (
            "The compound reduces inflammation in mice.",
            "The compound may not reduce inflammation in mice.",
            False,
        ),
        # permission and duty; "will" of a procedure; a plan word as a noun, an adjective, an
        # aside or a name; "less likely" as a comparison; a scheduled event in the present
        ("Users can cancel at any time.", "Users may cancel at any time.", False),
        (
            "The tenant is required to pay rent monthly.",
            "The tenant shall pay rent monthly.",
            False,
        ),
        (
            "Expired tokens are rejected by the server.",
            "Expired tokens will be rejected by the server.",
            False,
        ),
        (
            "The Pro tier includes unlimited projects.",
            "The Pro plan includes unlimited projects.",
            False,
        ),
        ("The API returns a JSON payload.", "The API returns the expected JSON payload.", False),
        (
            "Dewey, the favourite, lost the election.",
            "Dewey, widely expected to win, lost the election.",
            False,
        ),
        (
            "The blaze destroyed three homes on Sunday.",
            "The blaze, possibly arson, destroyed three homes on Sunday.",
            False,
        ),
        (
            "The prime minister announced the deal.",
            "The prime minister, Theresa May, announced the deal.",
            False,
        ),
        (
            "Vaccinated people were hospitalized less often than others.",
            "Vaccinated people were less likely to be hospitalized than others.",
            False,
        ),
        (
            "The law takes effect on 1 January 2025.",
            "The law is scheduled to take effect on 1 January 2025.",
            False,
        ),
        (
            "The company forecast revenue of $5 billion.",
            "The company expects revenue of $5 billion.",
            False,
        ),
        # words of another clause: the claim does not open as the passage's clause
        (
            "In 2021, the council passed a ban on bags.",
            "The council has proposed a ban on bags.",
            False,
        ),
        # the claim's own verb with a hedge or a plan put before it; a number as the closing
        # words; "could", "in talks to", "seeking to", "laid off"
        (
            "Vitamin D supplements reduce the risk of cancer death.",
            "Vitamin D supplements might reduce the risk of cancer death, a meta-analysis found.",
            True,
        ),
        (
            "Russia supplied the missiles to the rebels.",
            "Russia allegedly supplied the missiles to the rebels, officials said.",
            True,
        ),
        (
            "The hospital cut its waiting times in half.",
            "The hospital hopes to cut its waiting times in half over two years.",
            True,
        ),
        (
            "Global smartphone shipments rose 4% in 2025.",
            "Global smartphone shipments are expected to rise 4% in 2025, IDC said.",
            True,
        ),
        (
            "The merger raised prices for consumers.",
            "Regulators warned that the merger could raise prices for consumers.",
            True,
        ),
        (
            "Amazon acquired the startup for $1.2 billion.",
            "Amazon is in talks to acquire the startup for $1.2 billion.",
            True,
        ),
        (
            "Meta laid off 5% of its workforce.",
            "Meta said it will lay off 5% of its workforce next month.",
            True,
        ),
        # the claim's clause word for word after a frame of doubt; not after a finding
        (
            "The singer is engaged to the actor.",
            "Fans have speculated that the singer is engaged to the actor after a photo.",
            True,
        ),
        (
            "Microplastics cause heart attacks.",
            "The authors noted the study could not establish that microplastics cause heart "
            "attacks.",
            True,
        ),
        (
            "Microplastics cause heart attacks.",
            "The authors noted the study established that microplastics cause heart attacks.",
            False,
        ),
        (
            "There is debate as to whether a basic income should be introduced.",
            "Arguments about whether a basic income should be introduced are listed below.",
            False,
        ),
        # a claim's middle of *be* or *have* only against a plan or a hedge; not "will be"
        (
            "The bridge was completed in 2020.",
            "The bridge is scheduled to be completed in 2020.",
            True,
        ),
        (
            "The painting is by Rembrandt.",
            "The painting might be by Rembrandt, experts say.",
            True,
        ),
        ("The bridge is closed on Sundays.", "The bridge will be closed on Sundays.", False),
        # "would" of the past (a habit, a later event, a year), "could" of an ability
        (
            "Every summer the family visited the lake.",
            "Every summer the family would visit the lake, staying for two weeks.",
            False,
        ),
        (
            "The band released its debut album in 1994.",
            "The band would release its debut album in 1994, two years after forming.",
            False,
        ),
        (
            "The ship carried 2,000 passengers.",
            "The ship could carry 2,000 passengers and regularly did so.",
            False,
        ),
        (
            "The tariffs cost American households $1,200 a year.",
            "Economists estimated that the tariffs would cost American households $1,200 a year.",
            True,
        ),
        # "will" alone before the claim's verb: a procedure, not a plan; the same words
        (
            "You receive an email with a link.",
            "You will receive an email with a link.",
            False,
        ),
        (
            "Supplements reduce the risk of cancer death.",
            "Supplements reduce the risk of cancer death, a meta-analysis found.",
            False,
        ),
    ],
)
def test_a_plan_in_the_claims_words_is_a_conflict(claim: str, passage: str, conflict: bool) -> None:
    # the judge read "passed a ban" against "has proposed a ban" as support (0.92)
    from attribution.text import plan_conflict

    assert plan_conflict(claim, passage) is conflict


ORION = (
    "Orion is a managed database service. It runs in three regions: Frankfurt, Virginia and "
    "Tokyo. A fourth region, Sydney, is planned but has no date yet."
)


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        # the passage says the fact of other names and gives the claim's as a plan only
        ("Orion runs in Sydney.", ORION, True),
        ("Orion already runs in Sydney.", ORION, True),
        ("Orion runs in Frankfurt, Virginia, Tokyo and Sydney.", ORION, True),
        ("Orion runs in Tokyo and Sydney.", ORION, True),
        (
            "The app supports Android.",
            "The app supports Windows, macOS and Linux. Android support is expected next year.",
            True,
        ),
        (
            "The drug is approved in Japan.",
            "The drug is approved in the US and the EU. Approval in Japan is not yet granted.",
            True,
        ),
        (
            "The drug is approved in the UK.",
            "The drug is approved in Canada and Australia. Approval in the UK is expected next "
            "year.",
            True,
        ),
        (
            "The airline flies to Lisbon.",
            "The airline flies to Madrid and Rome. Flights to Lisbon are scheduled to begin in "
            "June.",
            True,
        ),
        (
            "The company has offices in Singapore.",
            "The company has offices in London and Hong Kong. It plans to open an office in "
            "Singapore.",
            True,
        ),
        (
            "Orion runs in Sydney.",
            "Orion runs in Frankfurt and Tokyo. It plans to open a region in Sydney.",
            True,
        ),
        (
            "The fund invests in Vietnam.",
            "The fund invests in Thailand and Indonesia. It may add Vietnam later.",
            True,
        ),
        (
            "The airline flies to Nairobi.",
            "The airline flies to Accra and Lagos. Nairobi is expected to be added in October.",
            True,
        ),
        (
            "The editor supports Korean.",
            "The editor supports English and French. Japanese was added in 2.0, and Korean will "
            "be added soon.",
            True,
        ),
        (
            "The chain has a store in Leeds.",
            "The chain has stores in York and Hull. A Leeds store is slated to open next spring.",
            True,
        ),
        (
            "The hotel group has properties in Bali.",
            "The hotel group has properties in Phuket. A property in Bali is under construction.",
            True,
        ),
        # the claim's own plan; the claim's fact of a name the passage states as a fact
        ("Orion will run in Sydney.", ORION, False),
        ("Orion plans to run in Sydney.", ORION, False),
        ("Orion runs in Tokyo.", ORION, False),
        ("Orion runs in Frankfurt and Tokyo.", ORION, False),
        (
            "Orion runs in Sydney.",
            ORION + " Since March it also runs in Sydney for early customers.",
            False,
        ),
        # the plan is of another thing in the sentence, or of another act; or it happened
        (
            "Orion runs in Sydney.",
            "Orion runs in Frankfurt and Tokyo. It also runs in Sydney, which will host the 2026 "
            "user conference.",
            False,
        ),
        (
            "The drug is approved in Japan.",
            "The drug is approved in the US and Canada. In Japan, where it was approved in 2021, "
            "it may soon be sold over the counter.",
            False,
        ),
        (
            "The chain has stores in Denver.",
            "The chain has stores in Austin and Dallas. The Denver store was planned for 2020 but "
            "opened in May 2021.",
            False,
        ),
        (
            "The team's roster includes Luka Petrov.",
            "The team's roster includes Sam Cole and Ian Wu. Luka Petrov, signed in March, is "
            "likely to start on Sunday.",
            False,
        ),
        (
            "This year's festival features Arcade Fire.",
            "This year's festival features Beck and Haim. Arcade Fire will headline on Saturday.",
            False,
        ),
        (
            "Lyra runs in Sydney.",
            "Orion runs in Frankfurt and Tokyo. Lyra, its sister service, runs in Sydney and may "
            "expand to Perth.",
            False,
        ),
        (
            "Orion runs in Sydney.",
            ORION.replace("A fourth region, Sydney, is planned but has no date yet.", "")
            + "Sydney is live and more regions will be added next year.",
            False,
        ),
        (
            "Orion runs in Sydney.",
            ORION.replace("A fourth region, Sydney, is planned but has no date yet.", "")
            + "Its Sydney region is also live and a second Sydney zone is planned for 2026.",
            False,
        ),
        (
            "Orion runs in Sydney.",
            ORION.replace("A fourth region, Sydney, is planned but has no date yet.", "")
            + "The Sydney region is scheduled for maintenance on Sunday.",
            False,
        ),
        (
            "The carrier flies to Lisbon.",
            "The carrier flies to Madrid and Rome. The Lisbon flight is scheduled daily at 07:10.",
            False,
        ),
        (
            "The film stars Octavia Spencer.",
            "The film stars Emma Stone and Ryan Gosling. Octavia Spencer will also star as the "
            "couple's landlady.",
            False,
        ),
        (
            "The final is played at Wembley.",
            "Semi-finals are played at Villa Park and Old Trafford. The final will be played at "
            "Wembley on 17 May.",
            False,
        ),
        (
            "The remake stars Will Smith.",
            "The remake stars Mena Massoud and Naomi Scott. Will Smith also stars, as the Genie.",
            False,
        ),
        # a thing of the name's the page has already; a schedule; an aside of another fact
        (
            "The tour stops in Chicago.",
            "The tour stops in Denver and Austin. The Chicago show is scheduled for 9 June.",
            False,
        ),
        (
            "The tour includes a show in Oslo.",
            "The tour includes shows in Bergen and Stockholm. A show in Oslo is scheduled for 12 "
            "October.",
            False,
        ),
        (
            "The agency has service centres in Leeds.",
            "The agency has service centres in York and Hull. The Leeds centre will be open on "
            "Saturday from 9am to noon.",
            False,
        ),
        (
            "The company has an office in Berlin.",
            "The company has an office in London and another in Paris. It may expand its Berlin "
            "office next year.",
            False,
        ),
        (
            "The drug is approved in Japan.",
            "The drug is approved in the US and the EU. In Japan, where it was approved in 2022, "
            "regulators are expected to approve a pediatric version soon.",
            False,
        ),
        (
            "The tour's support acts include Phoebe Bridgers.",
            "The tour's support acts include Paramore and Haim. Phoebe Bridgers will open for "
            "Swift on the European dates.",
            False,
        ),
        (
            "The company exports to Kenya.",
            "The company exports to Uganda and Tanzania. Kenya is awaiting its second shipment.",
            False,
        ),
        # the name is not where the claim's words end, nor a list of names of its own
        (
            "Emma Watson has been cast as Belle, Dan Stevens as the Beast.",
            "Harry Potter star Emma Watson had been cast as Belle. Dan Stevens will play the "
            "Beast.",
            False,
        ),
        (
            "The film features Emma Watson, Downton Abbey's Dan Stevens and Luke Evans.",
            "The film features Emma Watson. Downton Abbey's Dan Stevens will play the Beast.",
            False,
        ),
    ],
)
def test_a_name_the_passage_gives_as_a_plan_only_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    # the judge read "Orion runs in Sydney" as supported (0.77) by a passage that lists the
    # regions Orion runs in and says Sydney is planned
    from attribution.text import planned_name_conflict

    assert planned_name_conflict(claim, passage) is conflict


def test_a_minus_in_words_makes_a_temperature_negative() -> None:
    from attribution.text import quantities

    (cold,) = quantities("It was minus 5 degrees Celsius.")
    assert (cold.dimension, cold.value) == ("temperature", "268.15")
    # a subtraction is no sign
    assert quantities("It is 5 minus 3 °C.")[-1].value == "276.15"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("In Q4 FY2025, revenue rose.", [("Q4 FY2025", "quarter", 4, 2025, "Q4")]),
        (
            "In the fourth quarter of fiscal 2025 it rose.",
            [("fourth quarter of fiscal 2025", "quarter", 4, 2025, "fourth quarter")],
        ),
        (
            "Third-quarter 2024 revenue",
            [("Third-quarter 2024", "quarter", 3, 2024, "Third-quarter")],
        ),
        ("the 2024 third quarter", [("2024 third quarter", "quarter", 3, 2024, "third quarter")]),
        (
            "3Q24 and Q3'24 and Q3 of 2024",
            [
                ("3Q24", "quarter", 3, 2024, "3Q"),
                ("Q3'24", "quarter", 3, 2024, "Q3"),
                ("Q3 of 2024", "quarter", 3, 2024, "Q3"),
            ],
        ),
        ("H1 2024 sales", [("H1 2024", "half", 1, 2024, "H1")]),
        ("in the second half, Spain scored", [("second half", "half", 2, None, "second half")]),
        (
            "FY24 and fiscal year 2024",
            [
                ("FY24", "year", 0, 2024, "FY24"),
                ("fiscal year 2024", "year", 0, 2024, "fiscal year 2024"),
            ],
        ),
        # no period: a share, a round of a contest, a code in lower case, a heading tag
        (
            "a quarter of the votes; the first quarter-final; q3; <h1>; first quarter of a mile",
            [],
        ),
    ],
)
def test_reporting_periods_are_read_in_their_forms(
    text: str, read: list[tuple[str, str, int, int | None, str]]
) -> None:
    from attribution.text import periods

    assert [
        (text[p.start : p.end], p.kind, p.number, p.year, text[p.bare_start : p.bare_end])
        for p in periods(text)
    ] == read


@pytest.mark.parametrize(
    ("claim", "passage", "as_written"),
    [
        (
            "In Q4 FY2025, revenue was $5.2 billion.",
            "In the fourth quarter of fiscal 2025, revenue was $5.2 billion.",
            "In fourth quarter of fiscal 2025, revenue was $5.2 billion.",
        ),
        (
            "Q3 2024 revenue was $5.2 billion.",
            "In the third quarter of 2024, revenue was $5.2 billion.",
            "Third quarter of 2024 revenue was $5.2 billion.",
        ),
        (
            "Q4 revenue was $5.2 billion.",
            "Fourth-quarter 2025 revenue was $5.2 billion.",
            "Fourth-quarter revenue was $5.2 billion.",
        ),
        (
            "Revenue in FY24 was $20 billion.",
            "Revenue for fiscal year 2024 was $20 billion.",
            "Revenue in fiscal year 2024 was $20 billion.",
        ),
        (
            "In Q2 2024, revenue was $5.2 billion.",
            "Third-quarter 2024 revenue was $5.2 billion.",
            None,
        ),
        ("H2 2024 sales rose 8%.", "Sales in the first half of 2024 rose 8%.", None),
        ("Revenue in FY23 was $20 billion.", "Revenue for fiscal year 2024 was $20 billion.", None),
        (
            "Second-quarter revenue was $30.0 billion, up 15% from the first quarter of 2024.",
            "Second-quarter 2024 revenue was $30.0 billion, up 15% sequentially.",
            None,
        ),
        ("Q1 2024 revenue rose.", "The first and second quarter of 2024 rose.", None),
        ("Q3 2024 revenue rose.", "From Q2 to Q4 2024, and in Q1 2024, it rose.", None),
        ("Q4 2023 revenue rose.", "October-December 2023 sales rose after Q3 2023.", None),
        ("Q2 2024 revenue rose.", "In the quarter ended June 30, 2024, after Q1 2024.", None),
        ("Apple's Q1 2025 sales rose.", "Its fiscal 2025 second quarter sales rose.", None),
        ("Cetirizine blocks H1 receptors.", "H2 blockers reduce stomach acid.", None),
        ("The novel's second half is set in Paris.", "The first half is set in London.", None),
        (
            "Infosys revenue in FY24 rose.",
            "Infosys revenue in FY2023-24 rose.",
            "Infosys revenue in FY2023-24 rose.",
        ),
        (
            "Q4 revenue was $5.2 billion.",
            "Fourth-quarter revenue was $5.2 billion, against $4.9 billion in the third quarter.",
            "Fourth-quarter revenue was $5.2 billion.",
        ),
        ("Q3 2024 revenue rose.", "Q2 2023 revenue rose.", None),
        ("Q3 revenue rose.", "Revenue rose in fiscal 2024.", None),
    ],
)
def test_a_reporting_period_in_another_form_is_the_same_period(
    claim: str, passage: str, as_written: str | None
) -> None:
    # the claim is read in the passage's form; another period, a list, a range, months or a
    # period's end, another calendar, a half without a year (a receptor, a novel): as written
    from attribution.text import as_written_in

    assert as_written_in(claim, passage) == (as_written or claim)


@pytest.mark.parametrize(
    ("claim", "passage", "as_written"),
    [
        (
            "The company was founded in Seattle in the 1990s.",
            "The company was founded in 1994 in Seattle by two former Boeing engineers.",
            "The company was founded in Seattle in 1994.",
        ),
        (
            "The firm was founded in the mid-1990s.",
            "The firm was founded in 1995, in Paris.",
            "The firm was founded in 1995.",
        ),
        # a year out of the decade, or out of its part; two years; another fact of the page
        (
            "The mountain was first climbed in the 1960s.",
            "The mountain was first climbed in 1953.",
            None,
        ),
        ("The firm was founded in the early 1990s.", "The firm was founded in 1998.", None),
        (
            "The firm was founded in the 1990s.",
            "The firm was founded in 2001, after a rival closed in 1994.",
            None,
        ),
        ("The firm was founded in the 1990s.", "Its first office opened in 1994.", None),
    ],
)
def test_a_decade_is_read_as_the_year_the_passage_gives(
    claim: str, passage: str, as_written: str | None
) -> None:
    # "founded in Seattle in the 1990s" against "founded in 1994" was contradicted (0.43)
    from attribution.text import as_written_in

    assert as_written_in(claim, passage) == (as_written or claim)


def test_amounts_of_money_give_their_value_and_currency() -> None:
    from attribution.text import money_amounts

    text = "€5 billion, US$1.2m, EUR 7, 40 yen, 3 dollars, £2bn, 5 pounds"
    assert money_amounts(text) == (
        ("5000000000", "euro"),
        ("1200000", "dollar"),
        ("7", "euro"),
        ("40", "yen"),
        ("3", "dollar"),
        ("2000000000", "pound"),
    )


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("4,700 miles", "7,600 km", True),  # rounded conversions of one distance
        ("1,083 feet", "330 metres", True),
        ("354 miles", "570 km", True),
        ("150 lb", "68 kg", True),
        ("4,700 miles", "7,700 km", False),  # another distance
        ("354 miles", "590 km", False),
        ("1 mile", "1 km", False),  # rounding alone would let these pass: 2% at most
        ("130 metres", "400 feet", False),
        ("100 m", "400 feet", False),
        ("2 kg", "3.5 lb", False),
        ("5 miles", "9 km", False),
        ("5 miles", "8 km", True),
        ("1.82 km", "1,820 m", True),  # one system: the same value only
        ("1.82 km", "1,830 m", False),
        ("5 km", "5 kg", False),  # another dimension
        ("212 °F", "100 °C", True),  # temperatures: within a degree's rounding
        ("72 °F", "22 °C", True),
        # an oven's degrees Celsius in whole tens are rounded to tens; no other's
        ("Bake at 350 °F", "Bake at 180 °C", True),
        ("Roast at 400 °F", "Roast at 200 °C", True),
        ("Bake at 400 °F", "Bake at 180 °C", False),
        ("Roast at 365 °F", "Roast at 180 °C", False),
        ("Roast at 365 °F", "Roast at 190 °C", False),
        ("350 °F", "180 °C", False),
        ("It melts at 490 °F", "It melts at 250 °C", False),
        ("180 °F", "82 °C", True),
        ("170 °F", "80 °C", False),  # not below it
        ("215 °F", "100 °C", False),
        ("1,860 °F", "1,000 °C", False),
        ("200 °F", "100 °C", False),
        ("70 °F", "20 °C", False),
        ("-40 °F", "-40 °C", True),
        ("2.5 hours", "150 minutes", True),  # one system: the same value only
        ("2.5 hours", "2 hours", False),
    ],
)
def test_a_measure_in_the_other_system_is_the_same_within_its_rounding(
    one: str, other: str, same: bool
) -> None:
    from attribution.text import quantity_values, same_quantity

    (a,) = quantity_values(one)
    (b,) = quantity_values(other)
    assert same_quantity(a, b) == same_quantity(b, a) == same


def test_sentence_spans_are_cached_by_text_and_limit() -> None:
    from attribution.match import clear_sentence_cache

    clear_sentence_cache()
    sentence = "A sentence long enough to matter here, with a good many words in it. "
    one = CitationSource(id="a", type="web", full_content=sentence * 12 + "word " * 60)
    other = CitationSource(id="b", type="web", full_content=sentence.replace("A ", "B ") * 12)
    tight = MatchConfig(passage_sentences=3, passage_overlap=0, passage_max_chars=100)
    first = make_passages([one, other], tight)
    assert make_passages([one, other], tight) == first  # from the cache: the same passages
    assert all(len(p.text) <= 100 for p in first)  # one sentence each, the run-on cut
    assert [p.text[:2] for p in first if p.source_id == "b"] == ["B "] * 12
    loose = make_passages([one], MatchConfig(passage_sentences=3, passage_overlap=0))
    assert [p.text.count("A sentence") for p in loose] == [3, 3, 3, 3]  # another limit
    clear_sentence_cache()
    assert make_passages([one, other], tight) == first


@pytest.mark.parametrize(
    ("claim", "passage", "as_written"),
    [
        (
            "Telemetry is disabled by default.",
            "Telemetry is not enabled by default; turn it on in the settings.",
            "Telemetry is not enabled by default.",
        ),
        (
            "Telemetry is not enabled by default.",
            "Telemetry is disabled by default.",
            "Telemetry is disabled by default.",
        ),
        (
            "The bridge was never closed to traffic.",
            "The bridge remained open to traffic throughout the storm.",
            "The bridge was open to traffic.",
        ),
        (
            "The API isn't available in Europe.",
            "It is unavailable in Europe.",
            "The API is unavailable in Europe.",
        ),
        (
            "The store is still closed.",
            "The store is still not open.",
            "The store is still not open.",
        ),
        ("The field is optional.", "The field is not required.", "The field is not required."),
        (
            "The trial found no significant difference.",
            "The trial did not find a significant difference between the groups.",
            "The trial did not find a significant difference.",
        ),
        (
            "The drug has no effect on sleep.",
            "It does not have any effect on sleep.",
            "The drug does not have any effect on sleep.",
        ),
        (
            "The study did not find any link.",
            "The study found no link.",
            "The study found no link.",
        ),
        ("It has no effect.", "It doesn't have an effect.", "It does not have an effect."),
        # the passage's article, but "any" before a plural (a small judge reads "did not find
        # any difference" against "did not find a difference" as a contradiction, 0.99)
        (
            "The town has no parks.",
            "The town does not have a park.",
            "The town does not have any parks.",
        ),
        (
            "They found no significant differences.",
            "They did not find a significant difference.",
            "They did not find any significant differences.",
        ),
        # the same state: as written; the other state stated: as written (the judge's to see)
        ("The museum is closed on Mondays.", "The museum is closed on Mondays.", None),
        ("The museum is closed on Mondays.", "The museum is open on Mondays.", None),
        # the passage writes both forms: the claim's own stays
        ("The API is unavailable.", "The API is unavailable; it is not available today.", None),
        # a state the negation grades or stands before: as written
        ("The feature is not fully supported.", "The feature is unsupported.", None),
        ("Support has not been available since May.", "Support is unavailable.", None),
        ("The feature is not only open but free.", "The feature is closed.", None),
        # no state: an adjective before a noun, a verb, a word joined by a hyphen
        ("Apple's closed ecosystem is popular.", "It is not open.", None),
        ("The firm closed its office.", "The office is not open.", None),
        ("The code is open-source.", "The code is not closed.", None),
        # the month, not the modal ("May" makes a sentence no statement of a state)
        (
            "The museum is closed on Mondays since 2021.",
            "Since May 2021, the museum is not open on Mondays.",
            "The museum is not open on Mondays since 2021.",
        ),
        ("The museum is closed on Mondays.", "The museum may not be open on Mondays.", None),
        # another verb: as written
        ("The study found no link.", "The study did not report any link.", None),
        ("The company paid a dividend in 2023.", "It did not pay a dividend in 2023.", None),
        # from a review: "never" beside a state that did not last, the passage's own word
        ("The bridge was never closed.", "It was open until 2019, when it was closed.", None),
        ("The store is never closed.", "The store is open on Sundays.", None),
        ("The castle was never open to visitors.", "It was closed to visitors in 2020.", None),
        # two opposites both of which may fail: "not unsafe" is not "safe", "not safe" is not
        # "unsafe"; the other way holds ("unsafe" says "not safe")
        ("The vaccine is safe.", "The vaccine is not unsafe, though data are few.", None),
        ("Rain is likely on Friday.", "Rain is not unlikely on Friday.", None),
        ("The data is private.", "The data is not public yet.", None),
        ("The bridge is unsafe.", "The bridge is not safe for trucks.", None),
        ("The bridge is not safe.", "The bridge is unsafe.", "The bridge is unsafe."),
        ("The tank is full.", "The tank is not empty.", None),
        ("Access is unlimited.", "Access is not limited to staff.", None),
        # an adverb after "isn't", "no longer", two negations, another sense, another tense
        ("It isn't generally available.", "It is unavailable to free users.", None),
        ("It is no longer available.", "It is unavailable until May.", None),
        ("None of the stores are closed.", "The stores are not open on Sundays.", None),
        ("The factory was closed down.", "The factory is not open.", None),
        ("The account was closed by the bank.", "The account is not open.", None),
        ("The rate was changed to 5%.", "The rate is not unchanged.", None),
        ("He is known as Bob.", "He is not unknown.", None),
        ("The bridge is not safe enough.", "The bridge is unsafe.", None),
        ("The tank remained closed.", "The tank is not open.", None),
        ("Researchers have found no harm.", "Researchers did not find any harm.", None),
        ("It will have no effect.", "It did not have any effect.", None),
        ("They found no fewer than 20 cases.", "They did not find any cases.", None),
        ("The town has no parks.", "The town does not have a lot of parks.", None),
        # as the claim writes it: capitals, "isn't", curly quotes
        ("Telemetry IS DISABLED.", "Telemetry is not enabled.", "Telemetry IS NOT ENABLED."),
        ("It isn’t available.", "It is unavailable.", "It is unavailable."),
        (
            "The museum is open to the public.",
            "The museum is not closed to the public.",
            "The museum is not closed to the public.",
        ),
    ],
)
def test_a_state_as_the_negation_of_its_opposite_is_the_same_state(
    claim: str, passage: str, as_written: str | None
) -> None:
    # the judge read "is disabled" against "is not enabled" as a contradiction (0.02)
    from attribution.text import as_written_in

    assert as_written_in(claim, passage) == (as_written or claim)


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        # a round hundred is its hundred years; a year of another frame (year, name, rate)
        ("The city grew rapidly in the 1800s.", "The city grew rapidly in 1870."),
        ("Immigration peaked in the early 1900s.", "Immigration peaked in 1907."),
        ("Tesla delivered 1.8 million cars in 2023.", "Tesla delivered 1.3 million cars in 2022."),
        ("Sales hit 40 thousand units in March.", "Sales hit 35 thousand units in February."),
        ("The clip got 2 million views on YouTube.", "The clip got 3 million views on TikTok."),
        (
            "The museum receives 1.5 million visitors a year.",
            "The museum receives 4 thousand visitors a day.",
        ),
        (
            "Half of the students passed the exam in 2020.",
            "30% of the students passed the exam in 2019.",
        ),
        (
            "Analysts expect revenue of $4.9 billion to $5.1 billion in 2025.",
            "Analysts expect revenue of $4.5 billion to $4.7 billion in 2024.",
        ),
        (
            "Adults should get 150 to 300 minutes of moderate exercise a week.",
            "Adults should get 75 to 150 minutes of vigorous exercise a week.",
        ),
        # a dotless capital i before the words; another time zone's day
        ("The İzmir ferry takes 30 minutes.", "The İzmir ferry takes half an hour."),
        (
            "The update was released on 2024-03-05T01:00:00+09:00.",
            "The update was released on 4 March 2024 (UTC).",
        ),
    ],
)
def test_a_value_of_another_frame_or_written_otherwise_is_no_conflict(
    claim: str, passage: str
) -> None:
    # a review's false conflicts (each made a supported claim contradicted)
    from attribution.text import date_conflict, range_conflict, value_conflict

    assert not value_conflict(claim, passage)
    assert not date_conflict(claim, passage)
    assert not range_conflict(claim, passage)


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        # the passage's value is of another thing, or its own bound, or another currency
        ("At least 20 people were killed.", "At least 20 people were killed; 35 people were hurt."),
        (
            "More than 100 people died in the floods.",
            "In the floods, 150 people were injured and 80 people died.",
        ),
        (
            "Around 1,000 homes lost power.",
            "Around 1,000 homes lost power in Leeds and 980 homes lost power in York.",
        ),
        (
            "The vaccine is approved for children under 12 years.",
            "The vaccine is approved for children 6 years and older.",
        ),
        ("Drivers under 25 pay more.", "Drivers aged 18 pay more."),
        ("The salary is more than £40k.", "The salary is $42,300."),
        ("About 100 people were evacuated.", "145 people were evacuated."),
        ("Nearly 100 people died.", "52 people died."),
        ("The hike takes about 10 minutes.", "The hike takes 14 minutes."),
        # a part of a number in words, a sign before words, a version, a name, a time in parts
        ("Half a million people attended the rally.", "1 million people attended the rally."),
        (
            "The film grossed $450 million.",
            "The film grossed four hundred and fifty million dollars.",
        ),
        ("Upgrade to 2024.3.1 for the fix.", "The fix shipped on 1 March 2024."),
        ("Maroon 5 won three Grammy awards.", "Maroon Five won 3 Grammy awards."),
        ("The siege lasted 21 days.", "The siege lasted three weeks and four days."),
        ("The team hired five HR managers.", "The team hired five managers in 5 hours."),
    ],
)
def test_a_claim_is_not_rewritten_where_its_meaning_would_change(claim: str, passage: str) -> None:
    # a review's rewrites (several then read as word for word in the passage, supported 1.0)
    from attribution.text import as_written_in

    assert as_written_in(claim, passage) == claim


def test_a_huge_bound_reads_without_a_crash() -> None:
    from attribution.text import as_written_in

    claim = "Over 1" + "0" * 310 + " stars exist."
    assert as_written_in(claim, "There are 5 stars.") == claim


def test_dates_periods_and_ranges_of_a_long_text_take_linear_time() -> None:
    # a review's slow paths: 240,000 characters of years took 214 s, of ranges 40 s (each
    # look at the words before a value read the text from its start); a table is the judge's
    from attribution.text import date_conflict, range_conflict

    years = ", ".join(str(1900 + i % 120) for i in range(40_000))
    ranges = " and ".join(f"{i}-{i + 3} km" for i in range(10_000))
    assert not date_conflict("It became popular in the 1970s.", f"It became popular in {years}.")
    assert not range_conflict("The trail is 12-14 km long.", f"The trail is {ranges} long.")


@pytest.mark.parametrize("date", ["0001-01-01T00:00", "9999-12-31T23:00", "2024-02-31T10:00"])
def test_a_date_at_the_calendars_edge_reads_without_a_crash(date: str) -> None:
    # the day before 0001-01-01 (another time zone's) raised OverflowError: a 500
    from attribution.text import as_written_in, date_conflict

    claim = f"It was released on {date}."
    assert date_conflict(claim, "It was released on 5 May 2020.")  # another day all the same
    assert as_written_in(claim, "It was released on 5 May 2020.") == claim


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        # a plain number of a kind: money without a scale, a unit the engine does not know, a
        # count before the same words
        (
            "The standard walk-up fare is £22.",
            "Advance single tickets start from £10; the standard walk-up fare is £25.",
            True,
        ),
        (
            "The standard walk-up fare is £25.",
            "Advance single tickets start from £10; the standard walk-up fare is £25.",
            False,
        ),
        (
            "The tolerable upper intake level for adults is 10,000 IU per day.",
            "The tolerable upper intake level for adults is 4,000 IU (100 mcg) per day.",
            True,
        ),
        (
            "He made 36 of 68 field goals.",
            "He made 36 of 63 field goals and 28 of 32 free throws.",
            True,
        ),
        (
            "Wireless charging reaches 15W on the Pixel Stand.",
            "Wired charging tops out at 27W, while wireless charging reaches 18W on the Pixel "
            "Stand (2nd gen) and 12W on Qi-certified chargers.",
            True,
        ),
        (
            "Wireless charging reaches 12W on Qi-certified chargers.",
            "Wired charging tops out at 27W, while wireless charging reaches 18W on the Pixel "
            "Stand (2nd gen) and 12W on Qi-certified chargers.",
            False,
        ),
        # the same bound or round figure of another value
        (
            "Reservations are recommended for groups of more than 8.",
            "Reservations recommended for groups of more than 6.",
            True,
        ),
        (
            "Each minor release is supported for approximately 12 months.",
            "Each minor release is supported for approximately 14 months.",
            True,
        ),
        ("The hall seats about 500 people.", "The hall seats about 480 people.", False),
        ("The walk takes about 40 minutes.", "The walk takes about 45 minutes.", False),
        ("Nearly 50% of voters backed it.", "Almost 49% of voters backed it.", False),
        # a bound the passage's bound says; two maxima are two values
        ("It is sold in more than 40 countries.", "It is sold in more than 60 countries.", False),
        ("The laptop weighs less than 1.5 kg.", "The laptop weighs less than 1.3 kg.", False),
        ("The venue seats up to 230 guests.", "The venue seats up to 210 guests.", True),
        ("The venue seats up to 230 guests.", "The venue seats fewer than 210 guests.", False),
        # the claim's number anywhere in the passage, of any kind
        (
            "The hospital has 30 beds in intensive care.",
            "The hospital has 450 beds, 30 of them in intensive care.",
            False,
        ),
        (
            "The charger delivers 65W.",
            "The charger delivers 65 watts, while the travel charger delivers 45W.",
            False,
        ),
        # a time in parts is one time
        (
            "The match lasted 3 hours and 7 minutes.",
            "The match lasted 3 hours and 17 minutes.",
            True,
        ),
        (
            "The match lasted 3 hours and 17 minutes.",
            "The match lasted 3 hours and 17 minutes.",
            False,
        ),
        # the words that follow a value of its kind
        (
            "The recipe calls for 150 g of melted butter.",
            "Ingredients: 3 ripe bananas, 75 g melted butter, 150 g sugar, 1 egg.",
            True,
        ),
        (
            "The recipe calls for 150 g of sugar.",
            "Ingredients: 3 ripe bananas, 75 g melted butter, 150 g sugar, 1 egg.",
            False,
        ),
        (
            "Battery life is about 520 shots using the viewfinder.",
            "Battery: 33 MP, 10 fps, about 580 shots using the viewfinder, 610 with the LCD.",
            True,
        ),
        # not outside a list, nor where the claim's value stands before its word too
        (
            "The MacBook Air offers 18 hours of battery life.",
            "The MacBook Air lasts 18 hours on a charge, while the MacBook Air with the M3 chip "
            "offers 15 hours of battery life when browsing.",
            False,
        ),
        (
            "Add 200 g of flour to the batter.",
            "For the batter, add 200 g plain flour, 2 eggs and 300 ml milk. For the topping, "
            "add 50 g flour, 40 g sugar and 30 g butter.",
            False,
        ),
        (
            "The Pixel 8 has 8 GB of RAM.",
            "The Pixel 8 Pro has 12 GB of RAM, while the Pixel 8 has 8GB.",
            False,
        ),
        # a list holding the claim's value of another fact; a bound of the passage's is none
        (
            "The city received 60 mm of rain in 24 hours.",
            "The city received 120 millimetres of rain in 24 hours, compared with a monthly "
            "average of 60 mm.",
            True,
        ),
        (
            "A can has 139 mg of caffeine.",
            "A can contains 139 kcal and 35 g of sugar. It contains 32 mg of caffeine. Adults "
            "should have no more than 30 g of free sugars a day.",
            True,
        ),
        # a price against one a month; temperatures by degrees, not from absolute zero
        ("The phone costs $799.", "The phone costs $33.29 a month for 24 months.", False),
        ("The high will be 20°C.", "The high will be 27°C.", True),
        ("The high will be 20°C.", "The high will be 20.4°C.", False),
        ("The low will be about 0°C.", "The low will be -8°C.", True),
        ("The high will be about 20°C.", "The high will be 22°C.", False),
        # a change measured from a year is of the year it is in
        (
            "Net sales rose 4% in 2023.",
            "Net sales were $96.8 billion in 2023, down 4% from 2022.",
            True,
        ),
        # a time's part is no count of the claim's kind
        (
            "Advance single tickets start from £5.",
            "Trains run from 05:10 to 23:25. Advance single tickets start from £10; the "
            "walk-up fare is £25.",
            True,
        ),
        # the words before, stemmed or in another order around the same last word
        (
            "Pilgrims walk an average of 25 km per day.",
            "Most pilgrims complete it in 30 to 35 days, walking an average of 20 km per day.",
            True,
        ),
        (
            "In the first round, Macron received 28.85%.",
            "In the first round on 10 April, Macron received 27.85%.",
            True,
        ),
        # a change the other way
        (
            "Net income grew 1% to $72.4 billion.",
            "Net income was $72.4 billion, a decrease of 1%.",
            True,
        ),
        (
            "Net income fell 1% to $72.4 billion.",
            "Net income was $72.4 billion, a decrease of 1%.",
            False,
        ),
        (
            "Revenue rose to 7% of sales.",  # a level, not a change
            "Revenue was down 7% of sales.",
            False,
        ),
        # the change of another subject, another year; a noun of a change before "by"
        (
            "The euro fell 2% against the dollar.",
            "The dollar rose 2% against the euro on Friday.",
            False,
        ),
        (
            "The opposition gained 12 seats.",
            "The ruling party lost 12 seats, which the opposition picked up.",
            False,
        ),
        (
            "Prices grew 4% in 2023.",
            "Prices grew 6% in 2022 and a further 4% in 2023, before a decline of 4% in 2024.",
            False,
        ),
        (
            "Weight loss increased by 15% with the drug.",
            "The drug boosted weight loss by 15% compared with placebo.",
            False,
        ),
        # not: a year, an ordinal, another year's frame, several of the kind in the clause
        ("The bridge opened in 1932.", "The bridge opened in 1931.", False),
        ("She finished 2nd in the final.", "She finished 3rd in the final.", False),
        (
            "The store sold 500 bikes in 2023.",
            "The store sold 450 bikes in 2022.",
            False,
        ),
        (
            "The kit costs £40.",
            "The kit costs £25 for the frame and £15 for the wheels.",
            False,
        ),
    ],
)
def test_another_plain_value_after_the_claims_words_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    # a review of 60 answers: each of these was called supported (0.54-0.97)
    from attribution.text import value_conflict

    assert value_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        (
            "India overtook China as the most populous country in April 2022.",
            "The UN says India overtook China as the most populous country in April 2023.",
            True,
        ),
        (
            "India overtook China as the most populous country in April 2023.",
            "The UN says India overtook China as the most populous country in April 2023.",
            False,
        ),
        (
            "India overtook China as the most populous country in April 2022.",
            "India overtook China as the most populous country in April 2023, after data "
            "released on 3 April 2022.",
            False,  # the passage names April 2022 too
        ),
        (
            "The population reached 8 billion in November 2021.",
            "The population reached 8 billion in 15 November 2022.",
            True,  # a day of another month and year
        ),
        (
            "Python 3.11 had been released on 24 October 2021.",
            "The previous version, Python 3.11, was released on 2022-10-24.",
            True,
        ),
        (
            "It carried its 500 millionth passenger in May 2023.",
            "The line carried its 500 millionth passenger in November 2023.",
            True,
        ),
        ("The Berlin Wall fell in October 1989.", "The Berlin Wall fell on 9 November 1989.", True),
        # a date either way round: another day where neither reading is the other's
        ("The store opened on 5/3/2024.", "The store first opened on 3 June 2024.", True),
        ("The store opened on 5/3/2024.", "The store first opened on 3 May 2024.", False),
        ("The store opened on 4 March 2024.", "The store opened on 03/04/2024.", False),
        # a time of day, in any form
        (
            "The pharmacy closes at 18:00 on weekdays.",
            "The pharmacy closes at 19:00 on weekdays.",
            True,
        ),
        ("The first train leaves at 6:45.", "The first train leaves at 6:15.", True),
        ("The pharmacy closes at 6 pm.", "The pharmacy closes at 7 p.m.", True),
        ("The pharmacy closes at 6 pm.", "The pharmacy closes at 18:00.", False),
        ("On Saturdays the store opens at 10am.", "Hours: Mon-Fri 9am-5pm, Sat 10am-4pm.", False),
        # not where the passage's sentence names the claim's month, with its year or not
        ("The tour began in June 2023.", "The tour began in June and ended in August 2023.", False),
        (
            "The festival was held in June 2023.",
            "The festival, first held in July 2019, was held in the first week of June 2023.",
            False,
        ),
        (
            "The vaccine was approved in May 2021.",
            "It was approved in the US in December 2020 and in the EU at the end of May 2021.",
            False,
        ),
    ],
)
def test_a_month_or_day_of_another_year_is_a_conflict(
    claim: str, passage: str, conflict: bool
) -> None:
    from attribution.text import date_conflict

    assert date_conflict(claim, passage) is conflict


@pytest.mark.parametrize(
    ("claim", "passage", "read"),
    [
        (
            "Greater Manchester had nearly 2.9 million people in 2021.",
            "According to the 2021 census, the population of Greater Manchester was 2,867,800, "
            "an increase of 5.6% on 2011.",
            "Greater Manchester had 2,867,800 people in 2021.",
        ),
        (
            "Sweden has about 10.6 million people.",
            "Population of the Nordic countries (2023): Sweden 10,551,707; Denmark 5,932,654.",
            "Sweden has 10,551,707 people.",
        ),
        (
            "The line is roughly 500 km long.",
            "The route is about 495 km long, of which 50.5 km run through the tunnel.",
            "The line is roughly 495 km long.",
        ),
        (
            "The project cost about $1.5 billion.",
            "The project cost around $1.45 billion.",
            "The project cost about $1.45 billion.",
        ),
        (
            "In the last quarter the company delivered roughly 485,000 cars.",
            "In the fourth quarter alone, the company delivered 484,507 cars and produced 494,989.",
            "In the last quarter the company delivered 484,507 cars.",
        ),
        # not past the figure's own rounding, nor where two values fit, nor another frame
        (
            "Heart disease causes approximately 17.9 million deaths a year.",
            "Heart disease caused 17.5 million deaths.",
            "Heart disease causes approximately 17.9 million deaths a year.",
        ),
        (
            "About 1,000 homes lost power.",
            "Storms cut power to 1,020 homes in Leeds and 990 in York.",
            "About 1,000 homes lost power.",
        ),
        (
            "The city had nearly 2.9 million people in 2021.",
            "The city's population was 2,867,800 in 2011.",
            "The city had nearly 2.9 million people in 2021.",
        ),
        # nor the value of another fact: another thing counted, the claim's words before or
        # after another value
        (
            "The city has about 120,000 residents.",
            "The city has 118,400 registered voters and a population of about 150,000.",
            "The city has about 120,000 residents.",
        ),
        (
            "The company employs about 5,000 people.",
            "The company employs 12,000 people worldwide; its UK arm employs 4,970 people.",
            "The company employs about 5,000 people.",
        ),
        (
            "Nearly 200 people were hurt.",
            "The storm killed 196 people, and 310 people were hurt.",
            "Nearly 200 people were hurt.",
        ),
        (
            "The film grossed about $300 million worldwide.",
            "The film grossed $296 million in North America and $410 million worldwide.",
            "The film grossed about $300 million worldwide.",
        ),
        (
            "Nearly 500 flights were cancelled on Monday.",
            "Airlines cancelled 480 flights on Sunday and 1,100 on Monday.",
            "Nearly 500 flights were cancelled on Monday.",
        ),
        (
            "The town has about 20,000 residents.",
            "The town had 19,700 residents in 1990; today it has 31,000.",
            "The town has about 20,000 residents.",
        ),
        (
            "The high in Madrid will be about 20°C on Saturday.",
            "On Saturday, the high in Madrid will be 27°C.",
            "The high in Madrid will be about 20°C on Saturday.",
        ),
    ],
)
def test_a_round_figure_is_read_as_the_one_value_it_may_be(
    claim: str, passage: str, read: str
) -> None:
    # a review of 60 answers: the judge read "nearly 2.9 million" against 2,867,800 as a
    # contradiction (0.32)
    from attribution.text import as_written_in

    assert as_written_in(claim, passage) == read


@pytest.mark.parametrize(
    ("claim", "passage", "conflict"),
    [
        # a value no rounding or cut of the passage's gives: another value
        (
            "The bridge is 2 km long.",
            "The bridge is 1.2 km long and took five years to build.",
            True,
        ),
        ("The bridge is roughly 2 km long.", "The bridge is 1.2 km long.", True),
        ("The company has 3 million users.", "The company has 2.1 million users.", True),
        ("Revenue was $5 billion.", "Revenue was $4.2 billion.", True),
        # rounded, cut, or within a hundredth
        ("The company has 3 million users.", "The company has 2.6 million users.", False),
        ("The company has 3 million users.", "The company has 3.4 million users.", False),
        ("Inflation was 5%.", "Inflation was 4.6%.", False),
        ("Inflation was 5%.", "Inflation was 5.2%.", False),
        ("The tower is 745 m tall.", "The tower is 744.4 m tall.", False),
        ("Turnout was 60%.", "Turnout was 59.4%.", False),  # a hundredth, float error aside
        # a figure that ends in zeros, within a twentieth; not a temperature
        ("The tower is 300 m tall.", "The tower is 296 m tall.", False),
        ("The company employs 2,000 people.", "The company employs 1,960 people.", False),
        ("The tower is 300 m tall.", "The tower is 330 m tall.", True),
        ("Net profit rose to ¥820 billion.", "Net profit rose to ¥802bn in the year.", True),
        ("Winds reached 155 mph.", "Winds reached 150 mph.", True),  # half its last figure
        ("The bridge spans 1,300 m.", "The bridge spans 1,280 m.", False),
        ("The temperature reached 40 °C.", "The temperature reached 38 °C.", True),
        # a cut only of two figures or more, and only down to the claim's
        ("The bridge is 2 km long.", "The bridge is 2.7 km long.", True),
        ("The trail is 12 km long.", "The trail is 13 km long.", True),
        ("The summit is 8,848 m high.", "The summit is 8,848.86 m high.", False),
        # a bound rounds no way but its own
        (
            "The firm has more than 5 million customers.",
            "The firm has 4.8 million customers.",
            True,
        ),
        ("Almost 50% of voters backed the plan.", "52% of voters backed the plan.", True),
        (
            "More than 10,000 runners took part in the race.",
            "Some 9,600 runners took part in the race.",
            True,
        ),
        (
            "The firm has more than 5 million customers.",
            "The firm has 5.3 million customers.",
            False,
        ),
        # a rate in one word is the rate in two
        (
            "The patient was prescribed 2 tablets a day.",
            "The patient was prescribed 3 tablets daily for 10 days.",
            True,
        ),
        (
            "The patient was prescribed 2 tablets a week.",
            "The patient was prescribed 3 tablets daily for 10 days.",
            False,
        ),
    ],
)
def test_a_value_is_another_unless_it_rounds_or_cuts_to_it(
    claim: str, passage: str, conflict: bool
) -> None:
    # "The bridge is roughly 2 km long" against "1.2 km" was read as a rounding (any value
    # within a unit of the claim's last place, either side), and "a day" against "daily" as
    # another rate
    from attribution.text import value_conflict

    assert value_conflict(claim, passage) is conflict


def test_two_round_figures_of_huge_places_read_without_a_crash() -> None:
    # a review: "About 1" and 309 zeros against "About 2" and 309 zeros raised OverflowError
    from attribution.text import value_conflict

    claim = "About 1" + "0" * 309 + " stars exist."
    assert value_conflict(claim, "About 2" + "0" * 309 + " stars exist.")  # two round figures
    assert not value_conflict(claim, claim)
