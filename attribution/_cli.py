"""The ``attribution`` command line.

Every command reads a file (``-`` for standard input), prints its result on standard output
and problems on standard error, and exits 0 on success, 2 on bad input or usage.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import msgspec
import structlog

from attribution._config import AttributionConfig, load_config, read_config
from attribution._errors import AttributionError, ConfigError, InputError
from attribution._process import keep_training_libraries_out
from attribution._wire import CitationSource, ToolOutput, decode_json, encode_json
from attribution.sources import CitationRegistry, extract_sources, source_key
from attribution.text import MARKER_STYLES, find_markers, markers_outside, normalize_markers

__all__ = ["main"]


_stdin_read = False
"""Whether an argument of this run has read standard input (it can be read once)."""


def _read(path: str) -> bytes:
    global _stdin_read
    if path == "-":
        if _stdin_read:
            raise InputError(
                "-: standard input was already read for another argument; give only one of "
                "them as -, the others as files"
            )
        _stdin_read = True
        return sys.stdin.buffer.read()
    file = Path(path)
    try:
        return file.read_bytes()
    except FileNotFoundError as exc:
        raise InputError(f"{path}: no such file") from exc
    except IsADirectoryError as exc:
        raise InputError(f"{path}: is a directory, not a file") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot be read: {exc.strerror}") from exc


def _writable(path: str, option: str) -> Path:
    """The file ``option`` names to write, checked before any work is done: an existing
    directory, a missing folder or a folder that cannot be written is an InputError."""
    file = Path(path)
    folder = file.parent
    if file.is_dir():
        raise InputError(f"{option} {path}: is a directory, not a file")
    if not folder.is_dir():
        raise InputError(f"{option} {path}: no such directory {str(folder)!r}")
    if not os.access(file if file.exists() else folder, os.W_OK):
        raise InputError(f"{option} {path}: cannot be written (permission denied)")
    return file


def _write(file: Path, data: bytes, option: str) -> None:
    try:
        file.write_bytes(data)
    except OSError as exc:
        raise InputError(f"{option} {file}: cannot be written: {exc.strerror}") from exc


def _config_arg(value: str) -> AttributionConfig:
    """``--config``: a preset's name (``fast``, ``default``), a file, or ``-`` (standard input)."""
    if value == "-":
        return load_config(_read(value))
    try:
        return read_config(value)
    except ConfigError as exc:
        raise ConfigError(f"--config {value}: {exc}") from exc


