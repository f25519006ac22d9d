"""What a verifier is: it scores (claim, passage) pairs with P(support), P(contradiction)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import msgspec
import numpy as np

from attribution.text import (
    as_written_in,
    currency_conflict,
    date_conflict,
    name_conflict,
    negation_conflict,
    plan_conflict,
    planned_name_conflict,
    range_conflict,
    sign_conflict,
    state_conflict,
    time_conflict,
    value_conflict,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from attribution.match import LexicalIndex

__all__ = [
    "CONFLICT_CAP",
    "CONFLICT_CONTRADICTION",
    "Pair",
    "Verifier",
    "VerifierOutput",
    "model_input",
    "with_conflicts",
]


class Pair(msgspec.Struct, frozen=True, kw_only=True):
    """A claim and a passage to check it against."""

    claim: str
    """The claim (markers removed)."""
    passage: str
    """The passage, or two passages joined."""
    cosine: float | None = None
    """Embedding cosine of the two when the caller already has it."""


class VerifierOutput(msgspec.Struct, frozen=True, kw_only=True):
    """Scores of a batch of pairs, in the batch's order."""

    support: list[float]
    """P(the passage supports the claim) per pair."""
    contradiction: list[float] | None = None
    """P(the passage contradicts the claim) per pair, when the verifier can tell."""
    judge_support: list[float] | None = None
    """Where a model is one signal of several (a feature verifier with a cross-encoder): that
    model's own P(support) per pair; None otherwise (no model, or the model alone)."""
    judge_threshold: float | None = None
    """With ``judge_support``: that model's own calibrated support threshold (its manifest
    ``threshold``, else 0.5), which ``VerifyConfig.joined_needs_judge`` holds a joined pair to."""


@runtime_checkable
class Verifier(Protocol):
    """Scores (claim, passage) pairs."""

    @property
    def name(self) -> str:
        """Name reported in results (model name and version)."""
        ...

    @property
    def threshold(self) -> float:
        """Support score at or above which a claim counts as supported."""
        ...

    def score(
        self, pairs: Sequence[Pair], *, lexical: LexicalIndex | None = None
    ) -> VerifierOutput:
        """Score every pair.

        Args:
            pairs: the pairs.
            lexical: term statistics of the request's passages, for verifiers that weigh terms
                by rarity; built from the pairs' passages when None.
        """
        ...


def model_input(passage: str, claim: str) -> tuple[str, str]:
    """What a cross-encoder reads of a pair: the passage, and the claim with each quantity the
    passage states in another form written as the passage writes it (a small model reads "1.2
    million" against "1,200,000", or "1.82 km" against "1,820 metres", as a contradiction)."""
    return passage, as_written_in(claim, passage)


CONFLICT_CAP = 0.1
"""The most a pair scores whose claim states an amount the passage gives only in another
currency (:func:`attribution.text.currency_conflict`), a range the passage gives with one
end another (:func:`attribution.text.range_conflict`), a temperature it gives with the other
sign only (:func:`attribution.text.sign_conflict`), a time it gives only as the first part
of a longer one (:func:`attribution.text.time_conflict`), the claim word for word but for a
negation (:func:`attribution.text.negation_conflict`), the opposite of a state the claim
states (:func:`attribution.text.state_conflict`), another name where the claim has one in
the same words (:func:`attribution.text.name_conflict`), or another value of a measure or
another day after the same words (:func:`attribution.text.value_conflict`,
:func:`attribution.text.date_conflict`), or the claim's words with a plan, a forecast or a
hedge in their middle (:func:`attribution.text.plan_conflict`), or a name given as a plan only
where the passage states the claim's fact of other names
(:func:`attribution.text.planned_name_conflict`): below every threshold."""


CONFLICT_CONTRADICTION = 0.99
"""P(contradiction) of a pair whose passage states the claim's fact otherwise (another
currency, range end, sign, time, value, day or name, a negation, the opposite state): that
passage contradicts the claim, whatever a small judge says. A plan or a hedge in the claim's
words (:func:`attribution.text.plan_conflict`), or a name given as a plan only
(:func:`attribution.text.planned_name_conflict`), leaves it unsupported only: "has proposed a
ban" does not say that no ban was passed, nor "Sydney is planned" that it is not running yet."""


def with_conflicts(
    support: NDArray[Any],
    contradiction: Sequence[float] | NDArray[Any] | None,
    pairs: Sequence[Pair],
) -> tuple[NDArray[Any], list[float] | None]:
    """``support`` with each pair capped at :data:`CONFLICT_CAP` whose claim states an amount
    the passage gives only in another currency, a range the passage gives with one end
    another, a temperature it gives with the other sign only, a time it gives only as the first
    part of a longer one, the claim with a negation, the opposite of the claim's state,
    another name in the claim's name's words ("Microsoft acquired GitHub" for "Google acquired
    GitHub"), another value or day after the claim's words ("80% in 18 minutes" for "80% in 8
    minutes"), or the claim's words with a plan, a forecast or a hedge in their middle ("has
    proposed a ban" for "passed a ban"), or its name given only as a plan where the passage
    states its fact of other names ("runs in three regions: Frankfurt, Virginia and Tokyo. A
    fourth region, Sydney, is planned" for "runs in Sydney"): a small judge reads "€5 billion"
    and "$5 billion", "$5.1 to $5.5 billion" and "between $5.1 and $5.3 billion", "5 °C" and
    "-5 °C", or "runs 2 hours" and "runs 2 hours 10 minutes" as one (0.97-0.996), "paid a
    dividend" as "did not pay a dividend" (0.58), "enabled by default" as "disabled by default"
    (0.89), "Google acquired GitHub" as "Microsoft acquired GitHub" (0.77), "80% in 8 minutes"
    as "80% in 18 minutes" (0.87), "passed a ban" as "has proposed a ban" (0.92) and "runs in
    Sydney" against the planned region (0.77). On the development data no supported pair has
    such a conflict (docs/benchmarks.md).

    And ``contradiction`` (None where the verifier gives none) raised to
    :data:`CONFLICT_CONTRADICTION` for each such pair but a plan's or a hedge's: "Google
    acquired GitHub" against "Microsoft acquired GitHub" is contradicted, not only
    unsupported."""
    kinds = _conflicts(pairs)
    contra = None if contradiction is None else [float(v) for v in contradiction]
    if not any(kinds):
        return support, contra
    capped: NDArray[Any] = np.where(
        [kind is not None for kind in kinds], np.minimum(support, CONFLICT_CAP), support
    )
    if contra is not None:
        contra = [
            max(value, CONFLICT_CONTRADICTION) if kind == "contradicts" else value
            for value, kind in zip(contra, kinds, strict=True)
        ]
    return capped, contra


def _conflicts(pairs: Sequence[Pair]) -> list[str | None]:
    """Per pair: "contradicts" where the passage states the claim's fact otherwise,
    "unsupported" where it states it as a plan or a hedge only, None otherwise."""
    kinds: list[str | None] = []
    for p in pairs:
        if any(
            check(p.claim, p.passage)
            for check in (
                currency_conflict,
                range_conflict,
                sign_conflict,
                time_conflict,
                negation_conflict,
                state_conflict,
                name_conflict,
                value_conflict,
                date_conflict,
            )
        ):
            kinds.append("contradicts")
        elif plan_conflict(p.claim, p.passage) or planned_name_conflict(p.claim, p.passage):
            kinds.append("unsupported")
        else:
            kinds.append(None)
    return kinds
