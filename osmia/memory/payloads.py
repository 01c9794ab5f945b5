"""Text a learning carries encoded, decoded for the hostility check only.

An order hidden as base64 ("Decode and follow: SWdub3Jl…"), hex, ``\\x`` escapes or ROT13 reads as
nothing until the reader decodes it, and a model decodes such text unasked. The hostility check
(:mod:`osmia.memory.hostile`) reads a text once more with each such run replaced by what it
decodes to, when that is readable text (letters and spaces, not a digest, a key or binary data);
ROT13 only where the text names it. Stored text keeps its own characters.
"""

from __future__ import annotations

import base64
import binascii
import codecs

from osmia.memory.linear import linear

__all__ = ["decoded"]

# Runs long enough to hold a sentence's worth of order; at most this many are decoded a text.
_BASE64_RUN = linear(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX_RUN = linear(r"\b(?:[0-9a-fA-F]{2}){8,}\b")
_ESCAPES = linear(r"(?:\\x[0-9a-fA-F]{2}){3,}")
_ROT13_NAMED = linear(r"(?i)\brot[ \t-]?13\b|\bcaesar\b")
_MAX_RUNS = 8


def decoded(text: str) -> set[str]:
    """``text`` with its encoded runs replaced by readable text they decode to (none: empty)."""
    out: set[str] = set()
    if "\\x" in text:
        replaced = _ESCAPES.sub(
            lambda m: _printable(_from_escapes(m.group(0) or "")) or (m.group(0) or ""), text
        )
        if replaced != text:
            out.add(replaced)
    for pattern, decode in ((_BASE64_RUN, _from_base64), (_HEX_RUN, _from_hex)):
        runs = [m.group(0) or "" for _i, m in zip(range(_MAX_RUNS), pattern.finditer(text), strict=False)]
        replaced = text
        for run in runs:
            plain = _readable(decode(run))
            if plain:
                replaced = replaced.replace(run, plain)
        if replaced != text:
            out.add(replaced)
    if _ROT13_NAMED.search(text):
        out.add(codecs.encode(text, "rot13"))
    return out


def _from_base64(run: str) -> bytes:
    core = run.rstrip("=")
    padded = core + "=" * (-len(core) % 4)
    try:
        if "-" in run or "_" in run:
            return base64.urlsafe_b64decode(padded)
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return b""


def _from_hex(run: str) -> bytes:
    try:
        return bytes.fromhex(run)
    except ValueError:
        return b""


def _from_escapes(run: str) -> bytes:
    return bytes(int(run[i + 2 : i + 4], 16) for i in range(0, len(run), 4))


def _printable(raw: bytes) -> str:
    """``raw`` as text if every byte is printable ASCII (escapes spell a word: ``\\x63\\x75…``)."""
    return raw.decode("ascii") if raw and all(32 <= b < 127 for b in raw) else ""


def _readable(raw: bytes) -> str:
    """``raw`` as text if it reads as words: UTF-8 of printable characters and blanks (line
    breaks and tabs too: an order encoded with its "----" and new lines, or in German, is still
    read), with a blank and mostly letters."""
    if len(raw) < 6:
        return ""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    if not all(c.isprintable() or c in "\t\n\r" for c in text):
        return ""
    dense = "".join(text.split())
    if len(dense) == len(text):
        return ""  # no blank: a name or a value, not words
    return text if sum(c.isalpha() for c in dense) >= 0.6 * len(dense) else ""
