"""The agent's result as a container termination message: written to fit, read without trust.

The kubelet keeps at most 4 KiB of ``/dev/termination-log`` (the *last* 4 KiB
when the file is longer), while ``status.result`` allows far more. Both sides
use this module, one rule: the agent runner writes with :func:`fit_result`,
which ranks the fields by one priority order (:data:`PRIORITY`: ``success``,
``exitCode``, ``failureReason``, ``testsFailed``, ``flakyTests`` first),
shortens text and lists least important first, then drops whole fields least
important first, so the JSON always fits and ``success`` always stays (names
of files and tests are never cut, a cut string ends in ``…``); the operator reads with
:func:`read_result`, which never fails: a message cut by the kubelet (its head
lost) or by anything else (its tail lost) yields the whole top-level fields
that survived, and unknown or mistyped fields are dropped.

Ground layer: no Kubernetes, no memory, standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
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

DROP_ORDER: tuple[str, ...] = tuple(reversed(PRIORITY[1:]))
"""Fields dropped, first to last, if shortening is not enough: :data:`PRIORITY` backwards, not ``success``."""

SHRINK_ORDER: tuple[str, ...] = DROP_ORDER
"""Fields shortened, first to last, before any is dropped: the least important first, as they are dropped."""

IDENTIFIERS = frozenset({"filesChanged", "testsFailed", "flakyTests", "branchName", "mergeRequestURL"})
"""Names kept whole or left out, never cut: a cut path, test name, branch or URL names nothing."""

MIN_TEXT = 60
"""Characters a text field (``summary``, ``failureReason``) is shortened to before fields are dropped."""
MIN_ITEM = 120
"""Characters each learning is shortened to before fewer learnings are kept."""
ELLIPSIS = "…"
"""Marks where a string was cut."""
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


def dumps(result: Mapping[str, Any]) -> str:
    """Compact JSON, UTF-8 text as written (no ASCII escapes): the form whose bytes are measured."""
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


def _bytes(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def _cut(text: str, length: int) -> str:
    """``text`` at most ``length`` characters, its head kept and ``…`` marking a cut."""
    return text if len(text) <= length else text[: max(length - 1, 0)] + ELLIPSIS


def _forms(key: str, value: Any) -> tuple[int, Callable[[int], Any]]:
    """How many forms of a field there are, smallest (0) to whole (count - 1), and the form at an index.

    Forms grow in bytes with the index. Identifiers (names of files and tests,
    branch names, URLs, tool names) are never cut: a list of them keeps its
    first names, a tool-call count its most used tools, a name is whole or absent.
    """
    if isinstance(value, str) and key not in IDENTIFIERS and len(value) > MIN_TEXT:
        return len(value) - MIN_TEXT + 1, lambda i: _cut(value, MIN_TEXT + i)
    if isinstance(value, list) and key in IDENTIFIERS:
        return max(len(value), 1), lambda i: value[: i + 1]
    if isinstance(value, list) and value:
        items = [_cut(item, MIN_ITEM) for item in value]
        whole = items == value
        count = len(items) + (0 if whole else 1)
        return count, lambda i: value if i == len(items) else items[: i + 1]
    if isinstance(value, dict) and len(value) > 1:
        ranked = sorted(value.items(), key=lambda kv: (-kv[1], kv[0]))
        return len(ranked), lambda i: dict(ranked[: i + 1])
    return 1, lambda i: value


def smallest_form(key: str, value: Any) -> Any:
    """The smallest form :func:`fit_result` shortens a field to before it drops fields."""
    return _forms(key, value)[1](0)


class _Fitting:
    """A result being fitted: its fields in :data:`PRIORITY` order and each one's encoded size."""

    def __init__(self, fields: Mapping[str, Any], limit: int) -> None:
        self.limit = limit
        self.fields: dict[str, Any] = {}
        self.sizes: dict[str, int] = {}
        for key in PRIORITY:
            if key in fields:
                self.put(key, fields[key])

    def put(self, key: str, value: Any) -> None:
        self.fields[key] = value
        self.sizes[key] = _bytes(key) + 1 + _bytes(value)

    def drop(self, key: str) -> None:
        del self.fields[key], self.sizes[key]

    def size(self) -> int:
        """Bytes of the compact JSON object: braces, ``"key":value`` pairs and the commas between."""
        return 2 + sum(self.sizes.values()) + max(len(self.sizes) - 1, 0)

    def fits(self) -> bool:
        return self.size() <= self.limit

    def grow(self, key: str, value: Any) -> bool:
        """Put the largest form of ``key`` that fits (the smallest if none does); whether it is whole."""
        count, form = _forms(key, value)
        room = self.limit - (self.size() - self.sizes[key])
        own = _bytes(key) + 1

        def fits(i: int) -> bool:
            return own + _bytes(form(i)) <= room

        lo, hi = 0, count - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fits(mid):
                lo = mid
            else:
                hi = mid - 1
        self.put(key, form(lo))
        return lo == count - 1


