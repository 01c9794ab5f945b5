"""``osmia agent``: the entry point of an engine's Job container.

Exit codes: 0 the run succeeded; 1 it failed (the result says why); 2 the
runner was misconfigured (a missing variable, an unknown engine, an unreadable
prompt). In every case a result is written to the termination log (fitted to
4 KiB) and the whole result is printed as the last line of the pod log,
prefixed ``osmia-agent result:``.
"""

from __future__ import annotations

import argparse
import os
import signal
import stat
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from osmia.agent.adapters import UnknownEngine, adapter_for, known_engines
from osmia.agent.credentials import CredentialError, git_credentials, redactor_for
from osmia.agent.process import request_stop
from osmia.agent.redact import Redactor
from osmia.agent.runner import Runner
from osmia.agent.settings import SettingsError, from_env
from osmia.agent.workspace import Git, GitError
from osmia.termination import dumps, fit_result

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2
MAX_PROMPT_BYTES = 1024 * 1024
RESULT_PREFIX = "osmia-agent result: "


def write_result(result: Mapping[str, Any], termination_log: Path, out: IO[str], err: IO[str]) -> None:
    """The fitted result to the termination log, the whole result to the pod log."""
    fitted = fit_result(result)
    try:
        termination_log.write_text(fitted)
    except OSError as exc:
        err.write(f"osmia-agent: cannot write {termination_log}: {exc.strerror}\n")
    out.write(RESULT_PREFIX + dumps(result) + "\n")
    out.flush()


def _read_prompt(path: Path) -> str:
    try:
        # Only a regular file: a FIFO with no writer would block the agent forever, a device
        # (``/dev/zero``) read without end.
        if not stat.S_ISREG(path.stat().st_mode):
            raise SettingsError(f"OSMIA_PROMPT_FILE: {path} is not a regular file")
        with path.open("rb") as handle:
            data = handle.read(MAX_PROMPT_BYTES + 1)
    except OSError as exc:
        raise SettingsError(f"OSMIA_PROMPT_FILE: cannot read {path} ({exc.strerror})") from None
    if len(data) > MAX_PROMPT_BYTES:
        raise SettingsError(f"OSMIA_PROMPT_FILE: {path} is larger than {MAX_PROMPT_BYTES} bytes")
    prompt = data.decode("utf-8", "replace")
    if not prompt.strip():
        raise SettingsError(f"OSMIA_PROMPT_FILE: {path} is empty")
    return prompt


def run_agent(env: Mapping[str, str], out: IO[str], err: IO[str]) -> int:
    """Everything ``osmia agent`` does, with the environment and streams given (tests call this)."""
    termination_log = Path(env.get("OSMIA_TERMINATION_LOG", "").strip() or "/dev/termination-log")
    try:
        settings = from_env(env)
        adapter = adapter_for(settings.engine)
        prompt = _read_prompt(settings.prompt_file)
        credentials = git_credentials(env)
    except (SettingsError, UnknownEngine, CredentialError) as exc:
        err.write(f"osmia-agent: {exc}\n")
        write_result(
            {"success": False, "failureReason": f"runner misconfigured: {exc}"}, termination_log, out, err
        )
        return EXIT_CONFIG
    redactor: Redactor = redactor_for(env, credentials)
    git = Git(
        settings.workspace / "repo",
        credentials=credentials,
        redactor=redactor,
        scratch=settings.workspace / ".osmia-runner",
        author=settings.git_author,
        log=lambda message: print(f"osmia-agent: {redactor.redact(message)}", file=err, flush=True),
    )
    runner = Runner(settings, adapter, git=git, redactor=redactor, env=env, out=out, err=err)
    try:
        base = runner.prepare()
    except (GitError, OSError) as exc:
        runner.measured.setup_error = f"workspace: {redactor.redact(str(exc))}"
        runner.log(runner.measured.setup_error)
    else:
        runner.run_engine(prompt)
        runner.read_learnings()
        runner.run_tests()
        try:
            runner.record_change(base)
            runner.push()
        except (GitError, OSError) as exc:
            runner.measured.setup_error = f"workspace: {redactor.redact(str(exc))}"
            runner.log(runner.measured.setup_error)
    result = runner.result()
    write_result(result, settings.termination_log, out, err)
    return EXIT_OK if result["success"] else EXIT_FAILED


def build_parser() -> argparse.ArgumentParser:
    """``osmia agent``: no options; everything comes from the environment (docs/engines.md)."""
    return argparse.ArgumentParser(
        prog="osmia agent",
        description="Run one engine attempt inside an Osmia Job and report a measured result. "
        "Configured by environment variables (docs/engines.md). Engines: " + ", ".join(known_engines()) + ". "
        "Exit codes: 0 succeeded, 1 failed, 2 misconfigured.",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point (``osmia agent`` and ``osmia-agent``)."""
    _args, extra = build_parser().parse_known_args(argv)
    if extra:
        # Container args from an old engine entry: say so where the operator reads it, then stop.
        message = (
            f"unexpected arguments {' '.join(extra)!r}: the runner takes none "
            "(engine arguments go in engines.<name>.engine_args, docs/engines.md)"
        )
        print(f"osmia-agent: {message}", file=sys.stderr)
        termination = Path(os.environ.get("OSMIA_TERMINATION_LOG", "").strip() or "/dev/termination-log")
        failure = {"success": False, "failureReason": f"runner misconfigured: {message}"}
        write_result(failure, termination, sys.stdout, sys.stderr)
        return EXIT_CONFIG
    for sig in (signal.SIGTERM, signal.SIGINT):
        # The kubelet sends SIGTERM at the Job's deadline: stop the engine, then measure and report.
        signal.signal(sig, lambda _signum, _frame: request_stop())
    return run_agent(os.environ, sys.stdout, sys.stderr)
