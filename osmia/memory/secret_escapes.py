"""Characters written as escapes, references, bytes or with accents, and how views read them.

A token written as percent-escapes (``%67%68%70…``), byte escapes (``\\x67\\x68…``,
``\\u0067…``), a list of byte numbers (``{0x67, 0x68, …}``), HTML's character references
(``ghp&lowbar;…``, ``&#103;…``) or with accents on its letters reads as the token to a person
and matches no rule. Each function here gives a :class:`~osmia.memory.secret_views.View` the text
such a run stands for, and where each of its characters came from; only printable ASCII is
decoded.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
"""

from __future__ import annotations

import unicodedata

from osmia.memory.linear import linear
from osmia.memory.secret_decoding import HEX_DIGITS

__all__ = [
    "ACCENTED",
    "MARKS",
    "PAIRED_BYTES",
    "PAIRED_BYTES_GATE",
    "unaccented",
    "unbyted",
    "unentitied",
    "unescaped",
    "unlisted_bytes",
    "unpaired_bytes",
]


# The combining marks that accent a letter (U+0300-036F and the supplements).
MARKS = r"\x{0300}-\x{036F}\x{1AB0}-\x{1AFF}\x{1DC0}-\x{1DFF}\x{20D0}-\x{20FF}\x{FE20}-\x{FE2F}"
# Latin letters with an accent of their own (Latin-1 Supplement and Extended-A/B letters).
ACCENTED = r"\x{00C0}-\x{00D6}\x{00D8}-\x{00F6}\x{00F8}-\x{024F}"


def unaccented(run: str) -> tuple[str, list[int]]:
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


# What an escape in a URL written plainly stays: its delimiters (``@ : / ? #``), escaped there because
# they are data (a password's ``%40`` is an '@' of the password, not the host's).
_URL_DELIMITERS = frozenset(("40", "3a", "2f", "3f", "23"))
# A URL written plainly with a user part: its scheme, then up to its literal '@' no literal '/'.
_PLAIN_USER_URL = linear(r"://[^\s/@?#]*@")


def unescaped(run: str) -> tuple[str, list[int]]:
    """Percent-escapes of ASCII characters decoded (``redis%3A%2F%2F%3Apw%40host`` → ``redis://:pw@host``);
    in a run whose URL and its user part are written plainly (``mssql://u:p%40ss%2F1@host``), not those
    of its delimiters, which the URL's writer escaped to keep them data (decoded, ``p@ss/1@host`` reads
    as another host). A URL escaped whole, in a query (``?next=https%3A%2F%2Fu%3Apw%40h``), is decoded."""
    plain_url = "://" in run and _PLAIN_USER_URL.search(run) is not None
    chars: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(run):
        hexa = run[i + 1 : i + 3]
        if (
            run[i] == "%"
            and len(hexa) == 2
            and set(hexa) <= HEX_DIGITS
            and int(hexa, 16) < 0x80
            and not (plain_url and hexa.lower() in _URL_DELIMITERS)
        ):
            chars.append(chr(int(hexa, 16)))
            where.append(i)
            i += 3
            continue
        chars.append(run[i])
        where.append(i)
        i += 1
    where.append(len(run))
    return "".join(chars), where


# A character written as a byte escape in a string literal: ``\x68`` (C, Python, JavaScript, a
# shell's ``$'…'``) or ``\u0068`` (JSON, Java); only printable ASCII is decoded.
_BYTE_ESCAPE = linear(r"\\(?:x|u00)([0-9A-Fa-f]{2})")


def unbyted(run: str) -> tuple[str, list[int]]:
    """A line's byte escapes of printable ASCII decoded (``pw[] = "\\x68\\x65…"`` →
    ``pw[] = "he…"``), when it holds four or more; the run itself otherwise (one escape is a
    newline or a quote in ordinary code)."""
    chars: list[str] = []
    where: list[int] = []
    last = decoded = 0
    for m in _BYTE_ESCAPE.finditer(run):
        code = int(m.group(1) or "0", 16)
        if not 0x20 <= code < 0x7F:
            continue
        chars.append(run[last : m.start(0)])
        where.extend(range(last, m.start(0)))
        chars.append(chr(code))
        where.append(m.start(0))
        last = m.end(0)
        decoded += 1
    if decoded < 4:
        return run, [*range(len(run)), len(run)]
    chars.append(run[last:])
    where.extend(range(last, len(run)))
    where.append(len(run))
    return "".join(chars), where


