"""The rest of a secret after its redacted start: a value cut in two, or the next codes of a list.

A rule finds a secret by what stands before it (a name, a prefix, a label) and takes one run of
characters. When the value is cut by a blank (``aws_secret_access_key = wJalrXUtnFEMI/K7MDENG
bPxRfiCY…``, a wrapped log line) or is the first of a list (``recovery codes: 8f3k-2m9q,
7h4n-x2p8, …``), the rest stays behind the ``[redacted]``. What follows a redacted value
directly, after a blank, a comma or a semicolon, is taken too while it reads as a piece of a
generated value (:func:`fragment`): random, or letters and digits alternating; never a word, a
name, a number, a version, a flag or an assignment. Runs joined by blanks are one value cut in
two (one marker); runs joined by a comma or semicolon are a list (a marker each).

A token *glued* to a marker, with no separator, is one token with it (:data:`GLUED`): no rule
leaves token characters right after its marker, so what follows one is the rest of the secret a
rule cut (at a ``#`` or a ``]`` its value cannot hold) or text a run wrote around a marker of its
own to pass a secret through (``password=[redacted]hunter2hunter2``). What follows it up to a
blank, a quote or a bracket is folded into the marker with what directly precedes it; with
nothing after it, what precedes it is folded only when it reads as a piece of a generated value
(:func:`fragment`: not the flag of ``mysql -p[redacted]``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from osmia.memory.english import holds_common_word
from osmia.memory.linear import Match, linear
from osmia.memory.secret_placeholders import REDACTED, is_placeholder
from osmia.memory.secret_values import camel_word, looks_random, number_like, plain_words

__all__ = [
    "GLUED",
    "NEXT_LINE",
    "REST_TOLD",
    "TAIL",
    "fragment",
    "glued_sub",
    "next_line_sub",
    "rest_told_sub",
    "tail_sub",
    "word_shape",
]

# Between two pieces: a list's comma or semicolon, one or two blanks, a string closed and another
# opened (``"…""…"``, ``"…" + "…"``, ``'…' . '…'``: a literal split to pass a scanner; ``"…" -> "…"``:
# a plan's old value and its new one), code spans side by side, or the
# brace that ends an empty expansion (``…${EMPTY}…``).
_SEPARATOR = (
    r"""(?:[ \t]*[,;][ \t]*|[ \t]{1,2}|["'][ \t]*(?:(?:[+.]|->|=>|→)[ \t]*)?["']|\}"""
    # ... or Markdown's code spans side by side, bold between them or not (```…` `…```, ```…`**`…```)
    r"""|`\*{0,2}[ \t]?\*{0,2}`)"""
)
_RUN = r"[A-Za-z0-9+/_=-]+"
# A redacted value, then runs of token characters after separators, then the character after the
# last run (an ``@`` or ``:`` there makes it a user, a host or a label, not a piece of a secret).
TAIL = rf"\[redacted\]((?:{_SEPARATOR}{_RUN})+)([^\s,;]?)"
_PIECE = linear(rf"({_SEPARATOR})({_RUN})")
# A marker with token characters after it, and any directly before it; else a marker with token
# characters only before it (group 1). After it: a token character, then anything up to a blank,
# a quote, a bracket, a list separator, ``@`` or ``:`` (a user or a host follows a password:
# ``user:[redacted]@db``). ``=`` and ``/`` are not taken before it (``AccountKey=[redacted]``,
# ``…/services/[redacted]``).
_AFTER = r"(?:[A-Za-z0-9+_=-]|\.[A-Za-z0-9])[^\s'\"`,;()\[\]{}<>@:]*"
GLUED = rf"[A-Za-z0-9+_-]*\[redacted\]{_AFTER}|([A-Za-z0-9+_-]+)\[redacted\]"


def _alternations(value: str) -> int:
    """How often ``value`` turns from a letter to a digit or back (``a1b2`` three times, ``python3`` once)."""
    kinds = [c.isdigit() for c in value if c.isalnum()]
    return sum(1 for a, b in itertools.pairwise(kinds) if a != b)


def fragment(run: str) -> bool:
    """Whether ``run``, found right after a redacted value, reads as a piece of a generated value.

    Six characters or more of token characters, not a flag (``--verbose``), an assignment
    (``DB_HOST=db1``: ``=`` only as base64's padding), a number, version, placeholder, words joined
    by separators, a camel-case word (``UserService``, ``Summer2024``) or an upper-case name
    (``GITHUB_TOKEN``, ``README``); and random (:func:`~osmia.memory.secret_values.looks_random`,
    12 characters and more) or letters and digits alternating three times or more (``8f3k-2m9q``;
    not ``python3``, ``node18`` or ``x86_64``).
    """
    core = run.rstrip("=")
    if len(core) < 6 or run.startswith("-") or "=" in core:
        return False
    if is_placeholder(core) or number_like(core) or plain_words(core) or camel_word(core):
        return False
    if not any(c.islower() for c in core) and ("_" in core or not any(c.isdigit() for c in core)):
        return False
    return looks_random(core, 12) or (any(c.isalpha() for c in core) and _alternations(core) >= 3)


def _replace(m: Match) -> str:
    after = m.group(2) or ""
    pieces = [(p.group(1) or "", p.group(2) or "") for p in _PIECE.finditer(m.group(1) or "")]
    out = [REDACTED]
    for i, (separator, run) in enumerate(pieces):
        last = i == len(pieces) - 1
        if not fragment(run) or (last and after in ("@", ":")):
            return "".join(out) + "".join(s + r for s, r in pieces[i:]) + after
        if separator.strip():
            out.append(separator + REDACTED)  # the next item of a list
        # else: the rest of the value cut by a blank, folded into its marker
    return "".join(out) + after


def _fold(m: Match) -> str:
    before = m.group(1)
    if before is not None and not fragment(before):
        return m.group(0) or ""  # a word or a flag before a marker (``-p[redacted]``) stays
    return REDACTED


def glued_sub() -> Callable[[str], str]:
    """The redaction step that folds a token glued to a marker into it (see the module docstring)."""
    pattern = linear(GLUED)
    return lambda text: pattern.sub(_fold, text)


def tail_sub() -> Callable[[str], str]:
    """The redaction step that takes the rest of a redacted value (see the module docstring)."""
    pattern = linear(TAIL)
    return lambda text: pattern.sub(_replace, text)


# The rest of a secret told apart from its start: after a redacted value, a phrase that says the
# next piece follows ("second half", "the other part", "the rest", "part 2", "pt2", "remainder",
# "… continues", "… ends with", "then", "and finally"), then,
# at most two words on, a run that reads as a piece of a generated value (:func:`fragment`, and no
# common English word in it: ``20240312_add_index_on_orders`` is a name). A token
# pasted in two messages, the first cut short (``first half ghp_…``), leaves its second half so.
REST_TOLD = (
    r"(?i)\b(?:(?:second|other|last|remaining|final|next|third)[ \t]+(?:half|part|piece|bit|chunk)"
    r"|the[ \t]+rest|remainder|(?:part|pt)[ \t]*(?:2|3|two|three|ii|iii|b|c)"
    r"|(?:continues|ends)(?:[ \t]+(?:with|in|as))?|and[ \t]+finally|then)\b"
)
_REST_TOLD = linear(REST_TOLD)
_REST_RUN = linear(r"[A-Za-z0-9+/_=-]{12,}")
_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_=-")
_REST_REACH = 48  # characters after the phrase where its piece may start ("…: ", "is ", "comes as ")
# Between the phrase and its piece: signs and at most two words ("): ", " is ", " comes as "); "the
# rest of the fix is in commit 3f9a…" is prose about something else.
_REST_GAP = linear(r"^[^A-Za-z0-9]*(?:[A-Za-z]+[^A-Za-z0-9]+){0,2}$")


def rest_told_sub() -> Callable[[str], str]:
    """The redaction step that takes the rest of a secret told after its redacted start (see
    :data:`REST_TOLD`): only after a marker, and only the first run after each phrase."""

    def step(text: str) -> str:
        start = text.find(REDACTED)
        if start < 0:
            return text
        base = start + len(REDACTED)
        out: list[str] = []
        kept = 0  # where the text not yet copied to ``out`` starts
        read = 0  # where the last run read ends
        for cue in _REST_TOLD.finditer(text[base:]):
            end = base + cue.end(0)
            if end < read:
                continue  # a phrase inside a run already read
            # Each phrase reads a window, not the rest of the text (untrusted text may repeat a
            # phrase thousands of times): a run of 12 that starts within reach fits in it.
            run = _REST_RUN.search(text[end : end + _REST_REACH + 12])
            if run is None or not _REST_GAP.search(text[end : end + run.start(0)]):
                continue
            a = read = end + run.start(0)
            while read < len(text) and text[read] in _RUN_CHARS:
                read += 1
            value = text[a:read]
            if not fragment(value) or not any(c.isalpha() for c in value) or holds_common_word(value):
                continue
            out += [text[kept:a], REDACTED]
            kept = read
        return "".join(out) + text[kept:] if out else text

    return step


# The rest of a token on the next line, after a marker that ends its line: a terminal or a logger
# wrapped the value (``… using token [redacted]`` then ``2024-05-14T09:31:07Z app: OJWOd…``). The
# next line's piece is found where the wrap put it: at the marker's column under blanks or a
# table's bars (``│            │ nfKp…``), or after the words that repeat the line's own prefix
# (a timestamp, a host, a process, a quote's ``>``: the same words, or the same with other digits),
# or as the whole next line when that is 24 token characters or more and nothing else (a value
# wrapped at a fixed width, quoted-printable's ``=`` at the end of each line or not).
NEXT_LINE = r"\[redacted\][ \t]*(?:[│|\"'`\\][ \t]*)?\r?\n"
_MARKER_AT_END = linear(r"\[redacted\][ \t]*(?:[│|\"'`\\][ \t]*)?$")
_CONTINUED = linear(r"[A-Za-z0-9+/_=.-]+")
_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")
_BARE_REST = 24  # a line of token characters this long and nothing else is the rest of the value
_BARS = " \t│|┃>"


def word_shape(word: str) -> str:
    """A word with its digits read as one digit: a timestamp or a process id of another line."""
    return word.translate(_DIGITS_AS_ZERO)


def _continued_at(before: str, line: str) -> int:
    """Where the rest of a value cut at the end of the line ``before`` + marker starts in the next
    ``line`` (see :data:`NEXT_LINE`); -1 where the line does not continue it."""
    column = len(before)
    if column <= len(line) and not line[:column].strip(_BARS):
        start = column
        while start < len(line) and start - column < 2 and line[start] in " \t":
            start += 1
        return start
    bare = _CONTINUED.match(line)
    if bare is not None and len(bare.group(0) or "") >= _BARE_REST and not line[bare.end(0) :].strip():
        return 0  # a whole line of token characters: a value wrapped at a fixed width (mail, a pager)
    mine, theirs = before.split(), line.split()
    same = 0
    while same < min(len(mine), len(theirs)) and word_shape(mine[same]) == word_shape(theirs[same]):
        same += 1
    if same == 0 or same >= len(theirs):
        return -1
    at = 0
    for word in theirs[:same]:
        at = line.index(word, at) + len(word)
    return line.index(theirs[same], at)


def _table_row(line: str) -> bool:
    """A Markdown table's row: it opens with a bar and has two cells or more."""
    return line.lstrip().startswith("|") and line.count("|") >= 3


def next_line_sub() -> Callable[[str], str]:
    """The redaction step that takes the rest of a value wrapped onto the next line (see
    :data:`NEXT_LINE`); line by line, so that a value wrapped over many lines goes whole."""

    def step(text: str) -> str:
        lines = text.split("\n")
        changed = False
        for i in range(len(lines) - 1):
            marker = _MARKER_AT_END.search(lines[i])
            if marker is None:
                continue
            line = lines[i + 1]
            start = _continued_at(lines[i][: marker.start(0)], line)
            if (
                start >= 0
                and _table_row(lines[i])
                and _table_row(line)
                and line[:start].count("|") != lines[i][: marker.start(0)].count("|")
            ):
                continue  # another cell of the table's next row, not the rest of this cell
            run = _CONTINUED.match(line[start:]) if start >= 0 else None
            value = (run.group(0) or "") if run is not None else ""
            if len(value) < 8 or not fragment(value.rstrip(".")):
                continue
            lines[i + 1] = line[:start] + REDACTED + line[start + len(value) :]
            changed = True
        return "\n".join(lines) if changed else text

    return step