def _read_text(path: str) -> str:
    try:
        return _read(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _known_numbers(args: argparse.Namespace) -> frozenset[int] | None:
    if args.registry:
        return CitationRegistry.from_json(_read(args.registry), what=args.registry).numbers()
    if args.known is not None:
        try:
            return frozenset(int(n) for n in args.known.split(",") if n.strip())
        except ValueError as exc:
            raise InputError(
                f"--known takes numbers separated by commas, got {args.known!r}"
            ) from exc
    return None


def _cmd_extract(args: argparse.Namespace) -> int:
    calls = decode_json(_read(args.tool_outputs), list[ToolOutput], what=args.tool_outputs)
    result = extract_sources(calls)
    payload: object = result if args.with_warnings else result.sources
    sys.stdout.write(encode_json(payload, indent=0 if args.compact else 2).decode() + "\n")
    for w in result.warnings:
        call = f" ({w.tool_request_id})" if w.tool_request_id else ""
        print(f"warning: {w.tool_name}{call}: {w.reason}", file=sys.stderr)
    print(
        f"{len(result.sources)} sources from {len(calls)} tool outputs, "
        f"{len(result.warnings)} warnings",
        file=sys.stderr,
    )
    return 0


def _cmd_register(args: argparse.Namespace) -> int:
    out = _writable(args.out, "--out") if args.out else None
    calls = decode_json(_read(args.tool_outputs), list[ToolOutput], what=args.tool_outputs)
    registry = (
        CitationRegistry.from_json(_read(args.registry), what=args.registry)
        if args.registry
        else CitationRegistry()
    )
    before = registry.numbers()
    result = extract_sources(calls)
    numbers = [registry.register_source(source) for source in result.sources]
    print(f"{'n':>4}  {'new':<3}  {'type':<14} {'title':<40} key")
    for n, source in zip(numbers, result.sources, strict=True):
        new = "" if n in before else "+"
        title = (source.title or "")[:40]
        print(f"[{n:>2}]  {new:<3}  {source.type:<14} {title:<40} {source_key(source)}")
    for w in result.warnings:
        print(f"warning: {w.tool_name}: {w.reason}", file=sys.stderr)
    if out is not None:
        _write(out, registry.to_json(), "--out")
        print(f"registry of {len(registry)} sources written to {args.out}", file=sys.stderr)
    return 0


_VERDICT_MARK = {
    "supported": "ok",
    "partially_supported": "partial",
    "unsupported": "UNSUPPORTED",
    "contradicted": "CONTRADICTED",
}


def _cmd_attribute(args: argparse.Namespace) -> int:
    from attribution._attributor import Attributor

    json_out = _writable(args.json, "--json") if args.json and args.json != "-" else None
    answer = _read_text(args.answer)
    items: list[CitationSource] | list[ToolOutput]
    if args.tool_outputs:
        items = decode_json(_read(args.tool_outputs), list[ToolOutput], what=args.tool_outputs)
    else:
        items = decode_json(_read(args.sources), list[CitationSource], what=args.sources)
    registry = (
        CitationRegistry.from_json(_read(args.registry), what=args.registry)
        if args.registry
        else None
    )
    config = _config_arg(args.config) if args.config else AttributionConfig()
    if (
        args.style
        or args.no_fill
        or args.keep_unknown
        or args.registry_numbers
        or args.fix_wrong_source
    ):
        reconcile = msgspec.structs.replace(
            config.reconcile,
            marker_style=args.style or config.reconcile.marker_style,
            fill_missing=config.reconcile.fill_missing and not args.no_fill,
            drop_unknown=config.reconcile.drop_unknown and not args.keep_unknown,
            answer_key=config.reconcile.answer_key and not args.registry_numbers,
            fix_wrong_source=config.reconcile.fix_wrong_source or args.fix_wrong_source,
        )
        config = msgspec.structs.replace(config, reconcile=reconcile)
    attributor = Attributor(config)
    started = time.perf_counter()
    attributor.warm_up()
    load_ms = (time.perf_counter() - started) * 1000
    result = attributor.attribute(answer, items, registry)
    if args.json:
        data = encode_json(result, indent=2)
        if args.json == "-":
            sys.stdout.write(data.decode() + "\n")
            return 0
        if json_out is not None:
            _write(json_out, data + b"\n", "--json")
    out = sys.stdout
    print(result.answer.rstrip("\n"), file=out)
    print("\n--- claims", file=out)
    for c in result.claims:
        cited = f" cites {list(c.cited)}" if c.cited else ""
        added = f" +added {list(c.added)}" if c.added else ""
        against = f" by {list(c.contradicting_numbers)}" if c.contradicting_numbers else ""
        text = c.text if len(c.text) <= 70 else c.text[:67] + "..."
        print(
            f"{c.index:>3} {_VERDICT_MARK[c.verdict]:<12} {c.score:.2f}  {text!r}{cited}{added}"
            f"{against}",
            file=out,
        )
        if c.reason and c.verdict != "supported":  # why: no relevant source, no text, ...
            print(f"{'':>16}{c.reason}", file=out)
        if c.nearest:  # an unsupported claim: what the closest source does say
            near = c.nearest[0]
            said = near.text if len(near.text) <= 90 else near.text[:87] + "..."
            print(f"{'':>16}closest [{near.number}]: {said!r}", file=out)
    if result.markers:
        print("\n--- markers", file=out)
        cited_by_claim: dict[int | None, tuple[int, ...]] = {
            c.index: c.cited for c in result.claims
        }
        for m in result.markers:
            hint = ""
            if m.suggested is not None:
                # "[1][2]" where [1] alone supports the claim: [2] adds nothing, [1] is there
                also = m.suggested in cited_by_claim.get(m.claim_index, ())
                hint = (
                    f" -> [{m.suggested}] supports it (cited here too)"
                    if also
                    else f" -> try [{m.suggested}]"
                )
            print(f"  {m.marker:<14} [{m.number}] {m.verdict}{hint}", file=out)
    s = result.summary
    print(
        f"\n{s.claims} claims: {s.supported} supported, {s.partially_supported} partially, "
        f"{s.unsupported} unsupported, {s.contradicted} contradicted; markers: "
        f"{s.markers_checked} checked, {s.markers_wrong} wrong source, {s.markers_unknown} "
        f"unknown, {s.markers_unsupported} unsupported, {s.markers_added} added"
        f"\nembedder {_model_name(attributor.embedder)}, verifier {result.verifier}; "
        f"models loaded in {load_ms:.0f} ms, "
        f"attributed in {sum(result.timings_ms.values()):.0f} ms",
        file=out,
    )
    for w in result.warnings:
        print(f"warning: {w.tool_name}: {w.reason}", file=sys.stderr)
    return 0


def _model_name(model: object) -> str:
    """The manifest name (or file name) of a loaded model: the configuration may not say it,
    when ``$ATTRIBUTION_EMBEDDER`` and the like choose."""
    return str(getattr(getattr(model, "spec", None), "name", type(model).__name__))


def _code_spans(text: str) -> list[tuple[int, int]]:
    """The answer's indented code blocks (and other code the segmenter finds): no marker is
    in them. The segmenter (spaCy) is loaded only for an answer with an indented line."""
    if not re.search(r"^(?: {4}|\t)", text, re.MULTILINE):
        return []
    from attribution.segment import Segmenter

    return [(s.start, s.end) for s in Segmenter().segment(text) if s.skip_reason == "code"]


def _cmd_markers(args: argparse.Namespace) -> int:
    text = _read_text(args.answer)
    markers = markers_outside(find_markers(text), _code_spans(text))
    known = _known_numbers(args)
    if args.json:
        sys.stdout.write(encode_json(markers, indent=2).decode() + "\n")
    else:
        print(f"{args.answer}: {len(markers)} markers")
        if markers:
            print(f"{'start':>7} {'end':>6}  {'style':<9} {'numbers':<12} marker")
        for m in markers:
            numbers = ",".join(map(str, m.numbers))
            flag = ""
            if known is not None and any(n not in known for n in m.numbers):
                flag = "  <- unknown number"
            print(f"{m.start:>7} {m.end:>6}  {m.style:<9} {numbers:<12} {m.text}{flag}")
    if known is not None:
        unknown = sorted({n for m in markers for n in m.numbers if n not in known})
        if unknown:
            print(f"unknown citation numbers: {', '.join(map(str, unknown))}", file=sys.stderr)
    return 0


def _cmd_normalize(args: argparse.Namespace) -> int:
    text = _read_text(args.answer)
    known = _known_numbers(args)
    if args.drop_unknown and known is None:
        raise InputError("--drop-unknown needs --registry or --known to tell which numbers exist")
    # Unknown numbers are dropped by default (ADR 0001) wherever the known numbers are given.
    drop = known is not None and not args.keep_unknown
    result = normalize_markers(
        text, style=args.style, known=known, drop_unknown=drop, skip=_code_spans(text)
    )
    sys.stdout.write(result.text)
    if result.unknown_numbers:
        action = "dropped" if drop else "kept"
        numbers = ", ".join(map(str, result.unknown_numbers))
        print(f"unknown citation numbers ({action}): {numbers}", file=sys.stderr)
    return 0


def _add_known(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--registry", metavar="REGISTRY.json", help="a citation registry; its numbers are known"
    )
    group.add_argument("--known", metavar="N,N,...", help="the citation numbers that exist")


def _cmd_mcp(args: argparse.Namespace) -> int:
    # The one command that starts the service's code: imported here, never by the library.
    from attribution.service import Settings, parse_http_address, serve_mcp

    settings = Settings.from_env()
    if args.database:
        settings = msgspec.structs.replace(settings, database_path=args.database)
    http = parse_http_address(args.http) if args.http else None
    with contextlib.suppress(KeyboardInterrupt):
        serve_mcp(settings, http=http)
    return 0


def _cmd_batch(args: argparse.Namespace) -> int:
    # Ray is imported here only: the library never loads the batch package.
    from attribution.batch import Terminated, run_batch

    config = _config_arg(args.config) if args.config else None
    written: list[str] = []
    try:
        summary = run_batch(
            args.records,
            args.out,
            address=args.address,
            workers=args.workers,
            batch_size=args.batch_size,
            config=config,
            limit=args.limit,
            on_output=written.append,
        )
    except KeyboardInterrupt as exc:
        where = "standard output" if args.out == "-" else args.out
        again = "" if args.out == "-" else "; the same command resumes"
        by = "terminated" if isinstance(exc, Terminated) else "interrupted"
        print(f"\n{by}: {len(written)} records written to {where} this run{again}", file=sys.stderr)
        return 143 if isinstance(exc, Terminated) else 130
    verdicts = ", ".join(f"{n} {v}" for v, n in summary.verdicts.items()) or "none"
    attributed = summary.records - summary.failed
    where = "standard output" if args.out == "-" else args.out
    why = " (their error lines say why)" if summary.failed else ""
    before = (
        f", {summary.failed_before} of them with an error line of an earlier run"
        if summary.failed_before
        else ""
    )
    print(
        f"{summary.records} records done: {attributed} attributed, {summary.failed} failed{why}; "
        f"{summary.skipped} already in {where}{before}; {summary.claims} claims ({verdicts}), "
        f"{summary.records_per_second:.2f} records/s over {summary.seconds:.1f} s",
        file=sys.stderr,
    )
    # 1 while the output holds an error line of this input's: a retry loop sees it
    return 1 if summary.failed or summary.failed_before else 0


def _cmd_bench(args: argparse.Namespace) -> int:
    print(
        "attribution bench: the benchmark harness is not part of the installed library; from a "
        "checkout of the repository run: python -m benchmarks --help",
        file=sys.stderr,
    )
    return 2


def make_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``attribution`` command."""
    from attribution._version import __version__

    parser = argparse.ArgumentParser(
        prog="attribution",
        description="Post-hoc citation attribution for LLM answers.",
    )
    parser.add_argument("--version", action="version", version=f"attribution {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    extract = commands.add_parser(
        "extract",
        help="turn recorded tool outputs into citation sources",
        description="Print the CitationSources found in a JSON list of tool outputs "
        "({toolName, toolRequestId, parameters, output}). Warnings go to standard error.",
    )
    extract.add_argument("tool_outputs", metavar="TOOL_OUTPUTS.json", help="file, or - for stdin")
    extract.add_argument(
        "--with-warnings",
        action="store_true",
        help="print {sources, warnings} instead of the list of sources",
    )
    extract.add_argument("--compact", action="store_true", help="print JSON on one line")
    extract.set_defaults(run=_cmd_extract)

    register = commands.add_parser(
        "register",
        help="number the sources of tool outputs in a citation registry",
        description="Extract the sources of a JSON list of tool outputs and register them "
        "(find-or-create by stable source key), printing each source's [n].",
    )
    register.add_argument("tool_outputs", metavar="TOOL_OUTPUTS.json", help="file, or - for stdin")
    register.add_argument(
        "--registry", metavar="REGISTRY.json", help="start from this registry (default: empty)"
    )
    register.add_argument("--out", metavar="REGISTRY.json", help="write the registry here")
    register.set_defaults(run=_cmd_register)

    attribute = commands.add_parser(
        "attribute",
        help="check and fill the citations of an answer",
        description="Segment the answer into claims, find the passages that support each, "
        "check the markers it carries and add the missing ones. Prints the annotated answer "
        "and a verdict per claim; --json writes the full result.",
    )
    attribute.add_argument("--answer", required=True, metavar="ANSWER.md", help="the answer")
    given = attribute.add_mutually_exclusive_group(required=True)
    given.add_argument("--tool-outputs", metavar="OUTPUTS.json", help="recorded tool outputs")
    given.add_argument("--sources", metavar="SOURCES.json", help="a JSON list of CitationSource")
    attribute.add_argument(
        "--registry", metavar="REGISTRY.json", help="the conversation's citation registry"
    )
    attribute.add_argument(
        "--config",
        metavar="CONFIG.json|PRESET",
        help="an AttributionConfig file, or a preset: fast (about 1.6x faster cold; a little less "
        "accurate) or default",
    )
    attribute.add_argument(
        "--json", metavar="OUT.json", help="write the result as JSON (- for stdout)"
    )
    attribute.add_argument(
        "--style",
        "--marker-style",  # as the service's option is called (markerStyle)
        choices=MARKER_STYLES,
        help="rewrite markers in this style",
    )
    attribute.add_argument("--no-fill", action="store_true", help="do not add missing markers")
    attribute.add_argument(
        "--keep-unknown",
        action="store_true",
        help="keep markers naming numbers no source has (default: drop them from the answer; "
        "they are reported as unknown_number either way)",
    )
    attribute.add_argument(
        "--registry-numbers",
        action="store_true",
        help="read every marker as the registry's number, even where the answer's own "
        "reference list or definitions say which source each number is (default: read "
        "through them)",
    )
    attribute.add_argument(
        "--fix-wrong-source",
        action="store_true",
        help="write a marker that cites the wrong source with the number of the source that "
        "supports its claim (default: keep it, and report the suggestion)",
    )
    attribute.set_defaults(run=_cmd_attribute)

    markers = commands.add_parser(
        "markers",
        help="list the citation markers in an answer",
        description="List every citation marker ([1], [1, 2], [1-3], [citation:1], [^1], 【1】) "
        "with its offsets (code points) and the numbers it names.",
    )
    markers.add_argument("answer", metavar="ANSWER.md", help="file, or - for stdin")
    markers.add_argument("--json", action="store_true", help="print the markers as JSON")
    _add_known(markers)
    markers.set_defaults(run=_cmd_markers)

    bench = commands.add_parser(
        "bench",
        help="the benchmark harness moved: python -m benchmarks, from a checkout",
        description="The benchmark harness lives in the repository (python -m benchmarks).",
    )
    bench.set_defaults(run=_cmd_bench)
    normalize = commands.add_parser(
        "normalize",
        help="rewrite an answer's markers in one style",
        description="Print the answer with every marker rewritten in one style; every other "
        "character is kept as it was.",
    )
    normalize.add_argument("answer", metavar="ANSWER.md", help="file, or - for stdin")
    normalize.add_argument(
        "--style", choices=MARKER_STYLES, default="citation", help="style to write (citation)"
    )
    unknown = normalize.add_mutually_exclusive_group()
    unknown.add_argument(
        "--drop-unknown",
        action="store_true",
        help="remove numbers the registry does not know (the default with --registry or --known; "
        "without them it is an error)",
    )
    unknown.add_argument(
        "--keep-unknown", action="store_true", help="keep numbers the registry does not know"
    )
    _add_known(normalize)
    normalize.set_defaults(run=_cmd_normalize)

    mcp = commands.add_parser(
        "mcp",
        help="serve the engine as an MCP server (stdio, or streamable HTTP with --http)",
        description="Serve the tools attribute, extract, verify, register_sources and "
        "resolve_citation over the Model Context Protocol: on standard input and output by "
        "default (logs on standard error), or over streamable HTTP at http://HOST:PORT/mcp. "
        "Settings, limits and the conversation store (ATTRIBUTION_DATABASE_PATH) are the HTTP "
        "service's. Needs the mcp extra: pip install 'attribution[mcp]'.",
    )
    mcp.add_argument(
        "--http", metavar="HOST:PORT", help="serve streamable HTTP here instead of stdio"
    )
    mcp.add_argument(
        "--database",
        metavar="FILE.sqlite3",
        help="the conversation registries' SQLite file (default: ATTRIBUTION_DATABASE_PATH, "
        "else attribution.sqlite3), shared with the HTTP service",
    )
    mcp.set_defaults(run=_cmd_mcp)

    batch = commands.add_parser(
        "batch",
        help="attribute a JSON-lines file of records on Ray (resumable)",
        description="Attribute every record of RECORDS.jsonl ({id?, answer, sources | "
        "toolOutputs, config?} per line) into OUT.jsonl ({id, result} or {id, error} per "
        "line) with Ray Data: one engine per worker, a local Ray unless --address names a "
        "cluster. Records whose id OUT.jsonl already holds are skipped, so an interrupted job "
        "resumes. Needs the batch extra: pip install 'attribution[batch]'.",
    )
    batch.add_argument(
        "records", metavar="RECORDS.jsonl", help="one record per line (- for standard input)"
    )
    batch.add_argument("out", metavar="OUT.jsonl", help="results, appended")
    batch.add_argument("--address", help="a Ray cluster to join (ray://HOST:10001, auto)")
    batch.add_argument("--workers", type=int, default=1, help="Ray workers (default 1)")
    batch.add_argument("--batch-size", type=int, default=4, help="records per task (4)")
    batch.add_argument(
        "--config",
        metavar="CONFIG.json|PRESET",
        help="an AttributionConfig file, or a preset: fast or default",
    )
    batch.add_argument("--limit", type=int, help="attribute at most this many records")
    batch.set_defaults(run=_cmd_batch)
    return parser


def _stderr_logger(*_args: object) -> structlog.PrintLogger:
    return structlog.PrintLogger(sys.stderr)


def console() -> int:
    """The ``attribution`` command (and ``python -m attribution``): :func:`main` in a process
    of its own, where torch is kept out (:mod:`attribution._process`)."""
    keep_training_libraries_out()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    # The library logs through structlog; keep standard output for results. The factory looks
    # sys.stderr up on every call rather than binding the stream that exists now.
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
        logger_factory=_stderr_logger,
    )
    global _stdin_read
    _stdin_read = False
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bench"]:  # whatever options follow were the harness's
        return _cmd_bench(argparse.Namespace())
    args = make_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except AttributionError as exc:
        print(f"attribution {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return status
