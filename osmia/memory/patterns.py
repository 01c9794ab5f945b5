"""Cross-run knowledge: patterns and engine profiles, recomputed from run statistics.

After each extraction the statistics that run touched (its engine, its task
type, its repository) are recomputed. A pattern is stated only once
``min_samples`` runs back it. When a rate moves into another band the new
statement supersedes the old one (the old node's validity is closed).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from osmia.memory.failures import FAILURE_LABELS
from osmia.memory.store import Store
from osmia.memory.types import Kind, Observation, RunSummary, Subject
from osmia.taskrun import short_repository

PROFILE_MIN_RUNS = 3
STRENGTH_RATE = 0.75
WEAKNESS_RATE = 0.4
_BANDS = ("mostly-succeed", "mixed", "mostly-fail")


def band(rate: float) -> str:
    """Which band a success rate falls in; a change of band is a superseding statement."""
    if rate >= STRENGTH_RATE:
        return "mostly-succeed"
    if rate < WEAKNESS_RATE:
        return "mostly-fail"
    return "mixed"


def sample_confidence(n: int, min_samples: int) -> float:
    """More samples, more confidence: 0.5 at the minimum, approaching 0.95."""
    return round(min(0.95, 0.5 + 0.45 * (1 - math.exp(-(n - min_samples + 1) / (2 * min_samples)))), 4)


async def recompute(store: Store, run: RunSummary, min_samples: int) -> list[Observation]:
    """Patterns and the engine profiles affected by ``run`` (already recorded in ``runs``).

    An engine a fallback rescued the run from counts the run as its failure (the
    ``runs`` triggers add it to that engine's statistics), so its rate and profile
    are recomputed too.
    """
    out: list[Observation] = []
    for engine in (run.engine, *run.failed_engines):
        stats = await store.engine_stats(run.tenant, engine)
        out.extend(_rate_patterns(run, engine, stats, min_samples))
        profile = _profile(engine, stats)
        if profile is not None:
            out.append(profile)
    durations = await store.duration_histogram(run.tenant, run.task_type)
    duration = _duration_pattern(run, durations, min_samples)
    if duration is not None:
        out.append(duration)
    if run.repository and not run.success:
        failmode = _failure_mode(run, await store.failure_classes(run.tenant, run.repository))
        if failmode is not None:
            out.append(failmode)
    return out


def _rate_key(engine: str, task_type: str, language: str, rate_band: str) -> str:
    return f"pattern:rate:{engine}:{task_type}:{language or '-'}:{rate_band}"


def _rate_patterns(
    run: RunSummary, engine: str, stats: Sequence[tuple[str, str, int, int, float | None]], min_samples: int
) -> list[Observation]:
    out = []
    for task_type, language, n, ok, _avg in stats:
        if (task_type, language) != (run.task_type, run.language) or n < min_samples:
            continue
        rate = ok / n
        current = band(rate)
        where = f"on {language} repositories" if language else "here"
        out.append(
            Observation(
                kind=Kind.PATTERN,
                key=_rate_key(engine, task_type, language, current),
                content=(
                    f"{task_type} tasks {where} succeed {round(100 * rate)}% of the time with "
                    f"{engine} ({n} runs)"
                ),
                subject=Subject(engine=engine, task_type=task_type, language=language),
                confidence=sample_confidence(n, min_samples),
                replaces=tuple(_rate_key(engine, task_type, language, b) for b in _BANDS if b != current),
                recomputed=True,
            )
        )
    return out


def _profile(engine: str, stats: Sequence[tuple[str, str, int, int, float | None]]) -> Observation | None:
    total = sum(s[2] for s in stats)
    if total < PROFILE_MIN_RUNS:
        return None
    ok_total = sum(s[3] for s in stats)
    by_type: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for task_type, language, n, ok, _avg in stats:
        by_type[task_type][0] += n
        by_type[task_type][1] += ok
        if language:
            by_lang[language][0] += n
            by_lang[language][1] += ok
    strengths, weaknesses = [], []
    for name, (n, ok) in sorted(by_type.items()) + sorted(by_lang.items()):
        if n < 2:
            continue
        rate = ok / n
        label = f"{name} ({round(100 * rate)}%, n={n})"
        if rate >= STRENGTH_RATE:
            strengths.append(label)
        elif rate <= WEAKNESS_RATE:
            weaknesses.append(label)
    content = f"{engine}: {total} runs, {round(100 * ok_total / total)}% success"
    if strengths:
        content += "; strong at " + ", ".join(strengths)
    if weaknesses:
        content += "; weak at " + ", ".join(weaknesses)
    return Observation(
        kind=Kind.ENGINE_PROFILE,
        key=f"profile:{engine}",
        content=content,
        subject=Subject(engine=engine),
        confidence=sample_confidence(total, PROFILE_MIN_RUNS),
        recomputed=True,
    )


def _duration_pattern(
    run: RunSummary, histogram: Sequence[tuple[int, int]], min_samples: int
) -> Observation | None:
    """``histogram``: (minutes rounded up, runs), ascending; the 90th percentile is read off it."""
    total = sum(n for _m, n in histogram)
    if not run.success or total < min_samples:
        return None
    rank = min(total - 1, math.ceil(0.9 * total) - 1)
    seen, p90 = 0, histogram[-1][0]
    for m, n in histogram:
        seen += n
        if seen > rank:
            p90 = m
            break
    minutes = max(1, p90)
    return Observation(
        kind=Kind.PATTERN,
        key=f"pattern:duration:{run.task_type}",
        content=(
            f"{run.task_type} tasks rarely take more than {minutes} minutes (90% of {total} successful runs)"
        ),
        subject=Subject(task_type=run.task_type),
        confidence=sample_confidence(total, min_samples),
        recomputed=True,
    )


def _failmode_key(repository: str, failure_class: str) -> str:
    return f"pattern:failmode:{repository}:{failure_class}"


def _failure_mode(run: RunSummary, classes: Sequence[tuple[str, int]]) -> Observation | None:
    """How runs on one repository fail: a dominant cause, or "it varies" once none dominates."""
    failures = sum(n for _c, n in classes)
    if failures < 2:
        return None
    top_class, top = sorted(classes, key=lambda c: (-c[1], c[0]))[0]
    where = short_repository(run.repository)
    known = [c for c in FAILURE_LABELS if c != "unknown"] + ["mixed"]
    if top * 2 > failures and top_class != "unknown":
        current = top_class
        label = FAILURE_LABELS[top_class]
        content = f"When runs in {where} fail, it is mostly {label} ({top} of {failures} failures)"
    else:
        current = "mixed"
        parts = ", ".join(f"{FAILURE_LABELS[c]} {n}" for c, n in sorted(classes, key=lambda c: (-c[1], c[0])))
        content = f"Runs in {where} fail for varied reasons ({parts}; {failures} failures)"
    return Observation(
        kind=Kind.PATTERN,
        key=_failmode_key(run.repository, current),
        content=content,
        subject=Subject(repository=run.repository, language=run.language),
        confidence=sample_confidence(failures, 2),
        replaces=tuple(_failmode_key(run.repository, c) for c in known if c != current),
        recomputed=True,
    )
