"""The runner's inputs, read from the environment the operator sets on the Job.

Every variable is documented in ``docs/engines.md`` (the runner's contract).
Nothing here is a secret: credentials are read by :mod:`osmia.agent.credentials`
and never kept on this object.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_JUNIT_GLOBS = ("**/junit*.xml", "**/TEST-*.xml", "**/test-results/**/*.xml", "**/*.junit.xml")
DEFAULT_PROTECTED = ("main", "master", "trunk", "develop", "release/*", "releases/*", "production")
DEFAULT_LEARNINGS_FILE = ".osmia/learnings.md"
_TICKET = re.compile(r"[^A-Za-z0-9._-]+")


class SettingsError(ValueError):
    """A missing or malformed runner variable (the message names it)."""


@dataclass(frozen=True)
class RunnerSettings:
    """What one run needs to know; built by :func:`from_env`."""

    prompt_file: Path
    engine: str
    ticket_id: str
    repository_url: str = ""
    base_ref: str = ""
    """Branch or tag to start from; empty means the remote's default branch."""
    taskrun: str = ""
    workspace: Path = Path("/workspace")
    model: str = ""
    engine_args: tuple[str, ...] = ()
    timeout_seconds: float = 3300.0
    """The engine's deadline; the runner needs the rest of the Job's time to measure and report."""
    test_command: str = ""
    junit_globs: tuple[str, ...] = DEFAULT_JUNIT_GLOBS
    push: bool = True
    """Push the branch when there are changes (and the repository has a remote)."""
    push_remote: str = ""
    """URL to push to; empty means the clone's origin."""
    protected_branches: tuple[str, ...] = DEFAULT_PROTECTED
    learnings_file: str = DEFAULT_LEARNINGS_FILE
    termination_log: Path = Path("/dev/termination-log")
    git_author: str = "Osmia Agent <agent@osmia.invalid>"
    price_input_per_mtok: float | None = None
    price_output_per_mtok: float | None = None

    @property
    def ticket_slug(self) -> str:
        """The ticket id as it may appear in a branch name."""
        return _TICKET.sub("-", self.ticket_id).strip("-.").lower()[:60] or "ticket"


def _list(env: Mapping[str, str], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    if raw.lstrip().startswith("["):
        try:
            value = json.loads(raw)
        except ValueError as exc:
            raise SettingsError(f"{name}: not a JSON list of strings ({exc})") from None
        except RecursionError:  # lists nested thousands deep: the parser's stack, not a value
            raise SettingsError(f"{name}: not a JSON list of strings (nested too deep)") from None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SettingsError(f"{name}: not a JSON list of strings")
        return tuple(value)
    return tuple(part.strip() for part in re.split(r"[,\n]", raw) if part.strip())


def _number(env: Mapping[str, str], name: str, default: float | None, *, low: float = 0) -> float | None:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name}: {raw!r} is not a number") from None
    if not value >= low or value == float("inf"):
        raise SettingsError(f"{name}: {raw!r} must be a finite number ≥ {low:g}")
    return value


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise SettingsError(f"{name}: {raw!r} is not a boolean (true or false)")


def from_env(env: Mapping[str, str] | None = None) -> RunnerSettings:
    """Settings from ``env`` (default ``os.environ``); a clear :class:`SettingsError` when one is bad."""
    env = os.environ if env is None else env
    missing = [
        n for n in ("OSMIA_PROMPT_FILE", "OSMIA_ENGINE", "OSMIA_TICKET_ID") if not env.get(n, "").strip()
    ]
    if missing:
        raise SettingsError(f"missing environment variable(s): {', '.join(missing)}")
    timeout = _number(env, "OSMIA_ENGINE_TIMEOUT_SECONDS", 3300.0, low=1)
    assert timeout is not None
    learnings = env.get("OSMIA_LEARNINGS_FILE", "").strip() or DEFAULT_LEARNINGS_FILE
    if Path(learnings).is_absolute() or ".." in Path(learnings).parts:
        raise SettingsError(
            f"OSMIA_LEARNINGS_FILE: {learnings!r} must be a relative path inside the repository"
        )
    return RunnerSettings(
        prompt_file=Path(env["OSMIA_PROMPT_FILE"].strip()),
        engine=env["OSMIA_ENGINE"].strip(),
        ticket_id=env["OSMIA_TICKET_ID"].strip(),
        repository_url=env.get("OSMIA_REPOSITORY_URL", "").strip(),
        base_ref=env.get("OSMIA_REPOSITORY_REF", "").strip(),
        taskrun=env.get("OSMIA_TASKRUN", "").strip(),
        workspace=Path(env.get("OSMIA_WORKSPACE", "").strip() or "/workspace"),
        model=env.get("OSMIA_MODEL", "").strip(),
        engine_args=_list(env, "OSMIA_ENGINE_ARGS", ()),
        timeout_seconds=timeout,
        test_command=env.get("OSMIA_TEST_COMMAND", "").strip(),
        junit_globs=_list(env, "OSMIA_JUNIT_GLOBS", DEFAULT_JUNIT_GLOBS),
        push=_flag(env, "OSMIA_PUSH", True),
        push_remote=env.get("OSMIA_PUSH_REMOTE", "").strip(),
        protected_branches=_list(env, "OSMIA_PROTECTED_BRANCHES", DEFAULT_PROTECTED),
        learnings_file=learnings,
        termination_log=Path(env.get("OSMIA_TERMINATION_LOG", "").strip() or "/dev/termination-log"),
        git_author=env.get("OSMIA_GIT_AUTHOR", "").strip() or "Osmia Agent <agent@osmia.invalid>",
        price_input_per_mtok=_number(env, "OSMIA_PRICE_INPUT_USD_PER_MTOK", None),
        price_output_per_mtok=_number(env, "OSMIA_PRICE_OUTPUT_USD_PER_MTOK", None),
    )
