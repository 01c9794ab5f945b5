"""Secrets on command lines, in code and in CI output, each with a look-alike that must stay.

The thirty-first session's probes: a value written to a command's standard input, a literal after a
declaration's type, provider tokens and logins that name the password by position, the operators
code sets a default with, CI's workflow commands, names a platform sets for a secret, and a
keyword argument passed on (no secret). The value planted is :data:`tests.memory.planted_secret.RANDOM`.
"""

from __future__ import annotations

import base64
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osmia.memory.prompt import cleaned_for_prompt
from osmia.memory.redaction import redact
from osmia.memory.sanitize import stored_text
from tests.memory.planted_secret import RANDOM, redacted_and_kept

_ENCODED = base64.b64encode(RANDOM.encode()).decode()


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-first session: a value piped, printed or here-string fed to a command that reads a
        # secret on its standard input (a token login, a password login, a Secret's value decoded).
        (f"gh auth login --with-token <<< {RANDOM}", "gh auth login --with-token < token.txt"),
        (
            f"printf '%s' {RANDOM} | docker login -u ci --password-stdin",
            "printf '%s' \"$PW\" | docker login --password-stdin",
        ),
        (f"echo -n {RANDOM} | gh auth login --with-token", "echo -n done | tee log"),
        (f"echo {_ENCODED} | base64 -d", "echo $SECRET | base64 -d"),
        (f"base64 --decode <<< '{_ENCODED}'", 'base64 --decode <<< "$DATA"'),
        # A name and its value in a URL's query, percent-encoded once more (one escape).
        (f"redirect to /login?next=password%3D{RANDOM}", "search?q=password%20reset"),
    ],
)
def test_a_value_written_to_a_command_that_reads_a_secret_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept, (RANDOM[:12], _ENCODED[:12]))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-first session: a literal after a declaration's type (the type was taken for the value
        # and the literal kept), in the languages agents write; the type stays, and so does code.
        (f'let token: &str = "{RANDOM}";', "let token: &str = &args[1];"),
        (
            f'const apiKey: string | undefined = "{RANDOM}";',
            "const apiKey: string | undefined = process.env.KEY;",
        ),
        (f'password: Final[str] = "{RANDOM}"', "cookie_jar: AbstractCookieJar | None = None,"),
        (
            f'let secret: String = String::from("{RANDOM}");',
            'token: StrictStr = Field(description="the token")',
        ),
        (f'static API_KEY: &\'static str = "{RANDOM}";', "signature: UniqueIdentifier | str = not_set,"),
        # A user and password after Jenkins CLI's -auth; MinIO's access and secret keys.
        (
            f"java -jar jenkins-cli.jar -s http://ci/ -auth admin:{RANDOM} build deploy",
            "node app --auth=basic",
        ),
        (
            f"mc alias set store http://minio:9000 admin {RANDOM}",
            "mc alias set store http://minio:9000 $AK $SK",
        ),
    ],
)
def test_a_typed_declaration_and_a_cli_login_give_their_secret_not_their_type(text: str, kept: str) -> None:
    redacted_and_kept(text, kept, (RANDOM[:12],))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-first session, a fourth probe (56 providers and logins): formats with a prefix of
        # their own, and logins that name the password by position.
        ("pat-na1-70d9106f-d287-4b7f-9adb-c60926f6967e", "pat-na1 region"),
        ("bkua_9988b886e7577496a2c8773e130f7eb19731662b", "bkua_ prefix"),
        (f"y0_{RANDOM}{RANDOM}", "y0_value = 3"),
        ("sdk-18d89620-5876-4a6c-a7cf-f00d796c2541", "sdk-version 1.2"),
        (f"net user deploy {RANDOM} /add", "net user deploy /delete"),
        (f"sqlplus scott/{RANDOM}@orcl", "sqlplus / as sysdba"),
        (
            f'ConvertTo-SecureString "{RANDOM}" -AsPlainText -Force',
            "ConvertTo-SecureString $pw -AsPlainText -Force",
        ),
        (f"127.0.0.1:6379> AUTH {RANDOM}", "NOAUTH Authentication required."),
        (f"rabbitmqctl add_user deploy {RANDOM}", "rabbitmqctl add_user deploy $PW"),
        (f"unzip -P {RANDOM} backup.zip", "unzip -o backup.zip"),
        (f"openssl passwd -6 {RANDOM}", "openssl passwd -stdin"),
        (
            f'DriverManager.getConnection("jdbc:postgresql://db/app", "app", "{RANDOM}")',
            "DriverManager.getConnection(url, user, password)",
        ),
    ],
)
def test_a_provider_token_or_a_login_by_position_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept, (RANDOM[:12],))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-first session, a fifth probe (47 shapes of configs, code and CI logs): the
        # operators code writes defaults with, a plan's new value, a TOML string, CI's workflow
        # commands, a default given by keyword; each with a look-alike of code that stays.
        (f'  ~ password = "old-{RANDOM[:5]}" -> "{RANDOM}"', "const token = await getToken();"),
        (f'password = """{RANDOM}"""', 'TEMPLATE_PASS: Final = """  <testcase name="x">'),
        (f"ENV['API_TOKEN'] ||= '{RANDOM}'", "password ||= prompt()"),
        (f"process.env.API_TOKEN ??= '{RANDOM}'", "token ??= await fetchToken()"),
        (f"API_KEY=${{API_KEY:-{RANDOM}}}", "TOKEN=${TOKEN:-changeme}"),
        (f"TOKEN ?= {RANDOM}", "token_count ?= 3"),
        (f'echo "::add-mask::{RANDOM}"', 'echo "::add-mask::$TOKEN"'),
        (f'echo "::set-output name=deploy_token::{RANDOM}"', 'echo "::set-output name=version::1.2.3"'),
        (f"SECRET_KEY = env('SECRET_KEY', default='{RANDOM}')", "DEBUG = env('DEBUG', default='false')"),
        (f"* API key → `{RANDOM}`", "* key → value"),
    ],
)
def test_a_default_a_new_value_or_a_masked_value_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept, (RANDOM[:12],))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-first session, a seventh probe (38 variable names a platform sets): names ending in
        # _PW, a pepper, an access code; a value that is the name itself is a keyword argument
        # passed on, a language tag is no password.
        (f"LDAP_BIND_PW={RANDOM}", "client_secret=client_secret,"),
        (f"DB_PW={RANDOM}", "'und-PW': 'pau-Latn-PW',"),
        (f"PEPPER={RANDOM}", "refresh_token = refresh_token or self.refresh_token"),
        (f"ACCESS_CODE={RANDOM}", "ACCESS_CODE_LENGTH=6"),
    ],
)
def test_a_variable_named_for_a_secret_is_redacted_and_a_passed_on_argument_is_not(
    text: str, kept: str
) -> None:
    redacted_and_kept(text, kept)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-second session, a probe of 105 shapes (configs, package and cloud CLIs, URLs,
        # headers, prose): the CLIs that take a token or a password as an argument of their own,
        # a secret piped to one more reader, and provider formats with a prefix of their own.
        (f"cargo login {RANDOM}", "cargo login --registry my-registry"),
        (f"snyk auth {RANDOM}", "snyk auth"),
        (f"poetry config pypi-token.pypi {RANDOM}", "poetry config virtualenvs.in-project true"),
        (
            f"composer config --global http-basic.repo.example.com deploy {RANDOM}",
            "composer config --global http-basic.repo.example.com deploy $PASSWORD",
        ),
        (f"rclone config create s3 s3 secret_access_key {RANDOM}", "rclone config create s3 s3 provider AWS"),
        (f"sonar-scanner -Dsonar.login={RANDOM}", "sonar-scanner -Dsonar.projectKey=payments-api"),
        (
            f"circleci context store-secret org ctx NPM_TOKEN <<< {RANDOM}",
            "circleci context list github org",
        ),
        (f"AKID{RANDOM[:32]}", "AKID is the prefix of a Tencent key"),
        ("api-18d89620-5876-4a6c-a7cf-f00d796c2541", "api-gateway-v2"),
        (f"ops_eyJ{RANDOM}-{RANDOM}_{RANDOM}", "ops_eyJ prefix"),
        (f"HRKU-{RANDOM}{RANDOM[:12]}", "HRKU- prefix"),
        # A second probe (89 shapes of code, env files and prose): a cloud SDK's static credentials
        # with the key id in a variable, a value given first and named after, Go's MySQL DSN.
        (f'new BasicAWSCredentials(accessKey, "{RANDOM}")', "new BasicAWSCredentials(accessKey, secretKey)"),
        (f"Use `{RANDOM}` as the API token for staging.", "Use `make test` as the check before pushing."),
        (f"root:{RANDOM}@tcp(db:3306)/app", 'fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, db)'),
        # A third (63 shapes of manifests, logs, request bodies, tool CLIs, mobile signing): a
        # password flag of more database and queue CLIs, a secret-named call without parentheses,
        # "pass is" before a password.
        (f"cqlsh -u cassandra -p {RANDOM} db", "cqlsh -u cassandra -p $CQL_PASSWORD db"),
        (f'keyPassword "{RANDOM}"', 'keyPassword System.getenv("KEY_PASSWORD")'),
        (f"the keystore pass is {RANDOM}", "the second pass is complete"),
    ],
)
def test_a_cli_argument_or_a_prefixed_provider_token_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept, (RANDOM[:12],))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-third session, a probe of 85 shapes (configs, CLIs, prose, code in six languages,
        # headers): a token given to ``vault login``, an RDP client's password, "password's", a
        # user and a password joined by "and", a signing key given to a JWT or HMAC call, and a
        # secret pair inside a quoted value whose own name is a secret's (the outer match took it).
        (f"vault login {RANDOM}", "vault login -method=oidc role=dev"),
        (f"xfreerdp /u:admin /p:{RANDOM} /v:host", "xfreerdp /u:admin /p:%PASSWORD% /v:host"),
        (f"my password's {RANDOM}", "the password's length matters"),
        (f"login with admin and {RANDOM}", "login with github and restart the pod"),
        (f'jwt.encode(payload, "{RANDOM}", algorithm="HS256")', 'jwt.encode(payload, key, "HS256")'),
        (f'sig = hmac.new(b"{RANDOM}", msg, hashlib.sha256)', "sig = hmac.new(key, msg, hashlib.sha256)"),
        (f"crypto.createHmac('sha256', '{RANDOM}')", "crypto.createHmac('sha256', 'a secret')"),
        (f'mac := hmac.New(sha256.New, []byte("{RANDOM}"))', "mac := hmac.New(sha256.New, key)"),
        (
            f"""export DOCKER_AUTH_CONFIG='{{"auths":{{"r":{{"auth":"{RANDOM}"}}}}}}'""",
            """export DOCKER_AUTH_CONFIG='{"auths":{"r":{"auth":"$AUTH"}}}'""",
        ),
        # A client of an API given a generated literal; a URL, a UUID or a name stays.
        (
            f'let client = Client::new("{RANDOM}");',
            'client = ApiClient("3f2b8c9e-1d4a-4b6f-9e2a-7c8d9e0f1a2b")',
        ),
        (f'c = SdkClient.create("{RANDOM}")', 'client = HttpClient("my-service-name-for-tests")'),
        # Thirty-fourth session: a URL given as curl's or az's user is a user, not a user and a
        # password; a directory bind's password after the bound name, whatever that is.
        (f"openssl enc -aes-128-cbc -K {RANDOM} -in f", "az login --service-principal -u http://app"),
        (f'ldap.simple_bind_s(dn, "{RANDOM}")', "ldap.simple_bind_s(dn, password)"),
        (f'env.put(Context.SECURITY_CREDENTIALS, "{RANDOM}");', "env.put(Context.SECURITY_CREDENTIALS, pw);"),
        # ... a URL's password holding an '@', raw or escaped (the last '@' before the host ends it) ...
        (f"https://admin:p%40{RANDOM}@host/x", "git@github.com:o/r.git and mailto:z@example.com"),
        (f"https://user:p@ss{RANDOM}@host/x", "https://example.com/a@b/c"),
        # ... and Oracle's user/password@database.
        (f"jdbc:oracle:thin:scott/{RANDOM}@//db:1521/ORCL", "jdbc:oracle:thin:@//db:1521/ORCL"),
        (f"sqlplus -s app/{RANDOM}@PROD @run.sql", "sqlplus / as sysdba"),
    ],
)
def test_a_signing_key_or_a_login_argument_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept)


