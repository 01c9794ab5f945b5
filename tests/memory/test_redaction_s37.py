"""Thirty-seventh session: secrets in webhook paths, codes, PINs, Wi-Fi strings, split literals and
key material; honest text kept around them (signed URLs, key files, flags) and look-alikes kept.

Every case is written here for its kind (none is a line of the session's blind set). 55 of the 77
cases fail on the previous rules (this file run against the tree before the session's commits): 36
of the 40 secret cases, all 10 kept-around cases, the split token's, and 8 of the 26 look-alikes
(the CSS colours, the ARN, AWS's example keys twice, base64 of a JSON document, two query strings
whose later parameters went with the first's value, and ``"".join(parts)``).
"""

from __future__ import annotations

import pytest

from osmia.memory.sanitize import redacted
from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret that must not survive)
SECRETS = [
    # A webhook's token as a path segment, on any host.
    ("ROCKET_HOOK=https://chat.example.org/hooks/k3j9x8q7w2m5n4b6v1c0z9a8s7", "k3j9x8q7w2m5n4b6v1c0z9a8s7"),
    (
        "POST https://ci.example.net/webhooks/4821/Zq8mK2pL9xR4vT7wY1nB3cF6hJ0dS5aG",
        "Zq8mK2pL9xR4vT7wY1nB3cF6hJ0dS5aG",
    ),
    ("curl https://n8n.example.io/webhook/a7c3e9f1-2b4d-4e6f-8a0b-1c3d5e7f9a2b -d {}", "a7c3e9f1-2b4d-4e6f"),
    # Recovery codes after a label with words before its colon, one a line too.
    ("Saved the recovery codes for ci-bot: 4a8f2-91c0d 77e1b-0d3aa 5c9e0-b1f27", "4a8f2-91c0d"),
    ("2FA backup codes (keep safe):\n  a8f2k-91c0d\n  77e1b-0d3aa\n  5c9e0-b1f27", "77e1b-0d3aa"),
    ("emergency codes for ops: 1a2b3c4d 5e6f7a8b 9c0d1e2f", "5e6f7a8b"),
    # A PIN with words between its label and the value.
    ("SIM PIN for the lab phone: 482913", "482913"),
    ("the PIN for the door panel is 7731", "7731"),
    ("SIM PUK: 12345678", "12345678"),
    ("Voicemail PIN — 90817", "90817"),
    # Wi-Fi: the QR code's text and prose.
    ("WIFI:T:WPA;S:Office-5G;P:hunter22!xyz;;", "hunter22!xyz"),
    ("WIFI:S:Lab\\;1;T:WPA2;P:Gz7#mQp2rT;H:false;;", "Gz7#mQp2rT"),
    ("the guest wifi password is sunflowerlake.", "sunflowerlake"),
    ("Wi-Fi password for the office: Kx93pq0Lm", "Kx93pq0Lm"),
    # A token split over literals: every piece goes.
    (
        'TOKEN = "xoxb-" + "118273645500-4455667788990-" + "Qw7Er8Ty9Ui0Op1As2Df3Gh4"',
        "Qw7Er8Ty9Ui0Op1As2Df3Gh4",
    ),
    ('TOKEN = "xoxb-" + "118273645500-4455667788990-" + "Qw7Er8Ty9Ui0Op1As2Df3Gh4"', "118273645500"),
    ('client.auth("ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z")', "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"),
    ('DB_PASSWORD = "Sum" + "mer2024!"', "mer2024!"),
    ("$token = 'glpat-' . 'Xk29fLq81ZmN3vB7cRt5';", "Xk29fLq81ZmN3vB7cRt5"),
    (
        'SLACK_TOKEN = ("xoxp-" "1234567890-" "0987654321-" "AbCdEfGhIjKlMnOpQrStUvWx")',
        "AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    # A Twilio auth token next to its account SID, with no name.
    (
        "Twilio AC0123456789abcdef0123456789abcdef / 5f4dcc3b5aa765d61d8327deb882cf99",
        "5f4dcc3b5aa765d61d8327deb882cf99",
    ),
    (
        "Client('AC0123456789abcdef0123456789abcdef', '9a8b7c6d5e4f30211f2e3d4c5b6a7988')",
        "9a8b7c6d5e4f30211f2e3d4c5b6a7988",
    ),
    # Key material: a note between the key's name and its value, a literal decoded in code.
    ("encryption key (base64): Yk9tZ1R3cHpXcVhKbE5vUGFrUnNUdVZ3WHlaMTIzNDU=", "Yk9tZ1R3cHpXcVhKbE5vUGFr"),
    (
        "AES-256 key (hex) = 8f14e45fceea167a5a36dedd4bea25438f14e45fceea167a5a36dedd4bea2543",
        "8f14e45fceea167a",
    ),
    (
        "aes_key = bytes.fromhex('603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4')",
        "603deb1015ca71be",
    ),
    ("key = base64.b64decode('q3t6w9zCFJNcRfUjXn2r5u8xADGKaPdSgVkYp3s6v9y=')", "q3t6w9zCFJNcRfUj"),
    # One-time-password seeds.
    ("pyotp.TOTP('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP').now()", "JBSWY3DPEHPK3PXP"),
    ("the mfa seed is GEZDGNBVGY3TQOJQ", "GEZDGNBVGY3TQOJQ"),
    ("Google Authenticator seed = JBSWY3DPEHPK3PXP NBSWY3DP", "NBSWY3DP"),
    ("TOTP secret: jbsw y3dp ehpk 3pxp", "y3dp ehpk"),
    ("oathtool --totp -b JBSWY3DPEHPK3PXPJBSWY3DP", "JBSWY3DPEHPK3PXP"),
    ("otpauth-migration://offline?data=CjEKCkhlbGxvId6tvu8SGEV4YW1wbGU6YWxpY2VAZ29vZ2xl", "CjEKCkhlbGxvId6t"),
    # A Vault unseal key as its init prints it; a cookie signer's secret.
    ("Unseal Key 1: q3t6w9zCFJNcRfUjXn2r5u8xADGKaPdSgVkYp3s6v9y+", "q3t6w9zCFJNcRfUj"),
    ("app.use(cookieParser('s3cr3t-Cookie-K3y-9x'))", "s3cr3t-Cookie-K3y-9x"),
    # Recovery codes in a numbered list; a split token over lines and in a joined list.
    ("Recovery codes:\n1. 4a8f2-91c0d\n2. 77e1b-0d3aa\n3. 5c9e0-b1f27", "5c9e0-b1f27"),
    (
        'SLACK_TOKEN = "xoxb-" +\n    "2278976131-9286235413" +\n    "ABH0yNDVEMsu8fTsun7QNYgM"',
        "ABH0yNDVEMsu8fTs",
    ),
    ('TOKEN = "".join(["ghp_", "aB3dE5fG7hJ9kL1", "mN3pQ5rS7tU9vW1xY3z"])', "mN3pQ5rS7tU9vW1xY3z"),
    # A passphrase with spaces as an escaped JSON string's value.
    ('{\\"secret\\":\\"correct horse battery staple\\"}', "correct horse"),
    # A password said with the English noun and another language's verb.
    ("el password de la base de datos es Gato1234!", "Gato1234!"),
    # A query's secret parameter after another one (it was taken with the first before).
    ("?oauth_token=kjerht2309uf&oauth_token_secret=lsdajfh923874Q&oauth_verifier=x", "lsdajfh923874Q"),
]

# (text, honest parts that must stay, the secret that must go)
KEPT_AROUND = [
    (
        "https://b.s3.us-east-1.amazonaws.com/k.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        "&X-Amz-Credential=AKIAQWERTYUIOPASDFGH%2F20240102%2Fus-east-1%2Fs3%2Faws4_request"
        "&X-Amz-Date=20240102T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host"
        "&X-Amz-Signature=0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
        ["X-Amz-Date=20240102T000000Z", "X-Amz-Expires=900", "X-Amz-SignedHeaders=host", "X-Amz-Signature="],
        "0a1b2c3d4e5f6071",
    ),
    (
        "https://b.s3.amazonaws.com/k?X-Amz-Security-Token=IQoJb3JpZ2luX2VjEJr%2F%2F%2Fabcdefgh12345678"
        "&X-Amz-Date=20240102T000000Z&X-Amz-Signature=0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6071",
        ["X-Amz-Date=20240102T000000Z"],
        "IQoJb3JpZ2luX2VjEJr",
    ),
    (
        "https://storage.googleapis.com/b/o.txt?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        "&X-Goog-Credential=svc%40proj.iam.gserviceaccount.com%2F20240101%2Fauto%2Fstorage%2Fgoog4_request"
        "&X-Goog-Date=20240101T000000Z&X-Goog-Expires=600&X-Goog-SignedHeaders=host"
        "&X-Goog-Signature=8e1f0a9b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f",
        ["X-Goog-Date=20240101T000000Z", "X-Goog-Expires=600", "X-Goog-SignedHeaders=host"],
        "8e1f0a9b7c6d5e4f",
    ),
    (
        "otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Example&digits=6",
        ["otpauth://totp/Example:alice@example.com?secret=", "&issuer=Example&digits=6"],
        "JBSWY3DPEHPK3PXP",
    ),
    (
        "huggingface-cli login --token hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567 --add-to-git-credential",
        ["--add-to-git-credential"],
        "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ",
    ),
    (
        "k.ppk: PuTTY-User-Key-File-3: ssh-ed25519, Encryption: none, Comment: ci, Private-Lines: 1, "
        "AAAAIHx9kq2LmZp7RtYabcdEFGH1234qq, Private-MAC: 0a1b2c3d4e5f",
        ["PuTTY-User-Key-File-3: ssh-ed25519, Encryption: none, Comment: ci, Private-Lines: 1,"],
        "AAAAIHx9kq2LmZp7",
    ),
    (
        "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/x9Y8z7W6v5U4t3S2r1Q0p9O8",
        ["SLACK_WEBHOOK_URL=https://hooks.slack.com/services/"],
        "x9Y8z7W6v5U4t3S2",
    ),
    (
        "discord: https://discord.com/api/webhooks/123456789012345678/AbCdEf-ghIJkl_MNopqrST1234567890uvwxYZ",
        ["https://discord.com/api/webhooks/123456789012345678/"],
        "AbCdEf-ghIJkl_MN",
    ),
    (
        "TEAMS_WEBHOOK_URL=https://contoso.webhook.office.com/webhookb2/1a2b3c4d-1111-2222-3333-444455556666"
        "@9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff/IncomingWebhook/0123456789abcdef0123456789abcdef"
        "/abcdef01-2345-6789-abcd-ef0123456789",
        ["https://contoso.webhook.office.com/webhookb2/", "/IncomingWebhook/"],
        "0123456789abcdef0123",
    ),
    (
        "https://chat.example.org/hooks/k3j9x8q7w2m5n4b6v1c0z9a8s7",
        ["https://chat.example.org/hooks/"],
        "k3j9x8q7w2m5n4b6",
    ),
]

# Honest text that looks like the kinds above: kept as written.
KEPT = [
    "see https://docs.example.com/hooks/overview and /webhooks/github for details",
    "https://github.com/org/repo/settings/hooks/412345678",
    "the handler lives at /webhooks/stripe/payment_intent_succeeded_v2",
    "We documented how recovery codes work in 2 steps.",
    "backup codes for 2 accounts were printed",
    "pin the version to 3.2",
    "PIN 3 threads to core 0",
    "The PIN must be 6 digits",
    "listens on port 8080, 12 workers",
    "The wifi password is printed on the router.",
    "the wifi password is changing weekly",
    'msg = "hello " + "world"',
    'path = "/usr/" + "local/bin"',
    "long_auth = 'username:' + 'password'*10",
    ":root { --color-primary: #1f6feb; --secret-badge: #a1b2c3; --token-bg: #fc0; }",
    "arn:aws:secretsmanager:us-west-2:123456789012:secret:staging/api/token-AbC123",
    "AWS's docs use AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY in examples",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "echo 'eyJuYW1lIjoiZGVtbyIsInRhZ3MiOlsiYWxwaGEiLCJiZXRhIl19' | base64 -d",
    "iv = bytes.fromhex('000102030405060708090a0b0c0d0e0f')",
    "the signing key (see vault): rotated",
    "la contraseña es secreta",
    "https://example.com/authorize?oauth_token=[redacted]&oauth_callback=https%3A%2F%2F127.0.0.1%2Fcb",
    "GET /revoke?token=[redacted]&callback=package.myCallback HTTP/1.1",
    'token = "".join(parts)',
    "ENCRYPT_ITERATIONS = 100000",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_of_the_session_kinds_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize(("text", "honest", "secret"), KEPT_AROUND)
def test_only_the_secret_of_a_url_or_key_file_is_redacted(text: str, honest: list[str], secret: str) -> None:
    out = redacted(text)
    assert secret not in out, out
    for part in honest:
        assert part in out, (part, out)
    assert redacted(out) == out


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_of_the_session_kinds_is_kept(text: str) -> None:
    assert_kept(text)


def test_a_split_token_keeps_its_joins_and_quotes() -> None:
    out = redacted('TOKEN = "xoxb-" + "1182736455-44556677" + "Qw7Er8Ty9Ui0Op1As2Df3Gh4"')
    assert out == 'TOKEN = "[redacted]" + "[redacted]" + "[redacted]"'
