"""The lazy decay clock: an epoch counter, and nodes pruned by the epoch they fall below the threshold."""

from __future__ import annotations

from osmia.memory.store.base import StoreBase
from osmia.memory.store.errors import StoreError
from osmia.memory.store.rows import EPOCH_KEY, EPOCH_SQL, THRESHOLD_KEY, THRESHOLD_SQL

# Recomputing every ``prune_at`` after the prune threshold changed: progress marker (meta) and
# nodes per transaction, so other writers wait at most one short batch (2,000 held the lock for
# up to 145 ms at 1M nodes on the shared benchmark machine; 500: tens of ms).
PRUNE_RECOMPUTE_KEY = "prune_recompute_after"
PRUNE_RECOMPUTE_BATCH = 500
# More decay cycles than any history counts (a century of hourly cycles, a million admin ones more):
# a stored epoch beyond it is damaged, and every node would be pruned against it.
MAX_EPOCH = 10_000_000


class DecayClock(StoreBase):
    """Advance the decay epoch, prune what is due, and follow a change of the prune threshold."""

    async def decay_clock(self) -> tuple[int, float | None]:
        """The current decay epoch and the prune threshold ``prune_at`` was computed with."""
        rows = await self._rows(f"SELECT {EPOCH_SQL}, {THRESHOLD_SQL}")
        epoch, threshold = rows[0]
        if not 0 <= int(epoch) <= MAX_EPOCH:
            raise StoreError(
                f"memory database {self.path}: meta.{EPOCH_KEY} is {int(epoch)}, more decay cycles than "
                f"any history counts (0 to {MAX_EPOCH:,}); pruning against it would delete every node, "
                "so nothing was done — restore a backup"
            )
        return int(epoch), None if threshold is None else float(threshold)

    async def advance_epoch(self, cycles: int) -> int:
        """Count ``cycles`` more decay cycles (inside the caller's transaction); returns the new epoch.

        This is the whole decay of every confidence: reads compute ``c × (1 − rate) ^ (epoch − stamp)``.
        """
        epoch, _ = await self.decay_clock()
        if cycles > 0:
            epoch += cycles
            await self.set_meta(EPOCH_KEY, str(epoch))
        return epoch

    async def due_nodes(self, epoch: int, limit: int) -> list[tuple[int, str, str, int]]:
        """The next ``limit`` nodes whose prune epoch has come: ``(seq, id, type, events)``.

        ``events`` is the node's provenance rows, what deleting it costs most (each goes with it,
        out of two indexes): counted in the ``node_runs_node`` range. An index range on
        ``prune_at``: the cost is the nodes read, not the graph's size.
        """
        rows = await self._rows(
            "SELECT seq, id, type, (SELECT count(*) FROM node_runs WHERE node = nodes.seq) "
            "FROM nodes WHERE prune_at <= ? ORDER BY prune_at LIMIT ?",
            (epoch, limit),
        )
        return [(int(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in rows]

    async def delete_nodes(self, seqs: list[int]) -> None:
        """Delete these nodes (inside the caller's transaction), with their edges, FTS rows and provenance."""
        if seqs:
            marks = ", ".join("?" * len(seqs))
            await self._conn.execute(f"DELETE FROM nodes WHERE seq IN ({marks})", seqs)

    async def set_prune_threshold(self, threshold: float) -> None:
        """Record a new prune threshold and start recomputing every ``prune_at`` (inside a transaction).

        :meth:`recompute_prune_cycles` finishes the work in short transactions; until it has,
        :meth:`prune_pending` is true and decay passes do not prune.
        """
        await self.set_meta(THRESHOLD_KEY, repr(float(threshold)))
        await self.set_meta(PRUNE_RECOMPUTE_KEY, "0")

    async def prune_pending(self) -> bool:
        """Whether some ``prune_at`` still refers to an older threshold."""
        return await self.get_meta(PRUNE_RECOMPUTE_KEY) is not None

    async def recompute_prune_cycles(self, batch: int | None = None) -> bool:
        """Recompute ``prune_at`` for the next ``batch`` nodes (inside a transaction); True when done."""
        batch = batch or PRUNE_RECOMPUTE_BATCH
        start = int(await self.get_meta(PRUNE_RECOMPUTE_KEY) or 0)
        last = await self._scalar(
            "SELECT max(seq) FROM (SELECT seq FROM nodes WHERE seq > ? ORDER BY seq LIMIT ?)", (start, batch)
        )
        if last is None:
            await self._conn.execute("DELETE FROM meta WHERE key = ?", (PRUNE_RECOMPUTE_KEY,))
            return True
        await self._conn.execute(
            f"UPDATE nodes SET prune_at = osmia_prune_cycle(confidence, decay_rate, epoch, {THRESHOLD_SQL}) "
            "WHERE seq > ? AND seq <= ?",
            (start, int(last)),
        )
        await self.set_meta(PRUNE_RECOMPUTE_KEY, str(int(last)))
        return False