def test_an_openssl_passphrase_argument_is_redacted() -> None:
    """``openssl enc -k`` takes a passphrase, which need not look random to be one."""
    redacted_and_kept(
        "openssl enc -aes-256-cbc -k S3cr3tPassw0rd -in plan.txt", "openssl req -key key.pem", ("S3cr3t",)
    )


_MARKUP = ("<i>", "</i>", "<b></b>", "<!-- -->", "\u200b", "\ufeff", "\u202e")
_NAMED = (
    "export GITHUB_TOKEN={}",
    "password={}",
    "aws_secret_access_key = {}",
    "mysql -u root -p{}",
    "the password is {}",
    "--token {}",
)


@settings(max_examples=int(os.environ.get("OSMIA_FUZZ_EXAMPLES", "300")), deadline=None)
@given(
    st.sampled_from(_NAMED),
    st.lists(st.tuples(st.integers(min_value=0, max_value=60), st.sampled_from(_MARKUP)), max_size=3),
)
def test_markup_inside_a_secret_does_not_leave_part_of_it_shown(
    shape: str, inserts: list[tuple[int, str]]
) -> None:
    """Tags, comments and invisible characters anywhere (in the name, in the value) are dropped
    before redaction reads the field, as cleaning drops them after: no run of the secret is shown."""
    text = shape.format(RANDOM[:24])
    for at, piece in sorted(inserts, reverse=True):
        text = text[: min(at, len(text))] + piece + text[min(at, len(text)) :]
    shown = cleaned_for_prompt(stored_text(text))
    assert all(RANDOM[i : i + 8] not in shown for i in range(17)), (text, shown)


