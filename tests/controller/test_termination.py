"""The termination-message rule shared by the agent runner (writer) and the operator (reader)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osmia.termination import PRIORITY, TERMINATION_MESSAGE_LIMIT, fit_result, read_result

text = st.text(max_size=3000)
results = st.fixed_dictionaries(
    {"success": st.booleans()},
    optional={
        "exitCode": st.integers(-255, 255),
        "failureReason": text,
        "testsFailed": st.lists(st.text(max_size=300), max_size=60),
        "flakyTests": st.lists(st.text(max_size=300), max_size=30),
        "summary": text,
        "learnings": st.lists(st.text(max_size=500), max_size=20),
        "filesChanged": st.lists(st.text(max_size=200), max_size=80),
        "branchName": st.text(max_size=300),
        "tokenUsage": st.integers(0, 10**9),
        "toolCalls": st.dictionaries(st.text(max_size=20), st.integers(0, 1000), max_size=10),
    },
)


@settings(max_examples=150, deadline=None)
@given(results, st.sampled_from([64, 512, TERMINATION_MESSAGE_LIMIT]))
def test_a_fitted_result_always_fits_reads_whole_and_keeps_success(
    result: dict[str, Any], limit: int
) -> None:
    message = fit_result(result, limit)
    assert len(message.encode()) <= limit
    read, whole = read_result(message)
    assert whole and read["success"] is result["success"]
    for key, value in read.items():  # nothing invented: each kept field is the original or its head
        original = result[key]
        if isinstance(value, str):
            assert original.startswith(value)
        elif isinstance(value, list):
            assert len(value) <= len(original)
            assert all(original[i].startswith(v) for i, v in enumerate(value))
        else:
            assert value == original


@settings(max_examples=100, deadline=None)
@given(results)
def test_fields_are_kept_in_priority_order(result: dict[str, Any]) -> None:
    read, _ = read_result(fit_result(result))
    present = [k for k in PRIORITY if k in result]
    for i, key in enumerate(present):
        if read.get(key) != result[key]:  # cut or dropped: every field before it is whole
            assert all(read.get(k) == result[k] for k in present[:i])
            break


def test_the_issue_fields_come_first() -> None:
    assert PRIORITY[:5] == ("success", "exitCode", "failureReason", "testsFailed", "flakyTests")


def test_a_big_report_keeps_failing_tests_and_drops_the_long_summary() -> None:
    report = {
        "success": False,
        "summary": "x" * 10000,
        "failureReason": "tests failed",
        "testsFailed": [f"TestCase{i}" for i in range(50)],
    }
    read, whole = read_result(fit_result(report))
    assert whole
    assert read["testsFailed"] == report["testsFailed"] and read["failureReason"] == "tests failed"
    assert len(read.get("summary", "")) < 10000


def test_multibyte_text_is_measured_in_bytes() -> None:
    message = fit_result({"success": True, "summary": "é" * 5000})
    assert len(message.encode()) <= TERMINATION_MESSAGE_LIMIT
    assert json.loads(message)["summary"].startswith("ééé")


@pytest.mark.parametrize(
    "message",
    [
        "",
        "not json at all",
        "{",
        '{"success": tru',
        "]]]}",
        '{"success": true, "summary": "a", "testsFailed": ["A", "B"',
        '"x", "y": 1}',
        "\x00" * 100,
        "{" * 5000,
        "," * 5000 + "}",
    ],
)
def test_reading_never_raises(message: str) -> None:
    read, _ = read_result(message)
    assert isinstance(read, dict)


def test_a_head_kept_message_gives_the_fields_before_the_cut() -> None:
    read, whole = read_result(
        '{"success": true, "exitCode": 0, "testsFailed": ["A", "B"], "summary": "cut he'
    )
    assert not whole and read == {"success": True, "exitCode": 0, "testsFailed": ["A", "B"]}


def test_a_report_among_log_lines_is_read_whole() -> None:
    read, whole = read_result('step 1\nstep 2\n{"success": false, "testsFailed": ["T"]}\n')
    assert whole and read == {"success": False, "testsFailed": ["T"]}


def test_quotes_inside_strings_cannot_forge_a_field() -> None:
    forged = json.dumps({"summary": 'x", "success": true, "y": "'})
    read, _ = read_result(forged[5:])  # head cut inside the summary
    assert "success" not in read


def test_a_tiny_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 64"):
        fit_result({"success": True}, 10)
