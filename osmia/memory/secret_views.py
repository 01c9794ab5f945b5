"""Secrets in disguise: the views of a short run of text in which the redaction rules see them.

A token wrapped across two lines, spelled out a character at a time, split by markdown
emphasis or percent-encoded reads as the secret it is to a model or a person, and matches no
rule. Each :class:`View` finds runs of one such disguise and undoes it; where
:func:`~osmia.memory.redaction.redact` changes the view, the run is redacted from the first to
the last character it changed, mapped back to the run (``GITHUB_TOKEN=ghp_…\\n…`` becomes
``GITHUB_TOKEN=[redacted]``). A view is always shorter than its run, so redacting it ends.

A token that mixes Latin letters with look-alike ones (a Cyrillic ``һ`` in ``ghp_``) is not a
view: :func:`latin_tokens` writes such a token in Latin letters before anything is redacted.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from osmia.memory.confusables import latin_skeleton
from osmia.memory.linear import LinearPattern, Match, linear

__all__ = ["VIEWS", "View", "latin_tokens", "view_sub"]

# What a token is made of (base64, URL-safe base64, hex, provider prefixes, JWT dots).
_T = r"A-Za-z0-9_+/=.~-"


@dataclass(frozen=True)
class View:
    """Runs of one disguise (``pattern``, the run in ``group``) and how to undo it.

    ``undo(run)`` gives the view and, for each of its characters and one past the end, the
    index in the run it came from.
    """

    name: str
    pattern: LinearPattern
    group: int
    undo: Callable[[str], tuple[str, list[int]]]


def _dropping(run: str, drop: Callable[[int], int]) -> tuple[str, list[int]]:
    """The view of ``run`` without the characters ``drop(i)`` says to skip (their count from ``i``)."""
    chars: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(run):
        skip = drop(i)
        if skip:
            i += skip
            continue
        chars.append(run[i])
        where.append(i)
        i += 1
    where.append(len(run))
    return "".join(chars), where


def _unwrapped(run: str) -> tuple[str, list[int]]:
    """Line breaks (and the indentation around them) inside a run of token characters dropped."""
    return _dropping(run, lambda i: 1 if run[i] in " \t\r\n" else 0)


def _unspaced(run: str) -> tuple[str, list[int]]:
    """``s k _ l i v e`` read as ``sk_live``."""
    return _dropping(run, lambda i: 1 if run[i] in " \t" else 0)


def _unmarked(run: str) -> tuple[str, list[int]]:
    """Emphasis and code marks inside a token dropped (``ghp_ab**cd`` → ``ghp_abcd``)."""
    return _dropping(run, lambda i: 1 if run[i] in "*`|" else 0)


_HEX = frozenset("0123456789abcdefABCDEF")


def _unescaped(run: str) -> tuple[str, list[int]]:
    """Percent-escapes of ASCII characters decoded (``redis%3A%2F%2F%3Apw%40host`` → ``redis://:pw@host``)."""
    chars: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(run):
        hexa = run[i + 1 : i + 3]
        if run[i] == "%" and len(hexa) == 2 and set(hexa) <= _HEX and int(hexa, 16) < 0x80:
            chars.append(chr(int(hexa, 16)))
            where.append(i)
            i += 3
            continue
        chars.append(run[i])
        where.append(i)
        i += 1
    where.append(len(run))
    return "".join(chars), where


VIEWS: tuple[View, ...] = (
    # A token cut by a line break (a terminal or an editor wrapped it), across as many lines as it
    # takes. Prose joins a line's last word to the next line's first: no rule takes such a pair.
    View("wrapped", linear(rf"[{_T}]{{2,}}(?:[ \t]*\r?\n[ \t]*[{_T}]{{2,}})+"), 0, _unwrapped),
    # Twelve or more single characters, each followed by a space: a token spelled out.
    View("spelled", linear(r"(?:^|[ \t])((?:[^\s][ \t]){11,}[^\s])(?:\s|$)"), 1, _unspaced),
    # A token with emphasis or code marks inside it (``**``, a backtick, a table's bar).
    View("marked", linear(rf"[{_T}]{{2,}}(?:[*`|]+[{_T}]{{2,}})+"), 0, _unmarked),
    # A run with two or more percent-escapes: a URL or a value encoded for one.
    View("escaped", linear(r"[^\s%]*(?:%[0-9A-Fa-f]{2}[^\s%]*){2,}"), 0, _unescaped),
)


def view_sub(view: View, redact: Callable[[str], str], redacted: str) -> Callable[[str], str]:
    """A redaction step: each run of ``view`` redacted where ``redact`` changes its view."""

    def replace(m: Match) -> str:
        whole = m.group(0) or ""
        run = m.group(view.group) or ""
        if not run:
            return whole
        seen, where = view.undo(run)
        if len(seen) >= len(run):
            return whole  # nothing was undone: the rules have seen this run as it is
        out = redact(seen)
        if out == seen:
            return whole
        # The changed part of the view: from the first character that differs to the last one.
        head = 0
        limit = min(len(seen), len(out))
        while head < limit and seen[head] == out[head]:
            head += 1
        tail = 0
        while tail < limit - head and seen[-1 - tail] == out[-1 - tail]:
            tail += 1
        start, end = where[head], where[len(seen) - tail]
        offset = m.start(view.group) - m.start(0)
        return whole[: offset + start] + redacted + whole[offset + end :]

    return lambda text: view.pattern.sub(replace, text)


# A run of 8 or more non-space characters with a non-ASCII one in it (``gһp_…`` with a Cyrillic
# ``һ``, ``АKIA…`` with a Cyrillic ``А``).
_MIXED = linear(r"[^\s\"'`<>()\[\]{}]*[^\x00-\x7f][^\s\"'`<>()\[\]{}]*")
_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def latin_tokens(text: str) -> str:
    """``text`` with each token that mixes ASCII letters or digits with look-alike letters
    written in Latin letters (:func:`~osmia.memory.confusables.latin_skeleton`).

    Only tokens of 8 or more characters, at most a quarter of them not ASCII, with an ASCII letter
    or digit: a word of another script (``привет``), an accented word (``Größenordnung``) or a
    unit (``10μs``) is left as written.
    """
    if text.isascii():
        return text

    def fold(m: Match) -> str:
        token = m.group(0) or ""
        foreign = sum(1 for c in token if not c.isascii())
        if len(token) < 8 or foreign * 4 > len(token) or not any(c in _ASCII_ALNUM for c in token):
            return token
        return latin_skeleton(token)

    return _MIXED.sub(fold, text)
