"""Credentials: read from the environment or mounted Secret files, handed only to git, never logged.

- ``OSMIA_GIT_TOKEN`` or ``OSMIA_GIT_TOKEN_FILE`` (a file of a mounted
  Secret): the token git uses for ``https`` clone and push, through an askpass
  helper, so it never appears in a URL, in ``.git/config`` or in a process
  list. ``OSMIA_GIT_USERNAME`` (default ``x-access-token``) goes with it.
- ``OSMIA_SECRET_DIRS``: directories of mounted Secrets (comma separated);
  every file in them is secret, so its contents are redacted from the log and
  the result.
- Any environment variable whose name says token, key, secret or password is
  redacted too.

The engine process does not get the git token: only git does.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from osmia.agent.redact import Redactor, secret_env_values

GIT_ONLY_VARIABLES = ("OSMIA_GIT_TOKEN", "OSMIA_GIT_TOKEN_FILE", "OSMIA_GIT_USERNAME")
_MAX_SECRET_FILE = 64 * 1024


class CredentialError(ValueError):
    """A configured credential cannot be read (the message names the variable, never the value)."""


@dataclass(frozen=True)
class GitCredentials:
    """Username and token for git over https; ``token`` is empty when none is configured."""

    username: str = "x-access-token"
    token: str = ""

    def __repr__(self) -> str:
        return f"GitCredentials(username={self.username!r}, token={'***' if self.token else ''!r})"


def _read_secret_file(path: Path, variable: str) -> str:
    try:
        with path.open("rb") as handle:
            data = handle.read(_MAX_SECRET_FILE + 1)
    except OSError as exc:
        raise CredentialError(f"{variable}: cannot read {path} ({exc.strerror})") from None
    if len(data) > _MAX_SECRET_FILE:
        raise CredentialError(f"{variable}: {path} is larger than {_MAX_SECRET_FILE} bytes")
    return data.decode("utf-8", "replace").strip()


def git_credentials(env: Mapping[str, str]) -> GitCredentials:
    """The git token from ``OSMIA_GIT_TOKEN`` or the file named by ``OSMIA_GIT_TOKEN_FILE``."""
    username = env.get("OSMIA_GIT_USERNAME", "").strip() or "x-access-token"
    token = env.get("OSMIA_GIT_TOKEN", "").strip()
    token_file = env.get("OSMIA_GIT_TOKEN_FILE", "").strip()
    if not token and token_file:
        token = _read_secret_file(Path(token_file), "OSMIA_GIT_TOKEN_FILE")
    return GitCredentials(username=username, token=token)


def redactor_for(env: Mapping[str, str], git: GitCredentials) -> Redactor:
    """A redactor that knows every secret this run was given."""
    redactor = Redactor(secret_env_values(env))
    if git.token:
        redactor.add(git.token)
    for directory in (d.strip() for d in env.get("OSMIA_SECRET_DIRS", "").split(",") if d.strip()):
        root = Path(directory)
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            # Secret volumes hold symlinks into a ..data directory; read each regular file once.
            if path.name.startswith("..") or any(p.startswith("..") for p in path.relative_to(root).parts):
                continue
            try:
                if stat.S_ISREG(path.stat().st_mode):
                    redactor.add(_read_secret_file(path, "OSMIA_SECRET_DIRS"))
            except (OSError, CredentialError):
                continue
    return redactor


def engine_environment(env: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """The engine's environment: the pod's, without the git token, plus the adapter's ``extra``."""
    clean = {k: v for k, v in env.items() if k not in GIT_ONLY_VARIABLES}
    clean.update(extra)
    return clean


def write_askpass(directory: Path) -> Path:
    """A git askpass helper that answers from the environment git is started with (0700, no secret in it)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "osmia-git-askpass"
    path.write_text(
        '#!/bin/sh\ncase "$1" in\n  Username*) printf \'%s\\n\' "$OSMIA_ASKPASS_USERNAME" ;;\n'
        "  *) printf '%s\\n' \"$OSMIA_ASKPASS_TOKEN\" ;;\nesac\n"
    )
    os.chmod(path, 0o700)
    return path
