"""Marker checking on ExpertQA with the markers written in the forms other tools write.

Run: ``.venv/bin/python -m benchmarks.citation_forms [--data-root DIR] [--limit N]
[--forms bracket,link,...]``. The harness's marker task (``benchmarks/harness/_markers_task``)
reads ExpertQA's answers with their own ``[n]`` markers. Real answers cite in other forms too:
search-grounded models with links, ChatGPT's copied answers with reference-style links, others
with the source's name. Here each answer of the validation split is written again with every
marker in one form, the sources and the expert labels unchanged, and the engine's marker
verdicts are scored against the experts' as the harness scores them: a form the engine reads
as well as ``[n]`` scores as ``[n]`` does; a form it does not read loses its markers (counted
under ``unread``: markers the experts labelled that the engine did not check).

Forms (``n`` is the source's number, ``url`` its address, ``title`` its title):

- ``bracket``: ``[n]`` as written (the harness's own form).
- ``link``: ``([host](url))``, several as ``([a](url), [b](url))``.
- ``numbered-link``: ``[[n]](url)``.
- ``reference-link``: ``([host][n])`` with ``[n]: url "title"`` under the answer.
- ``named``: ``(Source: title)``, several as ``(Sources: a; b)``.
- ``doc``: ``[docn]``, as Azure OpenAI on your data writes it (several: ``[doc1][doc2]``).
- ``source-number``: ``[Source n]``, several as ``[Source 1, 2]``, as RAG prompts name their
  sources.

Each source gets an address of its own (``https://source-n.example.org/...``) and the title
``Evidence page n of <answer>``: ExpertQA cites pages by number only, and two numbers can
quote two passages of one page.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from attribution import (
    AttributionConfig,
    AttributionError,
    Attributor,
    CitationRegistry,
    CitationSource,
    RegistryEntry,
    SourceDisplay,
)
from attribution.sources import canonical_url, source_key
from attribution.text import find_markers
from benchmarks.datasets import ExpertQAAnswer, default_data_root, load_expertqa
from benchmarks.harness._context import HarnessContext
from benchmarks.harness._markers_task import (
    ENGINE_NOT_SUPPORTED,
    expertqa_sources,
    is_checked_system,
)
from benchmarks.harness._metrics import balanced_accuracy

__all__ = ["FORMS", "main", "moved", "rewrite"]

FORMS = ("bracket", "link", "numbered-link", "reference-link", "named", "doc", "source-number")


def _url(answer: ExpertQAAnswer, n: int) -> str:
    return f"https://source-{n}.example.org/{answer.example_id}"


def _title(answer: ExpertQAAnswer, n: int) -> str:
    return f"Evidence page {n} of {answer.example_id}"


def rewrite(
    answer: ExpertQAAnswer, numbers: Sequence[int], form: str
) -> tuple[str, list[tuple[int, int, int]]]:
    """The answer with every marker whose numbers all have a source written in ``form``, and
    the edits made, ``(old start, old end, new length)``."""
    text = answer.answer_text
    known = set(numbers)
    pieces: list[str] = []
    edits: list[tuple[int, int, int]] = []
    cursor = 0
    for m in find_markers(text):
        if form == "bracket" or not m.numbers or not set(m.numbers) <= known:
            continue
        ns = m.numbers
        if form == "link":
            new = "(" + ", ".join(f"[source-{n}.example.org]({_url(answer, n)})" for n in ns) + ")"
        elif form == "numbered-link":
            new = "".join(f"[[{n}]]({_url(answer, n)})" for n in ns)
        elif form == "reference-link":
            new = "(" + ", ".join(f"[source-{n}.example.org][{n}]" for n in ns) + ")"
        elif form == "doc":
            new = "".join(f"[doc{n}]" for n in ns)
        elif form == "source-number":
            new = f"[Source {', '.join(str(n) for n in ns)}]"
        elif form == "named":
            lead = "Source" if len(ns) == 1 else "Sources"
            new = f"({lead}: " + "; ".join(_title(answer, n) for n in ns) + ")"
        else:
            raise ValueError(f"unknown form {form!r}; the forms are {', '.join(FORMS)}")
        pieces.append(text[cursor : m.start])
        pieces.append(new)
        edits.append((m.start, m.end, len(new)))
        cursor = m.end
    pieces.append(text[cursor:])
    out = "".join(pieces)
    if form == "reference-link" and edits:
        out += "\n\n" + "\n".join(
            f'[{n}]: {_url(answer, n)} "{_title(answer, n)}"' for n in numbers
        )
    return out, edits


def moved(offset: int, edits: Sequence[tuple[int, int, int]]) -> int:
    """Where an offset of the old text outside every edit is in the new text."""
    return offset + sum(new - (b - a) for a, b, new in edits if b <= offset)


def _score(attributor: Attributor, answers: list[ExpertQAAnswer], form: str) -> dict[str, object]:
    labels: list[bool] = []
    predicted: list[bool] = []
    verdicts: Counter[str] = Counter()
    unread = 0
    for answer in answers:
        numbered = expertqa_sources(answer)
        if not numbered.sources:
            continue
        sources = [
            CitationSource(
                id=s.id,
                type="web",
                uri=_url(answer, n),
                title=_title(answer, n),
                full_content=s.full_content,
            )
            for n, s in zip(numbered.numbers, numbered.sources, strict=True)
        ]
        # "[n]" is the source quoted under [n], whatever the gaps between numbers
        registry = CitationRegistry(
            [
                RegistryEntry(
                    number=n,
                    source_key=source_key(s),
                    source_type="web",
                    locator=(canonical_url(_url(answer, n)),),
                    display=SourceDisplay(title=s.title, uri=s.uri),
                )
                for n, s in zip(numbered.numbers, sources, strict=True)
            ]
        )
        text, edits = rewrite(answer, numbered.numbers, form)
        claims = [
            (moved(c.start, edits), moved(c.end, edits), c.label)
            for c in answer.claims
            if c.start is not None
            and c.end is not None
            and c.markers
            and c.text.strip()
            and c.label is not None
        ]
        # the markers the experts labelled: those of the original answer inside a labelled claim
        expected = sum(
            1
            for m in find_markers(answer.answer_text)
            if set(m.numbers) <= set(numbered.numbers)
            and any(
                c.start is not None
                and c.end is not None
                and c.label is not None
                and c.start <= m.start < c.end
                for c in answer.claims
            )
        )
        try:
            result = attributor.attribute(text, sources, registry)
        except (AttributionError, ValueError):
            continue
        # one example per marker and number, as the harness counts them
        seen = 0
        counted: set[int] = set()
        for check in result.markers:
            owner = next((c for c in claims if c[0] <= check.start < c[1]), None)
            if owner is None or check.verdict not in ("supported", *ENGINE_NOT_SUPPORTED):
                continue
            labels.append(owner[2])
            predicted.append(check.verdict == "supported")
            verdicts[check.verdict] += 1
            if check.start not in counted:
                counted.add(check.start)
                seen += 1
        unread += max(0, expected - seen)
    return {
        "n": len(labels),
        "balanced_accuracy": round(balanced_accuracy(predicted, labels), 4) if labels else None,
        "verdicts": dict(sorted(verdicts.items())),
        "unread_markers": unread,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.citation_forms")
    parser.add_argument("--data-root", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=None, help="answers at most")
    parser.add_argument("--forms", default=",".join(FORMS))
    args = parser.parse_args(argv)
    root = args.data_root or default_data_root()
    loaded = load_expertqa(root)
    if loaded.status == "missing":
        print(f"ExpertQA is missing under {root}", file=sys.stderr)
        return 1
    attributor = Attributor.from_config(AttributionConfig())
    ctx = HarnessContext(attributor=attributor, data_root=root, limit=args.limit)
    answers = ctx.take([a for a in loaded.records if is_checked_system(a.system)])
    report = {"answers": len(answers)}
    for form in args.forms.split(","):
        report[form] = _score(attributor, answers, form)
        print(form, json.dumps(report[form]), flush=True)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
