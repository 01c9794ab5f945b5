"""Level-triggered reconciliation and conflict-safe status writes, on the error paths.

Each test names the bug it guards against; with the old event handlers and
plain merge patches each of them failed.
"""

from __future__ import annotations

import json
import logging
from typing import Any, cast

import pytest

from osmia import metrics
from osmia.config import parse_config
from osmia.controller.jobs import job_name
from osmia.controller.kube import Kube
from osmia.controller.reconcile import converge_terminal, reconcile_running
from osmia.controller.runtime import Runtime
from osmia.controller.start import start_run
from osmia.controller.status import extraction_patch
from osmia.controller.writes import write_status
from tests.controller.fake_kube import FakeKube

LOG = logging.getLogger("test")
CONFIG = parse_config({"engines": {"claude-code": {"image": "img/cc:1"}, "aider": {"image": "img/aider:1"}}})


def taskrun(name: str = "fix-1", *, mode: str = "job", timeout: int | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "engine": "claude-code",
        "fallbackEngines": ["aider"],
        "repository": {"url": "https://github.com/org/api"},
        "ticket": {"id": "P-1", "description": "Login fails"},
        "execution": {"mode": mode, **({"timeoutSeconds": timeout} if timeout else {})},
    }
    return {
        "apiVersion": "osmia.dev/v1alpha1",
        "kind": "TaskRun",
        "metadata": {"name": name, "namespace": "agents", "uid": f"uid-{name}", "generation": 1},
        "spec": spec,
    }


def runtime(kube: FakeKube) -> Runtime:
    return Runtime(config=CONFIG, kube=cast(Kube, kube))


def finish(kube: FakeKube, job: str, *, ok: bool, message: dict[str, Any], reason: str = "") -> None:
    """Job verdict and pod as the Job controller and kubelet write them."""
    cond = {"type": "Complete" if ok else "Failed", "status": "True", "reason": reason}
    kube.jobs[job]["status"] = {"conditions": [cond]}
    terminated = {
        "exitCode": 0 if ok else 1,
        "finishedAt": "2026-01-01T00:00:00Z",
        "message": json.dumps(message),
    }
    kube.pods[kube.jobs[job]["metadata"]["uid"]] = [
        {"status": {"containerStatuses": [{"state": {"terminated": terminated}}]}}
    ]


async def started(kube: FakeKube, body: dict[str, Any]) -> dict[str, Any]:
    rt = runtime(kube)
    await start_run(rt, kube.add_taskrun(body), LOG)
    return kube.taskruns[body["metadata"]["name"]]


def succeeded_condition(status: dict[str, Any]) -> str:
    return next(c["status"] for c in status["conditions"] if c["type"] == "Succeeded")


async def test_a_failed_api_call_delays_a_run_but_the_next_reconcile_finishes_it() -> None:
    """Bug: the Job event handler was never retried; one failed pod list left the run to time out."""
    kube = FakeKube()
    await started(kube, taskrun())
    finish(kube, "fix-1-0-claude-code", ok=True, message={"success": True, "summary": "done"})
    kube.fail.append("job_pods")
    with pytest.raises(RuntimeError, match="injected"):  # raised to kopf, which retries the timer
        await reconcile_running(runtime(kube), kube.taskruns["fix-1"], LOG)
    assert kube.taskruns["fix-1"]["status"]["phase"] == "Running"
    await reconcile_running(runtime(kube), kube.taskruns["fix-1"], LOG)
    status = kube.taskruns["fix-1"]["status"]
    assert status["phase"] == "Succeeded" and status["result"]["summary"] == "done"
    assert status["completionTime"] and status["observedGeneration"] == 1


async def test_a_finished_job_wins_over_an_elapsed_timeout() -> None:
    """No false TimedOut: the operator was down past the timeout while the Job succeeded in time."""
    kube = FakeKube()
    await started(kube, taskrun(timeout=1))
    kube.taskruns["fix-1"]["status"]["startTime"] = "2020-01-01T00:00:00Z"
    finish(kube, "fix-1-0-claude-code", ok=True, message={"success": True})
    await reconcile_running(runtime(kube), kube.taskruns["fix-1"], LOG)
    assert kube.taskruns["fix-1"]["status"]["phase"] == "Succeeded"


async def test_a_timeout_loses_to_an_executor_that_finished_first() -> None:
    """The executor's terminal phase written after our read must not be overwritten by TimedOut."""
    kube = FakeKube()
    await started(kube, taskrun(mode="external", timeout=1))
    kube.taskruns["fix-1"]["status"]["startTime"] = "2020-01-01T00:00:00Z"
    seen = dict(kube.taskruns["fix-1"])
    kube.external_write("fix-1", {"phase": "Succeeded", "result": {"success": True}})
    await reconcile_running(runtime(kube), seen, LOG)
    assert kube.taskruns["fix-1"]["status"]["phase"] == "Succeeded"


