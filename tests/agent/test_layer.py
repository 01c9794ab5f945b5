"""The runner depends on the ground layer and the standard library only (DESIGN.md, Layers)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED_OSMIA = ("osmia.agent", "osmia.result_fit")


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_agent_imports_only_the_standard_library_and_the_ground_layer() -> None:
    files = [*sorted((ROOT / "osmia" / "agent").rglob("*.py")), ROOT / "osmia" / "result_fit.py"]
    assert len(files) > 10
    for path in files:
        for name in imports(path):
            top = name.split(".")[0]
            if top == "osmia":
                assert name.startswith(ALLOWED_OSMIA), f"{path.relative_to(ROOT)} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", f"{path} imports {name}"


def test_osmia_agent_loads_neither_the_controller_nor_memory_nor_third_party_packages() -> None:
    code = (
        "import sys, osmia.agent.main, osmia.agent.adapters as a\n"
        "[a.adapter_for(e) for e in a.known_engines()]\n"
        "bad = [m for m in sys.modules if m.startswith(('osmia.controller', 'osmia.memory', 'osmia.cli',"
        " 'kopf', 'kubernetes', 'yaml', 'structlog', 'aiosqlite', 'prometheus_client', 'pydantic'))]\n"
        "print(bad)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.strip() == "[]"
