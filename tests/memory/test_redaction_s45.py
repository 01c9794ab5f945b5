"""Forty-fifth session: secrets in HTML tables and definition lists, URLs written backwards,
literals joined by Rust's ``concat!`` or a join whose separator comes first, and passwords that
start with ``%`` (docs/security.md).

Secrets: a cell after a cell that names a secret (``<td>password</td><td>…</td>``), the cells
under a header cell that names one (``<th>API key</th>``), inside their own tags (``<code>``), and
a definition of a term that names one (``<dt>Token:</dt><dd>…</dd>``); a webhook's or a database's
URL read backwards; ``concat!("…", "…")``, ``join("", ["…", "…"])``, ``String.join("", "…", "…")``;
``password: %iN99…``.

Ordinary text: words, numbers and placeholders in such cells, a secret's name as a value, cells
under other headers, a header's columns after its table ends, and a cell named alone; a URL with
no secret read backwards; words joined with a separator or into a word; ``%s``, ``%(password)s``,
``%{DB_PASSWORD}`` and ``%APPDATA%`` given as values.

Every case is written here for its form, its values generated.
"""

from __future__ import annotations

import random
import string

import pytest

from osmia.memory.secret_tables import html_sub
from tests.memory.redaction_checks import assert_kept, assert_redacted

_RNG = random.Random(45)
_ALNUM = string.ascii_letters + string.digits


def _token(n: int) -> str:
    return "".join(_RNG.choice(_ALNUM) for _ in range(n))


_PASSWORD = "Rw3!" + _token(6) + "#p8"
_KEY = _token(32)
_SECRET = "s3cr3t-" + _token(18)

SECRETS = [
    (
        f"<table><tr><td>user</td><td>deploy</td></tr><tr><td>password</td><td>{_PASSWORD}</td></tr></table>",
        _PASSWORD,
    ),
    (f"<tr>\n  <td><b>Password:</b></td>\n  <td>{_PASSWORD}</td>\n</tr>", _PASSWORD),
    (
        "<table>\n<tr><th>Service</th><th>Login</th><th>API key</th></tr>\n"
        f"<tr><td>metrics</td><td>svc</td><td><code>{_KEY}</code></td></tr>\n</table>",
        _KEY,
    ),
    (
        '<TABLE border="1"><TR><TH>Name</TH><TH>Client secret</TH></TR>'
        f"<TR><TD>ci</TD><TD>{_SECRET}</TD></TR>",
        _SECRET,
    ),
    (f"<dl><dt>Region</dt><dd>eu-west-1</dd><dt>Access token:</dt>\n<dd>{_KEY}</dd></dl>", _KEY),
    (f"<td>SMTP password</td><td>{_PASSWORD}</td>", _PASSWORD),
]


KEPT = [
    "<table><tr><td>password</td><td>stored in vault</td></tr><tr><td>token</td><td>3600</td></tr></table>",
    "<tr><td>api key</td><td>YOUR_API_KEY_HERE</td></tr><tr><td>secret</td><td>required</td></tr>",
    "<table><tr><th>Setting</th><th>Value</th></tr><tr><td>token_ttl</td><td>3600</td></tr></table>",
    "<table><tr><th>Name</th><th>Password</th></tr><tr><td>admin</td><td>see runbook</td></tr></table>"
    "<table><tr><td>build</td><td>a1b2c3d4e5f6a7b8c9d0</td></tr></table>",
    "<dl><dt>Password policy</dt><dd>twelve characters or more</dd></dl>",
    "<td>password</td>",
    "<td>DB_PASSWORD</td><td>DB_PASSWORD_FILE</td>",
]


def test_a_header_names_columns_only_up_to_its_tables_end() -> None:
    """The second table's first column is under no header of its own: its value stays."""
    value = "Tz8!" + _token(10)
    text = f"<table><tr><th>Password</th></tr></table><table><tr><td>{value}</td></tr></table>"
    assert html_sub(text) == text
    inside = f"<table><tr><th>Password</th></tr><tr><td>{value}</td></tr></table>"
    assert value not in html_sub(inside)


