"""Tokens of a prefixed format in disguise, and how the redaction views undo each disguise.

A token with a provider's prefix (``ghp_``, ``sk-ant-``, ``glpat-``) cut by separators
(``ghp_Ab12-Cd34…``), by spaces (``ghp_Ab12 Cd34…``) or inside its prefix (``gh p_Ab12…``),
written backwards (``…8rQ_phg``) or with its prefix in another case (``GLPAT-…``, ``Sk_Live_…``)
reads as the token to a person and matches no rule. Each function here undoes one such disguise
for a :class:`~osmia.memory.secret_views.View`, and only when the format's own pattern then
matches (across a place it joined): prose and paths hold the same characters.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
"""

from __future__ import annotations

from osmia.memory.english import common_words
from osmia.memory.linear import LinearPattern, linear
from osmia.memory.secret_cuts import (
    CUT_GAP,
    CUT_INSIDE,
    CUT_INSIDE_GATE,
    CUT_PREFIXES,
    CUT_SEPARATORS,
    cut_format,
)

__all__ = [
    "GAPPED",
    "GAPPED_GATE",
    "RECASED",
    "RECASED_GATE",
    "REVERSED",
    "REVERSED_GATE",
    "REVERSED_URL",
    "REVERSED_URL_GATE",
    "SEPARATED",
    "SEPARATED_GATE",
    "SPACED",
    "SPACED_GATE",
    "joins",
    "recased",
    "reversed_token",
    "reversed_url",
    "ungapped",
    "unseparated",
    "unspaced_token",
]

# A token cut by separators (``ghp_…-…``, ``AKIA….…``, ``sk_live_…:…``): the prefix of a format
# that has one (:data:`~osmia.memory.secret_cuts.CUT_FORMATS`), then pieces of token
# characters with separators between them. Prose and paths are pieces too (``key-value``,
# ``SKU-12/a``), so a run is a view only when dropping separators makes it a token of that very
# format, with a digit after its prefix and mostly not lower-case words.
_SEPARATORS = r"\-.:~+/,;"
SEPARATED = rf"\b(?:{CUT_PREFIXES})[A-Za-z0-9_]*(?:[{_SEPARATORS}]+[A-Za-z0-9_]+)+"
SEPARATED_GATE = rf"\b(?:{CUT_PREFIXES})[A-Za-z0-9_]*[{_SEPARATORS}]"
_SEPARATOR_SET = frozenset(_SEPARATORS.replace("\\", ""))
_PIECE = linear(r"[A-Za-z0-9_]+")


def joins(where: list[int]) -> list[int]:
    """Where a view joined its run (``where`` maps each character of the view to the run): the
    indices of the view's characters whose run position does not follow the one before."""
    return [k for k in range(1, len(where)) if where[k] != where[k - 1] + 1]


def _dropping(run: str, head: int, drop: frozenset[str]) -> tuple[str, list[int]]:
    """``run`` without the characters in ``drop`` after its first ``head`` ones, and where each
    character left (and one past the end) stands in the run."""
    where = [i for i, c in enumerate(run) if i < head or c not in drop]
    return "".join(run[i] for i in where), [*where, len(run)]


def unseparated(run: str) -> tuple[str, list[int]]:
    """The run with its separators dropped, all of them or one kind (a JWT keeps its dots), when
    that makes it a token of the format its prefix names across a place it joined
    (``ghp_Ab12-Cd34…`` → ``ghp_Ab12Cd34…``); the run itself otherwise."""
    unchanged = run, [*range(len(run)), len(run)]
    found = cut_format(run)
    if found is None:
        return unchanged
    head, token = found[0].end(0), found[1]
    pieces = _PIECE.findall(run[head:])
    worded = sum(len(p) for p in pieces if p.isalpha() and p.islower())
    if not any(c.isdigit() for c in run[head:]) or 2 * worded >= sum(map(len, pieces)):
        return unchanged  # words and paths joined (``npm_install-deps-for-node-v18``) are no token
    kinds = sorted(_SEPARATOR_SET.intersection(run[head:]))
    for drop in (frozenset(kinds), *(frozenset(kind) for kind in kinds if len(kinds) > 1)):
        seen, where = _dropping(run, head, drop)
        joined = next(iter(joins(where[:-1])), len(seen))
        m = token.match(seen)
        if m is not None and m.end(0) > joined:
            return seen, where
    return unchanged


