"""Hand-written hard cases: what a careful reader catches.

Run: ``.venv/bin/python -m benchmarks.hard_cases [--verifier NAME] [--config fast]
[--set wide|forms|answers]``. Each case is one claim
with its marker against one or two short sources, and the verdict a careful reader gives
(``supported`` or not). It prints the engine's verdict, support score and contradiction for
each, and the count right. These are examples of kinds of error (plans read as facts, a unit
written another way, a changed number, date or name, a negation, a claim half supported, two
sources needed together, a paraphrase), not a list to tune to: the aim is the harness's
figures, and these show why they move.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import msgspec

from attribution import (
    AttributionConfig,
    AttributionError,
    Attributor,
    CitationSource,
    read_config,
)

__all__ = ["CASES", "main"]


def _source(i: str, text: str) -> CitationSource:
    return CitationSource(id=i, type="web", full_content=text)


EIFFEL = _source(
    "eiffel",
    "The Eiffel Tower is a wrought-iron lattice tower in Paris. It is 330 metres tall and was "
    "completed in 1889.",
)
CASES: tuple[tuple[str, str, tuple[CitationSource, ...], bool], ...] = (
    (
        "plan read as a fact",
        "Orion already runs in Sydney [1].",
        (
            _source(
                "orion",
                "Orion runs in three regions: Frankfurt, Virginia and Tokyo. A fourth region, "
                "Sydney, is planned but has no date yet.",
            ),
        ),
        False,
    ),
    ("unit written another way", "The Eiffel Tower is 330 m tall [1].", (EIFFEL,), True),
    ("changed number", "The Eiffel Tower is 300 metres tall [1].", (EIFFEL,), False),
    ("changed date", "The Eiffel Tower was completed in 1887 [1].", (EIFFEL,), False),
    (
        "swapped name",
        "The Eiffel Tower was designed by Gustave Flaubert [1].",
        (
            _source(
                "design",
                "The tower was designed by the engineering company of Gustave Eiffel and "
                "completed in 1889.",
            ),
        ),
        False,
    ),
    (
        "negation",
        "The museum does not open on Mondays [1].",
        (
            _source(
                "museum",
                "The museum opens every day of the week, Mondays included, from 9 am to 6 pm.",
            ),
        ),
        False,
    ),
    (
        "half supported",
        "Rust 1.0 was released in May 2015 and is maintained by Google [1].",
        (
            _source(
                "rust",
                "Rust 1.0 was released in May 2015. The language is maintained by the Rust "
                "Foundation.",
            ),
        ),
        False,
    ),
    (
        "two sources together",
        "Marie Curie won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.",
        (
            _source(
                "physics",
                "Marie Curie shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri "
                "Becquerel.",
            ),
            _source(
                "chemistry",
                "In 1911 Marie Curie received the Nobel Prize in Chemistry for discovering "
                "radium and polonium.",
            ),
        ),
        True,
    ),
    (
        "paraphrase",
        "The company's revenue doubled over the year [1].",
        (
            _source(
                "sales", "Annual sales rose from $2 billion to $4 billion, the company reported."
            ),
        ),
        True,
    ),
)


def _wide(attributor: Attributor, cases: list[tuple[str, str, list[str], bool]]) -> int:
    """A wider set (:mod:`benchmarks.wide_cases`, :mod:`benchmarks.form_cases`): each case,
    then the count right per kind."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    print("| kind | claim | reader | engine | score | contradiction |")
    print("| --- | --- | --- | --- | ---: | ---: |")
    for kind, claim, texts, supported in cases:
        sources = [_source(f"s{i + 1}", text) for i, text in enumerate(texts)]
        claims = attributor.attribute(claim, sources).claims
        if not claims:
            raise SystemExit(f"the case {claim!r} gave no claim to check")
        # a claim the segmenter cut in two is supported only when every part is
        verdict = min(claims, key=lambda c: (c.verdict == "supported", c.score))
        ok = (all(c.verdict == "supported" for c in claims)) == supported
        total[kind] += 1
        right[kind] += ok
        contradiction = "–" if verdict.contradiction is None else f"{verdict.contradiction:.2f}"
        print(
            f"| {kind} | {claim} | {'supported' if supported else 'not supported'} | "
            f"{verdict.verdict}{'' if ok else ' ✗'} | {verdict.score:.2f} | {contradiction} |"
        )
    print("\n| kind | right | cases |\n| --- | ---: | ---: |")
    for kind in total:
        print(f"| {kind} | {right[kind]} | {total[kind]} |")
    print(f"\n{sum(right.values())} of {sum(total.values())} as a careful reader", file=sys.stderr)
    return 0


