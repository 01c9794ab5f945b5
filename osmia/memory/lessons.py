"""Lessons: when two learnings say the same thing, when a newer one replaces an older one,
and whether one says anything at all.

Lexical and deterministic. A lesson's **identifiers** (code spans, commands,
paths, environment variables, flags, versions, dotted and snake/camel-case
names) are strong evidence: two lessons that share a distinctive identifier and
agree on some of their other words are one lesson; two lessons whose
identifiers are all different are two. Without identifiers, English stems
decide (``regenerate``/``regenerated``, ``queries``/``query``).

This module is the facade callers use, and holds :func:`same_lesson`. The parts it is built from,
one way: how a learning is read into a :class:`Lesson` (and whether it says anything at all,
:attr:`Lesson.specific`), :mod:`osmia.memory.lesson_parse`; how alike two lessons are and whether
they are about one place, :mod:`osmia.memory.lesson_likeness`; whether they give another version
or value of one thing, :mod:`osmia.memory.lesson_values`; whether a newer one replaces an older,
:mod:`osmia.memory.supersession`; what a learning calls gone or replaced,
:mod:`osmia.memory.obsolete`.

The decision is measured on a labelled set of several hundred pairs
(``benchmarks/lesson_pairs.py``; docs/performance.md has the figures).
"""

from __future__ import annotations

from osmia.memory.lesson_likeness import (
    SAME_BEYOND_IDENTIFIERS,
    SAME_DESPITE_OTHER_IDENTIFIERS,
    SAME_DESPITE_OTHER_STRONG,
    SAME_ONE_SIDED,
    SAME_WITH_EXTRA_IDENTIFIER,
    SAME_WITH_IDENTIFIER,
    SAME_WITHOUT_IDENTIFIER,
    found_flags,
    found_in,
    identifier_part_stems,
    opposite_orders_elsewhere,
    other_environment,
    other_places,
    rest_similarity,
    similarity,
    similarity_of_words,
)
from osmia.memory.lesson_parse import GENERIC_WORDS, RUNTIMES, Lesson, lesson, lesson_words
from osmia.memory.lesson_values import versions_or_values_differ
from osmia.memory.obsolete import names_obsolete
from osmia.memory.short_forms import lesson_stems
from osmia.memory.supersession import obsoletes, replaces, supersedes
from osmia.memory.swapped_things import swapped_thing

__all__ = [
    "GENERIC_WORDS",
    "RUNTIMES",
    "SAME_BEYOND_IDENTIFIERS",
    "SAME_DESPITE_OTHER_IDENTIFIERS",
    "SAME_DESPITE_OTHER_STRONG",
    "SAME_ONE_SIDED",
    "SAME_WITHOUT_IDENTIFIER",
    "SAME_WITH_EXTRA_IDENTIFIER",
    "SAME_WITH_IDENTIFIER",
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
    a_in_b, b_in_a = found_flags(a, b), found_flags(b, a)
    sim = similarity(a, b)
    if not (_same_from(a, b, a_in_b, b_in_a, sim) and _same_from(b, a, b_in_a, a_in_b, sim)):
        return False
    # The rules that keep apart what the words and identifiers would join. Each reads its
    # text once and keeps what it read (a first visit of a text costs most of a comparison,
    # docs/performance.md §41), so they come after the rules above, which most pairs fail.
    if replaces(a, b, a_in_b) or replaces(b, a, b_in_a) or obsoletes(a, b) or obsoletes(b, a):
        return False
    if _opposite(a.words, b.words) or other_environment(a, b) or opposite_orders_elsewhere(a, b):
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
            return sim >= SAME_DESPITE_OTHER_STRONG and not other_places(a_in_b, b_in_a)
        if only_a and only_b:
            return sim >= SAME_DESPITE_OTHER_IDENTIFIERS
        if sim < (SAME_WITH_EXTRA_IDENTIFIER if strong_a or strong_b else SAME_WITH_IDENTIFIER):
            return False
        # A shared folder is a shared place, not a shared statement: when the only identifiers
        # the two share are paths, the statement is in the other words. Two remarks about one
        # folder ("X caching in pkg/stock/ depends on ...", "Y handling in pkg/stock/ depends on
        # ...") name the same place and say different things.
        if all("/" in i for i, found in a_in_b.items() if found):
            return rest_similarity(a, b) >= SAME_BEYOND_IDENTIFIERS

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


def _opposite(a: frozenset[str], b: frozenset[str]) -> bool:
    """One lesson's words hold one of an antonym pair, the other's the other, and neither both."""

    def apart(x: frozenset[str], y: frozenset[str]) -> bool:
        return x <= a and y <= b and not (y <= a or x <= b)

    return any(apart(x, y) or apart(y, x) for x, y in _ANTONYMS)


def informative(text: str) -> bool:
    """Whether a learning says something worth storing: :attr:`Lesson.specific`, or it names a
    thing it calls obsolete ("make test was removed; use `just test` now" names only common
    commands, and says that one of them is gone)."""
    return lesson(text).specific or names_obsolete(text)
