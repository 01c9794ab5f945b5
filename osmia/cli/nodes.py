"""``osmia memory status``, ``search``, ``show`` and ``forget``: look at the graph, node by node."""

from __future__ import annotations

import argparse

from osmia.cli.errors import EXIT_OK, Failure
from osmia.cli.render import print_node, print_search_hit, print_status
from osmia.cli.session import Session
from osmia.cli.shapes import edge_json, node_json, print_json


async def cmd_status(args: argparse.Namespace, session: Session) -> int:
    """Counts, decay clock and integrity of the database (or one tenant's part)."""
    async with session.open(create=False) as memory:
        status = await memory.status(session.tenant)
    if session.json:
        print_json(status)
    else:
        print_status(status)
    return EXIT_OK


async def cmd_search(args: argparse.Namespace, session: Session) -> int:
    """Full-text (BM25) matches of QUERY, best first."""
    text = " ".join(args.query)
    async with session.open(create=False) as memory:
        hits = await memory.search(text, session.tenant)
    if session.json:
        print_json([{**node_json(node), "rank": rank} for node, rank in hits])
        return EXIT_OK
    if not hits:
        print("no matches")
    for node, _rank in hits:
        print_search_hit(node)
    return EXIT_OK


def _missing(node_id: str, tenant: str | None) -> Failure:
    return Failure(f"no node {node_id}" + (f" in tenant {tenant}" if tenant else ""))


async def cmd_show(args: argparse.Namespace, session: Session) -> int:
    """One node and its edges."""
    async with session.open(create=False) as memory:
        found = await memory.show(args.node_id, session.tenant)
    if found is None:
        raise _missing(args.node_id, session.tenant)
    node, edges = found
    if session.json:
        print_json({"node": node_json(node), "edges": [edge_json(e) for e in edges]})
    else:
        print_node(node, edges)
    return EXIT_OK


async def cmd_forget(args: argparse.Namespace, session: Session) -> int:
    """Delete one node and its edges."""
    async with session.open(create=False) as memory:
        done = await memory.forget(args.node_id, session.tenant)
    if not done:
        raise _missing(args.node_id, session.tenant)
    if session.json:
        print_json({"forgotten": args.node_id})
    else:
        print(f"forgot {args.node_id}")
    return EXIT_OK
