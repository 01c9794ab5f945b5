"""Ranking presets swept over one store: the same tickets, the quality of each preset.

    python -m benchmarks.sweep --db STORE [--queries N] [--seed S]

Ranking is data (:mod:`osmia.memory.ranking`): every preset in ``PRESETS`` is
run over the same scenarios of a built store (``benchmarks.workload``) and
judged by :func:`benchmarks.quality.evaluate`. Prints one JSON object (preset
→ quality) on its last line; ``benchmarks/run`` runs it on each ingested store
before serving it and prints the table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from benchmarks.quality import evaluate
from benchmarks.scenarios import scenarios
from benchmarks.stores import Clock
from benchmarks.workload import GroundTruth
from osmia.memory.ranking import PRESETS
from osmia.memory.service import Memory, MemorySettings
from osmia.taskrun import parse_taskrun


async def sweep(db: Path, queries: int, seed: int) -> dict[str, Any]:
    """Quality of every preset over the same ``queries`` tickets (the serve step's scenarios)."""
    truth = GroundTruth.from_json(db.with_suffix(".truth.json").read_text())
    now = truth.end + 60.0
    cases = scenarios(truth, queries, seed=seed + 1000)
    runs = [parse_taskrun(c.doc) for c in cases]
    out: dict[str, Any] = {}
    for name, config in PRESETS.items():
        memory = await Memory.open(
            MemorySettings(store_path=db), clock=Clock(now), update_gauges=False, ranking=config
        )
        try:
            injected = [[n.id for n in (await memory.context(run)).injected] for run in runs]
        finally:
            await memory.close()
        quality = evaluate(db, truth, cases, injected, now)["osmia"]
        out[name] = {k: quality[k] for k in ("recall@10", "ndcg@10", "mrr", "irrelevant_share", "leaks")}
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Sweep the ranking presets over one store.")
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    print(json.dumps({"step": "sweep", "presets": asyncio.run(sweep(args.db, args.queries, args.seed))}))


if __name__ == "__main__":
    main()
