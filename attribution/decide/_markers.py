"""Where a marker the answer wrote is judged: supported, wrong source, unknown number, ..."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

import msgspec

from attribution._result import MarkerCheck, MarkerVerdict
from attribution.decide._types import CheckedClaim, ClaimDecision, Numbering, Support
from attribution.segment import Segment
from attribution.text import Marker, content_terms

__all__ = [
    "CITATION_LABELS",
    "MarkerPart",
    "check_marker",
    "claims_to_check",
    "marker_parts",
    "parts_decision",
    "unchecked_unknown",
]

CITATION_LABELS = frozenset({"source", "see", "ref", "reference", "citation", "cite", "cf", "via"})
"""Words (as :func:`content_terms` gives them) that only introduce citations: "Sources: [1],
[2]", "See [3].", "Ref. [4]"."""


def _says_nothing(segment: Segment) -> bool:
    """Whether a segment holds nothing but its markers (and a word introducing them)."""
    return set(content_terms(segment.clean_text)) <= CITATION_LABELS


def claims_to_check(
    text: str,
    segments: Sequence[Segment],
    by_number: Mapping[int, int],
    *,
    foreign: Collection[tuple[int, int]] = (),
) -> list[CheckedClaim]:
    """The segments whose markers are checked, in order, with what their markers cite.

    Every claim, and every other segment that carries markers and says something (a heading,
    a sentence too short to be a claim: "Yes [1]."). A segment that says nothing but its markers
    is no claim of its own: in a table row, its markers cite the row's claim before it ("| The
    tower is 330 m tall | [1] |", a Source column; :attr:`CheckedClaim.lent_markers`; so do
    those of a cell in a column of sources, "| Wikipedia [1] |"), or, in a
    row without a claim, its last cell that says something ("| Height | 330 metres | [1] |"),
    which is then checked; the markers of a row's label ("| JWST [1] | 2021 |") are checked
    with the row's first claim cell after it and cite its later ones too (they get no marker
    added; the label alone is checked when the row has no claim); elsewhere ("Sources:
    [1], [2]" under the answer, "[1]" alone on a line, a trailing reference list's "[1] Title,
    https://...") they cite no one claim and are not checked (their unknown numbers are still
    reported: :func:`unchecked_unknown`).

    Args:
        text: the answer, or the part of it the segments' offsets index.
        segments: its segments, in order.
        by_number: the request's source index of each registered number.
        foreign: ``(marker start, number)`` of the numbers the answer's own key says cite a
            page outside the request (:func:`answer_key`): they cite none of its sources.
    """
    kept: list[int] = []
    lent: dict[int, list[Marker]] = {}
    row_claim: int | None = None  # the last claim cell of the table row being read
    row_said: int | None = None  # else its last cell that says something
    label: int | None = None  # the row's label cell with markers, until a claim cell takes them
    row_cites: tuple[Marker, ...] = ()  # the label's markers, once a claim cell took them
    also: dict[int, tuple[Marker, ...]] = {}  # later claim cells of that row: cited, not checked
    previous: Segment | None = None
    for k, s in enumerate(segments):
        same_row = (
            previous is not None
            and s.block == previous.block == "table_cell"
            and "\n" not in text[previous.end : s.start]
        )
        if not same_row:
            row_claim = row_said = None
            row_cites = ()
            if label is not None:
                kept.append(label)  # no claim in its row: the label is checked itself
                label = None
        previous = s
        if s.is_claim:
            kept.append(k)
            if s.block == "table_cell":
                row_claim = k
                if label is not None:
                    lent.setdefault(k, []).extend(segments[label].markers)
                    row_cites = segments[label].markers
                    label = None
                elif row_cites:
                    also[k] = row_cites
        elif s.markers and s.skip_reason == "table_label":
            label = k
        elif (
            s.markers
            and s.skip_reason not in ("reference_list", "table_citation")
            and not _says_nothing(s)
        ):
            kept.append(k)
        elif s.markers and s.skip_reason != "reference_list" and s.block == "table_cell":
            owner = row_claim if row_claim is not None else row_said
            if owner is not None:
                lent.setdefault(owner, []).extend(s.markers)
        elif s.block == "table_cell" and s.skip_reason != "table_header" and not _says_nothing(s):
            row_said = k
    if label is not None:
        kept.append(label)
    out: list[CheckedClaim] = []
    for k in sorted({*kept, *lent}):
        s = segments[k]
        markers = (*s.markers, *lent.get(k, ()))
        cited = (*markers, *also.get(k, ()))
        numbers = tuple(
            dict.fromkeys(n for m in cited for n in m.numbers if (m.start, n) not in foreign)
        )
        out.append(
            CheckedClaim(
                segment=s,
                cited_numbers=numbers,
                cited_sources=tuple(dict.fromkeys(by_number[n] for n in numbers if n in by_number)),
                lent_markers=tuple(lent.get(k, ())),
            )
        )
    return out


