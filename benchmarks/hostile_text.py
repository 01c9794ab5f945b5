"""Linear time on hostile text: every pattern run on what a run wrote, at 1 KB, 64 KB and 1 MB.

    .venv/bin/python -m benchmarks.hostile_text            # 1 KB / 64 KB / 1 MB (~1-2 min)
    .venv/bin/python -m benchmarks.hostile_text --smoke    # 1 KB / 8 KB, a second

For each operation (redaction, cleaning, the stored-text step, the hostility
check, failure classification, test-name extraction) and each adversarial
input shape, prints the time and the time per KB relative to the 1 KB input
(the ratio a linear pattern keeps near 1; a quadratic one grows with the size:
64× at 64 KB). As a baseline measured in the same run, the failure pattern as
it was before RE2 (Python ``re``, ``\\btests?\\b.*fail|fail.*\\btests?\\b``) on
the same input up to 16 KB, where it already shows its quadratic growth.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable

from osmia.memory import test_ids
from osmia.memory.cleaning import clean_text
from osmia.memory.failures import FAILURE_CLASSES
from osmia.memory.hostile import looks_hostile
from osmia.memory.redaction import redact
from osmia.memory.sanitize import stored_text

KB = 1024
OLD_FAILURE = re.compile(r"(?i)\btests?\b.*fail|fail.*\btests?\b|assert")


def _fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


# Shapes that make backtracking engines (and naive loops) slow: long runs a pattern starts on and
# then fails to finish, nesting that a fixed point unwraps one level per pass, many small matches.
SHAPES: dict[str, str] = {
    "tests-no-fail": "test ",
    "word-chars": "a",
    "assignments": "DB_PASSWORD=",
    "key-headers": "-----BEGIN RSA PRIVATE KEY-----",
    "url-colons": "https://a:",
    "nested-tags": "<",
    "comments": "<!--",
    "brackets": "[x](",
    "role-pieces": "sys<b>tem:",
    "invisible": "\u200b\u202e",
    "tokens": "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 ",
    # Twenty-second session: tokens written onto words, colour codes, accents, carriage returns.
    "glued-tokens": "TestX_ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8_",
    "glued-prefixes": "x_sk_live_",
    "terminal-codes": "\x1b[31m\x1b]0;",
    "accented-run": "a1\u0301b2\u00e9",
    "carriage-returns": "ghp_a1B2c3D4\r",
    # Twenty-third session: tokens cut by separators, and prefixes before pieces that never end.
    "separated-tokens": "ghp_a1B2c3D4-e5F6g7H8.",
    "separated-prefixes": "sk_live_a1:",
    # Twenty-fourth session: tokens cut by spaces.
    "spaced-tokens": "ghp_a1B2 c3D4 e5F6 g7H8 ",
    "spaced-prefixes": "sk_live_a1 ",
    "gapped-prefixes": "gh p_a1B2 ",
    # Twenty-fifth session: tokens cut by a separator and spaces.
    "comma-spaced-tokens": "ghp_a1B2, c3D4 - e5F6 ;g7H8 ",
    "comma-spaced-prefixes": "sk_live_a1, ",
    # ... and CLIs' password flags, values on the line after their name.
    "cli-password-flags": "mongo -p a1b2c3 zip -P d4e5f6 | ",
    "yaml-next-lines": "token:\n  a1B2c3D4e5F6\n",
    # ... and what follows a redacted value (its rest, a list of codes).
    "redacted-tails": "[redacted] a1b2c3, x9y8z7 ",
    "code-lists": "backup codes 8f3k-2m9q, ",
    # Twenty-eighth session: table rows under a secret's header, HTML character references in one
    # line, and device config lines that never give their value.
    "table-rows": "| password | token |\n|---|---|\n| Tr0ub4dor3x | a1B2c3D4e5F6g7H8 |\n",
    "html-entities": "&lt;password&gt;a1B2c3&amp;",
    "device-configs": "username a privilege 1 secret ",
    # Forty-fifth session: encoded runs on one long line (each looked back over the whole line for a
    # name: quadratic until the look was bounded), bytes as hex pairs, URLs written backwards.
    "decoded-literals": 'x = bytes.fromhex("' + "41" * 20 + '") ',
    "hex-pairs": "6e:70:6d:5f:74:79:32:62:4d:49:37:41:55:48 ",
    "reversed-urls": "x/aaaaaaaaaa//:sptth ",
    # Forty-sixth session: calls given literals by position, fallbacks, byte lists, lines of a run
    # read one by one, files printed at a prompt.
    "credential-calls": 'connect("a", "b", ',
    "fallbacks": "DB_PASSWORD = a ?? b || ",
    "byte-lists": "0xab, ",
    "run-lines": "abcdefghij/klmnopqrst/uvwxyz0123/456789ABCD\n",
    "printed-files": "$ cat token\n",
    # Forty-seventh session: objects of fields before a value, property lists' keys without their
    # string, sed's replacements, decoded secrets printed at a prompt.
    "nested-values": '"db_password": {"sensitive": true, "type": "string", ',
    "plist-keys": "<key>APISecret</key>\n",
    "sed-replacements": "s/__PASSWORD__/",
    "decoded-secrets": "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\n",
    # Forty-eighth session: values said to be secrets after them, name/value columns, SQL's
    # credential options and one ssh-keygen line's passphrases, each never closed.
    "values-then-nouns": "a1B2c3D4e5F6 ist die SSH key ",
    "name-columns": "refresh_token    ",
    "sql-options": "SECRET_ACCESS_KEY 'a1",
    "keygen-passphrases": "ssh-keygen -P 'a1b2' -N '",
    "joined-variables": 'p1 = "a1B2c3D4e5F6"\nGITHUB_TOKEN = p1 + ',
    "key-word-colons": "token of the day: ",
    # Forty-ninth session: CLI tables' headers that name a secret with no rows, heredocs into a
    # password file never closed, Terraform's generated passwords with no result, objects of fields
    # under a name that only suggests a secret, mail sessions' password prompts with no answer, a
    # debugger asked for a key, a secret file added in a diff, Actuator's property with no value.
    "aligned-headers": "USERNAME   PASSWORD   TOKEN\n",
    "secret-heredocs": "cat > .vault_pass <<'EOF'\nab\n",
    "random-results": '"type": "random_password",\n',
    "weak-nested-values": '"cache_auth": {"type": "string", ',
    "mail-passwords": "334 UGFzc3dvcmQ6\n",
    "debugger-prints": "(lldb) po self.apiKey\n",
    "diff-secret-files": "+++ b/.vault_pass\n",
    "actuator-values": '{"property": {"source": "a", ',
    "value-columns": "key,type,value\npass,data,",
    "c-defines": '#define SECRET_PASS "',
    "key-parentheses": "la clé de production Cohere (",
    # the fiftieth session's steps: a secret's name before words (each name's clause read),
    # quoted literals holding signs (each checked as a password), and users' flags on one line
    # before a password flag given a reference (each match checked, none taken), and XML
    # elements named for a secret whose value never closes.
    "names-then-words": "token mật khẩu WANDB_API_KEY den neuen Wert ",
    "quoted-signs": "'Ab1#cd' \"x=Y2!\" „Q7@z” ",
    "user-flags": "-u admin -p $PW -U a ",
    "xml-named-values": '<entry key="db.password"><Value x="1">',
    # the fifty-first session's step: runs of mixed letters and digits, one holding a word (each
    # read through every check) and one random (each redacted), apart by blanks or by commas only.
    "mixed-runs": "Qx7Zr4Header9Kp Rt5Wn2Xm8Lq3Vz ",
    "comma-runs": "Qx7Zr4Header9Kp,Rt5Wn2Xm8Lq3Vz,",
    # the fifty-second session's steps: recovery words with no end (every run read word by word),
    # a seed's word before runs of six, base58 runs of a WIF key's length (each checksum decoded),
    # byte lists, hex after a key's name, values piped to base64.
    "recovery-words": "abandon ability able about above absent absorb abstract ",
    "seed-rows": "seed row: rather bind unlock flame cool correct\n",
    "base58-runs": "K1dXq7Zr4Hm9Kp2Rt5Wn2Xm8Lq3VzA5bC6dE7fG8hJ9kL1mN2pQ3 ",
    "byte-keypairs": "[1, 22, 103, 250, 7, 18, 99, 200, 3, 44, 15, 66, 17, 88, 19, 90],",
    "hex-keys": "the licence key now set: 4b47fec141c4a546e6e498577bb4c668 ",
    "echo-base64": "echo -n 'Qx7Zr4Hx9KpRt5Wn' | base64; ",
    "sql-rows": "INSERT INTO t (name, api_secret) VALUES ('a', 'Qx7Zr4Hx9KpRt5Wn'), ('b', 'x'); ",
    "key-members": 'apiKey: { mainnet: "QX7ZR4HX9KPRT5WN2", kid: "Ab12Cd34Ef56Gh78" } ',
    "card-flags": "ykman piv access change-pin -p 12345678 -n 87654321 ",
}


def _classify(text: str) -> bool:
    return any(pattern.search(text) for _code, _label, pattern in FAILURE_CLASSES)


OPERATIONS: dict[str, Callable[[str], object]] = {
    "redact": redact,
    "clean_text": clean_text,
    "stored_text": stored_text,
    "looks_hostile": looks_hostile,
    "failure class": _classify,
    # Test-name and fix extraction read a run's text after sanitizing, which bounds it (300 characters
    # a line): measured as the extractor calls them.
    "test names": lambda text: test_ids.mentions(stored_text(text)),
}


def _time(fn: Callable[[str], object], text: str, budget: float = 0.2) -> float:
    """Best of a few runs (at least one), in seconds."""
    best, spent = float("inf"), 0.0
    while spent < budget or best == float("inf"):
        start = time.perf_counter()
        fn(text)
        took = time.perf_counter() - start
        best, spent = min(best, took), spent + took
        if took > budget:
            break
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="1 KB and 8 KB only")
    args = parser.parse_args(argv)
    sizes = [KB, 8 * KB] if args.smoke else [KB, 64 * KB, 1024 * KB]
    labels = [f"{s // KB} KB" if s < 1024 * KB else f"{s // (1024 * KB)} MB" for s in sizes]

    print("### Hostile text: time, and time per KB relative to 1 KB (linear ≈ 1×)\n")
    print("| operation | input | " + " | ".join(labels) + " | worst ratio |")
    print("| --- | --- | " + " | ".join("---:" for _ in sizes) + " | ---: |")
    worst_overall = 0.0
    for op_name, op in OPERATIONS.items():
        for shape, unit in SHAPES.items():
            times = [_time(op, _fill(unit, size)) for size in sizes]
            base = max(times[0], 1e-6) / sizes[0]
            ratios = [(t / size) / base for t, size in zip(times, sizes, strict=True)]
            worst = max(ratios[1:])
            worst_overall = max(worst_overall, worst)
            cells = " | ".join(f"{t * 1000:.2f} ms" for t in times)
            print(f"| {op_name} | {shape} | {cells} | {worst:.1f}× |")

    old_sizes = [KB, 4 * KB] if args.smoke else [KB, 4 * KB, 16 * KB]
    print("\n### Baseline: the failure pattern before RE2 (Python re), same input shape\n")
    print("| input | " + " | ".join(f"{s // KB} KB" for s in old_sizes) + " | ratio at largest |")
    print("| --- | " + " | ".join("---:" for _ in old_sizes) + " | ---: |")
    for shape in ("tests-no-fail",):
        times = [_time(OLD_FAILURE.search, _fill(SHAPES[shape], s)) for s in old_sizes]
        base = max(times[0], 1e-6) / old_sizes[0]
        ratio = (times[-1] / old_sizes[-1]) / base
        print(f"| {shape} | " + " | ".join(f"{t * 1000:.2f} ms" for t in times) + f" | {ratio:.1f}× |")
    print(f"\nworst per-KB ratio of the RE2 patterns: {worst_overall:.1f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
