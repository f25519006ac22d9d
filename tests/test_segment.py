from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution import InputError, find_markers
from attribution._config import SegmentConfig
from attribution.segment import Segment, Segmenter
from attribution.text import fenced_code, link_citations, named_citations

# One segmenter for the module: its spaCy pipeline is built once, on first use.
SEGMENTER = Segmenter()
EXAMPLE = Path(__file__).resolve().parents[1] / "attribution" / "examples" / "answer.md"


def _segments(answer: str, config: SegmentConfig | None = None) -> list[Segment]:
    segmenter = SEGMENTER if config is None else Segmenter(config)
    segments = segmenter.segment(answer)
    _check_invariants(answer, segments)
    return segments


def _check_invariants(answer: str, segments: list[Segment]) -> None:
    """Offsets exact, in order, no overlap, stripped; every marker attached exactly once."""
    previous_end = 0
    for i, s in enumerate(segments):
        assert s.index == i
        assert answer[s.start : s.end] == s.text
        assert s.text
        assert s.text == s.text.strip()
        assert s.start >= previous_end
        previous_end = s.end
        assert s.is_claim == (s.skip_reason is None)
        for m in s.markers:
            assert s.start <= m.start
            assert m.end <= s.end
    attached = [m for s in segments for m in s.markers]
    # every marker, and the link and named citations, a number inside one no marker of its own
    links = link_citations(answer)
    named = [
        n for n in named_citations(answer) if not any(c.start <= n.start < c.end for c in links)
    ]
    cited = [*links, *named]
    markers = [
        m for m in find_markers(answer) if not any(c.start <= m.start < c.end for c in cited)
    ]
    assert attached == sorted([*markers, *cited], key=lambda m: m.start)
    for a, b in fenced_code(answer):
        for s in segments:
            if s.is_claim:
                assert s.end <= a or s.start >= b, "a claim overlaps a code fence"


def _texts(answer: str, config: SegmentConfig | None = None) -> list[str]:
    return [s.text for s in _segments(answer, config)]


def _one(answer: str, config: SegmentConfig | None = None) -> Segment:
    segments = _segments(answer, config)
    assert len(segments) == 1, [s.text for s in segments]
    return segments[0]


# ---------------------------------------------------------------------------------------------
# The bundled example


def test_example_answer() -> None:
    answer = EXAMPLE.read_text(encoding="utf-8")
    segments = _segments(answer)
    rows = [(s.block, s.skip_reason, [m.text for m in s.markers]) for s in segments]
    expected = [
        ("heading", "heading", [], "The James Webb Space Telescope"),
        ("paragraph", "greeting", [], "Hello!"),
        ("paragraph", "greeting", [], "Here is a short overview of the telesco"),
        ("paragraph", None, ["[1]"], "The James Webb Space Telescope (JWST) is"),
        ("paragraph", None, ["[4]"], "It lifted off on 25 December 2021 on an "),
        ("heading", "heading", [], "Design and orbit"),
        ("list_item", None, ["[citation:5]"], "Its primary mirror is 6.5 m across and m"),
        ("list_item", None, [], "Webb orbits the Sun near the second Lagr"),
        ("list_item", None, ["[2, 3]"], "The telescope observes the Universe main"),
        ("list_item", None, ["[9]"], "It was the first telescope ever launched"),
        ("paragraph", None, ["[^4]"], "The first full-colour images were releas"),
        ("paragraph", None, ["[7]", "[8]"], "A mission overview by Gardner et al. app"),
        ("paragraph", "code", [], "```python\nmirror_segments = [18]  # co"),
        ("paragraph", "question", [], "Would you like to know more about its in"),
    ]
    assert rows == [row[:3] for row in expected]
    for segment, row in zip(segments, expected, strict=True):
        assert segment.text.startswith(row[3])
    items = [s for s in segments if s.block == "list_item"]
    assert {s.context for s in items} == {"Design and orbit"}
    assert segments[11].text == "A mission overview by Gardner et al. appeared in 2023 [7][8]."
    assert segments[11].clean_text == "A mission overview by Gardner et al. appeared in 2023."
    assert [s.index for s in SEGMENTER.claims(answer)] == [3, 4, 6, 7, 8, 9, 10, 11]