# A token of a prefixed format cut by spaces (``ghp_Ab12Cd34 Ef56Gh78…``), or by a separator and
# spaces (``ghp_Ab12Cd34, Ef56…``, ``… - Ef56…``, ``…: Ef56…``): after the prefix's piece, up to twelve
# more pieces (a token read out in groups of four: ``npm_ VlEH iukE …``), each after one to three
# spaces or tabs, with at most one separator among them (the last piece of a token of a fixed
# length may be a character or two).
# Prose follows a token too ("… was rotated"), so only the pieces that read as a token's (a digit,
# an underscore or a hyphen in them, or capitals past the first letter: not a word as English
# writes it) are joined, up to the first that does not; and, as for separators, only when the
# format's own pattern then matches across a place it joined.
_TOKEN_PIECE = r"[A-Za-z0-9_.-]"  # a JWT's dots too
SPACED = rf"\b(?:{CUT_PREFIXES}){_TOKEN_PIECE}*(?:{CUT_GAP}{_TOKEN_PIECE}+){{1,12}}"
SPACED_GATE = rf"\b(?:{CUT_PREFIXES}){_TOKEN_PIECE}*[ \t]*[{CUT_SEPARATORS}]?[ \t]"
_SPACED_PIECE = linear(r"[^ \t]+")
_A_PREFIX = linear(rf"(?:{CUT_PREFIXES})")
# What a cut may leave at a join and is no part of the token: the separators no piece holds, and
# then, if the token is still not whole, those a token may hold too (``Cd34- Ef56``, ``Cd34 .Ef56``:
# one of ``-._`` may be the token's own character right before the cut).
_AT_JOINS = (frozenset(CUT_SEPARATORS), frozenset(CUT_SEPARATORS + "-._"))
_TOKEN_MARK_AT_CUT = linear(rf"[-._][ \t{CUT_SEPARATORS}]|[ \t{CUT_SEPARATORS}][-._]")


def _token_like(piece: str) -> bool:
    """A piece a token may hold, and not a word as English writes it (``was``, ``Please``, ``README``)."""
    if not piece.isalpha():
        return True  # digits, underscores, hyphens
    return not (piece.islower() or piece.isupper() or piece.istitle())


def unspaced_token(run: str) -> tuple[str, list[int]]:
    """The run's first piece and the token-like pieces right after it, the blanks and the separator
    between them dropped, when that makes a token of the format its prefix names across a place it
    joined (``ghp_Ab12 Cd34…``, ``ghp_Ab12, Cd34…`` → ``ghp_Ab12Cd34…``); the run itself otherwise."""
    unchanged = run, [*range(len(run)), len(run)]
    found = cut_format(run)
    if found is None:
        return unchanged
    for marks in _AT_JOINS:
        if marks is not _AT_JOINS[0] and _TOKEN_MARK_AT_CUT.search(run) is None:
            break  # no ``-._`` next to a blank: the same pieces again
        spans = _token_pieces(run, found[0].end(0), found[1], marks)
        if len(spans) < 2:
            continue
        where = [i for a, b in spans for i in range(a, b)]
        seen = "".join(run[i] for i in where)
        joined = next(iter(joins(where)), len(seen))
        whole = found[1].match(seen)
        if whole is not None and whole.end(0) > joined:
            return seen, [*where, spans[-1][1]]
    return unchanged


