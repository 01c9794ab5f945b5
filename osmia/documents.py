"""Reading TaskRun documents from files: YAML or JSON, one object, streams and Lists.

``kubectl get taskruns -o yaml`` prints a ``kind: List``; ``kubectl get
taskrun x -o yaml`` prints one object; people also write ``---`` streams and
JSON. This module turns any of those into ``(location, object)`` pairs, where
the location names the file, the document and the List item
(``history.yaml: document 2: item 3``), so that a caller can report exactly
which object is bad and still use the good ones. No validation of TaskRun
fields happens here (that is :func:`osmia.taskrun.parse_taskrun`).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from osmia.safeload import LoadError, check_object, json_document, yaml_documents
from osmia.taskrun import TaskRun, TaskRunError, parse_taskrun

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_OBJECTS",
    "STDIN",
    "STDIN_NAME",
    "SUFFIXES",
    "DocumentError",
    "Parsed",
    "expand_paths",
    "iter_objects",
    "iter_taskruns",
    "read_objects",
    "read_text",
]

STDIN = "-"
"""The path that means standard input."""

STDIN_NAME = "<stdin>"
"""How locations name standard input."""

SUFFIXES = (".json", ".yaml", ".yml")
"""File name endings read from a directory."""


class DocumentError(ValueError):
    """A file or document that cannot be read or parsed; the message names the file (and line)."""


@dataclass(frozen=True)
class Parsed:
    """One object from a file: the TaskRun, or the error that names the bad field."""

    location: str
    run: TaskRun | None = None
    error: TaskRunError | DocumentError | None = None

    @property
    def message(self) -> str:
        """``file: document 2: spec.ticket.description: is required`` (errors only)."""
        return f"{self.location}: {self.error}" if self.error else ""

    @property
    def field_path(self) -> str | None:
        """The bad field (``spec.flow``), when the error is about one field."""
        return self.error.field_path if isinstance(self.error, TaskRunError) else None


def expand_paths(paths: Iterable[str]) -> list[str]:
    """Replace each directory by its *.yaml, *.yml and *.json files (sorted, not recursive).

    A path that does not exist is an error here, before anything is read or written.
    """
    out: list[str] = []
    for raw in paths:
        path = Path(raw)
        if raw == STDIN:
            out.append(raw)
            continue
        try:  # a path that cannot be looked up (no permission, a name too long, a loop) is bad input
            is_dir = stat.S_ISDIR(path.stat().st_mode)
            files = (
                sorted(p for p in path.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file())
                if is_dir
                else []
            )
        except FileNotFoundError:
            raise DocumentError(f"{raw}: no such file") from None
        except OSError as exc:
            raise DocumentError(f"{raw}: cannot read: {exc.strerror or exc}") from None
        if is_dir:
            if not files:
                raise DocumentError(f"{raw}: no *.yaml, *.yml or *.json files in this directory")
            out.extend(str(p) for p in files)
        else:
            out.append(raw)
    return out


MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest input file (or standard input) read; a bigger one is refused before parsing."""


MAX_OBJECTS = 200_000
"""Most objects (documents and List items) read from one file; the rest is refused with one line."""


