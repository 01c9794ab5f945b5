"""A memory database from the example history, plus facts whose text is hostile, and a served dashboard."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from osmia.memory import Memory, MemorySettings
from osmia.memory.merge import node_id
from osmia.memory.types import Kind, Node, Subject

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = (
    '<script>window.__pwned = "script"</script>',
    "<img src=x onerror=\"window.__pwned = 'img'\">",
    '"><svg onload="window.__pwned = \'svg\'"><a href="javascript:window.__pwned=1">x</a>',
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def hostile_nodes(now: float) -> list[Node]:
    """Facts as a tampered or older database might hold them: text never cleaned.

    Ingest and import clean agent text, so these go straight into the store: the dashboard must be
    safe whatever the file holds.
    """
    return [
        Node(
            id=node_id("ticketing", f"learning:hostile:{i}"),
            tenant="ticketing",
            kind=Kind.LEARNING,
            key=f"learning:hostile:{i}",
            content=f"XSS probe {i}: {payload}",
            subject=Subject(repository="github.com/acme/payments-api"),
            confidence=0.5,
            decay_rate=0.04,
            valid_from=now - 3600,
            last_seen=now - 3600,
            sources=["tr/agents/<b>bold</b>"],
        )
        for i, payload in enumerate(HOSTILE)
    ]


@pytest.fixture(scope="session")
def example_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("dashboard") / "memory.db"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "osmia",
            "memory",
            "--db",
            str(db),
            "ingest",
            str(ROOT / "examples" / "history"),
        ],
        check=True,
        capture_output=True,
    )

    async def plant() -> None:
        memory = await Memory.open(MemorySettings(store_path=db), catch_up=False)
        try:
            store = memory._store
            async with store.transaction():
                await store.upsert_nodes(hostile_nodes(time.time()))
        finally:
            await memory.close()

    asyncio.run(plant())
    return db


@pytest.fixture(scope="session")
def served(example_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``osmia memory serve`` as a real process; yields its base URL."""
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "osmia", "memory", "--db", str(example_db), "serve", "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/", timeout=5):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"dashboard did not start:\n{log.read_text()}") from None
            time.sleep(0.2)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
