"""Logging: one explicit structlog set-up for Osmia and for stdlib loggers (kopf).

Everything goes to stderr (stdout belongs to command output), as JSON lines
for machines or as aligned console lines for people, with ISO 8601 UTC
timestamps. kopf and other libraries log through the stdlib ``logging``
module; their records pass through the same processors and renderer via
``structlog.stdlib.ProcessorFormatter`` so that the operator writes one
uniform stream.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, Final, cast

import structlog
from structlog.typing import EventDict, FilteringBoundLogger, Processor

__all__ = ["FORMATS", "LEVELS", "configure_logging", "get_logger"]

LEVELS: Final = ("debug", "info", "warning", "error", "critical")
"""Accepted level names (lower case)."""

FORMATS: Final = ("json", "console")
"""Accepted output formats."""

# Libraries that are chatty at DEBUG level about every statement they run.
_NOISY_LOGGERS: Final = ("aiosqlite", "asyncio")


class _Stderr:
    """A file-like object that writes to whatever ``sys.stderr`` is *now*.

    Resolving the stream at write time keeps logging working when the stream
    is swapped after configuration (pytest's capture, daemonisation).
    """

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()

    def isatty(self) -> bool:
        return sys.stderr.isatty()


class _OsmiaHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Marker class so a second ``configure_logging`` replaces the handler it installed."""


def _level_number(level: str) -> int:
    """``"info"`` → ``logging.INFO``; refuses names outside :data:`LEVELS`."""
    name = level.strip().lower()
    if name not in LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LEVELS)}; got {level!r}")
    return cast(int, getattr(logging, name.upper()))


def _renderer(fmt: str) -> Processor:
    """The last processor: JSON lines or human console lines."""
    if fmt == "json":
        return structlog.processors.JSONRenderer(sort_keys=False)
    if fmt == "console":
        return structlog.dev.ConsoleRenderer(colors=_Stderr().isatty())
    raise ValueError(f"log format must be one of {', '.join(FORMATS)}; got {fmt!r}")


def _logger_key(_logger: Any, _method: str, event_dict: EventDict) -> EventDict:
    """Rename ``logger_name`` (set by :func:`get_logger`) to ``logger``, the stdlib records' key."""
    if "logger_name" in event_dict:
        event_dict.setdefault("logger", event_dict.pop("logger_name"))
    return event_dict


# Extras kopf's per-object loggers attach to every record: the whole OperatorSettings (a repr of
# several KB per line, most of the operator's log volume and much of its CPU under load).
_UNRENDERED_EXTRAS: Final = ("settings",)


def _drop_unrenderable(_logger: Any, _method: str, event_dict: EventDict) -> EventDict:
    """Leave out record extras that are configuration objects, not facts about the event."""
    for key in _UNRENDERED_EXTRAS:
        event_dict.pop(key, None)
    return event_dict


def _shared_processors() -> list[Processor]:
    """Processors applied to structlog events and stdlib records alike."""
    return [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.StackInfoRenderer(),
    ]


def _exception_processors(fmt: str) -> list[Processor]:
    """JSON needs tracebacks turned into data (without local variables, which may hold
    secrets); the console renderer prints them itself."""
    if fmt != "json":
        return []
    transformer = structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
    return [structlog.processors.ExceptionRenderer(transformer)]


def _configure_stdlib(level: int, fmt: str, renderer: Processor) -> None:
    """Route stdlib records (kopf, aiosqlite, ...) through the same processors to stderr."""
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[
            *_shared_processors(),
            structlog.stdlib.add_logger_name,
            structlog.stdlib.ExtraAdder(),
            _drop_unrenderable,
        ],
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            *_exception_processors(fmt),
            renderer,
        ],
    )
    handler = _OsmiaHandler(_Stderr())
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _OsmiaHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.INFO))


def configure_logging(level: str = "info", fmt: str = "json") -> None:
    """Configure structlog and stdlib logging: level filter, format, ISO UTC time, stderr.

    Safe to call again (e.g. once the config file has been read): the
    previous configuration is replaced, not stacked.
    """
    number = _level_number(level)
    renderer = _renderer(fmt)
    structlog.configure(
        processors=[_logger_key, *_shared_processors(), *_exception_processors(fmt), renderer],
        wrapper_class=structlog.make_filtering_bound_logger(number),
        logger_factory=structlog.PrintLoggerFactory(file=cast(Any, _Stderr())),
        context_class=dict,
        cache_logger_on_first_use=False,
    )
    _configure_stdlib(number, fmt, renderer)


def get_logger(name: str) -> FilteringBoundLogger:
    """A structlog logger that names its origin (``"logger": name``) in every event.

    Loggers obtained before :func:`configure_logging` follow the configuration
    in force when they log, so modules may create them at import time.
    """
    return cast(FilteringBoundLogger, structlog.get_logger(logger_name=name))