def check_marker(
    marker: Marker,
    number: int,
    *,
    claim_index: int,
    per_source: Mapping[int, Support],
    decision: ClaimDecision,
    threshold: float,
    numbering: Numbering,
    foreign: bool = False,
) -> MarkerCheck:
    """The verdict on one number of a marker attached to a claim.

    - **unknown_number**: the conversation has no source with that number, or the answer's
      own key says it cites a page that is none of the request's sources (``foreign``);
    - **unverifiable**: it has one, but the request did not bring its text (or brought the
      source without any);
    - **supported**: the cited source's best passage reaches the threshold, or the source is
      one of a pair that supports the claim together (with another source, or two of its own
      passages joined);
    - **wrong_source**: another source supports the claim (its number is suggested);
    - **unsupported**: no source supports it.
    """
    check = _check(marker, number, claim_index, "unsupported")
    if foreign or number not in numbering.known:
        return msgspec.structs.replace(check, verdict="unknown_number")
    source = numbering.index_of(number)
    if source is None or source in numbering.textless:
        return msgspec.structs.replace(check, verdict="unverifiable")
    own = per_source.get(source)
    supporting = decision.supporting
    score = own.score if own else 0.0
    if source in supporting:  # one of a pair that supports the claim together: the pair's
        score = max(score, decision.score)
    check = msgspec.structs.replace(
        check, score=round(score, 6), source_id=numbering.source_ids[source]
    )
    if (own is not None and own.score >= threshold) or source in supporting:
        return msgspec.structs.replace(check, verdict="supported")
    other = next((s for s in supporting if s != source), None)
    if other is not None:
        return msgspec.structs.replace(
            check,
            verdict="wrong_source",
            suggested=numbering.numbers[other],
            suggested_source_id=numbering.source_ids[other],
        )
    return check


def _check(
    marker: Marker, number: int, claim_index: int | None, verdict: MarkerVerdict
) -> MarkerCheck:
    return MarkerCheck(
        start=marker.start,
        end=marker.end,
        marker=marker.text,
        number=number,
        claim_index=claim_index,
        verdict=verdict,
    )


def unchecked_unknown(
    markers: Sequence[Marker],
    claims: Sequence[CheckedClaim],
    known: frozenset[int],
    *,
    foreign: Collection[tuple[int, int]] = (),
) -> list[MarkerCheck]:
    """The unknown numbers of the markers no claim checks ("Sources: [1], [9]", the Source
    cell of a row without a claim): reported (``unknown_number``, no claim) since they are
    dropped from the answer like any unknown number (``foreign`` ones too: see
    :func:`claims_to_check`)."""
    checked = {(m.start, m.end) for c in claims for m in (*c.segment.markers, *c.lent_markers)}
    return [
        _check(m, n, None, "unknown_number")
        for m in markers
        if (m.start, m.end) not in checked
        for n in m.numbers
        if n not in known or (m.start, n) in foreign
    ]


