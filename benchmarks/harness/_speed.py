"""Speed and scale: latency, throughput and peak memory over a grid of workloads.

A workload is an answer of ``claims`` WiCE claims against ``sources`` WiCE web articles of about
``words_per_source`` words (real text, see :func:`make_workload`). For each one the engine is
timed in two modes, with the two baselines timed in the same loop so that load from other
processes falls on both sides of every ratio alike:

- **cold**: the embedding cache is cleared before every run (sources the engine has never seen);
  the embedding-threshold baseline gets a fresh matcher and cache per run, so it too embeds
  from scratch;
- **cached**: the sources were embedded before (a later turn of the conversation); the baseline
  keeps its matcher's cache the same way.

Baselines (``_baselines.py``): ``embedding-threshold@0.6`` embeds every answer sentence and every
chunk and cites each chunk with cosine >= 0.6; ``lexical-overlap`` cites chunks covering half of
a claim's content words and needs no embedding at all, so it is timed on its own code path
(chunking plus term overlap), not through ``Baselines.score_claims``, which embeds everything.

Ratios are engine / baseline: the median over runs paired in the same iteration of the loop.

Peak memory is the resident-set high-water mark. On Linux it is reset before each workload
(``/proc/self/clear_refs``), so ``peak_rss_mb`` is that workload's peak, models included;
elsewhere it is the process's lifetime peak (``ru_maxrss``), which only grows.
``peak_rss_scope`` in the output says which.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attribution import CitationSource, MatchConfig
from attribution.match import EmbeddingCache, Matcher, make_passages
from attribution.text import content_terms
from benchmarks.datasets import load_wice

from ._baselines import BASELINE_THRESHOLDS, Baselines
from ._context import HarnessContext, baseline_embedder, progress

__all__ = [
    "FULL_GRID",
    "QUICK_GRID",
    "STAGES",
    "Workload",
    "WorkloadSpec",
    "forget_pair_scores",
    "make_workload",
    "run_speed",
]

STAGES = ("extract", "segment", "match", "verify", "reconcile")
EMBEDDING_BASELINE = "embedding-threshold@0.6"
LEXICAL_BASELINE = "lexical-overlap"


@dataclass(frozen=True)
class WorkloadSpec:
    """One point of the grid."""

    claims: int
    """Claims in the answer."""
    sources: int
    """Sources the answer is attributed against."""
    words_per_source: int
    """Words per source (cut at the first sentence end past this many)."""

    @property
    def total_words(self) -> int:
        """Nominal source words in all."""
        return self.sources * self.words_per_source


def _one_axis_grid(
    centre: WorkloadSpec,
    claims: Sequence[int],
    sources: Sequence[int],
    words: Sequence[int],
    corners: Sequence[WorkloadSpec],
) -> tuple[WorkloadSpec, ...]:
    """Each axis varied alone around ``centre``, plus ``corners``; smallest workloads first."""
    points = {centre, *corners}
    points |= {WorkloadSpec(c, centre.sources, centre.words_per_source) for c in claims}
    points |= {WorkloadSpec(centre.claims, s, centre.words_per_source) for s in sources}
    points |= {WorkloadSpec(centre.claims, centre.sources, w) for w in words}
    return tuple(sorted(points, key=lambda p: (p.total_words, p.claims, p.sources)))


# The full 3 x 3 x 3 cube is 27 workloads, and the baselines embed every chunk (about 4,500
# for 100 sources of 2,000 words, roughly a minute per run on two cores), so it would take far
# longer than the ~10 minutes the full mode aims at. Varying one axis at a time around the
# pipeline_speed workload (10 claims, 20 x 800 words) shows how cost grows along each axis;
# the 100 x 2,000-word corner is the scale ceiling the harness promises.
FULL_GRID = _one_axis_grid(
    WorkloadSpec(10, 20, 800),
    claims=(5, 10, 20),
    sources=(5, 20, 100),
    words=(200, 800, 2000),
    corners=(WorkloadSpec(10, 100, 2000),),
)
"""The full mode's workloads (8), smallest first."""

QUICK_GRID = (WorkloadSpec(2, 2, 200), WorkloadSpec(3, 4, 200))
"""Two tiny workloads: a smoke test of the whole path in a few seconds."""

# Beyond this many source words the engine's runs are capped and the embedding baseline's
# runs are scaled down so that one workload costs about a minute of embedding at most.
_ENGINE_CAP_WORDS = 50_000
_ENGINE_CAP_RUNS = 3
_BASELINE_WORD_BUDGET = 60_000


