"""Secrets in disguise: the views of a short run of text in which the redaction rules see them.

A token wrapped across two lines, spelled out a character at a time, split by markdown
emphasis or percent-encoded reads as the secret it is to a model or a person, and matches no
rule. Each :class:`View` finds runs of one such disguise and undoes it; where
:func:`~osmia.memory.redaction.redact` changes the view, the run is redacted from the first to
the last character it changed, mapped back to the run (``GITHUB_TOKEN=ghp_…\\n…`` becomes
``GITHUB_TOKEN=[redacted]``). A view is shorter than its run, or as long with fewer characters
that are not ASCII (accents dropped), so redacting it ends.

A token that mixes Latin letters with look-alike ones (a Cyrillic ``һ`` in ``ghp_``) is not a
view: :func:`latin_tokens` writes such a token in Latin letters before anything is redacted.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from osmia.memory.confusables import latin_skeleton
from osmia.memory.english import common_words
from osmia.memory.linear import LinearPattern, Match, linear
from osmia.memory.secret_cuts import (
    CUT_GAP,
    CUT_INSIDE,
    CUT_INSIDE_GATE,
    CUT_PREFIXES,
    CUT_SEPARATORS,
    cut_format,
)

__all__ = ["VIEWS", "View", "joins", "latin_tokens", "view_sub"]

# What a token is made of (base64, URL-safe base64, hex, provider prefixes, JWT dots).
_T = r"A-Za-z0-9_+/=.~-"


@dataclass(frozen=True)
class View:
    """Runs of one disguise (``pattern``, the run in ``group``) and how to undo it.

    ``undo(run)`` gives the view and, for each of its characters and one past the end, the
    index in the run it came from. Prose matches some of these patterns everywhere (a line's
    last word and the next line's first); only views of ``shortest`` characters or more are
    given to the rules.
    """

    name: str
    pattern: LinearPattern
    group: int
    undo: Callable[[str], tuple[str, list[int]]]
    shortest: int  # a view shorter than this holds no secret worth the rules' time
    # What every run of ``pattern`` holds, as a small pattern: what redaction's one scan for "can
    # any step act" looks for (a counted repetition there would multiply the scan's states).
    gate: str


def _keeping(kept: LinearPattern) -> Callable[[str], tuple[str, list[int]]]:
    """A view of a run made of the stretches ``kept`` matches (the rest dropped)."""

    def undo(run: str) -> tuple[str, list[int]]:
        parts: list[str] = []
        where: list[int] = []
        for m in kept.finditer(run):
            parts.append(m.group(0) or "")
            where.extend(range(m.start(0), m.end(0)))
        where.append(len(run))
        return "".join(parts), where

    return undo


# A line of a run of token characters, and an assignment in one (``LOG_LEVEL=info``: an ``=`` with
# more after it, where base64 has ``=`` only as its last characters).
_LINE = linear(r"[^ \t\r\n]+")
_ASSIGNED = linear(r"=[^=]")


def _unwrapped(run: str) -> tuple[str, list[int]]:
    """Line breaks (and the indentation around them) inside a run of token characters dropped, as
    far as a token can go on: not past a line that ends with ``=`` (base64's padding ends a token;
    ``SENTRY_DSN=`` is an empty value), and from the last line that assigns (``NAME=…`` starts a
    value: the lines before it are not part of it, and it is no rest of the value before it); not
    onto a line that names a key (``channel:``, ``Error:``)."""
    parts: list[str] = []
    where: list[int] = []
    end = 0
    for m in _LINE.finditer(run):
        piece = m.group(0) or ""
        if parts and (parts[-1].endswith("=") or piece.endswith(":")):
            break
        if parts and _ASSIGNED.search(piece) is not None:
            parts, where = [], []
        parts.append(piece)
        where.extend(range(m.start(0), m.end(0)))
        end = m.end(0)
    where.append(end)
    return "".join(parts), where


# ``s k _ l i v e`` read as ``sk_live``.
_unspaced = _keeping(linear(r"[^ \t]+"))
# ``s, k, _, l, i, v, e`` (a list's commas, semicolons or bars, and blanks) read as ``sk_live``.
_unlisted = _keeping(linear(r"[^ \t,;|]+"))
# Emphasis and code marks inside a token dropped (``ghp_ab**cd`` → ``ghp_abcd``).
_unmarked = _keeping(linear(r"[^*`|]+"))
# Markdown's escapes dropped (``sk\_live\_…`` → ``sk_live_…``: a table cell or prose escaped for it).
_unbackslashed = _keeping(linear(r"[^\\]+"))


_HEX = frozenset(string.hexdigits)

# The combining marks that accent a letter (U+0300-036F and the supplements).
_MARKS = r"\x{0300}-\x{036F}\x{1AB0}-\x{1AFF}\x{1DC0}-\x{1DFF}\x{20D0}-\x{20FF}\x{FE20}-\x{FE2F}"
# Latin letters with an accent of their own (Latin-1 Supplement and Extended-A/B letters).
_ACCENTED = r"\x{00C0}-\x{00D6}\x{00D8}-\x{00F6}\x{00F8}-\x{024F}"


def _unaccented(run: str) -> tuple[str, list[int]]:
    """Accents dropped (``ghp_…Nc`` + U+0301 + ``P1…`` → ``ghp_…NcP1…``): a combining mark goes, a letter
    with its own accent is written as its base letter when that is an ASCII one."""
    chars: list[str] = []
    where: list[int] = []
    for i, char in enumerate(run):
        if char.isascii():
            chars.append(char)
        elif unicodedata.combining(char):
            continue
        else:
            base = unicodedata.normalize("NFKD", char)[:1]
            chars.append(base if base.isascii() else char)
        where.append(i)
    where.append(len(run))
    return "".join(chars), where


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


_ENTITIES = {"lt": "<", "gt": ">", "quot": '"', "apos": "'", "amp": "&"}
_ENTITY = linear(r"&(?:(lt|gt|quot|apos|amp)|#([0-9]{1,3})|#[xX]([0-9A-Fa-f]{1,2}));")


def _unentitied(run: str) -> tuple[str, list[int]]:
    """HTML's character references of ASCII characters decoded (``&lt;password&gt;`` → ``<password>``,
    ``&quot;`` and ``&#34;`` → ``"``): a config or a form pasted from a web page or an HTML report."""
    chars: list[str] = []
    where: list[int] = []
    last = 0
    for m in _ENTITY.finditer(run):
        named, decimal, hexa = m.group(1), m.group(2), m.group(3)
        code = ord(_ENTITIES[named]) if named else int(decimal, 10) if decimal else int(hexa or "0", 16)
        if code >= 0x80 or code < 0x20:
            continue  # left as written: not a character a rule reads
        chars.extend(run[last : m.start(0)])
        where.extend(range(last, m.start(0)))
        chars.append(chr(code))
        where.append(m.start(0))
        last = m.end(0)
    chars.extend(run[last:])
    where.extend(range(last, len(run)))
    where.append(len(run))
    return "".join(chars), where


# A token cut by separators (``ghp_…-…``, ``AKIA….…``, ``sk_live_…:…``): the prefix of a format
# that has one (:data:`~osmia.memory.secret_cuts.CUT_FORMATS`), then pieces of token
# characters with separators between them. Prose and paths are pieces too (``key-value``,
# ``SKU-12/a``), so a run is a view only when dropping separators makes it a token of that very
# format, with a digit after its prefix and mostly not lower-case words.
_SEPARATORS = r"\-.:~+/,;"
_SPLIT = rf"\b(?:{CUT_PREFIXES})[A-Za-z0-9_]*(?:[{_SEPARATORS}]+[A-Za-z0-9_]+)+"
_SPLIT_GATE = rf"\b(?:{CUT_PREFIXES})[A-Za-z0-9_]*[{_SEPARATORS}]"
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


def _unseparated(run: str) -> tuple[str, list[int]]:
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
# spaces (``ghp_Ab12Cd34, Ef56…``, ``… - Ef56…``, ``…: Ef56…``): after the prefix's piece, up to four
# more pieces, each after one to three spaces or tabs, with at most one separator among them (the
# last piece of a token of a fixed length may be a character or two).
# Prose follows a token too ("… was rotated"), so only the pieces that read as a token's (a digit,
# an underscore or a hyphen in them, or capitals past the first letter: not a word as English
# writes it) are joined, up to the first that does not; and, as for separators, only when the
# format's own pattern then matches across a place it joined.
_TOKEN_PIECE = r"[A-Za-z0-9_.-]"  # a JWT's dots too
_SPACED = rf"\b(?:{CUT_PREFIXES}){_TOKEN_PIECE}*(?:{CUT_GAP}{_TOKEN_PIECE}+){{1,4}}"
_SPACED_GATE = rf"\b(?:{CUT_PREFIXES}){_TOKEN_PIECE}*[ \t]*[{CUT_SEPARATORS}]?[ \t]"
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


def _unspaced_token(run: str) -> tuple[str, list[int]]:
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
    """The spans of the run's pieces :func:`_unspaced_token` joins, ``marks`` dropped where two meet
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
                if (
                    token.match(so_far) is None
                    and token.fullmatch(so_far + piece) is not None
                    and not (
                        piece.lower() in common_words()
                        and token.fullmatch(so_far + piece + piece[-1]) is not None
                    )
                ):
                    spans[-1] = (a, b)
                    spans.append((start, end))
                break
            spans[-1] = (a, b)
        spans.append((start, end))
    return spans


# A token cut inside its prefix (``gh p_Ab12…``, ``sk-a nt-…``, ``gh, p_Ab12…``, ``xapp-1 -…``): two
# of the prefix's characters with a cut between them (blanks, or a separator and blanks:
# ``secret_cuts.CUT_GAP``), then the token's pieces as the spaced view reads them.
_GAPPED = rf"\b(?:{CUT_INSIDE}){_TOKEN_PIECE}*(?:{CUT_GAP}{_TOKEN_PIECE}+){{0,4}}"
_GAPPED_GATE = rf"\b(?:{CUT_INSIDE_GATE})"
_CUT = linear(CUT_GAP)


def _ungapped(run: str) -> tuple[str, list[int]]:
    """The run with the cut inside its prefix dropped (blanks, a separator), and its later pieces as
    :func:`_unspaced_token` joins them, when the format's own pattern then matches across the
    prefix's join (``gh p_Ab12…`` → ``ghp_Ab12…``); the run itself otherwise."""
    unchanged = run, [*range(len(run)), len(run)]
    gap = _CUT.search(run)
    if gap is None:
        return unchanged
    first = run[: gap.start(0)] + run[gap.end(0) :]
    where = [*range(gap.start(0)), *range(gap.end(0), len(run)), len(run)]
    seen, more = _unspaced_token(first)
    if seen != first:
        return seen, [where[i] for i in more]
    found = cut_format(first)
    whole = found[1].match(first) if found is not None else None
    if whole is None or whole.end(0) <= gap.start(0):
        return unchanged
    return first, where


# A token cut by a line break: one side of the first break 8 characters or more (most prose words
# are shorter, and each match costs a call), the other 4 or more; then as many lines as it takes.
_BREAK = r"[ \t]*(?:\r\n?|\n)[ \t]*"  # a lone carriage return breaks a line too
# A line's run with the colon after it, if any: a key of the next block (``channel:``), read as no
# part of the token above it.
_WRAPPED = (
    rf"(?:[{_T}]{{8,}}{_BREAK}[{_T}]{{4,}}:?|[{_T}]{{4,7}}{_BREAK}[{_T}]{{8,}}:?)(?:{_BREAK}[{_T}]{{4,}}:?)*"
)

VIEWS: tuple[View, ...] = (
    # A token cut by a line break (a terminal or an editor wrapped it), across as many lines as it
    # takes. Prose joins a line's last word to the next line's first: no rule takes such a pair.
    View("wrapped", linear(_WRAPPED), 0, _unwrapped, 20, rf"[{_T}]{{4}}{_BREAK}[{_T}]{{4}}"),
    # Twelve or more single characters, each followed by a space: a token spelled out.
    View(
        "spelled",
        linear(r"(?:^|[ \t])((?:[^\s][ \t]){11,}[^\s])(?:\s|$)"),
        1,
        _unspaced,
        12,
        r"(?:^|\s)\S[ \t]\S[ \t]\S[ \t]\S[ \t]\S[ \t]\S(?:\s|$)",
    ),
    # Twelve or more single characters, each followed by a comma, a semicolon or a bar (and
    # blanks): a token spelled out as a list. Prose lists no dozen single characters.
    View(
        "listed",
        linear(r"(?:^|[\s(\[])((?:[^\s,;|][ \t]*[,;|][ \t]*){11,}[^\s,;|])(?:[\s.)\]]|$)"),
        1,
        _unlisted,
        12,
        r"(?:^|\s)\S[ \t]*[,;|][ \t]*\S[ \t]*[,;|][ \t]*\S[ \t]*[,;|]",
    ),
    # A token with emphasis or code marks inside it (``**``, a backtick, a table's bar).
    View("marked", linear(rf"[{_T}]{{2,}}(?:[*`|]+[{_T}]{{2,}})+"), 0, _unmarked, 16, rf"[{_T}][*`|]+[{_T}]"),
    # A token with Markdown's escapes in it (``sk\_live\_…``, ``ghp\_…``): a backslash before each
    # underscore, star or dash, as a Markdown writer escapes them.
    View(
        "backslashed",
        linear(rf"[{_T}]+(?:\\[_*-][{_T}]*)+"),
        0,
        _unbackslashed,
        16,
        rf"[{_T}]\\[_*-]",
    ),
    # A token with accents on some of its letters: combining marks (NFKC would fold each into its
    # letter) or accented letters. Most accented words are shorter than the shortest view, and a
    # longer one is redacted only where a rule matches its unaccented form.
    View(
        "accented",
        linear(rf"[{_T}{_ACCENTED}{_MARKS}]*[{_ACCENTED}{_MARKS}][{_T}{_ACCENTED}{_MARKS}]*"),
        0,
        _unaccented,
        16,
        rf"[{_T}][{_ACCENTED}{_MARKS}]",
    ),
    # A token of a prefixed format cut inside its prefix: the prefix joined, then as below.
    View("gapped", linear(_GAPPED), 0, _ungapped, 20, _GAPPED_GATE),
    # A token of a prefixed format cut by spaces: its token-like pieces joined. Before the
    # separators' view, which would take a first piece with separators in it alone.
    View("spaced", linear(_SPACED), 0, _unspaced_token, 20, _SPACED_GATE),
    # A token of a prefixed format cut by separators: its pieces joined.
    View("separated", linear(_SPLIT), 0, _unseparated, 20, _SPLIT_GATE),
    # A line with an HTML character reference (``&lt;password&gt;…``, ``&quot;``): a form or a config
    # pasted from a web page or an HTML report, the whole line (a name and its value may be apart).
    View(
        "entities",
        linear(r"[^\r\n&]*(?:&#?[A-Za-z0-9]{1,6};[^\r\n&]*)+"),
        0,
        _unentitied,
        8,
        r"&(?:lt|gt|quot|apos|amp|#[xX]?[0-9A-Fa-f]{1,3});",
    ),
    # A run with a percent-escape: a URL or a value encoded for one (``password%3D…``, a form's one
    # field, has a single escape), up to a query's ``&``: each parameter is a run of its own, so that
    # a credential's redaction does not run on to the last escape of the URL (a signed URL's date and
    # expiry stay).
    View(
        "escaped",
        linear(r"[^\s%&]*(?:%[0-9A-Fa-f]{2}[^\s%&]*)+"),
        0,
        _unescaped,
        8,
        r"%[0-9A-Fa-f]{2}",
    ),
)


def view_sub(
    view: View,
    redact: Callable[[str], str],
    redacted: str,
    news: Callable[[str, str, list[int]], bool],
) -> Callable[[str], str]:
    """A redaction step: each run of ``view`` redacted where ``redact`` changes its view.

    ``news(seen, run, where)`` says whether a rule may match the view where it could not match
    the run as written (the rules act on that themselves): only then is the view redacted, which
    spares the rules a second look at most runs (two words on either side of a line break).
    """

    def replace(m: Match) -> str:
        whole = m.group(0) or ""
        run = m.group(view.group) or ""
        if not run:
            return whole
        if len(run) <= view.shortest:
            return whole  # its view is shorter still
        seen, where = view.undo(run)
        if seen == run or len(seen) > len(run) or len(seen) < view.shortest or not news(seen, run, where):
            return whole  # nothing undone, too short, or no match the run as written lacked
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
