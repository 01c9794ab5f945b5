"""Run a whole unit of store work on the connection's own thread, in one trip.

Every ``await`` on the store is a trip to aiosqlite's worker thread and back (a queue put, a
wake-up, a GIL hand-over, a loop callback): an extraction made fifteen of them, and on a busy
machine each one waits for the worker thread to be scheduled, so the trips, not SQLite, made
much of an extraction's time and most of its spread. :func:`in_one_trip` runs the same
coroutine on the worker thread instead: the store it is given is a copy whose connection runs
each statement at once (:class:`DirectConnection`), so the coroutine never suspends and finishes
in a single step. The store's methods are the same code either way: no statement is written twice.

The work must await only the store it is given (anything else that suspends is refused with an
error, after its transaction is rolled back); it holds the worker thread while it runs, as its
statements did one by one.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, TypeVar, cast

from osmia.memory.store.base import StoreBase

S = TypeVar("S", bound=StoreBase)
T = TypeVar("T")


class DirectConnection:
    """The part of ``aiosqlite.Connection`` the store uses, run at once on the calling thread."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._conn = db  # the name aiosqlite uses: :meth:`StoreBase.read` reaches it the same way

    async def _execute(self, fn: Callable[[], T]) -> T:
        return fn()

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> sqlite3.Cursor:
        """One statement; the cursor's ``rowcount`` is read as aiosqlite's is."""
        return self._conn.execute(sql, parameters)

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """One statement's rows."""
        return self._conn.execute(sql, parameters).fetchall()

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        """One statement for many parameter rows."""
        return self._conn.executemany(sql, parameters)

    @property
    def total_changes(self) -> int:
        """Rows changed since the connection opened."""
        return self._conn.total_changes

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""
        return self._conn.in_transaction


async def in_one_trip(store: S, work: Callable[[S], Coroutine[Any, Any, T]]) -> T:
    """Run ``work(store)`` on ``store``'s connection thread in one trip, and return its result.

    ``work`` receives a copy of ``store`` whose statements run at once; it must await nothing
    else (a ``RuntimeError`` names the misuse). Its exceptions reach the caller unchanged.
    """
    conn = store._conn

    def run() -> T:
        direct = copy.copy(store)
        direct._conn = cast(Any, DirectConnection(conn._conn))
        # Its reads stay on this connection, inside the work's transaction (they must see its
        # writes): never the calling thread's read-only reader (:meth:`StoreBase.read`).
        direct._reader_source = None
        direct._reader = None
        step = work(direct)
        try:
            step.send(None)
        except StopIteration as done:
            return cast(T, done.value)
        step.close()  # unwinds it: a transaction it opened rolls back (its statements run at once)
        raise RuntimeError("work run in one trip awaited something other than its store")

    result: T = await conn._execute(run)  # type: ignore[no-untyped-call]
    return result