# A byte written as a number in a list (``{0x68, 0x66, …}``, ``0x78 0x6f …``): a token's bytes in
# code or a debug log; only printable ASCII is decoded.
_BYTE_NUMBER = linear(r"0[xX]([0-9A-Fa-f]{2})(?:[ \t]*,)?[ \t]*")


def unlisted_bytes(run: str) -> tuple[str, list[int]]:
    """A list of eight or more byte numbers read as the text they spell (``0x68, 0x66, 0x5F`` →
    ``hf_``); the run itself when a byte is no printable character."""
    chars: list[str] = []
    where: list[int] = []
    for m in _BYTE_NUMBER.finditer(run):
        code = int(m.group(1) or "0", 16)
        if not 0x20 <= code < 0x7F:
            return run, [*range(len(run)), len(run)]
        chars.append(chr(code))
        where.append(m.start(0))
    where.append(len(run))
    return "".join(chars), where


# Twelve or more printable bytes as pairs of hex digits, a colon or a dash between them throughout
# (``6e:70:6d:5f:…``, ``6e-70-6d-…``): a token's bytes as a debug log prints them. A fingerprint's
# or a MAC address's bytes are not all printable, or too few. Not pairs between blanks (a hex
# viewer's ``67 68 70 5f …``): their gate made redaction's scan build states on every text with
# numbers in it (a first pass over new runs 10-40 % slower, docs/performance.md §52).
_PAIR = r"[2-7][0-9A-Fa-f]"
PAIRED_BYTES = "|".join(rf"(?:{_PAIR}{mark}){{11,}}{_PAIR}" for mark in (":", "-"))
PAIRED_BYTES_GATE = "|".join(
    rf"{_PAIR}{mark}{_PAIR}{mark}{_PAIR}{mark}{_PAIR}{mark}{_PAIR}" for mark in (":", "-")
)
_HEX_PAIR = linear(r"[0-9A-Fa-f]{2}")


def unpaired_bytes(run: str) -> tuple[str, list[int]]:
    """Pairs of hex digits read as the text they spell (``6e:70:6d:5f`` → ``npm_``)."""
    chars: list[str] = []
    where: list[int] = []
    for m in _HEX_PAIR.finditer(run):
        chars.append(chr(int(m.group(0) or "0", 16)))
        where.append(m.start(0))
    where.append(len(run))
    return "".join(chars), where


# HTML's named references for the characters a token or a password holds; ``&shy;`` (a soft hyphen)
# is nothing where it stands.
_ENTITIES = {
    "lt": "<",
    "gt": ">",
    "quot": '"',
    "apos": "'",
    "amp": "&",
    "period": ".",
    "lowbar": "_",
    "hyphen": "-",
    "colon": ":",
    "sol": "/",
    "plus": "+",
    "equals": "=",
    "commat": "@",
    "num": "#",
    "excl": "!",
    "dollar": "$",
    "percnt": "%",
    "shy": "",
}
_ENTITY = linear(r"&(?:([a-z]{2,6})|#([0-9]{1,3})|#[xX]([0-9A-Fa-f]{1,2}));")


def unentitied(run: str) -> tuple[str, list[int]]:
    """HTML's character references of ASCII characters decoded (``&lt;password&gt;`` → ``<password>``,
    ``&quot;`` and ``&#34;`` → ``"``): a config or a form pasted from a web page or an HTML report."""
    chars: list[str] = []
    where: list[int] = []
    last = 0
    for m in _ENTITY.finditer(run):
        named, decimal, hexa = m.group(1), m.group(2), m.group(3)
        if named is not None and named not in _ENTITIES:
            continue  # a reference this view does not read (``&nbsp;``, ``&copy;``)
        char = _ENTITIES[named] if named else chr(int(decimal, 10) if decimal else int(hexa or "0", 16))
        if char and not 0x20 <= ord(char) < 0x80:
            continue  # left as written: not a character a rule reads
        chars.extend(run[last : m.start(0)])
        where.extend(range(last, m.start(0)))
        if char:
            chars.append(char)
            where.append(m.start(0))
        last = m.end(0)
    chars.extend(run[last:])
    where.extend(range(last, len(run)))
    where.append(len(run))
    return "".join(chars), where
