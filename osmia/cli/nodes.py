"""``osmia memory status``, ``search``, ``show`` and ``forget``: look at the graph, node by node."""

from __future__ import annotations

import argparse

from osmia.cli.errors import EXIT_OK, Failure, UsageError
from osmia.cli.render import print_node, print_search_hit, print_status
from osmia.cli.session import Session
from osmia.cli.shapes import edge_json, node_json, print_json
from osmia.cli.terminal import inline
from osmia.taskrun.limits import MAX_UID, UID, dns_label_problem, dns_subdomain_problem, shown


async def cmd_status(args: argparse.Namespace, session: Session) -> int:
    """Counts, decay clock and integrity of the database (or one tenant's part)."""
    async with session.open(create=False, read_only=True) as memory:
        status = await memory.status(session.tenant)
    if session.json:
        print_json(status)
    else:
        print_status(status)
    return EXIT_OK


async def cmd_search(args: argparse.Namespace, session: Session) -> int:
    """Full-text (BM25) matches of QUERY, best first."""
    text = " ".join(args.query)
    async with session.open(create=False, read_only=True) as memory:
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
    async with session.open(create=False, read_only=True) as memory:
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
    """Delete one node and its edges, or unlearn one TaskRun (``--run NAMESPACE/NAME``)."""
    if (args.node_id is None) == (args.run is None):
        raise UsageError("forget takes a node ID or --run NAMESPACE/NAME (one of them)")
    if args.run is not None:
        return await _forget_run(args.run, session)
    async with session.open(create=False) as memory:
        done = await memory.forget(args.node_id, session.tenant)
    if not done:
        raise _missing(args.node_id, session.tenant)
    if session.json:
        print_json({"forgotten": args.node_id})
    else:
        print(f"forgot {inline(args.node_id)}")
    return EXIT_OK


async def _forget_run(name: str, session: Session) -> int:
    parts = name.removeprefix("tr/").split("/")
    problem = None
    if len(parts) not in (2, 3) or not all(parts):
        problem = "expected NAMESPACE/NAME (or NAMESPACE/NAME/UID)"
    else:
        problem = dns_label_problem(parts[0]) or dns_subdomain_problem(parts[1])
        if problem is None and len(parts) == 3 and (len(parts[2]) > MAX_UID or not UID.match(parts[2])):
            problem = "the uid is not one Kubernetes gives"
    if problem is not None:  # no run could have this name: a typo, not a miss
        raise UsageError(f"--run {shown(name)}: {problem}")
    async with session.open(create=False) as memory:
        result = await memory.forget_run(name, session.tenant)
    if not result.runs:
        raise Failure(
            f"no extracted run {shown(name)}" + (f" in tenant {session.tenant}" if session.tenant else "")
        )
    if session.json:
        print_json(result.as_dict())
    else:
        runs = ", ".join(result.runs)
        print(
            f"forgot {len(result.runs)} run(s) {runs}: {len(result.deleted)} nodes deleted, "
            f"{result.updated} rewritten, {result.edges_removed} edges removed"
        )
    return EXIT_OK
