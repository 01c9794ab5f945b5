"""A token's pieces assigned to variables and joined where they are used.

Code that hides a token from a scanner gives its pieces names and joins them later:
``p1 = "sk-proj-…"``, ``p2 = "T3Blbk…"``, then ``OpenAI(api_key=f"{p1}{p2}")``, or a shell's
``A="npm_…"; B="…"`` then ``"$A$B"``. Each literal alone is too short or too plain for a rule.
Where a text joins two or more variables side by side in an interpolation (``{a}{b}``,
``${a}${b}``, ``$A$B``) and assigns each a string literal, the literals are judged together: when
a rule redacted one of them, or redacts their joined text, every one of them is redacted.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.linear import linear
from osmia.memory.secret_placeholders import REDACTED

__all__ = ["JOINED", "joined_sub"]

# Two or more variables side by side in an interpolation: a format string's ``{a}{b}``, a template
# literal's or a shell's ``${a}${b}``, a shell's ``$A$B``.
JOINED = r"(?:\$?\{[A-Za-z_]\w*\}){2,}|(?:\$[A-Za-z_]\w*){2,}"
_JOINED = linear(JOINED)
_NAME = linear(r"[A-Za-z_]\w*")
# A string literal assigned to a name (``p1 = "…"``, ``const head = '…'``, ``A="…"``, Go's ``:=``,
# PowerShell's ``$t = '…'``).
_ASSIGNED = linear(r"""(?m)(?:^|[^\w$.])\$?([A-Za-z_]\w*)[ \t]*:?=[ \t]*(["'`])([^"'`\r\n]*)["'`]""")


def joined_sub(redact: Callable[[str], str]) -> Callable[[str], str]:
    """The redaction step for pieces joined by name (see the module docstring); ``redact`` judges
    the joined text."""

    def step(text: str) -> str:
        joins = [[n.group(0) or "" for n in _NAME.finditer(m.group(0) or "")] for m in _JOINED.finditer(text)]
        if not joins:
            return text
        literals: dict[str, tuple[int, int]] = {}
        for m in _ASSIGNED.finditer(text):
            literals.setdefault(m.group(1) or "", (m.start(3), m.end(3)))  # the first assignment
        gone: set[tuple[int, int]] = set()
        for names in joins:
            spans = [literals[name] for name in names if name in literals]
            if len(spans) < 2 or len(spans) < len(names):
                continue
            pieces = [text[a:b] for a, b in spans]
            joined = "".join(pieces)
            if REDACTED in pieces or (len(joined) >= 16 and redact(joined) != joined):
                gone.update(span for span, piece in zip(spans, pieces, strict=True) if len(piece) >= 4)
        out = text
        for a, b in sorted(gone, reverse=True):
            if out[a:b] != REDACTED:
                out = out[:a] + REDACTED + out[b:]
        return out

    return step
