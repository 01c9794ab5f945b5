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
