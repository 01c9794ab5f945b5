"""Secrets spelled out a character at a time or read out in groups, and how views read them.

A token written ``s-k-_-l-i-v-e-…`` or ``N . . . H . ! …`` (a mark between its characters, the
mark perhaps one of its own), or read out in groups (``lW4t g3WO kuB6 41bO …``), is no token to
a rule. :func:`every_other` and :func:`ungrouped` give the value such a run spells for a
:class:`~osmia.memory.secret_views.View`, and :func:`spelled_secret` says whether that value is a
secret by its shape alone: nobody spells out a dozen characters of a generated value but to hide it.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
"""

from __future__ import annotations

import itertools

from osmia.memory.english import common_words
from osmia.memory.linear import linear
from osmia.memory.secret_decoding import HEX_DIGITS
from osmia.memory.secret_values import looks_random, password_value

__all__ = ["GROUP_CHARS", "GROUP_OF", "every_other", "spelled_secret", "ungrouped"]


# What may stand between the characters of a token spelled out with marks (``s-k-_-l-…``,
# ``N . . . H . ! …``): one mark, blanks around it or not. The token may hold the mark itself.
_MARK_BETWEEN = frozenset("-./_:")


def every_other(run: str) -> tuple[str, list[int]]:
    """The run's characters with the mark (and blanks) after each dropped: ``s-k-_-l`` → ``sk_l``."""
    chars: list[str] = []
    where: list[int] = []
    i, end = 0, len(run)
    while i < end:
        chars.append(run[i])
        where.append(i)
        i += 1
        while i < end and run[i] in " \t":
            i += 1
        if i < end and run[i] in _MARK_BETWEEN:
            i += 1
        while i < end and run[i] in " \t":
            i += 1
    where.append(end)
    return "".join(chars), where


# A value read out in groups (``lW4t g3WO kuB6 41bO …``, ``V1W h=F JeB …``): five or more groups of
# two to six token characters, each after a blank or a colon.
GROUP_CHARS = r"A-Za-z0-9+/=_.!@#$%^&*~-"
_GROUP = linear(rf"[{GROUP_CHARS}]+")
GROUP_OF = rf"[{GROUP_CHARS}]{{2,6}}"


def _scrambled(group: str) -> bool:
    """A group no word or name is written as: mixed case past the first letter (``kuB6``), a sign
    other than a dot (``h=F``), or letters and digits alternating twice (``g3WO``; not ``rc2``,
    ``v1.0``, ``py310``, ``ab12``)."""
    letters = [c for c in group if c.isalpha()]
    if any(c.isupper() for c in letters[1:]) and any(c.islower() for c in letters):
        return True
    if any(not c.isalnum() and c != "." for c in group):
        return True
    kinds = [c.isdigit() for c in group if c.isalnum()]
    return sum(1 for a, b in itertools.pairwise(kinds) if a != b) >= 2


def ungrouped(run: str) -> tuple[str, list[int]]:
    """The run's groups joined, when they read as a generated value's: no common English word
    among them, half or more of them scrambled (:func:`_scrambled`: ``kuB6``, ``h=F``, ``g3WO``), and
    two or more with a digit; the run itself otherwise (prose of short words, a list of versions or
    of ids)."""
    groups = [(m.start(0), m.group(0) or "") for m in _GROUP.finditer(run)]
    words = [g for _at, g in groups]
    if len(words) < 5 or any(w.isalpha() and w.lower() in common_words() for w in words):
        return run, [*range(len(run)), len(run)]
    if all(set(w.strip(".")) <= HEX_DIGITS for w in words):
        return run, [*range(len(run)), len(run)]  # a fingerprint, an address, a digest in groups
    odd = sum(1 for w in words if _scrambled(w))
    digits = sum(1 for w in words if any(c.isdigit() for c in w))
    if 2 * odd < len(words) or digits < 2:
        return run, [*range(len(run)), len(run)]
    where = [at + k for at, g in groups for k in range(len(g))]
    return "".join(words), [*where, len(run)]


def spelled_secret(value: str) -> bool:
    """A spelled-out value that is a secret by its shape: random (not hex alone: a digest or bytes
    read out) or a password's mix of letters with digits; with a digit in it either way (words
    joined by signs are no secret spelled out: a keyboard shortcut, ``Ctrl+Shift+P``)."""
    if not any(c.isdigit() for c in value):
        return False  # letters and signs: words, a shortcut, an acronym
    if password_value(value):
        return True
    # Random: and not hex alone, nor capitals and digits under 16 (a label, ``RACK07SLOT12``).
    short_label = len(value) < 16 and not any(c.islower() for c in value)
    return looks_random(value, 12) and not set(value) <= HEX_DIGITS and not short_label
