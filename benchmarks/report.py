"""The whole benchmark: build the stores, measure each in a fresh process, print the report.

    benchmarks/run            # 1k, 10k and 100k runs ingested; 100k and 1M nodes replicated
    benchmarks/run --smoke    # a few hundred runs: seconds (the test suite runs this)

Every step is a subprocess (``python -m benchmarks.speed …``) so that peak RSS
is per step and per scale. Results go to ``--out`` (``results.json`` and
``report.md``); the report is also printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import lesson_pairs
from osmia.memory.service import MemorySettings

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Scale:
    """One store to measure: built by ingestion (``runs``) or replicated from ``base`` (``nodes``)."""

    name: str
    runs: int = 0
    nodes: int = 0
    base: str = ""
    queries: int = 500
    ingest: int = 300
    decays: int = 3
    provenance_copies: int = 0  # replicate the provenance log into this many copies only (0: all)


FULL = (
    Scale("runs-1k", runs=1_000),
    Scale("runs-10k", runs=10_000),
    Scale("runs-100k", runs=100_000),
    Scale("nodes-100k", nodes=100_000, base="runs-100k"),
    Scale("nodes-1M", nodes=1_000_000, base="runs-100k", queries=200, ingest=100, decays=2),
)
SMOKE = (
    Scale("runs-smoke", runs=300, queries=60, ingest=20, decays=1),
    Scale("nodes-smoke", nodes=2_000, base="runs-smoke", queries=30, ingest=10, decays=1),
)

# The targets, checked at the 100k-node store.
TARGET_QUERY_P99_MS = 20.0
TARGET_EXTRACTION_P99_MS = 10.0
TARGET_DECAY_MS = 10.0  # issue 12: decay + prune cycle at 100k nodes (plus the deletes)
TARGET_DECAY_1M_MS = 50.0  # and at 1M nodes; the longest write lock decay holds at 1M; forget --run at 1M
TARGET_RSS_MB = 300.0
# Stores up to this many ingested runs also get the ranking presets swept (benchmarks/sweep.py).
SWEEP_MAX_RUNS = 10_000
TARGET_NDCG = 0.95
TARGET_IRRELEVANT = 0.02
TARGET_PARAPHRASE_PRECISION = 0.95
TARGET_PARAPHRASE_RECALL = 0.90
TARGET_NDCG_RATIO = 2.0


def run_step(args: list[str], log: Any, module: str = "benchmarks.speed") -> dict[str, Any]:
    """Run one benchmark step in a fresh interpreter; its last stdout line is JSON."""
    cmd = [sys.executable, "-m", module, *args]
    print(f"$ {' '.join(cmd[1:])}", file=log, flush=True)
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if proc.stderr:
        print(proc.stderr.rstrip(), file=log, flush=True)
    if proc.returncode != 0:
        raise SystemExit(
            f"benchmark step failed ({proc.returncode}): {' '.join(args)}\n{proc.stdout}{proc.stderr}"
        )
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["step_wall_seconds"] = time.perf_counter() - started
    return result


def measure(scales: tuple[Scale, ...], out: Path, seed: int, log: Any) -> dict[str, Any]:
    """Build every store, then serve each from a copy; returns all raw results."""
    out.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    for scale in scales:
        db = out / f"{scale.name}.db"
        if scale.runs:
            print(f"# build {scale.name}", file=log, flush=True)
            build = run_step(["build", "--db", str(db), "--runs", str(scale.runs), "--seed", str(seed)], log)
        else:
            print(f"# replicate {scale.name} from {scale.base}", file=log, flush=True)
            base = out / f"{scale.base}.db"
            extra = ["--provenance-copies", str(scale.provenance_copies)] if scale.provenance_copies else []
            build = run_step(
                ["replicate", "--base", str(base), "--db", str(db), "--nodes", str(scale.nodes), *extra], log
            )
        results[scale.name] = {"scale": scale.__dict__, "build": build}
    for scale in scales:
        if scale.runs and scale.runs <= SWEEP_MAX_RUNS:
            # Before serving: the presets see the store exactly as the serve step's queries do.
            print(f"# sweep the ranking presets over {scale.name}", file=log, flush=True)
            args = [
                "--db",
                str(out / f"{scale.name}.db"),
                "--queries",
                str(scale.queries),
                "--seed",
                str(seed),
            ]
            results[scale.name]["sweep"] = run_step(args, log, module="benchmarks.sweep")
    for scale in scales:
        # Served in place: every store was built (and every replica made) above, and serving
        # changes it (a few more runs, decay cycles). Copying the 3 GB one would cost a minute.
        served = out / f"{scale.name}.db"
        print(f"# serve {scale.name}", file=log, flush=True)
        # The stores just built are gigabytes of dirty pages: written out first, as benchmarks.ab
        # does, so that their writeback cannot land in a timed step (every commit would wait
        # behind it). The time it took is reported with the step.
        started = time.perf_counter()
        os.sync()
        synced = time.perf_counter() - started
        load_before = os.getloadavg()[0]
        serve = run_step(
            ["serve", "--db", str(served), "--queries", str(scale.queries), "--ingest", str(scale.ingest),
             "--decays", str(scale.decays), "--seed", str(seed)],
            log,
        )  # fmt: skip
        serve["sync_seconds"] = synced
        serve["load_before"] = load_before
        serve["load_after"] = os.getloadavg()[0]
        results[scale.name]["serve"] = serve
    return results


# --- the report -----------------------------------------------------------------------------


def _ms(v: float) -> str:
    return "–" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.2f}"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}×" if b and not math.isnan(a) and not math.isnan(b) else "–"


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB" if n < 1e9 else f"{n / 1e9:.2f} GB"


def _row(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def scale_table(name: str, r: dict[str, Any]) -> str:
    """One scale's speed/footprint table (markdown)."""
    build, serve = r["build"], r["serve"]
    counts = build["counts"]
    if build["step"] == "build":
        how = f"{build['runs']:,} runs ingested through `Memory.ingest`"
    else:
        how = f"replicated ×{build['copies']} from the `{r['scale']['base']}` store with SQL"
    size = f"{counts['nodes']:,} nodes, {counts['edges']:,} edges, {counts['runs']:,} runs"
    lines = [f"### {name}: {size} ({how})", ""]
    lines.append(_row("measure", "Osmia", "bare SQLite baseline", "Osmia / baseline"))
    lines.append(_row("---", "---", "---", "---"))
    if build["step"] == "build":
        ex = build["extraction_ms"]
        lines.append(
            _row("ingest throughput (history)", f"{build['throughput_runs_per_s']:,.0f} runs/s", "", "")
        )
        lines.append(
            _row("extraction latency p50 / p99 (history)", f"{_ms(ex['p50'])} / {_ms(ex['p99'])} ms", "", "")
        )
        dd = build["daily_decay_ms"]
        if dd["n"]:
            passes = f"{dd['n']} passes, {build['pruned']:,} nodes pruned"
            value = f"{_ms(dd['p50'])} / {_ms(dd['max'])} ms ({passes})"
            lines.append(_row("daily decay pass during the history, p50 / max", value, "", ""))
    ex = serve["extraction_ms"]
    if ex["n"]:
        what = f"extraction latency p50 / p99 at this size ({ex['n']} more runs)"
        lines.append(_row(what, f"{_ms(ex['p50'])} / {_ms(ex['p99'])} ms", "", ""))
        up = serve.get("maintenance_ms", {"n": 0})
        if up["n"]:
            what = f"maintenance pass between them, p50 / max ({up['n']} passes, off the extraction path)"
            lines.append(_row(what, f"{_ms(up['p50'])} / {_ms(up['max'])} ms", "", ""))
        gc_ = serve.get("collector_pauses_ms", {"n": 0})
        if gc_["n"]:
            what = f"the collector's full passes (maintenance loop), p50 / max ({gc_['n']}, osmia/process.py)"
            lines.append(_row(what, f"{_ms(gc_['p50'])} / {_ms(gc_['max'])} ms", "", ""))
    q, f = serve["query_ms"], serve["fts_baseline_ms"]
    lines.append(
        _row(
            f"query latency p50 / p95 / p99 ({q['n']} tickets)",
            f"{_ms(q['p50'])} / {_ms(q['p95'])} / {_ms(q['p99'])} ms",
            f"FTS5 MATCH: {_ms(f['p50'])} / {_ms(f['p95'])} / {_ms(f['p99'])} ms",
            f"{_ratio(q['p50'], f['p50'])} / {_ratio(q['p95'], f['p95'])} / {_ratio(q['p99'], f['p99'])}",
        )
    )
    d = serve["decay_seconds"]
    lines.append(
        _row(
            f"decay + prune cycle (median of {len(d['osmia_all'])}; epoch advance + due deletes)",
            f"{_ms(d['osmia'] * 1000)} ms",
            f"same statements bare: {_ms(d['bare'] * 1000)} ms; eager UPDATE: {_ms(d['baseline'] * 1000)} ms",
            f"{_ratio(d['osmia'], d['bare'])} / {_ratio(d['osmia'], d['baseline'])}",
        )
    )
    passes = 2 * len(d["osmia_all"])
    lines.append(
        _row(
            "decay pass apart from its deletes (nothing due, median of 3)",
            f"{_ms(d['fixed'] * 1000)} ms",
            "",
            f"{d['pruned']:,} nodes pruned in the {passes} passes above",
        )
    )
    lines.append(
        _row(
            "longest write lock held by decay (one transaction) / another writer's longest wait",
            f"{_ms(d['lock_hold_max'] * 1000)} / {_ms(d['lock_wait_max'] * 1000)} ms",
            "",
            "",
        )
    )
    fg = serve.get("forget")
    if fg and fg["osmia_all"]:
        lines.append(
            _row(
                f"`forget --run` p50 / max ({len(fg['osmia_all'])} runs; {fg['deleted']} nodes deleted, "
                f"{fg['updated']} rewritten)",
                f"{_ms(fg['osmia_p50'] * 1000)} / {_ms(fg['osmia_max'] * 1000)} ms",
                f"its reads, bare: {_ms(fg['bare_p50'] * 1000)} ms",
                _ratio(fg["osmia_p50"], fg["bare_p50"]),
            )
        )
    tc = serve.get("threshold_change")
    if tc:
        what = f"prune threshold change: every prune epoch recomputed ({tc['batches']} transactions)"
        value = f"{tc['seconds']:.2f} s; longest transaction {_ms(tc['batch_max'] * 1000)} ms"
        lines.append(_row(what, value, "", f"lock wait max {_ms(tc['lock_wait_max'] * 1000)} ms"))
    lines.append(
        _row(
            "start-up: `Memory.open` (schema check and migration, node count, catch-up decay)",
            f"{serve['open_seconds']:.2f} s",
            "",
            "",
        )
    )
    lines.append(_row("database size (file + WAL)", _mb(build["db_bytes"]), "", ""))
    rss = f"serve {serve['peak_rss_mb']:.0f} MB (after open {serve['rss_after_open_mb']:.0f} MB)"
    if build["step"] == "build":
        rss = f"ingest {build['peak_rss_mb']:.0f} MB; " + rss
    lines.append(_row("peak RSS (ru_maxrss, per process)", rss, "", ""))
    load = f"{serve['load_before']:.1f} / {serve['load_after']:.1f}"
    lines.append(_row("machine load (1-min average) before / after serving", load, "", ""))
    if "sync_seconds" in serve:  # results of an older harness have none
        synced = f"{serve['sync_seconds']:.2f} s"
        lines.append(_row("writing the stores out before serving (`os.sync`)", synced, "", ""))
    return "\n".join(lines)


