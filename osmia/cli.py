"""``osmia``: the operator (``osmia run``) and the memory admin tool (``osmia memory``).

A thin layer: argparse, file reading via :mod:`osmia.documents`, and output
formatting. Every memory decision is the :class:`~osmia.memory.service.Memory`
facade's; the operator itself lives in ``osmia.controller.operator``.

Exit codes (the contract): 0 done, 1 failed (message on stderr), 2 bad usage
or input.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from osmia.config import ENV_MEMORY_STORE_PATH, Config, ConfigError, load_config
from osmia.documents import STDIN, STDIN_NAME, DocumentError, Parsed, expand_paths, iter_taskruns
from osmia.logging import configure_logging, get_logger
from osmia.memory.service import ImportRefused, Memory, MemorySettings
from osmia.memory.store import StoreError
from osmia.memory.types import Candidate, Edge, IngestResult, MemoryContext, Node
from osmia.taskrun import Flow, TaskRun, TaskRunError, check_consistent

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

OPERATOR_MODULE = "osmia.controller.operator"
CONTENT_WIDTH = 60
EXPLAIN_HEADER = (
    f"{'SCORE':>6} {'REL':>5} {'CONF':>5} {'RECENCY':>7}  {'KIND':<17} {'VERDICT':<7}  {'ID':<16}  CONTENT"
)


class UsageError(Exception):
    """Bad usage or bad input: exit 2."""


class Failure(Exception):
    """The command could not be done: exit 1."""


# Errors that mean "bad usage or input" (2) and "failed" (1); anything else is a bug.
USAGE_ERRORS: tuple[type[Exception], ...] = (
    UsageError,
    ConfigError,
    DocumentError,
    TaskRunError,
    ImportRefused,
)
FAILURES: tuple[type[Exception], ...] = (Failure, StoreError, sqlite3.Error, OSError)


def _error(message: object) -> None:
    """One line on stderr, prefixed like argparse's own errors."""
    print(f"osmia: error: {message}", file=sys.stderr)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _when(timestamp: float | None) -> str:
    """Unix time → ``2026-11-29T12:00:00Z`` (or ``never``)."""
    if timestamp is None:
        return "never"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _truncate(text: str, width: int = CONTENT_WIDTH) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


# --- argument parsing ------------------------------------------------------------------


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number; got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative; got {value}")
    return value


def _add_memory_options(parser: argparse.ArgumentParser, *, on_verb: bool) -> None:
    """The options every memory verb shares; repeated on each verb so they may follow it.

    On a verb the defaults are suppressed, so a value given before the verb survives.
    """

    def default(value: Any) -> Any:
        return argparse.SUPPRESS if on_verb else value

    parser.add_argument(
        "--db",
        metavar="FILE",
        default=default(None),
        help=f"memory database (default: ${ENV_MEMORY_STORE_PATH}, else memory.store_path of --config)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=default(None),
        help="osmia-config.yaml: memory settings (decay, pruning, ranking budget) and store_path",
    )
    parser.add_argument(
        "--tenant",
        choices=[f.value for f in Flow],
        default=default(None),
        help="scope the verb to one tenant (default: the whole graph)",
    )
    parser.add_argument("--json", action="store_true", default=default(False), help="machine-readable output")


_VERB_HELP = {
    "ingest": (
        "extract finished TaskRuns from files",
        "Read TaskRun objects (YAML or JSON: one object, a --- stream, or a kind: List as "
        "`kubectl get taskruns -o yaml` prints it) and extract every one with a terminal "
        "status.phase, exactly as the operator would; idempotent per TaskRun. A directory "
        "means its *.yaml, *.yml and *.json files; - means standard input. With --tenant, "
        "only runs of that tenant are ingested and the others are reported as skipped. "
        "Creates the database if missing.",
    ),
    "context": (
        "print the Prior Knowledge section a TaskRun would get",
        "Print the ## Prior Knowledge section the TaskRun in FILE would get (nothing when none); "
        "with --json, the injected nodes. The tenant comes from spec.flow; a different --tenant "
        "is refused.",
    ),
    "explain": ("show every candidate for a TaskRun, its score and verdict", None),
    "status": ("counts, schema health and decay clock", None),
    "search": ("full-text search over node content", None),
    "show": ("one node and its edges", None),
    "export": ("write the graph as JSON (to FILE or stdout)", None),
    "import": (
        "load an export into a database",
        "Load an export made by `osmia memory export`. Refuses a non-empty database unless "
        "--replace is given. Creates the database if missing.",
    ),
    "forget": ("delete one node and its edges", None),
    "decay": (
        "apply decay cycles and prune now",
        "Without --cycles, apply the cycles that are due by the clock (as the operator does); "
        "with --cycles N, apply N more cycles now. Then prune nodes below the threshold.",
    ),
}


