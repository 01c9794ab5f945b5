"""``osmia``: the operator (``osmia run``) and the memory admin tool (``osmia memory``).

A thin layer: argparse, file reading via :mod:`osmia.documents`, and output.
Every memory decision is the :class:`~osmia.memory.service.Memory` facade's;
the operator itself lives in ``osmia.controller.operator``.

Modules, one way down: :mod:`~osmia.cli.app` (entry point, dispatch, exit
codes) → one module per group of verbs (:mod:`~osmia.cli.run`,
:mod:`~osmia.cli.ingest`, :mod:`~osmia.cli.retrieval` for context/explain,
:mod:`~osmia.cli.nodes` for status/search/show/forget,
:mod:`~osmia.cli.maintenance` for export/import/decay) → the shared parts:
:mod:`~osmia.cli.parser`, :mod:`~osmia.cli.session`, :mod:`~osmia.cli.errors`,
:mod:`~osmia.cli.shapes` (JSON output, one shape per thing) and
:mod:`~osmia.cli.render` (human output).

Exit codes (the contract): 0 done, 1 failed (message on stderr), 2 bad usage
or input.
"""

from __future__ import annotations

from osmia.cli.app import VERBS, main
from osmia.cli.errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Failure, UsageError
from osmia.cli.parser import build_parser
from osmia.cli.session import Session

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "VERBS",
    "Failure",
    "Session",
    "UsageError",
    "build_parser",
    "main",
]
