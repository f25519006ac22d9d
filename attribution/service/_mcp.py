"""The MCP server: the engine's tools for agents that speak the Model Context Protocol.

``attribution mcp`` serves over stdio (a desktop client starts it as a subprocess: the protocol
on stdout, logs on stderr); ``attribution mcp --http HOST:PORT`` serves streamable HTTP at
``/mcp``. It is the HTTP service's other front end: the same ``ATTRIBUTION_*`` settings, the
same limits, the same route logic (:mod:`._attribute`) and the same SQLite conversation store,
so an agent and the service share citation numbers.

Tools (each with a JSON schema drawn from the service's wire types): ``attribute``,
``extract``, ``verify``, ``register_sources`` and ``resolve_citation``. Whatever goes wrong in
a call is a tool result with ``isError`` and a message telling the model what to fix; the
server itself never goes down over a bad call.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from attribution import (
    Attributor,
    CitationSource,
    InputError,
    MissingDependencyError,
    RegistryEntry,
    ToolOutput,
    __version__,
    encode_json,
)
from attribution._wire import input_hint

from ._api import AttributionRequest, Body, ConversationId, ExtractionRequest, VerificationPair
from ._attribute import attribute_request, check_sources, extract_checked, verify_pairs
from ._conversations import RegisterSourcesRequest, register_sources
from ._errors import classify
from ._guard import HeaderTimeoutH11Protocol, plain_guard
from ._logging import configure_logging
from ._metrics import Metrics
from ._settings import Settings
from ._store import ConversationStore, open_store
from ._work import Admission, ModelRunner

__all__ = [
    "McpResources",
    "make_mcp_server",
    "open_resources",
    "parse_http_address",
    "serve_http",
    "serve_mcp",
    "serve_stdio",
]

log = structlog.get_logger(__name__)

SERVER_NAME = "attribution"

INSTRUCTIONS = (
    "Checks the citations of an answer against the sources it was written from. Before sending "
    "an answer that cites sources, call `attribute` with the answer and the tool outputs (or "
    "sources) you used: it tells which claims the sources support, which citation markers name "
    "the wrong source or a number no source has, adds the markers you left out, and returns the "
    "checked answer. Use `register_sources` and `resolve_citation` with a conversation id to "
    "keep citation numbers stable across turns and subagents."
)


# -- tool arguments that have no HTTP body of their own ---------------------------------------


class VerifyArguments(VerificationPair, frozen=True):
    """``verify``: one claim and the passage to check it against."""


class RegisterSourcesArguments(Body, frozen=True):
    """``register_sources``: a conversation, and exactly one of ``sources`` and ``toolOutputs``."""

    conversation_id: ConversationId
    """The conversation whose registry numbers the sources."""
    sources: tuple[CitationSource, ...] | None = None
    """Sources to number, as they are."""
    tool_outputs: tuple[ToolOutput, ...] | None = None
    """Raw tool outputs; their sources are extracted and numbered."""


class ResolveCitationArguments(Body, frozen=True):
    """``resolve_citation``."""

    conversation_id: ConversationId
    """The conversation the number belongs to."""
    number: int
    """The citation number, ``[number]``."""


# -- resources -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class McpResources:
    """What the tools work with: the same objects the HTTP service's lifespan builds."""

    settings: Settings
    attributor: Attributor
    store: ConversationStore
    runner: ModelRunner
    metrics: Metrics


@asynccontextmanager
async def open_resources(settings: Settings) -> AsyncIterator[McpResources]:
    """Open the store, load and warm the models, start the model pool; close all on exit."""
    store = await asyncio.to_thread(
        open_store,
        database_url=settings.database_url,
        database_path=settings.database_path,
        max_entries=settings.max_conversation_sources,
    )
    threads = settings.model_threads or os.cpu_count() or 1
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="model")
    admission = Admission(settings.max_queue)
    metrics = Metrics(lambda: admission.depth, settings.max_queue)
    try:
        attributor = Attributor(settings.engine_config())
        await asyncio.get_running_loop().run_in_executor(
            pool, functools.partial(attributor.warm_up, freeze_gc=True)
        )
        log.info("mcp_ready", verifier=attributor.verifier.name)
        runner = ModelRunner(
            pool, admission, settings.request_timeout_s, on_reject=metrics.count_reject
        )
        yield McpResources(
            settings=settings, attributor=attributor, store=store, runner=runner, metrics=metrics
        )
    finally:
        await asyncio.to_thread(pool.shutdown, wait=True)
        await asyncio.to_thread(store.close)
        gc.unfreeze()  # warm_up froze the models' objects out of the collector's way


