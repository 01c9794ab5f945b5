"""Lessons that give another version, value or quantity of the same thing.

``numpy 1.26`` and ``numpy 2.x``, ``TIMEOUT=30`` and ``TIMEOUT=60``, a memory limit of ``512Mi`` and
of ``1Gi``: two lessons, never one reinforced (:func:`versions_or_values_differ`), and the newer may
replace the older (:func:`osmia.memory.supersession.supersedes`). Also whether a learning reports a
change ("instead of", "upgraded", "out of support"): a reported change is a replacement, a second
version named beside the first without one is not.
"""

from __future__ import annotations

import functools

from osmia.memory.lesson_parse import Lesson, magnitude
from osmia.memory.linear import LinearPattern, linear

__all__ = [
    "newer_version",
    "other_quantity",
    "other_value",
    "reports_change",
    "says_replaces",
    "versions_or_values_differ",
]

_REPLACES = linear(
    r"(?i)\binstead\s+of\b|\bno\s+longer\b|\breplac(?:ed|es|e)\b|\bdeprecated\b|\bswitched\b|\bmigrated\s+(?:from|to|away|off)\b"
    r"|\bnot\s+any\s*more\b|\banymore\b|\bmoved\s+(?:from|to)\b|\bnow\b|\breverted\b|\brolled\s+back\b"
    r"|\bswitched\s+back\b"
)


# A clause of a learning: what one version is said of ("Use node 20 via .nvmrc; Node 18 breaks the
# build" says "breaks" of 18 only).
_CLAUSE = linear(r"[;:.!?](?:\s|$)|,\s|\s(?:but|so|and|while|whereas)\s")


# Words that say a version fails or is not to be used (in the clause that names it).
_REJECTED = linear(
    r"(?i)\b(?:fail(?:s|ed|ing)?|break(?:s|ing)?|broke(?:n)?|not|never|no\s+longer|unsupported"
    r"|deprecated|too\s+old|avoid|instead\s+of|rather\s+than|incompatible|crash(?:es|ed)?|errors?"
    r"|won't|can't|cannot|doesn't|don't|isn't)\b"
)


_VERSION_TOKEN = linear(r"(\d+(?:\.(?:\d+|x|\*))*)")


# Words that report a version or a value changed (beyond :data:`_REPLACES`' markers).
_CHANGED = linear(
    r"(?i)\b(?:upgraded|downgraded|bumped|retargeted|out\s+of\s+support|end[\s-]of[\s-]life|eol"
    r"|dropped\s+support|unsupported)\b"
)


# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (_REPLACES, _CLAUSE, _REJECTED, _VERSION_TOKEN, _CHANGED)


def newer_version(a: Lesson, b: Lesson) -> bool:
    """Both name one tool with versions that disagree (neither is a prefix of the other)."""
    theirs: dict[str, set[str]] = {}
    for tool, version in b.versions:
        theirs.setdefault(tool, set()).add(version)
    for tool, version in a.versions:
        if any(not _compatible(version, other) for other in theirs.get(tool, ())):
            return True
    return False


def _versions_apart(a: Lesson, b: Lesson) -> bool:
    """Both name one tool with versions that disagree (:func:`newer_version`), unless one of them
    names every version the other gives, and one more, without reporting a change or saying that
    the shared one fails.

    "CI has Xcode 14, select 15 with xcode-select" and "The simulator tests need Xcode 15" are one
    lesson: the first names the version it moves away from too. "All projects were retargeted to
    net8.0 since net6.0 went out of support" and "Projects target net6.0" are two: a change is
    reported (:data:`_CHANGED`, or a replacement marker). So are "Use node 20; Node 18 breaks the
    build" and "Use Node 18": the wider one says the shared version fails (:func:`_rejects`).
    """
    if not newer_version(a, b):
        return False
    return not any(
        _covers(wide, narrow) and not reports_change(wide.text) and not _rejects(wide.text, narrow.versions)
        for wide, narrow in ((a, b), (b, a))
    )


def _covers(wide: Lesson, narrow: Lesson) -> bool:
    """Every version ``narrow`` gives a tool ``wide`` names is one ``wide`` gives it too (or a prefix)."""
    named: dict[str, list[str]] = {}
    for tool, version in wide.versions:
        named.setdefault(tool, []).append(version)
    return all(
        any(_compatible(version, other) for other in named[tool])
        for tool, version in narrow.versions
        if tool in named
    )


def _rejects(text: str, versions: tuple[tuple[str, str], ...]) -> bool:
    """Whether ``text`` says, in a clause naming one of ``versions``, that it fails or is not to be used."""
    numbers = {version for _tool, version in versions}
    for clause in _CLAUSE.split(text):
        if _REJECTED.search(clause) is None:
            continue
        for token in _VERSION_TOKEN.findall(clause):
            if token in numbers:
                return True
    return False


@functools.lru_cache(maxsize=1 << 14)
def says_replaces(text: str) -> bool:
    """Whether a learning's text has a replacement marker ("instead of", "no longer", "now", ...)."""
    return _REPLACES.search(text) is not None


@functools.lru_cache(maxsize=1 << 14)
def reports_change(text: str) -> bool:
    """Whether a learning reports a change (a replacement marker, an upgrade, an end of support)."""
    return says_replaces(text) or _CHANGED.search(text) is not None


def _compatible(x: str, y: str) -> bool:
    """One version is a prefix of the other (``3.11`` and ``3.11.4``, ``18`` and ``18.x``)."""
    p, q = _version_parts(x), _version_parts(y)
    n = min(len(p), len(q))
    return p[:n] == q[:n]


def _version_parts(version: str) -> list[str]:
    return [p for p in version.split(".") if p not in ("x", "*")]


def other_value(a: Lesson, b: Lesson) -> bool:
    theirs = dict(b.settings)
    return any(name in theirs and theirs[name] != value for name, value in a.settings if name[:1] != "(")


def other_quantity(a: Lesson, b: Lesson) -> bool:
    """Both give a quantity of one measure in prose (``lesson_parse.quantities``: a size, a duration,
    a count of replicas) with other values, compared as magnitudes (``512Mi`` is ``0.5Gi``) and as
    sets (a text may give several)."""
    mine, other = _magnitudes(a), _magnitudes(b)
    # One that gives a measure's values and more of it ("the hook takes 8 minutes; pass --timeout
    # 15m" and "helm needs --timeout 15m") tells more, not otherwise.
    return any(
        not (values <= theirs or theirs <= values)
        for measure, values in mine.items()
        if (theirs := other.get(measure)) is not None
    )


def _magnitudes(parsed: Lesson) -> dict[str, frozenset[float | None]]:
    out: dict[str, set[float | None]] = {}
    for name, value in parsed.settings:
        if name[:1] == "(":
            out.setdefault(name, set()).add(magnitude(value))
    return {name: frozenset(values) for name, values in out.items()}


def versions_or_values_differ(a: Lesson, b: Lesson) -> bool:
    """Both give one tool another version, one setting another value, or one measure another
    quantity (``numpy 1.26`` and ``numpy 2.x``, ``TIMEOUT=30`` and ``TIMEOUT=60``, a memory limit of
    ``512Mi`` and of ``1Gi``)."""
    return _versions_apart(a, b) or other_value(a, b) or other_quantity(a, b)