async def test_a_failed_attempt_falls_back_once_even_when_reconciled_twice() -> None:
    kube = FakeKube()
    await started(kube, taskrun())
    finish(kube, "fix-1-0-claude-code", ok=False, message={"success": False, "failureReason": "no go.sum"})
    stale = dict(kube.taskruns["fix-1"])
    await reconcile_running(runtime(kube), stale, LOG)
    await reconcile_running(runtime(kube), stale, LOG)  # a replayed event with the old body
    assert kube.taskruns["fix-1"]["status"]["engineAttempts"] == ["claude-code", "aider"]
    assert sorted(kube.jobs) == ["fix-1-0-claude-code", "fix-1-1-aider"]
    finish(kube, "fix-1-1-aider", ok=False, message={"success": False, "testsFailed": ["TestA"]})
    await reconcile_running(runtime(kube), kube.taskruns["fix-1"], LOG)
    status = kube.taskruns["fix-1"]["status"]
    assert status["phase"] == "Failed" and status["result"]["testsFailed"] == ["TestA"]


async def test_a_job_deleted_before_its_result_was_read_is_not_learned_from() -> None:
    kube = FakeKube()
    await started(kube, taskrun())
    del kube.jobs["fix-1-0-claude-code"]
    await reconcile_running(runtime(kube), kube.taskruns["fix-1"], LOG)
    status = kube.taskruns["fix-1"]["status"]
    assert status["phase"] == "Failed" and "deleted before" in status["result"]["failureReason"]
    assert status["memory"]["extraction"]["state"] == "Skipped"


async def test_a_job_of_an_earlier_taskrun_with_the_same_name_is_not_followed() -> None:
    kube = FakeKube()
    await started(kube, taskrun())
    job = kube.jobs["fix-1-0-claude-code"]
    job["metadata"]["ownerReferences"][0]["uid"] = "uid-of-a-deleted-run"
    finish(kube, "fix-1-0-claude-code", ok=True, message={"success": True})
    await reconcile_running(runtime(kube), kube.taskruns["fix-1"], LOG)
    assert kube.taskruns["fix-1"]["status"]["phase"] == "Running"


async def test_settling_keeps_succeeded_true_and_counts_once() -> None:
    """Bug: the extraction patch rebuilt conditions from the body before settling:
    [Succeeded=True] became [MemoryExtracted=True, Succeeded=Unknown], and the counter went up twice."""
    kube = FakeKube()
    await started(kube, taskrun(mode="external"))
    reported = kube.external_write("fix-1", {"phase": "Succeeded", "result": {"success": True}})
    counter = metrics.TASKRUN_PHASES.labels(phase="Succeeded")
    before = counter._value.get()
    rt = runtime(kube)  # no memory: the extraction is recorded Skipped, through the same write path
    await converge_terminal(rt, reported, LOG)
    await converge_terminal(rt, reported, LOG)  # a replayed event with the unsettled body
    # An extraction outcome computed from the unsettled body, as a slow extraction would hold it:
    await write_status(
        cast(Kube, kube),
        reported,
        lambda b: extraction_patch(b, "Done", nodes=3, edges=2),
    )
    status = kube.taskruns["fix-1"]["status"]
    assert succeeded_condition(status) == "True"
    assert {c["type"] for c in status["conditions"]} == {"Succeeded", "MemoryExtracted"}
    assert counter._value.get() - before == 1
    assert status["completionTime"]


async def test_a_write_from_a_stale_body_is_rebuilt_not_refused() -> None:
    kube = FakeKube()
    body = kube.add_taskrun({**taskrun(), "status": {"phase": "Running"}})
    kube.external_write("fix-1", {"tenant": "ticketing"})
    written = await write_status(cast(Kube, kube), body, lambda b: {"prompt": {"sha256": "0" * 64}})
    assert written is not None and written["status"]["tenant"] == "ticketing"
    assert kube.calls.count("patch_status") == 2 and kube.calls.count("get_taskrun") == 1


async def test_start_is_idempotent_after_a_failure_half_way() -> None:
    kube = FakeKube()
    body = kube.add_taskrun(taskrun())
    kube.fail.append("create_job")
    with pytest.raises(RuntimeError):
        await start_run(runtime(kube), body, LOG)
    await start_run(runtime(kube), kube.taskruns["fix-1"], LOG)  # kopf's retry, with the newer body
    status = kube.taskruns["fix-1"]["status"]
    assert status["phase"] == "Running" and status["engineAttempts"] == ["claude-code"]
    assert list(kube.jobs) == [job_name("fix-1", 0, "claude-code")]
