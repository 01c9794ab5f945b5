"""Thirty-ninth session: a declaration's type written in words between the name and its value
(Visual Basic's ``As String``, Go's ``var … string``), Visual Basic's concatenation over lines, and
one-time-password seeds with no digit in them; look-alikes kept.

Every case is written here for its form (none is a line of a blind set).
"""

from __future__ import annotations

import pytest

from osmia.memory.sanitize import redacted
from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret that must not survive)
SECRETS = [
    # Visual Basic (any case) and VBA: Dim, Const, a scope before it.
    ('Dim pwd As String = "Xk9#mQ2vL7"', "Xk9#mQ2vL7"),
    ('dim password as string = "Tr0ub4dor&3x"', "Tr0ub4dor&3x"),
    ('Private Const API_KEY As String = "a8F3kL9xQ2mN7pR4"', "a8F3kL9xQ2mN7pR4"),
    ('Public Shared ReadOnly ClientSecret As String = "Zq8!vN3pL6mW"', "Zq8!vN3pL6mW"),
    # Go's declared type.
    ('var dbPassword string = "Hx8!pQ2zLm4v"', "Hx8!pQ2zLm4v"),
    ('const apiToken string = "tk_9fK2mQ7xL4pN8vR3"', "tk_9fK2mQ7xL4pN8vR3"),
    # Visual Basic's concatenation: ``&`` with its type, and over lines with the continuation mark.
    ('Dim pwd As String = "Xk9#mQ2" & "vL7!pR4z"', "vL7!pR4z"),
    ('Dim conn As String = "Server=db;Uid=sa;Pwd=" & _\n    "Wq7!mZ2xPv9L"', "Wq7!mZ2xPv9L"),
    ('TOKEN = "xoxb-2278-9934" & _\r\n    "ABH0kjsd8F3hjdf7Qw2"', "ABH0kjsd8F3hjdf7Qw2"),
    # One-time-password seeds of letters only, named so or in groups of four.
    ("MFA_SEED=KRSXGZLUMFZWKYLTMVZGK", "KRSXGZLUMFZWKYLTMVZGK"),
    ("totp seed: NBSWYTLPMRXXEZLQ", "NBSWYTLPMRXXEZLQ"),
    ('otp_key = "GRSXKZLBNFTWQYLP"', "GRSXKZLBNFTWQYLP"),
    ("Authenticator key: MZXW YZLB NFSW QYLP", "MZXW YZLB NFSW QYLP"),
]

KEPT = [
    # Visual Basic's empty values and a value read at run time.
    "Dim token As String = Nothing",
    "Dim token As String = String.Empty",
    "Dim pwd As String = vbNullString",
    "Dim password As String = GetPassword()",
    'Dim token As String = ""',
    'var password string = os.Getenv("DB_PASSWORD")',
    # A message built with ``&``; words that follow "as".
    'Dim msg As String = "Hello, " & name',
    "Treat the token as string data, not bytes.",
    # A typed declaration's value that is code (as ``password: str = cfg.password`` is).
    "Dim token As String = response.AccessToken",
    "var password string = cfg.Password",
    # "as" and a word before "=" in prose.
    "Create the secret as type=Opaque, not kubernetes.io/tls",
    "Store the password as hash=argon2id",
    "Pass the token as env=GITHUB_TOKEN",
    # Seed-like values a person wrote to be replaced, words run together, or short.
    "MFA_SEED=INSERTYOURTOTPSEEDHERE",
    "totp seed: YOURSEEDGOESHERE",
    "mfa key: authenticationcode",
    "OTP_KEY=NONE",
    "totp secret: CHANGEME",
    # Words after a one-time password's name: prose, in groups of four letters.
    "Rotate the MFA secret when this test runs.",
    "the OTP key must stay with this host only",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_of_the_session_forms_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_of_the_session_forms_is_kept(text: str) -> None:
    assert_kept(text)


def test_a_typed_declaration_keeps_its_code_around_the_value() -> None:
    """Only the literal goes: the keyword, name, type and operator stay."""
    assert redacted('Dim pwd As String = "Xk9#mQ2vL7"') == 'Dim pwd As String = "[redacted]"'
    assert redacted('var pwd string = "Xk9#mQ2vL7"') == 'var pwd string = "[redacted]"'
    assert redacted('Dim pwd As String = "Xk9#mQ2" & _\n  "vL7!pR4z"') == (
        'Dim pwd As String = "[redacted]" & _\n  "[redacted]"'
    )
