"""Thirty-eighth session: secrets assembled at run time (interpolated, formatted, concatenated, listed
in pieces), passwords named after their value, account pairs, session cookies, keys in URL
fragments, HTTPie's auth, one-time-password seeds in library calls; look-alikes kept.

Every case is written here for its form (none is a line of the session's blind set).
"""

from __future__ import annotations

import pytest

from osmia.memory.sanitize import redacted
from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret that must not survive)
SECRETS = [
    # A literal interpolated into a string: judged as the string the program builds, or random itself.
    ("url = f\"https://deploy:{'Xq7pL2mN9vR4tW8z'}@git.example.org/repo.git\"", "Xq7pL2mN9vR4tW8z"),
    ('headers = {"X-Api-Key": f"{\'a8F3kL9qZ2xW7vB1nM4pR6tY0uE5sD3c\'}"}', "a8F3kL9qZ2xW7vB1"),
    ('const auth = `Bearer ${"tk_9fK2mQ7xL4pN8vR3wZ6bC1dF5gH0jY"}`;', "tk_9fK2mQ7xL4pN8"),
    ('val conn = "jdbc:postgresql://db/app?user=app&password=${"Hx8!pQ2zLm4v"}"', "Hx8!pQ2zLm4v"),
    ("conn = \"postgres://app:#{'Kp9xQ2mZ7vLw'}@db/app\"", "Kp9xQ2mZ7vLw"),
    (
        "fetch(`https://api.example.com/v2?city=${c}&appid=${'4b8e2f9a1c7d3e6f0a5b9c2d8e1f4a7b'}`)",
        "4b8e2f9a1c7d3e6f",
    ),
    # Arguments filled into a format.
    ('token := fmt.Sprintf("%s%s", "ghp_aB3dE5fG7hJ9kL1mN3pQ", "5rS7tU9vW1xY3z")', "5rS7tU9vW1xY3z"),
    ('auth := fmt.Sprintf("Basic %s", "dXNlcjpwYXNzd29yZDEyMw==")', "dXNlcjpwYXNzd29yZDEyMw=="),
    ('dsn := fmt.Sprintf("postgres://%s:%s@%s/db", "app", "Zx9!kQ2mPv7L", host)', "Zx9!kQ2mPv7L"),
    ('url = "https://%s:%s@db.example.com" % ("admin", "Zx9!kQ2mPv7L")', "Zx9!kQ2mPv7L"),
    ('h = "Bearer {}".format("Qw7Er8Ty9Ui0Op1As2Df3Gh4Jk5Lz")', "Qw7Er8Ty9Ui0Op1As2Df3Gh4Jk5Lz"),
    ('String auth = String.format("Bearer %s", "Qw7Er8Ty9Ui0Op1As2Df3Gh4Jk5Lz");', "Qw7Er8Ty9Ui0Op1"),
    ('req.Header.Set("X-Key", fmt.Sprintf("%s", "Tq3Wz8Lm2Xv9Kp4Rn7Bc1Yd6"))', "Tq3Wz8Lm2Xv9Kp4Rn7Bc1Yd6"),
    # Literals concatenated: a scheme and its token, over lines, after a backslash.
    ('headers["Authorization"] = "Bearer " + "Qw7Er8Ty9Ui0Op1As2Df3Gh4Jk5Lz"', "Qw7Er8Ty9Ui0Op1"),
    ('TOKEN = (\n    "ghp_aB3dE5fG7hJ9kL1"\n    "mN3pQ5rS7tU9vW1xY3z"\n)', "mN3pQ5rS7tU9vW1xY3z"),
    ('token = "ghp_aB3dE5fG7hJ9kL1" \\\n        "mN3pQ5rS7tU9vW1xY3z"', "ghp_aB3dE5fG7hJ9kL1"),
    # A token in pieces: a secret-named list, a YAML list, a list joined by the empty string, a slice.
    ('API_KEY_PARTS = ["a8F3kL9q", "Z2xW7vB1", "nM4pR6tY"]', "Z2xW7vB1"),
    ("api_key_chunks:\n  - dGk3LqP9xW2m\n  - Vb7Nc4Rt8Yz1\n  - Hs5Jf2Kd6Qw0", "Vb7Nc4Rt8Yz1"),
    ('const t = ["ghp_", "aB3dE5fG7hJ9kL1mN3pQ", "5rS7tU9vW1xY3z"].join("");', "aB3dE5fG7hJ9kL1mN3pQ"),
    (
        't := strings.Join([]string{"xoxb-", "118273645500-4455667788990-", "Qw7Er8Ty9Ui0Op1As2Df3Gh4"}, "")',
        "Qw7Er8Ty",
    ),
    ('parts = ["ghp_", "aB3dE5fG7hJ9kL1mN3pQ", "5rS7tU9vW1xY3z"]', "aB3dE5fG7hJ9kL1mN3pQ"),
    ('String[] secretParts = new String[] {"Vb7Nc4Rt8Yz1", "Hs5Jf2Kd6Qw0"};', "Hs5Jf2Kd6Qw0"),
    # A password named after its value, or after a pause.
    ("Zk7#pQ2!vLm9 is the root password on the bastion host.", "Zk7#pQ2!vLm9"),
    ("Zk7#pQ2!vLm9, which is the staging DB password, expires Friday.", "Zk7#pQ2!vLm9"),
    ("Use Zk7#pQ2!vLm9 for the root password on the bastion.", "Zk7#pQ2!vLm9"),
    ("after the rotation Hq4$mW8zLp2x (our new VPN password) works again", "Hq4$mW8zLp2x"),
    ("Enter the 'maple+river+stone+8841' passphrase when gpg asks.", "maple+river+stone+8841"),
    ("gpg asks for the passphrase: it's otter_lantern_basil_9921.", "otter_lantern_basil_9921"),
    # An account and its password, no word before them; in Markdown's code marks.
    ("the broker accepts guest / Rb8!xQ2#mLz7 since the upgrade", "Rb8!xQ2#mLz7"),
    ("Dev login: `admin` / `Pq7-xW!2zLm9`", "Pq7-xW!2zLm9"),
    ("ops@example.org / Tn5@vK9!pQ2w works for the portal", "Tn5@vK9!pQ2w"),
    # Session cookies of any framework.
    ("Set-Cookie: laravel_session=eyL0kP9mQ2xZ7vR4tW8nB3cF6hJ1dS5a; path=/; HttpOnly", "eyL0kP9mQ2xZ7vR4"),
    (
        "Cookie: _gitlab_session=4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c; "
        "ASP.NET_SessionId=k3j9x8q7w2m5n4b6v1c0z9a8",
        "k3j9x8q7",
    ),
    (
        "curl -b '__Secure-next-auth.session-token=Qm9pZ2xX2kV7tR4wP8nL3zB6' https://app.example.com",
        "Qm9pZ2xX2kV7",
    ),
    # Keys in a URL's fragment.
    ("https://send.bitwarden.com/#Zx8kQ2mPv7LwR4tY9nB3cF/Pq7Lm2Xz9Wv4Kt8Rn3Bc6Y", "Pq7Lm2Xz9Wv4Kt8Rn3Bc6Y"),
    ("grab it from https://mega.nz/file/aB3dE5fG#Qw7Er8Ty9Ui0Op1As2Df3Gh4Jk5Lz6Xc today", "Qw7Er8Ty9Ui0Op1"),
    ("https://paste.example.net/?a1b2c3d4e5f6#9xKpQ2mZ7vLwR4tY8nB3cF6hJ1dS", "9xKpQ2mZ7vLwR4tY"),
    ("https://app.example.com/cb#state=x&id_token=Hk8pQ2mZ7vLwR4tY9nB3cF6h", "Hk8pQ2mZ7vLwR4tY9nB3cF6h"),
    # HTTPie's, xh's and Apache Bench's auth.
    ("http -a ops:Zk7pQ2vLm9xW https://api.example.com/health", "Zk7pQ2vLm9xW"),
    ("xh --auth=alice:Pa55w0rd!x POST https://api.example.com/items", "Pa55w0rd!x"),
    ("ab -n 100 -A admin:Qr8!zLp2mX http://localhost/", "Qr8!zLp2mX"),
    # A one-time-password seed given to a library's call.
    ('ROTP::TOTP.new("JBSWY3DPEHPK3PXP")', "JBSWY3DPEHPK3PXP"),
    ('code, _ := totp.GenerateCode("NB2W45DFOIZA4ZLYMFWXA3DF", time.Now())', "NB2W45DFOIZA4ZLY"),
    # Windows' setx with a switch before the name, and the switches that take a password.
    ('setx /M DB_PASSWORD "Pa55w0rd!x"', "Pa55w0rd!x"),
    ("cmdkey /add:fileserver /user:CORP\\svc /pass:Wq9!xL2pZr", "Wq9!xL2pZr"),
    ("schtasks /create /tn backup /tr backup.cmd /ru CORP\\svc /rp Wq9!xL2pZr", "Wq9!xL2pZr"),
    ('reg add "HKLM\\SOFTWARE\\Winlogon" /v DefaultPassword /t REG_SZ /d Wq9!xL2pZr /f', "Wq9!xL2pZr"),
    # Random pieces joined with no name, appended to a builder, concatenated by a method.
    ('client = new Client("a8F3kL9q" + "Z2xW7vB1" + "nM4pR6tY");', "Z2xW7vB1"),
    (
        'new StringBuilder().append("ghp_").append("aB3dE5fG7hJ9kL1mN3pQ").append("5rS7tU9vW1xY3z")',
        "5rS7tU9v",
    ),
    ('const k = "Qw7Er8Ty9U".concat("i0Op1As2Df3Gh4");', "i0Op1As2Df3Gh4"),
    # A secret parameter after a route in the fragment; a TOTP seed in another library.
    ("https://app.example.com/#/reset?token=Hk8pQ2mZ7vLwR4tY9nB3cF6h", "Hk8pQ2mZ7vLwR4tY"),
    ('otp := gotp.NewDefaultTOTP("4S62BZNFXXSZLCRO").Now()', "4S62BZNFXXSZLCRO"),
]