# ---------------------------------------------------------------------------------------------
# Sentences


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            "Dr. Smith met Mr. Jones in the U.S. in 2020. They talked.",
            ["Dr. Smith met Mr. Jones in the U.S. in 2020.", "They talked."],
        ),
        (
            "Fruits, e.g. apples, i.e. red ones, are sweet. Yes.",
            ["Fruits, e.g. apples, i.e. red ones, are sweet.", "Yes."],
        ),
        (
            "Apple Inc. beat Acme Corp. vs. Initech this year. Next.",
            ["Apple Inc. beat Acme Corp. vs. Initech this year.", "Next."],
        ),
        (
            "See Fig. 3 and No. 5 for the details. Next.",
            ["See Fig. 3 and No. 5 for the details.", "Next."],
        ),
        ("No. That is not right.", ["No.", "That is not right."]),
        (
            "Gardner et al. (2023) described it. Gardner et al. described it too.",
            ["Gardner et al. (2023) described it.", "Gardner et al. described it too."],
        ),
        (
            "Apples, pears, etc. are fruit. Apples, pears, etc. The next one starts here.",
            ["Apples, pears, etc. are fruit.", "Apples, pears, etc.", "The next one starts here."],
        ),
        (
            "It rose by 3.5 percent to $1.25 billion. Next.",
            ["It rose by 3.5 percent to $1.25 billion.", "Next."],
        ),
        (
            "Python 3.11 and v1.2.3 were released. Next.",
            ["Python 3.11 and v1.2.3 were released.", "Next."],
        ),
        (
            "Visit https://example.com/a.b/c.html?x=1.5 for details. Next.",
            ["Visit https://example.com/a.b/c.html?x=1.5 for details.", "Next."],
        ),
        (
            "Read [the docs](https://docs.example.com/v1.2/index.html) today. Next.",
            ["Read [the docs](https://docs.example.com/v1.2/index.html) today.", "Next."],
        ),
        (
            "It rose... and then it fell again. It fell… and rose. Next.",
            ["It rose... and then it fell again.", "It fell… and rose.", "Next."],
        ),
        (
            "J. P. Gardner led the team. Next.",
            ["J. P. Gardner led the team.", "Next."],
        ),
        (
            "Call `os.path.join()` or `a.b? c!` here. Next.",
            ["Call `os.path.join()` or `a.b? c!` here.", "Next."],
        ),
        (
            'He left. "Then what," she asked. **Bold** text. (A remark.) End.',
            ["He left.", '"Then what," she asked.', "**Bold** text.", "(A remark.)", "End."],
        ),
        (
            "第一句话在这里。第二句话也在这里！第三句话呢？",
            ["第一句话在这里。", "第二句话也在这里！", "第三句话呢？"],
        ),
        (
            "東京は日本の首都です【1】。大阪は大きい都市です。",
            ["東京は日本の首都です【1】。", "大阪は大きい都市です。"],
        ),
        # an ellipsis ends a sentence before a capital, not before a lower-case word or a digit
        (
            "It was done in 1889... Everest is high… Then a pause... and more... 4, 5.",
            ["It was done in 1889...", "Everest is high…", "Then a pause... and more... 4, 5."],
        ),
        (
            "Results were mixed.... Further work is needed.",
            ["Results were mixed....", "Further work is needed."],
        ),
        # an abbreviation's dot inside brackets does not end the sentence
        (
            "It was done in 1889 (approx.) per v1.2 of the plan. Use fruit (e.g.) apples.",
            ["It was done in 1889 (approx.) per v1.2 of the plan.", "Use fruit (e.g.) apples."],
        ),
        # an HTML line break ends a sentence, and belongs to neither side
        (
            "It was completed in 1889 [1].<br>The tower is made entirely of gold.",
            ["It was completed in 1889 [1].", "The tower is made entirely of gold."],
        ),
        (
            "It was completed in 1889.<BR />It is 330 metres tall.<br/>",
            ["It was completed in 1889.", "It is 330 metres tall."],
        ),
        # an ordinal after a word that leads one is no sentence end ("am 31. März")
        (
            "Der Turm wurde am 31. März 1889 eröffnet. Er liegt im 7. Arrondissement von Paris.",
            [
                "Der Turm wurde am 31. März 1889 eröffnet.",
                "Er liegt im 7. Arrondissement von Paris.",
            ],
        ),
        ("He scored 10. March was a good month.", ["He scored 10.", "March was a good month."]),
        # ... nor a day before its month's name, in emphasis or after any word (the answer came
        # back "am **13 [1]. August 1961**"); "May" is an English word, "Augenblicke" no month
        (
            "Die Mauer stand ab dem **13. August 1961**. Am Abend des 9. November fiel sie.",
            ["Die Mauer stand ab dem **13. August 1961**.", "Am Abend des 9. November fiel sie."],
        ),
        ("Det skjedde 17. mai 1814. Det var fint.", ["Det skjedde 17. mai 1814.", "Det var fint."]),
        ("The total was 12. May I add more?", ["The total was 12.", "May I add more?"]),
        ("Es waren 13. Augenblicke später kam er.", ["Es waren 13.", "Augenblicke später kam er."]),
        # a scale written short goes on into its currency ("16,4 Mrd. €"), else it may end one
        (
            "Der Bund gibt 16,4 Mrd. € aus. Es kostet 3,2 Mio. Euro. Es sind 16 Mrd. Das reicht.",
            [
                "Der Bund gibt 16,4 Mrd. € aus.",
                "Es kostet 3,2 Mio. Euro.",
                "Es sind 16 Mrd.",
                "Das reicht.",
            ],
        ),
        # German writes its nouns capitalised: a noun after the scale goes on with the sentence,
        # a word that opens one ends it
        (
            "Die Stadt hat 1,5 Mio. Einwohner. Es kostete 3 Mio. Zuletzt stieg der Preis.",
            ["Die Stadt hat 1,5 Mio. Einwohner.", "Es kostete 3 Mio.", "Zuletzt stieg der Preis."],
        ),
        ("Revenue was USD 3.2 bn. Revenue rose.", ["Revenue was USD 3.2 bn.", "Revenue rose."]),
        # ... a noun a number counts only: other capitalised words may open a sentence
        (
            "Der Gewinn betrug 1,2 Mio. Gründe dafür sind höhere Preise. It hit EUR 5 Mio. "
            "Analysts expected less.",
            [
                "Der Gewinn betrug 1,2 Mio.",
                "Gründe dafür sind höhere Preise.",
                "It hit EUR 5 Mio.",
                "Analysts expected less.",
            ],
        ),
        # English words and names that look like German abbreviations end sentences
        (
            "It was founded in 1902. J.C. Penney opened it. It is a hidden gem. Then over dt. "
            "It scored 90 resp. Both passed. He is on Abbey Rd. 3 buses stop there.",
            [
                "It was founded in 1902.",
                "J.C. Penney opened it.",
                "It is a hidden gem.",
                "Then over dt.",
                "It scored 90 resp.",
                "Both passed.",
                "He is on Abbey Rd.",
                "3 buses stop there.",
            ],
        ),
        (
            "Er wurde 1950 geb. Seine Eltern waren Ärzte. Gäste waren Scholz u.a. Die Feier war.",
            [
                "Er wurde 1950 geb.",
                "Seine Eltern waren Ärzte.",
                "Gäste waren Scholz u.a.",
                "Die Feier war.",
            ],
        ),
        # German and French abbreviations inside a sentence
        (
            "Die Firma (gegr. 1850) ist u.a. in Berlin tätig. Sie hat rd. 12.000 Mitarbeiter.",
            ["Die Firma (gegr. 1850) ist u.a. in Berlin tätig.", "Sie hat rd. 12.000 Mitarbeiter."],
        ),
        (
            "Sie liefert u.a. Berlin. Caesar starb 44 v. Chr. in Rom. "
            "Das war 44 v. Chr. Dann kam er.",
            [
                "Sie liefert u.a. Berlin.",
                "Caesar starb 44 v. Chr. in Rom.",
                "Das war 44 v. Chr.",
                "Dann kam er.",
            ],
        ),
        (
            "La ville compte env. 2,1 M d'habitants, p. ex. à Lyon. "
            "Fondée en 52 av. J.-C. par eux.",
            [
                "La ville compte env. 2,1 M d'habitants, p. ex. à Lyon.",
                "Fondée en 52 av. J.-C. par eux.",
            ],
        ),
        ("It raised USD 3.2 bn. in new funding.", ["It raised USD 3.2 bn. in new funding."]),
        # ... but only a number's scale, before a currency or a word in lower case, no marker
        (
            "Net income was EUR 2.1 bn. 2023 was weak.",
            ["Net income was EUR 2.1 bn.", "2023 was weak."],
        ),
        ("They ran a paper mill. 1820 was good.", ["They ran a paper mill.", "1820 was good."]),
        ("He earned an MD. 3 years later he left.", ["He earned an MD.", "3 years later he left."]),
        ("USD 3.2 bn. [1] USD bonds fell.", ["USD 3.2 bn. [1]", "USD bonds fell."]),
        ("Which phone to buy? iPhone 15 is best.", ["Which phone to buy?", "iPhone 15 is best."]),
        ("Which manager? npm ships with Node.", ["Which manager?", "npm ships with Node."]),
        ("Wow! eBay reported a loss.", ["Wow!", "eBay reported a loss."]),
        # a name's question or exclamation mark ends no sentence the words after it go on
        (
            "According to Which?, the Seal has a range of 354 miles. Yahoo! reported a loss.",
            ["According to Which?, the Seal has a range of 354 miles.", "Yahoo! reported a loss."],
        ),
        (
            "Is it big? Yes, it is. It is big! It is tall.",
            ["Is it big?", "Yes, it is.", "It is big!", "It is tall."],
        ),
        # a full stop glued to the next sentence still ends it, an abbreviation's does not
        (
            "It was completed in 1889 [1].The tower is made of gold.",
            ["It was completed in 1889 [1].", "The tower is made of gold."],
        ),
        ("It opened in 2023.Then it closed.", ["It opened in 2023.", "Then it closed."]),
        # a dotted name is no sentence's end: camel case, or a third part
        (
            "Call WebApplication.CreateBuilder first. Then build it.",
            ["Call WebApplication.CreateBuilder first.", "Then build it."],
        ),
        ("Use System.Text.Json for parsing it.", ["Use System.Text.Json for parsing it."]),
        ("Paris is big.Next comes Rome.", ["Paris is big.", "Next comes Rome."]),
        # "id" is an identifier, not "I'd"; a word in capitals glued to the next sentence
        ("Each row has an id. Python reads it.", ["Each row has an id.", "Python reads it."]),
        # a glued end after a word, not inside a dotted name
        ("Paris hosted the fair.It drew crowds.", ["Paris hosted the fair.", "It drew crowds."]),
        ("It runs on the iPhone.The app is free.", ["It runs on the iPhone.", "The app is free."]),
        ("Call WebApplication.Build to start.", ["Call WebApplication.Build to start."]),
        # a word in capitals glued to a word that starts sentences; a name is no end
        ("It returns JSON.Each item is small.", ["It returns JSON.", "Each item is small."]),
        # a full stop after a superscript digit
        ("It runs in Frankfurt¹. It opened.", ["It runs in Frankfurt¹.", "It opened."]),
        ("Use VB.Net for it. It works.", ["Use VB.Net for it.", "It works."]),
        ("Read it with System.IO.File today.", ["Read it with System.IO.File today."]),
        # legal, German and French abbreviations before a number or a word in lower case
        (
            "See Smith v. Jones, 123 F.3d 456 (9th Cir. 1999). The ruling stands.",
            ["See Smith v. Jones, 123 F.3d 456 (9th Cir. 1999).", "The ruling stands."],
        ),
        (
            "Nach § 823 Abs. 1 BGB haftet der Schädiger. Das gilt auch hier.",
            ["Nach § 823 Abs. 1 BGB haftet der Schädiger.", "Das gilt auch hier."],
        ),
        ("The avg. rent rose 5%. Prices fell.", ["The avg. rent rose 5%.", "Prices fell."]),
        # ... but not an English word ("abs", "lit", "env"), nor a company's "S.A."
        ("Engage your abs. 3 sets are enough.", ["Engage your abs.", "3 sets are enough."]),
        ("The lamp was lit. eBay sold it.", ["The lamp was lit.", "eBay sold it."]),
        ("Set it in your env. npm reads it.", ["Set it in your env.", "npm reads it."]),
        (
            "It is Telefónica S.A. [1] It employs many.",
            ["It is Telefónica S.A. [1]", "It employs many."],
        ),
        (
            "Vgl. hierzu BGH, Urteil vom 1. März 2020. Das Gericht entschied anders.",
            ["Vgl. hierzu BGH, Urteil vom 1. März 2020.", "Das Gericht entschied anders."],
        ),
        ("Es gilt z.B. für Mieter. Sie zahlen.", ["Es gilt z.B. für Mieter.", "Sie zahlen."]),
        # a quoted title's question mark; an abbreviation before a marker and a capital
        (
            'The film "Who Framed Roger Rabbit?" was released in 1988.',
            ['The film "Who Framed Roger Rabbit?" was released in 1988.'],
        ),
        (
            "It applies in the U.K. [1] It starts in 2025.",
            ["It applies in the U.K. [1]", "It starts in 2025."],
        ),
        (
            "It comes from the U.S. [1] Department of Energy.",
            ["It comes from the U.S. [1] Department of Energy."],
        ),
        ("It opens at 9 a.m. Tuesday to Sunday.", ["It opens at 9 a.m. Tuesday to Sunday."]),
        ("The U.S. President spoke.", ["The U.S. President spoke."]),
        (
            "The U.S.The end is here. See e.g.The next part.",
            ["The U.S.The end is here.", "See e.g.The next part."],
        ),
    ],
)
def test_sentences(answer: str, expected: list[str]) -> None:
    assert _texts(answer) == expected


