"""One random value planted in the shapes agents write it in, each with a look-alike that must stay.

The probes of the twenty-fifth and twenty-sixth sessions (a value named by its use, given to a CLI,
on the next line, in code, a Markdown label or a banner; the rest of a value after its redacted
start) and what must not be taken for one (code, hosts, words after ``[redacted]``); the
thirtieth's: a token glued to a marker, a run's own marker included; the thirty-first's in prose,
tables and other languages. Command lines, code and CI output are ``test_redaction_code.py``; the
corpus tests against a scanner are in ``test_redaction.py``.
"""

from __future__ import annotations

import pytest

from osmia.memory.redaction import REDACTED, redact
from osmia.memory.secret_tails import fragment
from tests.memory.planted_secret import RANDOM, redacted_and_kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Twenty-fifth session: a secret named by what it does, set "to" a value, in a cookie, or
        # given to a CLI that stores it; each with a look-alike that must stay.
        (f"set the webhook secret to {RANDOM}", "set the token to expire after 3600s"),
        (f"The signing key is {RANDOM}", "the signing key is stored in vault"),
        (f"encryption key {RANDOM}", "the encryption key rotation job"),
        (f"license key {RANDOM}", "license key is required"),
        (f"Cookie: sessionid={RANDOM}; theme=dark", "sessionid=abc is too short to be one"),
        (f"gh secret set DEPLOY_KEY --body {RANDOM}", "gh secret list"),
        (f"vault kv put secret/app api=ok value={RANDOM}", "vault write auth/x policies=default ttl=3600"),
        (f"az login -u ci@example.com -p {RANDOM}", "az login --use-device-code"),
        (
            f"npm config set //registry.npmjs.org/:_authToken {RANDOM}",
            "npm config set registry https://r.example",
        ),
    ],
)
def test_a_secret_named_by_its_use_or_given_to_a_cli_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Twenty-fifth session: CLIs' own password flags, a password piped to --password-stdin, and
        # a YAML value on the line after its name.
        (f"zip -P {RANDOM} backup.zip db.sql", "zip -r out.zip dir"),
        (f"7z a -p{RANDOM} backup.7z db.sql", "7z x backup.7z -o/tmp/out"),
        (f"mongosh --password {RANDOM} mongodb://db", "mongo --port 27017 -p"),
        (f"sqlcmd -S db -U sa -P {RANDOM}", "sqlcmd -S db -E -Q 'select 1'"),
        (f"ldapsearch -x -D cn=admin -w {RANDOM}", "ldapsearch -W -x"),
        (f"htpasswd -b .htpasswd admin {RANDOM}", "htpasswd -c .htpasswd admin"),
        (f"security add-generic-password -a me -s svc -w {RANDOM}", "security find-generic-password -s svc"),
        (f"smbclient -U admin%{RANDOM} //files/share", "smbclient -L //files -N"),
        (f"echo {RANDOM} | docker login --password-stdin", "echo $TOKEN | docker login --password-stdin"),
        (f"token:\n  {RANDOM}", "tokens:\n  total: 1234"),
        (f"db_password: |\n  {RANDOM}", "secret:\n  name: db-creds"),
    ],
)
def test_a_password_given_to_a_cli_flag_or_on_the_next_line_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Twenty-fifth session, third probe: a bare "key", a password changed "to" a value, one-time
        # password seeds and recovery codes, a Terraform variable's default.
        (f"the key was {RANDOM}", "idempotency key 3f2a1b4c-1234-4d5e-9f8a-0123456789ab"),
        (f"use key {RANDOM} to sign", "the key was pressed twice"),
        (f"admin password reset to {RANDOM}", "password reset to the default"),
        ("totp seed JBSWY3DPEHPK3PXP", "recovery codes are in 1Password"),
        ("recovery code a1b2-c3d4-e5f6", "key takeaway: tests_are_slow_on_ci_runners"),
        (
            f'variable "db_password" {{\n  type = string\n  default = "{RANDOM}"\n}}',
            'variable "region" { default = "eu-west-1" }',
        ),
    ],
)
def test_a_key_code_or_default_that_is_a_secret_is_redacted(text: str, kept: str) -> None:
    assert REDACTED in redact(text)
    assert RANDOM not in redact(text) and "JBSWY3DPEHPK3PXP" not in redact(text)
    assert redact(kept) == kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Twenty-sixth session: the rest of a value after its redacted start (cut by a blank, or
        # the next codes of a list), every recovery code of a list, keyring's ways of storing one.
        (
            f"aws_secret_access_key = {RANDOM[:21]} {RANDOM[21:]}",
            "DB_PASSWORD=[redacted] DB_HOST=db1 make test",
        ),
        (f"token: {RANDOM[:24]}  {RANDOM[24:]}.", "API_TOKEN=[redacted] python3 manage.py check"),
        ("recovery codes: 8f3k-2m9q, 7h4n-x2p8, q9w3-z7t1", "recovery codes 2 of 10 used"),
        ("backup codes 83920174 27364519 90817263", "backup codes generated on 2024-05-01"),
        ("the recovery codes are a1b2c3d4e5, f6g7h8i9j0", "backup codes were regenerated"),
        (
            f'keyring.set_password("pypi", "alice", "{RANDOM}")',
            "keyring.set_password(service, user, password)",
        ),
        (f"echo {RANDOM} | keyring set pypi alice", "echo $PW | keyring set pypi alice"),
        (f"echo 'deploy:{RANDOM}' | chpasswd", "echo done | tee log"),
    ],
)
def test_the_rest_of_a_secret_and_every_code_of_a_list_is_redacted(text: str, kept: str) -> None:
    redacted = redact(text)
    assert REDACTED in redacted
    pieces = (RANDOM[:21], RANDOM[21:], RANDOM[24:], "7h4n-x2p8", "q9w3-z7t1", "27364519", "f6g7h8i9j0")
    for piece in pieces:
        assert piece not in redacted, (piece, redacted)
    assert redact(kept) == kept
    assert redact(redacted) == redacted


