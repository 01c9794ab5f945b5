"""``osmia memory export``, ``import`` and ``decay``: move the graph between files and age it."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import IO

import networkx as nx

from osmia.cli.errors import EXIT_OK, Failure, UsageError
from osmia.cli.session import Session, check_regular
from osmia.cli.shapes import export_text, print_json
from osmia.cli.terminal import inline
from osmia.documents import STDIN, DocumentError, read_text
from osmia.memory.portable import ImportRefused, PortableGraph, parse_export_text, read_export


def _write_atomically(path: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Write via a temporary file in the same folder, so a crash never leaves half an export, and
    a failed write (a full disk) leaves neither half an export nor the temporary file."""
    folder = path.parent if str(path.parent) else Path(".")
    tmp_name = ""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{path.name}.", delete=False) as tmp:
            tmp_name = tmp.name
            write(tmp)
        os.replace(tmp_name, path)
    except OSError as exc:
        if tmp_name:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
        raise Failure(f"{path}: cannot write: {exc.strerror or exc}") from exc


_STORE_SIDECARS = ("", "-wal", "-shm", "-journal")


def _refuse_store_files(out: Path, store: Path) -> None:
    """Bad usage when ``out`` is the database being exported or one of its sidecar files: writing
    the export there would replace the store (or its write-ahead log, with the commits not yet
    checkpointed) with JSON."""
    target = os.path.realpath(out)
    for suffix in _STORE_SIDECARS:
        own = Path(f"{store}{suffix}")
        same = os.path.realpath(own) == target
        if not same and out.exists() and own.exists():
            with contextlib.suppress(OSError):
                same = os.path.samefile(out, own)
        if same:
            raise UsageError(f"export {out}: is the memory database's own file ({own.name}); name another")


async def cmd_export(args: argparse.Namespace, session: Session) -> int:
    """The graph (or one tenant's part) as JSON, to FILE or stdout."""
    if args.file not in (None, STDIN):
        # A device or FIFO named as the file would be replaced by a regular one (``/dev/null``).
        check_regular(Path(args.file), "export")
        _refuse_store_files(Path(args.file), session.settings.store_path)
    if args.format != "json":
        return await _export_graph(args, session)
    async with session.open(create=False, read_only=True) as memory:
        data = await memory.export(session.tenant)
    text = export_text(data)
    if args.file in (None, STDIN):
        sys.stdout.write(text)
    else:
        _write_atomically(Path(args.file), lambda out: out.write(text.encode("utf-8")))
        if not session.json:
            counts = f"{len(data['nodes'])} nodes, {len(data['edges'])} edges, {len(data['runs'])} runs"
            print(f"exported {counts} to {inline(args.file)}", file=sys.stderr)
    return EXIT_OK


async def _export_graph(args: argparse.Namespace, session: Session) -> int:
    """GraphML or GEXF through networkx: nodes with their attributes, typed edges (not re-importable)."""
    async with session.open(create=False, read_only=True) as memory:
        graph = await memory.graph_for_export(session.tenant)
    write = nx.write_graphml if args.format == "graphml" else nx.write_gexf
    if args.file in (None, STDIN):
        write(graph, sys.stdout.buffer)
        sys.stdout.flush()
    else:
        _write_atomically(Path(args.file), lambda out: write(graph, out))
        if not session.json:
            counts = f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges"
            print(f"exported {counts} as {args.format} to {args.file}", file=sys.stderr)
    return EXIT_OK


MAX_EXPORT_BYTES = 1024 * 1024 * 1024
"""Largest export ``import`` reads (1 GiB); a bigger file is refused before parsing."""


def _read_export(name: str) -> PortableGraph:
    """The export in ``name``, read within bounds, parsed (duplicate keys refused), validated and cleaned."""
    try:
        text = read_text(name, limit=MAX_EXPORT_BYTES)
    except DocumentError as exc:
        raise UsageError(str(exc)) from None
    try:
        # Checked before the database is opened: a refused file creates and writes nothing.
        return read_export(parse_export_text(text), time.time())
    except ImportRefused as exc:
        raise UsageError(f"{name}: {exc}") from None


async def cmd_import(args: argparse.Namespace, session: Session) -> int:
    """Load an export (validated and cleaned like ingest); refuses a non-empty database unless --replace."""
    session.refuse_tenant("import", "an export made with --tenant already holds only that tenant")
    graph = _read_export(args.file)
    async with session.open(create=True) as memory:
        nodes, edges, runs = await memory.import_(graph, replace=args.replace)
    if graph.cleaned:
        print(f"cleaned {graph.cleaned} text fields (secrets, markup, control characters)", file=sys.stderr)
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
