"""Aider: plain text, one usage line per model reply.

Aider has no JSON output. After each reply it prints
``Tokens: 4.5k sent, 429 received. Cost: $0.0018 message, $0.0018 session.``
(optionally with cache figures between the counts and the cost), and
``Applied edit to <file>`` for each edit. The runner counts edits as tool
calls, adds up the token figures (``1.2k`` is 1200) and takes the session
cost from the last line. Errors arrive as text (litellm exception names).
The prompt is read from the mounted file (``--message-file``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence

from osmia.agent.adapters.base import EngineAdapter, EngineReport

_NUMBER = r"([\d.,]+[kKmM]?)"
_TOKENS = re.compile(rf"Tokens:\s*{_NUMBER}\s+sent,(?:.*?,)?\s*{_NUMBER}\s+received")
_SESSION_COST = re.compile(r"Cost:\s*\$([\d.,]+)\s+message,\s*\$([\d.,]+)\s+session")
_APPLIED = re.compile(r"^Applied edit to\s+(\S.*)$")
_ERROR = re.compile(
    r"(AuthenticationError|RateLimitError|ContextWindowExceededError|APIConnectionError|"
    r"BadRequestError|ServiceUnavailableError|InternalServerError|"
    r"exceeds the .*context window|Unable to complete|API key)",
    re.IGNORECASE,
)
_META = re.compile(r"^(Aider v|Model:|Git repo:|Repo-map:|Tokens:|Cost:|Applied edit|Commit |Added |>|─|#)")


def tokens(text: str) -> int:
    """``4.5k`` → 4500, ``1,250`` → 1250, ``2M`` → 2000000; unreadable → 0."""
    text = text.replace(",", "").strip()
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:].lower(), 1)
    if scale != 1:
        text = text[:-1]
    try:
        return int(float(text) * scale)
    except ValueError:
        return 0


class Aider(EngineAdapter):
    """Adapter for Aider."""

    name = "aider"
    executable = "aider"

    def __init__(self) -> None:
        self._paragraph: list[str] = []

    def new_report(self) -> EngineReport:
        """A fresh report and summary buffer."""
        self._paragraph = []
        return EngineReport()

    def command(self, prompt: str, *, model: str, extra_args: Sequence[str], prompt_file: str) -> list[str]:
        """One message and exit; yes to every question; the runner commits, not aider."""
        argv = [
            self.executable,
            "--message-file",
            prompt_file,
            "--yes-always",
            "--no-auto-commits",
            "--no-pretty",
            "--no-stream",
            "--no-check-update",
            "--no-show-model-warnings",
            "--no-gitignore",
            "--analytics-disable",
        ]
        if model:
            argv += ["--model", model]
        return argv + list(extra_args)

    def feed(self, line: str, report: EngineReport) -> None:
        """Pick usage, cost, edits and errors out of the text; other lines build the summary."""
        text = line.strip().lstrip("> ").strip() if line.startswith(">") else line.strip()
        matched = False
        if usage := _TOKENS.search(text):
            report.add_tokens(tokens(usage.group(1)), tokens(usage.group(2)))
            report.turns = (report.turns or 0) + 1
            matched = True
        if cost := _SESSION_COST.search(text):
            with contextlib.suppress(ValueError):
                report.cost_usd = float(cost.group(2).replace(",", ""))
            matched = True
        if edit := _APPLIED.match(text):
            report.tool_calls["edit"] += 1
            del edit
            matched = True
        if _ERROR.search(text):
            report.note_error(text[:500])
            matched = True
        if matched:
            report.events += 1
            return
        if not text:
            if self._paragraph:
                report.summary = "\n".join(self._paragraph)
            self._paragraph = []
        elif not _META.match(line.strip()):
            self._paragraph.append(text)

    def finish(self, report: EngineReport) -> None:
        """The last paragraph of the reply is the summary."""
        if self._paragraph:
            report.summary = "\n".join(self._paragraph)


ADAPTER = Aider()
