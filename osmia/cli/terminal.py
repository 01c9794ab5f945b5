"""Making stored text safe to print on a terminal.

Everything Osmia stores was written by an agent or a user, so it may hold
escape sequences (``ESC [ 2 J`` clears the screen, OSC 8 forges links),
bidirectional overrides that reorder what is shown, and zero-width
characters that hide words. Human output shows each such character as a
visible escape (``\\x1b``, ``\\u202e``) instead; JSON output needs none of
this (``json`` escapes control characters, and the reader is a program).
"""

from __future__ import annotations

KEEP_IN_BLOCKS = frozenset("\n\t")
"""Characters a multi-line block (the Prior Knowledge section) keeps as they are."""


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def inline(text: object) -> str:
    """One line of text with every non-printable character escaped (newlines and tabs too).

    "Non-printable" is Python's :meth:`str.isprintable`: control characters,
    format characters (bidi marks and overrides, zero-width spaces, tags),
    line and paragraph separators, surrogates, private-use and unassigned
    code points, and spaces other than U+0020.
    """
    value = str(text)
    if value.isprintable():
        return value
    return "".join(c if c.isprintable() else _escape(c) for c in value)


def block(text: str) -> str:
    """Multi-line text with every non-printable character escaped except newlines and tabs."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in KEEP_IN_BLOCKS else _escape(c) for c in text)
