"""The extractor registry: tool-name patterns mapped to functions that turn output into sources."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import msgspec

from attribution._errors import ConfigError
from attribution._wire import SOURCE_TYPES, CitationSource, ToolOutput, WireStruct
from attribution.sources._keys import source_key

__all__ = [
    "UNSAFE_SCHEMES",
    "ExtractionResult",
    "ExtractionWarning",
    "Extractor",
    "ExtractorFn",
    "ExtractorRegistry",
    "Warn",
    "merge_sightings",
    "unsafe_scheme",
]

Warn = Callable[[str], None]
"""Records a warning about the tool call being extracted (the reason, in one sentence)."""
ExtractorFn = Callable[[ToolOutput, Warn], Iterable[CitationSource]]
"""An extractor: one tool call in, its sources out; problems go to ``warn``, never raised."""

_NAME = re.compile(r"^[A-Za-z0-9_.:-]+\.v[0-9]+$")


class ExtractionWarning(WireStruct, frozen=True):
    """Something in a tool's output could not be used as it was."""

    tool_name: str
    """The tool whose output had the problem."""
    reason: str
    """What was wrong, in one sentence."""
    tool_request_id: str | None = None
    """The call whose output had the problem."""
    extractor: str | None = None
    """The extractor that reported it."""


class ExtractionResult(WireStruct, frozen=True, omit_defaults=False):
    """Sources extracted from a batch of tool outputs, deduplicated, with the warnings (both
    always written)."""

    sources: tuple[CitationSource, ...] = ()
    """Every source, in the order first seen; web sources merged by canonical URL."""
    warnings: tuple[ExtractionWarning, ...] = ()
    """Every problem met on the way, in order."""


@dataclass(frozen=True, slots=True)
class Extractor:
    """A registered extractor."""

    name: str
    """Versioned name, such as ``web_search.v1``."""
    pattern: re.Pattern[str]
    """Tool names it handles (full match, case-insensitive)."""
    fn: ExtractorFn
    """The function that does the work."""


def merge_sightings(first: CitationSource, later: CitationSource) -> CitationSource:
    """One source from two sightings of the same one: the first wins, gaps are filled.

    A later sighting with longer ``fullContent`` (a scrape of a page first seen as a search
    result) brings its text, and one with another snippet (a page's words another search
    showed, a document's passage another answer quoted) adds it, so nothing a tool returned
    is lost.
    """
    changes: dict[str, object] = {}
    for field in first.__struct_fields__:
        mine, theirs = getattr(first, field), getattr(later, field)
        if mine is None and theirs is not None:
            changes[field] = theirs
    if later.full_content and len(later.full_content) > len(first.full_content or ""):
        changes["full_content"] = later.full_content
    if first.snippet and later.snippet and later.snippet not in first.snippet:
        joined = f"{first.snippet}\n\n{later.snippet}"
        changes["snippet"] = later.snippet if first.snippet in later.snippet else joined
    return msgspec.structs.replace(first, **changes) if changes else first


UNSAFE_SCHEMES = frozenset({"javascript", "data", "vbscript", "file"})
"""Address schemes a source's ``uri`` never keeps: a UI renders the uri as a link."""
# Browsers drop ASCII tabs and newlines inside a URL and ignore leading spaces and controls, so
# "java\tscript:" is javascript: to them; the scheme is read the same way here.
_URL_IGNORED = re.compile(r"[\x00-\x20\x7f]+")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
# C0 and C1 controls (tab and newline aside) and the bidirectional embeddings, overrides and
# isolates that can make displayed text read other than it is.
_DISPLAY_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def unsafe_scheme(uri: str) -> str | None:
    """The scheme of ``uri`` when it is one a source must not keep (``javascript``), else None."""
    match = _SCHEME.match(_URL_IGNORED.sub("", uri))
    scheme = match[1].lower() if match else None
    return scheme if scheme in UNSAFE_SCHEMES else None


_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_-]{256,}={0,2}")
_CLASSES = (str.isupper, str.islower, str.isdigit)
_BINARY = re.compile(r"[\x00-\x08\x0e-\x1f\ufffd]")


