"""``ConfigError`` and the wording of validation problems: key path, what is allowed, what was given.

pydantic reports each problem with a location (``('memory', 'prune_threshold')``)
and a type. The words come from the model's JSON schema at that location
(``x-osmia-expected``, ranges, choices; see ``osmia/config/types.py``), so a
new key gets good messages without any code here.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from osmia.config.types import EXPECTED, NULL

MAX_LISTED: Final = 50
"""At most this many problems are spelled out in one message; ``problems`` keeps them all."""

_PLAIN_KEY: Final = re.compile(r"[A-Za-z0-9_.\-/<>]{1,60}")


class ConfigError(ValueError):
    """The configuration is unusable; the message names the key, what is allowed and what was given.

    ``problems`` lists every problem found (all of them, not just the first),
    so a user can fix the whole file in one pass.
    """

    def __init__(self, message: str, *, problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problems: tuple[str, ...] = tuple(problems) or (message,)

    @classmethod
    def listing(cls, source: str, problems: Sequence[str]) -> ConfigError:
        """One error whose message starts with ``source`` and lists ``problems``, one a line."""
        if len(problems) == 1:
            return cls(f"{source}: {problems[0]}", problems=problems)
        shown = "".join(f"\n  - {p}" for p in problems[:MAX_LISTED])
        more = f"\n  ... and {len(problems) - MAX_LISTED} more" if len(problems) > MAX_LISTED else ""
        return cls(f"{source}: {len(problems)} problems:{shown}{more}", problems=problems)


def show(value: Any) -> str:
    """Render a given value for an error message, YAML-style, with its kind; never huge."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a boolean)"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:57] + "..."
        return f"{shown!r} (a string)"
    if isinstance(value, int | float):
        try:
            number = repr(value)
        except ValueError:  # an int too long to print
            return "a very large integer"
        return number if len(number) <= 40 else number[:37] + "..."
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, bytes | bytearray):
        return "binary data"
    return f"a {type(value).__name__}"


def key_text(key: Any) -> str:
    """A key as written in a dotted path: plain names as they are, anything else quoted."""
    if isinstance(key, str) and _PLAIN_KEY.fullmatch(key):
        return key
    if key is None:
        return "null"
    if isinstance(key, str):
        return repr(key if len(key) <= 60 else key[:57] + "...")
    return show(key).split(" (")[0]


def unknown_key(key_path: str, key: Any, section: str, allowed: Iterable[str]) -> str:
    """Message for a key that is not in ``allowed``, with the allowed names and a close match."""
    names = sorted(allowed)
    where = f"in '{section}'" if section else "at the top level"
    message = f"unknown key '{key_path}'; allowed keys {where}: {', '.join(names)}"
    close = difflib.get_close_matches(key_text(key), names, n=1)
    if close:
        message += f" (did you mean '{close[0]}'?)"
    return message


# --------------------------------------------------------------------------
# The model's schema, as the words of each location.


