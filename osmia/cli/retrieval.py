"""``osmia memory context`` and ``explain``: what one TaskRun would be told, and why."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from osmia.cli.errors import EXIT_OK, UsageError
from osmia.cli.render import print_explain
from osmia.cli.session import Session
from osmia.cli.shapes import candidate_json, injected_json, print_json
from osmia.cli.terminal import block, inline
from osmia.documents import STDIN, STDIN_NAME, iter_taskruns
from osmia.taskrun import TaskRun


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


async def cmd_context(args: argparse.Namespace, session: Session) -> int:
    """Print the Prior Knowledge section (or, with --json, the injected nodes) for one run."""
    run = read_one_run(args.file, session.tenant)
    async with session.open(create=False, read_only=True) as memory:
        if not run.memory_enabled:
            note = f"note: {inline(args.file)}: spec.memory.enabled is false; the run gets no memory"
            print(note, file=sys.stderr)
            injected: list[dict[str, Any]] = []
            section = ""
        else:
            found = await memory.context(run)
            injected, section = injected_json(found), found.section
    if session.json:
        print_json(injected)
    elif section:
        sys.stdout.write(block(section))
    return EXIT_OK


async def cmd_explain(args: argparse.Namespace, session: Session) -> int:
    """Every candidate for one run, with the parts of its score and why it was kept or dropped."""
    run = read_one_run(args.file, session.tenant)
    async with session.open(create=False, read_only=True) as memory:
        candidates = await memory.explain(run)
        ranking = memory.ranking
    if session.json:
        print_json(
            {
                "run": run.ref,
                "tenant": run.tenant,
                "memory_enabled": run.memory_enabled,
                "candidates": [candidate_json(c) for c in candidates],
                "ranking": ranking.as_dict(),
            }
        )
    else:
        if not run.memory_enabled:
            print(f"note: {inline(args.file)}: spec.memory.enabled is false; nothing would be injected")
        print_explain(run, candidates)
        print(f"ranking configuration (preset {ranking.name}):")
        print(ranking.describe())
    return EXIT_OK
