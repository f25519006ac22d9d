"""Evidence quotes: the sentences of a source that carry a claim's support, with offsets."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from attribution._result import EvidenceQuote
from attribution._wire import CitationSource
from attribution.decide import CheckedClaim, Numbering, Support
from attribution.match import LexicalIndex, Passage, cut_long, source_text
from attribution.text import as_written_in, content_terms, may_begin_number

if TYPE_CHECKING:
    from attribution.verify import SentenceJudge

__all__ = ["best_sentences", "clear_quote_cache", "evidence_quotes"]

_WORD = re.compile(r"\S+")
_WORDS = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def _words(text: str) -> int:
    """Words of a sentence, a CJK character counting as one (CJK runs have no blanks)."""
    return len(_WORDS.findall(text)) + len(_CJK.findall(text))


MIN_QUOTE_WORDS = 5
"""A sentence of fewer words is a fragment (a heading, a title or a label run into the page
text: "Kobo Clara BW.", "Paracetamol for adults"): it is quoted only when no longer sentence
holds a word of the claim (3 until a new user's trial found such titles quoted, first or
beside the sentence that carries the claim)."""


PRIMARY_BONUS = 0.0
"""Added to a sentence's coverage when it lies in the passage the verifier scored best (the
judge's choice breaking near-ties). 0: on WiCE's validation claims a bonus of 0.1 cost recall
(docs/benchmarks.md, evidence quotes); kept as the place where a stronger judge's preference
goes."""


def best_sentences(
    passages: Sequence[Passage],
    claim: str,
    lexical: LexicalIndex,
    limit: int,
    *,
    primary: int = 1,
    max_chars: int | None = None,
    judge: SentenceJudge | None = None,
    judge_weight: float = 0.0,
    judge_sentences: int = 4,
) -> list[tuple[int, int]]:
    """The sentence spans that carry a claim best, best first.

    ``passages`` are one source's passages for the claim: first the ``primary`` one (or ones)
    the verifier scored best, then the source's other passages. Every sentence of them is a
    candidate (a sentence longer than ``max_chars`` is cut at spaces into pieces that are
    candidates instead: run-on text without full stops would otherwise be quoted whole); the
    one with the highest IDF-weighted coverage of the claim's terms (plus
    :data:`PRIMARY_BONUS` inside the verifier's passage) is taken first, further
    sentences (up to ``limit``) only when they add claim terms the quote lacks.

    With a ``judge`` and a ``judge_weight`` above 0, the first sentence is chosen among the
    ``judge_sentences`` best by coverage, by coverage plus ``judge_weight`` times the judge's
    score: the judge reorders near-ties and the terms decide where it is unsure. Only
    sentences within ``judge_weight`` of the best coverage can win, so only they are read
    (none when one sentence leads clearly).
    """
    spans: dict[tuple[int, int], bool] = {}
    texts: dict[tuple[int, int], str] = {}
    # a piece of a sentence cut for length -> that whole sentence's span and text
    cut: dict[tuple[int, int], tuple[int, str]] = {}
    for k, passage in enumerate(passages):
        for sentence in passage.sentences:
            pieces = (
                [sentence]
                if max_chars is None or sentence[1] - sentence[0] <= max_chars
                else [
                    (a + passage.start, b + passage.start)
                    for a, b in cut_long(
                        passage.text,
                        (sentence[0] - passage.start, sentence[1] - passage.start),
                        max_chars,
                    )
                ]
            )
            for a, b in pieces:
                spans[(a, b)] = spans.get((a, b), False) or k < primary
                texts[(a, b)] = passage.text[a - passage.start : b - passage.start]
                if len(pieces) > 1:
                    whole = passage.text[sentence[0] - passage.start : sentence[1] - passage.start]
                    cut[(a, b)] = (sentence[0], whole)
    if not spans:
        return []
    terms = content_terms(claim)
    order = sorted(spans)
    if not terms:
        return [next(span for span in order if spans[span])]
    sentence_terms = {span: _terms_of(texts[span]) for span in order}
    coverage = _Coverage(terms, lexical)
    # the claim as the verifier's passages write its quantities and dates ("4,000 mg" where a
    # passage writes "4g"; the judge read them so), its terms and their coverage: a sentence of
    # such a passage is read against that version (the source's other passages: the claim)
    versions: dict[str, tuple[list[str], _Coverage]] = {claim: (terms, coverage)}
    read_as: dict[tuple[int, int], tuple[list[str], _Coverage]] = {}
    for passage in passages[:primary]:
        written = as_written_in(claim, passage.text)
        if written == claim:
            continue
        if written not in versions:
            written_terms = content_terms(written)
            versions[written] = (written_terms, _Coverage(written_terms, lexical))
        inside = range(passage.start, passage.start + len(passage.text) + 1)
        for sentence in spans:
            if sentence not in read_as and sentence[0] in inside and sentence[1] in inside:
                read_as[sentence] = versions[written]
    chosen: list[tuple[int, int]] = []
    covered: set[str] = set()
    # a fragment ("Support", "USD", a heading run into the page) says nothing of the claim:
    # quoted only when no sentence holds a claim term
    fragments = {span for span in order if _words(texts[span]) < MIN_QUOTE_WORDS}
    wanted = {t for version, _ in versions.values() for t in version}
    if any(span not in fragments and sentence_terms[span] & wanted for span in order):
        order = [span for span in order if span not in fragments]
    for pick in range(limit):
        best: tuple[int, int] | None = None
        gain = 0.0
        values: dict[tuple[int, int], float] = {}
        for span in order:
            if span in chosen:
                continue
            mine, share = read_as.get(span, (terms, coverage))
            new = frozenset(t for t in mine if t in sentence_terms[span] and t not in covered)
            if not new:
                continue
            value = share(new) + (PRIMARY_BONUS if spans[span] else 0.0)
            values[span] = value
            if value > gain:
                best, gain = span, value
        if best is None:
            break
        if pick == 0 and judge is not None and judge_weight > 0.0:
            best = _judged(claim, values, gain, texts, judge, judge_weight, judge_sentences)
        chosen.append(best)
        covered.update(
            t for t in read_as.get(best, (terms, coverage))[0] if t in sentence_terms[best]
        )
    if not chosen:
        chosen = [next((span for span in order if spans[span]), order[0])]
    if cut:
        # two pieces of one sentence can come to the same run: it is quoted once
        chosen = list(
            dict.fromkeys(
                _recentred(span, *cut[span], coverage, max_chars) if span in cut else span
                for span in chosen
            )
        )
    return chosen


@lru_cache(maxsize=16_384)
def _terms_of(text: str) -> frozenset[str]:
    """A sentence's content terms; cached: the claims of an answer that quote one source read
    its sentences again, and a later request over the same sources too (a few MB at most)."""
    return frozenset(content_terms(text))


def clear_quote_cache() -> None:
    """Forget the cached terms of quoted sentences."""
    _terms_of.cache_clear()


class _Coverage:
    """:meth:`LexicalIndex.coverage` of one claim's terms, their IDF weights looked up once and
    summed exactly (the same terms give the same value in any order)."""

    def __init__(self, terms: Sequence[str], lexical: LexicalIndex) -> None:
        self.weight = {t: lexical.idf(t) for t in set(terms)}
        self.total = math.fsum(self.weight.values())

    def __call__(self, found: Iterable[str]) -> float:
        """The IDF-weighted share of the claim's terms among ``found``."""
        if not self.total:
            return 0.0
        return math.fsum(self.weight[t] for t in set(found) if t in self.weight) / self.total


