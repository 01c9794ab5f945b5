"""Forty-third session: a blind set's forms of secrets and of ordinary text (docs/security.md).

Secrets: a value redacted once is redacted where the text repeats it; a CSV or TSV table's column
named for a secret; an application's key (``APP_KEY``), SSSD's ``authtok``, the ids that are the
credential (Vault's ``secret_id``, Consul's ``SecretID``); a ``.pgpass`` line for any host (``*``);
Mailgun's private keys; a 32-byte private key in base64 called private; a password decoded from a
literal by ``atob``; an ODBC value in braces; a token with Markdown's escapes; a token split over
string literals with a comment in the join.

Ordinary text: an env file's lines after an empty value or after a placeholder, or a key's line
after a wrapped token, stay as written (the wrapped-token view joined them: the next line was lost
with the token); a private key's header named in prose (the block rule took the rest of the
text); a phrase written to be changed, a prefix with an ellipsis, a mask with its last four
characters, Stripe's publishable keys, jwt.io's sample token, Terraform's ``(sensitive value)``,
a settings class's ``SecretStr``, a variable's name, a nested block's key, the name of a key in a
Secret, a public key under its name, an error's class, a count, a MAC address, a cache's key with
its content hash, a store's key path, a format string's field, AWS's ``--secret-id`` path.

Every case is written here for its form, its values generated (none is a line of a blind set).
"""

from __future__ import annotations

import base64
import random
import string

import pytest

from osmia.memory.sanitize import redacted
from tests.memory.redaction_checks import assert_kept, assert_redacted

_RNG = random.Random(43)


def _token(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


_HEX = "0123456789abcdef"
_PASSWORD = "Qx7!" + _token(10)
_KEY_32 = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(32))).decode()
_HMAC = _token(64, _HEX)
_API = _token(32)
_LIVE = _token(28)
_ENCODED = base64.b64encode(_PASSWORD.encode()).decode()
_SLACK = _token(24)
_OPENAI = _token(120)

