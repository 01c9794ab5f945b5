"""Each engine adapter: its command line, its sample transcript parsed into the expected fields,
and survival of truncated, reordered and garbage lines."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from osmia.agent.adapters import EngineReport, UnknownEngine, adapter_for, known_engines
from osmia.agent.adapters.aider import tokens as aider_tokens
from osmia.agent.failure import ENGINE_AUTH, ENGINE_CONTEXT, ENGINE_RATE_LIMIT, classify_engine_error

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "engines"
TRANSCRIPTS = {
    "claude-code": "claude-code.jsonl",
    "codex": "codex.jsonl",
    "gemini-cli": "gemini-cli.json",
    "opencode": "opencode.jsonl",
    "aider": "aider.txt",
}
# What each transcript says, field by field (worked out by hand from the fixture).
EXPECTED = {
    "claude-code": {
        "summary": "Fixed add() in calc.py: it subtracted instead of adding. The tests pass.",
        "tokens": 7000 + 1000 + 500 + 175,
        "cost": 0.0421,
        "tool_calls": {"Read": 1, "Edit": 1, "Bash": 2},
        "turns": 5,
        "last_test": ("python -m pytest -q tests", True),
    },
    "codex": {
        "summary": "Fixed `add` in calc.py (it subtracted). Tests pass.",
        "tokens": 24763 + 122,
        "cost": None,
        "tool_calls": {"shell": 2, "edit": 1},
        "turns": 1,
        "last_test": ("bash -lc 'python -m pytest -q'", True),
    },
    "gemini-cli": {
        "summary": "I fixed add() in calc.py so that it adds its arguments; the tests now pass.",
        "tokens": 25413 + 1240,
        "cost": None,
        "tool_calls": {"read_file": 1, "replace": 1, "run_shell_command": 1},
        "turns": None,
        "last_test": ("", None),
    },
    "opencode": {
        "summary": "Fixed add() in calc.py; the tests pass.",
        "tokens": (9500 + 3000 + 180 + 20) + (400 + 9600 + 35),
        "cost": 0.0112 + 0.0051,
        "tool_calls": {"read": 1, "edit": 1, "bash": 1},
        "turns": 2,
        "last_test": ("", None),
    },
    "aider": {
        "summary": "I changed 'add' in calc.py to return a + b.\n"
        "Run the tests with python -m pytest -q to confirm.",
        "tokens": 3000 + 420 + 3600 + 85,
        "cost": 0.0274,
        "tool_calls": {"edit": 1},
        "turns": 2,
        "last_test": ("", None),
    },
}


def parse(engine: str, lines: list[str]) -> EngineReport:
    adapter = adapter_for(engine)
    report = adapter.new_report()
    for line in lines:
        adapter.feed(line, report)
    adapter.finish(report)
    return report


def transcript(engine: str) -> list[str]:
    return (FIXTURES / TRANSCRIPTS[engine]).read_text().splitlines()


def test_every_engine_has_an_adapter_and_a_transcript() -> None:
    assert known_engines() == sorted(TRANSCRIPTS)
    for name in TRANSCRIPTS.values():
        assert (FIXTURES / name).is_file()
        assert name in (FIXTURES / "README.md").read_text(), f"{name}: its source is not named"


@pytest.mark.parametrize("engine", sorted(TRANSCRIPTS))
def test_transcript_parses_into_the_expected_fields(engine: str) -> None:
    report = parse(engine, transcript(engine))
    want = EXPECTED[engine]
    summary = report.summary.replace("`", "'") if engine == "aider" else report.summary
    assert summary == want["summary"]
    assert report.tokens() == want["tokens"]
    if want["cost"] is None:
        assert report.cost_usd is None
    else:
        assert report.cost_usd == pytest.approx(want["cost"])
    assert dict(report.tool_calls) == want["tool_calls"]
    assert report.turns == want["turns"]
    assert (report.last_test_command, report.last_test_passed) == want["last_test"]
    assert not report.is_error and report.error == ""
    assert report.events > 0


@pytest.mark.parametrize("engine", sorted(TRANSCRIPTS))
def test_garbage_truncated_and_reordered_lines_never_raise(engine: str) -> None:
    lines = transcript(engine)
    rng = random.Random(13)
    garbage = [
        "",
        "not json at all",
        "{",
        '{"type": 12}',
        "[1, 2, 3]",
        '{"type":"result","usage":"many","total_cost_usd":"free","num_turns":true}',
        '{"type":"item.completed","item":{"type":"command_execution","exit_code":"x"}}',
        '{"type":"step_finish","part":{"tokens":{"input":-5,"output":1e400},"cost":NaN}}',
        '{"type":"assistant","message":{"content":[null, 3, {"type":"tool_use","name":7}]}}',
        '{"type":"tool_use","part":[]}',
        '{"response": 5, "stats": {"models": [1], "tools": {"byName": {"x": 3}}}}',
        "Tokens: lots sent, many received. Cost: $abc message, $x session.",
        "\x00\xff\ufffd binary noise",
        '{"type":"brand_new_event","payload":{"anything":[1,2,3]}}',
    ]
    for _ in range(30):
        mixed = list(lines)
        rng.shuffle(mixed)
        cut = [
            line[: rng.randrange(len(line) + 1)] if line and rng.random() < 0.3 else line for line in mixed
        ]
        for junk in garbage:
            cut.insert(rng.randrange(len(cut) + 1), junk)
        report = parse(engine, cut)  # must not raise
        assert report.tokens() is None or report.tokens() >= 0
        assert report.cost_usd is None or report.cost_usd >= 0
        assert all(isinstance(k, str) and v > 0 for k, v in report.tool_calls.items())


@pytest.mark.parametrize("engine", sorted(set(TRANSCRIPTS) - {"gemini-cli", "aider"}))
def test_unknown_event_types_are_ignored_not_counted(engine: str) -> None:
    lines = transcript(engine)
    plain = parse(engine, lines)
    noisy = parse(engine, [*lines[:1], '{"type":"from_a_future_version","x":1}', *lines[1:]])
    assert noisy.ignored == plain.ignored + 1
    assert noisy.events == plain.events
    assert noisy.summary == plain.summary and noisy.tokens() == plain.tokens()


def test_a_truncated_gemini_object_gives_no_figures_and_no_crash() -> None:
    text = (FIXTURES / "gemini-cli.json").read_text()
    report = parse("gemini-cli", text[: len(text) // 2].splitlines())
    assert report.tokens() is None and report.summary == "" and report.events == 0


def test_gemini_object_after_warnings_on_stdout_is_found() -> None:
    lines = ["Loaded cached credentials.", "[WARN] something", *transcript("gemini-cli")]
    assert parse("gemini-cli", lines).summary.startswith("I fixed add()")


@pytest.mark.parametrize(
    ("engine", "lines", "label"),
    [
        (
            "claude-code",
            [
                json.dumps(
                    {
                        "type": "result",
                        "subtype": "success",
                        "is_error": True,
                        "result": "Invalid API key · Please run /login",
                        "num_turns": 1,
                        "total_cost_usd": 0,
                    }
                )
            ],
            ENGINE_AUTH,
        ),
        (
            "claude-code",
            ['{"type":"result","subtype":"success","is_error":true,"result":"Prompt is too long"}'],
            ENGINE_CONTEXT,
        ),
        (
            "codex",
            [
                '{"type":"turn.started"}',
                '{"type":"error","message":"exceeded retry limit, last status: 429 Too Many Requests"}',
                '{"type":"turn.failed","error":'
                '{"message":"exceeded retry limit, last status: 429 Too Many Requests"}}',
            ],
            ENGINE_RATE_LIMIT,
        ),
        (
            "gemini-cli",
            ['{"error": {"type": "FatalAuthenticationError", "message": "API key not valid.", "code": 41}}'],
            ENGINE_AUTH,
        ),
        (
            "opencode",
            [
                '{"type":"error","timestamp":1,"sessionID":"s","error":{"name":"APIError",'
                '"data":{"message":"This model\'s maximum context length is 200000 tokens",'
                '"statusCode":400}}}'
            ],
            ENGINE_CONTEXT,
        ),
        (
            "aider",
            [
                "litellm.RateLimitError: AnthropicException - rate_limit_error: "
                "Number of request tokens exceeded"
            ],
            ENGINE_RATE_LIMIT,
        ),
    ],
)
def test_engine_errors_are_reported_and_classified(engine: str, lines: list[str], label: str) -> None:
    report = parse(engine, lines)
    assert report.is_error
    assert classify_engine_error(report.error) == label


@pytest.mark.parametrize("engine", sorted(TRANSCRIPTS))
def test_command_line_is_non_interactive_machine_readable_and_carries_model_and_args(engine: str) -> None:
    adapter = adapter_for(engine)
    argv = adapter.command("PROMPT", model="some-model", extra_args=["--extra"], prompt_file="/p/prompt.md")
    assert argv[0] == adapter.executable
    assert "some-model" in argv and "--extra" in argv
    machine = {
        "claude-code": ["--output-format", "stream-json", "--verbose", "-p", "--permission-mode"],
        "codex": ["exec", "--json", "--sandbox", "workspace-write"],
        "gemini-cli": ["--output-format", "json", "--approval-mode", "yolo", "--prompt"],
        "opencode": ["run", "--format", "json", "--auto"],
        "aider": ["--message-file", "/p/prompt.md", "--yes-always", "--no-auto-commits"],
    }[engine]
    assert all(flag in argv for flag in machine)
    if adapter.prompt_mode == "argument":
        assert "PROMPT" in argv
    else:
        assert "PROMPT" not in argv
    assert "some-model" not in adapter.command("P", model="", extra_args=[], prompt_file="/p")


def test_unknown_engine_names_the_known_ones() -> None:
    for name in ("nope", "base", "../etc", "Claude-Code", ""):
        with pytest.raises(UnknownEngine, match="claude-code"):
            adapter_for(name)


def test_aider_token_figures() -> None:
    assert [aider_tokens(t) for t in ("4.5k", "1,250", "85", "2M", "k", "x")] == [
        4500,
        1250,
        85,
        2000000,
        0,
        0,
    ]


# --- output captured from the real CLIs at the pinned versions (tests/fixtures/engines/README.md) ---


def test_real_gemini_failure_object_on_stderr_is_read() -> None:
    adapter = adapter_for("gemini-cli")
    report = adapter.new_report()
    for line in (FIXTURES / "gemini-cli-auth-error.stderr").read_text().splitlines():
        adapter.feed_stderr(line, report)
    adapter.finish(report)
    assert report.is_error
    assert report.error.startswith("Please set an Auth method")
    assert classify_engine_error(report.error) == ENGINE_AUTH
    assert adapter.env({}) == {"GEMINI_CLI_TRUST_WORKSPACE": "true"}


def test_real_codex_reconnect_errors_count_only_when_no_turn_completes() -> None:
    lines = (FIXTURES / "codex-network-error.jsonl").read_text().splitlines()
    failed = parse("codex", lines)
    assert failed.is_error
    assert failed.error.startswith("Reconnecting... waiting for network")
    assert failed.ignored == 0  # every event of the real stream is understood
    recovered = parse(
        "codex", [*lines, '{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}']
    )
    assert not recovered.is_error and recovered.tokens() == 12


def test_real_claude_code_without_credentials_is_an_authentication_error() -> None:
    report = parse("claude-code", (FIXTURES / "claude-code-auth-error.jsonl").read_text().splitlines())
    assert report.is_error and report.error == "Not logged in · Please run /login"
    assert classify_engine_error(report.error) == ENGINE_AUTH
    assert report.tokens() == 0 and report.cost_usd == 0 and report.turns == 1
    assert report.ignored == 0