def _token_pieces(
    run: str, prefix: int, token: LinearPattern, marks: frozenset[str]
) -> list[tuple[int, int]]:
    """The spans of the run's pieces :func:`unspaced_token` joins, ``marks`` dropped where two meet
    (never inside the prefix's first ``prefix`` characters: ``xoxb-``)."""
    spans: list[tuple[int, int]] = []
    for m in _SPACED_PIECE.finditer(run):
        start, end = m.start(0), m.end(0)
        if spans and run.startswith("--", start) and run[start + 2 : start + 3].isalpha():
            break  # a command's long option after the token (``--add-to-git-credential``)
        while spans and start < end and run[start] in marks:
            start += 1
        if not run[start:end].strip("-._"):
            continue  # a separator between blanks (``… - …``)
        if spans:
            a, b = spans[-1]
            while b > a + (prefix if len(spans) == 1 else 0) and run[b - 1] in marks:
                b -= 1  # the separator the cut left after the piece before
            so_far = "".join(run[x:y] for x, y in [*spans[:-1], (a, b)])
            piece = run[start:end]
            if _A_PREFIX.match(piece) is not None and token.match(so_far) is not None:
                break  # a whole token, then the next, which its own rule takes: a list, not a cut
            if not _token_like(piece):
                # A word may still end a token that is short without it (``AKIA…LNB BI``,
                # ``gldt-…MwN Rxov``); after a whole token, it is prose. So is one of English's
                # common words after a token of a format that could go on past it
                # (``sk-learn-intelex 2024 and …``: ``sk-`` takes 20 or more).
                whole = token.match(so_far) is not None
                common = piece.lower() in common_words()
                if (
                    not whole
                    and token.fullmatch(so_far + piece) is not None
                    and not (common and token.fullmatch(so_far + piece + piece[-1]) is not None)
                ):
                    spans[-1] = (a, b)
                    spans.append((start, end))
                    break
                if whole or common:
                    break
                # ... and inside a token read out in groups (``npm_ vx1E ODLZ Vcrk …``), a group
                # may be all capitals or read as a name: the token is not whole yet, and a view
                # is taken only where the format's pattern matches the pieces joined.
            spans[-1] = (a, b)
        spans.append((start, end))
    return spans


# A token cut inside its prefix (``gh p_Ab12…``, ``sk-a nt-…``, ``gh, p_Ab12…``, ``xapp-1 -…``): two
# of the prefix's characters with a cut between them (blanks, or a separator and blanks:
# ``secret_cuts.CUT_GAP``), then the token's pieces as the spaced view reads them.
GAPPED = rf"\b(?:{CUT_INSIDE}){_TOKEN_PIECE}*(?:{CUT_GAP}{_TOKEN_PIECE}+){{0,12}}"
GAPPED_GATE = rf"\b(?:{CUT_INSIDE_GATE})"
_CUT = linear(CUT_GAP)


def ungapped(run: str) -> tuple[str, list[int]]:
    """The run with the cut inside its prefix dropped (blanks, a separator), and its later pieces as
    :func:`unspaced_token` joins them, when the format's own pattern then matches across the
    prefix's join (``gh p_Ab12…`` → ``ghp_Ab12…``); the run itself otherwise."""
    unchanged = run, [*range(len(run)), len(run)]
    gap = _CUT.search(run)
    if gap is None:
        return unchanged
    first = run[: gap.start(0)] + run[gap.end(0) :]
    where = [*range(gap.start(0)), *range(gap.end(0), len(run)), len(run)]
    seen, more = unspaced_token(first)
    if seen != first:
        return seen, [where[i] for i in more]
    found = cut_format(first)
    whole = found[1].match(first) if found is not None else None
    if whole is None or whole.end(0) <= gap.start(0):
        return unchanged
    return first, where


