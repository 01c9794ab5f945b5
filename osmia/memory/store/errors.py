"""What goes wrong with a database file, said so that the reader knows what to do."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path


class StoreError(RuntimeError):
    """The database cannot be used; the message names the file and what to do."""


def explain_sqlite_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """Turn a raw SQLite error into a :class:`StoreError` that says what to do."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        hint = (
            "another process holds a write lock; stop it or retry later (what was being written "
            "was not; anything reported done before this is kept)"
        )
    elif "readonly" in text or "read-only" in text:
        hint = "the file or its folder is read-only; make both writable or choose another store_path"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        hint = (
            "the file is not a valid SQLite database or is corrupt; move it aside and restore a backup "
            "with `osmia memory import` (Osmia never overwrites it)"
        )
    elif "disk" in text and "full" in text:
        hint = (
            "the disk is full; free space and retry (the last transaction was rolled back; anything "
            "reported done before this is kept)"
        )
    else:
        hint = "SQLite could not use the file; check its and its folder's permissions, and that it is one"
    return StoreError(f"memory database {path}: {exc} — {hint}")


def first_line(text: str) -> str:
    return text.splitlines()[0] if text else text


def check_regular_file(path: Path) -> None:
    """A FIFO, socket or device is refused before SQLite opens it (opening a FIFO blocks)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"memory database {path}: cannot read: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(mode):
        raise StoreError(f"memory database {path}: is a directory, not a database file")
    if not stat.S_ISREG(mode):
        raise StoreError(f"memory database {path}: not a regular file (a pipe, socket or device)")
    if not os.access(path, os.R_OK):
        # Checked here: SQLite's open would fail with "unable to open database file", and
        # aiosqlite's thread, left running after a failed connect, then crashes at exit.
        raise StoreError(
            f"memory database {path}: cannot read: permission denied for this user (the file was not changed)"
        )


def check_writable(path: Path, exists: bool) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    if exists and not os.access(path, os.W_OK):
        raise StoreError(
            f"memory database {path}: the file is read-only; make it writable or choose another "
            "store_path (the file was not changed)"
        )
    if folder.exists() and not os.access(folder, os.W_OK):
        raise StoreError(
            f"memory database {path}: the folder {folder} is read-only; SQLite needs to write its WAL "
            "files beside the database, so make the folder writable or choose another store_path"
        )
