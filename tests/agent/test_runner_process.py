"""The runner end to end as a process: a local bare remote, a fake engine per adapter, a fake test command.

Every result is checked field by field, in the termination log (≤ 4 KiB) and
in the pod log, together with what reached the remote.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from osmia.result_fit import TERMINATION_LIMIT
from tests.agent.conftest import API_KEY, GIT_TOKEN, TRANSCRIPTS, RunAgent, git
from tests.agent.test_adapters import EXPECTED

BRANCH = re.compile(r"^osmia/proj-7-[0-9a-f]{8}$")


def running(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for a reaper that is not ours has ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.parametrize("engine", sorted(TRANSCRIPTS))
def test_a_successful_run_is_measured_field_by_field(engine: str, run_agent: RunAgent) -> None:
    run = run_agent(engine)
    assert run.code == 0, run.stderr
    result = run.result
    want = EXPECTED[engine]
    assert result["success"] is True
    assert "failureReason" not in result
    assert result["exitCode"] == 0
    assert result["filesChanged"] == ["calc.py"]  # not the learnings file, not the JUnit report
    assert "testsFailed" not in result
    assert result["flakyTests"] == ["test_flaky"]
    assert result["tokenUsage"] == want["tokens"]
    if want["cost"] is None:
        assert "costEstimateUSD" not in result
    else:
        assert result["costEstimateUSD"] == pytest.approx(want["cost"], abs=1e-4)
    assert result["toolCalls"] == want["tool_calls"]
    summary = result["summary"].replace("`", "'") if engine == "aider" else result["summary"]
    assert summary == want["summary"]
    assert 0 < result["durationSeconds"] < 120
    assert result["learnings"] == [
        "Run 'python -m pytest -q' from the repository root; tests import calc directly.",
        "add() had its operator flipped; check the sign first.",
        "The API key is [redacted] do not share.",
    ]
    assert BRANCH.match(result["branchName"])
    # What was pushed: the run's branch only, one commit on top of main, changing calc.py only.
    assert sorted(run.remote_branches()) == sorted(["main", result["branchName"]])
    changed = git("diff", "--name-only", "main", result["branchName"], cwd=run.remote).split()
    assert changed == ["calc.py"]
    assert "a + b" in git("show", f"{result['branchName']}:calc.py", cwd=run.remote)
    # The termination log is the same result (it fits whole here), compact and under the limit.
    assert run.fitted == result
    assert len(run.termination.encode()) <= TERMINATION_LIMIT
    # The engine got the prompt the way its adapter says, the model, and never the git token.
    record = run.record
    prompt_in_argv = any("Fix add() in calc.py" in a for a in record["argv"])
    prompt_on_stdin = "Fix add() in calc.py" in record["stdin"]
    assert prompt_in_argv or prompt_on_stdin or "--message-file" in record["argv"]
    assert "test-model" in record["argv"]
    assert record["git_token_visible"] is False
    # Secrets never reach the pod log; the engine's output does (streamed).
    assert API_KEY not in run.stdout + run.stderr and GIT_TOKEN not in run.stdout + run.stderr
    assert f"[{engine}] " in run.stdout


def test_a_change_that_deletes_tests_is_blocked_and_not_pushed(run_agent: RunAgent) -> None:
    run = run_agent(FAKE_ACTION="delete-test")
    assert run.code == 1
    assert run.result["success"] is False
    assert run.result["failureReason"] == "guard-rail block: deleted tests tests/test_calc.py"
    assert "branchName" not in run.result
    assert run.remote_branches() == ["main"]
    assert sorted(run.result["filesChanged"]) == ["calc.py", "tests/test_calc.py"]


def test_a_change_that_adds_a_skip_marker_is_blocked(run_agent: RunAgent) -> None:
    run = run_agent(FAKE_ACTION="skip-test")
    assert run.code == 1
    assert run.result["failureReason"] == "guard-rail block: added skip markers at tests/test_calc.py:4"
    assert run.remote_branches() == ["main"]


def test_a_protected_branch_is_never_pushed(run_agent: RunAgent) -> None:
    run = run_agent(OSMIA_PROTECTED_BRANCHES="main,osmia/*")
    assert run.code == 1
    assert run.result["failureReason"].startswith(
        "guard-rail block: refused to push to protected branch osmia/"
    )
    assert run.remote_branches() == ["main"]


def test_failing_tests_are_read_from_junit(run_agent: RunAgent) -> None:
    run = run_agent(FAKE_ACTION="wrong-fix")
    assert run.code == 1
    assert run.result["success"] is False
    assert run.result["testsFailed"] == ["test_add"]
    assert run.result["failureReason"] == "tests failed: test_add"
    # Work is still pushed for people to look at; only a guard-rail block keeps it back.
    assert BRANCH.match(run.result["branchName"])


def test_the_deadline_stops_the_engine_and_everything_it_started(run_agent: RunAgent, tmp_path) -> None:
    child_pid = tmp_path / "child.pid"
    start = time.monotonic()
    run = run_agent(FAKE_ACTION="sleep", OSMIA_ENGINE_TIMEOUT_SECONDS="2", FAKE_CHILD_PID=str(child_pid))
    assert time.monotonic() - start < 60
    assert run.code == 1
    assert run.result["success"] is False
    assert run.result["failureReason"] == "timed out: the engine ran past its deadline of 2 s"
    assert run.result["exitCode"] == 128 + 15  # SIGTERM
    assert not running(int(child_pid.read_text()))
    # What the engine had done by then is measured, and tests were not run against half-done work.
    assert run.result["filesChanged"] == ["calc.py"]
    assert "[tests]" not in run.stdout


@pytest.mark.parametrize(
    ("engine", "lines", "reason"),
    [
        (
            "codex",
            '{"type":"turn.started"}\n'
            '{"type":"turn.failed","error":{"message":"stream error: 429 Too Many Requests"}}',
            "engine error: rate limit (stream error: 429 Too Many Requests)",
        ),
        (
            "claude-code",
            '{"type":"result","subtype":"success","is_error":true,'
            '"result":"Invalid API key · Please run /login"}',
            "engine error: authentication (Invalid API key · Please run /login)",
        ),
        (
            "opencode",
            '{"type":"error","error":{"name":"APIError",'
            '"data":{"message":"prompt is too long: 210000 tokens"}}}',
            "engine error: context overflow (prompt is too long: 210000 tokens)",
        ),
    ],
)
def test_an_engine_error_is_classified(engine: str, lines: str, reason: str, run_agent: RunAgent) -> None:
    run = run_agent(engine, FAKE_ACTION="none", FAKE_LINES=lines, FAKE_EXIT="1")
    assert run.code == 1
    assert run.result["success"] is False
    assert run.result["failureReason"] == reason
    assert run.result["exitCode"] == 1


def test_an_oversized_result_is_fitted_into_the_termination_log(run_agent: RunAgent) -> None:
    run = run_agent(FAKE_ACTION="huge")
    assert run.code == 0
    full = run.result
    assert len(full["filesChanged"]) == 151  # the whole result is in the pod log
    fitted = run.fitted
    assert len(run.termination.encode()) <= TERMINATION_LIMIT
    # The most important fields survive whole; long lists are shortened, not dropped,
    # and hold only real paths.
    for key in (
        "success",
        "exitCode",
        "branchName",
        "flakyTests",
        "tokenUsage",
        "costEstimateUSD",
        "durationSeconds",
    ):
        assert fitted[key] == full[key], key
    assert 0 < len(fitted["filesChanged"]) < len(full["filesChanged"])
    assert set(fitted["filesChanged"]) <= set(full["filesChanged"])


def test_a_misconfigured_runner_exits_2_and_still_reports(run_agent: RunAgent) -> None:
    run = run_agent(OSMIA_ENGINE="no-such-engine")
    assert run.code == 2
    assert run.result["success"] is False
    assert run.result["failureReason"].startswith("runner misconfigured: unknown engine 'no-such-engine'")
    assert run.fitted == run.result


def test_an_unreachable_repository_is_a_workspace_failure(run_agent: RunAgent, tmp_path) -> None:
    run = run_agent(OSMIA_REPOSITORY_URL=f"file://{tmp_path}/missing.git")
    assert run.code == 1
    assert run.result["failureReason"].startswith("workspace: git clone failed")
    assert run.record == {}  # the engine never ran


def test_an_engine_that_rewrites_git_config_runs_nothing_and_redirects_nothing(
    run_agent: RunAgent, tmp_path
) -> None:
    marker = tmp_path / "hook-ran"
    evil = tmp_path / "evil.git"
    git("init", "--quiet", "--bare", str(evil), cwd=tmp_path)
    # The stand-in engine appends this to the checkout's .git/config before editing.
    config = (
        f'[core]\n\tfsmonitor = "touch {marker}; false"\n\thooksPath = /tmp\n'
        f'[remote "origin"]\n\tpushurl = file://{evil}\n'
        f'[credential]\n\thelper = "!touch {marker}"\n'
    )
    run = run_agent(FAKE_GIT_CONFIG=config)
    assert run.code == 0, run.stderr
    assert not marker.exists()
    assert BRANCH.match(run.result["branchName"])
    assert run.result["branchName"] in run.remote_branches()
    assert git("for-each-ref", cwd=evil).strip() == ""  # nothing went to the engine's remote


def test_an_engine_that_replaces_git_is_a_guard_rail_block(run_agent: RunAgent) -> None:
    run = run_agent(FAKE_ACTION="replace-git")
    assert run.code == 1
    assert run.result["failureReason"] == "guard-rail block: the engine replaced the repository's .git"
    assert run.remote_branches() == ["main"]


def test_container_args_meant_for_an_engine_are_refused_with_a_result(tmp_path: Path) -> None:
    import subprocess
    import sys

    termination = tmp_path / "termination-log"
    done = subprocess.run(
        [sys.executable, "-m", "osmia.agent", "--prompt-file", "/osmia/prompt/prompt.md"],
        env={**os.environ, "OSMIA_TERMINATION_LOG": str(termination)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    reason = json.loads(termination.read_text())["failureReason"]
    assert reason.startswith(
        "runner misconfigured: unexpected arguments '--prompt-file /osmia/prompt/prompt.md'"
    )


def test_sigterm_stops_the_engine_and_still_reports_what_was_measured(
    tmp_path: Path, run_agent: RunAgent
) -> None:
    import signal
    import subprocess
    import sys

    from tests.agent.conftest import FIXTURES, HERE, PROMPT

    # Start the runner by hand (run_agent waits for the end), stop it like the kubelet does.
    fake_bin = next(tmp_path.glob("bin"), None)
    assert fake_bin is not None
    remote = tmp_path / "remote.git"
    prompt = tmp_path / "prompt.md"
    prompt.write_text(PROMPT.format(engine="claude-code"))
    termination = tmp_path / "termination-log"
    env = {
        "PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "OSMIA_PROMPT_FILE": str(prompt),
        "OSMIA_ENGINE": "claude-code",
        "OSMIA_TICKET_ID": "PROJ-7",
        "OSMIA_REPOSITORY_URL": f"file://{remote}",
        "OSMIA_WORKSPACE": str(tmp_path / "ws"),
        "OSMIA_TERMINATION_LOG": str(termination),
        "FAKE_TRANSCRIPT": str(FIXTURES / "claude-code.jsonl"),
        "FAKE_ACTION": "sleep",
        "FAKE_CHILD_PID": str(tmp_path / "child.pid"),
        "PYTHONPATH": str(HERE.parents[1]),
    }
    runner = subprocess.Popen(
        [sys.executable, "-m", "osmia.agent"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (tmp_path / "child.pid").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    runner.send_signal(signal.SIGTERM)
    start = time.monotonic()
    out, _err = runner.communicate(timeout=60)
    assert time.monotonic() - start < 20  # well inside the kubelet's 30 s grace
    assert runner.returncode == 1
    result = json.loads(termination.read_text())
    assert result["failureReason"].startswith("timed out: the pod was stopped (SIGTERM")
    assert result["filesChanged"] == ["calc.py"] and result["tokenUsage"] > 0
    assert "[tests]" not in out and "branchName" not in result
    assert not running(int((tmp_path / "child.pid").read_text()))


def test_an_engine_that_commits_its_learnings_file_does_not_push_it(run_agent: RunAgent) -> None:
    run = run_agent(FAKE_ACTION="commit-everything")
    assert run.code == 0, run.stderr
    assert run.result["filesChanged"] == ["calc.py"]
    assert len(run.result["learnings"]) == 3
    pushed = git("ls-tree", "-r", "--name-only", run.result["branchName"], cwd=run.remote).split()
    assert ".osmia/learnings.md" not in pushed and "calc.py" in pushed