@dataclass(frozen=True)
class Workload:
    """An answer and its sources, plus the claim texts the baselines score."""

    answer: str
    """The answer: the claims joined, ``[n]`` after every other claim about a source."""
    claims: tuple[str, ...]
    """The claims as the baselines see them (no markers)."""
    sources: tuple[CitationSource, ...]
    """The sources, numbered 1, 2, ... in this order."""
    claims_about_sources: int
    """How many claims come from the sources' own WiCE rows (the rest cite nothing here)."""

    @property
    def words(self) -> int:
        """Source words in all."""
        return sum(len((s.full_content or "").split()) for s in self.sources)


def _cut(text: str, words: int) -> str:
    """``text`` up to the first sentence end at or after ``words`` words."""
    cut = 0
    for count, token in enumerate(text.split(" "), 1):
        cut += len(token) + 1
        if count >= words and token.endswith("."):
            break
    return text[:cut].strip()


def make_workload(
    root: Path,
    *,
    claims: int = 10,
    sources: int = 20,
    words: int = 800,
    supported: bool = False,
) -> Workload:
    """An answer of ``claims`` WiCE claims against ``sources`` WiCE articles of ~``words`` words.

    Articles are distinct (never repeated: repeated text would be embedded once and flatter the
    figures). Articles of ``words`` words or more are used first, in file order; when they run
    out, shorter articles are joined, in order, until each source reaches ``words``. Claim i is
    the claim of source i's (first) article, with a ``[i + 1]`` marker on every other one; when
    there are more claims than sources, the extra claims are those of later WiCE rows, about
    articles not among the sources. With ``supported``, only rows whose claim WiCE labels
    supported are used: an answer that mostly holds up (most of the default workload's claims
    are not supported by their article).

    Raises:
        FileNotFoundError: WiCE is not under ``root``, or holds too little text.
    """
    loaded = load_wice(root)
    rows = [
        c
        for c in loaded.records
        if c.evidence and c.claim.strip() and (not supported or c.label is True)
    ]
    seen: set[str] = set()
    # (claim, article, title): distinct articles in file order
    articles: list[tuple[str, str, str | None]] = []
    for row in rows:
        article = " ".join(s for s in row.evidence if s.strip())
        if article[:200] in seen:
            continue
        seen.add(article[:200])
        articles.append((row.claim.strip(), article, row.title))
    long = [a for a in articles if len(a[1].split()) >= words]
    short = [a for a in articles if len(a[1].split()) < words]
    groups = [[a] for a in long[:sources]]
    pending: list[tuple[str, str, str | None]] = []
    for a in short:
        if len(groups) >= sources:
            break
        pending.append(a)
        if sum(len(p[1].split()) for p in pending) >= words:
            groups.append(pending)
            pending = []
    if len(groups) < sources:
        raise FileNotFoundError(
            f"need {sources} WiCE sources of {words}+ words under {root} "
            f"(wice/data/entailment_retrieval/claim/*.jsonl), could build {len(groups)}"
        )
    used = {a[1][:200] for group in groups for a in group}
    built = [
        CitationSource(
            id=f"wice-{i}",
            type="web",
            title=group[0][2] or f"article {i}",
            full_content=_cut(" ".join(a[1] for a in group), words),
        )
        for i, group in enumerate(groups)
    ]
    texts = [group[0][0].rstrip(".") for group in groups][:claims]
    about = len(texts)
    extra = (a[0].rstrip(".") for a in articles if a[1][:200] not in used)
    texts += [t for _, t in zip(range(claims - len(texts)), extra, strict=False)]
    if len(texts) < claims:
        raise FileNotFoundError(f"need {claims} WiCE claims under {root}, found {len(texts)}")
    sentences = [
        f"{t} [{i + 1}]." if i < about and i % 2 == 0 else f"{t}." for i, t in enumerate(texts)
    ]
    return Workload(
        answer=" ".join(sentences),
        claims=tuple(texts),
        sources=tuple(built),
        claims_about_sources=about,
    )


# -- measuring ---------------------------------------------------------------------------------


def forget_pair_scores(attributor: Any) -> None:
    """Empty the verifier's pair-score cache (a cross-encoder's), keeping the embeddings.

    The sources' embeddings may be cached in use (they were registered before), but a new answer
    brings new (claim, passage) pairs: timing runs must not reuse the previous run's scores.
    """
    clear = getattr(attributor.verifier, "clear_cache", None)  # a verifier may keep none
    if clear is not None:
        clear()


