"""Fiftieth session: a value said a few words after a secret's name in any language, a quoted
literal shaped as a password whatever surrounds it, and a password's flag after a user's flag
(docs/security.md, "Fiftieth session").

Both are general steps, not forms of one set: the forty-ninth session's held-out sets showed that
rules written for one slice of text move another slice's leaks by two or fewer. The values here
are fresh, not the sets'.
"""

from __future__ import annotations

import pytest

from osmia.memory.secret_nearby import nearby_sub
from osmia.memory.secret_quoted import quoted_password
from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret in it): a secret's name, then words no named rule knows, then the value.
NEARBY = [
    ("I set WANDB_API_KEY to the new value 7c0d93ab41e8f25c6d7a19b3e4f0c28d5a61b97e and reran.",
     "7c0d93ab41e8f25c6d7a19b3e4f0c28d5a61b97e"),
    ("Habe in der CI-Variable HF_TOKEN den neuen Wert Qm7vZt2Lk9XpR4wN8cYb3Hd6Fj eingetragen.",
     "Qm7vZt2Lk9XpR4wN8cYb3Hd6Fj"),
    ("Tôi đã đổi mật khẩu Wi-Fi thành Rv8^kTq2Lm!xZp trong cấu hình.", "Rv8^kTq2Lm!xZp"),
    ("正确的 keystorePassword 是 Hx4!pQz9Lw#tVb2m，已经更新。", "Hx4!pQz9Lw#tVb2m"),
    ("Заменил api_secret на 4f1a9e7c2b8d6053e1f7a9c4b2d80e6f и перезапустил.",
     "4f1a9e7c2b8d6053e1f7a9c4b2d80e6f"),
    ("The new pre-shared key is Jt7#vQm2Xr9!Lp4w for both sites.", "Jt7#vQm2Xr9!Lp4w"),
    ("Ho impostato la password del router a Nq3$Lx8vTz!m0Kp dal pannello.", "Nq3$Lx8vTz!m0Kp"),
]  # fmt: skip

# (text, the secret in it): a password between quotes, with nothing naming it.
QUOTED = [
    ("Changed it to 'Vk2#Rq9!mTz7Lx' on both ends of the tunnel.", "Vk2#Rq9!mTz7Lx"),
    ("Nowe ustawione na „Birch-Ember-5520=” i zapisane.", "Birch-Ember-5520="),
    ("변경 후 값은 'Qp7%Lm2^Xr9!Tk' 입니다.", "Qp7%Lm2^Xr9!Tk"),
    ("シークレットは「Wz8#nQ4!kLp2Xv」に変更済み。", "Wz8#nQ4!kLp2Xv"),
    ("<details>prod db</details> `orders_rw` / `Mx9!qT4#vLz7Rp`", "Mx9!qT4#vLz7Rp"),
    ("Le nouveau est « Tq5@Lw8!zXm3Vr » pour la passerelle.", "Tq5@Lw8!zXm3Vr"),
]

# (text, the secret in it): a password's flag after a user's flag, however the tool spells it.
FLAGS = [
    ("pmcmd starttask -sv IS_PRD -u etl_operator -p Wq7_vLm2Xk9zR -f FIN", "Wq7_vLm2Xk9zR"),
    ("ipmitool -I lanplus -H 10.0.0.5 -U ADMIN -P 'Tz4pQm8vXk2L' chassis power on", "Tz4pQm8vXk2L"),
    ("infacmd.sh isp enableService -dn D -un Administrator -pd Hk3_Lz9wQm2Vx -sn DIS", "Hk3_Lz9wQm2Vx"),
]

