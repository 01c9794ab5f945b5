"""Forty-sixth session: secrets given by position to calls that take credentials, behind a
literal's prefix or a fallback, as byte lists, in provider formats a blind set found, and values
that point at a secret rather than hold one (docs/security.md).

Secrets: ``new PDO($dsn, 'user', '…')``, ``DBI->connect(…)``, ``AuthTokens.basic("neo4j", "…")``,
``BasicAWSCredentials("AKIA…", "…")``, a requests ``auth=("", "…")`` tuple; ``b"…"`` and
``[]byte("…")``; ``process.env.X ?? "…"``, ``os.getenv("X") or "…"``; ``define('NONCE_KEY', '…')``;
``SQLPASS=…``; a password after its noun in other languages with no label's sign; an expect
script's answer to a password prompt; ``lftp -u user,…``; a percent-encoded password in a URL; a
key as sixteen byte literals or more; a hex dump under the line that names the file; a BitLocker
recovery password, a Bitcoin private key, Alchemy's and Sumo Logic's URLs.

Ordinary text: a call given a host and a port, a digest or plain words; a raw string's pattern
assigned to a secret's name; a fallback to an empty string; a cache's key of words and ids; a
counting byte list; a key id (``kid=…``) or a cache's key after "key"; a secret manager's reference
(``op://…``), a path in a store of secrets, a call's result assigned to a secret's name; six-digit
groups that are no BitLocker password.

Every case is written here for its form, its values generated.
"""

from __future__ import annotations

import random
import string

import pytest

from tests.memory.redaction_checks import assert_kept, assert_redacted

_RNG = random.Random(46)
_ALNUM = string.ascii_letters + string.digits