@functools.cache
def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema (with ``x-osmia-*`` words), built once per model."""
    return model.model_json_schema()


def resolve(node: Any, root: Mapping[str, Any]) -> dict[str, Any]:
    """Follow ``$ref`` (sibling keywords win) and merge ``allOf`` of one; never fails."""
    if not isinstance(node, Mapping):
        return {}
    out = dict(node)
    ref = out.pop("$ref", None)
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = resolve(root.get("$defs", {}).get(ref.split("/")[-1], {}), root)
        out = {**target, **out}
    return out


def split_nullable(node: Mapping[str, Any], root: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """``(the non-null schema, whether null is also allowed)`` for an ``anyOf [X, null]``."""
    options = node.get("anyOf")
    if isinstance(options, list) and any(o == {"type": "null"} for o in options):
        rest = [o for o in options if o != {"type": "null"}]
        if len(rest) == 1:
            outer = {k: v for k, v in node.items() if k != "anyOf"}
            return {**resolve(rest[0], root), **outer}, True
    return resolve(node, root), False


def _child(node: Mapping[str, Any], segment: Any, root: Mapping[str, Any]) -> dict[str, Any]:
    node, _ = split_nullable(node, root)
    if "properties" in node:
        return resolve(node["properties"].get(segment, {}), root) if isinstance(segment, str) else {}
    if node.get("type") == "array":
        return resolve(node.get("items", {}), root)
    if node.get("type") == "object":
        patterned = node.get("patternProperties")
        if isinstance(patterned, Mapping) and patterned:
            return resolve(next(iter(patterned.values())), root)
        return resolve(node.get("additionalProperties", {}), root)
    return {}


def _bound(number: Any) -> str:
    return str(int(number)) if float(number).is_integer() else repr(number)


def expected(node: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    """What a value at this schema node must be, completing "KEY must be ..."."""
    base, nullable = split_nullable(node, root)
    if EXPECTED in base:
        phrase = str(base[EXPECTED])
    elif "enum" in base:
        phrase = "one of " + ", ".join(str(v) for v in base["enum"])
    elif base.get("type") == "boolean":
        phrase = "a boolean (true or false)"
    elif base.get("type") in ("integer", "number"):
        kind = "an integer" if base["type"] == "integer" else "a number"
        phrase = kind + range_text(base, brackets=True)
    elif base.get("type") == "object":
        phrase = "a mapping"
    elif base.get("type") == "array":
        phrase = "a list"
    elif base.get("type") == "string":
        phrase = "a string"
    else:
        phrase = "a valid value"
    if nullable and base.get(NULL) != "empty":
        phrase = "null or " + phrase
    return phrase


def range_text(node: Mapping[str, Any], *, brackets: bool) -> str:
    """`` in [1, 100]`` (brackets) or ``1..100`` for a number schema; empty when unbounded."""
    lo = node.get("minimum", node.get("exclusiveMinimum"))
    hi = node.get("maximum", node.get("exclusiveMaximum"))
    if lo is None and hi is None:
        return ""
    open_lo, open_hi = "exclusiveMinimum" in node, "exclusiveMaximum" in node
    if not brackets and not open_lo and not open_hi and lo is not None and hi is not None:
        return f"{_bound(lo)}..{_bound(hi)}"
    if lo is None or hi is None:
        sign = {(True, True): ">", (True, False): ">=", (False, True): "<", (False, False): "<="}
        below = lo is None
        bound = _bound(hi if below else lo)
        return f"{' ' if brackets else ''}{sign[(not below, open_hi if below else open_lo)]} {bound}"
    text = f"{'(' if open_lo else '['}{_bound(lo)}, {_bound(hi)}{')' if open_hi else ']'}"
    return f" in {text}" if brackets else text


# --------------------------------------------------------------------------
# ValidationError -> problems


def _locate(loc: Sequence[Any], root: Mapping[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """``(dotted path, schema at loc, schema of the parent)`` for a pydantic location."""
    path = ""
    node: dict[str, Any] = dict(root)
    parent: dict[str, Any] = {}
    for segment in loc:
        base, _ = split_nullable(node, root)
        if base.get("type") == "array" and isinstance(segment, int):
            path += f"[{segment}]"
        else:
            path += ("." if path else "") + key_text(segment)
        parent, node = node, _child(node, segment, root)
    return path, node, parent


def problems_of(error: ValidationError, model: type[BaseModel]) -> list[str]:
    """One message per problem that pydantic found, worded from ``model``'s schema."""
    root = model_schema(model)
    errors = error.errors(include_url=False)
    bad_keys = {tuple(e["loc"][:-1]) for e in errors if e["loc"] and e["loc"][-1] == "[key]"}
    problems: list[str] = []
    for item in errors:
        loc = tuple(item["loc"])
        if loc and loc[-1] != "[key]" and any(loc[: len(k)] == k for k in bad_keys):
            continue  # the key itself is wrong; what is under it is not looked at
        kind = item["type"]
        if loc and loc[-1] == "[key]":
            parent_path, mapping, _ = _locate(loc[:-2], root)
            names = split_nullable(mapping, root)[0].get("propertyNames", {})
            what = expected(names, root) if names else "a string"
            problems.append(f"a key of {parent_path} must be {what}; got {show(item.get('input', loc[-2]))}")
        elif kind in ("extra_forbidden", "invalid_key"):
            section, holder, _ = _locate(loc[:-1], root)
            key_path = f"{section}.{key_text(loc[-1])}" if section else key_text(loc[-1])
            allowed = split_nullable(holder, root)[0].get("properties", {})
            problems.append(unknown_key(key_path, loc[-1], section, allowed))
        elif kind == "missing":
            problems.append(f"{_locate(loc, root)[0]} is required")
        elif kind == "osmia":
            problems.append(str(item["msg"]).replace("{path}", _locate(loc, root)[0]))
        else:
            path, node, _ = _locate(loc, root)
            subject = path or "the document"
            problems.append(f"{subject} must be {expected(node, root)}; got {show(item.get('input'))}")
    return problems
