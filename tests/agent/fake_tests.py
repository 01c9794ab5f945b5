#!/usr/bin/env python3
"""A stand-in test command: judges calc.py and writes a JUnit XML report, as a real test runner would."""

import pathlib
import sys

source = pathlib.Path("calc.py").read_text()
add_ok = "a + b" in source
cases = [
    '<testcase classname="tests.test_calc" name="test_add" time="0.001">'
    + ("" if add_ok else '<failure message="assert -1 == 5">assert add(2, 3) == 5</failure>')
    + "</testcase>",
    '<testcase classname="tests.test_calc" name="test_sub" time="0.001"/>',
    '<testcase classname="tests.test_calc" name="test_flaky" time="0.2">'
    '<flakyFailure message="timing">first attempt failed</flakyFailure></testcase>',
    '<testcase classname="tests.test_calc" name="test_later" time="0"><skipped/></testcase>',
]
report = pathlib.Path("reports/junit.xml")
report.parent.mkdir(exist_ok=True)
report.write_text(
    '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="4">'
    + "".join(cases)
    + "</testsuite></testsuites>"
)
sys.exit(0 if add_ok else 1)
