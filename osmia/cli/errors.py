"""Exit codes and the two kinds of error a verb may raise: bad input (2) and failure (1)."""

from __future__ import annotations

import sqlite3
import sys

from osmia.config import ConfigError
from osmia.documents import DocumentError
from osmia.memory.service import ImportRefused
from osmia.memory.store import StoreError
from osmia.taskrun import TaskRunError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Bad usage or bad input: exit 2."""


class Failure(Exception):
    """The command could not be done: exit 1."""


# Errors that mean "bad usage or input" (2) and "failed" (1); anything else is a bug.
USAGE_ERRORS: tuple[type[Exception], ...] = (
    UsageError,
    ConfigError,
    DocumentError,
    TaskRunError,
    ImportRefused,
)
FAILURES: tuple[type[Exception], ...] = (Failure, StoreError, sqlite3.Error, OSError)


def print_error(message: object) -> None:
    """One line on stderr, prefixed like argparse's own errors."""
    print(f"osmia: error: {message}", file=sys.stderr)
