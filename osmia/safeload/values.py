"""The limits of :mod:`osmia.safeload` and the values its loaders build."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting accepted in one document (a TaskRun needs 6)."""

MAX_ALIAS_COST = 100_000
"""How many values all the aliases of one YAML document may stand for, together."""

MAX_STREAM_ALIAS_COST = 1_000_000
"""How many values the aliases of a whole YAML stream may stand for (ten documents at the bound above):
a stream of a thousand alias-heavy documents, each under it, took a minute to check."""

MAX_INT_DIGITS = 20
"""Longest integer literal turned into a number (64-bit integers have at most 19 digits)."""

MAX_OBJECT_CHARS = 3 * 1024 * 1024
"""Largest object, in characters of keys and values: the API server's request limit (3 MiB)."""

MAX_OBJECT_VALUES = 100_000
"""Most values (scalars and containers) in one object; a full TaskRun has a few thousand at most."""

MAX_DOCUMENT_VALUES = 1_000_000
"""Most values in one document (a ``kind: List`` of some 10,000 TaskRuns): bounds the cost of composing."""

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

MAX_PROBLEM_CHARS = 200
"""Longest parser message quoted in an error: PyYAML quotes what it met (a tag, a token), however long."""


def problem_text(text: str) -> str:
    """A parser's message as one short line: whitespace runs collapsed, cut at :data:`MAX_PROBLEM_CHARS`."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_PROBLEM_CHARS else line[: MAX_PROBLEM_CHARS - 1] + "…"


class LoadError(ValueError):
    """A document that cannot be loaded at all: too deep, too many aliases, bad syntax (line and column)."""


@dataclass(frozen=True)
class Refused:
    """A value the API server would refuse, kept in place so :func:`check_object` can name its field."""

    problem: str


class Mapping(dict[Any, Any]):
    """A mapping that remembers the keys it had more than once (the last value wins, as in PyYAML)."""

    duplicates: tuple[str, ...] = ()


def bounded_int(text: str) -> int | Refused:
    """An integer literal as a number, or :class:`Refused` when it has more digits than 64 bits allow."""
    digits = len(text.lstrip("+-").replace("_", ""))
    if digits > MAX_INT_DIGITS:
        return Refused(f"integer of {digits} digits is outside the 64-bit range")
    return int(text)
