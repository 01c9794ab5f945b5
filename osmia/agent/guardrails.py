"""Guard rails enforced in code: tests are not deleted or skipped, protected branches are not pushed.

The prompt asks the agent to follow these rules; the runner checks the
change itself. A change that deletes a test file, removes more test
functions than it adds, or adds a skip marker is a guard-rail block: it is
reported as a failure and not pushed.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# Paths that hold tests, in the common layouts of the common languages.
_TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|spec|specs|testing)/"
    r"|(^|/)test_[^/]*\.py$|_test\.(py|go|rs|exs?)$|(^|/)[^/]*Tests?\.(java|kt|cs|scala|swift)$"
    r"|\.(test|spec)\.(js|jsx|ts|tsx|mjs|cjs)$|_spec\.rb$|Test\.php$"
)
# A line that declares one test (function or case) in a test file.
_TEST_DEF = re.compile(
    r"^\s*(?:async\s+)?def\s+test\w*\s*\(|^\s*func\s+Test\w*\s*\(|^\s*(?:it|test)\s*\(\s*['\"`]"
    r"|^\s*@Test\b|^\s*#\[test\]|^\s*\[(?:Test|Fact|Theory)\]|^\s*it\s+['\"]"
)
# Markers that switch a test off, in the same languages (looked for in test files and conftest.py).
_SKIP_MARKER = re.compile(
    r"@pytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail)\s*\(|@unittest\.skip\w*"
    r"|\bself\.skipTest\s*\(|\bt\.Skip(?:f|Now)?\s*\(|\b(?:it|test|describe)\.skip\s*\(|\bx(?:it|describe|test)\s*\("
    r"|\b(?:it|test|describe)\.todo\s*\(|@Disabled\b|@Ignore\b|#\[ignore\]|\[Ignore\]|\[Fact\(Skip\s*="
    r"|\bskip\s*\(\s*['\"]|\bpending\s*\(|\bmarkTestSkipped\s*\("
)


@dataclass
class GuardRailReport:
    """What the change did against the guard rails; ``blocked`` when any rule was broken."""

    deleted_tests: list[str] = field(default_factory=list)
    removed_test_cases: list[str] = field(default_factory=list)
    skip_markers: list[str] = field(default_factory=list)
    protected_branch: str = ""
    tampered: str = ""
    """Set when the engine broke the workspace itself (e.g. replaced ``.git``)."""

    @property
    def blocked(self) -> bool:
        """True when the change must not be pushed."""
        rules = (self.deleted_tests, self.removed_test_cases, self.skip_markers)
        return any(rules) or bool(self.protected_branch or self.tampered)

    def reason(self) -> str:
        """``guard-rail block: ...`` naming what was broken (memory files it as a guard-rail block)."""
        parts = []
        if self.tampered:
            parts.append(self.tampered)
        if self.protected_branch:
            parts.append(f"refused to push to protected branch {self.protected_branch}")
        if self.deleted_tests:
            parts.append("deleted tests " + ", ".join(self.deleted_tests[:5]))
        if self.removed_test_cases:
            parts.append("removed test cases in " + ", ".join(self.removed_test_cases[:5]))
        if self.skip_markers:
            parts.append("added skip markers at " + ", ".join(self.skip_markers[:5]))
        return "guard-rail block: " + "; ".join(parts)


def is_test_path(path: str) -> bool:
    """True for a file that holds tests."""
    return bool(_TEST_PATH.search(path))


def is_protected(branch: str, protected: Sequence[str]) -> bool:
    """True when ``branch`` matches one of the protected names or globs (``release/*``)."""
    return any(fnmatch.fnmatchcase(branch, pattern) for pattern in protected)


def check_change(
    name_status: Iterable[tuple[str, str]], diff_lines: Iterable[tuple[str, str, int]]
) -> GuardRailReport:
    """Check a change given as (status, path) pairs and (path, line, new line number) of the unified diff.

    A diff line starts with ``+`` (added) or ``-`` (removed); the number is
    the line's number in the new file (0 for removed lines).
    """
    report = GuardRailReport()
    for status, path in name_status:
        if status.startswith("D") and is_test_path(path):
            report.deleted_tests.append(path)
    balance: dict[str, int] = {}
    for path, line, number in diff_lines:
        sign, body = line[:1], line[1:]
        in_tests = is_test_path(path) or path.rsplit("/", 1)[-1] == "conftest.py"
        if sign == "+" and in_tests and _SKIP_MARKER.search(body):
            report.skip_markers.append(f"{path}:{number}")
        if is_test_path(path) and _TEST_DEF.search(body) and path not in report.deleted_tests:
            balance[path] = balance.get(path, 0) + (1 if sign == "+" else -1 if sign == "-" else 0)
    report.removed_test_cases = sorted(p for p, n in balance.items() if n < 0)
    return report
