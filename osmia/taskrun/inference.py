"""What a TaskRun does not say outright: its task type, and its repository's canonical name."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

# Label or title words that name a task type, in priority order.
_TYPE_HINTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("incident", ("incident", "outage", "sev1", "sev2", "pagerduty", "alert")),
    ("bug", ("bug", "fix", "defect", "regression", "crash", "error", "broken", "fails", "failing", "flaky",
             "flake", "wrong", "incorrect", "exception", "panic", "hang", "hangs", "leak")),
    ("docs", ("docs", "doc", "documentation", "readme", "typo", "document", "changelog", "docstring",
              "docstrings", "guide", "runbook", "adr")),
    ("refactor", ("refactor", "cleanup", "clean-up", "restructure", "rename", "dead", "unused", "simplify",
                  "tidy")),
    ("chore", ("chore", "deps", "dependency", "dependencies", "bump", "upgrade", "ci")),
    ("feature", ("feature", "feat", "enhancement", "add", "implement", "support", "improve", "allow",
                 "enable")),
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def infer_task_type(labels: Sequence[str], title: str) -> str:
    """Guess the task type from labels first, then title words; ``other`` if unsure."""
    for text in (" ".join(labels), title):
        words = set(_WORD.findall(text.lower().replace("clean up", "cleanup")))
        for task_type, hints in _TYPE_HINTS:
            if words.intersection(hints):
                return task_type
    return "other"


def normalize_repository(url: str) -> str:
    """``https://GitHub.com/Org/API.git``, ``git@github.com:org/api``, ``https://www.github.com/org/api``
    and ``https://github.com/org/api/tree/main/svc`` → ``github.com/org/api``."""
    text = url.strip()
    if not text:
        return ""
    if text.startswith("git@") and ":" in text:
        host, _, path = text[4:].partition(":")
    else:
        try:
            parts = urlsplit(text if "://" in text else f"https://{text}")
            host, path = parts.hostname or "", parts.path
        except ValueError:  # e.g. an unbalanced "[" reads as a broken IPv6 host: keep the text as a path
            host, path = "", text.split("://", 1)[-1]
    host = host.lower().removeprefix("www.")
    path = path.strip("/").partition("/-/")[0]  # GitLab's pages of a project: ``group/api/-/tree/main``
    if host in _OWNER_REPO_HOSTS:  # a page of the repository: ``org/api/tree/main/services/billing``
        path = "/".join(path.split("/")[:2])
    if path.endswith(".git"):
        path = path[: -len(".git")]
    return f"{host}/{path}".lower().strip("/")


# Forges whose repositories are always ``owner/name``: a longer path is a page of one.
_OWNER_REPO_HOSTS = frozenset({"github.com", "bitbucket.org", "codeberg.org"})


def short_repository(slug: str) -> str:
    """``github.com/org/api`` → ``org/api``: how prompts name a repository."""
    host, _, path = slug.partition("/")
    return path if path and "." in host else slug