def file_kind(mode: int) -> str:
    """What a non-regular file is, for an error message ("a FIFO", "a directory", ...)."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _too_big(name: str, limit: int) -> DocumentError:
    return DocumentError(f"{name}: larger than {limit // (1024 * 1024)} MiB; refused")


def _read_stdin(limit: int) -> str:
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream (tests replace sys.stdin)
        text: str = sys.stdin.read(limit + 1)
        if len(text) > limit:
            raise _too_big(STDIN_NAME, limit)
        return text
    return _decode(STDIN_NAME, buffer.read(limit + 1), limit)


def _decode(name: str, data: bytes, limit: int) -> str:
    if len(data) > limit:
        raise _too_big(name, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{name}: not UTF-8 text (byte {exc.start})") from None


def read_text(name: str, limit: int = MAX_FILE_BYTES) -> str:
    """The whole file as UTF-8 text: a regular file (or ``-``, standard input) of at most ``limit`` bytes.

    Opened without blocking and checked before reading, so a FIFO, a device
    (``/dev/zero``) or a directory is refused instead of hanging or filling
    memory; pipe such input to standard input instead.
    """
    if name == STDIN:
        return _read_stdin(limit)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise DocumentError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise DocumentError(f"{name}: is a directory") from None
    except OSError as exc:
        raise DocumentError(f"{name}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise DocumentError(f"{name}: is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise DocumentError(
                f"{name}: is {file_kind(info.st_mode)}, not a regular file (use - to read standard input)"
            )
        if info.st_size > limit:
            raise _too_big(name, limit)
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    except OSError as exc:
        raise DocumentError(f"{name}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return _decode(name, data, limit)


def _looks_like_json(name: str, text: str) -> bool:
    """``.json`` files are JSON; standard input is JSON when it parses as JSON."""
    if name.lower().endswith(".json"):
        return True
    return name == STDIN_NAME and text.lstrip()[:1] in ("{", "[")


def _documents(name: str, text: str) -> Iterator[Any]:
    """Each document's data, or a :class:`LoadError` for a document that was refused."""
    if _looks_like_json(name, text):
        try:
            yield json_document(text)
            return
        except LoadError as exc:
            if name != STDIN_NAME:
                raise DocumentError(f"{name}: {exc}") from None
    try:
        yield from yaml_documents(text)
    except LoadError as exc:
        raise DocumentError(f"{name}: {exc}") from None


def _is_list(obj: Any) -> bool:
    """A ``kind: List`` (or ``TaskRunList``) with ``items``, or a bare sequence."""
    if isinstance(obj, list):
        return True
    return (
        isinstance(obj, dict)
        and isinstance(obj.get("kind"), str)
        and obj["kind"].endswith("List")
        and isinstance(obj.get("items"), list)
    )


def _checked(obj: Any) -> Any:
    """The object, or a :class:`TaskRunError` naming the first field the API server would refuse."""
    problem = check_object(obj)
    return obj if problem is None else TaskRunError(*problem)


def iter_objects(name: str, text: str) -> Iterator[tuple[str, Any]]:
    """``(location, object)`` for every object in one file's text; empty documents are skipped.

    A document or object that is refused (too deep, too big, an alias bomb,
    a duplicate key...) comes as ``(location, error)`` where the error is a
    :class:`DocumentError` or :class:`~osmia.taskrun.TaskRunError`, and the
    objects after it still come. Raises :class:`DocumentError` at a syntax
    error, after yielding the documents before it.
    """
    objects = 0
    for index, doc in enumerate(_documents(name, text), start=1):
        if doc is None:
            continue
        objects += len(doc) if _is_list(doc) and isinstance(doc, list) else 1
        if _is_list(doc) and isinstance(doc, dict):
            objects += len(doc["items"]) - 1
        if objects > MAX_OBJECTS:
            raise DocumentError(
                f"{name}: document {index}: more than {MAX_OBJECTS} objects in one file; refused"
            )
        where = f"{name}: document {index}"
        if isinstance(doc, LoadError):
            yield where, DocumentError(str(doc))
        elif _is_list(doc):
            items = doc if isinstance(doc, list) else doc["items"]
            for item_index, item in enumerate(items, start=1):
                yield f"{where}: item {item_index}", _checked(item)
        else:
            yield where, _checked(doc)


def read_objects(name: str) -> Iterator[tuple[str, Any]]:
    """:func:`iter_objects` for a file path (``-`` is standard input, named ``<stdin>``)."""
    text = read_text(name)
    yield from iter_objects(STDIN_NAME if name == STDIN else name, text)


def iter_taskruns(name: str) -> Iterator[Parsed]:
    """Every object in a file, parsed: a :class:`Parsed` with the run or the error."""
    for location, obj in read_objects(name):
        if isinstance(obj, (TaskRunError, DocumentError)):
            yield Parsed(location, error=obj)
            continue
        try:
            yield Parsed(location, run=parse_taskrun(obj))
        except TaskRunError as exc:
            yield Parsed(location, error=exc)
