"""``/v1/conversations``: register sources in a conversation's registry and look numbers up.

Every agent of a conversation (an orchestrator and its subagents, in any worker) registers into
the same stored registry, so a source keeps one number across turns, agents and restarts::

    POST /v1/conversations/{id}/sources          {"sources": [...]} or {"toolOutputs": [...]}
    GET  /v1/conversations/{id}/citations/{n}    the entry numbered n, or 404
    GET  /v1/conversations/{id}/registry         entries by number, a page at a time:
                                                 ?after=N&limit=M, then after=nextAfter

Registering takes the same limits as attribution (max_sources and max_source_chars, on the
sources given and on those extracted: 413), and a conversation holds at most
max_conversation_sources sources (409 conversation_full).

The store reaches the handlers as the dependency ``store`` (:func:`provide_store` reads
``app.state.store``, which the app's lifespan opens). Store calls block on SQLite, so the
handlers run in litestar's thread pool (``sync_to_thread=True``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import NotFoundException, ValidationException
from litestar.params import FromPath, JSONBody, Parameter, PathParameter

from attribution import (
    CitationSource,
    ExtractionWarning,
    RegistryEntry,
    ToolOutput,
)
from attribution.sources import made_safe

from ._api import Body
from ._attribute import check_sources, extract_checked
from ._routes import CONVERSATION_RESPONSES, strict_body
from ._settings import Settings
from ._store import MAX_CONVERSATION_ID_CHARS, ConversationStore, StoreError

__all__ = [
    "MAX_REGISTRY_PAGE",
    "ConversationController",
    "RegisterSourcesRequest",
    "RegisterSourcesResponse",
    "RegisteredNumber",
    "RegistryPage",
    "provide_store",
    "register_sources",
]


class RegisterSourcesRequest(Body, frozen=True):
    """``POST .../sources``: exactly one of ``sources`` and ``toolOutputs``."""

    sources: tuple[CitationSource, ...] | None = None
    """Sources to number, as they are."""
    tool_outputs: tuple[ToolOutput, ...] | None = None
    """Raw tool outputs; their sources are extracted and numbered."""


class RegisteredNumber(Body, frozen=True, omit_defaults=False):
    """The number one source has in the conversation."""

    number: int
    """Its citation number, ``[number]``."""
    source_id: str
    """The source's id (as given, or as extracted)."""
    source_key: str
    """The stable key it is numbered by."""
    created: bool
    """True when this request gave the source its number, False when it had one already."""


class RegisterSourcesResponse(Body, frozen=True, omit_defaults=False):
    """The numbers of the registered sources, in the order given (or extracted)."""

    conversation_id: str
    """The conversation registered into."""
    numbers: tuple[RegisteredNumber, ...]
    """One per source, in order; sources with one key share a number."""
    warnings: tuple[ExtractionWarning, ...] = ()
    """What extraction could not use (always empty for ``sources``)."""


MAX_REGISTRY_PAGE = 1000
"""Most entries one page of ``GET .../registry`` holds (and how many it holds by default)."""


class RegistryPage(Body, frozen=True, omit_defaults=False):
    """A page of a conversation's registry: entries by increasing number."""

    entries: tuple[RegistryEntry, ...]
    """The entries numbered above ``after``, at most ``limit`` of them."""
    next_after: int | None
    """The ``after`` of the next page; null on the last page."""


ConversationIdPath = Annotated[
    str,
    PathParameter(
        min_length=1,
        max_length=MAX_CONVERSATION_ID_CHARS,
        description="The conversation's id: 1..200 printable characters, no '/'.",
    ),
]


