"""Lessons: when two learnings say the same thing, when a newer one replaces an older one,
and whether one says anything at all.

Lexical and deterministic. A lesson's **identifiers** (code spans, commands,
paths, environment variables, flags, versions, dotted and snake/camel-case
names) are strong evidence: two lessons that share a distinctive identifier and
agree on some of their other words are one lesson; two lessons whose
identifiers are all different are two. Without identifiers, English stems
decide (``regenerate``/``regenerated``, ``queries``/``query``).

A newer lesson **supersedes** an older one about the same subject when it gives
another version of the same tool or runtime (``numpy 1.26`` → ``numpy 2.x``),
another value for the same setting (``TIMEOUT=30`` → ``TIMEOUT=60``), or says it
replaces what the older one named ("use `uv` instead of `pip`").

The decision is measured on a labelled set of several hundred pairs
(``benchmarks/lesson_pairs.py``; docs/performance.md has the figures). How a learning
is read into a :class:`Lesson` (and whether it says anything at all,
:attr:`Lesson.specific`) is :mod:`osmia.memory.lesson_parse`; what a learning calls gone or
replaced, :mod:`osmia.memory.obsolete`.
"""

from __future__ import annotations

import functools

from osmia.memory.lesson_parse import GENERIC_WORDS, RUNTIMES, Lesson, lesson, lesson_words, magnitude
from osmia.memory.linear import LinearPattern, linear
from osmia.memory.obsolete import (
    may_be_obsoleted,
    names_obsolete,
    normalised,
    obsolete_things,
    only_runs,
    told,
)
from osmia.memory.short_forms import lesson_stems
from osmia.memory.subjects import other_subjects
from osmia.memory.swapped_things import swapped_thing
from osmia.memory.text import STOPWORDS

__all__ = [
    "GENERIC_WORDS",
    "RUNTIMES",
    "Lesson",
    "found_in",
    "identifier_part_stems",
    "informative",
    "lesson",
    "lesson_words",
    "same_lesson",
    "similarity",
    "similarity_of_words",
    "supersedes",
    "versions_or_values_differ",
]

_REPLACES = linear(
    r"(?i)\binstead\s+of\b|\bno\s+longer\b|\breplac(?:ed|es|e)\b|\bdeprecated\b|\bswitched\b|\bmigrated\s+(?:from|to|away|off)\b"
    r"|\bnot\s+any\s*more\b|\banymore\b|\bmoved\s+(?:from|to)\b|\bnow\b|\breverted\b|\brolled\s+back\b"
    r"|\bswitched\s+back\b"
)
_NON_ALNUM = linear(r"[^a-z0-9]+")

# The deployment environments a lesson may be about ("prod workspace needs two approvals" and "dev
# workspace needs none" are two lessons). Not CI and local: "CI runs vale; run vale locally" is one.
_ENVIRONMENT = linear(r"(?i)\b(prod|production|staging|dev|development|preprod|sandbox)\b")
# CI against a developer's machine is a place only with opposite orders: "Use --no-cache in CI" and
# "Never use --no-cache locally" are two lessons, "CI runs vale; run it locally too" one.
_CI = linear(r"(?i)\b(?:ci|pipeline)\b")
_LOCAL = linear(r"(?i)\b(?:local|locally|laptop)\b")
_FORBIDS = linear(r"(?i)\b(?:never|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid)\b")
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
# Every compiled pattern of this module (tests check that each is an RE2 one); the parsing ones are
# osmia.memory.lesson_parse.PATTERNS, the ones reading what is obsolete osmia.memory.obsolete.PATTERNS.
PATTERNS: tuple[LinearPattern, ...] = (
    _REPLACES,
    _NON_ALNUM,
    _ENVIRONMENT,
    _CI,
    _LOCAL,
    _FORBIDS,
    _CLAUSE,
    _REJECTED,
    _VERSION_TOKEN,
    _CHANGED,
)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Overlap coefficient: shared share of the smaller set."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def _newer_version(a: Lesson, b: Lesson) -> bool:
    """Both name one tool with versions that disagree (neither is a prefix of the other)."""
    theirs: dict[str, set[str]] = {}
    for tool, version in b.versions:
        theirs.setdefault(tool, set()).add(version)
    for tool, version in a.versions:
        if any(not _compatible(version, other) for other in theirs.get(tool, ())):
            return True
    return False


