"""Fortieth session: pieces of a secret quoted in prose, a password given as what opens something,
an account used with its password, a camel-case name before its value, a JSON Web Key's private
members, licence keys, C's ``snprintf`` and Redis' ``AUTH`` sent by code, ``htpasswd``'s flags
after ``-b``, a parenthesised concatenation, passwords in other languages' quotes; and the
look-alikes the same rules keep (a key file's armour, SSH public keys, settings, versions, ids
that a name calls a key, masks, URL templates and Terraform's references).

Every case is written here for its form (none is a line of a blind set).
"""

from __future__ import annotations

import pytest

from osmia.memory.sanitize import redacted
from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret that must not survive)
SECRETS = [
    # A piece of a secret, either order of its noun and the word that says it is a piece.
    ("The first 14 characters of the leaked token were Qm7zLp2Vx9KcRt, so we rotated it.", "Qm7zLp2Vx9KcRt"),
    ("Only the prefix of the API key survived in the log: `Zt4QwPn8Lm2xVb`.", "Zt4QwPn8Lm2xVb"),
    ("The old secret ended with ...h7KpQ2mZx9Lw (the rest is in Vault).", "h7KpQ2mZx9Lw"),
    ("Password split across two tickets: part one `Rk8vNq2LxP`, part two `Mz4TwY7cQa`.", "Mz4TwY7cQa"),
    # A password given as what opens something, with no noun for it.
    ("The door code for the server room is Falcon-Meadow-42.", "Falcon-Meadow-42"),
    ("To get past the BIOS prompt, type Quartz!Lemon-88 and press Enter.", "Quartz!Lemon-88"),
    ("Use Harbor#Violet-19 to log in to the staging console.", "Harbor#Violet-19"),
    ("The shared laptop unlocks with Maple.Canyon.2023 now.", "Maple.Canyon.2023"),
    # An account used with its password.
    ("The NAS accepted admin with Xr7!kPq2Lm after the reset.", "Xr7!kPq2Lm"),
    ("Logged the export job in as ops@corp.example using Vb8#nM3qWz.", "Vb8#nM3qWz"),
    # A camel-case name that ends in a secret's noun, then the value.
    ("TencentCloud SecretId AKIDx9, ClientSecret Nq8xLm2Vp7KzRt4Yw9Qb", "Nq8xLm2Vp7KzRt4Yw9Qb"),
    ("set refreshToken 9fKq2LmX7vNp4RtZ8wYb on the client", "9fKq2LmX7vNp4RtZ8wYb"),
    # A JSON Web Key's private members (EC's d; RSA's p and q; a symmetric k).
    ('{"kty":"EC","crv":"P-256","d":"q8Zx2LmN7vKp4RtY9wQb3HcJ6sFd1GeA5uTi0oPl","x":"abc"}', "q8Zx2LmN7vKp4"),
    ("{'kty': 'oct', 'k': 'Vb7Nq2LmX9KzRt4Yw8Qp3HcJ6sFd'}", "Vb7Nq2LmX9KzRt4Yw8Qp3HcJ6sFd"),
    ('"p": "2Lm9KzRt4Yw8Qp3HcJ6sFdVb7Nq", "q": "Yw8Qp3HcJ6sFd2Lm9KzRt4Vb7Nq"', "Yw8Qp3HcJ6sFd2Lm9KzRt4Vb7Nq"),
    # A licence key after its label.
    ("Activation code for the IDE: K7QPZ-M2XWL-9RTNB-V4CHJ", "K7QPZ-M2XWL-9RTNB-V4CHJ"),
    ("The product key is 8HJ3K-PQ7ZX-MN2VB-RT4WY-L9CDS.", "8HJ3K-PQ7ZX-MN2VB-RT4WY-L9CDS"),
    # C's snprintf with a buffer and its size, and a format with escapes in it.
    ('snprintf(out, sizeof(out), "password=%s\\n", "Tq7!mZ2xPv");', "Tq7!mZ2xPv"),
    # Redis' AUTH written to the server by code.
    ('sock.sendall(b"AUTH default Kp9#xQ2mLv\\r\\n")', "Kp9#xQ2mLv"),
    # htpasswd with other flags after -b.
    ("htpasswd -b -B -C 12 /etc/httpd/.htpasswd alice Wz8!qN3mKp", "Wz8!qN3mKp"),
    # Python's implicit concatenation in brackets after a secret's name.
    ('SECRET_KEY = (\n    "q8Zx2LmN7v"\n    "Kp4RtY9wQb"\n)', "Kp4RtY9wQb"),
    # Passwords in the quotes of other languages.
    ("Das Passwort lautet „Birke7!Nebel“ für den Testserver.", "Birke7!Nebel"),
    ("Le mot de passe est «\u00a0Gr4nit#Ciel\u00a0», à changer demain.", "Gr4nit#Ciel"),
]

