"""The argument parser: ``osmia run`` and ``osmia memory <verb>``, options and help text."""

from __future__ import annotations

import argparse
import functools
from importlib import metadata
from typing import Any, NoReturn

from osmia.cli.terminal import inline
from osmia.config import ENV_MEMORY_STORE_PATH
from osmia.taskrun import Flow

MAX_CYCLES = 1_000_000
"""Most decay cycles one ``decay --cycles`` applies (far past the point where every node is pruned)."""


class Parser(argparse.ArgumentParser):
    """argparse, with usage errors on one line (control characters escaped) and exit 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE (see PROG --help)`` and exit 2."""
        self.exit(2, f"{self.prog}: error: {inline(message)} (see {self.prog} --help)\n")


def _whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits (a leading ``-`` allowed), else None.

    ``int()`` also reads ``1_0`` and other scripts' digits (``١٢``): an option that changes the
    store takes only what an operator means to type.
    """
    digits = text.strip()
    body = digits.removeprefix("-")
    if not body or not body.isascii() or not body.isdigit():
        return None
    return int(digits)


def _cycles(text: str) -> int:
    shown = repr(text if len(text) <= 30 else text[:29] + "…")
    if len(text.strip()) > 20:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {MAX_CYCLES}; got {shown}")
    value = _whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"must be a whole number; got {shown}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative; got {value}")
    if value > MAX_CYCLES:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_CYCLES}; got {value}")
    return value


def _utf8(text: str) -> str:
    """An argument that is text: bytes that are not UTF-8 (read as lone surrogates) are bad input."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = text.encode("utf-8", "backslashreplace").decode("ascii", "replace")[:60]
        raise argparse.ArgumentTypeError(f"is not valid UTF-8 text: {shown}") from None
    return text


def _port(text: str) -> int:
    value = _whole_number(text[:20])
    if value is None:
        raise argparse.ArgumentTypeError(f"a port is a number 1-65535, got {text[:20]!r}")
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1-65535, got {value}")
    return value


def _host(text: str) -> str:
    """An address to bind: not empty (an empty host binds every interface, and the dashboard
    shows every tenant's memory), one word."""
    host = text.strip()
    if not host:
        raise argparse.ArgumentTypeError(
            "an address to bind is needed: 127.0.0.1 for this machine only, 0.0.0.0 for every interface"
        )
    if len(host) > 253 or not host.isprintable() or any(c.isspace() for c in host):
        raise argparse.ArgumentTypeError(f"not an address or host name: {text[:40]!r}")
    return host


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
    "forget": ("delete one node and its edges, or unlearn a run (--run)", None),
    "serve": (
        "serve the read-only dashboard in a browser",
        "Serve the memory dashboard (overview, search, node, graph, run pages) over HTTP until "
        "Ctrl-C. Read-only: no page or endpoint writes. Binds 127.0.0.1 by default; it shows every "
        "tenant's memory, so bind elsewhere only behind access control.",
    ),
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
    verbs["show"].add_argument(
        "node_id", metavar="ID", type=_utf8, help="node id, as shown by search or explain"
    )
    verbs["forget"].add_argument(
        "node_id", nargs="?", metavar="ID", type=_utf8, help="node id, as shown by search or explain"
    )
    verbs["forget"].add_argument(
        "--run",
        metavar="NAMESPACE/NAME",
        help="unlearn everything this TaskRun taught, instead of one node (see docs/operations.md)",
    )
    verbs["export"].add_argument("file", nargs="?", metavar="FILE", help="output file (default: stdout)")
    verbs["export"].add_argument(
        "--format",
        choices=("json", "graphml", "gexf"),
        default="json",
        help="json (re-importable, the default), or graphml / gexf for Gephi and Cytoscape desktop",
    )
    verbs["serve"].add_argument(
        "--host", type=_host, default="127.0.0.1", help="address to bind (default 127.0.0.1)"
    )
    verbs["serve"].add_argument("--port", type=_port, default=8470, help="port (default 8470)")
    verbs["import"].add_argument("file", metavar="FILE", help="an export (- for stdin)")
    verbs["import"].add_argument(
        "--replace", action="store_true", help="wipe a non-empty database before importing"
    )
    verbs["decay"].add_argument(
        "--cycles", type=_cycles, metavar="N", help="apply N cycles now (default: those due)"
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


@functools.cache  # an installed-package lookup scans site-packages: once per process is enough
def _version() -> str:
    try:
        return metadata.version("osmia")
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: ``osmia run``, ``osmia memory <verb>`` and ``osmia agent``."""
    parser = Parser(prog="osmia", description="Osmia: episodic memory for AI coding agents on Kubernetes.")
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
