"""How alike two lessons are, and whether they are about the same place.

Their words (:func:`similarity`: overlap and Jaccard of their stems), their identifiers (whether
one lesson's code span, path or variable is found in the other, :func:`found_in`), and the
places they are about: deployment environments (prod against staging), CI against a developer's
machine, two folders of a monorepo. :mod:`osmia.memory.lessons` decides from these whether two
learnings are one lesson; :mod:`osmia.memory.supersession` whether a newer replaces an older. The
thresholds were set on the tuning half of the labelled pairs (``benchmarks/lesson_pairs.py``).
"""

from __future__ import annotations

import functools

from osmia.memory.lesson_parse import Lesson
from osmia.memory.linear import LinearPattern, linear
from osmia.memory.short_forms import lesson_stems
from osmia.memory.text import STOPWORDS

__all__ = [
    "SAME_BEYOND_IDENTIFIERS",
    "SAME_DESPITE_OTHER_IDENTIFIERS",
    "SAME_DESPITE_OTHER_STRONG",
    "SAME_ONE_SIDED",
    "SAME_WITHOUT_IDENTIFIER",
    "SAME_WITH_EXTRA_IDENTIFIER",
    "SAME_WITH_IDENTIFIER",
    "elsewhere",
    "found_flags",
    "found_in",
    "identifier_part_stems",
    "opposite_orders_elsewhere",
    "other_environment",
    "other_places",
    "overlap",
    "rest_similarity",
    "similarity",
    "similarity_of_words",
]

_NON_ALNUM = linear(r"[^a-z0-9]+")

# The deployment environments a lesson may be about ("prod workspace needs two approvals" and "dev
# workspace needs none" are two lessons). Not CI and local: "CI runs vale; run vale locally" is one.
_ENVIRONMENT = linear(r"(?i)\b(prod|production|staging|dev|development|preprod|sandbox)\b")
# CI against a developer's machine is a place only with opposite orders: "Use --no-cache in CI" and
# "Never use --no-cache locally" are two lessons, "CI runs vale; run it locally too" one.
_CI = linear(r"(?i)\b(?:ci|pipeline)\b")
_LOCAL = linear(r"(?i)\b(?:local|locally|laptop)\b")
_FORBIDS = linear(r"(?i)\b(?:never|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid)\b")

# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (_NON_ALNUM, _ENVIRONMENT, _CI, _LOCAL, _FORBIDS)


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Overlap coefficient: shared share of the smaller set."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def found_in(ident: str, other: Lesson) -> bool:
    """An identifier of one lesson appears in the other: as (part of) an identifier, or in its words."""
    if ident in other.identifiers:
        return True
    if _sibling_named(ident, other):
        return False
    for mine in other.identifiers:
        if "@" not in ident + mine and len(ident) > 3 and len(mine) > 3 and (ident in mine or mine in ident):
            return True
    if "@" in ident:
        return False
    parts = identifier_part_stems(ident)
    return bool(parts) and all(p <= other.words for p in parts)


def _sibling_named(ident: str, other: Lesson) -> bool:
    """``other`` names another path in the folder ``ident`` is in: ``.terraform/providers`` is not
    found in a lesson about ``.terraform/modules``, though both name ``.terraform`` and a word of
    one ("cache") may be a part of the other."""
    folder = ident.rstrip("/").rpartition("/")[0]
    if not folder:
        return False
    inside = folder + "/"
    return any(
        o.startswith(inside) and not ident.startswith(o) and not o.startswith(ident)
        for o in other.identifiers
    )


@functools.lru_cache(maxsize=1 << 14)
def identifier_part_stems(ident: str) -> tuple[frozenset[str], ...]:
    """The stems of each part of an identifier (two characters or more, not a number, not a stopword).

    Two-letter parts count: ``sku_id`` is not found in a lesson about SKUs, nor ``FX_CACHE_TTL`` in
    one about ``REPORT_CACHE_TTL`` (tenth session's probe: both merged, one closed the other).
    Cached: the same identifiers are looked up in lesson after lesson, and the split is an RE2 pass.
    """
    return tuple(
        lesson_stems(p)
        for p in _NON_ALNUM.split(ident)
        if len(p) > 1 and not p.isdigit() and (len(p) > 2 or p.lower() not in STOPWORDS)
    )


