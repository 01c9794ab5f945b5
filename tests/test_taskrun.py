"""``osmia.taskrun.parse_taskrun`` holds a file to the CRD's rules: limits, names, shapes.

The CRD is read from ``deploy/crds/`` and compared with :data:`CRD_LIMITS`,
so a limit changed in one place and not the other fails here; then every
limit is broken once, and the error must name exactly that field.
"""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from osmia.taskrun import CRD_LIMITS, Limit, TaskRunError, infer_task_type, parse_taskrun
from tests.helpers import taskrun_doc

CRD_PATH = Path(__file__).resolve().parents[1] / "deploy" / "crds" / "taskruns.osmia.dev.yaml"

# Limits in the CRD that parse_taskrun does not enforce, and why.
NOT_READ = {
    "status.observedGeneration",  # written by Osmia, never read from a file
    "status.prompt.configMap",
    "status.prompt.sha256",
    "status.memory.injected",
    "status.memory.injected[].id",
    "status.memory.injected[].kind",
    "status.memory.injected[].confidence",
    "status.memory.injected[].sources",
    "status.memory.injected[].sources[]",
    "status.memory.extraction.nodes",
    "status.memory.extraction.edges",
    "status.memory.extraction.error",
    "status.conditions[].observedGeneration",
}
# Patterns the CRD has that are not checked here: only type == "Succeeded" is read, and the
# condition patterns nest quantifiers (no pattern with nested quantifiers runs on untrusted text).
UNCHECKED_PATTERNS = {"status.conditions[].type", "status.conditions[].reason"}


def crd_limits() -> dict[str, dict[str, Any]]:
    """Every ``path → {maxLength, maxItems, maxProperties, minimum, maximum, pattern}`` in the CRD."""
    crd = yaml.safe_load(CRD_PATH.read_text())
    root = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    found: dict[str, dict[str, Any]] = {}
    stack: list[tuple[str, dict[str, Any]]] = [("", root)]
    keys = ("maxLength", "maxItems", "maxProperties", "minimum", "maximum", "pattern")
    while stack:
        path, node = stack.pop()
        limits = {k: node[k] for k in keys if k in node}
        if limits and path:
            found[path] = limits
        for name, child in (node.get("properties") or {}).items():
            stack.append((f"{path}.{name}" if path else name, child))
        if "items" in node:
            stack.append((f"{path}[]", node["items"]))
        if isinstance(node.get("additionalProperties"), dict):
            stack.append((f"{path}{{}}", node["additionalProperties"]))
    return found


def test_the_limits_are_the_crds() -> None:
    crd = crd_limits()
    names = {
        "maxLength": "max_length",
        "maxItems": "max_items",
        "maxProperties": "max_properties",
        "minimum": "minimum",
        "maximum": "maximum",
        "pattern": "pattern",
    }
    for path, limits in crd.items():
        if path in NOT_READ or path.startswith("status.memory") or path.startswith("status.prompt"):
            continue
        assert path in CRD_LIMITS, f"the CRD limits {path} but parse_taskrun does not check it"
        ours = CRD_LIMITS[path]
        for key, value in limits.items():
            if key == "pattern" and path in UNCHECKED_PATTERNS:
                continue
            assert getattr(ours, names[key]) == value, f"{path}: {key} is {value} in the CRD"
    for path, ours in CRD_LIMITS.items():
        for attr in ("max_length", "max_items", "max_properties", "minimum", "maximum", "pattern"):
            if getattr(ours, attr) is not None:
                crd_key = next(k for k, v in names.items() if v == attr)
                assert crd.get(path, {}).get(crd_key) == getattr(ours, attr), (
                    f"{path}.{attr} is not the CRD's"
                )


# --- breaking each limit once ---------------------------------------------------------