# (text, the secret in it): a value in XML named elsewhere than its element, and network devices'
# reversible or crackable forms.
ELEMENTS = [
    ('<property name="hibernate.connection.password">Rq7_Lm2vXk9Tz</property>', "Rq7_Lm2vXk9Tz"),
    ('<entry key="jdbc.password">Rq7_Lm2vXk9Tz</entry>', "Rq7_Lm2vXk9Tz"),
    (
        '<setting name="SmtpPassword" serializeAs="String"><value>Rq7_Lm2vXk9Tz</value></setting>',
        "Rq7_Lm2vXk9Tz",
    ),
    ("<AdministratorPassword>\n  <Value>Rq7_Lm2vXk9Tz</Value>\n</AdministratorPassword>", "Rq7_Lm2vXk9Tz"),
    (
        '<String><Key>Password</Key><Value ProtectInMemory="True">Rq7_Lm2vXk9Tz</Value></String>',
        "Rq7_Lm2vXk9Tz",
    ),
    ("username admin privilege 15 password 7 0822455D0A16", "0822455D0A16"),
    (" tacacs-server key 7 104D000A0618", "104D000A0618"),
    ("enable secret 9 $9$Lm2vXk9Tz4pQ8w$Rq7Lm2vXk9Tz4pQ8wHx3Yc6Hd1Fg5Js0Ae2Qu8Zo7", "Lm2vXk9Tz4pQ8w"),
]

# (text, the secret in it): older rules' gaps the new sets showed: a password holding ``_%`` after
# a word read as a token's prefix and a format string, ssmtp's ``AuthPass``, and a random value
# with a dot read as a file's name (``report2.pdf``).
GAPS = [
    ("params={'username': 'backup', 'password': 'iz_%pWdAmtwa8bViObemCG'}", "iz_%pWdAmtwa8bViObemCG"),
    ("AuthUser=alerts@example.com\nAuthPass=Yo2_Lm8vXk3Tz", "Yo2_Lm8vXk3Tz"),
    ("10:41:07 IP 10.0.8.15.40122 > 10.0.8.25.110: POP3: PASS 7Kq2.v84LMzf39cp2R", "7Kq2.v84LMzf39cp2R"),
]

# Look-alikes either step must keep: what follows a secret's name that is no secret, and quoted
# literals that mix signs, digits and cases without being passwords.
KEPT = [
    "The token rotation landed in commit 4b9e1f7a0c3d5e8f2a6b1c9d7e0f3a5b8c2d4e6f yesterday.",
    "Die Commits sind mit dem Schlüssel 3AA5C34371567BD2 signiert.",
    "Created an API key named ci-reporter-2025 with read scope only.",
    "The new key's fingerprint is SHA256:Qp7Lm2Xr9Tk4Vb8Wn3Yc6Hd1Fg5Js0Ae2Qu8Zo7wX in the audit log.",
    "The last part of the token is checked by configurationManagerV2 before use.",
    "for idx, token in enumerate(tokens):",
    'psql "host=$PGHOST user=$PGUSER password=$PGPASSWORD sslmode=require"',
    "DATABASE_URL=postgres://USER:PASSWORD@localhost:5432/app",
    "vault token lookup -accessor 8fQw2LmZ7xTkR4vNp9YcBd3H",
    "Ключ удалён из истории в коммите 9f3e2a1b7c4d6e8f0a2b4c6d8e0f1a3b5c7d9e1f, токен отозван.",
    'Run `dotnet user-secrets set "Stripe:ApiKey" "<your-test-key>"` to configure.',
    'hash = "sha256-Qp7Lm2Xr9Tk4Vb8Wn3Yc6Hd1Fg5Js0Ae2Qu8Zo7+=";',
    "content-security-policy: script-src 'self' 'nonce-Rk2vQm9XpL4wT8zB=='",
    "See [`RFC6749#Token`_] for the endpoint.",
    "name = 'Javascript+UL4'",
    'style: "border:#FF00AA"',
    "pattern '*.Tmp1!' matched nothing",
    "pinned 'TLSv1.2+TLSv1.3' and 'Django==4.2.11'",
    "curl -d 'channel=C0VZ38GF49&text=Hello!' https://hooks.example.com",
    "the tag is 'b64::SGVsbG8=::v2' as Insomnia writes it",
    "x5t param 'x5t#S256' is in the header",
    "Examples like 'P@ssw0rd!Example' are rejected by the policy check.",
    "git push -u origin main && xargs -P 4 make",
    "mysql -h db -u app -P 3306 --ssl-mode=REQUIRED",
    "pmcmd starttask -u $PM_USER -p $PM_PASSWORD -f FIN",
    "Run it as -u admin -p prompted, never with the value inline.",
    '<property name="hibernate.connection.password">${DB_PASSWORD}</property>',
    '<entry key="password.policy">strict</entry>',
    '<param name="password" value="$PW"/> <b>always</b>',
    "key 7 of the 12 were rotated",
    "api_key = 'sk_live_%s' % key_suffix",
    "The OAuthPass flow ends at the callback.",
    "Pass config.production.yaml to the loader, as in python3.12.4.",
    "Das Passwort für die Staging-Datenbank liegt im Tresor.",
]


