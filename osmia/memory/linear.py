"""Regular expressions that run in linear time on untrusted text (RE2).

Python's ``re`` backtracks: a pattern such as ``a.*b|b.*a`` takes quadratic
time on text an agent controls (16 s at 64 KB was measured). Every pattern
Osmia runs on text a run wrote (redaction, cleaning, hostility checks,
failure classification) is compiled here with Google's RE2, whose matching
time is linear in the text whatever the pattern. RE2 has no look-around and
no back-references; the patterns are written without them.

Text is given to RE2 as UTF-8; a lone surrogate (valid in a Python ``str``,
invalid in UTF-8, and possible in JSON) becomes ``U+FFFD`` first instead of
raising.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, cast

import re2

REPLACEMENT = "\ufffd"


class Match(Protocol):
    """The parts of a match object Osmia uses (RE2's and ``re``'s agree on these)."""

    def group(self, index: int = 0, /) -> str | None:
        """The text of group ``index`` (``None`` when it did not take part)."""
        ...

    def start(self, index: int = 0, /) -> int:
        """Where group ``index`` starts (-1 when it did not take part)."""
        ...

    def end(self, index: int = 0, /) -> int:
        """Where group ``index`` ends (-1 when it did not take part)."""
        ...


def encodable(text: str) -> str:
    """``text`` with lone surrogates replaced, so that it can be encoded as UTF-8."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text


class LinearPattern:
    """A compiled RE2 pattern with the ``re`` methods Osmia needs, typed."""

    __slots__ = ("_compiled", "pattern")

    def __init__(self, pattern: str, *, capture: bool = True, max_mem: int = 8 << 20) -> None:
        self.pattern = pattern
        options = re2.Options()
        options.log_errors = False  # RE2 would print to stderr (a DFA over budget falls back, still linear)
        options.never_capture = not capture
        options.max_mem = max_mem
        self._compiled = re2.compile(pattern, options)

    def search(self, text: str) -> Match | None:
        """The first match in ``text``, or ``None``."""
        return cast("Match | None", self._compiled.search(encodable(text)))

    def match(self, text: str) -> Match | None:
        """A match at the start of ``text``, or ``None``."""
        return cast("Match | None", self._compiled.match(encodable(text)))

    def fullmatch(self, text: str) -> Match | None:
        """A match of the whole of ``text``, or ``None``."""
        return cast("Match | None", self._compiled.fullmatch(encodable(text)))

    def split(self, text: str) -> list[str]:
        """``text`` cut at every match (the pieces between; groups are not kept)."""
        text = encodable(text)
        pieces, end = [], 0
        for m in self._compiled.finditer(text):
            pieces.append(text[end : m.start()])
            end = m.end()
        pieces.append(text[end:])
        return pieces

    def finditer(self, text: str) -> Iterator[Match]:
        """Every non-overlapping match, left to right."""
        return cast("Iterator[Match]", self._compiled.finditer(encodable(text)))

    def findall(self, text: str) -> list[str]:
        """The text of every non-overlapping match (group 1 when the pattern has groups)."""
        return [str(m.group(1) if self._compiled.groups else m.group(0)) for m in self.finditer(text)]

    def sub(self, replacement: str | Callable[[Match], str], text: str) -> str:
        """``text`` with every match replaced (a string is used literally, without group references)."""
        text = encodable(text)
        if self._compiled.search(text) is None:
            return text
        if isinstance(replacement, str):
            literal = replacement
            return cast(str, self._compiled.sub(lambda _m: literal, text))
        return cast(str, self._compiled.sub(replacement, text))


def linear(pattern: str) -> LinearPattern:
    """Compile ``pattern`` with RE2 (raises ``re2.error`` for syntax RE2 does not have)."""
    return LinearPattern(pattern)


