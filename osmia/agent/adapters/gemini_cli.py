"""Google Gemini CLI: ``gemini --output-format json``.

One JSON object once the run is over (possibly pretty-printed over many
lines): ``response`` (the final answer), ``stats`` (``models.<name>.tokens``
with ``prompt``, ``candidates``, ``total``, ``cached``, ``thoughts``;
``tools.totalCalls`` and ``tools.byName.<tool>.count``) and, on failure,
``error`` (``type``, ``message``, ``code``). Gemini reports no cost. The
prompt goes as the ``--prompt`` argument.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from osmia.agent.adapters.base import EngineAdapter, EngineReport, count, text_of

_MAX_BUFFER = 8 * 1024 * 1024  # the object is small; a runaway output is not kept whole


class GeminiCli(EngineAdapter):
    """Adapter for Google's Gemini CLI."""

    name = "gemini-cli"
    executable = "gemini"
    prompt_mode = "argument"

    def __init__(self) -> None:
        self._buffer: list[str] = []
        self._size = 0

    def command(self, prompt: str, *, model: str, extra_args: Sequence[str], prompt_file: str) -> list[str]:
        """Headless prompt, one JSON object at the end, tools approved without asking (yolo)."""
        argv = [self.executable, "--output-format", "json", "--approval-mode", "yolo"]
        if model:
            argv += ["--model", model]
        return [*argv, *extra_args, "--prompt", prompt]

    def new_report(self) -> EngineReport:
        """A fresh report, and an empty buffer for the object."""
        self._buffer, self._size = [], 0
        return EngineReport()

    def feed(self, line: str, report: EngineReport) -> None:
        """Buffer the output; the object is parsed whole in ``finish``."""
        if self._size + len(line) <= _MAX_BUFFER:
            self._buffer.append(line)
            self._size += len(line)

    def finish(self, report: EngineReport) -> None:
        """Find the last top-level JSON object with a ``response``, ``stats`` or ``error`` and apply it."""
        text = "\n".join(self._buffer)
        found: dict[str, Any] | None = None
        decoder = json.JSONDecoder()
        index = text.find("{")
        while index != -1:
            try:
                value, end = decoder.raw_decode(text, index)
            except ValueError:
                report.ignored += 1
                index = text.find("{", index + 1)
                continue
            if isinstance(value, dict) and {"response", "stats", "error"} & value.keys():
                found = value
            index = text.find("{", end)
        if found is None:
            return
        report.events += 1
        self._apply(found, report)

    @staticmethod
    def _apply(payload: dict[str, Any], report: EngineReport) -> None:
        answer = text_of(payload.get("response")).strip()
        if answer:
            report.summary = answer
        stats = payload.get("stats")
        if isinstance(stats, dict):
            models = stats.get("models")
            for model in models.values() if isinstance(models, dict) else ():
                tokens = model.get("tokens") if isinstance(model, dict) else None
                if isinstance(tokens, dict):
                    report.add_tokens(tokens.get("prompt"), count(tokens.get("candidates")))
                    if "total" in tokens:
                        report.total_tokens = (report.total_tokens or 0) + count(tokens.get("total"))
            tools = stats.get("tools")
            by_name = tools.get("byName") if isinstance(tools, dict) else None
            for tool, figures in by_name.items() if isinstance(by_name, dict) else ():
                calls = count(figures.get("count")) if isinstance(figures, dict) else 0
                if calls:
                    report.tool_calls[str(tool)] += calls
        error = payload.get("error")
        if isinstance(error, dict):
            report.note_error(text_of(error.get("message")) or text_of(error.get("type")) or "error")
        elif error:
            report.note_error(error)


ADAPTER = GeminiCli()
