"""Fit a run's result into the kubelet's termination-message limit (4096 bytes).

Ground layer: used by the runner (``osmia.agent``) when it writes
``/dev/termination-log``, and usable by anything that reads one. The order is
defined, not incidental:

1. Text and lists are shortened before anything is dropped, least important
   first (:data:`SHRINK_ORDER`): the summary, tool-call counts (the most used
   kept), learnings, changed files, flaky tests, failed tests, the failure
   reason. Strings keep their beginning, marked with ``…`` where cut;
   lists keep their first items (no marker item, and names of files and
   tests are never cut: a list of file names must hold only file names).
2. If that is not enough, whole fields are dropped in :data:`DROP_ORDER`.
   ``success`` is never dropped.

The result stays valid JSON of the same shape (``status.result``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

TERMINATION_LIMIT = 4096
"""Bytes the kubelet keeps of a termination message."""

SHRINK_ORDER = (
    "summary",
    "toolCalls",
    "learnings",
    "filesChanged",
    "flakyTests",
    "testsFailed",
    "failureReason",
    "mergeRequestURL",
    "branchName",
)
"""Fields shortened, first to last, until the result fits."""

DROP_ORDER = (
    "summary",
    "toolCalls",
    "learnings",
    "filesChanged",
    "flakyTests",
    "mergeRequestURL",
    "costEstimateUSD",
    "tokenUsage",
    "durationSeconds",
    "branchName",
    "testsFailed",
    "exitCode",
    "failureReason",
)
"""Fields dropped, first to last, if shortening was not enough (``success`` stays)."""

_MIN_TEXT = 60
_MIN_ITEM = 120
ELLIPSIS = "…"


def encoded_size(result: Mapping[str, Any]) -> int:
    """Bytes of ``result`` as written: compact JSON, UTF-8."""
    return len(dumps(result).encode())


def dumps(result: Mapping[str, Any]) -> str:
    """Compact JSON as the runner writes it."""
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


def _cut(text: str, length: int) -> str:
    return text if len(text) <= length else text[: max(length - 1, 0)] + ELLIPSIS


IDENTIFIER_LISTS = frozenset({"filesChanged", "testsFailed", "flakyTests"})
"""Lists of names: shortened by keeping fewer names, never by cutting one (a cut path is no path)."""


def _shrink_steps(key: str, value: Any) -> list[Any]:
    """Ever smaller versions of one field's value, the last one the smallest kept."""
    steps: list[Any] = []
    if isinstance(value, list) and key in IDENTIFIER_LISTS:
        keep = len(value)
        while keep > 1:
            keep //= 2
            steps.append(value[:keep])
    elif isinstance(value, str):
        length = len(value)
        while length > _MIN_TEXT:
            length = max(length // 2, _MIN_TEXT)
            steps.append(_cut(value, length))
    elif isinstance(value, list):
        items = [_cut(v, _MIN_ITEM) if isinstance(v, str) else v for v in value]
        if items != value:
            steps.append(items)
        keep = len(items)
        while keep > 1:
            keep //= 2
            steps.append(items[:keep])
    elif isinstance(value, dict):
        ranked = sorted(value.items(), key=lambda kv: (-kv[1] if isinstance(kv[1], int) else 0, str(kv[0])))
        keep = len(ranked)
        while keep > 1:
            keep //= 2
            steps.append(dict(ranked[:keep]))
    return steps


def fit_result(result: Mapping[str, Any], limit: int = TERMINATION_LIMIT) -> dict[str, Any]:
    """``result`` shortened (then thinned) by the defined order until its JSON is at most ``limit`` bytes."""
    fitted = dict(result)
    if encoded_size(fitted) <= limit:
        return fitted
    for key in SHRINK_ORDER:
        if key not in fitted:
            continue
        for smaller in _shrink_steps(key, fitted[key]):
            fitted[key] = smaller
            if encoded_size(fitted) <= limit:
                return fitted
    for key in DROP_ORDER:
        if fitted.pop(key, None) is not None and encoded_size(fitted) <= limit:
            return fitted
    # Only success (and fields this module does not know) is left: keep success alone.
    return {"success": bool(fitted.get("success", False))}