# (text, the secret that must not survive)
SECRETS = [
    # Said in prose, then given to code: the code's rule names it, the prose repeats it.
    (f'The hook\'s secret is now {_HMAC}; verify.py calls hmac.new(b"{_HMAC}", body, sha256).', _HMAC),
    # A CSV or TSV file with a column named for a secret.
    (f"users.csv:\nemail,role,password\nops@example.org,admin,{_PASSWORD}\nqa@example.org,qa,x", _PASSWORD),
    (f"id\tname\tapi_key\n7\tGlobex\t{_API}\n8\tInitech\t{_token(32)}", _API),
    # Names that hold a credential.
    (f"ldap_default_authtok = {_PASSWORD}", _PASSWORD),
    (f"vault write auth/approle/login role_id=web secret_id={_API}", _API),
    # A name that says public, given a value of no public key's shape ("the name is historical").
    (f"PUBLIC_KEY={_token(40)}\n# it is the uploader's secret access key, the name is old", "="),
    # A .pgpass line for any host.
    (f"~/.pgpass:\n*:5432:*:postgres:{_PASSWORD}", _PASSWORD),
    # Formats and shapes.
    (f"Tunnel keys: private {_KEY_32} / public {base64.b64encode(bytes(32)).decode()}", _KEY_32),
    (
        f"const password = atob('{base64.b64encode(_PASSWORD.encode()).decode()}');",
        base64.b64encode(_PASSWORD.encode()).decode(),
    ),
    (
        f"Driver={{ODBC Driver 18}};Server=tcp:db.example.net,1433;Uid=etl;Pwd={{{_PASSWORD}}};Encrypt=yes;",
        _PASSWORD,
    ),
    (f"| STRIPE\\_KEY | sk\\_live\\_{_LIVE} |", _LIVE),
    # A token split over literals with a comment in the join.
    (
        f'const token = "xoxb-{_token(12, string.digits)}-{_token(13, string.digits)}-{_SLACK[:4]}"'
        f' /* split for the scanner */ + "{_SLACK[4:]}";',
        _SLACK[4:],
    ),
    (
        f'OPENAI_KEY = (\n    "sk-proj-{_OPENAI[:60]}"  # split for line length\n    "{_OPENAI[60:]}"\n)',
        _OPENAI[60:],
    ),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_of_this_session_is_redacted(text: str, secret: str) -> None:
    if secret == "=":
        secret = text.split("=", 1)[1].split("\n", 1)[0]
    assert_redacted(text, secret)


def test_the_dd_app_key_and_the_secret_id_and_the_mailgun_key_go_whole() -> None:
    app = _token(40, _HEX)
    assert app not in redacted(f'os.Setenv("DD_APP_KEY", "{app}")')
    uuid = f"{_token(8, _HEX)}-{_token(4, _HEX)}-4{_token(3, _HEX)}-a{_token(3, _HEX)}-{_token(12, _HEX)}"
    assert uuid not in redacted(f"SecretID:         {uuid}\nDescription: bootstrap")
    mailgun = f"{_token(32, _HEX)}-{_token(8, _HEX)}-{_token(8, _HEX)}"
    assert mailgun not in redacted(f"Mailgun::create('{mailgun}', 'https://api.eu.mailgun.net')")


KEPT = [
    # An env file's next line after an empty value, or after a placeholder (nothing of it lost).
    "Created .env.example:\nDATABASE_URL=\nSTRIPE_SECRET_KEY=\nSENTRY_DSN=\nLOG_LEVEL=info",
    ".env.template:\nAPI_KEY=change-me-in-your-local-env\nAPI_BASE_URL=https://api.example.com\nTIMEOUT=30",
    # Placeholders, masks and values published by design.
    "Added `STRIPE_SECRET_KEY=sk_test_...` to .env.sample, a pointer to the dashboard beside it.",
    "The log shows `token=****************3f9a`; only the last four characters are printed.",
    "The checkout page embeds pk_test_" + "Ab12" * 20 + " as Stripe intends.",
    "Decoder test uses jwt.io's sample eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c in its fixtures.",
    # Names, keys of blocks, errors and counts.
    "Renamed the secret GH_PAT to RELEASE_BOT_TOKEN in the repository settings.",
    "External Secrets: remoteRef: { key: secret/data/payments, property: webhook_secret }",
    "The workflow reads the token from secrets: env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "botocore.exceptions.NoCredentialsError: Unable to locate credentials in the pod",
    "Set TOKEN_BUDGET_PER_RUN=500000 and MAX_TOKENS_PER_REQUEST=409600 (counts, not credentials).",
    # A cache's key with its content hash; a store's key path; a format string's field.
    f"Cache miss for key v3-gradle-{_token(40, _HEX)}; fell back to the restore key.",
    f"Cache restored from key: node-modules-Linux-{_token(64, _HEX)}",
    f"Redis key pattern: session:{_token(16, _HEX)}:profile with a TTL of an hour.",
    'cmd = f"psql --password={db_password} --host={host}"',
    # A private key's header named in prose (the block rule took the rest of the text).
    "The loader accepts '-----BEGIN PRIVATE KEY-----' (PKCS#8) and '-----BEGIN RSA PRIVATE KEY-----'.",
    # A MAC address (read as a .pgpass line), Terraform's note, a settings class's types.
    "Node 10.0.9.35 (MAC 14:fe:23:b5:19:7e) failed the health check after the upgrade.",
    '  ~ aws_db_instance.main\n      ~ password       = (sensitive value)\n      ~ engine = "15.7"',
    "class Settings(BaseSettings):\n    openai_api_key: SecretStr\n    hook_secret: SecretStr | None = None",
    # The name of a key in a Secret, a public key under its name, a secret's name in AWS's CLI.
    "values.yaml: secretKeys.adminPasswordKey: postgres-password (no inline passwords).",
    f"[Peer]\nPublicKey = {base64.b64encode(bytes(range(32))).decode()}\nAllowedIPs = 10.8.0.2/32",
    "aws secretsmanager get-secret-value --secret-id prod/api/stripe --query SecretString",
]


@pytest.mark.parametrize("text", KEPT)
def test_ordinary_text_of_this_session_is_kept(text: str) -> None:
    assert_kept(text)


def test_a_wrapped_token_after_a_name_is_still_joined_across_lines() -> None:
    token = "ghp_" + _token(36)
    out = redacted(f"first line\nGITHUB_TOKEN={token[:15]}\n{token[15:]} and more\nNEXT=1")
    assert token[15:] not in out and out.endswith(" and more\nNEXT=1"), out
    # ... up to a line that names a key: the token's lines go, the key's line stays.
    key = "sk-ant-api03-" + _token(80)
    out = redacted(f"ANTHROPIC_API_KEY={key[:50]}\n{key[50:]}\nError: 401 invalid x-api-key")
    assert key[50:] not in out and out.endswith("\nError: 401 invalid x-api-key"), out
    hook = f"https://hooks.slack.com/services/T{_token(8)}/B{_token(10)}/{_token(24)}"
    out = redacted(f"    - api_url: {hook}\n      channel: '#alerts'")
    assert hook[-24:] not in out and out.endswith("\n      channel: '#alerts'"), out


def test_the_blind_secret_sets_hold_their_figures() -> None:
    """benchmarks/data/secrets12a.jsonl and …b (docs/security.md, forty-third session): what leaks
    is what the session left (half of A's by the criterion: a webhook's URL or a public prefix
    listed as the secret), and no ordinary line is changed."""
    from benchmarks.redteam_sets import secrets_12

    for name in ("a", "b"):
        figures = secrets_12(name)
        assert figures["leaked"][1] == 250 and figures["changed"][1] == 150
        assert figures["leaked"][0] <= {"a": 9, "b": 6}[name], (name, figures)
        assert figures["changed"][0] == 0, (name, figures)