def test_a_tag_inside_a_token_is_dropped_before_it_is_redacted() -> None:
    shown = stored_text(f"export GITHUB_TOKEN={RANDOM[:4]}<i>{RANDOM[4:12]}</i>{RANDOM[12:24]}")
    assert shown == "export GITHUB_TOKEN=[redacted]"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-fourth session: a password said to be one in prose in the languages whose labels
        # were redacted already ("пароль: …"); a state of the password is kept.
        ("das Passwort ist Xk9mQ2vR7tL4pW8z", "das Passwort ist abgelaufen"),
        ("la contraseña es Xk9mQ2vR7tL4pW8z", "la contraseña es incorrecta"),
        ("le mot de passe est Xk9mQ2vR7tL4pW8z", "le mot de passe est expiré depuis hier"),
        ("het wachtwoord is Xk9mQ2vR7tL4pW8z", "het wachtwoord is te kort"),
        ("密码是Xk9mQ2vR7tL4pW8z。", "密码是 必填项"),
        ("パスワードは Xk9mQ2vR7tL4pW8z", "パスワードは 8文字以上"),
    ],
)
def test_a_password_said_in_another_language_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(text, kept, ("Xk9mQ2vR",))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Thirty-fifth session: a probe of 315 secret lines written before the rules were read.
        # Words between the noun and its verb or colon, another verb, a key in another language.
        (
            "La contraseña de la base de datos es Xk9mQ2vR7tL4%6.P",
            "La contraseña de la base de datos es incorrecta",
        ),
        ("Das Passwort für den Staging-Server lautet Xk9mQ2vR7tL4#4.J", "Das Passwort lautet wie immer"),
        ("пароль от БД: Xk9mQ2vR7tL4%9-X", "пароль от БД: в хранилище"),
        ("Der API-Schlüssel lautet Xk9mQ2vR7tL4pW8zEYffelGBgV0K1Hqx", "Der API-Schlüssel lautet wie im Wiki"),
        ("La clave de API es Xk9mQ2vR7tL4pW8zEYffelGBgV0K1Hqx", "La clave de API es obligatoria"),
        ("API-ключ: Xk9mQ2vR7tL4pW8zEYffelGBgV0K1Hqx", "API-ключ: в настройках проекта"),
        # Provider formats with no name in front of them.
        (
            "ngrok config add-authtoken 2QOnc3ryOqEysBnjbapOHkEzGze_Xk9mQ2vR7tL4pW8z",
            "ngrok config add-authtoken $NGROK_TOKEN",
        ),
        (
            "Azure DevOps PAT for the pipeline: qfimvx2nnikoerrmqr453egbvjfnvrqc3presnt2kmkdi64flgle",
            "PAT: see the vault",
        ),
        (
            "braintree access_token$production$kpqk8q4x7mjwrkub$c345049c4e5b44696e74fa67fe0669f1",
            "braintree access_token",
        ),
        ("Datadog: 5fe07c17f4bc839d3491a00b21ae2dfe", "Datadog: the monitor is muted"),
        ("GET /weather?q=Berlin&appid=Xk9mQ2vR7tL4pW8z5d054f2b", "GET /weather?q=Berlin&units=metric"),
        ("Fernet(b'Xk9mQ2vR7tL4pW8zAazRcjdt5rj5ZT9QkmFRagFk9Rd=')", "Fernet(key) wraps the token"),
        (
            "seed phrase: absent abuse addict access warfare absent acquire access abstract absurd action"
            " actress",
            "The seed phrase is never stored in the repository",
        ),
        (
            '"private_key_id": "796df91dfce0a7d2dcd91441995039bf33fa4b18"',
            '"client_email": "ci@acme.iam.gserviceaccount.com"',
        ),
        # Code and commands.
        (
            'new NetworkCredential("svc", "Xk9mQ2vR7tL4!0_E", "ACME")',
            'new NetworkCredential(user, password, "ACME")',
        ),
        (r"net use \\fs01\share /user:ACME\bob Xk9mQ2vR7tL4!5-Z", r"net use Z: \\fs01\share /persistent:yes"),
        (
            r"net use Z: \\fs01\share Xk9mQ2vR7tL4!5-Z /user:ACME\bob",
            r"net use Z: \\fs01\share /user:ACME\bob",
        ),
        ("spring.datasource.password=${DB_PASSWORD:Xk9mQ2vR7tL4*7-F}", "server.port=${PORT:8080}"),
        ('<input type="password" name="pw" value="Xk9mQ2vR7tL4^3.I">', '<input type="password" name="pw">'),
        ('<input value="Xk9mQ2vR7tL4^3.I" type="password">', '<input value="Search" type="text">'),
    ],
)
def test_a_secret_without_a_name_of_its_own_is_redacted(text: str, kept: str) -> None:
    redacted_and_kept(
        text,
        kept,
        ("Xk9mQ2vR", "qfimvx2nnik", "c345049c4e5b", "5fe07c17f4bc", "796df91dfce0", "abuse addict"),
    )


