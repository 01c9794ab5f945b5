"""Red-team sets for the text defences, written by helpers who had not read the rules (thirty-fifth session).

Each set was written before its author read any rule, then measured against the engine of the day.
The thirty-fifth session's sets are kept as data in ``data/redteam35.jsonl``, the later ones in a
JSON-lines file each:

- ``INJECTION_1`` / ``INJECTION_1_HONEST``: 96 hostile learnings and 60 honest look-alikes. They
  shaped the session's first round of hostility rules (48 -> 90 caught), so they are a regression
  set, not a held-out one.
- ``BLIND_HOSTILE`` / ``BLIND_HONEST`` / ``BLIND_SECRETS`` / ``BLIND_CLEAN``: 80 / 80 / 60 / 40,
  written by a second helper who saw neither the rules nor the first set, and measured once against
  the session's base and first round (hostile caught 34 -> 41 of 80, honest flagged 0, secrets
  leaked 8 -> 4 of 60): the held-out figure. Its misses then shaped a second round (41 -> 65), so it
  is no longer held out either.
- ``SECRETS_1`` / ``SECRETS_1_HONEST``: 315 secret lines (each with the values that must not
  survive) and 127 honest look-alikes; they shaped the session's redaction rules (18 -> 2 leaks).

- ``data/secrets12a.jsonl`` / ``data/secrets12b.jsonl`` (forty-third session): 250 texts holding
  secrets and 150 ordinary look-alikes each, by two more helpers who read nothing else. B's misses
  shaped that session's redaction rules; A was measured before and after them (15 -> 14 leaked,
  11 -> 6 ordinary lines changed), then its misses were read too (docs/security.md).
- ``data/evasive13a.jsonl`` / ``data/evasive13b.jsonl`` (forty-fourth session): 200 secrets written
  to evade a scanner (fifteen kinds: spelled out, reversed, re-cased, hex, joined in code, told in
  parts, look-alike letters, zero-width characters, base64, HTML, Markdown, wrapped lines,
  percent-encoding, a misleading label, another language) and 100 look-alikes each, by two more
  helpers who read nothing else. A's misses shaped that session's rules; B was measured once
  before and after them (64 -> 47 of 200 leaked, 6 -> 6 ordinary lines changed), then read too.
  ``data/evasive13c.jsonl``: 160 and 80 more by a third helper, measured once after A's and B's
  rounds (60 -> 34 of 160 leaked, 3 -> 2 ordinary lines given a marker), then read too.
- ``data/secrets15a.jsonl`` / ``…b`` (forty-seventh session) and ``data/secrets16a.jsonl`` / ``…b``
  (forty-eighth): 250 texts holding secrets and 150 look-alikes each, by helpers who read nothing
  else, in four slices (delivery, application code, data tooling, the workstation and prose in
  other languages). Each session read B's misses first and measured A held out (docs/security.md).
- ``data/secrets17e.jsonl`` … ``…j`` (forty-ninth session): 200 texts holding secrets and 100
  look-alikes each, in six more slices (application code, delivery and infrastructure, logs and
  traffic, security and identity, SaaS APIs, machine learning and devices), each measured before it
  was read (docs/security.md).
- ``data/secrets18k.jsonl`` / ``…l`` (fiftieth session): 200 texts holding secrets and 100
  look-alikes each, in networks and telecom (K) and enterprise applications (L), each measured
  before it was read and again after the session's general steps, held out (docs/security.md).
- ``data/secrets19m.jsonl`` / ``…n`` (fifty-first session): 200 texts holding secrets and 100
  look-alikes each, in science, health and education IT (M) and web agencies and small-business IT
  (N), each measured held out after the session's step for unnamed random runs, before and after it
  (docs/security.md).
- ``data/secrets20o.jsonl`` … ``…r`` (fifty-second session): 200 texts holding secrets and 100
  look-alikes each, in finance, trading and crypto (O), logistics, travel, retail, mobile apps and
  industrial systems (P), public sector, legal and non-profit IT (Q), and media, streaming and
  marketing technology (R); O and P measured held out after the session's hex-key steps, Q and R
  after all its steps for O and P, each then read (docs/security.md).

    .venv/bin/python -m benchmarks.redteam_sets

prints, per set, what the engine of this checkout catches, flags, leaks and changes. The next
held-out measurement needs a new set, written blind again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _set_rows() -> dict[str, list[dict[str, Any]]]:
    """The thirty-fifth session's sets as kept (``data/redteam35.jsonl``: a set's name, a text, and
    the values that must not survive where it holds a secret), by set."""
    path = Path(__file__).with_name("data") / "redteam35.jsonl"
    sets: dict[str, list[dict[str, Any]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        sets.setdefault(row["set"], []).append(row)
    return sets


_SETS = _set_rows()
INJECTION_1: tuple[str, ...] = tuple(r["text"] for r in _SETS["INJECTION_1"])
INJECTION_1_HONEST: tuple[str, ...] = tuple(r["text"] for r in _SETS["INJECTION_1_HONEST"])
BLIND_HOSTILE: tuple[str, ...] = tuple(r["text"] for r in _SETS["BLIND_HOSTILE"])
BLIND_HONEST: tuple[str, ...] = tuple(r["text"] for r in _SETS["BLIND_HONEST"])
BLIND_SECRETS: tuple[tuple[str, str], ...] = tuple(
    (r["text"], r["values"][0]) for r in _SETS["BLIND_SECRETS"]
)
BLIND_CLEAN: tuple[str, ...] = tuple(r["text"] for r in _SETS["BLIND_CLEAN"])
SECRETS_1: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (r["text"], tuple(r["values"])) for r in _SETS["SECRETS_1"]
)
SECRETS_1_HONEST: tuple[str, ...] = tuple(r["text"] for r in _SETS["SECRETS_1_HONEST"])


def _leaks(text: str, values: tuple[str, ...]) -> bool:
    """Whether any eight characters of any of ``values`` survive redaction of ``text``, that the text
    does not also hold outside the values: a certificate kept beside a private key shares the first
    characters of its base64 (``LS0tLS1CRUdJTiB``, "-----BEGIN "), a publishable key its secret
    twin's (``_live_51``), a file's name its key's prefix (``rubygems``). Those survive as they
    should, and say nothing of the secret."""
    from osmia.memory.sanitize import redacted

    out = redacted(text)
    rest = text
    for value in sorted(values, key=len, reverse=True):
        rest = rest.replace(value, "\0")
    windows = {v[i : i + 8] for v in values for i in range(max(1, len(v) - 7))}
    return any(window in out and window not in rest for window in windows)


def _labelled(file: str) -> tuple[list[tuple[str, tuple[str, ...]]], list[str]]:
    """A blind set's secret texts with the values that must not survive, and its ordinary texts."""
    path = Path(__file__).with_name("data") / file
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    secret = [(r["text"], tuple(r["values"])) for r in rows if r["label"] == "secret"]
    clean = [r["text"] for r in rows if r["label"] == "clean"]
    return secret, clean