def _recentred(
    piece: tuple[int, int],
    at: int,
    sentence: str,
    coverage: _Coverage,
    max_chars: int | None,
) -> tuple[int, int]:
    """A piece of a sentence cut for length, quoted where its sense is rather than where the
    cut fell: among the runs of the sentence's words from one that holds a claim term to
    another, at most ``max_chars`` long and overlapping ``piece``, the one of the highest
    coverage of the claim's terms (the shortest, then the earliest, of equals), from the
    capitalised word without content up to three words before it, if any ("The Eiffel Tower
    ..."); the piece itself where that run is shorter than :data:`MIN_QUOTE_WORDS` words.
    ``at`` is the sentence's offset; ``coverage`` is the claim's."""
    wanted = set(coverage.weight)
    limit = max_chars if max_chars is not None else len(sentence)
    # a run overlapping the piece lies within ``limit`` of it: only those words are read
    low, high = piece[0] - at - limit, piece[1] - at + limit
    words = [m for m in _WORD.finditer(sentence) if m.start() >= low and m.end() <= high]
    known: dict[str, set[str]] = {}
    held = []
    for m in words:
        word = m.group()
        if word not in known:
            known[word] = wanted.intersection(content_terms(word))
        held.append(known[word])
    # what two words say together and neither alone ("330 m": metre, "two hundred": 200) is
    # held by the second, and a run that starts there starts a word earlier; only a number
    # or a number word can begin such a pair
    joined = [False] * len(words)
    for k in range(1, len(words)):
        if not may_begin_number(words[k - 1].group()):
            continue
        pair = content_terms(f"{words[k - 1].group()} {words[k].group()}")
        extra = wanted.intersection(pair) - held[k - 1] - held[k]
        if extra:
            held[k] = held[k] | extra
            joined[k] = True
    hits = [k for k, found in enumerate(held) if found]
    best: tuple[float, int, int, int] | None = None
    for x, hit in enumerate(hits):
        first = hit - 1 if joined[hit] else hit
        found: set[str] = set()
        value = 0.0
        for last in hits[x:]:
            if words[last].end() - words[first].start() > limit:
                break
            if not held[last] <= found:
                found |= held[last]
                value = coverage(found)
            if at + words[last].end() <= piece[0] or at + words[first].start() >= piece[1]:
                continue
            width = words[last].end() - words[first].start()
            if best is None or (value, -width) > best[:2]:
                best = (value, -width, first, last)
    if best is None:
        return piece
    _, _, first, last = best
    # the words without content right before it belong to it when they start with a capital
    # ("The Eiffel Tower"); "by" after "Posted" is the end of something else
    start = first
    for back in range(first - 1, max(first - 4, -1), -1):
        word = words[back].group()
        if content_terms(word) or words[last].end() - words[back].start() > limit:
            break
        if word[:1].isupper():
            start = back
    if last - start + 1 < MIN_QUOTE_WORDS:
        return piece  # a word or two ("landed") is no quote: the piece reads as text
    run = (at + words[start].start(), at + words[last].end())
    # never a quote that carries less of the claim than the piece it stands for
    piece_text = sentence[piece[0] - at : piece[1] - at]
    run_text = sentence[run[0] - at : run[1] - at]
    if coverage(content_terms(run_text)) < coverage(content_terms(piece_text)):
        return piece
    return run