def _add_verb_arguments(verbs: dict[str, argparse.ArgumentParser]) -> None:
    verbs["ingest"].add_argument("files", nargs="+", metavar="FILE", help="file, directory, or -")
    for name in ("context", "explain"):
        verbs[name].add_argument("file", metavar="FILE", help="one TaskRun (YAML or JSON; - for stdin)")
    verbs["search"].add_argument("query", nargs="+", metavar="QUERY", help="words to look for")
    for name in ("show", "forget"):
        verbs[name].add_argument("node_id", metavar="ID", help="node id, as shown by search or explain")
    verbs["export"].add_argument("file", nargs="?", metavar="FILE", help="output file (default: stdout)")
    verbs["import"].add_argument("file", metavar="FILE", help="an export (- for stdin)")
    verbs["import"].add_argument(
        "--replace", action="store_true", help="wipe a non-empty database before importing"
    )
    verbs["decay"].add_argument(
        "--cycles", type=_non_negative_int, metavar="N", help="apply N cycles now (default: those due)"
    )


def _memory_parser(commands: Any) -> None:
    memory = commands.add_parser(
        "memory",
        help="the memory admin tool (safe while the operator runs)",
        description="Inspect and maintain the memory database. Exit codes: 0 done, 1 failed, 2 bad input.",
    )
    _add_memory_options(memory, on_verb=False)
    verb_parsers = memory.add_subparsers(dest="verb", metavar="VERB", required=True)
    verbs: dict[str, argparse.ArgumentParser] = {}
    for name, (summary, description) in _VERB_HELP.items():
        verbs[name] = verb_parsers.add_parser(name, help=summary, description=description or summary)
        _add_memory_options(verbs[name], on_verb=True)
    _add_verb_arguments(verbs)


def _run_parser(commands: Any) -> None:
    run = commands.add_parser(
        "run",
        help="run the operator",
        description="Run the operator. Options not listed here go to kopf, e.g. --namespace NS, "
        "--all-namespaces, --standalone, --peering NAME, --priority N, --liveness URL.",
        allow_abbrev=False,
    )
    run.add_argument("--config", metavar="FILE", help="osmia-config.yaml (default: built-in defaults)")


