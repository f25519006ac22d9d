"""Small helpers on half-open ``[start, end)`` spans shared by the segmentation modules."""

from __future__ import annotations

__all__ = ["strip_span"]


def strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` until ``text[start:end]`` has no whitespace at either end.

    Args:
        text: the text the span indexes.
        start: the span's first offset.
        end: the offset just past its end.

    Returns:
        The stripped span; ``start == end`` when it held only whitespace.
    """
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