def not_text(text: str) -> str | None:
    """What ``text`` is when it is data rather than prose: ``base64`` (one unbroken run of the
    base64 alphabet, 256 characters or more, making up most of it) or ``binary`` (more than
    one character in ten a control character or U+FFFD, as bytes decoded as text give);
    None for text."""
    stripped = text.strip()
    if len(stripped) < 32:
        return None
    if len(_BINARY.findall(stripped[:4096])) * 10 > min(len(stripped), 4096):
        return "binary"
    runs = [m[0] for m in _BASE64_RUN.finditer(stripped)]
    longest = max(runs, key=len, default="")
    # encoded bytes mix upper case, lower case and digits; "aaaa..." or a long word does not
    mixed = all(any(test(c) for c in longest[:1024]) for test in _CLASSES)
    if mixed and len(longest) * 5 >= len(re.sub(r"\s+", "", stripped)) * 4:
        return "base64"
    return None


def _made_safe(source: CitationSource, item: str, warn: Warn) -> CitationSource | None:
    """``source`` without an unsafe address, with no control or bidi characters in its title
    and snippet, and without base64 or binary data as its text (each change said in a
    warning); None when nothing but such data was left of it."""
    changes: dict[str, object] = {}
    for field, name in (("full_content", "fullContent"), ("snippet", "snippet")):
        value = getattr(source, field)
        kind = not_text(value) if isinstance(value, str) else None
        if kind:
            changes[field] = None
            warn(f"{item}: its {name} is {kind} data, not text; not used")
    scheme = unsafe_scheme(source.uri) if source.uri else None
    text_left = any(getattr(source, f) and f not in changes for f in ("full_content", "snippet"))
    if changes and not text_left and not (source.uri and not scheme):
        warn(f"{item}: nothing but data was left of it (no text, no address); dropped")
        return None
    if scheme:
        changes.update(uri=None, domain=None)
        warn(
            f"{item}: its address uses the unsafe {scheme}: scheme; the address was "
            "dropped and the source kept"
        )
    for field in ("title", "snippet"):
        value = changes.get(field, getattr(source, field))
        if isinstance(value, str) and _DISPLAY_UNSAFE.search(value):
            cleaned = _DISPLAY_UNSAFE.sub("", value).strip()
            changes[field] = cleaned or None
            warn(
                f"{item}: control or bidirectional-override characters were removed "
                f"from its {field}"
            )
    return msgspec.structs.replace(source, **changes) if changes else source


def made_safe(
    sources: Sequence[CitationSource], what: str
) -> tuple[list[CitationSource], tuple[ExtractionWarning, ...]]:
    """Sources a caller gave directly, made as safe as extracted ones: no unsafe address
    (``javascript:``), no control or bidirectional-override characters in a title or snippet,
    no base64 or binary data as text; each change said in a warning naming ``what`` and the
    item (0-based, as the request's list), a source with nothing left dropped with one."""
    kept: list[CitationSource] = []
    warnings: list[ExtractionWarning] = []

    def warn(reason: str) -> None:
        warnings.append(ExtractionWarning(tool_name=what, reason=reason))

    for position, source in enumerate(sources):
        safe = _made_safe(source, f"{what}[{position}] ({source.id!r})", warn)
        if safe is not None:
            kept.append(safe)
    return kept, tuple(warnings)


def _invalid(source: object) -> str | None:
    """Why ``source`` cannot be used, or None.

    msgspec does not validate a struct built in Python, and ``source_key`` would fail on
    anything else, so a user extractor's mistake is caught here and becomes a warning.
    """
    if not isinstance(source, CitationSource):
        return f"a {type(source).__name__}, not a CitationSource"
    if not isinstance(source.id, str) or not source.id.strip():
        return "its id is empty"
    if source.type not in SOURCE_TYPES:
        return f"unknown type {source.type!r}"
    return None


