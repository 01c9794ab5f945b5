"""OpenAI Codex CLI: ``codex exec --json``.

JSON Lines: ``thread.started``, ``turn.started``, ``item.started`` /
``item.updated`` / ``item.completed`` (items of type ``agent_message``,
``reasoning``, ``command_execution``, ``file_change``, ``mcp_tool_call``,
``web_search``, ``todo_list``, ``error``), ``turn.completed`` with ``usage``
(``input_tokens``, ``cached_input_tokens``, ``output_tokens``),
``turn.failed`` with ``error.message``, and ``error``. Codex reports no
cost. The prompt goes on standard input (``-``).

Seen with the real CLI (0.171.0): ``error`` events are also transient
notices (``Reconnecting... 2/5``); a turn that completes after them
succeeded. So ``error`` events count only when no turn completes after them;
``turn.failed`` always counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from osmia.agent.adapters.base import EngineReport, JsonLinesAdapter, text_of

# Item types that are a tool call, and the tool name they count under.
_TOOL_ITEMS = {"command_execution": "shell", "file_change": "edit", "web_search": "web_search"}


class Codex(JsonLinesAdapter):
    """Adapter for OpenAI's Codex CLI."""

    name = "codex"
    executable = "codex"

    def __init__(self) -> None:
        self._pending: list[str] = []

    def new_report(self) -> EngineReport:
        """A fresh report; no pending errors."""
        self._pending = []
        return EngineReport()

    def finish(self, report: EngineReport) -> None:
        """Errors that no completed turn followed are the run's errors (the last one leads)."""
        if self._pending:
            report.note_error(self._pending[-1])

    def command(self, prompt: str, *, model: str, extra_args: Sequence[str], prompt_file: str) -> list[str]:
        """Non-interactive exec (it never asks), JSON events, writes confined to the checkout.

        In a pod whose seccomp profile does not allow Codex's own sandbox, pass
        ``--dangerously-bypass-approvals-and-sandbox`` in ``engine_args``: the pod is the sandbox.
        """
        argv = [self.executable, "exec", "--json", "--sandbox", "workspace-write", "--skip-git-repo-check"]
        if model:
            argv += ["--model", model]
        return [*argv, *extra_args, "-"]

    def on_event(self, event: dict[str, Any], report: EngineReport) -> bool:
        """Tool calls from completed items, tokens from each completed turn, errors from failures."""
        kind = event.get("type")
        if kind in ("thread.started", "turn.started", "item.started", "item.updated"):
            return True
        if kind == "item.completed":
            item = event.get("item")
            if isinstance(item, dict):
                self._item(item, report)
            return True
        if kind == "turn.completed":
            usage = event.get("usage")
            if isinstance(usage, dict):
                # cached_input_tokens is a part of input_tokens, not an addition to it.
                report.add_tokens(usage.get("input_tokens"), usage.get("output_tokens"))
            report.turns = (report.turns or 0) + 1
            self._pending = []
            return True
        if kind == "turn.failed":
            error = event.get("error")
            report.note_error(error.get("message") if isinstance(error, dict) else error)
            usage = event.get("usage")
            if isinstance(usage, dict):
                report.add_tokens(usage.get("input_tokens"), usage.get("output_tokens"))
            return True
        if kind == "error":
            message = text_of(event.get("message")) or "error"
            self._pending.append(message)
            return True
        return False

    @staticmethod
    def _item(item: dict[str, Any], report: EngineReport) -> None:
        kind = text_of(item.get("type") or item.get("item_type"))
        if kind in ("agent_message", "assistant_message"):
            text = text_of(item.get("text")).strip()
            if text:
                report.summary = text
        elif kind in _TOOL_ITEMS:
            report.tool_calls[_TOOL_ITEMS[kind]] += 1
            if kind == "command_execution":
                code = item.get("exit_code")
                passed = code == 0 if isinstance(code, int) and not isinstance(code, bool) else None
                report.note_command(item.get("command"), passed)
        elif kind == "mcp_tool_call":
            report.tool_calls[text_of(item.get("tool")) or "mcp"] += 1
        elif kind == "error":
            # A non-fatal error item (e.g. a warning); the turn's verdict decides the run.
            pass


ADAPTER = Codex()