# ---------------------------------------------------------------------------------------------
# Markers


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            "It launched on March 10 [3]. It landed later.",
            [("It launched on March 10 [3].", ["[3]"]), ("It landed later.", [])],
        ),
        (
            "It launched on March 10. [3] It landed later.",
            [("It launched on March 10. [3]", ["[3]"]), ("It landed later.", [])],
        ),
        (
            "It launched on March 10.[3][4] It landed later.",
            [("It launched on March 10.[3][4]", ["[3]", "[4]"]), ("It landed later.", [])],
        ),
        (
            "It launched on March 10.[^3] It landed[citation:4] later.【5】",
            [
                ("It launched on March 10.[^3]", ["[^3]"]),
                ("It landed[citation:4] later.【5】", ["[citation:4]", "【5】"]),
            ],
        ),
        (
            "[1] A claim that opens with its marker. Another claim here.",
            [("[1] A claim that opens with its marker.", ["[1]"]), ("Another claim here.", [])],
        ),
        (
            "A claim whose marker is on the next line.\n[2]",
            [("A claim whose marker is on the next line.\n[2]", ["[2]"])],
        ),
        (
            "The mirror [1, 2] is gold-coated. Paris[3] is in France.",
            [
                ("The mirror [1, 2] is gold-coated.", ["[1, 2]"]),
                ("Paris[3] is in France.", ["[3]"]),
            ],
        ),
    ],
)
def test_markers_attach_to_the_sentence_they_follow(
    answer: str, expected: list[tuple[str, list[str]]]
) -> None:
    assert [(s.text, [m.text for m in s.markers]) for s in _segments(answer)] == expected