def _token(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


_PASSWORD = "Kq7!" + _token(6) + "#w2"
_KEY = _token(40)
_HEX = _token(32, "0123456789abcdef")
_BYTES = ", ".join(f"0x{b:02x}" for b in _RNG.sample(range(256), 24))
_BITLOCKER = "-".join(f"{11 * _RNG.randrange(9091, 59000):06d}" for _ in range(8))
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_WIF = "K" + _token(51, _BASE58)
_ALCHEMY = _token(32)
_CODES = [f"{_token(5, '0123456789abcdef')}-{_token(5, '0123456789abcdef')}" for _ in range(4)]
_RESET = _token(64, "0123456789abcdef")
_HEX_DUMP = "".join(f"{ord(c):02x}" for c in _token(28)) + "0a"

SECRETS = [
    (
        f"$pdo = new PDO(\n    'mysql:host=db;dbname=shop',\n    'shop_user',\n    '{_PASSWORD}'\n);",
        _PASSWORD,
    ),
    (
        f'my $dbh = DBI->connect("DBI:Pg:dbname=billing", "rpt", "{_PASSWORD}", {{ RaiseError => 1 }});',
        _PASSWORD,
    ),
    (f'GraphDatabase.driver(uri, AuthTokens.basic("neo4j", "{_KEY}"))', _KEY),
    (f'new BasicAWSCredentials(\n    "AKIA{_token(16, string.ascii_uppercase)}",\n    "{_KEY}");', _KEY),
    (f'requests.get(url, auth=("", "{_HEX}"))', _HEX),
    (f'const client = algoliasearch("KX9Q2PL7WM", "{_HEX}");', _HEX),
    (f'app.config["SECRET_KEY"] = b"{_HEX}"', _HEX),
    (f'var signingKey = []byte("{_KEY}")', _KEY),
    (f">>> key = b'{_KEY}'", _KEY),
    (f'const JWT_SECRET = process.env.JWT_SECRET ?? "{_KEY}";', _KEY),
    (f'SECRET_KEY = os.getenv("DJANGO_SECRET_KEY") or "{_PASSWORD}"', _PASSWORD),
    (f"define('NONCE_KEY',    '{_KEY}');", _KEY),
    (f"set SQLPASS={_PASSWORD}\nsqlcmd -S db -U sync -P %SQLPASS%", _PASSWORD),
    (f"ユーザー名 admin / パスワード {_PASSWORD} 。テスト後に削除", _PASSWORD),
    (f"логін buh_test, пароль {_PASSWORD}. Клієнт просив", _PASSWORD),
    (f"le mot de passe « {_PASSWORD} ». Il faudrait le changer", _PASSWORD),
    (f'spawn ssh ops@10.0.3.14\nexpect "password for ops:"\nsend "{_PASSWORD}\\r"\nexpect eof', _PASSWORD),
    (f'lftp -u backup,{_PASSWORD} -e "mirror -R /srv/backups; quit" ftp.example.net', _PASSWORD),
    (f'create_engine("postgresql://reporting:Qz%40{_token(8)}%2F{_token(6)}@10.1.2.3:5432/dw")', "Qz%40"),
    (f"static const uint8_t k_fw_update_key[24] = {{\n    {_BYTES}\n}};", _BYTES),
    (f"$ xxd -p /var/run/secrets/partner/api_token\n{_HEX_DUMP}\n$ wc -c api_token", _HEX_DUMP),
    (f"BitLocker recovery key ID: 96D45EAC\nRecovery key: {_BITLOCKER}", _BITLOCKER),
    (f"WIF: {_WIF}", _WIF),
    (f'new JsonRpcProvider("https://eth-mainnet.g.alchemy.com/v2/{_ALCHEMY}")', _ALCHEMY),
    (f"https://endpoint4.collection.eu.sumologic.com/receiver/v1/http/{_KEY}==", _KEY),
    # Read after set A was measured held out (its misses, as forms).
    (f"$ cat .vault_pass\n{_KEY}\n$ ansible-playbook site.yml --vault-password-file .vault_pass", _KEY),
    (f"$ openssl rand -base64 32\n{_KEY}=\n", _KEY),
    (f">>> Fernet.generate_key()\nb'{_KEY}='\n# put this into FERNET_KEY", _KEY),
    (
        f'echo "{_PASSWORD}" | gpg --batch --pinentry-mode loopback --passphrase-fd 0 --detach-sign x',
        _PASSWORD,
    ),
    (
        f"+[default]\n+aws_access_key_id = AKIA{_token(16, string.ascii_uppercase)}\n"
        f"+aws_secret_access_key = {_KEY}",
        _KEY,
    ),
    (f'client = Client("SK{_HEX}", "{_KEY}", "AC{_HEX}")', _KEY),
    (f'{{"CiphertextBlob": "AQIDAHhq", "Plaintext": "{_KEY}="}}', _KEY),
    (f"const resend = new Resend('re_{_token(8)}_{_KEY[:24]}');", _KEY[:24]),
    (f"BUNDLE_GEMS__CONTRIBSYS__COM={_HEX[:8]}:{_HEX[8:16]}", _HEX[:16]),
    ("recovery-codes.txt:\n" + "\n".join(_CODES), _CODES[2]),
    (f"https://portal.example.com/password/reset/{_RESET}?email=qa", _RESET),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_of_this_session_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


ORDINARY = [
    'client.connect("localhost", "8080")',
    'verify_auth("sha256", "c93ba9470b01bc37b104da1ef0ab97848ca5d69d705f6a463eaec8eb82978b29")',
    'login("admin", "password")',
    'db.connect("postgres", "app_user", "app_database")',
    "secret_keyword = r'(?:key|pwd|pw|password|pass|token)'",
    'token = request.headers.get("X-Token") or ""',
    'cache.set("cache_key", "v3:catalog:product:72c5c3b129892933", 600)',
    "[cache] MISS key=v3:catalog:product:72c5c3b129892933:locale=de-DE:currency=EUR ttl=600s",
    "let key: [u8; 16] = [" + ", ".join(f"0x{b:02x}" for b in range(16)) + "];",
    "const uint8_t table[6] = {0x00, 0x01, 0x02, 0x03, 0xae, 0x9f};",
    "2024-08-08T02:00:01Z INFO  rotation: retired key kid=7d5de870092651eb",
    "INFO: Build completed, action cache key " + _token(64, "0123456789abcdef"),
    'STRIPE_SECRET_KEY="op://Engineering/stripe-live/credential"',
    "  db_creds = jsondecode(data.aws_secretsmanager_secret_version.db.secret_string)",
    "secrets = get_baseline_from_file(filename)",
    "id 123456-123456-123456-123456-123456-123456-123456-123456",
    "SSL_BYPASS=true",
    'expect "Password:"\nsend "$pw\\r"',
    "Das Passwort wird im Vault gespeichert.",
    "LoadCredential=api-token:/etc/credstore/metrics-exporter.api-token",
    "docker buildx build --secret id=npmrc,src=$HOME/.npmrc --secret id=sentry,env=SENTRY_TOKEN .",
    "  password       = random_password.db.result",
    'let token = std::env::var("GITHUB_TOKEN").context("GITHUB_TOKEN must be set")?;',
    "VITE_AUTH0_DOMAIN=acme-prod.eu.auth0.com",
    "> x-api-key: [hidden]",
    "SECRET_KEY=replace-with-output-of-the-command-above",
    "rotation: created new signing key kid=b57cc862e652b4c6 alg=ES256",
    "Connection string (password removed): Server=tcp:sql-wh.example.net,1433;Password=<removed>;",
    "$ cat keys.txt\nsee the vault",
    "$ openssl rand -hex 4\n1a2b",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_of_this_session_is_kept(text: str) -> None:
    assert_kept(text)


def test_the_sessions_blind_sets() -> None:
    """benchmarks/data/secrets14a.jsonl and …b (docs/security.md, forty-sixth session): B's misses
    were read and shaped this session's rules, A was held out while they were written (31 -> 23
    leaked), then read too; what leaks and what ordinary lines change is no more than the session
    left."""
    from benchmarks.redteam_sets import secrets_14

    for name, (leaked, changed) in {"a": (12, 11), "b": (9, 12)}.items():
        figures = secrets_14(name)
        assert figures["leaked"][1] == 250 and figures["changed"][1] == 150
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)