@pytest.mark.parametrize(
    "text",
    [
        "the password [redacted] expired yesterday",
        "[redacted] UserService handled it",
        "[redacted] GITHUB_TOKEN was rotated",
        "[redacted] node18 python3 utf8 x86_64",
        "[redacted] --verbose --dry-run",
        "[redacted], v1.2.3, 2024-05-01, README",
        "[redacted] Summer2024 tickets",
        "[redacted] a1b2 deadbeef",
        "[redacted] a1b2c3d4@example.com",
        "[redacted] DB_HOST=db1",
    ],
)
def test_what_follows_a_redacted_value_stays_unless_it_is_a_piece_of_one(text: str) -> None:
    """A word, name, number, version, flag, assignment or address after ``[redacted]`` is kept."""
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        # A run's own marker around a secret, to pass it through (thirtieth session).
        f"password=[redacted]{RANDOM}",
        f"password={RANDOM}[redacted]",
        f"the key is [redacted]{RANDOM[:24]} and more",
        f'api_key: "[redacted]{RANDOM[:20]}"',
        f"DB_PASSWORD=[redacted]{RANDOM[:8]}#{RANDOM[8:20]}",
        f"token: {RANDOM[:10]}[redacted]{RANDOM[10:20]}",
    ],
)
def test_a_token_glued_to_a_marker_is_folded_into_it(text: str) -> None:
    """What sticks to ``[redacted]`` with no separator is the rest of the same token."""
    redacted = redact(text)
    for piece in (RANDOM[:8], RANDOM[8:20], RANDOM[10:20], RANDOM[20:]):
        assert piece not in redacted, (piece, redacted)
    assert REDACTED in redacted and redact(redacted) == redacted


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A value already redacted inside is judged by what is left around its markers: a DSN
        # (a secret as a whole) is taken whole, where its bare value, cut at the marker's ``]``,
        # left a stray bracket; a secret beside a marker takes the value; a name or a list stays.
        (f"SENTRY_DSN=https://{RANDOM[:32]}@o1.ingest.sentry.io/7", "SENTRY_DSN=[redacted]"),
        ("DSN=https://[redacted]@sentry.io/1", "DSN=[redacted]"),
        ("password=Summer2024[redacted]", "password=[redacted]"),
        (
            "tokens=[[redacted]], Set-Cookie: Token=[redacted]",
            "tokens=[[redacted]], Set-Cookie: Token=[redacted]",
        ),
        # Kept: a flag, a name, a user, a host, a port or a path next to a marker, and prose.
        ("mysql -uroot -p[redacted] db", "mysql -uroot -p[redacted] db"),
        ("AccountKey=[redacted];EndpointSuffix=core", "AccountKey=[redacted];EndpointSuffix=core"),
        ("postgres://admin:[redacted]@db:5432/app", "postgres://admin:[redacted]@db:5432/app"),
        ("https://hooks.slack.com/services/[redacted]", "https://hooks.slack.com/services/[redacted]"),
        ("the token [redacted]. Then [redacted]:8080", "the token [redacted]. Then [redacted]:8080"),
        # Thirty-first session: a token in a clone URL keeps the host after it (a user named for
        # auth took the marker and the host as one value).
        (
            "git clone https://oauth2:glpat-AbCdEfGhIjKlMnOpQrSt@gitlab.com/g/p.git",
            "git clone https://oauth2:[redacted]@gitlab.com/g/p.git",
        ),
        ("auth=[redacted]@Zm9vYmFyYmF6cXV4MTIzNDU2", "auth=[redacted]"),
    ],
)
def test_what_surrounds_a_marker_in_a_value(text: str, expected: str) -> None:
    """A marker's neighbours: a secret goes with the value, a name, user, host or flag stays."""
    assert redact(text) == expected
    assert redact(expected) == expected


