"""The termination-message rule shared by the agent runner (writer) and the operator (reader)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osmia.termination import (
    DROP_ORDER,
    IDENTIFIERS,
    PRIORITY,
    RESULT_FIELDS,
    SHRINK_ORDER,
    TERMINATION_MESSAGE_LIMIT,
    fit_result,
    read_result,
    smallest_form,
)

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
        "mergeRequestURL": st.text(max_size=300),
        "branchName": st.text(max_size=300),
        "durationSeconds": st.floats(0, 10**5),
        "tokenUsage": st.integers(0, 10**9),
        "costEstimateUSD": st.floats(0, 100),
        "toolCalls": st.dictionaries(st.text(max_size=20), st.integers(0, 1000), max_size=10),
    },
)
limits = st.sampled_from([64, 300, 512, TERMINATION_MESSAGE_LIMIT])


def fitted(result: dict[str, Any], limit: int = TERMINATION_MESSAGE_LIMIT) -> dict[str, Any]:
    """The fitted message, checked to fit in UTF-8 bytes and to read whole, as a dict."""
    message = fit_result(result, limit)
    assert len(message.encode()) <= limit
    read, whole = read_result(message)
    assert whole and read == json.loads(message)
    return read


def big_result() -> dict[str, Any]:
    return {
        "success": False,
        "failureReason": "tests failed: test_a, test_b",
        "exitCode": 0,
        "branchName": "osmia/proj-1-0123abcd",
        "summary": "S" * 5000,
        "filesChanged": [f"src/pkg/module_{i:04}.py" for i in range(400)],
        "testsFailed": ["test_a", "test_b"],
        "flakyTests": ["test_c"],
        "durationSeconds": 12.5,
        "tokenUsage": 123456,
        "costEstimateUSD": 0.42,
        "toolCalls": {f"tool{i}": i for i in range(1, 60)},
        "learnings": ["L" * 250 for _ in range(10)],
    }


def is_head_of(value: Any, original: Any, key: str) -> bool:
    """``value`` is ``original`` or a shortened form of it: nothing invented, names never cut."""
    if value == original:
        return True
    if isinstance(value, str):
        return key not in IDENTIFIERS and value.endswith("…") and original.startswith(value[:-1])
    if isinstance(value, list):
        return len(value) <= len(original) and all(
            is_head_of(v, o, "branchName" if key in IDENTIFIERS else "summary")  # a name, a text
            for v, o in zip(value, original, strict=False)
        )
    if isinstance(value, dict):
        return all(original.get(k) == n for k, n in value.items())
    return False


# --- writing ---------------------------------------------------------------------------------


def test_the_issue_fields_come_first_and_the_orders_derive_from_the_priority() -> None:
    assert PRIORITY[:5] == ("success", "exitCode", "failureReason", "testsFailed", "flakyTests")
    assert set(PRIORITY) == set(RESULT_FIELDS) and len(PRIORITY) == len(RESULT_FIELDS)
    assert DROP_ORDER == SHRINK_ORDER == tuple(reversed(PRIORITY))[:-1]  # least important first
    assert "success" not in DROP_ORDER


def test_a_small_result_is_left_alone() -> None:
    small = {"success": True, "summary": "done", "filesChanged": ["a.py"]}
    assert fitted(small) == small


@settings(max_examples=150, deadline=None)
@given(results, limits)
def test_a_fitted_result_always_fits_reads_whole_and_keeps_success(
    result: dict[str, Any], limit: int
) -> None:
    read = fitted(result, limit)
    assert read["success"] is result["success"]
    for key, value in read.items():  # nothing invented: each kept field is the original or its head
        assert is_head_of(value, result[key], key), key


@settings(max_examples=150, deadline=None)
@given(results, limits)
def test_fields_are_kept_shortened_and_dropped_in_priority_order(result: dict[str, Any], limit: int) -> None:
    read = fitted(result, limit)
    present = [k for k in PRIORITY if k in result]
    # A field is kept only if every more important field in the input is kept.
    assert list(read) == present[: len(read)]
    # A field is shortened only once every less important field kept is at its smallest form.
    for i, key in enumerate(present):
        if key in read and read[key] != result[key]:
            for lower in present[i + 1 :]:
                if lower in read:
                    assert read[lower] == smallest_form(lower, result[lower]), (key, lower)


@settings(max_examples=80, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=20),
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=2000), st.lists(st.integers())),
        max_size=8,
    ),
    st.one_of(st.booleans(), st.none(), st.text(max_size=5), st.integers()),
)
def test_unknown_or_mistyped_fields_are_dropped_and_success_is_a_bool(
    junk: dict[str, Any], success: Any
) -> None:
    read = fitted({**junk, "success": success})
    assert read["success"] is (success is True)
    assert set(read) <= set(RESULT_FIELDS)


def test_text_and_lists_are_shortened_in_order_before_anything_is_dropped() -> None:
    full = big_result()
    read = fitted(full)
    assert set(read) == set(full)  # nothing dropped
    for key in (
        "success",
        "failureReason",
        "exitCode",
        "branchName",
        "testsFailed",
        "flakyTests",
        "tokenUsage",
    ):
        assert read[key] == full[key]
    assert len(read["summary"]) < len(full["summary"]) and read["summary"].endswith("…")
    assert read["filesChanged"] == full["filesChanged"][: len(read["filesChanged"])]  # names whole
    top = sorted(full["toolCalls"].items(), key=lambda kv: -kv[1])[: len(read["toolCalls"])]
    assert read["toolCalls"] == dict(top)  # the most used tools are kept
    # Less important than filesChanged: summary and toolCalls are at their smallest.
    assert read["summary"] == smallest_form("summary", full["summary"])
    assert read["toolCalls"] == smallest_form("toolCalls", full["toolCalls"])


def test_fields_are_dropped_in_the_defined_order_when_shortening_is_not_enough() -> None:
    full = big_result()
    full["failureReason"] = "R" * 3000
    full["testsFailed"] = [f"test_{i}_" + "x" * 50 for i in range(200)]
    read = fitted(full, limit=300)
    assert read["success"] is False and read["failureReason"].startswith("RRR")
    assert read["failureReason"].endswith("…")
    dropped = [key for key in DROP_ORDER if key in full and key not in read]
    assert dropped == [key for key in DROP_ORDER if key in full][: len(dropped)]  # a prefix of the order
    assert "summary" in dropped and "failureReason" not in dropped
    assert read["testsFailed"] and set(read["testsFailed"]) <= set(full["testsFailed"])  # never cut


def test_room_freed_by_dropping_goes_to_the_most_important_field() -> None:
    # The one failed test's name is too long to keep beside the reason even at its smallest: it is
    # dropped, and the room it leaves goes back to the reason.
    full = {"success": False, "failureReason": "R" * 3000, "testsFailed": ["t" * 250], "summary": "S" * 900}
    read = fitted(full, limit=300)
    assert set(read) == {"success", "failureReason"}
    assert len(read["failureReason"]) > 200  # grown back, not left at its smallest form


def test_a_big_report_keeps_failing_tests_and_drops_the_long_summary() -> None:
    report = {
        "success": False,
        "summary": "x" * 10000,
        "failureReason": "tests failed",
        "testsFailed": [f"TestCase{i}" for i in range(50)],
    }
    read = fitted(report)
    assert read["testsFailed"] == report["testsFailed"] and read["failureReason"] == "tests failed"
    assert len(read.get("summary", "")) < 10000


def test_multibyte_text_is_measured_in_bytes() -> None:
    read = fitted({"success": True, "summary": "é" * 5000, "learnings": ["ü" * 900] * 5})
    assert read["summary"].startswith("ééé")


def test_an_identifier_that_cannot_fit_whole_is_left_out() -> None:
    read = fitted({"success": True, "branchName": "b" * 250, "testsFailed": ["t" * 900]}, limit=200)
    assert read == {"success": True}


# --- reading ---------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(results, st.integers(0, TERMINATION_MESSAGE_LIMIT), st.booleans())
def test_a_fitted_message_cut_at_either_end_reads_without_error(
    result: dict[str, Any], keep: int, keep_tail: bool
) -> None:
    message = fit_result(result)
    cut = message[len(message) - keep :] if keep_tail else message[:keep]
    read, whole = read_result(cut)
    assert whole or cut != message
    assert all(key in RESULT_FIELDS for key in read)
    # Whichever end was kept, every field read is a top-level field of the message, whole:
    # never a nested key (toolCalls holds an object) read as if it were one.
    whole_fields = json.loads(message)
    for key, value in read.items():
        assert whole_fields[key] == value, key


def test_a_nested_object_in_a_head_cut_message_is_not_read_as_the_result() -> None:
    message = json.dumps({"success": False, "toolCalls": {"exitCode": 7, "success": 1}, "exitCode": 1})
    cut = message[message.index('{"exitCode": 7') :]  # head lost: starts at toolCalls' value
    read, whole = read_result(cut)
    assert not whole and read.get("exitCode") != 7 and "success" not in read


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=2000))
def test_reading_any_text_never_raises(message: str) -> None:
    read, _ = read_result(message)
    assert set(read) <= set(RESULT_FIELDS)


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
