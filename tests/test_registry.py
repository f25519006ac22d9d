from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution import (
    CitationRegistry,
    CitationSource,
    InputError,
    RegistrySnapshot,
    SourceDisplay,
    make_source_key,
    renumber_markers,
)


def test_find_or_create_by_stable_key() -> None:
    reg = CitationRegistry()
    a = reg.register("kb_chunk", (42, 880), SourceDisplay(title="Handbook"))
    b = reg.register("kb_chunk", ("42", "880"))
    c = reg.register("kb_chunk", (42, 881))
    assert (a, b, c) == (1, 1, 2)
    entry = reg.resolve(1)
    assert entry is not None
    assert entry.source_key == "kb_chunk:42:880"
    assert entry.display.title == "Handbook"
    assert reg.resolve(3) is None
    assert reg.resolve(0) is None


def test_web_sources_are_one_source_per_canonical_url() -> None:
    reg = CitationRegistry()
    a = reg.register("web_result", "https://www.Example.com/page/?utm_source=news")
    b = reg.register("web", "https://www.example.com/page#intro")
    assert a == b == 1
    entry = reg.resolve(1)
    assert entry is not None
    assert entry.source_key == "web_result:https://www.example.com/page"
    assert entry.display.domain == "example.com"


def test_register_source_uses_the_source_key() -> None:
    reg = CitationRegistry()
    kb = CitationSource(id="kb_chunk:7:1", type="kb_chunk", title="Guide")
    web = CitationSource(id="x", type="web", uri="https://example.com/a/", title="A")
    assert reg.register_source(kb) == 1
    assert reg.register_source(web) == 2
    assert reg.register("web_result", "https://example.com/a") == 2
    assert reg.number_of("kb_chunk:7:1") == 1
    assert reg.lookup("web", "https://EXAMPLE.com/a") == 2


def test_display_gaps_are_filled_but_never_overwritten() -> None:
    reg = CitationRegistry()
    n = reg.register("kb_document", "d1")
    reg.register("kb_document", "d1", SourceDisplay(title="First title"))
    reg.register("kb_document", "d1", SourceDisplay(title="Other title", uri="kb://d1"))
    entry = reg.resolve(n)
    assert entry is not None
    assert entry.display == SourceDisplay(title="First title", uri="kb://d1", domain="d1")


@pytest.mark.parametrize(
    ("source_type", "locator"), [("kb_chunk", ()), ("kb_chunk", ("", "1")), ("nope", "1")]
)
def test_bad_registrations_are_input_errors(source_type: str, locator: object) -> None:
    with pytest.raises(InputError):
        CitationRegistry().register(source_type, locator)  # type: ignore[arg-type]


_types = st.sampled_from(["kb_chunk", "kb_document", "chat_turn", "web_result", "web", "file"])
_locators = st.one_of(
    st.tuples(st.integers(1, 5), st.integers(1, 5)),
    st.integers(1, 9),
    st.sampled_from(["https://a.com/x", "https://A.com/x/", "https://b.org/y?utm_source=q"]),
)


@given(st.lists(st.tuples(_types, _locators), max_size=60))
def test_registry_invariants(calls: list[tuple[str, object]]) -> None:
    reg = CitationRegistry()
    seen: dict[str, int] = {}
    for source_type, locator in calls:
        n = reg.register(source_type, locator)  # type: ignore[arg-type]
        key = make_source_key(source_type, locator)  # type: ignore[arg-type]
        entry = reg.resolve(n)
        assert entry is not None
        assert entry.source_key == key  # resolve(register(x)) is x
        assert seen.setdefault(key, n) == n  # the same source always gets the same number
    assert sorted(reg.numbers()) == list(range(1, len(seen) + 1))  # dense and monotonic
    again = CitationRegistry.from_json(reg.to_json())
    assert again.entries() == reg.entries()


def test_numbers_never_change_meaning() -> None:
    reg = CitationRegistry()
    for i in range(5):
        reg.register("kb_document", f"d{i}")
    before = {e.number: e.source_key for e in reg}
    for i in range(3, 9):
        reg.register("kb_document", f"d{i}")
    after = {e.number: e.source_key for e in reg}
    assert all(after[n] == key for n, key in before.items())
    assert max(after) == 9