KEPT = [
    # A key file's armour: BEGIN and END in capitals are no piece of a key.
    "-----BEGIN PUBLIC KEY----- MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEx9Lq -----END PUBLIC KEY-----",
    # SSH public keys, named as a half of a key pair.
    "The public half of the deploy key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk2Lq9xP deploy@ci.",
    # Pieces of things that are not secrets: digests, UUIDs, identifiers.
    "The first 12 characters of the commit are 3f9a2c1b7e4d, enough for git show.",
    "The last part of the token is checked by configurationManagerV2 before use.",
    "Keys start with the tenant id 7c1e4a2b-9f3d-4e8a-b6c5-1d2e3f4a5b6c in the cache.",
    # Settings and versions after the words of opening.
    "Password hashing uses scrypt with `n_cost=16384` and r=8; unlock it with time_cost=2 only in tests.",
    "Log in with Ubuntu-22.04-Jammy images only; the others lack the agent.",
    "Use feature-X2 to access the new dashboard behind the flag.",
    "Deploy with DB_PASSWORD=$DB_PASSWORD set in the environment.",
    # An id that a name calls a key.
    "Send Idempotency-Key: 5b1f6c2e-8a3d-4f7b-9c0e-2d4a6b8c1e3f with every retry.",
    "cache_key = 0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a",
    # Masks and templates.
    "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX in the example file",
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "SENTRY_DSN=https://<public_key>@o0.ingest.sentry.io/<project_id>",
    "DATABASE_URL=postgres://${DB_USER}:${DB_PASS}@db:5432/app",
    # Terraform's references.
    "password = var.db_password",
    "master_password = local.secrets.rds_master",
    'secret_string = data.vault_generic_secret.db.data["password"]',
    # Redis' AUTH as a word in code.
    'raise AuthError("AUTH required")',
    # A licence key's format written with a mask.
    "License key format: XXXXX-XXXXX-XXXXX-XXXXX",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secret_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", KEPT)
def test_look_alike_is_kept(text: str) -> None:
    assert_kept(text)


def test_every_piece_of_a_split_secret_goes() -> None:
    """A secret quoted in pieces loses every piece, not only the first the rule meets."""
    out = redacted("AWS secret split in two: part 1 `Hq7LmZ2xPvN4`, part 2 `Rt9KwY3cQb8M`.")
    assert "Hq7LmZ2xPvN4" not in out and "Rt9KwY3cQb8M" not in out, out


def test_the_scan_finds_every_memorable_password_the_rules_take() -> None:
    """Redaction's one scan looks for what every memorable password holds (``_MEMORABLE_GATE``): a
    value the rules' check takes and the scan missed would never be redacted. Values built of
    words, numbers and random runs joined by dashes, dots and signs."""
    import random
    import string

    from osmia.memory.linear import linear
    from osmia.memory.secret_prose import _MEMORABLE_GATE
    from osmia.memory.secret_values import memorable_password

    gate = linear(_MEMORABLE_GATE)
    rnd = random.Random(40)
    words = ["tapioca", "Lighthouse", "Puma", "Zest", "Cinnamon", "Ferry", "orchid", "Nimbus", "kite"]
    letters = string.ascii_letters + string.digits + "!@#$%^&*?~+"
    taken = 0
    for _ in range(20000):
        parts = [
            rnd.choice(
                [
                    rnd.choice(words),
                    str(rnd.randint(0, 99999)),
                    "".join(rnd.choice(letters) for _ in range(4)),
                ]
            )
            for _ in range(rnd.randint(2, 5))
        ]
        value = "".join(part + rnd.choice(["-", ".", "", "!", "#"]) for part in parts)[:-1]
        if memorable_password(value):
            taken += 1
            assert gate.search(value) is not None, value
    assert taken > 1000
