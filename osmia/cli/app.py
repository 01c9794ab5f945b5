"""The entry point: parse, dispatch to ``run`` or a memory verb, map errors to exit codes."""

from __future__ import annotations

import argparse
import asyncio
import errno
import io
import os
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TextIO, cast

from osmia.cli.dashboard import cmd_serve
from osmia.cli.errors import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    FAILURES,
    USAGE_ERRORS,
    Failure,
    print_error,
)
from osmia.cli.ingest import cmd_ingest
from osmia.cli.maintenance import cmd_decay, cmd_export, cmd_import
from osmia.cli.nodes import cmd_forget, cmd_search, cmd_show, cmd_status
from osmia.cli.parser import build_parser
from osmia.cli.retrieval import cmd_context, cmd_explain
from osmia.cli.run import cmd_run
from osmia.cli.session import Session
from osmia.documents import DocumentError
from osmia.logging import configure_logging

Verb = Callable[[argparse.Namespace, Session], Coroutine[Any, Any, int]]
VERBS: dict[str, Verb] = {
    "ingest": cmd_ingest,
    "context": cmd_context,
    "explain": cmd_explain,
    "status": cmd_status,
    "search": cmd_search,
    "show": cmd_show,
    "export": cmd_export,
    "import": cmd_import,
    "forget": cmd_forget,
    "decay": cmd_decay,
    "serve": cmd_serve,
}
"""Each ``osmia memory`` verb and the coroutine that does it."""


def cmd_memory(args: argparse.Namespace) -> int:
    """Run one memory verb; library log lines (warnings and worse) go to stderr."""
    configure_logging("warning", "console")
    session = Session.from_args(args)
    try:
        return asyncio.run(VERBS[args.verb](args, session))
    except (*USAGE_ERRORS, *FAILURES):
        raise
    except UnicodeDecodeError as exc:
        # SQLite handed back text that is not UTF-8: damaged bytes in a row or in the schema itself
        # (an error message quoting a damaged trigger's SQL cannot even be decoded).
        raise Failure(
            f"{session.settings.store_path}: the database is damaged (bytes that are not UTF-8 at "
            f"{exc.start}: {exc.reason}); move it aside and restore a backup with `osmia memory import` "
            "(Osmia never overwrites it)"
        ) from exc
    except Exception as exc:  # an admin tool's promise is one line, whatever went wrong
        # A row SQLite's checks pass but Osmia cannot read (damaged bytes inside it), or a bug.
        # The operator (``osmia run``) keeps its tracebacks: this is for the memory verbs only.
        raise Failure(
            f"unexpected {type(exc).__name__}: {exc} (a damaged database row, or a bug to report)"
        ) from exc


def _dispatch(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    first = next(iter(sys.argv[1:] if argv is None else argv), "")
    if first.startswith("-") and first.split("=", 1)[0] not in parser._option_string_actions:
        # ``osmia --frob``: argparse would name the missing command, not the option it did not know.
        parser.error(f"unrecognized arguments: {first}")
    args, extra = parser.parse_known_args(argv)
    if args.command == "run":
        return cmd_run(args, extra)
    if args.command == "agent" and not extra:
        from osmia.agent.main import main as agent_main  # the runner: standard library and ground layer only

        return agent_main([])
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return cmd_memory(args)


def _silence_stdout() -> None:
    """The reader went away (``osmia memory search x | head``): drop the rest quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. captured in tests)
        pass


class _Closed:
    """A standard stream the process was started without (``osmia memory export >&-``): using it
    is an error of one line, as writing to a full disk is, not a traceback."""

    def __init__(self, name: str, error: type[Exception]) -> None:
        self._message = f"standard {name} is closed"
        self._error = error
        self.encoding = "utf-8"

    def _fail(self, *_args: object) -> Any:
        if self._error is OSError:
            raise OSError(errno.EBADF, self._message)
        raise self._error(self._message)

    write = read = readline = fileno = _fail

    def flush(self) -> None:
        """Nothing is ever buffered (the interpreter flushes standard output as it exits)."""

    @property
    def buffer(self) -> _Closed:
        return self


def _standard_streams() -> None:
    """Closed streams replaced by :class:`_Closed`; text that a stream's encoding cannot hold
    (``PYTHONIOENCODING=ascii``, a C locale) written escaped instead of raising."""
    if sys.stdin is None:
        sys.stdin = cast(TextIO, _Closed("input", DocumentError))
    if sys.stdout is None:
        sys.stdout = cast(TextIO, _Closed("output", OSError))
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding != "utf8" and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def main(argv: list[str] | None = None) -> int:
    """``osmia`` console script: returns the exit code (0 done, 1 failed, 2 bad usage or input)."""
    parser = build_parser()
    _standard_streams()
    try:
        return _dispatch(parser, argv)
    except BrokenPipeError:  # before FAILURES: it is an OSError too
        _silence_stdout()
        return EXIT_FAILED
    except USAGE_ERRORS as exc:
        print_error(exc)
        return EXIT_USAGE
    except FAILURES as exc:
        print_error(exc)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
