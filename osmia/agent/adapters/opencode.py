"""OpenCode: ``opencode run --format json``.

JSON Lines, each ``{type, timestamp, sessionID, part}``: ``step_start``,
``text`` (``part.text``), ``tool_use`` (``part.tool``, ``part.callID``,
``part.state.status``), ``step_finish`` (``part.reason``, ``part.cost``,
``part.tokens`` with ``input``, ``output``, ``reasoning`` and
``cache.read``/``cache.write``) and ``error`` (``error.name``,
``error.data.message``). The prompt goes as the message argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from osmia.agent.adapters.base import EngineReport, JsonLinesAdapter, count, money, text_of


class OpenCode(JsonLinesAdapter):
    """Adapter for the OpenCode CLI."""

    name = "opencode"
    executable = "opencode"
    prompt_mode = "argument"

    def __init__(self) -> None:
        self._seen_calls: set[str] = set()
        self._step_text: list[str] = []

    def new_report(self) -> EngineReport:
        """A fresh report; forget tool calls and text of an earlier run."""
        self._seen_calls, self._step_text = set(), []
        return EngineReport()

    def command(self, prompt: str, *, model: str, extra_args: Sequence[str], prompt_file: str) -> list[str]:
        """``run`` is non-interactive; ``--auto`` approves tools not denied by config; JSON events."""
        argv = [self.executable, "run", "--format", "json", "--auto"]
        if model:
            argv += ["--model", model]
        return [*argv, *extra_args, prompt]

    def on_event(self, event: dict[str, Any], report: EngineReport) -> bool:
        """Text of the last step is the summary; tokens and cost add up over steps."""
        kind = event.get("type")
        part = event.get("part")
        part = part if isinstance(part, dict) else {}
        if kind == "step_start":
            self._step_text = []
            return True
        if kind == "text":
            self._step_text.append(text_of(part.get("text")))
            return True
        if kind == "tool_use":
            call = text_of(part.get("callID")) or text_of(part.get("id"))
            if not call or call not in self._seen_calls:
                self._seen_calls.add(call)
                report.tool_calls[text_of(part.get("tool")) or "unknown"] += 1
            return True
        if kind == "step_finish":
            tokens = part.get("tokens")
            if isinstance(tokens, dict):
                cache = tokens.get("cache")
                cache = cache if isinstance(cache, dict) else {}
                report.add_tokens(
                    count(tokens.get("input")) + count(cache.get("read")) + count(cache.get("write")),
                    count(tokens.get("output")) + count(tokens.get("reasoning")),
                )
            cost = money(part.get("cost"))
            if cost is not None:
                report.cost_usd = (report.cost_usd or 0.0) + cost
            report.turns = (report.turns or 0) + 1
            text = "".join(self._step_text).strip()
            if text:
                report.summary = text
            return True
        if kind == "error":
            error = event.get("error")
            if isinstance(error, dict):
                data = error.get("data")
                message = text_of(data.get("message")) if isinstance(data, dict) else ""
                report.note_error(message or text_of(error.get("name")) or "error")
            else:
                report.note_error(error or "error")
            return True
        return False


ADAPTER = OpenCode()
