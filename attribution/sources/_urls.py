"""Canonical URLs, so that one web page is one source however a tool spelled its address."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

__all__ = ["canonical_url", "domain_of"]

_DEFAULT_PORTS = {"http": 80, "https": 443}
# Query parameters that track a click rather than name a page.
_TRACKING_EXACT = frozenset(
    {
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "fbclid",
        "msclkid",
        "yclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "ref_src",
        "spm",
        "vero_id",
        "oly_anon_id",
        "oly_enc_id",
        "rb_clickid",
        "s_cid",
        "srsltid",
    }
)
_TRACKING_PREFIXES = ("utm_", "pk_", "hsa_")
_SAFE_PATH = "/%:@!$&'()*+,;=-._~"


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered in _TRACKING_EXACT or lowered.startswith(_TRACKING_PREFIXES)


def canonical_url(url: str) -> str:
    """Return the canonical form of ``url`` used to deduplicate web sources.

    Scheme and host are lower-cased, the default port, the fragment, user info, a trailing slash
    and tracking parameters (``utm_*``, ``gclid``, ``fbclid`` and the like) are removed, and the
    remaining query parameters are sorted. A string that is not an absolute http(s) URL is
    returned stripped but otherwise unchanged, so canonicalisation never loses an address.

    Args:
        url: the address as the tool wrote it.

    Returns:
        The canonical address; ``canonical_url(canonical_url(u)) == canonical_url(u)``.
    """
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return text
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return text
    host = parts.hostname.lower().rstrip(".")
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = quote(parts.path, safe=_SAFE_PATH)
    path = re.sub(r"/{2,}", "/", path).rstrip("/")
    query_pairs = [
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _is_tracking(k)
    ]
    query = urlencode(sorted(query_pairs), doseq=False)
    return urlunsplit((scheme, netloc, path, query, ""))


def domain_of(url: str | None) -> str | None:
    """Return the host of ``url`` without a leading ``www.``, or None when it has none."""
    if not url:
        return None
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.lower().rstrip(".")
    return host.removeprefix("www.") or None
