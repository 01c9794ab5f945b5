"""One run of one engine, start to finish: workspace, engine, measurement, guard rails, push, result.

:func:`run` is the whole procedure (``osmia agent`` calls it); each step
lives in its own module. The result is measured by the runner, not taken
from what the agent says about itself: git says what changed, JUnit reports
say what failed, the engine's machine-readable output says what it cost.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from osmia.agent import failure
from osmia.agent.adapters import EngineAdapter, EngineReport
from osmia.agent.credentials import engine_environment
from osmia.agent.guardrails import GuardRailReport, check_change, is_protected
from osmia.agent.junit import TestOutcome, find_reports, read_reports
from osmia.agent.learnings import read_learnings
from osmia.agent.process import STOP, Finished, run_streaming
from osmia.agent.redact import Redactor
from osmia.agent.settings import RunnerSettings
from osmia.agent.workspace import Change, Git, GitError, branch_name

MAX_PROMPT_ARGUMENT = 120_000
"""Linux caps one argument at 128 KiB; a longer prompt cannot go on the command line."""
SUMMARY_CHARS = 4000
TEST_TIMEOUT_SECONDS = 900.0


@dataclass
class Measured:
    """Everything the runner observed, before it becomes the result."""

    engine: Finished | None = None
    report: EngineReport = field(default_factory=EngineReport)
    tests: TestOutcome = field(default_factory=TestOutcome)
    test_command: Finished | None = None
    change: Change | None = None
    guard: GuardRailReport = field(default_factory=GuardRailReport)
    learnings: list[str] = field(default_factory=list)
    branch: str = ""
    pushed: bool = False
    push_error: str = ""
    setup_error: str = ""


class Runner:
    """Runs the steps for one engine attempt and builds its result."""

    def __init__(
        self,
        settings: RunnerSettings,
        adapter: EngineAdapter,
        *,
        git: Git,
        redactor: Redactor,
        env: Mapping[str, str],
        out: IO[str] | None = None,
        err: IO[str] | None = None,
    ) -> None:
        self.settings = settings
        self.adapter = adapter
        self.git = git
        self.redactor = redactor
        self.env = env
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.measured = Measured()
        self.started = time.time()
        self._clock = time.monotonic()

    def log(self, message: str) -> None:
        """A line of the runner's own in the pod log (redacted)."""
        self.err.write(f"osmia-agent: {self.redactor.redact(message)}\n")
        self.err.flush()

    @property
    def repo(self) -> Path:
        """The checkout the engine works in."""
        return self.git.directory

    def prepare(self) -> str:
        """Clone (or start an empty repository), create the run's branch; returns the base commit."""
        s = self.settings
        if s.repository_url:
            self.git.clone(s.repository_url, s.base_ref)
        else:
            self.git.init_empty()
        base = self.git.head()
        self.git.snapshot_config()
        self.measured.branch = branch_name(s.ticket_slug, s.taskrun, s.engine, base)
        self.git.create_branch(self.measured.branch)
        self.log(f"workspace {self.repo} at {base[:12]}, branch {self.measured.branch}")
        return base

    def run_engine(self, prompt: str) -> None:
        """Start the engine through its adapter with the deadline, parsing its output as it streams."""
        s, adapter = self.settings, self.adapter
        argv = adapter.command(
            prompt, model=s.model, extra_args=s.engine_args, prompt_file=str(s.prompt_file)
        )
        report = adapter.new_report()
        self.measured.report = report
        if adapter.prompt_mode == "argument" and len(prompt.encode()) > MAX_PROMPT_ARGUMENT:
            self.measured.engine = Finished(
                2, False, 0.0, start_error=f"the prompt is longer than {MAX_PROMPT_ARGUMENT} bytes"
            )
            return
        shown = [a if a != prompt else "<prompt>" for a in argv]
        self.log(f"engine {s.engine}: {' '.join(shown)} (deadline {s.timeout_seconds:.0f} s)")
        self.measured.engine = run_streaming(
            argv,
            cwd=self.repo,
            env=engine_environment(self.env, adapter.env(self.env)),
            timeout=s.timeout_seconds,
            redactor=self.redactor,
            stdin_text=prompt if adapter.prompt_mode == "stdin" else None,
            on_stdout=lambda line: adapter.feed(line, report),
            on_stderr=lambda line: adapter.feed_stderr(line, report),
            prefix=f"[{s.engine}] ",
            sink=self.out,
        )
        try:
            adapter.finish(report)
        except Exception as exc:  # a parser bug costs the figures, never the run
            self.log(f"parser of {s.engine} failed at the end: {type(exc).__name__}")
        self.log(
            f"engine exited {self.measured.engine.exit_code} after {self.measured.engine.seconds:.1f} s"
            f"{' (deadline reached)' if self.measured.engine.timed_out else ''}; "
            f"{report.events} events read, {report.ignored} lines ignored"
        )

    def read_learnings(self) -> None:
        """The agent's lessons, if it wrote the file inside the checkout."""
        path = self.repo / self.settings.learnings_file
        try:
            path.parent.resolve().relative_to(self.repo.resolve())
        except (ValueError, OSError):
            self.log("learnings file is outside the workspace; ignored")
            return
        self.measured.learnings = read_learnings(path, self.redactor)

    def run_tests(self) -> None:
        """The configured test command (if any), then every JUnit report written during the run."""
        s = self.settings
        engine = self.measured.engine
        usable = engine is not None and not (engine.timed_out or engine.start_error or engine.stopped)
        if s.test_command and usable and not STOP.is_set():
            self.log(f"tests: {s.test_command}")
            self.measured.test_command = run_streaming(
                ["sh", "-c", s.test_command],
                cwd=self.repo,
                env=engine_environment(self.env, {}),
                timeout=TEST_TIMEOUT_SECONDS,
                redactor=self.redactor,
                prefix="[tests] ",
                sink=self.out,
            )
        reports = find_reports(self.repo, s.junit_globs, since=self.started - 1)
        self.measured.tests = read_reports(reports, self.repo)
        if reports:
            t = self.measured.tests
            counts = f"{t.total} tests, {len(t.failed)} failed, {len(t.flaky)} flaky"
            self.log(f"{len(t.reports)} JUnit reports: {counts}")

    def record_change(self, base: str) -> None:
        """Commit the work on the run's branch and measure it against the base commit."""
        s = self.settings
        tampered = self.git.restore_config()
        if tampered:
            self.measured.guard.tampered = tampered
            self.log(self.measured.guard.reason())
            return
        reports = [str(self.repo / r) for r in self.measured.tests.reports + self.measured.tests.broken]
        untracked_reports = self.git.untracked_or_ignored(
            [str(Path(r).relative_to(self.repo)) for r in reports]
        )
        subject = f"{s.ticket_id}: {s.engine} run" + (f" ({s.taskrun})" if s.taskrun else "")
        self.git.commit_all(subject, exclude=[s.learnings_file, *untracked_reports])
        self.git.drop_from_commit(s.learnings_file, base)
        change = self.git.change_since(base)
        self.measured.change = change
        self.measured.guard = check_change(change.name_status, change.diff_lines)
        if is_protected(self.measured.branch, s.protected_branches):
            self.measured.guard.protected_branch = self.measured.branch
        self.log(
            f"{len(change.files)} files changed"
            + (f"; {self.measured.guard.reason()}" if self.measured.guard.blocked else "")
        )

    def push(self) -> None:
        """Push the run's branch, only it, when there is something to push and nothing blocks it."""
        s, m = self.settings, self.measured
        if not s.push or m.change is None or not m.change.files or m.guard.blocked or STOP.is_set():
            return
        remote = s.push_remote or ("origin" if "origin" in self.git.remotes() else "")
        if not remote:
            return
        try:
            self.git.push(remote, m.branch)
            m.pushed = True
            self.log(f"pushed {m.branch}")
        except GitError as exc:
            m.push_error = str(exc)
            self.log(m.push_error)

    def result(self) -> dict[str, Any]:
        """``status.result`` from what was measured (redacted)."""
        m = self.measured
        report = m.report
        reason = self._failure_reason()
        result: dict[str, Any] = {"success": not reason}
        if reason:
            result["failureReason"] = reason
        # The engine's final message; without one, its own error words (never raw output lines).
        summary = report.summary or report.error
        if summary.strip():
            result["summary"] = summary.strip()[:SUMMARY_CHARS]
        if m.engine is not None:
            result["exitCode"] = m.engine.exit_code
        if m.pushed:
            result["branchName"] = m.branch
        if m.change is not None:
            result["filesChanged"] = m.change.files
        if m.tests.failed:
            result["testsFailed"] = m.tests.failed
        if m.tests.flaky:
            result["flakyTests"] = m.tests.flaky
        result["durationSeconds"] = round(time.monotonic() - self._clock, 1)
        tokens = report.tokens()
        if tokens is not None:
            result["tokenUsage"] = tokens
        cost = report.cost_usd if report.cost_usd is not None else self._estimated_cost(report)
        if cost is not None:
            result["costEstimateUSD"] = round(cost, 4)
        if report.tool_calls:
            result["toolCalls"] = dict(sorted(report.tool_calls.items()))
        if m.learnings:
            result["learnings"] = m.learnings
        redacted: dict[str, Any] = self.redactor.redact_value(result)
        return redacted

    def _estimated_cost(self, report: EngineReport) -> float | None:
        s = self.settings
        if s.price_input_per_mtok is None or s.price_output_per_mtok is None or report.tokens() is None:
            return None
        return (
            (report.input_tokens or 0) * s.price_input_per_mtok
            + (report.output_tokens or 0) * s.price_output_per_mtok
        ) / 1e6

    def _failure_reason(self) -> str:
        """The one classified reason this run failed, or "" (order: the cause that explains the most)."""
        m = self.measured
        if m.setup_error:
            return m.setup_error
        engine, report = m.engine, m.report
        if engine is None:
            return "the engine did not run"
        if engine.start_error:
            return f"{failure.ENGINE_OTHER}: {engine.start_error}"
        if engine.timed_out:
            return f"timed out: the engine ran past its deadline of {self.settings.timeout_seconds:.0f} s"
        if engine.stopped or STOP.is_set():
            return "timed out: the pod was stopped (SIGTERM: the Job's deadline or an eviction)"
        if engine.exit_code == 137 and not report.is_error:
            return "resources: the engine was killed (exit code 137, out of memory?)"
        if m.guard.blocked:
            return m.guard.reason()
        if report.is_error or engine.exit_code != 0:
            text = report.error or " ".join(engine.stderr_tail[-10:]) or f"exit code {engine.exit_code}"
            return failure.engine_error_reason(self.redactor.redact(text))
        tests = self._tests_reason()
        if tests:
            return tests
        if m.push_error:
            return f"push failed: {m.push_error}"
        if m.change is not None and not m.change.files and self.settings.repository_url:
            return "no changes: the engine finished without changing any file"
        return ""

    def _tests_reason(self) -> str:
        m = self.measured
        if m.tests.failed:
            return (
                "tests failed: " + ", ".join(m.tests.failed[:5]) + (" …" if len(m.tests.failed) > 5 else "")
            )
        command = m.test_command
        if command is not None and command.timed_out:
            return f"timed out: the test command ran past {TEST_TIMEOUT_SECONDS:.0f} s"
        if m.tests.errors_outside_tests:
            return "build failed: a test suite could not run (error outside any test case)"
        if command is not None and command.exit_code != 0:
            return f"tests failed: the test command exited {command.exit_code}"
        if not m.tests.found and command is None and m.report.last_test_passed is False:
            return f"tests failed: the engine's last test run ({m.report.last_test_command}) failed"
        return ""
