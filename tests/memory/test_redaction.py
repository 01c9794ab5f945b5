"""Redaction against a maintained scanner: recall on planted secrets, false positives on clean text.

The corpora are generated (seeded) by ``tests/fixtures/secrets/corpus.py``;
detect-secrets is the oracle (``tests/fixtures/secrets/oracle.py``). The
figures these tests bound are reported in docs/security.md.
"""

from __future__ import annotations

from collections import Counter

import pytest

from osmia.memory.redaction import REDACTED, contains_secret, redact
from osmia.memory.sanitize import stored_text
from tests.fixtures.secrets.corpus import Planted, clean_corpus, secret_corpus
from tests.fixtures.secrets.oracle import agreement, findings

# The bound docs/security.md states for ordinary engineering text (measured: 0 of 504).
MAX_FALSE_POSITIVE_RATE = 0.01


@pytest.fixture(scope="module")
def planted() -> list[Planted]:
    return secret_corpus()


@pytest.fixture(scope="module")
def clean() -> list[str]:
    return clean_corpus()


def test_the_corpora_are_large_and_varied(planted: list[Planted], clean: list[str]) -> None:
    assert len(planted) >= 300 and len({p.fmt for p in planted}) >= 60
    assert len(clean) >= 400


def test_the_scanner_agrees_every_planted_value_is_a_secret(planted: list[Planted]) -> None:
    levels = agreement([p.secret for p in planted], [p.text for p in planted])
    disagreed = [p.text for p, level in zip(planted, levels, strict=True) if not level]
    assert disagreed == []
    # Nearly half are recognised as written, not only on their own. (More than half were, until
    # the eighth session planted the forms the scanner misses in a sentence and Osmia's rules catch:
    # short CLI password flags, passwords in prose, .pgpass lines; the scanner still agrees each is
    # a secret once the value is given to it as a password.)
    assert Counter(levels)["sentence"] > 0.45 * len(planted)


def test_every_planted_secret_is_redacted(planted: list[Planted]) -> None:
    leaked = [(p.fmt, p.text) for p in planted if any(piece in redact(p.text) for piece in p.pieces)]
    assert leaked == []
    assert all(REDACTED in redact(p.text) for p in planted)


def test_every_planted_secret_is_gone_from_stored_text(planted: list[Planted]) -> None:
    """Cleaned to one line (as facts are stored), no piece of a secret survives either."""
    leaked = [
        (p.fmt, p.text) for p in planted if any(piece in stored_text(p.text, 4000) for piece in p.pieces)
    ]
    assert leaked == []


def test_the_scanner_finds_nothing_in_redacted_text(planted: list[Planted]) -> None:
    redacted = [redact(p.text) for p in planted]
    found = findings(redacted)
    assert [(text, types) for text, types in zip(redacted, found, strict=True) if types] == []


def test_clean_text_is_left_alone(clean: list[str]) -> None:
    changed = [(text, redact(text)) for text in clean if redact(text) != text]
    assert len(changed) / len(clean) <= MAX_FALSE_POSITIVE_RATE, changed[:10]


def test_the_scanner_itself_flags_some_clean_text(clean: list[str]) -> None:
    """The oracle is stricter than Osmia on clean text (image digests, ``secretName:``), which is
    why it judges recall and Osmia's own rules judge false positives."""
    flagged = sum(1 for types in findings(clean) if types)
    assert flagged > 0


def test_redaction_is_idempotent_and_keeps_the_name(planted: list[Planted]) -> None:
    for p in planted:
        once = redact(p.text)
        assert redact(once) == once
    assert redact("DB_PASSWORD=hunter22 make test") == "DB_PASSWORD=[redacted] make test"
    assert redact('{"password": "s3cr3t!"}') == '{"password": "[redacted]"}'


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("https://ci:pa/ss/word@github.com/org/api.git", "@github.com/org/api.git"),
        ("redis://:hunter22@cache:6379/0", "@cache:6379/0"),
        ("APP_SECRET_TOKEN=Zx9kQ2mN8vL4pR7t", "APP_SECRET_TOKEN="),
        ("x-api-token: Zx9kQ2mN8vL4pR7tZZ", "x-api-token: "),
        ("  - name: DB_PASSWORD\n    value: 'Tiger1991!'", "value: '"),
        # Found by the eighth session's hostile history: a secret named in prose, short CLI flags, a hash.
        ("AWS secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY works", "AWS secret "),
        ("Connect with mysql -u root -pS3cr3tP4ss! -h db.internal", "mysql -u root -p"),
        ("mysqldump -uadmin -p'Tr0ub4dor&3' shop > dump.sql", "-p'"),
        ("sshpass -p 'hunter22' ssh admin@box", "sshpass -p '"),
        ("redis-cli -a 8fJ2kL9qWz3xR7tY -h cache.internal", "redis-cli -a "),
        ("the password for the admin UI is Summer2024!", "admin UI is "),
        ("heroku auth token 01234567-89ab-cdef-0123-456789abcdef", "auth token "),
        ("htpasswd admin:$apr1$xyz12345$AbCdEfGhIjKlMnOpQrSt1/", "htpasswd admin:"),
        ("ssh root@10.0.0.5 with password 'Tr0ub4dor&3'", "with password '"),
        ("the passphrase for the GPG key is 'correct horse battery staple'", "GPG key is '"),
        ("okta SSWS 00AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd", "okta SSWS "),
    ],
)  # fmt: skip
def test_formats_the_issue_found_leaking(text: str, kept: str) -> None:
    out = redact(text)
    assert REDACTED in out and kept in out


@pytest.mark.parametrize(
    "token",
    [
        "lin_api_" + "aB3" * 14,  # 42 characters where the format says 40
        "AGE-SECRET-KEY-1" + "QPZRY9X8GF" * 6,  # 60 for 58
        "npm_" + "aB3" * 13,
        "shpat_" + "0a" * 17,
        "pul-" + "0a" * 21,
        "dop_v1_" + "0a" * 33,
    ],
)
def test_a_token_longer_than_its_format_is_still_the_secret(token: str) -> None:
    """A prefix that is unmistakable makes the length a minimum: one character more (a format
    revised, a copy with a stray character) must not leave the whole value in the store."""
    assert redact(f"the token {token} works") == f"the token {REDACTED} works"


def test_a_key_block_is_redacted_across_lines_and_to_the_end_when_unterminated() -> None:
    block = (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAAbm9uZQ==\n"
        "-----END OPENSSH PRIVATE KEY-----"
    )
    assert redact(f"key:\n{block}\nthen more") == f"key:\n{REDACTED}\nthen more"
    cut = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc"
    assert redact(f"partial {cut}") == f"partial {REDACTED}"


@pytest.mark.parametrize(
    "text",
    [
        "oci://registry:5000/app@sha256:0123abcd",
        "token: expired",
        "tokenUsage: 51234",
        "secretName: api-tls",
        "password_file: /run/secrets/db",
        "API_TOKEN=${API_TOKEN}",
        "password: <your-password>",
        "Basic authentication is disabled",
        "tests/test_auth.py::TestLogin::test_token_refresh[case-1]",
        "sk-learn-compatible-estimators-and-pipelines",
        "GOOGLE_APPLICATION_CREDENTIALS=/var/run/gcp/key.json",
        "SECRET_BACKEND=vault",
        REDACTED,
        f"password={REDACTED}",
    ],
)
def test_look_alikes_are_not_secrets(text: str) -> None:
    assert redact(text) == text
    assert not contains_secret(text)
