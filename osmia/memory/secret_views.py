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

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from osmia.memory.confusables import foreign_skeleton, latin_skeleton
from osmia.memory.english import common_words
from osmia.memory.linear import LinearPattern, Match, linear
from osmia.memory.secret_escapes import (
    ACCENTED,
    MARKS,
    PAIRED_BYTES,
    PAIRED_BYTES_GATE,
    unaccented,
    unbyted,
    unentitied,
    unescaped,
    unlisted_bytes,
    unpaired_bytes,
)
from osmia.memory.secret_prefixed import (
    GAPPED,
    GAPPED_GATE,
    RECASED,
    RECASED_GATE,
    REVERSED,
    REVERSED_GATE,
    REVERSED_URL,
    REVERSED_URL_GATE,
    SEPARATED,
    SEPARATED_GATE,
    SPACED,
    SPACED_GATE,
    joins,
    recased,
    reversed_token,
    reversed_url,
    ungapped,
    unseparated,
    unspaced_token,
)
from osmia.memory.secret_spelled import GROUP_CHARS, GROUP_OF, every_other, spelled_secret, ungrouped
from osmia.memory.secret_tails import word_shape

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
    # A token spelled out a character at a time: nobody spells out a dozen characters of a
    # generated value or a password but to keep it from being found, so one that looks random or
    # like a password (:func:`spelled_secret`) is taken whole, whether or not a rule names it.
    spelled: bool = False
    # Runs over lines that a logger or a container's output prefixes (``worker-1  | …``,
    # ``2024-05-14T09:31:07Z app: …``): the run stops before a line that starts with the words its
    # own line starts with (the same, or the same with other digits), which are no part of the token.
    # The rest of a token after such a prefix is :data:`~osmia.memory.secret_tails.NEXT_LINE`'s.
    prefixed_lines: bool = False
    # The view reads the run in another order (backwards): where a rule takes it, the whole run goes.
    whole: bool = False


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
_LINE = linear(r"[^ \t\r\n\\]+")  # a shell's ``\`` before a break is no part of the token
_ASSIGNED = linear(r"=[^=]|^[A-Za-z_][A-Za-z0-9_.-]*=$")
# A diff's added or removed line that starts with a name (``+aws_secret_access_key``), or a line
# that does (``ALGOLIA_ADMIN_KEY = …``: words of one case joined by ``_``, which no wrapped token's
# rest is): the next line of a file, not the rest of the token on the line above it.
_DIFF_NAME = linear(r"^(?:[+-][A-Za-z]+(?:_[A-Za-z]+)+|[A-Z]+(?:_[A-Z]+)+|[a-z]+(?:_[a-z]+)+)$")
# A word as prose writes one, its first letter a capital or not.
_WORD = linear(r"^[A-Za-z][a-z]+$")


def _unwrapped(run: str) -> tuple[str, list[int]]:
    """Line breaks (and the indentation around them) inside a run of token characters dropped, as
    far as a token can go on: not past a line that ends with ``=`` (base64's padding ends a token;
    ``SENTRY_DSN=`` is an empty value) unless that is quoted-printable's soft break, and from a
    line that assigns (``NAME=…`` or ``NAME=`` starts a value: the line before it is not part of
    it, and it is no rest of the value before it), or up to it where lines were joined already;
    not onto a line that names a key (``channel:``, ``Error:``)."""
    parts: list[str] = []
    where: list[int] = []
    end = 0
    for m in _LINE.finditer(run):
        piece = m.group(0) or ""
        if parts and (piece.endswith(":") or _DIFF_NAME.match(piece) is not None):
            break
        if parts and _WORD.match(piece) is not None and piece.lower() in common_words():
            break  # prose's first word on the next line ("changeme" above "Real values live in …")
        if parts and parts[-1].endswith("="):
            if not _soft_break(parts[-1]):
                break
            parts[-1] = parts[-1][:-1]  # quoted-printable's ``=`` before a break is no part of it
            del where[-1]
        if parts and _ASSIGNED.search(piece) is not None:
            if len(parts) >= 2:
                break  # a token wrapped over lines, then the next assignment: the token is the view
            parts, where = [], []
        parts.append(piece)
        where.extend(range(m.start(0), m.end(0)))
        end = m.end(0)
    where.append(end)
    return "".join(parts), where