def test_a_fragment_is_random_or_alternates_letters_and_digits() -> None:
    assert fragment("bPxRfiCYzz8EXAMPLEKEY") and fragment("8f3k-2m9q") and fragment("a1b2c3")
    assert not fragment("python3") and not fragment("node18") and not fragment("x86_64")
    assert not fragment("GITHUB_TOKEN") and not fragment("README") and not fragment("UserService")
    assert not fragment("--verbose") and not fragment("DB_HOST=db1") and not fragment("20240501")
    assert fragment("dGhpcyBpcyBhIHRlc3Qgb2Yg==") and not fragment("a1b2")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Twenty-sixth session, a red-team probe of 294 shapes: secrets in code, Markdown labels,
        # names spelled as identifiers in prose, and CLIs that store or take one; each with the
        # look-alike of code or prose that must stay.
        (
            f'r = requests.get(url, auth=("admin", "{RANDOM}"))',
            "r = requests.get(url, auth=(user, password))",
        ),
        (f'req.SetBasicAuth("admin", "{RANDOM}")', "server.login(user, password)"),
        (f"ftp.login('deploy', '{RANDOM}')", "ftp.login(user, passwd)"),
        (f'config.setPassword("{RANDOM}");', "config.setPassword(password);"),
        (f'builder().apiKey("{RANDOM}").build();', 'setToken("")'),
        (f"secret=SecretStr('{RANDOM}')", "secret = generate_secret()"),
        (f'app.config["SECRET_KEY"] = "{RANDOM}"', "os.environ['DB_PASSWORD'] = password"),
        (f"headers['X-Api-Key'] = '{RANDOM}'", "headers['X-Api-Key'] = apiKey"),
        (f"- **Password:** {RANDOM}", "- **Password:** see vault"),
        (f"**API key**: {RANDOM}", "**Token**: rotated weekly"),
        (f"The DB_PASSWORD is {RANDOM} for staging.", "The DB_PASSWORD is stored in vault."),
        (
            f"I set `STRIPE_SECRET_KEY` to `{RANDOM}` locally.",
            "Set DB_PASSWORD to the value from 1Password.",
        ),
        (f"with the password being {RANDOM} for now", "the password being reset"),
        (f"echo '{RANDOM}' | sudo -S apt-get install -y jq", "echo done | sudo -S true"),
        (f"echo {RANDOM} | gh secret set API_TOKEN", "gh secret set API_TOKEN < token.txt"),
        (
            f'aws ssm put-parameter --name /prod/db --value "{RANDOM}"',
            "aws ssm get-parameter --name /prod/db",
        ),
        (f"az keyvault secret set --vault-name kv --name Db --value '{RANDOM}'", "az keyvault secret list"),
        (f"oc login -u admin -p {RANDOM} https://api.ocp:6443", "oc login --web"),
        (f"sshpass -p{RANDOM} ssh deploy@host", "sshpass -e ssh deploy@host"),
        (f"redis-cli -h cache -a {RANDOM} ping", "redis-cli -h cache ping"),
        (f"redis-server --requirepass {RANDOM} --appendonly yes", "requirepass yes"),
        (f"Authorization: OAuth {RANDOM}", "authorization: denied because the role lacks permissions"),
        (
            f"Please use the following password to proceed to installation:\n\n{RANDOM}\n",
            "The password policy requires:\n  uppercase letters",
        ),
        (f"A temporary password is generated for root@localhost: {RANDOM}", "password: NotRequired[str]"),
        (f'curl -H "Authorization: Splunk {RANDOM}" https://x:8088', "Authorization: required for /admin"),
    ],
)
def test_a_secret_in_code_a_label_or_a_cli_that_stores_it_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept)


