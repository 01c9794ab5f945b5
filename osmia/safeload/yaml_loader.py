"""YAML: libyaml's (or PyYAML's) events, composed in Python with depth, aliases and size bounded.

PyYAML resolves plain scalars by YAML 1.1 and composes without limits; here
the YAML 1.2 core schema applies (:class:`CoreResolver`), a document is
refused past :data:`~osmia.safeload.values.MAX_DEPTH` levels,
:data:`~osmia.safeload.values.MAX_ALIAS_COST` alias-expanded values or
:data:`~osmia.safeload.values.MAX_DOCUMENT_VALUES` values, and a document
the parser cannot read is skipped up to the next ``---`` line.
"""

from __future__ import annotations

import io
import re
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import DocumentEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from osmia.safeload import values
from osmia.safeload.values import (
    MAX_ALIAS_COST,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_STREAM_ALIAS_COST,
    LoadError,
    Mapping,
    Refused,
    problem_text,
)

try:
    from yaml import _yaml as _libyaml

    _CParser: Any = _libyaml.CParser
except ImportError:  # PyYAML built without libyaml
    _CParser = None


def _mark_text(mark: Any, line_offset: int) -> str:
    """``line 3, column 7: `` for a mark (0-based, counted from ``line_offset``), or nothing."""
    if mark is None:
        return ""
    return f"line {mark.line + line_offset + 1}, column {mark.column + 1}: "


class _Spent(LoadError):
    """The aliases of the whole stream stand for too many values: reading stops (no resume)."""


class _Budget:
    """What the aliases of one stream have stood for so far, across the loaders that read it."""

    def __init__(self) -> None:
        self.used = 0


class _Stop(LoadError):
    """The scanner or parser cannot go on (a syntax error, or nesting it refuses) at ``line`` (0-based)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line
        self.document_line = line
        self.reported = False

    def at(self, document_line: int, *, reported: bool = False) -> _Stop:
        """This stop, in the document that began on ``document_line`` (already reported or not)."""
        self.document_line = min(document_line, self.line)
        self.reported = reported
        return self


class CoreResolver(BaseResolver):
    """YAML 1.2's core schema: ``yes``, ``on`` and ``n`` are strings, ``010`` is ten, no implicit dates.

    PyYAML resolves plain scalars by YAML 1.1, where ``enabled: yes`` is
    ``true`` and ``1:30`` is ninety; the API server's JSON knows only
    ``true``/``false`` and decimal numbers, so a document means here what
    it means there, and ``yes`` is refused where a boolean is required.
    """


CoreResolver.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
CoreResolver.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789")
)
CoreResolver.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+.0123456789"),
)
CoreResolver.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)
CoreResolver.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^<<$"), ["<"])


class _Bounded(Composer, SafeConstructor, CoreResolver):
    """PyYAML's composer and safe constructor with depth and alias expansion bounded.

    The events come from libyaml when PyYAML was built with it (about ten
    times faster than PyYAML's pure-Python scanner and parser, and libyaml
    itself refuses nesting past 1,000 levels in linear time), else from
    PyYAML's own parser; composing stays here, where it can be bounded.
    """

    if TYPE_CHECKING:  # given by the parser the concrete loader also derives from

        def check_event(self, *choices: Any) -> bool: ...
        def peek_event(self) -> Any: ...
        def get_event(self) -> Any: ...
        def dispose(self) -> None: ...

    def _start(self, line_offset: int, budget: _Budget | None = None) -> None:
        self.line_offset = line_offset
        self._budget = budget if budget is not None else _Budget()
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        CoreResolver.__init__(self)
        self._depth = 0
        self._cost: dict[int, int] = {}
        self._alias_cost = 0
        self._values = 0

    def compose_document(self) -> Node | None:
        self._depth, self._cost, self._alias_cost, self._values = 0, {}, 0, 0
        try:
            return super().compose_document()
        finally:
            self._cost = {}

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self._depth >= MAX_DEPTH:
            event = self.peek_event()
            raise LoadError(f"{self._at(event)}nesting deeper than {MAX_DEPTH} levels")
        self._depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if node is not None:
            self._count(node)
        return node

    def _at(self, node_or_event: Any) -> str:
        return _mark_text(getattr(node_or_event, "start_mark", None), self.line_offset)

    def _count(self, node: Node) -> None:
        """What the node stands for once aliases are expanded; an alias adds its target's count."""
        known = self._cost.get(id(node))
        if known is not None:  # an alias: the anchored node again
            self._alias_cost += known
            self._budget.used += known
            if self._budget.used > MAX_STREAM_ALIAS_COST:
                raise _Spent(
                    f"{self._at(node)}aliases in this stream expand to more than {MAX_STREAM_ALIAS_COST} "
                    "values in all; the documents after this one were not read"
                )
            if self._alias_cost > MAX_ALIAS_COST:
                raise LoadError(
                    f"{self._at(node)}aliases expand to more than {MAX_ALIAS_COST} values (an alias bomb?)"
                )
            return
        self._values += 1
        if self._values > values.MAX_DOCUMENT_VALUES:
            raise LoadError(
                f"{self._at(node)}the document holds more than {values.MAX_DOCUMENT_VALUES} values"
                " (split it into a --- stream)"
            )
        cost = 1
        if isinstance(node, ScalarNode):
            cost += len(node.value) // 64
        elif isinstance(node, SequenceNode):
            cost += sum(self._cost.get(id(child), 1) for child in node.value)
        elif isinstance(node, MappingNode):
            cost += sum(self._cost.get(id(k), 1) + self._cost.get(id(v), 1) for k, v in node.value)
        self._cost[id(node)] = min(cost, MAX_ALIAS_COST + 1)

    def skip_document(self) -> None:
        """After a refused document: drop its remaining events, so the next document can be read."""
        while not self.check_event(DocumentEndEvent):
            self.get_event()
        self.get_event()
        self.anchors = {}
        self.constructed_objects = {}
        self.recursive_objects = {}
        self.state_generators = []
        self.deep_construct = False


