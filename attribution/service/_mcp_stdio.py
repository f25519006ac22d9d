"""Standard input for the MCP server's stdio transport, each line checked before the SDK reads it.

The SDK's stdio transport drops a line it cannot read without a word: not JSON, not UTF-8 (it
reads bytes it cannot decode as U+FFFD and goes on), a lone surrogate escape (``"\\ud800"``, what
a JavaScript client sends when it cuts a string inside an emoji), or JSON nested deeper than its
parser goes (about 200 levels; a tool output can be). The client then waits for an answer that
never comes. Here such a line is answered with a JSON-RPC error (parse error or invalid
request) under the request's id where one can be read, so the call fails at once with a reason,
as the same body over ``--http`` does.

Imported only by ``serve_stdio`` (the ``mcp`` extra).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import IO, TYPE_CHECKING

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

if TYPE_CHECKING:
    from anyio.streams.memory import MemoryObjectSendStream

__all__ = ["CheckedStdin", "line_problem"]

_ID = re.compile(r'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\\n]|\\.){0,200}")')
"""A request's id where the line cannot be parsed: looked for before its ``params``."""
_LONE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _id_in(text: str) -> int | str | None:
    """The request's id, read from text that does not parse: the first ``"id": ...`` before
    ``"params"`` (clients write ``jsonrpc``, ``id`` and ``method`` first), else None."""
    head = text[: text.find('"params"')] if '"params"' in text else text[:400]
    found = _ID.search(head)
    if found is None:
        return None
    try:
        value = json.loads(found.group(1))
    except ValueError:
        return None
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


def line_problem(raw: bytes) -> tuple[int, str, int | str | None] | None:
    """Why the SDK could not read ``raw`` (one line of standard input), as the JSON-RPC error to
    answer with: (code, message, the request's id or None); None when it reads it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        message = (
            f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at byte {exc.start} cannot be decoded"
        )
        return types.PARSE_ERROR, message, _id_in(raw.decode("utf-8", "replace"))
    try:
        types.jsonrpc_message_adapter.validate_json(text, by_name=False)
        return None
    except ValidationError as exc:
        first = exc.errors()[0]
        reason = str(first.get("msg", "not a JSON-RPC message"))
    try:
        parsed = json.loads(text)
    except RecursionError:
        return types.PARSE_ERROR, "JSON nested too deep to read", _id_in(text)
    except ValueError as exc:
        return types.PARSE_ERROR, f"not JSON: {exc}", _id_in(text)
    found = parsed.get("id") if isinstance(parsed, dict) else None
    request_id = found if isinstance(found, int | str) and not isinstance(found, bool) else None
    if reason.startswith("Invalid JSON"):
        # Python reads it, the SDK's parser does not: depth, or a lone surrogate escape
        if _LONE_SURROGATE.search(text) and "recursion" not in reason:
            reason = (
                "a string holds a lone surrogate escape (\\ud800-\\udfff): text that is not "
                "Unicode (a string cut inside an emoji?)"
            )
        elif "recursion" in reason:
            reason = "JSON nested deeper than the MCP transport reads (about 200 levels)"
        return types.PARSE_ERROR, reason, request_id
    return types.INVALID_REQUEST, f"not a JSON-RPC 2.0 message: {reason}", request_id


class CheckedStdin:
    """The lines of a binary input for ``mcp.server.stdio.stdio_server(stdin=...)``: each line
    the SDK can read is passed on; each it cannot is answered on the transport's write stream
    (:meth:`answer_on`, once the transport is open) with a JSON-RPC error and not passed on;
    blank lines are skipped."""

    def __init__(self, binary: IO[bytes]) -> None:
        self._file = anyio.wrap_file(binary)
        self._replies: MemoryObjectSendStream[SessionMessage] | None = None
        self._ready = anyio.Event()

    def answer_on(self, write: MemoryObjectSendStream[SessionMessage]) -> None:
        """Where errors go: the transport's write stream (the one the server writes to)."""
        self._replies = write
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for raw in self._file:
            if not raw.strip():
                continue
            problem = line_problem(raw)
            if problem is None:
                yield raw.decode("utf-8")
                continue
            code, message, request_id = problem
            await self._ready.wait()
            assert self._replies is not None
            error = types.JSONRPCError(
                jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
            )
            try:
                await self._replies.send(SessionMessage(error))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return
