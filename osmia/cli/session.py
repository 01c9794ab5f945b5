"""What every memory verb shares: the database and its settings, the tenant scope, the output mode."""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from osmia.cli.errors import UsageError
from osmia.config import ENV_MEMORY_STORE_PATH, Config, load_config
from osmia.documents import file_kind
from osmia.memory.service import Memory, MemorySettings


def check_regular(path: Path, what: str) -> None:
    """Bad usage unless ``path`` is missing or a regular file: never open a FIFO, device or directory.

    SQLite would block on a FIFO, read ``/dev/zero`` forever, and fail on a
    directory with a message that names neither the option nor the path.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(f"{what} {path}: cannot use: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"{what} {path}: is {file_kind(mode)}, not a file")


def memory_settings(store_path: Path, config: Config | None) -> MemorySettings:
    """Facade settings: the ``memory:`` section of ``config`` if given, else the defaults."""
    if config is None:
        return MemorySettings(store_path=store_path)
    return MemorySettings.from_config(config.memory, store_path)


def resolve_db(db: str | None, config: Config | None, environ: Mapping[str, str] | None = None) -> Path:
    """``--db``, else ``$OSMIA_MEMORY_STORE_PATH``, else ``memory.store_path`` of ``--config``."""
    env = os.environ if environ is None else environ
    if db:
        return Path(db)
    if env.get(ENV_MEMORY_STORE_PATH):
        return Path(env[ENV_MEMORY_STORE_PATH])
    if config is not None:
        return config.memory.store_path
    raise UsageError(f"--db FILE is required (or set {ENV_MEMORY_STORE_PATH}, or pass --config FILE)")


@dataclass(frozen=True)
class Session:
    """What every verb needs: settings to open the database with, the tenant scope, the output mode."""

    settings: MemorySettings
    tenant: str | None
    json: bool

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Session:
        """The session the memory options (``--db``, ``--config``, ``--tenant``, ``--json``) ask for."""
        config = None
        if args.config:
            check_regular(Path(args.config), "--config")
            config = load_config(Path(args.config))
        db = resolve_db(args.db, config)
        check_regular(db, "memory database")
        return cls(memory_settings(db, config), args.tenant, args.json)

    def refuse_tenant(self, verb: str, why: str) -> None:
        """Bad usage if ``--tenant`` was given to a verb that works on the whole graph."""
        if self.tenant is not None:
            raise UsageError(f"{verb} does not take --tenant: {why}")

    @asynccontextmanager
    async def open(self, *, create: bool, read_only: bool = False) -> AsyncIterator[Memory]:
        """Open the database for one verb and close it afterwards.

        Missed decay cycles are not applied on open, so looking at the graph
        never changes it; ``osmia memory decay`` is the explicit way to decay.
        ``read_only`` (the read verbs) never creates, migrates or writes the file.
        """
        check_regular(self.settings.store_path, "memory database")
        memory = await Memory.open(
            self.settings, create=create, catch_up=False, update_gauges=False, read_only=read_only
        )
        try:
            yield memory
        finally:
            await memory.close()