@pytest.mark.parametrize(
    ("answer", "clean"),
    [
        ("Launched in 2021 [1].", "Launched in 2021."),
        ("Launched in 2021. [1][2]", "Launched in 2021."),
        ("[1] Launched in   2021\n  from Kourou.", "Launched in 2021 from Kourou."),
        ("The mirror [1, 2], coated in gold, is big.", "The mirror, coated in gold, is big."),
        ("Paris[1]is glued to its marker.", "Paris is glued to its marker."),
        # a link reads as its text: a URL says nothing a source could support
        (
            "Completed in [1889](https://en.wikipedia.org/wiki/1889) [1].",
            "Completed in 1889.",
        ),
        ("The [tower [of] iron](http://a.b/(x) 'T') is tall.", "The tower [of] iron is tall."),
        ("See ![a diagram](d.png) of the tower here.", "See a diagram of the tower here."),
        ("See[Paris](https://p.fr)and the tower here.", "See Paris and the tower here."),
        # what a citation in brackets leaves once its marker is out is no part of the claim
        ("Launched in 2021 (see [1]).", "Launched in 2021."),
        ("Launched in 2021 ([1]) from Kourou.", "Launched in 2021 from Kourou."),
        ("Launched in 2021 (Source: [2]; see also [3]).", "Launched in 2021."),
        ("Launched in 2021 (cf. [1]), twice.", "Launched in 2021, twice."),
        # words of the claim in the brackets stay, and so do brackets without a marker
        ("Launched in 2021 (see Kourou [1]).", "Launched in 2021 (see Kourou)."),
        ("Launched in 2021 (see below) today.", "Launched in 2021 (see below) today."),
        # an address that only says where the claim came from is no part of it
        ("Completed in 1889, see https://en.wikipedia.org/wiki/E [1].", "Completed in 1889."),
        ("Completed in 1889 (https://en.wikipedia.org/wiki/A_(b)) [1].", "Completed in 1889."),
        ("Completed in 1889 <https://e.org/a> [1].", "Completed in 1889."),
        ("Completed in 1889: https://e.org/a", "Completed in 1889"),
        ("Completed (see https://e.org/a) in 1889.", "Completed in 1889."),
        ("Completed in 1889 (https://a.org, https://b.org/(c)).", "Completed in 1889."),
        ("Completed in 1889 (Sources: https://a.org; https://b.org).", "Completed in 1889."),
        # one the sentence is about stays
        (
            "The official site is https://www.python.org.",
            "The official site is https://www.python.org.",
        ),
        ("Visit <https://python.org> for the docs.", "Visit <https://python.org> for the docs."),
        # struck-through text is what the author took back: no part of the claim
        ("The tower is ~~300~~ 330 m tall [1].", "The tower is 330 m tall."),
        ("It costs ~~3.5~~ 4 euros, ~~built~~rebuilt.", "It costs 4 euros, rebuilt."),
        ("Use `a ~~b~~ c`, ~5 km or ~~ 5 ~~ here.", "Use `a ~~b~~ c`, ~5 km or ~~ 5 ~~ here."),
        # a footnote mark with a name cites no number, and is no word of the claim either
        ("Wing is owned by Alphabet[^wing] since 2012.", "Wing is owned by Alphabet since 2012."),
        # what held only markers goes with them; a file search's citation is no word of it
        ("It runs in Frankfurt ([1]; [2]).", "It runs in Frankfurt."),
        ("It runs in Frankfurt (see [1] and [2]).", "It runs in Frankfurt."),
        ("It runs in Frankfurt (e.g. [1]).", "It runs in Frankfurt."),
        ("It runs in Frankfurt ([1], p. 4).", "It runs in Frankfurt."),
        ("It runs in Frankfurt ([1], pp. 4–6).", "It runs in Frankfurt."),
        ("It runs in Frankfurt (see [1], p. 4).", "It runs in Frankfurt."),
        ("**According to [1],** it runs in Frankfurt.", "it runs in Frankfurt."),
        ("It runs in Frankfurt (page 4).", "It runs in Frankfurt (page 4)."),
        # a marker that is a preposition's object says where, not what
        (
            "A study by [1] found that it runs in Frankfurt.",
            "A study found that it runs in Frankfurt.",
        ),
        ("Results of [1] and [2] show it runs.", "Results show it runs."),
        (
            "It runs in Frankfurt ^[1]^ and Dublin<sup>[2]</sup>.",
            "It runs in Frankfurt and Dublin.",
        ),
        ("It runs in Frankfurt [^1^] now 【4:0†report.pdf】.", "It runs in Frankfurt now."),
        # ... after the full stop too: the group cites with the sentence before it
        ("It runs in Frankfurt. ([1]; [2])", "It runs in Frankfurt."),
        # content, not a source's name: in square brackets in lower case, inside an address, a
        # key and its value, a word in lower case
        ("Set the field [source: string] in it.", "Set the field [source: string] in it."),
        (
            "Logs read (source: kafka, partition: 3) here.",
            "Logs read (source: kafka, partition: 3) here.",
        ),
        ("Use (source: stdin) as input.", "Use (source: stdin) as input."),
        ("It rose 3% (source: Reuters).", "It rose 3%."),
        (
            "Search https://g.example/s?q=(Source:x) now.",
            "Search https://g.example/s?q=(Source:x) now.",
        ),
        ("It flies drones [^note-2] in Logan [1].", "It flies drones in Logan."),
        ("Use [^0-9] to match any non-digit here.", "Use [^0-9] to match any non-digit here."),
        # emphasis delimiters are markdown, not words: the models read "not", not "*not*"
        (
            "The build is *not* slower for single-threaded code.",
            "The build is not slower for single-threaded code.",
        ),
        ("**Gustave Eiffel** designed the tower [1].", "Gustave Eiffel designed the tower."),
        ("It is **very *much* so** and __so__ _true_.", "It is very much so and so true."),
        (
            "Use snake_case and 2*3*4 or `a *b* c` here.",
            "Use snake_case and 2*3*4 or `a *b* c` here.",
        ),
        ("A * B and C * D are products here.", "A * B and C * D are products here."),
        ("Globs like src/*/foo and lib/*/bar match.", "Globs like src/*/foo and lib/*/bar match."),
    ],
)
def test_clean_text(answer: str, clean: str) -> None:
    assert _one(answer).clean_text == clean


def test_markers_in_code_are_not_markers_and_markers_after_code_are() -> None:
    answer = "```\nx = [1]\n```\n\nUse `a[2]` in the loop [3]."
    code, sentence = _segments(answer)
    assert code.markers == ()
    assert code.skip_reason == "code"
    assert [m.text for m in sentence.markers] == ["[3]"]


def test_a_paragraph_over_a_million_characters_is_segmented() -> None:
    # spaCy's own limit (1,000,000 characters a text) is for parsers; the sentencizer has none
    filler = "word " * 220_000
    answer = f"The tower was completed in 1889 [1]. {filler.strip()}. It is 330 metres tall."
    texts = _texts(answer)
    assert texts[0] == "The tower was completed in 1889 [1]."
    assert texts[-1] == "It is 330 metres tall."


def test_markers_only_paragraph() -> None:
    seg = _segments("A claim in its own paragraph.\n\n[3][4]")[1]
    assert (seg.text, seg.skip_reason) == ("[3][4]", "too_short")
    assert [m.text for m in seg.markers] == ["[3]", "[4]"]


# ---------------------------------------------------------------------------------------------
# Claim rules


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("Hello!", "greeting"),
        ("Hi there.", "greeting"),
        ("Sure!", "greeting"),
        ("Great question.", "greeting"),
        ("That's a great question!", "greeting"),
        ("I hope this helps.", "greeting"),
        ("Let me know if you have any other questions about the telescope.", "greeting"),
        ("Feel free to ask about the instruments.", "greeting"),
        ("Here is a short overview of the telescope.", "greeting"),
        ("Here's what I found:", "greeting"),
        ("I found the following information about Webb:", "greeting"),
        ("Is the mirror made of gold?", "question"),
        ("Is the mirror made of gold? [1]", "question"),
        ("However,", "connective"),
        ("In summary:", "connective"),
        ("Key facts:", "connective"),
        ("**Key facts:**", "connective"),
        ("The main points are as follows:", "connective"),
        # a longer one that says what follows is the content (a trial's answer judged it)
        ("If you lost your phone, here is how to get back into your account:", "connective"),
        (
            "Based on the sources you shared, here is a short comparison of the phones:",
            "connective",
        ),
        # a condition alone (a new user's trial: it was a claim, unsupported)
        ("If you're planning a Paris museum day:", "connective"),
        ("Before you upgrade the cluster:", "connective"),
        ("If the cache is warm, the request takes 20 ms:", None),
        ("When the cluster has more than 3 nodes and uses etcd:", None),  # a number: a fact
        # a longer one may hold a clause of its own (a review)
        ("If you mix bleach and ammonia you create toxic chloramine gas:", None),
        ("Unless you pay by card the museum only takes cash:", None),
        ("After-hours trading is riskier than regular trading:", None),
        # ... but not a sentence that states something before it ends in ':' (a review's)
        ("As of 2024, here are the tallest buildings, which all exceed 500 m:", None),
        ("Here are the three cities that hosted the Summer Olympics twice before 2000:", None),
        ("The Treaty of Versailles, signed on 28 June 1919, imposed the following terms:", None),
        (
            "Marie Curie is the only person to have won Nobel Prizes in two different sciences; "
            "here's a summary:",
            None,
        ),
        (
            "Vitamin D deficiency is common in northern Europe in winter, and the following "
            "groups are most at risk:",
            None,
        ),
        ("Very big.", "too_short"),
        ("Webb [1][2].", "too_short"),
        ("`make test`", "code"),
        ("`make test` [1].", "code"),
        ("**Design and orbit**", "heading"),
        ("📉 **ECB cuts rates again**", "heading"),  # an emoji before a bold pseudo-heading
        ("✅ __Launch done__", "heading"),
        ("Webb is big.", None),
        ("Overall, the telescope is a success.", None),
        ("In summary, Webb launched in 2021.", None),
        ("No, the telescope did not land on the Moon.", None),
        ("Here is the launch date: 25 December 2021.", None),
        ("Run `make test` to check the whole suite.", None),
        ("According to NASA, the telescope carries four instruments built in three places:", None),
        ("東京は日本の首都です。", None),
        ("谢谢。", "too_short"),
        # lead-ins that count what follows say nothing; a greeting's words before a fact do
        ("Here are 5 key facts about the Louvre.", "greeting"),
        ("I found 3 relevant sources for this.", "greeting"),
        ("Here is the 2023 revenue of Apple, 383 billion dollars.", None),
        ("Let's look at the numbers: revenue rose 5% to $2.3bn in Q2 [1].", None),
        ("Here's an overview of the Eiffel Tower, which is 330 metres tall.", None),
        ("I found 3 studies linking coffee to a 25% lower risk.", None),
        ("Let me know if you'd like a version for Python 3.", "greeting"),
        ("Let's dive in: first, some background.", "greeting"),
        # a question someone asked, reported, is a statement
        ('Guterres said: "How many more must die?" [1]', None),
        ('"Is it safe?"', "question"),
        ('What is meant by "fair use?"', "question"),
        ("What does REST mean (in web APIs?)", "question"),
        # a display formula
        ("$$\ni\\hbar \\partial_t \\Psi = \\hat H \\Psi\n$$", "math"),
        ("\\[ a^2 + b^2 = c^2 \\]", "math"),
        ("$$a = b$$ and so $$c = d$$ holds.", None),
    ],
)
def test_claim_rules(answer: str, reason: str | None) -> None:
    seg = _one(answer)
    assert (seg.skip_reason, seg.is_claim) == (reason, reason is None)


