"""The operator side of the runner: what the Job of an engine attempt carries (runner_spec.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from osmia.agent.settings import DEFAULT_LEARNINGS_FILE, from_env
from osmia.config import parse_config
from osmia.controller.jobs import build_job
from osmia.controller.prompt import GUARD_RAILS, render_prompt
from osmia.controller.runner_spec import add_runner_spec, engine_deadline
from tests.memory.conftest import make_run

OWNER = {"apiVersion": "osmia.dev/v1alpha1", "kind": "TaskRun", "metadata": {"name": "fix-1", "uid": "u-1"}}


def job(engine: dict[str, Any]) -> dict[str, Any]:
    config = parse_config({"engines": {"claude-code": engine}})
    return build_job(
        make_run("fix-1", finished=False),
        attempt=0,
        engine="claude-code",
        engine_config=config.engines["claude-code"],
        execution=config.execution,
        owner=OWNER,
    )


def env_of(container: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e["value"] for e in container["env"]}


def test_the_job_carries_what_the_runner_reads() -> None:
    manifest = job({"image": "img/runner:1", "env": {"OSMIA_TEST_COMMAND": "make test"}})
    pod = manifest["spec"]["template"]["spec"]
    container = pod["containers"][0]
    env = env_of(container)
    run = make_run("fix-1", finished=False)
    assert env["OSMIA_REPOSITORY_URL"] == run.repository.url
    assert env["OSMIA_WORKSPACE"] == "/workspace"
    assert int(env["OSMIA_ENGINE_TIMEOUT_SECONDS"]) == engine_deadline(
        manifest["spec"]["activeDeadlineSeconds"]
    )
    assert env["OSMIA_TEST_COMMAND"] == "make test"
    # The workspace is an emptyDir at /workspace; nothing secret is in the spec.
    mount = next(m for m in container["volumeMounts"] if m["mountPath"] == "/workspace")
    assert next(v for v in pod["volumes"] if v["name"] == mount["name"]) == {
        "name": mount["name"],
        "emptyDir": {},
    }
    assert "envFrom" not in container
    # What the operator sets is what the runner accepts.
    settings = from_env({**env, "OSMIA_PROMPT_FILE": env["OSMIA_PROMPT_FILE"]})
    assert settings.engine == "claude-code" and settings.repository_url == run.repository.url


def test_later_config_env_overrides_the_runner_defaults() -> None:
    container = job({"image": "i:1", "env": {"OSMIA_ENGINE_TIMEOUT_SECONDS": "42"}})["spec"]["template"][
        "spec"
    ]["containers"][0]
    names = [e["name"] for e in container["env"]]
    values = [e["value"] for e in container["env"] if e["name"] == "OSMIA_ENGINE_TIMEOUT_SECONDS"]
    assert values[-1] == "42"  # the last definition wins in Kubernetes
    assert names.index("OSMIA_ENGINE_TIMEOUT_SECONDS") < names.index("OSMIA_PROMPT_FILE")


def test_model_args_secrets_by_reference_and_secret_volumes() -> None:
    container: dict[str, Any] = {"name": "agent", "env": [{"name": "OSMIA_ENGINE", "value": "codex"}]}
    pod: dict[str, Any] = {"containers": [container], "volumes": []}
    add_runner_spec(
        container,
        pod,
        run=make_run("fix-1", finished=False),
        timeout=3600,
        model="gpt-5-codex",
        engine_args=["--dangerously-bypass-approvals-and-sandbox"],
        env_from=[{"secret": "openai-key"}, {"config_map": "proxy", "prefix": "HTTP_", "optional": True}],
        secret_volumes=[{"secret": "codex-auth", "mount_path": "/tmp/.codex-auth"}, {"secret": "ssh-key"}],
    )
    env = env_of(container)
    assert env["OSMIA_MODEL"] == "gpt-5-codex"
    assert json.loads(env["OSMIA_ENGINE_ARGS"]) == ["--dangerously-bypass-approvals-and-sandbox"]
    assert env["OSMIA_SECRET_DIRS"] == "/tmp/.codex-auth,/var/run/osmia/secrets/ssh-key"
    assert container["envFrom"] == [
        {"secretRef": {"name": "openai-key"}},
        {"configMapRef": {"name": "proxy", "optional": True}, "prefix": "HTTP_"},
    ]
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert volumes["secret-codex-auth"]["secret"] == {"secretName": "codex-auth", "defaultMode": 0o400}
    mounts = {m["name"]: m for m in container["volumeMounts"]}
    assert mounts["secret-ssh-key"] == {
        "name": "secret-ssh-key",
        "mountPath": "/var/run/osmia/secrets/ssh-key",
        "readOnly": True,
    }
    assert mounts["workspace"]["mountPath"] == "/workspace"


@pytest.mark.parametrize(("timeout", "engine"), [(3600, 3240), (300, 240), (60, 30), (86400, 85800), (1, 1)])
def test_the_engine_deadline_leaves_time_to_report(timeout: int, engine: int) -> None:
    assert engine_deadline(timeout) == engine


def test_the_prompt_asks_for_the_learnings_file_the_runner_reads() -> None:
    prompt = render_prompt(make_run("fix-1", finished=False), "")
    assert DEFAULT_LEARNINGS_FILE in GUARD_RAILS[-1] and DEFAULT_LEARNINGS_FILE in prompt
    assert "/dev/termination-log" not in prompt


def test_engine_config_keys_reach_the_job() -> None:
    manifest = job(
        {
            "image": "img/runner:1",
            "model": "claude-sonnet-4-5",
            "engine_args": ["--max-turns", "40"],
            "env_from": [{"secret": "anthropic-api-key"}, {"secret": "git-push-token", "optional": True}],
            "secret_volumes": [{"secret": "git-ssh-key", "mount_path": "/var/run/osmia/ssh"}],
        }
    )
    pod = manifest["spec"]["template"]["spec"]
    container = pod["containers"][0]
    env = env_of(container)
    assert env["OSMIA_MODEL"] == "claude-sonnet-4-5"
    assert json.loads(env["OSMIA_ENGINE_ARGS"]) == ["--max-turns", "40"]
    assert env["OSMIA_SECRET_DIRS"] == "/var/run/osmia/ssh"
    assert container["envFrom"] == [
        {"secretRef": {"name": "anthropic-api-key"}},
        {"secretRef": {"name": "git-push-token", "optional": True}},
    ]
    assert {
        "name": "secret-git-ssh-key",
        "secret": {"secretName": "git-ssh-key", "defaultMode": 0o400},
    } in pod["volumes"]
    settings = from_env(env)
    assert settings.model == "claude-sonnet-4-5" and settings.engine_args == ("--max-turns", "40")
