"""Where a claim is judged: supported, partially supported, contradicted or unsupported."""

from __future__ import annotations

from collections.abc import Mapping

from attribution.decide._types import ClaimDecision, Support, Thresholds

__all__ = ["OUT_OF_REACH", "best_support", "decide_claim", "support_rank"]

OUT_OF_REACH = "out_of_reach"
"""The shortcut of a pair the verifier's model did not score: its cheap signals could not have
reached the threshold that mattered whatever the model said (VerifyConfig.skip_out_of_reach)."""


def support_rank(support: Support) -> tuple[bool, float]:
    """How supports compare: by score, but one the model scored before any out-of-reach one.

    An out-of-reach score is the cheap signals' estimate, not the judge's; the judge's score
    of that pair is only known to be below the threshold that mattered, and is usually far
    lower (its gates cap a pair it calls unsupported or contradicted at its P(support)). So an
    estimate must not hide a scored pair, nor the contradiction the judge found in it.
    """
    return support.shortcut != OUT_OF_REACH, support.score


def best_support(per_source: Mapping[int, Support]) -> tuple[int, Support] | None:
    """The source whose best passage supports the claim most, with that support (by
    :func:`support_rank`)."""
    if not per_source:
        return None
    source = max(per_source, key=lambda s: support_rank(per_source[s]))
    return source, per_source[source]


def decide_claim(
    per_source: Mapping[int, Support],
    pair: Support | None,
    thresholds: Thresholds,
    *,
    no_relevant_source: bool,
    contradicting: Support | None = None,
    pair_refused: bool = False,
) -> ClaimDecision:
    """The verdict on one claim from its best support per source and its best passage pair.

    - **supported**: one source's best passage reaches the support threshold; failing that,
      the two best passages joined do (a claim two sources support together) and score above
      the best single passage;
    - **contradicted**: not supported, and the best passage contradicts the claim (the
      contradiction cut) more than it supports it;
    - **partially supported**: the best score is within the partial margin of the threshold;
    - **contradicted** too: not even partly supported, and ``contradicting`` (the passage the
      judge says contradicts the claim most, at the joined veto's level) is given. The judge
      caps a contradicting pair near 0, so beside an unrelated passage it is rarely the best:
      "located in Berlin" against "located in Paris" and "Berlin is the capital of Germany";
    - **unsupported**: otherwise, with "no relevant source" when the relevance gates found none.

    A contradicted decision names the sources whose passage contradicts the claim
    (``ClaimDecision.contradicting``).

    ``shortcut`` says when no model pass decided: the best support came from the verbatim
    rule, no passage was scored at all (``no_candidates``), or no passage could have reached
    the partial threshold whatever the model said (``out_of_reach``, so none was sent to it).
    ``pair_refused``: the model read the best two passages joined and its gate did not count
    them (``pair`` is then None), so a model pass did decide.
    """
    best = best_support(per_source)
    score = best[1].score if best else 0.0
    contradiction = best[1].contradiction if best else None
    if best is not None and best[1].score >= thresholds.support:
        return ClaimDecision(
            verdict="supported",
            score=score,
            supporting=(best[0],),
            contradiction=contradiction,
            shortcut=best[1].shortcut,
        )
    if pair is not None and pair.score >= thresholds.support and pair.score > score:
        return ClaimDecision(
            verdict="supported",
            score=pair.score,
            supporting=pair.sources,
            contradiction=contradiction,
        )
    if (
        contradiction is not None
        and contradiction >= thresholds.contradiction
        and contradiction > score
    ):
        return ClaimDecision(
            verdict="contradicted",
            score=score,
            supporting=(),
            contradiction=contradiction,
            reason="the most relevant passage contradicts the claim",
            contradicting=(best[0],) if best else (),
        )
    if score >= thresholds.partial:
        return ClaimDecision(
            verdict="partially_supported",
            score=score,
            supporting=(),
            contradiction=contradiction,
            reason="the best source supports part of the claim",
        )
    if contradicting is not None and contradicting.contradiction is not None:
        return ClaimDecision(
            verdict="contradicted",
            score=score,
            supporting=(),
            contradiction=contradicting.contradiction,
            reason="a relevant passage contradicts the claim",
            contradicting=contradicting.sources,
        )
    return ClaimDecision(
        verdict="unsupported",
        score=score,
        supporting=(),
        contradiction=contradiction,
        reason=(
            "no relevant source"
            if no_relevant_source and not per_source
            else "no source supports the claim"
        ),
        shortcut=None if pair_refused else _unsupported_shortcut(per_source, pair),
    )


def _unsupported_shortcut(per_source: Mapping[int, Support], pair: Support | None) -> str | None:
    """The rule that found a claim unsupported without a model pass, if one did."""
    if not per_source and pair is None:
        return "no_candidates"
    scored = [*per_source.values(), *([pair] if pair is not None else [])]
    if all(s.shortcut == OUT_OF_REACH for s in scored):
        return OUT_OF_REACH
    return None