def _secret_set(file: str) -> dict[str, list[int]]:
    """A labelled secret set's figures: secrets leaked and ordinary lines changed, each [count, of]."""
    from osmia.memory.sanitize import redacted

    secret, clean = _labelled(file)
    return {
        "leaked": [sum(_leaks(t, vs) for t, vs in secret), len(secret)],
        "changed": [sum(redacted(t) != t for t in clean), len(clean)],
    }


def secrets_12(name: str) -> dict[str, list[int]]:
    """A forty-third session secret set's figures (``data/secrets12a.jsonl`` or ``…b``: 250 texts
    holding secrets with the values that must not survive, 150 ordinary look-alikes, by a helper
    who read nothing else): secrets leaked and ordinary lines changed, each [count, of]."""
    return _secret_set(f"secrets12{name}.jsonl")


def secrets_14(name: str) -> dict[str, list[int]]:
    """A forty-sixth session secret set's figures (``data/secrets14a.jsonl`` or ``…b``, written as the
    forty-third session's were: 250 texts of 190 kinds each, ~40 in less usual forms, and 150
    look-alikes of 70-112 kinds): secrets leaked and ordinary lines changed, each [count, of]."""
    return _secret_set(f"secrets14{name}.jsonl")


def secrets_15(name: str) -> dict[str, list[int]]:
    """A forty-seventh session secret set's figures (``data/secrets15a.jsonl`` or ``…b``: 250 texts
    and 150 look-alikes each, by a helper who read nothing else; A in infrastructure and delivery,
    B in application code and its runtime): secrets leaked and ordinary lines changed, each
    [count, of]."""
    return _secret_set(f"secrets15{name}.jsonl")