def any_of(patterns: Iterable[str]) -> LinearPattern:
    """One pattern that matches where any of ``patterns`` does: a prefilter searched once.

    Each pattern's leading inline flags (``(?is)``) are scoped to its own
    alternative; groups are not captured. Many texts match none of a family of
    patterns, and one RE2 search costs what ten separate ones do not.
    """
    parts = []
    for pattern in patterns:
        flags = ""
        if pattern.startswith("(?") and ")" in pattern and pattern[2] not in ":=!<P":
            flags, _, pattern = pattern[2:].partition(")")
        parts.append(f"(?{flags}:{pattern})")
    return LinearPattern("|".join(parts), capture=False, max_mem=64 << 20)


class AnyOf:
    """Whether any of several patterns matches somewhere in a text: a prefilter.

    ``patterns`` are searched as one union (:func:`any_of`); each of ``apart`` on its own, after
    it. A pattern that counts a long run of common characters with no literal before it
    (``[A-Za-z0-9+/_-]{32,}``) is kept apart: inside a union, every long identifier of a text
    (``test_coupon_subscription_concurrent``) walks the union's automaton through states RE2 has
    to build the first time, one a character, each holding every count still alive. Alone, such
    a pattern's automaton has a few dozen states, built once (docs/performance.md §31).
    """

    __slots__ = ("_union", "alone", "apart", "joined")

    def __init__(self, patterns: Iterable[str], *, apart: Iterable[str] = ()) -> None:
        self.joined = tuple(patterns)
        self.apart = tuple(apart)
        self._union = any_of(self.joined) if self.joined else None
        self.alone = tuple(LinearPattern(pattern, capture=False) for pattern in self.apart)

    def union_search(self, text: str) -> Match | None:
        """A match of the union of the patterns not kept apart, or ``None``."""
        return self._union.search(text) if self._union is not None else None

    def search(self, text: str) -> Match | None:
        """A match of one of the patterns in ``text`` (the union's first), or ``None``."""
        found = self.union_search(text)
        for pattern in self.alone:
            if found is not None:
                break
            found = pattern.search(text)
        return found


class PatternSet:
    """Which of several patterns match somewhere in a text, found in one scan (RE2's ``Set``).

    Searching each pattern in turn costs one RE2 call apiece (~2 µs each, however short the
    text); a set answers for all of them at once. The patterns whose indices are in ``apart``
    are searched on their own instead, for the reason :class:`AnyOf` gives. RE2's set gives no
    answer when its automaton runs out of memory on some input, which looks like no pattern
    matching: an empty answer is checked against the union of the set's patterns, and when that
    matches, every pattern of the set is named (a superset, never fewer than match).
    """

    __slots__ = ("_apart", "_indices", "_set", "prefilter")

    def __init__(
        self, patterns: Iterable[str], *, apart: Iterable[int] = (), max_mem: int = 64 << 20
    ) -> None:
        listed = list(patterns)
        self._apart = sorted(set(apart))
        self._indices = [index for index in range(len(listed)) if index not in self._apart]
        # Whether any of them matches (the check of an empty answer shares its automata).
        self.prefilter = AnyOf(
            (listed[index] for index in self._indices), apart=(listed[index] for index in self._apart)
        )
        options = re2.Options()
        options.log_errors = False
        options.max_mem = max_mem
        self._set = re2.Set.SearchSet(options)
        for index in self._indices:
            self._set.Add(listed[index])
        self._set.Compile()

    def matching(self, text: str) -> list[int]:
        """The indices of the patterns that match somewhere in ``text``, ascending (all of the
        set's when RE2 could not tell which)."""
        text = encodable(text)
        found = [self._indices[k] for k in self._set.Match(text) or ()] if self._indices else []
        if not found and self.prefilter.union_search(text) is not None:
            found = list(self._indices)  # the automaton ran out of memory: any of them may match
        found.extend(
            index
            for index, pattern in zip(self._apart, self.prefilter.alone, strict=True)
            if pattern.search(text) is not None
        )
        return sorted(found)
