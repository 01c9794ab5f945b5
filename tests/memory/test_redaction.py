"""Redaction against a maintained scanner: recall on planted secrets, false positives on clean text.

The corpora are generated (seeded) by ``tests/fixtures/secrets/corpus.py`` and ``clean.py``;
detect-secrets is the oracle (``tests/fixtures/secrets/oracle.py``). The
figures these tests bound are reported in docs/security.md.
"""

from __future__ import annotations

import base64
from collections import Counter

import pytest

from osmia.memory.redaction import REDACTED, contains_secret, redact
from osmia.memory.sanitize import stored_text
from tests.fixtures.secrets.clean import clean_corpus
from tests.fixtures.secrets.corpus import MORE_TOKENS, Planted, secret_corpus
from tests.fixtures.secrets.oracle import agreement, findings

# The bound docs/security.md states for ordinary engineering text (measured: 0 of 760).
MAX_FALSE_POSITIVE_RATE = 0.01


@pytest.fixture(scope="module")
def planted() -> list[Planted]:
    return secret_corpus()


@pytest.fixture(scope="module")
def clean() -> list[str]:
    return clean_corpus()


def test_the_corpora_are_large_and_varied(planted: list[Planted], clean: list[str]) -> None:
    assert len(planted) >= 500 and len({p.fmt for p in planted}) >= 100
    assert len(clean) >= 700


def test_the_scanner_agrees_every_planted_value_is_a_secret(planted: list[Planted]) -> None:
    levels = agreement([p.secret for p in planted], [p.text for p in planted])
    disagreed = [p.text for p, level in zip(planted, levels, strict=True) if not level]
    assert disagreed == []
    # Nearly half are recognised as written, not only on their own. (More than half were, until
    # the eighth session planted the forms the scanner misses in a sentence and Osmia's rules catch:
    # short CLI password flags, passwords in prose, .pgpass lines; the scanner still agrees each is
    # a secret once the value is given to it as a password.) The formats the twenty-fifth session
    # added are mostly ones it has no rule for: it agrees on them as passwords only.
    older = [level for p, level in zip(planted, levels, strict=True) if p.fmt not in MORE_TOKENS]
    assert Counter(older)["sentence"] > 0.45 * len(older)


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


# The tenth session's red team: secret forms that passed redaction, each with a near miss that must
# stay as it is. Values are made up; the base64 ones are built here from made-up files.
_AWS_ID = "AKIAQ7X2M4N8P5R3T6W9"
_AWS_SECRET = "wJalrXUtnFEMI+K7MDENG/bPxRfiCYzEXAMPLE9Q2"
_TELEGRAM = "6123456789:AAHk3vQx9ZpLm2Tn8RwYc5BdJfGs7UeVi0o"
_RANDOM = "Zk8fQ2mLp9xR4vT7nB3wY6cH1jD5sG0a"
_FN_CODE = "Xy7kP2mQ9vL4tR8nB3wF6hJ1cZ5dS0gAqW2eR4tY6uI8oP0aS2dF4g"
_HEX40 = "787a5d33aa7e52a6e87316a58a2b4d98ebd9dd1d"
_BODY = "\n".join(["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"] * 3)
_PEM = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{_BODY}\n-----END OPENSSH PRIVATE KEY-----\n"
# A certificate's DER starts with two SEQUENCEs (the certificate, its signed part); a private key's
# body (the OpenSSH one above, or DER with a version INTEGER first) is redacted wherever it is.
_CERT_BODY = "\n".join(["MIIDdzCCAl+gAwIBAgIEbL3ZfDANBgkqhkiG9w0BAQsFADBsMRAwDgYDVQQGEwdV"] * 3)
_CERT = f"-----BEGIN CERTIFICATE-----\n{_CERT_BODY}\n-----END CERTIFICATE-----\n"
_JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjaSJ9.Zm9vYmFyYmF6cXV4"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