def quality_table(results: dict[str, Any]) -> str:
    """Retrieval quality of Osmia and the upstream ranking, per scale (markdown)."""
    lines = [
        _row(
            "store", "tickets (judged)", "ranking", "recall@10", "nDCG@10", "MRR", "irrelevant injected",
            "leaks", "recall by need: flaky / weakness / hot path / failure mode / lesson / attempt",
        ),
        _row(*["---"] * 9),
    ]  # fmt: skip
    for name, r in results.items():
        q = r["serve"]["quality"]
        for who in ("osmia", "upstream"):
            s = q[who]
            needs = " / ".join(
                f"{s['recall_by_need'][n]:.2f}" if n in s["recall_by_need"] else "–"
                for n in ("flaky", "weakness", "hot_path", "failure_mode", "lesson", "attempt")
            )
            irrelevant = f"{100 * s['irrelevant_share']:.1f} % of {s['injected_per_query']:.1f}/query"
            lines.append(
                _row(
                    name, f"{s['scenarios']} ({s['judged']})", who, f"{s['recall@10']:.3f}",
                    f"{s['ndcg@10']:.3f}", f"{s['mrr']:.3f}", irrelevant, str(s["leaks"]), needs,
                )
            )  # fmt: skip
    return "\n".join(lines)


def sweep_table(results: dict[str, Any]) -> str:
    """Quality of each ranking preset (osmia.memory.ranking.PRESETS) per swept store (markdown)."""
    lines = [_row("store", "preset", "recall@10", "nDCG@10", "MRR", "irrelevant injected", "leaks"),
             _row(*["---"] * 7)]  # fmt: skip
    for name, r in results.items():
        for preset, q in r.get("sweep", {}).get("presets", {}).items():
            lines.append(
                _row(name, preset, f"{q['recall@10']:.3f}", f"{q['ndcg@10']:.3f}", f"{q['mrr']:.3f}",
                     f"{100 * q['irrelevant_share']:.1f} %", str(q["leaks"]))
            )  # fmt: skip
    return "\n".join(lines)