def test_a_key_on_one_line_is_a_reference_list() -> None:
    answer = "It is tall [1]. It is old [2].\n\n**Sources:** [1] Tower, https://a.example/t [2] B"
    assert [(s.clean_text, s.skip_reason) for s in _segments(answer)][2:] == [
        ("Sources: Tower, https://a.example/t B", "reference_list")
    ]
    # a key on one line is whole: the items and sentences after it are read as text
    answer = "Sources: [1] https://a.example/t\nIt is big.\n\n- It is tall [1].\n- It is old [1]."
    assert [(s.clean_text, s.skip_reason) for s in _segments(answer)][1:] == [
        ("It is big.", None),
        ("It is tall.", None),
        ("It is old.", None),
    ]
    assert _segments(answer)[0].skip_reason == "reference_list"
    # LangChain's "SOURCES:" line, addresses alone, anywhere
    answer = "It is tall.\n\nSOURCES: https://a.example/t, https://b.example/u\n\nIt is old."
    assert [s.skip_reason for s in _segments(answer)] == [None, "reference_list", None]
    # a line that names sources without an address, a sentence, a label inside a title, or
    # words beside its addresses is read as text
    for answer in (
        "Sources: [1] says it is tall.",
        "Sources: [1] and [2] agree that it is tall (https://a.example/t).",
        "Source: [1] confirms it (https://a.example/t).",
        "Sources: [1] Tower [2023], https://a.example/t [2] Blog, https://b.example/",
        "Sources: https://a.example/t says it is tall.",
        "We compared the figures from two\nsources: https://a.example/x and https://b.example/y",
    ):
        assert "reference_list" not in [s.skip_reason for s in _segments(answer)], answer


def test_a_key_of_titles_alone_that_ends_the_answer_is_a_reference_list() -> None:
    # it was a claim, unsupported, and its markers counted as unsupported (a new user's trial)
    key = "**Sources:** [1] NASA Apollo 11 Mission Overview, [2] Smithsonian Air and Space Museum"
    for answer in (f"It launched [1]. It landed [2].\n\n{key}", f"It launched [1].\n\n{key}\n"):
        assert _segments(answer)[-1].skip_reason == "reference_list", answer
    # not in the middle of the answer, not after a line of prose, not prose with labels
    for answer in (
        f"It launched [1].\n\n{key}\n\nIt landed [2].",
        f"It launched [1].\n{key}",
        "It launched [1].\n\nSources: [1] Reuters says it flew. It is fast, [2] AP",
        "It launched [1].\n\nSources: [1] and [2] agree that it flew.",
        "It launched [1].\n\nSources: [1] " + "Long title " * 20,
    ):
        assert "reference_list" not in [s.skip_reason for s in _segments(answer)], answer


def test_a_bold_line_labels_the_text_under_it() -> None:
    # "**Profit**" on the line above a sentence was read as its first word
    answer = "**Profit**\nNet income fell 23% to $15.0bn.\n\n> **Warning**\n> It deletes data.\n"
    assert [(s.clean_text, s.skip_reason) for s in _segments(answer)] == [
        ("Profit", "heading"),
        ("Net income fell 23% to $15.0bn.", None),
        ("Warning", "heading"),
        ("It deletes data.", None),
    ]
    note = _segments("**Note:** the API is slow.\nIt is rate limited.")
    assert [s.clean_text for s in note] == ["Note: the API is slow.", "It is rate limited."]


def test_min_words_is_configurable() -> None:
    assert _one("Webb is very big.").is_claim
    assert _one("Webb is very big.", SegmentConfig(min_words=5)).skip_reason == "too_short"
    assert _one("Webb is big.", SegmentConfig(min_words=1)).is_claim


# ---------------------------------------------------------------------------------------------
# Markdown blocks


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        pytest.param(
            "# One\n\n### Three ###\n\n###### Six\n\nSetext one\n===\n\nSetext two\n---\n\n"
            "#hashtag is not a heading here.",
            [
                ("One", "heading", "heading"),
                ("Three", "heading", "heading"),
                ("Six", "heading", "heading"),
                ("Setext one", "heading", "heading"),
                ("Setext two", "heading", "heading"),
                ("#hashtag is not a heading here.", None, "paragraph"),
            ],
            id="headings",
        ),
        pytest.param(
            "First paragraph is here.\n\n---\n\n***\n\n<!-- a comment\nspanning lines -->\n\n\n"
            "Second <!-- inline --> paragraph is here.",
            [
                ("First paragraph is here.", None, "paragraph"),
                ("Second <!-- inline --> paragraph is here.", None, "paragraph"),
            ],
            id="rules-comments-blank-lines",
        ),
        pytest.param(
            "Install it with:\n\n```sh\npip install attribution. It works.\n```\n\n"
            "~~~\nunclosed tilde fence",
            [
                ("Install it with:", "connective", "paragraph"),
                ("```sh\npip install attribution. It works.\n```", "code", "paragraph"),
                ("~~~\nunclosed tilde fence", "code", "paragraph"),
            ],
            id="fenced-code",
        ),
        pytest.param(
            "A paragraph before some code.\n\n    x = compute(1)  [2]\n    y = x.value\n\n"
            "- An item that goes on.\n\n    A second paragraph of the item.\n",
            [
                ("A paragraph before some code.", None, "paragraph"),
                ("x = compute(1)  [2]\n    y = x.value", "code", "paragraph"),
                ("An item that goes on.", None, "list_item"),
                ("A second paragraph of the item.", None, "list_item"),
            ],
            id="indented-code-and-item-paragraphs",
        ),
        pytest.param(
            "Call `a.b(). Then c()` from the shell. `only code here`",
            [
                ("Call `a.b(). Then c()` from the shell.", None, "paragraph"),
                ("`only code here`", "code", "paragraph"),
            ],
            id="inline-code",
        ),
        pytest.param(
            "- An item with code below it:\n\n  ```\n  code [9]\n  ```\n- The next item is here.",
            [
                ("An item with code below it:", "connective", "list_item"),
                ("```\n  code [9]\n  ```", "code", "list_item"),
                ("The next item is here.", None, "list_item"),
            ],
            id="fence-inside-a-list",
        ),
    ],
)
def test_blocks(answer: str, expected: list[tuple[str, str | None, str]]) -> None:
    assert [(s.text, s.skip_reason, s.block) for s in _segments(answer)] == expected


