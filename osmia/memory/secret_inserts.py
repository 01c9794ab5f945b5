"""Secrets in SQL's ``INSERT … (columns) VALUES (…)``: each value under its column's name.

A migration or a seed script writes credentials as rows: ``INSERT INTO integrations (provider,
client_id, client_secret) VALUES ('spotify', '…', '…')``. No rule reads a name before the value
there: the name is the column's, a list away. This step pairs each row's values with the columns
and judges each as the named rules judge a value given to that name
(:mod:`osmia.memory.secret_name_values`): under a strong name (``client_secret``, ``password``),
any value that is no placeholder, reference or word; under a name that only suggests one
(``api_key``'s ``key``, ``session``), a random value or an API key's hex.

Rows hold no parentheses of their own here (a call such as ``now()`` ends the match), and a row
is read only when it holds one value a column.
"""

from __future__ import annotations

from osmia.memory.linear import Match, linear
from osmia.memory.secret_name_values import STRONG_NAME, WEAK_NAME, key_named, name_allowed, strong_value
from osmia.memory.secret_placeholders import REDACTED, is_placeholder, uuid_shaped
from osmia.memory.secret_values import long_hex, looks_random

__all__ = ["INSERT_GATE", "insert_sub"]

INSERT_GATE = r"(?i)\binsert[ \t]+(?:or[ \t]+\w+[ \t]+)?into\b"
"""What every statement the step reads holds."""

_INSERT = linear(
    r"(?is)\binsert\s+(?:or\s+\w+\s+)?into\s+[\w.\"`\[\]]+\s*\(([^()]{1,1000})\)\s*values\s*"
    r"((?:\([^()]*\)\s*,?\s*)+)"
)
_ROW = linear(r"\(([^()]*)\)")
# A row's value: a quoted string (a doubled quote inside it), or anything up to the next comma.
_VALUE = linear(r"'(?:[^']|'')*'|\"[^\"]*\"|[^,]+")


def _secret(column: str, value: str) -> bool:
    """Whether ``value`` (unquoted) is a secret given to ``column``."""
    if not name_allowed(column) or is_placeholder(value):
        return False
    if STRONG_NAME.search(column) is not None:
        return strong_value(value, True, "=", column)
    if WEAK_NAME.search(column) is None:
        return False
    return not uuid_shaped(value) and (
        looks_random(value, 16) or (long_hex(value) and key_named(column, value, ""))
    )


def _replace(m: Match) -> str:
    whole = m.group(0) or ""
    columns = [c.strip().strip('"`[]') for c in (m.group(1) or "").split(",")]
    if not any(STRONG_NAME.search(c) or WEAK_NAME.search(c) for c in columns):
        return whole
    rows_at = m.start(2) - m.start(0)
    cuts: list[tuple[int, int]] = []
    for row in _ROW.finditer(m.group(2) or ""):
        values = list(_VALUE.finditer(row.group(1) or ""))
        if len(values) != len(columns):
            continue  # not one value a column: the row is read wrong, so none of it is taken
        for column, value in zip(columns, values, strict=True):
            text = (value.group(0) or "").strip()
            if len(text) < 2 or text[0] not in "'\"" or text[-1] != text[0]:
                continue  # a number, a boolean, NULL, a call: no secret's literal
            inner = text[1:-1]
            if _secret(column, inner):
                start = rows_at + row.start(1) + value.start(0) + (value.group(0) or "").index(text) + 1
                cuts.append((start, start + len(inner)))
    for start, end in reversed(cuts):
        whole = whole[:start] + REDACTED + whole[end:]
    return whole


def insert_sub(text: str) -> str:
    """The step: each ``INSERT``'s values under a secret's column, redacted."""
    return _INSERT.sub(_replace, text)