def _version() -> str:
    try:
        return metadata.version("osmia")
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: ``osmia run`` and ``osmia memory <verb>``."""
    parser = argparse.ArgumentParser(
        prog="osmia", description="Osmia: episodic memory for AI coding agents on Kubernetes."
    )
    parser.add_argument("--version", action="version", version=f"osmia {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _run_parser(commands)
    _memory_parser(commands)
    return parser


# --- osmia run -------------------------------------------------------------------------


def _load_operator() -> Any:
    """Import the controller lazily: ``osmia memory`` needs neither kopf nor a cluster."""
    try:
        return importlib.import_module(OPERATOR_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name in (OPERATOR_MODULE, "osmia.controller"):
            raise Failure(f"the operator is not available: module {OPERATOR_MODULE} is missing") from None
        raise Failure(f"cannot load the operator: {exc}") from exc
    except ImportError as exc:
        raise Failure(f"cannot load the operator: {exc}") from exc


def cmd_run(args: argparse.Namespace, kopf_args: Sequence[str]) -> int:
    """Load the config, set up logging, then hand over to the operator until it stops."""
    config = load_config(Path(args.config) if args.config else None)
    configure_logging(config.operator.log_level, config.operator.log_format)
    log = get_logger("osmia.cli")
    for warning in config.warnings:
        log.warning(warning)
    operator = _load_operator()
    code = operator.run(config, list(kopf_args))
    return code if isinstance(code, int) else EXIT_OK


# --- osmia memory: session -------------------------------------------------------------


def memory_settings(store_path: Path, config: Config | None) -> MemorySettings:
    """Facade settings: the ``memory:`` section of ``config`` if given, else the defaults."""
    if config is None:
        return MemorySettings(store_path=store_path)
    return MemorySettings.from_config(config.memory, store_path)


def resolve_db(db: str | None, config: Config | None, environ: Mapping[str, str] | None = None) -> Path:
    """``--db``, else ``$OSMIA_MEMORY_STORE_PATH``, else ``memory.store_path`` of ``--config``."""
    env = os.environ if environ is None else environ
    if db:
        return Path(db)
    if env.get(ENV_MEMORY_STORE_PATH):
        return Path(env[ENV_MEMORY_STORE_PATH])
    if config is not None:
        return config.memory.store_path
    raise UsageError(f"--db FILE is required (or set {ENV_MEMORY_STORE_PATH}, or pass --config FILE)")


@dataclass(frozen=True)
class Session:
    """What every verb needs: settings to open the database with, the tenant scope, the output mode."""

    settings: MemorySettings
    tenant: str | None
    json: bool

    @asynccontextmanager
    async def open(self, *, create: bool) -> AsyncIterator[Memory]:
        """Open the database for one verb and close it afterwards.

        Missed decay cycles are not applied on open, so looking at the graph
        never changes it; ``osmia memory decay`` is the explicit way to decay.
        """
        path = self.settings.store_path
        if path.is_dir():
            raise Failure(f"memory database {path}: is a directory, not a database file")
        memory = await Memory.open(self.settings, create=create, catch_up=False, update_gauges=False)
        try:
            yield memory
        finally:
            await memory.close()


def _session(args: argparse.Namespace) -> Session:
    config = load_config(Path(args.config)) if args.config else None
    db = resolve_db(args.db, config)
    return Session(memory_settings(db, config), args.tenant, args.json)


def _refuse_tenant(session: Session, verb: str, why: str) -> None:
    if session.tenant is not None:
        raise UsageError(f"{verb} does not take --tenant: {why}")


# --- osmia memory ingest ---------------------------------------------------------------


@dataclass
class IngestReport:
    """What one ``ingest`` did, entry by entry, for the human and the JSON output."""

    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, location: str, run: TaskRun, result: IngestResult) -> None:
        self.entries.append(
            {
                "run": run.ref,
                "key": run.run_key,
                "location": location,
                "state": result.state,
                "nodes": result.nodes,
                "edges": result.edges,
                "reason": result.reason,
                "field": None,
            }
        )

    def error(self, location: str, message: str, field_path: str | None = None) -> None:
        self.entries.append(
            {
                "run": None,
                "key": None,
                "location": location,
                "state": "error",
                "nodes": 0,
                "edges": 0,
                "reason": message,
                "field": field_path,
            }
        )
        print(message, file=sys.stderr)

    def count(self, state: str) -> int:
        return sum(1 for e in self.entries if e["state"] == state)

    def print_human(self) -> None:
        for e in self.entries:
            if e["state"] == "done":
                print(f"ingested {e['run']}: {e['nodes']} nodes, {e['edges']} edges")
            elif e["state"] in ("duplicate", "skipped"):
                print(f"{e['state']} {e['run']}: {e['reason']}")
        print(
            f"total: {self.count('done')} ingested, {self.count('duplicate')} duplicate, "
            f"{self.count('skipped')} skipped, {self.count('error')} errors"
        )


def _skip_reason(run: TaskRun, tenant: str | None) -> str:
    """Why the operator (or the ``--tenant`` filter) would not extract this run; "" if it would."""
    if tenant is not None and run.tenant != tenant:
        return f"tenant {run.tenant} (only {tenant} is ingested)"
    if not run.memory_enabled:
        return "memory is disabled for this run"
    return ""


async def _ingest_one(memory: Memory, parsed: Parsed, tenant: str | None, report: IngestReport) -> None:
    if parsed.error is not None:
        report.error(parsed.location, parsed.message, parsed.error.field_path)
        return
    run = parsed.run
    assert run is not None
    if why := _skip_reason(run, tenant):
        report.add(parsed.location, run, IngestResult(run.run_key, "skipped", reason=why))
        return
    if run.terminal:
        try:
            check_consistent(run)
        except TaskRunError as exc:
            report.error(parsed.location, f"{parsed.location}: {exc}", exc.field_path)
            return
    report.add(parsed.location, run, await memory.ingest(run))


async def cmd_ingest(args: argparse.Namespace, session: Session) -> int:
    """Extract every finished TaskRun in the given files; bad documents are reported, not fatal."""
    files = expand_paths(args.files)
    report = IngestReport()
    async with session.open(create=True) as memory:
        for name in files:
            try:
                for parsed in iter_taskruns(name):
                    await _ingest_one(memory, parsed, session.tenant, report)
            except DocumentError as exc:
                report.error(name, str(exc))
    if session.json:
        _print_json(report.entries)
    else:
        report.print_human()
    return EXIT_USAGE if report.count("error") else EXIT_OK


# --- osmia memory context / explain ----------------------------------------------------


def read_one_run(name: str, tenant: str | None) -> TaskRun:
    """The single TaskRun in a file; anything else is bad input."""
    parsed = list(iter_taskruns(name))
    name = STDIN_NAME if name == STDIN else name
    if not parsed:
        raise UsageError(f"{name}: no TaskRun in this file")
    if len(parsed) > 1:
        raise UsageError(f"{name}: holds {len(parsed)} objects; expected exactly one TaskRun")
    (one,) = parsed
    if one.error is not None:
        raise UsageError(one.message)
    assert one.run is not None
    if tenant is not None and one.run.tenant != tenant:
        raise UsageError(f"{name}: the run belongs to tenant {one.run.tenant} (from spec.flow), not {tenant}")
    return one.run


def _injected_json(memory_context: MemoryContext) -> list[dict[str, Any]]:
    return [
        {
            "id": n.id,
            "kind": n.kind,
            "content": n.content,
            "confidence": round(n.confidence, 4),
            "score": round(n.score, 4),
            "sources": list(n.sources),
        }
        for n in memory_context.injected
    ]


async def cmd_context(args: argparse.Namespace, session: Session) -> int:
    """Print the Prior Knowledge section (or, with --json, the injected nodes) for one run."""
    run = read_one_run(args.file, session.tenant)
    async with session.open(create=False) as memory:
        if not run.memory_enabled:
            print(f"note: {args.file}: spec.memory.enabled is false; the run gets no memory", file=sys.stderr)
            injected: list[dict[str, Any]] = []
            section = ""
        else:
            found = await memory.context(run)
            injected, section = _injected_json(found), found.section
    if session.json:
        _print_json(injected)
    elif section:
        sys.stdout.write(section)
    return EXIT_OK


def _candidate_json(c: Candidate) -> dict[str, Any]:
    return {
        "id": c.node.id,
        "kind": c.node.kind.value,
        "content": c.node.content,
        "score": c.score,
        "relevance": c.parts.relevance,
        "confidence": c.parts.confidence,
        "recency": c.parts.recency,
        "reasons": list(c.parts.reasons),
        "kept": c.kept,
        "verdict": c.verdict,
        "node": node_json(c.node),
    }


def _print_explain(run: TaskRun, candidates: list[Candidate]) -> None:
    kept = sum(1 for c in candidates if c.kept)
    print(f"{run.ref} (tenant {run.tenant}): {len(candidates)} candidates, {kept} kept")
    if not candidates:
        return
    print(EXPLAIN_HEADER)
    for c in candidates:
        p = c.parts
        word = "kept" if c.kept else "dropped"
        print(
            f"{c.score:6.3f} {p.relevance:5.2f} {p.confidence:5.2f} {p.recency:7.2f}  "
            f"{c.node.kind.value:<17} {word:<7}  {c.node.id:<16}  {_truncate(c.node.content)}"
        )
        why = [] if c.kept else [c.verdict.removeprefix("dropped: ")]
        why.append("matched: " + (", ".join(p.reasons) or "nothing"))
        print(f"{'':>30}{'; '.join(why)}")


async def cmd_explain(args: argparse.Namespace, session: Session) -> int:
    """Every candidate for one run, with the parts of its score and why it was kept or dropped."""
    run = read_one_run(args.file, session.tenant)
    async with session.open(create=False) as memory:
        candidates = await memory.explain(run)
    if session.json:
        _print_json(
            {
                "run": run.ref,
                "tenant": run.tenant,
                "memory_enabled": run.memory_enabled,
                "candidates": [_candidate_json(c) for c in candidates],
            }
        )
    else:
        if not run.memory_enabled:
            print(f"note: {args.file}: spec.memory.enabled is false; nothing would be injected")
        _print_explain(run, candidates)
    return EXIT_OK


# --- osmia memory status / search / show / forget --------------------------------------


def node_json(node: Node) -> dict[str, Any]:
    """Every stored field of a node, as plain JSON data."""
    data = asdict(node)
    data["kind"] = node.kind.value
    data["type"] = node.type.value
    return data


def _edge_json(edge: Edge) -> dict[str, Any]:
    return {
        "src": edge.src,
        "dst": edge.dst,
        "relation": edge.relation.value,
        "weight": edge.weight,
        "created_at": edge.created_at,
    }


def _print_status(status: dict[str, Any]) -> None:
    by_type = ", ".join(f"{k} {v}" for k, v in sorted(status["nodes_by_type"].items()))
    rows = [
        ("database", status["database"]),
        ("tenant", status["tenant"] or "all"),
        ("nodes", f"{status['nodes']}" + (f" ({by_type})" if by_type else "")),
        ("edges", status["edges"]),
        ("runs", status["runs"]),
        ("last decay", _when(status["last_decay_at"])),
        ("decay every", f"{status['decay_interval_hours']:g} h"),
        ("integrity", status["integrity"]),
    ]
    for label, value in rows:
        print(f"{label:<12} {value}")


async def cmd_status(args: argparse.Namespace, session: Session) -> int:
    """Counts, decay clock and integrity of the database (or one tenant's part)."""
    async with session.open(create=False) as memory:
        status = await memory.status(session.tenant)
    if session.json:
        _print_json(status)
    else:
        _print_status(status)
    return EXIT_OK


async def cmd_search(args: argparse.Namespace, session: Session) -> int:
    """Full-text (BM25) matches of QUERY, best first."""
    text = " ".join(args.query)
    async with session.open(create=False) as memory:
        hits = await memory.search(text, session.tenant)
    if session.json:
        _print_json([{**node_json(node), "rank": rank} for node, rank in hits])
        return EXIT_OK
    if not hits:
        print("no matches")
    for node, _rank in hits:
        print(f"{node.id}  {node.kind.value:<17} {node.tenant:<15} {node.confidence:.2f}  {node.content}")
    return EXIT_OK


def _missing(node_id: str, tenant: str | None) -> Failure:
    return Failure(f"no node {node_id}" + (f" in tenant {tenant}" if tenant else ""))


def _print_node(node: Node, edges: list[Edge]) -> None:
    s = node.subject
    rows = [
        ("id", node.id),
        ("type", node.type.value),
        ("kind", f"{node.kind.value} ({node.kind.label})"),
        ("tenant", node.tenant),
        ("content", node.content),
        ("repository", s.repository or "-"),
        ("engine", s.engine or "-"),
        ("task type", s.task_type or "-"),
        ("language", s.language or "-"),
        ("confidence", f"{node.confidence:.4f} (decays {node.decay_rate:g} per cycle)"),
        ("occurrences", node.occurrences),
        ("valid", f"{_when(node.valid_from)} → {_when(node.valid_to) if node.valid_to else 'now'}"),
        ("last seen", _when(node.last_seen)),
        ("sources", ", ".join(node.sources) or "-"),
        ("edges", len(edges)),
    ]
    for label, value in rows:
        print(f"{label:<12} {value}")
    for e in edges:
        arrow = f"{e.relation.value} → {e.dst}" if e.src == node.id else f"← {e.relation.value} {e.src}"
        print(f"{'':<12} {arrow}")


async def cmd_show(args: argparse.Namespace, session: Session) -> int:
    """One node and its edges."""
    async with session.open(create=False) as memory:
        found = await memory.show(args.node_id, session.tenant)
    if found is None:
        raise _missing(args.node_id, session.tenant)
    node, edges = found
    if session.json:
        _print_json({"node": node_json(node), "edges": [_edge_json(e) for e in edges]})
    else:
        _print_node(node, edges)
    return EXIT_OK


async def cmd_forget(args: argparse.Namespace, session: Session) -> int:
    """Delete one node and its edges."""
    async with session.open(create=False) as memory:
        done = await memory.forget(args.node_id, session.tenant)
    if not done:
        raise _missing(args.node_id, session.tenant)
    if session.json:
        _print_json({"forgotten": args.node_id})
    else:
        print(f"forgot {args.node_id}")
    return EXIT_OK


# --- osmia memory export / import / decay ----------------------------------------------


def export_text(data: dict[str, Any]) -> str:
    """The export file format: sorted keys, one-space indent, UTF-8 text."""
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder, so a crash never leaves half an export."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=folder, prefix=f".{path.name}.", delete=False
        ) as tmp:
            tmp.write(text)
        os.replace(tmp.name, path)
    except OSError as exc:
        raise Failure(f"{path}: cannot write: {exc.strerror or exc}") from exc