class MarkerPart(msgspec.Struct, frozen=True):
    """The part of a claim a marker inside it closes, read as a claim of its own: "Rust 1.0
    came out in 2015 [2], while Go was announced in 2009 [3]." is "Rust 1.0 came out in 2015"
    for [2] and "Go was announced in 2009" for [3]."""

    claim_index: int
    """The claim it is part of."""
    claim: CheckedClaim
    """The part: its segment spans it in the answer (its markers those it ends with), its
    ``read_as`` is its words alone."""


_GAP_IN_GROUP = re.compile(r"[\s,;&]*(?:(?:and|or)\b[\s,;&]*)?", re.IGNORECASE)
"""What may stand between two markers of one group: "[1][2]", "[1], [2]", "[1] and [2]"."""
_JOIN = re.compile(
    r"[ \t]*(?:[,;][ \t]*(?:(?:and|but|while|whereas|whilst|yet|et|mais|und|aber|y|pero)"
    r"[ \t]+)?|(?:and|but|while|whereas|whilst|et|und|y)[ \t]+)"
)
"""What joins a part to the one before it: a comma or a semicolon, a conjunction, or both
(in lower case: "Y Combinator" opens no part with "y")."""
_SUBJECT = re.compile(
    r"(?:(?:the|a|an|le|la|les|un|une|der|die|das|den|dem|ein|eine|el|los|las|lo|gli)"
    r"[ \t]+|l['’])?(?:[*_]{0,2})[A-Z0-9À-ÖØ-Þ]",
)
"""How a part after the first opens: with a name or a number, or a determiner and one ("Go was
announced ...", "the 11.6 km tunnel has linked ...", "the Nobel Prize in Chemistry ..."); not
with a pronoun, a verb, an adverb or a common noun that points back ("and later won ...",
"which built ...", "but can cause ...", "and the language was first released ...", "and the
same year ...": read alone, any source of the kind supports them)."""
_NOT_SUBJECT = re.compile(
    r"(?:It|He|She|They|We|You|I|This|That|These|Those|Which|Who|Its|His|Her|Their|There)\b"
)
_NOT_A_STATEMENT = re.compile(
    r"[ \t*_]*(?:as|according|if|when|whenever|unless|although|though|because|since|while"
    r"|whereas|once|after|before|until|following|per|citing|in[ \t]+a|in[ \t]+the|despite"
    r"|compared|unlike|like|with|without|during|given|born"
    r"|[a-z]+(?:ed|ing)[ \t]+(?:in|on|at|by|with|from|for|to|of|as|after|before|during|under"
    r"|over|the|a|an|\d))\b",
    re.IGNORECASE,
)
"""How a first part opens that states nothing of its own: a source phrase ("As the Harvard
team reported in 2019 [1], ..."), a condition or a time clause, a study named ("In a 2019
study [1], ..."), a participle or a comparison without its subject ("Born in Ulm in 1879 [1],
...", "Compared with the Louvre [1], ..."; a participle before a preposition, a determiner or
a number: "Founded in 1994 [1], ...", not "Beijing hosted ...")."""
_NOT_PLAIN = re.compile(r"[()\[\]<>~`\"“”„«»|—]|https?:|www\.")
"""What the segmenter's reading of a sentence takes care of (brackets, links, struck text,
quotes, comments): a part cut from such a sentence would read it raw."""
_EMPHASIS = re.compile(r"\*\*|__|(?<![\w*])\*(?=\w)|(?<=\w)\*(?![\w*])")
_MIN_PART_WORDS = 4
"""The fewest words a part has: "X [1] and [2]" or "in 2021 [1], and so on [2]" has none."""


