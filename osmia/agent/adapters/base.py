"""What an engine adapter is: a command line and a parser of the engine's machine-readable output.

An adapter never runs anything itself. The runner starts ``command(...)``,
feeds every line the engine prints to ``feed`` and calls ``finish`` at the
end; the adapter fills an :class:`EngineReport`. Parsers are defensive by
construction: a line that is not JSON, an event of an unknown type or a field
of the wrong type is counted and skipped, never raised.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

PromptMode = Literal["stdin", "argument"]

TEST_COMMAND = re.compile(
    r"(?:^|[\s;&|(/])(?:pytest|py\.test|go test|cargo test|npm (?:run )?test|yarn test|pnpm test|jest|vitest"
    r"|mvn(?:w)? (?:-\S+ )*test|gradle(?:w)? (?:-\S+ )*test|rspec|phpunit|tox|make (?:check|test)|dotnet test"
    r"|python -m (?:pytest|unittest))\b"
)
"""A shell command that runs a test suite (for engines that report the commands they ran)."""


@dataclass
class EngineReport:
    """What an engine's own output says about its run (every figure optional)."""

    summary: str = ""
    """The engine's final message."""
    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    """Set when the engine reports a total of its own; else input + output."""
    cost_usd: float | None = None
    tool_calls: Counter[str] = field(default_factory=Counter)
    turns: int | None = None
    is_error: bool = False
    """The engine said its run failed (an error event or an error result)."""
    error: str = ""
    """The engine's own error text, for classification (auth, rate limit, context overflow)."""
    tests_failed: list[str] = field(default_factory=list)
    """Failed tests from the engine's structured output, when it reports any."""
    last_test_command: str = ""
    """The last test-suite command the engine ran, from its structured output."""
    last_test_passed: bool | None = None
    """Whether that command succeeded (None when the engine ran no tests or did not say)."""
    events: int = 0
    """Events understood."""
    ignored: int = 0
    """Lines that were not JSON, not an object, or of an unknown type."""

    def tokens(self) -> int | None:
        """Total tokens: the engine's own total, else input + output, else None."""
        if self.total_tokens is not None:
            return self.total_tokens
        if self.input_tokens is None and self.output_tokens is None:
            return None
        return (self.input_tokens or 0) + (self.output_tokens or 0)

    def add_tokens(self, input_tokens: Any = 0, output_tokens: Any = 0) -> None:
        """Add a usage record; values that are not non-negative integers count as 0."""
        self.input_tokens = (self.input_tokens or 0) + count(input_tokens)
        self.output_tokens = (self.output_tokens or 0) + count(output_tokens)

    def note_command(self, command: Any, passed: bool | None) -> None:
        """Remember a shell command the engine ran, if it ran a test suite."""
        if isinstance(command, list):
            command = " ".join(str(part) for part in command)
        if isinstance(command, str) and TEST_COMMAND.search(command):
            self.last_test_command = " ".join(command.split())[:200]
            self.last_test_passed = passed

    def note_error(self, text: Any) -> None:
        """Remember an error the engine reported (the first non-empty one leads)."""
        self.is_error = True
        message = text if isinstance(text, str) else json.dumps(text)[:2000] if text else ""
        if message and message not in self.error:
            self.error = f"{self.error}; {message}" if self.error else message


MAX_COUNT = 10**12
"""No engine run uses a trillion tokens; a bigger figure is garbage."""


def count(value: Any) -> int:
    """A non-negative int from an untrusted value, else 0 (``True`` is not a count)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if value != value or not 0 <= value <= MAX_COUNT:
        return 0
    return int(value)


def money(value: Any) -> float | None:
    """A non-negative finite amount from an untrusted value, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    amount = float(value)
    if amount != amount or not 0 <= amount <= MAX_COUNT:
        return None
    return amount


def text_of(value: Any) -> str:
    """A string field, or "" when it is missing or of another type."""
    return value if isinstance(value, str) else ""


class EngineAdapter:
    """Base of every engine adapter; subclasses set the class attributes and override the hooks."""

    name: ClassVar[str]
    """Engine identifier as in ``TaskRun.spec.engine`` and ``engines.<name>``."""
    executable: ClassVar[str]
    """The CLI on ``PATH``."""
    prompt_mode: ClassVar[PromptMode] = "stdin"
    """How the prompt reaches the engine: on standard input, or as a command-line argument."""

    def command(self, prompt: str, *, model: str, extra_args: Sequence[str], prompt_file: str) -> list[str]:
        """The full argv: non-interactive, machine-readable output, permissions for an unattended run."""
        raise NotImplementedError

    def env(self, base: Mapping[str, str]) -> dict[str, str]:
        """Extra environment for the engine process (e.g. switching off update checks)."""
        return {}

    def new_report(self) -> EngineReport:
        """A fresh report for one run."""
        return EngineReport()

    def feed(self, line: str, report: EngineReport) -> None:
        """Take one line of the engine's standard output."""
        raise NotImplementedError

    def feed_stderr(self, line: str, report: EngineReport) -> None:
        """Take one line of the engine's standard error (ignored unless the engine reports there)."""

    def finish(self, report: EngineReport) -> None:
        """Called once after the last line (for formats that are only whole at the end)."""


class JsonLinesAdapter(EngineAdapter):
    """An engine that prints one JSON object per line; subclasses implement ``on_event``."""

    def feed(self, line: str, report: EngineReport) -> None:
        """Parse one line as a JSON object and hand it to ``on_event``; anything else is ignored."""
        stripped = line.strip()
        if not stripped.startswith("{"):
            if stripped:
                report.ignored += 1
            return
        try:
            event = json.loads(stripped)
        except ValueError:
            report.ignored += 1
            return
        if not isinstance(event, dict):
            report.ignored += 1
            return
        try:
            understood = self.on_event(event, report)
        except (AttributeError, TypeError, ValueError, KeyError, OverflowError):  # an unexpected shape
            understood = False
        if understood:
            report.events += 1
        else:
            report.ignored += 1

    def on_event(self, event: dict[str, Any], report: EngineReport) -> bool:
        """Apply one event; return False for an event type this adapter does not know."""
        raise NotImplementedError
