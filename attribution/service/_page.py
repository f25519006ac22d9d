"""The web page: ``GET /`` (plain HTML, CSS and JS from ``static/``) and the bundled example.

The page posts to ``/v1/attributions`` like any other client; nothing here touches the engine.
No build step and nothing fetched from elsewhere: the Content-Security-Policy allows only this
origin, so a stray ``innerHTML`` with untrusted text could not run a script either.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
from litestar import Response, Router, get
from litestar.exceptions import NotFoundException
from litestar.static_files import create_static_files_router

__all__ = ["ExampleBody", "page_router"]

_STATIC = Path(__file__).resolve().parent / "static"
# The bundled example is package data (attribution/examples/), so an installed wheel has it too.
_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class ExampleBody(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """``GET /v1/example``: the bundled answer and tool outputs, ready to post."""

    answer: str
    """``attribution/examples/answer.md``."""
    tool_outputs: list[Any]
    """``attribution/examples/tool_outputs.json``."""


@get("/", include_in_schema=False, sync_to_thread=True)
def index() -> Response[bytes]:
    """The page."""
    html = (_STATIC / "index.html").read_bytes()
    # litestar adds "; charset=utf-8" to a text media type
    return Response(html, media_type="text/html", headers=_HEADERS)


@get("/v1/example", sync_to_thread=True, summary="The bundled example (answer and tool outputs)")
def example() -> ExampleBody:
    """The example the page's "Load example" button fills in; 404 where it is not bundled."""
    try:
        answer = (_EXAMPLES / "answer.md").read_text(encoding="utf-8")
        tool_outputs = json.loads((_EXAMPLES / "tool_outputs.json").read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise NotFoundException(f"no bundled example here ({exc.filename})") from exc
    return ExampleBody(answer=answer, tool_outputs=tool_outputs)


page_router = Router(
    path="/",
    route_handlers=[
        index,
        example,
        create_static_files_router(path="/static", directories=[_STATIC], include_in_schema=False),
    ],
)
