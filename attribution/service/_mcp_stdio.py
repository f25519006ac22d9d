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
import os
import re
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

if TYPE_CHECKING:
    from anyio.streams.memory import MemoryObjectSendStream

__all__ = ["CheckedStdin", "claimed_stdin", "line_problem"]

_LONE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?![0-9.eE])")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def _top_level(text: str) -> tuple[int | str | None, bool]:
    """What can be read of a line that does not parse: the request's id (a whole number or a
    string, the member ``"id"`` of the outermost object, wherever it stands: the TypeScript SDK
    writes it last) or None, and whether the outermost object has a ``method`` member (a
    request or a notification, not a response). One pass; strings and nesting are skipped."""
    request_id: int | str | None = None
    method = False
    depth, i, n = 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            found = _STRING.match(text, i)
            if found is None:
                break
            end = found.end()
            j = end
            while j < n and text[j] in " \t\r":
                j += 1
            if depth == 1 and j < n and text[j] == ":":  # a member of the outermost object
                key = found.group(1)
                j += 1
                while j < n and text[j] in " \t\r":
                    j += 1
                if key == "method":
                    method = True
                elif key == "id":
                    number = _NUMBER.match(text, j)
                    value = _STRING.match(text, j)
                    if number is not None:
                        request_id = int(number.group())
                    elif value is not None:
                        try:
                            request_id = json.loads(value.group())
                        except ValueError:
                            request_id = None
            i = end
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        i += 1
    return request_id, method


def line_problem(raw: bytes) -> tuple[int, str, int | str | None] | None:
    """Why the SDK could not read ``raw`` (one line of standard input), as the JSON-RPC error to
    answer with: (code, message, the request's id or None); None when it reads it, or when no
    answer is due (a response the client sent: JSON-RPC never answers one)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        byte, at = raw[exc.start], exc.start
        message = f"not UTF-8 text: byte 0x{byte:02x} at byte {at} cannot be decoded"
        return _answer(types.PARSE_ERROR, message, raw.decode("utf-8", "replace"))
    try:
        types.jsonrpc_message_adapter.validate_json(text, by_name=False)
        return None
    except ValidationError as exc:
        first = exc.errors()[0]
        reason = str(first.get("msg", "not a JSON-RPC message"))
    try:
        json.loads(text)
    except RecursionError:
        return _answer(types.PARSE_ERROR, "JSON nested too deep to read", text)
    except ValueError as exc:
        return _answer(types.PARSE_ERROR, f"not JSON: {exc}", text)
    if reason.startswith("Invalid JSON"):
        # Python reads it, the SDK's parser does not: depth, or a lone surrogate escape
        if _LONE_SURROGATE.search(text) and "recursion" not in reason:
            reason = (
                "a string holds a lone surrogate escape (\\ud800-\\udfff): text that is not "
                "Unicode (a string cut inside an emoji?)"
            )
        elif "recursion" in reason:
            reason = "JSON nested deeper than the MCP transport reads (about 200 levels)"
        return _answer(types.PARSE_ERROR, reason, text)
    return _answer(types.INVALID_REQUEST, f"not a JSON-RPC 2.0 message: {reason}", text)


def _answer(code: int, message: str, text: str) -> tuple[int, str, int | str | None] | None:
    """The error to answer ``text`` with, under its id; None where the client sent a response
    (an id, no method): answering it would look like the answer to a request of that id."""
    request_id, method = _top_level(text)
    if request_id is not None and not method and ('"result"' in text or '"error"' in text):
        return None
    return code, message, request_id


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


@contextmanager
def claimed_stdin() -> Iterator[IO[bytes]]:
    """The protocol's input, read from a private copy of fd 0 while fd 0 itself reads
    ``/dev/null`` (what the SDK does when it opens stdin itself), so that nothing else in the
    process, or a child it starts, can read requests; fd 0 is put back at the end. Where the
    descriptors cannot be moved (no fd 0, another platform), stdin's own buffer."""
    try:
        private = os.dup(0)
    except OSError:
        yield sys.stdin.buffer
        return
    try:
        quiet = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(quiet, 0)
        finally:
            os.close(quiet)
    except OSError:
        os.close(private)
        yield sys.stdin.buffer
        return
    wire = os.fdopen(os.dup(private), "rb")
    try:
        yield wire
    finally:
        wire.close()
        try:
            os.dup2(private, 0)
        finally:
            os.close(private)
