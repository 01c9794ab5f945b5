"""The Sweeper (one loop instead of kopf timers) and the one-write start and finish, on error paths.

The loop is driven with a fake clock; the API is the FakeKube emulator (conflicts and injected
failures), so what is checked is which calls are made, how often, and what they leave behind.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, cast

import pytest

from osmia.controller import sweep
from osmia.controller.kube import Kube
from osmia.controller.runtime import JOB_FRESH_SECONDS, Runtime, current_job
from osmia.controller.start import start_run
from osmia.controller.status import final_patch
from osmia.controller.sweep import Sweeper, work_for
from tests.controller.fake_kube import FakeKube
from tests.controller.test_reconcile import CONFIG, taskrun

LOG = logging.getLogger("test")


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make(kube: FakeKube, clock: Clock) -> tuple[Runtime, Sweeper]:
    rt = Runtime(config=CONFIG, kube=cast(Kube, kube))
    return rt, Sweeper(rt, lambda _body: LOG, clock=clock)


async def settle_tasks() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.fixture(autouse=True)
def fast_tick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep, "TICK_SECONDS", 0.001)


def test_work_follows_the_phase() -> None:
    assert work_for({}) == "start" and work_for({"phase": "Pending"}) == "start"
    assert work_for({"phase": "Running"}) == "running"
    unsettled = {"phase": "Failed", "memory": {"extraction": {"state": "Pending"}}}
    assert work_for(unsettled) == "converge"
    done = {
        "phase": "Failed",
        "conditions": [{"type": "Succeeded", "status": "False"}],
        "memory": {"extraction": {"state": "Done"}},
    }
    assert work_for(done) is None


async def test_an_external_start_writes_status_once() -> None:
    """Was two writes (Pending "preparing", then Running): one API request per run saved."""
    kube = FakeKube()
    body = kube.add_taskrun(taskrun(mode="external"))
    await start_run(Runtime(config=CONFIG, kube=cast(Kube, kube)), body, LOG)
    assert kube.calls == ["apply_configmap", "patch_status"]
    status = kube.taskruns["fix-1"]["status"]
    assert status["phase"] == "Running" and status["tenant"] and status["prompt"]["configMap"]


async def test_a_failed_start_is_retried_by_the_loop_with_backoff(caplog: pytest.LogCaptureFixture) -> None:
    kube = FakeKube()
    clock = Clock()
    _rt, sweeper = make(kube, clock)
    body = kube.add_taskrun(taskrun())
    kube.fail.append("create_job")
    assert sweeper.observe(body) == "start"
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        await sweeper.act_now(body, LOG)  # the fast path fails: the run stays tracked
    # ... and shows Pending with why (one write per failing streak) and one warning (an Event).
    pending = kube.taskruns["fix-1"]["status"]
    assert pending["phase"] == "Pending"
    assert "start failed, retrying" in pending["conditions"][0]["message"]
    assert [r.getMessage() for r in caplog.records if r.name == LOG.name] == [
        "start failed, retrying with backoff: " + pending["conditions"][0]["message"].split(": ", 1)[1]
    ]
    loop = asyncio.create_task(sweeper.run())
    try:
        clock.now += sweep.RETRY_BACKOFF_SECONDS - 0.5
        await asyncio.sleep(0.01)
        assert kube.calls.count("create_job") == 1  # not before its backoff
        clock.now += 1.0
        await asyncio.sleep(0.01)
        await settle_tasks()
    finally:
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)
    status = kube.taskruns["fix-1"]["status"]
    assert status["phase"] == "Running" and status["engineAttempts"] == ["claude-code"]
    assert kube.calls.count("create_job") == 2


async def test_an_external_run_is_looked_at_when_its_timeout_runs_out_not_every_tick() -> None:
    kube = FakeKube()
    clock = Clock()
    rt, sweeper = make(kube, clock)
    body = kube.add_taskrun(taskrun(mode="external", timeout=60))
    await start_run(rt, body, LOG)
    running = kube.taskruns["fix-1"]
    assert sweeper.observe(running) == "running"
    kube.calls.clear()
    loop = asyncio.create_task(sweeper.run())
    try:
        for _ in range(5):  # 50 s of ticks: nothing to do, no API call
            clock.now += 10
            await asyncio.sleep(0.005)
        assert kube.calls == []
        running["status"]["startTime"] = "2000-01-01T00:00:00Z"  # its timeout has run out
        sweeper.observe(running)
        clock.now += 1
        await asyncio.sleep(0.01)
        await settle_tasks()
    finally:
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)
    assert kube.taskruns["fix-1"]["status"]["phase"] == "TimedOut"


async def test_the_fast_path_and_the_loop_never_act_on_one_run_at_once() -> None:
    kube = FakeKube()
    clock = Clock()
    _rt, sweeper = make(kube, clock)
    body = kube.add_taskrun(taskrun(mode="external"))
    sweeper.observe(body)
    clock.now += 10  # due for the loop as well
    loop = asyncio.create_task(sweeper.run())
    try:
        await asyncio.gather(sweeper.act_now(body, LOG), sweeper.act_now(body, LOG))
        await asyncio.sleep(0.01)
        await settle_tasks()
    finally:
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)
    # One start wrote Running; any second look found the run no longer Pending and wrote nothing.
    assert kube.calls.count("patch_status") == 1


def test_the_final_write_settles_the_condition_and_records_the_extraction_together() -> None:
    body: dict[str, Any] = {
        "metadata": {"generation": 1},
        "status": {
            "phase": "Succeeded",
            "conditions": [{"type": "Succeeded", "status": "Unknown", "lastTransitionTime": "t0"}],
            "memory": {"extraction": {"state": "Pending"}},
        },
    }
    patch = final_patch(body, "Done", nodes=3, edges=1)
    assert patch is not None
    conditions = {c["type"]: c["status"] for c in patch["conditions"]}
    assert conditions == {"Succeeded": "True", "MemoryExtracted": "True"}
    assert patch["memory"]["extraction"]["state"] == "Done" and patch["completionTime"]
    done = {**body, "status": {**body["status"], **patch}}
    assert final_patch(done, "Done") is None  # decided and settled: nothing left to write


async def test_a_running_job_is_followed_from_the_watch_and_reread_only_when_stale() -> None:
    """Job mode read every running run's Job every 5 s (a GET per run per tick); now the watched
    version stands in while fresh, and a finished one for good."""
    kube = FakeKube()
    rt = Runtime(config=CONFIG, kube=cast(Kube, kube))
    kube.jobs["j"] = {"metadata": {"name": "j", "uid": "u"}, "status": {}}
    watched = {"metadata": {"name": "j", "uid": "u"}, "status": {}}
    rt.jobs[("agents", "j")] = (time.monotonic(), watched)
    assert await current_job(rt, "agents", "j") is watched and kube.calls == []
    rt.jobs[("agents", "j")] = (time.monotonic() - JOB_FRESH_SECONDS - 1, watched)
    assert await current_job(rt, "agents", "j") == kube.jobs["j"] and kube.calls == ["get_job"]
    done = {"metadata": {"name": "j"}, "status": {"conditions": [{"type": "Complete", "status": "True"}]}}
    rt.jobs[("agents", "j")] = (0.0, done)  # however old: a finished Job does not change back
    assert await current_job(rt, "agents", "j") is done and kube.calls == ["get_job"]
    del kube.jobs["j"]
    rt.jobs[("agents", "j")] = (0.0, watched)  # stale, and gone meanwhile: read, and forgotten
    assert await current_job(rt, "agents", "j") is None and ("agents", "j") not in rt.jobs
