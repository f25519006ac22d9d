"""Mapping a dataset's label strings to supported / not supported / excluded."""

from __future__ import annotations

from collections.abc import Collection

__all__ = ["map_label"]


def map_label(
    raw: str | None,
    *,
    supported: Collection[str],
    not_supported: Collection[str],
    partial: Collection[str] = (),
    partial_as: bool | None = None,
) -> bool | None:
    """Map one label string; ``partial`` labels take ``partial_as``, unknown ones None.

    Args:
        raw: the label as the dataset writes it (None where the dataset has none).
        supported: labels that mean the claim is supported.
        not_supported: labels that mean it is not.
        partial: labels of partial support.
        partial_as: what a partial label maps to (None keeps it out of the labelled set).

    Returns:
        True, False, or None for a partial label with ``partial_as=None`` and for any label
        outside the three sets.
    """
    if raw is None:
        return None
    if raw in supported:
        return True
    if raw in not_supported:
        return False
    if raw in partial:
        return partial_as
    return None