def _versions_apart(a: Lesson, b: Lesson) -> bool:
    """Both name one tool with versions that disagree (:func:`_newer_version`), unless one of them
    names every version the other gives, and one more, without reporting a change or saying that
    the shared one fails.

    "CI has Xcode 14, select 15 with xcode-select" and "The simulator tests need Xcode 15" are one
    lesson: the first names the version it moves away from too. "All projects were retargeted to
    net8.0 since net6.0 went out of support" and "Projects target net6.0" are two: a change is
    reported (:data:`_CHANGED`, or a replacement marker). So are "Use node 20; Node 18 breaks the
    build" and "Use Node 18": the wider one says the shared version fails (:func:`_rejects`).
    """
    if not _newer_version(a, b):
        return False
    return not any(
        _covers(wide, narrow) and not _reports_change(wide.text) and not _rejects(wide.text, narrow.versions)
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
def _reports_change(text: str) -> bool:
    """Whether a learning reports a change (a replacement marker, an upgrade, an end of support)."""
    return _says_replaces(text) or _CHANGED.search(text) is not None


def _compatible(x: str, y: str) -> bool:
    """One version is a prefix of the other (``3.11`` and ``3.11.4``, ``18`` and ``18.x``)."""
    p, q = _version_parts(x), _version_parts(y)
    n = min(len(p), len(q))
    return p[:n] == q[:n]


def _version_parts(version: str) -> list[str]:
    return [p for p in version.split(".") if p not in ("x", "*")]


def _other_value(a: Lesson, b: Lesson) -> bool:
    theirs = dict(b.settings)
    return any(name in theirs and theirs[name] != value for name, value in a.settings if name[:1] != "(")


def _other_quantity(a: Lesson, b: Lesson) -> bool:
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
    return _versions_apart(a, b) or _other_value(a, b) or _other_quantity(a, b)


def _things_apart(a: Lesson, b: Lesson) -> bool:
    """Each names identifiers and none is found in the other: a measure of two things (```go test
    ./...` takes 12 minutes`` and ``crates/storage/ benchmarks take 20 minutes``)."""
    return (
        bool(a.strong and b.strong)
        and not any(found_in(i, b) for i in a.identifiers)
        and not any(found_in(i, a) for i in b.identifiers)
    )


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


def _found_flags(a: Lesson, b: Lesson) -> dict[str, bool]:
    """For each identifier of ``a``, whether it is found in ``b`` (:func:`found_in`), worked out once."""
    return {i: found_in(i, b) for i in a.identifiers}


def similarity(a: Lesson, b: Lesson) -> float:
    """How alike two lessons' words are, in [0, 1]: the mean of overlap and Jaccard of their stems."""
    return similarity_of_words(a.words, b.words)


def similarity_of_words(a: frozenset[str], b: frozenset[str]) -> float:
    """:func:`similarity` of two sets of words."""
    return (_overlap(a, b) + _jaccard(a, b)) / 2


# Thresholds, set on the tuning half of the labelled pairs (benchmarks/lesson_pairs.py).
SAME_WITH_IDENTIFIER = 0.1  # shared identifiers, none on either side that the other lacks
SAME_WITH_EXTRA_IDENTIFIER = 0.15  # shared identifiers, and one side names something more
SAME_DESPITE_OTHER_STRONG = 0.8  # ... and both name unmistakable things (paths, variables) the other lacks
SAME_DESPITE_OTHER_IDENTIFIERS = 0.5  # shared identifiers, but each side names things the other does not
SAME_ONE_SIDED = 0.5  # only one side has identifiers, the other does not mention them
SAME_WITHOUT_IDENTIFIER = 0.35
# ... and, with shared identifiers, the words beyond them must agree this much.
SAME_BEYOND_IDENTIFIERS = 0.2


def same_lesson(a: Lesson, b: Lesson) -> bool:
    """True when ``a`` and ``b`` state one lesson (so the newer reinforces the older).

    The same answer in either order: the rules below count shared identifiers from one side, so
    both sides must find the pair one lesson (a learning with a code span and one in plain words
    that mention its parts were one lesson in one order and two in the other).
    """
    if a.text == b.text:
        return True
    if versions_or_values_differ(a, b):
        return False
    # Which identifiers each side finds in the other, once: every rule below counts from these.
    a_in_b, b_in_a = _found_flags(a, b), _found_flags(b, a)
    sim = similarity(a, b)
    if not (_same_from(a, b, a_in_b, b_in_a, sim) and _same_from(b, a, b_in_a, a_in_b, sim)):
        return False
    # The rules that keep apart what the words and identifiers would join. Each reads its
    # text once and keeps what it read (a first visit of a text costs most of a comparison,
    # docs/performance.md §41), so they come after the rules above, which most pairs fail.
    if _replaces(a, b, a_in_b) or _replaces(b, a, b_in_a) or _obsoletes(a, b) or _obsoletes(b, a):
        return False
    if _opposite(a.words, b.words) or _other_environment(a, b) or _opposite_orders_elsewhere(a, b):
        return False
    return not swapped_thing(a.text, b.text)


def _same_from(a: Lesson, b: Lesson, a_in_b: dict[str, bool], b_in_a: dict[str, bool], sim: float) -> bool:
    """The identifier rules of :func:`same_lesson`, counting shared identifiers from ``a``'s side."""
    shared = sum(a_in_b.values())
    only_a, only_b = len(a_in_b) - shared, len(b_in_a) - sum(b_in_a.values())
    if shared:
        # Unshared strong identifiers on each side (every strong identifier is an identifier).
        strong_a = sum(1 for i in a.strong if not a_in_b[i])
        strong_b = sum(1 for i in b.strong if not b_in_a[i])
        if strong_a and strong_b:
            return sim >= SAME_DESPITE_OTHER_STRONG and not _other_places(a_in_b, b_in_a)
        if only_a and only_b:
            return sim >= SAME_DESPITE_OTHER_IDENTIFIERS
        if sim < (SAME_WITH_EXTRA_IDENTIFIER if strong_a or strong_b else SAME_WITH_IDENTIFIER):
            return False
        # A shared folder is a shared place, not a shared statement: when the only identifiers
        # the two share are paths, the statement is in the other words. Two remarks about one
        # folder ("X caching in pkg/stock/ depends on ...", "Y handling in pkg/stock/ depends on
        # ...") name the same place and say different things.
        if all("/" in i for i, found in a_in_b.items() if found):
            return _rest_similarity(a, b) >= SAME_BEYOND_IDENTIFIERS

        return True
    if a.identifiers and b.identifiers:
        return False  # each names its own things: two lessons
    if a.strong or b.strong:
        return sim >= SAME_ONE_SIDED
    return sim >= SAME_WITHOUT_IDENTIFIER


# Words whose stems, one in each lesson and not the other, make two lessons of two alike
# sentences ("Enable the rustls feature for Alpine" and "Disable the rustls feature for the FIPS
# image"). Only pairs that cannot restate each other: "raise the cleanup" says "lower the retention".
_ANTONYMS = tuple(
    (lesson_stems(x), lesson_stems(y))
    for x, y in (("enable", "disable"), ("enabled", "disabled"), ("allow", "deny"), ("include", "exclude"))
)
_CANONICAL = {"production": "prod", "development": "dev"}


def _opposite(a: frozenset[str], b: frozenset[str]) -> bool:
    """One lesson's words hold one of an antonym pair, the other's the other, and neither both."""

    def apart(x: frozenset[str], y: frozenset[str]) -> bool:
        return x <= a and y <= b and not (y <= a or x <= b)

    return any(apart(x, y) or apart(y, x) for x, y in _ANTONYMS)


@functools.lru_cache(maxsize=1 << 14)
def _environments(text: str) -> frozenset[str]:
    return frozenset(_CANONICAL.get(m.lower(), m.lower()) for m in _ENVIRONMENT.findall(text))


def _other_environment(a: Lesson, b: Lesson) -> bool:
    """Each names deployment environments, and none the other does."""
    x, y = _environments(a.text), _environments(b.text)
    return bool(x) and bool(y) and not (x & y)


@functools.lru_cache(maxsize=1 << 14)
def _order_and_place(text: str) -> tuple[bool, str]:
    """Whether a learning forbids, and where it is about: "ci", "local", or "" (neither or both)."""
    ci, local = _CI.search(text) is not None, _LOCAL.search(text) is not None
    place = "ci" if ci and not local else "local" if local and not ci else ""
    return _FORBIDS.search(text) is not None, place


def _opposite_orders_elsewhere(a: Lesson, b: Lesson) -> bool:
    """One forbids and the other does not, and one is about CI, the other about a local machine."""
    return _order_and_place(a.text)[0] != _order_and_place(b.text)[0] and _elsewhere(a, b)


def _elsewhere(a: Lesson, b: Lesson) -> bool:
    """One is about CI, the other about a local machine."""
    place_a, place_b = _order_and_place(a.text)[1], _order_and_place(b.text)[1]
    return bool(place_a) and bool(place_b) and place_a != place_b


def _other_places(a_in_b: dict[str, bool], b_in_a: dict[str, bool]) -> bool:
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


def _rest_similarity(a: Lesson, b: Lesson) -> float:
    """:func:`similarity` of the words outside both lessons' identifiers (1 when either has none)."""
    named = _identifier_stems(a) | _identifier_stems(b)
    rest_a, rest_b = a.words - named, b.words - named
    if not rest_a or not rest_b:
        return 1.0
    return (_overlap(rest_a, rest_b) + _jaccard(rest_a, rest_b)) / 2


def _replaces(new: Lesson, old: Lesson, new_in_old: dict[str, bool] | None = None) -> bool:
    """``new`` says it replaces something ``old`` named ("`uv` instead of `pip`", "replaced by bun").

    ``new_in_old``: :func:`_found_flags` of the pair, when the caller has them already.
    """
    if not _says_replaces(new.text):
        return False
    flags = _found_flags(new, old) if new_in_old is None else new_in_old
    shared = sum(flags.values())
    return shared > 0 and len(flags) - shared > 0 and similarity(new, old) >= 0.2


@functools.lru_cache(maxsize=1 << 14)
def _says_replaces(text: str) -> bool:
    """Whether a learning's text has a replacement marker ("instead of", "no longer", "now", ...)."""
    return _REPLACES.search(text) is not None


def supersedes(new: Lesson, old: Lesson) -> bool:
    """True when ``new`` replaces ``old``: another version, another value, "instead of" what it named,
    or it calls what ``old`` tells to do obsolete (:func:`_obsoletes`)."""
    # prod's version is not staging's, nor CI's setting a developer machine's ("HEADLESS=1 in CI",
    # "HEADLESS=0 locally to watch the browser")
    if new.text == old.text or _other_environment(new, old) or _elsewhere(new, old) or _narrower(new, old):
        return False
    named = _newer_version(new, old) or _other_value(new, old)
    if named or _other_quantity(new, old):
        if not named and _things_apart(new, old):
            return False  # only a quantity differs, of something each names apart
        return _overlap(new.words, old.words) >= 0.2 and not other_subjects(
            new, old, _says_replaces(new.text)
        )
    return _replaces(new, old) or _obsoletes(new, old)


# What a value may be given for, narrower than the whole: "for the integration suite", "in the
# imports queue", "for the Next.js build step".
_SCOPE = linear(
    r"(?i)\b(?:for|in|on|of)[ \t]+the[ \t]+((?:[\w.-]+[ \t]+){0,2}?[\w.-]+)[ \t]+(?:suite|tests|job|queue"
    r"|module|service|step|workflow|stage|index|indices|container|process|package|app|image|worker|cluster|build)\b"
)
PATTERNS += (_SCOPE,)


def _narrower(new: Lesson, old: Lesson) -> bool:
    """``new`` gives its value for a part ``old`` does not name ("`pytest -n 1` for the integration
    suite" against "Run tests with `pytest -n 4`"): an exception beside the rule, not its
    replacement. Not when ``old`` names a part of its own (the two are about parts, as the other
    rules judge them), nor when ``new`` says it replaces ("TIMEOUT=60 now for the nightly suite")."""
    if _SCOPE.search(old.text) is not None or _reports_change(new.text):
        return False
    for scope in _SCOPE.finditer(new.text):
        words = lesson_words(scope.group(1) or "")
        if words and not words & old.words:
            return True
    return False


def _obsoletes(new: Lesson, old: Lesson) -> bool:
    """``new`` calls obsolete what ``old`` tells to do.

    "Use `pnpm install` instead of npm ci" against "Install dependencies with npm ci", "make test
    was removed" against "Run tests with `make test`", "switched from pnpm to bun" against "Use
    pnpm, not npm": the older lesson is replaced, not restated, whether or not either has an
    identifier the other shares. Only when a clause of ``old`` that warns against nothing names
    the thing ("never edit by hand" is not told to edit; in "Use pnpm, not npm" pnpm is told, npm
    is not), and when the two are as alike as :func:`same_lesson` asks of lessons without a shared
    identifier, with two words in common, or the thing is one word that is not an act (a tool:
    pnpm, Jenkins; "instead of editing" is not one) or a phrase ``old`` has word for word.
    """
    things = obsolete_things(new.text)
    if not things or new.text == old.text or not may_be_obsoleted(things, old):
        return False  # most lessons call nothing obsolete: no clause of ``old`` is read for them
    clauses = told(old.text)
    things = tuple(
        t for t in things if any(t.named_in(*clause) for clause in clauses) and not only_runs(t, old.text)
    )
    if not things:
        return False
    if len(new.words & old.words) >= 2 and similarity(new, old) >= SAME_WITHOUT_IDENTIFIER:
        return True
    spaced = normalised(old.text)
    return any(f" {t.phrase} " in spaced if " " in t.phrase else not t.phrase.endswith("ing") for t in things)


def informative(text: str) -> bool:
    """Whether a learning says something worth storing: :attr:`Lesson.specific`, or it names a
    thing it calls obsolete ("make test was removed; use `just test` now" names only common
    commands, and says that one of them is gone)."""
    return lesson(text).specific or names_obsolete(text)