# Honest text that looks like the kinds above: kept as written.
KEPT = [
    # Interpolation and formatting of ordinary literals.
    "print(f\"{'-' * 40}\")",
    "logger.info(f\"{'user':>12} {'count':>6}\")",
    "label = f\"{'enabled' if flag else 'disabled'}\"",
    "token_types={'Bearer': self.bearer}",
    'const msg = `Hello ${"world"} and ${name}`;',
    "const url = `${base}/api/v1/users/${id}`;",
    "puts \"Deploying #{'v1.2.3'} to #{env}\"",
    'fmt.Sprintf("%s-%s", "release", "2024-06-01")',
    'fmt.Printf("%s: %d\\n", "count", 3)',
    'fmt.Sprintf("sha256:%s", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")',
    'id := fmt.Sprintf("%s/%s", "projects", "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b")',
    '"{} {}".format("Hello", "World")',
    '"%s of %s" % ("page", "total")',
    'log.Printf("user %s logged in from %s", "alice", "10.0.0.1")',
    # Concatenation and lists of words, names, versions, colours, hashes.
    'msg = "Hello, " + "world and friends"',
    '"first line"\n"second line"',
    'x = ("alpha"\n     "beta")',
    'COLORS = ["#1f6feb", "#a1b2c3", "#fc0"]',
    'TOKEN_TYPES = ["access_token", "refresh_token", "id_token"]',
    'SUPPORTED_VERSIONS = ["v1.2.3", "v2.0.0", "v3.1.4"]',
    'api_keys = ["key1", "key2", "key3"]',
    'secret_keys = ["DB_PASSWORD", "API_KEY", "JWT_SECRET"]',
    'token_hashes = ["e3b0c44298fc1c149afbf4c8996fb924", "27ae41e4649b934ca495991b7852b855"]',
    'auth_methods = ["password", "oauth2", "saml"]',
    'key_ids = ["kid-2024-01", "kid-2024-06"]',
    'KEYS = ("Name", "Email", "PhoneNumber")',
    "password_rules:\n  - min_length_12\n  - require_digit",
    "secrets:\n  - db-credentials\n  - api-token",
    'words = ["alpha", "beta"].join("")',
    'parts = ["2024", "06", "01"].join("")',
    'lexers = ["TextLexer", "OutputLexer", "RawTokenLexer"]',
    'args = ["--verbose", "--output", "build/out.txt"]',
    'PASSWORD_BLOCKLIST = ["password123", "qwerty", "letmein"]',
    # A password's noun after a word that is no password.
    'He said "pass the tests" before merging.',
    "Argon2id is the password hashing algorithm we use.",
    "bcrypt is the password hash function",
    "pbkdf2_sha256 is the default password hasher in Django.",
    "TestLogin2 is the password test that fails.",
    "https://example.com/reset is the password reset page.",
    "The 'Summer' password policy is annoying",
    'the "forgot password" link is broken',
    "Use the `--password-stdin` flag; the password? it's read from stdin.",
    # A product's name where a password would stand, in any language.
    "パスワードは 1Password の「prod-db」項目を参照してください。",
    "Das Passwort ist in 1Password gespeichert.",
    "the password is kept in 1Password",
    # Accounts beside an image tag, a path, a branch.
    "docker pull postgres:16-alpine and grafana/grafana:10.2.3",
    "image: minio/minio:RELEASE.2024-01-01T00-00-00Z",
    "root:x:0:0:root:/root:/bin/bash",
    "git push origin admin/feature-X2",
    # Cookies that hold no session, a Windows SID.
    "Set-Cookie: session_timeout=1800; theme=dark",
    "Cookie: _ga=GA1.2.1234567890.1234567890; sid=S-1-5-21-3623811015-3361044348-30300820-1013",
    # Fragments that are anchors.
    "https://github.com/o/r/pull/12/files#diff-4f3a9c2b1e0d8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
    "https://docs.python.org/3/library/re.html#regular-expression-syntax and #L10-L42",
    "https://grafana.example.com/#/d/AbCdEf12/my-dashboard?orgId=1",
    "https://example.com/docs/page.html#section-3-2-Configuring-OAuth2",
    "https://portal.azure.com/#@contoso.onmicrosoft.com/resource/subscriptions/3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b",
    "https://kibana.example.com/app/discover#/view/90943e30-9a47-11e8-b64d-95841ca0b247?_g=(time:(from:now-15m))",
    # Concatenations of a digest or words; Windows switches with no password.
    'integrity = "sha256-" + "e3b0c44298fc1c149afbf4c8996fb924"',
    'ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" + "0123456789-_"',
    'name = "my" + "Service" + "Handler2"',
    "schtasks /query /fo LIST -p",
    "sc query state= all",
    # HTTPie without credentials, a variable's.
    "http GET https://example.com/api Accept:application/json",
    "http GET https://example.com/api -a $USER:$PASS",
    # Masks and documented samples.
    "the log shows `api_key=****` and `token=[REDACTED]` and `password=[FILTERED]` now",
    "The jwt.io sample eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c decodes to John Doe.",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_of_the_session_forms_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_of_the_session_forms_is_kept(text: str) -> None:
    assert_kept(text)


def test_an_assembled_secret_keeps_its_code_around_it() -> None:
    """Only the literals go: the braces, quotes, format and joins stay."""
    assert redacted("u = f\"https://ci:{'Xq7pL2mN9vR4tW8z'}@git.example.org\"") == (
        "u = f\"https://ci:{'[redacted]'}@git.example.org\""
    )
    assert redacted('h := fmt.Sprintf("Bearer %s", "Qw7Er8Ty9Ui0Op1As2Df3Gh4Jk5Lz")') == (
        'h := fmt.Sprintf("Bearer %s", "[redacted]")'
    )
    assert redacted('h = "Bearer " + "Qw7Er8Ty9Ui0Op1As2Df3Gh4Jk5Lz"') == 'h = "Bearer " + "[redacted]"'
    assert redacted('KEY_PARTS = ["a8F3kL9q", "Z2xW7vB1"]') == 'KEY_PARTS = ["[redacted]", "[redacted]"]'
