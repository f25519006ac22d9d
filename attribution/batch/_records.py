"""One batch record: its wire form, and its attribution into one output line.

An input line is ``{"id"?, "answer", "sources" | "toolOutputs", "config"?}``; ``config`` is an
:class:`attribution.AttributionConfig` in JSON (what ``attribution attribute --config`` reads),
partial sections allowed. The output line is ``{"id", "result"}`` or, for a record that cannot
be attributed, ``{"id", "error"}`` with a message naming the field: a bad record never stops
the job.
"""

from __future__ import annotations

from typing import Any

import msgspec

from attribution import (
    AttributionConfig,
    AttributionError,
    AttributionResult,
    Attributor,
    CitationSource,
    InputError,
    ToolOutput,
    decode_json,
    encode_json,
)

__all__ = ["BatchOutput", "BatchRecord", "attribute_line", "encode_output", "record_id"]


class BatchRecord(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, rename="camel"
):
    """One line of a batch's input."""

    id: str | int | None = None
    """The record's id, a string or a whole number (unset: ``line-<n>``, its line number from
    1); output lines carry it as a string."""
    answer: str
    """The answer to check (markdown)."""
    sources: tuple[CitationSource, ...] | None = None
    """The sources it may cite; or:"""
    tool_outputs: tuple[ToolOutput, ...] | None = None
    """the raw tool outputs to extract them from."""
    config: AttributionConfig | None = None
    """This record's engine configuration (unset: the job's); its ``model`` section is ignored,
    the models being loaded once per worker."""


class BatchOutput(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """One line of a batch's output."""

    id: str
    result: AttributionResult | None = None
    error: str | None = None


def record_id(line: str, number: int) -> str:
    """The id of the record on line ``number`` (from 1): its ``id`` field, else ``line-<n>``.

    Read leniently (a bad record still needs an id for its error line and for resuming).
    """
    try:
        data: Any = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return f"line-{number}"
    value = data.get("id") if isinstance(data, dict) else None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value if isinstance(value, str) and value else f"line-{number}"


def attribute_line(attributor: Attributor, line: str, record: str) -> tuple[BatchOutput, int]:
    """Attribute one input line; (its output, its claim count). Never raises for bad input.

    Args:
        attributor: the worker's engine (a record's ``config`` shares its models).
        line: the record's JSON text.
        record: the record's id (see :func:`record_id`).
    """
    try:
        data = decode_json(line, BatchRecord, what=f"record {record}")
        if (data.sources is None) == (data.tool_outputs is None):
            which = "both" if data.sources is not None else "neither"
            raise InputError(
                f"record {record}: give exactly one of sources and toolOutputs ({which} given)"
            )
        engine = attributor
        if data.config is not None:  # the models are the job's: every other section is its own
            config = msgspec.structs.replace(data.config, model=attributor.config.model)
            engine = attributor.with_config(config)
        items: tuple[CitationSource, ...] | tuple[ToolOutput, ...] = (
            data.sources if data.sources is not None else data.tool_outputs or ()
        )
        result = engine.attribute(data.answer, items)
    except AttributionError as exc:
        return BatchOutput(id=record, error=str(exc)), 0
    except Exception as exc:  # a fault in the engine loses this record only, and says so
        return BatchOutput(id=record, error=f"internal error: {type(exc).__name__}: {exc}"), 0
    return BatchOutput(id=record, result=result), result.summary.claims


def encode_output(output: BatchOutput) -> str:
    """The output line's JSON text (no newline)."""
    return encode_json(output).decode()
