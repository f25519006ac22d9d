"""Offset conversion: the one place where code-point offsets meet UTF-16 and UTF-8 offsets.

Every span in the library is a half-open ``[start, end)`` range of Python ``str`` indices (code
points). JavaScript clients count UTF-16 code units and Go clients count UTF-8 bytes; this module
converts in both directions and refuses an offset that falls inside a character.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Literal

from attribution._errors import InputError

__all__ = ["OffsetConverter", "OffsetUnit", "from_units", "to_units"]

OffsetUnit = Literal["codepoint", "utf16", "utf8"]


def _width(char: str, unit: OffsetUnit) -> int:
    code = ord(char)
    if unit == "utf16":
        return 2 if code > 0xFFFF else 1
    if unit == "utf8":
        return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    return 1


class OffsetConverter:
    """Converts offsets into one text between code points and another unit.

    Building the converter costs one pass over the text; each conversion after that is
    O(log n) (a binary search over the offsets of the non-ASCII characters), so converting every
    span of a long answer stays cheap.
    """

    def __init__(self, text: str, unit: OffsetUnit) -> None:
        if unit not in ("codepoint", "utf16", "utf8"):
            raise InputError(f"unknown offset unit {unit!r}; expected codepoint, utf16 or utf8")
        self.text = text
        self.unit: OffsetUnit = unit
        # Code-point positions of the characters wider than one unit, and the extra units
        # accumulated up to and including each of them.
        self._wide_at: list[int] = []
        self._extra_after: list[int] = []
        extra = 0
        if unit != "codepoint" and not text.isascii():
            for i, char in enumerate(text):
                w = _width(char, unit)
                if w > 1:
                    extra += w - 1
                    self._wide_at.append(i)
                    self._extra_after.append(extra)
        self._total = len(text) + extra
        # Unit offsets at which each wide character starts, to map back.
        self._wide_unit_start = [
            pos + (self._extra_after[k - 1] if k else 0) for k, pos in enumerate(self._wide_at)
        ]

    @property
    def length(self) -> int:
        """Length of the text in the converter's unit."""
        return self._total

    def to_units(self, index: int) -> int:
        """Code-point offset → offset in the converter's unit.

        Raises:
            InputError: ``index`` is not an int, or is outside ``[0, len(text)]``.
        """
        _whole(index, "offset")
        if not 0 <= index <= len(self.text):
            raise InputError(f"offset {index} is outside the text (0..{len(self.text)})")
        k = bisect_left(self._wide_at, index)  # wide characters strictly before index
        return index + (self._extra_after[k - 1] if k else 0)

    def from_units(self, offset: int) -> int:
        """Offset in the converter's unit → code-point offset.

        Raises:
            InputError: ``offset`` is not an int, is outside the text, or falls inside a
                character (between the two halves of a surrogate pair, or inside a multi-byte
                UTF-8 sequence).
        """
        _whole(offset, f"{self.unit} offset")
        if not 0 <= offset <= self._total:
            raise InputError(f"{self.unit} offset {offset} is outside the text (0..{self._total})")
        k = bisect_left(self._wide_unit_start, offset)
        # k wide characters start strictly before offset; the last of them may contain it.
        if k:
            start = self._wide_unit_start[k - 1]
            width = _width(self.text[self._wide_at[k - 1]], self.unit)
            if start < offset < start + width:
                raise InputError(
                    f"{self.unit} offset {offset} falls inside the character at code point "
                    f"{self._wide_at[k - 1]}"
                )
        return offset - (self._extra_after[k - 1] if k else 0)


def _whole(value: object, what: str) -> None:
    """Refuse an offset that is not an int (1.5 came back as 2.5; a bool is not an offset)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} {value!r} is not a whole number")


def to_units(text: str, index: int, unit: OffsetUnit) -> int:
    """Convert one code-point offset into ``text`` to ``unit`` (see :class:`OffsetConverter`)."""
    return OffsetConverter(text, unit).to_units(index)


def from_units(text: str, offset: int, unit: OffsetUnit) -> int:
    """Convert one ``unit`` offset into ``text`` to code points (see :class:`OffsetConverter`)."""
    return OffsetConverter(text, unit).from_units(offset)