_HOOK = f"T{_token(10).upper()}/B{_token(10).upper()}/{_token(24)}"
_DB_PASSWORD = "xZ" + _token(10) + "9q"
_GHP = "ghp_" + _token(36)
_LIVE = "sk_live_" + _token(24)
_PERCENT = "%" + _token(12) + "%" + _token(4)
_HEXED = _PASSWORD.encode().hex()
_JWT = "eyJhbGciOiJIUzI1NiJ9." + _token(120) + "." + _token(43)
_B64 = _token(100) + "=="

LATER_SECRETS = [
    (f"alert_sink (stored reversed) = {('https://hooks.slack.com/services/' + _HOOK)[::-1]}",
     _HOOK[::-1][:12]),
    (f"DATABASE_URL_REV={('postgresql://svc:' + _DB_PASSWORD + '@db.prod.internal:5432/app')[::-1]}",
     _DB_PASSWORD[::-1]),
    (f'const HUB: &str = concat!("{_GHP[:14]}", "{_GHP[14:28]}", "{_GHP[28:]}");', _GHP[14:28]),
    (f'token = join("", ["{_LIVE[:12]}", "{_LIVE[12:22]}", "{_LIVE[22:]}"])', _LIVE[12:22]),
    (f'String key = String.join("", "{_LIVE[:16]}", "{_LIVE[16:]}");', _LIVE[16:]),
    (f"password: {_PERCENT}", _PERCENT[1:]),
    (f"DB_PASSWORD={_PERCENT}", _PERCENT[1:]),
    (f"Le mot de passe de la base (utilisateur app_rw) est {_PERCENT} pour la prod.", _PERCENT[1:]),
    # A token's bytes as pairs of hex digits; a literal given to a decoding call.
    (f"decoded NODE_AUTH_TOKEN bytes: {_GHP.encode().hex(':')}", _GHP[4:12].encode().hex(":")),
    (f"dump: {_LIVE.encode().hex('-').upper()}", _LIVE[8:14].encode().hex("-").upper()),
    (f'String dbPass = new String(Hex.decodeHex("{_HEXED * 2}"), UTF_8);', _HEXED),
    (f'pw = bytes.fromhex("{_HEXED}{_PASSWORD[::-1].encode().hex()}").decode()', _HEXED),
    # A value wrapped at a fixed width (quoted-printable's soft breaks, or none), and a quoted key.
    (f"Authorization: Bearer {_JWT[:70]}=\n{_JWT[70:140]}=\n{_JWT[140:]}", _JWT[80:120]),
    (f"SIGNING_KEY={_B64[:40]}\n{_B64[40:]}", _B64[44:76]),
    (f"> -----BEGIN PGP PRIVATE KEY BLOCK-----\n>\n> {_B64[:64]}\n> {_B64[64:]}", _B64[8:40]),
]  # fmt: skip


LATER_KEPT = [
    "The docs mirror is at moc.elpmaxe.scod//:sptth when read backwards (a puzzle for the demo).",
    'names = join(", ", ["alpha", "beta", "gamma"])',
    'greeting = join("", ["Hello", "World"])',
    'let banner: &str = concat!("release-", "notes");',
    "password: %s",
    "DB_PASSWORD=%(password)s",
    "password: %{DB_PASSWORD}",
    "token_file: %APPDATA%\\tokens\\ci.json",
    "the password is %d characters long",
    # Bytes that are not all printable, or too few; a decoded constant that is words.
    "MAC 3c:22:fb:4a:5b:6c, fingerprint SHA256 43:51:43:a1:b5:fc:8b:b7:0a:3a:a9:b1:0f:66:73:a8",
    "values 20 30 40 50 60 70 20 30 40 50 60 70 are the thresholds",
    f'greeting = bytes.fromhex("{b"Hello from the build farm".hex()}").decode()',
    # After a marker at a line's end: a line of words, or of an identifier's words.
    "api_key: [redacted]\ncheck_the_rotation_schedule_in_the_vault_policy",
    "token: [redacted]\nThe next step rotates it every ninety days.",
]


@pytest.mark.parametrize(("text", "secret"), [*SECRETS, *LATER_SECRETS])
def test_a_secret_of_this_session_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", [*KEPT, *LATER_KEPT])
def test_ordinary_text_of_this_session_is_kept(text: str) -> None:
    assert_kept(text)
