"""How fast the dashboard answers on a large store, beside the HTTP floor of the same server.

    .venv/bin/python -m benchmarks.dashboard [--nodes 100000] [--requests 60] [--db FILE] [--out DIR]

Builds (or reuses, with ``--db``) a store the way ``benchmarks/run`` does: a 1k-run history
ingested through ``Memory``, replicated with SQL to ``--nodes`` nodes. Then serves the dashboard
on loopback exactly as ``osmia memory serve`` does (same app, a real TCP socket, a real HTTP
client) and requests every page ``--requests`` times with varied arguments: random nodes, random
repositories, random runs, text searches from the workload's ticket texts. The baseline is a
static file (``/static/app.css``) from the same server in the same run: the cost of HTTP itself.
Prints p50/p95/p99 per page and each page's p99 as a multiple of the baseline's; the target is
p99 ≤ 200 ms per page at 100k nodes (docs/dashboard.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import socket
import sqlite3
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import aiohttp

from benchmarks.speed import step_build, step_replicate
from osmia.dashboard import serve
from osmia.memory import Memory, MemorySettings

TARGET_P99_MS = 200.0
TEXTS = ("flaky test", "refund rounding", "timeout", "migration lock", "OOMKilled memory limit", "docs")


def store(args: argparse.Namespace, work: Path) -> Path:
    if args.db:
        copy = work / "dashboard.db"
        src = sqlite3.connect(args.db)
        src.execute(f"VACUUM INTO '{copy}'")
        src.close()
        return copy
    base, db = work / "runs-1k.db", work / f"nodes-{args.nodes}.db"
    print(f"# building a 1k-run store and replicating it to {args.nodes} nodes", file=sys.stderr)
    step_build(base, 1000, args.seed)
    step_replicate(base, db, args.nodes)
    return db


def urls(db: Path, count: int, seed: int) -> dict[str, list[str]]:
    """Varied request paths per page, drawn from what the store holds."""
    rng = random.Random(seed)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    ids = [r[0] for r in conn.execute("SELECT id FROM nodes ORDER BY random() LIMIT ?", (count,))]
    linked = [r[0] for r in conn.execute("SELECT src FROM edges ORDER BY random() LIMIT ?", (count,))]
    repos = conn.execute(
        "SELECT DISTINCT tenant, repository FROM nodes WHERE repository != '' LIMIT 500"
    ).fetchall()
    refs = [r[0] for r in conn.execute("SELECT ref FROM runs ORDER BY random() LIMIT ?", (count,))]
    conn.close()

    def q(**params: str) -> str:
        return urllib.parse.urlencode(params)

    pick = rng.choice
    return {
        "static (baseline)": ["/static/app.css"] * count,
        "overview": ["/"] * count,
        "search text": [f"/search?{q(q=pick(TEXTS), validity='all')}" for _ in range(count)],
        "search filters": [
            f"/search?{q(tenant=t, repository=r, kind=pick(['failing_test', 'learning', 'hot_path', '']))}"
            for t, r in (pick(repos) for _ in range(count))
        ],
        "node": [f"/node/{pick(ids)}" for _ in range(count)],
        "graph page": [f"/graph?node={pick(linked)}&hops=2" for _ in range(count)],
        "graph json, 2 hops": [f"/api/graph?node={pick(linked)}&hops=2" for _ in range(count)],
        "graph json, repository": [
            f"/api/graph?{q(tenant=t, repository=r, hops='1')}"
            for t, r in (pick(repos) for _ in range(count))
        ],
        "run": [f"/run?{q(ref=pick(refs))}" for _ in range(count)],
    }


async def measure(db: Path, paths: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    memory = await Memory.open(MemorySettings(store_path=db), create=False, catch_up=False)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    runner = await serve(memory, "127.0.0.1", port)
    out: dict[str, dict[str, float]] = {}
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as client:
            for page, requests in paths.items():
                for path in requests[:3]:  # warm-up: caches, first template compile
                    async with client.get(path) as rsp:
                        await rsp.read()
                times = []
                for path in requests:
                    started = time.perf_counter()
                    async with client.get(path) as rsp:
                        await rsp.read()
                        if rsp.status != 200:
                            raise SystemExit(f"{path}: HTTP {rsp.status}")
                    times.append((time.perf_counter() - started) * 1000)
                out[page] = summary(times)
    finally:
        await runner.cleanup()
        await memory.close()
    return out


def summary(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]

    return {
        "n": len(ms),
        "p50": statistics.median(ordered),
        "p95": pct(95),
        "p99": pct(99),
        "max": ordered[-1],
    }


def report(results: dict[str, dict[str, float]], nodes: int) -> str:
    base = results["static (baseline)"]["p99"]
    lines = [
        f"Dashboard at {nodes} nodes: ms per request (p99 target {TARGET_P99_MS:g} ms); "
        "ratio = p99 / static p99",
        "",
        "| page | n | p50 | p95 | p99 | ×static | target |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for page, r in results.items():
        ok = "baseline" if page.startswith("static") else ("met" if r["p99"] <= TARGET_P99_MS else "MISSED")
        lines.append(
            f"| {page} | {r['n']:.0f} | {r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} | "
            f"{r['p99'] / base:.1f} | {ok} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--db", type=Path, help="measure a copy of this store instead of building one")
    parser.add_argument("--out", type=Path, help="keep the store and results.json here")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    work = args.out or Path(tempfile.mkdtemp(prefix="osmia-dashboard-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db = store(args, work)
    nodes = (
        sqlite3.connect(f"file:{db}?mode=ro", uri=True).execute("SELECT count(*) FROM nodes").fetchone()[0]
    )
    results = asyncio.run(measure(db, urls(db, args.requests, args.seed)))
    (work / "dashboard-results.json").write_text(json.dumps({"nodes": nodes, "pages": results}, indent=1))
    print(report(results, nodes))
    if not args.out:
        shutil.rmtree(work, ignore_errors=True)
    return (
        0 if all(r["p99"] <= TARGET_P99_MS for p, r in results.items() if not p.startswith("static")) else 1
    )


if __name__ == "__main__":
    raise SystemExit(main())
