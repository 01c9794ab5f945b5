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

ASCII text (nearly all of it) goes to RE2's compiled pattern directly: its byte
offsets are the string's, so a match is read off RE2's spans. The ``re2``
module's own wrapper converts every offset between bytes and characters, a few
microseconds a call and per match, which was most of the time of a search that
found nothing and of every word found by ``finditer`` (docs/performance.md
§41). Other text, and an ``re2`` release without the compiled pattern where it
is looked for, take the wrapper's path; tests/memory/test_linear_fast_path.py
checks both paths give the same answers.
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
    """``text`` with each lone surrogate replaced by one ``U+FFFD``, so that it can be encoded as
    UTF-8 and a match's offsets are still the text's own."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.translate(_SURROGATES)
    return text


# Every surrogate code point (alone in a ``str``: a pair is one character there) to ``U+FFFD``.
_SURROGATES = dict.fromkeys(range(0xD800, 0xE000), REPLACEMENT)


class _AsciiMatch:
    """A match in ASCII text, read off RE2's spans (byte offsets, which are the string's there)."""

    __slots__ = ("_spans", "_text")

    def __init__(self, text: str, spans: list[tuple[int, int]]) -> None:
        self._text = text
        self._spans = spans

    def group(self, index: int = 0, /) -> str | None:
        """The text of group ``index`` (``None`` when it did not take part)."""
        start, end = self._spans[index]
        return None if start < 0 else self._text[start:end]

    def start(self, index: int = 0, /) -> int:
        """Where group ``index`` starts (-1 when it did not take part)."""
        return self._spans[index][0]

    def end(self, index: int = 0, /) -> int:
        """Where group ``index`` ends (-1 when it did not take part)."""
        return self._spans[index][1]


# RE2's anchors, as the compiled pattern takes them; None: this ``re2`` has no compiled pattern
# where the fast path looks for it, and every call takes the wrapper's path.
_ANCHORS = getattr(re2, "_Anchor", None)
_UNANCHORED = getattr(_ANCHORS, "UNANCHORED", None)
_ANCHOR_START = getattr(_ANCHORS, "ANCHOR_START", None)
_ANCHOR_BOTH = getattr(_ANCHORS, "ANCHOR_BOTH", None)
_FAST = None not in (_UNANCHORED, _ANCHOR_START, _ANCHOR_BOTH)


class LinearPattern:
    """A compiled RE2 pattern with the ``re`` methods Osmia needs, typed."""

    __slots__ = ("_compiled", "_regexp", "pattern")

    def __init__(self, pattern: str, *, capture: bool = True, max_mem: int = 8 << 20) -> None:
        self.pattern = pattern
        options = re2.Options()
        options.log_errors = False  # RE2 would print to stderr (a DFA over budget falls back, still linear)
        options.never_capture = not capture
        options.max_mem = max_mem
        self._compiled = re2.compile(pattern, options)
        # The compiled pattern the wrapper drives (the fast path for ASCII text), if it is there.
        self._regexp = getattr(self._compiled, "_regexp", None) if _FAST else None

    @classmethod
    def compiled(cls, pattern: str, compiled: object) -> LinearPattern:
        """A pattern around ``compiled``, a pattern RE2 has compiled already (a filter's own), with
        the groups it was compiled with (none, for a filter's)."""
        self = cls.__new__(cls)
        self.pattern = pattern
        self._compiled = compiled
        self._regexp = getattr(compiled, "_regexp", None) if _FAST else None
        return self

    def _first(self, anchor: object, text: str) -> Match | None:
        """The first match in ASCII ``text`` with ``anchor``, from RE2's spans."""
        assert self._regexp is not None
        spans = self._regexp.Match(anchor, text.encode("ascii"), 0, len(text))
        return None if spans[0][0] < 0 else _AsciiMatch(text, spans)

    def search(self, text: str) -> Match | None:
        """The first match in ``text``, or ``None``."""
        if self._regexp is not None and text.isascii():
            return self._first(_UNANCHORED, text)
        return cast("Match | None", self._compiled.search(encodable(text)))

    def match(self, text: str) -> Match | None:
        """A match at the start of ``text``, or ``None``."""
        if self._regexp is not None and text.isascii():
            return self._first(_ANCHOR_START, text)
        return cast("Match | None", self._compiled.match(encodable(text)))

    def fullmatch(self, text: str) -> Match | None:
        """A match of the whole of ``text``, or ``None``."""
        if self._regexp is not None and text.isascii():
            return self._first(_ANCHOR_BOTH, text)
        return cast("Match | None", self._compiled.fullmatch(encodable(text)))

    def split(self, text: str) -> list[str]:
        """``text`` cut at every match (the pieces between; groups are not kept)."""
        text = encodable(text)
        pieces, end = [], 0
        for m in self.finditer(text):
            pieces.append(text[end : m.start()])
            end = m.end()
        pieces.append(text[end:])
        return pieces

    def finditer(self, text: str) -> Iterator[Match]:
        """Every non-overlapping match, left to right."""
        if self._regexp is not None and text.isascii():
            return self._ascii_matches(text)
        return cast("Iterator[Match]", self._compiled.finditer(encodable(text)))

    def _ascii_matches(self, text: str) -> Iterator[Match]:
        """Every match in ASCII ``text``, stepping as the wrapper does (past an empty match by one)."""
        assert self._regexp is not None
        encoded, position, end = text.encode("ascii"), 0, len(text)
        unanchored, find = _UNANCHORED, self._regexp.Match
        while True:
            spans = find(unanchored, encoded, position, end)
            start, stop = spans[0]
            if start < 0:
                return
            yield _AsciiMatch(text, spans)
            if position == end:
                return
            position = stop if stop != position else position + 1

    def findall(self, text: str) -> list[str]:
        """The text of every non-overlapping match (group 1 when the pattern has groups; empty
        where that group took no part, as ``re`` has it)."""
        index = 1 if self._compiled.groups else 0
        return [m.group(index) or "" for m in self.finditer(text)]

    def sub(self, replacement: str | Callable[[Match], str], text: str) -> str:
        """``text`` with every match replaced (a string is used literally, without group references)."""
        text = encodable(text)
        if self.search(text) is None:
            return text
        pieces, end = [], 0
        for m in self.finditer(text):
            pieces.append(text[end : m.start()])
            pieces.append(replacement if isinstance(replacement, str) else replacement(m))
            end = m.end()
        pieces.append(text[end:])
        return "".join(pieces)


class LinearParts:
    """Several RE2 patterns searched as one alternation of them, each compiled apart.

    RE2 matches in linear time by building a DFA as text walks into it, within a memory budget;
    an alternation of many long parts (the hostility rules, with their bounded gaps) outgrows it,
    and RE2 falls back to its NFA, a hundred times slower: 80 µs a learning instead of 1
    (docs/performance.md §43). Each part keeps a DFA of its own within the budget.

    Only the parts that can match a text are searched (:class:`PartsFilter`): most text holds none
    of the words a part requires, and a part not searched costs no call and builds no state.
    :meth:`finditer` gives every part's matches in turn, so two of them may overlap.
    """

    __slots__ = ("_filter", "parts")

    def __init__(self, patterns: Iterable[str], flags: str = "") -> None:
        self._filter = PartsFilter(flags + pattern for pattern in patterns)
        # The filter's own compiled patterns are the ones searched: one copy of each in memory.
        self.parts = self._filter.patterns

    def search(self, text: str) -> Match | None:
        """The first match of the first part that matches, or ``None``."""
        for index in self._filter.possible(text):
            found = self.parts[index].search(text)
            if found is not None:
                return found
        return None

    def finditer(self, text: str) -> Iterator[Match]:
        """Every part's non-overlapping matches, part by part."""
        for index in self._filter.possible(text):
            yield from self.parts[index].finditer(text)


class PartsFilter:
    """Which of several patterns can match a text, from the literal words each one requires.

    RE2's ``FilteredRE2`` reads from each pattern the strings a match must contain (its atoms:
    "ignore" or "disregard" and "previous" or "prior", …), lowercased; a text is scanned once for
    all of them, case-insensitively (one small automaton of literals, whose states are bounded by
    the atoms' letters), and only the patterns whose atoms are present can match. A pattern with
    no atom is always possible. The answer is a superset of the patterns that match: a skipped
    pattern cannot match.
    """

    __slots__ = ("_filter", "patterns")

    def __init__(self, patterns: Iterable[str]) -> None:
        options = re2.Options()
        options.log_errors = False
        options.never_capture = True  # a match's span is all the callers read
        self._filter = re2.Filter()
        listed = list(patterns)
        for pattern in listed:
            self._filter.Add(pattern, options)
        if listed:
            self._filter.Compile()
        #: Each pattern, compiled (the filter's own copy), to search the possible ones with; without
        #: groups: a match gives its span and text only (``group(1)`` raises).
        self.patterns = tuple(
            LinearPattern.compiled(pattern, self._filter.re(index)) for index, pattern in enumerate(listed)
        )

    def possible(self, text: str) -> list[int]:
        """The indices, ascending, of the patterns that may match somewhere in ``text``."""
        if not self.patterns:
            return []
        return sorted(self._filter.Match(encodable(text), potential=True) or ())


def linear(pattern: str) -> LinearPattern:
    """Compile ``pattern`` with RE2 (raises ``re2.error`` for syntax RE2 does not have)."""
    return LinearPattern(pattern)


# A pattern's leading inline flags, alone in their group.
_LEADING_FLAGS = re2.compile(r"\(\?([A-Za-z]+)\)")


def any_of(patterns: Iterable[str]) -> LinearPattern:
    """One pattern that matches where any of ``patterns`` does: a prefilter searched once.

    Each pattern's leading inline flags (``(?is)``) are scoped to its own
    alternative; groups are not captured. Many texts match none of a family of
    patterns, and one RE2 search costs what ten separate ones do not.
    """
    parts = []
    for pattern in patterns:
        flags = ""
        leading = _LEADING_FLAGS.match(pattern)
        if leading is not None:  # ``(?is)…``; not a group with flags, ``(?i:…)…``
            flags, pattern = leading.group(1), pattern[leading.end() :]
        parts.append(f"(?{flags}:{pattern})")
    return LinearPattern("|".join(parts), capture=False, max_mem=64 << 20)


def _ignores_case(pattern: str) -> bool:
    """Whether ``pattern`` ignores case throughout (its leading flags: ``(?i)…``, ``(?is)…``)."""
    return pattern.startswith("(?i")


class AnyOf:
    """Whether any of several patterns matches somewhere in a text: a prefilter.

    ``patterns`` are searched as one union (:func:`any_of`); each of ``apart`` on its own, after
    it. A pattern that counts a long run of common characters with no literal before it
    (``[A-Za-z0-9+/_-]{32,}``) is kept apart: inside a union, every long identifier of a text
    (``test_coupon_subscription_concurrent``) walks the union's automaton through states RE2 has
    to build the first time, one a character, each holding every count still alive. Alone, such
    a pattern's automaton has a few dozen states, built once (docs/performance.md §31).

    With ``by_case``, the patterns that ignore case (``(?i)…``) and those that do not are two
    unions: a state of one union's automaton holds every pattern's threads at once, and text it has
    not seen makes it build states for their combinations. Two halves search a text with one more
    call (~1.5 µs), but build a new text's states in two thirds of the time, with less than half of
    the memory (docs/performance.md §46). Worth it for a large family (redaction's steps).
    """

    __slots__ = ("_unions", "alone", "apart", "joined")

    def __init__(self, patterns: Iterable[str], *, apart: Iterable[str] = (), by_case: bool = False) -> None:
        self.joined = tuple(patterns)
        self.apart = tuple(apart)
        groups = [self.joined]
        if by_case:
            groups = [
                tuple(p for p in self.joined if _ignores_case(p)),
                tuple(p for p in self.joined if not _ignores_case(p)),
            ]
        self._unions = tuple(any_of(group) for group in groups if group)
        self.alone = tuple(LinearPattern(pattern, capture=False) for pattern in self.apart)

    def union_search(self, text: str) -> Match | None:
        """A match of the union of the patterns not kept apart, or ``None``."""
        for union in self._unions:
            found = union.search(text)
            if found is not None:
                return found
        return None

    def search(self, text: str) -> Match | None:
        """A match of one of the patterns in ``text`` (the first union's that matches), or ``None``."""
        found = self.union_search(text)
        for pattern in self.alone:
            if found is not None:
                break
            found = pattern.search(text)
        return found


class PatternSet:
    """Which of several patterns match somewhere in a text, found in a few scans (RE2's ``Set``).

    Searching each pattern in turn costs one RE2 call apiece (~2 µs each, however short the
    text); a set answers for many of them at once. The patterns whose indices are in ``apart``
    are searched on their own instead, for the reason :class:`AnyOf` gives.

    The others are split into sets of at most ``most`` patterns, each its own automaton, those
    that ignore case (``(?i)…``) apart from those that do not, in their order (a family's related
    patterns stay together). One automaton's state holds every pattern's threads at once: text
    it has not seen makes it build a state for each new combination of them, and with hundreds of
    patterns nearly every line of a new text is one. Five automata of ~60 patterns build fewer
    such states than one of ~280: redaction's first pass over an unseen run takes half the time at
    the tail, for one more call a text per set (docs/performance.md §52). ``max_mem`` is each
    automaton's budget: its program and the states it keeps.

    Once compiled, RE2's set does not give up on a text (it rebuilds its states when they outgrow
    the budget: a set has no slower engine to hand over to), but an empty answer cannot tell "no
    match" from a failure; so an empty answer is checked against the union of the set's patterns,
    and when that matches, every pattern of the set is named (a superset, never fewer than
    match). ``by_case`` is :class:`AnyOf`'s, for that union.
    """

    __slots__ = ("_apart", "_indices", "_sets", "prefilter")

    def __init__(
        self,
        patterns: Iterable[str],
        *,
        apart: Iterable[int] = (),
        max_mem: int = 64 << 20,
        by_case: bool = False,
        most: int | None = None,
    ) -> None:
        listed = list(patterns)
        self._apart = sorted(set(apart))
        self._indices = [index for index in range(len(listed)) if index not in self._apart]
        # Whether any of them matches (the check of an empty answer shares its automata).
        self.prefilter = AnyOf(
            (listed[index] for index in self._indices),
            apart=(listed[index] for index in self._apart),
            by_case=by_case,
        )
        groups = [self._indices]
        if most is not None:
            groups = [[i for i in self._indices if _ignores_case(listed[i])]]
            groups.append([i for i in self._indices if not _ignores_case(listed[i])])
            groups = [group[k : k + most] for group in groups for k in range(0, len(group), most)]
        self._sets = tuple((_compiled_set(listed, group, max_mem), group) for group in groups if group)

    def matching(self, text: str) -> list[int]:
        """The indices of the patterns that match somewhere in ``text``, ascending (all of the
        set's when RE2 could not tell which)."""
        text = encodable(text)
        found = [group[k] for automaton, group in self._sets for k in automaton.Match(text) or ()]
        if not found and self.prefilter.union_search(text) is not None:
            found = list(self._indices)  # the automaton ran out of memory: any of them may match
        found.extend(
            index
            for index, pattern in zip(self._apart, self.prefilter.alone, strict=True)
            if pattern.search(text) is not None
        )
        return sorted(found)


def _compiled_set(listed: list[str], group: list[int], max_mem: int) -> re2.Set:
    """RE2's set of the patterns of ``listed`` at ``group``'s indices (the set's own numbers are
    positions in ``group``), within ``max_mem``."""
    options = re2.Options()
    options.log_errors = False
    options.max_mem = max_mem
    automaton = re2.Set.SearchSet(options)
    for index in group:
        automaton.Add(listed[index])
    automaton.Compile()
    return automaton