def test_markers_in_indented_code_are_attached_to_it() -> None:
    code = _segments("Some text is here.\n\n    x = compute(1)  [2]")[1]
    assert (code.skip_reason, [m.text for m in code.markers]) == ("code", ["[2]"])


def test_list_items_are_split_apart() -> None:
    answer = (
        "- Dash item one is here.\n* Star item two is here.\n+ Plus item three is here.\n\n"
        "1. Ordered one is here.\n2) Ordered two is here. It has a second sentence [2].\n"
        "   It goes on lazily on this line.\n"
        "   - A nested item is here.\n"
        "     - A deeper nested item is here.\n"
        "3. Ordered three is here.\n"
        "- [x] A checked task is done."
    )
    segments = _segments(answer)
    assert [s.text for s in segments] == [
        "Dash item one is here.",
        "Star item two is here.",
        "Plus item three is here.",
        "Ordered one is here.",
        "Ordered two is here.",
        "It has a second sentence [2].",
        "It goes on lazily on this line.",
        "A nested item is here.",
        "A deeper nested item is here.",
        "Ordered three is here.",
        "A checked task is done.",
    ]
    assert {s.block for s in segments} == {"list_item"}
    assert all(s.is_claim for s in segments)
    assert segments[7].context == (
        "Ordered two is here. It has a second sentence. It goes on lazily on this line."
    )
    assert segments[8].context == "A nested item is here."


def test_list_context_is_the_lead_in_or_the_heading() -> None:
    answer = (
        "## Design\n\nWebb carries four science instruments [1]:\n\n- NIRCam is the main imager.\n"
        "- MIRI covers the mid-infrared.\n\nA plain paragraph sits here.\n\n"
        "- An item after a paragraph without a colon.\n\n**Key facts:**\n\n- The orbit is at L2."
    )
    segments = _segments(answer)
    by_text = {s.text: s for s in segments}
    lead_in = "Webb carries four science instruments:"
    assert by_text["NIRCam is the main imager."].context == lead_in
    assert by_text["MIRI covers the mid-infrared."].context == lead_in
    assert by_text["An item after a paragraph without a colon."].context == "Design"
    assert by_text["The orbit is at L2."].context == "Key facts:"
    assert by_text["Webb carries four science instruments [1]:"].skip_reason == "connective"
    assert by_text["A plain paragraph sits here."].context is None


def test_tables() -> None:
    answer = (
        "| Name | Launch date | Notes |\n"
        "|:-----|:-----------:|------:|\n"
        "|  JWST [1] | 2021 |  Launched on an Ariane 5 rocket [2]   |\n"
        "| Hubble | 1990 | Carried by the \\| Space Shuttle Discovery |"
    )
    segments = _segments(answer)
    assert [(s.text, s.skip_reason, s.context) for s in segments] == [
        ("Name", "table_header", None),
        ("Launch date", "table_header", None),
        ("Notes", "table_header", None),
        # the row's label, and its facts: read with the label and the column's header, however
        # short; a header that says nothing ("Notes") is left out
        ("JWST [1]", "table_label", "Name"),
        ("2021", None, "JWST | Launch date"),
        ("Launched on an Ariane 5 rocket [2]", None, "JWST"),
        ("Hubble", "table_label", "Name"),
        ("1990", None, "Hubble | Launch date"),
        ("Carried by the \\| Space Shuttle Discovery", None, "Hubble"),
    ]
    assert {s.block for s in segments} == {"table_cell"}
    assert segments[-1].clean_text == "Carried by the | Space Shuttle Discovery"
    # what the models read of a cell: what its row is about and what its column holds
    assert segments[4].read_as == "JWST | Launch date: 2021"
    assert segments[3].read_as == "Name: JWST"
    assert segments[6].read_as == "Name: Hubble"
    assert _one("Webb is a big telescope.").read_as == "Webb is a big telescope."
    assert "-----" not in "".join(s.text for s in segments)


def test_a_row_of_short_cells_states_facts() -> None:
    answer = (
        "| Fact | Value | Source |\n| --- | --- | --- |\n"
        "| Height | 330 m | Wikipedia [1] |\n"
        "| Visitors per year | about 7 million | [2] |\n"
        "| Lift | ✅ Yes (beta) | |\n"
        "| Paint | — | |\n"
        "| The tower was the tallest structure in the world until 1930 | 41 years | |\n"
    )
    cells = {s.text: s for s in _segments(answer) if s.skip_reason != "table_header"}
    assert (cells["330 m"].is_claim, cells["330 m"].read_as) == (True, "Height: 330 m")
    assert cells["about 7 million"].read_as == "Visitors per year: about 7 million"
    # what the row is about is no claim; "yes" and a dash say nothing to check
    assert cells["Height"].skip_reason == cells["Visitors per year"].skip_reason == "table_label"
    assert not any(cells[t].is_claim for t in ("✅ Yes (beta)", "—", "Lift", "Paint"))
    # a cell of a column of sources cites the row's fact
    assert cells["Wikipedia [1]"].skip_reason == cells["[2]"].skip_reason == "table_citation"
    # a first cell that is a sentence is a claim, and the cells after it are not its facts
    sentence = "The tower was the tallest structure in the world until 1930"
    assert (cells[sentence].is_claim, cells["41 years"].skip_reason) == (True, "too_short")


def test_tables_whose_first_header_is_empty_are_read_each_alone() -> None:
    """A review: two tables with an empty top-left header cell were pooled into one column,
    so a two-row table's sentence was taken for a label by the other table's labels."""
    first = "| | Height | Opened |\n|---|---|---|\n| Eiffel Tower | 330 m | 1889 |\n"
    first += "| Tokyo Tower | 333 m | 1958 |\n| CN Tower | 553 m | 1976 |\n\n"
    second = "| | Height | Opened |\n|---|---|---|\n"
    second += (
        "| Tallest free-standing tower until 2007 | 553 m | 1976 |\n| Sears | 442 m | 1973 |\n"
    )
    cells = {s.text: s for s in _segments(first + second)}
    assert cells["Tallest free-standing tower until 2007"].is_claim


