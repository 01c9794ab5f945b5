"""Claude Code: ``claude -p --output-format stream-json --verbose``.

One JSON object per line: ``system`` (init), ``assistant`` and ``user``
messages (Anthropic Messages objects under ``message``; tool calls are
``tool_use`` content blocks), and one final ``result`` event with
``subtype``, ``is_error``, ``num_turns``, ``total_cost_usd``, ``usage`` and
the final text in ``result``. The prompt goes on standard input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from osmia.agent.adapters.base import EngineReport, JsonLinesAdapter, count, money, text_of


class ClaudeCode(JsonLinesAdapter):
    """Adapter for Anthropic's Claude Code CLI."""

    name = "claude-code"
    executable = "claude"

    def __init__(self) -> None:
        self._commands: dict[str, str] = {}

    def new_report(self) -> EngineReport:
        """A fresh report; forget the commands of an earlier run."""
        self._commands = {}
        return EngineReport()

    def command(self, prompt: str, *, model: str, extra_args: Sequence[str], prompt_file: str) -> list[str]:
        """Print mode, streamed JSON events, no permission prompts (the pod is the sandbox)."""
        argv = [self.executable, "-p", "--output-format", "stream-json", "--verbose"]
        argv += ["--permission-mode", "bypassPermissions"]
        if model:
            argv += ["--model", model]
        return argv + list(extra_args)

    def env(self, base: Any) -> dict[str, str]:
        """No auto-updater or telemetry inside a read-only image."""
        return {"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}

    def on_event(self, event: dict[str, Any], report: EngineReport) -> bool:
        """Count tool calls from assistant messages; take figures from the result event."""
        kind = event.get("type")
        if kind == "system":
            return True
        if kind in ("assistant", "user"):
            message = event.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            for block in content if isinstance(content, list) else ():
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use":
                    report.tool_calls[text_of(block.get("name")) or "unknown"] += 1
                    tool_input = block.get("input")
                    command = tool_input.get("command") if isinstance(tool_input, dict) else None
                    if isinstance(command, str):
                        self._commands[text_of(block.get("id"))] = command
                if block.get("type") == "tool_result" and text_of(block.get("tool_use_id")) in self._commands:
                    command = self._commands.pop(text_of(block.get("tool_use_id")))
                    report.note_command(command, block.get("is_error") is not True)
                if kind == "assistant" and block.get("type") == "text":
                    text = text_of(block.get("text")).strip()
                    if text:
                        report.summary = text  # the last one stands until the result event
            return True
        if kind == "result":
            self._result(event, report)
            return True
        return False

    @staticmethod
    def _result(event: dict[str, Any], report: EngineReport) -> None:
        text = text_of(event.get("result")).strip()
        if text:
            report.summary = text
        turns = event.get("num_turns")
        if isinstance(turns, int) and not isinstance(turns, bool):
            report.turns = count(turns)
        cost = money(event.get("total_cost_usd"))
        report.cost_usd = cost if cost is not None else report.cost_usd
        usage = event.get("usage")
        if isinstance(usage, dict):
            report.input_tokens = (
                count(usage.get("input_tokens"))
                + count(usage.get("cache_creation_input_tokens"))
                + count(usage.get("cache_read_input_tokens"))
            )
            report.output_tokens = count(usage.get("output_tokens"))
        subtype = text_of(event.get("subtype"))
        if event.get("is_error") is True or (subtype and subtype != "success"):
            report.note_error(text or subtype)


ADAPTER = ClaudeCode()
