"""Google Gemini CLI: ``gemini --output-format json``.

One JSON object once the run is over (possibly pretty-printed over many
lines): ``response`` (the final answer), ``stats`` (``models.<name>.tokens``
with ``prompt``, ``candidates``, ``total``, ``cached``, ``thoughts``;
``tools.totalCalls`` and ``tools.byName.<tool>.count``) and, on failure,
``error`` (``type``, ``message``, ``code``). Gemini reports no cost. The
prompt goes as the ``--prompt`` argument.

Seen with the real CLI (0.61.0): the object of a failed run (e.g. no
credentials, exit code 41) is printed on standard error, after plain-text
notices; and in headless mode an untrusted folder makes Gemini refuse or
override ``--approval-mode``, so the runner marks its fresh checkout trusted
(``GEMINI_CLI_TRUST_WORKSPACE=true``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
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
        self._errors: list[str] = []
        self._size = 0

    def env(self, base: Mapping[str, str]) -> dict[str, str]:
        """The checkout is the runner's own fresh clone: trust it, so headless mode keeps yolo."""
        return {"GEMINI_CLI_TRUST_WORKSPACE": "true"}

    def command(self, prompt: str, *, model: str, extra_args: Sequence[str], prompt_file: str) -> list[str]:
        """Headless prompt, one JSON object at the end, tools approved without asking (yolo)."""
        argv = [self.executable, "--output-format", "json", "--approval-mode", "yolo"]
        if model:
            argv += ["--model", model]
        return [*argv, *extra_args, "--prompt", prompt]

    def new_report(self) -> EngineReport:
        """A fresh report, and an empty buffer for the object."""
        self._buffer, self._errors, self._size = [], [], 0
        return EngineReport()

    def feed(self, line: str, report: EngineReport) -> None:
        """Buffer standard output; the object is parsed whole in ``finish``."""
        self._keep(self._buffer, line)

    def feed_stderr(self, line: str, report: EngineReport) -> None:
        """Buffer standard error too: a failed run's object is printed there."""
        self._keep(self._errors, line)

    def _keep(self, buffer: list[str], line: str) -> None:
        if self._size + len(line) <= _MAX_BUFFER:
            buffer.append(line)
            self._size += len(line)

    def finish(self, report: EngineReport) -> None:
        """Apply the result object from standard output, else the one from standard error."""
        for buffer in (self._buffer, self._errors):
            found = self._last_object("\n".join(buffer), report)
            if found is not None:
                report.events += 1
                self._apply(found, report)
                return

    @staticmethod
    def _last_object(text: str, report: EngineReport) -> dict[str, Any] | None:
        """The last top-level JSON object with a ``response``, ``stats`` or ``error`` key in ``text``."""
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
        return found

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
