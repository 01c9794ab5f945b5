"""``osmia memory export``, ``import`` and ``decay``: move the graph between files and age it."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

from osmia.cli.errors import EXIT_OK, Failure, UsageError
from osmia.cli.session import Session
from osmia.cli.shapes import export_text, print_json
from osmia.documents import STDIN


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
    session.refuse_tenant("import", "an export made with --tenant already holds only that tenant")
    data = _read_export(args.file)
    async with session.open(create=True) as memory:
        nodes, edges, runs = await memory.import_(data, replace=args.replace)
    if session.json:
        print_json({"nodes": nodes, "edges": edges, "runs": runs})
    else:
        print(f"imported {nodes} nodes, {edges} edges, {runs} runs")
    return EXIT_OK


async def cmd_decay(args: argparse.Namespace, session: Session) -> int:
    """Apply the due decay cycles (or exactly --cycles N) and prune."""
    session.refuse_tenant("decay", "decay and pruning apply to the whole graph")
    async with session.open(create=False) as memory:
        result = await memory.decay(cycles=args.cycles)
    if session.json:
        print_json(asdict(result))
    else:
        print(f"cycles {result.cycles}, pruned {result.pruned}, remaining {result.remaining}")
    return EXIT_OK
