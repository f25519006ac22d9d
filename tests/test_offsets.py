from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution import InputError, OffsetConverter, from_units, to_units

# Text that exercises every width: ASCII, Latin with combining marks, CJK, emoji (astral, and
# joined by zero-width joiners), flags.
_alphabet = st.sampled_from(
    [*"ab .", "é", "e\u0301", "ß", "中", "文", "😀", "👩\u200d💻", "🇫🇷", "\U0001d54f", "ع"]
)
texts = st.lists(_alphabet, max_size=40).map("".join) | st.text(max_size=40)


def _reference(text: str, index: int, unit: str) -> int:
    prefix = text[:index]
    if unit == "utf16":
        return len(prefix.encode("utf-16-le")) // 2
    if unit == "utf8":
        return len(prefix.encode("utf-8"))
    return index


@given(text=texts, unit=st.sampled_from(["codepoint", "utf16", "utf8"]))
def test_conversion_matches_the_encodings_and_round_trips(text: str, unit: str) -> None:
    conv = OffsetConverter(text, unit)  # type: ignore[arg-type]
    for i in range(len(text) + 1):
        units = conv.to_units(i)
        assert units == _reference(text, i, unit)
        assert conv.from_units(units) == i
    assert conv.length == _reference(text, len(text), unit)


@given(text=texts, unit=st.sampled_from(["utf16", "utf8"]))
def test_offsets_inside_a_character_are_refused(text: str, unit: str) -> None:
    conv = OffsetConverter(text, unit)  # type: ignore[arg-type]
    valid = {conv.to_units(i) for i in range(len(text) + 1)}
    for offset in range(conv.length + 1):
        if offset in valid:
            conv.from_units(offset)
        else:
            with pytest.raises(InputError, match="inside the character"):
                conv.from_units(offset)


def test_known_values() -> None:
    text = "a😀中é"
    assert [to_units(text, i, "utf16") for i in range(5)] == [0, 1, 3, 4, 5]
    assert [to_units(text, i, "utf8") for i in range(5)] == [0, 1, 5, 8, 10]
    assert from_units(text, 3, "utf16") == 2
    assert from_units(text, 8, "utf8") == 3


@pytest.mark.parametrize("index", [-1, 6])
def test_out_of_range(index: int) -> None:
    with pytest.raises(InputError, match="outside the text"):
        to_units("hello", index, "utf16")
    with pytest.raises(InputError, match="outside the text"):
        from_units("hello", index, "utf8")


@pytest.mark.parametrize("index", [1.5, True, "2", None])
def test_an_offset_that_is_not_a_whole_number_is_refused(index: object) -> None:
    for convert in (to_units, from_units):
        with pytest.raises(InputError, match="is not a whole number"):
            convert("h\u00e9llo", index, "utf8")  # type: ignore[arg-type]


def test_unknown_unit() -> None:
    with pytest.raises(InputError, match="unknown offset unit"):
        OffsetConverter("x", "utf32")  # type: ignore[arg-type]