# -- the tools -----------------------------------------------------------------------------------

Handler = Callable[[McpResources, Any], Awaitable[object]]


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, what a model reads about it, its arguments' type and its work."""

    name: str
    title: str
    description: str
    arguments: type[Body]
    handler: Handler
    read_only: bool


async def _attribute(res: McpResources, args: AttributionRequest) -> object:
    return await attribute_request(
        args,
        settings=res.settings,
        attributor=res.attributor,
        store=res.store,
        runner=res.runner,
        metrics=res.metrics,
    )


async def _extract(res: McpResources, args: ExtractionRequest) -> object:
    check_sources(res.settings, None, args.tool_outputs)
    return await res.runner.run(lambda: extract_checked(res.settings, args.tool_outputs))


async def _verify(res: McpResources, args: VerifyArguments) -> object:
    response = await verify_pairs(
        (args,),
        settings=res.settings,
        attributor=res.attributor,
        runner=res.runner,
        metrics=res.metrics,
        single=True,
    )
    (result,) = response.results
    return {
        "support": result.support,
        "contradiction": result.contradiction,
        "label": result.label,
        "threshold": response.threshold,
        "verifier": response.verifier,
    }


async def _register(res: McpResources, args: RegisterSourcesArguments) -> object:
    if (args.sources is None) == (args.tool_outputs is None):
        which = "both" if args.sources is not None else "neither"
        raise InputError(f"give exactly one of `sources` and `toolOutputs` ({which} given)")
    check_sources(res.settings, args.sources, args.tool_outputs)
    request = RegisterSourcesRequest(sources=args.sources, tool_outputs=args.tool_outputs)
    return await asyncio.to_thread(
        register_sources, res.settings, res.store, args.conversation_id, request
    )


async def _resolve(res: McpResources, args: ResolveCitationArguments) -> RegistryEntry:
    entry = await asyncio.to_thread(res.store.resolve, args.conversation_id, args.number)
    if entry is None:
        raise InputError(
            f"conversation {args.conversation_id!r} has no citation [{args.number}]: register "
            "the source first (register_sources), or cite a number it returned"
        )
    return entry


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="attribute",
        title="Check an answer's citations",
        description=(
            "Check every claim and citation marker of a finished answer against the sources it "
            "was written from, before you send it. Give the answer (markdown, with markers like "
            "[1] or [citation:1]) and EITHER `toolOutputs` (the raw outputs of the tools you "
            "called: {toolName, toolRequestId?, parameters?, output}) OR `sources` (citation "
            "sources you already have). Returns the checked answer (markers normalised, missing "
            "ones added, unknown numbers dropped unless options.dropUnknown is false), a verdict "
            "per claim (supported, partially_supported, unsupported, contradicted) with evidence "
            "quotes (an unsupported claim: `nearest`, what the closest source does say), a "
            "verdict per marker (supported, wrong_source with a suggested number, "
            "unknown_number, unsupported) and the numbered sources. Rewrite or remove the "
            "claims it flags. Pass `conversationId` to number sources in that conversation's "
            "shared registry, so [n] means the same source on every turn. If you numbered the "
            "sources your own way, say which is which under the answer ([1]: https://...): "
            "markers are then read, and written back, as the sources' numbers."
        ),
        arguments=AttributionRequest,
        handler=_attribute,
        read_only=False,
    ),
    ToolSpec(
        name="extract",
        title="Extract citable sources from tool outputs",
        description=(
            "Turn raw tool outputs (web search results, scraped pages, RAG or vector-store "
            "query results, MCP tool results) into citation sources with titles, URLs and text. "
            "Give `toolOutputs`: a list of {toolName, toolRequestId?, parameters?, output}, "
            "where output is the tool's result as it came (a string or JSON). Returns `sources` "
            "and `warnings` (what could not be used, and why)."
        ),
        arguments=ExtractionRequest,
        handler=_extract,
        read_only=True,
    ),
    ToolSpec(
        name="verify",
        title="Does a passage support a claim?",
        description=(
            "Score whether one passage supports one claim. Give `claim` (one sentence) and "
            "`passage` (the source text to check it against). Returns `support` (0..1), "
            "`contradiction` (0..1, when the verifier can tell), `label` (supported when support "
            "reaches `threshold`) and the verifier's name. To check a whole answer use "
            "`attribute` instead."
        ),
        arguments=VerifyArguments,
        handler=_verify,
        read_only=True,
    ),
    ToolSpec(
        name="register_sources",
        title="Number sources in a conversation",
        description=(
            "Give sources their citation numbers in a conversation's registry, shared by every "
            "agent of the conversation and by the HTTP service: a source keeps its number "
            "across turns and subagents, and new sources get the next numbers. Give "
            "`conversationId` and EITHER `sources` OR `toolOutputs`. Returns each source's "
            "`number` (cite it as [number]), whether it is new, and extraction warnings."
        ),
        arguments=RegisterSourcesArguments,
        handler=_register,
        read_only=False,
    ),
    ToolSpec(
        name="resolve_citation",
        title="Look up a citation number",
        description=(
            "Which source does [number] mean in this conversation? Give `conversationId` and "
            "`number`. Returns the registry entry: the number, the source's type, key and "
            "display fields (title, URL, domain). An unknown number is an error: do not cite it."
        ),
        arguments=ResolveCitationArguments,
        handler=_resolve,
        read_only=True,
    ),
)


