r"""Verify: how strongly a passage supports (or contradicts) a claim.

- :class:`Verifier` (``_protocol``): scores (claim, passage) :class:`Pair`\ s.
- :class:`FeatureVerifier` (``_feature_verifier``): a logistic model over cheap signals
  (``_features``), optionally combined with a cross-encoder's two probabilities.
- :class:`NliVerifier` (``_nli_verifier``): a cross-encoder alone.
- :func:`load_verifier` (``_loading``): the verifier a :class:`ModelConfig` names.
- :func:`sentence_judge` (``_judge``): the cross-encoder's reading of single sentences, which
  helps choose evidence quotes.
- :func:`judge_pairs` (``_windows``): what the cross-encoder reads of a pair (the claim with
  the passage's form of its quantities; a passage it does not read as support, read again by
  its sentence that holds most of the claim).
- :func:`verbatim_in` (``_verbatim``): the rule that supports a claim written word for word in
  a passage without a model pass.
"""

from __future__ import annotations

from attribution.verify._feature_verifier import FeatureVerifier, FeatureWeights, judged
from attribution.verify._features import (
    FEATURE_NAMES,
    NLI_FEATURE_NAMES,
    clear_text_cache,
    pair_features,
)
from attribution.verify._judge import SentenceJudge, sentence_judge
from attribution.verify._loading import load_verifier
from attribution.verify._nli_verifier import NliVerifier
from attribution.verify._protocol import Pair, Verifier, VerifierOutput
from attribution.verify._titles import titled_passage
from attribution.verify._verbatim import (
    VERBATIM_MIN_WORDS,
    verbatim_as_written,
    verbatim_in,
    word_key,
)
from attribution.verify._windows import judge_pairs

__all__ = [
    "FEATURE_NAMES",
    "NLI_FEATURE_NAMES",
    "VERBATIM_MIN_WORDS",
    "FeatureVerifier",
    "FeatureWeights",
    "NliVerifier",
    "Pair",
    "SentenceJudge",
    "Verifier",
    "VerifierOutput",
    "clear_text_cache",
    "judge_pairs",
    "judged",
    "load_verifier",
    "pair_features",
    "sentence_judge",
    "titled_passage",
    "verbatim_as_written",
    "verbatim_in",
    "word_key",
]
