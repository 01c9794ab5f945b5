"""Forty-seventh session: a line joined from pieces (an earlier attempt's failing tests, its
reason, what it learned) is stored as the prompt shows it, and test names listed in quotes are not
read as a secret's name and its value (docs/security.md, "Forty-seventh session").

The benchmark's store held lines such as "failing: `TestCookiePermissionRace`,
`TestLoginOauthPagination`": the first name holds a weak secret's noun (``cookie``), so the
prompt's cleaning read the pair as ``("session_cookie", "<value>")`` and redacted the second test;
extraction had not, because it redacts each test's name alone. Such a line was never stamped clean
and was cleaned again at each first showing (~10 ms, a query's slowest). Two pieces side by side
could also make a secret neither is alone, and the joined line was stored as it was.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from osmia.memory.clean_stamp import holds
from osmia.memory.redaction import REDACTED
from osmia.memory.service import Memory, MemorySettings
from osmia.memory.types import Kind
from tests.memory.conftest import Clock, make_run, stored
from tests.memory.redaction_checks import assert_kept, assert_redacted

_RNG = random.Random(47)
# Words test names are made of; the first few are nouns a weak secret's name holds.
_WEAK = ("Cookie", "Cert", "Certificate", "Session", "Key", "Auth", "Salt", "Seed", "Signature", "License")
_WORDS = ("Login", "Oauth", "Pagination", "Proxy", "Routing", "Concurrent", "Retry", "Migration", "Cache")


def _test_name(first: tuple[str, ...]) -> str:
    return "Test" + _RNG.choice(first) + "".join(_RNG.sample(_WORDS, 2))


def _random(n: int) -> str:
    # Lower case, upper case and digits, each at least once: random, not words in camel case.
    alphabet = string.ascii_letters + string.digits
    return "".join(_RNG.choice(alphabet) for _ in range(n - 3)) + "q7Z"


_LISTS = [
    ", ".join(f"`{name}`" for name in (_test_name(_WEAK), *(_test_name(_WORDS) for _ in range(k))))
    for k in (1, 2)
    for _ in range(6)
]


@pytest.mark.parametrize("tests", _LISTS)
def test_test_names_listed_in_quotes_are_kept(tests: str) -> None:
    assert_kept(f"Earlier attempt at GAT-1, tr/agents/gat-1 (aider): failed, tests failed; failing: {tests}")


@pytest.mark.parametrize(
    "tests",
    [
        "`TestPasswordReset`, `TestOauth2Login`",
        "`test_password_reset`, `test_oauth2_login`, `test_logout`",
        "`TestTokenRefresh`, `TestLogin2FA`",
        "`TestCredentialsLoader`, `TestGcpAuthV2`",
        "`AuthServiceTest.testTokenRefresh`, `UserServiceTest.testLogin2`",
        "`token_refresh_test`, `login2_test`",
    ],
)
def test_tests_named_for_a_secret_listed_beside_others_are_kept(tests: str) -> None:
    """A test named for a password or a token, then another with a digit (which a password has):
    a list of tests, not a name and its value."""
    assert_kept(f"failing: {tests}")


@pytest.mark.parametrize(
    "text",
    [
        f'env("session_cookie", "{_random(24)}")',
        'env("test_api_token", "TestKx82jdQmz0aPzW3")',
        'env("test_password", "Hunter2hunter")',
        f"ENV.fetch('SIGNING_SALT', '{_random(32)}')",
        f'define("AUTH_KEY", "{_random(40)}");',
    ],
)
def test_a_weak_names_random_value_given_beside_it_is_still_redacted(text: str) -> None:
    assert_redacted(text, text.split(", ")[1].strip("\"');"))


async def test_a_joined_line_is_stored_as_the_prompt_shows_it(tmp_path: Path) -> None:
    """Tests named ``TestCookieRace`` and ``TestLoginRetry`` stay; two pieces that are a name and a
    random value only side by side are stored redacted; every attempt is stamped clean once the
    maintenance pass runs."""
    token = _random(24)
    settings = MemorySettings(store_path=tmp_path / "m.db")
    memory = await Memory.open(settings, clock=Clock(), update_gauges=False)
    try:
        names = ("TestCookieRace", "TestLoginOauthPagination")
        await memory.ingest(make_run("names", success=False, tests_failed=names))
        await memory.ingest(make_run("pieces", success=False, tests_failed=("session_cookie", token)))
        await memory.maintain()
        attempts = {n.sources[-1]: n for n in await stored(memory, Kind.ATTEMPT)}
        assert all(f"`{name}`" in attempts["tr/agents/names"].content for name in names)
        joined = attempts["tr/agents/pieces"].content
        assert token not in joined and f"`session_cookie`, `{REDACTED}`" in joined
        assert all(holds(n.content, n.sources, n.clean_stamp) for n in attempts.values())
    finally:
        await memory.close()


# Forms two blind sets found (benchmarks/data/secrets15a.jsonl and …b), each written here for its
# form with values of its own.
_PW = "Zq7!" + _random(12)
_HEX32 = "".join(_RNG.choice("0123456789abcdef") for _ in range(32))
_B64_88 = "".join(_RNG.choice(string.ascii_letters + string.digits + "+/") for _ in range(86)) + "=="
_NKEY = "SU" + "".join(_RNG.choice(string.ascii_uppercase + "234567") for _ in range(56))

SECRETS_15 = [
    (f'array(2) {{ ["key"]=> string(3) "app" ["secret"]=> string(16) "{_PW}" }}', _PW),  # var_dump
    (f"<key>MixpanelAPISecret</key>\n<string>{_HEX32}</string>", _HEX32),  # a property list
    (f'<meta-data\n    android:name="com.acme.SERVER_SECRET"\n    android:value="{_HEX32}" />', _HEX32),
    (f'{{"spring.mail.password":{{"value":"{_PW}"}}}}', _PW),  # /actuator/env
    (f'"db_password": {{"sensitive": true, "type": "string", "value": "{_PW}"}}', _PW),  # terraform output
    (f"$ wandb login {_HEX32}8a1b2c3d", _HEX32),
    (f'local ok, err = red:auth("{_PW}")', _PW),
    (f'curl_easy_setopt(curl, CURLOPT_USERPWD, "uploader:{_PW}");', _PW),
    (f'1730712345.12 [0 10.2.1.7:53122] "AUTH" "default" "{_PW}"', _PW),
    (f'docker login -u="acme+ci" -p="{_PW}" quay.io', _PW),
    (f"$ kubectl get secret grafana -o jsonpath='{{.data.admin-password}}' | base64 -d\n{_PW}", _PW),
    (_NKEY, _NKEY),
    (f"OTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-team={_HEX32[:22]}", _HEX32[:22]),
    (f"key1       FULL           {_B64_88}", _B64_88),
    (f"RUN sed -i 's/__REPLICATION_PASSWORD__/{_PW}/' /etc/postgresql/recovery.conf", _PW),
    (f'const k2 = "T3BlbkFJ{_random(40)}";', "T3BlbkFJ"),
    # The next line's name is not the rest of the token above it.
    (f"SENTRY_AUTH_TOKEN = sntryu_{_HEX32 * 2}\nSTRIPE_SECRET_KEY = {_PW}", _PW),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS_15)
def test_a_form_the_blind_sets_found_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


KEPT_15 = [
    'secret_key_base = System.fetch_env!("SECRET_KEY_BASE")',  # a call, in Elixir
    "api_key = Application.fetch_env!(:acme, :stripe)[:secret_key]",
    '"valueFrom": "arn:aws:secretsmanager:eu-central-1:265935341:secret:prod/llm/openai-KNQVI799JO"',
    "AzureOpenAI__ApiKey = @Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/openai/)",
    'let token = try KeychainStore.shared.string(forKey: "com.acme.auth.refreshToken")',
    'pino({ redact: { paths: ["req.headers.authorization", "config.OPENAI_API_KEY"] } })',
    "gpg:                using EDDSA key 343DA4F475DA49B1FBC359CE9BE2913BE87B03C0",
    f"DISCORD_PUBLIC_KEY={_HEX32 * 2}",
    "STRIPE_SECRET_KEY=sk_test_xxx",
    "SLACK_BOT_TOKEN=xoxb-****-****-********",
    f'createClient("https://abc.supabase.co", "sb_publishable_{_random(31)}")',
    f"clientToken: 'pub{_HEX32}',",
    f"MAILGUN_PUBLIC_KEY=pubkey-{_HEX32}",
    "certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUNtRHpWeVN6QlhwTExE",
    "withCredentials([usernamePassword(credentialsId: 'nexus', passwordVariable: 'NEXUS_PASS')])",
    "NPM_TOKEN: buildkite/npm-token",
    "secrets: [db_password]",
    "DATABASE_URL: postgres://${POSTGRES_USER}:${POSTGRES_PASSWORD}@db:5432/app",
    "Added the new CI deploy key's PUBLIC half to the bastion",
    "oauth2-proxy flags (the secret comes from the k8s secret):\n--provider=google",
    "OIDC federation for the pipeline, no client secret involved:\nARM_USE_OIDC=true",
    "// public pk. token, URL-restricted to *.acme.io",
]


@pytest.mark.parametrize("text", KEPT_15)
def test_a_look_alike_the_blind_sets_found_is_kept(text: str) -> None:
    assert_kept(text)


def test_the_sessions_blind_sets() -> None:
    """benchmarks/data/secrets15a.jsonl and …b: B's misses were read and shaped this session's
    rules, A was held out while they were written, then read too; what leaks and what ordinary
    lines change is no more than the session left (docs/security.md, forty-seventh session)."""
    from benchmarks.redteam_sets import secrets_15

    for name, (leaked, changed) in {"a": (9, 8), "b": (6, 4)}.items():
        figures = secrets_15(name)
        assert figures["leaked"][1] == 250 and figures["changed"][1] == 150
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)