class _PyLoader(_Bounded, Reader, Scanner, Parser):
    """Pure-Python events (PyYAML without libyaml)."""

    def __init__(self, stream: str | io.StringIO, line_offset: int, budget: _Budget | None = None) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        self._start(line_offset, budget)

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:
        """Refuse ``[``/``{`` nesting past :data:`MAX_DEPTH` while scanning.

        PyYAML's scanner keeps one possible simple key per flow level and
        walks them all at every token, so deep flow nesting costs quadratic
        time before the composer ever sees it. The scanner cannot go on after
        this; :func:`yaml_documents` resumes at the next ``---`` line.
        """
        if self.flow_level >= MAX_DEPTH:
            mark = self.get_mark()
            where = _mark_text(mark, self.line_offset)
            raise _Stop(f"{where}nesting deeper than {MAX_DEPTH} levels", mark.line + self.line_offset)
        super().fetch_flow_collection_start(TokenClass)


def _loader(stream: str | io.StringIO, line_offset: int, budget: _Budget | None = None) -> _Bounded:
    """A bounded loader over ``stream``: libyaml's events when available, else PyYAML's."""
    if _CParser is None:
        return _PyLoader(stream, line_offset, budget)
    return _CLoader(stream, line_offset, budget)


if _CParser is not None:

    class _CLoader(_Bounded, _CParser):  # type: ignore[misc]
        """libyaml's events."""

        def __init__(
            self, stream: str | io.StringIO, line_offset: int, budget: _Budget | None = None
        ) -> None:
            _CParser.__init__(self, stream)
            self._start(line_offset, budget)


def _construct_int(loader: _Bounded, node: ScalarNode) -> int | Refused:
    """A YAML 1.2 integer (decimal, ``0o`` octal, ``0x`` hex), refused when too long to be 64 bits."""
    text = str(node.value).replace("_", "")
    sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text.lstrip("+"))
    if len(digits) > MAX_INT_DIGITS:
        return Refused(f"integer of {len(digits)} digits is outside the 64-bit range")
    base = {"0o": 8, "0x": 16, "0b": 2}.get(digits[:2].lower(), 10)
    try:
        return sign * int(digits[2:] if base != 10 else digits, base)
    except ValueError:
        return Refused(f"{_short_text(text)} is not an integer")


def _construct_bool(loader: _Bounded, node: ScalarNode) -> bool | Refused:
    """``true`` or ``false`` in any case; ``!!bool yes`` is refused, not guessed."""
    text = str(node.value).lower()
    if text in ("true", "false"):
        return text == "true"
    return Refused(f"{_short_text(node.value)} is not true or false")


def _short_text(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:30] + "…")


