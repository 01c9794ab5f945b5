"""What the Job of an engine attempt needs for the agent runner (``osmia agent``, docs/engines.md).

One function, :func:`add_runner_spec`, called by the Job builder: the
runner's environment (repository, engine deadline, workspace, model, engine
arguments, where Secrets are mounted), ``envFrom`` references to the
engine's Secrets, and read-only Secret volumes. The operator only *names*
Secrets in the Job spec; it never reads them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from osmia.config import EngineConfig
from osmia.taskrun import TaskRun

WORKSPACE = "/workspace"
SECRET_ROOT = "/var/run/osmia/secrets"
MIN_REPORT_SECONDS = 60
MAX_REPORT_SECONDS = 600


def engine_deadline(timeout: int) -> int:
    """Seconds the engine may run: the Job's deadline minus time to test, measure, push and report.

    A tenth of the run's timeout is kept back, at least 60 s and at most 600 s,
    but the engine always gets at least half the timeout.
    """
    reserve = min(max(timeout // 10, MIN_REPORT_SECONDS), MAX_REPORT_SECONDS)
    return max(timeout - reserve, timeout // 2, 1)


def _env_from(refs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for ref in refs:
        kind = "secretRef" if "secret" in ref else "configMapRef"
        source: dict[str, Any] = {kind: {"name": ref.get("secret") or ref.get("config_map")}}
        if ref.get("optional"):
            source[kind]["optional"] = True
        if ref.get("prefix"):
            source["prefix"] = ref["prefix"]
        out.append(source)
    return out


def runner_options(engine: EngineConfig) -> dict[str, Any]:
    """The runner keywords of :func:`add_runner_spec` from an ``engines.<name>`` config section."""
    return {
        "model": engine.model or "",
        "engine_args": engine.engine_args,
        "env_from": [ref.as_dict() for ref in engine.env_from],
        "secret_volumes": [volume.as_dict() for volume in engine.secret_volumes],
    }


def add_runner_spec(
    container: dict[str, Any],
    pod_spec: dict[str, Any],
    *,
    run: TaskRun,
    timeout: int,
    model: str = "",
    engine_args: Sequence[str] = (),
    env_from: Sequence[Mapping[str, Any]] = (),
    secret_volumes: Sequence[Mapping[str, Any]] = (),
) -> None:
    """Add the runner's env vars, Secret references and Secret volumes to the agent container and its pod.

    Runner variables come first in ``env``, so an ``engines.<name>.env`` entry of the
    same name (listed later) overrides one, e.g. ``OSMIA_ENGINE_TIMEOUT_SECONDS``.
    """
    env: list[dict[str, Any]] = [
        {"name": "OSMIA_WORKSPACE", "value": WORKSPACE},
        {"name": "OSMIA_ENGINE_TIMEOUT_SECONDS", "value": str(engine_deadline(timeout))},
    ]
    if run.repository.url:
        env.append({"name": "OSMIA_REPOSITORY_URL", "value": run.repository.url})
    if model:
        env.append({"name": "OSMIA_MODEL", "value": model})
    if engine_args:
        env.append({"name": "OSMIA_ENGINE_ARGS", "value": json.dumps(list(engine_args))})
    mounts = []
    for volume in secret_volumes:
        name = f"secret-{volume['secret']}"[:63].rstrip("-.")
        path = str(volume.get("mount_path") or f"{SECRET_ROOT}/{volume['secret']}")
        secret: dict[str, Any] = {"secretName": volume["secret"], "defaultMode": 0o400}
        pod_spec.setdefault("volumes", []).append({"name": name, "secret": secret})
        container.setdefault("volumeMounts", []).append({"name": name, "mountPath": path, "readOnly": True})
        mounts.append(path)
    if mounts:
        env.append({"name": "OSMIA_SECRET_DIRS", "value": ",".join(mounts)})
    container["env"] = [*env, *container.get("env", [])]
    if env_from:
        container["envFrom"] = _env_from(env_from)
    if not any(m.get("mountPath") == WORKSPACE for m in container.get("volumeMounts", [])):
        pod_spec.setdefault("volumes", []).append({"name": "workspace", "emptyDir": {}})
        container.setdefault("volumeMounts", []).append({"name": "workspace", "mountPath": WORKSPACE})