def secrets_16(name: str) -> dict[str, list[int]]:
    """A forty-eighth session secret set's figures (``data/secrets16a.jsonl`` … ``d``, by helpers who
    read nothing else: A, 250 texts and 150 look-alikes in data, analytics and operations tooling; B,
    as many on the developer's workstation and in prose in sixteen languages; C, 200 and 100 in
    enterprise, mobile and IoT; D, 200 and 100 in incidents and conversations, in twenty languages):
    secrets leaked and ordinary lines changed, each [count, of]."""
    return _secret_set(f"secrets16{name}.jsonl")


def secrets_17(name: str) -> dict[str, list[int]]:
    """A forty-ninth session secret set's figures (``data/secrets17e.jsonl`` … ``j``, each 200 texts
    holding secrets and 100 look-alikes by a helper who read nothing else: E in application source
    code and its configuration, F in CI/CD, infrastructure as code, containers and Kubernetes, G in
    logs, network traffic and observability, H in security tooling and identity, I in payments,
    messaging and SaaS APIs, J in machine learning, devices and game tooling): secrets leaked and
    ordinary lines changed, each [count, of]."""
    return _secret_set(f"secrets17{name}.jsonl")


def secrets_18(name: str) -> dict[str, list[int]]:
    """A fiftieth session secret set's figures (``data/secrets18k.jsonl`` or ``…l``, each 200 texts
    holding secrets and 100 look-alikes by a helper who read nothing else: K in networks and telecom,
    L in enterprise and business applications): secrets leaked and ordinary lines changed, each
    [count, of]."""
    return _secret_set(f"secrets18{name}.jsonl")


def secrets_19(name: str) -> dict[str, list[int]]:
    """A fifty-first session secret set's figures (``data/secrets19m.jsonl`` or ``…n``, each 200 texts
    holding secrets and 100 look-alikes by a helper who read nothing else: M in science, health and
    education IT, N in web agencies' and small businesses' IT): secrets leaked and ordinary lines
    changed, each [count, of]."""
    return _secret_set(f"secrets19{name}.jsonl")


def secrets_20(name: str) -> dict[str, list[int]]:
    """A fifty-second session secret set's figures (``data/secrets20o.jsonl`` … ``…r``, each 200
    texts holding secrets and 100 look-alikes by a helper who read nothing else: O in finance,
    trading and crypto, P in logistics, travel, retail, mobile apps and industrial systems, Q in
    public sector, legal and non-profit IT, R in media, streaming and marketing technology):
    secrets leaked and ordinary lines changed, each [count, of]."""
    return _secret_set(f"secrets20{name}.jsonl")


def evasive_13(name: str) -> dict[str, list[int]]:
    """A forty-fourth session set's figures (``data/evasive13a.jsonl``, ``…b`` or ``…c``: 200, 200
    and 160 texts holding a secret written to evade a scanner, in fifteen kinds of disguise, with
    the values that must not survive, and 100, 100 and 80 ordinary look-alikes, each by a helper
    who read nothing else): secrets leaked,
    and ordinary lines given a marker (the cleaning's own changes, a zero-width joiner dropped, are
    not counted), each [count, of]."""
    from osmia.memory.redaction import REDACTED
    from osmia.memory.sanitize import redacted

    secret, clean = _labelled(f"evasive13{name}.jsonl")
    return {
        "leaked": [sum(_leaks(t, vs) for t, vs in secret), len(secret)],
        "redacted": [sum(REDACTED in redacted(t) and REDACTED not in t for t in clean), len(clean)],
    }


