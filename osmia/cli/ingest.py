"""``osmia memory ingest``: extract finished TaskRuns from files, reporting bad documents without stopping."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any

from osmia.cli.errors import EXIT_OK, EXIT_USAGE
from osmia.cli.session import Session
from osmia.cli.shapes import print_json
from osmia.documents import DocumentError, Parsed, expand_paths, iter_taskruns
from osmia.memory.service import Memory
from osmia.memory.types import IngestResult
from osmia.taskrun import TaskRun, TaskRunError, check_consistent


@dataclass
class IngestReport:
    """What one ``ingest`` did, entry by entry, for the human and the JSON output."""

    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, location: str, run: TaskRun, result: IngestResult) -> None:
        """Record what happened to one run (done, duplicate or skipped)."""
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
        """Record a bad document and print its one-line message on stderr now."""
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
        """How many entries ended in ``state``."""
        return sum(1 for e in self.entries if e["state"] == state)

    def print_human(self) -> None:
        """One line per run that was looked at, then the totals."""
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
        print_json(report.entries)
    else:
        report.print_human()
    return EXIT_USAGE if report.count("error") else EXIT_OK
