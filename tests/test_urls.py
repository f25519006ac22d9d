from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attribution import canonical_url, domain_of


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTPS://Example.COM/Path/", "https://example.com/Path"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("http://example.com:8080/a", "http://example.com:8080/a"),
        ("https://example.com/a#section-2", "https://example.com/a"),
        ("https://example.com/a?utm_source=x&utm_medium=y&id=3", "https://example.com/a?id=3"),
        ("https://example.com/a?gclid=1&fbclid=2&msclkid=3", "https://example.com/a"),
        ("https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"),
        ("https://example.com/", "https://example.com"),
        ("https://example.com", "https://example.com"),
        ("https://user:pw@example.com/a", "https://example.com/a"),
        ("https://example.com//a//b", "https://example.com/a/b"),
        ("  https://example.com/a  ", "https://example.com/a"),
        (
            "https://en.wikipedia.org/wiki/Mercury_(planet)",
            "https://en.wikipedia.org/wiki/Mercury_(planet)",
        ),
        ("https://example.com/ä b", "https://example.com/%C3%A4%20b"),
        ("https://[::1]:8443/x/", "https://[::1]:8443/x"),
    ],
)
def test_canonical_url(url: str, canonical: str) -> None:
    assert canonical_url(url) == canonical


@pytest.mark.parametrize("url", ["mailto:a@b.c", "kb://doc/1", "not a url", "", "https://"])
def test_non_web_addresses_are_kept(url: str) -> None:
    assert canonical_url(url) == url.strip()


def test_variants_of_one_page_share_a_canonical_form() -> None:
    variants = [
        "https://www.nasa.gov/webb/",
        "HTTPS://www.NASA.gov/webb?utm_campaign=launch#top",
        "https://www.nasa.gov:443/webb/?fbclid=abc",
    ]
    assert len({canonical_url(v) for v in variants}) == 1


_hosts = st.from_regex(r"[a-zA-Z][a-zA-Z0-9-]{0,10}\.(com|org|DE)", fullmatch=True)
_segments = st.lists(st.text("abcXYZ019-_~%ä é", max_size=6), max_size=4)
_params = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "utm_source", "gclid", "q", "id"]),
        st.text("xyz1 &=", max_size=4),
    ),
    max_size=4,
)


@given(
    scheme=st.sampled_from(["http", "https", "HTTP"]),
    host=_hosts,
    port=st.sampled_from(["", ":80", ":443", ":8080"]),
    segments=_segments,
    params=_params,
    fragment=st.text("ab#1", max_size=3),
)
def test_canonical_url_is_idempotent(
    scheme: str,
    host: str,
    port: str,
    segments: list[str],
    params: list[tuple[str, str]],
    fragment: str,
) -> None:
    from urllib.parse import urlencode

    url = f"{scheme}://{host}{port}/{'/'.join(segments)}"
    if params:
        url += "?" + urlencode(params)
    if fragment:
        url += "#" + fragment
    once = canonical_url(url)
    assert canonical_url(once) == once
    assert once.startswith(scheme.lower() + "://" + host.lower())
    assert "utm_source" not in once
    assert "gclid" not in once
    assert "#" not in once


def test_domain_of() -> None:
    assert domain_of("https://www.Example.com/a") == "example.com"
    assert domain_of("https://docs.python.org") == "docs.python.org"
    assert domain_of("kb://doc") == "doc"
    assert domain_of("not a url") is None
    assert domain_of(None) is None
