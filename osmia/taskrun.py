"""The TaskRun as typed Python values.

Parsed and validated from a kopf body or a ``kubectl get -o yaml`` document;
no API calls. The CRD schema is the first line of defence; this module is the
second, so that the CLI can read files that never went through an API server
and report exactly which field is wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

API_VERSION = "osmia.dev/v1alpha1"
KIND = "TaskRun"


class Flow(StrEnum):
    """The use case of a run; it decides the tenant."""

    TICKETING = "ticketing"
    INCIDENT_TRIAGE = "incident-triage"


class Phase(StrEnum):
    """Lifecycle phase written to ``status.phase``."""

    PENDING = "Pending"
    RUNNING = "Running"
    SUCCEEDED = "Succeeded"
    FAILED = "Failed"
    TIMED_OUT = "TimedOut"

    @property
    def terminal(self) -> bool:
        """True for the phases after which nothing more happens to the run."""
        return self in TERMINAL_PHASES


TERMINAL_PHASES = frozenset({Phase.SUCCEEDED, Phase.FAILED, Phase.TIMED_OUT})

TASK_TYPES = ("bug", "feature", "docs", "refactor", "chore", "incident", "other")
EXECUTION_MODES = ("job", "external")

# Label or title words that name a task type, in priority order.
_TYPE_HINTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("incident", ("incident", "outage", "sev1", "sev2", "pagerduty", "alert")),
    ("bug", ("bug", "fix", "defect", "regression", "crash", "error", "broken", "fails", "failing", "flaky",
             "flake", "wrong", "incorrect", "exception", "panic", "hang", "hangs", "leak")),
    ("docs", ("docs", "doc", "documentation", "readme", "typo", "document", "changelog", "docstring",
              "docstrings", "guide", "runbook", "adr")),
    ("refactor", ("refactor", "cleanup", "clean-up", "restructure", "rename", "dead", "unused", "simplify",
                  "tidy")),
    ("chore", ("chore", "deps", "dependency", "dependencies", "bump", "upgrade", "ci")),
    ("feature", ("feature", "feat", "enhancement", "add", "implement", "support", "improve", "allow",
                 "enable")),
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class TaskRunError(ValueError):
    """A TaskRun document that cannot be used; names the field and the problem."""

    def __init__(self, field_path: str, problem: str) -> None:
        super().__init__(f"{field_path}: {problem}")
        self.field_path = field_path
        self.problem = problem


@dataclass(frozen=True)
class Ticket:
    """The ticket the agent works on."""

    id: str
    description: str
    title: str = ""
    type: str | None = None
    labels: tuple[str, ...] = ()
    url: str = ""

    @property
    def task_type(self) -> str:
        """The declared type, or one inferred from labels, then title."""
        return self.type or infer_task_type(self.labels, self.title)


@dataclass(frozen=True)
class Repository:
    """The repository a ticketing run changes."""

    url: str = ""
    language: str = ""

    @property
    def slug(self) -> str:
        """Canonical ``host/owner/name`` form used as the memory subject."""
        return normalize_repository(self.url)


@dataclass(frozen=True)
class Result:
    """What the run reported in ``status.result``."""

    success: bool
    summary: str = ""
    exit_code: int | None = None
    failure_reason: str = ""
    merge_request_url: str = ""
    branch_name: str = ""
    files_changed: tuple[str, ...] = ()
    tests_failed: tuple[str, ...] = ()
    flaky_tests: tuple[str, ...] = ()
    duration_seconds: float | None = None
    token_usage: int | None = None
    cost_estimate_usd: float | None = None
    tool_calls: Mapping[str, int] = field(default_factory=dict)
    learnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class TaskRun:
    """One agent working one ticket, as Osmia needs it."""

    namespace: str
    name: str
    uid: str
    engine: str
    ticket: Ticket
    flow: Flow = Flow.TICKETING
    fallback_engines: tuple[str, ...] = ()
    repository: Repository = Repository()
    instructions: str = ""
    memory_enabled: bool = True
    execution_mode: str = "job"
    timeout_seconds: int | None = None
    phase: Phase | None = None
    engine_attempts: tuple[str, ...] = ()
    result: Result | None = None
    finished_at: str = ""

    @property
    def tenant(self) -> str:
        """The tenant is the flow, never a user label."""
        return self.flow.value

    @property
    def ref(self) -> str:
        """How prompts cite this run: ``tr/<namespace>/<name>``."""
        return f"tr/{self.namespace}/{self.name}"

    @property
    def run_key(self) -> str:
        """Identity for exactly-once extraction: namespace, name and uid."""
        return f"{self.namespace}/{self.name}/{self.uid}" if self.uid else f"{self.namespace}/{self.name}"

    @property
    def terminal(self) -> bool:
        """True once the run has finished, whatever the outcome."""
        return self.phase is not None and self.phase.terminal

    @property
    def final_engine(self) -> str:
        """The engine that made the last attempt."""
        return self.engine_attempts[-1] if self.engine_attempts else self.engine


def infer_task_type(labels: Sequence[str], title: str) -> str:
    """Guess the task type from labels first, then title words; ``other`` if unsure."""
    for text in (" ".join(labels), title):
        words = set(_WORD.findall(text.lower().replace("clean up", "cleanup")))
        for task_type, hints in _TYPE_HINTS:
            if words.intersection(hints):
                return task_type
    return "other"


def normalize_repository(url: str) -> str:
    """``https://GitHub.com/Org/API.git`` and ``git@github.com:org/api`` → ``github.com/org/api``."""
    text = url.strip()
    if not text:
        return ""
    if text.startswith("git@") and ":" in text:
        host, _, path = text[4:].partition(":")
    else:
        try:
            parts = urlsplit(text if "://" in text else f"https://{text}")
            host, path = parts.hostname or "", parts.path
        except ValueError:  # e.g. an unbalanced "[" reads as a broken IPv6 host: keep the text as a path
            host, path = "", text.split("://", 1)[-1]
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")]
    return f"{host}/{path}".lower().strip("/")