def _schema(arguments: type[Body]) -> dict[str, Any]:
    """The tool's input schema: the type's JSON schema with its definitions inlined at the root
    (MCP wants ``"type": "object"`` there)."""
    (ref,), components = msgspec.json.schema_components([arguments], ref_template="#/$defs/{name}")
    name = ref["$ref"].rsplit("/", 1)[-1]
    root = dict(components.pop(name))
    if components:
        root["$defs"] = components
    return root


# -- calls ---------------------------------------------------------------------------------------


def _error_text(exc: Exception) -> str:
    """A message for the model: what was wrong and what to do about it."""
    status, kind, message, _ = classify(exc)
    if status == 500:
        return "internal error: the server could not finish this call (it was logged); retry once"
    advice = {
        "limit_exceeded": "send less (fewer or shorter sources, or a shorter answer)",
        "overloaded": "the server is busy; retry in a moment",
        "timeout": "the work took too long; retry with less (fewer sources or pairs)",
        "store_error": "the conversation store is unavailable; retry later",
        "conversation_full": "cite the sources it already numbers, or start a new conversation",
        "not_ready": "the server is starting; retry in a moment",
    }.get(kind)
    hint = f" ({advice})" if advice else ""
    return f"{kind}: {message}{hint}"


def _arguments_error(spec: ToolSpec, exc: msgspec.ValidationError) -> str:
    return (
        f"invalid arguments for `{spec.name}`: {exc}{input_hint(str(exc), spec.arguments)}. "
        "The arguments are described by the tool's input schema; fix the named field and call "
        "again."
    )


async def call_tool(
    resources: McpResources, name: str, arguments: Mapping[str, Any] | None
) -> tuple[bool, object]:
    """Run one tool call: (is_error, result or message). Never raises for a bad call."""
    spec = next((t for t in TOOLS if t.name == name), None)
    if spec is None:
        known = ", ".join(t.name for t in TOOLS)
        return True, f"unknown tool {name!r}; the tools are: {known}"
    try:
        args = msgspec.convert(dict(arguments or {}), spec.arguments, strict=True)
    except msgspec.ValidationError as exc:
        return True, _arguments_error(spec, exc)
    try:
        return False, await spec.handler(resources, args)
    except Exception as exc:  # every failure is the model's to read
        status = classify(exc)[0]
        if status == 500:
            log.error("mcp_tool_failed", tool=name, error=type(exc).__name__, exc_info=exc)
        else:
            log.info("mcp_tool_refused", tool=name, status=status)
        return True, _error_text(exc)


def _require_mcp() -> None:
    try:
        import mcp  # noqa: F401
    except ImportError as exc:
        raise MissingDependencyError(
            f"the MCP server needs {exc.name}: pip install 'attribution[mcp]'"
        ) from exc


