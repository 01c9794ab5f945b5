"""A learning's parsed form, kept in the store so that extraction does not parse a repository again.

Before a run's learnings are merged, each is compared with every valid learning of its
repository (:mod:`osmia.memory.resolve`), and each stored one must first be read into a
:class:`~osmia.memory.lessons.Lesson`: 15-35 µs a learning, ~100 of them a repository. The
in-process cache of parsed lessons holds 16k, a store at 100k nodes has ~60k learnings, so the
first extraction in a repository after start-up, or after others pushed it out, parsed them all:
the extraction latency's tail (docs/performance.md §13).

The form is stored in ``lesson_forms``, keyed by the node's ``seq``: JSON of the lesson's fields
with the parser's :data:`FORM_VERSION` and a CRC of the text it was parsed from. Reading one back
costs ~4 µs. A form is a cache, never the truth: one of another parser version, or of a text that
is not the node's (an edited row), reads as missing, and a missing one is parsed and written in
the extraction's own transaction. A trigger deletes a learning's form with the learning.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from osmia.memory.lesson_parse import Lesson, lesson

# Bump whenever :func:`osmia.memory.lesson_parse.lesson` reads a text differently: stored forms of
# the older version then read as missing and are parsed again. ``tests/memory/test_lesson_forms.py``
# pins a digest of the forms of the labelled pairs' texts, so a parser change without a bump fails.
FORM_VERSION = 1


def form_of(text: str) -> str:
    """The stored form of the learning ``text``.

    JSON: ``[version, crc, identifiers, strong, words, versions, settings]``, sets sorted.
    """
    parsed = lesson(text)
    return json.dumps(
        [
            FORM_VERSION,
            _crc(text),
            sorted(parsed.identifiers),
            sorted(parsed.strong),
            sorted(parsed.words),
            parsed.versions,
            parsed.settings,
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


def lesson_from_form(text: str, form: str | None) -> Lesson | None:
    """The :class:`Lesson` of ``text`` read from its stored ``form``; None when it must be parsed again.

    None for no form, a form of another parser version or of another text, or one that does not
    read as a form at all (a damaged row is parsed again, not trusted).
    """
    if not form:
        return None
    try:
        data: Any = json.loads(form)
        version, crc, identifiers, strong, words, versions, settings = data
        if version != FORM_VERSION or crc != _crc(text):
            return None
        return Lesson(
            text=text,
            identifiers=frozenset(identifiers),
            strong=frozenset(strong),
            words=frozenset(words),
            versions=tuple((str(tool), str(v)) for tool, v in versions),
            settings=tuple((str(name), str(value)) for name, value in settings),
        )
    except (ValueError, TypeError):
        return None


def _crc(text: str) -> int:
    return zlib.crc32(text.encode())
