"""Checking one loaded object for what the API server would refuse, naming the field."""

from __future__ import annotations

import math
import re
from datetime import date
from typing import Any

from osmia.safeload.values import (
    INT64_MAX,
    INT64_MIN,
    MAX_DEPTH,
    MAX_OBJECT_CHARS,
    MAX_OBJECT_VALUES,
    Refused,
)

_SURROGATE = re.compile("[\ud800-\udfff]")


def _key_text(key: str) -> str:
    shown = key if len(key) <= 60 else key[:59] + "…"
    return shown.encode("unicode_escape").decode("ascii") if not shown.isprintable() else shown


def _join(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    text = _key_text(str(key))
    return f"{path}.{text}" if path else text


def _string_problem(text: str) -> str | None:
    if _SURROGATE.search(text):
        return "holds a lone surrogate (not valid Unicode text)"
    return None


def check_object(obj: Any) -> tuple[str, str] | None:
    """The first problem in one object as ``(field path, problem)``; ``None`` when it is plain data.

    Refuses what the API server would refuse before any field is looked at:
    nesting past :data:`MAX_DEPTH`, more than :data:`MAX_OBJECT_CHARS`,
    duplicate or non-string keys, lone surrogates, integers outside 64 bits,
    NaN and infinities, and YAML-only types (sets, binary, pairs). The walk
    is iterative and stops when the size budget is spent, so a value shared
    by many aliases costs no more than the budget.
    """
    budget = MAX_OBJECT_CHARS
    values = 0
    stack: list[tuple[str, Any, int]] = [("", obj, 0)]
    while stack:
        path, value, depth = stack.pop()
        values += 1
        if values > MAX_OBJECT_VALUES:
            return where_of(path), f"the object holds more than {MAX_OBJECT_VALUES} values"
        where = where_of(path)
        if isinstance(value, Refused):
            return where, value.problem
        if isinstance(value, str):
            budget -= len(value) + 2
            if problem := _string_problem(value):
                return where, problem
        elif isinstance(value, bool) or value is None or isinstance(value, date):
            budget -= 5
        elif isinstance(value, int):
            budget -= 8
            if not INT64_MIN <= value <= INT64_MAX:
                return where, "integer is outside the 64-bit range"
        elif isinstance(value, float):
            budget -= 8
            if not math.isfinite(value):
                return where, f"{value} is not a number the API server accepts"
        elif isinstance(value, dict):
            budget -= 2
            if depth >= MAX_DEPTH:
                return where, f"nesting deeper than {MAX_DEPTH} levels"
            duplicates = getattr(value, "duplicates", ())
            if duplicates:
                return _join(path, duplicates[0]), "duplicate key (a key may appear once in a mapping)"
            for key, item in value.items():
                if not isinstance(key, str):
                    return where, f"key {_short(key)} is not a string"
                budget -= len(key) + 2
                if problem := _string_problem(key):
                    return where, f"a key {problem}"
                stack.append((_join(path, key), item, depth + 1))
        elif isinstance(value, list):
            budget -= 2
            if depth >= MAX_DEPTH:
                return where, f"nesting deeper than {MAX_DEPTH} levels"
            stack.extend((_join(path, i), item, depth + 1) for i, item in enumerate(value))
        else:
            return where, f"a {type(value).__name__} value is not plain YAML/JSON data"
        if budget < 0:
            return where, f"the object is larger than {MAX_OBJECT_CHARS // (1024 * 1024)} MiB"
    return None


def where_of(path: str) -> str:
    """A field path for messages; the whole object is ``<document>``."""
    return path or "<document>"


def _short(value: Any) -> str:
    """A bounded, one-line description of a scalar for messages (never a big container's repr)."""
    if isinstance(value, (bool, int, float, type(None))):
        text = repr(value)
        return text if len(text) <= 30 else text[:29] + "…"
    return f"of type {type(value).__name__}"