def _construct_map(loader: _Bounded, node: MappingNode) -> Iterator[Mapping]:
    data = Mapping()
    yield data
    seen: set[tuple[str, str]] = set()
    duplicates: list[str] = []
    for key_node, _value in node.value:
        if isinstance(key_node, ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
            ident = (key_node.tag, key_node.value)
            if ident in seen and key_node.value not in duplicates:
                duplicates.append(key_node.value)
            seen.add(ident)
    data.update(loader.construct_mapping(node))
    data.duplicates = tuple(duplicates)


_Bounded.add_constructor("tag:yaml.org,2002:int", _construct_int)  # type: ignore[type-var]
_Bounded.add_constructor("tag:yaml.org,2002:bool", _construct_bool)  # type: ignore[type-var]
_Bounded.add_constructor("tag:yaml.org,2002:map", _construct_map)  # type: ignore[type-var]


def _yaml_error(exc: yaml.YAMLError, line_offset: int) -> LoadError:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        what = problem_text(exc.problem or exc.context or "syntax error")
        if "maximum nesting depth" in what:  # libyaml's own limit (1,000 levels)
            what = f"nesting deeper than {MAX_DEPTH} levels"
        else:
            what = f"invalid YAML: {what}"
        message = f"{_mark_text(mark, line_offset)}{what}"
        return LoadError(message) if mark is None else _Stop(message, mark.line + line_offset)
    return LoadError(
        f"invalid YAML: {problem_text(str(exc).splitlines()[0]) if str(exc) else type(exc).__name__}"
    )


_DOCUMENT_START = re.compile(r"^---(?=[ \t\r\n]|$)", re.MULTILINE)


def _next_document(text: str, start: int, line: int, after_line: int) -> tuple[int, int] | None:
    """Offset and line of the first ``---`` line below ``after_line``, from ``start`` (on ``line``)."""
    for found in _DOCUMENT_START.finditer(text, start):
        line += text.count("\n", start, found.start())
        start = found.start()
        if line > after_line:
            return start, line
    return None


def yaml_documents(text: str) -> Iterator[Any]:
    """Each document of a YAML stream, in order: its data, or a :class:`LoadError` for a refused one.

    A document that is too deep or expands too far, or that the parser
    cannot read, is reported and skipped: reading goes on at the next
    ``---`` line, which always starts a document (YAML forbids it inside
    one). An error that names no line ends the stream (raised, after the
    documents before it).
    """
    stream: str | io.StringIO = text
    start, line = 0, 0
    budget = _Budget()  # the whole stream's aliases, across resumes
    while True:
        stopped = yield from _stream(stream, line, budget)
        if stopped is None:
            return
        if not stopped.reported:
            yield stopped
        found = _next_document(text, start, line, stopped.document_line)
        if found is None:
            return
        start, line = found
        if isinstance(stream, str):  # one copy for every resume, read from the offset on
            stream = io.StringIO(text)
        stream.seek(start)


def _stream(
    stream: str | io.StringIO, line_offset: int, budget: _Budget | None = None
) -> Generator[Any, None, _Stop | None]:
    """The documents of ``stream`` until its end (``None``) or a point the parser cannot go on from.

    The returned stop knows the line where its document began, so reading
    can resume at the next document marker after it.
    """
    loader = _loader(stream, line_offset, budget)
    document_line = line_offset
    try:
        while True:
            try:
                if not loader.check_node():
                    return None
                document_line = loader.peek_event().start_mark.line + line_offset
                node = loader.get_node()
            except _Stop as exc:
                return exc.at(document_line)
            except _Spent:
                raise  # ends the stream: nothing after it is read
            except LoadError as exc:
                yield exc
                try:
                    loader.skip_document()
                except _Stop as exc_:
                    return exc_.at(document_line, reported=True)
                except yaml.YAMLError as syntax:
                    return _stopped(syntax, line_offset).at(document_line, reported=True)
                continue
            except yaml.YAMLError as exc:
                return _stopped(exc, line_offset).at(document_line)
            try:
                yield loader.construct_document(node)
            except yaml.YAMLError as exc:  # e.g. an unknown tag: this document only
                loader.constructed_objects, loader.recursive_objects = {}, {}
                loader.state_generators, loader.deep_construct = [], False
                yield _yaml_error(exc, line_offset)
    finally:
        loader.dispose()


def _stopped(exc: yaml.YAMLError, line_offset: int) -> _Stop:
    """The error as a :class:`_Stop`; raised as it is when it names no line (nowhere to resume from)."""
    error = _yaml_error(exc, line_offset)
    if not isinstance(error, _Stop):
        raise error from None
    return error
