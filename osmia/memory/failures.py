"""A finished run's failure class: what its phase, exit code and failure reason say went wrong.

The classes (:data:`FAILURE_CLASSES`) are searched in order on the reason with the tests it names
taken out (:func:`reason_without_tests`); the first that matches is the run's. The extractor
(:mod:`osmia.memory.extractor`) files a failed run's outcome under it, and patterns
(:mod:`osmia.memory.patterns`) count runs by it.
"""

from __future__ import annotations

from osmia.memory import test_ids
from osmia.memory.linear import LinearPattern, linear
from osmia.memory.types import MAX_TESTS
from osmia.taskrun import Phase, TaskRun

__all__ = ["FAILURE_CLASSES", "FAILURE_LABELS", "classify_failure", "reason_without_tests"]

# RE2 (linear time): failure reasons are untrusted, and `tests?.*fail` backtracked quadratically.
FAILURE_CLASSES: tuple[tuple[str, str, LinearPattern], ...] = (
    # The engine itself failed (the runner's "engine error: authentication | rate limit | context
    # overflow (...)", a crashed engine CLI): not the work's fault, so checked before the words of the
    # engine's own message ("permission denied", "quota") can file it under another class.
    (
        "engine_error",
        "engine error",
        linear(
            r"(?i)^\W*engine[ _-]error\b|\bengine(?:\s+cli)?\s+(?:crash(?:ed)?|error|exited\s+unexpectedly)\b"
            r"|\b(?:invalid|missing|expired)\s+(?:x-)?api[ _-]?key\b|\bnot\s+logged\s+in\b"
            r"|\b429\s+too\s+many\s+requests\b|\brate[ _-]?limit(?:ed|\s+exceeded|\s+reached)\b"
            r"|\bcontext[ _-](?:window|length)\s+exceeded\b|\bcontext_length_exceeded\b"
            r"|\bprompt\s+is\s+too\s+long\b"
        ),
    ),
    # Out of time, or of the turns an engine is given ("max turns reached").
    (
        "timeout",
        "timeout",
        linear(
            r"(?i)time[sd]?[ -]?out|deadline|took too long|\bmax(?:imum)?[ _-]?turns\b|\bturn[ _-]limit\b"
            r"|\biteration[ _-]limit\b"
        ),
    ),
    (
        "guardrail",
        "guard-rail block",
        linear(r"(?i)guard[ -]?rail|policy|blocked|forbidden|not allowed|denied|protected[ -]branch"),
    ),
    (
        "resources",
        "resources",
        linear(
            r"(?i)\boom\b|oomkilled|out of memory|memory limit|evicted|quota|disk|cpu|exit code 137"
            r"|\bENOSPC\b|no space left|\bsignal 9\b|\bSIGKILL\b|\bKilled: 9\b|\bpreempted\b"
        ),
    ),
    # Compilers, type checkers, linters and dependency resolution, by the words their output uses.
    (
        "build_failed",
        "build failed",
        linear(
            r"(?i)build|compil|lint|syntax|type ?check|does not compile"
            r"|\berror\[E\d{4}\]|\berror TS\d{4}\b|\bmypy\b|\bruff\b|\beslint\b|\bclippy\b|\bgo vet\b"
            r"|cannot find module|module not found|unresolved import|\bERESOLVE\b|dependency tree"
            r"|could not resolve dependenc"
        ),
    ),
    # Test runners' own summaries: pytest's "3 failed", Go's "FAIL pkg" / "--- FAIL:", cargo's "test
    # result: FAILED", a coverage gate.
    (
        "tests_failed",
        "tests failed",
        linear(
            r"(?i)\btests?\b.*fail|fail.*\btests?\b|assert|\b\d+ failed\b|^\W*(?-i:FAIL)\b|(?-i:--- FAIL:)"
            r"|\b(?:pytest|jest|vitest|rspec|junit|surefire)\b.*\bfail|\bcoverage\b.*\b(?:below|threshold|under)\b"
        ),
    ),
)
FAILURE_LABELS = {code: label for code, label, _ in FAILURE_CLASSES} | {"unknown": "unknown reason"}


def classify_failure(run: TaskRun) -> str:
    """The failure class of a finished run ("" when it succeeded)."""
    result = run.result
    if run.phase is Phase.TIMED_OUT:
        return "timeout"
    if result is not None and result.success:
        return ""
    reason = (
        reason_without_tests(result.failure_reason, (*result.tests_failed, *result.flaky_tests))
        if result
        else ""
    )
    for code, _label, pattern in FAILURE_CLASSES:
        if code == "tests_failed" and result is not None and result.tests_failed:
            return code
        if pattern.search(reason):
            return code
    if result is not None and result.exit_code == 137:
        return "resources"
    return "unknown"


def reason_without_tests(reason: str, named: tuple[str, ...] = ()) -> str:
    """``reason`` with each test it names replaced by the word "test": a test's name is not a cause.

    ``PolicyCacheIT > evictsOnPolicyUpdate()``, ``test_upload_timeout`` and ``TestDiskQuota`` hold
    "policy", "timeout" and "disk", and "tests failed: PolicyCacheIT > ..." was filed as a
    guard-rail block. Replaced: the names the run listed as failed or flaky, then every name
    written in a test form of any language (:func:`osmia.memory.test_ids.without_test_names`; a
    bare identifier such as ``deadline_exceeded`` is kept: it may be the cause).
    """
    # As many as the extractor keeps (a run's list is untrusted and unbounded; each is a pass), and
    # none shorter than three characters: a "test" named "a" would cut every word with an "a" in it.
    listed = {n.strip() for n in named[:MAX_TESTS] if len(n.strip()) >= 3}
    for name in sorted(listed, key=len, reverse=True):
        reason = reason.replace(name, " test ")
    return test_ids.without_test_names(reason)