def test_a_longer_first_cell_among_short_ones_labels_its_row() -> None:
    """A trial's table: "Annual, after 30 days" (four words) was read as a claim and got a
    marker inside its cell; its column's other cells name plans."""
    answer = (
        "| Plan | Refund rule |\n|---|---|\n| Annual | Full refund within 30 days |\n"
        "| Annual, after 30 days | Unused months as credit |\n| Monthly | Refundable in 14 days |\n"
    )
    cells = {s.text: s for s in _segments(answer) if s.skip_reason != "table_header"}
    assert cells["Annual, after 30 days"].skip_reason == "table_label"
    assert cells["Unused months as credit"].read_as == (
        "Annual, after 30 days | Refund rule: Unused months as credit"
    )


@pytest.mark.parametrize(
    ("table", "claims"),
    [
        # a first column of short sentences: the claims, not their ratings
        (
            "| Claim | Confidence |\n|---|---|\n| It opened in 1889 [1] | Medium |",
            ["It opened in 1889 [1]"],
        ),
        # a label is the row's first cell, and a name: not a rank, a quarter or a year
        ("| Rank | Country | GDP |\n|---|---|---|\n| 1st | India | $3T |", []),
        (
            "| Quarter | Highlight | Revenue |\n|---|---|---|\n"
            "| Q1 2024 | Revenue grew 12% | $4.2B |",
            ["Revenue grew 12%"],
        ),
        (
            "| Year | Event | Place |\n|---|---|---|\n| 1889 | Tower was completed | Paris |",
            ["Tower was completed"],
        ),
        # a header that holds a word of citing is no column of sources
        (
            "| Country | Main source | Reference price |\n|---|---|---|\n"
            "| France | Nuclear | $82 |",
            ["Nuclear", "$82"],
        ),
        (
            "| Claim | Evidence |\n|---|---|\n| Weight | The tower weighs 10,100 tonnes [1] |",
            ["The tower weighs 10,100 tonnes [1]"],
        ),
        ("| Year | Revenue |\n|---|---|\n| 2022 | $394B |", []),
        # units, verdicts, pros and cons are no facts about the row
        ("| Metric | Value | Unit |\n|---|---|---|\n| Height | 330 | m |", ["330"]),
        ("| Option | Pros | Cons |\n|---|---|---|\n| Rust | Fast | Steep |", []),
        ("| Check | Status |\n|---|---|\n| Height | Supported |", []),
    ],
)
def test_which_cells_of_a_table_are_facts(table: str, claims: list[str]) -> None:
    assert [s.text for s in _segments(table) if s.is_claim] == claims


def test_a_table_row_is_about_its_first_cell_with_words() -> None:
    answer = "| # | Tower | Notes |\n|---|---|---|\n| 3 | Tokyo Skytree | It opened in 2012. |"
    *_, rank, tower, notes = _segments(answer)
    assert (rank.read_as, tower.read_as) == ("#: 3", "Tower: Tokyo Skytree")
    assert notes.read_as == "Tokyo Skytree: It opened in 2012."  # not the rank


def test_table_rows_when_cells_are_not_split() -> None:
    answer = "| Name | Notes |\n|---|---|\n| JWST | Launched on an Ariane 5 rocket [2] |"
    segments = _segments(answer, SegmentConfig(table_cells=False))
    row = segments[-1]
    assert row.text == "JWST | Launched on an Ariane 5 rocket [2]"
    assert (row.is_claim, row.context, row.block) == (True, "Name", "table_cell")


def test_blockquotes_keep_exact_offsets() -> None:
    answer = "> The first quoted line\n> goes on here [1].\n>\n> > A nested quote is here."
    first, second = _segments(answer)
    assert first.text == "The first quoted line\n> goes on here [1]."
    assert first.clean_text == "The first quoted line goes on here."
    assert (first.block, second.block) == ("blockquote", "blockquote")
    assert second.text == "A nested quote is here."


@pytest.mark.parametrize(
    "tail",
    [
        "Sources:\n[1] https://www.nasa.gov/webb\n[2] https://www.esa.int/Webb",
        "**References**\n\n1. [NASA](https://www.nasa.gov/webb)\n2. ESA, *Webb*, 2022.",
        "## Sources\n- [1] NASA - https://www.nasa.gov/webb\n- [2] ESA",
        "[1] https://www.nasa.gov/webb\n\n[2]: https://www.esa.int/Webb",
        # other headings: a short word, other languages, one entry under them
        "Refs:\n**[1]** NASA",
        "Refs.\n[1] NASA\n[2] ESA",
        "**Quellen**\n\n[1] NASA\n[2] ESA",
        "Fuentes:\n- [1] NASA",
        "## Références\n\n[1] NASA",
        "参考文献：\n[1] NASA",
    ],
)
def test_trailing_reference_list(tail: str) -> None:
    answer = "Webb launched in 2021 [1]. It orbits L2 [2].\n\n" + tail
    segments = _segments(answer)
    assert [s.is_claim for s in segments[:2]] == [True, True]
    assert segments[2:]
    assert {s.skip_reason for s in segments[2:]} == {"reference_list"}


def test_reference_like_lines_inside_the_answer_stay_prose() -> None:
    answer = "Sources: NASA confirmed the launch date [1].\n\nThe mirror is 6.5 m wide [2]."
    assert all(s.is_claim for s in _segments(answer))


# ---------------------------------------------------------------------------------------------
# Long sentences


def test_long_sentences_are_cut_at_clause_boundaries() -> None:
    config = SegmentConfig(max_claim_chars=100)
    clause = "the mirror segments were aligned with great care by the engineers in the lab"
    answer = f"First {clause}; then {clause}, and finally {clause} [1]."
    segments = _segments(answer, config)
    assert all(len(s.text) <= 100 for s in segments[:-1])
    assert len(segments[-1].text) <= 100 + len(" [1]")
    assert segments[0].text.endswith(";")
    assert segments[1].text.endswith(",")
    assert [m.text for m in segments[-1].markers] == ["[1]"]


def test_long_sentences_without_clauses_are_cut_at_blanks_or_hard() -> None:
    config = SegmentConfig(max_claim_chars=50)
    words = " ".join(["telescope"] * 30) + "."
    assert all(len(s.text) <= 50 for s in _segments(words, config))
    cjk = "望远镜" * 40 + "。"
    pieces = _segments(cjk, config)
    assert len(pieces) == 3
    assert "".join(s.text for s in pieces) == cjk


# ---------------------------------------------------------------------------------------------
# Text of every kind


def test_crlf_tabs_emoji_cjk_and_combining_marks() -> None:
    answer = (
        "# Café\u0301 🚀\r\n\r\nThe first line\tis here [1].\r\nA second 😀 sentence is here."
        "\r\n\r\n- An item with CJK 東京 in it [2]\r\n- 東京は日本の首都です。"
    )
    segments = _segments(answer)
    assert [s.text for s in segments] == [
        "Café\u0301 🚀",
        "The first line\tis here [1].",
        "A second 😀 sentence is here.",
        "An item with CJK 東京 in it [2]",
        "東京は日本の首都です。",
    ]
    assert segments[1].clean_text == "The first line is here."


def test_empty_and_blank_answers() -> None:
    assert _segments("") == []
    assert _segments(" \n\r\n\t\n") == []


def test_rejects_non_strings() -> None:
    with pytest.raises(InputError, match="string"):
        SEGMENTER.segment(b"bytes")  # type: ignore[arg-type]


def test_claims_are_the_claim_segments() -> None:
    answer = "Hello! Webb launched in 2021 [1]. Want more?"
    claims = SEGMENTER.claims(answer)
    assert [(c.index, c.text) for c in claims] == [(1, "Webb launched in 2021 [1].")]