@pytest.mark.parametrize(("text", "secret"), NEARBY + QUOTED + FLAGS + ELEMENTS + GAPS)
def test_a_secret_no_named_rule_reads_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_is_kept(text: str) -> None:
    assert_kept(text)


def test_the_nearby_step_alone_takes_only_the_value() -> None:
    """The step replaces the value and nothing else: the name and the words around it stay."""
    step = nearby_sub()
    out = step("Set the SENTRY_TOKEN to Zq8vLm2Xr7Tk4Wb9Pn3Y today.")
    assert out == "Set the SENTRY_TOKEN to [redacted] today."
    assert step(out) == out


@pytest.mark.parametrize(
    ("value", "password"),
    [
        ("Vk2#Rq9!mTz7Lx", True),
        ("NAME=Vk2#Rq9!mTz7Lx", True),  # the value of an assignment between quotes
        ("BRANCH=release/5.2", False),
        ("Vk2#Rq9", False),  # too short to say so with nothing naming it
        ("vk2#rq9!mtz7lx", False),  # no upper-case letter: a password, maybe, but also much else
        ("h1:Qp7Lm2Xr9Tk4Vb8Wn3Yc6Hd1Fg5Js0Ae2Qu8Zo7=", False),
        ("Hello%20World%21Ab1", False),
    ],
)
def test_what_reads_as_a_password_between_quotes(value: str, password: bool) -> None:
    assert quoted_password(value) is password


def test_the_sets_the_steps_moved() -> None:
    """The sets whose figures the two steps moved (leaked / look-alikes changed), no more than
    the session left: 17h 28 → 18, 17j 28 → 19, 16a 9 → 8, 16c 10 → 9, 15a 7 → 6, 15b 5 → 4,
    evasive 13c 17 → 16, each with no look-alike more changed."""
    from benchmarks.redteam_sets import evasive_13, secrets_15, secrets_16, secrets_17

    figures = {
        "17h": (secrets_17("h"), 18, 10),  # Okta ids: the fifty-first session's unnamed step
        "17j": (secrets_17("j"), 19, 5),
        "16a": (secrets_16("a"), 8, 0),
        "16c": (secrets_16("c"), 9, 2),
        "15a": (secrets_15("a"), 6, 5),
        "15b": (secrets_15("b"), 4, 3),
    }
    for name, (got, leaked, changed) in figures.items():
        assert got["leaked"][0] <= leaked, (name, got)
        assert got["changed"][0] <= changed, (name, got)
    evasive = evasive_13("c")
    assert evasive["leaked"][0] <= 16, evasive


def test_the_sessions_blind_sets() -> None:
    """benchmarks/data/secrets18k.jsonl (networks and telecom) and …l (enterprise applications),
    each written by a helper who read nothing else: K 42 leaked and 5 look-alikes changed at the
    session's start, 40 and 5 held out after the session's general steps; L 38 and 7, 36 and 7.
    What leaks and what ordinary lines change is no more than the session left (docs/security.md,
    fiftieth session)."""
    from benchmarks.redteam_sets import secrets_18

    for name, (leaked, changed) in {"k": (29, 5), "l": (30, 7)}.items():
        figures = secrets_18(name)
        assert (figures["leaked"][1], figures["changed"][1]) == (200, 100)
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)
