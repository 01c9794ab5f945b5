"""Run a child process with a deadline, streaming its output to the pod log line by line.

The child gets its own process group, so a deadline ends the whole tree
(engines start shells, language servers, test runners): ``SIGTERM`` to the
group, then ``SIGKILL`` after a grace period. Both output streams are read
by threads, each line redacted before it reaches the log, bounded in length,
and handed to a callback (the engine adapter's parser).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from osmia.agent.redact import Redactor

MAX_LINE = 1024 * 1024
"""A longer line is cut (engines print whole files on one JSON line; a megabyte is plenty)."""
GRACE_SECONDS = 10.0
STOP_GRACE_SECONDS = 5.0
"""Grace for the engine when the pod itself is being stopped (the kubelet's own grace is 30 s)."""
TAIL_LINES = 60
POLL_SECONDS = 0.2

STOP = threading.Event()
"""Set by :func:`request_stop` (the runner's SIGTERM handler): end the child now and report."""


def request_stop() -> None:
    """Ask the running child (and every later one) to stop; safe to call from a signal handler."""
    STOP.set()


@dataclass
class Finished:
    """How a child process ended."""

    exit_code: int
    """The exit status; 128 + n when killed by signal n (as a shell reports it)."""
    timed_out: bool
    seconds: float
    stopped: bool = False
    """Ended because the runner itself was asked to stop (SIGTERM)."""
    stderr_tail: list[str] = field(default_factory=list)
    stdout_tail: list[str] = field(default_factory=list)
    start_error: str = ""
    """Set when the process could not be started (missing executable, …)."""


def _pump(
    stream: IO[bytes],
    sink: IO[str],
    prefix: str,
    redactor: Redactor,
    on_line: Callable[[str], None] | None,
    tail: deque[str],
    lock: threading.Lock,
) -> None:
    while True:
        raw = stream.readline(MAX_LINE)
        if not raw:
            break
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if len(raw) >= MAX_LINE and not raw.endswith(b"\n"):
            # Drop the rest of an over-long line rather than parse its tail as a line of its own.
            while (more := stream.readline(MAX_LINE)) and not more.endswith(b"\n"):
                pass
        shown = redactor.redact(line)
        tail.append(shown)
        with lock:
            sink.write(f"{prefix}{shown}\n")
            sink.flush()
        if on_line is not None:
            try:
                on_line(line)
            except Exception as exc:  # a parser bug must not stop the stream (and the engine with it)
                with lock:
                    sink.write(f"{prefix}[osmia-agent: parser error {type(exc).__name__}, line skipped]\n")


def run_streaming(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    redactor: Redactor,
    stdin_text: str | None = None,
    on_stdout: Callable[[str], None] | None = None,
    on_stderr: Callable[[str], None] | None = None,
    prefix: str = "",
    sink: IO[str] | None = None,
) -> Finished:
    """Run ``argv``; stream, parse and bound its output; stop it at ``timeout`` seconds."""
    sink = sink or sys.stdout
    start = time.monotonic()
    try:
        child = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return Finished(127, False, 0.0, start_error=f"cannot start {argv[0]}: {exc.strerror or exc}")
    lock = threading.Lock()
    out_tail: deque[str] = deque(maxlen=TAIL_LINES)
    err_tail: deque[str] = deque(maxlen=TAIL_LINES)
    assert child.stdout is not None and child.stderr is not None
    pumps = [
        threading.Thread(
            target=_pump, args=(child.stdout, sink, prefix, redactor, on_stdout, out_tail, lock), daemon=True
        ),
        threading.Thread(
            target=_pump, args=(child.stderr, sink, prefix, redactor, on_stderr, err_tail, lock), daemon=True
        ),
    ]
    for pump in pumps:
        pump.start()
    if stdin_text is not None and child.stdin is not None:
        threading.Thread(target=_feed_stdin, args=(child.stdin, stdin_text), daemon=True).start()
    timed_out = stopped = False
    deadline = start + timeout
    while True:
        try:
            child.wait(timeout=max(min(POLL_SECONDS, deadline - time.monotonic()), 0))
        except subprocess.TimeoutExpired:
            if STOP.is_set():
                stopped = True
                _stop_group(child, STOP_GRACE_SECONDS)
                break
            if time.monotonic() >= deadline:
                timed_out = True
                _stop_group(child, GRACE_SECONDS)
                break
            continue
        _kill_leftovers(child)
        break
    for pump in pumps:
        pump.join(timeout=STOP_GRACE_SECONDS if stopped else GRACE_SECONDS)
    code = child.returncode if child.returncode is not None else -signal.SIGKILL
    exit_code = 128 - code if code < 0 else code
    return Finished(
        exit_code=exit_code,
        timed_out=timed_out,
        stopped=stopped,
        seconds=time.monotonic() - start,
        stderr_tail=list(err_tail),
        stdout_tail=list(out_tail),
    )


def _feed_stdin(stdin: IO[bytes], text: str) -> None:
    try:
        stdin.write(text.encode())
        stdin.close()
    except (BrokenPipeError, OSError):  # the child does not read its input; that is its business
        pass


def _kill_leftovers(child: subprocess.Popen[bytes]) -> None:
    """Processes the child left running in its group (servers, watchers) end with it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)


def _stop_group(child: subprocess.Popen[bytes], grace: float) -> None:
    """SIGTERM the child's process group, SIGKILL it after ``grace`` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, grace)):
        try:
            os.killpg(child.pid, sig)
        except ProcessLookupError:
            return
        try:
            child.wait(timeout=wait)
            # The leader is gone; make sure nothing else of the group survives.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
            return
        except subprocess.TimeoutExpired:
            continue