def _reset_peak_rss() -> bool:
    """Reset the resident-set high-water mark (Linux); False where that is not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def _peak_rss_mb(scoped: bool) -> float:
    """Peak RSS in MiB: since the last reset when ``scoped``, else over the process's life."""
    if scoped:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is KiB on Linux but bytes on macOS.
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (with five runs, p95 is the slowest)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _summary(times_ms: Sequence[float]) -> dict[str, Any]:
    """p50, p95, mean and throughput of sequential runs."""
    return {
        "runs": len(times_ms),
        "p50_ms": round(statistics.median(times_ms), 2),
        "p95_ms": round(_percentile(times_ms, 0.95), 2),
        "mean_ms": round(statistics.fmean(times_ms), 2),
        # one answer at a time on one attributor: answers per second of wall-clock time
        "throughput_per_s": round(1000 * len(times_ms) / sum(times_ms), 3),
    }


def _ratio(engine: Sequence[float], baseline: Sequence[float]) -> float:
    """Median of engine / baseline over runs made in the same loop iteration."""
    pairs = [e / b for e, b in zip(engine, baseline, strict=False) if b > 0]
    return round(statistics.median(pairs), 4) if pairs else float("nan")


def _lexical_overlap(
    claims: Sequence[str], sources: Sequence[CitationSource], config: MatchConfig
) -> list[set[int]]:
    """The lexical-overlap baseline alone: the sources each claim cites, nothing embedded."""
    threshold = BASELINE_THRESHOLDS[LEXICAL_BASELINE]
    passages = make_passages(sources, config)
    passage_terms = [frozenset(content_terms(p.text)) for p in passages]
    cited = []
    for claim in claims:
        terms = set(content_terms(claim))
        cited.append(
            {
                p.source_index
                for p, pt in zip(passages, passage_terms, strict=True)
                if terms and len(terms & pt) / len(terms) >= threshold
            }
        )
    return cited


def _embedding_threshold(
    baselines: Baselines, claims: Sequence[str], sources: Sequence[CitationSource]
) -> list[set[int]]:
    """The embedding-threshold baseline: score every chunk, cite those at or above 0.6."""
    return [s.cited(EMBEDDING_BASELINE) for s in baselines.score_claims(claims, sources)]


def _timed_ms(fn: Any, *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - start) * 1000, out


