"""A cheap screen before two learnings are compared: which stored lessons a new one could match.

Extraction compares every new learning with each valid learning of its repository
(:mod:`osmia.memory.resolve`). The full comparison needs both sides parsed
(:func:`osmia.memory.lessons.lesson`: ten RE2 passes and the stems of every word),
and most stored lessons turn out to share nothing decisive with the new one: a
cold repository of 170 learnings cost 10-25 ms per new learning, the tail of the
extraction latency at 100k nodes (docs/performance.md).

:func:`could_match` answers from a :class:`Sketch` of the stored side (its
lower-case text and its word stems, both cheap) and returns ``False`` only when the
full comparison could neither merge the two (``same_lesson``) nor close the stored
one (``supersedes``). It is a necessary condition, never a heuristic: the pairs it
passes are compared exactly as before, so every decision is the same. Each step
says which rule of :mod:`osmia.memory.lessons` it follows from.
"""

from __future__ import annotations

from dataclasses import dataclass

from osmia.memory.lessons import (
    SAME_WITH_IDENTIFIER,
    SAME_WITHOUT_IDENTIFIER,
    Lesson,
    identifier_part_stems,
    lesson_words,
    similarity_of_words,
)


@dataclass(frozen=True)
class Sketch:
    """What the screen needs of a stored learning: its text, lower-cased, and its words."""

    text: str
    lower: str
    words: frozenset[str]
    ascii: bool  # identifier atoms of ASCII text are substrings of ``lower`` (see :func:`could_match`)


def sketch(text: str) -> Sketch:
    """The :class:`Sketch` of one learning's text."""
    return Sketch(text=text, lower=text.lower(), words=lesson_words(text), ascii=text.isascii())


def _may_name(ident: str, other: Sketch) -> bool:
    """Whether ``ident`` could equal an identifier atom of ``other``.

    Every atom of an ASCII text is a lower-cased piece of it (a code-span token, a path, a
    variable, a flag, a code-style word, a command's subcommand), except a version, which is
    ``tool@version`` with both parts pieces of it.
    """
    if "@" in ident:
        return all(part in other.lower for part in ident.split("@"))
    return ident in other.lower


def _may_be_found(ident: str, other: Sketch) -> bool:
    """Whether :func:`osmia.memory.lessons._found_in` could hold for ``ident`` in ``other``.

    It holds when ``ident`` equals an atom of ``other``, when one of the two (both longer than
    three characters, neither a version) contains the other, or when the stems of each part of
    ``ident`` are words of ``other``. An atom inside ``ident`` that is longer than three
    characters contains one of ``ident``'s four-character pieces, and so does ``other``'s text.
    """
    if _may_name(ident, other):
        return True
    if "@" in ident:
        return False  # a version is found only as itself
    if len(ident) > 3 and any(ident[i : i + 4] in other.lower for i in range(len(ident) - 3)):
        return True
    return _parts_found(ident, other.words)


def _parts_found(ident: str, words: frozenset[str]) -> bool:
    parts = identifier_part_stems(ident)
    return bool(parts) and all(p <= words for p in parts)


def could_match(mine: Lesson, other: Sketch) -> bool:
    """False only when comparing ``mine`` with the stored learning ``other`` cannot change anything.

    The comparison in :func:`osmia.memory.resolve.resolve_lesson` acts on a pair that is related
    (two shared words or a shared identifier) and either the same lesson or a replacement:

    * ``same_lesson`` holds for equal texts, or with a shared identifier at a word similarity of
      at least ``SAME_WITH_IDENTIFIER`` (its lowest threshold), or without one at
      ``SAME_WITHOUT_IDENTIFIER`` or more;
    * ``supersedes`` needs another version of a tool or another value of a setting both name,
      or an "instead of" about a shared identifier at a similarity of 0.2.

    Non-ASCII text is always compared in full (lower-casing it may not keep its pieces apart).
    """
    if not other.ascii or mine.text == other.text:
        return True
    shared_words = len(mine.words & other.words)
    if shared_words < 2 and not any(_may_name(i, other) for i in mine.identifiers):
        return False  # not related
    sim = similarity_of_words(mine.words, other.words)
    if sim >= SAME_WITHOUT_IDENTIFIER:
        return True
    if any(tool in other.lower for tool, _ in mine.versions):
        return True  # another version of the same tool?
    if any(name in other.lower for name, _ in mine.settings):
        return True  # another value of the same setting?
    if sim < SAME_WITH_IDENTIFIER:
        return False
    return any(_may_be_found(i, other) for i in mine.identifiers)