async def cmd_export(args: argparse.Namespace, session: Session) -> int:
    """The graph (or one tenant's part) as JSON, to FILE or stdout."""
    async with session.open(create=False) as memory:
        data = await memory.export(session.tenant)
    text = export_text(data)
    if args.file in (None, STDIN):
        sys.stdout.write(text)
    else:
        _write_atomically(Path(args.file), text)
        if not session.json:
            counts = f"{len(data['nodes'])} nodes, {len(data['edges'])} edges, {len(data['runs'])} runs"
            print(f"exported {counts} to {args.file}", file=sys.stderr)
    return EXIT_OK


def _read_export(name: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if name == STDIN else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{name}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name}: line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or "format" not in data:
        raise UsageError(f"{name}: not a memory export (made by `osmia memory export`)")
    return data


async def cmd_import(args: argparse.Namespace, session: Session) -> int:
    """Load an export; refuses a non-empty database unless --replace."""
    _refuse_tenant(session, "import", "an export made with --tenant already holds only that tenant")
    data = _read_export(args.file)
    async with session.open(create=True) as memory:
        nodes, edges, runs = await memory.import_(data, replace=args.replace)
    if session.json:
        _print_json({"nodes": nodes, "edges": edges, "runs": runs})
    else:
        print(f"imported {nodes} nodes, {edges} edges, {runs} runs")
    return EXIT_OK


