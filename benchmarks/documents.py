"""Reading TaskRun files: the bounded loader against PyYAML's ``safe_load_all``, in one session.

    python -m benchmarks.documents [--runs 2000] [--rounds 3]

Builds a ``kubectl get taskruns -o yaml`` style stream of ``--runs`` runs and
loads it alternately with the baseline (``yaml.safe_load_all``: what
``osmia/documents.py`` used before the bounded loader) and with
``osmia.safeload.yaml_documents`` plus ``check_object`` on every object (what
``osmia memory ingest`` does now), then times hostile inputs that the bounded
loader must refuse quickly: an alias bomb, 100,000 levels of flow nesting
and 20,000 levels of block nesting. Prints milliseconds, the median of the
rounds, and the ratio to the baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import yaml

from osmia.safeload import check_object, yaml_documents


def _run(i: int) -> dict[str, Any]:
    return {
        "apiVersion": "osmia.dev/v1alpha1",
        "kind": "TaskRun",
        "metadata": {"name": f"run-{i}", "namespace": "agents", "uid": f"uid-{i:08d}", "generation": 1},
        "spec": {
            "flow": "ticketing",
            "engine": "claude-code",
            "ticket": {"id": f"PROJ-{i}", "title": f"Fix bug {i}", "description": "Login fails " * 20},
            "repository": {"url": "https://github.com/org/api", "language": "go"},
            "execution": {"mode": "job", "timeoutSeconds": 3600},
        },
        "status": {
            "phase": "Succeeded",
            "conditions": [
                {
                    "type": "Succeeded",
                    "status": "True",
                    "reason": "Succeeded",
                    "lastTransitionTime": "2026-11-30T12:00:00Z",
                }
            ],
            "engineAttempts": ["claude-code"],
            "result": {
                "success": True,
                "summary": "Fixed the race " * 10,
                "filesChanged": [f"pkg/file{j}.go" for j in range(8)],
                "testsFailed": ["TestLogin"],
                "durationSeconds": 600,
                "toolCalls": {"read": 12, "edit": 4},
                "learnings": ["Run make lint before pushing"],
            },
        },
    }


def _baseline(text: str) -> int:
    return sum(1 for _ in yaml.safe_load_all(text))


def _bounded(text: str) -> int:
    count = 0
    for doc in yaml_documents(text):
        items = doc["items"] if isinstance(doc, dict) and "items" in doc else [doc]
        for item in items:
            check_object(item)
            count += 1
    return count


def _refused(text: str) -> int:
    return sum(1 for doc in yaml_documents(text) if isinstance(doc, Exception))


def _ms(fn: Callable[[str], int], text: str) -> float:
    started = time.perf_counter()
    fn(text)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    """Print the figures (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    stream = "---\n".join(yaml.safe_dump(_run(i)) for i in range(args.runs))
    items = [_run(i) for i in range(args.runs)]
    listing = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items})
    print(f"input: {args.runs} TaskRuns, stream {len(stream) / 1e6:.1f} MB, List {len(listing) / 1e6:.1f} MB")
    assert _bounded(stream) == _baseline(stream) == args.runs
    for label, text in (("--- stream", stream), ("kind: List", listing)):
        base, ours = [], []
        for _ in range(args.rounds):
            base.append(_ms(_baseline, text))
            ours.append(_ms(_bounded, text))
        b, o = statistics.median(base), statistics.median(ours)
        print(f"{label}: safe_load_all {b:8.0f} ms | bounded loader + checks {o:8.0f} ms | {b / o:5.1f}x")

    bomb = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 9)
    )
    hostile = {
        "alias bomb (9^9 values)": bomb,
        "flow nesting 100,000 levels": "a: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "block nesting 20,000 levels": "- " * 20_000 + "x\n",
    }
    for label, text in hostile.items():
        times = [_ms(_refused, text) for _ in range(args.rounds)]
        assert _refused(text) == 1, label
        print(f"refused: {label:<30} {statistics.median(times):8.1f} ms ({len(text) / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
