"""Fifty-first session: a generated secret that nothing names, redacted by its shape alone
(docs/security.md, "Fifty-first session").

The forms below are general, not one set's: a table's cell, a device's config line, a value glued
on by a sentence, a CSV row, a wire protocol's dump, prose with no word for a secret. The values
are fresh, not the sets'; each leaked before the step. The look-alikes are what such a rule would
take first: ids with a type's prefix, request and trace ids, base64 of text, public keys, hex
digests, code's names, file names and names built of short codes.
"""

from __future__ import annotations

import pytest

from osmia.memory.secret_unnamed import unnamed_secret, unnamed_sub
from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret in it): a random run that no rule's name, prefix or quotes point at.
UNNAMED = [
    ("| staging-db | admin | Tq7mZ2xKp9LwRb4N |", "Tq7mZ2xKp9LwRb4N"),
    ("add peer core-sw* {Jx4mQ9vLz2KpT7wR} {Hd3Wq8nVx5ZkL2mT}", "Jx4mQ9vLz2KpT7wR"),
    ('Glue X1 = "Lp8vQz3mKx7TnW2r" to X2 when the job starts.', "Lp8vQz3mKx7TnW2r"),
    ("host,ip,user,pass\nftp-upload,10.0.4.2,deploy,Zm4Kq9TvX2pLw7Rn", "Zm4Kq9TvX2pLw7Rn"),
    ("*3\r\n$4\r\nAUTH\r\n$18\r\nWq8zK3mTp7LxV2nR4b\r\n+OK", "Wq8zK3mTp7LxV2nR4b"),
    ("Der neue Wert ist jetzt Nx5TqW8zLm2KvR7p, bitte nicht weitergeben.", "Nx5TqW8zLm2KvR7p"),
    ('bindPW: "Kt9vXq2mZ7LpW4nR\\\n   8JdQ"', "Kt9vXq2mZ7LpW4nR"),
    ("set snmp community Pz6mKq3TvX8wLn2R authorization read-only", "Pz6mKq3TvX8wLn2R"),
    # a word before it in quotes names another value ("version"), not this one
    (
        'Login answered {"requestId":259922210,"version":"stable","data":"Pq7LvZ2xKp9TnW4rB8dQ"}',
        "Pq7LvZ2xKp9TnW4rB8dQ",
    ),
]

# (text, the secret in it): a password stored with its scheme's name first, which was read as a
# template (``{VAR}``), or stood under no password's name (an LDIF, a Dovecot passwd-file).
SCHEMED = [
    ('libname db oracle user=sas_reg password="{SAS002}9F31C0A7D2B84E5F6A1C3D9E7B2F4A60" path=PRD;',
     "9F31C0A7D2B84E5F6A1C3D9E7B2F4A60"),
    ("spring.security.user.password={noop}Vq8mTz3Lx7Kp2WnR", "Vq8mTz3Lx7Kp2WnR"),
    ('password = "{SSHA}Zx4vQm8TkL2pW7nRb3Hd6Fj9Yc1="', "Zx4vQm8TkL2pW7nRb3Hd6Fj9Yc1="),
    ("dn: uid=jdoe,ou=people,dc=lab\nuserPassword: {SSHA}Qm3vTz8LkW2pXn7Rb4Hd9Fj1Yc6=",
     "Qm3vTz8LkW2pXn7Rb4Hd9Fj1Yc6="),
    ("noc:{PLAIN}Rt7mZq2Xv9LkW4pN:5000:5000::/var/vmail/noc::", "Rt7mZq2Xv9LkW4pN"),
]  # fmt: skip

# (text, a part of the secret in it): ``user:password`` quoted whole after curl's or wget's user flag,
# the password in groups with blanks (an application password): only its first group was taken.
QUOTED_WHOLE = [
    ("curl -u 'svc-sync:Jq4m Tz8v Lp2x Wn7r' https://cms.example/api", "Lp2x Wn7r"),
    ('wget --user="ops:hxkq wzrt pmfd lbnv" https://mail.example/feed', "pmfd lbnv"),
]

# Text that holds runs of mixed letters and digits that are not secrets.
KEPT = [
    "Stripe customer cus_Q8vLm2Xr7Tk4Wb was charged twice (pi_3Kq2Lm9XvT4pRzW8nB).",
    "The API answered 429 for request id Xk29fLq8mZ3vT7pR; retried after a second.",
    "echo aGVsbG8gd29ybGQ= | base64 -d prints hello world",
    "apns-id: C5139D03-F856-43E7-BAF2-F9DCA21AB1FC",
    "from kubernetes.client.models import V1HTTPHeader",
    "context.options |= _OP_NO_SSLv2_OR_SSLv3 | _OP_NO_TLSv1",
    "See W3C.REC-html40-19980424 for how forms are encoded.",
    "Order ORD-8Kq2Lm9XvT4p shipped; GHSA-8cf7-32gw-wr33 was fixed by the bump.",
    "The Salesforce account 001Kq2Lm9XvT4pRzW8 was merged into 001Rq7Tz2Lx9VmK4pW.",
    "CSP: script-src 'self' 'nonce-Kq2Lm9XvT4pRzW8n'",
    "Open https://drive.google.com/file/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/view to read it.",
    "Twilio message SM40f88d9b8645f6ead16b589eb93b3032 was undelivered.",
    "The regex [sSwWdDbBZApPxucItnvfr0]+ matches an escape's letter.",
    "Datasource uid for Mimir is Lq8vZ2mKx7TnW4pR; panels reference it by uid.",
    "Read the value with decrypt(Qm7vZt2Lk9XpR4wN8cYb) at start-up.",
    "Python3 and K8s on IPv6 with OAuth2 and UTF8 everywhere",
    "password: {cipher}AQBx7Kq2Lm9XvT4pRzW8nB3dF6",
    "password={DB_PASSWORD} and token={0}",
    "curl -u 'bot:${APP_PASSWORD}' https://x.example -d 'a b'",
    "Set default_pass_scheme to {SSHA} or {PLAIN}; {cipher}AQBx7Kq2Lm9XvT4pRzW8 stays encrypted.",
    "seq_zOaghehH links to the plasmid pET28-GFP-v3; reads in LIB5023_S1_L001_R1_001.fastq.gz",
    "Signed with key 0xA9869B8CB46E9C5B; the survey's responses R_LkHceWCYwKxxtuR were removed.",
]