def found_flags(a: Lesson, b: Lesson) -> dict[str, bool]:
    """For each identifier of ``a``, whether it is found in ``b`` (:func:`found_in`), worked out once."""
    return {i: found_in(i, b) for i in a.identifiers}


def similarity(a: Lesson, b: Lesson) -> float:
    """How alike two lessons' words are, in [0, 1]: the mean of overlap and Jaccard of their stems."""
    return similarity_of_words(a.words, b.words)


def similarity_of_words(a: frozenset[str], b: frozenset[str]) -> float:
    """:func:`similarity` of two sets of words."""
    return (overlap(a, b) + _jaccard(a, b)) / 2


# Thresholds, set on the tuning half of the labelled pairs (benchmarks/lesson_pairs.py).
SAME_WITH_IDENTIFIER = 0.1  # shared identifiers, none on either side that the other lacks
SAME_WITH_EXTRA_IDENTIFIER = 0.15  # shared identifiers, and one side names something more
SAME_DESPITE_OTHER_STRONG = 0.8  # ... and both name unmistakable things (paths, variables) the other lacks
SAME_DESPITE_OTHER_IDENTIFIERS = 0.5  # shared identifiers, but each side names things the other does not
SAME_ONE_SIDED = 0.5  # only one side has identifiers, the other does not mention them
SAME_WITHOUT_IDENTIFIER = 0.35
# ... and, with shared identifiers, the words beyond them must agree this much.
SAME_BEYOND_IDENTIFIERS = 0.2

_CANONICAL = {"production": "prod", "development": "dev"}


@functools.lru_cache(maxsize=1 << 14)
def _environments(text: str) -> frozenset[str]:
    return frozenset(_CANONICAL.get(m.lower(), m.lower()) for m in _ENVIRONMENT.findall(text))


def other_environment(a: Lesson, b: Lesson) -> bool:
    """Each names deployment environments, and none the other does."""
    x, y = _environments(a.text), _environments(b.text)
    return bool(x) and bool(y) and not (x & y)


@functools.lru_cache(maxsize=1 << 14)
def _order_and_place(text: str) -> tuple[bool, str]:
    """Whether a learning forbids, and where it is about: "ci", "local", or "" (neither or both)."""
    ci, local = _CI.search(text) is not None, _LOCAL.search(text) is not None
    place = "ci" if ci and not local else "local" if local and not ci else ""
    return _FORBIDS.search(text) is not None, place


def opposite_orders_elsewhere(a: Lesson, b: Lesson) -> bool:
    """One forbids and the other does not, and one is about CI, the other about a local machine."""
    return _order_and_place(a.text)[0] != _order_and_place(b.text)[0] and elsewhere(a, b)


def elsewhere(a: Lesson, b: Lesson) -> bool:
    """One is about CI, the other about a local machine."""
    place_a, place_b = _order_and_place(a.text)[1], _order_and_place(b.text)[1]
    return bool(place_a) and bool(place_b) and place_a != place_b


def other_places(a_in_b: dict[str, bool], b_in_a: dict[str, bool]) -> bool:
    """Each names a path the other lacks, and the two part under a shared folder: two places of a
    monorepo ("In services/billing run `make generate`" and "In services/search run `make
    generate`" are two lessons, however alike their words)."""
    mine = [_segments(i) for i, found in a_in_b.items() if not found and "/" in i.strip("/")]
    theirs = [_segments(i) for i, found in b_in_a.items() if not found and "/" in i.strip("/")]
    for x in mine:
        for y in theirs:
            shared = next((n for n, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), None)
            if shared is not None and shared > 0:
                return True
    return False


def _segments(path: str) -> list[str]:
    return [p for p in path.strip("/").split("/") if p and p != "."]


def _identifier_stems(lesson: Lesson) -> frozenset[str]:
    return frozenset(w for ident in lesson.identifiers for w in lesson_stems(ident.replace("@", " ")))


def rest_similarity(a: Lesson, b: Lesson) -> float:
    """:func:`similarity` of the words outside both lessons' identifiers (1 when either has none)."""
    named = _identifier_stems(a) | _identifier_stems(b)
    rest_a, rest_b = a.words - named, b.words - named
    if not rest_a or not rest_b:
        return 1.0
    return (overlap(rest_a, rest_b) + _jaccard(rest_a, rest_b)) / 2
