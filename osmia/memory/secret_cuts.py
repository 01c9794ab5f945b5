"""Where a token of each prefixed secret format starts, for finding one cut in pieces.

Derived from the rules of :mod:`osmia.memory.secret_formats`: each format's prefix as a
pattern (up to its first counted run of token characters, that run's class once), and the
strings of letters the prefix spells. :mod:`osmia.memory.secret_views` joins a token cut by
separators, spaces or a line break where one of them starts a run.
"""

from __future__ import annotations

import importlib
import itertools
import re
from typing import Any

from osmia.memory.english import holds_common_word
from osmia.memory.linear import LinearPattern, Match, linear
from osmia.memory.secret_formats import GLUED, RULES, unbounded
from osmia.memory.secret_placeholders import masked
from osmia.memory.secret_rule import Rule
from osmia.memory.secret_tails import fragment

__all__ = [
    "CUT_FORMATS",
    "CUT_GAP",
    "CUT_INSIDE",
    "CUT_INSIDE_GATE",
    "CUT_PREFIXES",
    "CUT_SEPARATORS",
    "CUT_SHORT_RULE",
    "cut_format",
    "prefix_atoms",
    "token_prefix",
]


def _top_level(pattern: str, char: str) -> list[int]:
    """Where ``char`` stands in ``pattern`` outside any group or character class."""
    depth, in_class, escaped, at = 0, False, False, []
    for i, c in enumerate(pattern):
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == char and depth == 0:
            at.append(i)
    return at


def _alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of ``pattern`` (a group around all of it unwrapped)."""
    cuts = _top_level(pattern, "|")
    inner = pattern[3:-1]
    if not cuts and pattern.startswith("(?:") and pattern.endswith(")") and not _top_level(inner, ")"):
        return _alternatives(inner)
    bounds = [-1, *cuts, len(pattern)]
    return [pattern[a + 1 : b] for a, b in itertools.pairwise(bounds)]


_COUNTED_CLASS = linear(r"\[[^\]]*\]\{")  # "[A-Za-z0-9]{36}" in a format's pattern


def token_prefix(pattern: str) -> str:
    """The start of a prefix format's pattern up to its first counted run of token characters,
    that run's class taken once (``(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]`` of GitHub's): what a token
    of it starts with however it is cut after that."""
    parts = []
    for alternative in _alternatives(unbounded(pattern)):
        alternative = unbounded(alternative)
        run = _COUNTED_CLASS.search(alternative)
        parts.append(alternative[: run.end(0) - 1] if run else alternative)
    return "|".join(f"(?:{p})" for p in parts)


# The formats a token cut by a separator (``ghp_…-…``, :data:`osmia.memory.secret_views.VIEWS`)
# is found in: the ones found glued to words (``secret_formats.GLUED``) and a few more that start
# with a prefix of their own, each as the prefix and its own pattern. The prefix takes the token's
# first character too, which keeps words out (``SKU-12`` is no Twilio ``SK`` + hex,
# ``key-value`` no Mailgun ``key-`` + hex).
_CUT = GLUED | {"openai", "artifactory", "notion", "square", "mapbox-secret"}
CUT_FORMATS: tuple[tuple[LinearPattern, LinearPattern], ...] = tuple(
    (linear(token_prefix(r.pattern.pattern)), r.pattern) for r in RULES if r.name in _CUT
)
# ... and their prefixes as one pattern.
CUT_PREFIXES = "|".join(prefix.pattern for prefix, _token in CUT_FORMATS)


_RUN = linear(r"[A-Za-z0-9]{10,}")


def _cut_short(value: str) -> bool:
    """A prefixed format's start holding a run of a token's: ten letters and digits or more,
    some letters among them, that read as generated (:func:`~osmia.memory.secret_tails.fragment`:
    random, or letters and digits alternating) and hold no common English word of four letters or
    more (``transformers2024release``; 5 in 10,000 random 20-character tokens do); and no mask."""
    return not masked(value) and any(
        fragment(run) and any(c.isalpha() for c in run) and not holds_common_word(run)
        for run in _RUN.findall(value)
    )


# A token of a prefixed format cut short: its prefix and ten or more of its characters, fewer
# than the format takes, so its own rule does not match (``ghp_`` and 20 characters: the half pasted
# in one message, the rest in another). Redaction asks it after every format's own rule, so a
# whole token is taken by its rule first; what it takes must look generated (random, or letters
# and digits alternating, and no common word: ``ghp_prefix_checks_2`` and
# ``hf_transformers2024release`` are names), and no mask (``ghp_xxxxxxxx…``).
# Not the prefixes that ordinary text starts random runs with too: base64 of any JSON object is
# ``eyJ…`` (a JWT's start), and ``key-`` and ``secret_`` start names and hashes.
_COMMON_STARTS = ("eyJa", "key-0", "secret_a")
_SHORT_PREFIXES = "|".join(
    prefix.pattern for prefix, _token in CUT_FORMATS if not any(prefix.match(s) for s in _COMMON_STARTS)
)
CUT_SHORT_RULE = Rule(
    "cut-short",
    linear(rf"\b(?:{_SHORT_PREFIXES})[A-Za-z0-9_-]{{9,}}"),
    check=_cut_short,
    gate=rf"\b(?:{_SHORT_PREFIXES})",
)

_FEW = 8  # a class of this many single characters or fewer is spelled out (``[sbr]``)
# The standard library's parser of regular expressions (untyped; our own patterns only).
_PARSER: Any = importlib.import_module("re._parser")


def prefix_atoms(pattern: str) -> list[tuple[str, ...]]:
    """What a prefix pattern starts with, up to its first class of token characters, as the
    patterns of its characters one by one: each string of letters it may start with
    (``(?:ghp|gho)_[A-Za-z0-9]`` gives ``g h p _`` and ``g h o _``), a digit as ``\\d``
    (``xapp-\\d-``): where a token is cut inside of when its prefix is. Read with the standard
    library's parser of regular expressions."""
    p = _PARSER

    def spell(items: Any) -> tuple[list[tuple[str, ...]], bool]:
        """The atoms ``items`` spell, and whether they stop before the pattern's end."""
        outs: list[tuple[str, ...]] = [()]
        for op, arg in items:
            if op is p.AT:
                continue
            if op is p.LITERAL:
                outs = [(*o, re.escape(chr(arg))) for o in outs]
            elif op is p.IN and len(arg) <= _FEW and all(kind is p.LITERAL for kind, _c in arg):
                outs = [(*o, re.escape(chr(c))) for o in outs for _kind, c in arg]
            elif op is p.IN and list(arg) == [(p.CATEGORY, p.CATEGORY_DIGIT)]:
                outs = [(*o, r"\d") for o in outs]
            elif op is p.SUBPATTERN or op is p.BRANCH:
                spelled = [spell(branch) for branch in ([arg[3]] if op is p.SUBPATTERN else arg[1])]
                outs = [(*o, *tail) for o in outs for tails, _stop in spelled for tail in tails]
                if any(stop for _tails, stop in spelled):
                    return outs, True
            else:
                return outs, True  # a class of token characters, a repeat: the token's body
        return outs, False

    return [atoms for atoms in spell(p.parse(pattern))[0] if atoms]


