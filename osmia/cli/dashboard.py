"""``osmia memory serve``: the read-only dashboard over a database, until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import sys

from osmia.cli.errors import EXIT_OK, Failure
from osmia.cli.session import Session
from osmia.dashboard import serve


async def cmd_serve(args: argparse.Namespace, session: Session) -> int:
    """Serve the dashboard on ``--host:--port`` (127.0.0.1 by default: it shows all memory)."""
    session.refuse_tenant("serve", "the dashboard shows every tenant, each labelled; filter in the page")
    async with session.open(create=False) as memory:
        try:
            runner = await serve(memory, args.host, args.port)
        except OSError as exc:
            raise Failure(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from exc
        host = f"[{args.host}]" if ":" in args.host else args.host
        print(
            f"Osmia memory dashboard (read-only): http://{host}:{args.port}/  (Ctrl-C stops)", file=sys.stderr
        )
        sys.stderr.flush()
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
    return EXIT_OK