def targets(results: dict[str, Any], at: str) -> tuple[str, list[tuple[str, bool]]]:
    """The issue's targets, checked at the ``at`` store (and quality at every store)."""
    checks: list[tuple[str, str, bool]] = []
    if at in results:
        s = results[at]["serve"]
        q99 = s["query_ms"]["p99"]
        e99 = s["extraction_ms"]["p99"]
        decay = s["decay_seconds"]["fixed"]
        rss = s["peak_rss_mb"]
        checks += [
            (
                f"query p99 ≤ {TARGET_QUERY_P99_MS:.0f} ms at {at}",
                f"{q99:.2f} ms",
                q99 <= TARGET_QUERY_P99_MS,
            ),
            (
                f"extraction p99 ≤ {TARGET_EXTRACTION_P99_MS:.0f} ms at {at}",
                f"{e99:.2f} ms",
                e99 <= TARGET_EXTRACTION_P99_MS,
            ),
            (
                f"decay + prune cycle ≤ {TARGET_DECAY_MS:.0f} ms (plus the deletes) at {at}",
                f"{decay * 1000:.2f} ms",
                decay * 1000 <= TARGET_DECAY_MS,
            ),
            (f"peak RSS ≤ {TARGET_RSS_MB:.0f} MB at {at} (serve)", f"{rss:.0f} MB", rss <= TARGET_RSS_MB),
        ]
    big = next((n for n in ("nodes-1M", "nodes-smoke") if n in results), None)
    if big is not None:
        s = results[big]["serve"]
        decay_ms, lock_ms = s["decay_seconds"]["fixed"] * 1000, s["decay_seconds"]["lock_hold_max"] * 1000
        forget_ms = s["forget"]["osmia_max"] * 1000 if s.get("forget") else math.inf
        checks += [
            (f"decay + prune cycle ≤ {TARGET_DECAY_1M_MS:.0f} ms (plus the deletes) at {big}",
             f"{decay_ms:.2f} ms",
             decay_ms <= TARGET_DECAY_1M_MS),
            (f"longest write lock held by decay ≤ {TARGET_DECAY_1M_MS:.0f} ms at {big}", f"{lock_ms:.2f} ms",
             lock_ms <= TARGET_DECAY_1M_MS),
            (f"`forget --run` ≤ {TARGET_DECAY_1M_MS:.0f} ms at {big} (slowest)", f"{forget_ms:.2f} ms",
             forget_ms <= TARGET_DECAY_1M_MS),
        ]  # fmt: skip
    for name, r in results.items():
        q = r["serve"]["quality"]
        nd, up = q["osmia"]["ndcg@10"], q["upstream"]["ndcg@10"]
        ratio = nd / up if up > 0 else math.inf
        shown = f"{ratio:.1f}× ({up:.3f})" if math.isfinite(ratio) else f"∞ ({up:.3f})"
        checks.append((f"nDCG@10 ≥ {TARGET_NDCG} at {name}", f"{nd:.3f}", nd >= TARGET_NDCG))
        checks.append(
            (f"nDCG@10 ≥ {TARGET_NDCG_RATIO:.0f}× upstream at {name}", shown, ratio >= TARGET_NDCG_RATIO)
        )
        checks.append(
            (f"cross-tenant leaks = 0 at {name}", str(q["osmia"]["leaks"]), q["osmia"]["leaks"] == 0)
        )
        share = q["osmia"]["irrelevant_share"]
        checks.append(
            (f"irrelevant share ≤ {100 * TARGET_IRRELEVANT:.0f} % at {name}", f"{100 * share:.1f} %",
             share <= TARGET_IRRELEVANT)
        )  # fmt: skip
    pairs = lesson_pairs.evaluate()["all"]
    checks.append(
        (f"paraphrase precision ≥ {TARGET_PARAPHRASE_PRECISION} ({pairs['pairs']} labelled pairs)",
         f"{pairs['precision']:.3f}", pairs["precision"] >= TARGET_PARAPHRASE_PRECISION)
    )  # fmt: skip
    checks.append(
        (f"paraphrase recall ≥ {TARGET_PARAPHRASE_RECALL}", f"{pairs['recall']:.3f}",
         pairs["recall"] >= TARGET_PARAPHRASE_RECALL)
    )  # fmt: skip
    lines = [_row("target", "measured", "met"), _row("---", "---", "---")]
    lines += [_row(t, v, "yes" if ok else "**no**") for t, v, ok in checks]
    return "\n".join(lines), [(t, ok) for t, _v, ok in checks]


