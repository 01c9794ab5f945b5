"""Job manifests and outcomes, without a cluster."""

from __future__ import annotations

import json
import re
from typing import Any

from osmia.config import parse_config
from osmia.controller.jobs import (
    ANNOTATION_TASKRUN,
    LABEL_TASKRUN_UID,
    build_job,
    job_deadline_exceeded,
    job_finished,
    job_name,
    prompt_configmap_name,
    result_from,
    termination_message,
)
from osmia.controller.names import child_name, label_value
from tests.memory.conftest import make_run

CONFIG = parse_config(
    {
        "engines": {
            "claude-code": {
                "image": "img/cc:1",
                "env": {"MODEL": "big"},
                "resources": {"limits": {"memory": "2Gi"}},
            }
        }
    }
)
OWNER = {"apiVersion": "osmia.dev/v1alpha1", "kind": "TaskRun", "metadata": {"name": "fix-1", "uid": "u-1"}}


def job() -> dict[str, Any]:
    run = make_run("fix-1", finished=False)
    return build_job(
        run,
        attempt=0,
        engine="claude-code",
        engine_config=CONFIG.engines["claude-code"],
        execution=CONFIG.execution,
        owner=OWNER,
    )


def test_job_mounts_the_prompt_read_only_and_is_locked_down() -> None:
    manifest = job()
    pod = manifest["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert manifest["metadata"]["name"] == "fix-1-0-claude-code"
    assert manifest["metadata"]["ownerReferences"][0]["uid"] == "u-1"
    assert {"name": "prompt", "configMap": {"name": "fix-1-prompt"}} in pod["volumes"]
    mount = next(m for m in container["volumeMounts"] if m["name"] == "prompt")
    assert mount["readOnly"] is True
    assert container["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    assert pod["automountServiceAccountToken"] is False
    assert {"name": "MODEL", "value": "big"} in container["env"]
    assert container["resources"] == {"limits": {"memory": "2Gi"}}
    assert manifest["spec"]["activeDeadlineSeconds"] == CONFIG.execution.default_timeout_seconds


def test_job_names_are_deterministic_and_fit_63_characters() -> None:
    assert job_name("a", 1, "aider") == "a-1-aider"
    long = job_name("x" * 80, 2, "claude-code")
    assert len(long) <= 63 and long.endswith("-2-claude-code")
    assert job_name("x" * 80, 2, "claude-code") == long


def test_long_names_that_differ_only_at_the_end_get_different_jobs() -> None:
    """Bug: both were cut to the same 63 characters; the second run followed the first run's Job."""
    head = "nightly-dependency-upgrade-for-the-payments-service-repository"
    a, b = job_name(f"{head}-1", 0, "claude-code"), job_name(f"{head}-2", 0, "claude-code")
    assert a != b and len(a) <= 63 and len(b) <= 63
    assert a.startswith("nightly-dependency") and a.endswith("-0-claude-code")
    assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", a)


def test_names_and_labels_of_a_253_character_taskrun_are_valid() -> None:
    """Bug: a name over 63 characters was used as a label value and the ConfigMap was refused."""
    name = "r" + "-a1" * 84  # 253 characters, a valid TaskRun name
    owner = {**OWNER, "metadata": {"name": name, "uid": "u-2"}}
    manifest = build_job(
        make_run(name, finished=False),
        attempt=1,
        engine="claude-code",
        engine_config=CONFIG.engines["claude-code"],
        execution=CONFIG.execution,
        owner=owner,
    )
    labels = manifest["metadata"]["labels"]
    for value in [*labels.values(), *manifest["spec"]["template"]["metadata"]["labels"].values()]:
        assert len(value) <= 63 and re.fullmatch(r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?", value)
    assert labels[LABEL_TASKRUN_UID] == "u-2"
    assert manifest["metadata"]["annotations"][ANNOTATION_TASKRUN] == name
    assert len(manifest["metadata"]["name"]) <= 63
    assert len(prompt_configmap_name(name)) <= 253
    assert prompt_configmap_name(name) != prompt_configmap_name(name[:-1] + "b")
    assert {"name": "prompt", "configMap": {"name": prompt_configmap_name(name)}} in manifest["spec"][
        "template"
    ]["spec"]["volumes"]
    assert label_value(name) != label_value(name[:-1] + "b")


def test_a_short_suffix_on_a_short_name_is_left_alone() -> None:
    assert child_name("fix-1", "-prompt", 253) == "fix-1-prompt"
    assert label_value("fix-1") == "fix-1"


def test_job_verdicts() -> None:
    assert job_finished({"status": {}}) is None
    assert job_finished({"status": {"conditions": [{"type": "Complete", "status": "True"}]}}) == "Complete"
    failed = {"status": {"conditions": [{"type": "Failed", "status": "True", "reason": "DeadlineExceeded"}]}}
    assert job_finished(failed) == "Failed" and job_deadline_exceeded(failed)


def pod(message: str, finished: str, code: int = 0) -> dict[str, Any]:
    return {
        "status": {
            "containerStatuses": [
                {"state": {"terminated": {"message": message, "finishedAt": finished, "exitCode": code}}}
            ]
        }
    }


def test_termination_message_takes_the_newest_pod() -> None:
    pods = [pod("old", "2026-01-01T00:00:00Z"), pod("new", "2026-01-02T00:00:00Z", 3)]
    assert termination_message(pods) == ("new", 3)
    assert termination_message([]) == ("", None)


def test_result_keeps_known_well_typed_fields_only() -> None:
    message = json.dumps(
        {
            "success": True,
            "summary": "ok",
            "tokenUsage": True,
            "learnings": ["a", 3],
            "testsFailed": ["TestA"],
            "rm -rf": 1,
            "toolCalls": {"bash": 2},
        }
    )
    result, whole = result_from("Complete", message, 0)
    assert whole
    assert result == {
        "success": True,
        "summary": "ok",
        "testsFailed": ["TestA"],
        "toolCalls": {"bash": 2},
        "exitCode": 0,
    }


def test_the_job_verdict_wins_over_a_claimed_success() -> None:
    result, _ = result_from("Failed", '{"success": true}', 1)
    assert result["success"] is False and "exit code 1" in result["failureReason"]


def test_plain_text_messages_become_the_summary() -> None:
    result, _ = result_from("Failed", "panic: nil map", 2)
    assert result["success"] is False and result["summary"] == "panic: nil map"


def test_oversized_reports_are_cut_to_the_schema_limits() -> None:
    message = json.dumps({"success": False, "learnings": ["x" * 5000] * 80, "failureReason": "y" * 9000})
    result, _ = result_from("Failed", message, 1)
    assert len(result["learnings"]) == 50 and len(result["learnings"][0]) == 1000
    assert len(result["failureReason"]) == 4096


def test_a_message_the_kubelet_cut_still_gives_success_and_failing_tests() -> None:
    """Bug: the kubelet keeps the last 4 KiB; the cut JSON failed to parse and the result was lost."""
    report = {
        "summary": "s" * 6000,
        "success": False,
        "failureReason": "tests failed",
        "testsFailed": ["TestLogin", "TestLogout"],
    }
    message = json.dumps(report).encode()[-4096:].decode(errors="ignore")
    result, whole = result_from("Failed", message, 1)
    assert not whole
    assert result["success"] is False
    assert result["testsFailed"] == ["TestLogin", "TestLogout"]
    assert result["failureReason"] == "tests failed"