class ExtractorRegistry:
    """Maps tool-name patterns to extractors.

    The most recently registered extractor whose pattern matches a tool name handles it, so an
    extractor a user registers overrides a built-in one for the same tools. Safe to use from
    several threads.
    """

    def __init__(self) -> None:
        self._entries: dict[str, Extractor] = {}
        self._lock = threading.Lock()

    def register(
        self, name: str, *, pattern: str, replace: bool = False
    ) -> Callable[[ExtractorFn], ExtractorFn]:
        """Decorator that registers an extractor for tool names matching ``pattern``.

        Args:
            name: versioned name, ``<what>.v<N>`` (``my_search.v1``).
            pattern: regular expression, matched in full and case-insensitively against the
                tool name.
            replace: allow replacing an extractor already registered under ``name``.

        Raises:
            ConfigError: the name is not versioned, is taken, or the pattern does not compile.
        """
        if not _NAME.match(name):
            raise ConfigError(f"extractor name {name!r} must look like 'what.v1'")
        try:
            compiled = re.compile(pattern, re.IGNORECASE)
        except re.error as exc:
            raise ConfigError(f"extractor {name!r}: bad pattern {pattern!r}: {exc}") from exc

        def decorator(fn: ExtractorFn) -> ExtractorFn:
            with self._lock:
                if name in self._entries and not replace:
                    raise ConfigError(
                        f"an extractor named {name!r} is already registered; "
                        "pass replace=True to replace it"
                    )
                self._entries.pop(name, None)  # re-registered, it is the newest and wins
                self._entries[name] = Extractor(name=name, pattern=compiled, fn=fn)
            return fn

        return decorator

    def unregister(self, name: str) -> None:
        """Remove the extractor registered under ``name``.

        Raises:
            ConfigError: no extractor has that name.
        """
        with self._lock:
            if self._entries.pop(name, None) is None:
                raise ConfigError(f"no extractor named {name!r} is registered")

    def names(self) -> list[str]:
        """Names of the registered extractors, in registration order."""
        with self._lock:
            return list(self._entries)

    def patterns(self) -> dict[str, str]:
        """Each registered extractor's name and pattern, in registration order."""
        with self._lock:
            return {name: e.pattern.pattern for name, e in self._entries.items()}

    def find(self, tool_name: str) -> Extractor | None:
        """The extractor that handles ``tool_name``, or None."""
        with self._lock:
            entries = list(self._entries.values())
        for entry in reversed(entries):
            if entry.pattern.fullmatch(tool_name):
                return entry
        return None

    def copy(self) -> ExtractorRegistry:
        """An independent registry with the same extractors."""
        other = ExtractorRegistry()
        with self._lock:
            other._entries = dict(self._entries)
        return other

    def extract_one(self, call: ToolOutput) -> ExtractionResult:
        """Sources of one tool call. Never raises: problems become warnings."""
        return self.extract([call])

    def extract(self, calls: Iterable[ToolOutput]) -> ExtractionResult:
        """Sources of a batch of tool calls, deduplicated, with warnings.

        Web sources are merged by canonical URL and other sources by id; the first sighting
        keeps its position and id. An extractor that raises loses only its own call's sources,
        and the error becomes a warning.
        """
        merged: dict[str, CitationSource] = {}
        warnings: list[ExtractionWarning] = []
        for call in calls:
            entry = self.find(call.tool_name)
            extractor_name = entry.name if entry else None

            def warn(
                reason: str, _call: ToolOutput = call, _ex: str | None = extractor_name
            ) -> None:
                warnings.append(
                    ExtractionWarning(
                        tool_name=_call.tool_name,
                        tool_request_id=_call.tool_request_id,
                        extractor=_ex,
                        reason=reason,
                    )
                )

            if entry is None:
                warn("no extractor is registered for this tool name; its output was not used")
                continue
            try:
                found = list(entry.fn(call, warn))
            except Exception as exc:  # a faulty extractor must not take the batch down
                warn(f"extractor failed: {type(exc).__name__}: {exc}")
                continue
            for position, source in enumerate(found, 1):
                problem = _invalid(source)
                if problem:
                    warn(f"extractor returned an invalid source (item {position}): {problem}")
                    continue
                safe = _made_safe(source, f"item {position}", warn)
                if safe is None:
                    continue
                key = source_key(safe)
                source = safe
                merged[key] = merge_sightings(merged[key], source) if key in merged else source
        return ExtractionResult(sources=tuple(merged.values()), warnings=tuple(warnings))