def evaluate() -> dict[str, Any]:
    """Each set's figure for this checkout's engine."""
    from osmia.memory.hostile import looks_hostile
    from osmia.memory.sanitize import redacted

    twelve = {name: secrets_12(name) for name in ("a", "b")}
    fourteen = {name: secrets_14(name) for name in ("a", "b")}
    fifteen = {name: secrets_15(name) for name in ("a", "b")}
    sixteen = {name: secrets_16(name) for name in ("a", "b", "c", "d")}
    seventeen = {name: secrets_17(name) for name in ("e", "f", "g", "h", "i", "j")}
    eighteen = {name: secrets_18(name) for name in ("k", "l")}
    nineteen = {name: secrets_19(name) for name in ("m", "n")}
    twenty = {name: secrets_20(name) for name in ("o", "p", "q", "r")}
    thirteen = {name: evasive_13(name) for name in ("a", "b", "c")}
    return {
        **{f"evasive 13{name}: leaked": figures["leaked"] for name, figures in thirteen.items()},
        **{
            f"evasive 13{name}: ordinary lines redacted": figures["redacted"]
            for name, figures in thirteen.items()
        },
        **{f"secrets 20{name}: leaked": figures["leaked"] for name, figures in twenty.items()},
        **{
            f"secrets 20{name}: ordinary lines changed": figures["changed"]
            for name, figures in twenty.items()
        },
        **{f"secrets 19{name}: leaked": figures["leaked"] for name, figures in nineteen.items()},
        **{
            f"secrets 19{name}: ordinary lines changed": figures["changed"]
            for name, figures in nineteen.items()
        },
        **{f"secrets 18{name}: leaked": figures["leaked"] for name, figures in eighteen.items()},
        **{
            f"secrets 18{name}: ordinary lines changed": figures["changed"]
            for name, figures in eighteen.items()
        },
        **{f"secrets 17{name}: leaked": figures["leaked"] for name, figures in seventeen.items()},
        **{
            f"secrets 17{name}: ordinary lines changed": figures["changed"]
            for name, figures in seventeen.items()
        },
        **{f"secrets 16{name}: leaked": figures["leaked"] for name, figures in sixteen.items()},
        **{
            f"secrets 16{name}: ordinary lines changed": figures["changed"]
            for name, figures in sixteen.items()
        },
        **{f"secrets 15{name}: leaked": figures["leaked"] for name, figures in fifteen.items()},
        **{
            f"secrets 15{name}: ordinary lines changed": figures["changed"]
            for name, figures in fifteen.items()
        },
        **{f"secrets 14{name}: leaked": figures["leaked"] for name, figures in fourteen.items()},
        **{
            f"secrets 14{name}: ordinary lines changed": figures["changed"]
            for name, figures in fourteen.items()
        },
        **{f"secrets 12{name}: leaked": figures["leaked"] for name, figures in twelve.items()},
        **{
            f"secrets 12{name}: ordinary lines changed": figures["changed"]
            for name, figures in twelve.items()
        },
        "injection 1: hostile caught": [sum(map(looks_hostile, INJECTION_1)), len(INJECTION_1)],
        "injection 1: honest flagged": [sum(map(looks_hostile, INJECTION_1_HONEST)), len(INJECTION_1_HONEST)],
        "blind: hostile caught": [sum(map(looks_hostile, BLIND_HOSTILE)), len(BLIND_HOSTILE)],
        "blind: honest flagged": [sum(map(looks_hostile, BLIND_HONEST)), len(BLIND_HONEST)],
        "blind: secrets leaked": [sum(_leaks(t, (v,)) for t, v in BLIND_SECRETS), len(BLIND_SECRETS)],
        "blind: clean lines changed": [sum(redacted(t) != t for t in BLIND_CLEAN), len(BLIND_CLEAN)],
        "secrets 1: leaked": [sum(_leaks(t, vs) for t, vs in SECRETS_1), len(SECRETS_1)],
        "secrets 1: honest lines changed": [
            sum(redacted(t) != t for t in SECRETS_1_HONEST),
            len(SECRETS_1_HONEST),
        ],
    }


if __name__ == "__main__":
    print(json.dumps(evaluate(), indent=1))
