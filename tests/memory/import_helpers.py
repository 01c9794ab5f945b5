"""A realistic export to mutate: two tenants, every node kind ingest writes, edges of every relation."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

from osmia.memory.service import Memory, MemorySettings
from tests.memory.conftest import DAY, Clock, make_run

# Secrets every redaction rule set knows; none may reach the database from an import.
SECRETS = (
    "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
    "AKIA" + "Z7Q2W4E6R8T0Y1U3",
    "glpat-" + "x9Y8z7W6v5U4t3S2r1Q0",
)
TRIAGE = "incident-triage"
ROLE_MARKERS = ("system:", "<|im_start|>", "[INST]", "<system>")


async def _history(path: Path) -> dict[str, Any]:
    clock = Clock()
    mem = await Memory.open(MemorySettings(store_path=path), clock=clock, update_gauges=False)
    try:
        runs = [
            make_run("a1", success=False, tests_failed=("TestLogin",), reason="tests failed"),
            make_run("a2", flaky=("TestLogin",), learnings=("Run go test with -count=1 to see the race",)),
            make_run("a3", engine="aider", success=False, reason="build failed", attempts=("codex", "aider")),
            make_run("a4", files=("internal/auth/session.go", "internal/auth/token.go")),
            make_run("t1", flow=TRIAGE, repo="", task_type="incident", success=False, reason="timeout"),
            make_run("t2", flow=TRIAGE, repo="", task_type="incident"),
        ]
        for i, run in enumerate(runs):
            clock.advance(DAY / 4 + i)
            await mem.ingest(run)
        await mem.decay()  # the clock is in the meta table
        return await mem.export()
    finally:
        await mem.close()


_CACHE: dict[str, Any] = {}


def sample_export(tmp: Path) -> dict[str, Any]:
    """A fresh deep copy of one realistic export (built once per test session)."""
    if "data" not in _CACHE:
        _CACHE["data"] = asyncio.run(_history(tmp / "history-source.db"))
    return copy.deepcopy(_CACHE["data"])


def write_export(path: Path, data: Any) -> Path:
    """Write ``data`` as JSON (NaN stays NaN, as Python's json writes it; a lone surrogate is escaped)."""
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