def _runs(spec: WorkloadSpec, repeat: int) -> tuple[int, int]:
    """(engine runs, embedding-baseline cold runs) for a workload."""
    engine = repeat if spec.total_words <= _ENGINE_CAP_WORDS else min(repeat, _ENGINE_CAP_RUNS)
    baseline = max(1, min(engine, _BASELINE_WORD_BUDGET // spec.total_words))
    return engine, baseline


def _measure(
    ctx: HarnessContext, spec: WorkloadSpec, workload: Workload, repeat: int, scoped: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Engine entries (cold, cached) and the two baselines' entries for one workload."""
    attributor = ctx.attributor
    config = attributor.config.match
    engine_runs, baseline_runs = _runs(spec, repeat)
    claims, sources = list(workload.claims), list(workload.sources)
    n_passages = len(make_passages(sources, config))
    base = {
        "claims": spec.claims,
        "sources": spec.sources,
        "words_per_source": spec.words_per_source,
        "total_words": workload.words,
        "passages": n_passages,
    }
    engine_ms: dict[str, list[float]] = {"cold": [], "cached": []}
    stages: dict[str, dict[str, list[float]]] = {"cold": {}, "cached": {}}
    embed_ms: dict[str, list[float]] = {"cold": [], "cached": []}
    lexical_ms: list[float] = []
    embedder = baseline_embedder(attributor)
    baselines = Baselines(Matcher(embedder, config, cache=EmbeddingCache()), config)

    def engine_run(mode: str) -> None:
        elapsed, result = _timed_ms(attributor.attribute, workload.answer, sources)
        engine_ms[mode].append(elapsed)
        for stage, ms in result.timings_ms.items():
            stages[mode].setdefault(stage, []).append(ms)

    for i in range(engine_runs):
        # A fresh cache on both sides: neither may reuse an embedding from an earlier run.
        attributor.clear_caches()
        engine_run("cold")
        if i < baseline_runs:
            baselines = Baselines(Matcher(embedder, config, cache=EmbeddingCache()), config)
            embed_ms["cold"].append(_timed_ms(_embedding_threshold, baselines, claims, sources)[0])
        lexical_ms.append(_timed_ms(_lexical_overlap, claims, sources, config)[0])
    # Both sides hold this workload's embeddings now (the baseline from its last cold run); one
    # untimed engine call makes sure every passage the engine may pick is in its cache.
    attributor.attribute(workload.answer, sources)
    for _ in range(engine_runs):
        # cached sources, but a new answer: the verifier's pair scores are not reused
        forget_pair_scores(attributor)
        engine_run("cached")
        embed_ms["cached"].append(_timed_ms(_embedding_threshold, baselines, claims, sources)[0])
    peak = round(_peak_rss_mb(scoped), 1)

    engine_entries = []
    for mode in ("cold", "cached"):
        engine_entries.append(
            {
                **base,
                "mode": mode,
                **_summary(engine_ms[mode]),
                "stages_ms": {
                    s: round(statistics.median(stages[mode][s]), 2)
                    for s in STAGES
                    if s in stages[mode]
                },
                "peak_rss_mb": peak,
                "ratio_vs_baselines": {
                    EMBEDDING_BASELINE: _ratio(engine_ms[mode], embed_ms[mode]),
                    LEXICAL_BASELINE: _ratio(engine_ms[mode], lexical_ms),
                },
                "ratio_pairs": {
                    EMBEDDING_BASELINE: min(len(engine_ms[mode]), len(embed_ms[mode])),
                    LEXICAL_BASELINE: min(len(engine_ms[mode]), len(lexical_ms)),
                },
            }
        )
    embed_entries = [{**base, "mode": m, **_summary(embed_ms[m])} for m in ("cold", "cached")]
    lexical_entries = [{**base, "mode": "none", **_summary(lexical_ms)}]
    return engine_entries, embed_entries, lexical_entries


def run_speed(ctx: HarnessContext, *, quick: bool = False, repeat: int = 5) -> dict[str, Any]:
    """Time the engine and the baselines over the workload grid (see the module docstring).

    Args:
        ctx: the harness context (the engine; WiCE under ``ctx.data_root``).
        quick: two tiny workloads, one run each (a smoke test); ``repeat`` is then ignored.
        repeat: timed runs per mode for workloads up to 50,000 source words (fewer above).

    Returns:
        The ``speed.json`` dict: ``workloads`` (one entry per workload and engine mode, with
        p50/p95, throughput, stage medians, peak RSS and the ratios to the baselines),
        ``baselines`` (the same figures per baseline) and the run's settings and notes.

    Raises:
        FileNotFoundError: WiCE is missing or too small under ``ctx.data_root``.
        ValueError: ``repeat`` is below 1.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    grid, repeat = (QUICK_GRID, 1) if quick else (FULL_GRID, repeat)
    started = time.perf_counter()
    workloads = [
        make_workload(ctx.data_root, claims=s.claims, sources=s.sources, words=s.words_per_source)
        for s in grid
    ]
    t0 = time.perf_counter()
    ctx.attributor.warm_up()
    # One untimed call so that lazy set-up (spaCy pipeline, ONNX first run) is not timed.
    ctx.attributor.attribute(workloads[0].answer, list(workloads[0].sources))
    warm_up_s = time.perf_counter() - t0

    scoped = _reset_peak_rss()
    engine: list[dict[str, Any]] = []
    embedding: list[dict[str, Any]] = []
    lexical: list[dict[str, Any]] = []
    for spec, workload in progress(list(zip(grid, workloads, strict=True)), "speed"):
        if scoped:
            _reset_peak_rss()
        e, b, lx = _measure(ctx, spec, workload, repeat, scoped)
        engine += e
        embedding += b
        lexical += lx
    scope = "workload" if scoped else "process"
    note = (
        f"speed: {len(grid)} workloads, up to {repeat} runs per mode; peak RSS per {scope}; "
        "timings are wall-clock on this machine and include load from other processes."
    )
    ctx.notes.append(note)
    return {
        "mode": "quick" if quick else "full",
        "repeat": repeat,
        "machine": {
            "platform": platform.platform(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        },
        "verifier": type(ctx.attributor.verifier).__name__,
        "warm_up_s": round(warm_up_s, 2),
        "peak_rss_scope": scope,
        "workloads": engine,
        "baselines": {
            EMBEDDING_BASELINE: {
                "description": "embed every answer sentence and chunk with the engine's "
                "embedder, cite every chunk with cosine >= 0.6; cold: fresh cache per run",
                "workloads": embedding,
            },
            LEXICAL_BASELINE: {
                "description": "cite chunks covering >= half of the claim's content words; "
                "chunking and term overlap only, nothing embedded",
                "workloads": lexical,
            },
        },
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
