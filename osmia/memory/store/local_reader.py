"""A read-only connection used on the event loop's own thread: a ranking without a thread hop.

The store's connection lives on aiosqlite's worker thread. A ranking sent there in one trip
(:meth:`~osmia.memory.store.base.StoreBase.read`) still crossed threads twice: the worker woke to
run it, and the event loop woke to take the answer; on a VM with two vCPUs those wake-ups cost
from tens of microseconds to several milliseconds (most likely waking a halted vCPU), whatever the
work: the same 300 tickets ranked three ways in one process, passes alternated (docs/performance.md
§21), had a p99 of 6.7-11.3 ms through ``Memory.context``, 6.3-7.9 ms through one trip to the
worker, and 4.6-5.5 ms on the calling thread, p50 0.3-0.6 ms lower.

So a ranking runs where it is awaited, over a second connection that can only read: ``mode=ro``
and ``query_only``, in WAL mode beside the writer (a reader never blocks it, nor it a reader).
Each piece of work is one read transaction, so its statements see one point in time, as they did
on the writer's connection between transactions.

Never blocked for long: SQLite would wait up to ``busy_timeout`` for a lock, and here that wait
would stall the event loop. A WAL reader meets a lock only in rare moments (another process
recovering the log after a crash); the reader waits at most :data:`LOOP_BUSY_MS`, then
:class:`Busy` sends the work to the worker thread, which waits the full timeout as before.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import TypeVar

T = TypeVar("T")

# The longest the event loop's thread waits for a lock before the work goes to the worker thread.
LOOP_BUSY_MS = 20


class Busy(Exception):
    """The reader met a lock (``SQLITE_BUSY``): run the work where waiting blocks nothing."""


class LocalReader:
    """A read-only connection owned by the thread that opened it; :meth:`run` runs work there."""

    def __init__(self, uri: str) -> None:
        self.thread = threading.get_ident()
        self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=True)
        try:
            self._db.execute(f"PRAGMA busy_timeout = {LOOP_BUSY_MS}")
            self._db.execute("PRAGMA query_only = ON")
            # No memory map: its pages would count in the process's RSS (+71 MB peak at 100k nodes,
            # +13 MB at 1M, beside the writer's map of then), and a ranking read through the 2 MB
            # page cache was no slower (passes alternated in one process, §21). Since the nineteenth
            # session the writer has no map either (``lifecycle.WRITER_MMAP_BYTES``).
            self._db.execute("PRAGMA mmap_size = 0")
        except BaseException:
            self._db.close()
            raise

    def usable_here(self) -> bool:
        """Whether the calling thread is the one that opened the connection (the only one it serves)."""
        return threading.get_ident() == self.thread

    def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` inside one read transaction; :class:`Busy` (nothing done) when a lock is held."""
        db = self._db
        try:
            db.execute("BEGIN")
            try:
                return work(db)
            finally:
                if db.in_transaction:
                    db.execute("COMMIT")  # a read transaction: ends the snapshot, writes nothing
        except sqlite3.OperationalError as exc:
            if _busy(exc):
                raise Busy(str(exc)) from exc
            raise

    def trace(self, callback: Callable[[str], object] | None) -> None:
        """SQLite's trace callback on this connection (``benchmarks/profile.py`` counts statements)."""
        self._db.set_trace_callback(callback)

    def close(self) -> None:
        """Close the connection (from its own thread; elsewhere the interpreter frees it later)."""
        with suppress(sqlite3.Error):
            self._db.close()


def _busy(exc: sqlite3.OperationalError) -> bool:
    # Errors raised by the sqlite3 module itself (a row's text that is not UTF-8) carry no code.
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
