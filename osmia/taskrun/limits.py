"""The CRD's limits, checked again for files that never met an API server.

:data:`CRD_LIMITS` mirrors ``deploy/crds/taskruns.osmia.dev.yaml`` field by field (a test keeps
them equal); the checks raise :class:`~osmia.taskrun.model.TaskRunError` naming the field, with
the offending value shortened (:func:`shown`) so that a huge value is never formatted whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from osmia.taskrun.model import TaskRunError


@dataclass(frozen=True)
class Limit:
    """What the CRD allows for one field: lengths, counts, range and pattern (``None``: no limit)."""

    max_length: int | None = None
    max_items: int | None = None
    max_properties: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    pattern: str | None = None


DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
CRD_LIMITS: dict[str, Limit] = {
    "spec.flow": Limit(max_length=32),
    "spec.engine": Limit(max_length=63, pattern=DNS_LABEL),
    "spec.fallbackEngines": Limit(max_items=5),
    "spec.fallbackEngines[]": Limit(max_length=63, pattern=DNS_LABEL),
    "spec.ticket.id": Limit(max_length=100, pattern="^[A-Za-z0-9][A-Za-z0-9._/#:-]{0,99}$"),
    "spec.ticket.title": Limit(max_length=512),
    "spec.ticket.description": Limit(max_length=65536),
    "spec.ticket.labels": Limit(max_items=50),
    "spec.ticket.labels[]": Limit(max_length=100),
    "spec.ticket.url": Limit(max_length=2048, pattern="^https?://"),
    "spec.repository.url": Limit(max_length=2048, pattern="^(https?|ssh)://|^git@"),
    "spec.repository.language": Limit(max_length=50),
    "spec.instructions": Limit(max_length=65536),
    "spec.execution.timeoutSeconds": Limit(minimum=1, maximum=86400),
    "status.engineAttempts": Limit(max_items=50),
    "status.engineAttempts[]": Limit(max_length=63, pattern=DNS_LABEL),
    "status.result.summary": Limit(max_length=65536),
    "status.result.failureReason": Limit(max_length=4096),
    "status.result.mergeRequestURL": Limit(max_length=2048),
    "status.result.branchName": Limit(max_length=255),
    "status.result.filesChanged": Limit(max_items=10000),
    "status.result.filesChanged[]": Limit(max_length=4096),
    "status.result.testsFailed": Limit(max_items=1000),
    "status.result.testsFailed[]": Limit(max_length=1024),
    "status.result.flakyTests": Limit(max_items=1000),
    "status.result.flakyTests[]": Limit(max_length=1024),
    "status.result.durationSeconds": Limit(minimum=0),
    "status.result.tokenUsage": Limit(minimum=0),
    "status.result.costEstimateUSD": Limit(minimum=0),
    "status.result.toolCalls": Limit(max_properties=500),
    "status.result.toolCalls{}": Limit(minimum=0),
    "status.result.learnings": Limit(max_items=50),
    "status.result.learnings[]": Limit(max_length=1000),
    "status.conditions": Limit(max_items=32),
    "status.conditions[].type": Limit(max_length=316),
    "status.conditions[].reason": Limit(max_length=1024),
    "status.conditions[].message": Limit(max_length=32768),
}
"""The limits of ``deploy/crds/taskruns.osmia.dev.yaml`` for every field read here (a test keeps them equal).

``[]`` names the items of a list and ``{}`` the values of a map. Patterns
are only checked after the length, so no pattern ever sees a long string.
"""

_PATTERNS = {path: re.compile(limit.pattern) for path, limit in CRD_LIMITS.items() if limit.pattern}
_NO_LIMIT = Limit()

MAX_NAME = 253
MAX_NAMESPACE = 63
MAX_UID = 128
_DNS_LABEL = re.compile(DNS_LABEL)
UID = re.compile("^[A-Za-z0-9][A-Za-z0-9._:-]*$")  # what the run key may hold of a uid (never a "/")
INT64_MAX = 2**63 - 1


def _limit(path: str) -> Limit:
    """The limit of a concrete path (``status.result.filesChanged[3]`` → ``...filesChanged[]``)."""
    generic = re.sub(r"\[\d+\]", "[]", path)
    return CRD_LIMITS.get(generic, _NO_LIMIT)


def shown(value: Any) -> str:
    """A value for an error message: short, one line, never a big container's repr."""
    if isinstance(value, (bool, int, float)) or value is None:
        text = repr(value)
    elif isinstance(value, str):
        text = repr(value if len(value) <= 40 else value[:40] + "…")
    else:
        return f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:59] + "…"


def check_text(value: str, path: str) -> str:
    """``value`` if it fits the length and pattern of ``path``; else :class:`TaskRunError`."""
    limit = _limit(path)
    if limit.max_length is not None and len(value) > limit.max_length:
        raise TaskRunError(path, f"is {len(value)} characters long; at most {limit.max_length} are allowed")
    pattern = _PATTERNS.get(re.sub(r"\[\d+\]", "[]", path))
    if pattern is not None and not pattern.search(value):
        raise TaskRunError(path, f"{shown(value)} does not match {pattern.pattern}")
    return value


def check_count(count: int, path: str, what: str = "items") -> None:
    """Refuse more items (or map ``entries``) than ``path`` allows."""
    limit = _limit(path)
    most = limit.max_properties if what == "entries" else limit.max_items
    if most is not None and count > most:
        raise TaskRunError(path, f"has {count} {what}; at most {most} are allowed")


def check_range(value: float, path: str) -> None:
    """Refuse a number outside the range of ``path``."""
    limit = _limit(path)
    if limit.minimum is not None and value < limit.minimum:
        raise TaskRunError(path, f"must be at least {limit.minimum:g}, got {shown(value)}")
    if limit.maximum is not None and value > limit.maximum:
        raise TaskRunError(path, f"must be at most {limit.maximum:g}, got {shown(value)}")


def dns_subdomain_problem(name: str) -> str | None:
    """Why ``name`` is not a DNS-1123 subdomain (how the API server checks a custom object's name)."""
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long; at most {MAX_NAME} are allowed"
    if not all(_DNS_LABEL.match(label) for label in name.split(".")):
        return (
            f"{shown(name)} is not a valid name: lower-case letters, digits, '-' and '.', "
            "starting and ending with a letter or digit (RFC 1123)"
        )
    return None


def dns_label_problem(name: str) -> str | None:
    """Why ``name`` is not a DNS-1123 label (how the API server checks a namespace)."""
    if len(name) > MAX_NAMESPACE:
        return f"is {len(name)} characters long; at most {MAX_NAMESPACE} are allowed"
    if not _DNS_LABEL.match(name):
        return (
            f"{shown(name)} is not a valid namespace: lower-case letters, digits and '-', "
            "starting and ending with a letter or digit (RFC 1123)"
        )
    return None
