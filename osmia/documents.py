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

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from osmia.taskrun import TaskRun, TaskRunError, parse_taskrun

__all__ = [
    "STDIN",
    "STDIN_NAME",
    "SUFFIXES",
    "DocumentError",
    "Parsed",
    "expand_paths",
    "iter_objects",
    "iter_taskruns",
    "read_objects",
]

STDIN = "-"
"""The path that means standard input."""

STDIN_NAME = "<stdin>"
"""How locations name standard input."""

SUFFIXES = (".json", ".yaml", ".yml")
"""File name endings read from a directory."""


class DocumentError(ValueError):
    """A file that cannot be read or parsed at all; the message names the file (and line)."""


@dataclass(frozen=True)
class Parsed:
    """One object from a file: the TaskRun, or the error that names the bad field."""

    location: str
    run: TaskRun | None = None
    error: TaskRunError | None = None

    @property
    def message(self) -> str:
        """``file: document 2: spec.ticket.description: is required`` (errors only)."""
        return f"{self.location}: {self.error}" if self.error else ""


def expand_paths(paths: Iterable[str]) -> list[str]:
    """Replace each directory by its *.yaml, *.yml and *.json files (sorted, not recursive).

    A path that does not exist is an error here, before anything is read or written.
    """
    out: list[str] = []
    for raw in paths:
        path = Path(raw)
        if raw != STDIN and not path.exists():
            raise DocumentError(f"{raw}: no such file")
        if raw != STDIN and path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file())
            if not files:
                raise DocumentError(f"{raw}: no *.yaml, *.yml or *.json files in this directory")
            out.extend(str(p) for p in files)
        else:
            out.append(raw)
    return out


def _read_text(name: str) -> str:
    if name == STDIN:
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DocumentError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise DocumentError(f"{name}: is a directory") from None
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise DocumentError(f"{name}: cannot read: {exc.strerror or exc}") from None


def _looks_like_json(name: str, text: str) -> bool:
    """``.json`` files are JSON; standard input is JSON when it parses as JSON."""
    if name.lower().endswith(".json"):
        return True
    return name == STDIN_NAME and text.lstrip()[:1] in ("{", "[")


def _json_documents(name: str, text: str, *, strict: bool) -> list[Any] | None:
    try:
        return [json.loads(text)]
    except json.JSONDecodeError as exc:
        if not strict:
            return None
        raise DocumentError(
            f"{name}: line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}"
        ) from None


def _yaml_documents(name: str, text: str) -> Iterator[Any]:
    """Each YAML document in turn; a syntax error stops the stream with file and line."""
    try:
        yield from yaml.safe_load_all(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        what = exc.problem or exc.context or "syntax error"
        raise DocumentError(f"{name}: {where}invalid YAML: {what}") from None
    except yaml.YAMLError as exc:
        raise DocumentError(f"{name}: invalid YAML: {exc}") from None


def _documents(name: str, text: str) -> Iterable[Any]:
    if _looks_like_json(name, text):
        docs = _json_documents(name, text, strict=name != STDIN_NAME)
        if docs is not None:
            return docs
    return _yaml_documents(name, text)


def _is_list(obj: Any) -> bool:
    """A ``kind: List`` (or ``TaskRunList``) with ``items``, or a bare sequence."""
    if isinstance(obj, list):
        return True
    return (
        isinstance(obj, dict)
        and str(obj.get("kind", "")).endswith("List")
        and isinstance(obj.get("items"), list)
    )


def iter_objects(name: str, text: str) -> Iterator[tuple[str, Any]]:
    """``(location, object)`` for every object in one file's text; empty documents are skipped.

    Raises :class:`DocumentError` at a syntax error, after yielding the
    documents before it.
    """
    for index, doc in enumerate(_documents(name, text), start=1):
        if doc is None:
            continue
        where = f"{name}: document {index}"
        if _is_list(doc):
            items = doc if isinstance(doc, list) else doc["items"]
            for item_index, item in enumerate(items, start=1):
                yield f"{where}: item {item_index}", item
        else:
            yield where, doc


def read_objects(name: str) -> Iterator[tuple[str, Any]]:
    """:func:`iter_objects` for a file path (``-`` is standard input, named ``<stdin>``)."""
    text = _read_text(name)
    yield from iter_objects(STDIN_NAME if name == STDIN else name, text)


def iter_taskruns(name: str) -> Iterator[Parsed]:
    """Every object in a file, parsed: a :class:`Parsed` with the run or the field error."""
    for location, obj in read_objects(name):
        try:
            yield Parsed(location, run=parse_taskrun(obj))
        except TaskRunError as exc:
            yield Parsed(location, error=exc)
