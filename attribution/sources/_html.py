"""HTML handed over as a page: its readable text and title, by a real HTML parser.

Tools such as ``fetch_url`` or ``http_get`` return the page's HTML as it came. Its text is what
a reader sees: scripts, styles, templates and the page's chrome (navigation, header, footer,
asides, forms) are removed, inline markup (``<b>``, ``<strong>``, ``<a>``) does not break a
sentence, block elements do, and entities are decoded. Parsing is ``selectolax`` (the Lexbor
engine: a maintained, fast HTML5 parser), never regular expressions.
"""

from __future__ import annotations

import re

__all__ = ["html_page", "looks_like_html"]

_DOCUMENT_START = re.compile(r"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])", re.I | re.S)
_BLOCK_TAGS = re.compile(r"<(?:p|div|body|head|article|section|table|li|h[1-6])[\s>]", re.I)
_FRAGMENT_START = re.compile(
    r"^\s*<(?:p|div|body|head|main|article|section|table|ul|ol|h[1-6]|script|style)[\s>]", re.I
)
_SCRIPT = re.compile(r"<(?:script|style)[\s>].*?</(?:script|style)\s*>", re.I | re.S)
_DROPPED = (
    "script, style, noscript, template, svg, iframe, object, canvas, nav, header, footer, "
    "aside, form, button, select"
)
_BLOCKS = frozenset(
    "p div section article main li ul ol dl dt dd h1 h2 h3 h4 h5 h6 br hr tr table thead tbody "
    "blockquote pre figure figcaption address details summary".split()
)
_SPACES = re.compile(r"[ \t\r\f\v\xa0]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


def looks_like_html(text: str) -> bool:
    """Whether ``text`` is an HTML document (a doctype or ``<html>`` first), a fragment of one
    that carries code (a block element first and a script or style element: ``<p>Para.</p>
    <script>x()</script>``; markdown that opens with ``<p align="center">`` stays markdown), or
    markup dense enough to be one (several block tags in its first few kilobytes)."""
    if _DOCUMENT_START.match(text[:4096]):
        return True
    if _FRAGMENT_START.match(text[:512]) and _SCRIPT.search(text[:8192]):
        return True
    return len(_BLOCK_TAGS.findall(text[:8192])) >= 5


def html_page(html: str) -> tuple[str | None, str]:
    """The title and the readable text of an HTML page.

    Returns:
        ``(title, text)``: the ``<title>`` (else the first ``<h1>``), or None; the text, one
        block per paragraph, blank lines between, possibly empty.
    """
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    title_node = tree.css_first("title") or tree.css_first("h1")
    title = _clean(title_node.text(deep=True)) if title_node is not None else None
    for node in tree.css(_DROPPED):
        node.decompose()
    root = tree.css_first("main") or tree.css_first("article") or tree.body or tree.root
    if root is None:
        return title or None, ""
    for node in root.traverse(include_text=False):
        if node.tag in _BLOCKS:
            node.insert_before("\n\n")
            node.insert_after("\n\n")
    text = root.text(deep=True, separator="", strip=False)
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    body = _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()
    return title or None, body


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text.replace("\n", " ")).strip()