def _judged(
    claim: str,
    values: Mapping[tuple[int, int], float],
    best_value: float,
    texts: Mapping[tuple[int, int], str],
    judge: SentenceJudge,
    weight: float,
    limit: int,
) -> tuple[int, int]:
    """The span of best coverage plus ``weight`` times the judge's score. Only a span within
    ``weight`` of the best coverage can win, so only those (at most ``limit``) are read: a clear
    winner costs no model pass. Ties go to the earlier span."""
    shortlist = sorted(
        (span for span in values if values[span] > best_value - weight),
        key=lambda span: (-values[span], span),
    )[:limit]
    if len(shortlist) == 1:
        return shortlist[0]
    scores = judge(claim, [texts[span] for span in shortlist])
    total = {
        span: values[span] + weight * score for span, score in zip(shortlist, scores, strict=True)
    }
    return max(shortlist, key=lambda span: (total[span], -span[0], -span[1]))


def evidence_quotes(
    claim: CheckedClaim,
    source_indices: Sequence[int],
    per_source: Mapping[int, Support],
    pair: Support | None,
    *,
    candidates: Mapping[int, Sequence[int]],
    lexical: LexicalIndex,
    passages: Sequence[Passage],
    sources: Sequence[CitationSource],
    numbering: Numbering,
    sentences: int,
    max_chars: int | None = None,
    judge: SentenceJudge | None = None,
    judge_weight: float = 0.0,
    judge_sentences: int = 4,
) -> tuple[EvidenceQuote, ...]:
    """Quotes from each source in ``source_indices``: the sentences that carry the claim, best
    first, among its best passage (or its part of the supporting pair) and the source's other
    passages (``candidates``: source index → passage ids), as offsets into the source's text;
    a sentence longer than ``max_chars`` is quoted by its best pieces, and a ``judge`` reorders
    the best few first sentences (:func:`best_sentences`)."""
    quotes: list[EvidenceQuote] = []
    for s in source_indices:
        support = per_source.get(s)
        if support is not None:
            primary = support.passages
            score = support.score
        elif pair is not None:
            primary = tuple(p for p in pair.passages if passages[p].source_index == s)
            score = pair.score
        else:
            continue
        pool = [passages[p] for p in dict.fromkeys((*primary, *candidates.get(s, ())))]
        text, field = source_text(sources[s])
        chosen = best_sentences(
            pool,
            claim.segment.read_as,
            lexical,
            sentences,
            primary=len(primary),
            max_chars=max_chars,
            judge=judge,
            judge_weight=judge_weight,
            judge_sentences=judge_sentences,
        )
        for a, b in chosen:
            quotes.append(
                EvidenceQuote(
                    source_id=sources[s].id,
                    number=numbering.numbers[s],
                    field=field,
                    start=a,
                    end=b,
                    text=text[a:b],
                    score=round(score, 6),
                )
            )
    return tuple(quotes)
