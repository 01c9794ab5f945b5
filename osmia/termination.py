"""The agent's result as a container termination message: written to fit, read without trust.

The kubelet keeps at most 4 KiB of ``/dev/termination-log`` (the *last* 4 KiB
when the file is longer), while ``status.result`` allows far more. Both sides
use this module: the agent runner writes with :func:`fit_result`, which keeps
the fields in a fixed priority order (:data:`PRIORITY`: ``success``,
``exitCode``, ``failureReason``, ``testsFailed``, ``flakyTests`` first) and
cuts or drops the rest so the JSON always fits; the operator reads with
:func:`read_result`, which never fails: a message cut by the kubelet (its head
lost) or by anything else (its tail lost) yields the whole top-level fields
that survived, and unknown or mistyped fields are dropped.

Ground layer: no Kubernetes, no memory, standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

TERMINATION_MESSAGE_LIMIT = 4096
"""Bytes of a termination message the kubelet keeps (``MaxContainerTerminationMessageLength``)."""

# Fields an engine may report (camelCase, as in status.result) and their JSON types.
RESULT_FIELDS: dict[str, type | tuple[type, ...]] = {
    "success": bool,
    "summary": str,
    "exitCode": int,
    "failureReason": str,
    "mergeRequestURL": str,
    "branchName": str,
    "filesChanged": list,
    "testsFailed": list,
    "flakyTests": list,
    "durationSeconds": (int, float),
    "tokenUsage": int,
    "costEstimateUSD": (int, float),
    "toolCalls": dict,
    "learnings": list,
}

PRIORITY: tuple[str, ...] = (
    "success",
    "exitCode",
    "failureReason",
    "testsFailed",
    "flakyTests",
    "learnings",
    "filesChanged",
    "summary",
    "mergeRequestURL",
    "branchName",
    "durationSeconds",
    "tokenUsage",
    "costEstimateUSD",
    "toolCalls",
)
"""The order in which :func:`fit_result` keeps fields: what memory learns from most comes first."""

# Size limits of the CRD's status.result schema: a report is cut to fit, never refused.
MAX_ITEMS = {"filesChanged": 10000, "testsFailed": 1000, "flakyTests": 1000, "learnings": 50}
MAX_ITEM_CHARS = 1000
MAX_CHARS = {"summary": 65536, "failureReason": 4096, "branchName": 255, "mergeRequestURL": 2048}
# Kept whole or left out, never cut: a cut URL or branch name is worse than none.
_UNCUTTABLE = frozenset({"mergeRequestURL", "branchName"})
_MAX_TAIL_TRIES = 4096  # commas tried when salvaging a cut message; bounds the work on hostile input


def well_typed(key: str, value: Any) -> bool:
    """A result field Osmia knows, with the right type (``True`` is not an int here)."""
    expected = RESULT_FIELDS.get(key)
    if expected is None or not isinstance(value, expected):
        return False
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    if isinstance(value, dict):
        return all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value.values())
    return key == "success" or not isinstance(value, bool)


def clip(key: str, value: Any) -> Any:
    """Cut a well-typed field's strings and lists to the CRD schema's limits."""
    if key in MAX_ITEMS:
        return [item[:MAX_ITEM_CHARS] for item in value[: MAX_ITEMS[key]]]
    if key in MAX_CHARS:
        return value[: MAX_CHARS[key]]
    return value


def known_fields(reported: Mapping[str, Any]) -> dict[str, Any]:
    """The well-typed known fields of a report, clipped to the schema's limits."""
    return {k: clip(k, v) for k, v in reported.items() if well_typed(k, v)}


def _size(obj: Mapping[str, Any]) -> int:
    return len(_dump(obj).encode())


def _dump(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _longest_prefix(fits: Any, n: int) -> int:
    """The largest ``k`` in ``0..n`` with ``fits(k)`` true, given ``fits`` is monotone and ``fits(0)``."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def fit_result(result: Mapping[str, Any], limit: int = TERMINATION_MESSAGE_LIMIT) -> str:
    """One JSON object of at most ``limit`` UTF-8 bytes holding as much of ``result`` as fits.

    Fields are taken in :data:`PRIORITY` order; each is kept whole when it fits,
    else a list keeps its first items and a string its head, else it is left
    out (and so is every later field that does not fit). Unknown or mistyped
    fields are dropped. ``success`` always fits (``limit`` ≥ 64).
    """
    if limit < 64:
        raise ValueError(f"limit must be at least 64 bytes, got {limit}")
    fields = known_fields(result)
    out: dict[str, Any] = {}
    for key in PRIORITY:
        if key not in fields:
            continue
        value = fields[key]
        if _size({**out, key: value}) <= limit:
            out[key] = value
            continue
        if isinstance(value, list):
            keep = _longest_prefix(
                lambda k, v=value, key=key: _size({**out, key: v[:k]}) <= limit, len(value)
            )
            if keep:
                out[key] = value[:keep]
            elif value and _size({**out, key: [""]}) <= limit:
                first = value[0]
                cut = _longest_prefix(
                    lambda k, f=first, key=key: _size({**out, key: [f[:k]]}) <= limit, len(first)
                )
                out[key] = [first[:cut]]
        elif isinstance(value, str) and key not in _UNCUTTABLE:
            cut = _longest_prefix(lambda k, v=value, key=key: _size({**out, key: v[:k]}) <= limit, len(value))
            if cut:
                out[key] = value[:cut]
    return _dump(out)


def _salvage_head(text: str) -> dict[str, Any]:
    """Top-level fields of an object whose tail is missing: every pair that parses whole."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    if start < 0:
        return {}
    out: dict[str, Any] = {}
    pos = start + 1
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        try:
            key, pos = decoder.raw_decode(text, pos)
            while pos < len(text) and text[pos] in " \t\r\n":
                pos += 1
            if not isinstance(key, str) or text[pos : pos + 1] != ":":
                return out
            pos += 1
            while pos < len(text) and text[pos] in " \t\r\n":
                pos += 1
            value, pos = decoder.raw_decode(text, pos)
        except (ValueError, IndexError):
            return out
        out[key] = value


def _salvage_tail(text: str) -> dict[str, Any]:
    """Top-level fields of an object whose head is missing (the kubelet keeps the last 4 KiB).

    The first comma after which the rest reads as the end of one JSON object
    marks a top-level boundary: JSON escapes quotes inside strings, so a comma
    in a string or a nested value never yields a valid object.
    """
    end = text.rfind("}")
    if end < 0:
        return {}
    body = text[: end + 1]
    pos, tries = body.find(","), 0
    while pos >= 0 and tries < _MAX_TAIL_TRIES:
        tries += 1
        try:
            parsed = json.loads("{" + body[pos + 1 :])
        except ValueError:
            pos = body.find(",", pos + 1)
            continue
        return parsed if isinstance(parsed, dict) else {}
    return {}


def read_result(message: str) -> tuple[dict[str, Any], bool]:
    """The known, well-typed result fields in a termination message, and whether it was whole.

    Never raises. The message is one JSON object, or holds one among log lines
    (``FallbackToLogsOnError``); a message cut at either end yields the whole
    top-level fields that survived (possibly none) and ``False``.
    """
    text = (message or "").strip()
    if not text:
        return {}, True
    start, end = text.find("{"), text.rfind("}")
    for candidate in (text, text[start : end + 1] if 0 <= start < end else ""):
        try:
            parsed = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(parsed, dict):
            return known_fields(parsed), True
    head = known_fields(_salvage_head(text[start:])) if start >= 0 else {}
    tail = known_fields(_salvage_tail(text))
    return (head if len(head) >= len(tail) else tail), False