async def cmd_decay(args: argparse.Namespace, session: Session) -> int:
    """Apply the due decay cycles (or exactly --cycles N) and prune."""
    _refuse_tenant(session, "decay", "decay and pruning apply to the whole graph")
    async with session.open(create=False) as memory:
        result = await memory.decay(cycles=args.cycles)
    if session.json:
        _print_json(asdict(result))
    else:
        print(f"cycles {result.cycles}, pruned {result.pruned}, remaining {result.remaining}")
    return EXIT_OK


Verb = Callable[[argparse.Namespace, Session], Coroutine[Any, Any, int]]
VERBS: dict[str, Verb] = {
    "ingest": cmd_ingest,
    "context": cmd_context,
    "explain": cmd_explain,
    "status": cmd_status,
    "search": cmd_search,
    "show": cmd_show,
    "export": cmd_export,
    "import": cmd_import,
    "forget": cmd_forget,
    "decay": cmd_decay,
}


def cmd_memory(args: argparse.Namespace) -> int:
    """Run one memory verb; library log lines (warnings and worse) go to stderr."""
    configure_logging("warning", "console")
    session = _session(args)
    return asyncio.run(VERBS[args.verb](args, session))


# --- entry point -----------------------------------------------------------------------


def _dispatch(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    args, extra = parser.parse_known_args(argv)
    if args.command == "run":
        return cmd_run(args, extra)
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return cmd_memory(args)


def _silence_stdout() -> None:
    """The reader went away (``osmia memory search x | head``): drop the rest quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. captured in tests)
        pass


def main(argv: list[str] | None = None) -> int:
    """``osmia`` console script: returns the exit code (0 done, 1 failed, 2 bad usage or input)."""
    parser = build_parser()
    try:
        return _dispatch(parser, argv)
    except BrokenPipeError:  # before FAILURES: it is an OSError too
        _silence_stdout()
        return EXIT_FAILED
    except USAGE_ERRORS as exc:
        _error(exc)
        return EXIT_USAGE
    except FAILURES as exc:
        _error(exc)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