# A token written backwards (``OHdv…R7fM_phg``): a run of token characters with a digit in it,
# ending in what a prefix reads as backwards (one to three words of letters, each after a ``_`` or
# a ``-``: ``_phg``, ``_evil_ks``, ``-tapgl``).
REVERSED = r"[A-Za-z0-9+/=.]*[0-9][A-Za-z0-9+/=._-]{6,}[_-][A-Za-z]{2,7}\b"
REVERSED_GATE = r"[0-9][A-Za-z0-9+/=._-]{6}[A-Za-z0-9+/=._-]*[_-][A-Za-z][A-Za-z]"


def reversed_token(run: str) -> tuple[str, list[int]]:
    """The run read backwards when that starts with a format's prefix; the run itself otherwise.

    The view's characters map to the run's in reverse, so where any rule takes the view, the
    whole run is redacted (:class:`~osmia.memory.secret_views.View`'s ``whole``).
    """
    backwards = run[::-1]
    if _A_PREFIX.match(backwards) is None:
        return run, [*range(len(run)), len(run)]
    return backwards, [*range(len(run)), len(run)]


# A URL written backwards (``…/secivres/moc.kcals.skooh//:sptth``, ``…@bd:ppa//:lqsergtsop``): a run
# that ends in a scheme read backwards after ``//:``, which nothing but a reversed URL ends in.
REVERSED_URL = r"[^\s\"'`<>]{8,}//:[A-Za-z][A-Za-z0-9+.-]{0,14}[A-Za-z]\b"
REVERSED_URL_GATE = r"//:[A-Za-z][A-Za-z0-9+.-]*[A-Za-z]"


def reversed_url(run: str) -> tuple[str, list[int]]:
    """The run read backwards: a URL whose rules (a webhook's, a password in it) read it as written.
    Its characters map to the run's in reverse; where a rule takes the view, the whole run goes."""
    return run[::-1], [*range(len(run)), len(run)]


# A token whose prefix is written in another case than its format's (``GLPAT-…``, ``Sk_Live_…``,
# ``XoXb-…``, ``SK-ANT-API03-…``): one to three words of letters (and digits after the first),
# each ended by a ``_`` or a ``-``, at least one of them with a capital, then 16 or more token
# characters; or an AWS key id in lower or mixed case (``akia4n2a…``, ``aKiASR6M…``).
RECASED = (
    r"\b((?:[A-Za-z][A-Za-z0-9]{1,6}[_-]){1,3})[A-Za-z0-9][A-Za-z0-9_-]{15,}"
    r"|\b(?i:akia|asia)[A-Za-z0-9]{16}\b"
)
RECASED_GATE = (
    r"\b[A-Za-z]*[A-Z][A-Za-z0-9]*[_-](?:[A-Za-z][A-Za-z0-9]{1,6}[_-]){0,2}[A-Za-z0-9]{8}"
    r"|\b(?i:akia|asia)[A-Za-z0-9]{16}\b"
)
_RECASED_HEAD = linear(r"(?:[A-Za-z][A-Za-z0-9]{1,6}[_-]){1,3}")
_AWS_ID_HEADS = ("AKIA", "ASIA")


def recased(run: str) -> tuple[str, list[int]]:
    """The run with its prefix's words in lower case (``GLPAT-A0H7…`` → ``glpat-A0H7…``), or an AWS
    key id in capitals (``akia4n2a…`` → ``AKIA4N2A…``), when that is written otherwise; the run
    itself when it is written as its format writes it. A rule must then take the view."""
    same = run, [*range(len(run)), len(run)]
    where = [*range(len(run)), len(run)]
    if run[:4].upper() in _AWS_ID_HEADS and len(run) == 20:
        return (run.upper(), where) if run != run.upper() else same
    head = _RECASED_HEAD.match(run)
    if head is None or head.end(0) == 0:
        return same
    prefix = run[: head.end(0)]
    if prefix == prefix.lower():
        return same
    return prefix.lower() + run[head.end(0) :], where