def _set(doc: dict[str, Any], path: str, value: Any) -> None:
    """Set ``a.b[].c`` in ``doc``, creating what is missing; ``[]`` means the first item."""
    parts = path.replace("[]", ".[]").replace("{}", ".{}").split(".")
    node: Any = doc
    for part, following in zip(parts, [*parts[1:], None], strict=True):
        last = following is None
        if part == "[]":
            if not node:
                node.append({} if not last and following not in ("[]",) else None)
            if last:
                node[0] = value
            node = node[0]
        elif part == "{}":
            node["tool"] = value
        elif last:
            node[part] = value
        else:
            node = node.setdefault(part, [] if following == "[]" else {})


def _violation(path: str, limit: Limit) -> Any:
    """A value just past one limit (or an object holding one)."""
    if limit.max_length is not None:
        if path.endswith("ticket.id"):
            return "A" * (limit.max_length + 1)
        if path.endswith("url") or path.endswith("URL"):
            return "https://x/" + "a" * limit.max_length
        return "a" * (limit.max_length + 1)
    if limit.max_items is not None:
        item: Any = {"type": "Ready", "status": "True"} if "conditions" in path else "a"
        return [copy.deepcopy(item) for _ in range(limit.max_items + 1)]
    if limit.max_properties is not None:
        return {f"tool{i}": 1 for i in range(limit.max_properties + 1)}
    if limit.minimum is not None:
        return limit.minimum - 1
    if limit.maximum is not None:
        return limit.maximum + 1
    raise AssertionError(f"no limit for {path}")


def finished_doc() -> dict[str, Any]:
    doc = taskrun_doc("limits", success=True)
    doc["status"]["result"].update(toolCalls={"read": 1}, learnings=["ok"], summary="ok")
    return doc


@pytest.mark.parametrize("path", sorted(CRD_LIMITS))
def test_every_limit_is_enforced_and_names_the_field(path: str) -> None:
    limit = CRD_LIMITS[path]
    doc = finished_doc()
    _set(doc, path, _violation(path, limit))
    with pytest.raises(TaskRunError) as info:
        parse_taskrun(doc)
    expected = path.replace("[]", "[0]").replace("{}", ".tool")
    if limit.max_items is not None or limit.max_properties is not None:
        expected = path.removesuffix("{}")
    assert info.value.field_path == expected, str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


@pytest.mark.parametrize("path", sorted(p for p, limit in CRD_LIMITS.items() if limit.pattern))
def test_every_pattern_is_enforced(path: str) -> None:
    doc = finished_doc()
    _set(doc, path, "Not A Match!")
    with pytest.raises(TaskRunError) as info:
        parse_taskrun(doc)
    assert info.value.field_path == path.replace("[]", "[0]")
    assert "does not match" in info.value.problem


def test_values_at_the_limits_are_accepted() -> None:
    doc = finished_doc()
    doc["spec"]["ticket"]["description"] = "d" * 65536
    doc["status"]["result"]["learnings"] = ["l" * 1000] * 50
    doc["spec"]["execution"]["timeoutSeconds"] = 86400
    run = parse_taskrun(doc)
    assert len(run.ticket.description) == 65536 and len(run.result.learnings) == 50  # type: ignore[union-attr]


# --- names and keys -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "a/b"),
        ("name", "Fix-Login"),
        ("name", "-lead"),
        ("name", "x" * 254),
        ("name", "a..b"),
        ("name", "tab\there"),
        ("namespace", "team/a"),
        ("namespace", "a.b"),
        ("namespace", "x" * 64),
        ("uid", "u/1"),
        ("uid", "u 1"),
        ("uid", "u" * 129),
    ],
)
def test_names_are_checked_like_the_api_server(field: str, value: str) -> None:
    doc = taskrun_doc("ok", success=True)
    doc["metadata"][field] = value
    with pytest.raises(TaskRunError) as info:
        parse_taskrun(doc)
    assert info.value.field_path == f"metadata.{field}"


def test_no_two_valid_runs_share_a_run_key() -> None:
    """The key joins namespace, name and uid with ``/``; none of them may hold one."""
    keys = {}
    for namespace in ("a", "a-b"):
        for name in ("b", "b.c", "c"):
            for uid in ("", "c", "b-c"):
                doc = taskrun_doc(name, namespace=namespace, uid=uid, success=True)
                run = parse_taskrun(doc)
                assert run.run_key not in keys, (run.run_key, keys.get(run.run_key))
                keys[run.run_key] = (namespace, name, uid)
    for ns, name in (("a", "b/c"), ("a/b", "c")):
        with pytest.raises(TaskRunError):
            parse_taskrun(
                taskrun_doc("x", namespace="a", success=True) | {"metadata": {"namespace": ns, "name": name}}
            )


