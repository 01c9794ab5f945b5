"""Test outcomes from JUnit XML reports: what failed, what was flaky, how many ran.

Reports are files a run wrote, so nothing in them is trusted: each file is
size-capped, parsed by the standard library's expat (no external entities,
entity-expansion limits), and a broken file is skipped and counted. Only
reports written during this run count (mtime at or after the run's start), so
a stale report committed to the repository cannot speak for it.
"""

from __future__ import annotations

import os
import re
import stat
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

MAX_REPORT_BYTES = 20 * 1024 * 1024
MAX_REPORTS = 200
MAX_WALK = 200_000


@dataclass
class TestOutcome:
    """Aggregated outcome of every report found."""

    __test__ = False  # not a pytest test class

    reports: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    total: int = 0
    failed: list[str] = field(default_factory=list)
    flaky: list[str] = field(default_factory=list)
    errors_outside_tests: int = 0
    """``<error>`` at suite level (a suite that could not start: e.g. an import or build error)."""

    @property
    def found(self) -> bool:
        """True when at least one report was read."""
        return bool(self.reports)


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A regex for a ``/``-separated glob: ``**/`` is any number of folders, ``*`` and ``?`` stay in one."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:[^/]+/)*", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def find_reports(root: Path, globs: Sequence[str], since: float) -> list[Path]:
    """Report files under ``root`` matching ``globs``, written at or after ``since``.

    The walk never follows symbolic links and never enters ``.git``, so a link the
    engine planted cannot send it around the file system; it stops after
    :data:`MAX_WALK` entries.
    """
    patterns = [glob_regex(g.strip().lstrip("./")) for g in globs if g.strip()]
    found: list[Path] = []
    seen = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        relative = Path(folder).relative_to(root).as_posix()
        for name in sorted(files):
            seen += 1
            if seen > MAX_WALK or len(found) >= MAX_REPORTS:
                return found
            path = Path(folder) / name
            rel = name if relative == "." else f"{relative}/{name}"
            if not any(p.match(rel) for p in patterns):
                continue
            try:
                info = path.lstat()
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and info.st_mtime >= since:
                found.append(path)
    return found


def _cases(root: ET.Element) -> Iterable[ET.Element]:
    return root.iter("testcase")


def read_reports(paths: Iterable[Path], root: Path) -> TestOutcome:
    """Parse every report; a test that failed once and passed in another case is flaky, not failed."""
    outcome = TestOutcome()
    results: dict[tuple[str, str], list[bool]] = {}
    for path in paths:
        name = str(path.relative_to(root))
        try:
            if path.stat().st_size > MAX_REPORT_BYTES:
                outcome.broken.append(name)
                continue
            tree = ET.parse(path)
        except (ET.ParseError, OSError, ValueError):
            outcome.broken.append(name)
            continue
        top = tree.getroot()
        if top.tag not in ("testsuites", "testsuite"):
            outcome.broken.append(name)
            continue
        outcome.reports.append(name)
        for suite in top.iter("testsuite"):
            if any(child.tag == "error" for child in suite):
                outcome.errors_outside_tests += 1
        for case in _cases(top):
            test = (case.get("classname") or "", case.get("name") or "")
            if not test[1]:
                continue
            if any(child.tag == "skipped" for child in case):
                continue
            failed = any(child.tag in ("failure", "error") for child in case)
            results.setdefault(test, []).append(not failed)
            reruns = [
                c for c in case if c.tag in ("flakyFailure", "flakyError", "rerunFailure", "rerunError")
            ]
            if reruns and not failed:
                results[test].append(False)
    outcome.total = len(results)
    bare_names: dict[str, int] = {}
    for _cls, test_name in results:
        bare_names[test_name] = bare_names.get(test_name, 0) + 1
    for (cls, test_name), passes in sorted(results.items()):
        label = test_name if bare_names[test_name] == 1 or not cls else f"{cls}.{test_name}"
        if not any(passes):
            outcome.failed.append(label)
        elif not all(passes):
            outcome.flaky.append(label)
    return outcome