def fit_result(result: Mapping[str, Any], limit: int = TERMINATION_MESSAGE_LIMIT) -> str:
    """One JSON object of at most ``limit`` UTF-8 bytes holding as much of ``result`` as fits.

    Unknown or mistyped fields are dropped (``success`` is ``false`` unless it
    is ``true``). If the rest is too long: (1) fields are shortened, least
    important first (:data:`SHRINK_ORDER`), each to the largest form that
    fits, at most to its smallest form (text to :data:`MIN_TEXT` characters and
    ``…``, lists to their first item, tool calls to the most used); (2) if
    that is not enough, whole fields are dropped in :data:`DROP_ORDER`; (3)
    the room that dropping freed is given back to the kept fields, most
    important first. ``success`` always stays (``limit`` ≥ 64).
    """
    if limit < 64:
        raise ValueError(f"limit must be at least 64 bytes, got {limit}")
    fields = known_fields(result)
    fields["success"] = result.get("success") is True
    fitting = _Fitting(fields, limit)
    for key in SHRINK_ORDER:
        if fitting.fits():
            return dumps(fitting.fields)
        if key in fitting.fields:
            fitting.grow(key, fields[key])
    if fitting.fits():
        return dumps(fitting.fields)
    for key in DROP_ORDER:
        if key in fitting.fields:
            fitting.drop(key)
            if fitting.fits():
                break
    for key in PRIORITY:
        if key in fitting.fields and not fitting.grow(key, fields[key]):
            break  # this one is cut: every less important field stays at its smallest form
    return dumps(fitting.fields)


def _salvage_head(text: str) -> dict[str, Any]:
    """Top-level fields of an object whose tail is missing: every pair that parses whole.

    A pair counts only when a ``,`` or the closing ``}`` follows it, so a value the cut
    shortened is left out rather than read short.
    """
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
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if text[pos : pos + 1] not in (",", "}"):
            return out  # the value may be cut short (a number "10.0" cut to "1" parses)
        out[key] = value
        if text[pos] == "}":
            rest = text[pos + 1 :].lstrip()
            # A closed object followed by more of a JSON value was nested (a head cut right at
            # toolCalls' "{"): none of its pairs is a result field.
            return {} if rest[:1] in (",", "]", "}") else out


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


def _object_start(text: str) -> int:
    """Where the result object can start: a ``{`` that begins the text or a line, else -1.

    A message whose head was cut starts inside the object, and its first ``{``
    may open a nested value (``toolCalls``); reading pairs from there would take
    a nested key for a top-level field. The runner writes the object unindented
    on a line of its own, so only a ``{`` in the first column can be its start.
    """
    if text.startswith("{"):
        return 0
    at = text.find("\n{")
    return at + 1 if at >= 0 else -1


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
    opening = _object_start(text)
    head = known_fields(_salvage_head(text[opening:])) if opening >= 0 else {}
    tail = known_fields(_salvage_tail(text))
    return (head if len(head) >= len(tail) else tail), False