@pytest.mark.parametrize("value", ["oops", 7, {"type": "Succeeded"}, [1], ["x"]])
def test_conditions_must_be_a_list_of_mappings(value: Any) -> None:
    doc = taskrun_doc("conds", success=True)
    doc["status"]["conditions"] = value
    with pytest.raises(TaskRunError) as info:
        parse_taskrun(doc)
    assert info.value.field_path.startswith("status.conditions")


def test_a_condition_needs_type_and_status() -> None:
    doc = taskrun_doc("conds", success=True)
    doc["status"]["conditions"] = [{"type": "Succeeded"}]
    with pytest.raises(TaskRunError) as info:
        parse_taskrun(doc)
    assert info.value.field_path == "status.conditions[0].status"


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 10**30, 2**63])
@pytest.mark.parametrize("key", ["durationSeconds", "tokenUsage", "costEstimateUSD", "exitCode"])
def test_numbers_are_finite_and_64_bit(key: str, value: float) -> None:
    doc = taskrun_doc("numbers", success=True)
    doc["status"]["result"][key] = value
    with pytest.raises(TaskRunError) as info:
        parse_taskrun(doc)
    assert info.value.field_path == f"status.result.{key}"


def test_a_huge_value_is_not_formatted_into_the_message() -> None:
    doc = taskrun_doc("big", success=True)
    doc["spec"]["flow"] = "x" * 1_000_000
    doc["status"]["result"]["exitCode"] = [list(range(100_000))]
    for broken in ({"spec": doc["spec"]}, {"status": doc["status"]}):
        with pytest.raises(TaskRunError) as info:
            parse_taskrun(doc | broken)
        assert len(str(info.value)) < 300


def test_a_repository_url_that_urllib_refuses_still_has_a_slug() -> None:
    """Found by the CLI fuzz test: an unbalanced ``[`` made urllib raise "Invalid IPv6 URL" mid-extraction."""
    from osmia.taskrun import normalize_repository

    assert normalize_repository("https://[github.com/org/api") == "[github.com/org/api"
    assert normalize_repository("https://GitHub.com/Org/API.git") == "github.com/org/api"


@pytest.mark.parametrize(
    ("url", "slug"),
    [
        ("https://www.github.com/acme/platform", "github.com/acme/platform"),
        ("https://github.com/acme/platform/tree/main/services/billing", "github.com/acme/platform"),
        ("ssh://git@github.com:22/acme/platform.git", "github.com/acme/platform"),
        ("https://gitlab.com/acme/infra/api/-/tree/main", "gitlab.com/acme/infra/api"),
        ("https://gitlab.com/acme/infra/api.git", "gitlab.com/acme/infra/api"),  # subgroups stay
    ],
)
def test_one_repository_written_as_its_pages_or_with_www_is_one_slug(url: str, slug: str) -> None:
    """Found by the tenth session's user probe: a link to a folder of the repository (or with
    ``www.``) became a repository of its own, with none of the repository's lessons."""
    from osmia.taskrun import normalize_repository

    assert normalize_repository(url) == slug


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Crash when cart is empty", "bug"),
        ("Flaky TestConcurrentLogin", "bug"),
        ("Wrong total shown for discounted orders", "bug"),
        ("Write the November changelog", "docs"),
        ("Document the retry policy", "docs"),
        ("Remove dead code in billing", "refactor"),
        ("Clean up unused feature flags", "refactor"),
        ("Bump lodash to 4.17.21", "chore"),
        ("Improve search relevance", "feature"),
        ("Add CSV export", "feature"),
        ("Payments queue not draining", "other"),
    ],
)
def test_a_task_type_is_inferred_from_the_title(title: str, expected: str) -> None:
    assert infer_task_type([], title) == expected
