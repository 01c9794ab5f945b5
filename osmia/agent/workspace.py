"""The run's git workspace: clone, the run's own branch, what changed, commit and push.

Every git command runs with prompts off and, when a token is configured,
the askpass helper of :mod:`osmia.agent.credentials`; its output is redacted
before it is logged or reported. The only ref ever pushed is
``HEAD:refs/heads/<the run's branch>``.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from osmia.agent.credentials import GitCredentials, write_askpass
from osmia.agent.redact import Redactor

GIT_TIMEOUT = 600.0
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@")


class GitError(RuntimeError):
    """A git command failed; the message is redacted."""


@dataclass(frozen=True)
class Change:
    """What a run changed, measured by git against the commit it started from."""

    name_status: list[tuple[str, str]]
    diff_lines: list[tuple[str, str, int]]

    @property
    def files(self) -> list[str]:
        """Paths changed, in git's order (renames under their new name)."""
        return [path for _status, path in self.name_status]


class Git:
    """git in one directory, with credentials from the environment and redacted errors."""

    def __init__(
        self,
        directory: Path,
        *,
        credentials: GitCredentials,
        redactor: Redactor,
        scratch: Path,
        author: str,
        log: Callable[[str], None],
    ) -> None:
        self.directory = directory
        self._redactor = redactor
        self._log = log
        name, _, email = author.partition("<")
        self._env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("OSMIA_GIT_")},
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": name.strip() or "Osmia Agent",
            "GIT_AUTHOR_EMAIL": email.rstrip(">").strip() or "agent@osmia.invalid",
            "GIT_COMMITTER_NAME": name.strip() or "Osmia Agent",
            "GIT_COMMITTER_EMAIL": email.rstrip(">").strip() or "agent@osmia.invalid",
        }
        self._env["GIT_CONFIG_GLOBAL"] = os.devnull  # the engine may have written ~/.gitconfig
        self._auth: dict[str, str] = {}
        if credentials.token:
            self._auth = {
                "GIT_ASKPASS": str(write_askpass(scratch)),
                "OSMIA_ASKPASS_USERNAME": credentials.username,
                "OSMIA_ASKPASS_TOKEN": credentials.token,
            }
        self._config_snapshot: bytes | None = None

    def run(self, *args: str, cwd: Path | None = None, check: bool = True, auth: bool = False) -> str:
        """Run ``git args`` and return its standard output; :class:`GitError` (redacted) on failure.

        Hooks and the file-system monitor are always off, so nothing the engine put in
        the checkout runs; the token is in the environment only with ``auth`` (clone, push).
        """
        env = {**self._env, **self._auth} if auth else self._env
        try:
            done = subprocess.run(
                ["git", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", *args],
                cwd=cwd or self.directory,
                env=env,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=GIT_TIMEOUT,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} did not finish in {GIT_TIMEOUT:.0f} s") from None
        except OSError as exc:
            raise GitError(f"cannot run git: {exc.strerror}") from None
        if check and done.returncode != 0:
            detail = self._redactor.redact(" ".join(done.stderr.split()))[-500:]
            raise GitError(f"git {args[0]} failed (exit {done.returncode}): {detail}")
        return done.stdout

    def clone(self, url: str, ref: str) -> None:
        """Clone ``url`` into the directory (which must not exist or be empty), at ``ref`` if given."""
        self.directory.parent.mkdir(parents=True, exist_ok=True)
        args = ["clone", "--no-tags", "--quiet"]
        if ref:
            args += ["--branch", ref]
        self._log(f"cloning {self._redactor.redact(url)}" + (f" at {ref}" if ref else ""))
        self.run(*args, "--", url, str(self.directory), cwd=self.directory.parent, auth=True)

    def snapshot_config(self) -> None:
        """Remember the repository's own config, before the engine can touch it."""
        self._config_snapshot = (self.directory / ".git" / "config").read_bytes()

    def restore_config(self) -> str:
        """Put the remembered config back (a rewritten one could run commands or redirect the push).

        Returns a guard-rail reason when ``.git`` is no longer the runner's own directory, else "".
        """
        git_dir = self.directory / ".git"
        if git_dir.is_symlink() or not git_dir.is_dir():
            return "the engine replaced the repository's .git"
        if self._config_snapshot is not None:
            (git_dir / "config").write_bytes(self._config_snapshot)
        return ""

    def init_empty(self) -> None:
        """A fresh repository with one empty commit, for runs without a repository."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self.run("init", "--quiet", "--initial-branch=main")
        self.run("commit", "--quiet", "--allow-empty", "-m", "osmia: empty workspace")

    def head(self) -> str:
        """The commit HEAD points at."""
        return self.run("rev-parse", "HEAD").strip()

    def create_branch(self, name: str) -> None:
        """Create and switch to the run's branch at HEAD."""
        self.run("switch", "--quiet", "-c", name)

    def commit_all(self, message: str, exclude: Sequence[str]) -> bool:
        """Stage all but ``exclude`` (untracked reports, the learnings file) and commit; False if nothing."""
        self.run("add", "--all", "--", ".")
        for path in exclude:
            self.run("reset", "--quiet", "--", path, check=False)
        if not self.run("diff", "--cached", "--name-only").strip():
            return False
        self.run("commit", "--quiet", "--no-verify", "-m", message)
        return True

    def drop_from_commit(self, path: str, base: str) -> None:
        """Take ``path`` out of HEAD when it was added since ``base`` (e.g. the engine committed it)."""
        if (
            self.run("ls-tree", "--name-only", "HEAD", "--", path).strip()
            and not self.run("ls-tree", "--name-only", base, "--", path).strip()
        ):
            self.run("rm", "--cached", "--quiet", "--", path)
            self.run("commit", "--quiet", "--no-verify", "-m", f"osmia: {path} stays out of the repository")

    def change_since(self, base: str) -> Change:
        """Files and diff lines from ``base`` to HEAD (renames detected, binary files listed)."""
        raw = self.run("diff", "--name-status", "-M", "-z", base, "HEAD")
        fields = raw.split("\0")
        name_status: list[tuple[str, str]] = []
        i = 0
        while i < len(fields) and fields[i]:
            status = fields[i]
            if status[:1] in ("R", "C"):
                name_status.append((status, fields[i + 2]))
                i += 3
            else:
                name_status.append((status, fields[i + 1]))
                i += 2
        diff_lines: list[tuple[str, str, int]] = []
        path, number, header = "", 0, False
        diff = self.run("-c", "core.quotePath=off", "diff", "-M", "--unified=0", "--no-color", base, "HEAD")
        for line in diff.splitlines():
            if line.startswith("diff --git "):
                path, header = "", True
            elif (header and line.startswith("--- a/")) or (header and line.startswith("+++ b/")):
                path = line[6:]
            elif hunk := _HUNK.match(line):
                number, header = int(hunk.group(1)), False
            elif not header and line[:1] == "+" and path:
                diff_lines.append((path, line, number))
                number += 1
            elif not header and line[:1] == "-" and path:
                diff_lines.append((path, line, 0))
        return Change(name_status=name_status, diff_lines=diff_lines)

    def untracked_or_ignored(self, paths: Sequence[str]) -> list[str]:
        """Those of ``paths`` that were not tracked at HEAD."""
        if not paths:
            return []
        tracked = set(self.run("ls-files", "-z", "--", *paths).split("\0"))
        return [p for p in paths if p not in tracked]

    def remotes(self) -> list[str]:
        """Names of the configured remotes."""
        return self.run("remote").split()

    def push(self, remote: str, branch: str) -> None:
        """Push HEAD to ``refs/heads/<branch>`` only (no other ref, no force)."""
        self.run("push", "--quiet", "--no-verify", remote, f"HEAD:refs/heads/{branch}", auth=True)


def branch_name(ticket_slug: str, taskrun: str, engine: str, base: str) -> str:
    """``osmia/<ticket>-<short hash>``: the hash names this run (TaskRun, engine) and its base commit."""
    digest = hashlib.sha256(f"{taskrun}\0{engine}\0{base}".encode()).hexdigest()[:8]
    return f"osmia/{ticket_slug}-{digest}"