@pytest.mark.parametrize(
    "text",
    [
        "token = jwt.encode(payload, key)",
        "password = getpass.getpass()",
        'api_key = os.getenv("API_KEY")',
        "secret = generate_secret()",
        "http://keycloak:8080/realms/master",
        "monkey:8080 and keystone:5000",
    ],
)
def test_code_and_hosts_after_a_secret_like_name_stay(text: str) -> None:
    """A call or index where a value would stand, and a host's port, are no secrets (they were
    redacted before the twenty-sixth session: ``token = [redacted], key)``)."""
    assert redact(text) == text


_PASSWORD = "Tr0ub4dor&3xK"  # password-shaped, written for this test
_HTML = "Zx9vQ2mLp8Rt!"  # one with no sign HTML escapes
_GOSSIP = "pUqJrVyVRj5jsiYEkM/tFQYfWyJIv4s3XkvDwy7Cu5s="  # 32 random bytes in base64, made for this test


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        # Twenty-eighth session: the red team's leftovers of the twenty-sixth. SQL users' unquoted
        # passwords (Oracle), PostgreSQL roles' ...
        (
            f"CREATE USER app IDENTIFIED BY {_PASSWORD};",
            _PASSWORD,
            "grant access to users identified by their email",
        ),
        (
            f"alter user system identified by {_PASSWORD};",
            _PASSWORD,
            "create user accounts identified by email",
        ),
        (
            f"GRANT CONNECT TO scott IDENTIFIED BY {_PASSWORD}",
            _PASSWORD,
            "ALTER USER app IDENTIFIED BY :new_password",
        ),
        (
            f"CREATE ROLE app WITH LOGIN PASSWORD '{_PASSWORD}';",
            _PASSWORD,
            "ALTER ROLE app WITH PASSWORD NULL",
        ),
        # ... network devices' passwords, communities and shared keys (Cisco IOS) ...
        ("enable password 7 0822455D0A16", "0822455D0A16", "enable password authentication for admins"),
        (
            f"username admin privilege 15 secret 0 {_PASSWORD}",
            _PASSWORD,
            "username admin secret 0 <password>",
        ),
        (f"snmp-server community {_PASSWORD} RO", _PASSWORD, "snmp-server community strings are rotated"),
        (f"tacacs-server key 7 {_PASSWORD}", _PASSWORD, "tacacs-server key rotation is monthly"),
        (f"key chain ospf\n key 1\n  key-string {_PASSWORD}", _PASSWORD, "key 7 days of retention"),
        (f"crypto isakmp key {_PASSWORD} address 10.0.0.1", _PASSWORD, "crypto isakmp key rotation policy"),
        # ... Wi-Fi and IPsec pre-shared keys, gossip keys ...
        (f'network={{\n  ssid="office"\n  psk="{_PASSWORD}"\n}}', _PASSWORD, 'psk="${WIFI_PSK}"'),
        (f'10.0.0.1 10.0.0.2 : PSK "{_PASSWORD}"', _PASSWORD, "the psk is stored in vault"),
        (f'encrypt = "{_GOSSIP}"', _GOSSIP, '"encrypt": "aes256-gcm"'),
        (f"consul agent -encrypt={_GOSSIP}", _GOSSIP, "consul keygen > gossip.key"),
        # ... Markdown tables whose header names the secret ...
        (
            f"| user | password | role |\n|------|----------|------|\n| admin | {_PASSWORD} | owner |",
            _PASSWORD,
            "| Name | Secret | Description |\n|---|---|---|\n| DB_PASSWORD | yes | the database password |",
        ),
        (
            f"| Service | API key |\n| :-- | --: |\n| billing | {RANDOM} |",
            RANDOM,
            "| env | token |\n|:--|--:|\n| prod | stored in Vault at secret/prod/api |",
        ),
        # ... and HTML's character references around a name and its value.
        (f"&lt;password&gt;{_HTML}&lt;/password&gt;", _HTML, "AT&amp;T uses &lt;b&gt;bold&lt;/b&gt;"),
        (
            f"&lt;add key=&quot;ApiSecret&quot; value=&quot;{_HTML}&quot;/&gt;",
            _HTML,
            "&lt;add key=&quot;Theme&quot; value=&quot;dark&quot;/&gt;",
        ),
    ],
)
def test_a_secret_in_a_service_config_a_table_or_html_is_redacted(text: str, secret: str, kept: str) -> None:
    out = redact(text)
    assert secret not in out and REDACTED in out, out
    assert redact(kept) == kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-first session, a third probe: a literal split to pass a scanner (the rest after
        # its redacted start), a table of names and values, the word in other languages, an arrow,
        # a clause between the noun and its value.
        (f'export TOKEN="{RANDOM[:10]}""{RANDOM[10:]}"', 'TOKEN="[redacted]" + suffix'),
        (f'password = "{RANDOM[:10]}" + "{RANDOM[10:]}"', 'x = "[redacted]" + "hello world"'),
        (f"TOKEN={RANDOM[:10]}${{EMPTY}}{RANDOM[10:]}", "TOKEN=${GITHUB_TOKEN}"),
        (
            f"| Variable | Value |\n|---|---|\n| DB_HOST | db1 |\n| DB_PASSWORD | {RANDOM} |",
            "| GITHUB_TOKEN | ${{ secrets.GITHUB_TOKEN }} |",
        ),
        (f"| **api key** | `{RANDOM}` |", "| token | type |"),
        (f"пароль: {RANDOM}", "пароль: сменить"),
        (f"contraseña: {RANDOM}", "contraseña: ver vault"),
        (f"パスワード：{RANDOM}", "パスワード：なし"),
        (f"password → {RANDOM}", "password → see vault"),
        (f"The password, which is {RANDOM}, expires tomorrow", "The password, which is required, expires"),
    ],
)
def test_a_split_tabulated_or_translated_secret_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept, (RANDOM[:10], RANDOM[10:]))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-first session, a sixth probe (25 sentences an agent writes about a secret).
        (f"logged in as root with {RANDOM}", "logged in as admin with SSO"),
        (f"the API key ({RANDOM}) was rejected", "the API key (see vault) was rejected"),
        (f"API key:\n\n{RANDOM}", "API key:\n\nstored in vault"),
        (f"rotated token -> {RANDOM}", "token -> expires_at"),
        (
            f"password was changed from {RANDOM[:12]} to {RANDOM[12:]}x9",
            "moved the token from localStorage to cookies",
        ),
    ],
)
def test_a_secret_in_a_sentence_about_it_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept, (RANDOM[:12],))
