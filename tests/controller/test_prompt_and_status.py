"""Prompt assembly, status conditions and kopf options, without a cluster."""

from __future__ import annotations

from osmia.config import parse_config
from osmia.controller.operator import kopf_options
from osmia.controller.prompt import prompt_digest, render_prompt
from osmia.controller.status import merge_conditions, phase_patch
from osmia.taskrun import Phase
from tests.memory.conftest import make_run

SECTION = "## Prior Knowledge\n\nRecalled.\n\n- **Learning** (confidence 0.40, from tr/a/b): x\n"


def test_prompt_sections_come_in_contract_order() -> None:
    prompt = render_prompt(make_run("r", ticket="PROJ-1", finished=False), SECTION)
    marks = [
        "# Task PROJ-1: Fix login race",
        "Login fails",
        "## Instructions",
        "## Guard Rails",
        "## Prior Knowledge",
        "Engine: claude-code",
    ]
    positions = [prompt.index(m) for m in marks]
    assert positions == sorted(positions)
    assert prompt.endswith("Engine: claude-code\n")


def test_prompt_without_memory_has_no_section() -> None:
    prompt = render_prompt(make_run("r", finished=False), "")
    assert "Prior Knowledge" not in prompt.replace("The Prior Knowledge section below", "")
    assert len(prompt_digest(prompt)) == 64


def test_incident_prompt_names_no_repository() -> None:
    prompt = render_prompt(make_run("r", flow="incident-triage", repo="", finished=False), "")
    assert "Repository:" not in prompt and "Flow: incident-triage" in prompt


def test_conditions_keep_transition_time_when_status_is_unchanged() -> None:
    old = [{"type": "Succeeded", "status": "Unknown", "reason": "Pending", "lastTransitionTime": "T0"}]
    same = merge_conditions(
        old, {"type": "Succeeded", "status": "Unknown", "reason": "Running", "lastTransitionTime": "T1"}
    )
    assert same[0]["lastTransitionTime"] == "T0" and same[0]["reason"] == "Running"
    moved = merge_conditions(
        old, {"type": "Succeeded", "status": "True", "reason": "Succeeded", "lastTransitionTime": "T2"}
    )
    assert moved[0]["lastTransitionTime"] == "T2"


def test_phase_patch_sets_the_tekton_style_condition() -> None:
    patch = phase_patch(
        {"status": {"phase": "Running"}}, Phase.FAILED, "tests failed", result={"success": False}
    )
    assert patch["phase"] == "Failed" and patch["result"] == {"success": False}
    (cond,) = patch["conditions"]
    assert (cond["type"], cond["status"], cond["reason"]) == ("Succeeded", "False", "Failed")


def test_kopf_options_merge_over_config() -> None:
    config = parse_config({"operator": {"namespaces": ["agents"], "peering": "osmia", "liveness_port": 8080}})
    opts = kopf_options(config, [])
    assert opts.namespaces == ("agents",) and not opts.clusterwide and not opts.standalone
    assert opts.liveness == "http://0.0.0.0:8080/healthz"
    opts = kopf_options(config, ["-A", "--standalone"])
    assert opts.clusterwide and opts.standalone and opts.namespaces == ()
    assert kopf_options(parse_config({}), ["-n", "a", "-n", "b"]).namespaces == ("a", "b")
