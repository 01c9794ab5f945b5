"""What the file safety checks cost on a real store, beside baselines measured in the same run.

    python -m benchmarks.files --db STORE [--repeat 5] [--import]

* ``open``: ``Store.open`` for writing (runs ``PRAGMA quick_check`` on the existing file
  before anything writes) against ``Store.open(read_only=True)`` (no check) and a bare
  ``PRAGMA quick_check`` with the ``sqlite3`` module; median of ``--repeat`` opens, each
  on a warm page cache.
* ``import`` (with ``--import``): ``read_export`` (pydantic model, graph rules, redaction
  and cleaning of every text field) on the store's own export, against ``json.loads`` of
  the same text, and the whole ``Memory.import_`` into a new file.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from osmia.memory.portable import read_export
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store import Store


async def _median_ms(work: Callable[[], Awaitable[Any]], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await work()
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 2)


async def measure_open(db: Path, repeat: int) -> dict[str, Any]:
    async def write_open() -> None:
        store = await Store.open(db)
        await store.close()

    async def read_open() -> None:
        store = await Store.open(db, read_only=True)
        await store.close()

    async def bare_check() -> None:
        conn = sqlite3.connect(db)
        try:
            assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        finally:
            conn.close()

    await read_open()  # warm the page cache
    write_ms = await _median_ms(write_open, repeat)
    read_ms = await _median_ms(read_open, repeat)
    check_ms = await _median_ms(bare_check, repeat)
    return {
        "db_bytes": db.stat().st_size,
        "open_for_writing_ms": write_ms,
        "open_read_only_ms": read_ms,
        "bare_quick_check_ms": check_ms,
        "writing_over_read_only": round(write_ms / read_ms, 1) if read_ms else None,
    }


async def measure_import(db: Path) -> dict[str, Any]:
    mem = await Memory.open(MemorySettings(store_path=db), read_only=True, update_gauges=False)
    try:
        data = await mem.export()
    finally:
        await mem.close()
    text = json.dumps(data)
    started = time.perf_counter()
    parsed = json.loads(text)
    parse_s = time.perf_counter() - started
    started = time.perf_counter()
    graph = read_export(parsed, time.time())
    validate_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        mem = await Memory.open(MemorySettings(store_path=Path(folder) / "copy.db"), update_gauges=False)
        try:
            await mem.import_(graph)
        finally:
            await mem.close()
        write_s = time.perf_counter() - started
    return {
        "nodes": len(graph.nodes),
        "edges": len(graph.edges),
        "runs": len(graph.runs),
        "export_mb": round(len(text) / 1e6, 1),
        "json_loads_s": round(parse_s, 2),
        "validate_and_clean_s": round(validate_s, 2),
        "validate_over_json_loads": round(validate_s / parse_s, 1),
        "write_into_new_file_s": round(write_s, 2),
        "fields_cleaned": graph.cleaned,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--import", dest="with_import", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {"open": asyncio.run(measure_open(args.db, args.repeat))}
    if args.with_import:
        result["import"] = asyncio.run(measure_import(args.db))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