def make_mcp_server(resources: McpResources) -> Any:
    """The low-level MCP server over ``resources`` (an ``mcp.server.Server``)."""
    _require_mcp()
    import mcp_types as types
    from mcp.server import Server

    tools = [
        types.Tool(
            name=t.name,
            title=t.title,
            description=t.description,
            input_schema=_schema(t.arguments),
            annotations=types.ToolAnnotations(
                title=t.title,
                read_only_hint=t.read_only,
                destructive_hint=False,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        )
        for t in TOOLS
    ]

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        is_error, value = await call_tool(resources, params.name, params.arguments)
        if is_error:
            return types.CallToolResult(content=[types.TextContent(text=str(value))], is_error=True)
        data = encode_json(value)
        return types.CallToolResult(
            content=[types.TextContent(text=data.decode())],
            structured_content=msgspec.json.decode(data),
        )

    return Server(
        SERVER_NAME,
        version=__version__,
        title="Attribution: citation checking",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=on_call_tool,
    )


# -- transports ----------------------------------------------------------------------------------


def parse_http_address(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6) as (host, port).

    Raises:
        InputError: no port, or a port out of 1..65535.
    """
    host, sep, port = value.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError(f"--http takes HOST:PORT (127.0.0.1:8765, [::1]:8765), not {value!r}")
    return host, int(port)


def check_listen(host: str, port: int) -> None:
    """Refuse an address this process cannot listen on (the port taken, an address not this
    machine's) before the models load, rather than after.

    Raises:
        InputError: naming the address and the system's reason.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise InputError(f"cannot listen on {host}:{port}: {reason}") from exc
    # every address the name gives, as the server binds them all (asyncio's create_server:
    # "localhost" can be ::1 and 127.0.0.1, and the second may be the one taken)
    for family, kind, proto, _, address in dict.fromkeys(infos):
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
                if family == socket.AF_INET6:  # as create_server does: IPv6 alone
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            at = f" (at {address[0]})" if address[0] != host else ""
            raise InputError(f"cannot listen on {host}:{port}{at}: {reason}") from exc


def serve_mcp(settings: Settings, *, http: tuple[str, int] | None = None) -> None:
    """Serve until the client goes (stdio) or until interrupted (``http``: host and port).

    Raises:
        MissingDependencyError: the ``mcp`` package is not installed.
        InputError: ``http`` is an address this process cannot listen on.
    """
    _require_mcp()
    if http is None:
        asyncio.run(serve_stdio(settings))
    else:
        check_listen(*http)
        asyncio.run(serve_http(settings, *http))


async def serve_stdio(settings: Settings) -> None:
    """Serve over this process's stdin and stdout until the client closes stdin."""
    from mcp.server.stdio import stdio_server

    from ._mcp_stdio import CheckedStdin, claimed_stdin

    configure_logging(settings, stream=sys.stderr)
    async with open_resources(settings) as resources:
        server = make_mcp_server(resources)
        # a line the SDK cannot read is answered with an error, not dropped (the client
        # waited forever): _mcp_stdio. Given its stdin, the SDK no longer points fd 0 away
        # from the protocol's input; claimed_stdin does (a child process reading stdin would
        # eat requests)
        with claimed_stdin() as binary:
            stdin = CheckedStdin(binary)
            async with stdio_server(stdin=stdin) as (read, write):  # type: ignore[arg-type]
                stdin.answer_on(write)
                await server.run(read, write, server.create_initialization_options())


async def serve_http(settings: Settings, host: str, port: int) -> None:
    """Serve streamable HTTP at ``http://HOST:PORT/mcp`` until interrupted."""
    import uvicorn

    configure_logging(settings, stream=sys.stderr)
    async with open_resources(settings) as resources:
        server = make_mcp_server(resources)
        # A loopback host gets the SDK's DNS-rebinding protection (Host and Origin checked).
        app = server.streamable_http_app(host=host, max_request_body_size=settings.max_body_bytes)
        # the HTTP service's limits: the Host check (allowed_hosts, for any bind address), the
        # body's time and size, and the header read timeout
        HeaderTimeoutH11Protocol.header_timeout_s = settings.header_timeout_s
        # the hosts served follow the address bound here (--http), not ATTRIBUTION_HOST: a
        # loopback address serves loopback names only, any other every name unless
        # ATTRIBUTION_ALLOWED_HOSTS says which
        bound = msgspec.structs.replace(settings, host=host, port=port)
        config = uvicorn.Config(
            plain_guard(app, bound),
            host=host,
            port=port,
            log_config=None,
            access_log=False,
            lifespan="on",
            http=HeaderTimeoutH11Protocol,
        )
        log.info("mcp_http_listening", url=f"http://{host}:{port}/mcp")
        await uvicorn.Server(config).serve()