def test_concurrent_registration_from_threads() -> None:
    reg = CitationRegistry()
    keys = [f"doc{i % 50}" for i in range(2000)]
    barrier = threading.Barrier(8)

    def work(offset: int) -> list[tuple[str, int]]:
        barrier.wait()
        return [(k, reg.register("kb_document", k)) for k in keys[offset::8]]

    with ThreadPoolExecutor(8) as pool:
        results = [pair for chunk in pool.map(work, range(8)) for pair in chunk]
    numbers: dict[str, set[int]] = {}
    for key, n in results:
        numbers.setdefault(key, set()).add(n)
    assert all(len(ns) == 1 for ns in numbers.values())
    assert sorted(reg.numbers()) == list(range(1, 51))


def test_json_round_trip_and_format() -> None:
    reg = CitationRegistry()
    reg.register("kb_chunk", (42, 880), SourceDisplay(title="Handbook"))
    reg.register("web_result", "https://example.com/a", SourceDisplay(title="A"))
    data = json.loads(reg.to_json())
    assert data["version"] == 1
    assert data["entries"][0] == {
        "number": 1,
        "sourceKey": "kb_chunk:42:880",
        "sourceType": "kb_chunk",
        "locator": ["42", "880"],
        "display": {"title": "Handbook"},
    }
    assert CitationRegistry.from_json(reg.to_json()).entries() == reg.entries()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'{"entries": [{"number": 1}]}', "sourceKey"),
        (b'{"entries": [], "version": 2}', "version 2"),
        (b'{"entries": [], "extra": 1}', "unknown field `extra`"),
        (
            b'{"entries": [{"number": 1, "sourceKey": "a", "sourceType": "web", "locator": []},'
            b' {"number": 1, "sourceKey": "b", "sourceType": "web", "locator": []}]}',
            "number 1 is given twice",
        ),
        (
            b'{"entries": [{"number": 1, "sourceKey": "a", "sourceType": "web", "locator": []},'
            b' {"number": 2, "sourceKey": "a", "sourceType": "web", "locator": []}]}',
            "given twice",
        ),
        (
            b'{"entries": [{"number": 0, "sourceKey": "a", "sourceType": "web", "locator": []}]}',
            r"number 0, outside 1\.\.999999",
        ),
        (  # a number no marker can name
            b'{"entries": [{"number": 99999999999999999999, "sourceKey": "a", "sourceType": '
            b'"web", "locator": []}]}',
            r"number 99999999999999999999, outside 1\.\.999999 \(a marker names six digits",
        ),
    ],
)
def test_bad_registry_json(raw: bytes, message: str) -> None:
    with pytest.raises(InputError, match=message):
        CitationRegistry.from_json(raw)


def test_a_loaded_registry_continues_after_its_highest_number() -> None:
    snapshot = RegistrySnapshot(
        entries=CitationRegistry.from_json(
            b'{"entries": [{"number": 4, "sourceKey": "kb_document:a", "sourceType": '
            b'"kb_document", "locator": ["a"]}]}'
        )
        .snapshot()
        .entries
    )
    reg = CitationRegistry.from_snapshot(snapshot)
    assert reg.register("kb_document", "b") == 5


def test_subagent_copy_merges_back_with_the_same_numbers() -> None:
    shared = CitationRegistry()
    shared.register("kb_document", "a")
    sub = shared.copy()
    n_b = sub.register("kb_document", "b")
    n_a = sub.register("kb_document", "a")
    mapping = shared.merge(sub)
    assert mapping == {1: 1, 2: 2}
    assert (n_a, n_b) == (1, 2)
    assert shared.lookup("kb_document", "b") == 2


def test_merge_after_the_shared_registry_moved_on_renumbers() -> None:
    shared = CitationRegistry()
    shared.register("kb_document", "a")
    sub = shared.copy()
    sub.register("kb_document", "sub-only")  # 2 in the subagent
    shared.register("kb_document", "other")  # 2 in the shared registry meanwhile
    mapping = shared.merge(sub)
    assert mapping == {1: 1, 2: 3}
    assert shared.lookup("kb_document", "sub-only") == 3
    assert renumber_markers("Sub claim [2]. Old claim [1].", mapping).text == (
        "Sub claim [3]. Old claim [1]."
    )


def test_merge_accepts_a_snapshot_and_is_idempotent() -> None:
    shared = CitationRegistry()
    sub = CitationRegistry()
    sub.register("chat_turn", ("t1", "m1"))
    assert shared.merge(sub.snapshot()) == {1: 1}
    assert shared.merge(sub.snapshot()) == {1: 1}
    assert len(shared) == 1
    assert 1 in shared