def _answers(
    attributor: Attributor,
    cases: list[tuple[str, str, tuple[str, ...], tuple[tuple[str, bool, str], ...]]],
) -> int:
    """Whole answers (:mod:`benchmarks.answer_cases`): each sentence the reader and the engine
    disagree on, then per part the sentences right, the supported ones the engine contradicts
    and the unsupported ones it calls supported."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    false_contradicted: Counter[str] = Counter()
    false_supported: Counter[str] = Counter()
    print("| part | topic | sentence | reader | engine | score | note |")
    print("| --- | --- | --- | --- | --- | ---: | --- |")
    for part, topic, passages, sentences in cases:
        answer = " ".join(sentence for sentence, _, _ in sentences)
        sources = [_source(str(i + 1), text) for i, text in enumerate(passages)]
        claims = attributor.attribute(answer, sources).claims
        start = 0
        for sentence, supported, note in sentences:
            begin = answer.index(sentence, start)
            start = begin + len(sentence)
            mine = [c for c in claims if begin <= c.start < start]
            if not mine:
                raise SystemExit(f"the sentence {sentence!r} gave no claim to check")
            # a sentence the segmenter cut in two is supported only when every part is
            verdict = min(mine, key=lambda c: (c.verdict == "supported", c.score))
            called = all(c.verdict == "supported" for c in mine)
            total[part] += 1
            right[part] += called == supported
            false_contradicted[part] += supported and verdict.verdict == "contradicted"
            false_supported[part] += called and not supported
            if called != supported:
                print(
                    f"| {part} | {topic} | {sentence} | "
                    f"{'supported' if supported else 'not supported'} | {verdict.verdict} | "
                    f"{verdict.score:.2f} | {note} |"
                )
    print(
        "\n| part | right | sentences | supported, contradicted | unsupported, supported |"
        "\n| --- | ---: | ---: | ---: | ---: |"
    )
    for part in total:
        print(
            f"| {part} | {right[part]} | {total[part]} | {false_contradicted[part]} | "
            f"{false_supported[part]} |"
        )
    print(f"\n{sum(right.values())} of {sum(total.values())} as a careful reader", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hard_cases", description=__doc__)
    parser.add_argument("--verifier", help="a cross-encoder alone (manifest name or path)")
    parser.add_argument(
        "--set",
        choices=("first", "wide", "forms", "answers"),
        default="first",
        help="first: the nine cases the tests run; wide: 79 more of the same kinds, written "
        "apart from the engine (benchmarks/wide_cases.py), with a count right per kind; forms: "
        "264 numbers, quantities and dates in other forms (benchmarks/form_cases.py); answers: "
        "whole answers with numbers and dates through the engine (benchmarks/answer_cases.py)",
    )
    parser.add_argument("--config", help="a preset name or a JSON AttributionConfig file")
    args = parser.parse_args(argv)
    try:
        config = read_config(args.config) if args.config else AttributionConfig()
    except AttributionError as exc:
        parser.error(f"--config {args.config}: {exc}")
    try:
        if args.verifier:
            config = msgspec.structs.replace(
                config, model=msgspec.structs.replace(config.model, verifier=args.verifier)
            )
        attributor = Attributor.from_config(config)
        name = attributor.verifier.name  # the models load here
    except AttributionError as exc:  # a bad preset, file or model: said in one line
        parser.error(str(exc))
    print(f"verifier: {name}")
    if args.set == "wide":
        from benchmarks.wide_cases import WIDE_CASES

        return _wide(
            attributor, [(kind, claim, texts, ok) for kind, claim, texts, ok, _ in WIDE_CASES]
        )
    if args.set == "forms":
        from benchmarks.form_cases import FORM_CASES

        cases = [
            (f"{part}: {kind}", claim, [text], ok) for part, kind, claim, text, ok in FORM_CASES
        ]
        return _wide(attributor, cases)
    if args.set == "answers":
        from benchmarks.answer_cases import ANSWER_CASES

        return _answers(attributor, ANSWER_CASES)
    right = 0
    print("| case | reader | engine | score | contradiction |")
    print("| --- | --- | --- | ---: | ---: |")
    for name, claim, sources, supported in CASES:
        result = attributor.attribute(claim, list(sources))
        verdict = result.claims[0]
        ok = (verdict.verdict == "supported") == supported
        right += ok
        contradiction = "–" if verdict.contradiction is None else f"{verdict.contradiction:.2f}"
        print(
            f"| {name} | {'supported' if supported else 'not supported'} | "
            f"{verdict.verdict}{'' if ok else ' ✗'} | {verdict.score:.2f} | {contradiction} |"
        )
    print(f"\n{right} of {len(CASES)} as a careful reader", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