def _soft_break(line: str) -> bool:
    """Whether ``line`` ends in quoted-printable's soft break (one ``=`` after a full line of 60
    characters or more, as mail and some log shippers wrap at 76): base64's padding ends a
    token of any length, and a value of 60 characters and more is rarely followed by another."""
    return len(line) >= 60 and line.endswith("=") and not line.endswith("==")


# ``s k _ l i v e`` read as ``sk_live``.
_unspaced = _keeping(linear(r"[^ \t]+"))
# ``s, k, _, l, i, v, e`` (a list's commas, semicolons or bars, and blanks) read as ``sk_live``.
_unlisted = _keeping(linear(r"[^ \t,;|]+"))
# Emphasis and code marks inside a token dropped (``ghp_ab**cd`` → ``ghp_abcd``).
_unmarked = _keeping(linear(r"[^*`|]+"))
# Markdown's escapes dropped (``sk\_live\_…`` → ``sk_live_…``: a table cell or prose escaped for it).
_unbackslashed = _keeping(linear(r"[^\\]+"))


# A token cut by a line break: one side of the first break 8 characters or more (most prose words
# are shorter, and each match costs a call), the other 4 or more; then as many lines as it takes.
# A lone carriage return breaks a line too; a shell's or a C string's ``\`` may come before the break.
_BREAK = r"[ \t]*\\?(?:\r\n?|\n)[ \t]*"
# A line's run with the colon after it, if any: a key of the next block (``channel:``), read as no
# part of the token above it.
_WRAPPED = (
    rf"(?:[{_T}]{{8,}}{_BREAK}[{_T}]{{4,}}:?|[{_T}]{{4,7}}{_BREAK}[{_T}]{{8,}}:?)(?:{_BREAK}[{_T}]{{4,}}:?)*"
)

