"""The argument parser: ``osmia run`` and ``osmia memory <verb>``, options and help text."""

from __future__ import annotations

import argparse
from importlib import metadata
from typing import Any

from osmia.config import ENV_MEMORY_STORE_PATH
from osmia.taskrun import Flow


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


VERB_HELP = {
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
"""Each memory verb's one-line summary and, where it needs more, its description."""


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
    for name, (summary, description) in VERB_HELP.items():
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
    """The whole command line: ``osmia run``, ``osmia memory <verb>`` and ``osmia agent``."""
    parser = argparse.ArgumentParser(
        prog="osmia", description="Osmia: episodic memory for AI coding agents on Kubernetes."
    )
    parser.add_argument("--version", action="version", version=f"osmia {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _run_parser(commands)
    _memory_parser(commands)
    commands.add_parser(  # the runner in an engine's Job container; its contract is docs/engines.md
        "agent",
        help="run one engine attempt inside a Job and report a measured result",
        description="Run one engine attempt inside an Osmia Job (configured by environment variables, "
        "see docs/engines.md). Exit codes: 0 succeeded, 1 failed, 2 misconfigured.",
    )
    return parser
