"""What a stored line costs the prompt the first time it is shown, against the second time.

    python -m benchmarks.first_visits --db STORE [--base REV] [--lines 3000] [--rounds 3]

A query cleans each line it shows again (``prompt.cleaned_for_prompt``, defence in depth); RE2
builds its automata's states as text walks into them, so a line of a shape not seen before costs
more than the same line again (docs/performance.md §30, §31). In a fresh process, as the operator
starts: ``warm_up()`` with the store's lasting lines (``Memory.lasting_texts`` is the engine's
read; here the same ``ORDER BY prune_at DESC``), then ``--lines`` other node texts (seeded) are
cleaned once, timed (first visits), and again (second visits: the baseline, in the same
process). The uncached cleaning is timed, so the render cache does not hide the work. With
``--base`` the engine at that revision runs too, alternately (``benchmarks.ab``'s worktrees);
each side prints p50 / p99 / max µs a line and the total, first and second visits, and their
ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.ab import engine_path, remove_engine

LASTING = 4096


def _timed(texts: list[str]) -> list[float]:
    from osmia.memory import prompt

    clean = prompt._clean.__wrapped__  # type: ignore[attr-defined]
    out = []
    for text in texts:
        started = time.perf_counter()
        clean(text, prompt.shown_length(text))
        out.append((time.perf_counter() - started) * 1e6)
    return out


def _summary(us: list[float]) -> dict[str, float]:
    ordered = sorted(us)
    return {
        "p50": ordered[len(ordered) // 2],
        "p99": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "max": ordered[-1],
        "total_ms": sum(ordered) / 1e3,
    }


def child(db: Path, lines: int, seed: int) -> dict[str, Any]:
    """One side's figures, in this (fresh) process."""
    from osmia.memory.warmup import warm_up

    by_life = "SELECT content FROM nodes ORDER BY prune_at DESC LIMIT ? OFFSET ?"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        # A small store keeps half of its lines for the visits.
        (count,) = con.execute("SELECT count(*) FROM nodes").fetchone()
        warmed = min(LASTING, count // 2)
        lasting = [r[0] for r in con.execute(by_life, (warmed, 0))]
        rest = [r[0] for r in con.execute(by_life, (-1, warmed))]
    warm_up(lasting)
    texts = random.Random(seed).sample(rest, min(lines, len(rest)))
    first = _timed(texts)
    second = _timed(texts)
    return {"first": _summary(first), "second": _summary(second), "lines": len(texts), "warmed": warmed}


def _row(round_: int, side: str, r: dict[str, Any]) -> str:
    f, s = r["first"], r["second"]
    cells = [f"{f[k]:.0f} / {s[k]:.0f}" for k in ("p50", "p99", "max")]
    ratio = f["total_ms"] / s["total_ms"] if s["total_ms"] else float("nan")
    return (
        f"| {round_} | {side} | "
        + " | ".join(cells)
        + f" | {f['total_ms']:.1f} / {s['total_ms']:.1f} | {ratio:.2f}× |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", nargs="?", choices=("compare", "child"), default="compare")
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--base", help="also run the engine at this revision, alternately")
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.mode == "child":
        print(json.dumps(child(args.db, args.lines, args.seed)))
        return 0
    print(f"store {args.db}; {args.lines} lines a side; warm_up() on {LASTING} lasting ones (half, if fewer)")
    print("| round | engine | p50 µs first / second | p99 | max | total ms | first ÷ second |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sides = [("candidate (working tree)", engine_path(None, work))]
        if args.base:
            sides.append((f"base ({args.base})", engine_path(args.base, work)))
        try:
            for round_ in range(1, args.rounds + 1):
                for name, path in sides if round_ % 2 else sides[::-1]:
                    cmd = [sys.executable, "-m", "benchmarks.first_visits", "child", "--db", str(args.db),
                           "--lines", str(args.lines), "--seed", str(args.seed + round_)]  # fmt: skip
                    env = {**os.environ, "PYTHONPATH": str(path)}
                    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=path)
                    if done.returncode != 0:
                        raise SystemExit(f"{name}: {done.stderr.strip()}")
                    print(_row(round_, name, json.loads(done.stdout.strip().splitlines()[-1])), flush=True)
        finally:
            remove_engine(args.base, work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