@pytest.mark.parametrize(
    "text",
    [
        # The name of a secret, not its value: an ARN of the secrets service, a variable's name, a
        # Helm chart's existing Secret, a YAML tag that says where the value is.
        "The secret arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/payments/db-AbCdEf holds it.",
        "Renamed the env var from SECRET_KEY to DJANGO_SECRET_KEY and updated the chart values.",
        "The secret name in AWS is arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf.",
        "Stored in secretsmanager: us-east-1:123456789012:secret:prod/db-AbCdEf",
        "The token lives at arn:aws-cn:secretsmanager:cn-north-1:123456789012:secret:ci/npm-Zx81Qw.",
        "Set the api key to STRIPE_RESTRICTED_KEY in the chart",
        "helm upgrade pg bitnami/postgresql --set auth.existingSecret=pg-auth",
        "existingSecret: pg-auth",
        "password: !vault |",
        "DbPassword: !Ref DatabasePasswordParameter",
    ],
)
def test_a_name_or_a_reference_of_a_secret_is_kept(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        # A passphrase is words: joined words after its label are its value; a state is not.
        (
            "the backup encryption passphrase is marble-cactus-violin-harbor",
            "marble-cactus",
            "the backup passphrase is read-only",
        ),
        ("passphrase: correct.horse.battery.staple", "correct.horse", "passphrase: see the vault"),
        # A PIN's digits after its label; a length is no PIN.
        ("the YubiHSM admin PIN is 22809611", "22809611", "the PIN is 6 digits"),
        ("PIN: 4821 for the staging HSM", "4821", "the PIN length is 4"),
        # A bare value with a closing bracket inside it, followed by more of it.
        ("SECRET_KEY=Ew#CftyNd)IvjE=f#ZqJBw#h(7)*VF5m9TXk", "IvjE=f#ZqJBw", "def f(token=None):"),
    ],
)
def test_a_value_by_its_label_is_redacted_and_its_look_alike_kept(text: str, secret: str, kept: str) -> None:
    assert secret not in redact(text)
    assert redact(kept) == kept


@pytest.mark.parametrize(
    "text",
    [
        # Values written to be replaced, and a URL's rest after a colon that ends a header's text.
        "API_KEY=your-api-key-here is the placeholder in .env.example",
        "DB_PASSWORD=your_password_here",
        "password: changeme",
        "docs example: curl -H 'Authorization: Bearer <your-token>' https://api.acme.io/v1/me",
    ],
)
def test_a_value_to_fill_in_is_kept(text: str) -> None:
    assert redact(text) == text
