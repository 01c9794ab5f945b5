"""Forty-fourth session: secrets written so that no scanner finds them (docs/security.md).

Secrets: a token written backwards, or with its prefix in another case (``GLPAT-``,
``Sk_Live_``); spelled out a character at a time with dashes, dots or slashes between (the mark
may be one of the token's own characters), or read out in groups of four; written as byte
escapes (``\\x67\\x68…``, ``\\u0073…``); joined from a JavaScript array, a ``CONCAT`` call or a
tuple; a spelled-out password after its name; a name "set to" or "now" a value; German's
compound nouns for a password, and a password in brackets after its noun.

Ordinary text: spelled words and letters, hex read out, dotted versions and addresses, a
Markdown rule, reversed words and long identifiers, names in capitals, arrays of words joined,
escapes of control characters, and "set to" or "now" given a word or a number, stay as written.

Every case is written here for its form, its values generated (none is a line of a blind set).
"""

from __future__ import annotations

import base64
import random
import string

import pytest

from tests.memory.redaction_checks import assert_kept, assert_redacted

_RNG = random.Random(44)
_ALNUM = string.ascii_letters + string.digits


def _token(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


_GHP = "ghp_" + _token(36)
_GLPAT = "glpat-" + _token(20)
_LIVE = "sk_live_" + _token(24)
_NPM = "npm_" + _token(36)
_ANT = "sk-ant-api03-" + _token(93) + "AA"
_PASSWORD = "Qx7!" + _token(6) + "#k2"
_RANDOM = _token(24)
_SG_REST = _token(29)
_AWS_ID = "AKIA" + _token(16, string.ascii_uppercase + "234567")
_AWS_SECRET = "kuB6" + _token(32) + "v1/M"
_MD5 = _token(32, "0123456789abcdef")
_SHA = _token(40, "0123456789abcdef")
_TWILIO_HEX = _token(32, "0123456789abcdef").encode().hex()
_GROUPED = "V1Wh=FJeB7EF8iWaKU"
_B64_PASSWORD = base64.b64encode(_PASSWORD.encode()).decode()
_LONG_HEX = (_PASSWORD + "Zz9!").encode().hex().upper()  # 32 hex digits or more: an encoded run
_PIECE_10 = f"4t{_token(2, string.ascii_letters)}9{_token(4, string.ascii_letters)}7"


def _escaped(text: str, form: str) -> str:
    return "".join(form.format(ord(c)) for c in text)


def _dashed(text: str, mark: str) -> str:
    return mark.join(text)


# (text, the part that must not survive)
SECRETS = [
    # Backwards: the run read backwards starts with a format's prefix.
    (f"Reversed so the scanners miss it: {_GHP[::-1]}", _GHP[::-1][:20]),
    (f"stripe key backwards -> {_LIVE[::-1]} (reverse before use)", _LIVE[::-1][:20]),
    # A prefix in another case than its format's.
    (f"ci variable CI_PUSH_TOKEN set to {_GLPAT.upper()[:6]}{_GLPAT[6:]}", _GLPAT[6:]),
    (f'payments.key = "Sk_Live_{_LIVE[8:]}"', _LIVE[8:]),
    (f"slack XOXB-{_token(12, string.digits)}-{_token(13, string.digits)}-{_token(24)} in the log", "XOXB-"),
    # Spelled out with marks between the characters (the mark may be the token's own).
    (f"remove the dashes: {_dashed(_LIVE, '-')}", _dashed(_LIVE, "-")[16:40]),
    (f"token: {_dashed(_GHP, '.')} ok", _dashed(_GHP, ".")[10:40]),
    (f"root password, letter by letter: {_dashed(_PASSWORD, ' . ')}", _dashed(_PASSWORD, " . ")[8:24]),
    (f"spelled: {_dashed(_PASSWORD, ' ')} (no spaces)", _dashed(_PASSWORD, " ")[6:18]),
    # Read out in groups of four.
    (
        f"npm token in groups of four: npm_ {' '.join(_NPM[4 + i : 8 + i] for i in range(0, 36, 4))}",
        _NPM[12:16],
    ),
    # Byte escapes of printable characters.
    (f'token = "{_escaped(_GHP, chr(92) + "x{:02x}")}"', _escaped(_GHP, chr(92) + "x{:02x}")[:40]),
    (f'{{"key": "{_escaped(_LIVE, chr(92) + "u{:04x}")}"}}', _escaped(_LIVE, chr(92) + "u{:04x}")[:40]),
    # Joined from a JavaScript array, over lines, a tuple, a CONCAT call.
    (f"const key = ['{_ANT[:30]}', '{_ANT[30:70]}', '{_ANT[70:]}'].join('');", _ANT[30:70]),
    (f'const t = [\n  "{_GHP[:10]}",\n  "{_GHP[10:25]}",\n  "{_GHP[25:]}"\n].join("");', _GHP[10:25]),
    (f"SELECT CONCAT('{_LIVE[:8]}', '{_LIVE[8:]}') AS k;", _LIVE[8:]),
    (f'tok = "".join(("{_RANDOM[:8]}", "{_RANDOM[8:16]}", "{_RANDOM[16:]}"))', _RANDOM[8:16]),
    # A name set to a value, or said to be one now.
    (f"DB_PASSWORD set to {_PASSWORD} in staging", _PASSWORD),
    (f"the API token is now {_RANDOM}", _RANDOM),
    (f"The deploy secret was rotated to {_RANDOM}.", _RANDOM),
    # The rest of a token on the next line: under a log's repeated prefix, at the marker's column
    # in a table, in a quoted mail, or wrapped at a shell's backslash.
    (
        f"2024-05-14T09:31:07.113Z app[web.1]: using token {_GHP[:24]}\n"
        f"2024-05-14T09:31:08.113Z app[web.1]: {_GHP[24:]} for api.github.com",
        _GHP[24:],
    ),
    (
        f"worker-1  | mail: init key=SG.{_token(22)}.{_token(14)}\nworker-1  | {_SG_REST}\nworker-1  | ok",
        _SG_REST,
    ),
    (f"│ STRIPE_KEY │ {_LIVE[:28]} │\n│            │ {_LIVE[28:]}{_RANDOM} │", _RANDOM),
    (f"> the token is {_GHP[:20]}\n> {_GHP[20:]} - please don't forward", _GHP[20:]),
    # ... a prefix of one-letter words, repeated on the next line.
    (f"> x token is {_GHP[:20]}\n> x {_GHP[20:]} for it", _GHP[20:]),
    (f'export GITLAB_TOKEN="{_GLPAT[:14]}\\\n{_GLPAT[14:]}"', _GLPAT[14:]),
    # A secret told in parts: a prefix and ten characters, then "pt2", "… ends", "and finally".
    (f"[10:41] dana: hf token pt1 hf_{_RANDOM[:14]}\n[10:42] dana: pt2 {_RANDOM[14:]}x9Q", _RANDOM[14:]),
    (f"(1/2) NPM_TOKEN begins npm_{_NPM[4:18]}\n(2/2) ...and ends {_NPM[18:]}", _NPM[18:]),
    (f"part A npm_{_PIECE_10}", _PIECE_10),
    # A name's slice given a piece of the value.
    (f"[12:00:01] cfg db.password[0:10] = {_PASSWORD[:10]}", _PASSWORD[:10]),
    # Pieces assigned to variables and joined where used; PowerShell's and Go's joins.
    (f'p1 = "{_ANT[:40]}"\np2 = "{_ANT[40:]}"\nclient = Anthropic(api_key=f"{{p1}}{{p2}}")', _ANT[40:]),
    (f"const head = '{_GHP[:16]}';\nconst tail = '{_GHP[16:]}';\nconst t = `${{head}}${{tail}}`;", _GHP[16:]),
    (f'A="{_NPM[:20]}"; B="{_NPM[20:]}"\nnpm config set //registry.npmjs.org/:_authToken "$A$B"', _NPM[20:]),
    (f"$tok = -join ('{_GLPAT[:12]}', '{_GLPAT[12:]}')", _GLPAT[12:]),
    (f'key := strings.Join([]string{{"{_ANT[:50]}", "{_ANT[50:]}"}}, "")', _ANT[50:]),
    # A token's bytes listed as numbers; a named value encoded as hex; a value decoded by xxd.
    (f"bytes: {' '.join(f'0x{ord(c):02x}' for c in _GHP)}", f"0x{ord(_GHP[10]):02x}"),
    (f"byte[] K = {{{', '.join(f'0x{ord(c):02X}' for c in _LIVE)}}};", f"0x{ord(_LIVE[12]):02X}"),
    (f"TWILIO_AUTH_TOKEN (hex-encoded): {_TWILIO_HEX}", _TWILIO_HEX),
    (f"LDAP bind password (hex): {_LONG_HEX}", _LONG_HEX),
    (f"echo {_PASSWORD.encode().hex()} | xxd -r -p > /run/secrets/db_password", _PASSWORD.encode().hex()),
    # A password said to be one many words after its noun, in other languages.
    (f"La contraseña del usuario root del servidor MySQL es: {_PASSWORD}", _PASSWORD),
    (f"A senha do banco de dados de homologação é {_PASSWORD} para o app.", _PASSWORD),
    (f"Voici le mot de passe SMTP pour l'envoi des factures : {_PASSWORD}", _PASSWORD),
    (f"Hasło do bazy danych (użytkownik app_rw): {_PASSWORD}", _PASSWORD),
    (f"Geheimer Zugriffsschlüssel: {_RANDOM}x9+Q{_RANDOM[:12]}", _RANDOM),
    # Full-width and mathematical letters and digits.
    (
        f"トークン: {''.join(chr(ord(c) + 0xFEE0) for c in _GHP)}",
        "".join(chr(ord(c) + 0xFEE0) for c in _GHP[4:]),
    ),
    # Code spans side by side; HTML's named references inside a token; a template's b64decode.
    (f"Token is `{_GHP[:20]}` `{_GHP[20:]}` (two code spans)", _GHP[20:]),
    (f"**Stripe key:** `{_LIVE[:20]}`**`{_LIVE[20:]}{_RANDOM[:8]}`**", _LIVE[20:]),
    (f"<td>SENDGRID_API_KEY</td><td>SG&period;{_token(22)}&period;{_SG_REST}{_token(14)}</td>", _SG_REST),
    (f"<p>Token: ghp&lowbar;{_GHP[4:]}</p>", _GHP[4:]),
    (f"ansible_ssh_pass: \"{{{{ '{_B64_PASSWORD}' | b64decode }}}}\"", _B64_PASSWORD),
    # An AWS key id in lower or mixed case; a prefix with digits in capitals.
    (f"aws configure set aws_access_key_id {_AWS_ID.lower()} --profile ops", _AWS_ID.lower()),
    (f"aws_access_key_id = aK{_AWS_ID[2:]}  ; the pair is in the vault", _AWS_ID[4:]),
    (f"exported {_ANT.upper()[:14]}{_ANT[14:]} as the key", _ANT[14:]),
    # A value told to be a secret after it, under a label that says otherwise.
    (f"git_sha: {_SHA}   <- actually the Datadog application key", _SHA),
    (f"md5sum: {_MD5}  (that's the Twilio auth token, not a hash)", _MD5),
    (f"build_number={_RANDOM}x{_RANDOM[:8]}  # real key for the metrics API", _RANDOM),
    # A value read out in groups.
    (f"read out in threes: {' '.join(_GROUPED[i : i + 3] for i in range(0, 18, 3))}", _GROUPED[3:6]),
    (
        f"key, in blocks of four:\n{' '.join(_AWS_SECRET[i : i + 4] for i in range(0, 40, 4))}",
        _AWS_SECRET[8:12],
    ),
    # A key said to be one in Chinese, Korean, Russian, German and Portuguese, words after its noun.
    (f"存储账户的访问密钥：{_RANDOM}x9Q（请勿转发）", _RANDOM),
    (f"S3 업로드용 비밀 액세스 키는 {_RANDOM}x9Q 입니다.", _RANDOM),
    (f"Ключ доступа к внутреннему API биллинга: {_SHA} — не публикуйте.", _SHA),
    (f"der Schlüssel für den Monitoring-Agenten (Datadog) lautet {_MD5}, bitte rotieren.", _MD5),
    (f"o token de autenticação da conta de SMS é {_MD5}, já configurei.", _MD5),
    # German's compound nouns; a password in brackets after its noun.
    (f"Das Datenbankpasswort ({_PASSWORD}) stand im Klartext in docker-compose.yml", _PASSWORD),
    (f"Das Rootkennwort lautet {_PASSWORD}", _PASSWORD),
    (f"the password ({_PASSWORD}) was in the chart's values", _PASSWORD),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_of_this_session_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


KEPT = [
    # Spelled words and letters, hex read out, letters listed, a Markdown rule.
    "The banner reads D E P R E C A T E D and the index lists a b c d e f g h i j k l m n.",
    "bytes: d e a d b e e f 0 1 2 3 4 5 from the dump",
    "River quiz: M-I-S-S-I-S-S-I-P-P-I and then -----------------",
    "Sections a.b.c.d.e.f.g.h.i.j.k.l.m follow; the build is 1.2.3.4.5.6.7.8.9.0.1.2 internally.",
    "The gateway is 10.0.0.1 and the table of contents uses . . . . . . . . . . . . . leaders.",
    # Reversed words and long identifiers ending in a short word.
    "image python3.11-slim-bookworm with kube-controller-manager and build_2024_release_candidate_ok",
    "The puzzle answer is esrever_gnirts_a (a string reversed) and 12345678_abc_def.",
    # Names in capitals, and a header with many parts.
    "Set CI_PUSH_TOKEN_FOR_DEPLOY and Content-Security-Policy-Report-Only in the pipeline.",
    "The constant GITHUB_TOKEN_PERMISSIONS_DEFAULT is read by the workflow.",
    # Arrays of words joined, escapes of control characters, a magic number.
    "const greeting = ['Hello', 'world', 'again'].join('');",
    "SELECT CONCAT('first', 'last') AS name;",
    "printf '\\x1b[31mred\\x1b[0m and done' to colour the output",
    'magic = b"\\x7fELF\\x02\\x01\\x01\\x00" checks the header',
    # "set to" or "now" with a word or a number.
    "The token set to expire in 3600 seconds was refreshed.",
    "the password was reset to default and the session token is now valid for 24h.",
    "The secret is now stored in Vault; the password changed to match the policy.",
    "Das Passwortfeld ist leer und das Kennwort wird per Mail verschickt.",
    "reset the password (see runbook) and the password (optional) field",
    # Templates of a token: a prefix and what is written to be replaced; a shell's "set or fail".
    "SLACK_BOT_TOKEN=xoxb-REPLACE-ME\nSLACK_SIGNING_SECRET=YOUR_SIGNING_SECRET_HERE",
    "export OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  # replace with your own key",
    "STRIPE_SECRET_KEY=sk_live_...redacted... (last 4: 9fQk) and token xoxb-your-bot-token",
    'password: "${DB_PASSWORD}"\napi_key: "${API_KEY:?must be set}"',
    # A log whose next line, under the same prefix, holds words or a number after a marker.
    "12:00:01 app: token=[redacted]\n12:00:01 app: request finished in 35 ms",
    "export A_TOKEN=[redacted]\nexport OTHER_SETTING=enabled",
    "  password: [redacted]\n  username: admin",
    # Words joined by name, bytes of a file's magic, a cache key's words in hex, prose in base64,
    # a keyboard shortcut spelled out, a constant's name, an environment variable read in code.
    'first = "Hello"; last = "World"\nprint(f"{first}{last}")',
    'name="build"; ver="2024"\necho "$name$ver"',
    "static const uint8_t magic[] = {0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00};",
    "The token cache key (hex): " + b"token-cache-key-for-users-v1".hex(),
    "echo aGVsbG8gd29ybGQ= | base64 -d  # prints hello world",
    "Keyboard shortcut reminder: C t r l + S h i f t + P opens the command palette.",
    "example_key = 'EXAMPLE_KEY_DO_NOT_USE'  # fixture for the parser tests",
    "const token = process.env.SLACK_BOT_TOKEN ?? throwMissing('SLACK_BOT_TOKEN');",
    "Decoder test uses the jwt.io sample token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c (John Doe).",
    # Full-width letters in a word of another script, an ellipsis in a masked key, references HTML
    # writes in prose, code spans of commands, prose decoded in a template, a password's process.
    "東京ＴＯＫＹＯ２０２４ and ＡＰＩキー, and the key ends in ...6oN7 (sk_live_…wN5o in the dashboard).",
    "Use &lt;code&gt; and &copy; 2024 and &nbsp; and a&shy;b in the footer.",
    "Run `npm test` `npm run lint` then `npm run build`.",
    "greeting: \"{{ 'aGVsbG8gd29ybGQ=' | b64decode }}\"",
    "The password reset flow for the admin users in staging is: documented in runbook v2.",
    # Groups that are no value read out: a fingerprint, versions, ids, a label spelled out, an
    # address; a hash near a sentence that says no value is a key.
    "Imported the maintainer's public key, fingerprint 49FF 0A63 1103 3E5E E18C E66A 6F8E 6D9B 92D8 90A2.",
    "tags: v1.0 v1.1 rc2 rc3 beta4, ids: ab12 cd34 ef56 gh78 ij90, matrix: py38 py39 py310 py311 py312",
    "Rack label reads R-A-C-K-0-7 / S-L-O-T-1-2; the new node goes in that slot.",
    "IPv6 2001:0db8:85a3:0000:0000:8a2e:0370:7334 and we had 10 of 20 in the box",
    "Commit 3f9a2b1c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90 fixed it; the real problem was the token cache.",
    "Set CI_PUSH_TOKEN_FOR_DEPLOY and X-Request-Id-Header-Value-2024 and akiamazingstuff1234 here.",
    # A wrapped placeholder before the next assignment; a token's schedule in prose.
    "OPENAI_API_KEY=sk-your-key-here\nANTHROPIC_API_KEY=<your-anthropic-key>",
    "The token is refreshed every hour and the token is: a JWT signed with RS256, valid for an hour.",
]


def test_a_weak_password_made_of_words_is_still_one() -> None:
    """A template's words (``REPLACE-ME``, ``redacted``) make a token a template; a password's
    words (``prod_secret``) do not make it one."""
    for text in ("DB_PASSWORD=prod_secret", "PASSWORD=super_secret"):
        assert_redacted(text, text.split("=")[1])


@pytest.mark.parametrize("text", KEPT)
def test_ordinary_text_of_this_session_is_kept(text: str) -> None:
    assert_kept(text)


def test_the_blind_evasive_sets_hold_their_figures() -> None:
    """benchmarks/data/evasive13a.jsonl, …b and …c (docs/security.md, forty-fourth session): secrets
    written to evade a scanner leak no more than the session left, and no more ordinary lines are
    given a marker (the forty-fifth session's steps took B from 22 to 20 and C from 28 to 19, the
    forty-sixth's C to 18)."""
    from benchmarks.redteam_sets import evasive_13

    for name, (leaked, marked, size) in {"a": (14, 0, 200), "b": (20, 0, 200), "c": (18, 1, 160)}.items():
        figures = evasive_13(name)
        assert figures["leaked"][1] == size and figures["redacted"][1] == size // 2
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["redacted"][0] <= marked, (name, figures)