def marker_parts(
    text: str,
    claims: Sequence[CheckedClaim],
    by_number: Mapping[int, int],
    *,
    foreign: Collection[tuple[int, int]] = (),
) -> list[MarkerPart]:
    """The parts of the claims whose writer cited them clause by clause: a claim with a group
    of markers inside it (more words follow it) is cut after each group, each part read with
    the markers that close it ("Chamonix hosted the first Winter Olympics in 1924 [1], and the
    tunnel has linked it to Courmayeur since 1965 [1]."). Only where each part states
    something alone: at least :data:`_MIN_PART_WORDS` words; the first not a source phrase or
    a condition (:data:`_NOT_A_STATEMENT`); each later one joined by a comma, a semicolon or a
    conjunction and opening with its own subject (:data:`_SUBJECT`); the last closing the
    sentence with its markers; the sentence plain text (no brackets, links, quotes, struck
    text: :data:`_NOT_PLAIN`); not a table cell (its row and header are part of what it
    says). Elsewhere the claim has no parts, and its markers are judged by the whole."""
    out: list[MarkerPart] = []
    for i, claim in enumerate(claims):
        segment = claim.segment
        markers = sorted(segment.markers, key=lambda m: m.start)
        if len(markers) < 2 or claim.lent_markers or segment.block == "table_cell":
            continue
        groups: list[list[Marker]] = []
        for m in markers:
            if groups and _GAP_IN_GROUP.fullmatch(text, groups[-1][-1].end, m.start):
                groups[-1].append(m)
            else:
                groups.append([m])
        if len(groups) < 2 or _NOT_A_STATEMENT.match(text, segment.start):
            continue
        # the last group must close the claim: nothing but punctuation and blanks after it
        if text[groups[-1][-1].end : segment.end].strip(" \t\n.!?;:*_"):
            continue
        if _NOT_PLAIN.search(_part_words(text, segment.start, segment.end, markers)):
            continue
        bounds = [segment.start, *(g[-1].end for g in groups[:-1]), segment.end]
        parts: list[MarkerPart] = []
        for k, group in enumerate(groups):
            a, b = bounds[k], bounds[k + 1]
            opens = a
            if k:
                join = _JOIN.match(text, a)
                if join is None:
                    break
                opens = join.end()
                subject = (
                    opens + len(text[opens : opens + 4]) - len(text[opens : opens + 4].lstrip("*_"))
                )
                if not _SUBJECT.match(text, subject) or _NOT_SUBJECT.match(text, subject):
                    break  # ("**Nietzsche** sees it ...": the subject in emphasis)
            words = _part_words(text, opens, group[0].start, segment.markers)
            if len(words.split()) < _MIN_PART_WORDS:
                break
            numbers = tuple(
                dict.fromkeys(n for m in group for n in m.numbers if (m.start, n) not in foreign)
            )
            part = msgspec.structs.replace(
                segment, start=a, end=b, text=text[a:b], clean_text=words, markers=tuple(group)
            )
            cited = tuple(dict.fromkeys(by_number[n] for n in numbers if n in by_number))
            parts.append(MarkerPart(i, CheckedClaim(part, numbers, cited)))
        else:
            out += parts
    return out


def _part_words(text: str, start: int, end: int, markers: Sequence[Marker]) -> str:
    """The words of ``text[start:end]`` without markers and emphasis, as a sentence."""
    pieces: list[str] = []
    cursor = start
    for m in sorted(markers, key=lambda m: m.start):
        if start <= m.start < end:
            pieces.append(text[cursor : m.start])
            cursor = m.end
    pieces.append(text[cursor:end])
    words = " ".join(_EMPHASIS.sub("", "".join(pieces)).split()).strip(" ,;:")
    if not words:
        return ""
    return words[0].upper() + words[1:] + ("" if words[-1] in ".!?" else ".")


def parts_decision(decision: ClaimDecision, parts: Sequence[ClaimDecision]) -> ClaimDecision:
    """A claim's verdict once its parts are read: supported where each part is supported by
    what cites it (or another source) though the claim read whole was unsupported or partly
    supported (a small judge reads two facts in one sentence worse than each alone), at the
    least of the parts' scores; else the claim's own (a contradicted claim stays so)."""
    if not parts or decision.verdict in ("supported", "contradicted"):
        return decision  # a passage that contradicts the whole is not outvoted by the parts
    if any(p.verdict != "supported" for p in parts):
        return decision
    return ClaimDecision(
        verdict="supported",
        score=min(p.score for p in parts),
        supporting=tuple(dict.fromkeys(s for p in parts for s in p.supporting)),
        reason="each part supported",
    )
