"""Supersession: when a newer lesson replaces an older one about the same subject.

It gives another version of the same tool or runtime (``numpy 1.26`` → ``numpy 2.x``), another
value for the same setting (``TIMEOUT=30`` → ``TIMEOUT=60``), says it replaces what the older one
named ("use `uv` instead of `pip`"), or calls obsolete what the older one tells to do ("make test
was removed"). Never across environments or places (prod and staging, CI and a laptop), nor when
the newer gives its value for a narrower part than the older ("for the integration suite").
The decision is measured on the labelled pairs (``benchmarks/lesson_pairs.py``,
``benchmarks/supersede_set.py``); what a learning calls obsolete is :mod:`osmia.memory.obsolete`.
"""

from __future__ import annotations

from osmia.memory.lesson_likeness import (
    SAME_WITHOUT_IDENTIFIER,
    elsewhere,
    found_flags,
    found_in,
    other_environment,
    overlap,
    similarity,
)
from osmia.memory.lesson_parse import Lesson, lesson_words
from osmia.memory.lesson_values import (
    newer_version,
    other_quantity,
    other_value,
    reports_change,
    says_replaces,
)
from osmia.memory.linear import LinearPattern, linear
from osmia.memory.obsolete import may_be_obsoleted, normalised, obsolete_things, only_runs, told
from osmia.memory.subjects import other_subjects

__all__ = ["obsoletes", "replaces", "supersedes"]


def supersedes(new: Lesson, old: Lesson) -> bool:
    """True when ``new`` replaces ``old``: another version, another value, "instead of" what it named,
    or it calls what ``old`` tells to do obsolete (:func:`obsoletes`)."""
    # prod's version is not staging's, nor CI's setting a developer machine's ("HEADLESS=1 in CI",
    # "HEADLESS=0 locally to watch the browser")
    if new.text == old.text or other_environment(new, old) or elsewhere(new, old) or _narrower(new, old):
        return False
    named = newer_version(new, old) or other_value(new, old)
    if named or other_quantity(new, old):
        if not named and _things_apart(new, old):
            return False  # only a quantity differs, of something each names apart
        return overlap(new.words, old.words) >= 0.2 and not other_subjects(new, old, says_replaces(new.text))
    return replaces(new, old) or obsoletes(new, old)


def replaces(new: Lesson, old: Lesson, new_in_old: dict[str, bool] | None = None) -> bool:
    """``new`` says it replaces something ``old`` named ("`uv` instead of `pip`", "replaced by bun").

    ``new_in_old``: :func:`found_flags` of the pair, when the caller has them already.
    """
    if not says_replaces(new.text):
        return False
    flags = found_flags(new, old) if new_in_old is None else new_in_old
    shared = sum(flags.values())
    return shared > 0 and len(flags) - shared > 0 and similarity(new, old) >= 0.2


def _things_apart(a: Lesson, b: Lesson) -> bool:
    """Each names identifiers and none is found in the other: a measure of two things (```go test
    ./...` takes 12 minutes`` and ``crates/storage/ benchmarks take 20 minutes``)."""
    return (
        bool(a.strong and b.strong)
        and not any(found_in(i, b) for i in a.identifiers)
        and not any(found_in(i, a) for i in b.identifiers)
    )


# What a value may be given for, narrower than the whole: "for the integration suite", "in the
# imports queue", "for the Next.js build step".
_SCOPE = linear(
    r"(?i)\b(?:for|in|on|of)[ \t]+the[ \t]+((?:[\w.-]+[ \t]+){0,2}?[\w.-]+)[ \t]+(?:suite|tests|job|queue"
    r"|module|service|step|workflow|stage|index|indices|container|process|package|app|image|worker|cluster|build)\b"
)
# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (_SCOPE,)


def _narrower(new: Lesson, old: Lesson) -> bool:
    """``new`` gives its value for a part ``old`` does not name ("`pytest -n 1` for the integration
    suite" against "Run tests with `pytest -n 4`"): an exception beside the rule, not its
    replacement. Not when ``old`` names a part of its own (the two are about parts, as the other
    rules judge them), nor when ``new`` says it replaces ("TIMEOUT=60 now for the nightly suite")."""
    if _SCOPE.search(old.text) is not None or reports_change(new.text):
        return False
    for scope in _SCOPE.finditer(new.text):
        words = lesson_words(scope.group(1) or "")
        if words and not words & old.words:
            return True
    return False


def obsoletes(new: Lesson, old: Lesson) -> bool:
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
