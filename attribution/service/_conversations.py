"""``/v1/conversations``: register sources in a conversation's registry and look numbers up.

Every agent of a conversation (an orchestrator and its subagents, in any worker) registers into
the same stored registry, so a source keeps one number across turns, agents and restarts::

    POST /v1/conversations/{id}/sources          {"sources": [...]} or {"toolOutputs": [...]}
    GET  /v1/conversations/{id}/citations/{n}    the entry numbered n, or 404
    GET  /v1/conversations/{id}/registry         every entry, by number

The store reaches the handlers as the dependency ``store`` (:func:`provide_store` reads
``app.state.store``, which the app's lifespan opens). Store calls block on SQLite, so the
handlers run in litestar's thread pool (``sync_to_thread=True``).
"""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import NotFoundException, ValidationException
from litestar.params import FromPath, JSONBody, PathParameter

from attribution import (
    CitationSource,
    ExtractionWarning,
    RegistryEntry,
    RegistrySnapshot,
    ToolOutput,
    extract_sources,
)

from ._api import Body
from ._routes import strict_body
from ._store import MAX_CONVERSATION_ID_CHARS, ConversationStore, StoreError

__all__ = [
    "ConversationController",
    "RegisterSourcesRequest",
    "RegisterSourcesResponse",
    "RegisteredNumber",
    "provide_store",
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


ConversationIdPath = Annotated[
    str,
    PathParameter(
        min_length=1,
        max_length=MAX_CONVERSATION_ID_CHARS,
        description="The conversation's id: 1..200 printable characters.",
    ),
]


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
    )
    def register_sources(
        self,
        conversation_id: ConversationIdPath,
        data: JSONBody[RegisterSourcesRequest],
        store: NamedDependency[ConversationStore],
    ) -> RegisterSourcesResponse:
        """Find or create the numbers of sources (or of the sources in tool outputs)."""
        if (data.sources is None) == (data.tool_outputs is None):
            message = "give exactly one of `sources` and `toolOutputs`"
            raise ValidationException(
                detail=message, extra=[{"key": "sources", "message": message, "source": "body"}]
            )
        warnings: tuple[ExtractionWarning, ...] = ()
        if data.sources is not None:
            sources = data.sources
        else:
            extracted = extract_sources(data.tool_outputs or ())
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
        self, conversation_id: ConversationIdPath, store: NamedDependency[ConversationStore]
    ) -> RegistrySnapshot:
        """Every entry of the conversation's registry, by number (empty for a new one)."""
        return store.registry(conversation_id).snapshot()