def test_pipeline_is_built_lazily_and_spacy_is_not_imported_eagerly() -> None:
    segmenter = Segmenter()
    assert "nlp" not in vars(segmenter)
    segmenter.segment("One sentence here.")
    nlp = segmenter.nlp
    segmenter.segment("Another sentence here.")
    assert segmenter.nlp is nlp
    code = "import sys, attribution.segment; print('spacy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------------------------------------
# Properties


_SENTENCES = [
    "Dr. Smith met Mr. Jones in the U.S. in 2020",
    "The value rose to 3.5 percent, i.e. a record",
    "Python 3.11 and v1.2.3 shipped on time",
    "J. P. Gardner et al. wrote the overview",
    "See Fig. 3 and No. 5 for details",
    "Visit https://example.com/a.b for more",
    "Call `os.path.join()` to build paths",
    "The rocket 🚀 launched from Kourou",
    "東京は日本の首都です",
    "Was it launched in 2021",
    "Hello",
    "Café\u0301 prices went up… slowly",
]
_MARKERS = ["[1]", "[2, 3]", "[^4]", "[citation:5]", "【6】", "[7][8]"]


@st.composite
def _sentence(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(_SENTENCES))
    end = draw(st.sampled_from([".", "!", "?", "。", ":", ""]))
    marker = draw(st.sampled_from(["", *_MARKERS]))
    where = draw(st.sampled_from(["before", "after", "glued", "start"]))
    if not marker:
        return text + end
    if where == "before":
        return f"{text} {marker}{end}"
    if where == "after":
        return f"{text}{end} {marker}"
    if where == "glued":
        return f"{text}{end}{marker}"
    return f"{marker} {text}{end}"


_paragraph = st.lists(_sentence(), min_size=1, max_size=4).map(" ".join)


@st.composite
def _block(draw: st.DrawFn) -> str:
    kind = draw(
        st.sampled_from(
            ["paragraph", "list", "heading", "table", "fence", "quote", "rule", "comment", "code"]
        )
    )
    if kind == "paragraph":
        lines = draw(st.lists(_paragraph, min_size=1, max_size=3))
        return "\n".join(lines)
    if kind == "list":
        items = draw(
            st.lists(
                st.tuples(
                    st.sampled_from(["- ", "* ", "1. ", "2) "]),
                    st.sampled_from(["", "  ", "    "]),
                    _paragraph,
                ),
                min_size=1,
                max_size=4,
            )
        )
        return "\n".join(f"{indent}{bullet}{text}" for bullet, indent, text in items)
    if kind == "heading":
        return "#" * draw(st.integers(1, 6)) + " " + draw(_sentence())
    if kind == "table":
        cells = st.lists(_sentence(), min_size=2, max_size=2)
        rows = draw(st.lists(cells, min_size=1, max_size=3))
        body = "\n".join(f"| {a} | {b} |" for a, b in rows)
        return f"| Name | Value [9] |\n|---|:---:|\n{body}"
    if kind == "fence":
        return "```python\nvalues = [1]  # not a marker. Not a sentence!\n```"
    if kind == "quote":
        return "\n".join("> " + line for line in draw(st.lists(_paragraph, min_size=1, max_size=2)))
    if kind == "rule":
        return "---"
    if kind == "comment":
        return "<!-- a comment -->"
    return "    indented = code[1]"


@st.composite
def _answer(draw: st.DrawFn) -> str:
    blocks = draw(st.lists(_block(), min_size=1, max_size=6))
    separators = draw(
        st.lists(
            st.sampled_from(["\n\n", "\n", "\r\n\r\n", "\n\n\n"]),
            min_size=len(blocks),
            max_size=len(blocks),
        )
    )
    text = "".join(b + sep for b, sep in zip(blocks, separators, strict=True))
    if draw(st.booleans()):
        text += "Sources:\n[1] https://example.com/one\n[2] https://example.com/two\n"
    return text


@given(_answer())
def test_segments_of_generated_markdown_keep_every_invariant(answer: str) -> None:
    segments = _segments(answer)
    for s in segments:
        if s.is_claim:
            assert "```" not in s.text
            assert s.clean_text


@given(
    st.text(alphabet=st.sampled_from(list("ab .!?;:,-*#|>`[]1^\n\r\t😀東。é\u0301")), max_size=200)
)
def test_arbitrary_text_keeps_the_offset_invariants(answer: str) -> None:
    _segments(answer)


def test_a_struck_through_sentence_is_no_claim_and_ends_where_it_is_closed() -> None:
    """``~~...~~`` is text the author took back (GFM): a wholly struck sentence is not checked,
    and its closing tildes, before or after its full stop, end it."""
    for answer in (
        "~~The tower is 300 m tall.~~ It opened in 1889 [1].",
        "~~The tower is 300 m tall~~. It opened in 1889 [1].",
    ):
        first, second = SEGMENTER.segment(answer)
        assert first.text.startswith("~~")
        assert first.text.endswith(("~~", "~~."))
        assert not first.is_claim
        assert (second.text, second.is_claim) == ("It opened in 1889 [1].", True)


def test_a_long_run_without_a_blank_is_given_to_the_tokenizer_in_pieces() -> None:
    # the tokenizer searched a whole token for each affix it peeled: "[." * 15,000 took 151 s
    from attribution.segment._sentences import _blanks_in_runs

    cuts = sorted(_blanks_in_runs("[." * 1000))
    assert cuts[0] == 64
    assert all(b - a == 64 for a, b in itertools.pairwise(cuts))
    # no sentence starts at such a blank; the sentences around a long run are as before
    run = "x" * 150
    texts = [s.text for s in _segments(f"It reads {run}. Then it stops.")]
    assert texts == [f"It reads {run}.", "Then it stops."]
    assert [s.text for s in _segments("[." * 200)] == ["[." * 200]


def test_a_group_of_markers_after_a_full_stop_cites_with_the_sentence_before_it() -> None:
    segments = _segments("Orion runs in Frankfurt. ([1]; [2]) It also serves Dublin.")
    assert [(s.clean_text, [m.text for m in s.markers]) for s in segments] == [
        ("Orion runs in Frankfurt.", ["[1]", "[2]"]),
        ("It also serves Dublin.", []),
    ]


def test_a_marker_that_is_the_next_sentences_subject_is_that_sentences() -> None:
    # after a full stop a marker cites the sentence before ("It is long. [1]"), unless it is the
    # subject of the next one
    def claims(text: str) -> list[tuple[str, list[str]]]:
        return [(c.text, [m.text for m in c.markers]) for c in _segments(text)]

    assert claims("It is long. [9] notes that it runs.") == [
        ("It is long.", []),
        ("[9] notes that it runs.", ["[9]"]),
    ]
    assert claims("It is long. [9] and [1] note that it runs.") == [
        ("It is long.", []),
        ("[9] and [1] note that it runs.", ["[9]", "[1]"]),
    ]
    assert claims("It is long. [1] It runs [2].") == [
        ("It is long. [1]", ["[1]"]),
        ("It runs [2].", ["[2]"]),
    ]
    # a subject that points back ("[2] says so.") and a citation before a subject stay
    assert claims("It is long. [2] says so.") == [("It is long. [2]", ["[2]"]), ("says so.", [])]
    assert claims("It is long.[1] [9] notes that it runs.")[0] == (
        "It is long.[1] [9]",
        ["[1]", "[9]"],
    )