def register_sources(
    settings: Settings,
    store: ConversationStore,
    conversation_id: str,
    data: RegisterSourcesRequest,
) -> RegisterSourcesResponse:
    """Number the request's sources (extracted first from tool outputs, within the limits) in
    the conversation.

    The route and the MCP server's ``register_sources`` tool both answer with this. The caller
    has checked that exactly one of ``sources`` and ``toolOutputs`` is given, and the request
    limits (:func:`check_sources`).
    """
    warnings: tuple[ExtractionWarning, ...] = ()
    sources: Sequence[CitationSource]
    if data.sources is not None:
        # as safe as extracted sources: the registry hands a source's address to any UI
        sources, warnings = made_safe(data.sources, "$.sources")
    else:
        extracted = extract_checked(settings, data.tool_outputs or ())
        sources, warnings = extracted.sources, extracted.warnings
    registration = store.register_sources_detailed(conversation_id, sources)
    return RegisterSourcesResponse(
        conversation_id=conversation_id,
        numbers=tuple(
            RegisteredNumber(
                number=o.entry.number,
                source_id=o.source_id,
                source_key=o.entry.source_key,
                created=o.created,
            )
            for o in registration.outcomes
        ),
        warnings=warnings,
    )


def provide_store(state: State) -> ConversationStore:
    """The conversation store the app's lifespan put on ``app.state.store``.

    Raises:
        StoreError: the app has no open store (its lifespan did not open one, or failed to).
    """
    store = state.get("store")
    if store is None:
        raise StoreError("the conversation store is not open (app.state.store is not set)")
    return store  # type: ignore[no-any-return]


class ConversationController(Controller):
    """Conversation registries: register sources, resolve numbers, list the registry."""

    path = "/v1/conversations"
    tags = ("conversations",)
    dependencies = {"store": Provide(provide_store, sync_to_thread=False)}  # noqa: RUF012 - litestar's own pattern

    @post(
        "/{conversation_id:str}/sources",
        before_request=strict_body(RegisterSourcesRequest),
        status_code=200,
        sync_to_thread=True,
        responses=CONVERSATION_RESPONSES,
    )
    def register_sources(
        self,
        conversation_id: ConversationIdPath,
        data: JSONBody[RegisterSourcesRequest],
        settings: NamedDependency[Settings],
        store: NamedDependency[ConversationStore],
    ) -> RegisterSourcesResponse:
        """Find or create the numbers of sources (or of the sources in tool outputs)."""
        if (data.sources is None) == (data.tool_outputs is None):
            message = "give exactly one of `sources` and `toolOutputs`"
            raise ValidationException(
                detail=message, extra=[{"key": "sources", "message": message, "source": "body"}]
            )
        check_sources(settings, data.sources, data.tool_outputs)
        return register_sources(settings, store, conversation_id, data)

    @get("/{conversation_id:str}/citations/{number:int}", sync_to_thread=True)
    def resolve(
        self,
        conversation_id: ConversationIdPath,
        number: FromPath[int],
        store: NamedDependency[ConversationStore],
    ) -> RegistryEntry:
        """The entry numbered ``number`` in the conversation; 404 when there is none."""
        entry = store.resolve(conversation_id, number)
        if entry is None:
            raise NotFoundException(
                detail=f"conversation {conversation_id!r} has no citation [{number}]"
            )
        return entry

    @get("/{conversation_id:str}/registry", sync_to_thread=True)
    def registry(
        self,
        conversation_id: ConversationIdPath,
        store: NamedDependency[ConversationStore],
        after: Annotated[
            int, Parameter(ge=0, description="Entries numbered above this one (0: from [1]).")
        ] = 0,
        limit: Annotated[
            int,
            Parameter(
                ge=1,
                le=MAX_REGISTRY_PAGE,
                description=f"Most entries in the page (1..{MAX_REGISTRY_PAGE}).",
            ),
        ] = MAX_REGISTRY_PAGE,
    ) -> RegistryPage:
        """A page of the conversation's registry, by number (empty for a new one): pass
        ``nextAfter`` as ``after`` for the next page until it is null."""
        found = store.entries(conversation_id, after=after, limit=limit + 1)
        page = tuple(found[:limit])
        more = len(found) > limit
        return RegistryPage(entries=page, next_after=page[-1].number if more else None)