_ENCODED_FILES = {
    "private-key": _PEM,
    "aws-credentials": f"[default]\naws_access_key_id = {_AWS_ID}\naws_secret_access_key = {_AWS_SECRET}\n",
    "kubeconfig": f"apiVersion: v1\nusers:\n- name: ci\n  user:\n    token: {_JWT}\n",
    "service-account": '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\\n"}',
    "base64-twice": _b64(_PEM),
}
_ENCODED_NEAR_MISS = f"the CA bundle is {_b64(_CERT)}"


@pytest.mark.parametrize(
    ("text", "secret", "near_miss"),
    [
        # 1. An AWS secret key right after (or before) its key id, with no name of its own.
        (f"Deploy creds for the bucket: {_AWS_ID} / {_AWS_SECRET}", _AWS_SECRET, "eu-central-1 / us-east-2"),
        (f"Access key ID,Secret access key\n{_AWS_ID},{_AWS_SECRET}", _AWS_SECRET, "Access key ID,Secret"),
        (f"creds {_AWS_ID}:{_AWS_SECRET} work", _AWS_SECRET, "AKIA-prefixed ids are key ids"),
        (f"keys: {_AWS_ID} {_AWS_SECRET}", _AWS_SECRET, "keys: id and secret are in vault"),
        (f"AWS keys {_AWS_ID} and {_AWS_SECRET} (rotate)", _AWS_SECRET, "AWS keys rotate every 90 days"),
        (f"{_AWS_SECRET} / {_AWS_ID}", _AWS_SECRET, "wJalr starts the example secret in the AWS docs"),
        # 2. A Telegram bot token inside its API URL.
        (
            f"via https://api.telegram.org/bot{_TELEGRAM}/getMe",
            _TELEGRAM[11:],
            "api.telegram.org/bot<token>/getMe",
        ),
        # 3. JSON inside a JSON string: the quotes are escaped.
        (f'log {{\\"api_key\\":\\"{_RANDOM}\\"}} on refresh', _RANDOM, '{\\"tokenUsage\\":1234}'),
        (f'"{{\\"token\\": \\"{_RANDOM}\\"}}"', _RANDOM, '{\\"secretName\\":\\"api-tls\\"}'),
        (
            '{\\\\\\"password\\\\\\": \\\\\\"TdrOJRBRY6HqsP\\\\\\"}',
            "TdrOJRBRY6HqsP",
            '{\\"password\\":\\"<redacted>\\"}',
        ),
        (f"{{\\u0022token\\u0022:\\u0022{_RANDOM}\\u0022}}", _RANDOM, "{\\u0022tokenUsage\\u0022:1234}"),
        (
            "?q=%7B%22password%22%3A%22Summer2024%21%22%7D",
            "Summer2024",
            "urn%3Aietf%3Aparams%3Aoauth%3Ajwt-bearer",
        ),
        # 4. A secret variable set with a space instead of "=".
        (f"set -gx AUTH_SERVICE_TOKEN {_RANDOM}", _RANDOM, "set -gx PATH $HOME/.cargo/bin $PATH"),
        ("csh needs setenv DB_PASSWORD rprNHHBdEuX0 first", "rprNHHBdEuX0", "setenv TOKEN_TTL 3600"),
        ("set DB_PASSWORD a2dXichdeEc2", "a2dXichdeEc2", "set API_TOKEN before running the tests"),
        (f"ENV API_TOKEN {_RANDOM}", _RANDOM, "ENV SECRET_BACKEND vault"),
        (f"set -x OPENAI_KEY {_RANDOM}", _RANDOM, "set -x EDITOR_KEY vim"),
        (f"setenv AWS_SECRET_ACCESS_KEY /{_RANDOM}", _RANDOM, "ENV PASSWORD_FILE /run/secrets/db"),
        (f"gh secret set API_TOKEN --body {_RANDOM}", _RANDOM, "gh secret set API_TOKEN < token.txt"),
        ('os.Setenv("DB_PASSWORD", "Tr0ub4dor&3")', "Tr0ub4dor&3", 'fields = ["user", "password", "email"]'),
        # 5. Passwords in prose and after short labels.
        ("log in to the admin UI with password Summer2024!", "Summer2024!", "the password reset flow"),
        (
            "staging DB: PASS=Summer2024! and retry",
            "Summer2024!",
            "the password policy requires 12 characters",
        ),
        ("pw: Winter2025# for the broker", "Winter2025#", "pw: see vault"),
        ("pass: ZymYWU7otMdR", "ZymYWU7otMdR", "pass the tests with go test ./..."),
        ("passphrase zDTn7qLWaYyD", "zDTn7qLWaYyD", "passphrase prompts are disabled in CI"),
        ("user admin pass Summer2024!", "Summer2024!", "tests pass TestLogin2 and AUTH-1276"),
        ("credentials admin/Summer2024!", "Summer2024!", "user admin/operator roles are split"),
        ("admin password - Summer2024!", "Summer2024!", "the password-reset email"),
        ("ssh root@10.0.0.5 password Tr0ub4dor&3", "Tr0ub4dor&3", "pw = this._pendingWrites.get(path3)"),
        # 6. A function key or code in a URL's query, on any host.
        (
            f"https://fn.azurewebsites.net/api/refresh?code={_FN_CODE}==",
            _FN_CODE,
            "incidents?code=503&region=eu",
        ),
        # 7. Base64 of a file that holds a secret, with no name saying so.
        *[
            (f"the CI variable holds {_b64(f)}", _b64(f)[:48], _ENCODED_NEAR_MISS)
            for f in _ENCODED_FILES.values()
        ],
        (
            f"id_rsa: {_b64(_PEM)[:120]}",
            _b64(_PEM)[:120],
            "config (base64) " + _b64('{"name": "api", "port": 80}'),
        ),
        # 8. Datadog application key in prose, Vault's older tokens, SonarQube, CLI flags, spaced PEM dashes.
        (f"Datadog application key {_HEX40}", _HEX40, "Datadog application key rotation runs nightly"),
        ("vault login s.jmaE814NGBJ87TocVD1WQVH9", "jmaE814NGBJ87TocVD1WQVH9", "s.someLongAttributeNameX"),
        (f"sonar-scanner with sqp_{_HEX40}", _HEX40, "sonar tokens start with sqp_"),
        (f"release-cli --auth {_RANDOM}", _RANDOM, "ssh -t bastion-68s1t2ee3-0cnrt uptime"),
        (f"cli -t {_RANDOM}", _RANDOM, "adb shell am start -a android.intent.action.VIEW"),
        (
            f"----- BEGIN RSA PRIVATE KEY -----\n{_BODY}\n----- END RSA PRIVATE KEY -----",
            _BODY[:70],
            "BEGIN PRIVATE KEY",
        ),
    ],
)
def test_the_red_team_forms_are_redacted_and_their_near_misses_kept(
    text: str, secret: str, near_miss: str
) -> None:
    out = redact(text)
    assert secret not in out and REDACTED in out, out
    assert redact(out) == out
    assert redact(near_miss) == near_miss


@pytest.mark.parametrize(
    "text",
    [
        "See API-REFERENCEDOCUMENTATIONGUIDES for the endpoints",  # a word after API-, no token
        "Commit 4b1d9c0a7e3f5b2d8c1a6e4f9b0d3c7a2e5f8b1d fixed it",  # a hash that starts 4b1d
        "pulled ghcr.io/org/api@sha256:4b1d" + "0" * 60,  # a digest
        "The aio_client_connection_timeout_seconds setting",  # words after aio_
        "Docs at sl.example.com and pk_live is the mode",
    ],
)
def test_a_short_prefix_before_something_else_is_kept(text: str) -> None:
    """The twenty-fifth session's formats with a short or common prefix take only generated values."""
    assert redact(text) == text