@pytest.mark.parametrize(("text", "secret"), UNNAMED + SCHEMED + QUOTED_WHOLE)
def test_a_random_run_nothing_names_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", KEPT)
def test_a_run_that_is_something_else_is_kept(text: str) -> None:
    assert_kept(text)


def test_a_public_key_block_and_a_json_web_key_are_kept() -> None:
    """Base64 inside a public key's PEM block, and a JSON Web Key's coordinates, are public."""
    step = unnamed_sub()
    pem = "-----BEGIN PUBLIC KEY-----\nLq8vZ2mKx7TnW4pRGm5tRw9qZx2LkV8p\n-----END PUBLIC KEY-----"
    assert step(pem) == pem
    jwk = '{"kty":"EC","crv":"P-256","x":"Mq7LvZ2xKp9TnW4rB8dQ3fH6jS1cV5gY0aE2uI7oP9s"}'
    assert step(jwk) == jwk


def test_the_step_alone_takes_only_the_run() -> None:
    """The step replaces the run and nothing around it, and a second pass changes nothing."""
    step = unnamed_sub()
    out = step("| oob-rtr01 | 10.255.0.1 | Vr4mKq9TzX2pLw7N |")
    assert out == "| oob-rtr01 | 10.255.0.1 | [redacted] |"
    assert step(out) == out


@pytest.mark.parametrize(
    ("run", "secret"),
    [
        ("Tq7mZ2xKp9LwRb4N", True),
        ("Tq7mZ2xKp9L", False),  # eleven characters: too short to tell from a name
        ("tq7mz2xkp9lwrb4n", False),  # no upper-case letter
        ("Tq7mZ2xKp9LwRb4N==", False),  # base64's padding: a hash, a nonce or a key, named if secret
        ("cus_Q8vLm2Xr7Tk4Wb", False),  # an object's id
        ("V1HTTPHeader", False),  # a class's name: its words are English
        ("kCFStringEncodingUTF8", False),
        ("Q29udGVudC1UeXBl", False),  # base64 of text ("Content-Type")
        ("AC5fc7c305d8ac7f933fd120a8880df15e", False),  # hex with a type's letters
        ("MFkwEwYHKoZIzj0CAQYIKoZIzj0D", False),  # a public key's DER
    ],
)
def test_what_reads_as_a_generated_secret_on_its_own(run: str, secret: bool) -> None:
    assert unnamed_secret(run) is secret


def test_the_sets_the_step_moved() -> None:
    """Leaked secrets in the labelled sets, no more than the session left: 226 in all at its start,
    179 after the step, the scheme's password and the password quoted whole (evasive 13a 13 → 11,
    13b 19 → 14, 13c 16 → 14, 16b 5 → 1, 16d 6 → 4, 18k 29 → 14, 18l 30 → 23 …); three look-alikes
    more changed (a Kafka cluster's ids said far from "cluster", Okta ids in an import listing,
    Google place ids)."""
    from benchmarks.redteam_sets import evasive_13, secrets_16, secrets_18

    for name, leaked in {"a": 11, "b": 14, "c": 14}.items():
        assert evasive_13(name)["leaked"][0] <= leaked, name
    for name, leaked in {"b": 1, "d": 4}.items():
        assert secrets_16(name)["leaked"][0] <= leaked, name
    for name, (leaked, changed) in {"k": (14, 5), "l": (23, 7)}.items():
        figures = secrets_18(name)
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)


def test_the_sessions_blind_sets() -> None:
    """benchmarks/data/secrets19m.jsonl (science, health and education IT) and …n (web agencies'
    and small businesses' IT), each written by a helper who read nothing else, measured held out
    after the step was written: M 24 leaked and 2 look-alikes changed before it, 22 and 5 with it;
    N 36 and 6, 33 and 8. Read afterwards: the five look-alikes (response ids, a plasmid's name,
    FASTQ files' names, a GPG key's hex id, an application's id) no longer change; SAS's
    ``{SAS002}`` password is taken (M 20 leaked), and an application password quoted whole after
    ``-u`` (N 32). What leaks and what ordinary lines change is no more than the session left
    (docs/security.md, fifty-first session)."""
    from benchmarks.redteam_sets import secrets_19

    for name, (leaked, changed) in {"m": (20, 2), "n": (32, 6)}.items():
        figures = secrets_19(name)
        assert (figures["leaked"][1], figures["changed"][1]) == (200, 100)
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)