def machine() -> str:
    """One line about where this ran."""
    cpus = os.cpu_count()
    mem = ""
    try:
        with open("/proc/meminfo") as fh:
            kib = int(fh.readline().split()[1])
        mem = f", {kib / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    model = ""
    try:
        with open("/proc/cpuinfo") as fh:
            model = next((ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), "")
    except OSError:
        pass
    return (f"{cpus} CPUs ({model or platform.machine()}){mem}; Linux {platform.release()}; Python "
            f"{platform.python_version()}; SQLite {sqlite3.sqlite_version}")  # fmt: skip


def engine_source() -> tuple[str, str]:
    """Which Osmia code was measured (commit, uncommitted files) and a hash of its content."""

    def git(*args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return proc.stdout.rstrip("\n") if proc.returncode == 0 else ""

    content = hashlib.sha256()
    for path in sorted((ROOT / "osmia").rglob("*.py")):
        content.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--", "osmia").splitlines()
    if not changed:
        return f"commit {head}, no uncommitted change under osmia/", content.hexdigest()
    files = ", ".join(sorted(line[3:] for line in changed))
    return f"commit {head} plus uncommitted changes to {files}", content.hexdigest()


def render(results: dict[str, Any], smoke: bool, source: str) -> str:
    """The full markdown report."""
    settings = MemorySettings(store_path=Path("-"))
    at = "nodes-smoke" if smoke else "nodes-100k"
    table, _checks = targets(results, at)
    parts = [
        f"## Osmia memory benchmark{' (smoke size)' if smoke else ''}",
        "",
        f"Machine: {machine()}.",
        f"Engine measured: {source}.",
        f"Settings: defaults (max_facts_per_query={settings.max_facts_per_query}, token_budget="
        f"{settings.token_budget}, decay_interval_hours={settings.decay_interval_hours:g}, prune_threshold="
        f"{settings.prune_threshold}).",
        "",
    ]
    for name, r in results.items():
        parts += [scale_table(name, r), ""]
    parts += ["### Retrieval quality (same stores, same run)", "", quality_table(results), ""]
    if any("sweep" in r for r in results.values()):
        parts += ["### Ranking presets swept (before serving; same tickets)", "", sweep_table(results), ""]
    parts += ["### Targets", "", table, ""]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the Osmia memory benchmarks and print the report.")
    parser.add_argument(
        "--smoke", action="store_true", help="tiny sizes (seconds), as the test suite runs it"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="work folder (default: $TMPDIR/osmia-bench[-smoke])"
    )
    parser.add_argument(
        "--only", nargs="*", default=None, help="scale names to run (their bases are built too)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    scales = SMOKE if args.smoke else FULL
    if args.only:
        wanted = set(args.only)
        wanted |= {s.base for s in scales if s.name in wanted and s.base}
        scales = tuple(s for s in scales if s.name in wanted)
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    out = args.out or tmp / ("osmia-bench-smoke" if args.smoke else "osmia-bench")
    log = open(os.devnull, "w") if args.quiet else sys.stderr  # noqa: SIM115
    started = time.perf_counter()
    source, before = engine_source()
    results = measure(scales, out, args.seed, log)
    now, after = engine_source()
    source += f" (content sha256 {before[:12]})"
    if after != before:
        source += f" — WARNING: osmia/ changed during the run (now {now}, content sha256 {after[:12]})"
    report = render(results, args.smoke, source)
    report += f"\nTotal benchmark time: {time.perf_counter() - started:.0f} s.\n"
    (out / "results.json").write_text(json.dumps(results, indent=1))
    (out / "report.md").write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