def short_repository(slug: str) -> str:
    """``github.com/org/api`` → ``org/api``: how prompts name a repository."""
    host, _, path = slug.partition("/")
    return path if path and "." in host else slug


# --- limits (the CRD's, checked again for files that never met an API server) -------


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
    "status.engineAttempts[]": Limit(max_length=63),
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
_UID = re.compile("^[A-Za-z0-9][A-Za-z0-9._:-]*$")
INT64_MAX = 2**63 - 1


def _limit(path: str) -> Limit:
    """The limit of a concrete path (``status.result.filesChanged[3]`` → ``...filesChanged[]``)."""
    generic = re.sub(r"\[\d+\]", "[]", path)
    return CRD_LIMITS.get(generic, _NO_LIMIT)


def _shown(value: Any) -> str:
    """A value for an error message: short, one line, never a big container's repr."""
    if isinstance(value, (bool, int, float)) or value is None:
        text = repr(value)
    elif isinstance(value, str):
        text = repr(value if len(value) <= 40 else value[:40] + "…")
    else:
        return f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:59] + "…"


def _check_text(value: str, path: str) -> str:
    limit = _limit(path)
    if limit.max_length is not None and len(value) > limit.max_length:
        raise TaskRunError(path, f"is {len(value)} characters long; at most {limit.max_length} are allowed")
    pattern = _PATTERNS.get(re.sub(r"\[\d+\]", "[]", path))
    if pattern is not None and not pattern.search(value):
        raise TaskRunError(path, f"{_shown(value)} does not match {pattern.pattern}")
    return value


def _check_count(count: int, path: str, what: str = "items") -> None:
    limit = _limit(path)
    most = limit.max_properties if what == "entries" else limit.max_items
    if most is not None and count > most:
        raise TaskRunError(path, f"has {count} {what}; at most {most} are allowed")


def _check_range(value: float, path: str) -> None:
    limit = _limit(path)
    if limit.minimum is not None and value < limit.minimum:
        raise TaskRunError(path, f"must be at least {limit.minimum:g}, got {_shown(value)}")
    if limit.maximum is not None and value > limit.maximum:
        raise TaskRunError(path, f"must be at most {limit.maximum:g}, got {_shown(value)}")


def dns_subdomain_problem(name: str) -> str | None:
    """Why ``name`` is not a DNS-1123 subdomain (how the API server checks a custom object's name)."""
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long; at most {MAX_NAME} are allowed"
    if not all(_DNS_LABEL.match(label) for label in name.split(".")):
        return (
            f"{_shown(name)} is not a valid name: lower-case letters, digits, '-' and '.', "
            "starting and ending with a letter or digit (RFC 1123)"
        )
    return None


def dns_label_problem(name: str) -> str | None:
    """Why ``name`` is not a DNS-1123 label (how the API server checks a namespace)."""
    if len(name) > MAX_NAMESPACE:
        return f"is {len(name)} characters long; at most {MAX_NAMESPACE} are allowed"
    if not _DNS_LABEL.match(name):
        return (
            f"{_shown(name)} is not a valid namespace: lower-case letters, digits and '-', "
            "starting and ending with a letter or digit (RFC 1123)"
        )
    return None


# --- parsing -----------------------------------------------------------------


