"""Processed TaskRuns: the idempotency record and the running statistics kept beside it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from osmia.memory.store.base import StoreBase
from osmia.memory.store.rows import _RUN_COLUMN_DEFAULTS, RUN_COLUMNS
from osmia.memory.types import RunSummary


class RunQueries(StoreBase):
    """The ``runs`` table and its aggregates (``run_stats``, ``run_durations``, ``run_failures``)."""

    async def run_counts(self, run_key: str) -> tuple[int, int] | None:
        """(nodes, edges) written when this TaskRun was extracted, or ``None`` if it never was."""
        rows = await self._rows("SELECT nodes, edges FROM runs WHERE run_key = ?", (run_key,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def twin_counts(self, run_key: str, ref: str, has_uid: bool) -> tuple[int, int] | None:
        """(nodes, edges) of the same TaskRun extracted under its other key, or ``None``.

        A document stripped of ``metadata.uid`` is keyed ``namespace/name``; the same run seen with
        its uid is ``namespace/name/uid``. Either after the other is the same run, not a second one.
        """
        if has_uid:
            sql, args = "SELECT nodes, edges FROM runs WHERE run_key = ?", (run_key.rsplit("/", 1)[0],)
        else:
            sql, args = "SELECT nodes, edges FROM runs WHERE ref = ? ORDER BY run_key LIMIT 1", (ref,)
        rows = await self._rows(sql, args)
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def set_run_counts(self, run_key: str, nodes: int, edges: int) -> None:
        """Record what an extraction wrote, so a repeated request reports the same figures."""
        await self._conn.execute(
            "UPDATE runs SET nodes = ?, edges = ? WHERE run_key = ?", (nodes, edges, run_key)
        )

    async def insert_run(self, run: RunSummary, nodes: int, edges: int) -> None:
        """Record a processed TaskRun (idempotency and statistics)."""
        await self._conn.execute(
            f"INSERT INTO runs ({RUN_COLUMNS}) VALUES ({', '.join('?' * 15)})",
            (
                run.run_key, run.ref, run.tenant, run.repository, run.language, run.engine,
                run.task_type, int(run.success), run.failure_class, run.duration_seconds,
                run.finished_at, nodes, edges, run.ticket_id, json.dumps(list(run.failed_engines)),
            ),
        )  # fmt: skip

    async def run_rows(self) -> list[tuple[Any, ...]]:
        """Every processed run as raw rows (export)."""
        return [tuple(r) for r in await self._rows(f"SELECT {RUN_COLUMNS} FROM runs ORDER BY run_key")]

    async def insert_run_rows(self, rows: Sequence[Sequence[Any]]) -> None:
        """Bulk insert raw run rows (import)."""
        width = len(RUN_COLUMNS.split(", "))
        padded = [(*r, *_RUN_COLUMN_DEFAULTS[len(r) - width :]) if len(r) < width else tuple(r) for r in rows]
        await self._conn.executemany(
            f"INSERT INTO runs ({RUN_COLUMNS}) VALUES ({', '.join('?' * width)})", padded
        )

    async def engine_stats(self, tenant: str, engine: str) -> list[tuple[str, str, int, int, float | None]]:
        """Per (task_type, language): runs, successes and mean duration for one engine."""
        rows = await self._rows(
            "SELECT task_type, language, runs, successes, duration_sum, duration_n FROM run_stats "
            "WHERE tenant = ? AND engine = ? ORDER BY task_type, language",
            (tenant, engine),
        )
        return [(r[0], r[1], int(r[2]), int(r[3]), r[4] / r[5] if r[5] else None) for r in rows]

    async def duration_histogram(self, tenant: str, task_type: str) -> list[tuple[int, int]]:
        """Successful runs of one task type by duration in whole minutes (rounded up): (minutes, runs)."""
        rows = await self._rows(
            "SELECT minutes, runs FROM run_durations WHERE tenant = ? AND task_type = ? ORDER BY minutes",
            (tenant, task_type),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def failure_classes(self, tenant: str, repository: str) -> list[tuple[str, int]]:
        """How often each failure class occurred on one repository."""
        rows = await self._rows(
            "SELECT failure_class, runs FROM run_failures WHERE tenant = ? AND repository = ? "
            "ORDER BY failure_class",
            (tenant, repository),
        )
        return [(r[0], int(r[1])) for r in rows]

    async def wipe(self) -> None:
        """Delete all nodes, edges, runs and meta (inside the caller's transaction; import --replace)."""
        for table in (
            "edges", "node_runs", "nodes", "runs", "run_refs", "forgotten_runs", "meta", "run_stats",
            "run_durations", "run_failures",
        ):  # fmt: skip
            await self._conn.execute(f"DELETE FROM {table}")
