"""Prompt cleaning: stored text becomes one safe line of data, repeated until nothing changes.

Everything an agent reports is untrusted and is replayed into another agent's
prompt. :func:`clean_text` removes what could break out of the
``## Prior Knowledge`` section or speak as a role: invisible, bidirectional
and control characters, HTML comments and tags, markdown links and images
(their text is kept), role markers, injection phrases, code fences and
headings, and secrets (:func:`osmia.memory.redaction.redact`, again: removing
a tag can join the halves of a token). Each step can uncover something an
earlier one already passed (``sys<<b>b>tem:``), so the whole pipeline runs
to a fixed point: cleaning cleaned text changes nothing.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time per pass, and
the input is cut to :data:`MAX_INPUT` characters first, so the passes are
bounded too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from osmia.memory.linear import AnyOf, LinearPattern, encodable, linear
from osmia.memory.redaction import CANDIDATES, redact

MAX_LINE = 300
# Cleaning never returns more than ``max_len`` characters; what lies this far beyond it cannot
# reach the output, and cutting first bounds the work on hostile input.
MAX_INPUT = 8192
MAX_PASSES = 32
REMOVED = "[removed]"
ELLIPSIS = "…"

# Characters that render as nothing or reorder text: controls (C0, DEL, C1), format characters
# (zero-width space/joiners, bidi embeddings/overrides/isolates, BOM, soft hyphen, tag characters),
# surrogates, private use, line/paragraph separators, variation selectors, the combining grapheme
# joiner and the blank "letters" (Hangul fillers, braille blank, Khmer vowel inherents).
# Removed with str.translate (no regex: one C pass over the text, however many there are).
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_INVISIBLE_EXTRA = frozenset(
    [
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
        *range(0x180B, 0x1810),
        *(0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x17B4, 0x17B5, 0xFFFC),
    ]
)
# A terminal's escape sequences: CSI (colours, ``ESC [ 31 m``, or the one-character CSI), OSC (a
# window title or hyperlink, to BEL or ST, or the end), and the others (``ESC ( B``, ``ESC 7``).
_TERMINAL_CODE = linear(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x{9b}[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)|\x1b[ -/]*[0-~]"
)
_LINE_BREAK_CHARS = "\t\n\v\f\r\x85\u2028\u2029"
_PRINTABLE_ASCII = frozenset(map(chr, range(0x20, 0x7F)))  # never invisible, never a line break
# Whitespace becomes one plain space. Only what that changes is matched: a run of two or more, or
# one character other than the space. A line of single spaces then has no match at all, where
# matching every space cost a Python callback each in RE2's ``sub`` (51 µs on a 130-character line,
# half of a cleaning pass). The single characters are ``[\s\p{Z}\x{0085}]`` without the space
# (tests/memory/test_cleaning_whitespace.py checks the classes against each other).
_SPACE = r"[\s\p{Z}\x{0085}]"
_ODD_SPACE = r"[\t\n\f\r\x{0085}\p{Zl}\p{Zp}\x{A0}\x{1680}\x{2000}-\x{200A}\x{202F}\x{205F}\x{3000}]"
_WHITESPACE = linear(rf"{_SPACE}{{2,}}|{_ODD_SPACE}")
_HTML_COMMENT = linear(r"(?s)<!--.*?(?:-->|$)|<!\[CDATA\[.*?(?:\]\]>|$)|<![A-Za-z][^<>]*>|<\?[^<>]*\?>")
# Innermost tags first ([^<>] inside), so ``<<b>b>`` takes two passes and never rebuilds a tag.
_HTML_TAG = linear(r"</?[A-Za-z][^<>]*>")
# A link target as CommonMark reads one: space around it, ``<…>`` or a destination with up to three
# levels of parentheses (``javascript:fetch((location))``, Wikipedia-style URLs), then a title in
# double or single quotes or parentheses. Its text may hold one level of brackets.
_MD_PARENS = r"\([^()\s]*\)"
for _level in range(2):
    _MD_PARENS = rf"\((?:[^()\s]|{_MD_PARENS})*\)"
_MD_TARGET = (
    rf"\(\s*(?:<[^<>\r\n]*>|(?:[^()\s]|{_MD_PARENS})*)"
    r"""(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)"""
)
_MD_TEXT = r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"
_MD_IMAGE = linear(rf"!{_MD_TEXT}{_MD_TARGET}")
_MD_LINK = linear(rf"{_MD_TEXT}{_MD_TARGET}")
_MD_REFERENCE = linear(r"\[[^\[\]]+\]:[ \t]*<?[A-Za-z][A-Za-z0-9+.-]*:[^\s>]*>?")
_MD_REF_LINK = linear(r"\[([^\[\]]+)\]\[[^\[\]]*\]")
_ROLE_MARKERS = linear(
    r"(?i)(?:<\|[a-z_ ]*\|>|</?s>|\[/?INST\]|<<\s*/?SYS\s*>>|</?(?:system|assistant|user|human|tool)>"
    r"|\b(?:system|assistant|user|human|developer)\s*:)"
)
_INJECTION = linear(
    r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?"
    r"(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions?|prompts?|rules?|messages?)"
)
_FENCE = linear(r"`{3,}|~{3,}")
_HEADING_RUN = linear(r"#{2,}")
_LEADING_MARKUP = linear(r"^[\s>#*+=|-]+")


def _sub(pattern: LinearPattern, replacement: str) -> Callable[[str], str]:
    return lambda text: pattern.sub(replacement, text)


def _until_stable(step: Callable[[str], str]) -> Callable[[str], str]:
    """Apply ``step`` until it changes nothing (each application shortens the text, so this ends)."""

    def run(text: str) -> str:
        for _ in range(len(text) + 1):
            after = step(text)
            if after == text:
                break
            text = after
        return text

    return run


def drop_invisible(text: str) -> str:
    """Drop terminal codes, invisible, bidirectional and control characters, keeping tabs and
    line breaks.

    For multi-line text that is redacted before it is cleaned: a zero-width
    character inside a token must not hide it from :func:`~osmia.memory.redaction.redact`.
    """
    text = without_terminal_codes(text)
    return text.translate(_invisible_table(text, keep="\t\n\r"))


def without_terminal_codes(text: str) -> str:
    """``text`` without terminal escape sequences (colours, cursor moves, window titles).

    Dropping only their escape character left ``[31m`` glued to the next word, and a token
    coloured in a log (``\\x1b[31mghp_…\\x1b[0m``) read as part of a longer word to redaction.
    """
    if "\x1b" not in text and "\x9b" not in text:
        return text
    return _TERMINAL_CODE.sub("", text)


def _invisible_table(text: str, keep: str = "", space: str = "") -> dict[int, str | None]:
    """A ``str.translate`` table for the invisible characters that occur in ``text``.

    Built from the distinct characters only, so it is small whatever the text's length.
    """
    table: dict[int, str | None] = {}
    if text.isascii():
        chars = {c for c in text if c < " " or c == "\x7f"} if not text.isprintable() else set()
    else:
        chars = set(text) - _PRINTABLE_ASCII  # the few characters that can need a look
    for char in chars:
        if char in keep:
            continue
        if char in space:
            table[ord(char)] = " "
        elif unicodedata.category(char) in _INVISIBLE_CATEGORIES or ord(char) in _INVISIBLE_EXTRA:
            table[ord(char)] = None
        elif 0xFDD0 <= ord(char) <= 0xFDEF or ord(char) & 0xFFFE == 0xFFFE:
            # Unicode's noncharacters (U+FFFE, U+FFFF, …): never text, and XML 1.0 forbids them, so
            # a GraphML or GEXF export holding one would not parse.
            table[ord(char)] = None
    return table


def _nfkc(text: str) -> str:
    """NFKC, except for ``…`` (the truncation mark, which NFKC would turn into three dots)."""
    if text.isascii():
        return text
    return ELLIPSIS.join(unicodedata.normalize("NFKC", part) for part in text.split(ELLIPSIS))


def strip_invisible(text: str) -> str:
    """Drop invisible, bidirectional and control characters; line breaks and tabs become spaces.

    NFKC first, so full-width and compatibility forms (``ｓｙｓｔｅｍ：``) read as what they show.
    """
    text = without_terminal_codes(_nfkc(encodable(text)))
    return text.translate(_invisible_table(text, space=_LINE_BREAK_CHARS))


def drop_markup(text: str) -> str:
    """Formatting tags and comments inside a word removed, as cleaning removes them (``ab<i>cd``,
    ``ab<!-- -->cd``, ``ab<b></b>cd`` read ``abcd``); every other tag and line break kept.

    Redaction reads a field without them (:func:`osmia.memory.sanitize.redacted`): a tag inside a
    secret (``TOKEN=f007<i>yVgR…``) split it where redaction looked, the rule took ``f007<i`` and
    left the rest of the token after a broken tag, which cleaning then kept and showed. Only
    formatting tags: an element's own tags name what it holds (``<password>…</password>``, read by
    its rule), and stay.
    """
    if "<" not in text:
        return text
    return _drop_inner_markup(text)


# A run of formatting tags and comments between two characters of one word (kept, the run dropped).
_INNER_MARKUP = linear(
    r"([^\s<>])(?:</?(?i:b|i|u|s|em|strong|span|code|mark|small|big|sub|sup|font|del|ins|tt|kbd|var|abbr"
    r"|wbr|br|q|cite|dfn|samp|bdi|bdo|nobr|strike)(?:\s[^<>]*)?/?>|<!--[^<>]*?-->)+([^\s<>])"
)
_drop_inner_markup = _until_stable(
    lambda text: _INNER_MARKUP.sub(lambda m: (m.group(1) or "") + (m.group(2) or ""), text)
)


def _markdown_links(text: str) -> str:
    text = _MD_IMAGE.sub(lambda m: m.group(1) or "", text)
    text = _MD_LINK.sub(lambda m: m.group(1) or "", text)
    text = _MD_REF_LINK.sub(lambda m: m.group(1) or "", text)
    return _MD_REFERENCE.sub("", text)


_STEPS: tuple[Callable[[str], str], ...] = (
    strip_invisible,
    _until_stable(_sub(_HTML_COMMENT, "")),
    _until_stable(_sub(_HTML_TAG, "")),
    _until_stable(_markdown_links),
    _sub(_WHITESPACE, " "),
    _sub(_FENCE, "'"),
    _until_stable(_sub(_ROLE_MARKERS, "")),
    _sub(_INJECTION, REMOVED),
    _sub(_HEADING_RUN, "#"),
    redact,
    lambda text: _LEADING_MARKUP.sub("", text).strip(),
)


# Where any step of a pass could change the text: a text none of these match is already clean,
# which two searches tell (most stored facts are), instead of a dozen searches and substitutions.
# Cleaning's own steps are one small union; redaction's are its own prefilter
# (:data:`~osmia.memory.redaction.CANDIDATES`), searched apart: one union of both took four times
# as long on text it had not seen (its automaton's states are built as text walks into them, each
# the dearer the more patterns it holds), and redaction's own has seen most of that text already.
_TRIGGERS = AnyOf(
    [
        *(
            p.pattern
            for p in (
                _HTML_COMMENT,
                _HTML_TAG,
                _MD_IMAGE,
                _MD_LINK,
                _MD_REF_LINK,
                _MD_REFERENCE,
                _FENCE,
                _ROLE_MARKERS,
                _INJECTION,
                _HEADING_RUN,
                _LEADING_MARKUP,
            )
        ),
        _WHITESPACE.pattern,  # a whitespace run, or whitespace other than the space
        r"[\s\p{Z}]$",  # a trailing space
    ]
)


def _needs_pass(text: str) -> bool:
    """False when one pass of cleaning would certainly leave ``text`` as it is."""
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text.replace(ELLIPSIS, "")):
        return True
    if _invisible_table(text, space=_LINE_BREAK_CHARS):
        return True
    return _TRIGGERS.search(text) is not None or CANDIDATES.search(text) is not None


def _one_pass(text: str) -> str:
    for step in _STEPS:
        text = step(text)
    return text


def _fixed_point(text: str) -> str:
    for _ in range(MAX_PASSES):
        if not _needs_pass(text):
            return text
        after = _one_pass(text)
        if after == text:
            return text
        text = after
    # Not settled after MAX_PASSES full passes: hostile beyond any real text. Keep nothing of it.
    return REMOVED


def clean_text(text: str, max_len: int = MAX_LINE) -> str:
    """One safe line of data: no invisible or control characters, tags, links, role markers,
    injections, headings, fences or secrets; at most ``max_len`` characters; idempotent."""
    text = _fixed_point(encodable(text[: max(MAX_INPUT, 4 * max_len)]))
    for _ in range(MAX_PASSES):
        if len(text) <= max_len:
            return text
        text = _fixed_point(text[: max_len - 1].rstrip() + ELLIPSIS)
    return text[:max_len]


def settled(
    text: str, max_len: int = MAX_LINE, redact_with: Callable[[str], str] = redact, passes: int = 8
) -> str:
    """Redaction (``redact_with``) and cleaning repeated until the text gives itself back, at most
    ``passes`` times: removing one piece of markup must not leave another behind
    (``sys<<b>b>tem:`` loses a tag, then reads ``system:``), nor may cleaning join two halves of a
    token, or shorten a token of mixed letters, past what redaction saw. Clean text returns at once."""
    for _ in range(passes):
        cleaned = clean_text(redact_with(text), max_len)
        if cleaned == text:
            break
        text = cleaned
    return text
