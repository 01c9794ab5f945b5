"""A learning's parsed form, kept in the store so that extraction does not parse a repository again.

Before a run's learnings are merged, each is compared with every valid learning of its
repository (:mod:`osmia.memory.resolve`), and each stored one must first be read into a
:class:`~osmia.memory.lessons.Lesson`: 15-35 µs a learning, ~100 of them a repository. The
in-process cache of parsed lessons holds 16k, a store at 100k nodes has ~60k learnings, so the
first extraction in a repository after start-up, or after others pushed it out, parsed them all:
the extraction latency's tail (docs/performance.md §13).

The form is stored in ``lesson_forms``, keyed by the node's ``seq``: the lesson's fields joined
by ASCII separator characters (no token the parser makes holds one, Python splits text at them;
a lesson that would is given no form), led by the parser's :data:`FORM_VERSION` and a CRC of the
text it was parsed from. Reading one back costs ~3-4 µs (JSON took half as long again). A form is
a cache, never the truth: one of another parser version, or of a text that is not the node's (an
edited row), reads as missing, and a missing one is parsed and written in the extraction's own
transaction. A trigger deletes a learning's form with the learning.
"""

from __future__ import annotations

import zlib

from osmia.memory.lesson_parse import Lesson, lesson

# Bump whenever :func:`osmia.memory.lesson_parse.lesson` reads a text differently: stored forms of
# the older version then read as missing and are parsed again. ``tests/memory/test_lesson_forms.py``
# pins a digest of the forms of the labelled pairs' texts, so a parser change without a bump fails.
FORM_VERSION = 9

_FIELD, _ITEM, _PAIR = "\x1e", "\x1f", "\x1d"  # record, unit and group separators
_SEPARATORS = frozenset(_FIELD + _ITEM + _PAIR)
_EMPTY: frozenset[str] = frozenset()


def form_of(text: str) -> str:
    """The stored form of the learning ``text``; ``''`` (read as missing) should an item be empty or
    hold a separator.

    Fields: version, CRC of the text, identifiers, strong identifiers, words (sets sorted),
    versions, settings (``tool``/``name`` and value joined by the group separator).
    """
    parsed = lesson(text)
    fields = [
        str(FORM_VERSION),
        str(_crc(text)),
        _ITEM.join(sorted(parsed.identifiers)),
        _ITEM.join(sorted(parsed.strong)),
        _ITEM.join(sorted(parsed.words)),
        _ITEM.join(f"{a}{_PAIR}{b}" for a, b in parsed.versions),
        _ITEM.join(f"{a}{_PAIR}{b}" for a, b in parsed.settings),
    ]
    items = [
        *parsed.identifiers,
        *parsed.words,
        *(x for pair in (*parsed.versions, *parsed.settings) for x in pair),
    ]
    if any(not item or not _SEPARATORS.isdisjoint(item) for item in items):
        return ""  # read as missing: such a learning is parsed each time
    return _FIELD.join(fields)


def lesson_from_form(text: str, form: str | None) -> Lesson | None:
    """The :class:`Lesson` of ``text`` read from its stored ``form``; None when it must be parsed again.

    None for no form, a form of another parser version or of another text, or one that does not
    read as a form at all (a damaged row is parsed again, not trusted).
    """
    if not form:
        return None
    fields = form.split(_FIELD)
    if len(fields) != 7 or fields[0] != _VERSION_TEXT or fields[1] != str(_crc(text)):
        return None
    _version, _check, identifiers, strong, words, versions, settings = fields
    try:
        return Lesson(
            text=text,
            identifiers=frozenset(identifiers.split(_ITEM)) if identifiers else _EMPTY,
            strong=frozenset(strong.split(_ITEM)) if strong else _EMPTY,
            words=frozenset(words.split(_ITEM)) if words else _EMPTY,
            versions=_pairs(versions),
            settings=_pairs(settings),
        )
    except ValueError:  # a pair that is not one
        return None


_VERSION_TEXT = str(FORM_VERSION)


def _pairs(field: str) -> tuple[tuple[str, str], ...]:
    if not field:
        return ()
    out = []
    for item in field.split(_ITEM):
        a, b = item.split(_PAIR)
        out.append((a, b))
    return tuple(out)


def _crc(text: str) -> int:
    return zlib.crc32(text.encode())