def _mapping(value: Any, path: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TaskRunError(path, f"must be a mapping, got {type(value).__name__}")
    return value


def _string(obj: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> str:
    value = obj.get(key)
    if value is None or value == "":
        if required:
            raise TaskRunError(f"{path}.{key}", "is required")
        return ""
    if not isinstance(value, str):
        raise TaskRunError(f"{path}.{key}", f"must be a string, got {type(value).__name__}")
    return _check_text(value, f"{path}.{key}")


def _strings(obj: Mapping[str, Any], key: str, path: str) -> tuple[str, ...]:
    value = obj.get(key)
    if value is None:
        return ()
    where = f"{path}.{key}"
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TaskRunError(where, "must be a list of strings")
    _check_count(len(value), where)
    return tuple(_check_text(v, f"{where}[{i}]") for i, v in enumerate(value))


def _number(obj: Mapping[str, Any], key: str, path: str, kind: type) -> Any:
    value = obj.get(key)
    if value is None:
        return None
    where = f"{path}.{key}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TaskRunError(where, f"must be a number, got {_shown(value)}")
    if not math.isfinite(value) or abs(value) > INT64_MAX:
        raise TaskRunError(where, f"must be a finite number within the 64-bit range, got {_shown(value)}")
    if kind is int and not float(value).is_integer():
        raise TaskRunError(where, f"must be an integer, got {_shown(value)}")
    _check_range(value, where)
    return kind(value)


def _enum(value: str, allowed: Sequence[str], path: str) -> str:
    if value not in allowed:
        raise TaskRunError(path, f"must be one of {', '.join(allowed)}; got {_shown(value)}")
    return value


def _parse_ticket(spec: Mapping[str, Any]) -> Ticket:
    if "ticket" not in spec:
        raise TaskRunError("spec.ticket", "is required")
    raw = _mapping(spec.get("ticket"), "spec.ticket")
    ticket_type = _string(raw, "type", "spec.ticket") or None
    if ticket_type is not None:
        _enum(ticket_type, TASK_TYPES, "spec.ticket.type")
    return Ticket(
        id=_string(raw, "id", "spec.ticket", required=True),
        description=_string(raw, "description", "spec.ticket", required=True),
        title=_string(raw, "title", "spec.ticket"),
        type=ticket_type,
        labels=_strings(raw, "labels", "spec.ticket"),
        url=_string(raw, "url", "spec.ticket"),
    )


def _tool_calls(raw: Mapping[str, Any], path: str) -> dict[str, int]:
    tool_calls = _mapping(raw.get("toolCalls"), path)
    _check_count(len(tool_calls), path, "entries")
    for tool, count in tool_calls.items():
        if not isinstance(tool, str):
            raise TaskRunError(path, f"tool names must be strings, got {_shown(tool)}")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= INT64_MAX:
            raise TaskRunError(f"{path}.{tool}", f"must be a count, got {_shown(count)}")
    return dict(tool_calls)


def _parse_result(raw: Mapping[str, Any]) -> Result:
    path = "status.result"
    success = raw.get("success")
    if not isinstance(success, bool):
        raise TaskRunError(f"{path}.success", "is required and must be true or false")
    return Result(
        success=success,
        summary=_string(raw, "summary", path),
        exit_code=_number(raw, "exitCode", path, int),
        failure_reason=_string(raw, "failureReason", path),
        merge_request_url=_string(raw, "mergeRequestURL", path),
        branch_name=_string(raw, "branchName", path),
        files_changed=_strings(raw, "filesChanged", path),
        tests_failed=_strings(raw, "testsFailed", path),
        flaky_tests=_strings(raw, "flakyTests", path),
        duration_seconds=_number(raw, "durationSeconds", path, float),
        token_usage=_number(raw, "tokenUsage", path, int),
        cost_estimate_usd=_number(raw, "costEstimateUSD", path, float),
        tool_calls=_tool_calls(raw, f"{path}.toolCalls"),
        learnings=_strings(raw, "learnings", path),
    )


def _conditions(status: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``status.conditions``: a list of mappings with string ``type`` and ``status`` (as the CRD says)."""
    raw = status.get("conditions")
    if raw is None:
        return []
    path = "status.conditions"
    if not isinstance(raw, list):
        raise TaskRunError(path, f"must be a list, got {type(raw).__name__}")
    _check_count(len(raw), path)
    for index, cond in enumerate(raw):
        where = f"{path}[{index}]"
        cond = _mapping(cond, where)
        for key in ("type", "status"):
            _string(cond, key, where, required=True)
        for key in ("reason", "message"):
            _string(cond, key, where)
        stamp = cond.get("lastTransitionTime")
        if stamp is not None and not isinstance(stamp, (str, date)):
            raise TaskRunError(f"{where}.lastTransitionTime", f"must be a timestamp, got {_shown(stamp)}")
    return raw


def _finished_at(status: Mapping[str, Any]) -> str:
    """When the run ended: the ``Succeeded`` condition's transition time (Tekton style)."""
    for cond in _conditions(status):
        if cond.get("type") == "Succeeded" and cond.get("status") != "Unknown":
            return str(cond.get("lastTransitionTime") or "")
    return ""


def _parse_metadata(body: Mapping[str, Any]) -> tuple[str, str, str]:
    """Namespace, name and uid, checked as the API server checks them.

    The run key joins them with ``/``, so none may contain one: two runs
    must never share a key.
    """
    meta = _mapping(body.get("metadata"), "metadata")
    name = _string(meta, "name", "metadata", required=True)
    if problem := dns_subdomain_problem(name):
        raise TaskRunError("metadata.name", problem)
    namespace = _string(meta, "namespace", "metadata") or "default"
    if problem := dns_label_problem(namespace):
        raise TaskRunError("metadata.namespace", problem)
    uid = _string(meta, "uid", "metadata")
    if uid and (len(uid) > MAX_UID or not _UID.match(uid)):
        raise TaskRunError(
            "metadata.uid",
            f"{_shown(uid)} is not a valid uid: at most {MAX_UID} letters, digits, '.', '_', ':' and '-'",
        )
    return namespace, name, uid


def parse_taskrun(obj: Any) -> TaskRun:
    """Validate one TaskRun object (kopf body or YAML document) into a :class:`TaskRun`.

    Raises :class:`TaskRunError` naming the first bad field. Every field read
    is checked against the CRD's limits (:data:`CRD_LIMITS`), so a file that
    never went through an API server is held to the same rules.
    """
    body = _mapping(obj, "<document>")
    kind = body.get("kind")
    if kind is not None and kind != KIND:
        raise TaskRunError("kind", f"must be {KIND}, got {_shown(kind)}")
    namespace, name, uid = _parse_metadata(body)
    spec = _mapping(body.get("spec"), "spec")
    if "spec" not in body:
        raise TaskRunError("spec", "is required")
    status = _mapping(body.get("status"), "status")

    flow = _enum(_string(spec, "flow", "spec") or Flow.TICKETING.value, [f.value for f in Flow], "spec.flow")
    repo_raw = _mapping(spec.get("repository"), "spec.repository")
    repository = Repository(
        url=_string(repo_raw, "url", "spec.repository", required=flow == Flow.TICKETING),
        language=_string(repo_raw, "language", "spec.repository").lower(),
    )
    memory_raw = _mapping(spec.get("memory"), "spec.memory")
    memory_enabled = memory_raw.get("enabled", True)
    if not isinstance(memory_enabled, bool):
        raise TaskRunError("spec.memory.enabled", "must be true or false")
    execution = _mapping(spec.get("execution"), "spec.execution")
    mode = _enum(
        _string(execution, "mode", "spec.execution") or "job",
        EXECUTION_MODES,
        "spec.execution.mode",
    )

    phase_text = _string(status, "phase", "status")
    phase = Phase(_enum(phase_text, [p.value for p in Phase], "status.phase")) if phase_text else None
    result_raw = status.get("result")
    result = _parse_result(_mapping(result_raw, "status.result")) if result_raw is not None else None

    return TaskRun(
        namespace=namespace,
        name=name,
        uid=uid,
        engine=_string(spec, "engine", "spec", required=True),
        ticket=_parse_ticket(spec),
        flow=Flow(flow),
        fallback_engines=_strings(spec, "fallbackEngines", "spec"),
        repository=repository,
        instructions=_string(spec, "instructions", "spec"),
        memory_enabled=memory_enabled,
        execution_mode=mode,
        timeout_seconds=_number(execution, "timeoutSeconds", "spec.execution", int),
        phase=phase,
        engine_attempts=_strings(status, "engineAttempts", "status"),
        result=result,
        finished_at=_finished_at(status),
    )


def check_consistent(run: TaskRun) -> None:
    """Refuse a result that contradicts the phase: memory must not learn the opposite of what happened."""
    if run.result is None:
        return
    if run.phase is Phase.SUCCEEDED and not run.result.success:
        raise TaskRunError("status.result.success", "is false but status.phase is Succeeded")
    if run.phase in (Phase.FAILED, Phase.TIMED_OUT) and run.result.success:
        raise TaskRunError("status.result.success", f"is true but status.phase is {run.phase.value}")