VIEWS: tuple[View, ...] = (
    # A token cut by a line break (a terminal or an editor wrapped it), across as many lines as it
    # takes. Prose joins a line's last word to the next line's first: no rule takes such a pair.
    View(
        "wrapped",
        linear(_WRAPPED),
        0,
        _unwrapped,
        20,
        rf"[{_T}]{{4}}{_BREAK}[{_T}]{{4}}",
        prefixed_lines=True,
    ),
    # Twelve or more single characters, each followed by a space: a token spelled out.
    View(
        "spelled",
        linear(r"(?:^|[ \t])((?:[^\s][ \t]){11,}[^\s])(?:\s|$)"),
        1,
        _unspaced,
        12,
        r"(?:^|\s)\S[ \t]\S[ \t]\S[ \t]\S[ \t]\S[ \t]\S(?:\s|$)",
        spelled=True,
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
        spelled=True,
    ),
    # Twelve or more single characters, each followed by a dash, dot, slash, underscore or colon (and
    # blanks or not): a token spelled out with marks. The mark may be one of the token's own
    # characters (``_`` in ``s-k-_-l-i-v-e``), so the characters are every other one.
    View(
        "dashed",
        linear(r"(?:^|[\s(\[:=])((?:[^\s][ \t]*[-./_:][ \t]*){11,}[^\s])(?:[\s,;)\]]|$)"),
        1,
        every_other,
        12,
        r"[A-Za-z0-9][ \t]*[-./_:][ \t]*" * 3 + r"\S[ \t]*[-./_:]",
        spelled=True,
    ),
    # Five or more groups of two to six characters, each after a blank or a colon: a value read out
    # in groups (``lW4t g3WO kuB6 41bO …``); taken whole when they join into a generated value.
    View(
        "grouped",
        linear(rf"(?:^|[\s(=])((?:{GROUP_OF}[ \t:]){{4,}}{GROUP_OF})(?:[\s,;).]|$)"),
        1,
        ungrouped,
        16,
        # (five groups side by side, each with a capital, a digit or a sign: prose's words are lower
        # case; a group of four random characters is all lower case three times in a hundred)
        rf"(?:[a-z]*[^\sa-z][{GROUP_CHARS}]*[ \t:]){{4}}[a-z]*[A-Z0-9+/=_.!@#$%^&*~-]",
        spelled=True,
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
        linear(rf"[{_T}{ACCENTED}{MARKS}]*[{ACCENTED}{MARKS}][{_T}{ACCENTED}{MARKS}]*"),
        0,
        unaccented,
        16,
        rf"[{_T}][{ACCENTED}{MARKS}]",
    ),
    # A token of a prefixed format cut inside its prefix: the prefix joined, then as below.
    View("gapped", linear(GAPPED), 0, ungapped, 20, GAPPED_GATE),
    # A token of a prefixed format cut by spaces: its token-like pieces joined. Before the
    # separators' view, which would take a first piece with separators in it alone.
    View("spaced", linear(SPACED), 0, unspaced_token, 20, SPACED_GATE),
    # A token of a prefixed format cut by separators: its pieces joined.
    View("separated", linear(SEPARATED), 0, unseparated, 20, SEPARATED_GATE),
    # A token of a prefixed format written backwards (``…R7fM_phg``): the run read backwards.
    View("reversed", linear(REVERSED), 0, reversed_token, 20, REVERSED_GATE, whole=True),
    # A URL written backwards (``…moc.kcals.skooh//:sptth``): the run read backwards.
    View("reversed-url", linear(REVERSED_URL), 0, reversed_url, 16, REVERSED_URL_GATE, whole=True),
    # A token whose prefix is in another case than its format's (``GLPAT-…``, ``Sk_Live_…``).
    View("recased", linear(RECASED), 0, recased, 16, RECASED_GATE),
    # A line with an HTML character reference (``&lt;password&gt;…``, ``&quot;``): a form or a config
    # pasted from a web page or an HTML report, the whole line (a name and its value may be apart).
    View(
        "entities",
        linear(r"[^\r\n&]*(?:&#?[A-Za-z0-9]{1,6};[^\r\n&]*)+"),
        0,
        unentitied,
        8,
        r"&(?:lt|gt|quot|apos|amp|period|lowbar|hyphen|colon|sol|plus|equals|commat|num|excl|dollar|percnt"
        r"|shy|#[xX]?[0-9A-Fa-f]{1,3});",
    ),
    # A line with byte escapes in it (``char pw[] = "\\x68\\x65…"``, ``"\\u0073\\u006b…"``): a
    # secret written so that no scanner reads it, the whole line (its name is before the literal).
    View(
        "byte-escaped",
        linear(r"[^\r\n\\]*(?:\\(?:x|u00)[0-9A-Fa-f]{2}[^\r\n\\]*)+"),
        0,
        unbyted,
        8,
        r"\\(?:x|u00)[0-9A-Fa-f]{2}\\(?:x|u00)[0-9A-Fa-f]{2}",
    ),
    # Eight or more byte numbers in a list (``{0x68, 0x66, …}``, ``bytes: 0x78 0x6f …``): a token's
    # bytes written so that no scanner reads them.
    View(
        "byte-listed",
        linear(r"(?:0[xX][0-9A-Fa-f]{2}(?:[ \t]*,)?[ \t]*){7,}0[xX][0-9A-Fa-f]{2}"),
        0,
        unlisted_bytes,
        8,
        r"0[xX][0-9A-Fa-f]{2},?[ \t]*0[xX][0-9A-Fa-f]{2},?[ \t]*0[xX][0-9A-Fa-f]{2}",
    ),
    # Twelve or more printable bytes as pairs of hex digits with a colon or a dash between them
    # (``6e:70:6d:5f:…``, ``6e-70-6d-…``): a token's bytes as a debug log prints them.
    View("byte-paired", linear(PAIRED_BYTES), 0, unpaired_bytes, 12, PAIRED_BYTES_GATE),
    # A run with a percent-escape: a URL or a value encoded for one (``password%3D…``, a form's one
    # field, has a single escape), up to a query's ``&``: each parameter is a run of its own, so that
    # a credential's redaction does not run on to the last escape of the URL (a signed URL's date and
    # expiry stay).
    View(
        "escaped",
        linear(r"[^\s%&]*(?:%[0-9A-Fa-f]{2}[^\s%&]*)+"),
        0,
        unescaped,
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

    def replace(m: Match, text: str) -> str:
        whole = m.group(0) or ""
        run = m.group(view.group) or ""
        if view.prefixed_lines and run:
            run = _before_prefixed_line(text, m.start(view.group), run)
        if not run:
            return whole
        if len(run) <= view.shortest:
            return whole  # its view is shorter still
        seen, where = view.undo(run)
        if seen == run or len(seen) > len(run) or len(seen) < view.shortest:
            return whole  # nothing undone, or too short
        spelled = view.spelled and spelled_secret(seen)
        if not spelled and not news(seen, run, where):
            return whole  # no match the run as written lacked
        out = redact(seen)
        if out == seen and spelled:
            out = redacted
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
        start, end = (0, len(run)) if view.whole else (where[head], where[len(seen) - tail])
        offset = m.start(view.group) - m.start(0)
        return whole[: offset + start] + redacted + whole[offset + end :]

    return lambda text: view.pattern.sub(lambda m: replace(m, text), text)


_FIRST_WORD = linear(r"[^ \t\r\n]+")


def _before_prefixed_line(text: str, start: int, run: str) -> str:
    """``run`` (at ``start`` in ``text``) up to the first break before a line that starts as the
    run's own line does (:attr:`View.prefixed_lines`); the whole run if none does."""
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    head = _FIRST_WORD.search(text[line_start:start])
    if head is None:
        return run  # the run starts its line: no prefix to repeat
    prefix = word_shape(head.group(0) or "")
    for piece in _FIRST_WORD.finditer(run):
        before = run[: piece.start(0)].rstrip(" \t\\")
        if before.endswith(("\n", "\r")) and word_shape(piece.group(0) or "") == prefix:
            return run[: len(before.rstrip("\r\n \t\\"))]
    return run


# A run of 8 or more non-space characters with a non-ASCII one in it (``gһp_…`` with a Cyrillic
# ``һ``, ``АKIA…`` with a Cyrillic ``А``).
_MIXED = linear(r"[^\s\"'`<>()\[\]{}]*[^\x00-\x7f][^\s\"'`<>()\[\]{}]*")
_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


# Full-width digits, letters and the joiners tokens hold (``＿``, ``－``); a full-width bracket or
# comma alone is punctuation of CJK prose, beside an ASCII word ("token），.npmrc").
_FULL_WIDTH_ALNUM = frozenset(
    chr(c) for c in [*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B), 0xFF3F, 0xFF0D]
)


def latin_tokens(text: str) -> str:
    """``text`` with each token that mixes ASCII letters or digits with look-alike letters
    written in Latin letters (:func:`~osmia.memory.confusables.latin_skeleton`).

    Only tokens of 8 or more characters, at most a quarter of them not ASCII, with an ASCII letter
    or digit: a word of another script (``привет``), an accented word (``Größenordnung``) or a
    unit (``10μs``) is left as written. A token's full-width or mathematical letters and digits
    (``ｇｈｐ＿…``, ``𝚐𝚑𝚙_…``) are written as ASCII (NFKC), however many they are, where the whole
    token then reads as ASCII (``東京ＴＯＫＹＯ`` stays).
    """
    if text.isascii():
        return text

    def fold(m: Match) -> str:
        token = m.group(0) or ""
        if len(token) < 8:
            return token
        # Full-width and mathematical letters and digits (``ｇｈｐ＿…``, ``𝚐𝚑𝚙_…``) are ASCII's in
        # another form: NFKC writes them as ASCII, whatever their share of the token.
        if any(c in _FULL_WIDTH_ALNUM or "\U0001d400" <= c <= "\U0001d7ff" for c in token):
            compatible = unicodedata.normalize("NFKC", token)
            latin = latin_skeleton(compatible)
            if latin.isascii() and sum(1 for c in latin if c in _ASCII_ALNUM) >= 8:
                return latin  # (an ellipsis or a ligature alone is no such form: left as written)
        foreign = sum(1 for c in token if not c.isascii())
        if foreign * 4 > len(token) or not any(c in _ASCII_ALNUM for c in token):
            return token
        return foreign_skeleton(token)

    return _MIXED.sub(fold, text)