# Where a token is cut: one to three blanks, or a separator no token piece holds with blanks
# before or after it (``ghp_Ab12, Cd34…``, ``gh: p_Ab12…``, ``… / …``).
CUT_SEPARATORS = ",;:/|~+"
CUT_GAP = (
    rf"(?:[ \t]{{1,3}}|[ \t]{{0,2}}[{CUT_SEPARATORS}][ \t]{{1,2}}|[ \t]{{1,2}}[{CUT_SEPARATORS}][ \t]{{0,2}})"
)


def _cut_inside(gap: str) -> str:
    """Each prefix's characters with room for one cut (``gap``) between any two or after them, as one
    pattern (``gh`` + gap + ``p_``)."""
    return "|".join(
        sorted(
            {
                f"{''.join(atoms[:i])}{gap}{''.join(atoms[i:])}"
                for prefix, _token in CUT_FORMATS
                for atoms in prefix_atoms(prefix.pattern)
                for i in range(1, len(atoms) + 1)
            }
        )
    )


# A token cut inside its prefix (:data:`osmia.memory.secret_views.VIEWS`) ...
CUT_INSIDE = _cut_inside(CUT_GAP)
# ... and what every such cut holds, its gap read as a run of blanks and separators (the scan for
# "can any step act" looks for this; the gaps as written made its set's program too large for its
# memory budget).
CUT_INSIDE_GATE = _cut_inside(f"[ \\t{CUT_SEPARATORS}]+")


def cut_format(run: str) -> tuple[Match, LinearPattern] | None:
    """The match of the prefix ``run`` starts with, and its format's pattern (``None`` if none)."""
    return next(((m, token) for prefix, token in CUT_FORMATS if (m := prefix.match(run))), None)
